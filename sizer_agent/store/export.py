"""JSON export and import of one session, format `sizer-agent-session/1`.

The format (the proposal renderer reads it too)::

    {"format": "sizer-agent-session/1", "id": int, "title": str, "customer": str,
     "created": iso8601, "updated": iso8601, "lang": "fr" | "en",
     "answers": {field: {"value": any, "assumed": bool, "raw_text": str,
                         "history": [{"value", "raw_text", "at"}]}},   # every value given, oldest first
     "tool_calls": [{"call_id", "tool", "arguments", "ok", "result", "error", "duration_ms", "created"}],
     "benchmarks": [<bench serve result JSON>],
     "proposals": [{"format", "lang", "created", "path"}],
     "events": [<Event dicts>]}

Import checks the whole document first and writes it in one transaction under a new id: a bad file
changes nothing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from sizer_agent.agent.events import Event
from sizer_agent.agent.state import Answer
from sizer_agent.store.db import StoreError, _dumps

if TYPE_CHECKING:
    from sizer_agent.store.db import SessionStore

FORMAT = "sizer-agent-session/1"


class InvalidExportError(StoreError):
    """The document is not a valid session export; nothing was stored."""


class ToolCallRecord(BaseModel):
    call_id: str
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    ok: bool | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    duration_ms: float | None = None
    created: str


class ProposalRecord(BaseModel):
    format: str
    lang: str
    created: str
    path: str


class SessionExport(BaseModel):
    format: Literal["sizer-agent-session/1"] = "sizer-agent-session/1"
    id: int
    title: str = ""
    customer: str = ""
    created: str
    updated: str
    lang: Literal["fr", "en"] = "fr"
    answers: dict[str, Answer] = Field(default_factory=dict)
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    benchmarks: list[dict[str, Any]] = Field(default_factory=list)
    proposals: list[ProposalRecord] = Field(default_factory=list)
    events: list[dict[str, Any]] = Field(default_factory=list)


_EVENTS = TypeAdapter(list[Event])


def export_session(store: SessionStore, session_id: int) -> dict[str, Any]:
    summary = store.get_session(session_id)
    document = SessionExport(
        id=summary.id, title=summary.title, customer=summary.customer, created=summary.created,
        updated=summary.updated, lang="en" if summary.lang == "en" else "fr",
        answers=store.answers(session_id),
        tool_calls=[ToolCallRecord.model_validate(c) for c in store.tool_calls(session_id)],
        benchmarks=store.benchmarks(session_id),
        proposals=[ProposalRecord.model_validate(p) for p in store.proposals(session_id)],
        events=[e.model_dump(mode="json") for e in store.events(session_id)],
    )
    return document.model_dump(mode="json")


def _where(error: ValidationError) -> str:
    first = error.errors()[0]
    return ".".join(str(p) for p in first["loc"]) + f": {first['msg']}"


def import_session(store: SessionStore, data: dict[str, Any]) -> int:
    """Store an exported session under a new id (ids are per database); return the new id."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise InvalidExportError(f"not a session export: format is {found!r}, expected {FORMAT!r}")
    try:
        document = SessionExport.model_validate(data)
    except ValidationError as error:
        raise InvalidExportError(f"invalid session export at {_where(error)}") from error
    try:
        _EVENTS.validate_python(document.events)
    except ValidationError as error:
        raise InvalidExportError(f"invalid session export at events.{_where(error)}") from error
    with store.transaction() as conn:
        cursor = conn.execute(
            "INSERT INTO sessions (title, customer, lang, created, updated) VALUES (?,?,?,?,?)",
            (document.title, document.customer, document.lang, document.created, document.updated),
        )
        new_id = int(cursor.lastrowid or 0)
        for field, answer in document.answers.items():
            versions = answer.history or []
            for index, version in enumerate(versions):
                last = index == len(versions) - 1
                conn.execute(
                    "INSERT INTO answers (session_id, field, value, assumed, raw_text, at) VALUES (?,?,?,?,?,?)",
                    (new_id, field, _dumps(answer.value if last else version.value),
                     int(answer.assumed and last), version.raw_text, version.at),
                )
            if not versions:
                conn.execute(
                    "INSERT INTO answers (session_id, field, value, assumed, raw_text, at) VALUES (?,?,?,?,?,?)",
                    (new_id, field, _dumps(answer.value), int(answer.assumed), answer.raw_text,
                     document.updated),
                )
        for call in document.tool_calls:
            conn.execute(
                "INSERT INTO tool_calls (session_id, call_id, tool, arguments, ok, result, error, duration_ms,"
                " created) VALUES (?,?,?,?,?,?,?,?,?)",
                (new_id, call.call_id, call.tool, _dumps(call.arguments),
                 None if call.ok is None else int(call.ok),
                 None if call.result is None else _dumps(call.result), call.error, call.duration_ms,
                 call.created),
            )
        for bench in document.benchmarks:
            conn.execute("INSERT INTO benchmarks (session_id, body, created) VALUES (?,?,?)",
                         (new_id, _dumps(bench), document.updated))
        for proposal in document.proposals:
            conn.execute(
                "INSERT INTO proposals (session_id, format, lang, path, created) VALUES (?,?,?,?,?)",
                (new_id, proposal.format, proposal.lang, proposal.path, proposal.created),
            )
        for event in document.events:
            conn.execute("INSERT INTO events (session_id, kind, body, created) VALUES (?,?,?,?)",
                         (new_id, str(event.get("kind", "")), json.dumps(event, ensure_ascii=False),
                          document.updated))
    return new_id


MAX_EXPORT_BYTES = 64 * 2**20  # a session with its events and benchmark results is a few MB


def check_export(data: Any) -> None:
    """The checks of `sessions import` before anything is stored: the export format, no unknown field, and
    every answer (and each earlier value of it) a value the interview itself would accept for its field.

    `import_session` keeps what it is given (salvage copies damaged sessions as they are); a file brought
    in from outside is held to the profile's own rules: InvalidExportError names the first bad field.
    """
    from sizer_agent.agent.profile import PROFILE_FIELDS, validate_field

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise InvalidExportError(f"not a session export: format is {found!r}, expected {FORMAT!r}")
    unknown = sorted(str(key) for key in data if key not in SessionExport.model_fields)
    if unknown:
        raise InvalidExportError(f"invalid session export at {unknown[0]}: unknown field "
                                 f"(allowed: {', '.join(SessionExport.model_fields)})")
    try:
        document = SessionExport.model_validate(data)
    except ValidationError as error:
        raise InvalidExportError(f"invalid session export at {_where(error)}") from error
    for field, answer in document.answers.items():
        if field not in PROFILE_FIELDS:
            raise InvalidExportError(f"invalid session export at answers.{field}: not a profile field "
                                     f"(allowed: {', '.join(PROFILE_FIELDS)})")
        for value in (answer.value, *(version.value for version in answer.history)):
            try:
                validate_field(field, value)
            except ValidationError as error:
                reason = "; ".join(str(e["msg"]) for e in error.errors())
                raise InvalidExportError(f"invalid session export at answers.{field}.value: {reason}") from error
    for index, call in enumerate(document.tool_calls):
        if call.duration_ms is not None and not 0 <= call.duration_ms < 1e12:
            raise InvalidExportError(f"invalid session export at tool_calls.{index}.duration_ms: "
                                     f"{call.duration_ms} is not a duration")
    try:
        _EVENTS.validate_python(document.events)
    except ValidationError as error:
        raise InvalidExportError(f"invalid session export at events.{_where(error)}") from error
