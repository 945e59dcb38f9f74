"""The current screen as plain text, for assertions and readable screenshots."""

from __future__ import annotations

import io

from rich.console import Console
from textual._context import active_app
from textual.app import App


def screen_text(app: App[object]) -> str:
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    # The test body runs outside the app's task: give rendering the app it expects (Textual's context).
    token = active_app.set(app)
    try:
        console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    finally:
        active_app.reset(token)
    return console.export_text()
