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
