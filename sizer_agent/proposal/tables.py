"""The proposal's tables and lists, built from the typed plan: rows of formatted cells, nothing computed.

Each function takes the format-bound helpers (`render._Helpers`: catalogue text, locale numbers, layout)
and returns one block for the template. Kept apart from the template so that Markdown and HTML share the
same rows, and so that a reader of the outline (templates/proposal.j2) sees sections, not cell plumbing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sizer_agent import advice
from sizer_agent.agent.wording import format_value, gpu_name
from sizer_agent.i18n import device_terms
from sizer_agent.proposal.fields import SYSTEM_ORDER
from sizer_agent.proposal.models import ProposalContext
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.plan import OfferVerdict, Plan, RecommendResult

if TYPE_CHECKING:
    from sizer_agent.proposal.render import _Helpers


NO_LIMIT_WHEN_EMPTY = frozenset({"budget_eur", "power_limit_w", "rack_units"})


def _choice_label(h: _Helpers, field: str, value: Any) -> str | None:
    """A choice in the catalogue's words ("vLLM", not "vllm"), as the interview offers it; None if none."""
    from sizer_agent.agent.questions import BY_ID

    question = BY_ID.get(field)
    if question is None or not isinstance(value, str):
        return None
    label = question.choice_labels.get(value)
    return label[h.lang] if label else None


def _latest(h: _Helpers) -> str:
    """The interview's default version in words: "the latest release (unpinned)", not the id "latest"."""
    from sizer_agent.agent.questions import BY_ID

    return BY_ID["framework_version"].default_doc[h.lang]


def field_label_at(h: _Helpers, c: ProposalContext, field: str) -> Any:
    """A profile field's label; the latency limits say the percentile the customer said them at ("P95
    time to first token under 2 s"), not the default's P99."""
    label = h.label("field", field)
    said = next((a.value for a in c.answers if a.field == "slo_percentile" and isinstance(a.value, int | float)), None)
    if said is not None and field in ("ttft_ms", "tpot_ms"):
        label = label.replace("P99", f"P{said:g}")
    return label


def answers(h: _Helpers, c: ProposalContext) -> Any:
    rows, attrs = [], []
    cloud_excluded = any(a.field == "cloud_excluded" and a.value is True and not a.assumed for a in c.answers)

    for a in c.answers:
        value: Any = _choice_label(h, a.field, a.value) or h.value(a.value)
        if a.field == "deployment" and a.assumed:
            # an assumed deployment does not narrow the search (agent.planning): say what was compared instead
            value = h.t("profile.deployment_on_premises" if cloud_excluded else "profile.deployment_open")
        if a.field == "framework_version" and a.value == "latest":
            value = _latest(h)
        if a.value is None and a.field in NO_LIMIT_WHEN_EMPTY:
            value = h.t("common.no_limit")
        elif a.value is None and a.field == "model_revision":
            value = h.t("common.unpinned")
        elif a.field == "gpu_preference" and isinstance(a.value, str):
            value = gpu_name(a.value)  # the card's name, as the customer said it, not the catalogue id
        elif a.field == "compared_gpus" and isinstance(a.value, list):
            value = format_value(a.field, a.value, h.lang)  # "2 × NVIDIA L40S / 1 × …", not "2:l40s, 1:h100-sxm"
        elif a.field == "dataset_size_bytes" and isinstance(a.value, int | float):
            value = h.t("agent.value.size", b=a.value)  # 20 Go, 1,5 To: as people say it, not 20 000 000 000
        status = h.t("profile.assumed") if a.assumed else h.t("profile.given")
        if a.corrections:
            status = h.t("profile.status_corrected", status=status, n=a.corrections)
        rows.append([field_label_at(h, c, a.field), value, status, a.raw_text or "—"])
        attrs.append({"field": a.field})
    return h.table([h.t("profile.question"), h.t("profile.answer"), h.t("profile.status"), h.t("profile.said")],
                   rows, attrs=attrs)


