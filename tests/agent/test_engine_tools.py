"""The engine calls the real estimate and recommend tools, and bench_serve when a server URL is given."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from sizer_agent import advice
from sizer_agent.agent.engine import DeterministicEngine
from sizer_agent.agent.events import AgentMessage, ToolCalled, ToolReturned
from sizer_agent.agent.planning import recommend_arguments
from sizer_agent.agent.profile import WorkloadProfile
from sizer_agent.store import SessionStore
from sizer_agent.tools.recommend import RecommendRequest
from sizer_agent.tools.registry import Tool, ToolRegistry, default_registry


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
    """The benchmark itself is tested against real servers in tests/bench; here only the order matters."""
    return StandInServeResult(levels=[{
        "concurrency": settings.concurrency[0], "ttft_ms": {"at_percentile": 321.0},
        "tpot_ms": {"at_percentile": 23.5}, "output_tokens_per_s": 987.0, "sla_passed": True}])


def real_tools_and_scripted_bench() -> ToolRegistry:
    registry = default_registry()
    registry.tools.pop("bench_serve", None)
    registry.pending.pop("bench_serve", None)
    registry.register(Tool("bench_serve", "stand-in", StandInServeSettings, StandInServeResult, scripted_bench))
    return registry


def test_recommend_and_bench_run_in_order_and_are_explained(store: SessionStore) -> None:
    sid = store.create_session(lang="en")
    engine = DeterministicEngine(real_tools_and_scripted_bench(), lang="en", on_event=store.recorder(sid))
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
    assert recommend_args["units"] == ["workstation"] and recommend_args["engine"] == "vllm"
    assert calls[2].arguments["base_url"] == "http://127.0.0.1:8000/v1"
    assert calls[2].arguments["input_len"] == {"low": 2048, "high": 2048}
    assert all(e.ok for e in events if isinstance(e, ToolReturned))
    results = [m.text for m in events if isinstance(m, AgentMessage) and m.tone == "result"]
    plan = advice.load(next(e for e in events if isinstance(e, ToolReturned) and e.tool == "recommend").result)
    assert plan is not None and plan.plan is not None
    assert results[1].startswith("\n".join(advice.summary(plan, "en")))  # the same sentences as the proposal
    assert plan.plan.offer_id in results[1]
    assert "TTFT 321\u00a0ms" in results[2] and "987\u00a0tokens/s" in results[2]
    assert [c["tool"] for c in store.tool_calls(sid)] == ["estimate_memory", "recommend", "bench_serve"]


def test_the_scope_follows_the_answers_and_an_assumed_one_does_not_narrow_it() -> None:
    fields = set(RecommendRequest.model_fields)
    profile = WorkloadProfile(use_case="online_serving", model="llama-3.1-8b", deployment="workstation",
                              ecc_required=True, ttft_ms=500, tpot_ms=50, num_gpus=2)
    given = recommend_arguments(profile, fields)
    assert given["units"] == ["workstation"] and given["ecc_required"] is True and given["planned_gpus"] == 2
    assumed = recommend_arguments(profile, fields, assumed=["deployment", "num_gpus", "ttft_ms"])
    assert "units" not in assumed and "planned_gpus" not in assumed
    assert assumed["slo_assumed"] == ["ttft"]
    cloud = recommend_arguments(profile.model_copy(update={"deployment": "cloud"}), fields)
    assert cloud["units"] == ["cloud"]


def test_when_nothing_fits_the_scope_the_chat_says_what_would() -> None:
    engine = DeterministicEngine(default_registry(), lang="en")
    engine.start()
    events: list[Any] = []
    for text in ("Acme", "online serving", "Llama 3.1 405B fp8, context 8k, 32 users, 2k / 512", "x1", "500 ms",
                 "50 ms", "vLLM 0.11", "1", "workstation", "no", "no", "no budget", "no limit"):
        events = engine.handle(text)
    returned = next(e for e in events if isinstance(e, ToolReturned) and e.tool == "recommend")
    result = advice.load(returned.result)
    assert result is not None and result.status == "no_fit" and result.plan is None
    texts = [m.text for m in events if isinstance(m, AgentMessage) and m.tone == "result"]
    assert texts[1].startswith("No workstation configuration holds this load")
    assert result.alternatives and result.alternatives[0].offer_id in texts[1]  # what would, outside the scope
