"""Turn tool results into what the screens show: plain strings and small view models.

No number is computed here: every figure is read from a tool result (the estimate or the recommendation)
and only formatted. Widgets receive these views as attributes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sizer_agent.app.i18n import Lang, t

# Candidate GPU memory sizes drawn beside the memory bar, in decimal GB as vendors state them: the VRAM
# tiers of seed document 002 (16 GB, 32 GB, 96 GB ECC) and the H200's 141 GB HBM3e (seed 000). Drawing
# only: whether an offer fits is decided by the recommendation tool, with usable (driver) capacities.
GPU_TIERS_GB: tuple[int, ...] = (16, 32, 96, 141)

GB = 10**9


def format_number(value: float, lang: Lang, digits: int = 0) -> str:
    """12,345.6 in English, 12 345,6 in French (narrow no-break space between thousands)."""
    text = f"{value:,.{digits}f}"
    if lang == "fr":
        return text.replace(",", "\u202f").replace(".", ",")
    return text


def format_gb(n_bytes: float | None, lang: Lang) -> str:
    """Bytes as decimal gigabytes with the unit named."""
    if n_bytes is None:
        return "—"
    return f"{format_number(n_bytes / GB, lang, 1)} GB"


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
    """A recommendation tool result carries `options[]` (the recommender's documented JSON schema)."""
    return isinstance(result, dict) and isinstance(result.get("options"), list)


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
        return t("tool.summary_estimate", lang, terms=" · ".join(terms),
                 total=format_gb(per_gpu["total_bytes"], lang))
    if is_recommendation_result(result):
        view = recommendation_view(result, lang)
        best = view.recommended
        return t(
            "tool.summary_recommend",
            lang,
            fits=len(view.options),
            total=len(result["options"]),
            best=f"{best.offer_id} ({best.num_gpus}× {best.gpu})" if best else t("tool.none", lang),
        )
    scalars = [f"{k} {_scalar(v)}" for k, v in result.items() if not isinstance(v, dict | list)]
    return " · ".join(scalars[:4])


@dataclass(frozen=True)
class OptionView:
    """One catalogue option (offer × GPU count × parallelism × precision) as the results screen shows it."""

    offer_id: str
    name: str
    gpu: str
    num_gpus: int
    precision: str
    fits: bool
    reasons: list[str]
    per_gpu_total_bytes: float | None
    headroom_pct: float | None
    tokens_per_s: float | None
    eur_per_million_tokens: float | None
    price: str
    recommended: bool = False


@dataclass(frozen=True)
class Rejection:
    """Why one offer cannot serve the workload (the tool's own sentence)."""

    offer_id: str
    name: str
    reason: str


@dataclass(frozen=True)
class RecommendationView:
    options: list[OptionView] = field(default_factory=list)  # fitting options, in the tool's ranking
    rejections: list[Rejection] = field(default_factory=list)
    recommended: OptionView | None = None
    reason: str = ""  # the tool's reason for its choice (or for choosing nothing)
    assumptions: list[str] = field(default_factory=list)


def _price(option: dict[str, Any], lang: Lang) -> str:
    if isinstance(option.get("price_eur"), int | float):
        return f"{format_number(option['price_eur'], lang)}\u00a0€"
    for key in ("hourly_eur", "price_eur_per_hour", "hourly_price_eur"):
        if isinstance(option.get(key), int | float):
            return f"{format_number(option[key], lang, 2)}\u00a0€/h"
    return "—"


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _option(raw: dict[str, Any], lang: Lang, recommended: bool) -> OptionView:
    return OptionView(
        offer_id=str(raw.get("offer_id", "?")),
        name=str(raw.get("name", raw.get("offer_id", "?"))),
        gpu=str(raw.get("gpu_name") or raw.get("gpu") or "?"),
        num_gpus=int(raw.get("num_gpus") or 1),
        precision=str(raw.get("precision") or ""),
        fits=bool(raw.get("fits")),
        reasons=[str(r) for r in raw.get("reasons", []) or []],
        per_gpu_total_bytes=_float(raw.get("per_gpu_total_bytes")),
        headroom_pct=_float(raw.get("headroom_pct")),
        tokens_per_s=_float(_dig(raw, "perf", "output_tokens_per_s")),
        eur_per_million_tokens=_float(raw.get("eur_per_million_tokens")),
        price=_price(raw, lang),
        recommended=recommended,
    )


def recommendation_view(result: dict[str, Any], lang: Lang = "en") -> RecommendationView:
    """The recommendation tool's result: its fitting options in its own order, the offers it rejects."""
    recommended_id = result.get("recommended") if isinstance(result.get("recommended"), str) else None
    fitting: list[OptionView] = []
    rejected_raw: dict[str, dict[str, Any]] = {}
    for raw in result.get("options", []):
        if not isinstance(raw, dict):
            continue
        if raw.get("fits"):
            # The recommended offer's first fitting option is the recommended configuration.
            first = recommended_id is not None and raw.get("offer_id") == recommended_id and not any(
                o.recommended for o in fitting)
            fitting.append(_option(raw, lang, first))
        else:
            rejected_raw.setdefault(str(raw.get("offer_id", "?")), raw)
    fitting_offers = {o.offer_id for o in fitting}
    rejections: list[Rejection] = []
    verdicts = result.get("offers")
    if isinstance(verdicts, list):  # one sentence per offer, written by the tool
        for verdict in verdicts:
            if isinstance(verdict, dict) and not verdict.get("fits"):
                rejections.append(Rejection(str(verdict.get("offer_id", "?")), str(verdict.get("name", "")),
                                            str(verdict.get("summary", ""))))
    else:  # older results: the first rejected option's reasons, for offers with no fitting option
        for offer_id, raw in rejected_raw.items():
            if offer_id not in fitting_offers:
                rejections.append(Rejection(offer_id, str(raw.get("name", "")),
                                            "; ".join(str(r) for r in raw.get("reasons", []) or [])))
    reason = next((result[k] for k in ("recommended_reason", "reason") if isinstance(result.get(k), str)), "")
    assumptions = [str(a) for a in result.get("assumptions", []) or []]
    best = next((o for o in fitting if o.recommended), None)
    return RecommendationView(fitting, rejections, best, reason, assumptions)


def bar(fraction: float, width: int) -> str:
    """A text bar of `width` cells filled to `fraction` (eighth-block resolution)."""
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = round(fraction * width * 8)
    full, rest = divmod(eighths, 8)
    partial = " ▏▎▍▌▋▊▉"[rest] if rest else ""
    return ("█" * full + partial).ljust(width, "░")[:width]