def model_facts(h: _Helpers, c: ProposalContext, plan: Plan | None) -> Any:
    if plan is not None and plan.vision is not None:
        return vision_facts(h, plan)
    m = c.model
    name = m.name or h.t("sizing.custom_model")
    items = [h.t("sizing.model", name=name, architecture=m.architecture or "—"),
             h.t("sizing.revision", revision=m.revision or h.t("common.unpinned")),
             h.t("sizing.params", total=m.params_total, active=m.params_active),
             h.t("sizing.weight_figures", items=[f"{fmt} {h.num(b / 1e9, 1)} {h.t('unit.gb')}"
                                                 for fmt, b in m.weight_figures])]
    if plan is not None and plan.training is not None:
        items.append(h.t("sizing.precision_training", weights=plan.weight_precision))
    elif plan is not None:
        items.append(h.t("sizing.precision", weights=plan.weight_precision, kv=plan.kv_cache_precision))
        if plan.serving is not None:
            s = plan.serving
            items.append(h.t("sizing.load_serving", input=s.input_len, output=s.output_len, users=s.concurrency,
                             max_len=s.max_model_len))
        if plan.training is not None:
            t = plan.training
            items.append(h.t(f"sizing.load_training_{t.method}", batch=t.batch_size, micro=t.micro_batch_size,
                             accumulation=t.gradient_accumulation_steps, seq=t.seq_len, optimizer=t.optimizer))
        if plan.memory is not None and plan.memory.kv_cache_bytes_per_token and plan.serving is not None:
            items.append(h.t("sizing.kv_per_token", kib=plan.memory.kv_cache_bytes_per_token / 1024))
    return h.ul(items)


def memory(h: _Helpers, c: ProposalContext) -> Any:
    total = sum(r.bytes for r in c.memory_rows)
    rows = [[h.label("term", r.key), h.gib(r.bytes, 2), h.num(r.share_pct, 1) + "\u00a0%"] for r in c.memory_rows]
    rows.append([h.t("sizing.total"), h.gib(total, 2), "100\u00a0%"])
    strong = [False] * len(c.memory_rows) + [True]
    attrs = [{"term": r.key, "bytes": r.bytes} for r in c.memory_rows] + [{"term": "total", "bytes": total}]
    return h.table([h.t("sizing.term"), h.t("sizing.per_gpu"), h.t("sizing.share")], rows, numeric=(1, 2),
                   strong=strong, attrs=attrs)


def _option_row(h: _Helpers, plan: Plan, role: str) -> list[Any]:
    with device_terms(advice.terms_of(plan.gpu_id)):
        return _option_cells(h, plan, role)


def _option_cells(h: _Helpers, plan: Plan, role: str) -> list[Any]:
    m = plan.memory
    need = f"{h.gib(m.load_bytes)} / {h.gib(m.gpu_memory_bytes)}" if m else "—"
    owned = role.startswith("owned")
    # the customer's own cards cost nothing new; a configuration that does not hold the load says why
    speed = h.speed_short(plan) if plan.fits else (h.msg(plan.reasons[0]) if plan.reasons else "—")
    return [h.t(f"options.role_{role}"), h.config(plan), h.t("options.owned_price") if owned else h.price(plan),
            h.split(plan), need, speed, "—" if owned else h.cost_short(plan)]


def options(h: _Helpers, r: RecommendResult) -> Any:
    plans: list[tuple[Plan, str]] = []
    if r.plan is not None:
        plans.append((r.plan, "recommended" if r.status == "recommended" else "cheapest_fit"))
    if r.owned is not None:  # "are our cards enough?": answered first, in the table too
        plans.insert(0, (r.owned, "owned_fits" if r.owned.fits else "owned_fails"))
    plans += [(option, "weighed_fits" if option.fits else "weighed_fails") for option in r.compared]
    for alt in r.alternatives:
        in_scope = r.scope.allows(alt.purchase.unit)
        plans.append((alt, ("quote" if alt.purchase.how == "quote" else "alternative") if in_scope else "outside"))
    rows = [_option_row(h, p, role) for p, role in plans]
    attrs = [{"offer": p.offer_id, "price": h.raw(p.purchase.price_eur), "hourly": h.raw(p.purchase.hourly_eur),
              "gpus": p.parallelism.num_gpus} for p, _ in plans]
    strong = [role in ("recommended", "cheapest_fit") for _, role in plans]
    return h.table([h.t("options.role"), h.t("options.configuration"), h.t("options.price"),
                    h.t("options.split"), h.t("options.memory"), h.t("options.speed"), h.t("options.cost")],
                   rows, attrs=attrs, strong=strong)


