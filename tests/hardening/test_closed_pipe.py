"""`sizer-agent models | head`: a reader that leaves early is not an error (no traceback, exit 0)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_closed_stdout_ends_quietly() -> None:
    child = subprocess.Popen([sys.executable, "-m", "sizer_agent", "models", "--json"], cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # the reader is gone before the first line is written
    err = child.stderr.read().decode()
    assert child.wait(timeout=60) == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err
