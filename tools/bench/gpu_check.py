"""`bench all` (benchmarks/gpu_check.sh): every GPU path of `bench` in one command on a GPU host, one JSON.

Steps, each timed, each recorded as ok / failed (with the error) / skipped (with the reason), none stopping
the others: probe (NVML inventory), micro (GEMM per precision, HBM read/write/copy, host<->device),
collectives (all-reduce, all-gather, reduce-scatter over all GPUs of the node; needs 2+), a short sustained
GEMM run (NVML power, clocks, throttle reasons), a short LoRA training job in one process and the same
through torchrun with FSDP2 over every GPU (sharded checkpoint, bit-identical resume), and a vLLM launch with
a small model (needs vLLM and the model's weights, local or from the Hub).

`ratios` lists measured/spec for every number of seed 003's microbenchmark table: dense GEMM per precision
(gemm/peakTOPS), memory bandwidth (read, write, copy), host to device, device to host, chip-to-chip
networking (collective busbw vs the link), and the sustained run (sustained TFLOP/s vs spec and vs initial).
The defaults fit in about 10 minutes on one 8-GPU node (the vLLM start-up is the longest step).
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

Progress = Callable[[str], None]
STEPS = ("probe", "micro", "collectives", "sustain", "train", "train_distributed", "vllm")


class GpuCheckSettings(BaseModel):
    skip: list[str] = Field(default_factory=list)
    sustain_s: float = Field(60.0, gt=0)
    collectives_max_bytes: int = Field(256 << 20, ge=8)
    train_model: str = Field("meta-llama/Llama-3.2-3B", description="bundled config: nothing is downloaded")
    train_seq_len: int = 1024
    train_batch_size: int = 4
    vllm_model: str = "Qwen/Qwen2.5-0.5B-Instruct"
    vllm_python: str | None = None
    work_dir: Path = Path("bench-results/gpu-check")


class StepReport(BaseModel):
    name: str
    status: Literal["ok", "failed", "skipped"]
    seconds: float
    reason: str | None = None
    result: dict[str, Any] | None = None


class Ratio(BaseModel):
    benchmark: str = Field(description="row of seed 003's microbenchmark table")
    name: str
    measured: float
    spec: float | None
    unit: str
    ratio: float | None


class GpuCheckReport(BaseModel):
    kind: Literal["gpu_check"] = "gpu_check"
    schema_version: int = 1
    settings: GpuCheckSettings
    device_name: str | None
    gpu_count: int
    steps: list[StepReport]
    ratios: list[Ratio]
    ok: bool = Field(description="no step failed")


def _gpu_count() -> tuple[int, str | None]:
    try:
        import torch
    except ImportError:
        return 0, None
    if not torch.cuda.is_available():
        return 0, None
    return torch.cuda.device_count(), torch.cuda.get_device_name(0)


def run_gpu_check(settings: GpuCheckSettings, progress: Progress | None = None) -> GpuCheckReport:
    say = progress or (lambda _: None)
    count, name = _gpu_count()
    settings.work_dir.mkdir(parents=True, exist_ok=True)
    steps: list[StepReport] = []

    def step(label: str, run: Callable[[], BaseModel | None], needs: str | None = None) -> None:
        if label in settings.skip:
            steps.append(StepReport(name=label, status="skipped", seconds=0.0, reason="--skip"))
            return
        if needs is not None:
            steps.append(StepReport(name=label, status="skipped", seconds=0.0, reason=needs))
            return
        say(f"== {label}")
        start = time.perf_counter()
        try:
            result = run()
        except Exception as error:  # one failing step is reported, the others still run
            last = traceback.format_exception_only(type(error), error)[-1].strip()
            steps.append(StepReport(name=label, status="failed", seconds=time.perf_counter() - start, reason=last))
            say(f"   failed: {last}")
            return
        finally:
            _release_gpu_memory()  # the next step (or its torchrun ranks) gets the memory this one cached
        data = result.model_dump(mode="json") if result is not None else None
        problem = _verdict(data)
        steps.append(StepReport(name=label, status="failed" if problem else "ok",
                                seconds=time.perf_counter() - start, reason=problem, result=data))
        say(f"   {problem or 'ok'} in {steps[-1].seconds:.0f} s")

    no_gpu = None if count else "no CUDA GPU visible to PyTorch"
    step("probe", _probe)
    step("micro", _micro, no_gpu)
    step("collectives", lambda: _collectives(settings, count, progress),
         no_gpu or (None if count >= 2 else "one GPU: nothing to communicate with"))
    step("sustain", lambda: _sustain(settings), no_gpu)
    step("train", lambda: _train(settings), no_gpu)
    step("train_distributed", lambda: _train_distributed(settings, count), no_gpu)
    step("vllm", lambda: _vllm(settings, progress), no_gpu)
    return GpuCheckReport(settings=settings, device_name=name, gpu_count=count, steps=steps,
                          ratios=ratios(steps), ok=all(s.status != "failed" for s in steps))


def _verdict(data: dict[str, Any] | None) -> str | None:
    """What makes a step that ran a failed check: a resume that was not bit-identical, a wrong collective."""
    if data is None:
        return None
    if data.get("resume_ok") is False:
        return "resume after the checkpoint was not bit-identical"
    wrong = sum(int(p.get("wrong", 0)) for p in data.get("points", []))
    if wrong:
        return f"{wrong} wrong element(s) in the collectives' result checks"
    if data.get("available") is False:
        return f"nothing measured: {data.get('reason')}"
    return None


def _release_gpu_memory() -> None:
    import gc

    gc.collect()
    try:
        import torch
    except ImportError:
        return
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


def _probe() -> BaseModel:
    from sizer_agent.tools.bench.probe import probe

    return probe()


def _micro() -> BaseModel:
    from sizer_agent.tools.bench.micro import MicroSettings, run_micro

    return run_micro(MicroSettings())


def _collectives(settings: GpuCheckSettings, count: int, progress: Progress | None) -> BaseModel | None:
    from sizer_agent.tools.bench.collectives import CollectiveSettings, run_collectives
    from sizer_agent.tools.bench.torchrun import Launch

    return run_collectives(CollectiveSettings(max_bytes=settings.collectives_max_bytes, device="cuda"),
                           Launch(nproc_per_node=count, rdzv_id="gpu-check-collectives"), quiet=True)


def _sustain(settings: GpuCheckSettings) -> BaseModel:
    from sizer_agent.tools.bench.sustain import SustainSettings, run_sustain

    interval = max(1.0, settings.sustain_s / 12)
    samples = settings.work_dir / f"sustain-{int(time.time())}.samples.jsonl"
    return run_sustain(SustainSettings(duration_s=settings.sustain_s, sample_interval_s=interval,
                                       window_s=settings.sustain_s / 4, device="cuda:0"), samples)


def _train_settings(settings: GpuCheckSettings) -> Any:
    from sizer_agent.tools.bench.train import TrainSettings

    return TrainSettings(model=settings.train_model, method="lora", lora_rank=16, batch_size=settings.train_batch_size,
                         seq_len=settings.train_seq_len, steps=6, warmup_steps=2, dtype="bfloat16", device="cuda")


def _train(settings: GpuCheckSettings) -> BaseModel:
    from sizer_agent.tools.bench.train import run_train

    return run_train(_train_settings(settings))


def _train_distributed(settings: GpuCheckSettings, count: int) -> BaseModel | None:
    from sizer_agent.tools.bench.dist_train import DistSettings, run_dist_train

    return run_dist_train(_train_settings(settings), DistSettings(strategy="fsdp", nproc_per_node=count,
                                                                 rdzv_id="gpu-check-train"), quiet=True)


def _vllm(settings: GpuCheckSettings, progress: Progress | None) -> BaseModel:
    import sys

    from sizer_agent.tools.bench.prompts import parse_length
    from sizer_agent.tools.bench.results import ServeSettings
    from sizer_agent.tools.bench.vllm_launcher import LaunchSettings, launch_and_serve

    launch = LaunchSettings(model=settings.vllm_model, dtype="bfloat16", max_model_len=2048,
                            python=settings.vllm_python or sys.executable, startup_timeout_s=420.0)
    serve = ServeSettings(base_url="http://127.0.0.1:0", input_len=parse_length("512", "--input-len"),
                          output_len=parse_length("128", "--output-len"), concurrency=[1, 8], num_prompts=16)
    return launch_and_serve(launch, serve, out=settings.work_dir / f"vllm-{int(time.time())}.json",
                            progress=progress)


def _result(steps: list[StepReport], name: str) -> dict[str, Any] | None:
    found = next((s for s in steps if s.name == name and s.status == "ok"), None)
    return found.result if found is not None else None


def ratios(steps: list[StepReport]) -> list[Ratio]:
    """measured/spec for each row of seed 003's microbenchmark table that was measured."""
    rows: list[Ratio] = []
    rows_for = {"gemm_": "dense GEMM (gemm/peakTOPS)", "memory_read": "HBM streaming (read)",
                "memory_write": "HBM streaming (write)", "device_copy": "HBM streaming (copy)",
                "host_to_device": "host to device (H2D)", "device_to_host": "device to host (D2H)",
                "all_reduce_busbw": "chip-to-chip networking (all-reduce, micro)"}
    micro = _result(steps, "micro")
    for m in (micro or {}).get("measurements", []):
        row = next((label for prefix, label in rows_for.items() if m["name"].startswith(prefix)), None)
        if row is not None:
            rows.append(Ratio(benchmark=row, name=m["name"], measured=m["value"], spec=m["spec"], unit=m["unit"],
                              ratio=m["ratio"]))
    collectives = _result(steps, "collectives")
    if collectives is not None:
        for op, peak in collectives["peak_busbw_gbs"].items():
            rows.append(Ratio(benchmark=f"chip-to-chip networking ({op.replace('_', '-')})", name=f"{op}_busbw",
                              measured=peak, spec=collectives["link"]["gbs"], unit="GB/s",
                              ratio=collectives["ratio"][op]))
    sustain = _result(steps, "sustain")
    if sustain is not None:
        label = "sustained throttling and power"
        rows.append(Ratio(benchmark=label, name="sustained_tflops", measured=sustain["sustained_tflops"],
                          spec=sustain["spec_tflops"], unit="TFLOP/s", ratio=sustain["sustained_over_spec"]))
        rows.append(Ratio(benchmark=label, name="sustained_over_initial", measured=sustain["sustained_tflops"],
                          spec=sustain["initial_tflops"], unit="TFLOP/s (spec = initial)",
                          ratio=sustain["sustained_over_initial"]))
    return rows
