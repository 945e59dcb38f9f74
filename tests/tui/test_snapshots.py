"""Pinned pictures of the main screens at 80×24 (scripted backend: numbers that never move).

Update after an intended change: `python -m pytest tests/tui/test_snapshots.py --snapshot-update`,
then look at the SVGs in tests/tui/__snapshots__/ before committing them.
"""

from __future__ import annotations

from textual.pilot import Pilot

from tests.tui.helpers import say, settle

ANSWERS = ("Llama-3.1-70B-Instruct", "fp8", "32")


async def _interview(pilot: Pilot[None]) -> None:
    await settle(pilot)
    for answer in ANSWERS:
        await say(pilot, answer)


class TestChatScreen:
    def test_first_question(self, snap_compare, make_app, scripted) -> None:
        """You should see the first question, its suggestions, an empty profile and no estimate yet."""
        assert snap_compare(make_app(scripted), run_before=settle)

    def test_after_the_interview(self, snap_compare, make_app, scripted) -> None:
        """You should see the answers, two tool cards with ✓ and timings, the filled profile and 83,4 GB."""

        async def run_before(pilot: Pilot[None]) -> None:
            await _interview(pilot)
            await pilot.press("escape")  # back from the results view
            await settle(pilot)

        assert snap_compare(make_app(scripted), run_before=run_before)

    def test_english_and_narrow(self, snap_compare, make_app, scripted) -> None:
        """You should see the English interface at 60×20, without the sidebar."""
        assert snap_compare(make_app(scripted, lang="en"), run_before=settle, terminal_size=(60, 20))


class TestResultsScreen:
    def test_recommendation(self, snap_compare, make_app, scripted) -> None:
        """You should see ACD-014 recommended, the two rejected offers with reasons, and the charts."""
        assert snap_compare(make_app(scripted), run_before=_interview)
