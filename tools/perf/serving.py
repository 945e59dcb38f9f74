"""Serving performance from the roofline (docs/design.md §5): prefill and decode cost, TTFT, TPOT, throughput,
SLA search.

Model of one engine step (continuous batching with chunked prefill, as vLLM and TensorRT-LLM run):
- decode reads the weights on each GPU once per step (MoE: only the experts the batch routes to) plus the KV
  cache of every running sequence, and does 2 x active params FLOPs per sequence plus attention;
- prefill tokens of newly admitted requests ride in the same steps; in steady state each decode step carries
  batch / output_len requests' worth of prompt tokens;
- step time = max(bytes / effective bandwidth, FLOPs / effective peak) + TP all-reduces + fixed overhead;
- pipeline parallelism splits layers: a token crosses every stage (TPOT = pp x stage time) and pp micro-batches
  keep the stages busy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sizer_agent.tools.catalog.models import Gpu
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.perf.collectives import collective_time_s
from sizer_agent.tools.perf.efficiency import DEFAULT_EFFICIENCIES, Efficiencies, resolve
from sizer_agent.tools.perf.shape import ModelShape

Bound = Literal["compute", "memory", "communication"]
ACTIVATION_BYTES = 2  # bf16/fp16 activations travel in TP all-reduces


class ServingSetup(BaseModel):
    """Everything the performance model needs about one deployment (one model replica = tp x pp GPUs)."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    gpu: Gpu
    shape: ModelShape
    weight_bytes_total: int = Field(gt=0, description="whole model in its serving format")
    kv_bytes_per_token: int = Field(ge=0, description="per GPU, after TP sharding, all layers of the replica")
    kv_capacity_tokens: int = Field(ge=0, description="KV-cache tokens one replica can hold")
    compute_precision: str = Field(description="precision of the weight GEMMs: fp8, bf16, fp4, int8 ...")
    attention_precision: str = Field("bf16", description="precision of attention math (fp8 with an fp8 KV cache)")
    tp: int = Field(1, ge=1)
    pp: int = Field(1, ge=1)
    replicas: int = Field(1, ge=1, description="data-parallel copies")
    max_batch: int = Field(1024, ge=1, description="engine cap on running sequences (vLLM max_num_seqs)")
    efficiencies: Efficiencies = DEFAULT_EFFICIENCIES
    # co-design (tools.perf.codesign): share of the matrix unit the model's shapes fill; 1 on GPUs
    attention_fill: float = Field(1.0, gt=0, le=1)
    linear_fill: float = Field(1.0, gt=0, le=1)

    @property
    def num_gpus(self) -> int:
        return self.tp * self.pp * self.replicas

    @property
    def effective_efficiencies(self) -> Efficiencies:
        """The calibrated set of this GPU generation and precision (tools.perf.efficiency.resolve)."""
        return resolve(self.efficiencies, self.gpu.architecture, self.compute_precision)

    def peak_flops(self, precision: str | None = None) -> float:
        wanted = precision or self.compute_precision
        peak = self.gpu.peak_flops(wanted)
        if peak is None and precision is not None:
            peak = self.gpu.peak_flops("bf16")  # no such unit: attention falls back to 16-bit math
        if peak is None:
            raise InputError("dtype", f"{self.gpu.name} has no {wanted} tensor unit",
                             ", ".join(self.gpu.supported_precisions))
        return peak


class RooflinePoint(BaseModel):
    phase: Literal["prefill", "decode"]
    flops: float = Field(description="per GPU, per step")
    bytes: float = Field(description="HBM/GDDR bytes per GPU, per step")
    operational_intensity: float = Field(description="FLOP per byte")
    attainable_flops: float = Field(description="min(peak, intensity x bandwidth), FLOP/s, spec figures")
    ridge_point: float = Field(description="peak / bandwidth, FLOP per byte")
    time_s: float
    bound: Bound


@dataclass(frozen=True, slots=True)
class StepCost:
    """One engine step on one GPU (internal; a plain dataclass because the SLA search builds thousands)."""

    time_s: float
    compute_s: float
    memory_s: float
    communication_s: float
    host_s: float  # host-side work, overlapped; limits the step when larger than the GPU time
    flops: float
    bytes: float
    bound: Bound
    routing_s: float = 0.0  # MoE routing kernels (routing_bytes), run between the expert GEMMs: not overlapped


