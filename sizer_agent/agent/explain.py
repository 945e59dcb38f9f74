"""Plain-words explanations of tool results, from the catalogue. Every number shown is read from a result.

The estimate is read from `tools.estimate.EstimateResult` as stored; the recommendation is the typed plan
(`tools.plan.RecommendResult`) and is said by `sizer_agent.advice.summary`, the same sentences as the results
view and the proposal. A result that does not validate (an older session) degrades to one sentence.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from sizer_agent import advice
from sizer_agent.agent.planning import sized_concurrency
from sizer_agent.agent.profile import WorkloadProfile
from sizer_agent.i18n import Lang, device_terms, render
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.registry import ToolOutcome, ToolRegistry

_PARTS = ("weights", "kv_cache", "activations", "gradients", "optimizer", "runtime")


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _msg(value: Any) -> Msg | None:
    try:
        return Msg.model_validate(value)
    except ValidationError:
        return None


def estimate(result: dict[str, Any], profile: WorkloadProfile, lang: Lang, gpus_assumed: bool = False) -> str:
    """tools.estimate.EstimateResult: memory of the most loaded GPU, term by term, and the plan it assumed.
    `gpus_assumed`: the GPU count was not given (one GPU by default), which the text then says."""
    with device_terms(advice.estimate_terms(result)):  # "per chip" on a named TPU
        return _estimate(result, profile, lang, gpus_assumed)


def _estimate(result: dict[str, Any], profile: WorkloadProfile, lang: Lang, gpus_assumed: bool) -> str:
    per_gpu = result.get("per_gpu") or {}
    total = _num(per_gpu.get("total_bytes"))
    if total is None:
        return render(lang, "explain.estimate_received")
    parts = [render(lang, "explain.term", term=render(lang, f"term.{key}"), size=value)
             for key in _PARTS  # a term under 0.05 GiB would read "0.0 GiB": left out
             if (value := _num(per_gpu.get(f"{key}_bytes"))) is not None and value >= 0.05 * 2**30]
    request = result.get("request") or {}
    # a training job as stated keeps every activation; the recommendation runs it the practitioners' way
    # (tools/knobs.py), so this figure is labelled as the stated one, not shown as the need
    as_stated = request.get("mode") == "training" and request.get("gradient_checkpointing", "none") == "none"
    lines = [render(lang, "explain.memory_per_gpu_as_stated" if as_stated else "explain.memory_per_gpu",
                    total=total, parts=parts)]
    plan = result.get("parallelism") or {}
    gpus = plan.get("num_gpus")
    if isinstance(gpus, int) and gpus > 1:
        lines.append(render(lang, "explain.split", gpus=gpus, tp=plan.get("tensor_parallel_size", 1),
                            pp=plan.get("pipeline_parallel_size", 1), dp=plan.get("data_parallel_size", 1)))
    else:  # the figure is one GPU's whole load: say whose count that is, before the plan splits it
        lines.append(render(lang, "explain.one_gpu_assumed" if gpus_assumed or profile.num_gpus is None
                            else "explain.one_gpu_planned"))
    kv_token = _num(result.get("kv_cache_bytes_per_token"))
    if kv_token and not as_stated and request.get("mode") != "training":  # training keeps no KV cache
        lines.append(render(lang, "explain.kv_per_token", kib=kv_token / 1024))
    if profile.use_case == "online_serving" and (profile.growth_factor or 1.0) > 1.0:
        lines.append(render(lang, "explain.growth", n=sized_concurrency(profile)))
    for warning in result.get("warnings") or []:
        msg = _msg(warning)
        if msg is not None:
            lines.append("⚠ " + render(lang, msg))
    return "\n".join(lines)


def estimate_vision(result: dict[str, Any], lang: Lang) -> str:
    """tools.vision.estimate.VisionEstimate: the network, its load, and memory per GPU term by term."""
    per_gpu, model, figures = (result.get(k) or {} for k in ("per_gpu", "model", "vision"))
    total = _num(per_gpu.get("total_bytes"))
    if total is None:
        return render(lang, "explain.estimate_received")
    sizes = {key: _num(per_gpu.get(f"{key}_bytes")) or 0 for key in ("weights", "gradients", "optimizer",
                                                                      "activations", "runtime")}
    sizes["activations"] += _num(per_gpu.get("workspace_bytes")) or 0  # the step's transient, as in the plan
    request = result.get("request") or {}
    mode = render(lang, f"value.{request.get('mode', 'training')}")
    flops = (_num(figures.get("forward_flops_per_image")) or 0) + (_num(figures.get("attention_flops_per_image")) or 0)
    lines = [render(lang, "explain.vision_job", model=model.get("name", "?"), params=model.get("params_total", 0),
                    gflops=flops / 1e9, batch=figures.get("batch_size", 0), resolution=figures.get("resolution", 0),
                    mode=mode),
             render(lang, "explain.memory_per_gpu", total=total, parts=[
                 render(lang, "explain.term", term=render(lang, f"term.{key}"), size=value)
                 for key, value in sizes.items() if value >= 2**25])]
    for warning in result.get("warnings") or []:
        msg = _msg(warning)
        if msg is not None:
            lines.append("⚠ " + render(lang, msg))
    return "\n".join(lines)


def recommendation(result: dict[str, Any], lang: Lang) -> str:
    """tools.plan.RecommendResult: the plan in the same sentences as the results view and the proposal."""
    typed = advice.load(result)
    if typed is None:
        return render(lang, "explain.recommendation_received")
    lines = advice.summary(typed, lang)
    quoted = advice.worth_a_quote(typed)  # (named on a line of its own above: not said twice)
    listed = [p for p in typed.alternatives if quoted is None or not advice.same_configuration(p, quoted)]
    if listed:
        outside = " (" + render(lang, "options.role_outside") + ")"  # a cloud offer to a buyer of a workstation
        lines.append(render(lang, "explain.alternatives",
                            items=[advice.configuration(p, lang) + " — " + advice.price(p, lang)
                                   + ("" if typed.scope.allows(p.purchase.unit) else outside)
                                   for p in listed]))
    return "\n".join(lines)


def bench(result: dict[str, Any], lang: Lang) -> str:
    """tools.bench ServeResult: per level, latencies and throughput measured in the same trial."""
    lines = []
    for level in result.get("levels") or []:
        if not isinstance(level, dict):
            continue
        ttft = (level.get("ttft_ms") or {}).get("at_percentile")
        tpot = (level.get("tpot_ms") or {}).get("at_percentile")
        verdict = level.get("sla_passed")
        lines.append(render(lang, "explain.bench_level", concurrency=level.get("concurrency") or 0,
                            ttft=_num(ttft), tpot=_num(tpot), tps=_num(level.get("output_tokens_per_s")),
                            sla=render(lang, "explain.sla_met" if verdict else "explain.sla_missed")
                            if verdict is not None else "—"))
    if not lines:
        return render(lang, "explain.bench_received")
    return "\n".join([render(lang, "explain.bench_head"), *lines])


def tool_failed(tool: str, outcome: ToolOutcome, lang: Lang) -> str:
    return render(lang, "explain.tool_failed", tool=tool, error=(outcome.error or "").strip())


def tool_missing(tool: str, registry: ToolRegistry, lang: Lang) -> str:
    return render(lang, "explain.tool_missing", tool=tool, why=registry.unavailable.get(tool, ""))


def cluster(result: dict[str, Any], lang: Lang, prefer: str | None = None) -> str:
    """tools.cluster.ClusterPlan of a training with a deadline: per offer, the fewest chips that end it in time."""
    from sizer_agent.tools.cluster import ClusterPlan

    try:
        plan = ClusterPlan.model_validate(result)
    except ValidationError:
        return render(lang, "explain.recommendation_received")
    lines = [render(lang, "cluster.heading_training") + " :" if lang == "fr"
             else render(lang, "cluster.heading_training") + ":"]
    shown = plan.options[:3] + [o for o in plan.options[3:] if prefer and o.gpu_id == prefer]  # the card asked for
    lines += ["- " + render(lang, said) for said in (o.deadline_said() for o in shown) if said is not None]
    if len(lines) == 1:
        largest = max((p.chips for o in plan.options for p in o.scaling), default=0)
        lines.append(render(lang, "cluster.deadline_none", chips=largest))
    return "\n".join(lines)
