"""What the estimators need to know about a model, read from its Hugging Face `config.json`.

Parameters are counted per layer and per kind (attention, dense MLP, routed experts, ...) because the
kinds are stored, sharded and quantized differently: an fp8 checkpoint keeps embeddings in 16 bit, tensor
parallelism replicates norms, and a MoE model touches only its top-k experts per token.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import BaseModel, Field, computed_field

from sizer_agent.tools.messages import Msg

AttentionKind = Literal["full", "sliding", "chunked", "mla", "none"]


class MoESpec(BaseModel):
    num_experts: int
    experts_per_token: int
    expert_intermediate_size: int
    num_shared_experts: int = 0
    shared_intermediate_size: int = 0  # total width of the shared expert(s)
    first_dense_layers: int = 0  # DeepSeek `first_k_dense_replace`: dense MLP before the MoE layers


class MLASpec(BaseModel):
    """Multi-head latent attention (DeepSeek V2/V3): the cache holds a compressed latent, not K and V."""

    kv_lora_rank: int
    q_lora_rank: int | None
    qk_rope_head_dim: int
    qk_nope_head_dim: int
    v_head_dim: int


class LayerParams(BaseModel):
    """Parameter count of one decoder layer, by kind (biases and norms counted apart from matrices)."""

    attention_kind: AttentionKind = "full"
    window: int | None = None  # tokens kept by a sliding-window or chunked-attention layer
    attention: int = 0  # q, k, v, o (or MLA) projection matrices
    mlp: int = 0  # dense MLP matrices
    experts: int = 0  # routed expert matrices (all experts)
    shared_experts: int = 0  # shared expert matrices
    router: int = 0  # router / gate (kept in 16 bit by every quantized checkpoint we know)
    small: int = 0  # norms, biases, attention sinks: replicated, never quantized

    @property
    def total(self) -> int:
        return (
            self.attention + self.mlp + self.experts + self.shared_experts + self.router + self.small
        )


class ModelSpec(BaseModel):
    name: str
    revision: str | None = None  # None: unpinned, the newest revision at fetch time
    source: str = ""  # where the config came from (registry entry, path or Hub URL)
    architecture: str
    model_type: str = ""
    hidden_size: int = Field(gt=0)
    num_layers: int = Field(gt=0)
    num_attention_heads: int = Field(gt=0)
    num_kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    intermediate_size: int = Field(ge=0)
    vocab_size: int = Field(gt=0)
    max_position_embeddings: int = Field(gt=0)
    tie_word_embeddings: bool = False
    moe: MoESpec | None = None
    mla: MLASpec | None = None
    sliding_window: int | None = None
    gated_mlp: bool = True
    layers: list[LayerParams]
    embedding_params: int
    lm_head_params: int  # 0 when tied to the embedding
    final_norm_params: int
    vision_params: int = 0  # vision tower and projector of multimodal checkpoints
    torch_dtype: str = "bfloat16"
    quantization: dict[str, object] | None = None
    final_logit_softcapping: float | None = None
    checkpoint_params: int | None = None  # exact count from safetensors headers, when read
    checkpoint_bytes: int | None = None  # exact checkpoint size (headers or index total_size)
    warnings: list[Msg] = Field(default_factory=list)

    @property
    def layer_attention(self) -> list[str]:
        return [layer.attention_kind for layer in self.layers]

    @computed_field  # type: ignore[prop-decorator]
    @cached_property  # layers never change after loading; recomputing cost ~8 ms per recommendation
    def params_total(self) -> int:
        return (
            sum(layer.total for layer in self.layers)
            + self.embedding_params
            + self.lm_head_params
            + self.final_norm_params
            + self.vision_params
        )

    @computed_field  # type: ignore[prop-decorator]
    @cached_property
    def params_active(self) -> int:
        """Parameters a token's forward pass multiplies with: the FLOP and weight-read basis.

        Routed experts count k/E; the input embedding is a row lookup and does not count (unless tied,
        where the same matrix is the output projection); the vision tower does not run while decoding.
        This is the convention of the gpt-oss model card ("5.1B active"); others include the embedding.
        """
        inactive = 0 if self.tie_word_embeddings else self.embedding_params
        if self.moe is not None:
            unused = 1 - self.moe.experts_per_token / self.moe.num_experts
            inactive += round(sum(layer.experts for layer in self.layers) * unused)
        return self.params_total - inactive - self.vision_params

    @property
    def is_moe(self) -> bool:
        return self.moe is not None
