"""The few numbers of a model that decide its speed (not its memory): sizes, attention shape, MoE routing."""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field


class _SpecLike(Protocol):
    """What `from_spec` reads from `tools.model_spec.ModelSpec` (duck-typed to keep this module standalone)."""

    name: str
    hidden_size: int
    num_layers: int
    num_attention_heads: int
    num_kv_heads: int
    head_dim: int
    params_total: int
    params_active: int
    moe: Any
    layer_attention: list[str]
    sliding_window: int | None


class ModelShape(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    params_total: int = Field(gt=0)
    params_active: int = Field(gt=0, description="parameters touched per token (MoE: top-k + shared + dense)")
    num_layers: int = Field(gt=0)
    hidden_size: int = Field(gt=0)
    num_attention_heads: int = Field(gt=0)
    num_kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    expert_params: int = Field(0, ge=0, description="parameters of all routed experts (0 for dense models)")
    num_experts: int = Field(0, ge=0)
    experts_per_token: int = Field(0, ge=0)
    sliding_layers: int = Field(0, ge=0, description="layers whose attention is capped at sliding_window")
    sliding_window: int | None = None

    @property
    def is_moe(self) -> bool:
        return self.num_experts > 0 and self.expert_params > 0

    def attention_context(self, context: float) -> float:
        """Average number of past tokens attended per layer at `context` (sliding layers cap at the window)."""
        if not self.sliding_layers or not self.sliding_window:
            return context
        full = self.num_layers - self.sliding_layers
        capped = min(context, float(self.sliding_window))
        return (full * context + self.sliding_layers * capped) / self.num_layers

    @classmethod
    def from_spec(cls, spec: _SpecLike) -> ModelShape:
        expert_params = 0
        num_experts = experts_per_token = 0
        moe = spec.moe
        if moe is not None:
            moe_layers = spec.num_layers - int(getattr(moe, "first_dense_layers", 0))
            # gated expert MLP: gate, up and down projections (hidden x intermediate each)
            expert_params = moe_layers * moe.num_experts * 3 * spec.hidden_size * moe.expert_intermediate_size
            num_experts = moe.num_experts
            experts_per_token = moe.experts_per_token
        sliding = sum(1 for kind in spec.layer_attention if kind == "sliding")
        return cls(
            name=spec.name,
            params_total=spec.params_total,
            params_active=spec.params_active,
            num_layers=spec.num_layers,
            hidden_size=spec.hidden_size,
            num_attention_heads=spec.num_attention_heads,
            num_kv_heads=spec.num_kv_heads,
            head_dim=spec.head_dim,
            expert_params=min(expert_params, spec.params_total),
            num_experts=num_experts,
            experts_per_token=experts_per_token,
            sliding_layers=sliding,
            sliding_window=spec.sliding_window,
        )
