"""Weight formats and their real cost in bits per weight, metadata included.

A format quantizes some kinds of tensors (usually the linear layers) and leaves the rest (embeddings,
lm_head, norms, router) at their 16-bit width. The bits per weight include scales and zero points.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from sizer_agent.tools.errors import InputError

TensorKind = Literal["attention", "mlp", "experts", "shared_experts", "router", "embedding", "lm_head", "small"]
LINEAR: frozenset[str] = frozenset({"attention", "mlp", "experts", "shared_experts"})
ALL_MATRICES: frozenset[str] = LINEAR | {"embedding", "lm_head"}


class WeightFormat(BaseModel):
    name: str
    bits: float  # bits per quantized weight, metadata included
    quantizes: frozenset[str] = LINEAR
    rest_bits: float = 16.0  # tensors the format leaves alone
    small_bits: float = 16.0  # norms and biases
    source: str = ""

    @property
    def nominal_bits(self) -> int:
        """The headline width (16, 8, 4): what "params x bytes" arithmetic uses, metadata excluded."""
        return int(self.bits)

    def bits_for(self, kind: str) -> float:
        if kind == "small":
            return self.small_bits
        return self.bits if kind in self.quantizes else self.rest_bits


_DTYPE_BITS = {"float32": 32.0, "bfloat16": 16.0, "float16": 16.0}
DTYPE_ALIASES = {
    "fp32": "float32", "float": "float32", "float32": "float32",
    "bf16": "bfloat16", "bfloat16": "bfloat16",
    "fp16": "float16", "half": "float16", "float16": "float16",
}  # fmt: skip
KV_DTYPE_BYTES = {"fp8": 1.0, "fp8_e4m3": 1.0, "fp8_e5m2": 1.0, "int8": 1.0, "bfloat16": 2.0,
                  "bf16": 2.0, "float16": 2.0, "fp16": 2.0, "float32": 4.0, "fp32": 4.0}  # fmt: skip

QUANTIZATION_CHOICES = (
    "fp8", "fp8_channel", "fp8_block", "int8", "w8a8", "gptq", "awq", "int4", "nf4", "nf4_dq",
    "bitsandbytes", "mxfp4", "nvfp4", "gguf_q4_k", "gguf_q8_0", "none",
)  # fmt: skip


def resolve_dtype(dtype: str, checkpoint_dtype: str) -> str:
    """vLLM's `--dtype auto`: the checkpoint's dtype, except fp32 checkpoints are served in bf16."""
    if dtype == "auto":
        resolved = DTYPE_ALIASES.get(checkpoint_dtype.lower(), "bfloat16")
        return "bfloat16" if resolved == "float32" else resolved
    if dtype.lower() not in DTYPE_ALIASES:
        raise InputError("dtype", f"{dtype!r} is not a known dtype", "auto, bfloat16, float16, float32")
    return DTYPE_ALIASES[dtype.lower()]


def kv_dtype_bytes(kv_cache_dtype: str, activation_dtype: str) -> float:
    if kv_cache_dtype == "auto":
        return _DTYPE_BITS[activation_dtype] / 8
    if kv_cache_dtype.lower() not in KV_DTYPE_BYTES:
        raise InputError(
            "kv_cache_dtype", f"{kv_cache_dtype!r} is not a KV-cache dtype", "auto, " + ", ".join(KV_DTYPE_BYTES)
        )
    return KV_DTYPE_BYTES[kv_cache_dtype.lower()]


def _not_converted(patterns: list[str] | None) -> set[str]:
    """Map `modules_to_not_convert` patterns to tensor kinds."""
    kinds: set[str] = set()
    for pattern in patterns or []:
        if "self_attn" in pattern or "attn" in pattern:
            kinds.add("attention")
        if "router" in pattern or pattern.endswith(".gate") or "mlp.gate" in pattern:
            kinds.add("router")
        if "embed" in pattern:
            kinds.add("embedding")
        if "lm_head" in pattern:
            kinds.add("lm_head")
        if "shared_expert" in pattern:
            kinds.add("shared_experts")
    return kinds


def weight_format(
    quantization: str | None,
    dtype: str,
    hidden_size: int,
    config_quantization: dict[str, Any] | None = None,
    group_size: int = 128,
) -> WeightFormat:
    """The format weights are stored in: `quantization` (CLI) wins over the checkpoint's config."""
    base_bits = _DTYPE_BITS[dtype]
    same_as_checkpoint = bool(config_quantization) and quantization is not None and (
        quantization.lower() == str(config_quantization.get("quant_method", "")).lower()  # type: ignore[union-attr]
    )
    if config_quantization and (quantization in (None, "", "auto") or same_as_checkpoint):
        # vLLM's --quantization naming the checkpoint's own method keeps the checkpoint's layout.
        return _from_config(config_quantization, hidden_size, base_bits)
    if quantization in (None, "", "auto", "none"):
        return WeightFormat(name=dtype, bits=base_bits, quantizes=ALL_MATRICES, rest_bits=base_bits,
                            small_bits=base_bits, source="unquantized")
    q = quantization.lower()
    rest = min(base_bits, 16.0)
    per_channel = 32.0 / hidden_size  # one fp32 scale per output row of ~hidden_size inputs
    if q == "fp8":
        # vLLM online fp8: per-tensor scale (docs.vllm.ai, quantization/fp8).
        return WeightFormat(name="fp8", bits=8.0, rest_bits=rest, source="FP8 E4M3, one scale per tensor")
    if q == "fp8_channel":
        return WeightFormat(name=q, bits=8.0 + per_channel, rest_bits=rest,
                            source="FP8 E4M3 with an fp32 scale per output channel")
    if q == "fp8_block":
        # DeepSeek-V3 style: fp32 scale per 128x128 block (config weight_block_size [128, 128]).
        return WeightFormat(name=q, bits=8.0 + 32.0 / (128 * 128), rest_bits=rest,
                            source="FP8 E4M3 with an fp32 scale per 128x128 block")
    if q in ("int8", "w8a8"):
        return WeightFormat(name="int8_w8a8", bits=8.0 + per_channel, rest_bits=rest,
                            source="INT8 weights with a per-channel scale (W8A8)")
    if q in ("gptq", "awq", "int4"):
        if group_size <= 0:
            raise InputError("group_size", f"must be > 0, got {group_size}")
        # fp16 scale + packed 4-bit zero point per group (AutoGPTQ / AutoAWQ layouts).
        return WeightFormat(name=f"{q}_g{group_size}", bits=4.0 + 20.0 / group_size, rest_bits=rest,
                            source=f"INT4 group-wise, group {group_size}: fp16 scale + 4-bit zero per group")
    if q == "nf4":
        # bitsandbytes NF4: fp32 absmax per 64-weight block = 0.5 bit/weight (Dettmers et al. 2023, QLoRA).
        return WeightFormat(name="nf4", bits=4.5, rest_bits=rest, source="NF4, fp32 absmax per 64 weights")
    if q in ("nf4_dq", "bitsandbytes"):
        # Double quantization: 8-bit absmax per 64 + fp32 per 256 blocks = 0.127 bit/weight (QLoRA §3).
        return WeightFormat(name="nf4_double_quant", bits=4.0 + 8 / 64 + 32 / (64 * 256), rest_bits=rest,
                            source="NF4 + double quantization (QLoRA paper: 0.127 bit/weight overhead)")
    if q == "mxfp4":
        # OCP Microscaling spec v1.0: E2M1 elements, one E8M0 scale per 32.
        return WeightFormat(name="mxfp4", bits=4.25, rest_bits=rest, source="MXFP4: 8-bit scale per 32 weights")
    if q == "nvfp4":
        # NVIDIA NVFP4: E2M1, FP8 E4M3 scale per 16 weights (+ one fp32 per tensor).
        return WeightFormat(name="nvfp4", bits=4.5, rest_bits=rest, source="NVFP4: FP8 scale per 16 weights")
    if q == "gguf_q4_k":
        # ggml k-quants: Q4_K super-block of 256 weights = 144 bytes -> 4.5 bpw; norms stay f32.
        return WeightFormat(name=q, bits=4.5, quantizes=ALL_MATRICES, rest_bits=16.0, small_bits=32.0,
                            source="GGUF Q4_K (ggml k-quants: 144 bytes per 256 weights)")
    if q == "gguf_q8_0":
        # ggml Q8_0: 32 int8 + one fp16 scale = 34 bytes per 32 weights -> 8.5 bpw.
        return WeightFormat(name=q, bits=8.5, quantizes=ALL_MATRICES, rest_bits=16.0, small_bits=32.0,
                            source="GGUF Q8_0 (34 bytes per 32 weights)")
    raise InputError("quantization", f"{quantization!r} is not a known weight format",
                     ", ".join(QUANTIZATION_CHOICES))


