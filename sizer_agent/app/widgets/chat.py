"""The conversation: one widget per engine event, in a scrolling log that follows the newest line."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Collapsible, Label, Markdown, Static

from sizer_agent.agent.events import (
    AgentMessage,
    AnswerRecorded,
    Event,
    QuestionAsked,
    ToolCalled,
    ToolReturned,
)
from sizer_agent.app.i18n import Lang, t
from sizer_agent.app.present import compact_json, pretty_json, tool_summary

ARGS_PREVIEW_WIDTH = 34


class Speaker(Label):
    """The "Agent" / "You" column; follows the interface language."""

    lang: reactive[Lang] = reactive("fr")

    def __init__(self, key: str, lang: Lang) -> None:
        super().__init__(t(key, lang), classes="speaker")
        self.key = key
        self.set_reactive(Speaker.lang, lang)

    def watch_lang(self, lang: Lang) -> None:
        self.update(t(self.key, lang))


class AgentLine(Horizontal):
    """A question or an explanation from the agent (Markdown)."""

    def __init__(self, text: str, lang: Lang, *, question: bool = False) -> None:
        super().__init__(classes="chat-line agent" + (" question" if question else ""))
        self.text = text
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Speaker("chat.agent", self.lang)
        yield Markdown(self.text, classes="body")


class UserLine(Horizontal):
    """What the user typed, shown verbatim (never interpreted as markup)."""

    def __init__(self, text: str, lang: Lang) -> None:
        super().__init__(classes="chat-line user")
        self.text = text
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Speaker("chat.you", self.lang)
        yield Static(Content(self.text), classes="body")


class AnswerNote(Static):
    """What the engine recorded from an answer: `✓ field: value`, marked when a default was assumed."""

    lang: reactive[Lang] = reactive("fr")

    def __init__(self, event: AnswerRecorded, lang: Lang) -> None:
        super().__init__(classes="answer-note")
        self.event = event
        self.set_reactive(AnswerNote.lang, lang)

    def render(self) -> Content:
        value = self.event.value
        if isinstance(value, dict | list):
            value = pretty_json(value)
        text = f"✓ {self.event.label or self.event.field}: {value}"
        if self.event.assumed:
            text += f"  ({t('chat.assumed', self.lang)})"
        return Content(text)


class ErrorNote(Static):
    """A failure the user must know about (a worker error); the session itself is intact."""

    def __init__(self, message: str) -> None:
        super().__init__(Content(message), classes="error-note")


class ToolCard(Vertical):
    """A tool call: one line with status and duration, a summary, and full inputs/outputs when opened.

    Built from `ToolCalled`; the matching `ToolReturned` is set as `outcome` and renders inside it.
    """

    outcome: reactive[ToolReturned | None] = reactive(None, init=False)
    lang: reactive[Lang] = reactive("fr", init=False)

    def __init__(self, call: ToolCalled, lang: Lang) -> None:
        super().__init__(classes="tool-card")
        self.call = call
        self.set_reactive(ToolCard.lang, lang)
        self._ready = False  # children exist (is_mounted only becomes true after on_mount)

    def compose(self) -> ComposeResult:
        with Collapsible(title=self._title(), collapsed=True):
            yield Label(t("tool.arguments", self.lang), classes="tool-section")
            yield Static(Content(pretty_json(self.call.arguments)), classes="tool-json arguments")
        yield Static(Content(compact_json(self.call.arguments, 60)), classes="tool-summary")

    def _title(self) -> str:
        head = f"{t('tool.label', self.lang)} {self.call.tool}"
        if self.outcome is None:
            return f"{head}  … {t('tool.running', self.lang)}"
        mark = "✓" if self.outcome.ok else "✗"
        return f"{head}  {mark} {self.outcome.duration_ms:.0f} ms"

    def on_mount(self) -> None:
        self._ready = True
        if self.outcome is not None:  # call and result arrived in the same batch
            self.watch_outcome(self.outcome)

    def watch_outcome(self, outcome: ToolReturned | None) -> None:
        if outcome is None or not self._ready:
            return
        collapsible = self.query_one(Collapsible)
        collapsible.title = self._title()
        contents = collapsible.query_one(Collapsible.Contents)
        if outcome.ok:
            contents.mount(Label(t("tool.result", self.lang), classes="tool-section"))
            contents.mount(Static(Content(pretty_json(outcome.result)), classes="tool-json result"))
            summary = tool_summary(outcome.tool, outcome.result, self.lang)
        else:
            contents.mount(Label(t("tool.error", self.lang), classes="tool-section"))
            contents.mount(Static(Content(outcome.error or "?"), classes="tool-json error"))
            summary = outcome.error or ""
        self.query_one(".tool-summary", Static).update(Content(summary))
        self.set_class(not outcome.ok, "-failed")

    def watch_lang(self, lang: Lang) -> None:
        if self._ready:
            self.query_one(Collapsible).title = self._title()


class ChatLog(VerticalScroll):
    """Scrolling conversation. `show(events)` mounts one widget per event and keeps the end in view."""

    DEFAULT_CSS: ClassVar[str] = """
    ChatLog { height: 1fr; }
    """

    lang: reactive[Lang] = reactive("fr", init=False)

    def __init__(self, lang: Lang, *, id: str | None = None) -> None:
        super().__init__(id=id, can_focus=False)
        self.set_reactive(ChatLog.lang, lang)
        self._cards: dict[str, ToolCard] = {}
        self._last_user_text: str | None = None

    def clear(self) -> None:
        self._cards.clear()
        self._last_user_text = None
        self.remove_children()

    def say_user(self, text: str) -> None:
        """The user's message, shown as soon as it is sent (before the engine answers)."""
        self._last_user_text = text
        self.mount(UserLine(text, self.lang))
        self._follow()

    def say_error(self, message: str) -> None:
        self.mount(ErrorNote(message))
        self._follow()

    def show(self, events: list[Event], *, replay: bool = False) -> None:
        """Render engine events. On replay, the user's words are rebuilt from the answers' raw text."""
        widgets: list[Widget] = []
        for event in events:
            if isinstance(event, QuestionAsked):
                widgets.append(AgentLine(event.text, self.lang, question=True))
            elif isinstance(event, AgentMessage):
                widgets.append(AgentLine(event.text, self.lang))
            elif isinstance(event, AnswerRecorded):
                if replay and event.raw_text and event.raw_text != self._last_user_text:
                    self._last_user_text = event.raw_text
                    widgets.append(UserLine(event.raw_text, self.lang))
                widgets.append(AnswerNote(event, self.lang))
            elif isinstance(event, ToolCalled):
                card = ToolCard(event, self.lang)
                self._cards[event.call_id] = card
                widgets.append(card)
            elif isinstance(event, ToolReturned):
                pending = self._cards.get(event.call_id)
                if pending is None:  # a result without its call (should not happen): show it alone
                    orphan = ToolCalled(call_id=event.call_id, tool=event.tool, arguments={})
                    pending = ToolCard(orphan, self.lang)
                    self._cards[event.call_id] = pending
                    widgets.append(pending)
                if pending in widgets:  # not mounted yet: it renders the outcome on mount
                    pending.set_reactive(ToolCard.outcome, event)
                else:
                    pending.outcome = event
            # ProfileUpdated is rendered by the sidebar, not the log.
        if widgets:
            self.mount_all(widgets)
            self._follow()

    def _follow(self) -> None:
        """Keep the newest line in view (Widget.anchor() scrolls to negative offsets on short logs)."""
        self.call_after_refresh(self.scroll_end, animate=False)

    def watch_lang(self, lang: Lang) -> None:
        for widget in self.query("Speaker, AnswerNote, ToolCard"):
            widget.lang = lang  # type: ignore[attr-defined]
