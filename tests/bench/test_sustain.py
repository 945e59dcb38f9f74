"""`bench micro --sustain`: a real GEMM loop on the CPU, sampled by the scripted NVML (throttle reasons
decoded into events with their cause) and by nothing (no driver); stopped by SIGINT and resumed."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sizer_agent.tools.bench.compare import compare_results
from sizer_agent.tools.bench.sustain import (
    SustainSample,
    SustainSettings,
    cause,
    decode_reasons,
    run_sustain,
    throttle_events,
)
from sizer_agent.tools.errors import InputError
from tests.bench.conftest import ROOT

pytest.importorskip("torch")
FAKE = Path(__file__).resolve().parent / "fake_nvml"
LOOP = ["bench", "micro", "--cpu", "--gemm-size", "128", "--precision", "fp32"]


def test_reason_bits_decode_as_nvml_defines_them() -> None:
    # nvml.h nvmlClocksEventReasons: 0x4 SW power cap, 0x20 SW thermal, 0x40 HW thermal, 0x80 power brake
    assert decode_reasons(0x4) == ["sw_power_cap"]
    assert decode_reasons(0x20 | 0x40) == ["sw_thermal_slowdown", "hw_thermal_slowdown"]
    assert decode_reasons(0x80 | 0x1000) == ["hw_power_brake_slowdown", "unknown_0x1000"]
    assert (cause(0x60), cause(0x80), cause(0x8), cause(0x2)) == ("thermal", "power", "hardware", "other")
    idle_only = [SustainSample(t_s=t, segment=0, gemms=1, tflops=1.0, reasons_mask=0x1) for t in (1.0, 2.0)]
    assert throttle_events(idle_only) == []  # an idle GPU is not throttled


def test_scripted_gpu_throttles_thermal_then_power(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the scripted pynvml stands in for the real one, in this process (a CLI run would re-import torch)
    spec = importlib.util.spec_from_file_location("pynvml", FAKE / "pynvml.py")
    assert spec is not None and spec.loader is not None
    fake = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fake)
    monkeypatch.setitem(sys.modules, "pynvml", fake)
    monkeypatch.setenv("FAKE_NVML_MODE", "throttle")
    settings = SustainSettings(duration_s=1.6, gemm_size=128, precision="fp32", sample_interval_s=0.2, window_s=0.1,
                               device="cpu", nvml_index=0)
    result = run_sustain(settings, tmp_path / "sustain.samples.jsonl").model_dump(mode="json")
    assert result["nvml"] is True and result["samples"] >= 6
    # samples 1-2 at full clock, 3-4 thermal (SW + HW bits), 5 onwards power capped: two events
    thermal, power = result["throttle_events"]
    assert thermal["cause"] == "thermal" and thermal["reasons"] == ["sw_thermal_slowdown", "hw_thermal_slowdown"]
    assert thermal["samples"] == 2 and thermal["min_sm_clock_mhz"] == 1400
    assert power["cause"] == "power" and power["reasons"] == ["sw_power_cap"]
    assert power["samples"] == result["samples"] - 4 and power["start_s"] == thermal["end_s"]
    assert result["initial_sm_clock_mhz"] == 1980 and result["final_sm_clock_mhz"] == 1700
    assert result["sm_clock_drop"] == pytest.approx(1 - 1700 / 1980)
    assert result["max_temperature_c"] == 88
    # the energy counter grows 700 J per reading: one reading per sample after the starting one
    assert result["energy_j"] == pytest.approx(700.0 * result["samples"])
    assert result["energy_source"] == "NVML total energy counter"
    assert result["tflops_per_watt"] > 0
    assert set(result["throttled_s_by_cause"]) == {"thermal", "power"}
    same = compare_results(result, result)
    assert same.comparable and any(row.label == "sustained TFLOP/s" and row.ratio == 1.0 for row in same.rows)
    other = compare_results(result, {**result, "settings": {**result["settings"], "precision": "bf16"}})
    assert [d.field for d in other.differences] == ["settings.precision"]


def test_real_cpu_loop_stops_on_sigint_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "sustain.json"
    samples = out.with_suffix(".samples.jsonl")
    args = [sys.executable, "-m", "sizer_agent", *LOOP, "--sustain", "2", "--sample-interval", "0.2",
            "--window", "0.5", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not samples.exists() or len(samples.read_text().splitlines()) < 3):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr[-2000:]
    first = json.loads(out.read_text())
    assert first["interrupted"] is True and first["segments"] == 1 and first["duration_s"] < 2
    assert first["nvml"] is False and first["energy_j"] is None  # no driver here: no power, said so
    assert "--resume" in stdout
    settings = SustainSettings(duration_s=2, gemm_size=128, precision="fp32", sample_interval_s=0.2, window_s=0.5,
                               device="cpu")
    result = run_sustain(settings, samples, resume=True).model_dump()
    assert result["segments"] == 2 and result["interrupted"] is False
    assert result["samples"] > first["samples"] and result["duration_s"] >= 2 - 0.2 - 1e-9
    times = [json.loads(line)["t_s"] for line in samples.read_text().splitlines()[1:]]
    assert times == sorted(times) and len(set(times)) == len(times) == result["samples"]
    # a 128^3 fp32 GEMM on any CPU: above 0.1 GFLOP/s, below 10 TFLOP/s
    assert 1e-4 < result["initial_tflops"] < 10 and 1e-4 < result["sustained_tflops"] < 10
    with pytest.raises(InputError, match="--resume"):  # never appends to old samples silently
        run_sustain(settings, samples)
    with pytest.raises(InputError, match="gemm_size"):  # nor resumes a different measurement
        run_sustain(settings.model_copy(update={"gemm_size": 64}), samples, resume=True)
