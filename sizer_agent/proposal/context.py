"""The proposal context: everything the templates print, read from a session export.

`build_context(session)` takes the session export dict (format `sizer-agent-session/1`) and returns a
`ProposalContext`. Every number in it comes from a tool result or a benchmark stored in the session; this
module only selects, converts units (bytes to GiB, FLOP/s to TFLOP/s) and derives the few comparisons the
proposal needs, each in one named function below: the deviation of a measurement from its estimate, the
throughput an SLA implies at the stated load, perf per 1 000 €.

Tolerance: a missing optional part (recommendation, benchmark, host requirements, roofline) becomes
`None` and the templates say "not measured"/"not provided"; a missing required part (no successful
estimate) raises `InputError` naming it. Both the shapes of the tools (`tools.estimate`, `tools.recommend`,
`tools.bench.results.ServeResult`) and the flatter shapes of the session contract are read.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from sizer_agent import __version__
from sizer_agent.proposal.fields import FIELD_ORDER, MEMORY_TERMS, SYSTEM_ORDER
from sizer_agent.proposal.models import (
    AcceptanceLimit,
    Answer,
    Command,
    Comparison,
    EngineProfile,
    HostItem,
    Level,
    Measured,
    MemoryTerm,
    MultiGpu,
    OfferVerdict,
    Option,
    OptionPerf,
    Performance,
    ProposalContext,
    Recommendation,
    Risk,
    Roofline,
    RooflinePoint,
    Sizing,
    SoftwareItem,
    Source,
    Stat,
    WeightFigure,
)
from tools.errors import InputError

SESSION_FORMAT = "sizer-agent-session/1"
GIB = 2**30
ESTIMATE_TOOLS = ("estimate_memory", "estimate")
RECOMMEND_TOOL = "recommend"
BENCH_BASE_URL = "http://SERVER:8000"  # placeholder the customer replaces with the machine under test
MIN_PROMPTS = 200  # a P99 over fewer than ~200 requests rests on two samples; 8 per slot otherwise


# --- derived comparisons (the only arithmetic in the proposal besides unit conversion) -------------------

def deviation_pct(measured: float | None, estimate: float | None) -> float | None:
    """(measured − estimate) / estimate, in %: positive when the machine measured more than estimated."""
    if measured is None or estimate is None or estimate == 0:
        return None
    return (measured - estimate) / estimate * 100.0


def sla_implied_throughput(concurrency: int, output_len: int, slo_ttft_ms: float, slo_tpot_ms: float) -> float:
    """Output tokens/s of `concurrency` closed-loop clients when every request sits exactly at the SLA.

    A request lasts TTFT + (output_len − 1) × TPOT (DESIGN §6: TPOT = (E2E − TTFT) / (tokens − 1)), so a
    machine meeting the SLA delivers at least concurrency × output_len / that duration tokens per second.
    """
    seconds = (slo_ttft_ms + (output_len - 1) * slo_tpot_ms) / 1000.0
    return concurrency * output_len / seconds


def tokens_per_s_per_keur(tokens_per_s: float | None, price_eur: float | None) -> float | None:
    """Perf per euro (seed 003: compare performance per euro, not raw performance), per 1 000 € of price."""
    if tokens_per_s is None or not price_eur:
        return None
    return tokens_per_s / price_eur * 1000.0


# --- small readers -------------------------------------------------------------------------------------

def _gib(value: Any) -> float | None:
    return value / GIB if isinstance(value, int | float) and not isinstance(value, bool) else None


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _first(mapping: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if mapping.get(key) is not None:
            return mapping[key]
    return None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _length(value: Any) -> int | None:
    """A token length: an int, or bench's {low, high} when both ends are equal."""
    if isinstance(value, dict):
        low, high = _int(value.get("low")), _int(value.get("high"))
        return low if low is not None and low == high else None
    return _int(value)


