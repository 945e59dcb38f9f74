"""KV cache per token, by hand: 2 (K and V) x layers x kv_heads x head_dim x bytes."""

from __future__ import annotations

import pytest

from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.memory.kv_cache import kv_cache_bytes, kv_cache_bytes_per_token
from sizer_agent.tools.model_loader import load_model


def test_gqa_llama_3_1_8b() -> None:
    spec = load_model("llama-3.1-8b")
    assert kv_cache_bytes_per_token(spec, 2) == 2 * 32 * 8 * 128 * 2 == 131_072
    assert kv_cache_bytes_per_token(spec, 1) == 65_536  # fp8 cache
    assert kv_cache_bytes_per_token(spec, 2, tp=2) == 65_536  # 4 KV heads per GPU


def test_kv_heads_replicate_beyond_their_count() -> None:
    spec = load_model("llama-3.1-70b")  # 8 KV heads
    assert kv_cache_bytes_per_token(spec, 2, tp=8) == 2 * 80 * 1 * 128 * 2
    assert kv_cache_bytes_per_token(spec, 2, tp=16) == kv_cache_bytes_per_token(spec, 2, tp=8)


def test_mla_stores_the_latent_only() -> None:
    # DeepSeek-V3: (kv_lora_rank 512 + rope 64) per layer, 61 layers, replicated under TP.
    spec = load_model("deepseek-v3")
    assert kv_cache_bytes_per_token(spec, 2) == 61 * 576 * 2
    assert kv_cache_bytes_per_token(spec, 2, tp=8) == 61 * 576 * 2


def test_sliding_window_layers_cap_at_their_window() -> None:
    spec = load_model("gemma-2-9b")  # 42 layers, every other one a 4096-token window; 8 KV heads x 256
    per_layer_token = 2 * 8 * 256 * 2
    assert kv_cache_bytes(spec, 2, 8192, 1) == 21 * per_layer_token * 8192 + 21 * per_layer_token * 4096
    assert kv_cache_bytes(spec, 2, 2048, 3) == 42 * per_layer_token * 2048 * 3


def test_gpt_oss_sliding_layers_hold_128_tokens() -> None:
    spec = load_model("gpt-oss-120b")
    per_layer_token = 2 * 8 * 64 * 2
    assert kv_cache_bytes(spec, 2, 100_000, 1) == 18 * per_layer_token * 100_000 + 18 * per_layer_token * 128


def test_estimate_scales_kv_with_concurrency() -> None:
    one = estimate(EstimateRequest(model="llama-3.1-8b", input_len=2048, output_len=512, concurrency=1))
    many = estimate(EstimateRequest(model="llama-3.1-8b", input_len=2048, output_len=512, concurrency=32))
    assert one.per_gpu.kv_cache_bytes == 131_072 * 2560
    assert many.per_gpu.kv_cache_bytes == 32 * one.per_gpu.kv_cache_bytes


def test_a_context_past_the_config_is_allowed_as_far_as_the_publisher_validates_yarn() -> None:
    """Qwen3's config reads 40,960 positions; Qwen documents 32,768 in pre-training extended to 131,072 with YaRN
    (factor 4). A 128k context is then sized (its KV cache is per token, as any) with a warning that names the
    scaling the engine must be started with; past 131,072 it is refused, naming that limit. A model without a
    validated extension keeps its config's limit."""
    from sizer_agent.tools.errors import InputError
    from sizer_agent.tools.estimate import EstimateRequest, estimate
    from sizer_agent.tools.model_loader import load_model

    spec = load_model("Qwen/Qwen3-30B-A3B")
    assert spec.max_position_embeddings == 40_960 and spec.long_context is not None
    result = estimate(EstimateRequest(model="Qwen/Qwen3-30B-A3B", input_len=100_000, output_len=1_000,
                                      max_model_len=131_072, engine="vllm", gpu="mi300x"), spec)
    assert result.max_model_len == 131_072 and result.long_context is not None
    assert result.long_context.factor == 4.0 and result.long_context.original == 32_768
    assert any(w.id == "estimate.long_context" for w in result.warnings)
    with pytest.raises(InputError, match="131072 with the publisher's RoPE scaling"):
        estimate(EstimateRequest(model="Qwen/Qwen3-30B-A3B", max_model_len=200_000, engine="vllm", gpu="mi300x"), spec)
    llama = load_model("llama-3.1-8b")
    assert llama.long_context is None
    with pytest.raises(InputError, match="exceeds the model's context of 131072 tokens"):
        estimate(EstimateRequest(model="llama-3.1-8b", max_model_len=200_000, engine="vllm", gpu="mi300x"), llama)
