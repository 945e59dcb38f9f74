"""The production backend: the agent's engine (deterministic, or LLM when configured) and the SQLite store.

The only module of the app that imports the engine and the store. Every event an engine emits is committed
by the store's recorder the moment it exists, so an answer is saved before any tool runs.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar

from sizer_agent.agent.events import AnswerRecorded, Event
from sizer_agent.app.backend import Backend, BackendError, OpenedSession, ProposalUnavailable, SessionSummary
from sizer_agent.app.i18n import Lang

if TYPE_CHECKING:
    from sizer_agent.store import SessionStore

# The engine and the store are imported on first use, which happens on the app's engine thread while
# Textual builds the screen: their import time overlaps the UI's start instead of preceding it.

P = ParamSpec("P")
R = TypeVar("R")

PROPOSAL_MODULE = "sizer_agent.proposal"
PROPOSAL_FORMATS: tuple[Literal["md", "html"], ...] = ("md", "html")


def _user_errors(function: Callable[P, R]) -> Callable[P, R]:
    """Store errors (corrupt file, unknown session) reach the user as `BackendError`, not as a bug."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        from sizer_agent.store import StoreError

        try:
            return function(*args, **kwargs)
        except StoreError as error:
            raise BackendError(str(error)) from error

    return wrapper


