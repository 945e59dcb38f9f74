"""Sessions made the way a user makes them: an answers file through intake, stored, exported.

Every number in such a session comes from the real tools (estimate, recommend); only the timestamps are
pinned afterwards so that documents rendered from it are byte-for-byte stable (golden files).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from sizer_agent.agent.events import Event
from sizer_agent.agent.intake import IntakeResult, run_intake
from sizer_agent.store import SessionStore

PINNED_CREATED = "2026-12-01T09:00:00Z"
PINNED_UPDATED = "2026-12-01T09:30:00Z"


def sized_session(answers: dict[str, Any], lang: str = "fr", title: str = "") -> tuple[dict[str, Any], IntakeResult]:
    """(session export, intake result) for an answers dict; raises AssertionError listing any problem."""
    data = dict(answers)
    data.setdefault("lang", lang)
    if title:
        data.setdefault("title", title)
    result = run_intake(data)
    assert result.ok, [f"{p.field}: {p.kind}: {p.message}" for p in result.problems]
    events = TypeAdapter(list[Event]).validate_python(result.events)
    with tempfile.TemporaryDirectory() as folder, SessionStore(Path(folder) / "s.db") as store:
        session_id = store.create_session(title=result.title, lang=result.lang, events=events)
        exported = store.export_session(session_id)
    exported["created"], exported["updated"] = PINNED_CREATED, PINNED_UPDATED
    return exported, result
