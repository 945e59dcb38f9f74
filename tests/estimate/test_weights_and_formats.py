"""Weight bytes by format, checked by hand against published sizes and the seed documents."""

from __future__ import annotations

import pytest

from sizer_agent.tools.errors import InputError
from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.memory.weights import weight_bytes
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.quantization import weight_format

GB = 1e9


def _weights(model: str, quantization: str | None = None, dtype: str = "bfloat16") -> int:
    spec = load_model(model)
    return weight_bytes(spec, weight_format(quantization, dtype, spec.hidden_size, spec.quantization))


def test_bf16_weights_equal_the_safetensors_total_size() -> None:
    # model.safetensors.index.json total_size of Llama-3.1-70B-Instruct and -8B-Instruct.
    assert _weights("llama-3.1-70b") == 141_107_412_992
    assert _weights("llama-3.1-8b") == 16_060_522_496


def test_seed_example_70b_nominal_figures() -> None:
    """Seed 002: 70 B params x 2 bytes = 140 GB; x 1 byte = 70 GB; 4 bits = 35 GB, before metadata."""
    for quantization, nominal_gb in ((None, 141.1), ("fp8", 70.6), ("gptq", 35.3)):
        result = estimate(EstimateRequest(model="llama-3.1-70b", quantization=quantization))
        assert result.weight_bytes_nominal / GB == pytest.approx(nominal_gb, abs=0.1)
        # Real storage is above nominal: 16-bit embeddings/lm_head and scales are counted.
        assert result.weight_bytes_total >= result.weight_bytes_nominal


def test_fp8_keeps_embeddings_and_lm_head_in_16_bit() -> None:
    spec = load_model("llama-3.1-8b")
    embeddings = (spec.embedding_params + spec.lm_head_params) * 2
    linear = spec.params_total - spec.embedding_params - spec.lm_head_params
    # vLLM logs 8.49 GiB for Llama-3.1-8B in fp8 (validation vllm-llmd-019); per-tensor scales are negligible.
    assert _weights("llama-3.1-8b", "fp8") == pytest.approx(embeddings + linear, rel=1e-4)
    assert _weights("llama-3.1-8b", "fp8") / 2**30 == pytest.approx(8.49, rel=0.01)


@pytest.mark.parametrize(
    ("quantization", "bits"),
    [("nf4_dq", 4.127), ("nf4", 4.5), ("mxfp4", 4.25), ("nvfp4", 4.5), ("gptq", 4.156), ("gguf_q8_0", 8.5),
     ("gguf_q4_k", 4.5), ("fp8_block", 8.002)],
)
def test_format_bits_include_metadata(quantization: str, bits: float) -> None:
    assert weight_format(quantization, "bfloat16", 4096).bits == pytest.approx(bits, abs=0.001)


def test_gpt_oss_reads_mxfp4_from_its_config_and_leaves_attention_in_bf16() -> None:
    spec = load_model("gpt-oss-120b")
    fmt = weight_format(None, "bfloat16", spec.hidden_size, spec.quantization)
    assert fmt.name == "mxfp4" and "attention" not in fmt.quantizes and "experts" in fmt.quantizes
    # Published checkpoint: ~65 GB (MXFP4 experts, bf16 rest); the model card says it fits one 80 GB GPU.
    assert weight_bytes(spec, fmt) / GB == pytest.approx(65.3, rel=0.03)


def test_deepseek_v3_fp8_block_checkpoint_size() -> None:
    # FP8 block checkpoint: one byte per linear weight + an fp32 scale per 128x128 block; bf16 embeddings.
    spec = load_model("deepseek-v3")
    fmt = weight_format(None, "bfloat16", spec.hidden_size, spec.quantization)
    assert fmt.name == "fp8_block"
    assert weight_bytes(spec, fmt) / GB == pytest.approx(spec.params_total / GB, rel=0.01)


def test_unknown_format_names_the_field() -> None:
    with pytest.raises(InputError, match="quantization"):
        weight_format("int3", "bfloat16", 4096)
    with pytest.raises(InputError, match="quant_method"):
        weight_format(None, "bfloat16", 4096, {"quant_method": "mystery"})


def test_tensor_parallel_splits_weights_and_replicates_norms() -> None:
    one = estimate(EstimateRequest(model="llama-3.1-70b")).per_gpu.weights_bytes
    four = estimate(EstimateRequest(model="llama-3.1-70b", tensor_parallel_size=4)).per_gpu.weights_bytes
    assert four == pytest.approx(one / 4, rel=0.001) and four > one / 4
