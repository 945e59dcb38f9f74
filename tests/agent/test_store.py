"""The SQLite session store: history, export/import, crash safety, damaged files."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from sizer_agent.agent.events import AgentMessage, AnswerRecorded, ToolCalled, ToolReturned
from sizer_agent.store import (
    FORMAT,
    CorruptDatabaseError,
    SchemaVersionError,
    SessionNotFoundError,
    SessionStore,
    StoreError,
    default_db_path,
)

ROOT = Path(__file__).resolve().parents[2]


def fill(store: SessionStore) -> int:
    sid = store.create_session(lang="en")
    store.record_event(sid, AnswerRecorded(field="customer", value="Acme", raw_text="Acme"))
    store.record_event(sid, AnswerRecorded(field="concurrency", value=32, raw_text="32 users"))
    store.record_event(sid, AnswerRecorded(field="concurrency", value=64, raw_text="actually 64", previous=32))
    store.record_event(sid, AnswerRecorded(field="growth_factor", value=1.0, raw_text="idk", assumed=True))
    store.record_event(sid, ToolCalled(call_id="c1", tool="estimate_memory", arguments={"model": "m"}))
    store.record_event(sid, ToolReturned(call_id="c1", tool="estimate_memory", ok=True, result={"x": 1},
                                         duration_ms=3.5))
    store.record_event(sid, AgentMessage(text="done"))
    store.add_benchmark(sid, {"ttft_ms": {"p99": 120.0}})
    store.add_proposal(sid, "md", "en", "out/proposal.md")
    return sid


def test_answers_keep_their_history(store: SessionStore) -> None:
    sid = fill(store)
    answers = store.answers(sid)
    assert answers["concurrency"].value == 64
    assert [v.value for v in answers["concurrency"].history] == [32, 64]
    assert answers["growth_factor"].assumed
    summary = store.get_session(sid)
    assert (summary.title, summary.customer, summary.answers, summary.tool_calls) == ("Acme", "Acme", 3, 1)
    call = store.tool_calls(sid)[0]
    assert call["ok"] is True and call["result"] == {"x": 1} and call["duration_ms"] == 3.5


def test_export_format_and_import_round_trip(store: SessionStore, tmp_path: Path) -> None:
    sid = fill(store)
    data = store.export_session(sid)
    assert data["format"] == FORMAT == "sizer-agent-session/1"
    assert set(data) == {"format", "id", "title", "customer", "created", "updated", "lang", "answers",
                         "tool_calls", "benchmarks", "proposals", "events"}
    assert data["answers"]["concurrency"] == {
        "value": 64, "assumed": False, "raw_text": "actually 64",
        "history": [{"value": 32, "raw_text": "32 users", "at": data["answers"]["concurrency"]["history"][0]["at"]},
                    {"value": 64, "raw_text": "actually 64", "at": data["answers"]["concurrency"]["history"][1]["at"]}],
    }
    assert set(data["tool_calls"][0]) == {"call_id", "tool", "arguments", "ok", "result", "error", "duration_ms",
                                          "created"}
    assert data["benchmarks"] == [{"ttft_ms": {"p99": 120.0}}]
    assert set(data["proposals"][0]) == {"format", "lang", "created", "path"}
    assert [e["kind"] for e in data["events"]] == ["answer"] * 4 + ["tool_call", "tool_result", "message"]
    json.dumps(data)  # plain JSON

    other = SessionStore(tmp_path / "other.db")
    new_id = other.import_session(data)
    again = other.export_session(new_id)
    assert {k: v for k, v in again.items() if k != "id"} == {k: v for k, v in data.items() if k != "id"}


def test_bad_import_changes_nothing(store: SessionStore) -> None:
    fill(store)
    before = store.list_sessions()
    with pytest.raises(StoreError, match="format"):
        store.import_session({"format": "something-else"})
    data = store.export_session(before[0].id)
    data["events"].append({"kind": "nonsense"})
    with pytest.raises(StoreError, match="events"):
        store.import_session(data)
    assert store.list_sessions() == before


def test_list_is_oldest_first_and_delete(store: SessionStore) -> None:
    ids = [store.create_session(title=f"s{i}") for i in range(3)]
    assert [s.id for s in store.list_sessions()] == ids
    store.delete_session(ids[1])
    assert [s.id for s in store.list_sessions()] == [ids[0], ids[2]]
    with pytest.raises(SessionNotFoundError):
        store.get_session(ids[1])


def test_env_overrides_default_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SIZER_AGENT_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"
    monkeypatch.delenv("SIZER_AGENT_DB")
    assert default_db_path().name == "sessions.db"


def test_wal_journal(store: SessionStore) -> None:
    conn = sqlite3.connect(store.path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_answer_survives_a_killed_process(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    code = (
        "import os\n"
        "from sizer_agent.store import SessionStore\n"
        "from sizer_agent.agent.events import AnswerRecorded\n"
        f"s = SessionStore({str(db)!r})\n"
        "sid = s.create_session()\n"
        "s.record_event(sid, AnswerRecorded(field='concurrency', value=32))\n"
        "os._exit(9)  # no close, no checkpoint: like a crash\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    assert result.returncode == 9
    with SessionStore(db) as store:
        (session,) = store.list_sessions()
        assert store.answers(session.id)["concurrency"].value == 32


def _populated(path: Path) -> None:
    with SessionStore(path) as store:
        for _ in range(3):
            fill(store)


def test_garbage_bytes_give_a_clear_error_and_the_file_is_untouched(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    _populated(db)
    raw = bytearray(db.read_bytes())
    raw[0:16] = b"garbage garbage!"
    db.write_bytes(bytes(raw))
    with pytest.raises(CorruptDatabaseError, match=r"unreadable .*not an SQLite file.*left untouched"):
        SessionStore(db)
    assert db.read_bytes() == bytes(raw)


def test_damaged_pages_give_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    _populated(db)
    raw = bytearray(db.read_bytes())
    assert len(raw) > 4096 * 3
    for offset in range(4096, len(raw), 4096):  # scribble over the b-tree header of every later page
        raw[offset:offset + 12] = b"\xff" * 12
    db.write_bytes(bytes(raw))
    with pytest.raises(CorruptDatabaseError, match="unreadable"):
        SessionStore(db)


def test_truncated_file_gives_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    _populated(db)
    raw = db.read_bytes()
    db.write_bytes(raw[: len(raw) // 2 + 7])
    with pytest.raises(CorruptDatabaseError, match="unreadable"):
        SessionStore(db)


def test_wrong_schema_version_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    _populated(db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(SchemaVersionError, match=r"schema version 99.*reads version 1"):
        SessionStore(db)


def test_foreign_sqlite_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(CorruptDatabaseError, match="not a sizer-agent"):
        SessionStore(db)


def test_damage_in_one_database_loses_no_session_in_another(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.db", tmp_path / "bad.db"
    _populated(good)
    _populated(bad)
    bad.write_bytes(b"\x00" * 100)
    with pytest.raises(CorruptDatabaseError):
        SessionStore(bad)
    with SessionStore(good) as store:
        assert len(store.list_sessions()) == 3


def test_an_unreadable_event_row_does_not_hide_the_session(store: SessionStore) -> None:
    sid = fill(store)
    other = fill(store)
    conn = sqlite3.connect(store.path)
    conn.execute("UPDATE events SET body='{not json' WHERE session_id=? AND kind='message'", (sid,))
    conn.commit()
    conn.close()
    assert [e.kind for e in store.events(sid)][-1] == "tool_result"
    assert len(store.events(other)) == 7


def test_module_level_export_for_other_components(tmp_path: Path) -> None:
    """The proposal renderer calls `export_session(SessionStore(db), id)`: keep that signature."""
    from sizer_agent.store import export_session, import_session

    db = tmp_path / "s.db"
    with SessionStore(db) as store:
        sid = fill(store)
        data = export_session(store, sid)
        assert data["id"] == sid and data["format"] == FORMAT
        with pytest.raises(KeyError, match="no session 999"):
            export_session(store, 999)
    with SessionStore(tmp_path / "other.db") as other:
        assert import_session(other, data) == 1


def test_salvage_recovers_every_readable_session_of_a_damaged_file(tmp_path: Path) -> None:
    db = tmp_path / "damaged.db"
    with SessionStore(db) as store:
        for i in range(4):
            sid = store.create_session(title=f"s{i}")
            for j in range(60):  # enough rows that each session's events fill pages of their own
                store.record_event(sid, AgentMessage(text=f"{i}-{j} " + "x" * 300))
    raw = bytearray(db.read_bytes())
    for offset in range(len(raw) - 3 * 4096, len(raw), 4096):  # the last pages: the last session's events
        raw[offset:offset + 12] = b"\xff" * 12
    db.write_bytes(bytes(raw))
    with pytest.raises(CorruptDatabaseError, match="sessions salvage"):
        SessionStore(db)
    exports, problems = SessionStore.salvage(db)
    # which pages hold what depends on SQLite's allocator: the first sessions survive, the damage is named
    assert len(exports) >= 2 and exports[0]["title"] == "s0"
    assert len(exports) + len(problems) == 4 and all(p.startswith("session ") for p in problems)
    assert db.read_bytes() == bytes(raw)  # read-only
    with SessionStore(tmp_path / "new.db") as fresh:
        for data in exports:
            fresh.import_session(data)
        assert all(len(fresh.events(s.id)) == 60 for s in fresh.list_sessions())


def test_a_crash_inside_a_tool_keeps_the_answer_that_triggered_it(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    code = f"""
import os
from pydantic import BaseModel
from sizer_agent.agent.engine import DeterministicEngine
from sizer_agent.store import SessionStore
from sizer_agent.tools.registry import Tool, ToolRegistry

class Args(BaseModel, extra="allow"):
    model: str

def crash(_args):
    os._exit(3)  # the process dies while the tool runs

registry = ToolRegistry()
registry.register(Tool("estimate_memory", "crashes", Args, Args, crash))
store = SessionStore({str(db)!r})
sid = store.create_session(lang="en")
engine = DeterministicEngine(registry, lang="en", on_event=store.recorder(sid), known_models=[])
engine.start()
for text in ("Acme", "online serving", "org/model bf16, context 8k, 16 users, 2k / 512", "x1", "500 ms",
             "50 ms", "vLLM 0.11", "1", "cloud", "no", "no budget"):
    engine.handle(text)
"""
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    assert result.returncode == 3
    with SessionStore(db) as store:
        (session,) = store.list_sessions()
        answers = store.answers(session.id)
        assert answers["budget_eur"].value is None and answers["budget_eur"].raw_text == "no budget"
        (call,) = store.tool_calls(session.id)
        assert call["tool"] == "estimate_memory" and call["ok"] is None  # called, never returned