def _bound(compute_s: float, memory_s: float, comm_s: float) -> Bound:
    if comm_s > max(compute_s, memory_s):
        return "communication"
    return "compute" if compute_s >= memory_s else "memory"


def _weight_bytes_read(setup: ServingSetup, batch: float) -> float:
    """Weight bytes one GPU reads per step; MoE experts only when some sequence routes to them."""
    shape = setup.shape
    per_gpu = setup.weight_bytes_total / (setup.tp * setup.pp)
    if not shape.is_moe:
        return per_gpu
    expert_share = shape.expert_params / shape.params_total
    return per_gpu * ((1.0 - expert_share) + expert_share * _experts_touched(shape, batch))


def _experts_touched(shape: ModelShape, tokens: float) -> float:
    """Share of the routed experts at least one of `tokens` routes to (uniform routing: an expert is idle for
    one token with probability 1 - k/E)."""
    idle: float = (1.0 - shape.experts_per_token / shape.num_experts) ** max(tokens, 1.0)
    return 1.0 - idle


def tokens_per_expert(shape: ModelShape, tokens: float) -> float:
    """Mean rows of each routed expert's GEMM in a step of `tokens` tokens: tokens x k spread over the experts
    that receive any (uniform routing). Large steps: tokens x k / E; one token: 1 row in each of its k experts."""
    touched = _experts_touched(shape, tokens) * shape.num_experts
    return max(tokens, 1.0) * shape.experts_per_token / touched


def grouped_gemm_efficiency(shape: ModelShape, eff: Efficiencies, tokens: float) -> float:
    """Routed-expert GEMM efficiency relative to dense: m / (m + moe_half_tokens), m = tokens_per_expert.

    Each expert's GEMM costs about as much as m + moe_half_tokens rows (M-tile padding and per-expert set-up,
    Efficiencies.moe_half_tokens); a prefill of thousands of tokens gives hundreds of rows per expert and runs
    near dense efficiency, a decode step of a few sequences gives one or two rows (it is memory-bound anyway:
    the expert weights it touches are read in `_weight_bytes_read`). The expert's matrix size is left out: the
    calibration rows hold one MoE architecture (Qwen3-30B-A3B), so a size term could not be fitted apart.
    The routing kernels around the GEMMs (permute, activation, finalize) are priced apart, per routed row, in
    routing_bytes: at hundreds of rows per expert they weigh more than the tile padding (an 8,192-token
    Qwen3-30B-A3B prefill on H100 FP8: 1.84x its dense equivalent with both; published TensorRT-LLM MoE
    prefills run ~3x, docs/catalog.md "Efficiencies and accuracy")."""
    if not shape.is_moe or not eff.moe_half_tokens:
        return 1.0
    rows = tokens_per_expert(shape, tokens)
    return rows / (rows + eff.moe_half_tokens)


def _moe_layers(shape: ModelShape) -> float:
    """Layers with routed experts: the routed-expert parameters over one layer's (E gated experts of
    3 x hidden x I), at most every layer (DeepSeek-R1's first three layers are dense)."""
    per_layer = shape.num_experts * 3.0 * shape.hidden_size * shape.expert_intermediate_size
    return min(float(shape.num_layers), shape.expert_params / per_layer) if per_layer else float(shape.num_layers)


