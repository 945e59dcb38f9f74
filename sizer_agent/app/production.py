"""The production backend: the deterministic engine and the SQLite session store (sizer_agent.agent)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sizer_agent.app.backend import Backend


def production_backend_factory(db_path: Path | None) -> Callable[[], Backend]:
    raise NotImplementedError("wired once the agent's engine and store land")
