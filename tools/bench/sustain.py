"""`bench micro --sustain DURATION`: a GEMM loop at full load for minutes to days while NVML samples power,
temperature, SM and memory clocks and the clock-event (throttle) reasons: seed 003's "sustained thermal
throttling and power" microbenchmark (a GEMM loop at full utilisation for 48 hours with power monitored).

Every --sample-interval the loop synchronises the device and records one sample: TFLOP/s of the GEMMs
finished since the previous sample (2·n³ each), and NVML's power draw, GPU temperature, SM and memory
clocks, the clock-event reason bits and the energy counter's increase. Samples are appended to a JSONL
file (one header line, then one line per sample, flushed each time): Ctrl-C or SIGTERM stops at the next
GEMM and keeps everything; `--resume` continues the same file up to the planned duration.

Reported: initial TFLOP/s (median over the first --window seconds) and sustained TFLOP/s (median over the
last window) and their ratio; the SM clock the same way and its drop; throttle events (runs of samples with
the same non-idle reason bits) with their causes and durations; energy (NVML total-energy counter, else power
integrated over time), mean power and TFLOP/s per watt.

Reason bits: NVML API reference, nvmlClocksEventReasons (nvml.h; the same values as the older
nvmlClocksThrottleReasons), as nvidia-ml-py 12 names them.
"""

from __future__ import annotations

import json
import signal
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any, Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.bench.nvml import _safe, nvml_init
from sizer_agent.tools.bench.train import resolve_device
from sizer_agent.tools.errors import InputError

Progress = Callable[[str], None]
Precision = Literal["fp32", "tf32", "bf16", "fp16"]

# nvmlClocksEventReasons bits (nvml.h); GpuIdle is not a slowdown under load and is left out of events.
REASON_BITS: dict[int, str] = {
    0x1: "gpu_idle",
    0x2: "applications_clocks_setting",
    0x4: "sw_power_cap",
    0x8: "hw_slowdown",
    0x10: "sync_boost",
    0x20: "sw_thermal_slowdown",
    0x40: "hw_thermal_slowdown",
    0x80: "hw_power_brake_slowdown",
    0x100: "display_clock_setting",
}
_IDLE = 0x1
_THERMAL = 0x20 | 0x40
_POWER = 0x4 | 0x80


def decode_reasons(mask: int) -> list[str]:
    """Names of the set bits; an unknown bit shows as its hex value."""
    names = [name for bit, name in REASON_BITS.items() if mask & bit]
    unknown = mask & ~sum(REASON_BITS)
    return names + ([f"unknown_0x{unknown:x}"] if unknown else [])


def cause(mask: int) -> str:
    """thermal, power, hardware, or other: what a person acts on."""
    if mask & _THERMAL:
        return "thermal"
    if mask & _POWER:
        return "power"
    if mask & 0x8:
        return "hardware"
    return "other"


class SustainSettings(BaseModel):
    duration_s: float = Field(gt=0, description="planned length of the run (all segments of a resumed run)")
    gemm_size: int = Field(8192, ge=16)
    precision: Precision = "bf16"
    sample_interval_s: float = Field(10.0, gt=0)
    window_s: float = Field(60.0, gt=0, description="initial and final windows of the sustained/initial ratio")
    device: str = Field("auto", description="auto, cpu, cuda, cuda:N")
    nvml_index: int | None = Field(None, ge=0, description="GPU NVML samples (default: the CUDA device; CPU: none)")


class SustainSample(BaseModel):
    t_s: float = Field(description="seconds since the start of the run (resumed segments continue the clock)")
    segment: int
    gemms: int
    tflops: float
    power_w: float | None = None
    temperature_c: float | None = None
    sm_clock_mhz: float | None = None
    memory_clock_mhz: float | None = None
    reasons_mask: int | None = None
    energy_j: float | None = Field(None, description="energy since the previous sample (NVML counter)")


class ThrottleEvent(BaseModel):
    start_s: float
    end_s: float
    samples: int
    reasons_mask: int
    reasons: list[str]
    cause: str
    min_sm_clock_mhz: float | None = None