def routing_bytes(setup: ServingSetup, tokens: float) -> float:
    """Activation bytes one GPU moves per step in the routed-expert layers' own memory-bound kernels, before the
    moe_routing_traffic factor (Efficiencies.moe_routing_traffic gives the sources). Per routed row (a token in
    one of its k experts), per MoE layer, 16-bit activations:
      permute    reads the token's hidden row once for its k copies and writes each copy: hidden (1 + 1/k)
      finalize   reads each expert's output row and writes the token's sum once: hidden (1 + 1/k)
      activation reads the first GEMM's gate and up outputs and writes their product: 3 x I
    plus, per token and MoE layer, the router's E fp32 logits written and read back by the top-k: 8 E bytes.
    Over tp GPUs the routed rows are split as expert parallelism splits them (each GPU permutes, activates and
    combines the rows of its own experts), the layout the published TensorRT-LLM MoE rows ran with (`--ep`,
    tools/perf/data/fresh3_README.md); a GPU of a tensor-parallel MoE would move each row's hidden part whole.
    The padding of each expert's rows to the GEMM's tile is priced in grouped_gemm_efficiency (m½)."""
    shape = setup.shape
    if not shape.is_moe or tokens <= 0:
        return 0.0
    k = shape.experts_per_token
    per_row = ACTIVATION_BYTES * (2.0 * shape.hidden_size * (1.0 + 1.0 / k) + 3.0 * shape.expert_intermediate_size)
    per_token = tokens * (k * per_row / setup.tp + 8.0 * shape.num_experts)
    return per_token * _moe_layers(shape) / setup.pp


def _attention_flops_per_token(shape: ModelShape, context: float) -> float:
    # QK^T and PV: 2 x 2 x heads x head_dim FLOPs per attended token per layer
    return 4.0 * shape.num_layers * shape.num_attention_heads * shape.head_dim * shape.attention_context(context)


def step_cost(setup: ServingSetup, decode_seqs: float, context: float, prefill_tokens: float,
              prefill_len: float) -> StepCost:
    """One engine step on one GPU: `decode_seqs` sequences at mean `context` plus `prefill_tokens` prompt tokens
    (from prompts of `prefill_len`). Per GPU, summed over pipeline stages."""
    shape, eff, gpu = setup.shape, setup.effective_efficiencies, setup.gpu
    shard = setup.tp * setup.pp
    # routed experts run as grouped GEMMs whose efficiency depends on the rows each expert gets in this step
    # (Efficiencies.moe_half_tokens); the rest as dense GEMMs
    routed = shape.expert_params * shape.experts_per_token / shape.num_experts if shape.is_moe else 0.0
    expert_linear = (decode_seqs + prefill_tokens) * 2.0 * routed / shard
    dense_linear = (decode_seqs + prefill_tokens) * 2.0 * (shape.params_active - routed) / shard
    linear = dense_linear + expert_linear
    # causal prefill: a prompt token attends on average to half the prompt
    attention = (decode_seqs * _attention_flops_per_token(shape, context)
                 + prefill_tokens * _attention_flops_per_token(shape, prefill_len / 2)) / shard
    flops = linear + attention
    tokens = decode_seqs + prefill_tokens
    nbytes = _weight_bytes_read(setup, tokens)
    nbytes += (decode_seqs * context + prefill_tokens) * setup.kv_bytes_per_token / setup.pp
    compute_s = ((dense_linear + expert_linear / grouped_gemm_efficiency(shape, eff, tokens))
                 / (setup.peak_flops() * setup.linear_fill)
                 + attention / (setup.peak_flops(setup.attention_precision) * setup.attention_fill)) / eff.compute
    memory_s = nbytes / (gpu.bandwidth_bytes_s * eff.bandwidth)
    # the routing kernels run between the expert GEMMs, not under them: their time adds to the step
    routing_s = eff.moe_routing_traffic * routing_bytes(setup, tokens) / (gpu.bandwidth_bytes_s * eff.bandwidth)
    # two all-reduces per layer (after attention and after the MLP), each of tokens x hidden activations
    per_layer = 2 * collective_time_s(gpu, setup.tp, tokens * shape.hidden_size * ACTIVATION_BYTES, eff)
    comm_s = per_layer * shape.num_layers / setup.pp
    # pipeline: stages run in turn for one micro-batch; comm and compute sum over stages on the token's path
    # host work (scheduling, sampling, detokenising) per running sequence overlaps the GPU step
    sequences = decode_seqs + (prefill_tokens / prefill_len if prefill_len else 0.0)
    host_s = sequences * eff.host_per_sequence_s / setup.pp
    gpu_s = max(compute_s, memory_s) + routing_s + comm_s + eff.step_overhead_s
    time_s = max(gpu_s, host_s)
    return StepCost(time_s=time_s, compute_s=compute_s, memory_s=memory_s, communication_s=comm_s,
                    host_s=host_s, flops=flops, bytes=nbytes, bound=_bound(compute_s, memory_s, comm_s),
                    routing_s=routing_s)


