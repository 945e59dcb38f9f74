"""Accuracy against published measurements (done-when of the first perf issue: within 25 % median).

Since issue #13 the efficiencies are fitted by tools/perf/calibrate.py on the hash-even rows of these files
(tools.perf.validation.SPLIT_RULE); the sets below therefore mix calibration and validation rows. The split
and the fresh held-out rows are scored apart in tests/recommend/test_calibration.py.
"""

from __future__ import annotations

from sizer_agent.tools.perf.validation import calibration_cases, check_latency, check_throughput, heldout_cases


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


def test_latency_at_low_concurrency_within_25_percent_median() -> None:
    summary = check_latency(heldout_cases()["latency"])
    assert summary.count >= 17
    assert summary.median_abs_error < 0.25
    ttft_tpot = sorted(abs(c.error) for c in summary.cases if c.metric in ("ttft_ms", "tpot_ms"))
    assert ttft_tpot[len(ttft_tpot) // 2] < 0.25  # concurrency 1: TTFT and TPOT, median
    assert ttft_tpot[-1] < 0.6, ttft_tpot  # worst: old TensorRT-LLM v0.5 engines (TP4 TTFT at 128 tokens)
