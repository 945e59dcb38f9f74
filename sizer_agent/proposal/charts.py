"""Charts of the proposal as inline SVG strings, built here so the HTML needs no script and no file.

Each function takes numbers already in the proposal context and the texts to print (translated by the
caller), and returns one `<svg>` element. All text goes through `markupsafe.escape`, so a label taken
from session data cannot inject markup. The charts draw; they print only numbers they are given.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

Fmt = Callable[[float, int], str]  # (value, decimals) -> localised text

# Okabe–Ito palette: distinguishable with the common colour-vision deficiencies, prints in grey.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
INK = "#222"
GRID = "#ddd"
FAIL = "#D55E00"
FONT = 'font-family="Helvetica, Arial, sans-serif"'


def _svg(width: int, height: int, title: str, body: list[str], css_class: str) -> Markup:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart {css_class}" viewBox="0 0 {width} {height}" '
        f'width="100%" role="img" aria-label="{escape(title)}" {FONT} font-size="12">'
        f"<title>{escape(title)}</title>"
    )
    return Markup(head + "".join(body) + "</svg>")


def _text(
    x: float,
    y: float,
    text: str,
    anchor: str = "start",
    size: int = 12,
    weight: str = "normal",
    fill: str = INK,
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
        f'font-weight="{weight}" fill="{fill}">{escape(text)}</text>'
    )


@dataclass(frozen=True)
class Segment:
    label: str
    value: float  # GiB


@dataclass(frozen=True)
class Marker:
    label: str
    value: float  # GiB
    dashed: bool = False


def memory_breakdown(
    segments: Sequence[Segment],
    total_label: str,
    markers: Sequence[Marker],
    title: str,
    unit: str,
    fmt: Fmt,
) -> Markup:
    """Stacked horizontal bar of the per-GPU memory terms, with vertical lines at GPU capacities."""
    width, left, right = 760, 20, 20
    bar_top, bar_h = 86, 34
    total = sum(s.value for s in segments)
    scale_max = max([total, *(m.value for m in markers)]) * 1.06 or 1.0
    plot_w = width - left - right

    def x(value: float) -> float:
        return left + value / scale_max * plot_w

    body = [_text(left, 18, title, size=14, weight="bold")]
    cursor = 0.0
    for i, seg in enumerate(segments):
        x0, x1 = x(cursor), x(cursor + seg.value)
        body.append(
            f'<rect x="{x0:.1f}" y="{bar_top}" width="{max(x1 - x0, 0.5):.1f}" height="{bar_h}" '
            f'fill="{PALETTE[i % len(PALETTE)]}"><title>{escape(seg.label)}</title></rect>'
        )
        cursor += seg.value
    # Total under the bar end, so it never covers a segment.
    body.append(
        _text(
            x(total),
            bar_top + bar_h + 14,
            total_label,
            anchor="end" if x(total) > left + 120 else "start",
            weight="bold",
            size=11,
        )
    )
    # Capacity markers, labels staggered on three rows so close capacities stay readable.
    for i, marker in enumerate(sorted(markers, key=lambda m: m.value)):
        mx = x(marker.value)
        row_y = 36 + (i % 3) * 14
        dash = ' stroke-dasharray="5,3"' if marker.dashed else ""
        body.append(
            f'<line x1="{mx:.1f}" y1="{row_y + 3}" x2="{mx:.1f}" y2="{bar_top + bar_h + 4}" '
            f'stroke="{INK}" stroke-width="1.5"{dash}/>'
        )
        anchor = "end" if mx > width - 150 else "start"
        body.append(_text(mx + (-3 if anchor == "end" else 3), row_y, marker.label, anchor=anchor, size=11))
    # Axis: ticks at round GiB steps; the unit sits left of the first tick label's row end.
    axis_y = bar_top + bar_h + 34
    body.append(
        f'<line x1="{left}" y1="{axis_y - 6}" x2="{width - right}" y2="{axis_y - 6}" stroke="{GRID}"/>'
    )
    step = _nice_step(scale_max / 6)
    tick = 0.0
    while tick <= scale_max:
        tx = x(tick)
        body.append(f'<line x1="{tx:.1f}" y1="{axis_y - 9}" x2="{tx:.1f}" y2="{axis_y - 3}" stroke="{INK}"/>')
        label = fmt(tick, 0) + (f" {unit}" if tick + step > scale_max else "")
        body.append(
            _text(tx, axis_y + 8, label, anchor="middle" if tick + step <= scale_max else "end", size=10)
        )
        tick += step
    # Legend.
    legend_y = axis_y + 26
    col_w = plot_w / 2
    for i, seg in enumerate(segments):
        lx = left + (i % 2) * col_w
        ly = legend_y + (i // 2) * 18
        body.append(
            f'<rect x="{lx:.1f}" y="{ly - 10}" width="12" height="12" fill="{PALETTE[i % len(PALETTE)]}"/>'
        )
        body.append(_text(lx + 18, ly, seg.label, size=11))
    height = int(legend_y + ((len(segments) + 1) // 2) * 18 + 4)
    return _svg(width, height, title, body, "memory-chart")


def _nice_step(raw: float) -> float:
    if raw <= 0:
        return 1.0
    exponent = math.floor(math.log10(raw))
    for mult in (1, 2, 5, 10):
        step = mult * 10**exponent
        if step >= raw:
            return float(step)
    return float(10 ** (exponent + 1))


@dataclass(frozen=True)
class RoofPoint:
    label: str
    intensity: float  # FLOP/byte
    tflops: float


def roofline(
    peak_tflops: float,
    bandwidth_tb_s: float,
    points: Sequence[RoofPoint],
    ridge_label: str,
    title: str,
    x_label: str,
    y_label: str,
    fmt: Fmt,
) -> Markup:
    """Log-log roofline: the bandwidth slope, the compute ceiling, the ridge and the operating points."""
    width, height = 760, 400
    left, right, top, bottom = 70, 24, 40, 56
    ridge = peak_tflops / bandwidth_tb_s  # where the two roofs meet (geometry of the drawing)
    xs = [p.intensity for p in points] + [ridge]
    x_lo = 10 ** math.floor(math.log10(min(xs) / 3))
    x_hi = 10 ** math.ceil(math.log10(max(xs) * 3))
    ys = [p.tflops for p in points] + [bandwidth_tb_s * x_lo]
    y_lo = 10 ** math.floor(math.log10(min(ys)))
    y_hi = 10 ** math.ceil(math.log10(peak_tflops * 1.5))
    pw, ph = width - left - right, height - top - bottom

    def px(v: float) -> float:
        return left + (math.log10(v) - math.log10(x_lo)) / (math.log10(x_hi) - math.log10(x_lo)) * pw

    def py(v: float) -> float:
        return top + ph - (math.log10(v) - math.log10(y_lo)) / (math.log10(y_hi) - math.log10(y_lo)) * ph

    body = [_text(left, 20, title, size=14, weight="bold")]
    for k in range(round(math.log10(x_lo)), round(math.log10(x_hi)) + 1):
        gx = px(10.0**k)
        body.append(f'<line x1="{gx:.1f}" y1="{top}" x2="{gx:.1f}" y2="{top + ph}" stroke="{GRID}"/>')
        body.append(_text(gx, top + ph + 16, fmt(10.0**k, max(0, -k)), anchor="middle", size=10))
    for k in range(round(math.log10(y_lo)), round(math.log10(y_hi)) + 1):
        gy = py(10.0**k)
        body.append(f'<line x1="{left}" y1="{gy:.1f}" x2="{left + pw}" y2="{gy:.1f}" stroke="{GRID}"/>')
        body.append(_text(left - 6, gy + 4, fmt(10.0**k, max(0, -k)), anchor="end", size=10))
    body.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="{INK}"/>')
    start_y = max(bandwidth_tb_s * x_lo, y_lo)
    start_x = start_y / bandwidth_tb_s
    roof = [(px(start_x), py(start_y)), (px(ridge), py(peak_tflops)), (px(x_hi), py(peak_tflops))]
    body.append(
        '<polyline fill="none" stroke="{}" stroke-width="2.5" points="{}"/>'.format(
            PALETTE[0], " ".join(f"{a:.1f},{b:.1f}" for a, b in roof)
        )
    )
    body.append(f'<circle cx="{px(ridge):.1f}" cy="{py(peak_tflops):.1f}" r="4" fill="{PALETTE[0]}"/>')
    body.append(_text(px(ridge) + 6, py(peak_tflops) - 8, ridge_label, size=11))
    for i, point in enumerate(points):
        cx, cy = px(point.intensity), py(point.tflops)
        color = PALETTE[(i + 1) % len(PALETTE)]
        body.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="6" fill="{color}" stroke="{INK}"/>')
        anchor = "end" if cx > left + pw * 0.7 else "start"
        body.append(_text(cx + (-9 if anchor == "end" else 9), cy + 16, point.label, anchor=anchor, size=11))
    body.append(_text(left + pw / 2, height - 14, x_label, anchor="middle"))
    body.append(
        f'<text x="16" y="{top + ph / 2:.1f}" text-anchor="middle" font-size="12" fill="{INK}" '
        f'transform="rotate(-90 16 {top + ph / 2:.1f})">{escape(y_label)}</text>'
    )
    return _svg(width, height, title, body, "roofline-chart")


@dataclass(frozen=True)
class LoadPoint:
    concurrency: int
    tokens_per_s: float
    ttft_ms: float | None
    tpot_ms: float | None


def latency_throughput(
    points: Sequence[LoadPoint],
    slo_ttft_ms: float | None,
    slo_tpot_ms: float | None,
    title: str,
    ttft_label: str,
    tpot_label: str,
    x_label: str,
    slo_label: str,
    fmt: Fmt,
) -> Markup:
    """Two panels (TTFT and TPOT at the stated percentile) against output tokens/s, one point per level."""
    width, height = 780, 350
    panel_w, gap, left, top, bottom = 320, 76, 56, 62, 52
    ph = height - top - bottom
    ordered = sorted(points, key=lambda p: p.concurrency)
    x_max = max([p.tokens_per_s for p in ordered] + [1.0]) * 1.12
    body = [_text(left, 20, title, size=14, weight="bold")]
    panels = ((ttft_label, "ttft_ms", slo_ttft_ms), (tpot_label, "tpot_ms", slo_tpot_ms))
    for n, (label, attr, slo) in enumerate(panels):
        x0 = left + n * (panel_w + gap)
        values = [getattr(p, attr) for p in ordered if getattr(p, attr) is not None]
        y_max = max([*values, slo or 0.0, 1.0]) * 1.15

        def px(v: float, x0: float = x0) -> float:
            return x0 + v / x_max * panel_w

        def py(v: float, y_max: float = y_max) -> float:
            return top + ph - v / y_max * ph

        body.append(f'<rect x="{x0}" y="{top}" width="{panel_w}" height="{ph}" fill="none" stroke="{INK}"/>')
        body.append(_text(x0, top - 8, label, weight="bold"))
        for tick in _ticks(y_max):
            body.append(
                f'<line x1="{x0}" y1="{py(tick):.1f}" x2="{x0 + panel_w}" y2="{py(tick):.1f}" '
                f'stroke="{GRID}"/>'
            )
            body.append(_text(x0 - 5, py(tick) + 4, fmt(tick, 0), anchor="end", size=10))
        for tick in _ticks(x_max):
            body.append(_text(px(tick), top + ph + 15, fmt(tick, 0), anchor="middle", size=10))
        if slo is not None:
            body.append(
                f'<line x1="{x0}" y1="{py(slo):.1f}" x2="{x0 + panel_w}" y2="{py(slo):.1f}" '
                f'stroke="{FAIL}" stroke-width="1.5" stroke-dasharray="6,4"/>'
            )
            body.append(_text(x0 + 4, py(slo) - 5, f"{slo_label} {fmt(slo, 0)} ms", size=10, fill=FAIL))
        line = [(px(p.tokens_per_s), py(getattr(p, attr))) for p in ordered if getattr(p, attr) is not None]
        if line:
            body.append(
                '<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>'.format(
                    PALETTE[0], " ".join(f"{a:.1f},{b:.1f}" for a, b in line)
                )
            )
        for p in ordered:
            value = getattr(p, attr)
            if value is None:
                continue
            breaks = slo is not None and value > slo
            fill = "#fff" if breaks else PALETTE[0]
            stroke = FAIL if breaks else PALETTE[0]
            cx, cy = px(p.tokens_per_s), py(value)
            body.append(
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4.5" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="2"/>'
            )
            body.append(_text(cx - 6, cy - 7, str(p.concurrency), anchor="end", size=10))
        body.append(_text(x0 + panel_w / 2, height - 12, x_label, anchor="middle", size=11))
    return _svg(width, height, title, body, "latency-chart")


def _ticks(maximum: float) -> list[float]:
    step = _nice_step(maximum / 5)
    count = int(maximum // step)
    return [i * step for i in range(count + 1)]
