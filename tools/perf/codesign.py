"""Co-design: how much of a platform's matrix unit a model's shapes fill.

A systolic matrix unit (TPU MXU, Trainium Tensor Engine) multiplies tiles of `tile x tile`; a matrix
dimension that is not a multiple of the tile is padded with zeros, and the padded share of the cycles is
wasted (seed 003, "le défi gpt-oss-120B": head dimension 64 against Trillium/Ironwood MXUs built for
multiples of 256). For one matmul the share of useful work is the product of the fills of its two
weight-side dimensions (contraction and output width); the token dimension streams through and is not padded.

- attention math (QK^T contracts over head_dim, PV produces head_dim columns): fill(head_dim); with MLA
  (DeepSeek) QK^T contracts over nope + rope dims and PV produces v_head_dim columns, each at its own fill;
- projections and MLP / experts (hidden_size x FFN width): fill(hidden_size) x fill(FFN width).

The engine's KV-cache layout is the same mismatch in memory: vLLM on TPU stores each KV head padded to 128
lanes, so a head_dim of 64 stores and reads twice its bytes (`kv_fill` = 0.5): fewer tokens fit and decode,
which reads the cache every step, slows. The memory estimate stores the same padded heads
(tools.memory.kv_cache.stored_head_dim, the one rounding rule), so the KV tokens that fit, the concurrency and
the per-chip memory agree with the speed model; `kv_fill_after` says what is left to apply to an estimate
that did not pad.

GPUs have no `matrix_tile` in the catalogue: their tensor-core instructions work on 16-wide fragments, so the
padding of real model shapes is negligible and no penalty is applied.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.catalog.models import Gpu
from sizer_agent.tools.memory.kv_cache import stored_head_dim
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.perf.shape import ModelShape

Dimension = Literal["head_dim", "qk_head_dim", "v_head_dim", "hidden_size", "intermediate_size",
                    "expert_intermediate_size"]


class DimensionFill(BaseModel):
    name: Dimension
    size: int = Field(gt=0)
    padded: int = Field(gt=0, description="size rounded up to a multiple of the tile")
    fill: float = Field(gt=0, le=1, description="size / padded: the share of the unit doing useful work")


class CoDesign(BaseModel):
    """The utilisation factor of one model on one platform, with its reason by dimension."""

    gpu: str
    gpu_name: str
    tile: int = Field(gt=0)
    dimensions: list[DimensionFill]
    attention_fill: float = Field(gt=0, le=1, description="applied to attention FLOPs")
    linear_fill: float = Field(gt=0, le=1, description="applied to projection and MLP FLOPs")
    kv_alignment: int | None = Field(None, description="KV head stored padded to this many elements")
    kv_fill: float = Field(1.0, gt=0, le=1, description="useful share of the KV-cache bytes stored and read")

    @property
    def penalised(self) -> list[DimensionFill]:
        return [d for d in self.dimensions if d.fill < 1.0]

    def messages(self) -> list[Msg]:
        """One sentence per dimension that does not fill the unit, then the factors applied."""
        out = [Msg("codesign.dimension", gpu=self.gpu_name, dim=d.name, size=d.size, tile=self.tile,
                   fill=d.fill, padded=d.padded) for d in self.penalised]
        if self.kv_fill < 1.0 and self.kv_alignment:
            head = next(d for d in self.dimensions if d.name in ("head_dim", "v_head_dim"))
            out.append(Msg("codesign.kv", gpu=self.gpu_name, size=head.size, align=self.kv_alignment,
                           fill=self.kv_fill))
        if out:
            out.append(Msg("codesign.applied", attention=self.attention_fill, linear=self.linear_fill))
        return out


def fill(size: int, tile: int) -> tuple[int, float]:
    padded = math.ceil(size / tile) * tile
    return padded, size / padded


def codesign(shape: ModelShape, gpu: Gpu) -> CoDesign | None:
    """The fill of `shape` on `gpu`'s matrix unit; None when the catalogue gives the chip no tile."""
    if gpu.matrix_tile is None:
        return None
    tile = gpu.matrix_tile.value
    qk, v = shape.qk_head_dim or shape.head_dim, shape.v_head_dim or shape.head_dim
    sizes: list[tuple[Dimension, int]] = [("head_dim", qk)] if qk == v else [("qk_head_dim", qk), ("v_head_dim", v)]
    sizes.append(("hidden_size", shape.hidden_size))
    if shape.intermediate_size and not (shape.is_moe and shape.intermediate_size == shape.expert_intermediate_size):
        sizes.append(("intermediate_size", shape.intermediate_size))  # a MoE config often repeats the expert width
    if shape.expert_intermediate_size:
        sizes.append(("expert_intermediate_size", shape.expert_intermediate_size))
    dims = []
    for name, size in sizes:
        padded, share = fill(size, tile)
        dims.append(DimensionFill(name=name, size=size, padded=padded, fill=share))
    by = {d.name: d.fill for d in dims}
    # the FFN that carries the active parameters: the routed experts of a MoE, the dense MLP otherwise
    ffn = by.get("expert_intermediate_size") if shape.is_moe else by.get("intermediate_size")
    linear = by["hidden_size"] * (ffn if ffn is not None else 1.0)
    # MLA: QK^T and PV do equal FLOPs, so the time is the mean of the two at their own fill
    attention = by["head_dim"] if "head_dim" in by else 2.0 / (1.0 / by["qk_head_dim"] + 1.0 / by["v_head_dim"])
    # the engine's KV layout (vLLM on TPU pads each head to 128 lanes): MLA caches a latent, not heads
    align = gpu.kv_alignment
    return CoDesign(gpu=gpu.id, gpu_name=gpu.name, tile=tile, dimensions=dims, attention_fill=attention,
                    linear_fill=linear, kv_alignment=align, kv_fill=kv_share(shape, align))


def kv_share(shape: ModelShape, alignment: int | None) -> float:
    """Useful share of the KV bytes stored with heads padded to `alignment` (1.0 for MLA's latent, or none)."""
    if not alignment or shape.qk_head_dim:
        return 1.0
    return shape.head_dim / stored_head_dim(shape.head_dim, alignment)


def kv_fill_after(shape: ModelShape, gpu: Gpu, applied: int | None) -> float:
    """The KV fill still to apply on `gpu` to a memory estimate whose heads were padded to `applied`."""
    return kv_share(shape, gpu.kv_alignment) / kv_share(shape, applied)
