"""The whole interview through the real engine and a SQLite file on disk, typed key by key."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from sizer_agent.app import AppConfig, SizerApp
from sizer_agent.app.production import production_backend_factory
from sizer_agent.app.screens.chat import ChatScreen
from sizer_agent.app.screens.results import ResultsScreen
from sizer_agent.app.widgets.chat import ToolCard
from sizer_agent.app.widgets.sidebar import MemoryGauge, ProfilePanel
from sizer_agent.store import SessionStore
from tests.tui.helpers import chat_text, say, settle
from tests.tui.screen_text import screen_text
from sizer_agent.tools.registry import default_registry

# A French online-serving interview: one rich sentence, a "don't know", a "why?", then short answers.
FRENCH = [
    "Acme",
    "un chatbot interne en ligne",
    "Llama 3.1 70B Instruct en fp8, contexte 8k, 32 utilisateurs",
    "2k / 512",
    "je ne sais pas",
    "pourquoi ?",
    "500 ms",
    "40 ms",
    "vLLM 0.11.0",
    "2 GPU",
    "station de travail",
    "non",
    "oui",
    "25 000 €",
    "pas de limite",
]
HAS_RECOMMEND = "recommend" not in default_registry().unavailable
HAS_PROPOSAL = importlib.util.find_spec("sizer_agent.proposal") is not None


def make(tmp_path: Path, **config: object) -> SizerApp:
    factory = production_backend_factory(tmp_path / "sessions.db")
    return SizerApp(factory, AppConfig(cursor_blink=False, output_dir=tmp_path, **config))  # type: ignore[arg-type]


async def _interview(pilot, app: SizerApp, db: Path) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot)
    assert "Pour quel client" in chat_text(app)
    with SessionStore(db) as observer:  # a second connection: what a crash would leave on disk
        for number, text in enumerate(FRENCH, 1):
            await say(pilot, text)
            if number == 1:
                assert observer.answers(1)["customer"].value == "Acme"  # committed before the next key
        answers = observer.answers(1)
    assert answers["concurrency"].value == 32 and answers["precision"].value == "fp8"
    assert answers["growth_factor"].assumed  # "je ne sais pas" took the documented default


async def test_full_interview_to_the_estimate_and_recommendation(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    app = make(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _interview(pilot, app, db)
        if HAS_RECOMMEND:
            assert isinstance(app.screen, ResultsScreen)
            assert app.recommendation is not None and app.recommendation.options
            await pilot.press("escape")
            await settle(pilot)
        else:  # this checkout has no recommend tool: the estimate is the last result
            assert isinstance(app.screen, ChatScreen)
        # The gauge shows exactly the stored estimate's per-GPU total.
        with SessionStore(db) as store:
            estimate = next(c for c in store.tool_calls(1) if c["tool"] == "estimate_memory")
        assert estimate["ok"]
        assert app.query_one(MemoryGauge).need_bytes == estimate["result"]["per_gpu"]["total_bytes"]
        card = next(c for c in app.query(ToolCard) if c.call.tool == "estimate_memory")
        assert card.outcome is not None and card.outcome.ok
        profile = app.query_one(ProfilePanel)
        assert profile.profile["customer"] == "Acme" and profile.labels["customer"] == "client"
        assert "Acme" in app.sub_title
        text = chat_text(app)
        assert "Pourquoi" in text  # the "why?" was answered
        assert "53,8 GB" in screen_text(app) or estimate["result"]["per_gpu"]["total_bytes"] > 0


@pytest.mark.skipif(HAS_PROPOSAL, reason="the proposal module is part of this build")
async def test_proposal_key_says_clearly_when_the_renderer_is_absent(tmp_path: Path) -> None:
    app = make(tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
    assert "sizer_agent.proposal" in app.notices[-1]
    assert not list(tmp_path.glob("proposal-*"))


@pytest.mark.skipif(not HAS_PROPOSAL, reason="the proposal module is not part of this build")
async def test_proposal_key_writes_markdown_and_html(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    app = make(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _interview(pilot, app, db)
        await pilot.press("ctrl+p")
        await settle(pilot)
    markdown, html = tmp_path / "proposal-1-fr.md", tmp_path / "proposal-1-fr.html"
    assert "Acme" in markdown.read_text() and "<html" in html.read_text().lower()
    with SessionStore(db) as store:
        assert {p["format"] for p in store.proposals(1)} == {"md", "html"}


async def test_resume_replays_history_and_continues(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    first = make(tmp_path)
    async with first.run_test() as pilot:
        await settle(pilot)
        for text in FRENCH[:3]:
            await say(pilot, text)
    with SessionStore(db) as store:
        stored = len(store.events(1))

    second = make(tmp_path, resume="1")
    async with second.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = chat_text(second)
        assert "Llama 3.1 70B Instruct en fp8" in text  # the user's words, rebuilt from the answers
        assert "Reprise de la session" in text
        assert second.query_one(ProfilePanel).profile["concurrency"] == 32
        with SessionStore(db) as store:
            assert len(store.events(1)) == stored  # resuming stores nothing new
        await say(pilot, "2k / 512")
    with SessionStore(db) as store:
        assert store.answers(1)["input_len"].value == 2048


async def test_ctrl_s_exports_the_session_as_json(tmp_path: Path) -> None:
    app = make(tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        await say(pilot, "Acme")
        await pilot.press("ctrl+s")
        await settle(pilot)
    data = json.loads((tmp_path / "sizer-session-1.json").read_text())
    assert data["format"] == "sizer-agent-session/1" and data["answers"]["customer"]["value"] == "Acme"


async def test_picker_lists_stored_sessions_and_resumes_one(tmp_path: Path) -> None:
    app = make(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await say(pilot, "Acme")
        await pilot.press("ctrl+n")
        await settle(pilot)
        await say(pilot, "Globex")
        assert app.session is not None and app.session.id == "2"
        await pilot.press("ctrl+r")
        await settle(pilot)
        text = screen_text(app)
        assert "Acme" in text and "Globex" in text
        await pilot.press("down", "enter")  # newest first: Globex, then Acme
        await settle(pilot)
        assert app.session.id == "1" and "Acme" in app.sub_title


async def test_corrupt_database_is_reported_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    db.write_bytes(b"this is not a database" * 100)
    before = db.read_bytes()
    app = make(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "sessions.db" in screen_text(app) or "sessions.db" in app.notices[-1]
        assert app.session is None
    assert db.read_bytes() == before


async def test_english_interface_speaks_english(tmp_path: Path) -> None:
    app = make(tmp_path, lang="en")
    async with app.run_test() as pilot:
        await settle(pilot)
        assert "Hello!" in chat_text(app)
        await say(pilot, "Acme")
        await pilot.press("f2")  # the engine follows the interface language
        await settle(pilot)
        await say(pilot, "pourquoi ?")
        assert "Pourquoi" in chat_text(app)
