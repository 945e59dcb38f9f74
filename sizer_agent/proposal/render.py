"""Render the proposal context through one Jinja template, as Markdown or self-contained HTML.

The document's outline is one template (`templates/proposal.j2`); the layout primitives it calls —
headings, paragraphs, lists, tables, code blocks, charts — are bound here to the output format, so the
Markdown and the HTML say the same things in the same order. Undefined variables raise (StrictUndefined);
every value printed is escaped for its format (HTML autoescape, Markdown syntax made literal), so text a
customer typed stays text. Session data is only ever a value given to the template, never template source.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any, Literal

from jinja2 import Environment, FunctionLoader, StrictUndefined
from markupsafe import Markup, escape

from sizer_agent import advice
from sizer_agent.i18n import Lang, device_terms, eur, has, long_date, number, render, trimmed, with_unit
from sizer_agent.proposal import charts, tables
from sizer_agent.proposal.context import build_context
from sizer_agent.proposal.models import ProposalContext
from sizer_agent.safe_text import printable_data
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.plan import Plan, ServingPerf

Format = Literal["md", "html"]
TEMPLATE = "proposal.j2"
PDF_HINT = "PDF needs the optional extra: pip install 'sizer-agent[pdf]' (WeasyPrint)"
GIB = 2**30


class MdSafe(str):
    """Markdown the renderer produced itself: printed as is, not escaped again."""


_MD_SPECIAL = {"\\": "\\\\", "`": "\\`", "*": "\\*", "_": "\\_", "[": "\\[", "]": "\\]", "|": "\\|", "~": "\\~",
               "<": "&lt;", ">": "&gt;", "&": "&amp;", "\n": " ", "\r": " "}


def md_escape(value: Any) -> str:
    """Text for Markdown: HTML and Markdown syntax characters made literal, one line."""
    return "".join(_MD_SPECIAL.get(ch, ch) for ch in str(value))


def _load(name: str) -> str:
    return resources.files("sizer_agent.templates").joinpath(name).read_text(encoding="utf-8")


def _environment(fmt: Format) -> Environment:
    common: dict[str, Any] = dict(loader=FunctionLoader(_load), undefined=StrictUndefined, trim_blocks=True,
                                  lstrip_blocks=True, keep_trailing_newline=True)
    if fmt == "html":
        return Environment(autoescape=True, **common)
    # Markdown has no autoescape: every printed value is escaped unless already marked safe.
    return Environment(autoescape=False,
                       finalize=lambda value: value if isinstance(value, MdSafe | Markup) else md_escape(value),
                       **common)


class _Helpers:
    """Text (catalogue, numbers by locale) and layout, bound to one language and one output format."""

    def __init__(self, lang: Lang, fmt: Format) -> None:
        self.lang, self.fmt = lang, fmt

    # -- safe text ---------------------------------------------------------------------------------
    def safe(self, text: str) -> Any:
        return Markup(text) if self.fmt == "html" else MdSafe(text)

    def esc(self, value: Any) -> Any:
        """A value made safe for the format (already-safe pieces pass through)."""
        if isinstance(value, Markup | MdSafe):
            return value
        return escape(str(value)) if self.fmt == "html" else MdSafe(md_escape(value))

    def t(self, key: str, **params: Any) -> Any:
        """Catalogue text; text parameters are escaped for the format, numbers formatted by the catalogue."""
        return self.safe(render(self.lang, key, **{k: self._clean(v) for k, v in params.items()}))

    def _clean(self, value: Any) -> Any:
        if isinstance(value, Markup | MdSafe):
            return str(value)
        if isinstance(value, str):
            return str(self.esc(value))
        if isinstance(value, list):
            return [self._clean(item) for item in value]
        return value  # numbers, messages, None

    def msg(self, message: Msg | None) -> Any:
        return self.esc(render(self.lang, message)) if message is not None else "—"

    def label(self, section: str, key: Any) -> Any:
        name = f"{section}.{key}"
        return self.esc(render(self.lang, name) if has(self.lang, name) else key)

    # -- numbers -----------------------------------------------------------------------------------
    def num(self, value: Any, decimals: int = 0) -> str:
        return number(value, self.lang, decimals)

    def gib(self, n_bytes: Any, decimals: int = 1) -> str:
        value = None if not isinstance(n_bytes, int | float) else n_bytes / GIB
        return with_unit(number(value, self.lang, decimals), render(self.lang, "unit.gib"))

    def tb(self, n_bytes: Any) -> str:
        value = None if not isinstance(n_bytes, int | float) else n_bytes / 1e12
        return with_unit(trimmed(value, self.lang, 2), render(self.lang, "unit.tb"))

    def eur(self, value: Any, decimals: int = 0) -> str:
        return eur(value, self.lang, decimals)

    def ms(self, value: Any, decimals: int = 0) -> str:
        return with_unit(number(value, self.lang, decimals), "ms")

    def sec(self, value: Any) -> str:
        return with_unit(trimmed(value, self.lang, 2), "s")

    def hours(self, value: Any) -> str:
        return with_unit(trimmed(value, self.lang, 1), "h")

    def tps(self, value: Any) -> str:
        return with_unit(number(value, self.lang), render(self.lang, "unit.tokens_per_s"))

    def pct(self, fraction: Any, decimals: int = 0) -> str:
        value = fraction * 100 if isinstance(fraction, int | float) else None
        return with_unit(number(value, self.lang, decimals), "%")

    def kw(self, watts: Any) -> str:
        value = watts / 1000 if isinstance(watts, int | float) else None
        return with_unit(trimmed(value, self.lang, 1), "kW")

    def date(self, value: Any) -> str:
        return long_date(value, self.lang) if value else "—"

    def value(self, value: Any) -> str:
        """An answer's value as text: yes/no, localised numbers, known enum words translated."""
        if value is None:
            return render(self.lang, "common.unknown")
        if isinstance(value, bool):
            return render(self.lang, "common.yes" if value else "common.no")
        if isinstance(value, int):
            return number(value, self.lang)
        if isinstance(value, float):
            return trimmed(value, self.lang, 2)
        if isinstance(value, str):
            name = f"value.{value}"
            return render(self.lang, name) if has(self.lang, name) else value
        if isinstance(value, list):
            return ", ".join(self.value(v) for v in value)
        if isinstance(value, dict):
            return ", ".join(f"{k} {self.value(v)}" for k, v in value.items())
        return str(value)

    # -- the plan in words (the same sentences as the chat and the results view) ---------------------
    def summary(self, ctx: ProposalContext) -> list[Any]:
        return [self.esc(line) for line in advice.summary(ctx.result, self.lang)]

    @staticmethod
    def target_missing(serving: ServingPerf) -> Msg:
        """Which latency target was not stated (the same words as the plan's assumption)."""
        missing = set(serving.target_assumed)
        return Msg("target.none" if missing >= {"ttft", "tpot"} else f"target.{next(iter(missing))}")

    def vision_precision(self, plan: Plan) -> Any:
        return self.esc(advice.vision_precision(plan, self.lang))

    def config(self, plan: Plan) -> Any:
        return self.esc(advice.configuration(plan, self.lang))

    def configs(self, plans: Sequence[Plan]) -> list[Any]:
        return [self.config(plan) for plan in plans]

    def alternatives(self, result: Any) -> list[Any]:
        """The summary's other configurations; one the customer's scope excludes says so (cloud for a buyer)."""
        items = []
        for plan in result.alternatives:
            text = self.config(plan)
            if not result.scope.allows(plan.purchase.unit):
                text = self.safe(f"{text} ({self.esc(self.t('options.role_outside'))})")
            items.append(text)
        return items

    def preference(self, result: Any) -> Any:
        """What became of the accelerator asked for, in its own words (a chip or a GPU)."""
        return self.esc(advice.sentence(advice.preference(result, self.lang)))  # a paragraph of its own

    def msgs(self, messages: Sequence[Msg]) -> list[Any]:
        return [self.msg(message) for message in messages]

    def price(self, plan: Plan) -> Any:
        return self.esc(advice.price(plan, self.lang))

    def split(self, plan: Plan) -> Any:
        return self.esc(advice.split(plan, self.lang))

    def speed(self, plan: Plan) -> Any:
        return self.esc(advice.speed(plan, self.lang) or "—")

    def cost(self, plan: Plan) -> Any:
        return self.esc(advice.cost(plan, self.lang) or "—")

    def speed_short(self, plan: Plan) -> Any:
        return self.esc(advice.speed_short(plan, self.lang))

    def cost_short(self, plan: Plan) -> Any:
        return self.esc(advice.cost_short(plan, self.lang))

    # -- layout --------------------------------------------------------------------------------------
    def h(self, level: int, text: Any, anchor: str = "") -> Any:
        if self.fmt == "md":
            return MdSafe("#" * level + " " + str(self.esc(text)))
        ident = f' id="{escape(anchor)}"' if anchor else ""
        return Markup(f"<h{level}{ident}>") + self.esc(text) + Markup(f"</h{level}>")

    def p(self, *parts: Any, css: str = "") -> Any:
        text = " ".join(str(self.esc(part)) for part in parts if part not in (None, ""))
        if self.fmt == "md":
            return MdSafe(text)
        klass = f' class="{escape(css)}"' if css else ""
        return Markup(f"<p{klass}>{text}</p>")

    def ul(self, items: Sequence[Any]) -> Any:
        cells = [str(self.esc(item)) for item in items]
        if self.fmt == "md":
            return MdSafe("\n".join(f"- {cell}" for cell in cells))
        return Markup("<ul>" + "".join(f"<li>{cell}</li>" for cell in cells) + "</ul>")

    def table(self, headers: Sequence[Any], rows: Sequence[Sequence[Any]], numeric: Sequence[int] = (),
              attrs: Sequence[dict[str, Any]] | None = None, strong: Sequence[bool] | None = None) -> Any:
        """A table; `numeric` columns are right-aligned; `attrs` (HTML) carry each row's raw data-* values."""
        head = [str(self.esc(h)) for h in headers]
        body = [[str(self.esc(cell)) for cell in row] for row in rows]
        if self.fmt == "md":
            align = ["---:" if i in numeric else "---" for i in range(len(head))]
            lines = ["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"]
            for index, row in enumerate(body):
                cells = [f"**{c}**" if strong and strong[index] and c else c for c in row]
                lines.append("| " + " | ".join(cells) + " |")
            return MdSafe("\n".join(lines))
        out = ["<table><thead><tr>"]
        out += [f'<th{" class=num" if i in numeric else ""}>{h}</th>' for i, h in enumerate(head)]
        out.append("</tr></thead><tbody>")
        for index, row in enumerate(body):
            data = (attrs or [{}] * len(body))[index]
            extra = "".join(f' data-{escape(k)}="{escape(v)}"' for k, v in data.items() if v is not None)
            klass = ' class="recommended"' if strong and strong[index] else ""
            out.append(f"<tr{klass}{extra}>")
            out += [f'<td{" class=num" if i in numeric else ""}>{c}</td>' for i, c in enumerate(row)]
            out.append("</tr>")
        out.append("</tbody></table>")
        return Markup("".join(out))

    def code(self, text: str, ident: int | None = None) -> Any:
        if self.fmt == "html":
            data = f' data-command="{ident}"' if ident is not None else ""
            return Markup(f"<pre{data}><code>") + escape(text) + Markup("</code></pre>")
        fence = "```"
        while fence in text:
            fence += "`"
        return MdSafe(f"{fence}sh\n{text}\n{fence}")

    def raw(self, value: Any) -> str:
        """A number for a data- attribute: exactly as the tool gave it, empty when absent."""
        return "" if value is None else repr(value)


