"""The answer box: free text, Enter to send, suggestions for the current question."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.suggester import Suggester
from textual.widgets import Input, Static

from sizer_agent.app.i18n import Lang, t


class QuestionSuggester(Suggester):
    """Completes what the user types from the current question's suggestions (→ accepts)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.suggestions: list[str] = []

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        for suggestion in self.suggestions:
            if suggestion.casefold().startswith(value) and len(suggestion) > len(value):
                return suggestion
        return None


class AnswerInput(Input):
    """An Input whose ↓/↑ keys cycle through the current suggestions."""

    BINDINGS: ClassVar = [
        Binding("down", "next_suggestion", show=False),
        Binding("up", "previous_suggestion", show=False),
    ]

    def __init__(self, *, cursor_blink: bool = True, id: str | None = None) -> None:
        self.question_suggester = QuestionSuggester()
        super().__init__(suggester=self.question_suggester, id=id)
        self.cursor_blink = cursor_blink
        self._choice = -1

    def set_suggestions(self, suggestions: list[str]) -> None:
        self.question_suggester.suggestions = list(suggestions)
        self._choice = -1

    def _cycle(self, step: int) -> None:
        choices = self.question_suggester.suggestions
        if not choices:
            return
        self._choice = (self._choice + step) % len(choices)
        self.value = choices[self._choice]
        self.cursor_position = len(self.value)

    def action_next_suggestion(self) -> None:
        self._cycle(1)

    def action_previous_suggestion(self) -> None:
        self._cycle(-1)


class AnswerBox(Vertical):
    """Input plus a one-line hint listing the suggestions. Posts `AnswerSubmitted` with the text."""

    DEFAULT_CSS: ClassVar[str] = """
    AnswerBox { height: auto; }
    AnswerBox .hint { height: 1; color: $text-muted; padding: 0 1; }
    """

    @dataclass
    class AnswerSubmitted(Message):
        """The user sent a non-empty answer."""

        text: str

    suggestions: reactive[list[str]] = reactive(list, always_update=True, init=False)
    lang: reactive[Lang] = reactive("fr", init=False)

    def __init__(self, lang: Lang, *, cursor_blink: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(AnswerBox.lang, lang)
        self._cursor_blink = cursor_blink

    def compose(self) -> ComposeResult:
        yield Static("", classes="hint")
        yield AnswerInput(cursor_blink=self._cursor_blink, id="answer")

    def on_mount(self) -> None:
        self._refresh_texts()

    @property
    def input(self) -> AnswerInput:
        return self.query_one(AnswerInput)

    def watch_suggestions(self, suggestions: list[str]) -> None:
        self.input.set_suggestions(suggestions)
        self._refresh_texts()

    def watch_lang(self, lang: Lang) -> None:
        self._refresh_texts()

    def _refresh_texts(self) -> None:
        answer = self.input
        answer.placeholder = t("chat.input_placeholder", self.lang)
        hint = self.query_one(".hint", Static)
        if self.suggestions:
            hint.update(Content(f"{t('chat.suggestions', self.lang)}: " + " · ".join(self.suggestions)))
        else:
            hint.update("")

    @on(Input.Submitted, "#answer")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            return
        self.input.clear()
        self.post_message(self.AnswerSubmitted(text))
