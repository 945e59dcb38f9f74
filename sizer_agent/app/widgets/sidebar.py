"""The sidebar: the workload profile filling up, and memory per GPU against candidate GPU sizes."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from sizer_agent.app.i18n import Lang, t
from sizer_agent.app.present import GB, GPU_TIERS_GB, bar, format_gb, format_number


def _show_value(value: Any, lang: Lang) -> str:
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, int):
        return format_number(value, lang)
    if isinstance(value, float):
        return format_number(value, lang, 2).rstrip("0").rstrip(",.")
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return "…"
    return str(value)


class ProfilePanel(Static):
    """Known profile fields, one per line (`label  value`); empty fields are not shown.

    `labels` maps a field to its human name in the session language (the engine sends it with each
    answer); a field without one shows its id.
    """

    LABEL_WIDTH: ClassVar[int] = 11

    profile: reactive[dict[str, Any]] = reactive(dict, always_update=True, layout=True)
    shown: reactive[dict[str, str]] = reactive(dict, always_update=True, layout=True)  # field -> value as read
    labels: reactive[dict[str, str]] = reactive(dict, always_update=True, layout=True)
    assumed: reactive[list[str]] = reactive(list, always_update=True)
    lang: reactive[Lang] = reactive("fr")

    def render(self) -> Text:
        text = Text()
        text.append(t("side.profile", self.lang), style="bold")
        shown = {k: v for k, v in self.profile.items() if v not in (None, "", [], {}) and k != "model_family"}
        if not shown:
            text.append("\n" + t("side.empty", self.lang), style="dim")
            return text
        width = max(12, self.content_size.width or 26)
        label_width = self.LABEL_WIDTH
        for key, value in shown.items():
            label = _cut(self.labels.get(key) or key.replace("_", " "), label_width)
            shown_value = self.shown.get(key) or _show_value(value, self.lang)
            style = "italic" if key in self.assumed else ""
            text.append(f"\n{label:<{label_width}} ", style="dim")
            if len(shown_value) > width - label_width - 1:
                # Too long beside its label: on its own line; a Hub id keeps its model name.
                if len(shown_value) > width - 1 and "/" in shown_value:
                    shown_value = shown_value.rsplit("/", 1)[1]
                text.append("\n " + _cut(shown_value, width - 1), style=style)
            else:
                text.append(shown_value, style=style)
        return text


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class MemoryGauge(Static):
    """Memory the most loaded GPU needs (from the latest estimate) drawn against GPU sizes.

    `need_bytes` is None until an estimate tool result arrives. Each candidate size is marked ✓ when the
    need is below it and ✗ otherwise; this is a picture, the recommendation decides.
    """

    need_bytes: reactive[float | None] = reactive(None, layout=True)
    lang: reactive[Lang] = reactive("fr")

    def render(self) -> Text:
        width = max(8, self.content_size.width or 18)
        text = Text()
        text.append(t("side.memory", self.lang) + "\n", style="bold")
        if self.need_bytes is None:
            text.append(t("side.no_estimate", self.lang), style="dim")
            return text
        scale = max(GPU_TIERS_GB[-1] * GB, self.need_bytes)
        label = format_gb(self.need_bytes, self.lang)
        bar_width = max(4, width - len(label) - 1)
        colour = "green" if self.need_bytes <= GPU_TIERS_GB[-1] * GB else "red"
        text.append(bar(self.need_bytes / scale, bar_width), style=colour)
        text.append(f" {label}\n")
        parts = []
        for tier in GPU_TIERS_GB:
            mark = "✓" if self.need_bytes <= tier * GB else "✗"
            parts.append((f"{tier}{mark}", "green" if mark == "✓" else "red"))
        for index, (part, style) in enumerate(parts):
            if index:
                text.append("│", style="dim")
            text.append(part, style=style)
        text.append(" GB")
        return text


class Sidebar(Vertical):
    """The profile (scrolls when long) above the gauge (always visible); the screen sets their attributes."""

    DEFAULT_CSS: ClassVar[str] = """
    Sidebar { width: 28; padding: 0 1; }
    Sidebar > VerticalScroll { height: 1fr; scrollbar-size-vertical: 1; }
    Sidebar MemoryGauge { height: auto; border-top: hkey $primary 50%; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll(can_focus=False):
            yield ProfilePanel()
        yield MemoryGauge()
