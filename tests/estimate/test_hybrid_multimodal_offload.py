"""Issue #15 items 3 and 4: vLLM's hybrid KV-cache groups, the multimodal towers and RoPE cache it loads, and
inference weights kept in host RAM (vLLM --cpu-offload-gb) with the time they cost.

Expected values come from vLLM's source (v1/core/kv_cache_utils.py grouping; rotary_embedding cos/sin cache
of max_position x factor positions for linear scaling) and from the published Gemma 3 / Llama 4 configs."""

from __future__ import annotations

import pytest

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.memory.vllm_profile import hybrid_layer_equivalents
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.perf.estimate import estimate_perf
from sizer_agent.tools.perf.offload import offload_time
from tests.estimate.test_cli_estimate import cli

GiB = 2**30


def test_hybrid_groups_follow_vllm() -> None:
    # Gemma 3 27B: 62 layers, every 6th global -> 10 global + 52 sliding; groups of 10 -> 1 + 6 groups = 70.
    gemma3 = load_model("google/gemma-3-27b-it")
    assert hybrid_layer_equivalents(gemma3, slice(0, 62)) == (70, 62)
    # Gemma 3 4B: 34 layers -> 5 global + 29 sliding; groups of 5 -> 1 + 6 = 7 groups of 5 = 35.
    assert hybrid_layer_equivalents(load_model("google/gemma-3-4b-it"), slice(0, 34)) == (35, 34)
    # Gemma 2 alternates (21 + 21): no padding; Llama 4 Scout 36 chunked + 12 global: 3 + 1 groups of 12.
    assert hybrid_layer_equivalents(load_model("google/gemma-2-9b-it"), slice(0, 42)) == (42, 42)
    assert hybrid_layer_equivalents(load_model("meta-llama/Llama-4-Scout-17B-16E-Instruct"), slice(0, 48)) == (48, 48)


def test_gemma3_kv_tokens_pay_for_the_padded_groups() -> None:
    spec = load_model("google/gemma-3-27b-it")
    r = estimate(EstimateRequest(model="g", engine="vllm", gpu_memory_gib=79.19, gpu_memory_utilization=0.95,
                                 max_model_len=8192), spec)
    assert r.engine is not None
    per_layer = 2 * 16 * 128 * 2  # K and V, 16 KV heads of 128, bf16
    stage = r.engine.stages[0]
    assert stage.kv_bytes_per_token == 70 * per_layer
    assert r.engine.kv_cache_tokens == stage.kv_pool_bytes // (70 * per_layer * 16) * 16


def test_rope_cache_counts_linear_scaling_and_gemma3_local_rope() -> None:
    # Gemma 3 4B: global RoPE linear x8 over 131,072 positions, local RoPE unscaled; head_dim 256.
    spec = load_model("google/gemma-3-4b-it")
    assert spec.rope_cache_values == 131_072 * 8 * 256 + 131_072 * 256
    r = estimate(EstimateRequest(model="g", engine="vllm", gpu_memory_gib=79.19, max_model_len=8192), spec)
    assert r.engine is not None
    assert r.engine.weights_bytes - spec.params_total * 2 == pytest.approx(spec.rope_cache_values * 2, abs=4096)


def test_vision_tower_is_split_over_tensor_parallel_ranks() -> None:
    spec = load_model("mistralai/Mistral-Small-3.1-24B-Instruct-2503")
    one = estimate(EstimateRequest(model="m", engine="vllm", gpu_memory_gib=79.19, max_model_len=8192), spec)
    two = estimate(EstimateRequest(model="m", engine="vllm", gpu_memory_gib=79.19, max_model_len=8192,
                                   tensor_parallel_size=2), spec)
    assert one.engine is not None and two.engine is not None
    rope = spec.rope_cache_values * 2  # replicated, not split
    assert two.engine.weights_bytes - rope == pytest.approx((one.engine.weights_bytes - rope) / 2, rel=0.002)


