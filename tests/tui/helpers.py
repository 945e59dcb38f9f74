"""Drive the app like a person: type, Enter, and wait for the engine without sleeping."""

from __future__ import annotations

from contextlib import suppress

from textual.pilot import Pilot
from textual.worker import WorkerFailed

from sizer_agent.app import SizerApp


async def settle(pilot: Pilot[None]) -> None:
    """Wait until every worker is done and the screen has caught up."""
    app = pilot.app
    # A failed worker is the app's business (its error handler shows it); tests look at the screen.
    with suppress(WorkerFailed):
        await app.workers.wait_for_complete()
    await pilot.pause()
    with suppress(WorkerFailed):
        await app.workers.wait_for_complete()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def say(pilot: Pilot[None], text: str) -> None:
    """Type `text` key by key into the answer box, press Enter, wait for the answer to be handled."""
    await pilot.press(*text)
    await pilot.press("enter")
    await settle(pilot)


def chat_text(app: SizerApp) -> str:
    """Everything the conversation shows, including collapsed tool cards' contents."""
    from textual.widgets import Markdown, Static

    parts = []
    for widget in app.chat_screen.chat.query("*"):
        if isinstance(widget, Markdown):
            parts.append(widget.source)
        elif isinstance(widget, Static) and not isinstance(widget.parent, Markdown):
            parts.append(str(widget.render()))
    return "\n".join(parts)