def _charts(ctx: ProposalContext, h: _Helpers) -> dict[str, Any]:
    """The memory, roofline and latency charts: SVG in HTML, a text bar chart in Markdown."""
    plan = ctx.result.plan or (ctx.result.alternatives[0] if ctx.result.alternatives else None)
    rows = ctx.memory_rows
    out: dict[str, Any] = {"memory": None, "roofline": None, "latency": None}
    measured = ctx.measured
    if h.fmt == "html" and measured and measured.levels:
        points = [charts.LoadPoint(lv.concurrency, lv.output_tokens_per_s, lv.ttft_ms.p99, lv.tpot_ms.p99)
                  for lv in measured.levels if lv.output_tokens_per_s is not None and not lv.client_lagged]
        serving = plan.serving if plan else None
        if points:
            pct = h.num(serving.percentile if serving else 99)
            out["latency"] = charts.latency_throughput(
                points, serving.slo_ttft_ms if serving else None, serving.slo_tpot_ms if serving else None,
                render(h.lang, "chart.latency_title"), render(h.lang, "chart.ttft_axis", p=pct),
                render(h.lang, "chart.tpot_axis", p=pct), render(h.lang, "chart.throughput_axis"),
                render(h.lang, "chart.slo"), h.num)
    if plan is None or plan.memory is None or not rows:
        return out
    card = plan.memory.gpu_memory_bytes / GIB
    total = sum(r.bytes for r in rows) / GIB
    if h.fmt == "html":
        segments = [charts.Segment(render(h.lang, "chart.segment", term=render(h.lang, f"term.{r.key}"),
                                          value=h.gib(r.bytes), share=h.num(r.share_pct)), r.bytes / GIB)
                    for r in rows]
        markers = [charts.Marker(f"{plan.gpu_name} · {h.gib(plan.memory.gpu_memory_bytes)}", card)]
        if plan.memory.engine_reserved_bytes is not None:
            markers.append(charts.Marker(render(h.lang, "chart.budget", value=h.gib(plan.memory.engine_reserved_bytes)),
                                         plan.memory.engine_reserved_bytes / GIB, dashed=True))
        out["memory"] = charts.memory_breakdown(segments, render(h.lang, "chart.total", value=h.gib(total * GIB)),
                                                markers, render(h.lang, "chart.memory_title"),
                                                render(h.lang, "unit.gib"), h.num)
        roof = plan.serving.roofline if plan.serving else []
        if roof:
            top = roof[0]
            out["roofline"] = charts.roofline(
                top.peak_tflops, top.bandwidth_tb_s,
                [charts.RoofPoint(render(h.lang, f"phase.{p.phase}"), p.operational_intensity, p.attainable_tflops)
                 for p in roof],
                render(h.lang, "chart.ridge"), render(h.lang, "chart.roofline_title"),
                render(h.lang, "chart.intensity_axis"), render(h.lang, "chart.flops_axis"), h.num)
        return out
    bars = [(render(h.lang, f"term.{r.key}"), r.bytes / GIB, f"{h.gib(r.bytes)} ({h.num(r.share_pct)} %)")
            for r in rows]
    bars.append((render(h.lang, "chart.total_short"), total, h.gib(total * GIB)))
    bars.append((plan.gpu_name, card, h.gib(plan.memory.gpu_memory_bytes)))
    finite = [v for _, v, _ in bars if math.isfinite(v) and v > 0]
    scale = max(finite, default=1.0)
    width = max(len(label) for label, _, _ in bars)
    lines = []
    for label, value, text in bars:
        filled = min(40, max(0, round(value / scale * 40))) if math.isfinite(value) else 0
        lines.append(f"{label.replace('`', chr(39)):<{width}}  {'█' * filled}{'░' * (40 - filled)}  {text}")
    out["memory"] = MdSafe("```text\n" + "\n".join(lines) + "\n```")
    return out


