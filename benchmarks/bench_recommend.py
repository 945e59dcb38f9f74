"""Time a full recommendation over the whole catalogue (target < 200 ms), against a baseline in the same run.

Baseline: one memory estimate (`tools.estimate.estimate`) for the same workload on one GPU, the unit of work a
recommendation repeats. Reported: median wall time of each over N runs and their ratio. "warm" reuses the loaded
model spec and catalogue (an interactive session); "cold" includes loading them from disk.

    python benchmarks/bench_recommend.py [--runs 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.catalog.loader import _load
from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.recommend import RecommendRequest, recommend


def median_ms(fn: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    workload = EstimateRequest(model="llama-3.1-70b", quantization="fp8", input_len=1024, output_len=256,
                               concurrency=16)
    request = RecommendRequest(workload=workload, slo_ttft_ms=2000, slo_tpot_ms=60)
    spec = load_model(workload.model)
    catalog = load_catalog()
    options = len(recommend(request, spec).options)

    baseline = median_ms(lambda: estimate(workload.model_copy(update={"gpu_memory_gib": 80.0}), spec), args.runs)
    warm = median_ms(lambda: recommend(request, spec), args.runs)

    def cold() -> None:
        _load.cache_clear()
        recommend(request)

    cold_ms = median_ms(cold, max(3, args.runs // 4))
    precisions = request.model_copy(update={"precisions": ["bf16", "fp8", "awq"]})
    three = median_ms(lambda: recommend(precisions, spec), max(3, args.runs // 2))
    print(f"catalogue: {len(catalog.gpus)} GPUs, {len(catalog.offers)} offers -> {options} options (70B fp8, SLA)")
    print(f"baseline  one estimate():                     {baseline:8.2f} ms")
    print(f"recommend whole catalogue, warm:              {warm:8.2f} ms  ({warm / baseline:5.1f} x baseline)")
    print(f"recommend whole catalogue, cold (loads data): {cold_ms:8.2f} ms  ({cold_ms / baseline:5.1f} x baseline)")
    print(f"recommend x 3 precisions, warm:               {three:8.2f} ms  ({three / baseline:5.1f} x baseline)")
    print(f"target < 200 ms (warm, one precision): {'met' if warm < 200 else 'MISSED'}")


if __name__ == "__main__":
    main()
