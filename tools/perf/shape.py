"""The few numbers of a model that decide its speed (not its memory): sizes, attention shape, MoE routing."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from sizer_agent.tools.model_spec import ModelSpec


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
    # matrix widths, for the co-design fill of a platform's matrix unit (tools.perf.codesign)
    intermediate_size: int = Field(0, ge=0, description="dense MLP width (0: none or unknown)")
    expert_intermediate_size: int = Field(0, ge=0, description="one routed expert's MLP width (MoE)")
    # attention widths where they differ from head_dim (MLA: QK over nope + rope dims, V its own width)
    qk_head_dim: int = Field(0, ge=0, description="0: head_dim")
    v_head_dim: int = Field(0, ge=0, description="0: head_dim")

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
    def from_spec(cls, spec: ModelSpec) -> ModelShape:
        expert_params = num_experts = experts_per_token = 0
        if spec.moe is not None:
            expert_params = sum(layer.experts for layer in spec.layers)  # exact routed-expert tensors
            num_experts = spec.moe.num_experts
            experts_per_token = spec.moe.experts_per_token
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
            intermediate_size=spec.intermediate_size,
            expert_intermediate_size=spec.moe.expert_intermediate_size if spec.moe is not None else 0,
            qk_head_dim=spec.mla.qk_nope_head_dim + spec.mla.qk_rope_head_dim if spec.mla is not None else 0,
            v_head_dim=spec.mla.v_head_dim if spec.mla is not None else 0,
        )
