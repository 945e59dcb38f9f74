"""The proposal context: everything the templates print, read from a session export.

`build_context(session)` takes the session export dict (format `sizer-agent-session/1`) and returns a
`ProposalContext`. Every number in it comes from a tool result or a benchmark stored in the session; this
module only selects, converts units (bytes to GiB, FLOP/s to TFLOP/s) and derives the few comparisons the
proposal needs, each in one named function below: the deviation of a measurement from its estimate, the
throughput an SLA implies at the stated load, perf per 1 000 € when the tool did not give it.

Tolerance: a missing optional part (recommendation, benchmark, host requirements, roofline) becomes
`None` and the templates say "not measured"/"not provided"; a missing required part (no successful
estimate) raises `InputError` naming it.
"""

from __future__ import annotations

from typing import Any

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
    if measured is None or estimate in (None, 0):
        return None
    assert estimate is not None
    return (measured - estimate) / estimate * 100.0


def sla_implied_throughput(
    concurrency: int, output_len: int, slo_ttft_ms: float, slo_tpot_ms: float
) -> float:
    """Output tokens/s of `concurrency` closed-loop clients when every request sits exactly at the SLA.

    A request lasts TTFT + (output_len − 1) × TPOT (DESIGN §6: TPOT = (E2E − TTFT) / (tokens − 1)), so a
    machine meeting the SLA delivers at least concurrency × output_len / that duration tokens per second.
    """
    seconds = (slo_ttft_ms + (output_len - 1) * slo_tpot_ms) / 1000.0
    return concurrency * output_len / seconds


def tokens_per_s_per_keur(tokens_per_s: float | None, price_eur: float | None) -> float | None:
    """Perf per euro (seed 003: compare performance per euro, not raw performance), per 1 000 €."""
    if tokens_per_s is None or not price_eur:
        return None
    return tokens_per_s / price_eur * 1000.0


# --- reading the session ------------------------------------------------------------------------------