def _latest(session: dict[str, Any], names: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(arguments, result) of the most recent successful call of one of `names`."""
    for call in reversed(_list(session.get("tool_calls"))):
        ok = isinstance(call, dict) and call.get("tool") in names and call.get("ok")
        if ok and isinstance(call.get("result"), dict):
            return _dict(call.get("arguments")), call["result"]
    return None


def _answer_value(session: dict[str, Any], *names: str) -> Any:
    answers = _dict(session.get("answers"))
    for name in names:
        item = answers.get(name)
        if isinstance(item, dict) and item.get("value") is not None:
            return item["value"]
    return None


# --- sections ------------------------------------------------------------------------------------------

def _answers(session: dict[str, Any]) -> list[Answer]:
    raw = session.get("answers") or {}
    if not isinstance(raw, dict):
        raise InputError("answers", "must be an object mapping each field to its answer")
    order = {name: i for i, name in enumerate(FIELD_ORDER)}
    rows = []
    for name in sorted(raw, key=lambda n: (order.get(n, len(order)), n)):
        item = raw[name] if isinstance(raw[name], dict) else {"value": raw[name]}
        history = _list(item.get("history"))
        rows.append(Answer(field=name, value=item.get("value"), assumed=bool(item.get("assumed", False)),
                           raw_text=str(item.get("raw_text") or ""), corrections=max(0, len(history) - 1)))
    return rows


def _sizing(estimate: dict[str, Any], recommend: dict[str, Any] | None) -> Sizing:
    request, model = _dict(estimate.get("request")), _dict(estimate.get("model"))
    per_gpu = estimate.get("per_gpu")
    if not isinstance(per_gpu, dict) or not isinstance(per_gpu.get("total_bytes"), int | float):
        raise InputError("estimate_memory.result.per_gpu", "the estimate carries no per-GPU memory breakdown")
    total = int(per_gpu["total_bytes"])
    terms = []
    for key in MEMORY_TERMS:
        value = per_gpu.get(f"{key}_bytes")
        if isinstance(value, int | float) and value > 0:
            terms.append(MemoryTerm(key=key, bytes=int(value), gib=value / GIB,
                                    share_pct=value / total * 100.0 if total else 0.0))
    dominant = estimate.get("dominant_term")
    if dominant not in MEMORY_TERMS:
        dominant = max(terms, key=lambda term: term.bytes).key if terms else "weights"
    engine = None
    raw_engine = estimate.get("engine")
    if isinstance(raw_engine, dict):
        engine = EngineProfile(
            name=raw_engine.get("name") or request.get("engine"), budget_gib=_gib(raw_engine.get("budget_bytes")),
            total_used_gib=_gib(raw_engine.get("total_used_bytes")),
            kv_cache_gib=_gib(raw_engine.get("kv_cache_bytes")),
            kv_cache_tokens=_int(raw_engine.get("kv_cache_tokens")),
            max_concurrency=_num(raw_engine.get("max_concurrency")),
            gpu_memory_utilization=_num(_first(raw_engine, "gpu_memory_utilization")
                                        or request.get("gpu_memory_utilization")),
        )
    figures = [
        WeightFigure(precision=str(f.get("precision")), bytes_per_param=_num(f.get("bytes_per_param")) or 0.0,
                     gb=f["weight_bytes"] / 1e9)
        for f in _list((recommend or {}).get("weights"))
        if isinstance(f, dict) and isinstance(f.get("weight_bytes"), int | float)
    ]
    weight_total = estimate.get("weight_bytes_total")
    return Sizing(
        model=str(model.get("name") or request.get("model") or "?"),
        revision=model.get("revision") or request.get("revision"), architecture=model.get("architecture"),
        params_total=_int(model.get("params_total")), params_active=_int(model.get("params_active")),
        mode=str(request.get("mode") or "inference"),
        precision=str(request.get("quantization") or estimate.get("weight_format") or request.get("dtype") or "auto"),
        kv_cache_dtype=request.get("kv_cache_dtype"), input_len=_int(request.get("input_len")),
        output_len=_int(request.get("output_len")), concurrency=_int(request.get("concurrency")),
        max_model_len=_int(_first(estimate, "max_model_len") or request.get("max_model_len")),
        gpu=estimate.get("gpu_name") or request.get("gpu"), terms=terms, total_bytes=total,
        total_gib=total / GIB, dominant=dominant, gpu_memory_gib=_gib(estimate.get("gpu_memory_bytes")),
        fits=estimate.get("fits"), headroom_gib=_gib(estimate.get("headroom_bytes")),
        kv_bytes_per_token=_int(estimate.get("kv_cache_bytes_per_token")),
        weight_gb_total=weight_total / 1e9 if isinstance(weight_total, int | float) else None,
        weight_figures=figures, engine=engine,
    )


def _option(raw: dict[str, Any], recommended_id: str | None) -> Option:
    perf = None
    if isinstance(raw.get("perf"), dict):
        p = raw["perf"]
        perf = OptionPerf(
            ttft_ms=_num(p.get("ttft_ms")), tpot_ms=_num(p.get("tpot_ms")),
            output_tokens_per_s=_num(p.get("output_tokens_per_s")),
            max_concurrency_under_slo=_num(p.get("max_concurrency_under_slo")),
            sla_met=p.get("sla_met"), sustained_output_tokens_per_s=_num(p.get("sustained_output_tokens_per_s")),
        )
        if all(v is None for v in perf.model_dump().values()):
            perf = None
    price = _num(raw.get("price_eur"))
    per_eur = _num(_first(raw, "tokens_per_s_per_eur"))
    per_keur = per_eur * 1000.0 if per_eur is not None else tokens_per_s_per_keur(
        perf.output_tokens_per_s if perf else None, price)
    offer_id = str(raw.get("offer_id") or "?")
    return Option(
        offer_id=offer_id, name=str(raw.get("name") or ""), kind=raw.get("kind"),
        gpu=str(raw.get("gpu_name") or raw.get("gpu") or ""), num_gpus=_int(raw.get("num_gpus")) or 1,
        tp=_int(raw.get("tensor_parallel_size")) or 1, pp=_int(raw.get("pipeline_parallel_size")) or 1,
        precision=raw.get("precision"), price_eur=price,
        hourly_eur=_num(_first(raw, "hourly_eur", "price_eur_per_hour")), fits=bool(raw.get("fits")),
        recommended=offer_id == recommended_id, reasons=[str(r) for r in _list(raw.get("reasons"))],
        notes=[str(n) for n in _list(raw.get("notes"))], per_gpu_total_gib=_gib(raw.get("per_gpu_total_bytes")),
        gpu_memory_gib=_gib(raw.get("gpu_memory_bytes")), headroom_pct=_num(raw.get("headroom_pct")), perf=perf,
        eur_per_million_tokens=_num(raw.get("eur_per_million_tokens")), tokens_per_s_per_keur=per_keur,
        power_w=_num(raw.get("power_w")),
    )


def _recommendation(recommend: dict[str, Any] | None) -> Recommendation | None:
    if recommend is None:
        return None
    rec = recommend.get("recommended")
    if isinstance(rec, dict):  # {"offer_id", "reason"}
        rec_id, reason = rec.get("offer_id"), rec.get("reason")
    else:
        rec_id, reason = (rec if isinstance(rec, str) else None), recommend.get("recommended_reason")
    raw_options = [o for o in _list(recommend.get("options")) if isinstance(o, dict)]
    # The tool lists offer × GPU count × parallelism × precision, ranked; the proposal shows the recommended
    # option and, for every other offer, the first (best-ranked) of its options.
    shown: list[dict[str, Any]] = []
    seen: set[str] = set()
    if rec_id is not None:
        chosen = next((o for o in raw_options if o.get("offer_id") == rec_id), None)
        if chosen is not None:
            shown.append(chosen)
            seen.add(rec_id)
    for option in raw_options:
        if str(option.get("offer_id")) not in seen:
            shown.append(option)
            seen.add(str(option.get("offer_id")))
    offers = [
        OfferVerdict(offer_id=str(v.get("offer_id")), name=str(v.get("name") or ""), fits=bool(v.get("fits")),
                     summary=str(v.get("summary") or ""))
        for v in _list(recommend.get("offers")) if isinstance(v, dict)
    ]
    return Recommendation(
        recommended_id=rec_id, reason=reason, options=[_option(o, rec_id) for o in shown],
        evaluated=len(raw_options), offers=offers, assumptions=[str(a) for a in _list(recommend.get("assumptions"))],
    )


def _roofline(perf: dict[str, Any], precision: str | None) -> Roofline | None:
    roof = perf.get("roofline")
    if isinstance(roof, list):  # tools.perf: [{phase, operational_intensity, attainable_flops, ridge_point, …}]
        points_raw, top = roof, {}
    elif isinstance(roof, dict):
        top, by_phase = roof, roof.get("points")
        if isinstance(by_phase, dict):  # {"prefill": {...}, "decode": {...}}
            points_raw = [{"phase": k, **v} for k, v in by_phase.items() if isinstance(v, dict)]
        else:
            points_raw = _list(by_phase)
    else:
        return None
    points = []
    ridge = _num(_first(top, "ridge_point_flops_per_byte", "ridge_point"))
    peak = _num(_first(top, "peak_flops_per_s", "peak_flops"))
    bandwidth = _num(_first(top, "memory_bandwidth_bytes_per_s", "bandwidth_bytes_per_s"))
    for point in points_raw:
        if not isinstance(point, dict):
            continue
        oi = _num(_first(point, "operational_intensity", "intensity_flops_per_byte"))
        attainable = _num(_first(point, "attainable_flops_per_s", "attainable_flops"))
        if not oi or not attainable:
            continue
        ridge = ridge or _num(point.get("ridge_point"))
        time_s = _num(point.get("time_s"))
        points.append(RooflinePoint(phase=str(point.get("phase") or "?"), operational_intensity=oi,
                                    attainable_tflops=attainable / 1e12, bound=point.get("bound"),
                                    time_ms=time_s * 1000 if time_s is not None else None))
    if not points:
        return None
    # The roof itself: given, or read back from the tool's own points (attainable = min(peak, OI × bandwidth)).
    if (peak is None or bandwidth is None) and ridge:
        below = [p for p in points if p.operational_intensity < ridge]
        above = [p for p in points if p.operational_intensity >= ridge]
        if above:
            peak = peak or above[0].attainable_tflops * 1e12
        elif below:
            bandwidth = bandwidth or below[0].attainable_tflops * 1e12 / below[0].operational_intensity
        if peak and not bandwidth:
            bandwidth = peak / ridge
        if bandwidth and not peak:
            peak = bandwidth * ridge
    if not peak or not bandwidth:
        return None
    return Roofline(peak_tflops=peak / 1e12, bandwidth_tb_s=bandwidth / 1e12, ridge_flops_per_byte=ridge,
                    precision=top.get("precision") or perf.get("compute_precision") or precision, points=points)


def _slo(session: dict[str, Any], args: dict[str, Any]) -> tuple[float | None, float | None, float]:
    ttft = _num(args.get("slo_ttft_ms")) or _num(_answer_value(session, "ttft_ms", "slo_ttft_ms"))
    tpot = _num(args.get("slo_tpot_ms")) or _num(_answer_value(session, "tpot_ms", "slo_tpot_ms"))
    pct = _num(args.get("percentile")) or _num(_answer_value(session, "percentile")) or 99.0
    return ttft, tpot, pct


def _performance(
    estimate: dict[str, Any], rec: Recommendation | None, slo: tuple[float | None, float | None, float],
    sizing: Sizing,
) -> Performance | None:
    perf = estimate.get("perf") if isinstance(estimate.get("perf"), dict) else None
    chosen = next((o for o in rec.options if o.recommended), None) if rec else None
    if (chosen is None or chosen.perf is None) and perf is None:
        return None
    base = perf or {}
    common: dict[str, Any] = {
        "concurrency": sizing.concurrency, "percentile": _num(base.get("percentile")) or slo[2],
        "ttft_mean_ms": _num(base.get("ttft_mean_ms")), "bound": base.get("bound"),
        "slo_ttft_ms": slo[0], "slo_tpot_ms": slo[1], "slo_percentile": slo[2],
        "roofline": _roofline(perf, sizing.precision) if perf else None,
        "assumptions": [str(a) for a in _list(base.get("assumptions"))],
    }
    if chosen is not None and chosen.perf is not None:
        p = chosen.perf
        return Performance(
            basis="recommended", offer_id=chosen.offer_id, ttft_ms=p.ttft_ms, tpot_ms=p.tpot_ms,
            output_tokens_per_s=p.output_tokens_per_s, max_concurrency_under_slo=p.max_concurrency_under_slo,
            sustained_output_tokens_per_s=p.sustained_output_tokens_per_s,
            eur_per_million_tokens=chosen.eur_per_million_tokens, tokens_per_s_per_keur=chosen.tokens_per_s_per_keur,
            **common,
        )
    assert perf is not None
    sla = _dict(perf.get("sla"))
    return Performance(
        basis="estimate", offer_id=None, ttft_ms=_num(perf.get("ttft_ms")), tpot_ms=_num(perf.get("tpot_ms")),
        output_tokens_per_s=_num(perf.get("output_tokens_per_s")),
        max_concurrency_under_slo=_num(_first(perf, "max_concurrency_under_slo") or sla.get("max_concurrency")),
        sustained_output_tokens_per_s=None, eur_per_million_tokens=_num(perf.get("eur_per_million_tokens")),
        tokens_per_s_per_keur=None, **common,
    )


def _stat(raw: Any) -> Stat:
    return Stat(**{k: _num(raw.get(k)) for k in ("mean", "p50", "p90", "p99")}) if isinstance(raw, dict) else Stat()


def _trial_settings(bench: dict[str, Any]) -> dict[str, Any]:
    """The trial settings, flat: the contract's keys, or bench serve's settings + server + hardware."""
    settings, hardware, server = _dict(bench.get("settings")), _dict(bench.get("hardware")), _dict(bench.get("server"))
    gpus = [g for g in _list(hardware.get("gpus")) if isinstance(g, dict)]
    gpu = settings.get("gpu") or (gpus[0].get("name") if gpus else None)
    flat = {
        "model": settings.get("model") or (server.get("models") or [None])[0],
        "revision": settings.get("revision"),
        "precision": _first(settings, "precision", "dtype"),
        "kv_cache_dtype": settings.get("kv_cache_dtype"),
        "input_len": _length(settings.get("input_len")),
        "output_len": _length(settings.get("output_len")),
        "engine": settings.get("engine") or server.get("engine"),
        "engine_version": settings.get("engine_version") or server.get("version"),
        "gpu": gpu,
        "num_gpus": settings.get("num_gpus") or (len(gpus) if gpus else None),
        "driver": settings.get("driver") or hardware.get("driver_version"),
    }
    return {k: v for k, v in flat.items() if v is not None or k == "revision"}


def _mismatches(settings: dict[str, Any], sizing: Sizing) -> list[str]:
    """Trial settings that differ from the estimate's (DESIGN §6: compare only like with like)."""
    expected: dict[str, Any] = {
        "model": sizing.model, "precision": sizing.precision, "kv_cache_dtype": sizing.kv_cache_dtype,
        "input_len": sizing.input_len, "output_len": sizing.output_len,
    }
    if sizing.revision is not None:
        expected["revision"] = sizing.revision
    differ = []
    for key, want in expected.items():
        got = settings.get(key)
        if got is None or want is None or want == "auto":
            continue
        if str(got).lower() != str(want).lower():
            differ.append(key)
    return differ


def _measured(bench: dict[str, Any], sizing: Sizing, perf: Performance | None) -> Measured:
    settings = _trial_settings(bench)
    sla_max = _int(bench.get("sla_max_concurrency"))
    levels = []
    for raw in _list(bench.get("levels")):
        if not isinstance(raw, dict) or _int(raw.get("concurrency")) is None:
            continue
        conc = int(raw["concurrency"])
        verdict = raw.get("sla_passed")
        if not isinstance(verdict, bool):
            verdict = (conc <= sla_max) if sla_max is not None else None
        levels.append(Level(
            concurrency=conc, requests_completed=_int(raw.get("requests_completed")),
            requests_failed=_int(raw.get("requests_failed")), ttft_ms=_stat(raw.get("ttft_ms")),
            tpot_ms=_stat(raw.get("tpot_ms")), itl_ms=_stat(raw.get("itl_ms")),
            output_tokens_per_s=_num(raw.get("output_tokens_per_s")),
            total_tokens_per_s=_num(raw.get("total_tokens_per_s")), goodput_rps=_num(raw.get("goodput_rps")),
            client_lagged=bool(raw.get("client_lagged")), peak_gpu_memory_gib=_gib(raw.get("peak_gpu_memory_bytes")),
            meets_slo=verdict,
        ))
    levels.sort(key=lambda level: level.concurrency)
    if sla_max is None and any(lv.meets_slo is not None for lv in levels):
        passing = [lv.concurrency for lv in levels if lv.meets_slo and not lv.client_lagged]
        sla_max = max(passing) if passing else None
    at_load = next((lv for lv in levels if lv.concurrency == sizing.concurrency), None)
    mismatches = _mismatches(settings, sizing)
    comparable = not mismatches and at_load is not None and not at_load.client_lagged
    comparison: list[Comparison] = []
    if comparable and at_load is not None:
        pct_stat = _at_percentile(at_load.ttft_ms, perf.percentile if perf else 99.0)
        rows: list[tuple[Any, float | None, float | None]] = [
            ("ttft_p", perf.ttft_ms if perf else None, pct_stat),
            ("ttft_mean", perf.ttft_mean_ms if perf else None, at_load.ttft_ms.mean),
            ("tpot_mean", perf.tpot_ms if perf else None, at_load.tpot_ms.mean),
            ("output_tokens_per_s", perf.output_tokens_per_s if perf else None, at_load.output_tokens_per_s),
            ("peak_memory_gib", _memory_limit_gib(sizing), at_load.peak_gpu_memory_gib),
        ]
        comparison = [Comparison(metric=m, estimate=e, measured=v, deviation_pct=deviation_pct(v, e))
                      for m, e, v in rows if e is not None or v is not None]
    return Measured(
        settings=settings, created=_first(bench, "created", "started_at"),
        percentile_method=_first(bench, "percentile_method", "percentile_rule"), levels=levels,
        sla_max_concurrency=sla_max, at_load=at_load, comparable=comparable, mismatches=mismatches,
        comparison=comparison, warnings=[str(w) for w in _list(bench.get("warnings"))],
    )


def _at_percentile(stat: Stat | None, percentile: float | None) -> float | None:
    if stat is None:
        return None
    return {99.0: stat.p99, 90.0: stat.p90, 50.0: stat.p50}.get(float(percentile or 99.0))


def _memory_limit_gib(sizing: Sizing) -> float:
    """The per-GPU memory the sizing rests on: for an engine, all it reserves (budget + graphs + context)."""
    if sizing.engine and sizing.engine.total_used_gib is not None:
        return sizing.engine.total_used_gib
    return sizing.total_gib


def _host(recommend: dict[str, Any] | None) -> list[HostItem] | None:
    system = (recommend or {}).get("system")
    if isinstance(system, dict) and isinstance(system.get("requirements"), list):  # tools.system_sizing
        entries = {str(r.get("name")): r for r in system["requirements"] if isinstance(r, dict)}
    elif isinstance(system, dict):
        entries = {k: (v if isinstance(v, dict) else {"value": v}) for k, v in system.items()}
    else:
        return None
    if not entries:
        return None
    order = {name: i for i, name in enumerate(SYSTEM_ORDER)}
    items = []
    for key in sorted(entries, key=lambda k: (order.get(k, len(order)), k)):
        item = entries[key]
        value, unit = item.get("value"), str(item.get("unit") or "")
        source = item.get("source") or item.get("src")
        if isinstance(source, list):
            source = ", ".join(str(s.get("id", s)) if isinstance(s, dict) else str(s) for s in source)
        elif isinstance(source, dict):
            source = source.get("id") or source.get("ref")
        reason = item.get("reason") or "; ".join(str(r) for r in _list(item.get("reasons"))) or None
        host = HostItem(key=key, kind="text", value=value, reason=reason, source=source)
        amount = _num(value)
        if unit.lower() in ("bytes", "b") and amount is not None:
            host.kind, host.gib, host.tb = "bytes", amount / GIB, amount / 1e12
        elif isinstance(value, bool):
            host.kind = "bool"
        elif amount is not None:
            host.kind, host.unit = "quantity", unit or None
        items.append(host)
    return items


def _sources(*results: dict[str, Any] | None) -> list[Source]:
    """Every source named in the tool results (`source`, `sources`, `src`, `*_source` keys), once."""
    found: dict[str, Source] = {}

    def add(entry: Any) -> None:
        if isinstance(entry, dict):
            sid = str(entry.get("id") or entry.get("ref") or "")
            ref = entry.get("ref") or entry.get("url") or entry.get("title")
            if sid and (sid not in found or (found[sid].ref is None and ref)):
                found[sid] = Source(id=sid, ref=str(ref) if ref else None)
        elif isinstance(entry, str) and entry and entry not in found:
            found[entry] = Source(id=entry, ref=None)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("source", "sources", "src") or key.endswith("_source"):
                    for entry in value if isinstance(value, list) else [value]:
                        add(entry)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for result in results:
        walk(result)
    return list(found.values())


def _acceptance(
    sizing: Sizing, slo: tuple[float | None, float | None, float], measured: Measured | None,
    served_model: str, session: dict[str, Any],
) -> tuple[list[AcceptanceLimit], list[Command]]:
    limits: list[AcceptanceLimit] = []
    at_load = measured.at_load if measured and measured.comparable else None
    memory_limit = _memory_limit_gib(sizing)

    def add(code: Any, comparator: Any, value: float | None, unit: Any, got: float | None, command: int,
            percentile: float | None = None, concurrency: int | None = None) -> None:
        status = "not_measured"
        if got is not None and value is not None:
            ok = {"<=": got <= value, ">=": got >= value, "==": got == value}[comparator]
            status = "pass" if ok else "fail"
        limits.append(AcceptanceLimit(
            index=len(limits) + 1, code=code, comparator=comparator, value=value, unit=unit,
            percentile=percentile, concurrency=concurrency, command=command, measured=got, status=status,
        ))

    if sizing.mode == "training":
        batch = _answer_value(session, "batch_size") or 1
        seq = _answer_value(session, "context_len", "seq_len") or 2048
        optimizer = _answer_value(session, "optimizer") or "adamw"
        # bench train builds the model from its config.json (random weights) and always runs the resume check;
        # it implements AdamW and SGD, the optimizers whose state the check compares.
        bench_optimizer = "sgd" if str(optimizer).lower().startswith("sgd") else "adamw"
        text = (f"sizer-agent bench train --config {served_model}/config.json --device cuda --dtype bfloat16 "
                f"--batch-size {batch} --seq-len {seq} --optimizer {bench_optimizer} --json")
        add("peak_memory", "<=", memory_limit, "gib", None, 1)
        add("checkpoint", "==", 1.0, "bool", None, 1)
        return limits, [Command(index=1, kind="train", text=text)]

    conc = sizing.concurrency or 1
    slo_ttft, slo_tpot, pct = slo
    flags = [
        f"sizer-agent bench serve --base-url {BENCH_BASE_URL} --model {served_model}",
        f"--input-len {sizing.input_len or 1024} --output-len {sizing.output_len or 256}",
        f"--concurrency {conc} --num-prompts {max(MIN_PROMPTS, 8 * conc)}",
    ]
    if slo_ttft is not None:
        flags.append(f"--slo-ttft-ms {slo_ttft:g}")
    if slo_tpot is not None:
        flags.append(f"--slo-tpot-ms {slo_tpot:g}")
    flags.append(f"--percentile {pct:g} --json")
    commands = [Command(index=1, kind="serve", text=" ".join(flags))]
    if slo_ttft is not None:
        add("ttft", "<=", slo_ttft, "ms", _at_percentile(at_load.ttft_ms if at_load else None, pct), 1, pct, conc)
    if slo_tpot is not None:
        add("tpot", "<=", slo_tpot, "ms", _at_percentile(at_load.tpot_ms if at_load else None, pct), 1, pct, conc)
    if slo_ttft is not None and slo_tpot is not None and sizing.output_len:
        floor = sla_implied_throughput(conc, sizing.output_len, slo_ttft, slo_tpot)
        add("throughput", ">=", floor, "tokens_per_s", at_load.output_tokens_per_s if at_load else None, 1,
            concurrency=conc)
    add("peak_memory", "<=", memory_limit, "gib", at_load.peak_gpu_memory_gib if at_load else None, 1,
        concurrency=conc)
    failed = float(at_load.requests_failed) if at_load and at_load.requests_failed is not None else None
    add("failed_requests", "==", 0.0, "count", failed, 1, concurrency=conc)
    return limits, commands


def _risks(
    estimate: dict[str, Any], recommend: dict[str, Any] | None, rec: Recommendation | None, sizing: Sizing,
    measured: Measured | None, assumed: list[str],
) -> list[Risk]:
    risks: list[Risk] = []
    if sizing.revision is None:
        risks.append(Risk(code="revision_unpinned"))
    if rec is None:
        risks.append(Risk(code="no_recommend"))
    elif rec.recommended_id is None:
        risks.append(Risk(code="no_recommendation", text=rec.reason))
    if measured is None:
        risks.append(Risk(code="not_measured"))
    else:
        if measured.mismatches:
            risks.append(Risk(code="settings_mismatch", items=measured.mismatches))
        if measured.at_load is None:
            risks.append(Risk(code="no_level_at_load"))
        lagged = [str(level.concurrency) for level in measured.levels if level.client_lagged]
        if lagged:
            risks.append(Risk(code="client_lagged", items=lagged))
    if assumed:
        risks.append(Risk(code="assumed_answers", items=assumed))
    chosen = next((o for o in rec.options if o.recommended), None) if rec else None
    texts = [*_list(estimate.get("warnings")), *_list((recommend or {}).get("warnings"))]
    texts += chosen.notes if chosen else []
    texts += [str(i) for i in _list(_dict((recommend or {}).get("system")).get("issues"))]
    texts += measured.warnings if measured else []
    seen: set[str] = set()
    for text in map(str, texts):
        if text not in seen:
            seen.add(text)
            risks.append(Risk(code="tool", text=text))
    return risks


def _software(session: dict[str, Any], sizing: Sizing, measured: Measured | None) -> list[SoftwareItem]:
    settings = measured.settings if measured else {}

    def text(value: Any) -> str | None:
        return None if value is None else str(value)

    return [
        SoftwareItem(key="model", value=sizing.model),
        SoftwareItem(key="revision", value=text(sizing.revision)),
        SoftwareItem(key="framework", value=text(_answer_value(session, "framework"))),
        SoftwareItem(key="framework_version", value=text(_answer_value(session, "framework_version"))),
        SoftwareItem(key="engine", value=text(settings.get("engine"))),
        SoftwareItem(key="engine_version", value=text(settings.get("engine_version"))),
        SoftwareItem(key="gpu", value=text(settings.get("gpu"))),
        SoftwareItem(key="driver", value=text(settings.get("driver"))),
        SoftwareItem(key="sizer_agent", value=__version__),
    ]


def build_context(session: dict[str, Any]) -> ProposalContext:
    """Turn a session export into the proposal context. Raises InputError naming a missing required part
    or a value of the wrong type (a damaged export), never anything else."""
    try:
        return _build(session)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "session"
        raise InputError(where, f"unexpected value in the session ({first['msg']})") from None
    except InputError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError) as error:
        # A hand-edited or damaged export: the file is user input, so one clear line, not a traceback.
        raise InputError("session", f"damaged session export ({type(error).__name__}: {error})") from None


