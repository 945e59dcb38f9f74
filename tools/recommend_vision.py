"""Recommendation for a computer-vision job: the same scope, units, budget and choice as for language models.

A vision job runs data parallel: every GPU holds the whole network and its own batch of images
(`tools.vision.estimate`), so more GPUs only make an epoch shorter; memory per GPU decides the card. The
search turns only what does not change the training itself:

- activation checkpointing, for timm models, which support it natively (`set_grad_checkpointing`); YOLO
  and torchvision models would need their code changed, so it is not assumed for them;
- when nothing fits as stated, the batch per GPU is halved (a change to agree on: the statistics of
  BatchNorm and the learning-rate schedule depend on it), never below what BatchNorm tolerates.

A card is used up to 90 % of its memory (the PyTorch caching allocator fragments and peaks above the sum of
live tensors: the same headroom as the generic engine for language models).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sizer_agent.tools.catalog import Catalog, Gpu, Offer, Platform, load_catalog
from sizer_agent.tools.costs import budget_cost, costs, power_w, purchase
from sizer_agent.tools.evaluate import (
    DEFAULT_CHECKPOINT_INTERVAL_MIN,
    DEFAULT_HEADROOM,
    DEFAULT_STORAGE_WRITE_GBS,
    GRAPHICS_VRAM_BYTES,
)
from sizer_agent.tools.knobs import knob
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.plan import (
    Change,
    HostRequirement,
    Knob,
    MemoryPlan,
    Parallelism,
    Plan,
    RecommendResult,
    Scope,
    VisionPerf,
)
from sizer_agent.tools.system_sizing import SystemRequest, size_system
from sizer_agent.tools.vision.estimate import BATCHNORM_MIN_BATCH, VisionEstimate, VisionRequest, estimate_vision
from sizer_agent.tools.vision.speed import vision_speed

MAX_BATCH_HALVINGS = 3


@dataclass
class VisionContext:
    catalog: Catalog
    scope: Scope
    headroom: float = DEFAULT_HEADROOM
    dataset_bytes: int | None = None
    checkpoint_interval_min: float | None = None
    images_per_s: float | None = None  # inference: the rate the configuration must keep up with (cameras x fps)
    epochs: int = 1  # training: passes over the images asked for ("300 époques")
    job_runs_per_year: int | None = None  # training rerun on a schedule ("a new model every month"): rented, its hours
    deadline_hours: float | None = None  # training: its epochs must end within this ("finished within two weeks")
    evaluated: int = 0
    cache: dict[str, VisionEstimate] = field(default_factory=dict)


def _estimate(ctx: VisionContext, request: VisionRequest) -> VisionEstimate:
    key = request.model_dump_json()
    if key not in ctx.cache:
        ctx.cache[key] = estimate_vision(request)
    return ctx.cache[key]


def _checkpoint(ctx: VisionContext, est: VisionEstimate, platform: Platform) -> tuple[int, float, float, float]:
    """(bytes a resumable checkpoint writes, storage GB/s, write seconds, goodput) for a training job."""
    state = est.per_gpu.weights_bytes + est.per_gpu.optimizer_bytes  # fp32 weights + optimizer states
    storage = platform.storage_write_gbs.value if platform.storage_write_gbs else DEFAULT_STORAGE_WRITE_GBS
    write_s = state / (storage * 1e9)
    interval_s = (ctx.checkpoint_interval_min or DEFAULT_CHECKPOINT_INTERVAL_MIN) * 60
    return state, storage, write_s, interval_s / (interval_s + write_s)


def evaluate_vision(ctx: VisionContext, offer: Offer, gpu: Gpu, platform: Platform, num_gpus: int, units: int,
                    stated: VisionRequest, knobs: list[Knob]) -> Plan:
    """The plan of one configuration for a vision job, fitting or not, with every reason."""
    from sizer_agent.tools.evaluate import _scope_reasons  # shared rules: graphics, ECC, power, rack space

    ctx.evaluated += 1
    request = stated.model_copy(update={"gpus": num_gpus, "gpu": gpu.id, "gpu_memory_gib": None})
    est = _estimate(ctx, request)
    watts = power_w(gpu, platform, num_gpus, units)
    buy = purchase(offer, ctx.catalog, num_gpus, units)
    m = est.per_gpu
    graphics = GRAPHICS_VRAM_BYTES if ctx.scope.needs_graphics else 0  # the rendering software's share
    usable = int(gpu.memory_bytes * (1 - ctx.headroom)) - graphics
    reasons: list[Msg] = []
    if graphics and m.total_bytes > usable:
        reasons.append(Msg("reason.graphics_memory", need=m.total_bytes, graphics=graphics, gpu=gpu.memory_bytes))
    elif m.total_bytes > usable:
        reasons.append(Msg("reason.vision_memory", need=m.total_bytes, usable=usable, gpu=gpu.memory_bytes,
                           headroom=ctx.headroom, batch=request.batch_size, resolution=request.resolution))
    reasons += _scope_reasons(ctx, gpu, platform, watts, units)  # type: ignore[arg-type]
    memory = MemoryPlan(
        weights_bytes=m.weights_bytes, kv_cache_bytes=0, activations_bytes=m.activations_bytes + m.workspace_bytes,
        gradients_bytes=m.gradients_bytes, optimizer_bytes=m.optimizer_bytes, runtime_bytes=m.runtime_bytes,
        total_bytes=m.total_bytes, load_bytes=m.total_bytes, gpu_memory_bytes=gpu.memory_bytes,
        headroom_pct=max(0.0, (gpu.memory_bytes - m.total_bytes) / gpu.memory_bytes * 100), engine="generic")
    training = request.mode == "training"
    speed = vision_speed(est, gpu, dataset_images=stated.dataset_images if request.mode == "training" else None)
    phase = speed.training if training else speed.inference
    if not training and ctx.images_per_s and phase.images_per_s < ctx.images_per_s:
        reasons.append(Msg("reason.vision_rate", need=ctx.images_per_s, got=phase.images_per_s, gpus=num_gpus))
    epoch_hours = speed.epoch_time_s / 3600 if training and speed.epoch_time_s else None
    if epoch_hours is not None and ctx.deadline_hours is not None and epoch_hours * ctx.epochs > ctx.deadline_hours:
        # too slow for the time the training must end in: more GPUs of this offer are tried next (as for a language
        # model, tools.evaluate)
        reasons.append(Msg("reason.deadline", hours=round(epoch_hours * ctx.epochs, 1), deadline=ctx.deadline_hours,
                           gpus=num_gpus))
    checkpoint = _checkpoint(ctx, est, platform) if training else None
    vision = VisionPerf(
        request=request, library=est.model.library, params_total=est.model.params_total, mode=request.mode,
        forward_gflops_per_image=(est.vision.forward_flops_per_image + est.vision.attention_flops_per_image) / 1e9,
        images_per_s=phase.images_per_s, images_per_s_per_gpu=phase.images_per_s_per_gpu,
        step_time_s=phase.step_time_s, bound=phase.bound, tensor_precision=speed.precision,
        inference_images_per_s=speed.inference.images_per_s, dataset_images=stated.dataset_images,
        epoch_hours=epoch_hours, epochs=ctx.epochs,
        checkpoint_bytes=checkpoint[0] if checkpoint else None, storage_write_gbs=checkpoint[1] if checkpoint else None,
        checkpoint_write_s=checkpoint[2] if checkpoint else None,
        checkpoint_interval_min=(ctx.checkpoint_interval_min or DEFAULT_CHECKPOINT_INTERVAL_MIN) if training else None,
        goodput=checkpoint[3] if checkpoint else None, warnings=list(est.warnings))
    # a training rerun on a schedule: each run is its epochs, and a rental pays only those hours
    run_hours = epoch_hours * ctx.epochs if epoch_hours is not None and ctx.job_runs_per_year else None
    plan_costs = costs(buy, ctx.catalog, watts, None, epoch_hours, serving=False,
                       power_published=gpu.tdp_w is not None, job_hours=run_hours,
                       runs_per_year=ctx.job_runs_per_year)
    if not training and plan_costs.hourly_eur is not None and phase.images_per_s > 0:
        plan_costs.eur_per_million_images = plan_costs.hourly_eur / (phase.images_per_s * 3600) * 1e6
    sizing = size_system(SystemRequest(
        mode="training" if training else "inference", num_gpus=num_gpus, gpu_memory_used_bytes=m.total_bytes,
        weight_bytes=est.model.params_total * 4, checkpoint_bytes=checkpoint[0] if checkpoint else 0,
        dataset_bytes=ctx.dataset_bytes or 0, needs_graphics=ctx.scope.needs_graphics, long_running=True),
        gpu, platform)
    within: bool | None = None
    if ctx.scope.budget_eur is not None:
        cost = budget_cost(buy, plan_costs.tco_eur)
        within = None if cost is None else cost <= ctx.scope.budget_eur
    return Plan(
        offer_id=offer.id, offer_name=offer.name, gpu_id=gpu.id, gpu_name=gpu.name, platform_id=platform.id,
        purchase=buy, parallelism=Parallelism(num_gpus=num_gpus, tensor_parallel=1, pipeline_parallel=1,
                                              data_parallel=num_gpus),
        weight_precision=request.dtype, kv_cache_precision="-", memory=memory, vision=vision,
        host=[HostRequirement(name=r.name, value=r.value, unit=r.unit, reason=r.reason) for r in sizing.requirements],
        costs=plan_costs, knobs=list(knobs), fits=not reasons, within_budget=within, reasons=reasons,
        notes=[*sizing.issues, *([Msg("note.yolo_labels")] if training and est.model.library == "yolo" else []),
               *([Msg("note.graphics_reserve", graphics=graphics, card=gpu.memory_bytes)] if graphics else [])],
        request=None,
        sources=sorted({*offer.price_sources, *gpu.memory_gb.src, *(gpu.tdp_w.src if gpu.tdp_w else []),
                        *platform.max_gpus.src}))


def _offer_plans(ctx: VisionContext, offer: Offer, stated: VisionRequest, knobs: list[Knob]) -> list[Plan]:
    """The smallest configuration of one offer: memory per GPU does not change with more of the same card
    (data parallelism), and power or rack space only grow with it — the smallest decides whether it fits."""
    from sizer_agent.tools.recommend import _configurations

    gpu, platform = ctx.catalog.gpu(offer.gpu), ctx.catalog.platform(offer.platform)
    configurations = _configurations(offer, platform.max_gpus.value)
    if not configurations:
        return []
    paced = ctx.deadline_hours is not None if stated.mode == "training" else bool(ctx.images_per_s)
    if not paced:
        num_gpus, units = configurations[0]
        return [evaluate_vision(ctx, offer, gpu, platform, num_gpus, units, stated, knobs)]
    # a rate to keep up with, or a training deadline: more GPUs of the same card each take their share of the frames
    # or of the epoch (data parallel)
    plan = None
    for num_gpus, units in configurations:
        plan = evaluate_vision(ctx, offer, gpu, platform, num_gpus, units, stated, knobs)
        if plan.fits or any(r.id not in ("reason.vision_rate", "reason.deadline") for r in plan.reasons):
            break
    return [plan] if plan is not None else []


def _evaluate(ctx: VisionContext, offers: list[Offer], stated: VisionRequest, knobs: list[Knob]) -> list[Plan]:
    return [plan for offer in offers for plan in _offer_plans(ctx, offer, stated, knobs)]


def _checkpointing(stated: VisionRequest, library: str) -> tuple[list[Knob], VisionRequest] | None:
    if stated.mode != "training" or stated.checkpointing or library != "timm":
        return None
    return [knob("vision_checkpointing", False)], stated.model_copy(update={"checkpointing": True})


# Ultralytics trains for 100 epochs unless told otherwise (docs.ultralytics.com/modes/train, `epochs` default 100;
# torchvision's detection reference recipes run 26 epochs and more): the usual length of a detector's training.
USUAL_VISION_EPOCHS = 100
HOURS_PER_YEAR = 365 * 24


def _epochs_said(plan: Plan, runs_per_year: int | None) -> None:
    """No number of epochs was given, so one is counted: the plan says what the usual count would take on it, and
    for a training run on a schedule, how many epochs fit between two runs ("chaque semaine": 168 h)."""
    v = plan.vision
    if v is None or not v.epoch_hours:
        return
    params: dict[str, object] = {"hours": v.epoch_hours, "usual": USUAL_VISION_EPOCHS,
                                 "total": v.epoch_hours * USUAL_VISION_EPOCHS,
                                 "days": v.epoch_hours * USUAL_VISION_EPOCHS / 24}
    key = "knob.vision_epochs"
    if runs_per_year:
        window = float(round(HOURS_PER_YEAR / runs_per_year))  # weekly: 168 h
        key, params = "knob.vision_epochs_window", {**params, "window": window, "fit": int(window // v.epoch_hours)}
    plan.knobs.append(Knob(code="vision_epochs", changes_workload=False, text=Msg(key, **params)))


def _smaller_batches(stated: VisionRequest, batchnorm: bool) -> list[tuple[list[Knob], VisionRequest]]:
    out = []
    batch = stated.batch_size
    for _ in range(MAX_BATCH_HALVINGS):
        batch //= 2
        if batch < 1 or (batchnorm and batch < BATCHNORM_MIN_BATCH):
            break
        out.append(([knob("vision_batch", True, batch=batch, stated=stated.batch_size)],
                    stated.model_copy(update={"batch_size": batch})))
    return out


def _batch_fitted(ctx: VisionContext, offers: list[Offer], stated: VisionRequest, options: list[Plan],
                  batchnorm: bool) -> list[Plan]:
    """A batch nobody gave, chosen per card: each offer short of memory at the default batch is tried at the
    largest halving it holds, as Ultralytics' AutoBatch (`batch=-1`) sizes the batch to the card's memory
    (docs.ultralytics.com/reference/utils/autobatch). A practitioner default, said beside the plan, not a change
    to agree on: the customer never asked for the default batch."""
    fitted = {p.offer_id for p in options if p.fits}
    out: list[Plan] = []
    for _changed, smaller in _smaller_batches(stated, batchnorm):
        fit = [knob("vision_batch_fit", False, batch=smaller.batch_size, stated=stated.batch_size)]
        found = [p for p in _evaluate(ctx, [o for o in offers if o.id not in fitted], smaller, fit) if p.fits]
        out += found
        fitted |= {p.offer_id for p in found}
    return out


def _owned_vision(ctx: VisionContext, stated: VisionRequest, owned_gpus: bool, batch_fit: bool = False,
                  batchnorm: bool = False) -> Plan | None:
    """The customer's own cards as they are ("on a déjà 4 RTX 6000 Ada, est-ce que ça suffit ?"): the preferred
    GPU, as many as planned, nothing bought. A batch nobody gave is fitted to them as to any card on offer
    (`_batch_fitted`): "your cards do not hold it" must not rest on a default the bought plan was spared."""
    from sizer_agent.tools.recommend import named_offer, owned_platform

    scope = ctx.scope
    if not owned_gpus or not scope.planned_gpus or scope.gpu_preference is None:
        return None
    platform_id = owned_platform(ctx.catalog, scope.planned_gpus, scope.gpu_preference)
    if platform_id is None:
        return None
    offer = named_offer(ctx.catalog, scope, scope.planned_gpus, scope.gpu_preference, platform_id)
    gpu, platform = ctx.catalog.gpu(offer.gpu), ctx.catalog.platform(platform_id)
    plan = evaluate_vision(ctx, offer, gpu, platform, scope.planned_gpus, 1, stated, [])
    if plan.fits or not batch_fit or not any(r.id == "reason.vision_memory" for r in plan.reasons):
        return plan
    for _changed, smaller in _smaller_batches(stated, batchnorm):
        fit = [knob("vision_batch_fit", False, batch=smaller.batch_size, stated=stated.batch_size)]
        fitted = evaluate_vision(ctx, offer, gpu, platform, scope.planned_gpus, 1, smaller, fit)
        if not any(r.id == "reason.vision_memory" for r in fitted.reasons):
            return fitted
    return plan


def recommend_vision(request: object) -> RecommendResult:
    """`recommend` for a `RecommendRequest` whose `vision` is set (see tools.recommend)."""
    from sizer_agent.tools.recommend import (
        RecommendRequest,
        _alternatives,
        _assumptions,
        _best,
        _budget,
        _cheapest_priced,
        _choice,
        _headline,
        _in_scope,
        _pool,
        _preference,
        _rank_key,
        _verdicts,
        _within,
        scope_of,
        stack_offers,
    )

    assert isinstance(request, RecommendRequest) and request.vision is not None
    catalog = load_catalog(request.catalog)
    stated = request.vision
    scope = scope_of(request, catalog)
    ctx = VisionContext(catalog=catalog, scope=scope, headroom=request.headroom,
                        dataset_bytes=request.dataset_bytes, checkpoint_interval_min=request.checkpoint_interval_min,
                        images_per_s=request.vision_images_per_s, epochs=request.epochs,
                        job_runs_per_year=request.job_runs_per_year if request.job_recurring else None,
                        deadline_hours=request.deadline_hours if stated.mode == "training" else None)
    base = _estimate(ctx, stated.model_copy(update={"gpus": 1, "gpu": None}))  # a bad name or size fails here
    offers = stack_offers(catalog, request)
    scoped = [o for o in offers if _in_scope(scope, o)]
    options = _evaluate(ctx, offers, stated, [])
    if request.batch_assumed and stated.mode == "training":
        options += _batch_fitted(ctx, offers, stated, options, base.model.batchnorm_layers > 0)
    pool = _pool(options, scope)
    turned = _checkpointing(stated, base.model.library) if request.search else None
    if not pool and turned is not None:
        extra = _evaluate(ctx, scoped, turned[1], turned[0])
        options += extra
        pool = _pool(extra, scope)
    # cards the customer already owns are checked as they are, not wished for (as for a language model)
    status, plan = _choice(pool, scope, scope.gpu_preference if not request.owned_gpus else None)
    owned = _owned_vision(ctx, stated, request.owned_gpus,
                          batch_fit=request.batch_assumed and stated.mode == "training",
                          batchnorm=base.model.batchnorm_layers > 0)
    changes: list[Change] = []
    if status != "recommended" and request.search and stated.mode == "training":
        # the batch per GPU an in-scope option holds (within budget when one is set): a change to agree on
        start, done = (turned[1], turned[0]) if turned is not None and not pool else (stated, [])
        for knobs, smaller in _smaller_batches(start, base.model.batchnorm_layers > 0):
            fitting = _pool(_evaluate(ctx, scoped, smaller, [*done, *knobs]), scope)
            best = _best(_within(fitting, scope)) if pool else _best(_within(fitting, scope)) or _best(fitting)
            if best is not None:
                changes = [Change(knobs=best.knobs, plan=best)]
                break
    if request.epochs_assumed and stated.mode == "training" and plan is not None:
        _epochs_said(plan, request.job_runs_per_year if request.job_recurring else None)
    years = catalog.assumptions.amortisation_years.value
    budget = _budget(scope, plan, years, request.job_recurring)
    if plan is not None and (planned_note := plan.planned_gpus_note(scope.planned_gpus)) is not None:
        plan.notes.append(planned_note)
    options.sort(key=_rank_key)
    alternatives = _alternatives(options, plan, scope)
    closest = None if plan is not None else _best([o for o in options if _in_scope(scope, o)] or options)
    mode = "training" if stated.mode == "training" else "inference"
    assumptions = [m for m in _assumptions(request, catalog, mode) if m.id not in (
        "assume.headroom_vllm", "assume.operating_point", "assume.bytes_per_token")]
    if not any(m.id == "assume.headroom" for m in assumptions):
        assumptions.append(Msg("assume.headroom", headroom=request.headroom))
    assumptions.append(Msg("assume.vision_data_parallel"))
    return RecommendResult(
        model=base.model.name, params_total=base.model.params_total, params_active=base.model.params_total,
        mode=mode, status=status, recommended=plan.offer_id if plan else None, plan=plan,
        headline=_headline(status, plan, budget, changes, closest, scope, alternatives,
                           priced=_cheapest_priced(options, scope)), budget=budget, scope=scope,
        alternatives=alternatives, changes=changes, owned=owned,
        preference=None if request.owned_gpus else _preference(scope, catalog, plan, options),
        options=options, offers=_verdicts(catalog, options, scope, "vision"), assumptions=assumptions,
        evaluated=ctx.evaluated,
    )
