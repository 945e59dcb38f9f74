"""Our serving client against vLLM's benchmark client (`vllm bench serve`), same local server, one core each.

The server is tests/bench/schedule_server.py: every stream emits one token per ITL after a fixed TTFT, so
the best possible throughput is known (concurrency × tokens / request duration) and every client is scored
against it: events/s achieved, share of the ideal, mean TTFT and ITL against the schedule. The server runs
pinned to one core and logs its own lateness; each client runs pinned to the other core.

    python benchmarks/bench_serve_client.py                       # 1000 streams x 64 tokens, ideal 21 600 events/s
    python benchmarks/bench_serve_client.py --vllm-python .venv-vllm/bin/python
    python benchmarks/bench_serve_client.py --output-len 20       # short answers: 3x the request turnover

Short fixed-length answers make the closed loop turn over in waves (every stream ends within one ITL of the
others), so the client's per-request work arrives in bursts; the self-check says when that made it lag.

vLLM's client comes from the vLLM venv ($SIZER_VLLM_PYTHON or --vllm-python); without it only ours runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.bench.tiny_hf_model import write_tiny_hf_model  # noqa: E402

VLLM_BENCH = (
    "import sys\n"
    "from vllm.utils.argparse_utils import FlexibleArgumentParser\n"
    "from vllm.benchmarks.serve import add_cli_args, main\n"
    "parser = FlexibleArgumentParser(); add_cli_args(parser); main(parser.parse_args(sys.argv[1:]))\n"
)


def _pin(core: int) -> Any:
    def apply() -> None:
        if hasattr(os, "sched_setaffinity") and core < (os.cpu_count() or 1):
            os.sched_setaffinity(0, {core})

    return apply


def start_server(ttft_ms: float, itl_ms: float, stagger: int, core: int) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "tests/bench/schedule_server.py"), "--ttft-ms", str(ttft_ms),
         "--itl-ms", str(itl_ms), "--stagger", str(stagger)],
        stdout=subprocess.PIPE, text=True, preexec_fn=_pin(core),
    )
    assert process.stdout is not None
    port = int(process.stdout.readline().split()[1])
    return process, f"http://127.0.0.1:{port}"


def server_log(url: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(url + "/_log", timeout=60).json()
    return data


def arrival_errors(requests_path: Path, log: dict[str, Any]) -> dict[str, float]:
    """Our stamp of every token minus the server's write of it: both processes read CLOCK_MONOTONIC, so
    this is the client's own timing error per event (the server logs when it really wrote each token)."""
    written = {entry["id"]: entry for entry in log["requests"]}
    errors: list[float] = []
    for line in requests_path.read_text().splitlines():
        record = json.loads(line)
        entry = written.get(record.get("response_id"))
        if entry is None or record["status"] != "ok":
            continue
        for i, (stamp, late) in enumerate(zip(record["chunk_ns"], entry["lateness_ns"], strict=False)):
            errors.append((stamp - (entry["first_due_ns"] + i * entry["itl_ns"] + late)) / 1e6)
    errors.sort()
    if not errors:
        return {"events": 0}
    return {"events": len(errors), **{f"p{q}": errors[min(len(errors) - 1, int(len(errors) * q / 100))]
                                      for q in (50, 99)}}


def run_ours(url: str, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "sizer_agent", "bench", "serve", "--base-url", url, "--input-len", "16",
         "--output-len", str(args.output_len), "--concurrency", str(args.concurrency), "--num-prompts",
         str(args.prompts), "--out", str(out), "--quiet", "--timeout", "120"],
        check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=_pin(0),
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    level = json.loads(out.read_text())["levels"][0]
    return {
        "client": "sizer-agent bench serve",
        "completed": level["requests_completed"],
        "output_tokens": level["output_tokens"],
        "window_s": level["window_s"],
        "events_per_s": level["output_tokens_per_s"],
        "ttft_mean_ms": level["ttft_ms"]["mean"],
        "itl_mean_ms": level["itl_ms"]["mean"],
        "client_cpu": level["client_cpu_fraction"],
        "client_lagged": level["client_lagged"],
        "lag_reasons": level["client_lag_reasons"],
        "dispatch_p99_ms": level["dispatch_delay_ms"]["p99"],
        "loop_lag_p99_ms": level["event_loop_lag_ms"]["p99"],
        "arrival_stamps": level["arrival_stamps"],
        "process_wall_s": wall,
    }


