"""The main screen: conversation on the left, profile and memory gauge on the right, answer box below."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Header

from sizer_agent.agent.events import AnswerRecorded, Event, ProfileUpdated, QuestionAsked, ToolReturned
from sizer_agent.app.i18n import Lang
from sizer_agent.app.present import is_estimate_result, is_recommendation_result, memory_need_bytes
from sizer_agent.app.widgets.chat import ChatLog
from sizer_agent.app.widgets.keybar import KeyBar
from sizer_agent.app.widgets.prompt import AnswerBox
from sizer_agent.app.widgets.sidebar import MemoryGauge, ProfilePanel, Sidebar

MAIN_KEYS = [
    ("^n", "key.new"),
    ("^r", "key.resume"),
    ("^s", "key.save"),
    ("^p", "key.proposal"),
    ("F1", "key.help"),
    ("^q", "key.quit"),
]


class ChatScreen(Screen[None]):
    """Renders what the app hands it (`show`, `reset`); the answer box posts `AnswerSubmitted` upward."""

    # Below 70 columns the sidebar would squeeze the conversation: it is hidden (CSS class -narrow).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (70, "-wide")]  # noqa: RUF012 (Textual types it so)

    class Composed(Message):
        """The screen's widgets exist: the app may open a session into it."""

    lang: reactive[Lang] = reactive("fr", init=False)

    def __init__(self, lang: Lang, *, cursor_blink: bool = True) -> None:
        super().__init__(id="chat-screen")
        self.set_reactive(ChatScreen.lang, lang)
        self._cursor_blink = cursor_blink

    def compose(self) -> ComposeResult:
        yield Header(icon="≡")
        with Horizontal(id="main"):
            yield ChatLog(self.lang, id="chat-log")
            yield Sidebar(id="sidebar")
        yield AnswerBox(self.lang, cursor_blink=self._cursor_blink, id="answer-box")
        yield KeyBar(MAIN_KEYS)

    def on_mount(self) -> None:
        self.watch_lang(self.lang)
        self.query_one("#answer").focus()
        self.post_message(self.Composed())

    @property
    def chat(self) -> ChatLog:
        return self.query_one(ChatLog)

    def reset(self) -> None:
        """Empty view for another session."""
        self.chat.clear()
        self.query_one(ProfilePanel).profile = {}
        self.query_one(ProfilePanel).labels = {}
        self.query_one(MemoryGauge).need_bytes = None
        self.query_one(AnswerBox).suggestions = []

    def show(self, events: list[Event], *, replay: bool = False) -> None:
        """Mount one widget per event in the log and update the sidebar and suggestions."""
        self.chat.show(events, replay=replay)
        profile: dict[str, Any] | None = None
        assumed: list[str] | None = None
        readable: dict[str, str] = {}
        need: float | None = None
        suggestions: list[str] | None = None
        labels = {e.field: e.label for e in events if isinstance(e, AnswerRecorded) and e.label}
        for event in events:
            if isinstance(event, ProfileUpdated):
                profile, assumed, readable = event.profile, event.assumed, event.shown
            elif isinstance(event, ToolReturned) and event.ok and is_estimate_result(event.result):
                need = memory_need_bytes(event.result)
            elif isinstance(event, QuestionAsked):
                suggestions = event.suggestions
            elif isinstance(event, ToolReturned) and event.ok and is_recommendation_result(event.result):
                suggestions = []  # the interview is over: nothing left to suggest
        panel = self.query_one(ProfilePanel)
        if labels:
            panel.labels = {**panel.labels, **labels}
        if profile is not None:
            panel.shown = readable
            panel.profile = profile
            panel.assumed = assumed or []
        if need is not None:
            self.query_one(MemoryGauge).need_bytes = need
        if suggestions is not None:
            self.query_one(AnswerBox).suggestions = suggestions

    def watch_lang(self, lang: Lang) -> None:
        for widget in self.query("ChatLog, ProfilePanel, MemoryGauge, AnswerBox, KeyBar"):
            widget.lang = lang  # type: ignore[attr-defined]