class SustainResult(BaseModel):
    kind: Literal["sustain"] = "sustain"
    schema_version: int = 1
    settings: SustainSettings
    device: str
    device_name: str | None = None
    torch_version: str
    nvml: bool
    nvml_error: str | None = None
    samples_file: str
    segments: int
    interrupted: bool
    duration_s: float
    samples: int
    spec_tflops: float | None = None
    tdp_w: float | None = None
    initial_tflops: float
    sustained_tflops: float
    sustained_over_initial: float
    min_tflops: float
    sustained_over_spec: float | None = None
    initial_sm_clock_mhz: float | None = None
    final_sm_clock_mhz: float | None = None
    min_sm_clock_mhz: float | None = None
    sm_clock_drop: float | None = Field(None, description="1 - final / initial SM clock")
    max_temperature_c: float | None = None
    throttle_events: list[ThrottleEvent]
    throttled_s_by_cause: dict[str, float]
    energy_j: float | None = None
    energy_source: str | None = None
    mean_power_w: float | None = None
    tflops_per_watt: float | None = None


# ---------------------------------------------------------------- NVML sampling


class _NvmlProbe:
    """Reads one GPU's power, temperature, clocks, reasons and energy; every field None when unsupported."""

    def __init__(self, index: int | None) -> None:
        self.nvml: ModuleType | None = None
        self.error: str | None = None
        self.handle: Any = None
        self._energy_mj: float | None = None
        if index is None:
            self.error = "no GPU to sample (CPU run without --nvml-index)"
            return
        self.nvml, self.error = nvml_init()
        if self.nvml is not None:
            handle = _safe(self.nvml, lambda: self.nvml.nvmlDeviceGetHandleByIndex(index) if self.nvml else None)
            if handle is None:
                self.error, self.nvml = f"NVML has no GPU {index}", None
            self.handle = handle
        if self.nvml is not None:
            self._energy_mj = self._energy()

    def _energy(self) -> float | None:
        nvml = self.nvml
        assert nvml is not None
        value = _safe(nvml, lambda: nvml.nvmlDeviceGetTotalEnergyConsumption(self.handle))
        return float(value) if isinstance(value, int | float) else None

    def _reasons(self) -> int | None:
        nvml = self.nvml
        assert nvml is not None
        call = getattr(nvml, "nvmlDeviceGetCurrentClocksEventReasons", None) or \
            nvml.nvmlDeviceGetCurrentClocksThrottleReasons
        value = _safe(nvml, lambda: call(self.handle))
        return int(value) if isinstance(value, int) else None

    def read(self) -> dict[str, float | int | None]:
        nvml = self.nvml
        if nvml is None:
            return {}
        handle = self.handle

        def number(call: Callable[[], Any], scale: float = 1.0) -> float | None:
            value = _safe(nvml, call)
            return float(value) / scale if isinstance(value, int | float) else None

        reasons = self._reasons()  # first: the bits that explain the clocks read just after
        energy = self._energy()
        delta = None
        if energy is not None and self._energy_mj is not None:
            delta = (energy - self._energy_mj) / 1e3
        self._energy_mj = energy
        return {
            "power_w": number(lambda: nvml.nvmlDeviceGetPowerUsage(handle), 1e3),
            "temperature_c": number(lambda: nvml.nvmlDeviceGetTemperature(handle, nvml.NVML_TEMPERATURE_GPU)),
            "sm_clock_mhz": number(lambda: nvml.nvmlDeviceGetClockInfo(handle, nvml.NVML_CLOCK_SM)),
            "memory_clock_mhz": number(lambda: nvml.nvmlDeviceGetClockInfo(handle, nvml.NVML_CLOCK_MEM)),
            "reasons_mask": reasons,
            "energy_j": delta,
        }

    def close(self) -> None:
        if self.nvml is not None:
            _safe(self.nvml, self.nvml.nvmlShutdown)
            self.nvml = None


# ---------------------------------------------------------------- the loop


@contextmanager
def _stop_on_signals() -> Iterator[list[bool]]:
    """SIGINT and SIGTERM set a flag the loop checks after each GEMM: the run stops cleanly, samples kept."""
    flag = [False]

    def handler(signum: int, frame: FrameType | None) -> None:
        flag[0] = True

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield flag
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _header(settings: SustainSettings, device_name: str) -> dict[str, Any]:
    return {"header": True, "gemm_size": settings.gemm_size, "precision": settings.precision,
            "device_name": device_name, "duration_s": settings.duration_s}


def _read_samples(path: Path, header: dict[str, Any]) -> list[SustainSample]:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not lines or not lines[0].get("header"):
        raise InputError("--resume", f"{path} is not a samples file of `bench micro --sustain`", "a .samples.jsonl")
    saved = lines[0]
    for key in ("gemm_size", "precision", "device_name"):
        if saved.get(key) != header[key]:
            raise InputError("--resume", f"{path} was measured with {key}={saved.get(key)!r}, not {header[key]!r}",
                             "the same --gemm-size, --precision and device")
    return [SustainSample.model_validate(line) for line in lines[1:]]


