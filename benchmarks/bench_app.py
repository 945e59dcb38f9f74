"""The app's two user-visible latencies, measured with Pilot (headless Textual, 80×24).

1. Cold start to the first question (target < 1.5 s): a fresh Python process imports the app, opens a
   new session in a new SQLite file and runs until the engine's first question is on screen; also the
   same through the CLI (`sizer-agent app`, which first imports every command module to build its
   parser). Baseline, same run: a fresh process that starts an empty Textual app to its first frame.
2. Answer → tool result on screen (target < 200 ms): inside one app, the real engine and store; the
   timed step is pressing Enter on a correction ("en fait bf16" / "en fait fp8") after a complete
   interview, which records the answer and re-runs the tools; it ends when the estimate's tool card shows
   its result. Baseline, same run: the same keypress → card path with a scripted backend that returns a
   canned result at once (what the UI alone costs).

Each figure is the median over the repeats (max beside it); ratios are against the baseline of the run.
Run: `python benchmarks/bench_app.py [--repeats N] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

START_TARGET_S = 1.5
TOOL_TARGET_MS = 200.0

# Runs in a fresh interpreter; prints the wall-clock time (epoch seconds) when the first question is on
# screen, so that the parent measures from spawning the process, interpreter start-up included.
_COLD_APP = """
import time
import asyncio, sys
from sizer_agent.app import AppConfig, SizerApp
from sizer_agent.app.production import production_backend_factory
from sizer_agent.app.widgets.chat import AgentLine

async def main():
    app = SizerApp(production_backend_factory(sys.argv[1]), AppConfig(cursor_blink=False))
    async with app.run_test(size=(80, 24)) as pilot:
        while not any("question" in w.classes for w in app.query(AgentLine)):
            await pilot.pause(0.005)
        await pilot.pause()  # the frame that shows it
        print(time.time())

asyncio.run(main())
"""
# The same through the command line: `sizer-agent app` builds the whole CLI parser first (every command
# module is imported to list the subcommands), then starts the app.
_COLD_CLI = """
import time
import asyncio, sys
from sizer_agent.cli import build_parser

parser, commands = build_parser()
args = parser.parse_args(["app", "--db", sys.argv[1]])
from sizer_agent.app import AppConfig, SizerApp
from sizer_agent.app.production import production_backend_factory
from sizer_agent.app.widgets.chat import AgentLine

async def main():
    app = SizerApp(production_backend_factory(args.db), AppConfig(lang=args.lang, cursor_blink=False))
    async with app.run_test(size=(80, 24)) as pilot:
        while not any("question" in w.classes for w in app.query(AgentLine)):
            await pilot.pause(0.005)
        await pilot.pause()
        print(time.time())

asyncio.run(main())
"""
_COLD_BASELINE = """
import time
import asyncio
from textual.app import App
from textual.widgets import Static

class Empty(App):
    def compose(self):
        yield Static("ready")

async def main():
    async with Empty().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        print(time.time())

asyncio.run(main())
"""


def _process_seconds(code: str, *args: str) -> float:
    """Seconds from spawning a fresh interpreter running `code` to the mark it prints (its exit excluded)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.time()  # wall clock: the child's mark is read on the same clock
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1]) - start


def cold_start(repeats: int) -> dict[str, list[float]]:
    app, cli, baseline = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for index in range(repeats):
            baseline.append(_process_seconds(_COLD_BASELINE))
            app.append(_process_seconds(_COLD_APP, str(Path(folder) / f"s{index}.db")))
            cli.append(_process_seconds(_COLD_CLI, str(Path(folder) / f"c{index}.db")))
    return {"app_s": app, "cli_s": cli, "baseline_s": baseline}


INTERVIEW = [
    "Acme", "un chatbot interne en ligne", "Llama 3.1 70B Instruct en fp8, contexte 8k, 32 utilisateurs",
    "2k / 512", "x2", "500 ms", "40 ms", "vLLM 0.11.0", "2 GPU", "serveur", "oui", "pas de limite",
    "pas de limite", "4U",
]


