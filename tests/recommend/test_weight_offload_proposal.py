"""Issue #15 item 4: when a model does not fit, the plan proposes keeping weights in host RAM, states the speed
it costs, and says so when it is the cheapest way to fit."""

from __future__ import annotations

from sizer_agent.advice import summary
from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.recommend import RecommendRequest, recommend


def test_offload_is_proposed_with_its_speed_when_cheapest() -> None:
    # Llama 3.1 70B in bf16 (131 GiB) fits no single-card workstation; the ladder finds FP8 on the 96 GB card
    # (55 480 EUR). Offloading what the 16 GB RTX 5080 lacks fits a 7 160 EUR machine, at PCIe speed: about
    # 120 GiB per token over ~51 GB/s is over 2 s per token.
    workload = EstimateRequest(model="llama-3.1-70b", input_len=1024, output_len=256)
    result = recommend(RecommendRequest(workload=workload, engine="generic", units=["workstation"],
                                        offer_ids=["ACD-006", "ACD-009", "ACD-014"]), load_model("llama-3.1-70b"))
    assert result.plan is not None and result.plan.offer_id == "ACD-014"
    offload = [c for c in result.changes if [k.code for k in c.knobs] == ["weights_offload"]]
    assert offload, [c.knobs for c in result.changes]
    plan = offload[0].plan
    assert plan.offer_id == "ACD-006" and plan.fits and plan.serving is not None
    s = plan.serving
    assert s.weight_offload_bytes_per_gpu > 100 * 2**30
    assert s.tpot_ms > 2000 and s.output_tokens_per_s_without_offload is not None
    assert s.output_tokens_per_s < s.output_tokens_per_s_without_offload
    assert any(n.id == "note.weight_offload" for n in plan.notes)
    assert any(n.id == "sys.issue_ram" for n in plan.notes)  # 64 GB of RAM cannot hold 120 GiB pinned
    lines = summary(result, "en")
    assert any("Offload is the cheapest way to fit" in line and "host RAM" in line for line in lines)
    assert any("moins chère" in line for line in summary(result, "fr"))


def test_offload_is_not_proposed_when_the_stated_load_fits() -> None:
    workload = EstimateRequest(model="llama-3.1-8b", input_len=1024, output_len=256)
    result = recommend(RecommendRequest(workload=workload, engine="generic", units=["workstation"]),
                       load_model("llama-3.1-8b"))
    assert result.status == "recommended"
    assert not any(k.code == "weights_offload" for c in result.changes for k in c.knobs)
    assert result.plan is not None and result.plan.serving is not None
    assert result.plan.serving.weight_offload_bytes_per_gpu == 0
