"""`tools/` is the headless core: it must never pull in the app's other layers, the UI or the serving engine.

It ships as `sizer_agent.tools` (the repository keeps `tools/` at the top; `sizer_agent/tools` links to it),
so inside it `sizer_agent.tools` is the one allowed `sizer_agent` import; any other `sizer_agent` module,
`textual` or `vllm` is forbidden. Nothing anywhere imports the bare `tools` package: that would load every
module twice (`tools.x` and `sizer_agent.tools.x`, two module objects, two sets of classes).
"""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import sizer_agent.tools

FORBIDDEN = ("textual", "vllm")
ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("sizer_agent", "tools", "tests", "benchmarks")


def _tool_modules() -> list[str]:
    return ["sizer_agent.tools"] + [
        info.name for info in pkgutil.walk_packages(sizer_agent.tools.__path__, prefix="sizer_agent.tools.")
    ]


def _forbidden(module: str) -> bool:
    top = module.split(".")[0]
    if top in FORBIDDEN or top == "tools":
        return True
    return top == "sizer_agent" and module != "sizer_agent" and not module.startswith("sizer_agent.tools")


@pytest.mark.parametrize("module", _tool_modules())
def test_tools_module_imports_nothing_forbidden(module: str) -> None:
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); print(','.join(sorted(sys.modules)))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.strip().split(",")
    bad = [name for name in loaded if _forbidden(name)]
    assert bad == [], f"{module} imports {bad}"


def test_the_rule_catches_what_it_should() -> None:
    assert _forbidden("sizer_agent.app") and _forbidden("sizer_agent.agent.engine") and _forbidden("textual.app")
    assert _forbidden("tools.estimate") and _forbidden("vllm")
    assert not _forbidden("sizer_agent.tools.estimate") and not _forbidden("sizer_agent")


IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))")


def test_no_forbidden_import_statement_in_tools_sources() -> None:
    """Catches lazy imports inside functions too, which the runtime check cannot see."""
    offenders = []
    for path in (ROOT / "tools").rglob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = IMPORT.match(line)
            if match and _forbidden(match.group(1) or match.group(2)):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_nothing_imports_the_bare_tools_package() -> None:
    offenders = []
    for folder in SOURCES:
        for path in (ROOT / folder).rglob("*.py"):
            if "tools" in path.relative_to(ROOT).parts[:2] and folder == "sizer_agent":
                continue  # sizer_agent/tools is the same files as tools/, checked once
            for number, line in enumerate(path.read_text().splitlines(), 1):
                match = IMPORT.match(line)
                if match and (match.group(1) or match.group(2)).split(".")[0] == "tools":
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
