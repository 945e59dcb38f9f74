"""The bottom line listing the main keys, in the interface language."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from sizer_agent.app.i18n import Lang, t


class KeyBar(Static):
    """`^n new  ^r resume …`; `keys` is a list of (key shown, catalogue key of its label)."""

    DEFAULT_CSS: ClassVar[str] = """
    KeyBar { height: 1; dock: bottom; background: $panel; color: $text-muted; padding: 0 1; }
    """

    lang: reactive[Lang] = reactive("fr")

    def __init__(self, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.keys = keys

    def render(self) -> Text:
        full = Text(no_wrap=True, overflow="ellipsis")
        for index, (key, label) in enumerate(self.keys):
            if index:
                full.append("  ")
            full.append(key, style="bold")
            full.append(" " + t(label, self.lang))
        if full.cell_len <= (self.content_size.width or 80):
            return full
        # Narrow terminal: the keys alone, and the one that explains them all (help) with its label.
        compact = Text(no_wrap=True, overflow="ellipsis")
        for key, label in self.keys:
            if label == "key.help":
                continue
            compact.append(key, style="bold")
            compact.append(" ")
        help_key = next((k for k, label in self.keys if label == "key.help"), None)
        if help_key:
            compact.append(f" {help_key}", style="bold")
            compact.append(" " + t("key.help", self.lang))
        return compact