def _from_config(qc: dict[str, Any], hidden_size: int, base_bits: float) -> WeightFormat:
    """Read a checkpoint's `quantization_config` (Hugging Face / vLLM conventions)."""
    method = str(qc.get("quant_method", "")).lower()
    skip = _not_converted(qc.get("modules_to_not_convert") or qc.get("ignore"))
    if method == "fp8":
        fmt = weight_format("fp8_block" if qc.get("weight_block_size") else "fp8_channel", "bfloat16", hidden_size)
    elif method == "mxfp4":
        fmt = weight_format("mxfp4", "bfloat16", hidden_size)
    elif method in ("gptq", "awq"):
        bits = int(qc.get("bits", qc.get("w_bit", 4)))
        group = int(qc.get("group_size", qc.get("q_group_size", 128)))
        group = group if group > 0 else hidden_size  # -1 means one group per row
        fmt = WeightFormat(name=f"{method}_{bits}bit_g{group}", bits=bits + 20.0 / group,
                           source=f"{method.upper()} {bits}-bit, group {group}")
    elif method == "bitsandbytes":
        if qc.get("load_in_8bit"):
            fmt = WeightFormat(name="bnb_int8", bits=8.0 + 32.0 / hidden_size, source="bitsandbytes LLM.int8")
        else:
            fmt = weight_format("nf4_dq" if qc.get("bnb_4bit_use_double_quant") else "nf4", "bfloat16", hidden_size)
    elif method in ("modelopt", "compressed-tensors"):
        algo = str(qc.get("quant_algo", "")).lower()
        groups: dict[str, Any] = qc.get("config_groups") or {}
        first_group: dict[str, Any] = next(iter(groups.values()), {}) if groups else {}
        weights: dict[str, Any] = first_group.get("weights") or {}
        num_bits = int(weights.get("num_bits", 8 if "fp8" in algo else 4))
        if "nvfp4" in algo or (num_bits == 4 and weights.get("type") == "float"):
            fmt = weight_format("nvfp4", "bfloat16", hidden_size)
        elif num_bits == 4:
            group = int(weights.get("group_size") or 128)
            fmt = weight_format("gptq", "bfloat16", hidden_size, group_size=group)
        elif weights.get("type") == "int":
            fmt = weight_format("int8", "bfloat16", hidden_size)
        else:
            fmt = weight_format("fp8_channel", "bfloat16", hidden_size)
    else:
        raise InputError("config.quantization_config.quant_method", f"{method!r} is not a format sizer-agent knows",
                         "fp8, mxfp4, gptq, awq, bitsandbytes, modelopt, compressed-tensors; or pass --quantization")
    return fmt.model_copy(update={"quantizes": fmt.quantizes - skip, "rest_bits": min(base_bits, 16.0),
                                  "source": fmt.source + " (from the checkpoint's quantization_config)"})