def _write_atomic(path: Path, text: str) -> None:
    """Write beside the target and rename: an interrupted write never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _Recorder:
    """The engine's `on_event`: commits each event at once, unless paused (while a resume is replayed).

    A new session is not in the store until its first answer (an app opened and quit at once leaves no
    empty session behind): until `attach`, the events are kept in `pending` and stored, in one transaction
    with the session, by `StoreBackend.answer`."""

    def __init__(self, store: SessionStore, session_id: int | None, *, enabled: bool) -> None:
        self._store = store
        self._record = store.recorder(session_id) if session_id is not None else None
        self.pending: list[Any] = []
        self.enabled = enabled
        self.forward: Callable[[Any], None] | None = None  # the front end, during one answer

    def attach(self, session_id: int) -> None:
        self._record = self._store.recorder(session_id)
        self.pending = []

    def __call__(self, event: Any) -> None:
        if self.enabled:
            if self._record is None:
                self.pending.append(event)
            else:
                self._record(event)  # stored first: the screen never shows what is not saved
        if self.forward is not None:
            self.forward(event)


class StoreBackend:
    """`Backend` over `SessionStore` and `make_engine`. Use it from one thread (the app's engine thread)."""

    @_user_errors
    def __init__(
        self,
        db_path: Path | str | None = None,
        *,
        llm_url: str | None = None,
        llm_model: str | None = None,
    ) -> None:
        from sizer_agent.store import SessionStore

        self.store = SessionStore(db_path)
        self._recorders: dict[str, _Recorder] = {}  # by session id: each open engine's on_event
        self._new: tuple[OpenedSession, _Recorder, Lang] | None = None  # the session not stored yet
        self._llm_url = llm_url
        self._llm_model = llm_model

    def _engine(self, lang: Lang, state: Any, recorder: _Recorder) -> Any:
        # The engine builds the tool registry itself: the app never touches the tools directly.
        if self._llm_url:  # httpx and the LLM client only load when asked for (start-up time)
            from sizer_agent.agent.llm import make_engine

            return make_engine(self._llm_url, self._llm_model, lang=lang, state=state, on_event=recorder)
        from sizer_agent.agent.engine import DeterministicEngine

        return DeterministicEngine(lang=lang, state=state, on_event=recorder)

    def _title(self, session_id: int) -> str:
        summary = self.store.get_session(session_id)
        return summary.title or summary.customer or "—"

    @_user_errors
    def create_session(self, lang: Lang) -> tuple[OpenedSession, list[Event]]:
        # Stored with its first answer (see `answer`): until then the session has no id ("").
        recorder = _Recorder(self.store, None, enabled=True)
        engine = self._engine(lang, None, recorder)
        opening = engine.start()  # greeting and first question, kept by the recorder until the first answer
        session = OpenedSession("", "—", engine)
        self._new = (session, recorder, lang)  # a previous unanswered one is simply dropped
        return session, opening

    def _store_new(self, session: OpenedSession) -> None:
        """The first answer of a new session: the session and its opening events, in one transaction."""
        assert self._new is not None and self._new[0] is session, "answer to a session this backend never opened"
        _, recorder, lang = self._new
        session_id = self.store.create_session(lang=lang, events=recorder.pending)
        recorder.attach(session_id)
        session.id = str(session_id)
        self._recorders[session.id] = recorder
        self._new = None

    @_user_errors
    def open_session(self, session_id: str, lang: Lang) -> OpenedSession:
        sid = int(session_id)
        history = self.store.events(sid)
        state = self.store.load_state(sid)
        state.lang = lang  # the interface language wins; the history stays as it was said
        # The "session resumed" summary and the re-asked question are shown but not stored again:
        # resuming twice must not grow the history.
        recorder = self._recorders[str(sid)] = _Recorder(self.store, sid, enabled=False)
        engine = self._engine(lang, state, recorder)
        resumed = engine.start()
        recorder.enabled = True
        self.store.update_session(sid, lang=lang)
        # a sizing the last process did not finish runs now, stored like any other (it is new)
        resumed += engine.resume_sizing()
        return OpenedSession(str(sid), self._title(sid), engine, history + resumed)

    @_user_errors
    def answer(
        self, session: OpenedSession, text: str, emit: Callable[[Event], None] | None = None
    ) -> list[Event]:
        if not session.id:
            self._store_new(session)
        recorder = self._recorders.get(session.id)
        if recorder is not None:
            recorder.forward = emit
        try:
            events = session.engine.handle(text)
        finally:
            if recorder is not None:
                recorder.forward = None
        if any(isinstance(e, AnswerRecorded) and e.field == "customer" for e in events):
            session.title = self._title(int(session.id))  # the store titles a session by its customer
        return events

    @_user_errors
    def set_lang(self, session: OpenedSession, lang: Lang) -> None:
        setter = getattr(session.engine, "set_lang", None)
        if setter is not None:
            setter(lang)
        if not session.id:  # not stored yet: it will be, in this language
            if self._new is not None and self._new[0] is session:
                self._new = (session, self._new[1], lang)
            return
        self.store.update_session(int(session.id), lang=lang)

    @_user_errors
    def list_sessions(self) -> list[SessionSummary]:
        return [
            SessionSummary(str(s.id), s.created, s.title or s.customer or "—")
            for s in self.store.list_sessions()
        ]

    @_user_errors
    def export_session(self, session_id: str, directory: Path) -> Path:
        data = self.store.export_session(int(session_id))
        path = Path(directory) / f"sizer-session-{session_id}.json"
        _write_atomic(path, json.dumps(data, ensure_ascii=False, indent=2))
        return path

    @_user_errors
    def write_proposal(self, session_id: str, lang: Lang, directory: Path) -> list[Path]:
        # Absent module = not part of this build; any other import error is a real bug and propagates.
        if importlib.util.find_spec(PROPOSAL_MODULE) is None:
            raise ProposalUnavailable(PROPOSAL_MODULE)
        from sizer_agent.proposal import render_proposal  # type: ignore[import-not-found,unused-ignore]

        sid = int(session_id)
        data = self.store.export_session(sid)
        paths = []
        for fmt in PROPOSAL_FORMATS:
            path = Path(directory) / f"proposal-{sid}-{lang}.{fmt}"
            _write_atomic(path, render_proposal(data, fmt, lang))
            self.store.add_proposal(sid, fmt, lang, str(path))
            paths.append(path)
        return paths

    def close(self) -> None:
        self.store.close()


def production_backend_factory(
    db_path: Path | str | None = None, *, llm_url: str | None = None, llm_model: str | None = None
) -> Callable[[], Backend]:
    """A factory the app calls once, on its engine thread (the store's connection lives there)."""
    return lambda: StoreBackend(db_path, llm_url=llm_url, llm_model=llm_model)
