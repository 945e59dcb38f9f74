"""The session store: SQLite file with sessions, answers, events, tool calls, benchmarks, proposals."""

from __future__ import annotations

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
from sizer_agent.store.export import FORMAT, InvalidExportError, SessionExport, export_session, import_session

# export_session(store, session_id) -> dict and import_session(store, data) -> new id are also methods:
# store.export_session(session_id), store.import_session(data).

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
