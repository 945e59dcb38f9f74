"""The estimate the interview runs first uses what the answers say about the hardware."""

from __future__ import annotations

from sizer_agent.agent.planning import estimate_arguments
from sizer_agent.agent.profile import WorkloadProfile
from sizer_agent.tools.estimate import EstimateRequest, estimate

SERVING = {"use_case": "online_serving", "model": "openai/gpt-oss-20b", "input_len": 2048, "output_len": 512,
           "concurrency": 32}


def test_a_preferred_tpu_is_named_so_the_first_kv_figure_counts_its_padding() -> None:
    # gpt-oss-20b: 24 layers, 8 KV heads of 64, bf16 KV -> 2 × 24 × 8 × 64 × 2 = 49,152 B/token on a GPU;
    # vLLM on TPU stores each head padded to 128 lanes (tools/perf/codesign.py), so twice that on a v6e
    tpu = estimate_arguments(WorkloadProfile(**SERVING, gpu_preference="tpu-v6e"))
    assert tpu["gpu"] == "tpu-v6e"
    assert estimate(EstimateRequest(**tpu)).kv_cache_bytes_per_token == 2 * 24 * 8 * 128 * 2
    # a GPU preference leaves the first estimate generic (the recommendation sizes on each card)
    gpu = estimate_arguments(WorkloadProfile(**SERVING, gpu_preference="h100-sxm"))
    assert "gpu" not in gpu
    assert estimate(EstimateRequest(**gpu)).kv_cache_bytes_per_token == 2 * 24 * 8 * 64 * 2
