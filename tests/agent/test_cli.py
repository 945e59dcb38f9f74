"""`sizer-agent sessions ...` and `sizer-agent intake ...` run as real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]

COMPLETE = {
    "customer": "Acme", "lang": "en", "use_case": "online_serving", "model": "Llama 3.1 8B Instruct",
    "precision": "fp8", "context_len": "8k", "input_len": "2k", "output_len": 512, "concurrency": 32,
    "growth_factor": "x2", "ttft_ms": "500 ms", "tpot_ms": "I don't know", "framework": "vllm",
    "framework_version": "0.11.0", "num_gpus": 1, "deployment": "server", "ecc_required": "yes",
    "budget_eur": "no limit", "power_limit_w": "3 kW", "rack_units": 4,
}


def cli(*args: str, db: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sizer_agent", *args], cwd=ROOT, capture_output=True, text=True, input=stdin,
        env={"PYTHONPATH": str(ROOT), "SIZER_AGENT_DB": str(db), "PATH": "/usr/bin:/bin"}, timeout=60,
    )


def test_intake_stores_a_session_and_sessions_commands_read_it(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    answers = tmp_path / "answers.yaml"
    answers.write_text(yaml.safe_dump(COMPLETE))
    result = cli("intake", "--answers", str(answers), "--json", db=db)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["ok"] and out["session_id"] == 1 and out["assumed"] == ["tpot_ms"]
    assert out["profile"]["context_len"] == 8192 and out["profile"]["budget_eur"] is None
    assert out["profile"]["power_limit_w"] == 3000.0

    second = tmp_path / "second.json"
    second.write_text(json.dumps({**COMPLETE, "customer": "Globex"}))
    assert cli("intake", "--answers", str(second), db=db).returncode == 0

    listing = json.loads(cli("sessions", "list", "--json", db=db).stdout)
    assert [(s["id"], s["title"]) for s in listing] == [(1, "Acme"), (2, "Globex")]
    assert all({"id", "created", "title"} <= set(s) for s in listing)
    assert listing[0]["created"] <= listing[1]["created"]

    shown = cli("sessions", "show", "1", db=db)
    assert shown.returncode == 0 and "8,192 tokens" in shown.stdout and "(assumed)" in shown.stdout

    exported = tmp_path / "one.json"
    assert cli("sessions", "export", "1", "-o", str(exported), db=db).returncode == 0
    data = json.loads(exported.read_text())
    assert data["format"] == "sizer-agent-session/1" and data["answers"]["tpot_ms"]["assumed"] is True

    other_db = tmp_path / "other.db"
    imported = cli("sessions", "import", str(exported), "--json", db=other_db)
    assert imported.returncode == 0 and json.loads(imported.stdout) == {"id": 1}
    again = json.loads(cli("sessions", "show", "1", "--json", db=other_db).stdout)
    assert again["answers"] == data["answers"]

    assert cli("sessions", "delete", "1", db=db).returncode == 0
    assert [s["id"] for s in json.loads(cli("sessions", "list", "--json", db=db).stdout)] == [2]
    missing = cli("sessions", "show", "1", db=db)
    assert missing.returncode == 2 and "no session 1" in missing.stderr and "Traceback" not in missing.stderr


def test_intake_lists_every_problem_at_once_and_stores_nothing(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    answers = tmp_path / "bad.yaml"
    answers.write_text(yaml.safe_dump({"use_case": "finetune_lora", "model": "Mistral 7B", "concurrency": -3,
                                       "context_len": "beaucoup", "colour": "blue"}))
    result = cli("intake", "--answers", str(answers), db=db)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    for needle in ("context_len: invalid", "colour: unknown_field", "concurrency: invalid",
                   "optimizer: missing", "customer: missing", "nothing stored"):
        assert needle in result.stderr, needle
    listing = json.loads(cli("sessions", "list", "--json", db=db).stdout)
    assert listing == []

    as_json = json.loads(cli("intake", "--answers", str(answers), "--json", db=db).stdout)
    assert not as_json["ok"] and as_json["session_id"] is None
    assert {p["field"] for p in as_json["problems"]} >= {"context_len", "colour", "concurrency", "optimizer"}


def test_corrupted_database_is_one_clear_line(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    db.write_bytes(b"this is not a database at all" * 100)
    result = cli("sessions", "list", db=db)
    assert result.returncode == 1
    assert "unreadable" in result.stderr and "left untouched" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert db.read_bytes() == b"this is not a database at all" * 100


def test_bad_import_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "other"}')
    result = cli("sessions", "import", str(bad), db=db)
    assert result.returncode == 2 and "not a session export" in result.stderr
    bad.write_text("{oops")
    assert cli("sessions", "import", str(bad), db=db).returncode == 2


def test_salvage_command(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.db"
    answers = tmp_path / "answers.yaml"
    answers.write_text(yaml.safe_dump(COMPLETE))
    assert cli("intake", "--answers", str(answers), db=damaged).returncode == 0
    raw = bytearray(damaged.read_bytes())
    raw[0:16] = b"not sqlite at al"
    damaged.write_bytes(bytes(raw))
    listed = cli("sessions", "list", db=damaged)
    assert listed.returncode == 1 and "sessions salvage" in listed.stderr
    raw[0:16] = b"SQLite format 3\x00"  # the header is back, the application id check still passes
    damaged.write_bytes(bytes(raw))
    fresh = tmp_path / "fresh.db"
    result = cli("sessions", "salvage", str(damaged), "--db", str(fresh), db=tmp_path / "unused.db")
    assert result.returncode == 0, result.stderr
    assert "-> session 1" in result.stdout
    assert json.loads(cli("sessions", "list", "--json", db=fresh).stdout)[0]["title"] == "Acme"


def test_a_stored_session_feeds_the_proposal(tmp_path: Path) -> None:
    """The contract with the proposal renderer: `propose ID --db` reads what `intake` stored."""
    import importlib.util

    import pytest

    if importlib.util.find_spec("sizer_agent.proposal") is None:
        pytest.skip("the proposal renderer is not in this checkout")
    db = tmp_path / "s.db"
    answers = tmp_path / "answers.yaml"
    answers.write_text(yaml.safe_dump(COMPLETE))
    assert cli("intake", "--answers", str(answers), db=db).returncode == 0
    out = tmp_path / "proposal.md"
    result = cli("propose", "1", "--db", str(db), "-o", str(out), db=db)
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert "Acme" in text and "8k" in text  # the answer as it was said


def test_cli_store_env_name_matches_the_store() -> None:
    """The CLI names the variable without importing the store (start-up time); both must agree."""
    from sizer_agent.cli.commands import _store_args
    from sizer_agent.store import ENV_DB

    assert _store_args.ENV_DB == ENV_DB
