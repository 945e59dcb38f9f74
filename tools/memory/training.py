"""Training memory per GPU: weights, gradients, optimizer states, activations, loss buffers.

Peak = weights + optimizer states + max(forward-end phase, backward-end phase):
  forward end  : saved activations of every layer + logits and loss buffers (+ gradients when they are
                 accumulated over micro-batches) + in a full fine-tune the output projection's gradient,
                 the first one backward produces;
  backward end : every gradient + one layer's activations being recomputed/consumed.
Activations saved per token and layer (bytes x activation width), derived from what autograd keeps for
the backward pass of a Llama-style block with FlashAttention (Korthikanti et al. 2022, "Reducing
Activation Recomputation in Large Transformer Models", §4, adapted: no dropout masks, gated MLP):
  each norm's input (h), the normed attention input (h), q, k, v (q_out + 2 kv_out), the attention output
  (q_out), the normed MLP input (h), and in a gated MLP gate, act(gate), up and their product (4 I);
  a plain MLP keeps fc1's output and its activation (2 I). Eager attention adds the score and softmax
  matrices, 2 x heads x s^2 values per sequence. With frozen base weights (LoRA) inputs of frozen
  linears are not kept unless an adapter sits on them.

Offload (`offload`), named as the frameworks name it; each moves bytes to host RAM and costs host-link
(PCIe) traffic every step:
  optimizer   : ZeRO-Offload `offload_optimizer` / torchao `CPUOffloadOptimizer`: optimizer states and fp32
                master weights live in host RAM, the step runs on the CPU; gradients go down and updated
                parameters come back once per step.
  parameters  : FSDP2 `CPUOffloadPolicy` (torchtune `fsdp_cpu_offload`) / ZeRO-3 `offload_param`: the
                sharded parameters, their gradients and the optimizer states stay in host RAM; each FSDP unit
                (a decoder layer, the embedding, the output projection) is copied up and all-gathered for its
                forward and again for its backward, so the GPU holds about two units (the one computing and
                the one prefetched) plus activations. Implies `optimizer`.
  activations : torchtune `enable_activation_offloading` / PyTorch `saved_tensors_hooks` offloading: tensors
                saved for backward go to pinned host memory during forward and come back one layer ahead of
                backward; with activation checkpointing only the checkpointed layer inputs move. The GPU keeps
                the layer being computed and one prefetched layer.
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
Offload = Literal["optimizer", "parameters", "activations"]
OFFLOAD_CHOICES: tuple[str, ...] = ("optimizer", "parameters", "activations")

# Every linear of a decoder that an adapter can sit on (PEFT `target_modules` suffixes). On MoE models
# gate_proj/up_proj/down_proj match every expert's projections (and the shared expert's), as PEFT's suffix
# match does; `router` is the gating linear; `lm_head` the output projection (torchtune
# `apply_lora_to_output`).
LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj", "router", "lm_head")
# Other spellings of the same modules: torchtune (output_proj, w1/w2/w3, output), Mixtral (w1/w2/w3, gate),
# gpt-oss/Qwen-MoE routers (gate), DeepSeek (gate).
LORA_ALIASES = {"output_proj": "o_proj", "w1": "gate_proj", "w3": "up_proj", "w2": "down_proj",
                "output": "lm_head", "gate": "router"}


def check_lora_names(targets: list[str], field: str = "lora_targets") -> None:
    """Every target a known module name or alias; InputError on `field` naming the unknown ones."""
    unknown = [t for t in targets if LORA_ALIASES.get(t, t) not in LORA_TARGETS]
    if unknown:
        aliases = ", ".join(f"{a}={b}" for a, b in LORA_ALIASES.items())
        allowed = f"{', '.join(LORA_TARGETS)} (aliases: {aliases})"
        raise InputError(field, f"unknown module(s) {', '.join(unknown)}", allowed)


def canonical_lora_targets(targets: list[str]) -> list[str]:
    """Targets in this module's names, aliases resolved, order kept, duplicates dropped; unknown names raise."""
    check_lora_names(targets)
    return list(dict.fromkeys(LORA_ALIASES.get(t, t) for t in targets))
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
    cpu_offload: bool = False  # the pre-#15 flag: same as offload=["optimizer"]
    offload: list[Offload] = Field(default_factory=list)
    zero: Literal[0, 1, 2, 3] = 0
    tp: int = 1
    pp: int = 1
    dp: int = 1