@cache
def _prepared(fmt: Format, lang: Lang) -> tuple[Environment, _Helpers]:
    """One compiled environment per format and language (compiling the template dominates render time)."""
    helpers = _Helpers(lang, fmt)
    env = _environment(fmt)
    env.globals.update(h=helpers, t=helpers.t, msg=helpers.msg, label=helpers.label, tb=tables)
    env.filters.update(num=helpers.num, gib=helpers.gib, eur=helpers.eur, ms=helpers.ms, tps=helpers.tps,
                       pct=helpers.pct, kw=helpers.kw, date=helpers.date, value=helpers.value, raw=helpers.raw,
                       sec=helpers.sec, hours=helpers.hours, tb=helpers.tb)
    return env, helpers


def render_context(ctx: ProposalContext, fmt: Format, lang: Lang) -> str:
    """Render an already built context (the app calls this to avoid rebuilding)."""
    if fmt not in ("md", "html"):
        raise InputError("format", f"unknown format {fmt!r}", "md, html, pdf")
    if lang not in ("fr", "en"):
        raise InputError("lang", f"unknown language {lang!r}", "fr, en")
    env, helpers = _prepared(fmt, lang)
    css = Markup(_load("proposal.css")) if fmt == "html" else ""
    shown = ctx.result.plan or (ctx.result.alternatives[0] if ctx.result.alternatives else None)
    # the document speaks of its plan's accelerator: "per chip" for a TPU or Trainium, "per GPU" for a card;
    # rows about another offer switch to that offer's words (tables.options, tables.verdicts)
    with device_terms(advice.terms_of(shown.gpu_id if shown else None)):
        return env.get_template(TEMPLATE).render(c=ctx, fmt=fmt, lang=lang, charts=_charts(ctx, helpers), css=css)


def render_proposal(session: dict[str, Any], fmt: Format, lang: Lang) -> str:
    """The proposal of a session export as Markdown or self-contained HTML, in French or English.

    Text the customer typed reaches the document with its control bytes (NUL, ESC…) shown as `\\xNN`."""
    return render_context(build_context(printable_data(session)), fmt, lang)


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
