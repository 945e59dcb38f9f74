"""`bench all` / benchmarks/gpu_check.sh: on this CPU host the real run probes and skips every GPU step with
its reason; the ratio table covers each row of seed 003's microbenchmark table from the steps' results."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from sizer_agent.tools.bench.gpu_check import STEPS, StepReport, ratios
from tests.bench.conftest import ROOT


def test_script_on_a_host_without_gpu_skips_with_reasons(tmp_path: Path) -> None:
    out = tmp_path / "check.json"
    done = subprocess.run([str(ROOT / "benchmarks" / "gpu_check.sh"), "--out", str(out), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report == json.loads(done.stdout)
    steps = {s["name"]: s for s in report["steps"]}
    assert list(steps) == list(STEPS)
    assert steps["probe"]["status"] == "ok" and steps["probe"]["result"]["host"]["cpu_logical_cores"] >= 1
    for name in STEPS[1:]:
        assert steps[name]["status"] == "skipped" and "no CUDA GPU" in steps[name]["reason"]
    assert report["ok"] is True and report["ratios"] == []


def test_ratios_cover_every_row_of_the_seed_table() -> None:
    def measurement(name: str, value: float, spec: float, unit: str) -> dict:
        return {"name": name, "value": value, "spec": spec, "unit": unit, "ratio": value / spec}

    micro = {"measurements": [
        measurement("gemm_bf16", 700.0, 989.0, "TFLOP/s"), measurement("memory_read", 4000.0, 4800.0, "GB/s"),
        measurement("memory_write", 4100.0, 4800.0, "GB/s"), measurement("device_copy", 3900.0, 4800.0, "GB/s"),
        measurement("host_to_device", 55.0, 64.0, "GB/s"), measurement("device_to_host", 53.0, 64.0, "GB/s"),
    ]}
    collectives = {"peak_busbw_gbs": {"all_reduce": 360.0, "all_gather": 350.0}, "link": {"gbs": 450.0},
                   "ratio": {"all_reduce": 0.8, "all_gather": 350.0 / 450.0}}
    sustain = {"sustained_tflops": 650.0, "initial_tflops": 700.0, "spec_tflops": 989.0,
               "sustained_over_spec": 650.0 / 989.0, "sustained_over_initial": 650.0 / 700.0}
    steps = [StepReport(name="micro", status="ok", seconds=1, result=micro),
             StepReport(name="collectives", status="ok", seconds=1, result=collectives),
             StepReport(name="sustain", status="ok", seconds=1, result=sustain)]
    rows = ratios(steps)
    seen = {row.benchmark.split(" (")[0] for row in rows}
    # seed 003: GEMM, HBM streaming, collectives, H2D, D2H, sustained throttling and power
    assert seen == {"dense GEMM", "HBM streaming", "chip-to-chip networking", "host to device", "device to host",
                    "sustained throttling and power"}
    assert all(row.ratio is not None for row in rows)
    by_name = {row.name: row for row in rows}
    assert by_name["all_reduce_busbw"].spec == 450.0 and by_name["all_reduce_busbw"].ratio == 0.8
    assert by_name["sustained_over_initial"].ratio == 650.0 / 700.0
    failed = [StepReport(name="micro", status="failed", seconds=1, reason="RuntimeError: boom")]
    assert ratios(failed) == []  # a failed step contributes no numbers


def test_a_step_that_ran_but_failed_its_check_is_failed() -> None:
    from sizer_agent.tools.bench.gpu_check import _verdict

    assert _verdict({"resume_ok": False}) == "resume after the checkpoint was not bit-identical"
    assert "2 wrong" in (_verdict({"points": [{"wrong": 0}, {"wrong": 2}]}) or "")
    assert _verdict({"resume_ok": True, "points": [{"wrong": 0}]}) is None