def changes(h: _Helpers, r: RecommendResult) -> Any:
    rows = []
    for change in r.changes:
        what = h.safe("; ".join(str(h.msg(k.text)) for k in change.knobs))  # each already escaped
        rows.append([what, h.config(change.plan), h.price(change.plan),
                     h.speed(change.plan)])
    return h.table([h.t("changes.change"), h.t("options.configuration"), h.t("options.price"),
                    h.t("options.speed")], rows)


def verdicts(h: _Helpers, r: RecommendResult) -> Any:
    """One verdict per offer: those in the scope asked for, then the others under their own heading."""
    def line(v: OfferVerdict) -> Any:
        with device_terms(advice.offer_terms(v.offer_id)):  # "1 chip" for a TPU offer among GPU ones
            return h.t("verdicts.line", offer=v.offer_id, name=v.name, verdict=h.msg(v.reason), scope="")

    inside = [line(v) for v in r.offers if v.in_scope]
    outside = [line(v) for v in r.offers if not v.in_scope]
    blocks = [h.ul(inside)] if inside else []
    if outside:
        blocks += [h.p(h.t("verdicts.outside_heading")), h.ul(outside)]
    return h.safe("\n\n".join(str(b) for b in blocks))


def serving(h: _Helpers, plan: Plan) -> Any:
    s = plan.serving
    assert s is not None
    rows = [
        [h.t("metric.ttft", p=s.percentile), h.ms(s.ttft_ms)],
        [h.t("metric.ttft_mean"), h.ms(s.ttft_mean_ms)],
        [h.t("metric.tpot"), h.ms(s.tpot_ms, 1)],
        [h.t("metric.output_tps"), h.tps(s.output_tokens_per_s)],
        [h.t("metric.max_concurrency_memory"), h.num(s.max_concurrency_memory)],
    ]
    if s.max_concurrency_under_slo is not None or s.slo_ttft_ms is not None or s.slo_tpot_ms is not None:
        rows.append([h.t("metric.max_concurrency_slo"), h.num(s.max_concurrency_under_slo)])
    rows.append([h.t("metric.sustained"), h.tps(s.sustained_output_tokens_per_s)])
    rows.append([h.t("metric.bound"), h.label("bound", s.bound)])
    values: list[tuple[str, Any]] = [("ttft_ms", s.ttft_ms), ("ttft_mean_ms", s.ttft_mean_ms), ("tpot_ms", s.tpot_ms),
                                     ("output_tokens_per_s", s.output_tokens_per_s),
                                     ("max_concurrency_memory", s.max_concurrency_memory)]
    if len(rows) == 8:
        values.append(("max_concurrency_under_slo", s.max_concurrency_under_slo))
    values += [("sustained_output_tokens_per_s", s.sustained_output_tokens_per_s), ("bound", s.bound)]
    return h.table([h.t("perf.metric"), h.t("perf.value")], rows, numeric=(1,),
                   attrs=[{"metric": k, "value": h.raw(v)} for k, v in values])


def roofline(h: _Helpers, plan: Plan) -> Any:
    s = plan.serving
    assert s is not None
    rows = [[h.label("phase", p.phase), h.num(p.operational_intensity, 1), h.num(p.attainable_tflops, 1),
             h.ms(p.time_ms, 2), h.label("bound", p.bound)] for p in s.roofline]
    return h.table([h.t("perf.phase"), h.t("perf.intensity"), h.t("perf.attainable"), h.t("perf.step_time"),
                    h.t("metric.bound")], rows, numeric=(1, 2, 3))


def vision_facts(h: _Helpers, plan: Plan) -> Any:
    v = plan.vision
    assert v is not None
    r = v.request
    load = ("sizing.vision_load_training" if v.mode == "training" else "sizing.vision_load_inference")
    return h.ul([
        h.t("sizing.vision_model", name=r.model, library=h.msg(Msg(f"library.{v.library}")), params=v.params_total,
            gflops=v.forward_gflops_per_image, resolution=r.resolution),
        h.t(load, batch=r.batch_size, resolution=r.resolution, optimizer=h.value(r.optimizer),
            precision=h.vision_precision(plan)),
        *h.msgs(v.warnings),
    ])


