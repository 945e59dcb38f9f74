"""Render the proposal context through the Jinja templates of the `templates` package.

Templates are loaded with importlib.resources (they ship inside the wheel), undefined variables raise
(StrictUndefined), HTML is autoescaped, and Markdown output escapes every value it prints, so text a
customer typed (a name with `<script>` or `{{ }}`) stays text in both formats. Session data is only
ever a value given to a template, never template source.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any, Literal

from jinja2 import Environment, FunctionLoader, StrictUndefined
from markupsafe import Markup, escape

from sizer_agent.proposal import charts
from sizer_agent.proposal.context import build_context
from sizer_agent.proposal.i18n import (
    NBSP,
    Lang,
    Translator,
    format_eur,
    format_number,
    format_signed_pct,
)
from sizer_agent.proposal.models import ProposalContext
from tools.errors import InputError

Format = Literal["md", "html"]
TEMPLATES = {"md": "proposal.md.j2", "html": "proposal.html.j2"}
PDF_HINT = "PDF needs the optional extra: pip install 'sizer-agent[pdf]' (WeasyPrint)"


class MdSafe(str):
    """Markdown the templates produced themselves: printed as is, not escaped again."""


_MD_SPECIAL = {
    "\\": "\\\\",
    "`": "\\`",
    "*": "\\*",
    "_": "\\_",
    "[": "\\[",
    "]": "\\]",
    "|": "\\|",
    "~": "\\~",
    "<": "&lt;",
    ">": "&gt;",
    "&": "&amp;",
    "\n": " ",
    "\r": " ",
}


def md_escape(value: Any) -> str:
    """Text for Markdown: HTML and Markdown syntax characters made literal, one line."""
    return "".join(_MD_SPECIAL.get(ch, ch) for ch in str(value))


def _load(name: str) -> str:
    return resources.files("templates").joinpath(name).read_text(encoding="utf-8")


def _environment(fmt: Format) -> Environment:
    common: dict[str, Any] = dict(
        loader=FunctionLoader(_load), undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    if fmt == "html":
        return Environment(autoescape=True, **common)
    # Markdown has no autoescape: every printed value is escaped unless already marked safe.
    return Environment(
        autoescape=False,
        finalize=lambda value: value if isinstance(value, MdSafe | Markup) else md_escape(value),
        **common,
    )


def _css() -> str:
    return _load("proposal.css")


class _Helpers:
    """Filters and globals bound to one language and one output format."""

    def __init__(self, lang: Lang, fmt: Format) -> None:
        self.lang, self.fmt = lang, fmt
        self.tr = Translator(lang)

    def safe(self, text: str) -> Any:
        return Markup(text) if self.fmt == "html" else MdSafe(text)

    def t(self, key: str, **params: Any) -> Any:
        clean = {k: (escape(v) if self.fmt == "html" else md_escape(v)) for k, v in params.items()}
        return self.safe(self.tr(key, **clean))

    def label(self, section: str, key: str) -> str:
        return self.tr.label(section, key)

    def num(self, value: float | None, decimals: int = 0) -> str:
        return format_number(value, decimals, self.lang)

    def unit(self, value: float | None, unit_key: str, decimals: int = 0) -> str:
        if value is None:
            return "—"
        return f"{format_number(value, decimals, self.lang)}{NBSP}{self.tr('unit.' + unit_key)}"

    def eur(self, value: float | None, decimals: int = 0) -> str:
        return format_eur(value, self.lang, decimals)

    def dev(self, value: float | None) -> str:
        return format_signed_pct(value, self.lang)

    @staticmethod
    def raw(value: Any) -> str:
        """A number for a data- attribute: exactly as the tool gave it, empty when absent."""
        return "" if value is None else repr(value)

    def value(self, value: Any) -> str:
        """An answer's value as text: yes/no, localised numbers, known enum words translated."""
        if value is None:
            return self.tr("common.unknown")
        if isinstance(value, bool):
            return self.tr("common.yes" if value else "common.no")
        if isinstance(value, int):
            return format_number(value, 0, self.lang)
        if isinstance(value, float):
            return format_number(value, 0 if value.is_integer() else 2, self.lang)
        if isinstance(value, str):
            return self.tr.label("value", value)
        if isinstance(value, list):
            return ", ".join(self.value(v) for v in value)
        return json.dumps(value, ensure_ascii=False, sort_keys=True)

    def fence(self, text: str, info: str = "") -> Any:
        """A fenced code block (Markdown) whose fence is longer than any backtick run in the text."""
        fence = "```"
        while fence in text:
            fence += "`"
        return MdSafe(f"{fence}{info}\n{text}\n{fence}")

    def code(self, text: str) -> Any:
        """Inline code: `<code>` in HTML; in Markdown a backtick span longer than any run inside."""
        if self.fmt == "html":
            return Markup("<code>") + escape(text) + Markup("</code>")
        fence = "`"
        while fence in text:
            fence += "`"
        return MdSafe(f"{fence}{text.replace(chr(10), ' ')}{fence}")


