"""Accuracy against published measurements (done-when of the issue: within 25 % median).

Efficiencies were fitted on the even rows of the calibration set only; the odd rows and the whole held-out
set (other GPUs, FP4, MoE, pipeline parallelism, latency at low concurrency) were not used to fit.
"""

from __future__ import annotations

from tools.perf.validation import calibration_cases, check_latency, check_throughput, heldout_cases


def test_calibration_set_max_throughput_within_25_percent_median() -> None:
    cases = calibration_cases()
    assert len(cases) == 20
    summary = check_throughput("calibration", cases)
    assert summary.median_abs_error < 0.25, summary.median_abs_error
    unseen = check_throughput("calibration odd rows", cases[1::2])
    assert unseen.median_abs_error < 0.25


def test_heldout_max_throughput_within_25_percent_median() -> None:
    cases = heldout_cases()["throughput"]
    assert len(cases) == 100
    summary = check_throughput("held-out", cases)
    assert summary.median_abs_error < 0.25, summary.median_abs_error


def test_latency_at_low_concurrency_within_25_percent() -> None:
    summary = check_latency(heldout_cases()["latency"])
    assert summary.count >= 7
    assert summary.median_abs_error < 0.25
    ttft_tpot = [c for c in summary.cases if c.metric in ("ttft_ms", "tpot_ms")]
    assert all(abs(c.error) < 0.25 for c in ttft_tpot), [(c.id, round(c.error, 2)) for c in ttft_tpot]
