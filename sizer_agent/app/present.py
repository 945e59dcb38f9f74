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
    """12 345.6 in English, 12 345,6 in French (narrow no-break space between thousands)."""
    text = f"{value:,.{digits}f}"
    if lang == "fr":
        return text.replace(",", "\u202f").replace(".", ",")
    return text.replace(",", "\u202f")


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


def tool_summary(tool: str, result: dict[str, Any] | None, lang: Lang) -> str:
    """One line under a tool card: the figures a reader wants without opening it."""
    if result is None:
        return ""
    if is_estimate_result(result):
        per_gpu = result["per_gpu"]
        return t(
            "tool.summary_estimate",
            lang,
            weights=format_gb(per_gpu.get("weights_bytes"), lang),
            kv=format_gb(per_gpu.get("kv_cache_bytes"), lang),
            runtime=format_gb(per_gpu.get("runtime_bytes"), lang),
            total=format_gb(per_gpu.get("total_bytes"), lang),
        )
    if is_recommendation_result(result):
        view = recommendation_view(result, lang)
        return t(
            "tool.summary_recommend",
            lang,
            fits=sum(1 for o in view.options if o.fits),
            total=len(view.options),
            best=view.recommended_name or t("tool.none", lang),
        )
    scalars = [f"{k} {_scalar(v)}" for k, v in result.items() if not isinstance(v, dict | list)]
    return " · ".join(scalars[:4])


@dataclass(frozen=True)
class OptionView:
    """One catalogue option as the results screen shows it."""

    offer_id: str
    name: str
    gpu: str
    num_gpus: int
    fits: bool
    reasons: list[str]
    per_gpu_total_bytes: float | None
    headroom_pct: float | None
    tokens_per_s: float | None
    eur_per_million_tokens: float | None
    price: str


@dataclass(frozen=True)
class RecommendationView:
    options: list[OptionView] = field(default_factory=list)
    recommended_id: str | None = None
    recommended_name: str | None = None
    reason: str = ""


def _price(option: dict[str, Any], lang: Lang) -> str:
    if isinstance(option.get("price_eur"), int | float):
        return format_number(option["price_eur"], lang)
    for key in ("hourly_eur", "price_eur_per_hour", "hourly_price_eur"):
        if isinstance(option.get(key), int | float):
            return f"{format_number(option[key], lang, 2)}/h"
    return "—"


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def recommendation_view(result: dict[str, Any], lang: Lang = "en") -> RecommendationView:
    """The recommendation tool's result, in its own ranking order (fitting options first)."""
    options = []
    for raw in result.get("options", []):
        if not isinstance(raw, dict):
            continue
        options.append(
            OptionView(
                offer_id=str(raw.get("offer_id", "?")),
                name=str(raw.get("name", raw.get("offer_id", "?"))),
                gpu=str(raw.get("gpu", "?")),
                num_gpus=int(raw.get("num_gpus") or 1),
                fits=bool(raw.get("fits")),
                reasons=[str(r) for r in raw.get("reasons", []) or []],
                per_gpu_total_bytes=_float(raw.get("per_gpu_total_bytes")),
                headroom_pct=_float(raw.get("headroom_pct")),
                tokens_per_s=_float(_dig(raw, "perf", "output_tokens_per_s")),
                eur_per_million_tokens=_float(raw.get("eur_per_million_tokens")),
                price=_price(raw, lang),
            )
        )
    recommended = result.get("recommended")
    recommended_id = recommended if isinstance(recommended, str) else None
    if isinstance(recommended, dict):  # tolerate {"offer_id": ..., "reason": ...}
        recommended_id = recommended.get("offer_id")
    name = next((o.name for o in options if o.offer_id == recommended_id), recommended_id)
    reason = ""
    for key in ("recommended_reason", "reason", "no_fit_reason"):
        if isinstance(result.get(key), str):
            reason = result[key]
            break
    return RecommendationView(options, recommended_id, name, reason)


def bar(fraction: float, width: int) -> str:
    """A text bar of `width` cells filled to `fraction` (eighth-block resolution)."""
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = round(fraction * width * 8)
    full, rest = divmod(eighths, 8)
    partial = " ▏▎▍▌▋▊▉"[rest] if rest else ""
    return ("█" * full + partial).ljust(width, "░")[:width]