def run_sustain(settings: SustainSettings, samples_file: Path, resume: bool = False,
                progress: Progress | None = None) -> SustainResult:
    try:
        import torch
    except ImportError:
        raise InputError("--sustain", "needs PyTorch", "pip install torch") from None
    device = resolve_device(settings.device, torch, no_gpu="--cpu (the loop on the CPU)")
    cuda = device.type == "cuda"
    if cuda and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    device_name = torch.cuda.get_device_name(device) if cuda else "cpu"
    header = _header(settings, device_name)
    previous: list[SustainSample] = []
    if resume and samples_file.exists():
        previous = _read_samples(samples_file, header)
    elif samples_file.exists() and samples_file.stat().st_size:
        raise InputError("--out", f"{samples_file} already holds samples", "--resume to continue it, or a new --out")
    segment = (max((s.segment for s in previous), default=-1) + 1) if previous else 0
    offset = previous[-1].t_s if previous else 0.0
    nvml_index = settings.nvml_index
    if nvml_index is None and cuda:
        from sizer_agent.tools.bench.train import _nvml_index

        nvml_index = _nvml_index(torch, device)
        if nvml_index is None:
            nvml_index = device.index
    probe = _NvmlProbe(nvml_index)
    a, b = _operands(torch, device, settings)
    flops = 2.0 * settings.gemm_size**3
    interrupted = False
    samples = list(previous)
    samples_file.parent.mkdir(parents=True, exist_ok=True)
    try:
        with samples_file.open("a") as sink, _stop_on_signals() as stop:
            if not previous:
                sink.write(json.dumps(header) + "\n")
                sink.flush()
            torch.matmul(a, b)  # warm-up: kernels chosen, clocks up
            if cuda:
                torch.cuda.synchronize(device)
            probe.read()  # the energy counter's start
            start = last = time.perf_counter()
            count = 0
            while offset + (time.perf_counter() - start) < settings.duration_s:
                torch.matmul(a, b)
                count += 1
                if stop[0]:
                    interrupted = True
                    break
                now = time.perf_counter()
                if now - last < settings.sample_interval_s:
                    continue
                if cuda:
                    torch.cuda.synchronize(device)
                now = time.perf_counter()
                sample = SustainSample(t_s=offset + now - start, segment=segment, gemms=count,
                                       tflops=count * flops / (now - last) / 1e12, **probe.read())
                samples.append(sample)
                sink.write(sample.model_dump_json() + "\n")
                sink.flush()
                if progress is not None:
                    progress(_progress_line(sample))
                count, last = 0, now
    finally:
        probe.close()
    if not samples:
        raise InputError("--sample-interval", "the run ended before the first sample", "a shorter interval")
    return summarise(settings, samples, device=str(device), device_name=None if not cuda else device_name,
                     torch_version=str(torch.__version__), nvml=probe.error is None, nvml_error=probe.error,
                     samples_file=str(samples_file), interrupted=interrupted)


