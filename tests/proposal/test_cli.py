"""`sizer-agent propose` run as a user runs it: a subprocess on the fixture, files on disk."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sizer_agent.cli import main


def run_cli(repo_root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(repo_root)}
    return subprocess.run(
        [sys.executable, "-m", "sizer_agent", "propose", *args],
        cwd=repo_root,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_markdown_to_stdout_in_the_session_language(repo_root: Path, fixture_path: Path) -> None:
    done = run_cli(repo_root, str(fixture_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# Proposition de configuration — Acme")


def test_html_file_from_extension(repo_root: Path, fixture_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "deep" / "proposal.html"
    done = run_cli(repo_root, str(fixture_path), "--lang", "en", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert f"wrote {out}" in done.stderr
    assert [p.name for p in out.parent.iterdir()] == ["proposal.html"]  # no temporary file left behind


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["missing.json"], "SESSION: no such file"),
        (["--lang", "de"], "invalid choice: 'de'"),
        (["--format", "pdf"], "needs -o FILE"),
    ],
)
def test_user_mistakes_are_one_line_exit_2(repo_root: Path, fixture_path: Path, args: list[str], needle: str) -> None:
    full = args if args[0].endswith(".json") else [str(fixture_path), *args]
    done = run_cli(repo_root, *full)
    assert done.returncode == 2
    assert needle in done.stderr and "Traceback" not in done.stderr


def test_session_without_sizing(repo_root: Path, tmp_path: Path, session: dict[str, Any]) -> None:
    import json

    session["tool_calls"] = []
    path = tmp_path / "s.json"
    path.write_text(json.dumps(session), encoding="utf-8")
    done = run_cli(repo_root, str(path))
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "recommend" in done.stderr


def test_unknown_session_id_is_one_line_naming_it(repo_root: Path, tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    done = run_cli(repo_root, "12", "--db", str(db))
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "no session 12" in done.stderr and "sessions list" in done.stderr


def test_pdf_when_weasyprint_is_installed(repo_root: Path, fixture_path: Path, tmp_path: Path) -> None:
    pytest.importorskip("weasyprint", reason="optional extra `pdf` not installed")
    out = tmp_path / "p.pdf"
    done = run_cli(repo_root, str(fixture_path), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"%PDF")


def test_pdf_without_weasyprint_says_how_to_get_it(
    fixture_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # makes `import weasyprint` fail
    code = main(["propose", str(fixture_path), "-o", str(tmp_path / "p.pdf")])
    assert code == 2
    assert "pip install 'sizer-agent[pdf]'" in capsys.readouterr().err
    assert not (tmp_path / "p.pdf").exists()


class _FakeStoreModule:
    """The session store's public API as `sizer_agent.store` offers it (SessionStore + export_session)."""

    class StoreError(Exception):
        pass

    class SessionNotFoundError(StoreError):
        pass

    def __init__(self, sessions: dict[int, dict[str, Any]]) -> None:
        self.sessions = sessions
        self.opened: list[str | None] = []
        outer = self

        class SessionStore:
            def __init__(self, path: str | None = None) -> None:
                outer.opened.append(path)

            def __enter__(self) -> SessionStore:
                return self

            def __exit__(self, *exc: object) -> None:
                return None

        self.SessionStore = SessionStore

    def export_session(self, store: object, session_id: int) -> dict[str, Any]:
        if session_id not in self.sessions:
            raise self.SessionNotFoundError(f"no session {session_id}")
        return self.sessions[session_id]


def test_session_id_through_the_store_api(
    fixture_path: Path, tmp_path: Path, session: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Adapter test: the store lives on another branch, so its public API is stood in for here."""
    fake = _FakeStoreModule({12: session})
    monkeypatch.setitem(sys.modules, "sizer_agent.store", fake)  # type: ignore[arg-type]
    out = tmp_path / "p.md"
    assert main(["propose", "12", "--db", str(tmp_path / "s.db"), "-o", str(out), "--lang", "en"]) == 0
    assert fake.opened == [str(tmp_path / "s.db")]
    assert out.read_text(encoding="utf-8").startswith("# Hardware proposal — Acme")
    assert main(["propose", "99"]) == 2
    assert "cannot read session 99: no session 99" in capsys.readouterr().err
