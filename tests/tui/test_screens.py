"""The app's screens with a scripted backend: chat, tool cards, sidebar, results, keys, errors."""

from __future__ import annotations

import threading
from pathlib import Path

from textual.widgets import DataTable

from sizer_agent.agent.events import ToolCalled, ToolReturned
from sizer_agent.app.screens.results import ResultsScreen
from sizer_agent.app.widgets.chat import ToolCard
from sizer_agent.app.widgets.sidebar import MemoryGauge, ProfilePanel
from tests.tui.helpers import chat_text, say, settle
from tests.tui.screen_text import screen_text
from tests.tui.scripted import ESTIMATE, ScriptedBackend


async def test_first_question_and_suggestions(make_app, scripted) -> None:
    app = make_app(scripted)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Quel modèle servez-vous" in text
        assert "Llama-3.1-70B-Instruct" in text  # the suggestion hint
        assert app.focused is not None and app.focused.id == "answer"
        # ↓ puts the first suggestion in the box; → completes a typed prefix.
        await pilot.press("down")
        assert app.focused.value == "Llama-3.1-70B-Instruct"  # type: ignore[attr-defined]


async def test_suggester_completes_prefix(make_app, scripted) -> None:
    app = make_app(scripted)
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press(*"llama-3.1-8")
        await pilot.pause()
        await pilot.press("right")
        assert app.focused.value == "Llama-3.1-8B"  # type: ignore[union-attr]


async def test_interview_fills_sidebar_and_opens_results(make_app, scripted) -> None:
    app = make_app(scripted)
    # Tall enough for the verdict, the table and the reasons the others fail in one screen.
    async with app.run_test(size=(80, 40)) as pilot:
        await settle(pilot)
        await say(pilot, "Llama-3.1-70B-Instruct")
        assert app.query_one(ProfilePanel).profile == {"model": "Llama-3.1-70B-Instruct"}
        assert app.query_one(MemoryGauge).need_bytes is None
        await say(pilot, "fp8")
        await say(pilot, "32")
        # The estimate lands in the gauge (83.4 GB, from the tool result) and the results view opens.
        assert isinstance(app.screen, ResultsScreen)
        table = app.screen.query_one(DataTable)
        # the plan and the alternatives the tool names: the 2 x H100 rental (about EUR 194,000 over the 3-year
        # period) costs over 3 times the EUR 60,000 budget, so it is no alternative (tools.recommend)
        assert table.row_count == 1
        text = screen_text(app)
        assert "Configuration recommandée : Enterprise Max (ACD-014)" in text
        assert "✗ ACD-006 Pro: ne convient pas" in text  # why the others do not fit, in the interface language
        await pilot.press("escape")
        await settle(pilot)
        assert app.query_one(MemoryGauge).need_bytes == 83_400_000_000
        assert "77,7\u00a0Gio" in screen_text(app) or "77,7 Gio" in screen_text(app)


async def test_tool_card_opens_from_the_keyboard(make_app, scripted) -> None:
    app = make_app(scripted)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for answer in ("Llama-3.1-70B-Instruct", "fp8", "32"):
            await say(pilot, answer)
        await pilot.press("escape")
        await settle(pilot)
        card = app.query(ToolCard).first()
        assert "✓ 12 ms" in card.title()
        assert "weights_bytes" not in screen_text(app)  # closed: title and summary only
        await pilot.press("tab")  # from the answer box to the first card
        assert app.focused is card
        await pilot.press("enter")
        await settle(pilot)
        assert card.expanded
        assert "weights_bytes" in screen_text(app)  # open: the full inputs and result
        await pilot.press("enter")
        assert not card.expanded


async def test_language_switch_changes_every_label(make_app, scripted) -> None:
    app = make_app(scripted)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "^n nouveau" in screen_text(app)
        await pilot.press("f2")
        await settle(pilot)
        text = screen_text(app)
        assert "^n new" in text and "Profile" in text and "Your answer" in text
        assert app.sub_title.endswith("fr|EN")


async def test_command_palette_lists_translated_commands(make_app, scripted) -> None:
    app = make_app(scripted)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+k")
        await settle(pilot)
        text = screen_text(app)
        assert "Chercher une commande" in text and "Nouvelle session" in text
        await pilot.press(*"english")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.lang == "en"


