"""The conversation: one widget per engine event, in a scrolling log that follows the newest line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.json import JSON as RichJSON
from rich.markdown import Markdown as RichMarkdown
from rich.padding import Padding
from rich.table import Table
from rich.text import Text as RichText
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from sizer_agent.agent.events import (
    AgentMessage,
    AnswerRecorded,
    Event,
    QuestionAsked,
    ToolCalled,
    ToolReturned,
    UserSaid,
)
from sizer_agent.app.i18n import Lang, t
from sizer_agent.app.present import compact_json, pretty_json, tool_summary


class ChatLine(Static):
    """One turn: the speaker's name in a narrow column, the text beside it.

    One widget per line (a grid rendered by Rich), not a container of widgets: a long conversation stays
    cheap to lay out.
    """

    SPEAKER_KEY: ClassVar[str] = "chat.agent"

    lang: reactive[Lang] = reactive("fr")

    def __init__(self, text: str, lang: Lang, *, classes: str) -> None:
        super().__init__(classes=f"chat-line {classes}")
        self.text = text
        self.set_reactive(ChatLine.lang, lang)

    def body(self) -> RenderableType:
        return RichText(self.text)

    def render(self) -> RenderableType:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=5, no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_row(RichText(t(self.SPEAKER_KEY, self.lang), style="bold"), self.body())
        return grid


class AgentLine(ChatLine):
    """A question or an explanation from the agent, rendered as Markdown."""

    def __init__(self, text: str, lang: Lang, *, question: bool = False, tone: str = "info") -> None:
        # The tone (info, confirm, hint, result, error) only colours the line: see app.tcss. A question's
        # `hint` is not drawn: the engine's message before it already gives the example.
        super().__init__(text, lang, classes=f"agent tone-{tone}" + (" question" if question else ""))

    def body(self) -> RenderableType:
        return RichMarkdown(self.text)


class UserLine(ChatLine):
    """What the user typed, shown verbatim (never interpreted as markup)."""

    SPEAKER_KEY = "chat.you"

    def __init__(self, text: str, lang: Lang) -> None:
        super().__init__(text, lang, classes="user")


class AnswerNote(Static):
    """What the engine recorded from an answer: `✓ field: value`, marked when a default was assumed."""

    lang: reactive[Lang] = reactive("fr")

    def __init__(self, event: AnswerRecorded, lang: Lang) -> None:
        super().__init__(classes="answer-note")
        self.event = event
        self.set_reactive(AnswerNote.lang, lang)

    def render(self) -> Content:
        value = self.event.shown or self.event.value
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


class ToolCard(Widget, can_focus=True):
    """A tool call: a title line with status and duration, a summary, and full inputs/outputs when opened.

    Built from `ToolCalled`; the matching `ToolReturned` is set as `outcome`. One widget drawn by Rich
    (no nested containers), so a card appears in the same frame as the text around it. Enter, space or a
    click opens and closes it; it posts `Toggled`.
    """

    BINDINGS: ClassVar = [Binding("enter,space", "toggle_card", show=False)]
    DEFAULT_CSS: ClassVar[str] = """
    ToolCard { height: auto; }
    """

    @dataclass
    class Toggled(Message):
        """The card was opened or closed."""

        card: ToolCard
        expanded: bool

    outcome: reactive[ToolReturned | None] = reactive(None, layout=True)
    interrupted: reactive[bool] = reactive(False, layout=True)  # replayed: the process died during the call
    expanded: reactive[bool] = reactive(False, layout=True)
    lang: reactive[Lang] = reactive("fr", layout=True)

    def __init__(self, call: ToolCalled, lang: Lang) -> None:
        super().__init__(classes="tool-card")
        self.call = call
        self.set_reactive(ToolCard.lang, lang)

    def title(self) -> str:
        head = f"{'▼' if self.expanded else '▶'} {t('tool.label', self.lang)} {self.call.tool}"
        if self.outcome is None:
            state = t("tool.interrupted", self.lang) if self.interrupted else t("tool.running", self.lang)
            return f"{head}  {'✗' if self.interrupted else '…'} {state}"
        mark = "✓" if self.outcome.ok else "✗"
        return f"{head}  {mark} {self.outcome.duration_ms:.0f} ms"

    def summary(self) -> str:
        outcome = self.outcome
        if outcome is None:
            return compact_json(self.call.arguments, 60)
        if not outcome.ok:
            return outcome.error or "?"
        return tool_summary(outcome.tool, outcome.result, self.lang)

    def render(self) -> RenderableType:
        failed = self.outcome is not None and not self.outcome.ok
        parts: list[RenderableType] = [
            RichText(self.title(), style="bold red" if failed else "bold"),
            Padding(RichText(self.summary(), style="red" if failed else "dim"), (0, 0, 0, 2)),
        ]
        if self.expanded:
            parts += [RichText(t("tool.arguments", self.lang), style="bold underline"),
                      Padding(RichJSON(pretty_json(self.call.arguments)), (0, 0, 0, 2))]
            if self.outcome is not None and self.outcome.ok:
                parts += [RichText(t("tool.result", self.lang), style="bold underline"),
                          Padding(RichJSON(pretty_json(self.outcome.result)), (0, 0, 0, 2))]
            elif self.outcome is not None:
                parts += [RichText(t("tool.error", self.lang), style="bold underline"),
                          Padding(RichText(self.outcome.error or "?"), (0, 0, 0, 2))]
        return Group(*parts)

    def watch_outcome(self, outcome: ToolReturned | None) -> None:
        self.set_class(outcome is not None and not outcome.ok, "-failed")

    def action_toggle_card(self) -> None:
        self.expanded = not self.expanded
        if self.expanded:  # show the opened card from its first line
            self.call_after_refresh(self.scroll_visible, top=True, animate=False)
        self.post_message(self.Toggled(self, self.expanded))

    def on_click(self) -> None:
        self.action_toggle_card()


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
            if isinstance(event, UserSaid):  # live, the line is already on screen (say_user)
                if replay or event.text != self._last_user_text:
                    self._last_user_text = event.text
                    widgets.append(UserLine(event.text, self.lang))
            elif isinstance(event, QuestionAsked):
                widgets.append(AgentLine(event.text, self.lang, question=True))
            elif isinstance(event, AgentMessage):
                widgets.append(AgentLine(event.text, self.lang, tone=event.tone))
            elif isinstance(event, AnswerRecorded):
                if replay and event.raw_text and event.raw_text != self._last_user_text:
                    self._last_user_text = event.raw_text
                    widgets.append(UserLine(event.raw_text, self.lang))
                if event.field != "model_family":  # derived from the model, never said: not an answer to confirm
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
                if pending in widgets:  # not mounted yet: set without running watchers
                    pending.set_reactive(ToolCard.outcome, event)
                    pending.set_class(not event.ok, "-failed")
                else:
                    pending.outcome = event
            # ProfileUpdated is rendered by the sidebar, not the log.
        if replay:  # a call stored without its result: the last process died during it (resume ran it again)
            for widget in widgets:
                if isinstance(widget, ToolCard) and widget.outcome is None:
                    widget.set_reactive(ToolCard.interrupted, True)
        if widgets:
            self.mount_all(widgets)
            self._follow()

    def _follow(self) -> None:
        """Keep the newest line in view (Widget.anchor() scrolls to negative offsets on short logs)."""
        self.call_after_refresh(self.scroll_end, animate=False)

    def watch_lang(self, lang: Lang) -> None:
        for widget in self.query("ChatLine, AnswerNote, ToolCard"):
            widget.lang = lang  # type: ignore[attr-defined]
