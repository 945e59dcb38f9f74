"""Turn tool results into what the screens show: plain strings and small view models.

No number is computed here: every figure is read from a tool result (the estimate or the recommendation)
and only formatted. Widgets receive these views as attributes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sizer_agent import advice
from sizer_agent.app.i18n import Lang, t
from sizer_agent.i18n import device_terms, gib, number, render
from sizer_agent.tools.plan import Plan

# Candidate GPU memory sizes drawn beside the memory bar, in decimal GB as vendors state them: the VRAM
# tiers of docs/method.md seed 002 (16 GB, 32 GB, 96 GB ECC) and the H200's 141 GB HBM3e (seed 000). Drawing
# only: whether an offer fits is decided by the recommendation tool, with usable (driver) capacities.
GPU_TIERS_GB: tuple[int, ...] = (16, 32, 96, 141)

GB = 10**9


def format_number(value: float, lang: Lang, digits: int = 0) -> str:
    """12,345.6 in English, 12 345,6 in French (narrow no-break space between thousands), by Babel."""
    return number(value, lang, digits)


def format_gb(n_bytes: float | None, lang: Lang) -> str:
    """Memory in binary gibibytes with the unit named in the language (Gio / GiB), as every document says it."""
    return "—" if n_bytes is None else gib(n_bytes, lang)


def _dig(data: dict[str, Any] | None, *path: str) -> Any:
    """`data[path[0]][path[1]]…`, or None when any step is missing."""
    current: Any = data
    for key in path:
        if not isinstance(current, dict) or key not in current:
            return None
        current = current[key]
    return current


def is_estimate_result(result: dict[str, Any] | None) -> bool:
    """An estimate tool result carries `per_gpu.total_bytes` (the estimator's documented JSON schema)."""
    return isinstance(_dig(result, "per_gpu", "total_bytes"), int | float)


def is_recommendation_result(result: dict[str, Any] | None) -> bool:
    """A recommendation tool result carries `options[]` and a `status` (the recommender's documented JSON schema);
    a cluster plan (size_cluster) has options too, and no status."""
    return isinstance(result, dict) and isinstance(result.get("options"), list) and "status" in result


def memory_need_bytes(result: dict[str, Any] | None) -> float | None:
    """Memory the most loaded GPU needs, from an estimate result."""
    value = _dig(result, "per_gpu", "total_bytes")
    return float(value) if isinstance(value, int | float) else None


def compact_json(value: Any, width: int) -> str:
    """A one-line preview of tool arguments, cut to `width` characters."""
    if isinstance(value, dict):
        parts = [f"{k}: {_scalar(v)}" for k, v in value.items()]
        text = "{" + ", ".join(parts) + "}"
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def _scalar(value: Any) -> str:
    if isinstance(value, dict | list):
        return "…"
    return str(value)


def pretty_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False, default=str)


# Memory terms of an estimate, in the order the summary line names them (the estimator's JSON schema).
_MEMORY_TERMS = (
    ("weights_bytes", "mem.weights"),
    ("kv_cache_bytes", "mem.kv"),
    ("activations_bytes", "mem.activations"),
    ("gradients_bytes", "mem.gradients"),
    ("optimizer_bytes", "mem.optimizer"),
    ("runtime_bytes", "mem.runtime"),
)


def tool_summary(tool: str, result: dict[str, Any] | None, lang: Lang) -> str:
    """One line under a tool card: the figures a reader wants without opening it."""
    if result is None:
        return ""
    if is_estimate_result(result):
        per_gpu = result["per_gpu"]
        terms = [
            f"{t(label, lang)} {format_gb(per_gpu[key], lang)}"
            for key, label in _MEMORY_TERMS
            if isinstance(per_gpu.get(key), int | float) and per_gpu[key] > 0
        ]
        with device_terms(advice.estimate_terms(result)):  # "/chip" on a named TPU
            return t("tool.summary_estimate", lang, terms=" · ".join(terms),
                     total=format_gb(per_gpu["total_bytes"], lang))
    if is_recommendation_result(result):
        typed = advice.load(result)
        plan = typed.plan if typed else None
        return t(
            "tool.summary_recommend",
            lang,
            fits=sum(1 for o in result["options"] if isinstance(o, dict) and o.get("fits")),
            total=len(result["options"]),
            best=f"{plan.offer_id} ({plan.parallelism.num_gpus}× {plan.gpu_name})" if plan else t("tool.none", lang),
        )
    if isinstance(result.get("options"), list) and "best" in result:  # a cluster plan (size_cluster)
        options = [o for o in result["options"] if isinstance(o, dict)]
        best = next((o for o in options if o.get("offer_id") == result.get("best")), None)
        chips = best.get("deadline_chips") if best else None
        shown = (f"{best.get('offer_id')} ({chips} × {best.get('gpu_id')})" if best and chips
                 else str(best.get("offer_id")) if best else t("tool.none", lang))
        return t("tool.summary_cluster", lang, offers=len(options), best=shown)
    scalars = [f"{k} {_scalar(v)}" for k, v in result.items() if not isinstance(v, dict | list)]
    return " · ".join(scalars[:4])


