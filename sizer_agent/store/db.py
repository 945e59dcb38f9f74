"""SQLite session store: one file, WAL journal, one transaction per write.

Every answer, event and tool call is committed when it happens, so a crash or Ctrl-C loses nothing
already given. The file is never rewritten, repaired or deleted by this module: a damaged or foreign
file raises `CorruptDatabaseError` naming the path and what to do, and stays exactly as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from sizer_agent.agent.events import AnswerRecorded, Event, ToolCalled, ToolReturned
from sizer_agent.agent.sizing_status import sizing_status
from sizer_agent.agent.state import Answer, AnswerVersion, InterviewState, now_iso

SCHEMA_VERSION = 1
APPLICATION_ID = 0x535A4147  # "SZAG" in PRAGMA application_id: tells our files from other SQLite files
ENV_DB = "SIZER_AGENT_DB"
_EVENT: TypeAdapter[Any] = TypeAdapter(Event)
_WAL_MAGIC = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")  # sqlite.org/fileformat.html#wal_file_format

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL DEFAULT '',
    customer TEXT NOT NULL DEFAULT '',
    lang TEXT NOT NULL DEFAULT 'fr',
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE answers (          -- one row per value given, the latest row per field is the answer
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    field TEXT NOT NULL,
    value TEXT NOT NULL,        -- JSON
    assumed INTEGER NOT NULL,
    raw_text TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX answers_session ON answers(session_id, field, id);
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,         -- JSON of the event
    created TEXT NOT NULL
);
CREATE INDEX events_session ON events(session_id, id);
CREATE TABLE tool_calls (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    call_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    arguments TEXT NOT NULL,    -- JSON
    ok INTEGER,                 -- NULL while running (or interrupted)
    result TEXT,                -- JSON
    error TEXT,
    duration_ms REAL,
    created TEXT NOT NULL
);
CREATE INDEX tool_calls_session ON tool_calls(session_id, call_id);
CREATE TABLE benchmarks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    body TEXT NOT NULL,         -- JSON of a `bench serve` result
    created TEXT NOT NULL
);
CREATE TABLE proposals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    format TEXT NOT NULL,
    lang TEXT NOT NULL,
    path TEXT NOT NULL,
    created TEXT NOT NULL
);
"""


class StoreError(Exception):
    """A session store problem, with a message meant for the user."""


class CorruptDatabaseError(StoreError):
    pass


class SchemaVersionError(StoreError):
    pass


class SessionNotFoundError(StoreError, KeyError):
    """No session with that id (a KeyError too, for callers that look sessions up like a mapping)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class SessionSummary(BaseModel):
    id: int
    title: str
    customer: str
    lang: str
    created: str
    updated: str
    answers: int  # fields answered
    tool_calls: int


def default_db_path() -> Path:
    """$SIZER_AGENT_DB, else `sessions.db` in the user's data directory (platformdirs)."""
    override = os.environ.get(ENV_DB)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("sizer-agent", appauthor=False)) / "sessions.db"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


