"""Tool results → what the screens show: formatting only, every figure read from the result."""

from __future__ import annotations

from sizer_agent.app.present import (
    bar,
    format_gb,
    format_number,
    memory_need_bytes,
    recommendation_view,
    tool_summary,
)
from tests.tui.scripted import ESTIMATE, RECOMMEND


def test_numbers_follow_the_language() -> None:
    assert format_number(8192, "fr") == "8\u202f192"
    assert format_number(8192, "en") == "8,192"
    assert format_number(0.95, "fr", 2) == "0,95"
    assert format_gb(83_400_000_000, "en") == "77.7\u00a0GiB"  # binary, as every document says memory
    assert format_gb(83_400_000_000, "fr") == "77,7\u00a0Gio"


def test_bar_is_exactly_its_width() -> None:
    assert bar(0.0, 10) == "░" * 10
    assert bar(1.0, 10) == "█" * 10
    assert bar(0.5, 10) == "█" * 5 + "░" * 5
    assert len(bar(0.333, 7)) == 7 and len(bar(2.0, 7)) == 7


def test_estimate_summary_names_every_nonzero_term() -> None:
    line = tool_summary("estimate_memory", ESTIMATE, "en")
    assert line == "weights 65.8\u00a0GiB · KV 10.0\u00a0GiB · runtime 2.0\u00a0GiB → 77.7\u00a0GiB/GPU"
    assert memory_need_bytes(ESTIMATE) == 83_400_000_000
    assert memory_need_bytes({"options": []}) is None  # only an estimate feeds the gauge


def test_the_view_is_the_plan_then_its_alternatives_as_the_document_says() -> None:
    from sizer_agent import advice

    view = recommendation_view(RECOMMEND, "fr")
    typed = advice.load(RECOMMEND)
    assert typed is not None and typed.plan is not None
    assert [o.offer_id for o in view.options] == [typed.plan.offer_id, *(a.offer_id for a in typed.alternatives)]
    assert view.recommended is view.options[0] and view.options[0].recommended
    assert view.options[0].price == "55\u202f480\u00a0€"
    assert view.summary == advice.summary(typed, "fr")  # the same sentences as the proposal and the chat
    assert [r.offer_id for r in view.rejections] == [v.offer_id for v in typed.offers if not v.fits]


def test_an_unreadable_result_gives_an_empty_view() -> None:
    view = recommendation_view({"options": [], "recommended": "ACD-014"}, "en")
    assert view.recommended is None and view.options == [] and view.summary == []


def test_a_cluster_plan_is_no_recommendation_and_gets_its_own_summary() -> None:
    # size_cluster's plan has options[] too: read as a recommendation it said "0 option(s) of 6 fit · recommended:
    # none" under its card, and could replace the results view's plan
    from sizer_agent.app.present import is_recommendation_result, tool_summary
    from sizer_agent.tools.cluster import ClusterRequest, size_cluster

    plan = size_cluster(ClusterRequest(
        model="meta-llama/Llama-3.1-8B", mode="training", offers=["HGX-H100-8"], chip_counts=[8, 64, 128],
        tokens=2 * 10**12, deadline_hours=720, precision="bf16", global_batch=64,
        batch_policy="per_chip")).model_dump(mode="json")
    assert not is_recommendation_result(plan)
    assert tool_summary("size_cluster", plan, "en") == "1 node offer(s) sized · first: HGX-H100-8 (128 × h100-sxm)"
