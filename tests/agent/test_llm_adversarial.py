"""A scripted LLM server that invents values, calls tools with invented arguments, echoes the API key and
stalls: nothing invented is stored or shown, the key appears nowhere, and the user's words are always saved."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from sizer_agent.agent.events import UserSaid
from sizer_agent.agent.llm import LLMConfig, LLMEngine
from sizer_agent.store import SessionStore
from sizer_agent.tools.registry import ToolRegistry
from tests.agent.test_llm import H

KEY = "sk-test-5f3a9c1e7b2d4a6f8e0c"


def engine_on(server: Any, registry: ToolRegistry, store: SessionStore, sid: int, **config: Any) -> LLMEngine:
    settings = {"timeout_s": 10, **config}
    return LLMEngine(LLMConfig(url=server.url, model="scripted", api_key=KEY, **settings), registry, lang="en",
                     on_event=store.recorder(sid))


def everything_stored(store: SessionStore, sid: int, db: Path) -> str:
    """The session as stored and exported, and the database file's bytes (its pages may hold freed text)."""
    return json.dumps(store.export_session(sid)) + db.read_bytes().decode("latin-1")


def test_the_key_appears_nowhere(llm_server: Any, registry: ToolRegistry, tmp_path: Path) -> None:
    llm_server.script = [
        ("stream", H.tool_call_chunks("record_answers", json.dumps({"answers": {"customer": KEY}}))),
        ("stream", H.text_chunks(f"Your key is {KEY}. Which use case?")),
        ("echo401", None),
    ]
    db = tmp_path / "s.db"
    with SessionStore(db) as store:
        sid = store.create_session(lang="en")
        engine = engine_on(llm_server, registry, store, sid)
        shown = engine.start()
        shown += engine.handle(f"Acme, and here is my key by mistake: {KEY}")
        shown += engine.handle("online serving")  # the server answers 401 with our Authorization header
        assert not engine.active and engine.failure and KEY not in engine.failure
        assert llm_server.headers[-1]["Authorization"] == f"Bearer {KEY}"  # it was sent, and echoed back
        stored = everything_stored(store, sid, db)
    assert KEY not in json.dumps([e.model_dump() for e in shown])
    assert KEY not in stored and "[redacted]" in stored


def test_a_stalled_server_hands_over_quickly_and_keeps_the_words(
    llm_server: Any, registry: ToolRegistry, tmp_path: Path,
) -> None:
    llm_server.script = [("stall", 30)]
    db = tmp_path / "s.db"
    with SessionStore(db) as store:
        sid = store.create_session(lang="en")
        engine = engine_on(llm_server, registry, store, sid, first_token_timeout_s=1.0)
        engine.start()
        start = time.monotonic()
        events = engine.handle("We are Acme")
        waited = time.monotonic() - start
        stored = store.events(sid)
    assert waited < 5, f"handed over after {waited:.1f} s"
    assert not engine.active
    assert any(isinstance(e, UserSaid) and e.text == "We are Acme" for e in stored)
    assert engine.state.answers["customer"].value == "Acme"  # the built-in engine went on
    assert any(e.kind == "message" and "built-in engine" in e.text for e in events)


@pytest.mark.parametrize("reply", [
    ("stream", H.tool_call_chunks("recommend", json.dumps({"workload": {"model": "x", "concurrency": 500}}))),
    ("stream", H.tool_call_chunks("record_answers", json.dumps({"answers": {"concurrency": 500,
                                                                            "budget_eur": 99999}}))),
    ("stream", H.text_chunks("Plan 8 H200 GPUs and 9.5 TB of NVMe for your 500 users.")),
])
def test_invented_values_are_neither_stored_nor_shown(
    llm_server: Any, registry: ToolRegistry, tmp_path: Path, reply: tuple[str, Any],
) -> None:
    llm_server.script = [reply, ("stream", H.text_chunks("Which use case?"))] * 4
    db = tmp_path / "s.db"
    with SessionStore(db) as store:
        sid = store.create_session(lang="en")
        engine = engine_on(llm_server, registry, store, sid)
        shown = engine.start() + engine.handle("Acme, 16 users")
        answers = {k: a.value for k, a in engine.state.answers.items()}
        stored = everything_stored(store, sid, db)
    assert answers.get("concurrency") == 16 and "budget_eur" not in answers
    # timestamps carry milliseconds (".500Z"): they are not values anyone stated
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)?", "TIME",
                  json.dumps([e.model_dump() for e in shown]) + stored)
    for invented in ("500", "99999", "9.5"):  # as a figure of its own, not inside another number
        assert not re.search(rf"(?<![\d.]){re.escape(invented)}(?![\d])", text), invented
    assert "Acme, 16 users" in stored  # the user's words, as said
