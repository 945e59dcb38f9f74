"""A session built from the real tools (estimate and recommend, as their `--json` prints them) renders.

No hand-set numbers here: the memory estimate, the performance model and the recommendation come from
`tools/`, so a change in their output shape that the proposal no longer reads fails this test.
"""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest

from sizer_agent.cli import main
from sizer_agent.proposal import build_context, render_proposal
from sizer_agent.proposal.i18n import format_eur

WORKLOAD = [
    "--model", "llama-3.1-70b", "--quantization", "fp8", "--kv-cache-dtype", "fp8", "--input-len", "2048",
    "--output-len", "512", "--concurrency", "32", "--max-model-len", "3072", "--engine", "vllm",
]


@pytest.fixture(scope="module")
def real_session() -> dict[str, Any]:
    def run(*argv: str) -> dict[str, Any]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            assert main([*argv, "--json"]) == 0
        return json.loads(out.getvalue())

    estimate = run("estimate", *WORKLOAD, "--gpu", "rtx-pro-6000-ws")
    recommend = run("recommend", *WORKLOAD, "--slo-ttft-ms", "500", "--slo-tpot-ms", "50",
                    "--offers", "ACD-006,ACD-009,ACD-014")
    calls = [
        {"call_id": "1", "tool": "estimate_memory", "arguments": {}, "ok": True, "result": estimate,
         "error": None, "duration_ms": 1.0, "created": "2026-11-20T09:00:00Z"},
        {"call_id": "2", "tool": "recommend", "arguments": {"slo_ttft_ms": 500.0, "slo_tpot_ms": 50.0},
         "ok": True, "result": recommend, "error": None, "duration_ms": 1.0, "created": "2026-11-20T09:00:01Z"},
    ]
    return {"format": "sizer-agent-session/1", "id": 1, "title": "real tools", "customer": "Acme",
            "created": "2026-11-20T09:00:00Z", "updated": "2026-11-20T09:00:01Z", "lang": "en",
            "answers": {}, "tool_calls": calls, "benchmarks": [], "proposals": [], "events": []}


def test_real_tool_results_render(real_session: dict[str, Any]) -> None:
    recommend = real_session["tool_calls"][1]["result"]
    estimate = real_session["tool_calls"][0]["result"]
    ctx = build_context(real_session)
    assert ctx.sizing.total_bytes == estimate["per_gpu"]["total_bytes"]
    assert ctx.recommendation is not None
    assert {o.offer_id for o in ctx.recommendation.options} == {"ACD-006", "ACD-009", "ACD-014"}
    assert ctx.recommendation.recommended_id == recommend["recommended"]
    assert ctx.performance is not None and ctx.performance.roofline is not None  # estimate --gpu gives perf
    for lang in ("fr", "en"):
        html = render_proposal(real_session, "html", lang)  # type: ignore[arg-type]
        md = render_proposal(real_session, "md", lang)  # type: ignore[arg-type]
        for option in recommend["options"]:
            assert format_eur(option["price_eur"], lang) in html  # type: ignore[arg-type]
            assert option["offer_id"] in md
        for verdict in recommend["offers"]:
            assert verdict["offer_id"] in md
        assert ("non fourni" if lang == "fr" else "not provided") in md  # no interview answers in this session
    assert {lim.status for lim in ctx.acceptance} == {"not_measured"}
