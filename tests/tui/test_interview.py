"""The whole interview through the real engine and a SQLite file on disk, typed key by key."""

from __future__ import annotations

import json
from pathlib import Path

from sizer_agent.agent.events import AnswerRecorded
from sizer_agent.app import AppConfig, SizerApp
from sizer_agent.app.present import format_gb
from sizer_agent.app.production import production_backend_factory
from sizer_agent.app.screens.chat import ChatScreen
from sizer_agent.app.screens.results import ResultsScreen
from sizer_agent.app.widgets.chat import ToolCard
from sizer_agent.app.widgets.sidebar import MemoryGauge, ProfilePanel
from sizer_agent.store import SessionStore
from sizer_agent.tools.registry import default_registry
from tests.tui.helpers import chat_text, say, settle
from tests.tui.screen_text import screen_text

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
        assert isinstance(app.screen, ResultsScreen)
        assert app.recommendation is not None and app.recommendation.options
        await pilot.press("escape")
        await settle(pilot)
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
        # and prints it, in the interface's language and unit, beside the gauge
        assert format_gb(estimate["result"]["per_gpu"]["total_bytes"], "fr") in screen_text(app)


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


async def test_an_app_quit_before_any_answer_stores_no_session(tmp_path: Path) -> None:
    app = make(tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        assert "Pour quel client" in chat_text(app)
        assert app.session is not None and app.session.id == ""
        assert "nouvelle session" in app.sub_title
        await pilot.press("ctrl+s")  # nothing to export yet: said, no file, no session created
        await settle(pilot)
        assert "première réponse" in app.notices[-1]
        await pilot.press("ctrl+n")  # a second new session, also left unanswered
        await settle(pilot)
    assert not list(tmp_path.glob("sizer-session-*.json"))
    with SessionStore(tmp_path / "sessions.db") as store:
        assert store.list_sessions() == []


async def test_the_first_answer_stores_the_session_with_its_opening_question(tmp_path: Path) -> None:
    app = make(tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n")  # the first new session is dropped unanswered: the next one is number 1
        await settle(pilot)
        await say(pilot, "Acme")
        assert app.session is not None and app.session.id == "1"
        assert "session 1" in app.sub_title
    with SessionStore(tmp_path / "sessions.db") as store:
        assert [s.id for s in store.list_sessions()] == [1]
        events = store.events(1)
    # the greeting and the first question came before the answer, and are stored before it
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("AnswerRecorded") > 0
    assert "Pour quel client" in json.dumps([e.model_dump(mode="json") for e in events[:kinds.index("AnswerRecorded")]],
                                            ensure_ascii=False)


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


async def test_a_resume_after_a_crash_during_recommend_sizes_again(tmp_path: Path) -> None:
    """What kill -9 during recommend leaves on disk; the app resumes it, marks the cut call and sizes again."""
    from sizer_agent.agent.engine import DeterministicEngine
    from sizer_agent.agent.events import ToolCalled

    db = tmp_path / "sessions.db"
    registry = default_registry(bench=False)
    with SessionStore(db) as store:
        sid = store.create_session(lang="en")
        record = store.recorder(sid)
        engine = DeterministicEngine(registry, lang="en", on_event=record)
        engine.start()
        for text in ("Acme", "online serving", "Llama 3.1 8B bf16, context 8k, 16 users, 2k / 512", "x1",
                     "500 ms", "50 ms", "vLLM 0.11", "1", "server", "no", "no budget", "no", "no"):
            engine.handle(text)
        survivor = DeterministicEngine(registry, state=store.load_state(sid))
        for event in survivor.handle("actually 48 users"):
            record(event)
            if isinstance(event, ToolCalled) and event.tool == "recommend":
                break  # the process died here
    app = make(tmp_path, resume=str(sid), lang="en")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        text = chat_text(app)
        assert "interrupted" in text and "sizing again" in text
        assert "are current" not in text  # the old "results are up to date" would be false here
    with SessionStore(db) as store:
        calls = [c for c in store.tool_calls(sid) if c["tool"] == "recommend"]
    assert calls[-1]["ok"] and calls[-1]["arguments"]["workload"]["concurrency"] == 48


async def test_a_hostile_customer_name_cannot_retitle_the_terminal(tmp_path: Path) -> None:
    with SessionStore(tmp_path / "sessions.db") as store:
        sid = store.create_session(lang="en")
        store.recorder(sid)(AnswerRecorded(field="customer", value="Acme\x1b]0;pwned\x07", raw_text="Acme"))
    app = make(tmp_path, resume=str(sid), lang="en")
    async with app.run_test() as pilot:
        await settle(pilot)
        assert "\x1b" not in app.sub_title and "\x07" not in app.sub_title
        assert "Acme\\x1b]0;pwned\\x07" in app.sub_title
