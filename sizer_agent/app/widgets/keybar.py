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
        text = Text(no_wrap=True, overflow="ellipsis")
        for index, (key, label) in enumerate(self.keys):
            if index:
                text.append("  ")
            text.append(key, style="bold")
            text.append(" " + t(label, self.lang))
        return text
