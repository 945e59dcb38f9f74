"""Recommendation: the plan an expert would sign for a workload, with the alternatives and why others fail.

1. Scope: how the customer buys (deployment -> workstation, server/node/rack, or cloud units), the budget,
   ECC, graphics (CAD), power and rack space, a GPU they asked for, the GPUs they planned.
2. The stated workload, run as practitioners run it (`tools.knobs.practitioner_defaults`), is evaluated on
   every offer, as whole units: 1, 2, ... units of each size sold, each tensor x pipeline split inside them
   (`tools.evaluate`). GPU memory never adds up: every option is checked per GPU under its split.
3. When nothing in scope fits, the knobs an expert turns are tried in order (`tools.knobs.ladder`) and the
   first step where something fits gives the plan, every knob stated as an assumption.
4. The plan is the cheapest priced option in scope within the budget (cost over the same period for a
   purchase and a rental: TCO); a platform on quote is never the recommendation while a priced one fits.
   Over budget: the cheapest that fits, the gap, and the workload changes that bring a plan within budget,
   each computed (none does: the change that comes closest, when it costs less than the stated load).
   Nothing fits: said plainly, with what would (out of scope or with changes).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from sizer_agent.tools.catalog import Catalog, Offer, load_catalog
from sizer_agent.tools.catalog.models import DEFAULT_STACKS, Stack
from sizer_agent.tools.cluster import ClusterRequest
from sizer_agent.tools.costs import budget_cost
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.estimate import MAX_TOKENS, EstimateRequest, estimate
from sizer_agent.tools.evaluate import BYTES_PER_TOKEN, Context, evaluate, splits
from sizer_agent.tools.knobs import cumulative, fewer_users, is_sixteen_bit, knob, practitioner_defaults, single
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.model_spec import ModelSpec
from sizer_agent.tools.plan import (
    BudgetVerdict,
    Change,
    Knob,
    OfferVerdict,
    Plan,
    RecommendResult,
    Scope,
    ServingAfter,
    ServingPerf,
    Status,
    UnitKind,
)
from sizer_agent.tools.quantization import QUANTIZATION_CHOICES
from sizer_agent.tools.vision.estimate import VisionRequest

MAX_ALTERNATIVES = 3
_DTYPE_CHOICES = ("bf16", "fp16", "bfloat16", "float16", "fp32", "float32", "auto")
PRECISION_CHOICES: tuple[str, ...] = (*_DTYPE_CHOICES, *(q for q in QUANTIZATION_CHOICES if q != "none"))
MAX_CHANGES = 4
# An assumed latency target (the question's default, not the customer's) is a preference, not a purchase
# driver: options are sized against an interactive floor — P99 TTFT within 4x the default (2 s for the
# 500 ms example of the method) and TPOT within 2x (100 ms, 10 tokens/s per user, still faster than people
# read) — and the document states the latency the plan gives and what would meet the default.
ASSUMED_TTFT_FACTOR = 4.0
ASSUMED_TPOT_FACTOR = 2.0
# The default TTFT is meant for a short prompt: a long one's own prefill (linear in its tokens: a 16k-token document
# is seconds of compute on any workstation card) is no wait the floor should judge, or the default target alone
# would drive the purchase of long-prompt loads. So an assumed TTFT floor is counted on top of the time one request
# alone waits for its first token on each configuration (tools.evaluate, Context.ttft_floor_over_prefill): what
# it limits is the queueing behind other users, the part more hardware buys down.


class ServeAfter(BaseModel):
    """The serving that follows a fine-tune ("then serve it to our 30 agents, about 10 at once"): the load the
    fine-tuned model serves. The training's configuration is checked at it as cards already bought; a rented
    training is not (its GPUs are given back), and the configuration that serves the load is named either way."""

    concurrency: int = Field(ge=1, le=100_000, description="simultaneous requests at peak")
    people: int | None = Field(None, ge=1, description="the people it is served to, when said ('then serve it to "
                               "our 300 claims handlers')")
    concurrency_assumed: bool = Field(False, description="no peak was said: `concurrency` is the interview's "
                                      "default for that many people, to confirm")
    input_len: int | None = Field(None, ge=1, le=MAX_TOKENS, description="mean prompt tokens")
    output_len: int | None = Field(None, ge=1, le=MAX_TOKENS, description="mean generated tokens")
    max_model_len: int | None = Field(None, ge=16, le=MAX_TOKENS, description="the context the server accepts; "
                                      "default: 4,096 tokens, or one request's if longer (a server's usual window)")
    dtype: str = Field("bfloat16", description="the served weights' compute type: a LoRA or full fine-tune is "
                       "served merged in its training precision (bfloat16)")
    quantization: str | None = Field(None, description="a weight format said for serving (fp8, awq ...)")
    slo_ttft_ms: float | None = Field(None, gt=0)
    slo_tpot_ms: float | None = Field(None, gt=0)
    slo_assumed: list[Literal["ttft", "tpot"]] = Field(default_factory=list)


class RecommendRequest(BaseModel):
    workload: EstimateRequest | None = Field(
        None, description="a language-model job: the `estimate` flags; GPU, count and split are searched")
    vision: VisionRequest | None = Field(
        None, description="a vision job: the `estimate --task vision` flags; GPU and count are searched")
    slo_ttft_ms: float | None = Field(None, gt=0, description="limit on TTFT at the percentile")
    slo_tpot_ms: float | None = Field(None, gt=0, description="limit on TPOT at the percentile")
    slo_assumed: list[Literal["ttft", "tpot"]] = Field(
        default_factory=list, description="SLA limits that are defaults the customer did not give: sized against "
        "an interactive floor (TTFT x4, TPOT x2) so that an assumed target never drives the purchase")
    percentile: float = Field(99.0, gt=0, lt=100)
    budget_eur: float | None = Field(None, gt=0, description="purchase budget (a rental is compared over the "
                                                                "amortisation period)")
    cloud_excluded: bool = Field(False, description="the customer refused the cloud (no rental suggested)")
    compared: list[str] = Field(default_factory=list, max_length=3, description="configurations the customer "
                                "weighs against each other, as COUNT:GPU ('2:h100-sxm'), each checked at the load; "
                                "a GPU id alone ('tpu-v6e'): its cheapest configuration that holds the load")
    owned_gpus: bool = Field(False, description="the preferred GPU in the planned number is already the customer's: "
                             "checked first, as it is (RecommendResult.owned)")
    owned_config: str | None = Field(None, pattern=r"^\d+:[\w.-]+$", description="the cards the customer owns as "
                                     "COUNT:GPU, when they are not the preference (one of the options weighed)")
    vision_images_per_s: float | None = Field(None, gt=0, description="vision inference: images per second the "
                                              "configuration must keep up with (cameras x frames per second)")
    job_requests: int | None = Field(
        None, ge=1, description="batch inference: the requests of a job (documents, pages; one run when it recurs); "
        "a one-off job's rental is weighed by that job's cost, not by the period")
    job_recurring: bool = Field(False, description="the job runs every night/month: its rental is weighed over the "
                                "period (its runs' hours when job_runs_per_year is given), and its size sets the "
                                "speed a deadline asks")
    job_runs_per_year: int | None = Field(None, ge=1, le=8760, description="a recurring job: runs a year ('per day' "
                                          "365, 'monthly' 12); rented, only those runs' hours are paid")
    epochs: int = Field(1, ge=1, le=1000, description="training: passes over the dataset (the job, its deadline and "
                        "its one-off rental are that many epochs)")
    epochs_assumed: bool = Field(False, description="training: no number of epochs was given (one is counted); a "
                                 "vision plan says what the usual count would take")
    training_one_off: bool = Field(False, description="training: one run only (one epoch of the dataset): a rental "
                                   "is weighed by that run's cost, not by the period")
    deadline_hours: float | None = Field(None, gt=0, description="a batch run or a training epoch must end within "
                                         "this: slower configurations get more GPUs or are ruled out")
    budget_eur_per_month: float | None = Field(
        None, gt=0, description="a budget per month (renting is paid so), used when no total budget is given: "
        "compared as month x 12 x the amortisation period, the period every cost is compared over")
    machines: int = Field(1, ge=1, le=50, description="identical workstations bought together: one is sized (the "
                          "budget given is each one's), the answer prices them all")
    machines_assumed: bool = Field(False, description="the count of workstations was not said: one per person "
                                   "counted, the budget being said per seat (stated, for the reader to correct)")
    budget_usd: float | None = Field(None, gt=0, description="a budget said in US dollars, used when no euro budget "
                                     "is given: converted at the catalogue's eur_per_usd")
    budget_usd_per_month: float | None = Field(None, gt=0, description="a monthly budget in US dollars, likewise")
    headroom: float = Field(0.10, ge=0, lt=1, description="generic engine: share of each GPU kept free")
    units: list[UnitKind] = Field(default_factory=list, description="unit kinds in scope; empty = all")
    deployment: str | None = Field(None, description="the deployment answer the scope came from")
    needs_graphics: bool = Field(False, description="the machine also does rendering or CAD")
    ecc_required: bool = False
    ecc_assumed: bool = Field(False, description="ECC is a default nobody stated (a production service is assumed to "
                              "want it): a card rejected for it says so, for the customer to confirm or lift")
    power_limit_w: float | None = Field(None, gt=0)
    rack_units: int | None = Field(None, ge=1)
    gpu_preference: str | None = Field(None, description="catalogue GPU id the customer asked for")
    planned_gpus: int | None = Field(None, ge=1)
    engine: Literal["vllm", "generic"] = Field("vllm", description="serving engine (vLLM's own accounting)")
    practitioner_defaults: bool = Field(True, description="run the job as practitioners do (stated as such)")
    search: bool = Field(True, description="turn the expert's knobs when the stated workload fits nowhere")
    batch_assumed: bool = Field(False, description="vision training: the batch per GPU was assumed, not said: each "
                                "card trains at the largest batch it holds (halving from the default), as "
                                "Ultralytics' AutoBatch (batch=-1) does")
    precision_assumed: bool = Field(False, description="the weight format was assumed, not said: a cheaper plan in "
                                    "FP8 weights is named beside the plan (never chosen for the customer)")
    precisions: list[str] = Field(default_factory=list,
                                  description="alternative weight formats to evaluate too (bf16, fp8, awq ...)")
    dataset_bytes: int | None = Field(None, ge=0, description="training: dataset size, for tokens per epoch")
    dataset_tokens: int | None = Field(None, ge=1, description="training: the dataset counted in tokens (an epoch "
                                       "is timed on them as stated; wins over dataset_bytes)")
    checkpoint_interval_min: float | None = Field(None, gt=0, description="training: minutes between checkpoints")
    catalog: Path | None = None
    offer_ids: list[str] = Field(default_factory=list, description="only these offers (all when empty)")
    serve_after: ServeAfter | None = Field(
        None, description="training: the fine-tuned model is then served at this load (RecommendResult."
        "serving_after): the training's configuration is checked for it, and what serves it is named")
    stacks: list[Stack] = Field(
        default_factory=lambda: list(DEFAULT_STACKS),  # type: ignore[arg-type]
        min_length=1, description="software stacks the team can run: cuda, rocm, xla (Google TPU), neuron (AWS "
        "Trainium). TPUs and Trainium are rented only and run their own engines: in scope when named here, when "
        "the GPU preference is one of them, or when their offers are listed in offer_ids")

    @field_validator("precisions")
    @classmethod
    def _known_precisions(cls, value: list[str]) -> list[str]:
        unknown = [p for p in value if p.lower() not in PRECISION_CHOICES]
        if unknown:
            raise ValueError(f"unknown weight format {unknown[0]!r} (allowed: {', '.join(PRECISION_CHOICES)})")
        return value

    @model_validator(mode="after")
    def _one_job(self) -> RecommendRequest:
        if (self.workload is None) == (self.vision is None):
            raise ValueError("workload or vision: give exactly one (a language-model job or a vision job)")
        return self


# -- enumeration -----------------------------------------------------------------------------------------

def accepted_stacks(catalog: Catalog, request: RecommendRequest) -> list[str]:
    """The stacks asked for, plus the stack of a preferred chip (asking for a TPU accepts XLA)."""
    stacks: list[str] = list(request.stacks)
    known = {g.id for g in catalog.gpus}
    # a chip asked for or weighed ("TPU v6e or 8 H100?") brings its stack: the team is considering it
    for wanted in [request.gpu_preference, *(item.partition(":")[2] or item for item in request.compared)]:
        if wanted and wanted in known:
            stack = catalog.gpu(wanted).software_stack
            if stack not in stacks:
                stacks.append(stack)
    return stacks


def stack_offers(catalog: Catalog, request: RecommendRequest) -> list[Offer]:
    """Offers the request may use: those listed (taken as asked), else every offer whose chip runs a stack
    in scope. A team on CUDA or ROCm is never sent to a TPU or Trainium without asking: other engines."""
    if request.offer_ids:
        return [catalog.offer(i) for i in request.offer_ids]
    stacks = accepted_stacks(catalog, request)
    return [o for o in catalog.offers if catalog.gpu(o.gpu).software_stack in stacks]


def _configurations(offer: Offer, max_per_unit: int) -> list[tuple[int, int]]:
    """(GPUs, units) sold for this offer, smallest first: each unit size, then more units."""
    out = {(size * units, units) for size in offer.gpu_counts if size <= max_per_unit
           for units in range(1, offer.max_units + 1)}
    return sorted(out)


def _offer_plans(ctx: Context, offer: Offer, workload: EstimateRequest, knobs: list[Knob]) -> list[Plan]:
    """The smallest configuration of one offer that fits (or every one tried when none does: the last is
    the closest)."""
    catalog = ctx.catalog
    gpu, platform = catalog.gpu(offer.gpu), catalog.platform(offer.platform)
    tried: list[Plan] = []
    for num_gpus, units in _configurations(offer, platform.max_gpus.value):
        best: Plan | None = None
        for tp, pp in splits(num_gpus, num_gpus // units, gpu, ctx.spec):
            plan = evaluate(ctx, offer, gpu, platform, num_gpus, units, tp, pp, workload, knobs)
            best = plan
            if plan.fits:
                return [_as_planned(ctx, offer, plan, workload, knobs)]
            if plan.memory is not None and not any(r.id in _MEMORY_REASONS for r in plan.reasons):
                break  # memory holds: a wider split changes nothing for SLA, graphics or ECC reasons
        if best is not None:
            tried.append(best)
        if best is not None and best.reasons and all(r.id in _HARD_REASONS for r in best.reasons):
            break  # more GPUs of the same card cannot fix graphics, ECC or a missing precision unit
    return tried[-1:]


_MEMORY_REASONS = {"reason.memory", "reason.vllm_no_room", "reason.vllm_weights", "reason.split",
                   "reason.kv_concurrency", "reason.sla_concurrency", "reason.sla_impossible"}
_HARD_REASONS = {"reason.graphics", "reason.ecc", "reason.ecc_assumed", "reason.precision_unit", "reason.power",
                 "reason.rack_units", "reason.weight_format"}


def _smaller_micro_batches(stated: EstimateRequest) -> list[tuple[Knob, EstimateRequest]]:
    """The stated micro-batch halved down to 1, each with the gradient accumulation that keeps the global batch."""
    out = []
    batch = stated.batch_size
    while batch > 1:
        batch //= 2
        steps = stated.gradient_accumulation_steps * stated.batch_size // batch
        out.append((knob("micro_batch_fit", False, batch=batch, steps=steps, stated=stated.batch_size),
                    stated.model_copy(update={"batch_size": batch, "gradient_accumulation_steps": steps})))
    return out


def _micro_batch_fitted(ctx: Context, offers: list[Offer], stated: EstimateRequest, defaults: list[Knob],
                        options: list[Plan]) -> list[Plan]:
    """A micro-batch nobody gave, chosen per card: each offer is tried at the halvings of the default with gradient
    accumulation keeping the global batch (the same training, a longer step), and keeps the one that needs fewer
    cards — as Hugging Face's Trainer `auto_find_batch_size` halves the batch until it fits (accelerate's
    `find_executable_batch_size`). A practitioner default said beside the plan, not a change to agree on: buying
    a second card because of a micro-batch the customer never chose is no expert's advice."""
    by_offer = {p.offer_id: p for p in options}
    for fit, smaller in _smaller_micro_batches(stated):
        for plan in _evaluate(ctx, offers, smaller, [*defaults, fit]):
            held = by_offer.get(plan.offer_id)
            if plan.fits and (held is None or not held.fits
                              or plan.parallelism.num_gpus < held.parallelism.num_gpus):
                by_offer[plan.offer_id] = plan
    return [by_offer.get(p.offer_id, p) for p in options]


