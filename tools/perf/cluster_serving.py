"""Serving a model on a whole rack or cluster: expert/tensor/pipeline layouts, per-GPU memory, decode
throughput per chip at the latency SLA.

Layouts (what SGLang / TensorRT-LLM / vLLM run for large MoE models, e.g. DeepSeek-V3 on NVL72 or on several
8-GPU nodes):
- wide EP: attention data-parallel (each GPU keeps its own sequences and their MLA/KV cache, attention and
  dense weights replicated), routed experts sharded over an expert-parallel group of `ep` GPUs; tokens are
  dispatched to and combined from their experts by all-to-all over the fabric, per MoE layer;
- TP x PP: tensor parallel inside the scale-up domain, pipeline stages across domains (dense or MoE).
Decode step per GPU = max(weight + KV bytes / effective bandwidth, FLOPs / effective peak) + collectives +
fixed step overhead, with the single-node efficiencies (tools/perf/efficiency.py). TPOT = step (x pp).
TTFT: one prompt's prefill on its replica, no queueing (disaggregated or chunked prefill assumed; stated).
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.catalog.models import Gpu
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.memory.kv_cache import kv_cache_bytes_per_token
from sizer_agent.tools.model_spec import ModelSpec
from sizer_agent.tools.perf.collectives import fabric_collective_time_s
from sizer_agent.tools.perf.efficiency import DEFAULT_EFFICIENCIES, Efficiencies
from sizer_agent.tools.perf.fabric import Fabric, fabric_for
from sizer_agent.tools.quantization import WeightFormat

GB = 1e9
RUNTIME_RESERVE_GB = 6.0  # CUDA context, NCCL/DeepEP buffers, activations, CUDA graphs per GPU (assumption)
GPU_MEMORY_UTILIZATION = 0.90  # the share of HBM the engine takes (vLLM/SGLang default class)
DISPATCH_BYTES = 1.0  # DeepEP dispatches FP8 hidden states and combines in BF16 (DeepEP README)
COMBINE_BYTES = 2.0


class ServingLayout(BaseModel):
    kind: Literal["wide_ep", "tp_pp"]
    ep: int = Field(1, description="expert-parallel group (wide EP); 1 for TP x PP")
    tp: int = 1
    pp: int = 1
    gpus_per_replica: int
    replicas: int


class ServingMemory(BaseModel):
    weights_gb: float = Field(description="per GPU")
    kv_cache_gb: float = Field(description="per GPU, what is left for the KV cache")
    capacity_gb: float = Field(description="usable HBM x engine share")
    kv_tokens_per_gpu: int


class ClusterServingEstimate(BaseModel):
    layout: ServingLayout
    gpus: int
    memory: ServingMemory
    batch_per_gpu: float = Field(description="sequences decoding per GPU at the operating point")
    tpot_ms: float
    ttft_ms: float
    tokens_per_s_per_chip: float
    tokens_per_s: float
    comm_share: float = Field(description="share of the decode step spent in all-to-all / all-reduce")
    bound: Literal["memory", "compute", "communication"]
    sla_met: bool
    reason: str


def _split_bytes(model: ModelSpec, fmt: WeightFormat) -> tuple[float, float]:
    """(routed-expert bytes, everything else) of the whole model in `fmt`."""
    experts = sum(layer.experts * fmt.bits_for("experts") / 8 for layer in model.layers)
    rest = sum((layer.attention * fmt.bits_for("attention") + layer.mlp * fmt.bits_for("mlp")
                + layer.shared_experts * fmt.bits_for("shared_experts") + layer.router * fmt.bits_for("router")
                + layer.small * fmt.bits_for("small")) / 8 for layer in model.layers)
    rest += (model.embedding_params * fmt.bits_for("embedding") + model.lm_head_params * fmt.bits_for("lm_head")) / 8
    return experts, rest


def _attention_flops_per_token(model: ModelSpec, context: float) -> float:
    if model.mla is not None:
        # absorbed MLA decode: scores over the latent + rope dims, values over the latent, per head
        width = 2 * model.mla.kv_lora_rank + model.mla.qk_rope_head_dim
        return 2.0 * model.num_layers * model.num_attention_heads * width * context
    return 4.0 * model.num_layers * model.num_attention_heads * model.head_dim * context


def estimate_layout(model: ModelSpec, gpu: Gpu, fmt: WeightFormat, kv_bytes: float, layout: ServingLayout,
                    input_len: int, output_len: int, slo_tpot_ms: float | None, slo_ttft_ms: float | None,
                    precision: str, fabric: Fabric | None = None,
                    eff: Efficiencies = DEFAULT_EFFICIENCIES) -> ClusterServingEstimate:
    """Largest per-GPU batch meeting the SLA (TPOT, TTFT) and the KV memory, and its throughput."""
    fabric = fabric or fabric_for(gpu)
    peak = gpu.peak_flops(precision)
    if peak is None:
        raise InputError("precision", f"{gpu.name} has no {precision} tensor unit", ", ".join(gpu.supported_precisions))
    attn_peak = gpu.peak_flops("bf16") or peak
    expert_bytes, rest_bytes = _split_bytes(model, fmt)
    moe_layers = sum(1 for layer in model.layers if layer.experts > 0)
    k = model.moe.experts_per_token if model.moe else 0
    n_exp = model.moe.num_experts if model.moe else 0
    # share of the active parameters that are routed experts (the rest runs on every token's own GPU)
    routed_active = model.params_active - (model.params_total - _expert_params(model))
    expert_share = max(0.0, routed_active / model.params_active) if model.moe else 0.0
    if layout.kind == "wide_ep":
        weights = rest_bytes + expert_bytes / layout.ep
        # its own sequences' full cache, KV heads as the chip's engine stores them (TPU: padded to 128 lanes)
        kv_per_token: float = kv_cache_bytes_per_token(model, kv_bytes, head_alignment=gpu.kv_alignment)
    else:
        weights = (rest_bytes + expert_bytes) / (layout.tp * layout.pp)
        kv_per_token = kv_cache_bytes_per_token(model, kv_bytes, tp=layout.tp,
                                                head_alignment=gpu.kv_alignment) / layout.pp
    capacity = gpu.memory_bytes * GPU_MEMORY_UTILIZATION / GB
    kv_gb = capacity - weights / GB - RUNTIME_RESERVE_GB
    kv_tokens = int(max(0.0, kv_gb) * GB / kv_per_token) if kv_per_token else 0
    memory = ServingMemory(weights_gb=round(weights / GB, 1), kv_cache_gb=round(max(0.0, kv_gb), 1),
                           capacity_gb=round(capacity, 1), kv_tokens_per_gpu=kv_tokens)
    context = input_len + output_len / 2
    seq_tokens = input_len + output_len
    # sequences per GPU the KV cache holds: wide EP keeps its own; a TP x PP replica holds tp x pp GPUs'
    # worth of sequences (pp micro-batches in flight) on every GPU's stage cache
    per_gpu_cap = kv_tokens / seq_tokens / (1 if layout.kind == "wide_ep" else layout.tp * layout.pp)

    def step(batch_gpu: float) -> tuple[float, float, str]:
        """(decode step seconds for one GPU, its communication seconds, bound) at `batch_gpu` sequences/GPU."""
        if layout.kind == "wide_ep":
            # experts on this GPU: n_exp / ep, each touched when any of the ep x batch tokens routes to it
            routed = batch_gpu * layout.ep
            touched = 1.0 - (1.0 - k / n_exp) ** max(routed, 1.0) if n_exp else 0.0
            nbytes = rest_bytes + expert_bytes / layout.ep * touched + batch_gpu * context * kv_per_token
            linear = 2.0 * model.params_active * batch_gpu
            buffer = batch_gpu * k * model.hidden_size * (DISPATCH_BYTES + COMBINE_BYTES)
            comm = fabric_collective_time_s(fabric, "all_to_all", layout.ep, buffer, calls=moe_layers)
            stage_layers = 1.0
        else:
            replica_batch = batch_gpu * layout.tp  # sequences of one pipeline micro-batch
            touched = 1.0 - (1.0 - k / n_exp) ** max(replica_batch, 1.0) if n_exp else 1.0
            per_gpu_weights = (rest_bytes + expert_bytes * touched) / (layout.tp * layout.pp)
            nbytes = per_gpu_weights + replica_batch * context * kv_per_token
            linear = 2.0 * model.params_active * replica_batch / (layout.tp * layout.pp)
            stage_layers = model.num_layers / layout.pp
            comm = fabric_collective_time_s(fabric, "all_reduce", layout.tp,
                                            replica_batch * model.hidden_size * 2, calls=int(2 * stage_layers))
            if layout.pp > 1:
                comm += fabric_collective_time_s(fabric, "send_recv", 2, replica_batch * model.hidden_size * 2,
                                                 span=layout.tp * layout.pp)
        attn = _attention_flops_per_token(model, context) * (batch_gpu if layout.kind == "wide_ep"
                                                               else batch_gpu * layout.tp / (layout.tp * layout.pp))
        compute_s = (linear / peak + attn / attn_peak) / eff.compute
        memory_s = nbytes / (gpu.bandwidth_bytes_s * eff.bandwidth)
        bound = "communication" if comm > max(compute_s, memory_s) else (
            "compute" if compute_s > memory_s else "memory")
        return max(compute_s, memory_s) + comm + eff.step_overhead_s, comm, bound

    def tpot(batch_gpu: float) -> float:
        return step(batch_gpu)[0] * layout.pp

    # TTFT: one prompt through its replica (compute of the prompt's linear layers spread as the layout spreads
    # them, plus one weight pass), no queueing
    if layout.kind == "wide_ep":
        dense_active = model.params_active * (1 - expert_share)
        prompt_flops = 2.0 * input_len * (dense_active + model.params_active * expert_share / layout.ep)
        prompt_a2a = fabric_collective_time_s(fabric, "all_to_all", layout.ep,
                                              input_len * k * model.hidden_size * 3.0, calls=moe_layers)
    else:
        prompt_flops = 2.0 * input_len * model.params_active / layout.tp
        prompt_a2a = fabric_collective_time_s(fabric, "all_reduce", layout.tp, input_len * model.hidden_size * 2,
                                              calls=2 * model.num_layers)
    prompt_attn = _attention_flops_per_token(model, input_len / 2) * input_len / layout.tp
    # one pass over the weights on the prompt's path: its attention rank reads the non-expert weights and each
    # EP rank its experts (in parallel); TP x PP stages read their shards in turn
    weight_pass = (rest_bytes + expert_bytes / layout.ep if layout.kind == "wide_ep"
                   else (rest_bytes + expert_bytes) / layout.tp)
    ttft_s = ((prompt_flops / peak + prompt_attn / attn_peak) / eff.compute + prompt_a2a
              + weight_pass / (gpu.bandwidth_bytes_s * eff.bandwidth))

    def ok(batch_gpu: float) -> bool:
        return slo_tpot_ms is None or tpot(batch_gpu) * 1e3 <= slo_tpot_ms

    cap = math.floor(per_gpu_cap)
    reason = "kv_memory"
    if cap < 1:
        best = 0
        reason = "no_kv_room"
    elif not ok(1):
        best = 0
        reason = "tpot_at_batch_1"
    else:
        low, high = 1, 2
        while high <= cap and ok(high):
            low, high = high, high * 2
        high = min(high, cap + 1)
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (mid, high) if ok(mid) else (low, mid)
        best = low
        reason = "kv_memory" if best >= cap else "tpot_slo"
    ttft_ok = slo_ttft_ms is None or ttft_s * 1e3 <= slo_ttft_ms
    b = max(best, 1)
    step_s, comm_s, bound = step(b)
    t = tpot(b)
    per_chip = best / t if best else 0.0
    gpus = layout.gpus_per_replica * layout.replicas
    return ClusterServingEstimate(
        layout=layout, gpus=gpus, memory=memory, batch_per_gpu=best, tpot_ms=t * 1e3, ttft_ms=ttft_s * 1e3,
        tokens_per_s_per_chip=per_chip, tokens_per_s=per_chip * gpus, comm_share=comm_s / step_s,
        bound=bound, sla_met=best > 0 and ttft_ok, reason=reason if ttft_ok else "ttft_slo")


def _expert_params(model: ModelSpec) -> int:
    return sum(layer.experts for layer in model.layers)


def candidate_layouts(model: ModelSpec, gpus: int, fabric: Fabric) -> list[ServingLayout]:
    """Wide-EP groups (MoE) and TP x PP splits that tile `gpus`."""
    out: list[ServingLayout] = []
    powers = [2**i for i in range(0, 13) if 2**i <= gpus]
    if model.moe is not None:
        sizes = sorted({p for p in powers if p >= 8} | ({fabric.domain} if fabric.domain <= gpus else set()))
        for ep in sizes:
            # experts need not divide evenly: engines place redundant copies of hot experts (DeepSeek EPLB)
            if gpus % ep == 0:
                out.append(ServingLayout(kind="wide_ep", ep=ep, gpus_per_replica=ep, replicas=gpus // ep))
    for tp in [t for t in (1, 2, 4, 8) if t <= fabric.domain and model.num_attention_heads % t == 0]:
        for pp in (1, 2, 4, 8, 16):
            size = tp * pp
            if size <= gpus and gpus % size == 0 and pp <= model.num_layers:
                out.append(ServingLayout(kind="tp_pp", tp=tp, pp=pp, gpus_per_replica=size, replicas=gpus // size))
    return out


def best_layouts(model: ModelSpec, gpu: Gpu, fmt: WeightFormat, kv_bytes: float, gpus: int, input_len: int,
                 output_len: int, slo_tpot_ms: float | None, slo_ttft_ms: float | None, precision: str,
                 gpus_per_node: int | None = None) -> list[ClusterServingEstimate]:
    """Every layout that fits, best throughput per chip at the SLA first."""
    fabric = fabric_for(gpu, gpus_per_node)
    results = []
    for layout in candidate_layouts(model, gpus, fabric):
        est = estimate_layout(model, gpu, fmt, kv_bytes, layout, input_len, output_len, slo_tpot_ms, slo_ttft_ms,
                              precision, fabric)
        if est.memory.kv_tokens_per_gpu > 0:
            results.append(est)
    results.sort(key=lambda e: (not e.sla_met, -e.tokens_per_s_per_chip))
    return results
