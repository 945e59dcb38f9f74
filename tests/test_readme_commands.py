"""The README's two commands are the contract: CI runs exactly its test command, and what it names exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _shell_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, flags=re.S)


def _test_command() -> str:
    blocks = _shell_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    commands = [line.strip() for block in blocks for line in block.splitlines() if "pytest" in line]
    assert len(commands) == 1, f"the README should give one test command, found {commands}"
    return commands[0]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    runs = [line.strip() for line in ci.splitlines() if "pytest" in line and not line.lstrip().startswith("#")]
    assert runs == [_test_command()]


def test_the_test_command_installs_what_its_flags_need() -> None:
    # "-n"/"--dist" come from pytest-xdist: the dev extra the same command installs must hold it
    command = _test_command()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    dev = project["optional-dependencies"]["dev"]
    if re.search(r"\s(-n|--dist)\s", command):
        assert any(requirement.startswith("pytest-xdist") for requirement in dev), dev
    assert "'.[dev]'" in command
