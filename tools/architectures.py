"""Turn a Hugging Face `config.json` into a `ModelSpec`: per-layer parameter counts by kind.

Formulas follow the modeling files of Hugging Face transformers for each `model_type` (Llama, Mistral,
Mixtral, Qwen2/3 and their MoE variants, Phi/Phi-3, Gemma 1/2/3, DeepSeek V2/V3, gpt-oss, Llama 4).
They are checked against exact counts (safetensors `total_size`) in tests/estimate/test_param_counts.py.
An unknown `model_type` falls back to the Llama layout with a warning naming every guessed key.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from sizer_agent.tools.errors import InputError
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.model_spec import CEILINGS, MAX_HIDDEN, AttentionKind, LayerParams, MLASpec, ModelSpec, MoESpec

KNOWN_TYPES = {
    "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "phi", "phi3",
    "gemma", "gemma2", "gemma3_text", "deepseek_v2", "deepseek_v3", "gpt_oss", "llama4_text",
}  # fmt: skip

# Gemma3TextConfig defaults (transformers models/gemma3/configuration_gemma3.py): the published
# multimodal configs omit them from `text_config`.
_GEMMA3_TEXT_DEFAULTS: dict[str, Any] = {
    "vocab_size": 262208,
    "num_attention_heads": 8,
    "num_key_value_heads": 4,
    "head_dim": 256,
    "max_position_embeddings": 131072,
    "sliding_window": 4096,
    "sliding_window_pattern": 6,
    "tie_word_embeddings": True,
}


class _Reader:
    """Reads config keys, remembering which required ones were guessed."""

    def __init__(self, config: dict[str, Any], where: str) -> None:
        self.config = config
        self.where = where
        self.guessed: list[str] = []

    def get(self, key: str, default: Any = None) -> Any:
        value = self.config.get(key)
        return default if value is None else value

    def require(self, key: str, *alternatives: str) -> int:
        for name in (key, *alternatives):
            value = self.config.get(name)
            if value is not None:
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise InputError(f"{self.where}.{name}", f"must be a whole number >= 0, got {value!r}")
                _check_ceiling(name, value, self.where)
                return value
        raise InputError(
            f"{self.where}.{key}",
            "missing from the model config",
            "a Hugging Face config.json with hidden_size, num_hidden_layers, num_attention_heads, vocab_size",
        )

    def guess(self, key: str, value: Any, why: str) -> Any:
        if self.config.get(key) is None:
            self.guessed.append(f"{key}={value} ({why})")
            return value
        return self.config[key]


# Keys that must be whole numbers when present (validated up front so that a bad value names its key).
_INT_KEYS = (
    "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim", "vocab_size",
    "intermediate_size", "max_position_embeddings", "num_local_experts", "num_experts", "n_routed_experts",
    "num_experts_per_tok", "experts_per_token", "moe_intermediate_size", "shared_expert_intermediate_size",
    "n_shared_experts", "first_k_dense_replace", "moe_layer_freq", "decoder_sparse_step", "kv_lora_rank",
    "q_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim", "sliding_window", "attention_chunk_size",
    "interleave_moe_layer_step", "intermediate_size_mlp", "sliding_window_pattern", "max_window_layers",
    "no_rope_layer_interval",
)  # fmt: skip
_POSITIVE_KEYS = {
    "hidden_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "head_dim",
    "vocab_size",
    "max_position_embeddings",
    "num_experts_per_tok",
    "experts_per_token",
    "moe_layer_freq",
    "decoder_sparse_step",
    "interleave_moe_layer_step",
    "sliding_window_pattern",
    "no_rope_layer_interval",
}


def _check_ceiling(key: str, value: int, where: str) -> None:
    ceiling = CEILINGS.get(key)
    if ceiling is not None and value > ceiling[0]:
        raise InputError(f"{where}.{key}", f"{value:,} is beyond any published model ({ceiling[1]})",
                         f"at most {ceiling[0]:,}")


# rope_scaling keys that are ratios or lengths: finite and > 0 (a negative or zero factor scales nothing)
_ROPE_POSITIVE = ("factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings")
_MAX_ROPE_FACTOR = 1024  # published RoPE scaling factors go up to 40 (DeepSeek V3 YaRN)


def _check_rope(config: dict[str, Any], where: str) -> None:
    rope = config.get("rope_scaling")
    if rope is None:
        return
    if not isinstance(rope, dict):
        raise InputError(f"{where}.rope_scaling", f"must be an object, got {type(rope).__name__}")
    for key in _ROPE_POSITIVE:
        value = rope.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
            raise InputError(f"{where}.rope_scaling.{key}", f"must be a number > 0, got {value!r}")
        if key == "factor" and value > _MAX_ROPE_FACTOR:
            raise InputError(f"{where}.rope_scaling.factor", f"{value} is beyond any published model (40 at most)",
                             f"at most {_MAX_ROPE_FACTOR}")
    theta = config.get("rope_theta")
    if theta is not None and (isinstance(theta, bool) or not isinstance(theta, int | float) or not theta > 0):
        raise InputError(f"{where}.rope_theta", f"must be a number > 0, got {theta!r}")


def _check_numbers(config: dict[str, Any], where: str) -> None:
    for key in _INT_KEYS:
        value = config.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InputError(f"{where}.{key}", f"must be a whole number >= 0, got {value!r}")
        if key in _POSITIVE_KEYS and value == 0:
            raise InputError(f"{where}.{key}", "must be > 0")
        _check_ceiling(key, value, where)
    _check_rope(config, where)
    for key in ("layer_types", "mlp_only_layers", "no_rope_layers", "architectures"):
        value = config.get(key)
        if value is not None and not isinstance(value, list):
            raise InputError(f"{where}.{key}", f"must be a list, got {type(value).__name__}")
    for key in ("mlp_only_layers", "no_rope_layers"):
        value = config.get(key) or []
        if not all(type(item) is int and 0 <= item <= CEILINGS["num_hidden_layers"][0] for item in value):
            raise InputError(f"{where}.{key}", "must be a list of layer numbers")
    if not all(isinstance(item, str) for item in config.get("architectures") or []):
        raise InputError(f"{where}.architectures", "must be a list of class names")
    for key in ("torch_dtype", "dtype"):
        if config.get(key) is not None and not isinstance(config[key], str):
            raise InputError(f"{where}.{key}", f"must be a dtype name, got {config[key]!r}")
    if config.get("model_type") is not None and not isinstance(config.get("model_type"), str):
        raise InputError(f"{where}.model_type", "must be a string")


_VISION_SIZES = {"patch_size": 4096, "image_size": 1 << 16, "num_channels": 64, "projector_input_dim": MAX_HIDDEN,
                 "projector_output_dim": MAX_HIDDEN}  # fmt: skip


def _check_vision(vision: dict[str, Any], config: dict[str, Any]) -> None:
    """The vision tower's sizes: whole numbers > 0 (a patch of 0 pixels divides by zero), ratios in (0, 1]."""
    for key, ceiling in (*_VISION_SIZES.items(), ("spatial_merge_size", 64)):
        source = config if key == "spatial_merge_size" else vision
        value = source.get(key)
        where = "config" if source is config else "config.vision_config"
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= ceiling):
            raise InputError(f"{where}.{key}", f"must be a whole number in 1..{ceiling:,}, got {value!r}")
    ratio = vision.get("pixel_shuffle_ratio")
    if ratio is not None and (isinstance(ratio, bool) or not isinstance(ratio, int | float) or not 0 < ratio <= 1):
        raise InputError("config.vision_config.pixel_shuffle_ratio", f"must be in (0, 1], got {ratio!r}")


