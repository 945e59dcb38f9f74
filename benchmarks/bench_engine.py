"""Conversation engine latency: the user's last answer -> the first tool result event (target < 200 ms).

A scripted interview is replayed up to the last question; the timed step is the final answer, which makes
the profile complete, records the answer and runs the tools. Timestamps come from the engine's `on_event`
callback, the hook a front end renders from, so "answer -> estimate_memory result" is what a user sees.

Reported as milliseconds (median and max over the repeats) and as a ratio against a baseline measured in
the same run: calling `tools.estimate.estimate` directly with the same request (the tool's own cost).
The ratio is the engine's overhead (parsing, validation, events, explanation) in multiples of the tool.
With the recommendation tool installed, answer -> recommendation result is reported too (its cost is the
catalogue search, see benchmarks/bench_recommend.py).

`cold_process_answer_to_estimate_ms` repeats the measure in fresh processes without `engine.warm_up()`:
the first sizing then also imports the tool modules (a front end avoids it by calling `warm_up()` in a
background worker once the first question is shown).

Run: `python benchmarks/bench_engine.py [--repeats N] [--store]` (--store also commits every event to a
session database in a temporary directory, as the app does).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sizer_agent.agent.engine import DeterministicEngine
from sizer_agent.agent.planning import estimate_arguments
from sizer_agent.store import SessionStore
from sizer_agent.tools.registry import default_registry

SCRIPT = [
    "Acme", "service en ligne", "Llama 3.1 70B Instruct en fp8, contexte 8k, 32 utilisateurs", "2k / 512",
    "x2", "500 ms", "50 ms", "vLLM 0.11", "2", "serveur", "oui", "pas de limite", "pas de limite",
]
LAST = "4U"
TARGET_MS = 200.0


def one_run(registry: Any, store: SessionStore | None) -> dict[str, float]:
    marks: dict[str, float] = {}
    start = 0.0

    def on_event(event: Any) -> None:
        if store is not None:
            store.record_event(session_id, event)
        now = time.perf_counter()
        key = {"answer": "answer", "tool_result": f"result:{getattr(event, 'tool', '')}"}.get(event.kind)
        if key and key not in marks and start:
            marks[key] = (now - start) * 1000

    session_id = store.create_session() if store is not None else 0
    engine = DeterministicEngine(registry, lang="fr", on_event=on_event)
    engine.start()
    for text in SCRIPT:
        engine.handle(text)
    start = time.perf_counter()
    engine.handle(LAST)
    marks["handle_total"] = (time.perf_counter() - start) * 1000
    return marks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--store", action="store_true", help="commit every event to SQLite, like the app")
    parser.add_argument("--cold-once", action="store_true", help=argparse.SUPPRESS)  # child process mode
    args = parser.parse_args()
    if args.cold_once:  # a fresh process: the first sizing also imports the tool modules
        print(json.dumps(one_run(default_registry(), None)))
        return

    registry = default_registry()
    if "estimate_memory" not in registry:
        raise SystemExit(f"estimate_memory unavailable: {registry.unavailable['estimate_memory']}")
    from sizer_agent.tools.estimate import EstimateRequest, estimate

    engine = DeterministicEngine(registry, lang="fr")
    engine.start()
    for text in [*SCRIPT, LAST]:
        engine.handle(text)
    request = EstimateRequest.model_validate(estimate_arguments(engine.profile()))
    estimate(request)  # warm the model registry cache, as a session does after its first call

    baseline = []
    for _ in range(args.repeats):
        t = time.perf_counter()
        estimate(request)
        baseline.append((time.perf_counter() - t) * 1000)

    runs = []
    with tempfile.TemporaryDirectory() as folder:
        store = SessionStore(Path(folder) / "bench.db") if args.store else None
        one_run(registry, store)  # warm-up
        for _ in range(args.repeats):
            runs.append(one_run(registry, store))
        if store is not None:
            store.close()

    def summary(key: str) -> dict[str, float] | None:
        values = [r[key] for r in runs if key in r]
        if not values:
            return None
        return {"median_ms": round(statistics.median(values), 2), "max_ms": round(max(values), 2)}

    cold = [json.loads(subprocess.run([sys.executable, __file__, "--cold-once"], capture_output=True, text=True,
                                      check=True).stdout) for _ in range(3)]
    base = statistics.median(baseline)
    to_estimate = summary("result:estimate_memory")
    report = {
        "repeats": args.repeats,
        "store": args.store,
        "baseline_estimate_call": {"median_ms": round(base, 2), "max_ms": round(max(baseline), 2)},
        "answer_to_answer_event": summary("answer"),
        "answer_to_estimate_result": to_estimate,
        "answer_to_recommend_result": summary("result:recommend"),
        "cold_process_answer_to_estimate_ms": [round(c.get("result:estimate_memory", 0.0), 1) for c in cold],
        "handle_total": summary("handle_total"),
        "ratio_answer_to_estimate_vs_baseline": round(to_estimate["median_ms"] / base, 2) if to_estimate else None,
        "target_ms": TARGET_MS,
        "estimate_within_target": bool(to_estimate and to_estimate["max_ms"] < TARGET_MS),
        "tools": registry.names(),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
