"""Keys and tips (F1)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from sizer_agent.app.i18n import Lang, t


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar = [Binding("escape,f1,q", "app.pop_screen", show=False)]

    def __init__(self, lang: Lang) -> None:
        super().__init__(id="help-screen")
        self.lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="help-body"):
            yield Markdown(f"# {t('help.title', self.lang)}\n\n{t('help.body', self.lang)}")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()
