"""A session whose agent sized a cluster (size_cluster) gets a multi-node section in the proposal."""

from __future__ import annotations

import copy
from typing import Any

from sizer_agent.proposal import build_context, render_proposal
from sizer_agent.tools.cluster import ClusterRequest, size_cluster


def _with_cluster(session: dict[str, Any], request: ClusterRequest) -> dict[str, Any]:
    out = copy.deepcopy(session)
    result = size_cluster(request).model_dump(mode="json")
    out["tool_calls"].append({"tool": "size_cluster", "ok": True, "arguments": request.model_dump(mode="json"),
                              "result": result})
    return out


def test_a_multi_node_serving_plan_is_in_the_document(session: dict[str, Any]) -> None:
    sized = _with_cluster(session, ClusterRequest(model="deepseek-v3", offers=["HGX-B300-8"], nodes=2))
    ctx = build_context(sized)
    assert ctx.cluster is not None and ctx.cluster.options[0].gpus == 16
    en = render_proposal(sized, "md", "en")
    fr = render_proposal(sized, "html", "fr")
    assert "Cluster serving plan" in en and "Per-GPU memory (weights + KV)" in en
    assert "Plan de service sur grappe" in fr and "Mémoire par GPU" in fr
    layout = ctx.cluster.options[0].serving.layout  # type: ignore[union-attr]
    assert f"EP{layout.ep}" in en or f"TP{layout.tp}" in en


def test_a_single_node_plan_adds_no_section(session: dict[str, Any]) -> None:
    one = _with_cluster(session, ClusterRequest(model="llama-3.1-8b", offers=["HGX-H100-8"], nodes=1))
    assert build_context(one).cluster is None
    assert "Cluster serving plan" not in render_proposal(one, "md", "en")


def test_a_pretraining_no_rental_ends_in_time_gets_the_chips_it_needs_in_the_document() -> None:
    # "pre-train an 8B from scratch on 2 trillion tokens, done in 30 days, we will rent H100s": no cloud offer of
    # the catalogue joins enough instances; the interview sizes the cluster per node offer (size_cluster) and the
    # document names the fewest chips of each that end the job in time (128 H100: 9.6e22 FLOP at ~45 % of 989
    # TFLOP/s is ~60,000 GPU-hours, ~83 GPUs for 720 h, the next power of two).
    from tests.support.sessions import sized_session

    session, _ = sized_session({
        "customer": "Aurora", "use_case": "pretraining", "model": "Llama 3.1 8B", "precision": "bf16",
        "context_len": 8192, "batch_size": "I don't know", "dataset_tokens": 2 * 10**12, "optimizer": "adamw",
        "checkpoint_interval_min": 30, "framework": "I don't know", "framework_version": "I don't know",
        "num_gpus": "I don't know", "deployment": "cloud", "gpu_preference": "h100-sxm", "deadline_hours": 720,
        "ecc_required": "I don't know", "budget_eur": "no limit", "dataset_size_bytes": "I don't know",
        "rendering_cad": False}, lang="en")
    assert any(c["tool"] == "size_cluster" and c["ok"] for c in session["tool_calls"])
    ctx = build_context(session)
    assert ctx.cluster is not None and ctx.cluster.mode == "training"
    h100 = next(o for o in ctx.cluster.options if o.gpu_id == "h100-sxm")
    assert h100.deadline_chips == 128
    en = render_proposal(session, "md", "en")
    assert "HGX H100 8-GPU: 128 chips (16 units) end the job in about" in en and "| The job (h) |" in en
    # rented, that count is priced by its GPU-hour, and the summary says it first, not only section 8
    assert "rented by the hour at €3.69 per GPU-hour (H100 SXM — Lambda)" in en
    summary = en.split("## 1.")[0]
    assert "a larger cluster ends the job in time" in summary and "HGX H100 8-GPU: 128 chips" in summary
    fr = render_proposal(session, "md", "fr")
    assert "une grappe plus grande finit le travail à temps" in fr.split("## 1.")[0]