class TrainingMemory(BaseModel):
    weights_bytes: int
    gradients_bytes: int
    optimizer_bytes: int  # resident on the GPU
    paged_optimizer_bytes: int = 0  # bitsandbytes paged states: managed memory, evicted to host under pressure
    offloaded_bytes: int = 0  # everything this GPU's process keeps in host RAM (the four terms below)
    offloaded_optimizer_bytes: int = 0  # optimizer states and master weights in host RAM
    offloaded_parameters_bytes: int = 0  # parameter shard in host RAM (offload parameters)
    offloaded_gradients_bytes: int = 0  # gradient shard in host RAM (offload parameters / optimizer)
    offloaded_activations_bytes: int = 0  # saved activations in pinned host RAM at the end of forward
    offload: list[str] = Field(default_factory=list)
    host_link_bytes_per_step: int = 0  # bytes over the GPU's host link (both directions) per optimizer step
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


def _adapter_params(model: ModelSpec, layer: LayerParams, rank: int, target: str) -> int:
    """rank x (in + out) per adapted matrix, times the matrices the suffix matches in this layer."""
    h = model.hidden_size
    if target in ("q_proj", "k_proj", "v_proj", "o_proj"):
        if layer.attention_kind == "none":
            return 0
        rows, cols = _target_shapes(model)[target]
        return rank * (rows + cols)
    if target == "router":
        return rank * (h + model.moe.num_experts) if model.moe is not None and layer.experts else 0
    if model.moe is not None and layer.experts:
        total = rank * (h + model.moe.expert_intermediate_size) * model.moe.num_experts
        if layer.shared_experts:
            total += rank * (h + model.moe.shared_intermediate_size)
        return total
    return rank * (h + model.intermediate_size) if layer.mlp else 0


def lora_params(model: ModelSpec, rank: int, targets: list[str]) -> int:
    """Adapter parameters for `targets` on every layer (and the output projection for lm_head)."""
    names = canonical_lora_targets(targets)
    total = sum(_adapter_params(model, layer, rank, t) for layer in model.layers for t in names if t != "lm_head")
    if "lm_head" in names:
        # A tied output projection gets its own adapter too (PEFT wraps lm_head; the base matrix stays
        # shared); torchtune refuses apply_lora_to_output on tied models, see the note in training_memory.
        total += rank * (model.hidden_size + model.vocab_size)
    return total


def _saved_per_token(model: ModelSpec, s: TrainingSettings, act_bytes: float) -> float:
    """Bytes one layer keeps per token for the backward pass (see module docstring)."""
    h = model.hidden_size
    q_out, kv_out = model.num_attention_heads * model.head_dim, model.num_kv_heads * model.head_dim
    layer: LayerParams = model.layers[0]
    norms = 4 if model.model_type in {"gemma2", "gemma3_text"} else 2
    frozen = s.method != "full"
    targets = set(canonical_lora_targets(s.lora_targets)) if frozen else set(_target_shapes(model))
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
        per_layer = targets - {"lm_head"}
        values += s.lora_rank * len(per_layer)  # adapter bottleneck activations
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


def offload_set(s: TrainingSettings) -> set[str]:
    chosen: set[str] = set(s.offload)
    if s.cpu_offload or "parameters" in chosen:
        chosen.add("optimizer")  # CPUOffloadPolicy / offload_param also run the optimizer step on the host
    return chosen


