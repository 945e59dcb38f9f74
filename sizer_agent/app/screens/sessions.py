"""Pick a stored session to resume (Enter opens, escape cancels)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from sizer_agent.app.backend import SessionSummary
from sizer_agent.app.i18n import Lang, t


class SessionPicker(ModalScreen[str | None]):
    """Dismisses with the chosen session id, or None."""

    BINDINGS: ClassVar = [Binding("escape", "cancel", show=False)]

    def __init__(self, sessions: list[SessionSummary], lang: Lang) -> None:
        super().__init__(id="session-picker")
        self.sessions = sessions
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t("sessions.title", self.lang), classes="dialog-title")
            if not self.sessions:
                yield Label(t("sessions.empty", self.lang))
            # Newest first: the session one most likely wants to resume is on top.
            yield OptionList(
                *(
                    Option(Content(f"{s.id:>4}  {s.created[:16]:<16}  {s.title}"), id=s.id)
                    for s in reversed(self.sessions)
                ),
                id="session-list",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
