"""The context builder: tolerant of missing optional parts, strict on the required estimate."""

from __future__ import annotations

from typing import Any

import pytest

from sizer_agent.proposal import build_context, render_proposal
from sizer_agent.proposal.context import deviation_pct, sla_implied_throughput, tokens_per_s_per_keur
from tools.errors import InputError


def drop_tool(session: dict[str, Any], tool: str) -> dict[str, Any]:
    session["tool_calls"] = [c for c in session["tool_calls"] if c["tool"] != tool]
    return session


def estimate_of(session: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in session["tool_calls"] if c["tool"] == "estimate_memory" and c["ok"])["result"]


def render_all(session: dict[str, Any]) -> dict[str, str]:
    return {f"{fmt}.{lang}": render_proposal(session, fmt, lang) for fmt in ("md", "html") for lang in ("fr", "en")}


def test_fixture_context(session: dict[str, Any]) -> None:
    ctx = build_context(session)
    assert ctx.customer == "Acme"
    assert ctx.sizing.dominant == "weights"
    assert ctx.recommendation is not None and ctx.recommendation.recommended_id == "ACD-014"
    assert [o.offer_id for o in ctx.recommendation.options] == ["ACD-014", "ACD-009", "ACD-006"]
    assert ctx.recommendation.evaluated == 3 and len(ctx.recommendation.offers) == 3
    assert ctx.assumed_fields == ["framework_version", "model_revision", "context_len"]
    assert ctx.measured is not None and ctx.measured.comparable and ctx.measured.at_load is not None
    assert ctx.measured.at_load.concurrency == 32
    assert [lim.status for lim in ctx.acceptance] == ["pass"] * 5
    assert {r.code for r in ctx.risks} >= {"revision_unpinned", "assumed_answers", "tool"}
    ids = {s.id for s in ctx.sources}
    assert {"kr_note", "atineo_pro6000ws", "seed002", "nvsmi_logs"} <= ids
    assert "bundled: EXACT COPY (two copies agree)" in ids  # the estimator's own source for the model config
    assert ctx.host is not None and [h.key for h in ctx.host][:3] == ["host_ram", "nvme_capacity", "pcie_lanes"]
    assert ctx.measured.sla_max_concurrency == 32  # from the levels' own verdicts (no sweep in this trial)
    assert ctx.performance is not None and ctx.performance.roofline is not None
    assert ctx.performance.roofline.peak_tflops == pytest.approx(1007.6)  # read back from the tool's points
    assert ctx.performance.roofline.bandwidth_tb_s == pytest.approx(1.792)


def test_the_latest_successful_estimate_is_used(session: dict[str, Any]) -> None:
    stale = {
        "call_id": "c0",
        "tool": "estimate_memory",
        "arguments": {},
        "ok": True,
        "error": None,
        "result": {"per_gpu": {"weights_bytes": 1, "total_bytes": 1}},
        "duration_ms": 1,
        "created": "",
    }
    failed = {**stale, "call_id": "c9", "ok": False, "result": None, "error": "boom"}
    session["tool_calls"] = [stale, *session["tool_calls"], failed]
    assert build_context(session).sizing.total_gib > 80


def test_missing_estimate_is_one_error_naming_it(session: dict[str, Any]) -> None:
    with pytest.raises(InputError) as info:
        build_context(drop_tool(session, "estimate_memory"))
    assert info.value.field == "tool_calls" and "estimate_memory" in str(info.value)


@pytest.mark.parametrize("bad", [{"format": "other/9"}, {"format": None}])
def test_unknown_format_is_refused(session: dict[str, Any], bad: dict[str, Any]) -> None:
    with pytest.raises(InputError) as info:
        build_context({**session, **bad})
    assert info.value.field == "format"


def test_without_recommendation_or_benchmark_every_section_says_so(session: dict[str, Any]) -> None:
    session = drop_tool(session, "recommend")
    session["benchmarks"] = []
    del session["answers"]
    ctx = build_context(session)
    assert ctx.recommendation is None and ctx.measured is None and ctx.host is None
    assert ctx.performance is not None and ctx.performance.basis == "estimate"
    assert {lim.status for lim in ctx.acceptance} == {"not_measured"}
    docs = render_all(session)
    assert "non mesuré" in docs["md.fr"] and "not measured" in docs["md.en"]
    assert "non fourni" in docs["md.fr"] and "not provided" in docs["md.en"]
    assert "Aucune recommandation" in docs["html.fr"]


def test_estimate_without_perf_nor_engine(session: dict[str, Any]) -> None:
    session = drop_tool(session, "recommend")
    estimate = estimate_of(session)
    for key in ("perf", "engine", "parallelism", "warnings", "gpu_memory_bytes", "dominant_term"):
        estimate.pop(key)
    ctx = build_context(session)
    assert ctx.performance is None and ctx.sizing.engine is None
    docs = render_all(session)
    assert "Aucune estimation de performance" in docs["md.fr"]
    assert "<svg" in docs["html.en"]  # the memory chart needs only the breakdown


def test_benchmark_with_other_settings_is_not_compared(session: dict[str, Any]) -> None:
    session["benchmarks"][0]["settings"]["input_len"] = {"low": 1024, "high": 1024}
    ctx = build_context(session)
    assert ctx.measured is not None and not ctx.measured.comparable
    assert ctx.measured.mismatches == ["input_len"] and ctx.measured.comparison == []
    assert {lim.status for lim in ctx.acceptance} == {"not_measured"}
    assert "differ in input\\_len" in render_proposal(session, "md", "en")


