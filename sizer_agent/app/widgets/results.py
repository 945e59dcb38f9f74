"""The recommendation as a table, the rejection reasons, and text-bar charts.

All figures come from the recommendation tool's result (see `present.recommendation_view`).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from sizer_agent.app.i18n import Lang, t
from sizer_agent.app.present import OptionView, RecommendationView, bar, format_gb, format_number

GIB = 2**30
# Column widths in characters: with the cell padding the table stays inside 80 columns.
OFFER_COLUMN = 12
GPU_COLUMN = 13
CHART_ROWS = 8  # the charts show the best-ranked options only


def cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _short_gpu(name: str) -> str:
    """The table's narrow column drops the vendor ("NVIDIA H100 SXM5" → "H100 SXM5")."""
    for vendor in ("NVIDIA ", "AMD "):
        if name.startswith(vendor):
            return name[len(vendor):]
    return name


def _maybe(value: float | None, lang: Lang, digits: int = 0, suffix: str = "") -> str:
    return "—" if value is None else f"{format_number(value, lang, digits)}{suffix}"


# The speed and cost of the job in its own unit: serving tokens, training tokens and epochs, images.
SPEED_COLUMN = {"tps": "results.tps", "tps_training": "results.tps_training", "ips": "results.ips"}
COST_COLUMN = {"cost": "results.cost", "cost_epoch": "results.cost_epoch", "cost_mimg": "results.cost_mimg"}
SPEED_CHART = {"tps": "results.chart_tps", "tps_training": "results.chart_tps_training", "ips": "results.chart_ips"}
COST_CHART = {"cost": "results.chart_cost", "cost_epoch": "results.chart_cost_epoch",
              "cost_mimg": "results.chart_cost_mimg"}


class RecommendationTable(DataTable[Text | str]):
    """The fitting options in the tool's ranking; the recommended one in bold green."""

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
        for key in ("results.rank", "results.offer", "results.gpu", "results.precision", "results.mem",
                    SPEED_COLUMN[self.view.speed_unit], COST_COLUMN[self.view.cost_unit], "results.price"):
            self.add_column(t(key, lang), key=key)
        for rank, option in enumerate(self.view.options, 1):
            style = "bold green" if option.recommended else ""
            self.add_row(
                Text(str(rank), style=style),
                Text(cut(option.offer_id, OFFER_COLUMN), style=style),
                cut(f"{option.num_gpus}× {_short_gpu(option.gpu)}", GPU_COLUMN),
                option.precision,
                format_gb(option.per_gpu_total_bytes, lang),
                _maybe(option.tokens_per_s, lang),
                _maybe(option.eur_per_million_tokens, lang, 2),
                option.price,
                key=str(rank),
            )


class RejectionList(Static):
    """Why each other offer does not fit: the tool's sentence per offer."""

    view: reactive[RecommendationView] = reactive(RecommendationView, always_update=True, layout=True)
    lang: reactive[Lang] = reactive("fr", layout=True)

    def render(self) -> Text:
        text = Text()
        if not self.view.rejections:
            return text
        text.append(t("results.why_not", self.lang) + "\n", style="bold")
        for rejection in self.view.rejections:
            text.append(f"✗ {rejection.offer_id} {rejection.name}", style="red")
            text.append(f": {rejection.reason}\n")
        text.rstrip()
        return text


class BarChart(Static):
    """A horizontal text-bar chart of one figure for the best-ranked options."""

    view: reactive[RecommendationView] = reactive(RecommendationView, always_update=True, layout=True)
    lang: reactive[Lang] = reactive("fr", layout=True)

    def __init__(
        self,
        title_key: str,
        value: Callable[[OptionView], float | None],
        digits: int = 0,
        *,
        note: Callable[[OptionView, Lang], str] | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id, classes="chart")
        self.title_key = title_key
        self.value = value
        self.digits = digits
        self.note = note

    def render(self) -> Text:
        text = Text()
        # the speed and cost charts speak the job's unit (tokens, epochs, images): results.chart_<unit>
        key = self.title_key
        if key == "results.chart_tps":
            key = SPEED_CHART[self.view.speed_unit]
        elif key == "results.chart_cost":
            key = COST_CHART[self.view.cost_unit]
        text.append(t(key, self.lang) + "\n", style="bold")
        rows = [(o, self.value(o)) for o in self.view.options[:CHART_ROWS]]
        shown = [(o, v) for o, v in rows if v is not None]
        if not shown:
            text.append("—", style="dim")
            return text
        top = max(v for _, v in shown) or 1.0
        labels = [cut(f"{o.offer_id} ×{o.num_gpus}", 18) for o, _ in shown]
        label_width = max(len(label) for label in labels)
        width = min(30, max(8, (self.content_size.width or 70) - label_width - 22))
        for (option, value), label in zip(shown, labels, strict=True):
            text.append(f"{label:<{label_width}} ")
            text.append(bar(value / top, width), style="bold green" if option.recommended else "green")
            text.append(f" {format_number(value, self.lang, self.digits)}")
            if self.note is not None:
                text.append(f"  {self.note(option, self.lang)}", style="dim")
            text.append("\n")
        text.rstrip()
        return text


def memory_value(option: OptionView) -> float | None:
    return None if option.per_gpu_total_bytes is None else option.per_gpu_total_bytes / GIB


def headroom_note(option: OptionView, lang: Lang) -> str:
    return "" if option.headroom_pct is None else f"{format_number(option.headroom_pct, lang)} %"