def _build(session: dict[str, Any]) -> ProposalContext:
    if not isinstance(session, dict):
        raise InputError("session", "must be a JSON object (a sizer-agent session export)")
    if session.get("format") != SESSION_FORMAT:
        raise InputError("format", f"unknown session format {session.get('format')!r}", SESSION_FORMAT)
    found = _latest(session, ESTIMATE_TOOLS)
    if found is None:
        raise InputError("tool_calls", "the session has no successful estimate_memory call: run the sizing first")
    _, estimate = found
    recommend_args, recommend = _latest(session, (RECOMMEND_TOOL,)) or ({}, None)

    answers = _answers(session)
    sizing = _sizing(estimate, recommend)
    rec = _recommendation(recommend)
    slo = _slo(session, recommend_args)
    perf = _performance(estimate, rec, slo, sizing)
    benches = [b for b in _list(session.get("benchmarks")) if isinstance(b, dict) and b.get("levels")]
    measured = _measured(benches[-1], sizing, perf) if benches else None
    served_model = str((measured.settings.get("model") if measured else None) or sizing.model)
    acceptance, commands = _acceptance(sizing, slo, measured, served_model, session)
    assumed = [a.field for a in answers if a.assumed]
    plan = _dict(estimate.get("parallelism"))
    chosen = next((o for o in rec.options if o.recommended), None) if rec else None
    multi = MultiGpu(
        num_gpus=chosen.num_gpus if chosen else (_int(plan.get("num_gpus")) or 1),
        tp=chosen.tp if chosen else (_int(_first(plan, "tensor_parallel_size", "tp")) or 1),
        pp=chosen.pp if chosen else (_int(_first(plan, "pipeline_parallel_size", "pp")) or 1),
        dp=_int(_first(plan, "data_parallel_size", "dp")) or 1,
        notes=[str(n) for n in _list(plan.get("notes"))],
    )
    return ProposalContext(
        session_id=_int(session.get("id")), title=str(session.get("title") or ""),
        customer=str(session.get("customer") or ""), created=session.get("created"),
        updated=session.get("updated"), session_lang=session.get("lang"), answers=answers,
        assumed_fields=assumed, sizing=sizing, recommendation=rec, performance=perf, measured=measured,
        host=_host(recommend), multi_gpu=multi, risks=_risks(estimate, recommend, rec, sizing, measured, assumed),
        acceptance=acceptance, commands=commands, software=_software(session, sizing, measured),
        sources=_sources(estimate, recommend), generator_version=__version__,
    )