def _operands(torch: Any, device: Any, settings: SustainSettings) -> tuple[Any, Any]:
    dtype = {"fp32": torch.float32, "tf32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = settings.precision == "tf32"
    n = settings.gemm_size
    return (torch.randn(n, n, device=device, dtype=dtype[settings.precision]),
            torch.randn(n, n, device=device, dtype=dtype[settings.precision]))


def _progress_line(sample: SustainSample) -> str:
    parts = [f"t={sample.t_s:8.1f} s", f"{sample.tflops:9.3f} TFLOP/s"]
    if sample.power_w is not None:
        parts.append(f"{sample.power_w:6.0f} W")
    if sample.temperature_c is not None:
        parts.append(f"{sample.temperature_c:4.0f} C")
    if sample.sm_clock_mhz is not None:
        parts.append(f"SM {sample.sm_clock_mhz:5.0f} MHz")
    if sample.reasons_mask:
        parts.append("reasons " + ",".join(decode_reasons(sample.reasons_mask)))
    return "  ".join(parts)


# ---------------------------------------------------------------- the summary


def throttle_events(samples: list[SustainSample]) -> list[ThrottleEvent]:
    """Runs of consecutive samples with the same non-idle reason bits."""
    events: list[ThrottleEvent] = []
    for i, sample in enumerate(samples):
        mask = (sample.reasons_mask or 0) & ~_IDLE
        begin = samples[i - 1].t_s if i else max(0.0, sample.t_s - _interval(samples))
        if mask and events and events[-1].reasons_mask == mask and events[-1].end_s == begin:
            event = events[-1]
            event.end_s, event.samples = sample.t_s, event.samples + 1
            if sample.sm_clock_mhz is not None:
                event.min_sm_clock_mhz = min(event.min_sm_clock_mhz or sample.sm_clock_mhz, sample.sm_clock_mhz)
        elif mask:
            # a sample covers the interval since the previous one
            events.append(ThrottleEvent(start_s=begin, end_s=sample.t_s, samples=1, reasons_mask=mask,
                                        reasons=decode_reasons(mask), cause=cause(mask),
                                        min_sm_clock_mhz=sample.sm_clock_mhz))
    return events


def _median(values: list[float]) -> float | None:
    return float(statistics.median(values)) if values else None


def summarise(settings: SustainSettings, samples: list[SustainSample], *, device: str, device_name: str | None,
              torch_version: str, nvml: bool, nvml_error: str | None, samples_file: str,
              interrupted: bool) -> SustainResult:
    from sizer_agent.tools.bench.micro import find_spec

    end = samples[-1].t_s
    first = [s for s in samples if s.t_s <= samples[0].t_s + settings.window_s] or samples[:1]
    last = [s for s in samples if s.t_s >= end - settings.window_s] or samples[-1:]
    initial = _median([s.tflops for s in first]) or 0.0
    sustained = _median([s.tflops for s in last]) or 0.0
    clocks_first = _median([s.sm_clock_mhz for s in first if s.sm_clock_mhz is not None])
    clocks_last = _median([s.sm_clock_mhz for s in last if s.sm_clock_mhz is not None])
    clocks = [s.sm_clock_mhz for s in samples if s.sm_clock_mhz is not None]
    temperatures = [s.temperature_c for s in samples if s.temperature_c is not None]
    events = throttle_events(samples)
    by_cause: dict[str, float] = {}
    for event in events:
        by_cause[event.cause] = by_cause.get(event.cause, 0.0) + event.end_s - event.start_s
    energy, source = _energy(samples)
    elapsed = end - (samples[0].t_s - _interval(samples))
    mean_power = energy / elapsed if energy is not None and elapsed > 0 else None
    mean_tflops = statistics.fmean(s.tflops for s in samples)
    spec = find_spec(device_name) if device_name else None
    peak = spec.tflops.get(settings.precision) if spec else None
    return SustainResult(
        settings=settings, device=device, device_name=device_name, torch_version=torch_version, nvml=nvml,
        nvml_error=nvml_error, samples_file=samples_file, segments=len({s.segment for s in samples}),
        interrupted=interrupted, duration_s=end, samples=len(samples), spec_tflops=peak,
        tdp_w=spec.tdp_w if spec else None, initial_tflops=initial, sustained_tflops=sustained,
        sustained_over_initial=sustained / initial if initial else 0.0, min_tflops=min(s.tflops for s in samples),
        sustained_over_spec=sustained / peak if peak else None, initial_sm_clock_mhz=clocks_first,
        final_sm_clock_mhz=clocks_last, min_sm_clock_mhz=min(clocks) if clocks else None,
        sm_clock_drop=1.0 - clocks_last / clocks_first if clocks_first and clocks_last else None,
        max_temperature_c=max(temperatures) if temperatures else None, throttle_events=events,
        throttled_s_by_cause=by_cause, energy_j=energy, energy_source=source, mean_power_w=mean_power,
        tflops_per_watt=mean_tflops / mean_power if mean_power else None,
    )


def _interval(samples: list[SustainSample]) -> float:
    """Length of the first sample's interval (the gap to the second), for the run's elapsed time."""
    return samples[1].t_s - samples[0].t_s if len(samples) > 1 else samples[0].t_s


def _energy(samples: list[SustainSample]) -> tuple[float | None, str | None]:
    counted = [s.energy_j for s in samples]
    if counted and all(e is not None for e in counted):
        return float(sum(e for e in counted if e is not None)), "NVML total energy counter"
    powers = [s for s in samples if s.power_w is not None]
    if not powers:
        return None, None
    # each sample's power stands for its interval (trapezoids would need a power reading at the interval's start)
    total = 0.0
    for i, sample in enumerate(samples):
        if sample.power_w is not None:
            gap = sample.t_s - samples[i - 1].t_s if i else _interval(samples)
            total += sample.power_w * gap
    return total, "NVML power x sample interval"
