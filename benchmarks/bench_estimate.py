"""Estimator throughput: 10 000 estimates over a grid of models, loads and parallelism.

Reported as estimates per second and as a ratio against a baseline measured in the same run: validating
the request model alone (the fixed cost any tool call pays). Run: `python benchmarks/bench_estimate.py`.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.model_loader import load_model

MODELS = ["llama-3.1-8b", "llama-3.1-70b", "mixtral-8x7b", "deepseek-v3", "gpt-oss-120b", "gemma-3-27b", "qwen3-32b"]
GRID = list(itertools.product(
    MODELS,
    ["inference-generic", "inference-vllm", "training"],
    [None, "fp8", "gptq"],
    [1, 8],  # tensor parallel
    [1, 32],  # concurrency / batch
))  # fmt: skip
N = 10_000


def requests() -> list[EstimateRequest]:
    out = []
    for model, mode, quant, tp, load in GRID:
        if mode == "training":
            out.append(EstimateRequest(model=model, mode="training", batch_size=load, seq_len=2048,
                                       tensor_parallel_size=tp, gradient_checkpointing="full"))
        else:
            out.append(EstimateRequest(model=model, quantization=quant, tensor_parallel_size=tp, concurrency=load,
                                       engine="vllm" if mode.endswith("vllm") else "generic",
                                       gpu_memory_gib=80, max_model_len=8192))
    return out


def main() -> None:
    specs = {m: load_model(m) for m in MODELS}  # the app loads a model once per session
    grid = requests()
    payloads = [r.model_dump() for r in grid]
    start = time.perf_counter()
    for i in range(N):
        EstimateRequest.model_validate(payloads[i % len(payloads)])
    baseline = time.perf_counter() - start
    start = time.perf_counter()
    for i in range(N):
        request = grid[i % len(grid)]
        estimate(request, specs[request.model])
    elapsed = time.perf_counter() - start
    cold = time.perf_counter()
    estimate(grid[0])  # including config loading from the bundled registry
    cold = time.perf_counter() - cold
    print(json.dumps({
        "estimates": N, "grid_points": len(grid), "seconds": round(elapsed, 3),
        "estimates_per_second": round(N / elapsed), "mean_ms": round(elapsed / N * 1000, 3),
        "one_estimate_with_model_loading_ms": round(cold * 1000, 2),
        "baseline_request_validation_per_second": round(N / baseline),
        "ratio_estimate_to_validation_cost": round(elapsed / baseline, 1),
    }, indent=2))


if __name__ == "__main__":
    main()