def vision(h: _Helpers, plan: Plan) -> Any:
    v = plan.vision
    assert v is not None
    training = v.mode == "training"
    rows = [
        [h.t("vperf.images_per_s_training" if training else "vperf.images_per_s_inference"), h.num(v.images_per_s)],
        [h.t("vperf.step_time"), h.sec(v.step_time_s)],
        [h.t("vperf.global_batch"), h.num(v.request.batch_size * plan.parallelism.num_gpus)],
        [h.t("metric.bound"), h.label("bound", v.bound)],
        [h.t("vperf.tensor_precision"), v.tensor_precision],
    ]
    if training:
        rows.append([h.t("vperf.images_per_s_inference"), h.num(v.inference_images_per_s)])
        if v.dataset_images and v.epoch_hours is not None:
            rows += [[h.t("vperf.dataset"), h.t("vperf.dataset_value", images=v.dataset_images)],
                     [h.t("vperf.epoch_time"), h.hours(v.epoch_hours)]]
        if v.checkpoint_bytes is not None:
            rows += _checkpoint_rows(h, v.checkpoint_bytes, v.checkpoint_write_s, v.storage_write_gbs,
                                     v.checkpoint_interval_min, v.goodput)
    return h.table([h.t("perf.metric"), h.t("perf.value")], rows, numeric=(1,))


def training(h: _Helpers, plan: Plan) -> Any:
    t = plan.training
    assert t is not None
    rows = [
        [h.t("train.method"), h.label("method", t.method)],
        [h.t("train.batch"), h.t("train.batch_value", batch=t.batch_size, micro=t.micro_batch_size,
                                 accumulation=t.gradient_accumulation_steps)],
        [h.t("train.seq_len"), h.num(t.seq_len)],
        [h.t("train.tokens_per_step"), h.num(t.tokens_per_step)],
        [h.t("train.step_time"), h.sec(t.step_time_s)],
        [h.t("train.tokens_per_s"), h.tps(t.tokens_per_s)],
        [h.t("train.mfu"), h.pct(t.mfu)],
        [h.t("metric.bound"), h.label("bound", t.bound)],
    ]
    if t.tokens_per_epoch is not None:
        dataset = (h.t("train.dataset_tokens_value", tokens=t.dataset_tokens) if t.dataset_tokens
                   else h.t("train.dataset_value", size=h.num((t.dataset_bytes or 0) / 1e9, 1),
                            tokens=t.tokens_per_epoch, per=t.bytes_per_token))
        rows += [[h.t("train.dataset"), dataset],
                 [h.t("train.epoch_time"), h.hours(t.epoch_hours)]]
    rows += _checkpoint_rows(h, t.checkpoint_bytes, t.checkpoint_write_s, t.storage_write_gbs,
                             t.checkpoint_interval_min, t.goodput)
    return h.table([h.t("perf.metric"), h.t("perf.value")], rows, numeric=(1,))


def _checkpoint_rows(h: _Helpers, size: int, write_s: float | None, gbs: float | None, interval_min: float | None,
                     goodput: float | None) -> list[list[Any]]:
    """What a resumable checkpoint costs: its size, its write time, how often, and the goodput left."""
    return [
        [h.t("train.checkpoint_size"), h.gib(size)],
        [h.t("train.checkpoint_write"), h.t("train.checkpoint_write_value", seconds=write_s, gbs=gbs)],
        [h.t("train.checkpoint_interval"), h.t("train.minutes", n=interval_min)],
        [h.t("train.goodput"), h.pct(goodput, 1)],
    ]


def costs(h: _Helpers, plan: Plan) -> Any:
    c, buy = plan.costs, plan.purchase
    rows = [[h.t("costs.price"), h.price(plan)]]
    if c.hourly_eur is not None:
        rows.append([h.t(f"costs.hourly_{buy.how}"), h.eur(c.hourly_eur, 2) + "/h"])
    # a rented chip without a published TDP: the figure is the host's alone, and says so
    rows.append([h.t("costs.power" if c.accelerator_power_published else "costs.power_host"), h.kw(c.power_w)])
    if buy.how == "buy":
        rows.append([h.t("costs.energy"), h.t("costs.energy_value", kwh=c.energy_kwh_per_year,
                                                eur=c.energy_eur_per_year)])
    if c.tco_eur is not None:
        rows.append([h.t("costs.tco", years=c.amortisation_years), h.eur(c.tco_eur)])
    if c.eur_per_million_tokens is not None:
        rows.append([h.t("costs.per_million"), h.eur(c.eur_per_million_tokens, 2)])
    if c.eur_per_million_images is not None:
        rows.append([h.t("costs.per_million_images"), h.eur(c.eur_per_million_images, 2)])
    if c.eur_per_epoch is not None:
        rows.append([h.t("costs.per_epoch"), h.eur(c.eur_per_epoch, 2 if c.eur_per_epoch < 100 else 0)])
    if c.tokens_per_s_per_kw is not None:
        rows.append([h.t("costs.per_kw"), h.num(c.tokens_per_s_per_kw)])
    return h.table([h.t("costs.item"), h.t("costs.value")], rows, numeric=(1,))


