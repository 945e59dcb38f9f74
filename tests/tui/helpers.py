"""Drive the app like a person: type, Enter, and wait for the engine without sleeping."""

from __future__ import annotations

import asyncio
from contextlib import suppress

from textual.pilot import Pilot
from textual.worker import WorkerFailed

from sizer_agent.app import SizerApp


def _watch_loop_errors() -> list[dict[str, object]]:
    """Errors raised in loop callbacks (outside any task) are only logged by asyncio: collect them."""
    loop = asyncio.get_running_loop()
    errors: list[dict[str, object]] | None = getattr(loop, "_sizer_errors", None)
    if errors is None:
        errors = []
        loop._sizer_errors = errors  # type: ignore[attr-defined]
        loop.set_exception_handler(lambda _loop, context: errors.append(context))
    return errors


async def settle(pilot: Pilot[None]) -> None:
    """Wait until every worker is done and the screen has caught up; fail on errors in loop callbacks."""
    errors = _watch_loop_errors()
    app = pilot.app
    # A failed worker is the app's business (its error handler shows it); tests look at the screen.
    with suppress(WorkerFailed):
        await app.workers.wait_for_complete()
    await pilot.pause()
    with suppress(WorkerFailed):
        await app.workers.wait_for_complete()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    assert not errors, f"error in an event-loop callback: {errors[0]}"


async def say(pilot: Pilot[None], text: str) -> None:
    """Type `text` key by key into the answer box, press Enter, wait for the answer to be handled."""
    await pilot.press(*text)
    await pilot.press("enter")
    await settle(pilot)


def chat_text(app: SizerApp) -> str:
    """Everything the conversation shows, including collapsed tool cards' contents."""
    from sizer_agent.app.present import pretty_json
    from sizer_agent.app.widgets.chat import AnswerNote, ChatLine, ErrorNote, ToolCard

    parts = []
    for widget in app.chat_screen.chat.children:
        if isinstance(widget, ChatLine):
            parts.append(widget.text)
        elif isinstance(widget, AnswerNote | ErrorNote):
            parts.append(str(widget.render()))
        elif isinstance(widget, ToolCard):
            parts += [widget.title(), widget.summary(), pretty_json(widget.call.arguments)]
            if widget.outcome is not None:
                parts.append(pretty_json(widget.outcome.result) if widget.outcome.ok else str(widget.outcome.error))
    return "\n".join(parts)
