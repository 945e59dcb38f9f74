"""Usable at 80×24 and when the terminal is resized: the sidebar yields, nothing is lost or unfocused."""

from __future__ import annotations

from sizer_agent.app.screens.results import ResultsScreen
from tests.tui.helpers import say, settle
from tests.tui.screen_text import screen_text


async def test_resize_hides_then_restores_the_sidebar(make_app, scripted) -> None:
    app = make_app(scripted)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await say(pilot, "Llama-3.1-70B-Instruct")
        sidebar = app.query_one("#sidebar")
        assert sidebar.display and sidebar.region.width == 28

        await pilot.resize_terminal(60, 20)
        await settle(pilot)
        assert app.screen.has_class("-narrow")
        assert not sidebar.display
        text = screen_text(app)
        assert "Quelle précision ?" in text and "F1 aide" in text  # question and keys still visible
        assert app.focused is not None and app.focused.id == "answer"
        await say(pilot, "fp8")  # still usable while narrow

        await pilot.resize_terminal(140, 40)
        await settle(pilot)
        assert sidebar.display and "precision" in screen_text(app)
        assert app.query_one("#chat-log").region.width > 100


async def test_results_screen_fits_80_columns(make_app, scripted) -> None:
    app = make_app(scripted)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for answer in ("Llama-3.1-70B-Instruct", "fp8", "32"):
            await say(pilot, answer)
        assert isinstance(app.screen, ResultsScreen)
        table = app.screen.query_one("#recommendation-table")
        assert table.virtual_size.width <= table.region.width  # no horizontal scrolling needed
        await pilot.resize_terminal(50, 16)
        await settle(pilot)
        assert "esc" in screen_text(app)