def run_vllm(url: str, args: argparse.Namespace, tokenizer: Path, out_dir: Path) -> dict[str, Any] | None:
    python = args.vllm_python or os.environ.get("SIZER_VLLM_PYTHON")
    if not python or not Path(python).exists():
        print("vLLM interpreter not found: only our client runs (set --vllm-python)", file=sys.stderr)
        return None
    start = time.perf_counter()
    subprocess.run(
        [python, "-c", VLLM_BENCH, "--backend", "openai", "--base-url", url, "--endpoint", "/v1/completions",
         "--model", "schedule", "--tokenizer", str(tokenizer), "--dataset-name", "random",
         "--random-input-len", "16", "--random-output-len", str(args.output_len), "--num-prompts",
         str(args.prompts), "--max-concurrency", str(args.concurrency), "--request-rate", "inf", "--ignore-eos",
         "--save-result", "--result-dir", str(out_dir), "--result-filename", "vllm.json", "--disable-tqdm",
         "--percentile-metrics", "ttft,tpot,itl,e2el"],
        check=True, preexec_fn=_pin(0), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "VLLM_NO_USAGE_STATS": "1", "HF_HUB_OFFLINE": "1"},
    )
    wall = time.perf_counter() - start
    data = json.loads((out_dir / "vllm.json").read_text())
    return {
        "client": "vllm bench serve",
        "completed": data["completed"],
        "output_tokens": data["total_output_tokens"],
        "window_s": data["duration"],
        "events_per_s": data["output_throughput"],
        "ttft_mean_ms": data["mean_ttft_ms"],
        "itl_mean_ms": data["mean_itl_ms"],
        "client_cpu": None,
        "client_lagged": None,
        "lag_reasons": [],
        "process_wall_s": wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--concurrency", type=int, default=1000)
    parser.add_argument("--prompts", type=int, default=3000)
    parser.add_argument("--ttft-ms", type=float, default=100.0)
    parser.add_argument("--itl-ms", type=float, default=45.0)
    parser.add_argument("--output-len", type=int, default=64)
    parser.add_argument("--vllm-python")
    args = parser.parse_args()

    # Best case: each request lasts TTFT + mean phase (ITL/2) + (L−1)·ITL and yields L tokens.
    request_s = (args.ttft_ms + args.itl_ms / 2 + (args.output_len - 1) * args.itl_ms) / 1e3
    ideal = args.concurrency * args.output_len / request_s
    scheduled_ttft = args.ttft_ms + args.itl_ms / 2
    print(f"schedule: {args.concurrency} streams, TTFT {args.ttft_ms:g} ms + phase, ITL {args.itl_ms:g} ms, "
          f"{args.output_len} tokens: ideal {ideal:,.0f} events/s")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        tokenizer = write_tiny_hf_model(work / "tokenizer")
        for runner in ("ours", "vllm"):
            server, url = start_server(args.ttft_ms, args.itl_ms, args.concurrency, core=1)
            try:
                row = (run_ours(url, args, work / "ours.json") if runner == "ours"
                       else run_vllm(url, args, tokenizer, work))
                if row is not None:
                    log = server_log(url)
                    row["server_lateness"] = log["summary"]
                    if runner == "ours":
                        row["arrival_error"] = arrival_errors(work / "ours.requests.jsonl", log)
                    rows.append(row)
            finally:
                server.terminate()
                server.wait()
    print(f"{'client':<26} {'done':>6} {'events/s':>10} {'of ideal':>9} {'TTFT mean':>10} {'(sched)':>8} "
          f"{'ITL mean':>9} {'server late p50/p99 ms':>24}")
    for row in rows:
        late = row["server_lateness"]
        print(f"{row['client']:<26} {row['completed']:>6} {row['events_per_s']:>10,.0f} "
              f"{row['events_per_s'] / ideal:>9.0%} {row['ttft_mean_ms']:>10.1f} {scheduled_ttft:>8.1f} "
              f"{row['itl_mean_ms']:>9.1f} {late['p50_ms']:>11.2f} / {late['p99_ms']:<10.2f}")
        if row.get("arrival_error", {}).get("events"):
            error = row["arrival_error"]
            print(f"  arrival stamp − server's write, {error['events']:,} events: p50 {error['p50']:.2f} ms, "
                  f"p99 {error['p99']:.2f} ms")
        if row.get("client_cpu") is not None:
            verdict = f"LAGGED: {'; '.join(row['lag_reasons'])}" if row["client_lagged"] else "did not lag"
            print(f"  self-check: {verdict}; CPU {row['client_cpu']:.0%} of one core, dispatch delay p99 "
                  f"{row['dispatch_p99_ms']:.1f} ms, event-loop lag p99 {row['loop_lag_p99_ms']:.1f} ms, "
                  f"arrival stamps: {row['arrival_stamps']}")
    if len(rows) == 2:
        ours, theirs = rows
        print(f"ratio ours / vLLM: events/s {ours['events_per_s'] / theirs['events_per_s']:.2f}, TTFT error "
              f"{ours['ttft_mean_ms'] - scheduled_ttft:+.1f} ms vs {theirs['ttft_mean_ms'] - scheduled_ttft:+.1f} ms")


if __name__ == "__main__":
    main()