def host(h: _Helpers, plan: Plan) -> Any:
    order = {name: i for i, name in enumerate(SYSTEM_ORDER)}
    rows = []
    for req in sorted(plan.host, key=lambda r: order.get(r.name, len(order))):
        if isinstance(req.value, bool):
            value = h.t("common.yes" if req.value else "common.no")
        elif isinstance(req.value, str):
            value = h.label("hostvalue", req.value)
        else:
            number = h.num(req.value, 2 if abs(req.value) < 10 and req.value != int(req.value) else 0)
            value = f"{number}\u00a0{h.label('hostunit', req.unit)}" if req.unit else number
        rows.append([h.label("system", req.name), value, h.msg(req.reason)])
    return h.table([h.t("host.item"), h.t("host.requirement"), h.t("host.reason")], rows)


def acceptance(h: _Helpers, c: ProposalContext) -> Any:
    rows, attrs = [], []
    for a in c.acceptance:
        symbol = {"<=": "≤", ">=": "≥", "==": "="}[a.comparator]
        value = {"ms": h.ms(a.value), "s": h.sec(a.value), "tokens_per_s": h.tps(a.value),
                 "bytes": h.gib(a.value, 2), "tokens": h.num(a.value), "count": h.num(a.value),
                 "bool": h.t("common.verified"), "images_per_s": h.t("vperf.ips", n=a.value)}[a.unit]
        if a.measured is None:
            got = h.t("common.not_measured")
        else:
            got = {"ms": h.ms(a.measured, 1), "s": h.sec(a.measured), "tokens_per_s": h.tps(a.measured),
                   "bytes": h.gib(a.measured, 2), "tokens": h.num(a.measured), "count": h.num(a.measured),
                   "bool": h.t("common.yes" if a.measured else "common.no"),
                   "images_per_s": h.t("vperf.ips", n=a.measured)}[a.unit]
        criterion = h.t(f"limit.{a.code}", p=a.percentile or 99)
        if a.phase == "serving_after":
            criterion = h.t("acceptance.after_prefix", what=criterion)
        rows.append([str(a.index), criterion, f"{symbol} {value}",
                     h.msg(a.basis), got, h.t(f"common.{a.status}"), f"[{a.command}]"])
        attrs.append({"limit": a.code, "value": h.raw(a.value), "command": a.command})
    return h.table([h.t("acceptance.index"), h.t("acceptance.criterion"), h.t("acceptance.limit"),
                    h.t("acceptance.basis"), h.t("acceptance.measured"), h.t("acceptance.status"),
                    h.t("acceptance.command")], rows, attrs=attrs)


def measured_levels(h: _Helpers, c: ProposalContext) -> Any:
    m = c.measured
    assert m is not None
    rows = []
    for lv in m.levels:
        sla = ("—" if lv.meets_slo is None else h.t("common.pass" if lv.meets_slo else "common.fail"))
        if lv.client_lagged:
            sla = h.t("measured.lagged")
        done = h.num(lv.requests_completed)
        if lv.requests_failed:
            done = h.t("measured.with_failed", done=lv.requests_completed or 0, failed=lv.requests_failed)
        rows.append([h.num(lv.concurrency), done, f"{h.ms(lv.ttft_ms.p50)} / {h.ms(lv.ttft_ms.p99)}",
                     f"{h.ms(lv.tpot_ms.p50, 1)} / {h.ms(lv.tpot_ms.p99, 1)}", h.tps(lv.output_tokens_per_s),
                     h.gib(lv.peak_gpu_memory_bytes), sla])
    return h.table([h.t("measured.concurrency"), h.t("measured.requests"), "TTFT P50 / P99", "TPOT P50 / P99",
                    h.t("metric.output_tps"), h.t("measured.peak"), "SLA"], rows, numeric=(0, 1, 2, 3, 4, 5))


