"""KV cache: bytes per token and at a given load.

Per token = sum over attention layers of 2 x kv_heads x head_dim x bytes (K and V). MLA layers store one
latent of (kv_lora_rank + qk_rope_head_dim) values instead (DeepSeek-V2 paper, §2.1.2). Sliding-window
and chunked-attention layers keep at most their window. Under tensor parallelism each GPU holds
max(1, kv_heads / tp) heads; the MLA latent is replicated on every rank.

`head_alignment`: the serving engine of some chips stores each KV head padded to a multiple of this many
elements (vLLM on TPU: 128 lanes, the catalogue's `kv_head_alignment`), so head_dim 64 stores 128 values per
head: twice the bytes, half the tokens. The padding applies to heads only; an MLA latent is not a head. The
co-design fill of the speed model (tools.perf.codesign, `kv_fill`) is head_dim / `stored_head_dim`: one rule.
"""

from __future__ import annotations

from sizer_agent.tools.model_spec import LayerParams, ModelSpec


def stored_head_dim(head_dim: int, alignment: int | None) -> int:
    """Elements the engine stores per KV head: head_dim rounded up to a multiple of `alignment` (None: as is)."""
    if not alignment:
        return head_dim
    return -(-head_dim // alignment) * alignment


def layer_bytes_per_token(model: ModelSpec, layer: LayerParams, kv_bytes: float, tp: int = 1,
                          head_alignment: int | None = None) -> float:
    if layer.attention_kind == "none":
        return 0.0
    if layer.attention_kind == "mla" and model.mla is not None:
        return (model.mla.kv_lora_rank + model.mla.qk_rope_head_dim) * kv_bytes
    heads = max(1, model.num_kv_heads // tp)
    return 2 * heads * stored_head_dim(model.head_dim, head_alignment) * kv_bytes


def kv_cache_bytes_per_token(
    model: ModelSpec, kv_bytes: float, tp: int = 1, layer_slice: slice | None = None,
    head_alignment: int | None = None,
) -> int:
    """Every layer's cost for one more token (the worst case, ignoring window caps); `layer_slice` picks one
    pipeline stage's layers."""
    chosen = model.layers if layer_slice is None else model.layers[layer_slice]
    return round(sum(layer_bytes_per_token(model, layer, kv_bytes, tp, head_alignment) for layer in chosen))


def kv_cache_bytes(
    model: ModelSpec,
    kv_bytes: float,
    tokens_per_sequence: int,
    sequences: int,
    tp: int = 1,
    layer_slice: slice | None = None,
    head_alignment: int | None = None,
) -> int:
    """KV memory for `sequences` sequences of `tokens_per_sequence` tokens, window caps applied."""
    layers = model.layers[layer_slice] if layer_slice is not None else model.layers
    total = 0.0
    for layer in layers:
        kept = tokens_per_sequence
        if layer.attention_kind in ("sliding", "chunked") and layer.window:
            kept = min(tokens_per_sequence, layer.window)
        total += layer_bytes_per_token(model, layer, kv_bytes, tp, head_alignment) * kept
    return round(total * sequences)
