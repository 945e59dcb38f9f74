"""Weight memory: whole model and per GPU, by tensor kind and storage format."""

from __future__ import annotations

from sizer_agent.tools.model_spec import LayerParams, ModelSpec
from sizer_agent.tools.parallelism import ParallelismPlan
from sizer_agent.tools.quantization import WeightFormat

_KINDS = ("attention", "mlp", "experts", "shared_experts", "router", "small")


def _layer_bytes(layer: LayerParams, fmt: WeightFormat) -> float:
    return float(sum(getattr(layer, kind) * fmt.bits_for(kind) / 8 for kind in _KINDS))


def weight_bytes(model: ModelSpec, fmt: WeightFormat) -> int:
    """The whole model in `fmt` (vision tower at the format's 16-bit width), metadata included."""
    total = sum(_layer_bytes(layer, fmt) for layer in model.layers)
    total += model.embedding_params * fmt.bits_for("embedding") / 8
    total += model.lm_head_params * fmt.bits_for("lm_head") / 8
    total += model.final_norm_params * fmt.bits_for("small") / 8
    total += model.vision_params * fmt.rest_bits / 8
    return round(total)


def _round_up(value: float, multiple: int) -> float:
    return -(-value // multiple) * multiple


def mxfp4_expert_padding(model: ModelSpec, tp: int) -> float:
    """vLLM's MXFP4 MoE kernels (Marlin/Triton, Hopper and Ampere) allocate experts with the per-rank
    intermediate size rounded up to 128 and the hidden size to 256
    (vllm/model_executor/layers/quantization/mxfp4.py, Mxfp4MoEMethod.create_weights). gpt-oss: 2880 -> 3072."""
    if model.moe is None:
        return 1.0
    inter = model.moe.expert_intermediate_size / tp
    return (_round_up(inter, 128) / inter) * (_round_up(model.hidden_size, 256) / model.hidden_size)


def _layer_bytes_per_gpu(
    model: ModelSpec, layer: LayerParams, fmt: WeightFormat, tp: int, expert_padding: float = 1.0
) -> float:
    """One layer's share on one tensor-parallel rank: matrices split, norms and router replicated."""
    attention = layer.attention * fmt.bits_for("attention") / 8
    if model.mla is None and tp > model.num_kv_heads:
        # K and V projections are replicated once tp exceeds the KV heads.
        q_o = 2 * model.hidden_size * model.num_attention_heads * model.head_dim
        kv = layer.attention - q_o
        attention = (q_o / tp + kv / model.num_kv_heads) * fmt.bits_for("attention") / 8
    else:
        attention /= tp
    split = float(sum(getattr(layer, k) * fmt.bits_for(k) / 8 for k in ("mlp", "shared_experts"))) / tp
    split += layer.experts * fmt.bits_for("experts") / 8 / tp * expert_padding
    replicated = layer.router * fmt.bits_for("router") / 8 + layer.small * fmt.bits_for("small") / 8
    return attention + split + replicated


def weight_bytes_per_stage(
    model: ModelSpec, fmt: WeightFormat, plan: ParallelismPlan, pad_mxfp4_experts: bool = False,
    rope_cache_bytes: float = 0.0,
) -> list[int]:
    """Bytes on one GPU of each pipeline stage (embedding on the first, lm_head on the last;
    vocabulary-parallel embedding and lm_head split over tensor-parallel ranks, as vLLM does). The vision
    tower and projector are split over tensor-parallel ranks too: vLLM builds SigLIP, Pixtral, Llama 4 and
    Qwen2.5-VL encoders from its column/row-parallel linears. `rope_cache_bytes`: a buffer every GPU keeps
    (vLLM's RoPE cos/sin cache)."""
    tp = plan.tensor_parallel_size
    padding = mxfp4_expert_padding(model, tp) if pad_mxfp4_experts and fmt.name == "mxfp4" else 1.0
    stages: list[int] = []
    start = 0
    for index, count in enumerate(plan.stage_layers):
        layers = model.layers[start : start + count]
        start += count
        total = sum(_layer_bytes_per_gpu(model, layer, fmt, tp, padding) for layer in layers)
        if index == 0:
            total += model.embedding_params * fmt.bits_for("embedding") / 8 / tp
            total += model.vision_params * fmt.rest_bits / 8 / tp  # vision tower runs before the decoder
        if index == len(plan.stage_layers) - 1:
            lm_head = model.lm_head_params or (model.embedding_params if index > 0 else 0)
            total += lm_head * fmt.bits_for("lm_head") / 8 / tp
            total += model.final_norm_params * fmt.bits_for("small") / 8
        stages.append(round(total + rope_cache_bytes))
    return stages