# Language models of multimodal checkpoints laid out like a text family (same tensors, same biases).
_TEXT_FAMILY = {"qwen2_5_vl": "qwen2", "qwen2_vl": "qwen2", "qwen2_5_vl_text": "qwen2", "qwen2_vl_text": "qwen2"}


def _text_config(config: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Multimodal checkpoints nest the language model in `text_config` (Qwen2-VL / Qwen2.5-VL keep it at the
    top level beside `vision_config`)."""
    text = config.get("text_config")
    if not isinstance(text, dict):
        vision = config.get("vision_config")
        if str(config.get("model_type", "")) in _TEXT_FAMILY and isinstance(vision, dict):
            return config, vision
        return config, None
    merged = dict(text)
    if text.get("model_type") == "gemma3_text":
        merged = {**_GEMMA3_TEXT_DEFAULTS, **text}
    for key in ("torch_dtype", "quantization_config", "tie_word_embeddings"):
        if key not in merged and key in config:
            merged[key] = config[key]
    vision = config.get("vision_config")
    return merged, vision if isinstance(vision, dict) else None


def _attention_kinds(cfg: _Reader, model_type: str, num_layers: int) -> list[tuple[AttentionKind, int | None]]:
    window = cfg.get("sliding_window")
    layer_types = cfg.get("layer_types")
    if isinstance(layer_types, list) and len(layer_types) == num_layers:
        return [("sliding", window) if "sliding" in str(t) else ("full", None) for t in layer_types]
    if model_type == "gemma2":
        # Gemma 2 alternates: even layers local (sliding), odd layers global.
        return [("sliding", window) if i % 2 == 0 else ("full", None) for i in range(num_layers)]
    if model_type == "gemma3_text":
        pattern = int(cfg.get("sliding_window_pattern", 6))
        return [("full", None) if (i + 1) % pattern == 0 else ("sliding", window) for i in range(num_layers)]
    if model_type == "llama4_text":
        # Llama 4: every 4th layer is global (no RoPE); the others attend within chunks.
        chunk = cfg.get("attention_chunk_size")
        interval = int(cfg.get("no_rope_layer_interval", 4))
        no_rope = cfg.get("no_rope_layers") or []
        if len(no_rope) != num_layers:
            no_rope = [int((i + 1) % interval != 0) for i in range(num_layers)]
        return [("chunked", chunk) if (chunk and no_rope[i]) else ("full", None) for i in range(num_layers)]
    use_sliding = cfg.get("use_sliding_window", model_type in {"mistral", "mixtral", "phi3"})
    if window and use_sliding:
        max_window_layers = cfg.get("max_window_layers")
        if model_type.startswith("qwen") and max_window_layers is not None:
            # Qwen2: layers from `max_window_layers` on use sliding windows.
            return [("sliding", window) if i >= max_window_layers else ("full", None) for i in range(num_layers)]
        return [("sliding", window)] * num_layers
    return [("full", None)] * num_layers


def _rope_positions(rope: object, max_pos: int) -> int:
    """Positions of vLLM's cos/sin cache for one RoPE (vllm/model_executor/layers/rotary_embedding):
    linear and dynamic-NTK scaling cache max_position x factor, YaRN original_max_position x factor,
    Llama 3 / default RoPE max_position."""
    if not isinstance(rope, dict):
        return max_pos
    kind = str(rope.get("rope_type") or rope.get("type") or "default")
    factor = float(rope.get("factor") or 1.0)
    if kind in ("linear", "dynamic"):
        return int(max_pos * factor)
    if kind in ("yarn", "deepseek_yarn"):
        return int(int(rope.get("original_max_position_embeddings") or max_pos) * factor)
    return max_pos


def _rope_cache_values(text: dict[str, Any], model_type: str, head_dim: int, max_pos: int,
                       rope_dim: int | None) -> int:
    """cos/sin cache values vLLM keeps as a buffer on every GPU (positions x rotary dim, one cache per
    distinct RoPE); it is part of vLLM's "Model loading took" figure. Gemma 3 has a local RoPE (no scaling)
    for its sliding layers and the scaled one for its global layers."""
    dim = rope_dim or int(head_dim * float(text.get("partial_rotary_factor") or 1.0))
    values = _rope_positions(text.get("rope_scaling"), max_pos) * dim
    if model_type == "gemma3_text":
        values += max_pos * dim
    return values


def _vision_params(vision: dict[str, Any] | None, config: dict[str, Any],
                   text_hidden: int) -> tuple[int, Msg | None]:
    """Vision tower + projector. Returns (params, warning or None)."""
    if vision is None:
        return 0, None
    vtype = vision.get("model_type", "")
    h = int(vision.get("hidden_size", 0))
    inter = int(vision.get("intermediate_size", 0))
    layers = int(vision.get("num_hidden_layers", 0))
    patch = int(vision.get("patch_size", 14))
    channels = int(vision.get("num_channels", 3))
    image = int(vision.get("image_size", 224))
    if vtype == "siglip_vision_model":
        # SigLIP: conv patch embedding with bias, learned positions, pre-norm blocks with biases.
        positions = (image // patch) ** 2
        per_layer = 4 * (h * h + h) + (h * inter + inter) + (inter * h + h) + 2 * (2 * h)
        tower = channels * patch * patch * h + h + positions * h + layers * per_layer + 2 * h
        projector = h * text_hidden + h  # Gemma 3: mm_input_projection + mm_soft_emb_norm
        return tower + projector, None
    if vtype == "pixtral":
        # Pixtral: bias-free conv, RMSNorm, gated MLP; Mistral 3 projector with a 2x2 patch merger.
        per_layer = 4 * h * h + 3 * h * inter + 2 * h
        tower = channels * patch * patch * h + h + layers * per_layer
        merge = int(config.get("spatial_merge_size", 2))
        bias = bool(config.get("multimodal_projector_bias", False))
        projector = (
            h + h * merge * merge * h + h * text_hidden + text_hidden * text_hidden + (2 * text_hidden if bias else 0)
        )
        return tower + projector, None
    if vtype == "llama4_vision_model":
        positions = (image // patch) ** 2 + 1
        per_layer = 4 * (h * h + h) + (h * inter + inter) + (inter * h + h) + 4 * h
        tower = channels * patch * patch * h + h + positions * h + 4 * h + layers * per_layer
        shuffle = float(vision.get("pixel_shuffle_ratio", 0.5))
        adapter_in = int(h / (shuffle * shuffle))
        proj_in = int(vision.get("projector_input_dim", 4096))
        proj_out = int(vision.get("projector_output_dim", 4096))
        adapter = adapter_in * proj_in + proj_in * proj_out
        return tower + adapter + proj_out * text_hidden, Msg("model.llama4_vision")
    if vtype in ("qwen2_5_vl", "qwen2_vl") or "fullatt_block_indexes" in vision:
        # Qwen2.5-VL (transformers modeling_qwen2_5_vl.py): bias-free Conv3d patch embedding over 2 frames,
        # `depth` blocks of RMSNorm x2, qkv and proj with biases, gated SiLU MLP with biases; a merger of
        # RMSNorm + MLP from 4 merged patches (spatial_merge_size 2) to the text width.
        h = int(vision.get("hidden_size", 1280))
        inter = int(vision.get("intermediate_size", 3420))
        depth = int(vision.get("depth", 32))
        temporal = int(vision.get("temporal_patch_size", 2))
        channels = int(vision.get("in_chans", vision.get("in_channels", 3)))
        merge = int(vision.get("spatial_merge_size", 2))
        out = int(vision.get("out_hidden_size", text_hidden))
        per_layer = 2 * h + (h * 3 * h + 3 * h) + (h * h + h) + 2 * (h * inter + inter) + (inter * h + h)
        tower = channels * temporal * patch * patch * h + depth * per_layer
        wide = h * merge * merge
        merger = h + (wide * wide + wide) + (wide * out + out)
        return tower + merger, None
    return 0, Msg("model.vision_not_counted", vision_type=str(vtype))


def image_tokens_per_image(vision: dict[str, Any] | None, config: dict[str, Any]) -> int:
    """Language-model tokens one image becomes, at the checkpoint's largest default image (0: text-only).

    Gemma 3: `mm_tokens_per_image` (256, any image is resized to 896 px). Pixtral / Mistral Small 3.1: a
    1540-px image is 110 x 110 patches of 14 px, merged 2 x 2 -> 55 x 55 tokens + 55 row breaks = 3,080.
    Llama 4: one 336-px tile is 24 x 24 patches, pixel-shuffled by 0.5 -> 144 tokens (+ tile markers; the
    processor adds a global tile when it splits a larger image). Qwen2.5-VL: one token per 28 x 28 pixels; a
    1024 x 1024 image (inside the processor's default 12.8 MP ceiling) is 37 x 37 = 1,369 tokens."""
    if vision is None:
        return 0
    if "mm_tokens_per_image" in config:
        return int(config["mm_tokens_per_image"])
    vtype = vision.get("model_type", "")
    patch = int(vision.get("patch_size", 14))
    if vtype == "pixtral":
        side = int(vision.get("image_size", 1540)) // patch // int(config.get("spatial_merge_size", 2))
        return side * side + side
    if vtype == "llama4_vision_model":
        side = int(vision.get("image_size", 336)) // patch
        return int(side * side * float(vision.get("pixel_shuffle_ratio", 0.5)) ** 2)
    if vtype in ("qwen2_5_vl", "qwen2_vl") or "fullatt_block_indexes" in vision:
        pixel = patch * int(vision.get("spatial_merge_size", 2))
        return (1024 // pixel + (1 if 1024 % pixel else 0)) ** 2
    return 0


def spec_from_config(config: dict[str, Any], name: str, revision: str | None = None, source: str = "") -> ModelSpec:
    """Build a ModelSpec from a parsed config.json. Raises InputError naming a missing or bad key."""
    if not isinstance(config, dict):
        raise InputError("config", "is not a JSON object")
    text, vision = _text_config(config)
    cfg = _Reader(text, "config" + (".text_config" if vision is not None or "text_config" in config else ""))
    _check_numbers(text, cfg.where)
    if vision is not None:
        _check_numbers(vision, "config.vision_config")
        _check_vision(vision, config)
    model_type = str(text.get("model_type") or config.get("model_type") or "")
    model_type = _TEXT_FAMILY.get(model_type, model_type)
    architecture = str((config.get("architectures") or [model_type or "unknown"])[0])
    warnings: list[Msg] = []
    if model_type not in KNOWN_TYPES:
        warnings.append(Msg("model.unknown_architecture", architecture=model_type or architecture))

    hidden = cfg.require("hidden_size", "n_embd", "d_model")
    num_layers = cfg.require("num_hidden_layers", "n_layer", "num_layers")
    heads = cfg.require("num_attention_heads", "n_head")
    if heads == 0 or hidden == 0 or num_layers == 0:
        raise InputError(f"{cfg.where}.num_attention_heads", "hidden_size, layers and heads must be > 0")
    kv_heads = int(cfg.guess("num_key_value_heads", heads, "no GQA key: one KV head per attention head"))
    head_dim = int(cfg.get("head_dim") or hidden // heads)
    if head_dim == 0:
        raise InputError(
            f"{cfg.where}.num_attention_heads",
            f"{heads} heads leave no width in hidden_size {hidden}",
            "heads <= hidden_size, or an explicit head_dim",
        )
    vocab = cfg.require("vocab_size")
    intermediate = int(cfg.guess("intermediate_size", 4 * hidden, "4 x hidden_size"))
    max_pos = int(cfg.guess("max_position_embeddings", 4096, "no context length in the config"))
    tie = bool(cfg.get("tie_word_embeddings", model_type in {"gemma", "gemma2", "gemma3_text"}))

    # Per-family layout switches.
    qkv_bias = bool(cfg.get("attention_bias", model_type in {"qwen2", "qwen2_moe", "phi", "gpt_oss"}))
    if model_type in {"qwen2", "qwen2_moe"}:
        qkv_bias = bool(cfg.get("qkv_bias", True))
    o_bias = model_type in {"phi", "gpt_oss"} or (model_type == "llama" and qkv_bias)
    qk_norm = model_type in {"qwen3", "qwen3_moe", "gemma3_text"}
    norms_per_layer = {"gemma2": 4, "gemma3_text": 4, "phi": 1}.get(model_type, 2)  # phi: one shared LayerNorm
    layer_norm_bias = model_type == "phi"  # LayerNorm (weight + bias) instead of RMSNorm
    gated = model_type != "phi"
    mlp_bias = model_type == "phi" or bool(cfg.get("mlp_bias", False))

    mla: MLASpec | None = None
    if cfg.get("kv_lora_rank") is not None:
        mla = MLASpec(
            kv_lora_rank=int(cfg.get("kv_lora_rank")),
            q_lora_rank=cfg.get("q_lora_rank"),
            qk_rope_head_dim=int(cfg.get("qk_rope_head_dim", 64)),
            qk_nope_head_dim=int(cfg.get("qk_nope_head_dim", 128)),
            v_head_dim=int(cfg.get("v_head_dim", 128)),
        )

    # Attention parameters of one layer.
    attn_small = 0
    if mla is not None:
        qk_dim = mla.qk_nope_head_dim + mla.qk_rope_head_dim
        if mla.q_lora_rank:
            attn = hidden * mla.q_lora_rank + mla.q_lora_rank * heads * qk_dim
            attn_small += mla.q_lora_rank  # q_a_layernorm
        else:
            attn = hidden * heads * qk_dim
        attn += hidden * (mla.kv_lora_rank + mla.qk_rope_head_dim)
        attn += mla.kv_lora_rank * heads * (mla.qk_nope_head_dim + mla.v_head_dim)
        attn += heads * mla.v_head_dim * hidden
        attn_small += mla.kv_lora_rank  # kv_a_layernorm
    else:
        q_out, kv_out = heads * head_dim, kv_heads * head_dim
        attn = hidden * q_out + 2 * hidden * kv_out + q_out * hidden
        if qkv_bias:
            attn_small += q_out + 2 * kv_out
        if o_bias:
            attn_small += hidden
        if qk_norm:
            attn_small += 2 * head_dim
        if model_type == "gpt_oss":
            attn_small += heads  # attention sinks: one learned logit per head
    norms = norms_per_layer * hidden * (2 if layer_norm_bias else 1)

    def dense_mlp(width: int) -> tuple[int, int]:
        matrices = (3 if gated else 2) * hidden * width
        return matrices, (width + hidden) if mlp_bias else 0

    # Mixture of experts.
    moe: MoESpec | None = None
    moe_layers: set[int] = set()
    experts = int(cfg.get("num_local_experts") or cfg.get("num_experts") or cfg.get("n_routed_experts") or 0)
    if experts > 1:
        top_k = int(cfg.get("num_experts_per_tok") or cfg.get("experts_per_token") or 2)
        if top_k > experts:
            raise InputError(f"{cfg.where}.num_experts_per_tok",
                             f"{top_k} experts per token of only {experts} experts", f"1..{experts}")
        expert_width = int(cfg.get("moe_intermediate_size") or intermediate)
        shared_width = int(cfg.get("shared_expert_intermediate_size") or 0)
        if cfg.get("n_shared_experts"):
            shared_width = int(cfg.get("n_shared_experts")) * expert_width
        if model_type == "llama4_text":
            shared_width = intermediate  # one shared expert as wide as a routed one
        first_dense = int(cfg.get("first_k_dense_replace", 0))
        step = int(cfg.get("moe_layer_freq") or cfg.get("decoder_sparse_step") or 1)
        mlp_only = set(cfg.get("mlp_only_layers") or [])
        if model_type == "llama4_text":
            step = int(cfg.get("interleave_moe_layer_step", 1))
            moe_layers = set(range(step - 1, num_layers, step))
        else:
            moe_layers = {
                i for i in range(num_layers) if i >= first_dense and (i + 1) % step == 0 and i not in mlp_only
            }
            if model_type.startswith("deepseek"):
                moe_layers = {i for i in range(num_layers) if i >= first_dense and i % step == 0}
        moe = MoESpec(
            num_experts=experts,
            experts_per_token=top_k,
            expert_intermediate_size=expert_width,
            num_shared_experts=int(cfg.get("n_shared_experts") or (1 if shared_width else 0)),
            shared_intermediate_size=shared_width,
            first_dense_layers=first_dense,
        )
    dense_width = int(cfg.get("intermediate_size_mlp") or intermediate)

    kinds = _attention_kinds(cfg, model_type, num_layers)
    layers: list[LayerParams] = []
    for i in range(num_layers):
        kind, window = kinds[i]
        if mla is not None:
            kind, window = "mla", None
        layer = LayerParams(attention_kind=kind, window=window, attention=attn, small=attn_small + norms)
        if moe is not None and i in moe_layers:
            per_expert = 3 * hidden * moe.expert_intermediate_size
            if model_type == "gpt_oss":
                # Expert biases (gate_up and down) travel with their experts.
                per_expert += 2 * moe.expert_intermediate_size + hidden
            layer.experts = moe.num_experts * per_expert
            layer.shared_experts = 3 * hidden * moe.shared_intermediate_size
            layer.router = hidden * moe.num_experts
            if model_type == "gpt_oss":
                layer.router += moe.num_experts  # router bias
            if model_type == "qwen2_moe" and moe.shared_intermediate_size:
                layer.router += hidden  # shared_expert_gate
            if model_type == "deepseek_v3" or cfg.get("topk_method") == "noaux_tc":
                layer.small += moe.num_experts  # e_score_correction_bias
        else:
            matrices, biases = dense_mlp(dense_width)
            layer.mlp = matrices
            layer.small += biases
        layers.append(layer)

    embedding = vocab * hidden
    lm_head = 0 if tie else vocab * hidden + (vocab if model_type == "phi" else 0)
    final_norm = hidden * (2 if layer_norm_bias else 1)
    vision_params, vision_warning = _vision_params(vision, config, hidden)
    image_tokens = image_tokens_per_image(vision, config)
    rope_values = _rope_cache_values(text, model_type, head_dim, max_pos, mla.qk_rope_head_dim if mla else None)
    if vision_warning is not None:
        warnings.append(vision_warning)
    if cfg.guessed:
        warnings.append(Msg("model.guessed", items=list(cfg.guessed)))

    quant = text.get("quantization_config") or config.get("quantization_config")
    try:
        return ModelSpec(
            name=name,
            revision=revision,
            source=source,
            architecture=architecture,
            model_type=model_type,
            hidden_size=hidden,
            num_layers=num_layers,
            num_attention_heads=heads,
            num_kv_heads=kv_heads,
            head_dim=head_dim,
            intermediate_size=intermediate,
            vocab_size=vocab,
            max_position_embeddings=max_pos,
            tie_word_embeddings=tie,
            moe=moe,
            mla=mla,
            sliding_window=next((w for k, w in kinds if k in {"sliding", "chunked"}), None),
            gated_mlp=gated,
            layers=layers,
            embedding_params=embedding,
            lm_head_params=lm_head,
            final_norm_params=final_norm,
            vision_params=vision_params,
            rope_cache_values=rope_values,
            image_tokens_per_image=image_tokens,
            torch_dtype=str(text.get("torch_dtype") or config.get("torch_dtype") or config.get("dtype") or "bfloat16"),
            quantization=quant if isinstance(quant, dict) else None,
            final_logit_softcapping=text.get("final_logit_softcapping"),
            warnings=warnings,
        )
    except ValidationError as error:
        first = error.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        if ": " in message and not key:  # a model validator names its own key
            key, message = message.split(": ", 1)
        raise InputError(f"{cfg.where}.{key}" if key else cfg.where, message) from None

