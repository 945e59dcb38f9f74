"""Adversarial inputs run through the real command line: each must end with exit code 2, exactly one
line on stderr and no traceback, within seconds and bounded memory, leaving every file as it was."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 10  # the CLI starts in ~0.3 s; a hang or an expansion bomb is what this bounds
MEMORY_LIMIT = 3 * 2**30  # address space of the child: a bomb ends in a MemoryError long before the host
MODELS = ROOT / "tools" / "data" / "models"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


class Workspace:
    """A folder with a session database holding one session; the CLI runs inside it (cwd) so that
    whatever a command would leave behind (a default output folder, a temp file) shows up in `snapshot`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.db = root / "sessions.db"
        self.env = {"PYTHONPATH": str(ROOT), "SIZER_AGENT_DB": str(self.db), "PATH": "/usr/bin:/bin",
                    "HF_HUB_OFFLINE": "1", "HOME": str(root / "home"), "SIZER_AGENT_CACHE": str(root / "cache")}

    def run(self, *args: str, stdin: str | None = None) -> Run:
        out = subprocess.run([sys.executable, "-m", "sizer_agent", *args], cwd=self.root, capture_output=True,
                             text=True, env=self.env, timeout=TIMEOUT_S, input=stdin, preexec_fn=_limit_memory)
        return Run(out.returncode, out.stdout, out.stderr)

    def file(self, name: str, content: str | bytes) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    def config(self, name: str, base: str = "meta-llama__Llama-3.1-8B-Instruct", **changes: object) -> Path:
        data = json.loads((MODELS / base / "config.json").read_text())
        data.update(changes)
        return self.file(name, json.dumps(data))

    def snapshot(self) -> dict[str, str]:
        """Every file and folder under the workspace with the hash of its bytes (FIFOs and devices by kind)."""
        out = {}
        for dirpath, dirnames, filenames in os.walk(self.root):
            for name in dirnames:
                out[os.path.relpath(os.path.join(dirpath, name), self.root) + "/"] = "dir"
            for name in filenames:
                path = Path(dirpath) / name
                if path.is_file() and os.access(path, os.R_OK):
                    out[str(path.relative_to(self.root))] = hashlib.sha256(path.read_bytes()).hexdigest()
                else:
                    out[str(path.relative_to(self.root))] = "special"
        return out


@pytest.fixture(scope="module")
def seeded_db(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a session database holding one session (made once, copied into each workspace)."""
    root = tmp_path_factory.mktemp("seed")
    space = Workspace(root)
    answers = space.file("answers.yaml", "customer: Acme\nuse_case: online_serving\nmodel: llama-3.1-8b\n")
    result = space.run("intake", "--answers", str(answers), "--assume-defaults", "--no-tools")
    assert result.returncode == 0, result.stderr
    return space.db.read_bytes()


@pytest.fixture
def space(tmp_path: Path, seeded_db: bytes) -> Workspace:
    (tmp_path / "home").mkdir()
    (tmp_path / "sessions.db").write_bytes(seeded_db)
    return Workspace(tmp_path)


def assert_refused(space: Workspace, *args: str, stdin: str | None = None, needle: str = "") -> str:
    """Exit 2, one line on stderr naming the problem, no traceback, nothing changed under the workspace."""
    before = space.snapshot()
    result = space.run(*args, stdin=stdin)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, (args, result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert len(lines) == 1, (args, result.stderr)
    assert lines[0].startswith("sizer-agent "), lines[0]
    assert needle.lower() in lines[0].lower(), (needle, lines[0])
    assert space.snapshot() == before, "a refused input changed, created or left a file"
    return lines[0]