def roofline(setup: ServingSetup, phase: Literal["prefill", "decode"], cost: StepCost) -> RooflinePoint:
    peak = setup.peak_flops()
    bandwidth = setup.gpu.bandwidth_bytes_s
    intensity = cost.flops / cost.bytes if cost.bytes else math.inf
    return RooflinePoint(phase=phase, flops=cost.flops, bytes=cost.bytes, operational_intensity=intensity,
                         attainable_flops=min(peak, intensity * bandwidth), ridge_point=peak / bandwidth,
                         time_s=cost.time_s, bound=cost.bound)


class LoadPoint(BaseModel):
    """Predicted behaviour at one concurrency (closed loop: `concurrency` requests always in flight)."""

    concurrency: int
    running_batch: int = Field(description="sequences decoding together per replica")
    ttft_ms: float = Field(description="at the requested percentile")
    ttft_mean_ms: float
    tpot_ms: float
    e2e_ms: float
    output_tokens_per_s: float = Field(description="all replicas")
    output_tokens_per_s_per_gpu: float
    bound: Bound
    prefill_utilisation: float = Field(description="fraction of time spent on prompts (queueing input)")


def max_concurrency_memory(setup: ServingSetup, input_len: int, output_len: int) -> int:
    """Sequences of full length (input + output) whose KV cache fits, all replicas; capped by the engine."""
    per_seq = input_len + output_len
    per_replica = min(setup.kv_capacity_tokens // per_seq, setup.max_batch)
    return int(per_replica * setup.replicas)


def prefill_time_s(setup: ServingSetup, input_len: int) -> StepCost:
    """A lone prompt (no decode running), all pipeline stages in turn."""
    return _prompt_costs(setup, input_len)[0]


def _prompt_costs(setup: ServingSetup, input_len: int) -> tuple[StepCost, StepCost]:
    """(lone prompt with every stage in turn, the same prompt's marginal cost inside a busy step)."""
    marginal = step_cost(setup, 0.0, 0.0, float(input_len), float(input_len))
    return replace(marginal, time_s=marginal.time_s * setup.pp), marginal


def predict_load(setup: ServingSetup, input_len: int, output_len: int, concurrency: int,
                 percentile: float = 99.0, offline: bool = False,
                 prompt_costs: tuple[StepCost, StepCost] | None = None) -> LoadPoint:
    """TTFT, TPOT and throughput with `concurrency` requests in flight over all replicas.

    offline=True is a saturated queue (benchmark "max throughput" mode): TTFT does not limit throughput.
    """
    if concurrency < 1:
        raise InputError("concurrency", "must be at least 1", ">= 1")
    per_replica = max(1, math.ceil(concurrency / setup.replicas))
    cap = max(1, min(setup.max_batch, setup.kv_capacity_tokens // max(1, input_len + output_len)))
    batch = min(per_replica, cap)
    context = input_len + output_len / 2.0
    # steady state: every output_len decode steps the whole batch is replaced, so each step carries
    # batch / output_len prompts' tokens
    prefill_per_step = batch * input_len / max(output_len, 1)
    micro = batch / setup.pp
    step = step_cost(setup, micro, context, prefill_per_step / setup.pp, float(input_len))
    tpot_s = step.time_s * setup.pp if setup.pp > 1 else step.time_s
    lone, marginal = prompt_costs or _prompt_costs(setup, input_len)
    # marginal prompt cost inside a busy step (weights already streamed): its compute share and, for MoE, the
    # routing kernels its tokens add (they do not overlap the step's weight reads)
    service_s = max(marginal.compute_s + marginal.routing_s, 1e-9) * setup.pp
    ttft_mean = lone.time_s if batch <= 1 else max(lone.time_s, service_s + tpot_s)
    e2e_guess = ttft_mean + (output_len - 1) * tpot_s
    rho = min(0.999, batch * service_s / max(e2e_guess, 1e-9))
    # M/D/1 queue for prompts: mean wait rho*S/(2(1-rho)); tail taken exponential (approximation)
    # closed loop: at most the other (concurrency - 1) prompts can be ahead of this one
    ahead_s = (min(per_replica, batch) - 1) * service_s
    wait_mean = min(rho * service_s / (2 * (1 - rho)), ahead_s)
    p = percentile / 100.0
    wait_p = min((wait_mean / rho) * math.log(rho / (1 - p)), ahead_s) if rho > 1 - p and wait_mean > 0 else 0.0
    queued = max(0, per_replica - batch)  # requests beyond capacity wait for a whole request to finish
    queue_s = queued / batch * e2e_guess if queued else 0.0
    ttft_p = ttft_mean + wait_p + queue_s
    # closed loop, concurrency C over B running slots: by Little's law each request first waits
    # (C - B) / B whole requests (queue_s) before a slot frees; the mean TTFT includes that wait
    e2e = ttft_mean + wait_mean + queue_s + (output_len - 1) * tpot_s
    # saturated queue: throughput is the decode rate; closed loop: each client waits for its whole request
    rate = batch / tpot_s * setup.replicas if offline else per_replica * output_len / e2e * setup.replicas
    return LoadPoint.model_construct(concurrency=concurrency, running_batch=batch, ttft_ms=ttft_p * 1e3,
                     ttft_mean_ms=(ttft_mean + wait_mean + queue_s) * 1e3, tpot_ms=tpot_s * 1e3, e2e_ms=e2e * 1e3,
                     output_tokens_per_s=rate, output_tokens_per_s_per_gpu=rate / setup.num_gpus,
                     bound=step.bound, prefill_utilisation=rho)


class SlaResult(BaseModel):
    met: bool = Field(description="some concurrency meets both limits")
    max_concurrency: int | None = Field(description="largest concurrency meeting the SLA (None when none)")
    at_max: LoadPoint | None
    best_at_one: LoadPoint = Field(description="concurrency 1: the best latency achievable")
    reason: Msg


def sla_search(setup: ServingSetup, input_len: int, output_len: int, slo_ttft_ms: float | None,
               slo_tpot_ms: float | None, percentile: float = 99.0, limit: int | None = None) -> SlaResult:
    """Largest concurrency whose predicted percentile TTFT and TPOT meet the limits (double, then bisect)."""
    top = limit or max_concurrency_memory(setup, input_len, output_len)

    def ok(point: LoadPoint) -> bool:
        return (slo_ttft_ms is None or point.ttft_ms <= slo_ttft_ms) and (
            slo_tpot_ms is None or point.tpot_ms <= slo_tpot_ms)

    costs = _prompt_costs(setup, input_len)

    def at(concurrency: int) -> LoadPoint:
        return predict_load(setup, input_len, output_len, concurrency, percentile, prompt_costs=costs)

    one = at(1)
    if top < 1:
        return SlaResult(met=False, max_concurrency=None, at_max=None, best_at_one=one,
                         reason=Msg("sla.no_sequence_fits"))
    if not ok(one):
        parts = []
        if slo_ttft_ms is not None and one.ttft_ms > slo_ttft_ms:
            parts.append(Msg("sla.ttft_over", got=one.ttft_ms, limit=slo_ttft_ms))
        if slo_tpot_ms is not None and one.tpot_ms > slo_tpot_ms:
            parts.append(Msg("sla.tpot_over", got=one.tpot_ms, limit=slo_tpot_ms))
        return SlaResult(met=False, max_concurrency=None, at_max=None, best_at_one=one,
                         reason=Msg("sla.impossible", parts=parts))
    low, high = 1, 2
    while high <= top and ok(at(high)):
        low, high = high, high * 2
    high = min(high, top + 1)
    while high - low > 1:
        mid = (low + high) // 2
        if ok(at(mid)):
            low = mid
        else:
            high = mid
    why = "sla.memory_limit" if low >= top else "sla.next_breaks"
    return SlaResult(met=True, max_concurrency=low, at_max=at(low), best_at_one=one,
                     reason=Msg("sla.largest", concurrency=low, why=Msg(why)))