def test_cpu_offload_gb_frees_the_gpu_and_grows_the_kv_pool() -> None:
    spec = load_model("llama-3.1-8b")
    base = EstimateRequest(model="l", engine="vllm", gpu_memory_gib=24, max_model_len=8192)
    plain = estimate(base, spec)
    off = estimate(base.model_copy(update={"cpu_offload_gb": 4}), spec)
    assert plain.engine is not None and off.engine is not None and off.weight_offload is not None
    assert plain.engine.weights_bytes - off.engine.weights_bytes == 4 * GiB
    assert off.engine.kv_cache_bytes - plain.engine.kv_cache_bytes == pytest.approx(4 * GiB, abs=2 * 131_072 * 16)
    assert off.weight_offload.host_ram_bytes == 4 * GiB


def test_auto_offload_is_the_least_that_fits() -> None:
    # Llama 3.1 8B bf16 (15 GiB) with an 8k context on a 16 GB card: vLLM cannot start without offload.
    spec = load_model("llama-3.1-8b")
    request = EstimateRequest(model="l", engine="vllm", gpu="rtx-5080", max_model_len=8192)
    assert estimate(request, spec).fits is False
    auto = estimate(request.model_copy(update={"cpu_offload_gb": "auto"}), spec)
    assert auto.fits is True and auto.weight_offload is not None
    smaller = auto.weight_offload.offloaded_bytes_per_gpu - GiB // 2
    assert estimate(request.model_copy(update={"cpu_offload_gb": smaller / GiB}), spec).fits is False


def test_offloaded_weights_cost_their_host_link_time_every_step() -> None:
    # RTX 5080 on PCIe Gen5 x16 (128 GB/s both ways): 64 GB/s a direction x 0.8 = 51.2 GB/s.
    gpu = load_catalog().gpu("rtx-5080")
    cost = offload_time(int(5.12e9), gpu)
    assert cost.link_gbs == pytest.approx(51.2)
    assert cost.seconds_per_step == pytest.approx(0.1)
    spec = load_model("llama-3.1-8b")
    request = EstimateRequest(model="l", engine="vllm", gpu="rtx-5080", max_model_len=8192, cpu_offload_gb=2)
    perf = estimate_perf(estimate(request, spec), gpu, spec)
    assert perf.weight_offload is not None and perf.tpot_ms_without_offload is not None
    added = perf.weight_offload.seconds_per_step * 1e3
    assert perf.tpot_ms == pytest.approx(perf.tpot_ms_without_offload + added, rel=0.02)
    assert perf.output_tokens_per_s < perf.output_tokens_per_s_without_offload


def test_cli_auto_offload_needs_a_gpu_and_training_refuses_it() -> None:
    out = cli("estimate", "--model", "llama-3.1-8b", "--cpu-offload-gb", "auto")
    assert out.returncode == 2 and "cpu_offload_gb" in out.stderr and "--gpu" in out.stderr
    out = cli("estimate", "--model", "llama-3.1-8b", "--mode", "training", "--cpu-offload-gb", "2")
    assert out.returncode == 2 and "--offload" in out.stderr
    out = cli("estimate", "--model", "llama-3.1-8b", "--engine", "vllm", "--gpu", "rtx-5080", "--max-model-len",
              "8192", "--cpu-offload-gb", "auto")
    assert out.returncode == 0, out.stderr
    assert "weight offload:" in out.stdout and "output tokens/s" in out.stdout


# Qwen2.5-VL-7B-Instruct's published config.json (Hugging Face Qwen/Qwen2.5-VL-7B-Instruct); the model card
# gives 8.29 B parameters, the safetensors index 8,292,166,656 (text Qwen2.5-7B: 7,615,616,512).
QWEN25_VL_7B = {
    "architectures": ["Qwen2_5_VLForConditionalGeneration"], "model_type": "qwen2_5_vl", "hidden_size": 3584,
    "intermediate_size": 18944, "max_position_embeddings": 128000, "max_window_layers": 28,
    "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4, "rope_theta": 1000000.0,
    "sliding_window": 32768, "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_sliding_window": False,
    "vocab_size": 152064, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
    "vision_config": {"depth": 32, "hidden_act": "silu", "hidden_size": 1280, "intermediate_size": 3420,
                      "num_heads": 16, "in_chans": 3, "out_hidden_size": 3584, "patch_size": 14,
                      "spatial_merge_size": 2, "spatial_patch_size": 14, "window_size": 112,
                      "fullatt_block_indexes": [7, 15, 23, 31], "tokens_per_second": 2, "temporal_patch_size": 2},
}  # fmt: skip