async def _answer_to_card(app: Any, pilot: Any, text: str, tool: str) -> float:
    """Type `text`, then time Enter → the first frame that draws a new card for `tool` with its result.

    "Drawn" is the card's `render()` being called with the result set: the compositor calls it for the
    frame it is about to paint.
    """
    from sizer_agent.app.widgets.chat import ToolCard

    before = {id(c) for c in app.query(ToolCard)}
    drawn: list[float] = []
    original = ToolCard.render

    def render(card: Any) -> Any:
        if not drawn and id(card) not in before and card.call.tool == tool and card.outcome is not None:
            drawn.append(time.perf_counter())
        return original(card)

    await pilot.press(*text)
    ToolCard.render = render  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        await pilot.press("enter")
        while not drawn:
            await pilot.pause(0.001)
    finally:
        ToolCard.render = original  # type: ignore[method-assign]
    return (drawn[0] - start) * 1000


async def _tool_latency(repeats: int) -> dict[str, Any]:
    from sizer_agent.app import AppConfig, SizerApp
    from sizer_agent.app.production import production_backend_factory
    from tests.tui.helpers import say, settle
    from tests.tui.scripted import ScriptedBackend

    measured: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        app = SizerApp(production_backend_factory(Path(folder) / "s.db"),
                       AppConfig(cursor_blink=False, output_dir=Path(folder)))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            for text in INTERVIEW:
                await say(pilot, text)
            from sizer_agent.app.screens.results import ResultsScreen

            for index in range(repeats):
                if isinstance(app.screen, ResultsScreen):
                    await pilot.press("escape")
                    await settle(pilot)
                correction = "en fait bf16" if index % 2 == 0 else "en fait fp8"
                measured.append(await _answer_to_card(app, pilot, correction, "estimate_memory"))
                await settle(pilot)
            tools = sorted({c.call.tool for c in app.query("ToolCard")})  # type: ignore[attr-defined]

    baseline: list[float] = []
    for _ in range(repeats):
        backend = ScriptedBackend()
        app = SizerApp(lambda backend=backend: backend, AppConfig(cursor_blink=False))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await say(pilot, "Llama-3.1-70B-Instruct")
            await say(pilot, "fp8")
            baseline.append(await _answer_to_card(app, pilot, "32", "estimate_memory"))
    return {"app_ms": measured, "baseline_ms": baseline, "tools_run": tools}


def _summary(values: list[float]) -> str:
    return f"median {statistics.median(values):.3g}, max {max(values):.3g}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    cold = cold_start(args.repeats)
    tool = asyncio.run(_tool_latency(args.repeats))
    start_s = statistics.median(cold["app_s"])
    start_base = statistics.median(cold["baseline_s"])
    tool_ms = statistics.median(tool["app_ms"])
    tool_base = statistics.median(tool["baseline_ms"])
    report = {
        "cold_start_to_first_question_s": {"median": start_s, "max": max(cold["app_s"]),
                                           "baseline_empty_textual_app_s": start_base,
                                           "ratio": start_s / start_base, "target_s": START_TARGET_S},
        "answer_to_tool_result_on_screen_ms": {"median": tool_ms, "max": max(tool["app_ms"]),
                                               "baseline_scripted_backend_ms": tool_base,
                                               "ratio": tool_ms / tool_base, "target_ms": TOOL_TARGET_MS,
                                               "tools_run": tool["tools_run"]},
        "cold_start_through_cli_s": {"median": statistics.median(cold["cli_s"]), "max": max(cold["cli_s"]),
                                      "ratio": statistics.median(cold["cli_s"]) / start_base},
        "repeats": args.repeats,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"cold start → first question: {_summary(cold['app_s'])} s "
          f"(empty Textual app: {_summary(cold['baseline_s'])} s; ratio {start_s / start_base:.2f}×; "
          f"target < {START_TARGET_S} s: {'met' if start_s < START_TARGET_S else 'MISSED'})")
    cli_s = statistics.median(cold["cli_s"])
    print(f"  the same through `sizer-agent app` (CLI parser built first): {_summary(cold['cli_s'])} s "
          f"(ratio {cli_s / start_base:.2f}×; target < {START_TARGET_S} s: "
          f"{'met' if cli_s < START_TARGET_S else 'MISSED'})")
    print(f"answer → tool result on screen: {_summary(tool['app_ms'])} ms "
          f"(scripted backend: {_summary(tool['baseline_ms'])} ms; ratio {tool_ms / tool_base:.2f}×; "
          f"target < {TOOL_TARGET_MS:.0f} ms: {'met' if tool_ms < TOOL_TARGET_MS else 'MISSED'}; "
          f"tools run: {', '.join(tool['tools_run'])})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
