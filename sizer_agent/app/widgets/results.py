"""The recommendation as a table, the rejection reasons, and text-bar charts.

All figures come from the recommendation tool's result (see `present.recommendation_view`).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from sizer_agent.app.i18n import Lang, t
from sizer_agent.app.present import GB, OptionView, RecommendationView, bar, format_gb, format_number

GPU_COLUMN = 16  # characters: keeps the whole table inside 80 columns


def _maybe(value: float | None, lang: Lang, digits: int = 0, suffix: str = "") -> str:
    return "—" if value is None else f"{format_number(value, lang, digits)}{suffix}"


class RecommendationTable(DataTable[Text | str]):
    """Ranked options, fitting ones first (the tool's order); the recommended row is highlighted."""

    view: reactive[RecommendationView] = reactive(RecommendationView, always_update=True, init=False)
    lang: reactive[Lang] = reactive("fr", init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self._fill()

    def watch_view(self, _: RecommendationView) -> None:
        self._fill()

    def watch_lang(self, _: Lang) -> None:
        self._fill()

    def _fill(self) -> None:
        lang = self.lang
        self.clear(columns=True)
        for key in ("results.rank", "results.offer", "results.gpu", "results.fits", "results.mem",
                    "results.headroom", "results.tps", "results.cost", "results.price"):
            self.add_column(t(key, lang), key=key)
        rank = 0
        for option in self.view.options:
            rank += option.fits
            style = "bold green" if option.offer_id == self.view.recommended_id else ""
            gpus = f"{option.num_gpus}× {option.gpu}"
            self.add_row(
                Text(str(rank) if option.fits else "–", style=style),
                Text(option.offer_id, style=style),
                gpus if len(gpus) <= GPU_COLUMN else gpus[: GPU_COLUMN - 1] + "…",
                Text("✓", style="green") if option.fits else Text("✗", style="red"),
                format_gb(option.per_gpu_total_bytes, lang),
                _maybe(option.headroom_pct, lang, 0, " %"),
                _maybe(option.tokens_per_s, lang),
                _maybe(option.eur_per_million_tokens, lang, 2),
                option.price,
                key=option.offer_id + f"#{option.num_gpus}",
            )


class RejectionList(Static):
    """Why each other option does not fit, one line per reason."""

    view: reactive[RecommendationView] = reactive(RecommendationView, always_update=True, layout=True)
    lang: reactive[Lang] = reactive("fr")

    def render(self) -> Text:
        text = Text()
        text.append(t("results.why_not", self.lang) + "\n", style="bold")
        for option in self.view.options:
            if option.fits or not option.reasons:
                continue
            text.append(f"✗ {option.offer_id} {option.name} ({option.num_gpus}× {option.gpu})\n", style="red")
            for reason in option.reasons:
                text.append(f"   {reason}\n")
        text.rstrip()
        return text


class BarChart(Static):
    """A horizontal text-bar chart of one figure per option."""

    view: reactive[RecommendationView] = reactive(RecommendationView, always_update=True, layout=True)
    lang: reactive[Lang] = reactive("fr")

    def __init__(
        self,
        title_key: str,
        value: Callable[[OptionView], float | None],
        digits: int = 0,
        *,
        only_fitting: bool = True,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id, classes="chart")
        self.title_key = title_key
        self.value = value
        self.digits = digits
        self.only_fitting = only_fitting

    def render(self) -> Text:
        text = Text()
        text.append(t(self.title_key, self.lang) + "\n", style="bold")
        rows = [
            (f"{o.offer_id}×{o.num_gpus}", self.value(o), o.fits)
            for o in self.view.options
            if (o.fits or not self.only_fitting)
        ]
        rows = [(label, value, fits) for label, value, fits in rows if value is not None]
        if not rows:
            text.append("—", style="dim")
            return text
        top = max(value for _, value, _ in rows) or 1.0
        label_width = min(14, max(len(label) for label, _, _ in rows))
        width = min(40, max(10, (self.content_size.width or 60) - label_width - 12))
        for label, value, fits in rows:
            text.append(f"{label[:label_width]:<{label_width}} ")
            text.append(bar(value / top, width), style="green" if fits else "red")
            text.append(f" {format_number(value, self.lang, self.digits)}\n")
        text.rstrip()
        return text


def memory_value(option: OptionView) -> float | None:
    return None if option.per_gpu_total_bytes is None else option.per_gpu_total_bytes / GB
