"""The app holds no domain logic: it reaches the tools only through the engine and the store."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "sizer_agent" / "app"
# The app may use the event contract everywhere; only the production wiring imports the engine/store.
WIRING = {"production.py"}
ALLOWED_AGENT_IMPORTS = {"sizer_agent.agent.events"}
# The typed plan is the contract every consumer reads (the agent, the app and the proposal import it);
# no other part of the tools is reachable from the app.
ALLOWED_TOOLS_IMPORTS = {"sizer_agent.tools.plan", "sizer_agent.tools.messages"}


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_app_never_imports_tools() -> None:
    offenders = [
        f"{path.relative_to(APP)}: {name}"
        for path in APP.rglob("*.py")
        for name in _imports(path)
        if (name.split(".")[0] == "tools" or name == "sizer_agent.tools" or name.startswith("sizer_agent.tools."))
        and name not in ALLOWED_TOOLS_IMPORTS
    ]
    assert offenders == []


def test_only_the_wiring_module_imports_the_agent_and_store() -> None:
    offenders = [
        f"{path.relative_to(APP)}: {name}"
        for path in APP.rglob("*.py")
        if path.name not in WIRING
        for name in _imports(path)
        if name.startswith(("sizer_agent.agent", "sizer_agent.store")) and name not in ALLOWED_AGENT_IMPORTS
    ]
    assert offenders == []
