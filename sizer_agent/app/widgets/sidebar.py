"""The sidebar: the workload profile filling up, and memory per GPU against candidate GPU sizes."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
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
    """Known profile fields, one per line (`label  value`); empty fields are not shown."""

    profile: reactive[dict[str, Any]] = reactive(dict, always_update=True, layout=True)
    lang: reactive[Lang] = reactive("fr")

    def render(self) -> Text:
        text = Text()
        text.append(t("side.profile", self.lang) + "\n", style="bold")
        shown = {k: v for k, v in self.profile.items() if v not in (None, "", [], {})}
        if not shown:
            text.append(t("side.empty", self.lang), style="dim")
            return text
        width = max(8, min(12, max(len(k) for k in shown)))
        for key, value in shown.items():
            label = key.replace("_", " ")
            label = label if len(label) <= width else label[: width - 1] + "…"
            text.append(f"{label:<{width}} ", style="dim")
            text.append(_show_value(value, lang=self.lang) + "\n")
        text.rstrip()
        return text


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


class Sidebar(VerticalScroll):
    """Holds the profile and the gauge; the screen sets their attributes."""

    DEFAULT_CSS: ClassVar[str] = """
    Sidebar { width: 28; padding: 0 1; }
    Sidebar MemoryGauge { margin-top: 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, can_focus=False)

    def compose(self) -> ComposeResult:
        yield ProfilePanel()
        yield MemoryGauge()
