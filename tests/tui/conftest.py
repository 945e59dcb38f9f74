"""Shared fixtures: deterministic app configuration (no cursor blink) and backends."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Input

from sizer_agent.app import AppConfig, Backend, SizerApp
from tests.tui.scripted import ScriptedBackend


@pytest.fixture(autouse=True)
def _no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """A blinking cursor makes screenshots depend on timing: every Input (palette too) holds still."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@pytest.fixture
def scripted() -> ScriptedBackend:
    return ScriptedBackend()


@pytest.fixture
def make_app(tmp_path: Path) -> Callable[..., SizerApp]:
    def make(backend: Backend, **config: object) -> SizerApp:
        settings = {"cursor_blink": False, "output_dir": tmp_path, **config}
        return SizerApp(lambda: backend, AppConfig(**settings))  # type: ignore[arg-type]

    return make