class SessionStore:
    """Sessions, answers with history, events, tool calls, benchmarks and proposals in one SQLite file."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path).expanduser() if path is not None else default_db_path()
        self._conn = self._open()

    # -- opening ---------------------------------------------------------------------------------------
    def _corrupt(self, reason: str) -> CorruptDatabaseError:
        return CorruptDatabaseError(
            f"session database {self.path} is unreadable ({reason}); it was left untouched. "
            f"Recover what is readable with `sizer-agent sessions salvage {self.path} --db NEW.db`, or move it "
            f"aside / point {ENV_DB} or --db to another file; other databases are not affected."
        )

    def _open(self) -> sqlite3.Connection:
        existed = self.path.exists() and self.path.stat().st_size > 0
        if not existed:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        elif self.path.is_dir():
            raise self._corrupt("it is a directory")
        else:
            self._check_wal()
        try:
            conn = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise self._corrupt(str(error)) from error
        try:
            if existed:
                self._check_existing(conn)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across app crashes
            if not existed:
                conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
                with self._tx(conn):
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        except sqlite3.DatabaseError as error:
            conn.close()
            raise self._corrupt(str(error)) from error
        except StoreError:
            conn.close()
            raise
        return conn

    def _check_wal(self) -> None:
        """A write-ahead log beside the file that is not one: SQLite would discard it on opening (and with
        it whatever it held), so the database is refused and both files are left as they are."""
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            with wal.open("rb") as handle:
                header = handle.read(32)
        except FileNotFoundError:
            return
        except OSError as error:
            raise self._corrupt(f"its write-ahead log {wal.name} cannot be read: {error.strerror}") from None
        if header and (len(header) < 32 or header[:4] not in _WAL_MAGIC):
            raise self._corrupt(f"{wal.name} beside it is not an SQLite write-ahead log")

    def _check_existing(self, conn: sqlite3.Connection) -> None:
        with self.path.open("rb") as handle:
            header = handle.read(16)
        if header != b"SQLite format 3\x00":
            raise self._corrupt("not an SQLite file: bad header")
        result = conn.execute("PRAGMA quick_check").fetchone()
        if not result or result[0] != "ok":
            raise self._corrupt(f"integrity check failed: {result[0] if result else 'no answer'}")
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise self._corrupt("an SQLite file, but not a sizer-agent session database")
        try:
            row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        except sqlite3.DatabaseError as error:
            raise self._corrupt(f"no schema version: {error}") from error
        version = int(row[0]) if row and str(row[0]).isdigit() else None
        if version != SCHEMA_VERSION:
            raise SchemaVersionError(
                f"session database {self.path} has schema version {version}, this sizer-agent reads "
                f"version {SCHEMA_VERSION}; it was left untouched. Use the sizer-agent that wrote it to "
                f"`sessions export` the sessions, then `sessions import` them here."
            )

    @staticmethod
    @contextmanager
    def _tx(conn: sqlite3.Connection) -> Iterator[None]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            with self._tx(self._conn):
                yield self._conn
        except sqlite3.DatabaseError as error:
            raise self._corrupt(str(error)) from error

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- sessions --------------------------------------------------------------------------------------
    def create_session(
        self, title: str = "", customer: str = "", lang: str = "fr", events: list[Any] | None = None
    ) -> int:
        """A new session; `events` (optional) are stored in the same transaction: all or nothing."""
        stamp = now_iso()
        with self.transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO sessions (title, customer, lang, created, updated) VALUES (?, ?, ?, ?, ?)",
                (title, customer, lang, stamp, stamp),
            )
            session_id = int(cursor.lastrowid or 0)
            for event in events or []:
                self._insert_event(conn, session_id, event)
        return session_id

    def update_session(
        self, session_id: int, *, title: str | None = None, customer: str | None = None,
        lang: str | None = None,
    ) -> None:
        self._require(session_id)
        with self.transaction() as conn:
            for column, value in (("title", title), ("customer", customer), ("lang", lang)):
                if value is not None:
                    conn.execute(f"UPDATE sessions SET {column}=? WHERE id=?", (value, session_id))
            self._touch(conn, session_id)

    def _touch(self, conn: sqlite3.Connection, session_id: int) -> None:
        conn.execute("UPDATE sessions SET updated=? WHERE id=?", (now_iso(), session_id))

    def _require(self, session_id: int) -> sqlite3.Row | tuple[Any, ...]:
        row = self._conn.execute(
            "SELECT id, title, customer, lang, created, updated FROM sessions WHERE id=?", (session_id,)
        ).fetchone()
        if row is None:
            raise SessionNotFoundError(f"no session {session_id} in {self.path} (see `sessions list`)")
        return tuple(row)

    def list_sessions(self) -> list[SessionSummary]:
        """All sessions, oldest first."""
        rows = self._conn.execute(
            "SELECT s.id, s.title, s.customer, s.lang, s.created, s.updated,"
            " (SELECT COUNT(DISTINCT field) FROM answers a WHERE a.session_id=s.id),"
            " (SELECT COUNT(*) FROM tool_calls t WHERE t.session_id=s.id)"
            " FROM sessions s ORDER BY s.created, s.id"
        ).fetchall()
        return [
            SessionSummary(id=r[0], title=r[1], customer=r[2], lang=r[3], created=r[4], updated=r[5],
                           answers=r[6], tool_calls=r[7])
            for r in rows
        ]

    def get_session(self, session_id: int) -> SessionSummary:
        self._require(session_id)
        return next(s for s in self.list_sessions() if s.id == session_id)

    def delete_session(self, session_id: int) -> None:
        self._require(session_id)
        with self.transaction() as conn:
            conn.execute("DELETE FROM sessions WHERE id=?", (session_id,))

    # -- answers ---------------------------------------------------------------------------------------
    def save_answer(
        self, session_id: int, field: str, value: Any, raw_text: str = "", assumed: bool = False,
        at: str | None = None,
    ) -> None:
        self._require(session_id)
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO answers (session_id, field, value, assumed, raw_text, at) VALUES (?,?,?,?,?,?)",
                (session_id, field, _dumps(value), int(assumed), raw_text, at or now_iso()),
            )
            if field == "customer" and isinstance(value, str):
                conn.execute("UPDATE sessions SET customer=? WHERE id=?", (value, session_id))
                conn.execute("UPDATE sessions SET title=? WHERE id=? AND title=''", (value, session_id))
            self._touch(conn, session_id)

    def answers(self, session_id: int) -> dict[str, Answer]:
        self._require(session_id)
        out: dict[str, Answer] = {}
        rows = self._conn.execute(
            "SELECT field, value, assumed, raw_text, at FROM answers WHERE session_id=? ORDER BY id",
            (session_id,),
        ).fetchall()
        for field, value_json, assumed, raw_text, at in rows:
            value = json.loads(value_json)
            history = [*out[field].history] if field in out else []
            history.append(AnswerVersion(value=value, raw_text=raw_text, at=at))
            out[field] = Answer(value=value, assumed=bool(assumed), raw_text=raw_text, history=history)
        return out

    # -- events and tool calls -------------------------------------------------------------------------
    def record_event(self, session_id: int, event: BaseModel) -> None:
        """Persist one event at once; answers and tool calls also go to their own tables."""
        self.record_events(session_id, [event])

    def record_events(self, session_id: int, events: list[Any]) -> None:
        """Persist several events in one transaction (all or nothing)."""
        self._require(session_id)
        with self.transaction() as conn:
            for event in events:
                self._insert_event(conn, session_id, event)
            self._touch(conn, session_id)

    def _insert_event(self, conn: sqlite3.Connection, session_id: int, event: BaseModel) -> None:
        body = event.model_dump(mode="json")
        stamp = now_iso()
        conn.execute(
            "INSERT INTO events (session_id, kind, body, created) VALUES (?,?,?,?)",
            (session_id, body.get("kind", ""), _dumps(body), stamp),
        )
        if isinstance(event, AnswerRecorded):
            conn.execute(
                "INSERT INTO answers (session_id, field, value, assumed, raw_text, at)"
                " VALUES (?,?,?,?,?,?)",
                (session_id, event.field, _dumps(body["value"]), int(event.assumed), event.raw_text, stamp),
            )
            if event.field == "customer" and isinstance(event.value, str):
                conn.execute("UPDATE sessions SET customer=? WHERE id=?", (event.value, session_id))
                conn.execute("UPDATE sessions SET title=? WHERE id=? AND title=''", (event.value, session_id))
        elif isinstance(event, ToolCalled):
            conn.execute(
                "INSERT INTO tool_calls (session_id, call_id, tool, arguments, created) VALUES (?,?,?,?,?)",
                (session_id, event.call_id, event.tool, _dumps(body["arguments"]), stamp),
            )
        elif isinstance(event, ToolReturned):
            updated = conn.execute(
                "UPDATE tool_calls SET ok=?, result=?, error=?, duration_ms=?"
                " WHERE session_id=? AND call_id=? AND ok IS NULL",
                (int(event.ok), _dumps(body["result"]), event.error, event.duration_ms, session_id,
                 event.call_id),
            ).rowcount
            if event.ok and event.tool == "bench_serve" and event.result is not None:
                conn.execute("INSERT INTO benchmarks (session_id, body, created) VALUES (?,?,?)",
                             (session_id, _dumps(body["result"]), stamp))
            if not updated:  # a result without its call (imported or replayed): keep it anyway
                conn.execute(
                    "INSERT INTO tool_calls (session_id, call_id, tool, arguments, ok, result, error,"
                    " duration_ms, created) VALUES (?,?,?,?,?,?,?,?,?)",
                    (session_id, event.call_id, event.tool, "{}", int(event.ok), _dumps(body["result"]),
                     event.error, event.duration_ms, stamp),
                )

    def recorder(self, session_id: int) -> Callable[[BaseModel], None]:
        """A callback for an engine's `on_event`: each event is committed as it is emitted."""
        self._require(session_id)
        return lambda event: self.record_event(session_id, event)

    def events(self, session_id: int) -> list[Any]:
        """The session's events in order, as `Event` models (an unreadable row is skipped, not fatal)."""
        self._require(session_id)
        out = []
        for (body,) in self._conn.execute(
            "SELECT body FROM events WHERE session_id=? ORDER BY id", (session_id,)
        ):
            try:
                out.append(_EVENT.validate_python(json.loads(body)))
            except (ValueError, ValidationError):
                continue
        return out

    def tool_calls(self, session_id: int) -> list[dict[str, Any]]:
        self._require(session_id)
        rows = self._conn.execute(
            "SELECT call_id, tool, arguments, ok, result, error, duration_ms, created FROM tool_calls"
            " WHERE session_id=? ORDER BY id", (session_id,),
        ).fetchall()
        return [
            {"call_id": r[0], "tool": r[1], "arguments": json.loads(r[2]),
             "ok": None if r[3] is None else bool(r[3]), "result": json.loads(r[4]) if r[4] else None,
             "error": r[5], "duration_ms": r[6], "created": r[7]}
            for r in rows
        ]

    # -- benchmarks and proposals ----------------------------------------------------------------------
    def add_benchmark(self, session_id: int, result: dict[str, Any]) -> None:
        self._require(session_id)
        with self.transaction() as conn:
            conn.execute("INSERT INTO benchmarks (session_id, body, created) VALUES (?,?,?)",
                         (session_id, _dumps(result), now_iso()))
            self._touch(conn, session_id)

    def benchmarks(self, session_id: int) -> list[dict[str, Any]]:
        self._require(session_id)
        return [json.loads(b) for (b,) in self._conn.execute(
            "SELECT body FROM benchmarks WHERE session_id=? ORDER BY id", (session_id,))]

    def add_proposal(self, session_id: int, format: str, lang: str, path: str) -> None:
        self._require(session_id)
        with self.transaction() as conn:
            conn.execute("INSERT INTO proposals (session_id, format, lang, path, created) VALUES (?,?,?,?,?)",
                         (session_id, format, lang, str(path), now_iso()))
            self._touch(conn, session_id)

    def proposals(self, session_id: int) -> list[dict[str, Any]]:
        self._require(session_id)
        return [{"format": r[0], "lang": r[1], "created": r[2], "path": r[3]} for r in self._conn.execute(
            "SELECT format, lang, created, path FROM proposals WHERE session_id=? ORDER BY id", (session_id,))]

    # -- resume ----------------------------------------------------------------------------------------
    def load_state(self, session_id: int) -> InterviewState:
        """Rebuild the interview state: answers, the question last asked, the last result of each tool."""
        row = self._require(session_id)
        state = InterviewState(lang="en" if row[3] == "en" else "fr", answers=self.answers(session_id))
        for event in self.events(session_id):
            if event.kind == "question":
                state.current_question = event.question_id
            elif event.kind == "answer":
                state.last_field = event.field
        for call in self.tool_calls(session_id):
            if call["ok"] and call["result"] is not None:
                state.results[call["tool"]] = call["result"]
        # the profile the last finished sizing ran on: a run cut short (the process killed) is run again
        state.sized_profile = sizing_status(self.events(session_id)).sized_profile
        return state

    # -- salvage ---------------------------------------------------------------------------------------
    @classmethod
    def salvage(cls, path: str | os.PathLike[str]) -> tuple[list[dict[str, Any]], list[str]]:
        """Read what is readable from a damaged database, read-only, session by session.

        Returns (exports of the sessions that could be read whole, one line per session or table that
        could not). The damaged file is opened immutable: nothing is written to it.
        """
        source = Path(path).expanduser()
        if not source.is_file():
            raise StoreError(f"no database file at {source}")
        reader = cls.__new__(cls)  # skip _open: no integrity check, no schema creation, no writes
        reader.path = source
        try:
            reader._conn = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
            ids = [int(r[0]) for r in reader._conn.execute("SELECT id FROM sessions ORDER BY id")]
        except sqlite3.DatabaseError as error:
            return [], [f"sessions table unreadable: {error}"]
        exports, problems = [], []
        for session_id in ids:
            try:
                exports.append(reader.export_session(session_id))
            except (sqlite3.DatabaseError, StoreError, ValueError) as error:
                problems.append(f"session {session_id}: {type(error).__name__}: {error}")
        reader._conn.close()
        return exports, problems

    # -- export / import -------------------------------------------------------------------------------
    def export_session(self, session_id: int) -> dict[str, Any]:
        from sizer_agent.store.export import export_session

        return export_session(self, session_id)

    def import_session(self, data: dict[str, Any]) -> int:
        from sizer_agent.store.export import import_session

        return import_session(self, data)
