"""Real servers on 127.0.0.1 for the benchmark tests: a schedule server, llama.cpp, and (marker) vLLM."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@dataclass
class Server:
    url: str
    process: subprocess.Popen[str]


def start_process(args: list[str], timeout_s: float = 30.0) -> Server:
    """Start a helper server that prints `PORT n`; fail (never skip) if it does not come up."""
    process = subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT
    )
    assert process.stdout is not None
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if line.startswith("PORT "):
            url = f"http://127.0.0.1:{int(line.split()[1])}"
            _wait_health(url, deadline)
            return Server(url, process)
        if not line and process.poll() is not None:
            break
    process.kill()
    raise RuntimeError(f"server did not start: {args}")


def _wait_health(url: str, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{url}/health never answered")


def stop_process(server: Server) -> None:
    if server.process.stdin is not None:
        server.process.stdin.close()
    server.process.terminate()
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.process.kill()


def schedule_server(ttft_ms: float, itl_ms: float, stagger: int = 1) -> Server:
    return start_process(
        [sys.executable, str(HERE / "schedule_server.py"), "--ttft-ms", str(ttft_ms), "--itl-ms", str(itl_ms),
         "--stagger", str(stagger)]
    )


@pytest.fixture(scope="module")
def fast_schedule_server() -> Iterator[Server]:
    """Tokens 20 ms apart after 30 ms: for failure injection and CLI behaviour."""
    server = schedule_server(30, 5)
    yield server
    stop_process(server)


@pytest.fixture(scope="session")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.bench.tiny_gguf import write_tiny_gguf

    return write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "tiny.gguf")


@pytest.fixture(scope="session")
def llama_server(tiny_gguf: Path) -> Iterator[Server]:
    server = start_process([sys.executable, str(HERE / "llama_server.py"), str(tiny_gguf), "4"])
    yield server
    stop_process(server)


def run_cli(*args: str, timeout: float = 120.0, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "sizer_agent", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=full_env,
        timeout=timeout,
    )


def load_json(path: Path) -> dict:
    return json.loads(path.read_text())


def assert_tpot_from_own_stamps(record: dict) -> None:
    """A request's TPOT is its own (last token - first token) / (tokens - 1), from its chunk stamps: it may be 0
    when a loaded server wrote a tiny model's tokens at once, so servers' tests check this, never TPOT > 0."""
    stamps = record["chunk_ns"]
    assert stamps == sorted(stamps) and record["first_token_ns"] == stamps[0]
    expected = (record["end_ns"] - record["first_token_ns"]) / 1e6 / (record["output_tokens"] - 1)
    assert abs(record["tpot_ms"] - expected) < 1e-6
