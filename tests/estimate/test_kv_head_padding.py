"""The memory side stores KV heads as the chip's engine does (issue #13): vLLM on TPU pads each KV head to 128
lanes (catalogue `kv_head_alignment`, tools/perf/codesign.py), so the KV bytes per token, the KV tokens that
fit, the concurrency and the fit itself agree with the speed model, which already read the padded bytes.

Expectations are the arithmetic 2 (K and V) x layers x KV heads x stored head_dim x bytes, from the models'
config.json: phi-2 (32 layers, 32 KV heads, head_dim 80, fp16), gpt-oss-20b (24 layers, 8 KV heads,
head_dim 64, bf16 KV), DeepSeek-V2-Lite (27 MLA layers caching a 512 + 64 latent, no heads to pad).
GPUs (no alignment) keep the model's own head_dim: their figures are unchanged (the proposal goldens too).
"""

from __future__ import annotations

import pytest

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.memory.kv_cache import kv_cache_bytes_per_token, stored_head_dim
from sizer_agent.tools.memory.runtime import GiB
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.perf.cluster_serving import ServingLayout, estimate_layout
from sizer_agent.tools.perf.codesign import codesign
from sizer_agent.tools.perf.estimate import estimate_perf
from sizer_agent.tools.perf.shape import ModelShape
from sizer_agent.tools.quantization import weight_format
from sizer_agent.tools.recommend import RecommendRequest, recommend

CATALOG = load_catalog()
PHI_2 = load_model("phi-2")
GPT_OSS_20B = load_model("gpt-oss-20b")
PHI_UNPADDED = 2 * 32 * 32 * 80 * 2  # 327,680 bytes per token
PHI_PADDED = 2 * 32 * 32 * 128 * 2  # 524,288 bytes per token: head_dim 80 stored in 128 lanes


def test_stored_head_dim_rounds_up_to_the_alignment() -> None:
    assert [stored_head_dim(d, 128) for d in (64, 80, 128, 192, 256)] == [128, 128, 128, 256, 256]
    assert stored_head_dim(64, None) == 64
    # the speed model's KV fill is the same rule, read from the same catalogue figure
    fit = codesign(ModelShape.from_spec(PHI_2), CATALOG.gpu("tpu-v6e"))
    assert fit is not None and fit.kv_alignment == CATALOG.gpu("tpu-v6e").kv_alignment == 128
    assert fit.kv_fill == pytest.approx(80 / 128)
    assert CATALOG.gpu("h100-sxm").kv_alignment is None and CATALOG.gpu("trn2").kv_alignment is None


def test_phi_2_on_a_tpu_stores_its_80_wide_heads_in_128_lanes() -> None:
    # 16 requests x (1,024 + 1,024) tokens: 32,768 tokens x 524,288 B = 16 GiB exactly (10 GiB unpadded)
    request = EstimateRequest(model="phi-2", input_len=1024, output_len=1024, concurrency=16)
    tpu = estimate(request.model_copy(update={"gpu": "tpu-v6e"}), PHI_2)
    card = estimate(request.model_copy(update={"gpu_memory_gib": 32.0}), PHI_2)  # same size, no chip named
    assert tpu.kv_head_alignment == 128 and card.kv_head_alignment is None
    assert tpu.kv_cache_bytes_per_token == PHI_PADDED and card.kv_cache_bytes_per_token == PHI_UNPADDED
    assert tpu.per_gpu.kv_cache_bytes == 16 * GiB and card.per_gpu.kv_cache_bytes == 10 * GiB
    assert tpu.per_gpu.total_bytes - card.per_gpu.total_bytes == 6 * GiB  # nothing but the KV cache moves
    assert tpu.per_gpu.weights_bytes == card.per_gpu.weights_bytes


def test_the_fit_agrees_with_the_concurrency_the_speed_model_allows() -> None:
    # tpu-v6e: 32 GiB. Resident (weights 5.2 + runtime 0.75 + activations) about 6 GiB leaves about 26 GiB:
    # 26 GiB / 512 KiB = ~53,000 padded tokens = 25 requests of 2,048 tokens (41 unpadded).
    request = EstimateRequest(model="phi-2", input_len=1024, output_len=1024, concurrency=28, gpu="tpu-v6e")
    result = estimate(request, PHI_2)
    perf = estimate_perf(result, CATALOG.gpu("tpu-v6e"), PHI_2)
    assert perf.max_concurrency_memory == 25
    assert result.fits is False  # 28 x 2,048 x 512 KiB = 28 GiB of KV cache alone
    unpadded = estimate(request.model_copy(update={"gpu": None, "gpu_memory_gib": 32.0}), PHI_2)
    assert unpadded.fits is True  # the figure the memory side printed before: 17.5 GiB of KV cache
    # the speed model pads once: an estimate that did not know the chip gets the same concurrency
    assert estimate_perf(unpadded, CATALOG.gpu("tpu-v6e"), PHI_2).max_concurrency_memory == 25
    fitting = estimate(request.model_copy(update={"concurrency": 24}), PHI_2)
    assert fitting.fits is True  # 24 GiB of KV + ~6 GiB resident < 32 GiB


