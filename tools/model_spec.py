"""What the estimators need to know about a model, read from its Hugging Face `config.json`.

Parameters are counted per layer and per kind (attention, dense MLP, routed experts, ...) because the
kinds are stored, sharded and quantized differently: an fp8 checkpoint keeps embeddings in 16 bit, tensor
parallelism replicates norms, and a MoE model touches only its top-k experts per token.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import BaseModel, Field, computed_field, field_validator, model_validator

from sizer_agent.tools.messages import Msg

AttentionKind = Literal["full", "sliding", "chunked", "mla", "none"]

# Physical bounds of a transformer config. Each ceiling is far above the largest published model, so no
# real checkpoint is refused, but a typo or a hostile file is, before anything is built from it (a loop
# over 10^9 layers runs for minutes; a 10^12 vocabulary reads as "8 million B parameters").
MAX_VOCAB = 2**22  # largest published vocabularies ~262k (Gemma 3: 262,208; Llama 4: 202,048): 16x that
MAX_LAYERS = 1024  # deepest published decoders: 126 layers (Llama 3.1 405B), 94 (Qwen3 235B): 8x that
MAX_HIDDEN = 2**17  # widest published hidden size 16,384 (Llama 3.1 405B): 8x that
MAX_HEADS = 2**12  # most attention heads published: 128 (Llama 3.1 405B, DeepSeek V3): 32x that
MAX_HEAD_DIM = 2**12  # widest published head 256 (Gemma 2/3): 16x that
MAX_INTERMEDIATE = 2**20  # widest published MLP 53,248 (Llama 3.1 405B): ~20x that
MAX_POSITIONS = 2**27  # longest published context 10,485,760 (Llama 4 Scout): ~12x that
MAX_EXPERTS = 2**12  # most routed experts published: 384 (Kimi K2), 256 (DeepSeek V3): ~10x that
# config.json keys (and their older spellings) -> (ceiling, what it is compared with)
CEILINGS: dict[str, tuple[int, str]] = {
    "vocab_size": (MAX_VOCAB, "the largest published vocabulary is ~262k"),
    "num_hidden_layers": (MAX_LAYERS, "the deepest published model has 126 layers"),
    "n_layer": (MAX_LAYERS, "the deepest published model has 126 layers"),
    "num_layers": (MAX_LAYERS, "the deepest published model has 126 layers"),
    "first_k_dense_replace": (MAX_LAYERS, "at most the number of layers"),
    "max_window_layers": (MAX_LAYERS, "at most the number of layers"),
    "moe_layer_freq": (MAX_LAYERS, "at most the number of layers"),
    "decoder_sparse_step": (MAX_LAYERS, "at most the number of layers"),
    "interleave_moe_layer_step": (MAX_LAYERS, "at most the number of layers"),
    "sliding_window_pattern": (MAX_LAYERS, "at most the number of layers"),
    "no_rope_layer_interval": (MAX_LAYERS, "at most the number of layers"),
    "hidden_size": (MAX_HIDDEN, "the widest published model has hidden_size 16,384"),
    "n_embd": (MAX_HIDDEN, "the widest published model has hidden_size 16,384"),
    "d_model": (MAX_HIDDEN, "the widest published model has hidden_size 16,384"),
    "kv_lora_rank": (MAX_HIDDEN, "at most a hidden size"),
    "q_lora_rank": (MAX_HIDDEN, "at most a hidden size"),
    "num_attention_heads": (MAX_HEADS, "the most heads published is 128"),
    "n_head": (MAX_HEADS, "the most heads published is 128"),
    "num_key_value_heads": (MAX_HEADS, "the most heads published is 128"),
    "head_dim": (MAX_HEAD_DIM, "the widest published head is 256"),
    "qk_rope_head_dim": (MAX_HEAD_DIM, "the widest published head is 256"),
    "qk_nope_head_dim": (MAX_HEAD_DIM, "the widest published head is 256"),
    "v_head_dim": (MAX_HEAD_DIM, "the widest published head is 256"),
    "intermediate_size": (MAX_INTERMEDIATE, "the widest published MLP is 53,248"),
    "moe_intermediate_size": (MAX_INTERMEDIATE, "the widest published MLP is 53,248"),
    "shared_expert_intermediate_size": (MAX_INTERMEDIATE, "the widest published MLP is 53,248"),
    "intermediate_size_mlp": (MAX_INTERMEDIATE, "the widest published MLP is 53,248"),
    "max_position_embeddings": (MAX_POSITIONS, "the longest published context is 10,485,760"),
    "sliding_window": (MAX_POSITIONS, "at most a context length"),
    "attention_chunk_size": (MAX_POSITIONS, "at most a context length"),
    "num_local_experts": (MAX_EXPERTS, "the most routed experts published is 384"),
    "num_experts": (MAX_EXPERTS, "the most routed experts published is 384"),
    "n_routed_experts": (MAX_EXPERTS, "the most routed experts published is 384"),
    "num_experts_per_tok": (MAX_EXPERTS, "at most the number of experts"),
    "experts_per_token": (MAX_EXPERTS, "at most the number of experts"),
    "n_shared_experts": (MAX_EXPERTS, "at most the number of experts"),
}
# Checkpoint dtypes a config.json names (torch's names, and vLLM's spellings of the 16/32-bit ones).
TORCH_DTYPES = frozenset({
    "float32", "float", "fp32", "float16", "half", "fp16", "bfloat16", "bf16", "float64", "double",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "int8", "uint8", "auto",
})  # fmt: skip


class LongContext(BaseModel):
    """A context the publisher validated beyond the config's own, with the RoPE scaling it takes ("32,768 tokens
    natively, 131,072 with YaRN"): a registry fact with its source, never guessed from a config."""

    factor: float = Field(gt=1, le=40)
    original: int = Field(gt=0, le=MAX_POSITIONS)  # the pre-training context the factor scales
    theta: float = Field(gt=0)  # rope_theta, restated with the scaling (vLLM's rope_parameters)
    src: str = Field(min_length=1)

    @property
    def context(self) -> int:
        return int(self.original * self.factor)


