"""Tool results → what the screens show: formatting only, every figure read from the result."""

from __future__ import annotations

import copy

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
    assert format_gb(83_400_000_000, "en") == "83.4 GB"  # decimal gigabytes, unit named


def test_bar_is_exactly_its_width() -> None:
    assert bar(0.0, 10) == "░" * 10
    assert bar(1.0, 10) == "█" * 10
    assert bar(0.5, 10) == "█" * 5 + "░" * 5
    assert len(bar(0.333, 7)) == 7 and len(bar(2.0, 7)) == 7


def test_estimate_summary_names_every_nonzero_term() -> None:
    line = tool_summary("estimate_memory", ESTIMATE, "en")
    assert line == "weights 70.6 GB · KV 10.7 GB · runtime 2.1 GB → 83.4 GB/GPU"
    assert memory_need_bytes(ESTIMATE) == 83_400_000_000
    assert memory_need_bytes({"options": []}) is None  # only an estimate feeds the gauge


def test_recommendation_keeps_the_tools_order_and_marks_its_choice() -> None:
    view = recommendation_view(RECOMMEND, "fr")
    assert [o.offer_id for o in view.options] == ["ACD-014", "CLOUD-H100-SXM"]  # fitting ones only
    assert view.recommended is view.options[0] and view.options[0].recommended
    assert view.options[0].price == "55\u202f480\u00a0€" and view.options[1].price == "5,58\u00a0€/h"
    assert [r.offer_id for r in view.rejections] == ["ACD-006", "ACD-009"]  # one sentence per offer
    assert view.reason.startswith("cheapest fitting option")


def test_nothing_fits_gives_no_choice_and_falls_back_to_option_reasons() -> None:
    result = copy.deepcopy(RECOMMEND)
    for option in result["options"]:
        option["fits"] = False
        option.setdefault("reasons", []).append("SLA: holds up to 2 concurrent requests")
    del result["offers"]
    result["recommended"] = None
    view = recommendation_view(result, "en")
    assert view.recommended is None and view.options == []
    assert {r.offer_id for r in view.rejections} == {"ACD-014", "CLOUD-H100-SXM", "ACD-009"}
    assert "SLA" in view.rejections[0].reason
