"""Multi-node training: tokens/s per chip, scaling efficiency, MFU and goodput as a cluster grows.

The single-node step model (tools/perf/training.py) extended to a Megatron-style 4-D layout, priced on the
fabric (tools/perf/fabric.py, tools/perf/collectives.py):
- tensor parallel (TP, with sequence parallelism) and context parallel (CP) inside the scale-up domain when
  they fit in it; pipeline parallel (PP, interleaved 1F1B) and data parallel (DP, distributed optimizer) across
  nodes; expert parallel (EP) for MoE experts across the DP ranks;
- step = executed FLOPs / (chips x peak x compute efficiency) x (1 + pipeline bubble) + the communication that
  is not hidden behind compute + the optimizer update;
- the layout is the fastest one that fits memory (what a tuned submission does), unless given.
Two constants are fitted on MLPerf Training rounds v3.1 and v4.0 and tested on later rounds
(benchmarks/scaleout/fit_scaleout.py; tools/data/validation/scaleout_training.json): the compute efficiency
of the GEMMs and a fixed cost per optimizer step (which is what taxes per-chip throughput once a growing
cluster makes each step short).

Goodput: checkpoints written by all nodes in parallel; failures at a stated MTBF per node lose half a
checkpoint interval plus the restart on average (Young 1974 / Daly 2006 first-order model).
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sizer_agent.tools.catalog.models import Gpu
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.model_spec import ModelSpec
from sizer_agent.tools.perf.collectives import fabric_collective_time_s
from sizer_agent.tools.perf.efficiency import DEFAULT_EFFICIENCIES
from sizer_agent.tools.perf.fabric import Fabric, fabric_for

GB = 1e9
# Fitted on the calibration split (MLPerf Training v3.1 + v4.0) by benchmarks/scaleout/fit_scaleout.py; its
# output is tools/data/validation/scaleout_fit.json. Do not edit by hand: rerun the script.
FITTED_COMPUTE_EFFICIENCY = 0.48
FITTED_STEP_OVERHEAD_S = 0.24
# Fraction of communication hidden behind compute: the project's stated gradient-overlap assumption (bucketed
# overlap as in PyTorch DDP, Li et al. 2020), not fitted here.
COMM_OVERLAP = DEFAULT_EFFICIENCIES.gradient_overlap
# Llama 3 405B pre-training: 419 unexpected interruptions in 54 days on 16,384 H100 (Dubey et al. 2024, "The
# Llama 3 Herd of Models", §3.3.4) = 1 per 50,700 GPU-hours, i.e. an MTBF of ~6,300 h per 8-GPU node.
MTBF_GPU_HOURS = 54 * 24 * 16_384 / 419
MEMORY_HEADROOM = 0.90  # leave 10 % of HBM to the allocator, NCCL buffers and fragmentation (assumption)
ACT_BYTES = 2  # bf16 activations and gradients on the wire


class TrainShape(BaseModel):
    """What the step model needs of a decoder-only transformer."""

    model_config = ConfigDict(frozen=True)

    name: str
    params_total: int = Field(gt=0)
    params_active: int = Field(gt=0)
    num_layers: int = Field(gt=0)
    hidden_size: int = Field(gt=0)
    num_attention_heads: int = Field(gt=0)
    num_kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    expert_params: int = Field(0, ge=0, description="routed-expert parameters (MoE), 0 for dense models")
    num_experts: int = Field(0, ge=0)
    experts_per_token: int = Field(0, ge=0)

    @classmethod
    def from_spec(cls, spec: ModelSpec) -> TrainShape:
        experts = sum(layer.experts for layer in spec.layers) if spec.moe is not None else 0
        return cls(name=spec.name, params_total=spec.params_total, params_active=spec.params_active,
                   num_layers=spec.num_layers, hidden_size=spec.hidden_size,
                   num_attention_heads=spec.num_attention_heads, num_kv_heads=spec.num_kv_heads,
                   head_dim=spec.head_dim, expert_params=min(experts, spec.params_total),
                   num_experts=spec.moe.num_experts if spec.moe else 0,
                   experts_per_token=spec.moe.experts_per_token if spec.moe else 0)


class ClusterTrainingRequest(BaseModel):
    shape: TrainShape
    gpu: Gpu
    chips: int = Field(ge=1, le=200_000)
    global_batch: int = Field(ge=1, description="sequences per optimizer step")
    seq_len: int = Field(ge=1, le=1_048_576)
    precision: str = Field("bf16", description="precision of the GEMMs: bf16, fp8, fp4")
    lora: bool = Field(False, description="frozen base, adapters only: no weight gradients, tiny DP traffic")
    gpus_per_node: int | None = Field(None, ge=1, description="default: 8, or 4 per tray in an NVL72 rack")
    tp: int | None = Field(None, ge=1)
    pp: int | None = Field(None, ge=1)
    cp: int | None = Field(None, ge=1)
    ep: int | None = Field(None, ge=1)
    compute_efficiency: float = Field(FITTED_COMPUTE_EFFICIENCY, gt=0, le=1)
    comm_overlap: float = Field(COMM_OVERLAP, ge=0, le=1)
    step_overhead_s: float = Field(FITTED_STEP_OVERHEAD_S, ge=0, description="per optimizer step: launch, "
                                   "synchronisation, optimizer kernels, data; fixed however short the step")
    checkpoint_interval_min: float = Field(30.0, gt=0)
    storage_write_gbs_per_node: float = Field(5.0, gt=0, description="sustained checkpoint write per node "
                                              "(assumption: NVMe or a parallel file system share)")
    mtbf_gpu_hours: float = Field(MTBF_GPU_HOURS, gt=0)
    restart_min: float = Field(10.0, ge=0, description="reschedule, reload the checkpoint, warm up")


class Layout(BaseModel):
    tp: int
    pp: int
    cp: int
    dp: int
    ep: int
    virtual_stages: int
    microbatches: int = Field(description="per pipeline, per step (micro-batch of 1 sequence)")
    recompute: Literal["selective", "full"]
    memory_per_gpu_gb: float


class ClusterTrainingEstimate(BaseModel):
    chips: int
    nodes: int
    layout: Layout
    step_time_s: float
    compute_s: float
    bubble_s: float
    tp_comm_s: float
    cp_comm_s: float
    pp_comm_s: float
    ep_comm_s: float
    dp_comm_s: float
    exposed_comm_s: float
    optimizer_s: float
    tokens_per_s: float
    tokens_per_s_per_chip: float
    mfu: float = Field(description="model FLOPs (6N + causal attention; LoRA 4N) / (time x chips x peak)")
    checkpoint_write_s: float
    failures_per_day: float
    goodput: float = Field(description="useful time / wall time with checkpoints and failures")
    young_daly_interval_min: float = Field(description="checkpoint interval that maximises goodput")


def _attention_width(shape: TrainShape) -> int:
    return shape.num_attention_heads * shape.head_dim


def _memory_gb(req: ClusterTrainingRequest, tp: int, pp: int, cp: int, dp: int, ep: int,
               recompute: str) -> float:
    s = req.shape
    dense = (s.params_total - s.expert_params) / (tp * pp)
    experts = s.expert_params / (ep * pp * tp)
    local = dense + experts
    # LoRA: frozen bf16 base, adapters and their Adam states negligible. Full training: bf16 weights + fp32
    # gradient buffer, fp32 master + Adam moments sharded over DP x CP (Megatron distributed optimizer;
    # Rajbhandari et al. 2020 ZeRO-1 accounting: 2 + 4 + 12/(dp cp) bytes/param)
    states = local * 2.0 if req.lora else local * 6.0 + 12.0 * (dense / (dp * cp) + experts / max(1, dp * cp // ep))
    # activations of one micro-batch through all layers a stage keeps in flight under 1F1B (= L layers for the
    # first stage): selective recompute 34 s h bytes per layer (Korthikanti et al. 2022, Table 2 with SP);
    # full recompute keeps the layer inputs only (2 s h)
    per_layer = (34.0 if recompute == "selective" else 2.0) * req.seq_len * s.hidden_size / (tp * cp)
    activations = per_layer * s.num_layers
    return (states + activations) / GB


def _layout_time(req: ClusterTrainingRequest, fabric: Fabric, tp: int, pp: int, cp: int, dp: int, ep: int,
                 recompute: str) -> dict[str, float]:
    s, gpu = req.shape, req.gpu
    peak = gpu.peak_flops(req.precision)
    attn_peak = gpu.peak_flops("bf16") or peak
    assert peak is not None and attn_peak is not None
    tokens = req.global_batch * req.seq_len
    trained = 0.0 if req.lora else 1.0
    linear_factor = 4.0 + 2.0 * trained + (2.0 if recompute == "full" else 0.0)
    attn_factor = 3.0 + (1.0 if recompute == "full" else 0.0)
    # causal attention: QK^T and PV over half the sequence on average: 2 x 2 x (s/2) x width per layer, forward
    attn_flops = attn_factor * 2.0 * req.seq_len * _attention_width(s) * s.num_layers * tokens
    eff = req.compute_efficiency
    compute_s = (linear_factor * s.params_active * tokens / (req.chips * peak)
                 + attn_flops / (req.chips * attn_peak)) / eff
    m = req.global_batch // dp
    layers = s.num_layers / pp
    v = max(1, s.num_layers // pp) if pp > 1 else 1
    bubble = (pp - 1) / (v * m) if pp > 1 else 0.0
    passes = 2 if recompute == "selective" else 3  # forward, backward (+ recomputed forward)
    chunk = req.seq_len / cp * s.hidden_size * ACT_BYTES  # one micro-batch's hidden states
    # TP with sequence parallelism: all-gather + reduce-scatter around attention and MLP, each pass
    tp_s = fabric_collective_time_s(fabric, "all_gather", tp, chunk, calls=int(4 * passes * layers * m))
    # CP (ring attention): each rank passes K and V of its chunk round the ring, forward; K, V, dK, dV backward
    kv = req.seq_len / cp * 2 * s.num_kv_heads * s.head_dim * ACT_BYTES / tp
    cp_s = fabric_collective_time_s(fabric, "send_recv", cp, kv * (cp - 1), span=tp * cp,
                                    calls=int(3 * layers * m)) if cp > 1 else 0.0
    # PP: each micro-batch crosses each of the v chunk boundaries forward and backward (SP-sharded tensors)
    pp_s = fabric_collective_time_s(fabric, "send_recv", 2, chunk / tp, span=tp * cp * pp,
                                    calls=int(2 * v * m)) if pp > 1 else 0.0
    # EP: dispatch and combine all-to-all of each routed token's hidden state per MoE layer, forward and backward
    ep_s = 0.0
    if ep > 1 and s.experts_per_token:
        routed = req.seq_len / cp / tp * s.experts_per_token * s.hidden_size * ACT_BYTES
        ep_s = fabric_collective_time_s(fabric, "all_to_all", ep, routed, span=tp * cp * pp * ep,
                                        calls=int(2 * passes * layers * m))
    # DP: reduce-scatter of the gradients and all-gather of the updated bf16 weights (distributed optimizer),
    # over DP x CP ranks strided across the whole job
    # (MoE: expert gradients are reduced only among the DP ranks holding the same experts, dp / ep of them)
    lora_share = 0.001 if req.lora else 1.0  # LoRA adapters: ~0.1 % of the parameters (rank 16 class)
    dense = (s.params_total - s.expert_params) * lora_share / (tp * pp)
    experts = s.expert_params * lora_share / (tp * pp * ep)
    dp_group = dp * cp
    dp_s = 2 * fabric_collective_time_s(fabric, "reduce_scatter", dp_group, dense * ACT_BYTES, span=req.chips)
    dp_s += 2 * fabric_collective_time_s(fabric, "reduce_scatter", dp_group // ep, experts * ACT_BYTES,
                                         span=req.chips)
    comm = tp_s + cp_s + pp_s + ep_s + dp_s
    hidden = min(req.comm_overlap * comm, compute_s)
    exposed = comm - hidden
    # optimizer: read/write fp32 master, 2 moments, grads and bf16 weights of the local shard (~32 B/param)
    local_states = dense / dp_group + experts / max(1, dp_group // ep)
    optimizer_s = 0.0 if req.lora else 32.0 * local_states / (gpu.bandwidth_bytes_s * 0.8)
    step = compute_s * (1 + bubble) + exposed + optimizer_s + req.step_overhead_s
    return {"step": step, "compute": compute_s, "bubble": compute_s * bubble, "tp": tp_s, "cp": cp_s,
            "pp": pp_s, "ep": ep_s, "dp": dp_s, "exposed": exposed, "optimizer": optimizer_s,
            "m": float(m), "v": float(v)}


def _powers(limit: int) -> list[int]:
    return [2**i for i in range(0, 20) if 2**i <= limit]


def _candidates(req: ClusterTrainingRequest, fabric: Fabric) -> list[tuple[int, int, int, int, int]]:
    s = req.shape
    tps = [req.tp] if req.tp else [t for t in _powers(min(8, fabric.domain)) if s.num_attention_heads % t == 0]
    cps = [req.cp] if req.cp else _powers(16)
    pps = [req.pp] if req.pp else [p for p in _powers(s.num_layers) if p <= 32]
    out: list[tuple[int, int, int, int, int]] = []
    for tp in tps:
        for cp in cps:
            for pp in pps:
                model_parallel = tp * cp * pp
                if req.chips % model_parallel:
                    continue
                dp = req.chips // model_parallel
                if req.global_batch % dp or req.global_batch // dp < pp:
                    continue
                if s.num_experts:
                    eps = [req.ep] if req.ep else [e for e in _powers(s.num_experts) if dp % e == 0]
                else:
                    eps = [1]
                out.extend((tp, pp, cp, dp, ep) for ep in eps if dp % ep == 0)
    return out


def estimate_cluster_training(req: ClusterTrainingRequest) -> ClusterTrainingEstimate:
    """The fastest layout that fits memory at `req.chips` chips, and its throughput, MFU and goodput."""
    if req.gpu.peak_flops(req.precision) is None:
        raise InputError("precision", f"{req.gpu.name} has no {req.precision} tensor unit",
                         ", ".join(req.gpu.supported_precisions))
    fabric = fabric_for(req.gpu, req.gpus_per_node)
    capacity = req.gpu.memory_bytes / GB * MEMORY_HEADROOM
    best: tuple[float, tuple[int, int, int, int, int], str, float, dict[str, float]] | None = None
    for tp, pp, cp, dp, ep in _candidates(req, fabric):
        for recompute in ("selective", "full"):
            mem = _memory_gb(req, tp, pp, cp, dp, ep, recompute)
            if mem > capacity:
                continue
            parts = _layout_time(req, fabric, tp, pp, cp, dp, ep, recompute)
            if best is None or parts["step"] < best[0]:
                best = (parts["step"], (tp, pp, cp, dp, ep), recompute, mem, parts)
            break  # selective fits: full recomputation would only be slower
    if best is None:
        raise InputError("chips", f"no TP x PP x CP x DP layout of {req.shape.name} fits {req.chips} x "
                         f"{req.gpu.name} with a global batch of {req.global_batch}",
                         "more chips, a larger global batch (divisible by the data-parallel size) or LoRA")
    step, (tp, pp, cp, dp, ep), recompute, mem, parts = best
    tokens = req.global_batch * req.seq_len
    s = req.shape
    peak = req.gpu.peak_flops(req.precision) or 1.0
    model_flops = ((4.0 if req.lora else 6.0) * s.params_active * tokens
                   + 3.0 * 2.0 * req.seq_len * _attention_width(s) * s.num_layers * tokens)
    fabric_nodes = max(1, math.ceil(req.chips / fabric.gpus_per_node))
    ckpt_bytes = (s.params_total * 0.001 if req.lora else s.params_total) * 14.0  # bf16 + fp32 master + Adam
    ckpt_s = ckpt_bytes / (fabric_nodes * req.storage_write_gbs_per_node * GB)
    interval_s = req.checkpoint_interval_min * 60
    failures_per_s = req.chips / (req.mtbf_gpu_hours * 3600)
    lost = failures_per_s * (interval_s / 2 + ckpt_s + req.restart_min * 60)
    goodput = interval_s / (interval_s + ckpt_s) * max(0.0, 1.0 - lost)
    mtbf_job_s = 1.0 / failures_per_s
    young_daly = math.sqrt(2 * ckpt_s * mtbf_job_s) / 60 if ckpt_s > 0 else req.checkpoint_interval_min
    layout = Layout(tp=tp, pp=pp, cp=cp, dp=dp, ep=ep, virtual_stages=int(parts["v"]),
                    microbatches=int(parts["m"]), recompute=recompute,
                    memory_per_gpu_gb=round(mem, 1))
    return ClusterTrainingEstimate(
        chips=req.chips, nodes=fabric_nodes, layout=layout, step_time_s=step, compute_s=parts["compute"],
        bubble_s=parts["bubble"], tp_comm_s=parts["tp"], cp_comm_s=parts["cp"], pp_comm_s=parts["pp"],
        ep_comm_s=parts["ep"], dp_comm_s=parts["dp"], exposed_comm_s=parts["exposed"],
        optimizer_s=parts["optimizer"], tokens_per_s=tokens / step, tokens_per_s_per_chip=tokens / step / req.chips,
        mfu=model_flops / (step * req.chips * peak), checkpoint_write_s=ckpt_s,
        failures_per_day=failures_per_s * 86_400, goodput=goodput, young_daly_interval_min=young_daly)


class ScalingPoint(BaseModel):
    chips: int
    estimate: ClusterTrainingEstimate | None
    scaling_efficiency: float | None = Field(description="tokens/s per chip / that of the smallest count that "
                                                          "fits (1 = no scaling tax)")
    reason: str | None = Field(None, description="why no layout fits at this count")
    job_hours: float | None = Field(None, description="the whole job's hours at this count, goodput included "
                                    "(ClusterRequest.tokens given)")


def scaling_curve(req: ClusterTrainingRequest, counts: list[int],
                  batch_policy: Literal["fixed", "per_chip"] = "fixed") -> list[ScalingPoint]:
    """Per-chip throughput as the cluster grows. fixed: the same global batch at every count (strong
    scaling); per_chip: the global batch grows with the chips (weak scaling, from the first count)."""
    points: list[ScalingPoint] = []
    base: float | None = None
    first = min(counts)
    for chips in sorted(counts):
        batch = req.global_batch if batch_policy == "fixed" else max(1, req.global_batch * chips // first)
        try:
            est = estimate_cluster_training(req.model_copy(update={"chips": chips, "global_batch": batch}))
        except InputError as exc:
            points.append(ScalingPoint(chips=chips, estimate=None, scaling_efficiency=None, reason=str(exc)))
            continue
        base = base or est.tokens_per_s_per_chip
        points.append(ScalingPoint(chips=chips, estimate=est, scaling_efficiency=est.tokens_per_s_per_chip / base))
    return points
