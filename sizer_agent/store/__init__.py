"""The session store: SQLite file with sessions, answers, events, tool calls, benchmarks, proposals."""

from __future__ import annotations

import os
from typing import Any

from sizer_agent.store.db import (
    ENV_DB,
    SCHEMA_VERSION,
    CorruptDatabaseError,
    SchemaVersionError,
    SessionNotFoundError,
    SessionStore,
    SessionSummary,
    StoreError,
    default_db_path,
)
from sizer_agent.store.export import FORMAT, InvalidExportError, SessionExport


def export_session(session_id: int, db: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The export dict (format sizer-agent-session/1) of one session of the database `db` (default path
    when None). Raises SessionNotFoundError (also a KeyError) or another StoreError."""
    with SessionStore(db) as store:
        return store.export_session(session_id)


def import_session(data: dict[str, Any], db: str | os.PathLike[str] | None = None) -> int:
    """Store an exported session in `db` under a new id; returns that id."""
    with SessionStore(db) as store:
        return store.import_session(data)

__all__ = [
    "ENV_DB",
    "FORMAT",
    "SCHEMA_VERSION",
    "CorruptDatabaseError",
    "InvalidExportError",
    "SchemaVersionError",
    "SessionExport",
    "SessionNotFoundError",
    "SessionStore",
    "SessionSummary",
    "StoreError",
    "default_db_path",
    "export_session",
    "import_session",
]
