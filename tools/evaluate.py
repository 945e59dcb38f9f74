"""One configuration -> one `Plan`: memory per GPU under its split, speed at the load, costs, host, verdict.

A configuration is an offer, a GPU count sold as whole units, a tensor x pipeline split (the remaining GPUs
are data-parallel replicas) and a workload (the stated one, with practitioner defaults or knobs). The memory
estimator says what the most loaded GPU holds (GPU memory never adds up across cards), the performance model
how fast it runs, `tools.costs` what it costs, `tools.system_sizing` what the host needs. Whether it fits is
decided here, with every reason as a catalogue message.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from sizer_agent.tools.catalog import Catalog, Gpu, Offer, Platform
from sizer_agent.tools.costs import budget_cost, costs, power_w, purchase
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.estimate import MIN_UTILIZATION, EstimateRequest, EstimateResult, estimate
from sizer_agent.tools.knobs import zero_for
from sizer_agent.tools.memory.vllm_profile import default_scheduler_limits
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.model_spec import ModelSpec
from sizer_agent.tools.perf.estimate import PerfEstimate, estimate_perf
from sizer_agent.tools.perf.shape import ModelShape
from sizer_agent.tools.plan import (
    HostRequirement,
    Knob,
    MemoryPlan,
    Parallelism,
    Plan,
    RooflinePoint,
    Scope,
    ServingPerf,
    TrainingPerf,
)
from sizer_agent.tools.system_sizing import SystemRequest, graphics_issue, size_system

# Text bytes per token, to turn a dataset size into tokens: "one token generally corresponds to ~4
# characters of text for common English text" (OpenAI, "What are tokens and how to count them?").
BYTES_PER_TOKEN = 4.0
DEFAULT_STORAGE_WRITE_GBS = 2.0  # checkpoint target when the platform states none (network volume; assumption)
DEFAULT_CHECKPOINT_INTERVAL_MIN = 60.0
DEFAULT_HEADROOM = 0.10  # generic engine: share of each card kept free (fragmentation, peaks)
# PyTorch's caching allocator reserves more than the peak it allocates. The published training runs that
# report both counters for one run: +24 % and +12 % (Answer.AI fsdp_qlora, benchmarks_03_2024.md, LoRA of
# Llama 2 7B on FSDP at 512 and 2,048 tokens: 8.28 vs 10.24 GiB, 9.16 vs 10.22 GiB;
# tests/estimate/data/heldout_issue15_2.json). A training plan with less free than the larger is told so.
ALLOCATOR_RESERVE_OVER_PEAK = 0.24
# A card that also runs the rendering or CAD software keeps VRAM for it (seed 002: "si le poste fera aussi du rendu
# ou de la CAO … évite des propositions … qui échouent sur un détail de mémoire oublié"): 8 GB, Twinmotion's minimum
# VRAM (Twinmotion 2020.1 system requirements, resources.imaginit.com, read 2026-12-02; Enscape and KeyShot scenes
# of a design office sit in that range).
GRAPHICS_VRAM_BYTES = 8 * 10**9
NATIVE_VLLM_STACKS = ("cuda", "rocm")  # where vLLM's own memory profile (tools.memory) was measured


# A context asked for at least this many times the mean request (input + output) is a length some requests
# reach, not the typical one: the plan is sized at the mean, and the document says how many full-length
# requests fit at once. (A product choice: below 2x the mean the difference is within the sizing's margin.)
FULL_CONTEXT_NOTE_RATIO = 2


@dataclass
class Context:
    """What every configuration of one recommendation shares (and the estimates already computed)."""

    catalog: Catalog
    spec: ModelSpec
    scope: Scope
    slo_ttft_ms: float | None = None
    slo_tpot_ms: float | None = None
    # an assumed TTFT is a floor on top of the prompt's own prefill: slo_ttft_ms plus what one request alone waits
    # for its first token on the configuration (tools.recommend, ASSUMED_TTFT_FACTOR)
    ttft_floor_over_prefill: bool = False
    percentile: float = 99.0
    headroom: float = DEFAULT_HEADROOM
    dataset_bytes: int | None = None
    dataset_tokens: int | None = None  # a training set said in tokens: an epoch is those tokens, no bytes guessed
    checkpoint_interval_min: float | None = None
    job_requests: int | None = None  # batch inference: the requests of a job (one run of it when it recurs)
    job_recurring: bool = False  # a nightly/monthly run: the rental is weighed over the period, not per run (its
    # runs' hours only, when job_runs_per_year says how often)
    deadline_hours: float | None = None  # a batch run or a training epoch must end within this
    training_one_off: bool = False  # one training run: rented, it is paid by its hours
    epochs: int = 1  # passes over the dataset the job makes ("3 époques"): its hours are that many epochs
    job_runs_per_year: int | None = None  # a recurring job's runs a year: rented, only their hours are paid
    shape: ModelShape = field(init=False)
    cache: dict[tuple[object, ...], EstimateResult | InputError] = field(default_factory=dict)
    evaluated: int = 0

    def __post_init__(self) -> None:
        self.shape = ModelShape.from_spec(self.spec)


def splits(num_gpus: int, per_unit: int, gpu: Gpu, spec: ModelSpec) -> list[tuple[int, int]]:
    """(tp, pp) candidates, smallest model-parallel group first; the other GPUs become replicas.

    Tensor parallelism stays inside one unit and one fast-link domain (8 GPUs at most); what is left of the
    group is pipeline stages, across units when needed."""
    out: list[tuple[int, int]] = []
    size = 1
    while size <= num_gpus:
        if num_gpus % size == 0:
            tp = size
            while tp > min(8, per_unit) or (tp > gpu.interconnect.scaleup_domain and tp > 1
                                             and gpu.interconnect.kind != "pcie"):
                tp //= 2
            pp = size // tp
            if pp <= spec.num_layers and (tp, pp) not in out:
                out.append((tp, pp))
        size *= 2
    return out


def _estimate(ctx: Context, workload: EstimateRequest, gpu: Gpu, tp: int, pp: int, dp: int,
              zero: int) -> EstimateResult:
    """Memory of one replica (cached: the generic engine's bytes do not depend on the card, only on how its
    engine stores KV heads)."""
    update: dict[str, object] = {"tensor_parallel_size": tp, "pipeline_parallel_size": pp, "gpu": None,
                                 "gpu_memory_gib": None}
    auto_offload = workload.mode == "inference" and workload.cpu_offload_gb == "auto"
    if workload.engine == "vllm" or auto_offload:
        update["gpu_memory_gib"] = gpu.memory_bytes / 2**30
    elif workload.mode == "inference" and workload.max_num_batched_tokens is None:
        # the prefill chunk follows the card's scheduler default (2048 tokens below 70 GiB), as in the vLLM
        # path and in the chat's first estimate for a named chip, so both state the same activations
        update["max_num_batched_tokens"] = default_scheduler_limits(gpu.memory_bytes, gpu.name)[0]
    if workload.mode == "training":
        update.update(data_parallel_size=dp, zero=zero)
    else:  # serving replicas are identical: one replica with its share of the requests
        update.update(data_parallel_size=1, zero=0, concurrency=max(1, math.ceil(workload.concurrency / dp)))
    if ctx.scope.needs_graphics and workload.engine == "vllm":
        # the rendering software's VRAM comes out of vLLM's share, the free margin for its graphs kept as it was
        share = workload.gpu_memory_utilization - GRAPHICS_VRAM_BYTES / gpu.memory_bytes
        update["gpu_memory_utilization"] = max(MIN_UTILIZATION, math.floor(share * 100) / 100)
    request = workload.model_copy(update=update)
    memory = gpu.memory_bytes if workload.engine == "vllm" or auto_offload else 0
    # the chip's engine may store each KV head padded (vLLM on TPU: 128 lanes): its bytes, not the model's
    key = (request.model_dump_json(), memory, gpu.kv_alignment)
    cached = ctx.cache.get(key)
    if cached is None:
        try:
            # 'auto' weight offload moves what the card lacks, keeping the generic engine's headroom free
            cached = estimate(request, ctx.spec, headroom=0.0 if workload.engine == "vllm" else ctx.headroom,
                              kv_head_alignment=gpu.kv_alignment)
        except InputError as error:
            cached = error
        ctx.cache[key] = cached
    if isinstance(cached, InputError):
        raise cached
    return cached


def _memory_plan(result: EstimateResult, gpu: Gpu, workload: EstimateRequest, dp: int) -> MemoryPlan:
    per = result.per_gpu
    engine = result.engine
    required = None
    load = per.total_bytes
    if workload.mode == "inference":
        required = math.ceil(workload.concurrency / dp) * (workload.input_len + workload.output_len)
        if engine is not None:  # the pool is all that is left; the load needs its own tokens of it
            load = engine.total_used_bytes - engine.kv_cache_bytes + min(
                engine.kv_cache_bytes, required * result.kv_cache_bytes_per_token)
    return MemoryPlan(load_bytes=load,
        weights_bytes=per.weights_bytes, kv_cache_bytes=per.kv_cache_bytes, activations_bytes=per.activations_bytes,
        gradients_bytes=per.gradients_bytes, optimizer_bytes=per.optimizer_bytes, runtime_bytes=per.runtime_bytes,
        total_bytes=engine.total_used_bytes if engine else per.total_bytes, gpu_memory_bytes=gpu.memory_bytes,
        headroom_pct=round(100.0 * (gpu.memory_bytes - (engine.total_used_bytes if engine else per.total_bytes))
                           / gpu.memory_bytes, 1),
        engine="vllm" if engine else "generic",
        gpu_memory_utilization=engine.gpu_memory_utilization if engine else None,
        engine_reserved_bytes=engine.total_used_bytes if engine else None,
        kv_cache_tokens=engine.kv_cache_tokens if engine else None, required_kv_tokens=required,
        offloaded_bytes=result.training.offloaded_bytes if result.training else (
            result.weight_offload.offloaded_bytes_per_gpu if result.weight_offload else 0),
        kv_cache_bytes_per_token=result.kv_cache_bytes_per_token,
    )


def _memory_reasons(ctx: Context, result: EstimateResult, memory: MemoryPlan, gpu: Gpu, tp: int, pp: int,
                    num_gpus: int) -> list[Msg]:
    graphics = GRAPHICS_VRAM_BYTES if ctx.scope.needs_graphics else 0
    usable = gpu.memory_bytes * (1.0 - ctx.headroom) - graphics
    if result.engine is not None:
        engine = result.engine
        if graphics and engine.total_used_bytes + graphics > gpu.memory_bytes:
            return [Msg("reason.graphics_memory", need=engine.total_used_bytes, graphics=graphics,
                        gpu=gpu.memory_bytes)]
        if engine.weights_bytes + engine.activation_peak_bytes >= engine.budget_bytes:
            return [Msg("reason.vllm_weights", weights=engine.weights_bytes, budget=engine.budget_bytes,
                        utilization=engine.gpu_memory_utilization, tp=tp, pp=pp, gpus=num_gpus)]
        if engine.kv_cache_tokens < engine.max_model_len or engine.total_used_bytes > gpu.memory_bytes:
            return [Msg("reason.vllm_no_room", tokens=engine.kv_cache_tokens, max_len=engine.max_model_len,
                        tp=tp, pp=pp, gpus=num_gpus)]
        return []
    if graphics and result.per_gpu.total_bytes > usable:
        return [Msg("reason.graphics_memory", need=result.per_gpu.total_bytes, graphics=graphics,
                    gpu=gpu.memory_bytes)]
    if result.per_gpu.total_bytes > usable:
        return [Msg("reason.memory", need=result.per_gpu.total_bytes, usable=usable, gpu=gpu.memory_bytes,
                    headroom=ctx.headroom, tp=tp, pp=pp, gpus=num_gpus)]
    return []


def _scope_reasons(ctx: Context, gpu: Gpu, platform: Platform, watts: float, units: int) -> list[Msg]:
    scope, reasons = ctx.scope, []
    if scope.needs_graphics:
        problem = graphics_issue(gpu)
        if problem is not None:
            reasons.append(Msg("reason.graphics", problem=problem))
    if scope.ecc_required and not gpu.ecc.value:
        reasons.append(Msg("reason.ecc_assumed" if scope.ecc_assumed else "reason.ecc", gpu=gpu.name))
    if scope.power_limit_w is not None and watts > scope.power_limit_w:
        reasons.append(Msg("reason.power", need=watts, limit=scope.power_limit_w))
    if scope.rack_units is not None and platform.rack_units is not None:
        height = platform.rack_units.value * units
        if height > scope.rack_units:
            reasons.append(Msg("reason.rack_units", need=height, limit=scope.rack_units))
    return reasons


def _platform_reasons(gpu: Gpu, platform: Platform) -> list[Msg]:
    """What the machine cannot take whatever the workload: a card drawing more than its slots, power and cooling
    are built for (a 600 W card in a 2U server sold for 350-400 W cards)."""
    limit = platform.max_gpu_board_w
    if limit is not None and gpu.tdp_w is not None and gpu.tdp_w.value > limit.value:
        return [Msg("reason.gpu_board_power", gpu=gpu.name, tdp=gpu.tdp_w.value, limit=limit.value)]
    return []


def _roofline(perf: PerfEstimate) -> list[RooflinePoint]:
    out = []
    for point in perf.roofline:
        peak = point.attainable_flops if point.operational_intensity >= point.ridge_point else (
            point.ridge_point * point.attainable_flops / point.operational_intensity)
        out.append(RooflinePoint(
            phase=point.phase, operational_intensity=point.operational_intensity,
            attainable_tflops=point.attainable_flops / 1e12, peak_tflops=peak / 1e12,
            bandwidth_tb_s=peak / point.ridge_point / 1e12, ridge_flops_per_byte=point.ridge_point,
            bound=point.bound, time_ms=point.time_s * 1e3))
    return out


def _serving(ctx: Context, perf: PerfEstimate, workload: EstimateRequest, result: EstimateResult,
             dp: int, reasons: list[Msg], slo_ttft_ms: float | None) -> ServingPerf:
    ttft = perf.ttft_ms or 0.0
    tpot = perf.tpot_ms or 0.0
    cap = (perf.max_concurrency_memory or 0) * dp
    sustained = (perf.max_output_tokens_per_s or 0.0) * dp
    under_slo: int | None = None
    met: bool | None = None
    if perf.sla is not None:
        sla = perf.sla
        under_slo = sla.max_concurrency * dp if sla.max_concurrency else None
        met = bool(under_slo and under_slo >= workload.concurrency)
        sustained = sla.at_max.output_tokens_per_s * dp if sla.at_max else 0.0
        if not sla.met:
            one = sla.best_at_one
            reasons.append(Msg("reason.sla_impossible", why=sla.reason, ttft=one.ttft_ms, tpot=one.tpot_ms))
        elif not met:
            reasons.append(Msg("reason.sla_concurrency", holds=under_slo or 0, asked=workload.concurrency))
    if cap < workload.concurrency and not any(r.id.startswith("reason.sla") for r in reasons):
        reasons.append(Msg("reason.kv_concurrency", holds=cap, asked=workload.concurrency,
                           tokens=workload.input_len + workload.output_len))
    return ServingPerf(
        concurrency=workload.concurrency, input_len=workload.input_len, output_len=workload.output_len,
        max_model_len=result.max_model_len, long_context=result.long_context, percentile=perf.percentile, ttft_ms=ttft,
        ttft_mean_ms=perf.ttft_mean_ms or ttft, tpot_ms=tpot, e2e_ms=perf.e2e_ms,
        output_tokens_per_s=(perf.output_tokens_per_s or 0.0) * dp, max_concurrency_memory=cap,
        max_concurrency_under_slo=under_slo, slo_ttft_ms=slo_ttft_ms, slo_tpot_ms=ctx.slo_tpot_ms, sla_met=met,
        sustained_output_tokens_per_s=sustained, bound=perf.bound, roofline=_roofline(perf),
        weight_offload_bytes_per_gpu=perf.weight_offload.offloaded_bytes_per_gpu if perf.weight_offload else 0,
        host_link_gbs=perf.weight_offload.link_gbs if perf.weight_offload else None,
        tpot_ms_without_offload=perf.tpot_ms_without_offload,
        output_tokens_per_s_without_offload=(perf.output_tokens_per_s_without_offload * dp
                                             if perf.output_tokens_per_s_without_offload is not None else None))


def _training(ctx: Context, perf: PerfEstimate, workload: EstimateRequest, result: EstimateResult,
              platform: Platform, dp: int) -> TrainingPerf:
    train = perf.training
    assert train is not None and result.training is not None  # training mode
    tokens_per_step = workload.batch_size * workload.seq_len * workload.gradient_accumulation_steps * dp
    step_s = train.step_time_s
    tokens_per_epoch = ctx.dataset_tokens or (int(ctx.dataset_bytes / BYTES_PER_TOKEN) if ctx.dataset_bytes else None)
    epoch_hours = tokens_per_epoch / train.tokens_per_s / 3600 if tokens_per_epoch and train.tokens_per_s else None
    storage = platform.storage_write_gbs.value if platform.storage_write_gbs else DEFAULT_STORAGE_WRITE_GBS
    checkpoint = result.training.checkpoint_resume_bytes
    write_s = checkpoint / (storage * 1e9)
    interval_min = ctx.checkpoint_interval_min or DEFAULT_CHECKPOINT_INTERVAL_MIN
    interval_s = interval_min * 60
    return TrainingPerf(
        method=workload.method, optimizer=workload.optimizer,
        batch_size=workload.batch_size * workload.gradient_accumulation_steps, micro_batch_size=workload.batch_size,
        gradient_accumulation_steps=workload.gradient_accumulation_steps, seq_len=workload.seq_len,
        tokens_per_step=tokens_per_step, step_time_s=step_s, tokens_per_s=train.tokens_per_s, mfu=train.mfu,
        bound=train.bound, dataset_bytes=ctx.dataset_bytes, dataset_tokens=ctx.dataset_tokens,
        bytes_per_token=BYTES_PER_TOKEN,
        tokens_per_epoch=tokens_per_epoch, epoch_hours=epoch_hours, epochs=ctx.epochs, checkpoint_bytes=checkpoint,
        storage_write_gbs=storage, checkpoint_write_s=write_s, checkpoint_interval_min=interval_min,
        goodput=interval_s / (interval_s + write_s))


def _offloaded_host_bytes(result: EstimateResult, num_gpus: int, dp: int) -> int:
    """Pinned host RAM of every offload on the machine: weights (each replica's), or each GPU's training share."""
    if result.weight_offload is not None:
        return result.weight_offload.host_ram_bytes * dp
    if result.training is not None:
        return result.training.offloaded_bytes * num_gpus
    return 0


def evaluate(ctx: Context, offer: Offer, gpu: Gpu, platform: Platform, num_gpus: int, units: int, tp: int,
             pp: int, workload: EstimateRequest, knobs: list[Knob]) -> Plan:
    """The plan of one configuration, fitting or not, with every reason."""
    ctx.evaluated += 1
    platform_notes: list[Msg] = []
    if gpu.software_stack not in NATIVE_VLLM_STACKS and workload.engine == "vllm":
        # vLLM's CUDA/ROCm memory profile does not describe a TPU or a Trainium chip: size it generically
        workload = workload.model_copy(update={"engine": "generic"})
        platform_notes.append(Msg("note.platform_engine", gpu=gpu.name, headroom=ctx.headroom,
                                  engines=gpu.engines.value if gpu.engines else gpu.software_stack))
    dp = num_gpus // (tp * pp)
    if ctx.job_requests and workload.mode == "inference" and dp > 1:
        # a batch job's replicas each run the stated batch over their share of the documents: more replicas
        # finish sooner (a fixed total spread thin would leave each decoding a handful of sequences)
        workload = workload.model_copy(update={"concurrency": workload.concurrency * dp})
    zero, zero_knob = zero_for(workload, dp)
    knobs = [*knobs, zero_knob] if zero_knob else list(knobs)
    if platform_notes:  # the vLLM default does not apply here: the note says what was assumed instead
        knobs = [k for k in knobs if k.code != "engine_vllm"]
    # the workload as this configuration runs it (the acceptance commands are derived from it)
    workload = workload.model_copy(update={"tensor_parallel_size": tp, "pipeline_parallel_size": pp,
                                           "data_parallel_size": dp, "zero": zero})
    watts = power_w(gpu, platform, num_gpus, units)
    buy = purchase(offer, ctx.catalog, num_gpus, units)
    reasons: list[Msg] = []
    notes: list[Msg] = list(platform_notes)
    parallelism = Parallelism(num_gpus=num_gpus, tensor_parallel=tp, pipeline_parallel=pp, data_parallel=dp,
                              zero=zero)
    common = dict(offer_id=offer.id, offer_name=offer.name, gpu_id=gpu.id, gpu_name=gpu.name,
                  platform_id=platform.id, purchase=buy, parallelism=parallelism, knobs=knobs,
                  sources=sorted({*offer.price_sources, *(gpu.memory_gb.src), *(gpu.tdp_w.src if gpu.tdp_w else []),
                                  *(platform.max_gpus.src)}))
    try:
        result = _estimate(ctx, workload, gpu, tp, pp, dp, zero)
    except InputError:
        return Plan(**common, weight_precision=workload.quantization or workload.dtype,
                    kv_cache_precision=workload.kv_cache_dtype, memory=None,
                    costs=costs(buy, ctx.catalog, watts, power_published=gpu.tdp_w is not None),
                    fits=False, reasons=[Msg("reason.split", tp=tp, pp=pp)], request=workload)
    parallelism.notes = list(result.parallelism.notes)
    memory = _memory_plan(result, gpu, workload, dp)
    share = memory.gpu_memory_utilization
    if share is not None and share != workload.gpu_memory_utilization:
        # vLLM's share was lowered on this card (rendering software beside it, graphs that overflow a small
        # card): the knob says the share the plan runs with
        common["knobs"] = [k.model_copy(update={"text": k.text.model_copy(update={"params": {
            **k.text.params, "utilization": share}})}) if k.code == "engine_vllm" else k for k in knobs]
    reasons += _memory_reasons(ctx, result, memory, gpu, tp, pp, num_gpus)
    reasons += _platform_reasons(gpu, platform)
    reasons += _scope_reasons(ctx, gpu, platform, watts, units)
    if not gpu.serves_weight_format(result.weight_format):
        reasons.append(Msg("reason.weight_format", gpu=gpu.name, precision=result.weight_format,
                           engines=gpu.engines.value if gpu.engines else gpu.software_stack))
    if tp * pp > 1 and not gpu.interconnect.p2p and gpu.interconnect.scaleup_gbs == 0:
        notes.append(Msg("note.no_p2p", gpu=gpu.name))
    elif tp * pp > gpu.interconnect.scaleup_domain and not gpu.interconnect.p2p:
        # GeForce cards bridged in pairs (RTX 3090 + NVLink bridge): a group wider than a pair crosses the host
        notes.append(Msg("note.no_p2p_beyond_bridge", gpu=gpu.name, gpus=tp * pp,
                         domain=gpu.interconnect.scaleup_domain))
    serving = training = None
    tokens_per_s: float | None = None
    if not reasons:
        try:
            perf = estimate_perf(result, gpu, ctx.shape, percentile=ctx.percentile, slo_ttft_ms=ctx.slo_ttft_ms,
                                 slo_tpot_ms=ctx.slo_tpot_ms, headroom=ctx.headroom)
            floor_ttft = ctx.slo_ttft_ms
            if ctx.ttft_floor_over_prefill and ctx.slo_ttft_ms is not None and perf.sla is not None:
                # the prompt's prefill alone (one request, nothing queued) is no wait an interactive floor judges
                # (rounded up to 100 ms: a limit people agree on, not a computed figure)
                # (with weights offloaded, the prompt's wait as if they all fitted: streaming them from the host is
                # a cost of this configuration the floor must not forgive)
                alone = perf.ttft_one_ms_without_offload or perf.sla.best_at_one.ttft_ms
                floor_ttft = math.ceil((ctx.slo_ttft_ms + alone) / 100) * 100.0
                perf = estimate_perf(result, gpu, ctx.shape, percentile=ctx.percentile, slo_ttft_ms=floor_ttft,
                                     slo_tpot_ms=ctx.slo_tpot_ms, headroom=ctx.headroom)
        except InputError:
            reasons.append(Msg("reason.precision_unit", gpu=gpu.name, precision=result.weight_format))
        else:
            if perf.codesign is not None:
                notes += perf.codesign.messages()
            if perf.training is not None:
                training = _training(ctx, perf, workload, result, platform, dp)
                tokens_per_s = training.tokens_per_s * training.goodput
            else:
                serving = _serving(ctx, perf, workload, result, dp, reasons, floor_ttft)
                tokens_per_s = serving.sustained_output_tokens_per_s or None
    job_hours = None
    if serving is not None and ctx.job_requests and serving.output_tokens_per_s:
        # the whole job at the rate the plan holds at its load: every request's output tokens, streamed at once
        job_hours = ctx.job_requests * workload.output_len / serving.output_tokens_per_s / 3600
    if training is not None and (ctx.training_one_off or ctx.job_runs_per_year) and training.epoch_hours:
        # one run of the stated dataset, its epochs: the whole job, or one of a recurring schedule ("a new
        # model every month"), whose rental pays those hours each run
        job_hours = training.epoch_hours * ctx.epochs
    plan_costs = costs(buy, ctx.catalog, watts, tokens_per_s, training.epoch_hours if training else None,
                       serving=workload.mode == "inference", power_published=gpu.tdp_w is not None,
                       job_hours=job_hours, per_job=job_hours is not None and not ctx.job_recurring,
                       runs_per_year=ctx.job_runs_per_year)
    took = job_hours if serving is not None else (
        training.epoch_hours * ctx.epochs if training is not None and training.epoch_hours is not None else None)
    if ctx.deadline_hours is not None and took is not None and took > ctx.deadline_hours:
        # too slow for the time the job must end in: more GPUs of this offer are tried next
        reasons.append(Msg("reason.deadline", hours=round(took, 1), deadline=ctx.deadline_hours, gpus=num_gpus))
    sizing = size_system(SystemRequest(
        mode=workload.mode, num_gpus=num_gpus, gpu_memory_used_bytes=memory.total_bytes,
        weight_bytes=result.weight_bytes_total, checkpoint_bytes=training.checkpoint_bytes if training else 0,
        # a set said in tokens still needs its disk: its text at the same bytes per token
        dataset_bytes=ctx.dataset_bytes or int((ctx.dataset_tokens or 0) * BYTES_PER_TOKEN),
        needs_graphics=ctx.scope.needs_graphics,
        long_running=True, offloaded_bytes=_offloaded_host_bytes(result, num_gpus, dp)), gpu, platform)
    notes += sizing.issues
    if ctx.scope.needs_graphics and not reasons:
        notes.append(Msg("note.graphics_reserve", graphics=GRAPHICS_VRAM_BYTES, card=gpu.memory_bytes))
    if training is not None and memory.load_bytes * (1 + ALLOCATOR_RESERVE_OVER_PEAK) > memory.gpu_memory_bytes:
        notes.append(Msg("note.allocator_reserve", free=memory.headroom_pct / 100,
                         reserve=ALLOCATOR_RESERVE_OVER_PEAK))
    if serving is not None and memory.kv_cache_tokens and workload.max_model_len \
            and workload.max_model_len >= FULL_CONTEXT_NOTE_RATIO * (workload.input_len + workload.output_len):
        # sized at the mean request; the context asked for is far longer: how many requests at that full
        # length the KV cache holds, for a reader whose users may paste whole files
        full = memory.kv_cache_tokens // workload.max_model_len * dp
        if full < workload.concurrency:
            notes.append(Msg("note.full_context_users", context=workload.max_model_len, users=full,
                             asked=workload.concurrency, mean=workload.input_len + workload.output_len))
    if serving is not None and serving.weight_offload_bytes_per_gpu:
        notes.append(Msg("note.weight_offload", offloaded=serving.weight_offload_bytes_per_gpu,
                         gbs=serving.host_link_gbs or 0.0, tps=serving.output_tokens_per_s,
                         tps_without=serving.output_tokens_per_s_without_offload or 0.0,
                         tpot=serving.tpot_ms, tpot_without=serving.tpot_ms_without_offload or 0.0))
    within: bool | None = None
    if ctx.scope.budget_eur is not None:
        cost = budget_cost(buy, plan_costs.tco_eur, None if ctx.job_recurring else plan_costs.eur_per_job)
        within = None if cost is None else cost <= ctx.scope.budget_eur
    return Plan(
        **common,
        weight_precision="nf4" if workload.mode == "training" and workload.method == "qlora" else result.weight_format,
        kv_cache_precision=_kv_name(result), memory=memory,
        serving=serving, training=training,
        host=[HostRequirement(name=r.name, value=r.value, unit=r.unit, reason=r.reason) for r in sizing.requirements],
        costs=plan_costs, fits=not reasons, within_budget=within, reasons=reasons, notes=notes, request=workload,
    )


def _kv_name(result: EstimateResult) -> str:
    if result.request.mode == "training":
        return "-"
    return "fp8" if result.kv_cache_dtype_bytes <= 1 else ("fp32" if result.kv_cache_dtype_bytes >= 4 else "bf16")
