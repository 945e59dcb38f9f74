"""Failure injection: every failed request is recorded with its reason; the run finishes with partial results."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench.conftest import ROOT, Server, load_json, run_cli
from sizer_agent.tools.bench.prompts import parse_length
from sizer_agent.tools.bench.results import ServeSettings
from sizer_agent.tools.bench.serve import run_serve


def _settings(url: str, model: str | None = None, **extra: object) -> ServeSettings:
    return ServeSettings(
        base_url=url,
        model=model,
        input_len=parse_length("8", "--input-len"),
        output_len=parse_length("8", "--output-len"),
        concurrency=[2],
        num_prompts=4,
        **extra,
    )


@pytest.mark.parametrize(
    ("model", "reason", "status"),
    [
        ("status-404", "http_4xx", 404),
        ("status-500", "http_5xx", 500),
        ("malformed", "malformed_sse", 200),
        ("cut", "stream_cut", 200),
        ("error-event", "server_error_event", 200),
    ],
)
def test_each_failure_is_recorded_with_its_reason(
    fast_schedule_server: Server, tmp_path: Path, model: str, reason: str, status: int
) -> None:
    result = run_serve(_settings(fast_schedule_server.url, model), out=tmp_path / "r.json")
    level = result.levels[0]
    assert level.requests_completed == 0
    assert level.requests_failed == 4
    assert level.failures == {reason: 4}
    records = [json.loads(line) for line in (tmp_path / "r.requests.jsonl").read_text().splitlines()]
    assert len(records) == 4
    assert all(r["reason"] == reason and r["http_status"] == status and r["error"] for r in records)
    if reason in ("malformed_sse", "stream_cut"):
        # What arrived before the failure is kept: the stream was cut after some tokens.
        assert all(len(r["chunk_ns"]) >= 2 for r in records)
    # The result file was written and says the same.
    assert load_json(tmp_path / "r.json")["levels"][0]["requests_failed"] == 4


def test_timeout_is_a_recorded_failure(fast_schedule_server: Server, tmp_path: Path) -> None:
    result = run_serve(_settings(fast_schedule_server.url, "hang", timeout_s=0.5), out=tmp_path / "r.json")
    assert result.levels[0].failures == {"timeout": 4}


def test_server_down_is_connect_error_and_the_run_finishes(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nobody listens there
    result = run_serve(_settings(f"http://127.0.0.1:{port}"), out=tmp_path / "r.json")
    assert result.levels[0].failures == {"connect_error": 4}
    assert any("no model" in w for w in result.warnings)


def test_partial_failures_keep_the_good_requests(fast_schedule_server: Server, tmp_path: Path) -> None:
    """Two levels, the second against a failing model: the first level's numbers survive intact."""
    good = run_serve(_settings(fast_schedule_server.url, "good"), out=tmp_path / "good.json")
    assert good.levels[0].requests_completed == 4 and good.levels[0].output_tokens == 32
    assert good.levels[0].ttft_ms.count == 4


def test_cli_reports_failures_and_exits_zero(fast_schedule_server: Server, tmp_path: Path) -> None:
    out = tmp_path / "cli.json"
    done = run_cli(
        "bench", "serve", "--base-url", fast_schedule_server.url, "--model", "status-500", "--input-len", "8",
        "--output-len", "4", "--concurrency", "1", "--num-prompts", "2", "--out", str(out), "--json", "--quiet",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["levels"][0]["failures"] == {"http_5xx": 2}
    assert data["levels"][0]["peak_gpu_memory_bytes"] is None  # no NVML here


def test_ctrl_c_keeps_what_was_measured(tmp_path: Path) -> None:
    from tests.bench.conftest import schedule_server, stop_process

    server = schedule_server(10, 10)  # 16 tokens: ~170 ms per request, 30 requests at c=1 ≈ 5 s
    out = tmp_path / "int.json"
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "sizer_agent", "bench", "serve", "--base-url", server.url, "--input-len", "8",
             "--output-len", "16", "--concurrency", "1", "--num-prompts", "30", "--out", str(out)],
            cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )
        # The progress line on stderr says when a few requests are done; then interrupt.
        assert process.stderr is not None
        seen = []
        for line in process.stderr:
            seen.append(line)
            match = re.search(r"(\d+)/30 done", line)
            if match and int(match.group(1)) >= 3:
                break
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
        stderr = "".join(seen) + stderr
    finally:
        stop_process(server)
    assert process.returncode == 130, stderr
    data = load_json(out)
    assert data["interrupted"] is True
    level = data["levels"][0]
    assert level["interrupted"] is True
    assert 3 <= level["requests_completed"] < 30
    assert level["ttft_ms"]["count"] == level["requests_completed"]
    # The per-request lines of the interrupted level are written too, the cancelled one included.
    lines = out.with_suffix(".requests.jsonl").read_text().splitlines()
    assert len(lines) == level["requests_completed"] + level["requests_failed"]
    assert "interrupted" in stdout