class MoESpec(BaseModel):
    num_experts: int = Field(ge=1, le=MAX_EXPERTS)
    experts_per_token: int = Field(ge=1, le=MAX_EXPERTS)
    expert_intermediate_size: int = Field(ge=0, le=MAX_INTERMEDIATE)
    num_shared_experts: int = Field(0, ge=0, le=MAX_EXPERTS)
    shared_intermediate_size: int = Field(0, ge=0)  # total width of the shared expert(s)
    first_dense_layers: int = Field(0, ge=0, le=MAX_LAYERS)  # DeepSeek `first_k_dense_replace`: dense first

    @model_validator(mode="after")
    def _top_k_within_experts(self) -> MoESpec:
        if self.experts_per_token > self.num_experts:
            raise ValueError(f"num_experts_per_tok: {self.experts_per_token} experts per token of only "
                             f"{self.num_experts} experts (allowed: 1..{self.num_experts})")
        return self


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
    hidden_size: int = Field(gt=0, le=MAX_HIDDEN)
    num_layers: int = Field(gt=0, le=MAX_LAYERS)
    num_attention_heads: int = Field(gt=0, le=MAX_HEADS)
    num_kv_heads: int = Field(gt=0, le=MAX_HEADS)
    head_dim: int = Field(gt=0, le=MAX_HEAD_DIM)
    intermediate_size: int = Field(ge=0, le=MAX_INTERMEDIATE)
    vocab_size: int = Field(gt=0, le=MAX_VOCAB)
    max_position_embeddings: int = Field(gt=0, le=MAX_POSITIONS)
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
    image_tokens_per_image: int = 0  # language-model tokens of one image at the default size (0: text only)
    rope_cache_values: int = 0  # RoPE cos/sin cache (positions x rotary dim): a vLLM buffer, not a parameter
    torch_dtype: str = "bfloat16"
    quantization: dict[str, object] | None = None
    final_logit_softcapping: float | None = None
    checkpoint_params: int | None = None  # exact count from safetensors headers, when read
    checkpoint_bytes: int | None = None  # exact checkpoint size (headers or index total_size)
    long_context: LongContext | None = None  # registry: a longer context the publisher validated (YaRN)
    warnings: list[Msg] = Field(default_factory=list)

    @field_validator("torch_dtype")
    @classmethod
    def _known_dtype(cls, value: str) -> str:
        if value.removeprefix("torch.").lower() not in TORCH_DTYPES:
            raise ValueError(f"{value!r} is not a dtype (allowed: {', '.join(sorted(TORCH_DTYPES))})")
        return value

    @model_validator(mode="after")
    def _heads_divide(self) -> ModelSpec:
        # grouped-query attention: each KV head serves the same number of query heads (MLA has no KV heads)
        if self.mla is None and self.num_attention_heads % self.num_kv_heads:
            raise ValueError(
                f"num_key_value_heads: {self.num_kv_heads} KV heads do not divide {self.num_attention_heads} "
                "attention heads (allowed: a divisor of num_attention_heads)")
        if len(self.layers) != self.num_layers:
            raise ValueError(f"layers: {len(self.layers)} layer entries for num_layers {self.num_layers}")
        return self

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