def test_failing_level_marks_the_limit_failed(session: dict[str, Any]) -> None:
    level = next(lv for lv in session["benchmarks"][0]["levels"] if lv["concurrency"] == 32)
    level["tpot_ms"]["p99"] = 57.5
    level["sla_passed"] = False
    level["requests_failed"] = 3
    status = {lim.code: lim.status for lim in build_context(session).acceptance}
    assert status["tpot"] == "fail" and status["failed_requests"] == "fail" and status["ttft"] == "pass"


def test_lagged_client_level_is_not_used(session: dict[str, Any]) -> None:
    next(lv for lv in session["benchmarks"][0]["levels"] if lv["concurrency"] == 32)["client_lagged"] = True
    ctx = build_context(session)
    assert ctx.measured is not None and not ctx.measured.comparable
    assert any(r.code == "client_lagged" and r.items == ["32"] for r in ctx.risks)


def test_no_recommendation_with_reason(session: dict[str, Any]) -> None:
    recommend = next(c for c in session["tool_calls"] if c["tool"] == "recommend")["result"]
    recommend["recommended"] = None
    recommend["recommended_reason"] = "no offer meets the SLA"
    for option in recommend["options"]:
        option["fits"] = False
    md = render_proposal(session, "md", "en")
    assert "No catalogue configuration meets the requirements. no offer meets the SLA" in md


def test_hourly_price_and_unknown_fields(session: dict[str, Any]) -> None:
    recommend = next(c for c in session["tool_calls"] if c["tool"] == "recommend")["result"]
    recommend["options"][2]["price_eur"] = None
    recommend["options"][2]["hourly_eur"] = 1.69
    recommend["system"]["requirements"].append({"name": "quantum_flux", "value": 3.0, "unit": "", "reason": "x"})
    session["answers"]["favourite_colour"] = {
        "value": ["blue", 2.5],
        "assumed": False,
        "raw_text": "",
        "history": [],
    }
    md = render_proposal(session, "md", "en")
    assert "€1.69/h" in md and "quantum\\_flux" in md and "favourite\\_colour" in md and "blue, 2.5" in md


def test_training_session_gets_a_training_acceptance(session: dict[str, Any]) -> None:
    session = drop_tool(session, "recommend")
    session["benchmarks"] = []
    estimate = estimate_of(session)
    estimate["request"].update(mode="training", method="lora")
    estimate.pop("perf")
    estimate.pop("engine")
    session["answers"]["batch_size"] = {"value": 8, "assumed": False, "raw_text": "8", "history": []}
    session["answers"]["use_case"]["value"] = "finetune_lora"
    ctx = build_context(session)
    assert [c.kind for c in ctx.commands] == ["train"]
    command = ctx.commands[0].text
    assert command.startswith("sizer-agent bench train --config meta-llama/Llama-3.1-70B-Instruct/config.json")
    assert "--batch-size 8" in ctx.commands[0].text
    assert {lim.code for lim in ctx.acceptance} == {"peak_memory", "checkpoint"}
    assert "Sauvegarde et reprise" in render_proposal(session, "html", "fr")


def test_contract_shapes_are_read_too(session: dict[str, Any]) -> None:
    """The flat shapes of the session contract (recommended as an object, roofline as an object, a flat
    benchmark settings block and a host dict) give the same document sections."""
    recommend = next(c for c in session["tool_calls"] if c["tool"] == "recommend")["result"]
    recommend["recommended"] = {"offer_id": "ACD-014", "reason": "only fitting offer"}
    recommend["system"] = {"host_ram": {"value": 256 * 2**30, "unit": "bytes", "reason": "r", "source": "seed002"}}
    estimate = estimate_of(session)
    estimate["perf"]["roofline"] = {
        "peak_flops_per_s": 1.0076e15,
        "memory_bandwidth_bytes_per_s": 1.792e12,
        "ridge_point": 562.3,
        "points": {"decode": {"operational_intensity": 55.5, "attainable_flops_per_s": 9.95e13}},
    }
    bench = session["benchmarks"][0]
    bench["settings"] = {
        "model": "meta-llama/Llama-3.1-70B-Instruct",
        "dtype": "fp8",
        "input_len": 2048,
        "output_len": 512,
        "engine": "vllm",
        "engine_version": "0.11.0",
        "gpu": "X",
        "driver": "1",
    }
    bench["sla_max_concurrency"] = 16
    for level in bench["levels"]:
        level.pop("sla_passed")
    ctx = build_context(session)
    assert ctx.recommendation is not None and ctx.recommendation.reason == "only fitting offer"
    assert ctx.host is not None and ctx.host[0].kind == "bytes" and ctx.host[0].gib == 256
    assert ctx.performance is not None and ctx.performance.roofline is not None
    assert [p.phase for p in ctx.performance.roofline.points] == ["decode"]
    assert ctx.measured is not None and ctx.measured.comparable
    assert [lv.meets_slo for lv in ctx.measured.levels] == [True, True, True, False, False]
    assert "256" in render_proposal(session, "md", "fr")


def test_derived_comparisons() -> None:
    assert deviation_pct(110.0, 100.0) == pytest.approx(10.0)
    assert deviation_pct(None, 100.0) is None and deviation_pct(1.0, 0.0) is None
    # 32 users at exactly 500 ms TTFT and 50 ms TPOT for 512 tokens: 16 384 tokens every 26.05 s.
    assert sla_implied_throughput(32, 512, 500, 50) == pytest.approx(628.944, rel=1e-5)
    assert tokens_per_s_per_keur(653.1, 55480) == pytest.approx(11.772, rel=1e-4)
    assert tokens_per_s_per_keur(None, 100) is None
