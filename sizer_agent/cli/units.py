"""Human formatting of sizes: GiB (2^30) and GB (10^9), always with the unit named."""

from __future__ import annotations

GiB = 1 << 30


def gib(value: float) -> str:
    return f"{value / GiB:,.2f} GiB"


def gb(value: float) -> str:
    return f"{value / 1e9:,.2f} GB"


def both(value: float) -> str:
    return f"{value / GiB:,.2f} GiB ({value / 1e9:,.2f} GB)"


def params(value: int) -> str:
    return f"{value / 1e9:,.2f} B" if value >= 1e9 else f"{value / 1e6:,.1f} M"


def bar(value: float, scale: float, width: int = 30) -> str:
    if scale <= 0:
        return ""
    filled = max(0, min(width, round(width * value / scale)))
    return "█" * filled + "░" * (width - filled)
