"""Recommendation: every catalogue offer x GPU count x parallelism (x precision), fitting or not, and why.

For each option the memory estimator (tools.estimate) says what one GPU must hold under a named parallelism
strategy — GPU memory never adds up across cards — and the performance model (tools.perf) says how fast it
serves or trains. Options are rejected with reasons (memory per GPU, parallelism rules, SLA, graphics, budget)
and the fitting ones are ranked by cost per million output tokens (inference) or per training run.

Cost model (DESIGN §5): hourly cost of rented GPUs = price per GPU-hour x GPUs; of owned hardware = price /
(amortisation years x 8 760 h) / utilisation + energy (GPU TDP x count + host power) x EUR/kWh x PUE.
Cost per million output tokens = hourly cost / (sustained output tokens/s x 3 600) x 10^6.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from tools.catalog import Catalog, Gpu, Offer, Platform, load_catalog
from tools.errors import InputError
from tools.estimate import EstimateRequest, EstimateResult, estimate
from tools.model_loader import load_model
from tools.model_spec import ModelSpec
from tools.perf.estimate import PerfEstimate, estimate_perf
from tools.perf.shape import ModelShape
from tools.system_sizing import SystemRequest, graphics_issue, size_system

HOURS_PER_YEAR = 8760
MODEL_PARALLEL_SIZES = (1, 2, 4, 8, 16, 32, 64, 72)


class RecommendRequest(BaseModel):
    workload: EstimateRequest = Field(description="the `estimate` flags; parallelism and GPU are enumerated")
    slo_ttft_ms: float | None = Field(None, gt=0, description="limit on TTFT at the percentile")
    slo_tpot_ms: float | None = Field(None, gt=0, description="limit on TPOT at the percentile")
    percentile: float = Field(99.0, gt=0, lt=100)
    budget_eur: float | None = Field(None, gt=0, description="purchase budget; hourly offers are not limited")
    headroom: float = Field(0.10, ge=0, lt=1, description="fraction of GPU memory kept free")
    needs_graphics: bool = Field(False, description="the machine also does rendering or CAD")
    precisions: list[str] = Field(default_factory=list,
                                  description="alternative weight formats to try (bf16, fp8, awq, nvfp4 ...)")
    train_tokens: int | None = Field(None, gt=0, description="tokens of one training run (training mode)")
    checkpoint_interval_steps: int = Field(1000, ge=1, description="training: steps between checkpoints")
    storage_write_gbs: float = Field(2.0, gt=0, description="training: checkpoint storage write GB/s")
    failures_per_day: float = Field(0.0, ge=0, description="training: expected interruptions per day")
    catalog: Path | None = None
    offer_ids: list[str] = Field(default_factory=list, description="only these offers (all when empty)")


class OptionPerf(BaseModel):
    ttft_ms: float | None = None
    tpot_ms: float | None = None
    output_tokens_per_s: float | None = Field(None, description="at the requested concurrency")
    max_concurrency_memory: int | None = None
    max_concurrency_under_slo: int | None = Field(None, description="None when no SLA was given or none passes")
    sla_met: bool | None = None
    sustained_output_tokens_per_s: float | None = Field(
        None, description="at the operating point: SLA limit when an SLA is given, else the memory limit")
    sustained_tokens_per_s_per_gpu: float | None = None
    bound: str | None = None
    training_step_s: float | None = None
    training_tokens_per_s: float | None = None
    goodput: float | None = None


class Option(BaseModel):
    offer_id: str
    name: str
    kind: str
    gpu: str
    gpu_name: str
    num_gpus: int
    tensor_parallel_size: int
    pipeline_parallel_size: int
    data_parallel_size: int
    precision: str = Field(description="weight format of this option")
    price_eur: float | None = None
    hourly_eur: float | None = Field(None, description="whole option, incl. energy for owned hardware")
    fits: bool
    reasons: list[str] = Field(default_factory=list, description="why it does not fit (empty when it fits)")
    notes: list[str] = Field(default_factory=list, description="warnings that do not reject the option")
    per_gpu_total_bytes: int | None = None
    gpu_memory_bytes: int
    headroom_pct: float | None = Field(None, description="free share of GPU memory at this load")
    perf: OptionPerf = Field(default_factory=OptionPerf)
    eur_per_million_tokens: float | None = None
    cost_per_training_run_eur: float | None = None
    tokens_per_eur: float | None = Field(None, description="perf per euro: output tokens per euro spent")
    tokens_per_s_per_watt: float | None = None
    power_w: float


class WeightFigure(BaseModel):
    precision: str
    bytes_per_param: float
    weight_bytes: int = Field(description="params x bytes, before quantization metadata (seed arithmetic)")


class OfferVerdict(BaseModel):
    offer_id: str
    name: str
    fits: bool
    summary: str = Field(description="whether and how this offer can serve the workload, in one sentence")


class RecommendResult(BaseModel):
    model: str
    params_total: int
    mode: str
    options: list[Option]
    offers: list[OfferVerdict] = Field(description="one verdict per offer over all its options")
    recommended: str | None
    recommended_reason: str
    weights: list[WeightFigure]
    assumptions: list[str]


def _hourly_eur(offer: Offer, gpu: Gpu, platform: Platform, num_gpus: int, catalog: Catalog) -> float | None:
    a = catalog.assumptions
    if offer.kind == "cloud":
        if offer.hourly_eur_per_gpu is not None:
            return offer.hourly_eur_per_gpu.value * num_gpus
        assert offer.hourly_usd_per_gpu is not None  # validated by Offer
        return offer.hourly_usd_per_gpu.value * a.eur_per_usd.value * num_gpus
    if offer.kind == "purchase" and offer.price_eur is not None:
        capital = offer.price_eur.value / (a.amortisation_years.value * HOURS_PER_YEAR) / a.utilisation.value
        energy = _power_w(gpu, platform, num_gpus) / 1000 * a.energy_eur_per_kwh.value * a.pue.value
        return capital + energy
    return None


def _power_w(gpu: Gpu, platform: Platform, num_gpus: int) -> float:
    host = platform.host_power_w.value if platform.host_power_w else 350.0 * max(1, num_gpus // 8)
    return gpu.tdp_w.value * num_gpus + host


def _plans(num_gpus: int, gpu: Gpu, spec: ModelSpec) -> list[tuple[int, int]]:
    """(tp, pp) candidates, smallest model-parallel group first; the rest of the GPUs become replicas."""
    out: list[tuple[int, int]] = []
    for size in MODEL_PARALLEL_SIZES:
        if size > num_gpus or num_gpus % size:
            continue
        tp = size
        # TP stays inside the fast-link domain (8 GPUs at most); the rest is pipeline stages
        while tp > 8 or (tp > gpu.interconnect.scaleup_domain and tp > 1 and gpu.interconnect.kind != "pcie"):
            tp //= 2
        pp = size // tp
        if pp <= spec.num_layers and (tp, pp) not in out:
            out.append((tp, pp))
    return out


def _weight_figures(spec: ModelSpec) -> list[WeightFigure]:
    return [WeightFigure(precision=name, bytes_per_param=b, weight_bytes=int(spec.params_total * b))
            for name, b in (("16-bit", 2.0), ("8-bit", 1.0), ("4-bit", 0.5))]


class _Context:
    def __init__(self, request: RecommendRequest, catalog: Catalog, spec: ModelSpec) -> None:
        self.request = request
        self.catalog = catalog
        self.spec = spec
        self.shape = ModelShape.from_spec(spec)
        self.estimates: dict[tuple[str, int, int, int, int, int], EstimateResult | InputError] = {}


def _estimate(ctx: _Context, workload: EstimateRequest, gpu: Gpu, tp: int, pp: int, dp: int) -> EstimateResult:
    """Memory of one replica. The generic engine's per-GPU bytes do not depend on the card, so results are
    shared between GPUs (the fit is judged here against each card); the vLLM profile depends on it."""
    update: dict[str, object] = {"tensor_parallel_size": tp, "pipeline_parallel_size": pp, "gpu": None,
                                 "gpu_memory_gib": None}
    if workload.engine == "vllm":
        update["gpu_memory_gib"] = gpu.memory_bytes / 2**30
    if workload.mode == "training":
        # data parallelism shapes training memory (ZeRO) and the gradient all-reduce
        update.update(data_parallel_size=dp, zero=workload.zero if dp > 1 else 0)
    else:
        # serving replicas are identical: estimate one with its share of the requests, multiply throughput by dp
        update.update(data_parallel_size=1, zero=0, concurrency=max(1, -(-workload.concurrency // dp)))
    request = workload.model_copy(update=update)
    memory = gpu.memory_bytes if workload.engine == "vllm" else 0
    key = (request.model_dump_json(), memory, tp, pp, int(request.data_parallel_size), request.concurrency)
    cached = ctx.estimates.get(key)
    if cached is None:
        try:
            cached = estimate(request, ctx.spec)
        except InputError as error:
            cached = error
        ctx.estimates[key] = cached
    if isinstance(cached, InputError):
        raise cached
    return cached


def _evaluate(ctx: _Context, offer: Offer, gpu: Gpu, platform: Platform, num_gpus: int, tp: int, pp: int,
              workload: EstimateRequest) -> Option:
    req = ctx.request
    dp = num_gpus // (tp * pp)
    hourly = _hourly_eur(offer, gpu, platform, num_gpus, ctx.catalog)
    power = _power_w(gpu, platform, num_gpus)
    option = Option(
        offer_id=offer.id, name=offer.name, kind=offer.kind, gpu=gpu.id, gpu_name=gpu.name, num_gpus=num_gpus,
        tensor_parallel_size=tp, pipeline_parallel_size=pp, data_parallel_size=dp,
        precision=workload.quantization or workload.dtype, fits=True,
        price_eur=offer.price_eur.value if offer.price_eur else None, hourly_eur=hourly,
        gpu_memory_bytes=gpu.memory_bytes, power_w=power,
    )
    reasons, notes = option.reasons, option.notes
    try:
        result = _estimate(ctx, workload, gpu, tp, pp, dp)
    except InputError as error:
        option.fits = False
        reasons.append(f"parallelism: {error}")
        return option
    option.precision = result.weight_format
    usable = gpu.memory_bytes * (1.0 - req.headroom)
    total = result.per_gpu.total_bytes
    option.per_gpu_total_bytes = total
    option.headroom_pct = round(100.0 * (gpu.memory_bytes - total) / gpu.memory_bytes, 1)
    split = "" if num_gpus == 1 else (
        f" with TP={tp} x PP={pp} (GPU memory does not add up: each of the {tp * pp} GPUs holding a model "
        "copy's shard needs this much)")
    if workload.engine == "vllm":
        # vLLM pre-allocates gpu_memory_utilization of the card: the free share is its (1 - utilisation)
        if result.fits is False:
            tokens = result.engine.kv_cache_tokens if result.engine else 0
            where = "" if num_gpus == 1 else f" per GPU under TP={tp} x PP={pp}"
            reasons.append(f"memory: vLLM's KV pool holds {tokens:,} tokens{where}, fewer than one request of "
                           f"max_model_len {result.max_model_len:,}")
    elif total > usable:
        reasons.append(
            f"memory: {total / 1e9:.1f} GB needed per GPU{split} > {usable / 1e9:.1f} GB usable "
            f"({gpu.memory_bytes / 1e9:.1f} GB reported, {req.headroom:.0%} kept free)")
    if tp * pp > 1 and not gpu.interconnect.p2p and gpu.interconnect.scaleup_gbs == 0:
        notes.append(f"{gpu.name}: no NVLink and no PCIe peer-to-peer; TP/PP traffic goes through host memory")
    if req.needs_graphics:
        problem = graphics_issue(gpu)
        if problem:
            reasons.append(f"graphics: {problem}")
    if req.budget_eur is not None:
        if offer.price_eur is not None and offer.price_eur.value > req.budget_eur:
            reasons.append(f"budget: {offer.price_eur.value:,.0f} EUR > {req.budget_eur:,.0f} EUR")
        elif offer.kind == "cloud":
            notes.append("hourly offer: the purchase budget does not apply")
    sizing = size_system(SystemRequest(
        mode=workload.mode, num_gpus=num_gpus, gpu_memory_used_bytes=total, weight_bytes=result.weight_bytes_total,
        checkpoint_bytes=result.training.checkpoint_resume_bytes if result.training else 0,
        needs_graphics=False, long_running=workload.mode == "training"), gpu, platform)
    notes.extend(f"system: {issue}" for issue in sizing.issues)
    if not any(r.startswith(("parallelism", "memory")) for r in reasons):
        _add_perf(ctx, option, result, gpu, hourly, power)
    option.fits = not reasons
    return option


def _add_perf(ctx: _Context, option: Option, result: EstimateResult, gpu: Gpu, hourly: float | None,
              power: float) -> None:
    req = ctx.request
    try:
        perf: PerfEstimate = estimate_perf(
            result, gpu, ctx.shape, percentile=req.percentile, slo_ttft_ms=req.slo_ttft_ms,
            slo_tpot_ms=req.slo_tpot_ms, headroom=req.headroom,
            training={"checkpoint_interval_steps": req.checkpoint_interval_steps,
                      "storage_write_gbs": req.storage_write_gbs, "failures_per_day": req.failures_per_day})
    except InputError as error:
        option.reasons.append(f"precision: {error}")
        return
    p = option.perf
    p.bound = perf.bound
    if perf.training is not None:
        t = perf.training
        p.training_step_s, p.training_tokens_per_s, p.goodput = t.step_time_s, t.tokens_per_s, t.goodput
        useful = t.tokens_per_s * t.goodput
        if hourly is not None and useful > 0:
            per_million = hourly / (useful * 3600) * 1e6
            option.eur_per_million_tokens = per_million
            if req.train_tokens:
                option.cost_per_training_run_eur = per_million * req.train_tokens / 1e6
            option.tokens_per_eur = 1e6 / per_million
        option.tokens_per_s_per_watt = useful / power
        return
    # a data-parallel replica's numbers: the estimate describes one replica's GPUs
    dp = option.data_parallel_size
    p.ttft_ms, p.tpot_ms = perf.ttft_ms, perf.tpot_ms
    p.output_tokens_per_s = (perf.output_tokens_per_s or 0.0) * dp
    p.max_concurrency_memory = (perf.max_concurrency_memory or 0) * dp
    sustained = (perf.max_output_tokens_per_s or 0.0) * dp
    if perf.sla is not None:
        sla = perf.sla
        p.max_concurrency_under_slo = sla.max_concurrency * dp if sla.max_concurrency else None
        p.sla_met = bool(p.max_concurrency_under_slo
                         and p.max_concurrency_under_slo >= ctx.request.workload.concurrency)
        sustained = (sla.at_max.output_tokens_per_s * dp) if sla.at_max else 0.0
        if not sla.met:
            one = sla.best_at_one
            option.reasons.append(f"SLA: {sla.reason} (best: TTFT {one.ttft_ms:.0f} ms, TPOT {one.tpot_ms:.1f} ms)")
        elif not p.sla_met:
            option.reasons.append(
                f"SLA: holds up to {p.max_concurrency_under_slo} concurrent requests, "
                f"{ctx.request.workload.concurrency} asked")
    if p.max_concurrency_memory is not None and p.max_concurrency_memory < 1:
        option.reasons.append("memory: not one request of input + output length fits in the KV cache")
    p.sustained_output_tokens_per_s = sustained
    p.sustained_tokens_per_s_per_gpu = sustained / option.num_gpus if sustained else None
    if hourly is not None and sustained > 0:
        option.eur_per_million_tokens = hourly / (sustained * 3600) * 1e6
        option.tokens_per_eur = sustained * 3600 / hourly
    option.tokens_per_s_per_watt = sustained / power if sustained else None


def _workloads(request: RecommendRequest) -> list[EstimateRequest]:
    if not request.precisions:
        return [request.workload]
    out = []
    for precision in request.precisions:
        name = precision.lower()
        if name in ("bf16", "fp16", "bfloat16", "float16", "fp32", "auto"):
            out.append(request.workload.model_copy(update={"dtype": name, "quantization": None}))
        else:
            out.append(request.workload.model_copy(update={"quantization": name}))
    return out


def _rank_key(option: Option) -> tuple[int, int, float, int, float]:
    if option.fits:
        cost = option.eur_per_million_tokens
        speed = option.perf.sustained_output_tokens_per_s or option.perf.training_tokens_per_s or 0.0
        # equal cost per token: the smaller configuration first (less money committed)
        rounded = float(f"{cost:.3g}") if cost is not None else 0.0
        return (0, 0 if cost is not None else 1, rounded, option.num_gpus, -speed)
    need = option.per_gpu_total_bytes or 10**18
    return (1, len(option.reasons), need / option.gpu_memory_bytes, option.num_gpus, 0.0)


def recommend(request: RecommendRequest, model: ModelSpec | None = None) -> RecommendResult:
    """All options over the catalogue, ranked: fitting first (cheapest per token), then rejected with reasons."""
    catalog = load_catalog(request.catalog)
    spec = model or load_model(request.workload.model, request.workload.revision)
    ctx = _Context(request, catalog, spec)
    offers = [catalog.offer(i) for i in request.offer_ids] if request.offer_ids else catalog.offers
    options: list[Option] = []
    for workload in _workloads(request):
        for offer in offers:
            gpu, platform = catalog.gpu(offer.gpu), catalog.platform(offer.platform)
            counts = offer.gpu_counts[:1] if offer.kind == "purchase" else offer.gpu_counts
            for num_gpus in counts:
                if num_gpus > platform.max_gpus.value:
                    continue
                best: Option | None = None
                for tp, pp in _plans(num_gpus, gpu, spec):
                    option = _evaluate(ctx, offer, gpu, platform, num_gpus, tp, pp, workload)
                    best = option
                    if option.fits:
                        break
                if best is not None:
                    options.append(best)
    options.sort(key=_rank_key)
    recommended, reason = _pick(options)
    a = catalog.assumptions
    assumptions = [
        f"owned hardware: price / ({a.amortisation_years.value:g} years x 8,760 h) / utilisation "
        f"{a.utilisation.value:.0%} + energy at {a.energy_eur_per_kwh.value:g} EUR/kWh, PUE {a.pue.value:g}",
        f"USD prices converted at {a.eur_per_usd.value:g} EUR/USD",
        f"{request.headroom:.0%} of each GPU's memory kept free",
        "sustained tokens/s: at the SLA limit when an SLA is given, else at the memory limit (saturated)",
        "GPU memory never adds up: every multi-GPU option names its TP x PP split and is checked per GPU",
    ]
    return RecommendResult(model=spec.name, params_total=spec.params_total, mode=request.workload.mode,
                           options=options, offers=_verdicts(catalog, options, request.workload.mode),
                           recommended=recommended, recommended_reason=reason,
                           weights=_weight_figures(spec), assumptions=assumptions)


def _verdicts(catalog: Catalog, options: list[Option], mode: str) -> list[OfferVerdict]:
    verb = "runs" if mode == "training" else "serves"
    out = []
    for offer in catalog.offers:
        mine = [o for o in options if o.offer_id == offer.id]
        if not mine:
            continue
        good = [o for o in mine if o.fits]
        if good:
            first_by_format: dict[str, Option] = {}
            for o in sorted(good, key=lambda o: o.num_gpus):
                first_by_format.setdefault(o.precision, o)
            ways = [f"{o.precision} from {o.num_gpus} GPU(s) (TP{o.tensor_parallel_size} x "
                    f"PP{o.pipeline_parallel_size}, {(o.per_gpu_total_bytes or 0) / 1e9:.1f} GB/GPU, "
                    f"{o.headroom_pct:.0f} % free)" for o in first_by_format.values()]
            bad = sorted({o.precision for o in mine if not o.fits} - {o.precision for o in good})
            text = f"{verb} it with " + "; ".join(ways) + (f"; not with {', '.join(bad)}" if bad else "")
        else:
            first = min(mine, key=lambda o: o.per_gpu_total_bytes or 10**18)
            text = f"cannot {verb[:-1]} it: {first.reasons[0] if first.reasons else 'no option fits'}"
            if first.per_gpu_total_bytes and first.per_gpu_total_bytes > first.gpu_memory_bytes:
                text += (" — even its smallest tried format does not fit one card, and GPU memory does not add up"
                         " across cards")
        out.append(OfferVerdict(offer_id=offer.id, name=offer.name, fits=bool(good), summary=text))
    return out


def _pick(options: list[Option]) -> tuple[str | None, str]:
    fitting = [o for o in options if o.fits]
    if not fitting:
        closest = options[0] if options else None
        why = closest.reasons[0] if closest and closest.reasons else "the catalogue is empty"
        return None, f"no option fits; closest: {closest.offer_id if closest else '-'} — {why}"
    best = fitting[0]
    if best.eur_per_million_tokens is None:
        return best.offer_id, "fits, but no priced option fits: this is a reference platform without a price"
    unit = "per million training tokens" if best.perf.training_step_s is not None else "per million output tokens"
    return best.offer_id, (f"cheapest fitting option: {best.eur_per_million_tokens:.3g} EUR {unit} with "
                           f"{best.num_gpus} x {best.gpu_name}")


