"""`sizer-agent probe` and the NVML sampler: a scripted pynvml for the GPU paths, the real no-driver path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bench.conftest import ROOT, Server, load_json, run_cli

FAKE = Path(__file__).resolve().parent / "fake_nvml"


def _fake_env(**extra: str) -> dict[str, str]:
    return {"PYTHONPATH": f"{FAKE}:{ROOT}", **extra}


def test_probe_without_driver_is_clear_and_exits_zero() -> None:
    """The real path here: no NVIDIA driver on this machine (or the fake told to behave so)."""
    for env in (None, _fake_env(FAKE_NVML_MODE="nodriver")):
        done = run_cli("probe", "--json", env=env)
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        assert data["nvml"]["available"] is False and data["nvml"]["gpus"] == []
        assert "NVML" in data["nvml"]["error"]
        assert data["host"]["cpu_logical_cores"] >= 1 and data["host"]["memory_total_bytes"] > 0
        text = run_cli("probe", env=env)
        assert text.returncode == 0 and "No NVIDIA GPU visible" in text.stdout


def test_probe_with_scripted_nvml_reports_everything() -> None:
    done = run_cli("probe", "--json", env=_fake_env())
    assert done.returncode == 0, done.stderr
    nvml = json.loads(done.stdout)["nvml"]
    assert nvml["available"] and nvml["driver_version"] == "570.124.06" and nvml["cuda_driver_version"] == "12.8"
    first, second = nvml["gpus"]
    assert first["name"] == "NVIDIA H200" and first["memory_total_bytes"] == 143771 * 2**20
    assert first["ecc_current"] is True and first["compute_capability"] == "9.0"
    assert (second["pcie_gen_current"], second["pcie_width_current"], second["pcie_width_max"]) == (5, 8, 16)
    assert first["nvlink"]["active_links"] == 18
    assert first["mig"]["current_mode"] == 0
    assert first["power_limit_w"] == 700.0 and first["power_limit_min_w"] == 200.0
    assert first["temperature_c"] is None  # NotSupported is an unknown, not a crash
    assert nvml["topology"] == [["X", "NV18"], ["NV18", "X"]]
    text = run_cli("probe", env=_fake_env())
    assert "NVIDIA H200" in text.stdout and "PCIe Gen5/5 x8/16" in text.stdout


def test_memory_sampler_keeps_the_peak(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import time

    monkeypatch.syspath_prepend(str(FAKE))
    monkeypatch.delitem(sys.modules, "pynvml", raising=False)
    from sizer_agent.tools.bench.nvml import GpuMemorySampler

    sampler = GpuMemorySampler(interval_s=0.005)
    assert sampler.available
    sampler.start()
    time.sleep(0.1)
    peaks = sampler.stop()
    sampler.close()
    monkeypatch.delitem(sys.modules, "pynvml", raising=False)
    assert peaks is not None and len(peaks) == 2
    assert 2 * 2**30 < peaks[0] <= 40 * 2**30 and peaks[1] == 2 * 2**30


def test_serve_records_peak_gpu_memory_and_hardware(fast_schedule_server: Server, tmp_path: Path) -> None:
    out = tmp_path / "gpu.json"
    done = run_cli(
        "bench", "serve", "--base-url", fast_schedule_server.url, "--input-len", "8", "--output-len", "8",
        "--concurrency", "2", "--num-prompts", "6", "--out", str(out), "--quiet", env=_fake_env(),
    )
    assert done.returncode == 0, done.stderr
    data = load_json(out)
    assert data["hardware"]["driver_version"] == "570.124.06"
    assert [g["name"] for g in data["hardware"]["gpus"]] == ["NVIDIA H200", "NVIDIA H200"]
    level = data["levels"][0]
    assert level["peak_gpu_memory_bytes"] is not None and level["peak_gpu_memory_bytes"] >= 2 * 2**30
    assert len(level["peak_gpu_memory_by_device"]) == 2
