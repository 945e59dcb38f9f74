"""Shared fixtures of the proposal tests: the fixed Acme session and small edits of it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "session_llama70b.json"
REPO = HERE.parents[1]


def load_fixture() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.fixture
def session() -> dict[str, Any]:
    """A fresh deep copy of the fixed session (tests may edit it)."""
    return copy.deepcopy(load_fixture())


@pytest.fixture
def fixture_path() -> Path:
    return FIXTURE


@pytest.fixture
def repo_root() -> Path:
    return REPO


def _tool_result(session: dict[str, Any], tool: str) -> dict[str, Any]:
    return next(c["result"] for c in reversed(session["tool_calls"]) if c["tool"] == tool and c["ok"])


@pytest.fixture
def tool_result() -> Any:
    """`tool_result(session, name)`: latest successful result of a tool, read straight from the session."""
    return _tool_result
