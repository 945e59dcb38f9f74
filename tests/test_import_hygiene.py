"""`tools/` is the headless core: it must never pull in the app, the UI or the serving engine."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import tools

FORBIDDEN = ("sizer_agent", "textual", "vllm")
ROOT = Path(__file__).resolve().parents[1]


def _tool_modules() -> list[str]:
    return ["tools"] + [
        info.name for info in pkgutil.walk_packages(tools.__path__, prefix="tools.")
    ]


@pytest.mark.parametrize("module", _tool_modules())
def test_tools_module_imports_nothing_forbidden(module: str) -> None:
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); "
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}); print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.strip()
    assert out == "", f"{module} imports {out}"


def test_no_forbidden_import_statement_in_tools_sources() -> None:
    """Catches lazy imports inside functions too, which the runtime check cannot see."""
    offenders = []
    for path in (ROOT / "tools").rglob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            stripped = line.strip()
            for name in FORBIDDEN:
                if stripped.startswith((f"import {name}", f"from {name}")):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {stripped}")
    assert offenders == []
