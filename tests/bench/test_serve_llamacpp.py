"""`bench serve` against a real llama.cpp server (xllamacpp) with a tiny random GGUF, on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bench.conftest import Server, assert_tpot_from_own_stamps, load_json, run_cli

LEVEL_KEYS = {
    "concurrency", "requests_completed", "requests_failed", "ttft_ms", "itl_ms", "tpot_ms", "e2e_ms",
    "output_tokens_per_s", "total_tokens_per_s", "goodput_rps", "client_lagged", "peak_gpu_memory_bytes",
}


def test_completions_levels_exact_lengths_and_schema(llama_server: Server, tmp_path: Path) -> None:
    out = tmp_path / "llama.json"
    done = run_cli(
        "bench", "serve", "--base-url", llama_server.url, "--input-len", "24", "--output-len", "12",
        "--concurrency", "1,4", "--num-prompts", "8", "--warmup", "2", "--out", str(out), "--json",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data == load_json(out)
    assert data["server"]["engine"] == "llama.cpp" and data["server"]["tokenize_endpoint"] is True
    assert data["settings"]["model"] == data["server"]["models"][0]
    assert [level["concurrency"] for level in data["levels"]] == [1, 4]
    for level in data["levels"]:
        assert level.keys() >= LEVEL_KEYS
        assert level["requests_completed"] == 8 and level["requests_failed"] == 0
        # ignore_eos: exactly the asked output; /tokenize: exactly the asked prompt (server's own count).
        assert level["output_tokens"] == 8 * 12
        assert level["input_tokens"] == 8 * 24
        assert level["prompt_len_mismatch_requests"] == 0
        for metric in ("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms"):
            stats = level[metric]
            assert set(stats) >= {"mean", "p50", "p90", "p99"}
            assert 0 <= stats["p50"] <= stats["p90"] <= stats["p99"]
        # ITL and TPOT may be 0: the tiny model makes 12 tokens in well under a millisecond, and llama.cpp's
        # HTTP thread, descheduled on a loaded machine, can write them all at once (one arrival stamp).
        # TTFT and E2E always include a request's round trip.
        assert level["ttft_ms"]["p50"] > 0 and level["e2e_ms"]["p50"] > 0
        assert level["e2e_ms"]["p50"] >= level["ttft_ms"]["p50"]
        assert level["output_tokens_per_s"] > 0
        assert level["total_tokens_per_s"] > level["output_tokens_per_s"]
        assert level["peak_gpu_memory_bytes"] is None
    requests = (tmp_path / "llama.requests.jsonl").read_text().splitlines()
    assert len(requests) == 16
    first = json.loads(requests[0])
    assert first["output_tokens"] == 12 and first["output_tokens_source"] == "usage"
    # Each request's TPOT is its own stamps' (last chunk - first chunk) / (tokens - 1), and the level's
    # TPOT statistics are those of its requests.
    records = [json.loads(line) for line in requests]
    for record in records:
        assert record["end_ns"] == record["chunk_ns"][-1]
        assert_tpot_from_own_stamps(record)
    for level, chunk in zip(data["levels"], (records[:8], records[8:]), strict=True):
        mean = sum(record["tpot_ms"] for record in chunk) / len(chunk)
        assert abs(level["tpot_ms"]["mean"] - mean) < 1e-6
    assert "progress" not in done.stdout and "level 1" in done.stderr  # progress goes to stderr


def test_chat_endpoint_and_table(llama_server: Server, tmp_path: Path) -> None:
    done = run_cli(
        "bench", "serve", "--base-url", llama_server.url, "--endpoint", "chat", "--input-len", "16:32",
        "--output-len", "4:8", "--concurrency", "2", "--num-prompts", "6", "--out", str(tmp_path / "c.json"),
        "--quiet",
    )
    assert done.returncode == 0, done.stderr
    assert "TTFT p50" in done.stdout and "results:" in done.stdout
    level = load_json(tmp_path / "c.json")["levels"][0]
    assert level["requests_completed"] == 6
    assert 6 * 4 <= level["output_tokens"] <= 6 * 8


def test_sweep_finds_the_largest_concurrency_meeting_the_sla(llama_server: Server, tmp_path: Path) -> None:
    """A generous SLA holds at every level up to the bound, so the sweep doubles 1 → 2 → 4 and stops."""
    out = tmp_path / "sweep.json"
    done = run_cli(
        "bench", "serve", "--base-url", llama_server.url, "--input-len", "16", "--output-len", "8",
        "--sweep", "--max-concurrency", "4", "--slo-ttft-ms", "20000", "--slo-tpot-ms", "5000",
        "--max-dispatch-delay-ms", "100",
        "--num-prompts", "6", "--out", str(out), "--quiet",
    )
    assert done.returncode == 0, done.stderr
    data = load_json(out)
    assert [step["concurrency"] for step in data["sweep"]] == [1, 2, 4]
    assert all(step["passed"] for step in data["sweep"])
    assert data["sla_max_concurrency"] == 4
    assert all(level["slo_attainment"] == 1.0 and level["sla_passed"] for level in data["levels"])


def test_sweep_with_an_impossible_sla_reports_none(llama_server: Server, tmp_path: Path) -> None:
    out = tmp_path / "none.json"
    done = run_cli(
        "bench", "serve", "--base-url", llama_server.url, "--input-len", "16", "--output-len", "8",
        "--sweep", "--slo-ttft-ms", "0.001", "--num-prompts", "3", "--out", str(out), "--quiet",
    )
    assert done.returncode == 0, done.stderr
    data = load_json(out)
    assert data["sla_max_concurrency"] is None
    assert data["sweep"] == [{"concurrency": 1, "passed": False, "level": 0}]
    assert data["levels"][0]["goodput_rps"] == 0


def test_open_loop_poisson(llama_server: Server, tmp_path: Path) -> None:
    out = tmp_path / "open.json"
    done = run_cli(
        "bench", "serve", "--base-url", llama_server.url, "--input-len", "16", "--output-len", "4",
        "--request-rate", "20", "--num-prompts", "10", "--out", str(out), "--quiet",
    )
    assert done.returncode == 0, done.stderr
    level = load_json(out)["levels"][0]
    records = (tmp_path / "open.requests.jsonl").read_text()
    assert level["request_rate"] == 20 and level["requests_completed"] == 10, (level, records)


def test_bad_input_is_one_line_exit_2() -> None:
    done = run_cli("bench", "serve", "--input-len", "10:5")
    assert done.returncode == 2
    assert "--input-len" in done.stderr and "Traceback" not in done.stderr
    done = run_cli("bench", "serve", "--sweep")
    assert done.returncode == 2 and "--slo-ttft-ms" in done.stderr