def test_qwen25_vl_tower_and_text_are_counted() -> None:
    from sizer_agent.tools.architectures import spec_from_config

    spec = spec_from_config(QWEN25_VL_7B, "Qwen/Qwen2.5-VL-7B-Instruct")
    assert spec.params_total == 8_292_166_656
    assert spec.params_total - spec.vision_params == 7_615_616_512
    assert spec.image_tokens_per_image == 37 * 37  # 1024 px rounds to 37 patches of 28 px a side
    assert not spec.warnings


def test_images_join_the_context_kv_cache_and_encoder_cache() -> None:
    spec = load_model("google/gemma-3-4b-it")  # 256 tokens per image
    text = estimate(EstimateRequest(model="g", input_len=1024, output_len=256, concurrency=4), spec)
    images = estimate(EstimateRequest(model="g", input_len=1024, output_len=256, concurrency=4,
                                      images_per_request=2), spec)
    assert images.max_model_len == text.max_model_len + 512
    assert images.per_gpu.kv_cache_bytes > text.per_gpu.kv_cache_bytes
    # the encoder cache holds the 4 x 512 image embeddings at the text width (2560, bf16)
    assert images.per_gpu.activations_bytes - text.per_gpu.activations_bytes >= 4 * 512 * 2560 * 2
    assert images.model.image_tokens_per_image == 256
    out = cli("estimate", "--model", "llama-3.1-8b", "--images-per-request", "1")
    assert out.returncode == 2 and "images_per_request" in out.stderr


def test_llama_cpp_cpu_layers_cost_host_memory_time() -> None:
    # llama.cpp -ngl: the CPU computes its layers, reading them from DRAM (90 GB/s dual-channel DDR5) rather
    # than pulling them over PCIe; 2 GiB then costs 2 x 1.074 GB / 90 GB/s = 23.9 ms per step.
    gpu = load_catalog().gpu("rtx-5080")
    spec = load_model("llama-3.1-8b")
    request = EstimateRequest(model="l", gpu="rtx-5080", input_len=1024, output_len=256, cpu_offload_gb=2,
                              host_memory_gbs=90)
    perf = estimate_perf(estimate(request, spec), gpu, spec)
    assert perf.weight_offload is not None and perf.weight_offload.link == "host DRAM"
    assert perf.weight_offload.seconds_per_step == pytest.approx(2 * GiB / 90e9)


def test_auto_offload_on_a_small_card_lowers_vllm_s_share_when_its_graphs_overflow_the_card() -> None:
    # Llama 3.3 70B in 4-bit on a 24 GB RTX 4090: vLLM's CUDA graphs for 80 layers (~2.9 GiB) and its context sit
    # outside the 90 % budget and overflow the card whatever the weights; practitioners lower
    # --gpu-memory-utilization, then keep what is left of the weights in host RAM
    request = EstimateRequest(model="meta-llama/Llama-3.3-70B-Instruct", engine="vllm", gpu="rtx-4090",
                              quantization="int4", kv_cache_dtype="fp8", max_model_len=1280, cpu_offload_gb="auto")
    result = estimate(request)
    assert result.engine is not None and result.fits
    assert result.engine.gpu_memory_utilization < 0.9
    assert result.engine.total_used_bytes <= result.engine.gpu_memory_bytes
    assert result.weight_offload is not None and result.weight_offload.offloaded_bytes_per_gpu > 0
    # a card with room to spare keeps the share asked for
    roomy = estimate(request.model_copy(update={"gpu": "h100-sxm"}))
    assert roomy.engine is not None and roomy.engine.gpu_memory_utilization == 0.9
