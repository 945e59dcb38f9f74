"""kill -9 at any point of an interview, then resume: the same plan and the same proposal as without the kill.

A real interview process (tests/agent/interview_child.py, the app's store backend on SQLite) is killed with
SIGKILL right after a chosen event is stored; a second process resumes the session and finishes it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sizer_agent.proposal import render_proposal
from sizer_agent.store import SessionStore
from sizer_agent.tools.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("interview_child.py")
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _spawn(db: Path, which: str, pause_at: int = -1) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(CHILD), str(db), which, str(pause_at)], cwd=ROOT, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _run_to_done(db: Path, which: str) -> tuple[str, list[str]]:
    child = _spawn(db, which)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0 and "DONE" in out, err
    session = re.search(r"SESSION (\d+)", out)
    assert session
    return session.group(1), [line for line in out.splitlines() if line.startswith("EVENT")]


def _killed_at(db: Path, at: int) -> str:
    """Start a new interview, SIGKILL it once event `at` is stored; the session id."""
    child = _spawn(db, "new", pause_at=at)
    assert child.stdout is not None
    session = ""
    try:
        for line in child.stdout:
            if line.startswith("SESSION"):
                session = line.split()[1]
            if line.startswith(f"EVENT {at} "):
                child.send_signal(signal.SIGKILL)
                break
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL and session
    return session


def _outcome(db: Path, session: str) -> tuple[dict[str, Any], str]:
    with SessionStore(db) as store:
        data = store.export_session(int(session))
    plans = [c["result"] for c in data["tool_calls"] if c["tool"] == "recommend" and c["ok"]]
    proposal = render_proposal(data, "md", "en")
    # what differs between two sessions by nature: their ids and the dates they were written
    proposal = re.sub(r"\d{4}-\d{2}-\d{2}|\b\d{1,2} \w+ \d{4}\b", "DATE", proposal)
    proposal = re.sub(r"(?i)(session|--resume|propose) \d+", r"\1 N", proposal)
    return plans[-1], proposal


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str, list[str]]:
    db = tmp_path_factory.mktemp("baseline") / "sessions.db"
    session, events = _run_to_done(db, "new")
    plan, proposal = _outcome(db, session)
    return plan, proposal, events


def _index(events: list[str], suffix: str) -> int:
    return next(int(line.split()[1]) for line in events if line.endswith(suffix))


@pytest.mark.parametrize("where", [
    "answer concurrency",  # in the middle of the questions
    "answer rack_units",  # the last answer is stored, the tools have not started
    "tool_call estimate_memory",  # during the estimate
    "tool_call recommend",  # during the recommendation
    "tool_result recommend",  # the plan is stored, its explanation is not
])
def test_killed_then_resumed_reaches_the_same_plan_and_proposal(
    where: str, baseline: tuple[dict[str, Any], str, list[str]], tmp_path: Path,
) -> None:
    plan, proposal, events = baseline
    db = tmp_path / "sessions.db"
    session = _killed_at(db, _index(events, where))
    if where != "tool_result recommend":
        with SessionStore(db) as store, pytest.raises(InputError, match=r"size it again|no successful recommend"):
            render_proposal(store.export_session(int(session)), "md", "en")
    resumed, _ = _run_to_done(db, session)
    assert resumed == session
    again_plan, again_proposal = _outcome(db, session)
    assert again_plan == plan
    assert again_proposal == proposal
