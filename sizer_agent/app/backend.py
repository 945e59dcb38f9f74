"""What the app needs from the headless half: sessions (store) and a conversation engine per session.

The app only ever talks to a `Backend`. The production one (`sizer_agent.app.production`) wires the
deterministic engine and the SQLite session store; tests may pass a scripted one. Every call may block
(SQLite, tools), so the app makes them from its single engine thread, never from the UI loop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from sizer_agent.agent.events import ConversationEngine, Event
from sizer_agent.app.i18n import Lang


@dataclass(frozen=True)
class SessionSummary:
    """One line of the session picker."""

    id: str
    created: str
    title: str


@dataclass
class OpenedSession:
    """A session the app is showing: its engine and the events already stored, to replay.

    A new session may have no `id` ("") until its first answer: the backend stores it then and sets `id`."""

    id: str
    title: str
    engine: ConversationEngine
    history: list[Event] = field(default_factory=list)


class Backend(Protocol):
    def create_session(self, lang: Lang) -> tuple[OpenedSession, list[Event]]:
        """A new session and the engine's opening events. The production backend stores both with the first
        answer, so that an app opened and quit at once leaves no empty session; until then `id` is ""."""
        ...

    def open_session(self, session_id: str, lang: Lang) -> OpenedSession:
        """A stored session; `history` holds its stored events followed by what the engine says on
        resuming (shown, not stored again). Its engine continues where it stopped."""
        ...

    def answer(
        self, session: OpenedSession, text: str, emit: Callable[[Event], None] | None = None
    ) -> list[Event]:
        """Hand one user message to the engine and return its events, all stored.

        When the backend can, it also passes each event to `emit` the moment it is stored (called on the
        engine thread), so that a tool card shows "running" and then its result while later tools work.
        """
        ...

    def set_lang(self, session: OpenedSession, lang: Lang) -> None:
        """The engine speaks `lang` from its next message on."""
        ...

    def list_sessions(self) -> list[SessionSummary]:
        """Stored sessions, oldest first."""
        ...

    def export_session(self, session_id: str, directory: Path) -> Path:
        """Write the session as JSON into `directory`; returns the file written."""
        ...

    def write_proposal(self, session_id: str, lang: Lang, directory: Path) -> list[Path]:
        """Render the proposal for the session; raises `ProposalUnavailable` when the renderer is absent."""
        ...

    def close(self) -> None: ...


class BackendError(RuntimeError):
    """A problem the user can act on (unreadable database, unknown session); the message says what to do."""


class ProposalUnavailable(RuntimeError):
    """The proposal renderer (`sizer_agent.proposal`) is not part of this build."""
