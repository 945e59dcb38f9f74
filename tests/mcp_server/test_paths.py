"""The MCP server's file guard: only strings that are paths are checked, and only allowed folders pass."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sizer_agent.mcp.paths import PathGuard

ROOT = Path(__file__).resolve().parents[2]


def test_ids_urls_and_words_are_not_paths(tmp_path: Path) -> None:
    guard = PathGuard([])
    for text in ("meta-llama/Llama-3.1-8B-Instruct", "http://127.0.0.1:8000", "bfloat16", "llama-3.1-8b", ""):
        assert guard.problem({"model": text}) is None, text


def test_paths_inside_pass_and_outside_are_named(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    (allowed / "sub").mkdir(parents=True)
    (allowed / "sub" / "config.json").write_text("{}")
    (tmp_path / "secret.json").write_text("{}")
    (allowed / "link.json").symlink_to(tmp_path / "secret.json")
    guard = PathGuard([allowed])
    assert guard.problem({"model": str(allowed / "sub" / "config.json")}) is None
    assert guard.problem({"model": str(allowed)}) is None
    for text in (str(tmp_path / "secret.json"), str(allowed / "sub" / ".." / ".." / "secret.json"),
                 str(allowed / "link.json"), "/etc/passwd", "~/anything", "../x"):
        problem = guard.problem({"a": {"b": [{"path": text}]}})
        assert problem is not None and problem.startswith("a.b[0].path:"), text


def test_a_relative_folder_named_like_a_hub_id_is_a_path(tmp_path: Path) -> None:
    (tmp_path / "org" / "model").mkdir(parents=True)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert PathGuard([]).problem({"model": "org/model"}) is not None
        assert PathGuard([tmp_path]).problem({"model": "org/model"}) is None
    finally:
        os.chdir(cwd)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)


@given(st.dictionaries(st.text(), json_values, max_size=5))
def test_the_guard_never_raises(arguments: dict[str, object]) -> None:
    problem = PathGuard([Path("/nonexistent-allowed")]).problem(arguments)
    assert problem is None or ":" in problem


def test_without_the_extra_the_command_says_how_to_add_it() -> None:
    code = "import sys; sys.modules['mcp'] = None\nfrom sizer_agent.cli import main\nsys.exit(main(['mcp']))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2
    assert "pip install 'sizer-agent[mcp]'" in done.stderr and "Traceback" not in done.stderr
