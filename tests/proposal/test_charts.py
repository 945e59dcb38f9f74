"""The SVG charts: well-formed XML, the drawn geometry follows the numbers, labels are escaped."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from sizer_agent.proposal import charts

SVG = "{http://www.w3.org/2000/svg}"


def fmt(value: float, decimals: int) -> str:
    return f"{value:,.{decimals}f}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.find(f"{SVG}title") is not None
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_memory_bars_are_proportional_and_markers_placed() -> None:
    segments = [charts.Segment("weights", 60.0), charts.Segment("kv", 20.0)]
    markers = [charts.Marker("96 GiB card", 96.0), charts.Marker("budget", 86.0, dashed=True)]
    root = parse(charts.memory_breakdown(segments, "total 80", markers, "Memory", "GiB", fmt))
    bars = [r for r in root.iter(f"{SVG}rect") if r.find(f"{SVG}title") is not None]
    widths = [float(r.get("width", 0)) for r in bars]
    assert widths[0] / widths[1] == 3.0
    lines = {round(float(ln.get("x1", 0))) for ln in root.iter(f"{SVG}line") if ln.get("stroke-width") == "1.5"}
    x0 = float(bars[0].get("x", 0))
    assert len(lines) == 2 and all(x > x0 + sum(widths) for x in lines)  # both capacities right of 80 GiB
    assert "total 80" in texts(root) and "96 GiB card" in texts(root)


def test_roofline_ridge_and_points() -> None:
    points = [charts.RoofPoint("decode", 55.5, 99.5), charts.RoofPoint("prefill", 4033.0, 1007.6)]
    root = parse(charts.roofline(1007.6, 1.792, points, "ridge", "Roofline", "FLOP/byte", "TFLOP/s", fmt))
    roof = root.find(f"{SVG}polyline")
    assert roof is not None
    (x1, y1), (x2, y2), (x3, y3) = [tuple(map(float, p.split(","))) for p in roof.get("points", "").split()]
    assert y2 == y3 and y1 > y2 and x1 < x2 < x3  # slope up to the ridge, flat ceiling after it
    circles = [(float(c.get("cx", 0)), float(c.get("cy", 0))) for c in root.iter(f"{SVG}circle")]
    decode, prefill = circles[1], circles[2]
    assert decode[0] < x2 < prefill[0]  # decode left of the ridge (memory-bound), prefill right of it
    assert abs(prefill[1] - y2) < 0.2  # prefill sits on the compute ceiling
    assert {"decode", "prefill", "ridge"} <= set(texts(root))


def test_latency_throughput_marks_levels_past_the_slo() -> None:
    points = [
        charts.LoadPoint(1, 23.5, 389.0, 42.6),
        charts.LoadPoint(32, 654.8, 487.0, 49.6),
        charts.LoadPoint(48, 781.4, 1412.6, 54.1),
    ]
    root = parse(charts.latency_throughput(points, 500.0, 50.0, "Latency", "TTFT", "TPOT", "tok/s", "SLA", fmt))
    hollow = [c for c in root.iter(f"{SVG}circle") if c.get("fill") == "#fff"]
    assert len(hollow) == 2  # concurrency 48 breaks both the TTFT and the TPOT limit
    assert {"1", "32", "48", "SLA 500 ms", "SLA 50 ms"} <= set(texts(root))


def test_labels_are_escaped() -> None:
    svg = charts.memory_breakdown([charts.Segment("<b>&", 1.0)], "<script>", [], "</svg><x>", "GiB", fmt)
    root = parse(svg)
    assert "<script>" in texts(root) and not re.search(r"<script>|<b>", svg)