def training_memory(model: ModelSpec, s: TrainingSettings, dtype_bytes: float) -> TrainingMemory:
    """Peak memory of the most loaded GPU (first pipeline stage, which keeps the most micro-batches)."""
    notes: list[Msg] = []
    total_params = model.params_total
    shard_model = s.tp * s.pp
    tokens = s.batch_size * s.seq_len
    offload = offload_set(s)
    if s.optimizer_in_backward and s.gradient_accumulation_steps > 1:
        raise InputError("optimizer_in_backward", "needs gradient_accumulation_steps = 1 (gradients are freed "
                         "as soon as each parameter is updated)")
    if "parameters" in offload and s.zero < 3 and s.dp > 1:
        raise InputError("offload", "parameters offload shards parameters over data-parallel ranks (FSDP "
                         "CPUOffloadPolicy, ZeRO-3 offload_param)", "--zero 3, or --offload optimizer")
    targets = canonical_lora_targets(s.lora_targets) if s.method != "full" else []
    lm_head_adapter = "lm_head" in targets
    if lm_head_adapter and model.tie_word_embeddings:
        notes.append(Msg("train.lora_tied_output"))

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
    full_weights = weights / shard_model  # this rank's share of the model, before any data-parallel sharding
    weights = full_weights

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
    # The biggest FSDP unit: a decoder layer, or the embedding / output projection that torchtune's
    # `custom_sharded_layers` wraps on their own.
    # QLoRA gathers its NF4 tensors as stored (torchao NF4Tensor implements FSDP2's pre/post all-gather).
    base_bytes = NF4_BITS / 8 if s.method == "qlora" else dtype_bytes
    largest_layer = max(
        (layer.attention + layer.mlp + layer.experts + layer.shared_experts) * base_bytes
        + (layer.router + layer.small) * dtype_bytes
        for layer in model.layers
    ) / shard_model
    if s.zero >= 3:
        weights /= s.dp
        weights += 2 * largest_layer  # the gathered layer and the prefetched next one
        notes.append(Msg("train.zero3", dp=s.dp))
    paged = 0.0
    if s.optimizer == "paged_adamw8bit":
        paged_part = trainable * per_param_states / shard_model / (s.dp if s.zero >= 1 else 1)
        paged, states = paged_part, states - paged_part
        notes.append(Msg("train.paged_adam"))
    host_states = host_params = host_grads = 0.0
    link = 0.0  # host-link bytes per optimizer step, this GPU
    micro = s.gradient_accumulation_steps
    if "optimizer" in offload:
        host_states, states = states, 0.0
        # ZeRO-Offload / CPUOffloadOptimizer: this rank's gradient shard goes down, updated parameters come up.
        shard = trainable / shard_model / (s.dp if s.zero >= 1 else 1)
        link += shard * grad_bytes + shard * dtype_bytes
        notes.append(Msg("train.cpu_offload"))
    if "parameters" in offload:
        unit = max(largest_layer, max(model.embedding_params, model.lm_head_params) * dtype_bytes / shard_model)
        host_params = full_weights / (s.dp if s.zero >= 3 else 1)
        weights = 2 * unit  # the unit computing and the one prefetched; the shards themselves stay on the host
        host_grads, grads = grads, 0.0
        # every unit's shard comes up for forward and again for backward; its gradient shard goes down
        link = host_params * 2 * micro + host_grads * micro
        notes.append(Msg("train.offload_parameters"))

    # Activations.
    per_token_layer = _saved_per_token(model, s, dtype_bytes)
    layers_here = -(-model.num_layers // s.pp)
    micro_in_flight = s.pp  # 1F1B: the first stage holds pp micro-batches (Narayanan et al. 2021)
    one_layer = tokens * per_token_layer / s.tp + s.batch_size * _eager_attention_bytes(model, s, dtype_bytes)
    checkpoint_input = tokens * model.hidden_size * dtype_bytes / s.tp  # what full checkpointing keeps per layer
    per_layer_saved = checkpoint_input if s.gradient_checkpointing == "full" else one_layer
    stored_layers = layers_here * micro_in_flight
    host_activations = 0.0
    if "activations" in offload:
        # The layer being computed and one prefetched (torchtune OffloadActivations: a CUDA stream brings the
        # next layer's tensors back during backward); the rest waits in pinned host memory.
        kept = min(stored_layers, 2)
        host_activations = (stored_layers - kept) * per_layer_saved
        link += 2 * host_activations * micro  # down in forward, up in backward, every micro-batch
        stored_layers = kept
        notes.append(Msg("train.offload_activations"))
    # With full checkpointing only the layer inputs wait for backward; a layer's own activations exist
    # while it runs (forward) or is recomputed (backward end), never at the loss.
    saved = stored_layers * (checkpoint_input if s.gradient_checkpointing == "full" else one_layer)
    vocab = model.vocab_size / s.tp
    # Logits in the activation dtype. A plain loss upcasts them to fp32 and keeps a gradient of that size.
    # A chunked or fused loss (torchtune CEWithChunkedOutputLoss under `compile`, which compiles each
    # chunk's cross-entropy into one kernel; Liger/Unsloth fused cross-entropy) never keeps an fp32 copy:
    # what waits for backward is the logits themselves. Measured: Llama 3.2 3B LoRA and QLoRA with
    # activation offloading peak at exactly weights + adapter states + bf16 logits (torchtune README
    # @1814feb17, 8.5 and 4.6 GiB; tests/estimate/data/heldout_issue15.json).
    fp32_copy_and_grad = 0.0 if s.fused_loss else FP32_LOSS_BYTES
    loss = tokens * vocab * (dtype_bytes + fp32_copy_and_grad)
    if lm_head_adapter:
        # The adapter keeps the output projection's input (and its rank-r bottleneck) for backward, and
        # its output is a second logits-sized tensor added to the frozen projection's, one chunk at a time
        # with a chunked loss.
        loss += tokens * (model.hidden_size + s.lora_rank) * dtype_bytes / s.tp
        loss += tokens * vocab * dtype_bytes / (LOSS_CHUNKS if s.fused_loss else 1)
    if s.pp > 1:
        loss = 0.0  # the first stage (reported) does not compute the loss
    if s.optimizer_in_backward:
        largest = max(model.embedding_params, model.lm_head_params, 1) if s.method == "full" else 0
        grads = largest * grad_bytes / shard_model
        notes.append(Msg("train.optimizer_in_backward"))
    held = grads if s.gradient_accumulation_steps > 1 else 0.0
    if "parameters" in offload:
        # gradients leave for the host unit by unit; one unit's unsharded gradient is on the GPU at a time
        transient_grads = weights / 2 * grad_bytes / dtype_bytes if s.method == "full" else 0.0
        grads = transient_grads
        held = 0.0
    forward_end = saved + loss + held
    # Backward starts at the loss: the output projection's gradient is the first one autograd produces,
    # while every saved tensor and the logits still wait (a full fine-tune; with optimizer_in_backward or
    # FSDP it is freed only after its step or reduce-scatter).
    first_grad = (model.lm_head_params or model.embedding_params) * grad_bytes / shard_model \
        if s.method == "full" and not held else 0.0
    forward_end += first_grad
    backward_end = grads + one_layer
    phase: Literal["forward_end", "backward_end"] = "forward_end" if forward_end >= backward_end else "backward_end"
    dynamic = max(forward_end, backward_end) - grads

    checkpoint = (total_params * dtype_bytes) if s.method == "full" else trainable * dtype_bytes
    if lm_head_adapter:
        # PEFT's save_pretrained (save_embedding_layers="auto") also writes the adapted output projection
        checkpoint += model.vocab_size * model.hidden_size * dtype_bytes
    resume = checkpoint + trainable * (per_param_states + (4 if master else 0))
    host_total = host_states + host_params + host_grads + host_activations
    return TrainingMemory(
        weights_bytes=round(weights),
        gradients_bytes=round(grads),
        optimizer_bytes=round(states),
        paged_optimizer_bytes=round(paged),
        offloaded_bytes=round(host_total),
        offloaded_optimizer_bytes=round(host_states),
        offloaded_parameters_bytes=round(host_params),
        offloaded_gradients_bytes=round(host_grads),
        offloaded_activations_bytes=round(host_activations),
        offload=sorted(offload),
        host_link_bytes_per_step=round(link),
        activations_bytes=round(dynamic),
        saved_activations_bytes=round(saved),
        loss_buffers_bytes=round(loss),
        peak_phase=phase,
        trainable_params=trainable,
        checkpoint_bytes=round(checkpoint),
        checkpoint_resume_bytes=round(resume),
        notes=notes,
    )
