"""`estimate --task vision` latency: cold (trace) and warm (disk cache), as ratios to a baseline in the same run.

Baseline: `sizer-agent --version` in a fresh interpreter (the fixed cost of any command). Cold: the first
`estimate --task vision --model resnet50` with an empty cache (imports torch, traces). Warm: the same call
again (reads the cached trace; no torch import). Run: `python benchmarks/bench_vision_estimate.py`.
The issue's bar is < 2 s warm for a ResNet-50; this prints the seconds and the ratios, it asserts nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["estimate", "--task", "vision", "--model", "resnet50", "--resolution", "224", "--batch-size", "64",
        "--mode", "training", "--dtype", "bfloat16", "--gpu", "h100-sxm", "--json"]


def _run(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sizer_agent", *args], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "SIZER_AGENT_CACHE": cache}
        baseline = min(_run(["--version"], env) for _ in range(3))
        cold = _run(ARGS, env)
        warm = min(_run(ARGS, env) for _ in range(3))
    print(json.dumps({
        "baseline_version_s": round(baseline, 3), "cold_s": round(cold, 3), "warm_s": round(warm, 3),
        "cold_over_baseline": round(cold / baseline, 1), "warm_over_baseline": round(warm / baseline, 1),
    }, indent=2))


if __name__ == "__main__":
    main()
