"""`sizer-agent mcp` start-up to the first tool list, and one tool call, over stdio (target < 1 s).

Measured from the client's side with the MCP SDK's own client, as an assistant sees it: spawn the server
process, initialise the session, list the tools (interpreter start-up and every import included). Baseline,
same run: the SDK's low-level server with one trivial tool, spawned and listed the same way (what the SDK and
the interpreter cost alone). Then one `estimate_memory` and one `recommend` call in the warm server.

Each figure is the median over the repeats (max beside it); ratios are against the baseline of the run.
Run: `python benchmarks/bench_mcp.py [--repeats N] [--json]`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

ROOT = Path(__file__).resolve().parents[1]
START_TARGET_S = 1.0

_BASELINE_SERVER = """
import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[types.Tool(name="echo", description="echo", input_schema={"type": "object"})])

async def main():
    server = Server("baseline", on_list_tools=list_tools)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
"""


async def _start_to_list(params: StdioServerParameters) -> float:
    start = time.perf_counter()
    async with Client(params, read_timeout_seconds=60) as client:
        tools = await client.list_tools()
        elapsed = time.perf_counter() - start
        assert tools.tools
    return elapsed


async def _calls() -> dict[str, float]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "sizer_agent", "mcp"], cwd=ROOT)
    timings: dict[str, float] = {}
    async with Client(params, read_timeout_seconds=60) as client:
        await client.list_tools()
        for name, arguments in (("estimate_memory", {"model": "llama-3.1-8b", "concurrency": 8}),
                                ("recommend", {"workload": {"model": "llama-3.1-8b", "concurrency": 32}})):
            await client.call_tool(name, arguments)  # first call: caches warm
            start = time.perf_counter()
            result = await client.call_tool(name, arguments)
            timings[name] = (time.perf_counter() - start) * 1000
            assert not result.is_error
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        baseline_file = Path(folder) / "baseline_server.py"
        baseline_file.write_text(_BASELINE_SERVER)
        baseline = StdioServerParameters(command=sys.executable, args=[str(baseline_file)], cwd=ROOT)
        ours = StdioServerParameters(command=sys.executable, args=["-m", "sizer_agent", "mcp"], cwd=ROOT)
        base_s = [anyio.run(_start_to_list, baseline) for _ in range(args.repeats)]
        ours_s = [anyio.run(_start_to_list, ours) for _ in range(args.repeats)]
    calls = anyio.run(_calls)
    report: dict[str, Any] = {
        "start_to_tool_list_s": {"median": statistics.median(ours_s), "max": max(ours_s)},
        "baseline_sdk_server_s": {"median": statistics.median(base_s), "max": max(base_s)},
        "ratio": statistics.median(ours_s) / statistics.median(base_s),
        "target_s": START_TARGET_S,
        "warm_call_ms": calls,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    start = report["start_to_tool_list_s"]
    base = report["baseline_sdk_server_s"]
    print(f"start-up to tool list: {start['median']:.2f} s median (max {start['max']:.2f} s), target "
          f"< {START_TARGET_S:.1f} s")
    print(f"baseline (SDK server, one tool): {base['median']:.2f} s (max {base['max']:.2f} s) -> ratio "
          f"{report['ratio']:.2f}x")
    for name, ms in calls.items():
        print(f"warm {name}: {ms:.0f} ms")


if __name__ == "__main__":
    main()
