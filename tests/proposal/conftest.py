"""Shared fixtures of the proposal tests: the Acme session, made by the real tools, and edits of it."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.sessions import sized_session

HERE = Path(__file__).resolve().parent
ANSWERS = HERE / "fixtures" / "acme.yaml"
REPO = HERE.parents[1]


@cache
def acme_session() -> dict[str, Any]:
    """The Acme brief through intake, estimate and recommend (timestamps pinned for the golden files)."""
    session, _ = sized_session(yaml.safe_load(ANSWERS.read_text(encoding="utf-8")))
    return session


def load_fixture() -> dict[str, Any]:
    return copy.deepcopy(acme_session())


@pytest.fixture
def session() -> dict[str, Any]:
    """A fresh deep copy of the Acme session (tests may edit it)."""
    return load_fixture()


@pytest.fixture(scope="session")
def fixture_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Acme session as an export file, as `sizer-agent sessions export` writes it."""
    path = tmp_path_factory.mktemp("session") / "acme.json"
    path.write_text(json.dumps(acme_session(), ensure_ascii=False, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def repo_root() -> Path:
    return REPO


def _tool_result(session: dict[str, Any], tool: str) -> dict[str, Any]:
    return next(c["result"] for c in reversed(session["tool_calls"]) if c["tool"] == tool and c["ok"])


@pytest.fixture
def tool_result() -> Any:
    """`tool_result(session, name)`: latest successful result of a tool, read straight from the session."""
    return _tool_result