def measured_comparison(h: _Helpers, c: ProposalContext) -> Any:
    m = c.measured
    assert m is not None
    rows = []
    for row in m.comparison:
        memory = row.metric == "peak_memory"

        def fmt(v: Any, memory: bool = memory) -> Any:
            return h.gib(v) if memory else h.num(v, 1)

        dev = "—" if row.deviation_pct is None else f"{'+' if row.deviation_pct >= 0 else '−'}" \
                                                    f"{h.num(abs(row.deviation_pct), 1)}\u00a0%"
        rows.append([h.t(f"compare.{row.metric}"), fmt(row.estimate), fmt(row.measured), dev])
    attrs = [{"metric": r.metric, "estimate": h.raw(r.estimate), "measured": h.raw(r.measured)} for r in m.comparison]
    return h.table([h.t("perf.metric"), h.t("measured.estimate"), h.t("measured.measured"),
                    h.t("measured.deviation")], rows, numeric=(1, 2, 3), attrs=attrs)


def risks(h: _Helpers, c: ProposalContext) -> Any:
    items = []
    for risk in c.risks:
        if risk.code == "tool":
            said = h.msg(risk.msg)  # a tool's note is a clause; in the list it is a sentence like the others
            # (the full stop joined to the escaped text, not to a plain str that would be escaped a second time)
            items.append(said if str(said).rstrip().endswith((".", "?", "!")) else h.safe(str(said) + "."))
        elif risk.code == "assumed_answers":
            items.append(h.t("risk.assumed_answers", items=[field_label_at(h, c, f) for f in risk.items]))
        elif risk.items:
            items.append(h.t(f"risk.{risk.code}", items=risk.items))
        else:
            items.append(h.t(f"risk.{risk.code}"))
    items.append(h.t("risk.model_limits"))
    return h.ul(items)


def software(h: _Helpers, c: ProposalContext) -> Any:
    rows = []
    for item in c.software:
        if item.value is not None:
            value = (_choice_label(h, "framework", item.value) if item.key == "framework" else None) or item.value
            if item.key == "framework_version" and item.value == "latest":
                value = _latest(h)
        else:
            value = h.t("common.unpinned" if item.key == "revision" else "common.unknown")
        rows.append([h.t(f"software.{item.key}"), value])
    return h.table([h.t("software.item"), h.t("software.version")], rows)


def sources(h: _Helpers, c: ProposalContext) -> Any:
    items = [h.t("sources.line", id=s.id, ref=", ".join(s.links) if s.links else h.t("sources.no_link"))
             for s in c.sources]
    vision = c.result.plan.vision if c.result.plan is not None else None
    if vision is not None:
        items.append(h.t("sources.vision_model", name=vision.request.model,
                         library=h.msg(Msg(f"library.{vision.library}"))))
    else:
        items.append(h.t("sources.model_custom") if c.model.custom else h.t("sources.model", name=c.model.name))
    return h.ul(items)


def chips(h: _Helpers, r: RecommendResult) -> Any:
    """Seed 003's per-chip normalisation of the options evaluated: per chip, per euro, per watt, one row per
    chip (its best configuration), best value first; only chips that serve the load."""
    from sizer_agent.tools.catalog import load_catalog
    from sizer_agent.tools.compare_chips import rows_from_result

    catalog = load_catalog()
    known = {g.id for g in catalog.gpus}
    # a session stored before a chip left the catalogue (or a damaged one) still renders: a chip the catalogue
    # no longer holds has no spec to normalise by, so it leaves this table only
    r = r.model_copy(update={"options": [p for p in r.options if p.gpu_id in known]})
    chosen = [row for row in rows_from_result(r, catalog) if row.fits and row.tokens_per_eur is not None]
    if not chosen:
        return ""
    tiled = any(row.attention_fill is not None for row in chosen)  # the fill column only beside a TPU/Trainium
    rows, attrs = [], []
    for row in chosen:
        # the product name without the catalogue's descriptive parenthesis ("(per Blackwell Ultra GPU, NVL72)"),
        # which is English prose, not a name
        cells = [row.gpu_name.split(" (")[0], row.vendor, h.num(row.chips), h.tps(row.tokens_per_s_per_chip),
                 h.eur(row.eur_per_chip_hour, 2) + "/h", h.num((row.tokens_per_eur or 0) / 1e6, 2),
                 h.num(row.tokens_per_s_per_watt, 1) if row.tokens_per_s_per_watt is not None else "—"]
        if tiled:
            fill = "—" if row.attention_fill is None else f"{h.pct(row.attention_fill)} / {h.pct(row.linear_fill)}"
            if row.kv_fill is not None and row.kv_fill < 1:
                fill += f", KV {h.pct(row.kv_fill)}"
            cells.append(fill)
        rows.append(cells)
        attrs.append({"gpu": row.gpu_id, "tokens-per-eur": h.raw(row.tokens_per_eur)})
    headers = [h.t("chips.chip"), h.t("chips.vendor"), h.t("chips.count"), h.t("chips.per_chip"),
               h.t("chips.eur_per_chip_hour"), h.t("chips.mtok_per_eur"), h.t("chips.per_watt")]
    return h.table([*headers, h.t("chips.fill")] if tiled else headers, rows, numeric=(2, 3, 4, 5, 6), attrs=attrs)


