"""The engine calls recommend after the estimate, and bench_serve when a server URL is given."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from sizer_agent.agent.engine import DeterministicEngine
from sizer_agent.agent.events import AgentMessage, ToolCalled, ToolReturned
from sizer_agent.store import SessionStore
from tools.registry import Tool, ToolRegistry


class StandInRecommendRequest(BaseModel):  # the fields of tools.recommend.RecommendRequest the engine fills
    workload: dict[str, Any]
    slo_ttft_ms: float | None = None
    slo_tpot_ms: float | None = None
    budget_eur: float | None = None
    needs_graphics: bool = False


class StandInRecommendResult(BaseModel):
    recommended: str | None
    recommended_reason: str
    options: list[dict[str, Any]]
    offers: list[dict[str, Any]]


def scripted_recommend(request: StandInRecommendRequest) -> StandInRecommendResult:
    return StandInRecommendResult(
        recommended="ACD-014", recommended_reason="cheapest fitting option",
        options=[{"name": "Enterprise Max", "num_gpus": 1, "gpu_name": "RTX PRO 6000", "price_eur": 55480,
                  "fits": True, "perf": {"sustained_output_tokens_per_s": 1234.0},
                  "eur_per_million_tokens": 0.87}],
        offers=[{"offer_id": "ACD-006", "name": "Pro", "fits": False, "summary": "memory: 20 GB > 15.4 GB"}],
    )


class StandInServeSettings(BaseModel):  # the fields of tools.bench ServeSettings the engine fills
    base_url: str
    input_len: dict[str, int]
    output_len: dict[str, int]
    concurrency: list[int]
    slo_ttft_ms: float | None = None


class StandInServeResult(BaseModel):
    kind: str = "serve"
    levels: list[dict[str, Any]]


def scripted_bench(settings: StandInServeSettings) -> StandInServeResult:
    return StandInServeResult(levels=[{
        "concurrency": settings.concurrency[0], "ttft_ms": {"at_percentile": 321.0},
        "tpot_ms": {"at_percentile": 23.5}, "output_tokens_per_s": 987.0, "sla_passed": True}])


def full_registry(registry: ToolRegistry) -> ToolRegistry:
    registry.register(Tool("recommend", "stand-in", StandInRecommendRequest, StandInRecommendResult,
                           scripted_recommend))
    registry.register(Tool("bench_serve", "stand-in", StandInServeSettings, StandInServeResult, scripted_bench))
    return registry


def test_recommend_and_bench_run_in_order_and_are_explained(registry: ToolRegistry, store: SessionStore) -> None:
    sid = store.create_session(lang="en")
    engine = DeterministicEngine(full_registry(registry), lang="en", on_event=store.recorder(sid))
    engine.start()
    events: list[Any] = []
    for text in ("Acme", "online serving", "Llama 3.1 8B bf16, context 8k, 16 users, 2k / 512",
                 "server at http://127.0.0.1:8000/v1", "x1", "500 ms", "50 ms", "vLLM 0.11", "1", "workstation",
                 "no", "no", "€60,000", "no limit"):
        events = engine.handle(text)
    calls = [e for e in events if isinstance(e, ToolCalled)]
    assert [c.tool for c in calls] == ["estimate_memory", "recommend", "bench_serve"]
    recommend_args = calls[1].arguments
    assert recommend_args["workload"]["model"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert recommend_args["slo_ttft_ms"] == 500.0 and recommend_args["budget_eur"] == 60000.0
    assert calls[2].arguments["base_url"] == "http://127.0.0.1:8000/v1"
    assert calls[2].arguments["input_len"] == {"low": 2048, "high": 2048}
    assert all(e.ok for e in events if isinstance(e, ToolReturned))
    results = [m.text for m in events if isinstance(m, AgentMessage) and m.tone == "result"]
    assert "Recommendation: ACD-014" in results[1] and "55,480 €" in results[1] and "Pro: memory" in results[1]
    assert "TTFT 321 ms" in results[2] and "987 tokens/s" in results[2]
    assert store.benchmarks(sid) == [{"kind": "serve", "levels": [{
        "concurrency": 16, "ttft_ms": {"at_percentile": 321.0}, "tpot_ms": {"at_percentile": 23.5},
        "output_tokens_per_s": 987.0, "sla_passed": True}]}]
    assert [c["tool"] for c in store.tool_calls(sid)] == ["estimate_memory", "recommend", "bench_serve"]


def test_deployment_and_ecc_restrict_the_offers_compared() -> None:
    import pytest

    catalog_module = pytest.importorskip("tools.catalog")
    from sizer_agent.agent.planning import matching_offers
    from sizer_agent.agent.profile import WorkloadProfile

    catalog = catalog_module.load_catalog()
    platforms = {p.id: p for p in catalog.platforms}
    gpus = {g.id: g for g in catalog.gpus}
    offers = {o.id: o for o in catalog.offers}
    ids, filters = matching_offers(WorkloadProfile(deployment="workstation", ecc_required=True))
    assert ids and filters == ["deployment=workstation", "ecc"]
    for offer_id in ids:
        assert platforms[offers[offer_id].platform].kind == "workstation"
        assert gpus[offers[offer_id].gpu].ecc.value
    cloud, _ = matching_offers(WorkloadProfile(deployment="cloud"))
    assert cloud and all(platforms[offers[i].platform].kind == "cloud" for i in cloud)
    assert matching_offers(WorkloadProfile()) == ([], [])


class ScopedRecommendRequest(StandInRecommendRequest):
    offer_ids: list[str] = []


def scoped_recommend(request: ScopedRecommendRequest) -> StandInRecommendResult:
    if request.offer_ids:  # nothing in the asked scope fits
        return StandInRecommendResult(recommended=None, recommended_reason="no option fits", options=[],
                                      offers=[{"name": "Enterprise Max", "fits": False, "summary": "memory"}])
    return scripted_recommend(request)


def test_when_nothing_fits_the_scope_the_wider_answer_follows(registry: ToolRegistry) -> None:
    import pytest

    pytest.importorskip("tools.catalog")
    registry.register(Tool("recommend", "stand-in", ScopedRecommendRequest, StandInRecommendResult,
                           scoped_recommend))
    engine = DeterministicEngine(registry, lang="en")
    engine.start()
    events: list[Any] = []
    for text in ("Acme", "online serving", "Llama 3.1 8B bf16, context 8k, 16 users, 2k / 512", "x1", "500 ms",
                 "50 ms", "vLLM 0.11", "1", "workstation", "no", "yes", "no budget", "no limit"):
        events = engine.handle(text)
    calls = [e for e in events if isinstance(e, ToolCalled) and e.tool == "recommend"]
    assert len(calls) == 2 and calls[0].arguments["offer_ids"] and "offer_ids" not in calls[1].arguments
    texts = [m.text for m in events if isinstance(m, AgentMessage) and m.tone == "result"]
    assert texts[1].startswith("Offers compared (deployment workstation, ECC required)")
    assert texts[2].startswith("**No offer within that scope fits.**") and "ACD-014" in texts[2]
    assert engine.state.results["recommend"]["recommended"] == "ACD-014"
