"""The plan in words: the facts every front end states about a recommendation, in the reader's language.

The chat (agent), the app's results view and the proposal's summary all call `summary(result, lang)`, so
they say the same thing with the same numbers: the headline, the configuration and how it is bought, the
split, the memory per GPU, the speed at the stated load, the cost, the budget verdict, the knobs turned,
the GPU preference, and the workload changes that fit the budget. Numbers come from the typed plan
(`tools.plan`), formatted by the catalogue (`sizer_agent.i18n`); nothing is computed here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache, wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

from pydantic import BaseModel, ValidationError

from sizer_agent.i18n import Lang, MissingTranslation, Terms, device_terms, render
from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.perf.offload import DESKTOP_DDR5_GBS, offload_time
from sizer_agent.tools.plan import Change, Knob, Plan, RecommendResult
from sizer_agent.tools.recommend import NAMED_OFFER_PREFIX, job_hours

P = ParamSpec("P")
R = TypeVar("R")
# software stacks whose accelerator is a chip rented with its own engine, not a GPU card (tools.catalog.models)
_CHIP_STACKS = ("xla", "neuron")


@cache
def terms_of(gpu_id: str | None) -> Terms | None:
    """The accelerator words for a catalogue id: "chip" for a TPU or Trainium, None (GPU words) otherwise."""
    if not gpu_id:
        return None
    try:
        gpu = load_catalog().gpu(gpu_id)
    except InputError:
        return None  # an id from a vendor's own catalogue file: a GPU unless said otherwise
    return "chip" if gpu.software_stack in _CHIP_STACKS else None


def estimate_terms(result: dict[str, Any]) -> Terms | None:
    """The accelerator words of a stored `estimate_memory` result: the chip it named, if any."""
    request = result.get("request")
    gpu = request.get("gpu") if isinstance(request, dict) else None
    return terms_of(gpu if isinstance(gpu, str) else None)


@cache
def offer_terms(offer_id: str) -> Terms | None:
    """The accelerator words of a catalogue offer (its GPU's)."""
    try:
        return terms_of(load_catalog().offer(offer_id).gpu)
    except InputError:
        return None


def in_plan_terms(func: Callable[Concatenate[Plan, P], R]) -> Callable[Concatenate[Plan, P], R]:
    """Say a plan's sentences with its accelerator's words ("1 chip" on a TPU, "1 GPU" on a card)."""
    @wraps(func)
    def wrapper(plan: Plan, *args: P.args, **kwargs: P.kwargs) -> R:
        with device_terms(terms_of(plan.gpu_id)):
            return func(plan, *args, **kwargs)
    return wrapper


def load(result: dict[str, Any] | RecommendResult | None) -> RecommendResult | None:
    """The typed result of a `recommend` call as stored in a session, or None when it is not one."""
    if result is None or isinstance(result, RecommendResult):
        return result
    try:
        typed = RecommendResult.model_validate(result)
    except ValidationError:
        return None
    # A sentence this version's catalogue cannot render (unknown id, missing parameter) comes from another
    # version or a hand-edited file: the result is not one this version can explain.
    try:
        for message in _messages(typed):
            for lang in ("fr", "en"):
                render(lang, message)
    except (MissingTranslation, KeyError, ValueError, TypeError):
        return None
    return typed


def _messages(node: Any) -> Iterator[Msg]:
    """Every message inside a tool result: its fields, lists, mappings and nested message parameters."""
    if isinstance(node, Msg):
        yield node
        for value in node.params.values():
            yield from _messages(value)
    elif isinstance(node, BaseModel):
        for name in type(node).model_fields:
            yield from _messages(getattr(node, name))
    elif isinstance(node, list | tuple):
        for item in node:
            yield from _messages(item)
    elif isinstance(node, dict):
        for item in node.values():
            yield from _messages(item)


@in_plan_terms
def same_configuration(a: Plan, b: Plan) -> bool:
    """The same offer with the same number of accelerators (two plans of it may differ in split or knobs)."""
    return a.offer_id == b.offer_id and a.parallelism.num_gpus == b.parallelism.num_gpus


def configuration(plan: Plan, lang: Lang) -> str:
    """'Enterprise Max (ACD-014), a workstation with 1 × NVIDIA RTX PRO 6000 …'; a configuration the customer named
    or owns (no catalogue offer) is said by its cards alone: 'a rack server with 2 × NVIDIA L40S'."""
    if plan.offer_id.startswith(NAMED_OFFER_PREFIX):
        return render(lang, "config.named_workstation" if plan.purchase.unit == "workstation" else "config.named",
                      gpus=plan.parallelism.num_gpus, gpu=plan.gpu_name)
    return render(lang, f"config.{plan.purchase.unit}", units=plan.purchase.units, gpus=plan.parallelism.num_gpus,
                  gpu=plan.gpu_name, offer=plan.offer_id, name=plan.offer_name)


@in_plan_terms
def price(plan: Plan, lang: Lang) -> str:
    """The price as bought: purchase (list or estimate, dated), rental per hour, or on quote."""
    buy = plan.purchase
    if buy.how == "quote":
        if buy.cards_eur is not None:
            return render(lang, "advice.price_quote_cards", gpus=plan.parallelism.num_gpus, cards=buy.cards_eur,
                          date=buy.price_date or "—")
        return render(lang, "advice.price_quote")
    if buy.how == "rent":
        return render(lang, "advice.price_rent", hourly=buy.hourly_eur, date=buy.price_date or "—")
    key = "advice.price_list" if buy.price_kind == "list" else "advice.price_estimate"
    return render(lang, key, price=buy.price_eur, date=buy.price_date or "—")


@in_plan_terms
def price_short(plan: Plan, lang: Lang) -> str:
    """The price for a narrow column: '55 480 €', '7,38 €/h', 'sur devis'."""
    buy = plan.purchase
    if buy.how == "quote" or (buy.price_eur is None and buy.hourly_eur is None):
        return render(lang, "advice.price_quote_short")
    if buy.how == "rent":
        return render(lang, "advice.price_rent_short", hourly=buy.hourly_eur)
    return render(lang, "advice.price_buy_short", price=buy.price_eur)


@in_plan_terms
def split(plan: Plan, lang: Lang) -> str:
    p = plan.parallelism
    if plan.vision is not None:
        r = plan.vision.request
        return render(lang, "advice.split_vision", gpus=p.num_gpus, batch=r.batch_size, resolution=r.resolution)
    key = "advice.split_zero" if p.zero else "advice.split"
    return render(lang, key, gpus=p.num_gpus, tp=p.tensor_parallel, pp=p.pipeline_parallel, dp=p.data_parallel,
                  stage=p.zero)


def vision_precision(plan: Plan, lang: Lang) -> str:
    """'bf16 mixed precision (autocast, fp32 master weights)' — how a vision job computes."""
    assert plan.vision is not None
    return render(lang, f"vprec.{plan.vision.mode}_{plan.vision.request.dtype}")


@in_plan_terms
def memory(plan: Plan, lang: Lang) -> str | None:
    m = plan.memory
    if m is None:
        return None
    if m.engine == "vllm":
        return render(lang, "advice.memory_vllm", need=m.load_bytes, card=m.gpu_memory_bytes,
                      reserved=m.engine_reserved_bytes, utilization=m.gpu_memory_utilization,
                      tokens=m.kv_cache_tokens, required=m.required_kv_tokens)
    return render(lang, "advice.memory", need=m.total_bytes, card=m.gpu_memory_bytes, free=m.headroom_pct / 100)


@in_plan_terms
def speed(plan: Plan, lang: Lang) -> str | None:
    if plan.vision is not None:
        v = plan.vision
        key = "advice.speed_vision_training" if v.mode == "training" else "advice.speed_vision_inference"
        text = render(lang, key, ips=v.images_per_s, step=v.step_time_s, batch=v.request.batch_size,
                      bound=Msg(f"bound.{v.bound}"))
        if v.epoch_hours is not None and v.dataset_images:
            text += " " + render(lang, "advice.epoch_images", images=v.dataset_images, hours=v.epoch_hours)
            if v.epochs > 1:  # "300 époques": the training asked for, in hours and days, and its cost
                eur = plan.costs.eur_per_epoch
                text += " " + render(lang, "advice.epochs_cost" if eur is not None else "advice.epochs",
                                     epochs=v.epochs, hours=v.epoch_hours * v.epochs,
                                     days=v.epoch_hours * v.epochs / 24, eur=(eur or 0.0) * v.epochs)
        return text
    if plan.serving is not None:
        s = plan.serving
        return render(lang, "advice.speed_serving", users=s.concurrency, p=s.percentile, ttft=s.ttft_ms,
                      tpot=s.tpot_ms, tps=s.output_tokens_per_s, sustained=s.sustained_output_tokens_per_s)
    if plan.training is not None:
        t = plan.training
        text = render(lang, "advice.speed_training", step=t.step_time_s, tps=t.tokens_per_s, mfu=t.mfu)
        if t.epoch_hours is not None and t.tokens_per_epoch is not None:
            text += " " + render(lang, "advice.epoch", tokens=t.tokens_per_epoch, hours=t.epoch_hours)
            if t.epochs > 1:  # "3 époques": the job the customer asked for, in hours and days, and its cost
                eur = plan.costs.eur_per_epoch
                text += " " + render(lang, "advice.epochs_cost" if eur is not None else "advice.epochs",
                                     epochs=t.epochs, hours=t.epoch_hours * t.epochs,
                                     days=t.epoch_hours * t.epochs / 24, eur=(eur or 0.0) * t.epochs)
        return text
    return None


@in_plan_terms
def speed_short(plan: Plan, lang: Lang) -> str:
    """The speed for a table cell (the words of `Plan.speed_short`)."""
    said = plan.speed_short()
    return "—" if said is None else render(lang, said)


@in_plan_terms
def cost_short(plan: Plan, lang: Lang) -> str:
    c = plan.costs
    if c.eur_per_million_images is not None:
        return render(lang, "advice.cost_short_images", eur=c.eur_per_million_images)
    if c.eur_per_million_tokens is not None:
        return render(lang, "advice.cost_short_tokens", eur=c.eur_per_million_tokens)
    if c.eur_per_epoch is not None:
        return render(lang, "advice.cost_short_epoch", eur=c.eur_per_epoch)
    if c.hourly_eur is not None:
        return render(lang, "advice.cost_short_hour", hourly=c.hourly_eur)
    return "—"


@in_plan_terms
def cost(plan: Plan, lang: Lang) -> str | None:
    c = plan.costs
    if c.eur_per_million_images is not None:
        return render(lang, "advice.cost_images", eur=c.eur_per_million_images, hourly=c.hourly_eur)
    if c.eur_per_million_tokens is not None:
        return render(lang, "advice.cost_tokens", eur=c.eur_per_million_tokens, hourly=c.hourly_eur)
    if c.eur_per_epoch is not None:
        return render(lang, "advice.cost_epoch", eur=c.eur_per_epoch, hourly=c.hourly_eur)
    if c.hourly_eur is not None:
        return render(lang, "advice.cost_hour", hourly=c.hourly_eur)
    return None


def knobs_said(knobs: list[Knob], lang: Lang) -> str:
    """A change's knobs in a few words each ("FP8 weights, LoRA instead of full fine-tuning")."""
    # a count is part of the change: "1 simultaneous user instead of 10", not "fewer simultaneous users"; a ladder
    # that went on to 4-bit weights passed FP8 on the way: the 4 bits are the change
    codes = {k.code for k in knobs}
    said = [k for k in knobs if not (k.code == "weights_fp8" and "weights_int4" in codes)]
    return ", ".join(render(lang, f"advice.knob_short_{k.code}", **k.text.params) for k in said)


_PER_MONTH = {"advice.change": "advice.change_monthly", "advice.change_over": "advice.change_over_monthly",
              "advice.change_fit": "advice.change_fit"}


def change(item: Change, lang: Lang, budget_eur: float | None = None, cheapest: bool = False,
           months: float | None = None) -> str:
    """A workload change with its effect: within the budget when its plan is, over it when a budget was
    given and its plan is not (the load a machine holds is offered even so), else simply fitting. Weight
    offload states the speed it costs, and says so when it is the cheapest way to fit. `months`: the budget was
    said per month (the period's total over this many months): the budget and a rental are said per month."""
    what = knobs_said(item.knobs, lang)
    key = "advice.change_fit"
    cards = item.plan.purchase.cards_eur
    if budget_eur is not None and item.plan.purchase.how == "quote" and cards is not None and cards < budget_eur:
        key = "advice.change_quote_under"  # its price is the quote's: only its cards are weighed against the budget
    elif budget_eur is not None:
        key = "advice.change" if item.plan.within_budget else "advice.change_over"
    shown = price(item.plan, lang)
    tco = item.plan.costs.tco_eur
    if months and budget_eur is not None and key != "advice.change_quote_under":
        # ("over the €185,760 budget" beside a headline in €5,160 a month read as two budgets)
        key = _PER_MONTH[key]
        budget_eur /= months
        if tco is not None:
            shown = render(lang, "advice.price_per_month", price=shown, month=tco / months)
    text = render(lang, key, what=what, config=configuration(item.plan, lang), price=shown,
                  effect=speed_short(item.plan, lang), budget=budget_eur or 0.0)
    t, v = item.plan.training, item.plan.vision
    # a training change is judged by the job's length, not by a step time alone
    if t is not None and t.epoch_hours is not None and t.tokens_per_epoch is not None:
        text += " " + render(lang, "advice.epoch", tokens=t.tokens_per_epoch, hours=t.epoch_hours)
    elif v is not None and v.epoch_hours is not None and v.dataset_images:
        text += " " + render(lang, "advice.epoch_images", images=v.dataset_images, hours=v.epoch_hours)
    s = item.plan.serving
    if s is not None and s.weight_offload_bytes_per_gpu:
        text += " " + render(lang, "advice.offload_cost", offloaded=s.weight_offload_bytes_per_gpu,
                             gbs=s.host_link_gbs or 0.0, tps=s.output_tokens_per_s,
                             tps_without=s.output_tokens_per_s_without_offload or 0.0)
        if cheapest:
            text += " " + render(lang, "advice.offload_cheapest")
    return text


def _cheapest_change(result: RecommendResult) -> Change | None:
    """The change whose plan costs least over the period, when it is cheaper than the plan chosen."""
    def tco(plan: Plan) -> float:
        return plan.costs.tco_eur if plan.costs.tco_eur is not None else float("inf")
    if not result.changes:
        return None
    best = min(result.changes, key=lambda c: tco(c.plan))
    if result.plan is not None and tco(result.plan) <= tco(best.plan):
        return None
    return best


def summary(result: RecommendResult, lang: Lang) -> list[str]:
    """The recommendation as a few sentences, the same in the chat, the results view and the proposal."""
    lines = [owned(result, lang)] if result.owned is not None else []
    lines.append(render(lang, headline(result)))
    if result.machines > 1 and result.scope.budget_eur is not None:
        # "dans le budget de 6 000 €" above is one workstation's share: said at once, with the whole
        lines.append(render(lang, "advice.budget_per_machine", n=result.machines, each=result.scope.budget_eur,
                            total=result.scope.budget_eur * result.machines))
    plan = result.plan
    if plan is not None:
        if plan.vision is not None:
            lines.append(render(lang, "advice.bought_vision", price=price(plan, lang), split=split(plan, lang),
                                precision=vision_precision(plan, lang)))
        else:
            lines.append(render(lang, "advice.bought", price=price(plan, lang), split=split(plan, lang),
                                precision=plan.weight_precision))
        lines += [text for text in (memory(plan, lang), speed(plan, lang), cost(plan, lang)) if text]
        if result.machines > 1 and plan.purchase.price_eur is not None:  # "3 postes": the purchase is all of them
            lines.append(render(lang, "advice.machines", n=result.machines, each=plan.purchase.price_eur,
                                total=plan.purchase.price_eur * result.machines))
        c = plan.costs
        if c.job_hours is not None and c.eur_per_job is not None and c.runs_per_year:
            lines.append(render(lang, "advice.job_runs", hours=round(c.job_hours, 1), eur=c.eur_per_job,
                                runs=c.runs_per_year, year=c.eur_per_job * c.runs_per_year))
        elif c.job_hours is not None and c.eur_per_job is None and c.runs_per_year:
            # on quote: no price for the run, but how long each takes answers "is it big enough?"
            lines.append(render(lang, "advice.job_runs_hours", hours=round(c.job_hours, 1), runs=c.runs_per_year))
        elif c.job_hours is not None and c.eur_per_job is not None:
            # (a job of days or years is said in days too: "28,077 h" alone hides that it is 3.2 years)
            key = "advice.job_days" if c.job_hours >= 72 else "advice.job"
            lines.append(render(lang, key, hours=round(c.job_hours, 1), eur=c.eur_per_job, days=c.job_hours / 24))
        with device_terms(terms_of(plan.gpu_id)):
            lines += [render(lang, "advice.knob_line", text=k.text) for k in plan.knobs]
            # a TPU or Trainium plan says which engine it needs and how much of the chip the model's shapes fill
            lines += [sentence(render(lang, n)) for n in plan.notes
                      if n.id.startswith("codesign.") or n.id == "note.platform_engine"]
    for option in result.compared:
        lines.append(compared(option, lang))
        fp8 = next((p for p in result.compared_fp8 if p.gpu_id == option.gpu_id
                    and p.parallelism.num_gpus == option.parallelism.num_gpus), None)
        if fp8 is not None:  # the 16-bit format was assumed: in FP8 this option holds the load
            lines.append(render(lang, "advice.compared_fp8", gpus=fp8.parallelism.num_gpus, gpu=fp8.gpu_name,
                                speed=speed_short(fp8, lang)))
    verdict = compared_verdict(result.compared, lang)
    if verdict is not None:
        lines.append(verdict)
    if result.preference is not None and result.owned is None:  # owned cards were checked above, not bought
        lines.append(sentence(preference(result, lang)))  # a clause in tables, a sentence of its own here
        if result.preference_change is not None:  # what would let the card asked for hold it
            c = result.preference_change
            what = knobs_said(c.knobs, lang)
            lines.append(render(lang, "advice.preference_change", what=what, config=configuration(c.plan, lang),
                                price=price(c.plan, lang), speed=speed_short(c.plan, lang)))
    cheapest = _cheapest_change(result)
    per_month = result.scope.budget_eur_per_month
    months = result.budget.budget_eur / per_month if per_month and result.budget.budget_eur else None
    lines += [change(item, lang, result.budget.budget_eur, item is cheapest, months) for item in result.changes]
    lines += [text for text in (faster(result, lang), cheaper_fp8(result, lang), with_margin(result, lang)) if text]
    hint = worth_a_quote(result)
    if hint is not None:
        buy = hint.purchase
        lines.append(render(lang, "advice.quote_hint", config=configuration(hint, lang), gpus=hint.parallelism.num_gpus,
                            cards=buy.cards_eur, budget=result.scope.budget_eur, speed=speed_short(hint, lang)))
    said = rent_or_buy(result, lang)
    if said is not None:
        lines.append(said)
    lines += serving_after(result, lang)
    rent = worth_renting(result)
    if rent is not None and rent.training is not None and rent.costs.eur_per_epoch and result.scope.budget_eur:
        lines.append(render(lang, "advice.rent_hint", config=configuration(rent, lang),
                            eur=rent.costs.eur_per_epoch, hours=round(rent.training.epoch_hours or 0.0),
                            hourly=rent.costs.hourly_eur or 0.0, budget=result.scope.budget_eur,
                            epochs=int(result.scope.budget_eur // rent.costs.eur_per_epoch)))
    return lines


def compared(option: Plan, lang: Lang) -> str:
    """One of the configurations the customer weighed, checked at the load."""
    n, name = option.parallelism.num_gpus, option.gpu_name
    if option.fits:
        return render(lang, "advice.compared_fits", gpus=n, gpu=name, speed=speed_short(option, lang),
                      price=price(option, lang))
    why = render(lang, option.reasons[0]) if option.reasons else "—"
    return render(lang, "advice.compared_fails", gpus=n, gpu=name, why=why)


def faster(result: RecommendResult, lang: Lang) -> str | None:
    """A training run of more than a month: the same job on the offer's largest configuration, about the same cost."""
    fast = result.faster
    if fast is None or fast.training is None or fast.training.epoch_hours is None:
        return None
    total = fast.training.epoch_hours * fast.training.epochs
    job_eur = fast.costs.eur_per_job
    return render(lang, "advice.faster_cost" if job_eur is not None else "advice.faster",
                  config=configuration(fast, lang), hours=total, days=total / 24, eur=job_eur or 0.0)


def with_margin(result: RecommendResult, lang: Lang) -> str | None:
    """A job that ends with little to spare before its deadline, and the cheapest plan that leaves a fifth of it."""
    safer, plan = result.with_margin, result.plan
    took = job_hours(plan) if plan is not None else None
    if safer is None or took is None or (hours := job_hours(safer)) is None:
        return None
    deadline = result.deadline_hours or 0.0
    said, key = price(safer, lang), "advice.with_margin"
    if safer.purchase.how == "rent" and safer.costs.eur_per_job is not None and safer.costs.job_hours is not None:
        # rented, the safer plan is paid by its job's hours: the cost of the margin, not only its hourly price
        said, key = render(lang, "advice.job_price", price=said, hours=round(safer.costs.job_hours, 1),
                           eur=safer.costs.eur_per_job), "advice.with_margin_job"
    return render(lang, key, took=round(took, 1), deadline=deadline, config=configuration(safer, lang),
                  price=said, hours=round(hours, 1))


def cheaper_fp8(result: RecommendResult, lang: Lang) -> str | None:
    """With the format assumed, the cheaper plan in FP8 weights: offered, not chosen."""
    fp8 = result.cheaper_precision
    if fp8 is None:
        return None
    if fp8.purchase.how == "quote" and fp8.purchase.cards_eur is not None:
        # a server on quote beside a server on quote: the cards are the figure to compare
        return render(lang, "advice.cheaper_fp8_quote", config=configuration(fp8, lang),
                      gpus=fp8.parallelism.num_gpus, cards=fp8.purchase.cards_eur, speed=speed_short(fp8, lang))
    fp8_price = price(fp8, lang)
    if fp8.costs.eur_per_job is not None and fp8.costs.job_hours is not None and fp8.purchase.how == "rent":
        # a job rented is cheaper by its hours, not by its hourly price: the job's cost says why
        fp8_price = render(lang, "advice.job_price", price=fp8_price, hours=round(fp8.costs.job_hours, 1),
                           eur=fp8.costs.eur_per_job)
    return render(lang, "advice.cheaper_fp8", config=configuration(fp8, lang), price=fp8_price,
                  speed=speed_short(fp8, lang))


def headline(result: RecommendResult) -> Msg:
    """The plan's headline; once the customer's own cards hold the load, the plan is a purchase to compare with,
    not a recommendation to buy (the line before it said nothing needs buying)."""
    said = result.headline
    mine = result.owned
    if mine is not None and mine.fits and "what" in said.params:
        return Msg("headline.compare_owned", what=said.params["what"])
    if said.id in _QUOTE_FIRST and worth_a_quote(result) is not None:
        # "no configuration within budget" is not true of a server on quote whose cards alone are under it: the
        # headline says the known prices are over, and that the quote comes first
        return Msg(_QUOTE_FIRST[said.id], **said.params)
    return said


_QUOTE_FIRST = {"headline.over_budget": "headline.over_budget_quote",
                "headline.over_budget_changes": "headline.over_budget_changes_quote"}


def _rate(plan: Plan) -> float | None:
    """What the plan delivers per second: output tokens (serving), tokens trained, or images."""
    if plan.serving is not None:
        return plan.serving.output_tokens_per_s
    if plan.training is not None:
        return plan.training.tokens_per_s
    return plan.vision.images_per_s if plan.vision is not None else None


def compared_verdict(options: list[Plan], lang: Lang) -> str | None:
    """"2 L40S or 1 H100?": when the two configurations weighed both hold the load, the answer names the one that
    costs less over the period and how much faster the other is, so the question asked gets its answer."""
    if len(options) != 2 or not all(o.fits for o in options):
        return None
    costs = [o.costs.tco_eur for o in options]
    rates = [_rate(o) for o in options]
    if None in rates or not all(rates):
        return None
    if None in costs:  # one is on quote: no cost to weigh, the speed still answers part of the question
        slow, fast = sorted(options, key=lambda o: _rate(o) or 0.0)
        ratio = (_rate(fast) or 0.0) / (_rate(slow) or 1.0)
        cards = [o.purchase.cards_eur for o in options]
        if all(o.purchase.how == "quote" for o in options) and None not in cards:
            # "2 L40S or 1 H100?", both servers on quote: their cards are priced, and they are most of the bill
            cheap, dear = sorted(options, key=lambda o: o.purchase.cards_eur or 0.0)
            return render(lang, "advice.compared_verdict_cards", gpus=cheap.parallelism.num_gpus, gpu=cheap.gpu_name,
                          cost=cheap.purchase.cards_eur or 0.0, other_gpus=dear.parallelism.num_gpus,
                          other=dear.gpu_name, other_cost=dear.purchase.cards_eur or 0.0,
                          fast_gpus=fast.parallelism.num_gpus, fast=fast.gpu_name, ratio=ratio)
        if ratio < 1.1:
            return None
        return render(lang, "advice.compared_verdict_speed", gpus=fast.parallelism.num_gpus, gpu=fast.gpu_name,
                      other_gpus=slow.parallelism.num_gpus, other=slow.gpu_name, ratio=ratio)
    cheap, dear = sorted(options, key=lambda o: o.costs.tco_eur or 0.0)
    ratio = (_rate(dear) or 0.0) / (_rate(cheap) or 1.0)
    key = "advice.compared_verdict_faster" if ratio >= 1.1 else "advice.compared_verdict"
    return render(lang, key, gpus=cheap.parallelism.num_gpus, gpu=cheap.gpu_name, cost=cheap.costs.tco_eur or 0.0,
                  other_gpus=dear.parallelism.num_gpus, other=dear.gpu_name, other_cost=dear.costs.tco_eur or 0.0,
                  ratio=ratio, years=cheap.costs.amortisation_years)


def owned(result: RecommendResult, lang: Lang) -> str:
    """The answer to "are our cards enough?", said first: the customer's own GPUs at the stated load."""
    mine = result.owned
    assert mine is not None
    n, name = mine.parallelism.num_gpus, mine.gpu_name
    if mine.fits:
        job = mine.training or mine.vision
        if job is not None and job.epoch_hours is not None:  # a training job: how long it takes on them
            if job.epochs > 1:  # "90 époques": the whole job, the answer to "is it enough?"
                return render(lang, "advice.owned_fits_epochs", gpus=n, gpu=name, speed=speed_short(mine, lang),
                              hours=job.epoch_hours, epochs=job.epochs, total=job.epoch_hours * job.epochs,
                              days=job.epoch_hours * job.epochs / 24)
            return render(lang, "advice.owned_fits_epoch", gpus=n, gpu=name, speed=speed_short(mine, lang),
                          hours=job.epoch_hours)
        s = mine.serving
        slower = s is not None and bool(s.target_assumed) and (
            (s.target_ttft_ms is not None and s.ttft_ms > s.target_ttft_ms)
            or (s.target_tpot_ms is not None and s.tpot_ms > s.target_tpot_ms))
        if slower and s is not None:
            # held against the interactive floor, not the usual target nobody gave: the answer says both
            return render(lang, "advice.owned_fits_slower", gpus=n, gpu=name, speed=speed_short(mine, lang),
                          ttft=s.target_ttft_ms or 0.0, tpot=s.target_tpot_ms or 0.0)
        return render(lang, "advice.owned_fits", gpus=n, gpu=name, speed=speed_short(mine, lang))
    why = render(lang, mine.reasons[0]) if mine.reasons else "—"
    if result.owned_fp8 is not None:  # the 16-bit format was assumed: in FP8 they hold it, nothing to buy
        return render(lang, "advice.owned_fp8", gpus=n, gpu=name, why=why,
                      speed=speed_short(result.owned_fp8, lang))
    if result.owned_change is not None:  # what makes them hold it, said before anything is bought
        c = result.owned_change
        what = knobs_said(c.knobs, lang)
        speed = speed_short(c.plan, lang)
        t = c.plan.training
        if t is not None and t.epoch_hours is not None:
            speed = render(lang, "advice.speed_and_epoch", speed=speed, hours=t.epoch_hours)
        late = next((r for r in c.plan.reasons if r.id == "reason.deadline"), None)
        hours = late.params.get("hours") if late is not None else None
        if late is not None and isinstance(hours, int | float) and t is not None and t.epoch_hours is not None:
            # the change fits them but the job ends after the date asked: how long, and that a purchase follows
            return render(lang, "advice.owned_change_late", gpus=n, gpu=name, why=why, what=what, speed=speed,
                          hours=hours, days=hours / 24, deadline=late.params.get("deadline") or 0.0)
        cpu_layers = llama_cpp_rate(c.plan)  # weights in host RAM: llama.cpp runs them where they are
        cpu = "" if cpu_layers is None else " " + render(lang, "advice.owned_llama_cpp", tps=cpu_layers,
                                                           gbs=DESKTOP_DDR5_GBS)
        return render(lang, "advice.owned_change", gpus=n, gpu=name, why=why, what=what, speed=speed, cpu=cpu)
    return render(lang, "advice.owned_fails", gpus=n, gpu=name, why=why)


def llama_cpp_rate(plan: Plan) -> float | None:
    """Tokens/s of one request when the offloaded layers run on the CPU (llama.cpp -ngl below the layer count)
    from a desktop's memory, rather than crossing PCIe every step as vLLM's --cpu-offload-gb makes them."""
    s = plan.serving
    if s is None or not s.weight_offload_bytes_per_gpu or s.tpot_ms_without_offload is None:
        return None
    step_s = s.tpot_ms_without_offload / 1000 + offload_time(
        s.weight_offload_bytes_per_gpu, host_bandwidth_gbs=DESKTOP_DDR5_GBS).seconds_per_step
    return 1.0 / step_s


def rent_or_buy(result: RecommendResult, lang: Lang) -> str | None:
    """A job that recurs ("a new model every month"), with a rental and a purchase both holding it in scope: the
    years of rented runs the cheapest purchase costs, against the amortisation period."""
    fitting = [p for p in result.options if p.fits and result.scope.allows(p.purchase.unit)]
    rented = [p for p in fitting if p.purchase.how == "rent" and p.costs.runs_per_year and p.costs.eur_per_job]
    bought = [p for p in fitting if p.purchase.how == "buy" and p.purchase.price_eur is not None]
    if not rented or not bought:
        return None
    rent = min(rented, key=lambda p: (p.costs.eur_per_job or 0.0) * (p.costs.runs_per_year or 0))
    buy = min(bought, key=lambda p: p.purchase.price_eur or 0.0)
    per_year = (rent.costs.eur_per_job or 0.0) * (rent.costs.runs_per_year or 0)
    years = (buy.purchase.price_eur or 0.0) / per_year
    period = buy.costs.amortisation_years
    return render(lang, "advice.payback_within" if years <= period else "advice.payback_beyond",
                  rent=configuration(rent, lang), year=per_year, runs=rent.costs.runs_per_year or 0,
                  buy=configuration(buy, lang), price=buy.purchase.price_eur or 0.0, years=years, period=period)


def worth_renting(result: RecommendResult) -> Plan | None:
    """A training job whose machine is over the budget: renting, outside the scope asked for, may run the job
    itself many times within it — a one-off fine-tune is paid per epoch, not per machine. Never when the
    customer refused the cloud."""
    budget = result.scope.budget_eur
    if result.status == "recommended" or budget is None or result.scope.cloud_excluded:
        return None
    if result.scope.allows("cloud"):
        return None  # the cloud was in scope: its plans already competed
    rented = [p for p in result.options if p.fits and p.training is not None and p.purchase.how == "rent"
              and p.costs.eur_per_epoch is not None and p.costs.eur_per_epoch <= budget]
    return min(rented, key=lambda p: p.costs.eur_per_epoch or 0.0, default=None)


def sentence(clause: str) -> str:
    """A clause said on its own line: capital first letter, closing full stop."""
    return clause[:1].upper() + clause[1:] + ("" if clause.endswith((".", "!", "?")) else ".")


def preference(result: RecommendResult, lang: Lang) -> str:
    """What became of the accelerator the customer asked for, in that accelerator's words ("the chip asked for")."""
    if result.preference is None:
        return ""
    with device_terms(terms_of(result.scope.gpu_preference)):
        return render(lang, result.preference)


def worth_a_quote(result: RecommendResult) -> Plan | None:
    """Over budget: an on-quote option whose cards alone cost less than the budget may still fit it."""
    budget = result.scope.budget_eur
    if result.status != "over_budget" or budget is None:
        return None
    # every configuration that serves the load in scope, not only the few alternatives listed: the cheapest
    # server on quote may not be among them (its price is unknown, so it does not rank)
    candidates = [p for p in [*result.alternatives, *result.options]
                  if p.fits and p.purchase.how == "quote" and p.purchase.cards_eur is not None
                  and p.purchase.cards_eur < budget and result.scope.allows(p.purchase.unit)]
    return min(candidates, key=lambda p: p.purchase.cards_eur or 0.0, default=None)


def served_after(result: RecommendResult) -> Plan | None:
    """The configuration that serves a fine-tuned model after its training: the training's own cards when they
    hold the serving load, else the one named for it (RecommendResult.serving_after)."""
    after = result.serving_after
    if after is None:
        return None
    return after.owned if after.owned is not None and after.owned.fits else after.plan


def serving_after(result: RecommendResult, lang: Lang) -> list[str]:
    """The serving that follows a fine-tune: whether the training's cards serve the fine-tuned model at the load
    said, else what does, and what training and serving cost together against the budget."""
    after, trained = result.serving_after, result.plan
    if after is None:
        return []
    figures = served_after(result) or after.owned
    request = figures.request if figures is not None else None
    key = "after.load_assumed" if after.concurrency_assumed and after.people else "after.load"
    load = render(lang, key, users=request.concurrency if request else 0, people=after.people or 0,
                  input=request.input_len if request else 0, output=request.output_len if request else 0,
                  precision=figures.weight_precision if figures is not None else "—")
    mine = after.owned
    if mine is not None and mine.fits:
        return [render(lang, "after.fits", load=load, gpus=mine.parallelism.num_gpus, gpu=mine.gpu_name,
                       speed=speed_short(mine, lang))]
    plan = after.plan
    if plan is None:
        return [render(lang, "after.none", load=load, why=render(lang, after.headline))]
    said = dict(load=load, config=configuration(plan, lang), price=price(plan, lang), speed=speed_short(plan, lang))
    if mine is None:
        lines = [render(lang, "after.rented", **said)]
    else:
        why = render(lang, mine.reasons[0]) if mine.reasons else "—"
        lines = [render(lang, "after.fails", gpus=mine.parallelism.num_gpus, gpu=mine.gpu_name, why=why, **said)]
    budget = result.scope.budget_eur
    bought = [p.purchase.price_eur for p in (trained, plan) if p is not None and p.purchase.how == "buy"]
    if budget is not None and len(bought) == 2 and None not in bought:
        total = sum(b for b in bought if b is not None)
        key = "after.together_within" if total <= budget else "after.together_over"
        lines.append(render(lang, key, total=total, budget=budget, gap=total - budget))
    return lines
