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
from sizer_agent.app.widgets.results import BarChart, RecommendationTable, RejectionList, memory_value

RESULTS_KEYS = [("esc", "key.back"), ("^p", "key.proposal"), ("^s", "key.save"), ("F1", "key.help"),
                ("^q", "key.quit")]


class Verdict(Static):
    """The one-line answer: which configuration, or why none fits."""

    view: reactive[RecommendationView] = reactive(RecommendationView, always_update=True, layout=True)
    lang: reactive[Lang] = reactive("fr")

    def render(self) -> Text:
        if not self.view.options:
            return Text(t("results.empty", self.lang), style="dim")
        if self.view.recommended_name:
            best = next(o for o in self.view.options if o.offer_id == self.view.recommended_id)
            name = f"{best.offer_id} {best.name} — {best.num_gpus}× {best.gpu}, {best.price} €"
            return Text(t("results.recommended", self.lang, name=name), style="bold green")
        return Text(t("results.none", self.lang, reason=self.view.reason or "—"), style="bold red")


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
            yield BarChart("results.chart_mem", memory_value, 1, only_fitting=False, id="chart-mem")
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
        for widget in self.query("Verdict, RecommendationTable, RejectionList, BarChart, KeyBar"):
            widget.lang = self.lang  # type: ignore[attr-defined]
            if hasattr(widget, "view"):
                widget.view = self.view  # type: ignore[attr-defined]