def _charts(ctx: ProposalContext, h: _Helpers) -> dict[str, Any]:
    """The SVG charts (HTML) and their text twins (Markdown)."""
    fmt = h.num
    sizing = ctx.sizing
    segments = [
        charts.Segment(
            label=h.tr(
                "chart.segment",
                term=h.tr("term." + term.key),
                value=h.unit(term.gib, "gib", 1),
                share=fmt(term.share_pct, 0),
            ),
            value=term.gib,
        )
        for term in sizing.terms
    ]
    markers: list[charts.Marker] = []
    seen: set[tuple[str, int]] = set()
    if ctx.recommendation:
        for option in ctx.recommendation.options:
            if option.gpu_memory_gib is not None and (option.gpu, round(option.gpu_memory_gib)) not in seen:
                seen.add((option.gpu, round(option.gpu_memory_gib)))
                markers.append(
                    charts.Marker(
                        f"{option.offer_id} · {h.unit(option.gpu_memory_gib, 'gib', 1)}",
                        option.gpu_memory_gib,
                    )
                )
    if not markers and sizing.gpu_memory_gib is not None:
        markers.append(
            charts.Marker(
                f"{sizing.gpu or 'GPU'} · {h.unit(sizing.gpu_memory_gib, 'gib', 1)}", sizing.gpu_memory_gib
            )
        )
    if sizing.engine and sizing.engine.budget_gib is not None:
        markers.append(
            charts.Marker(
                h.tr("chart.budget", value=h.unit(sizing.engine.budget_gib, "gib", 1)),
                sizing.engine.budget_gib,
                dashed=True,
            )
        )
    out: dict[str, Any] = {
        "memory": charts.memory_breakdown(
            segments,
            h.tr("chart.total", value=h.unit(sizing.total_gib, "gib", 1)),
            markers,
            h.tr("chart.memory_title"),
            h.tr("unit.gib"),
            fmt,
        ),
        "roofline": None,
        "latency": None,
    }
    perf = ctx.performance
    if perf and perf.roofline and perf.roofline.points:
        roof = perf.roofline
        out["roofline"] = charts.roofline(
            roof.peak_tflops,
            roof.bandwidth_tb_s,
            [
                charts.RoofPoint(h.tr.label("phase", p.phase), p.operational_intensity, p.attainable_tflops)
                for p in roof.points
            ],
            h.tr("chart.ridge"),
            h.tr("chart.roofline_title"),
            h.tr("chart.intensity_axis"),
            h.tr("chart.flops_axis"),
            fmt,
        )
    measured = ctx.measured
    if measured and measured.levels:
        pct = perf.percentile if perf and perf.percentile is not None else 99
        points = [
            charts.LoadPoint(lv.concurrency, lv.output_tokens_per_s, lv.ttft_ms.p99, lv.tpot_ms.p99)
            for lv in measured.levels
            if lv.output_tokens_per_s is not None and not lv.client_lagged
        ]
        if points:
            out["latency"] = charts.latency_throughput(
                points,
                perf.slo_ttft_ms if perf else None,
                perf.slo_tpot_ms if perf else None,
                h.tr("chart.latency_title"),
                h.tr("chart.ttft_axis", p=fmt(pct, 0)),
                h.tr("chart.tpot_axis", p=fmt(pct, 0)),
                h.tr("chart.throughput_axis"),
                h.tr("chart.slo"),
                fmt,
            )
    out["memory_text"] = _text_bars(ctx, h)
    return out