@dataclass(frozen=True)
class OptionView:
    """One configuration (the plan or an alternative) as the results screen shows it."""

    offer_id: str
    name: str
    gpu: str
    num_gpus: int
    precision: str
    fits: bool
    reasons: list[str]
    per_gpu_total_bytes: float | None  # what the load needs on one GPU under the split
    headroom_pct: float | None
    tokens_per_s: float | None  # the job's own speed: output tokens/s, training tokens/s or images/s
    eur_per_million_tokens: float | None  # the job's own unit cost: € per Mtok, per epoch or per M images
    price: str
    recommended: bool = False


@dataclass(frozen=True)
class Rejection:
    """Why one offer cannot serve the workload (the tool's own sentence, in the interface language)."""

    offer_id: str
    name: str
    reason: str


@dataclass(frozen=True)
class RecommendationView:
    options: list[OptionView] = field(default_factory=list)  # the plan, then the alternatives
    rejections: list[Rejection] = field(default_factory=list)
    recommended: OptionView | None = None
    speed_unit: str = "tps"  # results.<key> of the speed column: tps, tps_training, ips
    cost_unit: str = "cost"  # results.<key> of the cost column: cost (€/Mtok), cost_epoch, cost_mimg
    reason: str = ""  # the headline: the plan, or why there is none
    assumptions: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)  # the plan in the proposal's own sentences


def _option(plan: Plan, lang: Lang, recommended: bool) -> OptionView:
    memory = plan.memory
    speed = None
    c = plan.costs
    cost = c.eur_per_million_tokens
    if plan.serving is not None:
        speed = plan.serving.sustained_output_tokens_per_s
    elif plan.training is not None:
        speed, cost = plan.training.tokens_per_s, c.eur_per_epoch
    elif plan.vision is not None:
        speed = plan.vision.images_per_s
        cost = c.eur_per_epoch if plan.vision.mode == "training" else c.eur_per_million_images
    return OptionView(
        offer_id=plan.offer_id, name=plan.offer_name, gpu=plan.gpu_name, num_gpus=plan.parallelism.num_gpus,
        precision=plan.weight_precision, fits=plan.fits, reasons=[render(lang, r) for r in plan.reasons],
        per_gpu_total_bytes=float(memory.load_bytes) if memory else None,
        headroom_pct=memory.headroom_pct if memory else None, tokens_per_s=speed,
        eur_per_million_tokens=cost, price=advice.price_short(plan, lang),
        recommended=recommended,
    )


def recommendation_view(result: dict[str, Any], lang: Lang = "en") -> RecommendationView:
    """The recommendation as the document states it: the plan first, its alternatives, the offers that fail."""
    typed = advice.load(result)
    if typed is None:
        return RecommendationView()
    options = []
    if typed.plan is not None:
        options.append(_option(typed.plan, lang, typed.status == "recommended"))
    options += [_option(p, lang, False) for p in typed.alternatives]
    rejections = [Rejection(v.offer_id, v.name, render(lang, v.reason)) for v in typed.offers if not v.fits]
    plan = typed.plan or (typed.alternatives[0] if typed.alternatives else None)
    speed_unit, cost_unit = "tps", "cost"
    if plan is not None and plan.vision is not None:
        speed_unit, cost_unit = "ips", ("cost_epoch" if plan.vision.mode == "training" else "cost_mimg")
    elif typed.mode == "training":
        speed_unit, cost_unit = "tps_training", "cost_epoch"
    knobs = [render(lang, k.text) for k in typed.plan.knobs] if typed.plan else []
    return RecommendationView(
        options=options, rejections=rejections, recommended=next((o for o in options if o.recommended), None),
        speed_unit=speed_unit, cost_unit=cost_unit,
        reason=render(lang, advice.headline(typed)), assumptions=knobs + [render(lang, a) for a in typed.assumptions],
        summary=advice.summary(typed, lang),
    )


def bar(fraction: float, width: int) -> str:
    """A text bar of `width` cells filled to `fraction` (eighth-block resolution)."""
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = round(fraction * width * 8)
    full, rest = divmod(eighths, 8)
    partial = " ▏▎▍▌▋▊▉"[rest] if rest else ""
    return ("█" * full + partial).ljust(width, "░")[:width]
