"""The results view: the ranked recommendation, why the others fail, and charts."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Header, Static

from sizer_agent.app.i18n import Lang, t
from sizer_agent.app.present import RecommendationView
from sizer_agent.app.widgets.keybar import KeyBar
from sizer_agent.app.widgets.results import (
    BarChart,
    RecommendationTable,
    RejectionList,
    headroom_note,
    memory_value,
)

RESULTS_KEYS = [("esc", "key.back"), ("^p", "key.proposal"), ("^s", "key.save"), ("F1", "key.help"),
                ("^q", "key.quit")]


class Verdict(Static):
    """The answer in two lines: which configuration (or none) and the tool's reason."""

    view: reactive[RecommendationView] = reactive(RecommendationView, always_update=True, layout=True)
    lang: reactive[Lang] = reactive("fr", layout=True)

    def render(self) -> Text:
        view = self.view
        if not view.summary:
            return Text(t("results.empty", self.lang), style="dim")
        # the plan in the proposal's own sentences: the headline stands out, the facts follow
        text = Text(view.summary[0], style="bold green" if view.recommended else "bold yellow")
        for line in view.summary[1:]:
            text.append("\n" + line)
        return text


class Assumptions(Static):
    view: reactive[RecommendationView] = reactive(RecommendationView, always_update=True, layout=True)
    lang: reactive[Lang] = reactive("fr", layout=True)

    def render(self) -> Text:
        text = Text()
        if self.view.assumptions:
            text.append(t("results.assumptions", self.lang) + "\n", style="bold")
            text.append("\n".join(f"• {a}" for a in self.view.assumptions), style="dim")
        return text


class ResultsScreen(Screen[None]):
    """Shows a `RecommendationView` set by the app; escape returns to the conversation."""

    BINDINGS: ClassVar = [Binding("escape", "app.pop_screen", show=False)]

    view: reactive[RecommendationView] = reactive(RecommendationView, always_update=True, init=False)
    lang: reactive[Lang] = reactive("fr", init=False)

    def __init__(self, view: RecommendationView, lang: Lang) -> None:
        super().__init__(id="results-screen")
        self.set_reactive(ResultsScreen.view, view)
        self.set_reactive(ResultsScreen.lang, lang)
        self._ready = False

    def compose(self) -> ComposeResult:
        yield Header(icon="≡")
        with VerticalScroll(id="results-body"):
            yield Verdict(id="verdict")
            yield RecommendationTable(id="recommendation-table")
            yield RejectionList(id="rejections")
            yield BarChart("results.chart_cost", lambda o: o.eur_per_million_tokens, 2, id="chart-cost")
            yield BarChart("results.chart_tps", lambda o: o.tokens_per_s, 0, id="chart-tps")
            yield BarChart("results.chart_mem", memory_value, 1, note=headroom_note, id="chart-mem")
            yield Assumptions(id="assumptions")
        yield KeyBar(RESULTS_KEYS)

    def on_mount(self) -> None:
        self._ready = True
        self._push_down()
        self.query_one(RecommendationTable).focus()

    def watch_view(self, _: RecommendationView) -> None:
        self._push_down()

    def watch_lang(self, _: Lang) -> None:
        self._push_down()

    def _push_down(self) -> None:
        if not self._ready:
            return
        for widget in self.query("Verdict, RecommendationTable, RejectionList, BarChart, Assumptions, KeyBar"):
            widget.lang = self.lang  # type: ignore[attr-defined]
            if hasattr(widget, "view"):
                widget.view = self.view