def test_vllm_pool_on_a_tpu_counts_padded_tokens() -> None:
    request = EstimateRequest(model="phi-2", engine="vllm", concurrency=16, gpu="tpu-v6e")
    padded = estimate(request, PHI_2)
    plain = estimate(request.model_copy(update={"gpu": None, "gpu_memory_gib": 32.0}), PHI_2)
    assert padded.engine is not None and plain.engine is not None
    assert padded.engine.stages[0].kv_pool_bytes == plain.engine.stages[0].kv_pool_bytes  # same budget
    # the pool in whole 16-token blocks of 524,288 B per token, against 327,680 B
    pool = padded.engine.stages[0].kv_pool_bytes
    assert padded.engine.kv_cache_tokens == pool // (PHI_PADDED * 16) * 16
    assert plain.engine.kv_cache_tokens == pool // (PHI_UNPADDED * 16) * 16
    assert padded.engine.max_concurrency == pytest.approx(padded.engine.kv_cache_tokens / 2048, abs=0.01)
    gpu = CATALOG.gpu("tpu-v6e")
    assert (estimate_perf(padded, gpu, PHI_2).max_concurrency_memory
            == estimate_perf(plain, gpu, PHI_2).max_concurrency_memory)  # never padded twice


def test_mla_latent_and_trainium_are_not_padded() -> None:
    deepseek = load_model("deepseek-v2-lite")
    latent = 27 * (512 + 64) * 2  # one 576-value latent per layer, bf16: 31,104 bytes
    assert kv_cache_bytes_per_token(deepseek, 2, head_alignment=128) == latent
    assert kv_cache_bytes_per_token(deepseek, 2) == latent
    on_trn2 = estimate(EstimateRequest(model="phi-2", gpu="trn2"), PHI_2)
    assert on_trn2.kv_head_alignment is None and on_trn2.kv_cache_bytes_per_token == PHI_UNPADDED


@pytest.mark.parametrize("engine", ["vllm", "generic"])
def test_recommend_pads_tpu_plans_and_leaves_gpu_plans_alone(engine: str) -> None:
    # one recommendation, GPUs and TPUs together: the memory cache (shared by every card under the generic
    # engine) must not hand a GPU the TPU's bytes, nor a TPU the GPU's
    workload = EstimateRequest(model="gpt-oss-20b", input_len=4096, output_len=1024, concurrency=64)
    result = recommend(RecommendRequest(workload=workload, units=["cloud"], stacks=["cuda", "xla"],
                                        engine=engine, search=False), GPT_OSS_20B)  # type: ignore[arg-type]
    seen = set()
    for option in result.options:
        if option.memory is None:
            continue
        tp, pp = option.parallelism.tensor_parallel, option.parallelism.pipeline_parallel
        stored = 128 if option.gpu_id.startswith("tpu") else 64
        expected = 2 * (24 // pp) * max(1, 8 // tp) * stored * 2
        assert option.memory.kv_cache_bytes_per_token == expected, (option.offer_id, tp, pp)
        seen.add(stored)
    assert seen == {64, 128}
    tpu = next(o for o in result.options if o.gpu_id.startswith("tpu") and o.fits)
    assert tpu.memory is not None and tpu.serving is not None
    assert any(n.id == "codesign.kv" for n in tpu.notes)  # the reason is stated beside the figures


def test_cluster_layout_on_a_tpu_holds_half_the_tokens_of_64_wide_heads() -> None:
    gpu = CATALOG.gpu("tpu-v5p")
    fmt = weight_format("none", "bfloat16", GPT_OSS_20B.hidden_size, None, 128)
    layout = ServingLayout(kind="tp_pp", tp=4, pp=1, gpus_per_replica=4, replicas=1)
    padded = estimate_layout(GPT_OSS_20B, gpu, fmt, 2, layout, 1024, 256, None, None, "bf16")
    plain = estimate_layout(GPT_OSS_20B, gpu.model_copy(update={"kv_head_alignment": None}), fmt, 2, layout,
                            1024, 256, None, None, "bf16")
    assert padded.memory.kv_tokens_per_gpu == pytest.approx(plain.memory.kv_tokens_per_gpu / 2, abs=1)