def _gib(value: Any) -> float | None:
    return value / GIB if isinstance(value, int | float) else None


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _first(mapping: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if mapping.get(key) is not None:
            return mapping[key]
    return None


def _latest_result(
    session: dict[str, Any], names: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(arguments, result) of the most recent successful call of one of `names`."""
    calls = session.get("tool_calls") or []
    for call in reversed(calls):
        if (
            isinstance(call, dict)
            and call.get("tool") in names
            and call.get("ok")
            and isinstance(call.get("result"), dict)
        ):
            return call.get("arguments") or {}, call["result"]
    return None


def _answers(session: dict[str, Any]) -> list[Answer]:
    raw = session.get("answers") or {}
    if not isinstance(raw, dict):
        raise InputError("answers", "must be an object mapping each field to its answer")
    order = {name: i for i, name in enumerate(FIELD_ORDER)}
    rows = []
    for name in sorted(raw, key=lambda n: (order.get(n, len(order)), n)):
        item = raw[name]
        if not isinstance(item, dict):
            item = {"value": item}
        history = item.get("history") or []
        rows.append(
            Answer(
                field=name,
                value=item.get("value"),
                assumed=bool(item.get("assumed", False)),
                raw_text=str(item.get("raw_text") or ""),
                corrections=max(0, len(history) - 1),
            )
        )
    return rows


def _answer_value(session: dict[str, Any], *names: str) -> Any:
    answers = session.get("answers") or {}
    for name in names:
        item = answers.get(name)
        if isinstance(item, dict) and item.get("value") is not None:
            return item["value"]
    return None


def _sizing(estimate: dict[str, Any]) -> Sizing:
    request = estimate.get("request") or {}
    model = estimate.get("model") or {}
    per_gpu = estimate.get("per_gpu")
    if not isinstance(per_gpu, dict) or not isinstance(per_gpu.get("total_bytes"), int | float):
        raise InputError("estimate_memory.result.per_gpu", "the estimate carries no per-GPU memory breakdown")
    total = per_gpu["total_bytes"]
    terms = [
        MemoryTerm(
            key=key,
            bytes=int(per_gpu[f"{key}_bytes"]),
            gib=per_gpu[f"{key}_bytes"] / GIB,
            share_pct=per_gpu[f"{key}_bytes"] / total * 100.0 if total else 0.0,
        )
        for key in MEMORY_TERMS
        if isinstance(per_gpu.get(f"{key}_bytes"), int | float) and per_gpu[f"{key}_bytes"] > 0
    ]
    dominant = max(terms, key=lambda term: term.bytes).key if terms else "weights"
    engine_raw = estimate.get("engine")
    engine = None
    if isinstance(engine_raw, dict):
        engine = EngineProfile(
            name=engine_raw.get("name") or request.get("engine"),
            budget_gib=_gib(engine_raw.get("budget_bytes")),
            kv_cache_gib=_gib(engine_raw.get("kv_cache_bytes")),
            kv_cache_tokens=_int(engine_raw.get("kv_cache_tokens")),
            max_concurrency=_num(engine_raw.get("max_concurrency")),
            gpu_memory_utilization=_num(request.get("gpu_memory_utilization")),
        )
    quant = request.get("quantization")
    precision = quant or request.get("dtype") or "auto"
    weight_total = estimate.get("weight_bytes_total")
    return Sizing(
        model=str(model.get("name") or request.get("model") or "?"),
        revision=model.get("revision") or request.get("revision"),
        architecture=model.get("architecture"),
        params_total=_int(model.get("params_total")),
        params_active=_int(model.get("params_active")),
        mode=str(request.get("mode") or "inference"),
        precision=str(precision),
        kv_cache_dtype=request.get("kv_cache_dtype"),
        input_len=_int(request.get("input_len")),
        output_len=_int(request.get("output_len")),
        concurrency=_int(request.get("concurrency")),
        max_model_len=_int(request.get("max_model_len")),
        gpu=request.get("gpu"),
        terms=terms,
        total_gib=total / GIB,
        dominant=dominant,
        gpu_memory_gib=_gib(estimate.get("gpu_memory_bytes")),
        fits=estimate.get("fits"),
        headroom_gib=_gib(estimate.get("headroom_bytes")),
        kv_bytes_per_token=_int(estimate.get("kv_cache_bytes_per_token")),
        weight_gb_total=weight_total / 1e9 if isinstance(weight_total, int | float) else None,
        engine=engine,
    )


def _option(raw: dict[str, Any], recommended_id: str | None) -> Option:
    perf_raw = raw.get("perf")
    perf = None
    if isinstance(perf_raw, dict):
        perf = OptionPerf(
            ttft_ms=_num(perf_raw.get("ttft_ms")),
            tpot_ms=_num(perf_raw.get("tpot_ms")),
            output_tokens_per_s=_num(perf_raw.get("output_tokens_per_s")),
            max_concurrency_under_slo=_num(perf_raw.get("max_concurrency_under_slo")),
        )
    price = _num(raw.get("price_eur"))
    per_eur = _num(_first(raw, "tokens_per_s_per_eur", "perf_per_eur"))
    per_keur = (
        per_eur * 1000.0
        if per_eur is not None
        else tokens_per_s_per_keur(perf.output_tokens_per_s if perf else None, price)
    )
    offer_id = str(raw.get("offer_id") or "?")
    return Option(
        offer_id=offer_id,
        name=str(raw.get("name") or ""),
        gpu=str(raw.get("gpu") or ""),
        num_gpus=_int(raw.get("num_gpus")) or 1,
        price_eur=price,
        price_hourly_eur=_num(_first(raw, "price_eur_per_hour", "hourly_eur")),
        fits=bool(raw.get("fits")),
        recommended=offer_id == recommended_id,
        reasons=[str(r) for r in raw.get("reasons") or []],
        per_gpu_total_gib=_gib(raw.get("per_gpu_total_bytes")),
        gpu_memory_gib=_gib(raw.get("gpu_memory_bytes")),
        headroom_pct=_num(raw.get("headroom_pct")),
        perf=perf,
        eur_per_million_tokens=_num(raw.get("eur_per_million_tokens")),
        tokens_per_s_per_keur=per_keur,
    )


def _recommendation(recommend: dict[str, Any] | None) -> Recommendation | None:
    if recommend is None:
        return None
    rec = recommend.get("recommended")
    if isinstance(rec, dict):
        rec_id, reason = rec.get("offer_id"), rec.get("reason")
    else:
        rec_id, reason = (rec if isinstance(rec, str) else None), recommend.get("reason")
    options = [_option(o, rec_id) for o in recommend.get("options") or [] if isinstance(o, dict)]
    return Recommendation(recommended_id=rec_id, reason=reason, options=options)


def _roofline(perf: dict[str, Any]) -> Roofline | None:
    roof = perf.get("roofline")
    if not isinstance(roof, dict):
        return None
    peak = _num(_first(roof, "peak_flops_per_s", "peak_flops"))
    bandwidth = _num(_first(roof, "memory_bandwidth_bytes_per_s", "bandwidth_bytes_per_s"))
    if not peak or not bandwidth:
        return None
    raw_points = roof.get("points") or []
    if isinstance(raw_points, dict):  # {"prefill": {...}, "decode": {...}}
        raw_points = [
            {"phase": phase, **point} for phase, point in raw_points.items() if isinstance(point, dict)
        ]
    points = []
    for point in raw_points:
        oi = _num(_first(point, "operational_intensity", "intensity_flops_per_byte"))
        attainable = _num(_first(point, "attainable_flops_per_s", "attainable_flops", "flops_per_s"))
        if oi and attainable:
            points.append(
                RooflinePoint(
                    phase=str(point.get("phase") or "?"),
                    operational_intensity=oi,
                    attainable_tflops=attainable / 1e12,
                )
            )
    return Roofline(
        peak_tflops=peak / 1e12,
        bandwidth_tb_s=bandwidth / 1e12,
        ridge_flops_per_byte=_num(
            _first(roof, "ridge_point_flops_per_byte", "ridge_point", "ridge_flops_per_byte")
        ),
        precision=roof.get("precision"),
        points=points,
    )


def _slo(
    session: dict[str, Any], recommend_args: dict[str, Any]
) -> tuple[float | None, float | None, float | None]:
    ttft = _num(_first(recommend_args, "slo_ttft_ms")) or _num(
        _answer_value(session, "slo_ttft_ms", "sla_ttft_ms")
    )
    tpot = _num(_first(recommend_args, "slo_tpot_ms")) or _num(
        _answer_value(session, "slo_tpot_ms", "sla_tpot_ms")
    )
    pct = _num(_first(recommend_args, "percentile")) or _num(_answer_value(session, "percentile")) or 99.0
    return ttft, tpot, pct


def _performance(
    estimate: dict[str, Any],
    rec: Recommendation | None,
    slo: tuple[float | None, float | None, float | None],
    concurrency: int | None,
) -> Performance | None:
    perf = estimate.get("perf") if isinstance(estimate.get("perf"), dict) else None
    chosen = next((o for o in rec.options if o.recommended), None) if rec else None
    if chosen is None and perf is None:
        return None
    roofline = _roofline(perf) if perf else None
    base = perf or {}
    if chosen is not None and chosen.perf is not None:
        p = chosen.perf
        return Performance(
            basis="recommended",
            offer_id=chosen.offer_id,
            concurrency=concurrency,
            ttft_ms=p.ttft_ms,
            tpot_ms=p.tpot_ms,
            output_tokens_per_s=p.output_tokens_per_s,
            max_concurrency_under_slo=p.max_concurrency_under_slo,
            eur_per_million_tokens=chosen.eur_per_million_tokens,
            tokens_per_s_per_keur=chosen.tokens_per_s_per_keur,
            bound=base.get("bound"),
            slo_ttft_ms=slo[0],
            slo_tpot_ms=slo[1],
            percentile=slo[2],
            roofline=roofline,
        )
    if perf is None:
        return None
    return Performance(
        basis="estimate",
        offer_id=None,
        concurrency=concurrency,
        ttft_ms=_num(perf.get("ttft_ms")),
        tpot_ms=_num(perf.get("tpot_ms")),
        output_tokens_per_s=_num(perf.get("output_tokens_per_s")),
        max_concurrency_under_slo=_num(perf.get("max_concurrency_under_slo")),
        eur_per_million_tokens=_num(perf.get("eur_per_million_tokens")),
        tokens_per_s_per_keur=None,
        bound=perf.get("bound"),
        slo_ttft_ms=slo[0],
        slo_tpot_ms=slo[1],
        percentile=slo[2],
        roofline=roofline,
    )


def _stat(raw: Any) -> Stat:
    return (
        Stat(**{k: _num(raw.get(k)) for k in ("mean", "p50", "p90", "p99")})
        if isinstance(raw, dict)
        else Stat()
    )


def _mismatches(settings: dict[str, Any], sizing: Sizing) -> list[str]:
    """Trial settings that differ from the estimate's (DESIGN §6: compare only like with like)."""
    expected: dict[str, Any] = {
        "model": sizing.model,
        "input_len": sizing.input_len,
        "output_len": sizing.output_len,
        "dtype": sizing.precision,
        "kv_cache_dtype": sizing.kv_cache_dtype,
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
    settings: dict[str, Any] = bench["settings"] if isinstance(bench.get("settings"), dict) else {}
    sla_max = _int(bench.get("sla_max_concurrency"))
    levels = []
    for raw in bench.get("levels") or []:
        if not isinstance(raw, dict) or _int(raw.get("concurrency")) is None:
            continue
        conc = int(raw["concurrency"])
        levels.append(
            Level(
                concurrency=conc,
                requests_completed=_int(raw.get("requests_completed")),
                requests_failed=_int(raw.get("requests_failed")),
                ttft_ms=_stat(raw.get("ttft_ms")),
                tpot_ms=_stat(raw.get("tpot_ms")),
                itl_ms=_stat(raw.get("itl_ms")),
                output_tokens_per_s=_num(raw.get("output_tokens_per_s")),
                total_tokens_per_s=_num(raw.get("total_tokens_per_s")),
                goodput_rps=_num(raw.get("goodput_rps")),
                client_lagged=bool(raw.get("client_lagged")),
                peak_gpu_memory_gib=_gib(raw.get("peak_gpu_memory_bytes")),
                meets_slo=(conc <= sla_max) if sla_max is not None else None,
            )
        )
    levels.sort(key=lambda level: level.concurrency)
    at_load = next((lv for lv in levels if lv.concurrency == sizing.concurrency), None)
    mismatches = _mismatches(settings, sizing)
    comparable = not mismatches and at_load is not None and not at_load.client_lagged
    comparison: list[Comparison] = []
    if comparable and at_load is not None:
        memory_estimate = (
            sizing.engine.budget_gib if sizing.engine and sizing.engine.budget_gib else sizing.total_gib
        )
        rows: list[tuple[Any, float | None, float | None, float | None]] = [
            ("ttft_ms", perf.ttft_ms if perf else None, at_load.ttft_ms.mean, at_load.ttft_ms.p99),
            ("tpot_ms", perf.tpot_ms if perf else None, at_load.tpot_ms.mean, at_load.tpot_ms.p99),
            (
                "output_tokens_per_s",
                perf.output_tokens_per_s if perf else None,
                at_load.output_tokens_per_s,
                None,
            ),
            ("peak_memory_gib", memory_estimate, at_load.peak_gpu_memory_gib, None),
        ]
        comparison = [
            Comparison(
                metric=metric,
                estimate=est,
                measured=meas,
                measured_p99=p99,
                deviation_pct=deviation_pct(meas, est),
            )
            for metric, est, meas, p99 in rows
        ]
    return Measured(
        settings=settings,
        created=bench.get("created"),
        percentile_method=bench.get("percentile_method"),
        levels=levels,
        sla_max_concurrency=sla_max,
        at_load=at_load,
        comparable=comparable,
        mismatches=mismatches,
        comparison=comparison,
    )


def _host(recommend: dict[str, Any] | None) -> list[HostItem] | None:
    system = recommend.get("system") if recommend else None
    if not isinstance(system, dict) or not system:
        return None
    order = {name: i for i, name in enumerate(SYSTEM_ORDER)}
    items = []
    for key in sorted(system, key=lambda k: (order.get(k, len(order)), k)):
        raw = system[key]
        item = raw if isinstance(raw, dict) else {"value": raw}
        value, unit = item.get("value"), str(item.get("unit") or "").lower()
        source = item.get("source") or item.get("src")
        if isinstance(source, list):
            source = ", ".join(str(s.get("id", s)) if isinstance(s, dict) else str(s) for s in source)
        elif isinstance(source, dict):
            source = source.get("id") or source.get("ref")
        reason = item.get("reason") or "; ".join(str(r) for r in item.get("reasons") or []) or None
        host = HostItem(key=key, kind="text", value=value, reason=reason, source=source)
        if unit in ("bytes", "b") and isinstance(value, int | float):
            host.kind, host.gib, host.tb = "bytes", value / GIB, value / 1e12
        elif unit in ("w", "watts") and isinstance(value, int | float):
            host.kind = "watts"
        elif isinstance(value, bool):
            host.kind = "bool"
        elif isinstance(value, int | float):
            host.kind = "number"
        items.append(host)
    return items


def _sources(*results: dict[str, Any] | None) -> list[Source]:
    """Every `source`/`sources`/`src` entry in the tool results, once, in the order met."""
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
                if key in ("source", "sources", "src"):
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
    sizing: Sizing,
    slo: tuple[float | None, float | None, float | None],
    measured: Measured | None,
    served_model: str,
    answers: dict[str, Any],
) -> tuple[list[AcceptanceLimit], list[Command]]:
    limits: list[AcceptanceLimit] = []
    at_load = measured.at_load if measured and measured.comparable else None
    memory_limit = (
        sizing.engine.budget_gib if sizing.engine and sizing.engine.budget_gib else sizing.total_gib
    )

    def add(
        code: Any,
        comparator: Any,
        value: float | None,
        unit: Any,
        measured_value: float | None,
        command: int,
        percentile: float | None = None,
        concurrency: int | None = None,
    ) -> None:
        if measured_value is None or value is None:
            status = "not_measured"
        else:
            ok = {"<=": measured_value <= value, ">=": measured_value >= value, "==": measured_value == value}
            status = "pass" if ok[comparator] else "fail"
        limits.append(
            AcceptanceLimit(
                index=len(limits) + 1,
                code=code,
                comparator=comparator,
                value=value,
                unit=unit,
                percentile=percentile,
                concurrency=concurrency,
                command=command,
                measured=measured_value,
                status=status,
            )
        )

    if sizing.mode == "training":
        batch = sizing_answer(answers, "batch_size") or 1
        seq = sizing_answer(answers, "seq_len") or 2048
        optimizer = sizing_answer(answers, "optimizer") or "adamw"
        parts = [
            f"sizer-agent bench train --model {served_model} --batch-size {batch} --seq-len {seq}",
            f"--optimizer {optimizer} --checkpoint --resume-check --json",
        ]
        commands = [Command(index=1, kind="train", text=" ".join(parts))]
        add("peak_memory", "<=", memory_limit, "gib", None, 1)
        add("checkpoint", "==", 1.0, "bool", None, 1)
        return limits, commands

    conc = sizing.concurrency or 1
    slo_ttft, slo_tpot, pct = slo
    pct_text = f"{pct:g}" if pct is not None else "99"
    flags = [
        f"sizer-agent bench serve --base-url {BENCH_BASE_URL} --model {served_model}",
        f"--input-len {sizing.input_len or 1024} --output-len {sizing.output_len or 256}",
        f"--concurrency {conc} --num-prompts {max(MIN_PROMPTS, 8 * conc)}",
    ]
    if slo_ttft is not None:
        flags.append(f"--slo-ttft-ms {slo_ttft:g}")
    if slo_tpot is not None:
        flags.append(f"--slo-tpot-ms {slo_tpot:g}")
    flags.append(f"--percentile {pct_text} --json")
    commands = [Command(index=1, kind="serve", text=" ".join(flags))]

    def pick(stat: Stat | None) -> float | None:
        if stat is None:
            return None
        return stat.p99 if pct_text == "99" else {"50": stat.p50, "90": stat.p90}.get(pct_text)

    if slo_ttft is not None:
        add("ttft", "<=", slo_ttft, "ms", pick(at_load.ttft_ms if at_load else None), 1, pct, conc)
    if slo_tpot is not None:
        add("tpot", "<=", slo_tpot, "ms", pick(at_load.tpot_ms if at_load else None), 1, pct, conc)
    if slo_ttft is not None and slo_tpot is not None and sizing.output_len:
        floor = sla_implied_throughput(conc, sizing.output_len, slo_ttft, slo_tpot)
        add(
            "throughput",
            ">=",
            floor,
            "tokens_per_s",
            at_load.output_tokens_per_s if at_load else None,
            1,
            concurrency=conc,
        )
    add(
        "peak_memory",
        "<=",
        memory_limit,
        "gib",
        at_load.peak_gpu_memory_gib if at_load else None,
        1,
        concurrency=conc,
    )
    failed = float(at_load.requests_failed) if at_load and at_load.requests_failed is not None else None
    add("failed_requests", "==", 0.0, "count", failed, 1, concurrency=conc)
    return limits, commands


def sizing_answer(answers: dict[str, Any], name: str) -> Any:
    item = answers.get(name)
    return item.get("value") if isinstance(item, dict) else item


def _risks(
    estimate: dict[str, Any],
    recommend: dict[str, Any] | None,
    rec: Recommendation | None,
    sizing: Sizing,
    measured: Measured | None,
    assumed: list[str],
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
    seen: set[str] = set()
    chosen = next((o for o in rec.options if o.recommended), None) if rec else None
    tool_warnings = [*(estimate.get("warnings") or []), *((recommend or {}).get("warnings") or [])]
    if chosen is not None and recommend is not None:
        for raw in recommend.get("options") or []:
            if isinstance(raw, dict) and raw.get("offer_id") == chosen.offer_id:
                tool_warnings.extend(raw.get("warnings") or [])
    for text in tool_warnings:
        if str(text) not in seen:
            seen.add(str(text))
            risks.append(Risk(code="tool", text=str(text)))
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
    """Turn a session export into the proposal context. Raises InputError naming a missing required part."""
    if not isinstance(session, dict):
        raise InputError("session", "must be a JSON object (a sizer-agent session export)")
    if session.get("format") != SESSION_FORMAT:
        raise InputError("format", f"unknown session format {session.get('format')!r}", SESSION_FORMAT)
    found = _latest_result(session, ESTIMATE_TOOLS)
    if found is None:
        raise InputError(
            "tool_calls", "the session has no successful estimate_memory call: run the sizing first"
        )
    _, estimate = found
    rec_found = _latest_result(session, (RECOMMEND_TOOL,))
    recommend_args, recommend = rec_found if rec_found else ({}, None)

    answers = _answers(session)
    sizing = _sizing(estimate)
    rec = _recommendation(recommend)
    slo = _slo(session, recommend_args)
    perf = _performance(estimate, rec, slo, sizing.concurrency)
    benches = [b for b in session.get("benchmarks") or [] if isinstance(b, dict) and b.get("levels")]
    measured = _measured(benches[-1], sizing, perf) if benches else None
    served_model = str((measured.settings.get("model") if measured else None) or sizing.model)
    acceptance, commands = _acceptance(sizing, slo, measured, served_model, session.get("answers") or {})
    assumed = [a.field for a in answers if a.assumed]
    parallel: dict[str, Any] = (
        estimate["parallelism"] if isinstance(estimate.get("parallelism"), dict) else {}
    )
    chosen = next((o for o in rec.options if o.recommended), None) if rec else None
    multi = MultiGpu(
        num_gpus=chosen.num_gpus if chosen else (_int(parallel.get("num_gpus")) or 1),
        tp=_int(parallel.get("tp")) or 1,
        pp=_int(parallel.get("pp")) or 1,
        dp=_int(parallel.get("dp")) or 1,
        notes=[str(n) for n in parallel.get("notes") or []],
    )
    return ProposalContext(
        session_id=_int(session.get("id")),
        title=str(session.get("title") or ""),
        customer=str(session.get("customer") or ""),
        created=session.get("created"),
        updated=session.get("updated"),
        session_lang=session.get("lang"),
        answers=answers,
        assumed_fields=assumed,
        sizing=sizing,
        recommendation=rec,
        performance=perf,
        measured=measured,
        host=_host(recommend),
        multi_gpu=multi,
        risks=_risks(estimate, recommend, rec, sizing, measured, assumed),
        acceptance=acceptance,
        commands=commands,
        software=_software(session, sizing, measured),
        sources=_sources(estimate, recommend),
        generator_version=__version__,
    )