async def test_help_opens_and_closes(make_app, scripted) -> None:
    app = make_app(scripted)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert "Comment ça marche" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.focused is not None and app.focused.id == "answer"


async def test_export_and_missing_proposal_notice(make_app, scripted, tmp_path: Path) -> None:
    app = make_app(scripted)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert (tmp_path / "session-1.json").is_file()
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert "sizer_agent.proposal" in app.notices[-1]


async def test_resume_replays_the_stored_conversation(make_app, scripted) -> None:
    first = make_app(scripted)
    async with first.run_test() as pilot:
        await settle(pilot)
        await say(pilot, "Llama-3.1-70B-Instruct")
    second = make_app(scripted)
    async with second.run_test(size=(80, 24)) as pilot:
        await settle(pilot)  # a new session 2 is open
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert "Acme / chatbot" in screen_text(second)
        await pilot.press("down", "enter")  # newest first: session 2, then 1
        await settle(pilot)
        assert second.session is not None and second.session.id == "1"
        text = chat_text(second)
        assert "Llama-3.1-70B-Instruct" in text and "Quelle précision ?" in text
        assert second.query_one(ProfilePanel).profile == {"model": "Llama-3.1-70B-Instruct"}


class _FailingOnce(ScriptedBackend):
    def __init__(self) -> None:
        super().__init__()
        self.failed = False

    def answer(self, session, text, emit=None):  # type: ignore[no-untyped-def]
        if not self.failed:
            self.failed = True
            raise RuntimeError("disk full")
        return super().answer(session, text, emit)


async def test_worker_error_is_shown_and_the_app_keeps_going(make_app) -> None:
    backend = _FailingOnce()
    app = make_app(backend)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await say(pilot, "Llama-3.1-70B-Instruct")
        assert "RuntimeError: disk full" in screen_text(app)
        await say(pilot, "Llama-3.1-70B-Instruct")
        assert "Quelle précision ?" in screen_text(app)


async def test_backend_closed_on_quit(make_app, scripted) -> None:
    app = make_app(scripted)
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("ctrl+q")
    assert scripted.closed


class _SlowTool(ScriptedBackend):
    """Emits the tool call, then waits until the test lets the tool finish."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def answer(self, session, text, emit=None):  # type: ignore[no-untyped-def]
        call = ToolCalled(call_id="slow", tool="estimate_memory", arguments={"model": text})
        emit(call)
        assert self.release.wait(30)
        done = ToolReturned(call_id="slow", tool="estimate_memory", ok=True, result=ESTIMATE, duration_ms=5.0)
        emit(done)
        return [call, done]


async def test_a_running_tool_shows_at_once_then_its_result(make_app) -> None:
    backend = _SlowTool()
    app = make_app(backend)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*"x", "enter")
        for _ in range(200):  # the worker is still waiting: poll the screen, not the workers
            await pilot.pause(0.01)
            if app.query(ToolCard):
                break
        card = app.query_one(ToolCard)
        assert card.outcome is None and "… en cours" in screen_text(app)
        backend.release.set()
        await settle(pilot)
        assert card.outcome is not None and "✓ 5 ms" in screen_text(app)
        assert len(app.query(ToolCard)) == 1  # streamed events are not drawn twice


async def test_results_come_back_with_f3_and_follow_the_language(make_app, scripted) -> None:
    app = make_app(scripted)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f3")
        assert app.notices[-1] == "Pas encore de recommandation."
        for answer in ("Llama-3.1-70B-Instruct", "fp8", "32"):
            await say(pilot, answer)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        assert isinstance(app.screen, ResultsScreen)
        await pilot.press("f2")
        await settle(pilot)
        text = screen_text(app)
        assert "Recommended configuration: Enterprise Max (ACD-014)" in text and "55,480" in text


async def test_self_service_downloads_files_and_hides_other_sessions(make_app, scripted, tmp_path: Path) -> None:
    app = make_app(scripted, self_service=True)
    delivered: list[Path] = []
    app.deliver_binary = lambda path, **_: delivered.append(path)  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert delivered == [tmp_path / "session-1.json"]  # the browser gets the file too
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.notices[-1] == "Non disponible en libre-service."
        assert not app.query("SessionPicker")