def _paid_per_job(plan: Plan) -> bool:
    return plan.purchase.how == "rent" and plan.costs.paid_per_job and plan.costs.eur_per_job is not None


def _as_planned(ctx: Context, offer: Offer, plan: Plan, workload: EstimateRequest, knobs: list[Knob]) -> Plan:
    """A one-off job rented in the count the customer planned ("on loue 8 H100"): the hours of 8 cards cost what one
    card's eight times longer do (the data-parallel overhead aside), so the smallest fitting configuration is one
    card for a month at the same price; the count planned is the customer's to choose, and a rental keeps it when it
    holds the job. A purchase is not held to it: fewer cards bought is money saved (`note.planned_gpus_fewer`)."""
    planned = ctx.scope.planned_gpus
    if not planned or plan.parallelism.num_gpus >= planned or not _paid_per_job(plan):
        return plan
    gpu, platform = ctx.catalog.gpu(offer.gpu), ctx.catalog.platform(offer.platform)
    for num_gpus, units in _configurations(offer, platform.max_gpus.value):
        if num_gpus != planned:
            continue
        for tp, pp in splits(num_gpus, num_gpus // units, gpu, ctx.spec):
            wider = evaluate(ctx, offer, gpu, platform, num_gpus, units, tp, pp, workload, knobs)
            if wider.fits:
                return wider
    return plan


def _evaluate(ctx: Context, offers: Iterable[Offer], workload: EstimateRequest, knobs: list[Knob]) -> list[Plan]:
    out: list[Plan] = []
    for offer in offers:
        out += _offer_plans(ctx, offer, workload, knobs)
    return out


# -- ranking and choice ----------------------------------------------------------------------------------

def _cost(plan: Plan) -> float:
    """What the choice minimises: the cost over the amortisation period (TCO), unpriced last — except a rental
    for a one-off job, paid by the job's hours: a dearer hour that finishes 4 times sooner costs less."""
    if _paid_per_job(plan):
        assert plan.costs.eur_per_job is not None
        return plan.costs.eur_per_job
    return plan.costs.tco_eur if plan.costs.tco_eur is not None else math.inf


def _speed(plan: Plan) -> float:
    if plan.serving is not None:
        return plan.serving.sustained_output_tokens_per_s
    return plan.training.tokens_per_s if plan.training is not None else 0.0


def _rank_key(plan: Plan) -> tuple[int, int, float, int, float]:
    if plan.fits:
        quote = plan.purchase.how == "quote"
        # quotes among themselves: by the price of their cards, the one figure they have
        cost = (plan.purchase.cards_eur if plan.purchase.cards_eur is not None else math.inf) if quote else _cost(plan)
        return (0, 1 if quote else 0, cost, plan.parallelism.num_gpus, -_speed(plan))
    need = plan.memory.total_bytes / plan.memory.gpu_memory_bytes if plan.memory else math.inf
    # too slow for a deadline: how far over it counts as much as how far over the memory (564 h for 504 is
    # closer than 931 h)
    for reason in plan.reasons:
        hours, deadline = reason.params.get("hours"), reason.params.get("deadline")
        if reason.id == "reason.deadline" and isinstance(hours, int | float) and isinstance(deadline, int | float) \
                and deadline:
            need = max(need, hours / deadline)
        # so does how far over a power or rack limit, or under an image rate (1,050 W for 1,000 is closer than
        # 6,350 W; 138 images/s for 480 is closer than 74)
        wanted, limit = reason.params.get("need"), reason.params.get("limit")
        if reason.id in ("reason.power", "reason.rack_units") and isinstance(wanted, int | float) \
                and isinstance(limit, int | float) and limit:
            need = max(need, wanted / limit)
        got = reason.params.get("got")
        if reason.id == "reason.vision_rate" and isinstance(wanted, int | float) and isinstance(got, int | float) \
                and got:
            need = max(need, wanted / got)
    return (1, len(plan.reasons), need, plan.parallelism.num_gpus, 0.0)


def _best(plans: list[Plan]) -> Plan | None:
    return min(plans, key=_rank_key) if plans else None


def _in_scope(scope: Scope, plan: Plan | Offer) -> bool:
    return scope.allows(plan.purchase.unit if isinstance(plan, Plan) else plan.unit)


# The dearest priced configuration of the catalogue next to the price of its cards: ACD-009, 22,670 EUR
# (seed 002) for one RTX 5090 at its MSRP, USD 1,999 x 0.86 = 1,719 EUR (gpus.toml): 13.2 times its card.
# (ACD-006: 8.3x, ACD-014: 7.5x, ACD-009-2X: 5.4x, HGX-H100-8: 1.4x.) A server on quote whose cards, times
# that, still cost less than every priced plan is cheaper than all of them on the catalogue's own evidence.
QUOTE_HOST_BOUND = 13.2
# The same evidence said as money added to the cards, which is what a host is: HGX-H100-8, EUR 272,620
# (offers.toml), holds 8 H100 SXM at USD 25,000 each at least (gpus.toml `indicative_price`, the low end of the
# USD 25,000-30,000 reported) x 0.86 EUR/USD = EUR 172,000: its host, baseboard and margin cost EUR 100,620 at
# most — the dearest host of the catalogue (ACD-014: EUR 55,480 less one RTX PRO 6000 at USD 8,565 x 0.86 =
# EUR 48,114). A server on quote costs at most its cards plus that; for eight L40S (EUR 55,040) that is EUR
# 155,660 where the ratio alone says EUR 726,528. The lower of the two bounds is the one the evidence allows.
QUOTE_HOST_MAX_EUR = 272_620 - 8 * 25_000 * 0.86


def quote_price_bound(cards_eur: float) -> float:
    """The most a configuration on quote can cost on the catalogue's evidence: its cards and the dearest host."""
    return min(cards_eur * QUOTE_HOST_BOUND, cards_eur + QUOTE_HOST_MAX_EUR)


def _pool(plans: list[Plan], scope: Scope) -> list[Plan]:
    """Fitting plans in scope; priced ones when any is priced (a quote is not preferred to a price) — unless,
    with no budget or no priced plan within it, a plan on quote is surely cheaper than every priced one (a 2-card
    server on quote, not a EUR 3.4M rack). With a priced plan within budget the priced plans are weighed against
    it, and a quote whose cards fit under it is named beside them (`advice.worth_a_quote`)."""
    fitting = [p for p in plans if p.fits and _in_scope(scope, p)]
    priced = [p for p in fitting if p.purchase.how != "quote"]
    if not priced or (scope.budget_eur is not None and any(p.within_budget for p in priced)):
        return priced or fitting
    # no budget, or none of the priced plans within it (a 271 kEUR node for a 20 kEUR budget): a quote surely
    # cheaper than all of them is the plan, its cards weighed against the budget
    cheapest = min(_cost(p) for p in priced)
    cheaper = [p for p in fitting if p.purchase.how == "quote" and p.purchase.cards_eur is not None
               and quote_price_bound(p.purchase.cards_eur) < cheapest]
    return cheaper or priced


def _choice(pool: list[Plan], scope: Scope, prefer: str | None) -> tuple[Status, Plan | None]:
    """The plan and its status from the pool (`_pool`): the best within budget, the preferred accelerator first;
    else, when only servers on quote hold the load, the one whose cards cost least (its price, and so the budget
    verdict, stay open until the quote: the headline says where its cards stand); else the cheapest over budget."""
    within = _within(pool, scope)
    preferred = [p for p in (within or pool) if p.gpu_id == prefer] if prefer else []
    if within:
        return "recommended", _best(preferred) or _best(within)
    if pool and all(p.purchase.how == "quote" for p in pool):
        return "recommended", _best(preferred) or _best(pool)
    if pool:
        # over the budget, the plan is the one least over it: ranked by what the budget is compared with (the
        # purchase price), not by three years of energy on top — "the cheapest that does: EUR 7,591" beside a
        # EUR 7,160 option listed below would read as a mistake
        return "over_budget", min(pool, key=lambda p: (_budget_cost(p), _rank_key(p)))
    return "no_fit", None


def _budget_cost(plan: Plan) -> float:
    job = plan.costs.eur_per_job if plan.costs.paid_per_job else None
    cost = budget_cost(plan.purchase, plan.costs.tco_eur, job)
    return cost if cost is not None else math.inf


def _cheapest_priced(options: list[Plan], scope: Scope) -> Plan | None:
    """The cheapest fitting plan in scope with a price: what a plan on quote is weighed against."""
    return _best([o for o in options if o.fits and _in_scope(scope, o) and o.purchase.how != "quote"
                  and o.costs.tco_eur is not None])


def _within(plans: list[Plan], scope: Scope) -> list[Plan]:
    if scope.budget_eur is None:
        return plans
    return [p for p in plans if p.within_budget]


def _budget(scope: Scope, plan: Plan | None, years: float, scope_recurring: bool = False) -> BudgetVerdict:
    if scope.budget_eur is None:
        return BudgetVerdict(budget_eur=None, status="none")
    if plan is None:
        return BudgetVerdict(budget_eur=scope.budget_eur, status="none")
    job = None if scope_recurring else plan.costs.eur_per_job
    cost = budget_cost(plan.purchase, plan.costs.tco_eur, job)
    basis: Literal["purchase", "rental_over_period", "rental_for_job"] = "purchase" if plan.purchase.how == "buy" else (
        "rental_for_job" if job is not None else "rental_over_period")
    if cost is None:
        return BudgetVerdict(budget_eur=scope.budget_eur, basis=basis, status="none")
    over = cost > scope.budget_eur
    return BudgetVerdict(budget_eur=scope.budget_eur, basis=basis, cost_eur=cost,
                         period_years=years if basis == "rental_over_period" else None,
                         job_hours=plan.costs.job_hours if basis == "rental_for_job" else None,
                         gap_eur=cost - scope.budget_eur if over else None, status="over" if over else "within")


# -- changes that bring a plan within budget ------------------------------------------------------------

def _budget_changes(ctx: Context, offers: list[Offer], stated: EstimateRequest, defaults: list[Knob],
                    options: list[Plan], chosen: Plan | None = None) -> list[Change]:
    """Each workload change alone (then together) that gives an in-scope priced plan within budget. When none
    does, the change whose plan comes closest to the budget, if it costs less than `chosen` (the stated load's
    cheapest plan): an expert says how near the budget a change gets, not only that nothing fits."""
    scope = ctx.scope
    changes: list[Change] = []
    closest: Change | None = None
    seen: set[tuple[str, ...]] = set()
    for knobs, workload in [*single(stated), *cumulative(stated)]:
        codes = tuple(k.code for k in knobs)
        if codes in seen or (len(codes) > 1 and changes):
            continue  # a change that works alone is enough: no need to pile others on it
        seen.add(codes)
        plans = _evaluate(ctx, offers, workload, [*defaults, *knobs])
        pool = _pool(plans, scope)
        best = _best(_within(pool, scope))
        if best is not None and best.purchase.how != "quote":
            changes.append(Change(knobs=knobs, plan=best))
            if len(knobs) > 1:
                break  # the cumulative ladder reached the budget: stop there
        # how near the budget a change gets is weighed on what the budget is compared with (`_choice`)
        near = min([p for p in pool if p.purchase.how != "quote"], key=lambda p: (_budget_cost(p), _rank_key(p)),
                   default=None)
        if near is not None and (closest is None or (_budget_cost(near), len(knobs)) < (_budget_cost(closest.plan),
                                                                                       len(closest.knobs))):
            closest = Change(knobs=knobs, plan=near)
    if stated.mode == "inference":
        fewer = _fewer_users(ctx, options, stated, defaults, within_budget=True)
        if fewer is not None:
            changes.append(fewer)
    if not changes and closest is not None and (chosen is None or _budget_cost(closest.plan) < _budget_cost(chosen)):
        changes.append(closest)
    changes.sort(key=lambda c: (len(c.knobs), _cost(c.plan)))
    return changes[:MAX_CHANGES]


def _slower_within_budget(ctx: Context, offers: list[Offer], stated: EstimateRequest,
                          defaults: list[Knob]) -> Change | None:
    """A serving load whose latency target only configurations over the budget meet: the configuration within
    the budget that answers fastest at the stated load (memory holds it; the target is left aside), with the
    latency it gives. A priced plan within the budget, or a server on quote whose cards alone cost less than the
    budget (its price to confirm). An expert names what the budget buys, not only that the target costs more."""
    # (replace keeps the same estimate cache: the memory of a configuration does not depend on the latency target)
    free = replace(ctx, slo_ttft_ms=None, slo_tpot_ms=None, ttft_floor_over_prefill=False)
    plans = _evaluate(free, offers, stated, defaults)
    ctx.evaluated += free.evaluated
    budget = ctx.scope.budget_eur
    assert budget is not None

    def affordable(p: Plan) -> bool:
        if p.purchase.how == "quote":
            return p.purchase.cards_eur is not None and p.purchase.cards_eur < budget
        return bool(p.within_budget)

    fits = [p for p in plans if p.fits and p.serving is not None and _in_scope(ctx.scope, p) and affordable(p)]
    if not fits:
        return None

    def answer_ms(p: Plan) -> float:  # what one user waits for a whole answer at the stated load
        s = p.serving
        assert s is not None
        return s.ttft_ms + max(stated.output_len - 1, 0) * s.tpot_ms

    best = min(fits, key=lambda p: (answer_ms(p), p.purchase.how == "quote", _rank_key(p)))
    s = best.serving
    assert s is not None
    best.knobs.append(knob("slower_response", True, ttft=s.ttft_ms, tpot=s.tpot_ms, p=s.percentile,
                           target_ttft=ctx.slo_ttft_ms or 0.0, target_tpot=ctx.slo_tpot_ms or 0.0))
    return Change(knobs=[best.knobs[-1]], plan=best)


def _offload_change(ctx: Context, offers: list[Offer], stated: EstimateRequest, defaults: list[Knob],
                    chosen: Plan | None) -> Change | None:
    """The stated model and load with only the weights the card lacks kept in host RAM (vLLM
    --cpu-offload-gb): the cheapest in-scope plan, offered beside the chosen one with the speed it costs.
    None when it is not cheaper than the chosen plan, or nothing fits even so."""
    step = [s for s in single(stated) if s[0][0].code == "weights_offload"]
    if not step:
        return None
    knobs, workload = step[0]
    best = _best(_within(_pool(_evaluate(ctx, offers, workload, [*defaults, *knobs]), ctx.scope), ctx.scope))
    if best is None or best.purchase.how == "quote":
        return None
    if chosen is not None and _cost(chosen) <= _cost(best):
        return None
    return Change(knobs=knobs, plan=best)


def _fewer_users(ctx: Context, options: list[Plan], stated: EstimateRequest, defaults: list[Knob],
                 within_budget: bool) -> Change | None:
    """The largest load an in-scope plan holds when the stated one is too much: fewer concurrent users."""
    scope = ctx.scope
    candidates = []
    for plan in options:
        if not _in_scope(scope, plan) or plan.serving is None or plan.purchase.how == "quote":
            continue
        if within_budget and scope.budget_eur is not None and not plan.within_budget:
            continue
        holds = plan.serving.max_concurrency_under_slo if plan.serving.slo_ttft_ms or plan.serving.slo_tpot_ms \
            else plan.serving.max_concurrency_memory
        if holds and 1 <= holds < stated.concurrency and all(r.id in _LOAD_REASONS for r in plan.reasons):
            candidates.append((plan, holds))
    if not candidates:
        return None
    plan, holds = max(candidates, key=lambda c: (c[1], -_cost(c[0])))
    knob = fewer_users(holds, stated.concurrency)
    assert plan.request is not None  # a language-model plan
    workload = plan.request.model_copy(update={"concurrency": holds})
    offer = ctx.catalog.offer(plan.offer_id)
    gpu, platform = ctx.catalog.gpu(offer.gpu), ctx.catalog.platform(offer.platform)
    p = plan.parallelism
    again = evaluate(ctx, offer, gpu, platform, p.num_gpus, plan.purchase.units, p.tensor_parallel,
                     p.pipeline_parallel, workload, [*defaults, knob])
    return Change(knobs=[knob], plan=again) if again.fits else None


_LOAD_REASONS = {"reason.sla_concurrency", "reason.kv_concurrency"}


# -- verdicts, preference, headline ---------------------------------------------------------------------

def _verdicts(catalog: Catalog, options: list[Plan], scope: Scope, mode: str) -> list[OfferVerdict]:
    out = []
    for offer in catalog.offers:
        mine = [o for o in options if o.offer_id == offer.id and not any(k.changes_workload for k in o.knobs)]
        if not mine:
            continue
        best = _best(mine)
        assert best is not None
        p = best.parallelism
        if best.fits:
            reason = Msg(f"verdict.fits_{mode}", gpus=p.num_gpus, tp=p.tensor_parallel, pp=p.pipeline_parallel,
                         dp=p.data_parallel, per=p.tensor_parallel * p.pipeline_parallel,
                         precision=best.weight_precision, need=best.memory.load_bytes if best.memory else 0,
                         card=best.memory.gpu_memory_bytes if best.memory else 0)
        else:
            reason = Msg("verdict.cannot", why=best.reasons[0], gpus=p.num_gpus)
        out.append(OfferVerdict(offer_id=offer.id, name=offer.name, fits=best.fits, in_scope=_in_scope(scope, offer),
                                best_gpus=p.num_gpus, reason=reason))
    return out


def _preference(scope: Scope, catalog: Catalog, plan: Plan | None, options: list[Plan],
                cheapest: Plan | None = None, planned: Plan | None = None) -> Msg | None:
    """What became of the accelerator asked for. `cheapest`: the plan without the preference (the cheapest in
    scope and budget); when the preference costs more, the customer is told by how much, with which offer.
    `planned`: the preferred card in the count the customer planned ("a quote for 8 H100: oversized?"), sized as
    said, whose figures answer the question when it is not the plan."""
    wanted = scope.gpu_preference
    if not wanted:
        return None
    if wanted not in {g.id for g in catalog.gpus}:
        return Msg("preference.unknown", gpu=wanted)
    name = catalog.gpu(wanted).name
    if plan is not None and plan.gpu_id == wanted:
        if cheapest is not None and cheapest.gpu_id != wanted and _cost(cheapest) < _cost(plan):
            years = catalog.assumptions.amortisation_years.value
            if scope.budget_eur_per_month is not None:  # a budget said per month is answered per month
                months = years * 12
                return Msg("preference.honoured_dearer_monthly", gpu=name, cost=_cost(plan) / months,
                           cheaper=_config(cheapest), cheaper_cost=_cost(cheapest) / months,
                           cheaper_speed=cheapest.speed_short() or Msg("common.unknown"))
            if _paid_per_job(plan) and _paid_per_job(cheapest):  # a rented one-off job: its cost, not years
                return Msg("preference.honoured_dearer_job", gpu=name, cost=_cost(plan), cheaper=_config(cheapest),
                           cheaper_cost=_cost(cheapest),
                           cheaper_speed=cheapest.speed_short() or Msg("common.unknown"))
            return Msg("preference.honoured_dearer", gpu=name, cost=_cost(plan), cheaper=_config(cheapest),
                       cheaper_cost=_cost(cheapest), years=years,
                       cheaper_speed=cheapest.speed_short() or Msg("common.unknown"))
        return Msg("preference.honoured", gpu=name)
    theirs = [o for o in options if o.gpu_id == wanted and _in_scope(scope, o)]
    best = _best(theirs)
    if best is None:
        return Msg("preference.not_in_scope", gpu=name)
    if planned is not None and planned.gpu_id == wanted:
        count = planned.parallelism.num_gpus
        if planned.fits:
            key = "preference.dearer_planned" if planned.purchase.price_eur is not None \
                else "preference.dearer_planned_unpriced"
            return Msg(key, gpu=name, gpus=count, offer=planned.offer_id,
                       speed=planned.speed_short() or Msg("common.unknown"), price=planned.purchase.price_eur or 0.0)
        if planned.reasons and not best.fits:
            return Msg("preference.planned_does_not_fit", gpu=name, gpus=count, why=planned.reasons[0])
    if best.fits:
        return Msg("preference.dearer", gpu=name, offer=best.offer_id)
    return Msg("preference.does_not_fit", gpu=name, why=best.reasons[0])


def _headline(status: Status, plan: Plan | None, budget: BudgetVerdict, changes: list[Change],
              closest: Plan | None, scope: Scope, alternatives: list[Plan], priced: Plan | None = None) -> Msg:
    """`priced`: the cheapest plan in scope with a price, to say why a plan on quote was chosen over it."""
    if plan is None:
        why = closest.reasons[0] if closest and closest.reasons else Msg("reason.none")
        outside = next((a for a in alternatives if not scope.allows(a.purchase.unit)), None)
        if closest is not None and outside is not None and scope.deployment:
            return Msg("headline.no_fit_scope", scope=Msg(f"scope.{scope.deployment}"), closest=_config(closest),
                       why=why, outside=_config(outside))
        return Msg("headline.no_fit", why=why)
    what = _config(plan)
    cards = plan.purchase.cards_eur
    if plan.purchase.how == "quote" and status == "recommended":
        if priced is not None and cards is not None and scope.budget_eur is not None:
            # priced plans hold the load, over the budget; the quote's cards are weighed against it
            key = "headline.quote_priced_over_cards_under" if cards < scope.budget_eur \
                else "headline.quote_priced_over_cards_over"
            return Msg(key, what=what, cards=cards, budget=scope.budget_eur, priced=_config(priced),
                       cost=budget_cost(priced.purchase, priced.costs.tco_eur))
        if priced is not None and cards is not None:
            return Msg("headline.quote_cheaper", what=what, cards=cards, priced=_config(priced),
                       cost=priced.costs.tco_eur)
        if scope.budget_eur is not None and cards is not None:
            key = "headline.quote_cards_under" if cards < scope.budget_eur else "headline.quote_cards_over"
            return Msg(key, what=what, cards=cards, budget=scope.budget_eur)
        return Msg("headline.quote", what=what)
    # a budget said per month is answered per month: the period's totals divided back
    months = (budget.budget_eur / scope.budget_eur_per_month) if scope.budget_eur_per_month and budget.budget_eur \
        else None

    def per(value: float | None) -> float | None:
        return value / months if months and value is not None else value

    job = budget.basis == "rental_for_job"  # a one-off batch job rented: its cost is the job's
    if status == "over_budget":
        if any(c.plan.within_budget for c in changes):
            key = "headline.over_budget_changes_monthly" if months else "headline.over_budget_changes"
        else:
            key = "headline.over_budget_monthly" if months else "headline.over_budget_job" if job else (
                "headline.over_budget")
        return Msg(key, budget=per(budget.budget_eur), what=what, cost=per(budget.cost_eur), gap=per(budget.gap_eur))
    if budget.status == "within":
        key = "headline.within_budget_monthly" if months else "headline.within_budget_job" if job else (
            "headline.within_budget")
        return Msg(key, what=what, cost=per(budget.cost_eur), budget=per(budget.budget_eur))
    return Msg("headline.recommended", what=what)


def _config(plan: Plan) -> Msg:
    return Msg(f"config.{plan.purchase.unit}", units=plan.purchase.units, gpus=plan.parallelism.num_gpus,
               gpu=plan.gpu_name, offer=plan.offer_id, name=plan.offer_name)


def in_euros(request: RecommendRequest, catalog: Catalog) -> RecommendRequest:
    """A budget said in dollars, in euros at the catalogue's rate, where no euro budget was given."""
    rate = catalog.assumptions.eur_per_usd.value
    update: dict[str, float] = {}
    if request.budget_eur is None and request.budget_eur_per_month is None:
        if request.budget_usd is not None:
            update["budget_eur"] = round(request.budget_usd * rate, 2)
        elif request.budget_usd_per_month is not None:
            update["budget_eur_per_month"] = round(request.budget_usd_per_month * rate, 2)
    return request.model_copy(update=update) if update else request


def _assumptions(request: RecommendRequest, catalog: Catalog, mode: str) -> list[Msg]:
    a = catalog.assumptions
    out = [
        Msg("assume.cost_model", years=a.amortisation_years.value, utilisation=a.utilisation.value,
            eur_per_kwh=a.energy_eur_per_kwh.value, pue=a.pue.value),
        Msg("assume.usd", rate=a.eur_per_usd.value),
        Msg("assume.memory_adds_up"),
    ]
    if mode == "inference":
        vllm = request.engine == "vllm" and request.workload is not None
        out.append(Msg("assume.headroom_vllm", utilization=request.workload.gpu_memory_utilization)
                   if vllm and request.workload is not None else Msg("assume.headroom", headroom=request.headroom))
        out.append(Msg("assume.operating_point"))
    else:
        out.append(Msg("assume.headroom", headroom=request.headroom))
        if request.dataset_tokens is None and request.vision is None:  # said in tokens (or images): no conversion
            out.append(Msg("assume.bytes_per_token"))
    dollars = request.budget_usd if request.budget_usd is not None else request.budget_usd_per_month
    if dollars is not None and (request.budget_eur == round(dollars * a.eur_per_usd.value, 2)
                                or request.budget_eur_per_month == round(dollars * a.eur_per_usd.value, 2)):
        out.append(Msg("assume.budget_usd", usd=dollars, rate=a.eur_per_usd.value,
                       eur=round(dollars * a.eur_per_usd.value, 2)))
    if request.budget_eur is None and request.budget_eur_per_month is not None:
        out.append(Msg("assume.budget_per_month", month=request.budget_eur_per_month, years=a.amortisation_years.value,
                       total=total_budget(request, catalog)))
    elif request.budget_eur is not None:
        out.append(Msg("assume.budget_job" if request.training_one_off and mode != "inference"
                       else "assume.budget_period", years=a.amortisation_years.value))
    if request.machines_assumed and request.machines > 1:
        out.append(Msg("assume.one_seat_each", n=request.machines))
    if request.training_one_off and mode != "inference":
        # said or inferred (a rented training with no schedule, a pre-training): the reader can correct it
        out.append(Msg("assume.one_run", epochs=request.epochs, years=a.amortisation_years.value))
    return out


def scope_of(request: RecommendRequest, catalog: Catalog, stacks: list[str] | None = None) -> Scope:
    """What the customer's answers allow, for the language-model and the vision recommendation alike."""
    extra = {"stacks": stacks} if stacks is not None else {}
    return Scope(units=list(request.units), deployment=request.deployment, budget_eur=total_budget(request, catalog),
                 budget_eur_per_month=request.budget_eur_per_month if request.budget_eur is None else None,
                 cloud_excluded=request.cloud_excluded, ecc_required=request.ecc_required,
                 ecc_assumed=request.ecc_required and request.ecc_assumed, needs_graphics=request.needs_graphics,
                 power_limit_w=request.power_limit_w,
                 rack_units=request.rack_units, gpu_preference=request.gpu_preference,
                 planned_gpus=request.planned_gpus, **extra)


def total_budget(request: RecommendRequest, catalog: Catalog) -> float | None:
    """The budget every plan is weighed against: the total given, else the monthly budget over the period."""
    if request.budget_eur is not None or request.budget_eur_per_month is None:
        return request.budget_eur
    return request.budget_eur_per_month * 12 * catalog.assumptions.amortisation_years.value


# -- entry point ----------------------------------------------------------------------------------------

def recommend(request: RecommendRequest, model: ModelSpec | None = None) -> RecommendResult:
    """Rank the catalogue configurations for a language-model or vision job (memory fit, throughput and
    latency at the load, cost per token or per image) and say why each rejected configuration fails: the
    plan, its alternatives, the budget verdict and every option evaluated. Call it after estimate_memory."""
    request = in_euros(request, load_catalog(request.catalog))
    if request.vision is not None:
        from sizer_agent.tools.recommend_vision import recommend_vision

        return recommend_vision(request)
    assert request.workload is not None
    catalog = load_catalog(request.catalog)
    _check_compared(request, catalog)
    spec = model or load_model(request.workload.model, request.workload.revision)
    # A bad workload (unknown dtype, impossible lengths) is the caller's error, not "no configuration fits":
    # the search below reads an estimate's InputError as "this split cannot run this model".
    estimate(request.workload.model_copy(update={"engine": "generic"}), spec)
    scope = scope_of(request, catalog, stacks=accepted_stacks(catalog, request))
    ttft, tpot = request.slo_ttft_ms, request.slo_tpot_ms
    if ttft is not None and "ttft" in request.slo_assumed:
        ttft *= ASSUMED_TTFT_FACTOR
    if tpot is not None and "tpot" in request.slo_assumed:
        tpot *= ASSUMED_TPOT_FACTOR
    ctx = Context(catalog=catalog, spec=spec, scope=scope, slo_ttft_ms=ttft,
                  ttft_floor_over_prefill="ttft" in request.slo_assumed,
                  slo_tpot_ms=tpot, percentile=request.percentile, headroom=request.headroom,
                  dataset_bytes=request.dataset_bytes, dataset_tokens=request.dataset_tokens,
                  checkpoint_interval_min=request.checkpoint_interval_min,
                  job_requests=request.job_requests if request.workload.mode == "inference" else None,
                  job_recurring=request.job_recurring, deadline_hours=request.deadline_hours,
                  training_one_off=request.training_one_off, epochs=request.epochs,
                  job_runs_per_year=request.job_runs_per_year if request.job_recurring else None)
    offers = stack_offers(catalog, request)
    scoped = [o for o in offers if _in_scope(scope, o)]
    if request.practitioner_defaults:
        stated, defaults = practitioner_defaults(request.workload, request.engine)
    else:
        stated, defaults = request.workload, []
    options = _evaluate(ctx, offers, stated, defaults)
    if request.batch_assumed and stated.mode == "training":
        options = _micro_batch_fitted(ctx, offers, stated, defaults, options)
    for precision in request.precisions:
        options += _evaluate(ctx, offers, _with_precision(stated, precision), defaults)

    pool = _pool(options, scope)
    stated_fits = bool(pool)
    if not pool and request.search:
        for knobs, workload in cumulative(stated):
            extra = _evaluate(ctx, scoped, workload, [*defaults, *knobs])
            options += extra
            pool = _pool(extra, scope)
            if pool:
                break

    within = _within(pool, scope)
    # cards the customer already owns are checked as they are (`owned`), not wished for: what would hold the load
    # beyond them is the cheapest plan, whatever its accelerator ("we own 2 H100" is no order for 16 more)
    status, plan = _choice(pool, scope, scope.gpu_preference if not request.owned_gpus else None)
    changes: list[Change] = []
    # a server on quote whose cards alone pass the budget is over it too: the changes that fit it are weighed
    quote_over = (status == "recommended" and plan is not None and plan.purchase.how == "quote"
                  and scope.budget_eur is not None and plan.purchase.cards_eur is not None
                  and plan.purchase.cards_eur > scope.budget_eur)
    if status == "over_budget" or quote_over:
        if request.search:
            changes = _budget_changes(ctx, scoped, stated, defaults, options, chosen=plan)
    elif status == "no_fit":
        if request.search:
            # what an expert offers when nothing in scope holds the load as stated: the workload changes
            # that make it fit (FP8 weights, LoRA...), within the budget when one was given
            changes = _budget_changes(ctx, scoped, stated, defaults, options)
        if request.search and stated.mode == "inference" and not changes:
            # the load the best in-scope machine holds is a change to agree on, not a plan to sign
            fewer = _fewer_users(ctx, options, stated, defaults, within_budget=False)
            changes = [fewer] if fewer is not None else []
    if request.search and stated.mode == "inference" and ctx.job_requests is None and scope.budget_eur is not None \
            and (status in ("over_budget", "no_fit") or quote_over) and (ctx.slo_ttft_ms or ctx.slo_tpot_ms):
        # the budget binds because of the latency target: what the budget buys, and how fast it answers
        slower = _slower_within_budget(ctx, scoped, stated, defaults)
        if slower is not None:
            changes = [*changes, slower][:MAX_CHANGES + 1]
    if not stated_fits and request.search and stated.mode == "inference":
        offload = _offload_change(ctx, scoped, stated, defaults, plan)
        if offload is not None:
            changes.append(offload)
    years = catalog.assumptions.amortisation_years.value
    budget = _budget(scope, plan, years, request.job_recurring)
    if plan is not None and plan.serving is not None:
        _set_targets(request, plan.serving)
        if request.slo_assumed:
            plan.knobs.append(_assumed_target(request, plan))
    if plan is not None and (planned_note := plan.planned_gpus_note(scope.planned_gpus)) is not None:
        plan.notes.append(planned_note)
    options.sort(key=_rank_key)
    if request.owned_config:
        owned = _named(ctx, catalog, scope, request.owned_config, stated, defaults, as_sold=False)
    else:
        owned = _owned(ctx, catalog, scope, stated, defaults) if request.owned_gpus else None
    if owned is not None and owned.serving is not None:  # its acceptance limits say whose target they are
        _set_targets(request, owned.serving)
    compared = [p for p in (_named(ctx, catalog, scope, item, stated, defaults) if ":" in item
                            else _fewest(ctx, catalog, item, stated, defaults, options)
                            for item in request.compared) if p]
    compared_fp8 = _compared_in_fp8(ctx, catalog, scope, stated, defaults, request, compared)
    alternatives = _alternatives(options, plan, scope, request.job_recurring)
    closest = None if plan is not None else _best([o for o in options if _in_scope(scope, o)] or options)
    mode = request.workload.mode
    # (cards already owned that hold the load need nothing bought: no cheaper purchase is offered beside them)
    owned_fp8 = _owned_in_fp8(ctx, catalog, scope, stated, defaults, owned, request)
    owned_change = _owned_changed(ctx, catalog, scope, stated, defaults, owned, request) \
        if owned_fp8 is None and request.search else None
    preferred = _preferred_changed(ctx, scoped, stated, defaults, plan, scope, request) \
        if request.search and not request.owned_gpus else None
    cheaper = _cheaper_in_fp8(ctx, scoped, stated, defaults, plan, scope, request) \
        if status == "recommended" and not (owned is not None and owned.fits) and owned_fp8 is None else None
    return RecommendResult(
        model=spec.name, params_total=spec.params_total, params_active=spec.params_active, mode=mode,
        status=status, recommended=plan.offer_id if plan else None, plan=plan,
        headline=_headline(status, plan, budget, changes, closest, scope, alternatives,
                           priced=_cheapest_priced(options, scope)),
        budget=budget, scope=scope,
        alternatives=alternatives, changes=changes,
        preference=None if request.owned_gpus else _preference(
            scope, catalog, plan, options, cheapest=_best(within),
            planned=_planned(ctx, catalog, scope, plan, stated, defaults)),
        owned=owned, owned_fp8=owned_fp8, owned_change=owned_change, preference_change=preferred,
        compared=compared, compared_fp8=compared_fp8, cheaper_precision=cheaper,
        faster=_faster(ctx, plan) if request.search else None,
        deadline_hours=request.deadline_hours,
        with_margin=_with_margin(ctx, plan, options) if request.search else None,
        machines=request.machines,
        options=options, offers=_verdicts(catalog, options, scope, mode),
        assumptions=_assumptions(request, catalog, mode), evaluated=ctx.evaluated,
        serving_after=_serving_after(request, plan),
    )


SERVER_WINDOW = 4096  # a server's context when none is said (the interview's default, vLLM configs' usual)
# a request's lengths when none is said: the estimate's own defaults
SERVED_INPUT = EstimateRequest.model_fields["input_len"].default
SERVED_OUTPUT = EstimateRequest.model_fields["output_len"].default


def _serving_after(request: RecommendRequest, trained_on: Plan | None) -> ServingAfter | None:
    """The serving that follows a fine-tune, sized as its own recommendation in the same scope: the training's
    cards (bought, not rented) checked at the serving load as cards the customer then owns, and the cheapest
    configuration that serves it. No budget is passed: the training's plan already spends it, and the document
    says what serving adds."""
    after, job = request.serve_after, request.workload
    if after is None or job is None or job.mode != "training":
        return None
    input_len, output_len = after.input_len or SERVED_INPUT, after.output_len or SERVED_OUTPUT
    workload = EstimateRequest(model=job.model, revision=job.revision, mode="inference", dtype=after.dtype,
                               quantization=after.quantization, input_len=input_len, output_len=output_len,
                               max_model_len=after.max_model_len or max(SERVER_WINDOW, input_len + output_len),
                               concurrency=after.concurrency)
    bought = trained_on is not None and trained_on.purchase.how != "rent"
    serving = RecommendRequest(
        workload=workload, slo_ttft_ms=after.slo_ttft_ms, slo_tpot_ms=after.slo_tpot_ms,
        slo_assumed=after.slo_assumed, percentile=request.percentile, cloud_excluded=request.cloud_excluded,
        owned_config=f"{trained_on.parallelism.num_gpus}:{trained_on.gpu_id}" if bought and trained_on else None,
        units=request.units, deployment=request.deployment, needs_graphics=request.needs_graphics,
        ecc_required=request.ecc_required, ecc_assumed=request.ecc_assumed, power_limit_w=request.power_limit_w,
        rack_units=request.rack_units, engine="vllm", catalog=request.catalog, offer_ids=request.offer_ids,
        stacks=request.stacks)
    sized = recommend(serving)
    return ServingAfter(status=sized.status, owned=sized.owned, plan=sized.plan, headline=sized.headline,
                        people=after.people, concurrency_assumed=after.concurrency_assumed)


def _set_targets(request: RecommendRequest, serving: ServingPerf) -> None:
    """The latency target a serving plan is read against: the customer's, or the default nobody stated."""
    serving.target_ttft_ms, serving.target_tpot_ms = request.slo_ttft_ms, request.slo_tpot_ms
    serving.target_assumed = list(request.slo_assumed)


def _assumed_target(request: RecommendRequest, plan: Plan) -> Knob:
    """How the plan compares with the default latency target nobody stated."""
    s = plan.serving
    assert s is not None
    meets = (request.slo_ttft_ms is None or s.ttft_ms <= request.slo_ttft_ms) and (
        request.slo_tpot_ms is None or s.tpot_ms <= request.slo_tpot_ms)
    missing = set(request.slo_assumed)
    what = Msg("target.none" if missing >= {"ttft", "tpot"} else f"target.{next(iter(missing))}")
    base = request.slo_ttft_ms * ASSUMED_TTFT_FACTOR if request.slo_ttft_ms and "ttft" in missing else None
    # a floor counted over the prompt's own prefill differs from one configuration to the next: said as such, or
    # an option answering in 3.4 s reads as missing a 2.9 s limit it was never held to
    over_prefill = not meets and base is not None and s.slo_ttft_ms is not None and s.slo_ttft_ms > base
    return knob("assumed_slo_met" if meets else "assumed_slo_floor_prefill" if over_prefill else "assumed_slo_floor",
                False, what=what, ttft=request.slo_ttft_ms, tpot=request.slo_tpot_ms, got_ttft=s.ttft_ms,
                got_tpot=s.tpot_ms, p=s.percentile, floor_ttft=s.slo_ttft_ms, floor_tpot=s.slo_tpot_ms,
                base=base, prefill=(s.slo_ttft_ms or 0.0) - (base or 0.0))


# An alternative named beside the plan costs at most this many times the larger of the budget and the plan's
# own cost: a product choice (what a buyer weighs), not an outside figure. Dearer ones stay in every table.
ALTERNATIVE_COST_FACTOR = 3.0


def _plan_cost(plan: Plan, recurring: bool = False) -> float | None:
    """What the budget weighs: a one-off job's rental by the job, anything else as `budget_cost` says."""
    return budget_cost(plan.purchase, plan.costs.tco_eur, None if recurring else plan.costs.eur_per_job)


def _alternative_ceiling(plan: Plan | None, scope: Scope, recurring: bool = False) -> float | None:
    basis = [c for c in (scope.budget_eur, _plan_cost(plan, recurring) if plan is not None else None) if c is not None]
    return ALTERNATIVE_COST_FACTOR * max(basis) if basis else None


def _planned(ctx: Context, catalog: Catalog, scope: Scope, plan: Plan | None, workload: EstimateRequest,
             knobs: list[Knob]) -> Plan | None:
    """The card asked for in the count planned ("on a reçu un devis pour 8 H100"), as sold, when the plan is
    another card: what the customer had in mind, sized, beside what the plan chose. None otherwise."""
    if not scope.planned_gpus or scope.gpu_preference is None or (plan is not None
                                                                   and plan.gpu_id == scope.gpu_preference):
        return None
    return _named(ctx, catalog, scope, f"{scope.planned_gpus}:{scope.gpu_preference}", workload, knobs)


def _owned(ctx: Context, catalog: Catalog, scope: Scope, workload: EstimateRequest, knobs: list[Knob]) -> Plan | None:
    """The customer's own cards as they are: the preferred GPU, as many as planned, nothing bought."""
    if not scope.planned_gpus or scope.gpu_preference is None:
        return None
    return _named(ctx, catalog, scope, f"{scope.planned_gpus}:{scope.gpu_preference}", workload, knobs, as_sold=False)


GENERIC_PCIE_PLATFORM = "srv-pcie-8"  # platforms.toml: a rack server for up to 8 PCIe cards
# an SXM card no offer sells (A100 SXM in an owned DGX A100): an 8-GPU HGX baseboard server; its host figures
# (CPU, RAM, storage) stand for the generation's, the GPUs and their NVLink are the card's own (gpus.toml)
GENERIC_SXM_PLATFORM = "hgx-h100-8"
NAMED_OFFER_PREFIX = "NAMED-"  # a configuration the customer named or owns, sold by no catalogue offer as such


def _named(ctx: Context, catalog: Catalog, scope: Scope, item: str, workload: EstimateRequest,
           knobs: list[Knob], as_sold: bool = True) -> Plan | None:
    """One configuration the customer named ("2:h100-sxm"), as sold in scope when an offer sells that many of
    that card (its price kept), else as a machine of the kind the deployment names, on quote. `as_sold`: False
    for cards already owned (nothing is bought: no offer's price)."""
    count_text, _, gpu_id = item.partition(":")
    if not count_text.isdigit() or gpu_id not in {g.id for g in catalog.gpus}:
        return None
    count = int(count_text)
    for offer in catalog.offers if as_sold else []:
        if offer.gpu != gpu_id or not _in_scope(scope, offer):
            continue
        most = catalog.platform(offer.platform).max_gpus.value
        sold = [(n, u) for n, u in _configurations(offer, most) if n == count]
        if sold:
            # the count said, as sold ("16 H100": two 8-GPU nodes), not the offer's smallest that holds the load
            return _exact(ctx, offer, count, sold[0][1], workload, knobs)
    # "1x H100" to buy: SXM cards are sold on HGX baseboards of 4 or 8 (NVIDIA HGX H100/H200 datasheets); fewer,
    # bought for a machine of one's own, is the PCIe card of the same chip, which offers price
    pcie = SXM_SOLD_AS_PCIE.get(gpu_id) if as_sold and not on_baseboards(count) else None
    if pcie is not None:
        return _named(ctx, catalog, scope, f"{count}:{pcie}", workload, knobs, as_sold)
    # the first offer of that card whose machine holds that many (eight H100 NVL do not go in a 2U server of four);
    # a card no offer sells in that number (H200 NVL): a PCIe card goes in the catalogue's generic PCIe server
    platform_id = owned_platform(catalog, count, gpu_id)
    if platform_id is None:
        # more cards than one machine holds ("64 H100 available in our cluster"): whole nodes of that card, each
        # as an offer of it holds, joined by the platform's scale-out fabric; sized as said, on all of them
        nodes = cluster_platform(catalog, count, gpu_id)
        if nodes is None:
            return None
        platform_id, units = nodes
        return _exact(ctx, named_offer(catalog, scope, count, gpu_id, platform_id, units), count, units, workload,
                      knobs)
    plans = _offer_plans(ctx, named_offer(catalog, scope, count, gpu_id, platform_id), workload, knobs)
    return plans[0] if plans else None


def _exact(ctx: Context, offer: Offer, count: int, units: int, workload: EstimateRequest,
           knobs: list[Knob]) -> Plan | None:
    """One configuration as said (`count` GPUs over `units` machines), its first split that fits, else the last
    tried — not the smallest configuration of the offer that would (`_offer_plans`)."""
    gpu, platform = ctx.catalog.gpu(offer.gpu), ctx.catalog.platform(offer.platform)
    best: Plan | None = None
    for tp, pp in splits(count, count // units, gpu, ctx.spec):
        best = evaluate(ctx, offer, gpu, platform, count, units, tp, pp, workload, knobs)
        if best.fits or (best.memory is not None and not any(r.id in _MEMORY_REASONS for r in best.reasons)):
            break
    return best


MAX_NODES = 1024  # the cluster tool's ceiling (tools.cluster: 4,096 chips of up to 8 per node, or fewer per rack)


def cluster_platform(catalog: Catalog, count: int, gpu_id: str) -> tuple[str, int] | None:
    """(platform, machines) for cards spread over several identical machines: the first offer of that card whose
    machine count divides them, else the catalogue's generic 8-GPU node or server."""
    form = catalog.gpu(gpu_id).form_factor
    candidates = [o.platform for o in catalog.offers if o.gpu == gpu_id] + (
        [GENERIC_SXM_PLATFORM] if form == "sxm" else [GENERIC_PCIE_PLATFORM] if form == "pcie" else [])
    for platform_id in candidates:
        per = catalog.platform(platform_id).max_gpus.value
        if per and count > per and count % per == 0 and count // per <= MAX_NODES:
            return platform_id, count // per
    return None


HGX_BASEBOARDS = (4, 8)  # SXM GPUs per HGX baseboard (NVIDIA HGX H100 / H200 4- and 8-GPU)


def on_baseboards(count: int) -> bool:
    """SXM cards in a count HGX baseboards hold: one board of 4 or 8, or whole 8-GPU boards ("16 H100": two nodes)."""
    return count in HGX_BASEBOARDS or count % HGX_BASEBOARDS[-1] == 0
SXM_SOLD_AS_PCIE = {"h100-sxm": "h100-pcie", "h200-sxm": "h200-nvl", "a100-80gb-sxm": "a100-80gb-pcie",
                    "a100-40gb-sxm": "a100-40gb-pcie"}  # the same chip on a PCIe card (gpus.toml)


def named_offer(catalog: Catalog, scope: Scope, count: int, gpu_id: str, platform_id: str, units: int = 1) -> Offer:
    """A machine of `count` cards the customer named or owns, sold by no offer as such: on quote, of the kind the
    deployment names (a workstation, else a server or, for SXM cards, a node); its cards at the price another
    offer quotes for that card, when one does. `units`: the cards spread over that many identical machines."""
    form = catalog.gpu(gpu_id).form_factor
    unit = "workstation" if scope.deployment == "workstation" else "node" if form == "sxm" else "server"
    priced = next((o for o in catalog.offers if o.gpu == gpu_id and (o.card_eur or o.card_usd)), None)
    return Offer(id=f"{NAMED_OFFER_PREFIX}{count}x-{gpu_id}", name=catalog.gpu(gpu_id).name, kind="quote",
                 platform=platform_id, gpu=gpu_id, unit=unit, gpu_counts=[count // units], max_units=units,
                 card_eur=priced.card_eur if priced else None, card_usd=priced.card_usd if priced else None,
                 price_date=priced.price_date if priced else None)


def owned_platform(catalog: Catalog, count: int, gpu_id: str) -> str | None:
    """The machine owned cards sit in: the first offer's of that card that holds that many, else the catalogue's
    generic PCIe server or 8-GPU SXM node."""
    sample = next((o for o in catalog.offers if o.gpu == gpu_id
                   and catalog.platform(o.platform).max_gpus.value >= count), None)
    form = catalog.gpu(gpu_id).form_factor
    platform_id = sample.platform if sample is not None else (
        GENERIC_PCIE_PLATFORM if form == "pcie" else GENERIC_SXM_PLATFORM if form == "sxm" else None)
    if platform_id is None or count > catalog.platform(platform_id).max_gpus.value:
        return None
    return platform_id


def _alternatives(options: list[Plan], plan: Plan | None, scope: Scope, recurring: bool = False) -> list[Plan]:
    """Other fitting offers (best configuration each), in scope first, then one outside the scope."""
    chosen = {plan.offer_id} if plan else set()
    out: list[Plan] = []
    outside: Plan | None = None
    quote: Plan | None = None
    ceiling = _alternative_ceiling(plan, scope, recurring)
    for option in options:  # already ranked
        if not option.fits or option.offer_id in chosen:
            continue
        chosen.add(option.offer_id)
        cost = _plan_cost(option, recurring)
        if ceiling is not None and cost is not None and cost > ceiling and _in_scope(scope, option):
            continue  # an 8-GPU node at eight times a law firm's budget is no alternative it weighs
        if not _in_scope(scope, option):
            if not (scope.cloud_excluded and option.purchase.unit == "cloud"):  # refused, not merely out of scope
                outside = outside or option
        elif option.purchase.how == "quote":
            quote = quote or option  # named as an option, never the recommendation while a priced one fits
        elif len(out) < MAX_ALTERNATIVES:
            out.append(option)
    return out + [p for p in (quote, outside) if p is not None]


def _owned_item(request: RecommendRequest, scope: Scope) -> str:
    """The owned cards as "count:gpu": those named apart, else the preferred GPU in the planned number."""
    return request.owned_config or f"{scope.planned_gpus}:{scope.gpu_preference}"


def _owned_in_fp8(ctx: Context, catalog: Catalog, scope: Scope, stated: EstimateRequest, defaults: list[Knob],
                  owned: Plan | None, request: RecommendRequest) -> Plan | None:
    """The customer's own cards, short of the load in an assumed 16-bit format, in FP8 weights: "your RTX 4090
    holds Qwen2.5 14B in FP8" is what an expert says before any purchase (quality to validate)."""
    if owned is None or owned.fits or not request.precision_assumed or stated.mode != "inference" \
            or not is_sixteen_bit(stated):
        return None
    mine = _named(ctx, catalog, scope, _owned_item(request, scope), _with_precision(stated, "fp8"), defaults,
                  as_sold=False)
    return mine if mine is not None and mine.fits else None


def _preferred_changed(ctx: Context, scoped: list[Offer], stated: EstimateRequest, defaults: list[Knob],
                       plan: Plan | None, scope: Scope, request: RecommendRequest) -> Change | None:
    """The GPU asked for ("could a single RTX 5090 run it?"), short of the load as stated: the first change of the
    expert's ladder with which an offer of that GPU in scope holds it ("in 4-bit weights, one 5090 does")."""
    wanted = scope.gpu_preference
    if not wanted or (plan is not None and plan.gpu_id == wanted):
        return None
    theirs = [o for o in scoped if o.gpu == wanted]
    if not theirs or any(p.fits for p in _evaluate(ctx, theirs, stated, defaults)):
        return None  # not sold in scope, or it holds the load as stated (only dearer): nothing to change
    first: Change | None = None
    for knobs, workload in [*single(stated), *cumulative(stated)]:
        pool = _pool(_evaluate(ctx, theirs, workload, [*defaults, *knobs]), scope)
        # "a single RTX 5090": the change that keeps to the cards planned comes first (4-bit on one, not FP8 on two)
        planned = [p for p in pool if not scope.planned_gpus or p.parallelism.num_gpus <= scope.planned_gpus]
        best = _best(planned)
        if best is not None:
            return Change(knobs=knobs, plan=best)
        first = first or (Change(knobs=knobs, plan=b) if (b := _best(pool)) is not None else None)
    return first


def _owned_changed(ctx: Context, catalog: Catalog, scope: Scope, stated: EstimateRequest, defaults: list[Knob],
                   owned: Plan | None, request: RecommendRequest) -> Change | None:
    """The customer's own cards short of the load: the first change of the expert's ladder, alone then piled up,
    with which they hold it ("on your 8 A100, a LoRA of the 70B fits"), before any purchase is weighed."""
    if owned is None or owned.fits:
        return None
    def slow_only(plan: Plan) -> bool:  # only a latency target nobody gave is missed
        return bool(plan.reasons) and bool(request.slo_assumed) and all(
            r.id.startswith("reason.sla_") for r in plan.reasons)

    if slow_only(owned) and owned.serving is not None:
        # the cards hold the load in memory and run it, a little slower than a default target: nothing to change
        # but the expectation, and the sentence says how fast ("your 4 A100 answer in 2.4 s at 60 at once")
        s = owned.serving
        said = knob("slower_response", True, ttft=s.ttft_ms, tpot=s.tpot_ms, p=s.percentile,
                    target_ttft=s.slo_ttft_ms or 0.0, target_tpot=s.slo_tpot_ms or 0.0)
        return Change(knobs=[said], plan=owned.model_copy(update={"knobs": [*owned.knobs, said]}))
    item = _owned_item(request, scope)
    offloaded: list[Change] = []
    late: list[Change] = []
    for knobs, workload in [*single(stated), *cumulative(stated)]:
        mine = _named(ctx, catalog, scope, item, workload, [*defaults, *knobs], as_sold=False)
        if mine is None:
            continue
        offload = any(k.code == "weights_offload" for k in knobs)
        if mine.fits and not offload:
            return Change(knobs=knobs, plan=mine)
        # with weights in host RAM a latency target nobody gave cannot hold: the cards still run the model, and
        # the sentence says at what speed ("your RTX 4090 runs the 70B at 1 token/s") — when weights do leave the
        # card: an offload of nothing is the stated plan under another name
        moved = mine.serving is not None and mine.serving.weight_offload_bytes_per_gpu > 0
        if offload and moved and (mine.fits or slow_only(mine)):
            offloaded.append(Change(knobs=knobs, plan=mine))
        # a training the change fits in memory but that ends after the date asked: how long it would take on them
        # is still the answer to "can our cards do it?" ("ZeRO-Offload on your 8 A100: 31 days, past the 14")
        if not late and mine.training is not None and mine.reasons and all(r.id == "reason.deadline"
                                                                             for r in mine.reasons):
            late.append(Change(knobs=knobs, plan=mine))
    # weights kept in host RAM cross the host link every token: the fewer bytes, the faster ("in 4-bit with 18 GiB
    # offloaded, 1 token/s" beats "in 16-bit with 113 GiB offloaded, 0.2")
    fastest = max(offloaded, key=lambda c: c.plan.serving.output_tokens_per_s if c.plan.serving else 0.0, default=None)
    return fastest or (late[0] if late else None)


def _cheaper_in_fp8(ctx: Context, scoped: list[Offer], stated: EstimateRequest, defaults: list[Knob],
                    plan: Plan | None, scope: Scope, request: RecommendRequest) -> Plan | None:
    """With the weight format assumed (16-bit), the cheapest priced plan in scope in FP8 weights, when it costs less
    than the plan: what an expert offers next ("in FP8, one RTX PRO 6000 holds it"), its quality to validate, never
    put in the plan's place for the customer."""
    if not request.precision_assumed or plan is None or stated.mode != "inference" or not is_sixteen_bit(stated):
        return None
    evaluated = _evaluate(ctx, scoped, _with_precision(stated, "fp8"), defaults)
    if plan.purchase.how == "quote" and plan.purchase.cards_eur is not None:
        # a server on quote: the FP8 server on quote whose cards cost less ("in FP8, four L40S — cards 27 k€ —
        # would hold it, where eight are needed in 16-bit")
        quotes = [p for p in evaluated if p.fits and _in_scope(scope, p) and p.purchase.how == "quote"
                  and p.purchase.cards_eur is not None and p.purchase.cards_eur < plan.purchase.cards_eur]
        return min(quotes, key=lambda p: p.purchase.cards_eur or 0.0, default=None)
    fp8 = [p for p in _pool(evaluated, scope) if p.purchase.how != "quote"]
    best = _best(_within(fp8, scope))
    if best is None:
        return None
    ours, theirs = _plan_cost(plan, request.job_recurring), _plan_cost(best, request.job_recurring)
    return best if ours is not None and theirs is not None and theirs < ours else None


# A training run longer than a month on the cheapest plan (a 7B pre-trained on 1T tokens on one MI300X: 3.2 years)
# is no plan a team signs as is: the job costs about the same on more GPUs of the same offer (data parallelism
# spreads the same tokens), so the offer's largest configuration is said beside it with its time and cost. A month
# is our product line: the horizon a team plans one run for, not a published figure.
LONG_TRAINING_HOURS = 730.0


def _faster(ctx: Context, plan: Plan | None) -> Plan | None:
    """The plan's offer at its largest configuration, for a training job longer than LONG_TRAINING_HOURS, when it
    fits and runs the job in half the time or less."""
    if plan is None or plan.training is None or plan.training.epoch_hours is None or plan.request is None:
        return None
    hours = plan.training.epoch_hours * plan.training.epochs
    if hours <= LONG_TRAINING_HOURS or plan.offer_id not in {o.id for o in ctx.catalog.offers}:
        return None
    offer = ctx.catalog.offer(plan.offer_id)
    gpu, platform = ctx.catalog.gpu(offer.gpu), ctx.catalog.platform(offer.platform)
    num_gpus, units = _configurations(offer, platform.max_gpus.value)[-1]
    if num_gpus <= plan.parallelism.num_gpus:
        return None
    knobs = [k for k in plan.knobs if k.code != "zero"]  # the split's own ZeRO is set again for the new count
    for tp, pp in splits(num_gpus, num_gpus // units, gpu, ctx.spec):
        wider = evaluate(ctx, offer, gpu, platform, num_gpus, units, tp, pp, plan.request, knobs)
        t = wider.training
        if wider.fits and t is not None and t.epoch_hours is not None:
            return wider if t.epoch_hours * t.epochs <= hours / 2 else None
    return None


# A job planned to end within four fifths of its deadline leaves a fifth for a rerun of a failed part or a run slower
# than estimated (the estimates' own error: 16.8 % median on held-out serving rows, docs/catalog.md); our product rule,
# not a published figure.
DEADLINE_MARGIN = 0.8


def job_hours(plan: Plan) -> float | None:
    """The hours of the whole job on a plan: a batch job's, or a training run's epochs."""
    if plan.costs.job_hours is not None:
        return plan.costs.job_hours
    run = plan.training or plan.vision
    return run.epoch_hours * run.epochs if run is not None and run.epoch_hours is not None else None


def _with_margin(ctx: Context, plan: Plan | None, options: list[Plan]) -> Plan | None:
    """A plan that meets its deadline with little to spare: the cheapest priced one in scope that ends within
    DEADLINE_MARGIN of it (in budget when one is), or None."""
    deadline = ctx.deadline_hours
    took = job_hours(plan) if plan is not None else None
    if deadline is None or took is None or took <= DEADLINE_MARGIN * deadline:
        return None
    safer = [p for p in options if p.fits and _in_scope(ctx.scope, p)
             and (hours := job_hours(p)) is not None and hours <= DEADLINE_MARGIN * deadline]
    # weighed as the plan itself is (`_pool`): a server on quote surely cheaper than every priced plan is the
    # safer choice too — not a EUR 270,900 node beside a 4-card server whose cards cost EUR 29,464
    pool = _pool(safer, ctx.scope)
    return _best(_within(pool, ctx.scope)) or _best(pool)


def _check_compared(request: RecommendRequest, catalog: Catalog) -> None:
    """A configuration weighed names a catalogue card (an unknown one would be silently left out of the answer)."""
    known = {g.id for g in catalog.gpus}
    for item in request.compared:
        count, _, gpu_id = item.rpartition(":")
        if gpu_id not in known or (count and not count.isdigit()):
            raise InputError("compared", f"{item!r} is not COUNT:GPU or GPU with a catalogue GPU id",
                             ", ".join(sorted(known)))


def _fewest(ctx: Context, catalog: Catalog, gpu_id: str, workload: EstimateRequest, knobs: list[Knob],
            options: list[Plan]) -> Plan | None:
    """A card weighed with no count said ("TPU v6e or 8 H100?"): its configuration that holds the load at the lowest
    cost, as an expert answers "how many would it take"; its offers are sized even outside the team's stacks or the
    scope (the customer named the card), and when none holds the load, the closest."""
    if gpu_id not in {g.id for g in catalog.gpus}:
        return None
    mine = [p for p in options if p.gpu_id == gpu_id]
    if not mine:
        mine = _evaluate(ctx, [o for o in catalog.offers if o.gpu == gpu_id], workload, knobs)
    return _best(mine)


def _compared_in_fp8(ctx: Context, catalog: Catalog, scope: Scope, stated: EstimateRequest, defaults: list[Knob],
                     request: RecommendRequest, compared: list[Plan]) -> list[Plan]:
    """"2 H100 NVL or 4 L40S?" with the format assumed: a weighed option short of the load in 16-bit is checked in
    FP8 weights too (as owned cards are, `_owned_in_fp8`), so the answer does not drop an option FP8 would keep."""
    if not request.precision_assumed or stated.mode != "inference" or not is_sixteen_bit(stated):
        return []
    out = []
    for option in compared:
        if option.fits:
            continue
        item = f"{option.parallelism.num_gpus}:{option.gpu_id}"
        fp8 = _named(ctx, catalog, scope, item, _with_precision(stated, "fp8"), defaults)
        if fp8 is not None and fp8.fits:
            out.append(fp8)
    return out


def _with_precision(workload: EstimateRequest, precision: str) -> EstimateRequest:
    name = precision.lower()
    if name in _DTYPE_CHOICES:
        return workload.model_copy(update={"dtype": name, "quantization": None})
    return workload.model_copy(update={"quantization": name})


# A training job with a deadline is sized on every power of two from one 8-GPU node to 4,096 chips (the cluster
# tool's range), so the count named is the smallest of that ladder that ends in time, not the next of 8/256/1,024.
DEADLINE_COUNTS = (8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)


def cluster_request(request: RecommendRequest, result: RecommendResult,
                    nodes: int | None = None) -> ClusterRequest | None:
    """The multi-node question a recommendation raises, for `size_cluster`: N nodes asked for (`nodes`), a
    planned GPU count above one 8-GPU node, or a serving load that nothing in scope holds. None otherwise.

    The load becomes a throughput target: `concurrency` requests decoding at the TPOT limit produce at most
    concurrency x 1000 / TPOT output tokens/s (an upper bound the cluster must reach)."""
    w = request.workload
    if w is None:
        return None
    # a training that must end by a date no configuration of the scope meets: how many chips would
    late = w.mode == "training" and result.status == "no_fit" and request.deadline_hours is not None and any(
        r.id == "reason.deadline" for o in result.options for r in o.reasons)
    asks = nodes is not None or (request.planned_gpus or 0) > 8 or (
        result.status == "no_fit" and w.mode == "inference") or late
    if not asks:
        return None
    catalog = load_catalog(request.catalog)
    offers = [o.id for o in stack_offers(catalog, request) if o.unit in ("node", "rack")]
    target = None
    if w.mode == "inference" and nodes is None and request.planned_gpus is None and request.slo_tpot_ms:
        target = w.concurrency * 1000.0 / request.slo_tpot_ms
    quantization = None if w.quantization in (None, "", "auto") else w.quantization
    if late:
        tokens = request.dataset_tokens or (int(request.dataset_bytes / BYTES_PER_TOKEN)
                                            if request.dataset_bytes else None)
        # data parallel at the stated micro-batch per GPU: the global batch grows with the chips (weak scaling),
        # as a pre-training scaled out keeps each GPU's batch
        return ClusterRequest(
            model=w.model, mode="training", offers=offers, global_batch=max(1, w.batch_size) * DEADLINE_COUNTS[0],
            batch_policy="per_chip", chip_counts=list(DEADLINE_COUNTS), seq_len=w.seq_len, lora=w.method != "full",
            precision="fp8" if w.dtype.lower() in ("fp8", "float8") else "bf16",
            checkpoint_interval_min=request.checkpoint_interval_min or 30.0,
            tokens=tokens * request.epochs if tokens else None, deadline_hours=request.deadline_hours,
            rented=request.deployment == "cloud" or set(request.units) == {"cloud"},
            catalog=None if request.catalog is None else str(request.catalog))
    return ClusterRequest(
        model=w.model, mode=w.mode, offers=offers, nodes=nodes,
        gpus=request.planned_gpus if nodes is None else None, input_len=w.input_len, output_len=w.output_len,
        slo_tpot_ms=request.slo_tpot_ms, slo_ttft_ms=request.slo_ttft_ms, target_tokens_per_s=target,
        quantization=quantization, global_batch=w.batch_size, seq_len=w.seq_len, lora=w.method != "full",
        catalog=None if request.catalog is None else str(request.catalog))