def cluster(h: _Helpers, c: ProposalContext) -> Any:
    """The multi-node plan: per offer, its serving layout and per-GPU memory, or its training scaling curve."""
    plan = c.cluster
    assert plan is not None
    if plan.mode == "inference":
        rows = []
        for o in plan.options:
            s = o.serving
            if s is None:
                continue
            lay = s.layout
            layout = (f"EP{lay.ep} × {lay.replicas}" if lay.kind == "wide_ep"
                      else f"TP{lay.tp} × PP{lay.pp} × {lay.replicas}")
            rows.append([o.offer_name, h.num(o.units), h.num(o.gpus), layout,
                         f"{h.num(s.memory.weights_gb, 1)} + {h.num(s.memory.kv_cache_gb, 1)}",
                         h.num(s.tpot_ms), h.num(s.tokens_per_s_per_chip),
                         "—" if o.tokens_per_eur is None else h.num(o.tokens_per_eur)])
        return h.table([h.t("cluster.offer"), h.t("cluster.units"), "GPU", h.t("cluster.layout"),
                        h.t("cluster.memory"), "TPOT (ms)", h.t("cluster.per_chip"), h.t("cluster.tokens_per_eur")],
                       rows, numeric=(1, 2, 5, 6, 7))
    rows = []
    timed = any(p.job_hours is not None for o in plan.options for p in o.scaling)  # a job of known size
    for o in plan.options:
        points = o.scaling
        if o.deadline_chips is not None:
            # a job with a deadline: the count that makes it and its neighbours, not the whole ladder to 4,096
            at = next(i for i, p in enumerate(points) if p.chips == o.deadline_chips)
            points = points[max(0, at - 1):at + 2]
        for p in points:
            e = p.estimate
            if e is None:
                rows.append([o.offer_name, h.num(p.chips), h.t("cluster.no_fit"), "—", "—", "—", "—",
                             *(["—"] if timed else [])])
                continue
            split = e.layout
            rows.append([o.offer_name, h.num(p.chips), f"TP{split.tp} PP{split.pp} CP{split.cp} DP{split.dp}",
                         h.num(e.tokens_per_s_per_chip), h.pct(p.scaling_efficiency, 1), h.pct(e.mfu),
                         h.pct(e.goodput, 1), *([h.num(p.job_hours) if p.job_hours is not None else "—"]
                                                if timed else [])])
    return h.table([h.t("cluster.offer"), h.t("cluster.chips"), h.t("cluster.layout"), h.t("cluster.per_chip"),
                    h.t("cluster.efficiency"), h.t("cluster.mfu"), h.t("cluster.goodput"),
                    *([h.t("cluster.job_hours")] if timed else [])], rows,
                   numeric=(1, 3, 4, 5, 6, 7) if timed else (1, 3, 4, 5, 6))


def cluster_deadline(h: _Helpers, c: ProposalContext) -> Any:
    """A training with a deadline: per offer, the fewest chips of the ladder that end the job in time."""
    plan = c.cluster
    if plan is None or plan.mode == "inference":
        return ""
    lines = [h.msg(said) for said in (o.deadline_said() for o in plan.options) if said is not None]
    return h.ul(lines) if lines else ""