def _text_bars(ctx: ProposalContext, h: _Helpers) -> MdSafe:
    """The memory chart for Markdown: one bar per term, plus the GPU capacities on the same scale."""
    sizing = ctx.sizing
    rows: list[tuple[str, float, str]] = [
        (h.tr("term." + term.key), term.gib, f"{h.unit(term.gib, 'gib', 1)} ({h.num(term.share_pct, 0)} %)")
        for term in sizing.terms
    ]
    rows.append((h.tr("chart.total_short"), sizing.total_gib, h.unit(sizing.total_gib, "gib", 1)))
    if ctx.recommendation:
        for option in ctx.recommendation.options:
            if option.gpu_memory_gib is not None:
                rows.append((option.offer_id, option.gpu_memory_gib, h.unit(option.gpu_memory_gib, "gib", 1)))
    if sizing.engine and sizing.engine.budget_gib is not None:
        rows.append(
            (h.tr("chart.budget_short"), sizing.engine.budget_gib, h.unit(sizing.engine.budget_gib, "gib", 1))
        )
    # Damaged sessions can carry negative, infinite or NaN sizes: bars are clamped, never trusted.
    finite = [value for _, value, _ in rows if math.isfinite(value) and value > 0]
    scale = max(finite, default=1.0)
    width = max(len(label) for label, _, _ in rows)
    lines = []
    for label, value, text in rows:
        filled = min(40, max(0, round(value / scale * 40))) if math.isfinite(value) else 0
        lines.append(f"{label.replace('`', chr(39)):<{width}}  {'█' * filled}{'░' * (40 - filled)}  {text}")
    return MdSafe("```text\n" + "\n".join(lines) + "\n```")


@cache
def _prepared(fmt: Format, lang: Lang) -> tuple[Environment, _Helpers]:
    """One compiled environment per format and language (compiling the templates dominates render time)."""
    helpers = _Helpers(lang, fmt)
    env = _environment(fmt)
    env.globals.update(
        t=helpers.t, label=helpers.label, code=helpers.code, fence=helpers.fence, eol=helpers.safe("")
    )
    env.filters.update(
        num=helpers.num, unit=helpers.unit, eur=helpers.eur, dev=helpers.dev, value=helpers.value, raw=helpers.raw
    )
    return env, helpers


def render_context(ctx: ProposalContext, fmt: Format, lang: Lang) -> str:
    """Render an already built context (the app calls this to avoid rebuilding)."""
    if fmt not in TEMPLATES:
        raise InputError("format", f"unknown format {fmt!r}", "md, html, pdf")
    if lang not in ("fr", "en"):
        raise InputError("lang", f"unknown language {lang!r}", "fr, en")
    env, helpers = _prepared(fmt, lang)
    template = env.get_template(TEMPLATES[fmt])
    return template.render(
        c=ctx,
        lang=lang,
        charts=_charts(ctx, helpers),
        css=Markup(_css()) if fmt == "html" else "",
    )


def render_proposal(session: dict[str, Any], fmt: Format, lang: Lang) -> str:
    """The proposal of a session export as Markdown or self-contained HTML, in French or English."""
    return render_context(build_context(session), fmt, lang)


def render_pdf(session: dict[str, Any], lang: Lang) -> bytes:
    """The HTML proposal printed to PDF by WeasyPrint (optional extra `pdf`); nothing is fetched."""
    try:
        import weasyprint  # heavy optional import: only when a PDF is asked for
    except ImportError:
        raise InputError("format", "pdf is not available: WeasyPrint is not installed", PDF_HINT) from None
    html = render_proposal(session, "html", lang)

    def refuse(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        raise ValueError(f"the proposal must be self-contained, refusing to fetch {url}")

    return bytes(weasyprint.HTML(string=html, url_fetcher=refuse).write_pdf())
