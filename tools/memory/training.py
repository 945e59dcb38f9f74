"""Training memory per GPU: weights, gradients, optimizer states, activations, loss buffers.

Peak = weights + optimizer states + max(forward-end phase, backward-end phase):
  forward end  : saved activations of every layer + logits and loss buffers (+ gradients when they are
                 accumulated over micro-batches);
  backward end : every gradient + one layer's activations being recomputed/consumed.
Activations saved per token and layer (bytes x activation width), derived from what autograd keeps for
the backward pass of a Llama-style block with FlashAttention (Korthikanti et al. 2022, "Reducing
Activation Recomputation in Large Transformer Models", §4, adapted: no dropout masks, gated MLP):
  each norm's input (h), the normed attention input (h), q, k, v (q_out + 2 kv_out), the attention output
  (q_out), the normed MLP input (h), and in a gated MLP gate, act(gate), up and their product (4 I);
  a plain MLP keeps fc1's output and its activation (2 I). Eager attention adds the score and softmax
  matrices, 2 x heads x s^2 values per sequence. With frozen base weights (LoRA) inputs of frozen
  linears are not kept unless an adapter sits on them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.errors import InputError
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.model_spec import LayerParams, ModelSpec

Optimizer = Literal["adamw", "adamw8bit", "paged_adamw8bit", "sgd", "adafactor"]
Checkpointing = Literal["none", "selective", "full"]
Method = Literal["full", "lora", "qlora"]

LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
# bitsandbytes 8-bit optimizers: uint8 state + fp32 absmax per 256-value block (bnb functional.py).
ADAM8BIT_STATE_BYTES = 1 + 4 / 256
# torchao NF4Tensor as used by torchtune QLoRA: 4-bit values, block 64, double-quantized scalers (~4.13
# bits/param; validation case train-torchtune-20 notes).
NF4_BITS = 4.0 + 8 / 64 + 32 / (64 * 256)


FP32_LOSS_BYTES = 8  # fp32 logits copy + its gradient, per (token, vocabulary entry)
LOSS_CHUNKS = 8


class TrainingSettings(BaseModel):
    method: Method = "full"
    batch_size: int = Field(1, ge=1)
    seq_len: int = Field(2048, ge=1)
    gradient_accumulation_steps: int = Field(1, ge=1)
    optimizer: Optimizer = "adamw"
    momentum: float = 0.9
    gradient_checkpointing: Checkpointing = "none"
    flash_attention: bool = True
    master_weights: Literal["fp32", "none"] = "fp32"
    lora_rank: int = Field(16, ge=1)
    lora_targets: list[str] = Field(default_factory=lambda: ["q_proj", "v_proj"])
    optimizer_in_backward: bool = False
    fused_loss: bool = False
    cpu_offload: bool = False
    zero: Literal[0, 1, 2, 3] = 0
    tp: int = 1
    pp: int = 1
    dp: int = 1


class TrainingMemory(BaseModel):
    weights_bytes: int
    gradients_bytes: int
    optimizer_bytes: int  # resident on the GPU
    paged_optimizer_bytes: int = 0  # bitsandbytes paged states: managed memory, evicted to host under pressure
    offloaded_bytes: int = 0  # optimizer states (and master weights) kept in host RAM by --cpu-offload
    activations_bytes: int  # the non-weight, non-state part of the peak (activations, loss, transient grads)
    saved_activations_bytes: int
    loss_buffers_bytes: int
    peak_phase: Literal["forward_end", "backward_end"]
    trainable_params: int
    checkpoint_bytes: int  # model (or adapter) weights on disk
    checkpoint_resume_bytes: int  # plus optimizer states, needed to resume
    notes: list[Msg] = Field(default_factory=list)


def _target_shapes(model: ModelSpec) -> dict[str, tuple[int, int]]:
    h = model.hidden_size
    q_out, kv_out = model.num_attention_heads * model.head_dim, model.num_kv_heads * model.head_dim
    inter = model.intermediate_size
    return {
        "q_proj": (h, q_out), "k_proj": (h, kv_out), "v_proj": (h, kv_out), "o_proj": (q_out, h),
        "gate_proj": (h, inter), "up_proj": (h, inter), "down_proj": (inter, h),
    }  # fmt: skip


def lora_params(model: ModelSpec, rank: int, targets: list[str]) -> int:
    shapes = _target_shapes(model)
    unknown = [t for t in targets if t not in shapes]
    if unknown:
        raise InputError("lora_targets", f"unknown module(s) {', '.join(unknown)}", ", ".join(LORA_TARGETS))
    per_layer = sum(rank * (shapes[t][0] + shapes[t][1]) for t in targets)
    return per_layer * model.num_layers


def _saved_per_token(model: ModelSpec, s: TrainingSettings, act_bytes: float) -> float:
    """Bytes one layer keeps per token for the backward pass (see module docstring)."""
    h = model.hidden_size
    q_out, kv_out = model.num_attention_heads * model.head_dim, model.num_kv_heads * model.head_dim
    layer: LayerParams = model.layers[0]
    norms = 4 if model.model_type in {"gemma2", "gemma3_text"} else 2
    frozen = s.method != "full"
    targets = set(s.lora_targets) if frozen else set(_target_shapes(model))
    values = norms * h + (q_out + 2 * kv_out) + q_out  # norm inputs, q/k/v, attention output
    if targets & {"q_proj", "k_proj", "v_proj"}:
        values += h  # normed input of the q/k/v projections
    if model.moe is not None and layer.experts:
        k, width = model.moe.experts_per_token, model.moe.expert_intermediate_size
        values += k * (h + 4 * width) + model.moe.num_experts
    elif model.gated_mlp:
        inter = model.intermediate_size
        values += 3 * inter  # gate, act(gate), up
        if "down_proj" in targets:
            values += inter  # product, input of down_proj
        if targets & {"gate_proj", "up_proj"}:
            values += h
    else:
        values += 2 * model.intermediate_size + (h if not frozen else 0)
    if s.method != "full":
        values += s.lora_rank * len(s.lora_targets)  # adapter bottleneck activations
    return values * act_bytes


def _eager_attention_bytes(model: ModelSpec, s: TrainingSettings, act_bytes: float) -> float:
    if s.flash_attention or s.gradient_checkpointing == "selective":
        return 0.0  # FlashAttention never stores scores; selective recomputation drops them
    return 2 * model.num_attention_heads * s.seq_len**2 * act_bytes  # scores + softmax, per sequence


def _adafactor_state_params(model: ModelSpec) -> int:
    # Factored second moment: one row and one column vector per matrix (Shazeer & Stern 2018).
    shapes = _target_shapes(model)
    per_layer = sum(rows + cols for rows, cols in shapes.values())
    return per_layer * model.num_layers + 2 * (model.vocab_size + model.hidden_size)


def training_memory(model: ModelSpec, s: TrainingSettings, dtype_bytes: float) -> TrainingMemory:
    """Peak memory of the most loaded GPU (first pipeline stage, which keeps the most micro-batches)."""
    notes: list[Msg] = []
    total_params = model.params_total
    shard_model = s.tp * s.pp
    tokens = s.batch_size * s.seq_len
    if s.optimizer_in_backward and s.gradient_accumulation_steps > 1:
        raise InputError("optimizer_in_backward", "needs gradient_accumulation_steps = 1 (gradients are freed "
                         "as soon as each parameter is updated)")

    # Weights (and which parameters train).
    if s.method == "full":
        trainable = total_params
        weights = total_params * dtype_bytes
    else:
        trainable = lora_params(model, s.lora_rank, s.lora_targets)
        linear = sum(layer.attention + layer.mlp + layer.experts + layer.shared_experts for layer in model.layers)
        rest = total_params - linear
        base_bits = NF4_BITS if s.method == "qlora" else dtype_bytes * 8
        weights = linear * base_bits / 8 + rest * dtype_bytes + trainable * dtype_bytes
        if s.method == "qlora":
            notes.append(Msg("train.qlora_nf4"))
    weights /= shard_model

    # Gradients and optimizer states, per trainable parameter.
    master = s.master_weights == "fp32"
    grad_bytes = dtype_bytes
    state_bytes = 4.0 if master else dtype_bytes
    per_param_states = {
        "adamw": 2 * state_bytes,
        "adamw8bit": 2 * ADAM8BIT_STATE_BYTES,
        "paged_adamw8bit": 2 * ADAM8BIT_STATE_BYTES,
        "sgd": state_bytes if s.momentum > 0 else 0.0,
        "adafactor": 0.0,
    }[s.optimizer]
    states = trainable * per_param_states
    if s.optimizer == "adafactor":
        states = _adafactor_state_params(model) * state_bytes if s.method == "full" else trainable * state_bytes
    if master:
        states += trainable * 4  # fp32 master copy of the trained parameters
    states /= shard_model
    grads = trainable * grad_bytes / shard_model
    if s.zero >= 1:
        states /= s.dp
    if s.zero >= 2:
        grads /= s.dp
    if s.zero >= 3:
        weights /= s.dp
        largest_layer = max(layer.total for layer in model.layers) * dtype_bytes / shard_model
        weights += 2 * largest_layer  # the gathered layer and the prefetched next one
        notes.append(Msg("train.zero3", dp=s.dp))
    paged = offloaded = 0.0
    if s.optimizer == "paged_adamw8bit":
        paged_part = trainable * per_param_states / shard_model / (s.dp if s.zero >= 1 else 1)
        paged, states = paged_part, states - paged_part
        notes.append(Msg("train.paged_adam"))
    if s.cpu_offload:
        offloaded, states = states, 0.0
        notes.append(Msg("train.cpu_offload"))
    if s.optimizer_in_backward:
        largest = max(model.embedding_params, model.lm_head_params, 1) if s.method == "full" else 0
        grads = largest * grad_bytes / shard_model
        notes.append(Msg("train.optimizer_in_backward"))

    # Activations.
    per_token_layer = _saved_per_token(model, s, dtype_bytes)
    layers_here = -(-model.num_layers // s.pp)
    micro_in_flight = s.pp  # 1F1B: the first stage holds pp micro-batches (Narayanan et al. 2021)
    one_layer = tokens * per_token_layer / s.tp + s.batch_size * _eager_attention_bytes(model, s, dtype_bytes)
    if s.gradient_checkpointing == "full":
        saved = layers_here * micro_in_flight * tokens * model.hidden_size * dtype_bytes / s.tp + one_layer
    else:
        saved = layers_here * micro_in_flight * one_layer
    vocab = model.vocab_size / s.tp
    # Logits in the activation dtype; the loss upcasts to fp32 and keeps a gradient of that size. A
    # chunked loss (torchtune CEWithChunkedOutputLoss, 8 chunks) upcasts one chunk at a time.
    fp32_copy_and_grad = FP32_LOSS_BYTES / (LOSS_CHUNKS if s.fused_loss else 1)
    loss = tokens * vocab * (dtype_bytes + fp32_copy_and_grad)
    if s.pp > 1:
        loss = 0.0  # the first stage (reported) does not compute the loss
    held = grads if s.gradient_accumulation_steps > 1 else 0.0
    forward_end = saved + loss + held
    backward_end = grads + one_layer
    phase: Literal["forward_end", "backward_end"] = "forward_end" if forward_end >= backward_end else "backward_end"
    dynamic = max(forward_end, backward_end) - grads

    checkpoint = (total_params * dtype_bytes) if s.method == "full" else trainable * dtype_bytes
    resume = checkpoint + trainable * (per_param_states + (4 if master else 0))
    return TrainingMemory(
        weights_bytes=round(weights),
        gradients_bytes=round(grads),
        optimizer_bytes=round(states),
        paged_optimizer_bytes=round(paged),
        offloaded_bytes=round(offloaded),
        activations_bytes=round(dynamic),
        saved_activations_bytes=round(saved),
        loss_buffers_bytes=round(loss),
        peak_phase=phase,
        trainable_params=trainable,
        checkpoint_bytes=round(checkpoint),
        checkpoint_resume_bytes=round(resume),
        notes=notes,
    )
