"""Issue #15 done-when on the second held-out set, tests/estimate/data/heldout_issue15_2.json: 25 training
peaks and 19 vLLM start-up logs recorded with their sources before the estimator ran on them. The scoring
was declared in the file before the first run: `counter` says what each training number measures; allocated
and reserved bytes are compared with the allocator peak, a process's used memory with the total.

Scored once at ea8698f (docs/estimate.md, "Issue #15 held-out rows, second set"). The training target is not
met and neither is the KV-token maximum (one row's GPU total memory had to be assumed): those tests are
expected failures that turn into errors the day they pass, so the markers go.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from sizer_agent.tools.estimate import EstimateResult
from tests.estimate._data import engine_errors, run_heldout_case

GiB = 2**30
DATA = json.loads((Path(__file__).parent / "data" / "heldout_issue15_2.json").read_text())


def _run(case: dict) -> EstimateResult:
    return run_heldout_case(case)


def _training_error(case: dict) -> float:
    per_gpu = _run(case).per_gpu
    runtime = 0 if case["counter"] == "process" else per_gpu.runtime_bytes  # a process's memory holds CUDA's own
    peak = (per_gpu.total_bytes - runtime) / GiB
    return abs(peak - case["expect_peak_gib"]) / case["expect_peak_gib"] * 100


def test_every_row_has_a_source_a_declared_counter_and_runs() -> None:
    assert len(DATA["training"]) == 25 and len(DATA["vllm"]) == 19
    for case in [*DATA["training"], *DATA["vllm"]]:
        assert case["held_out"] is True and case["source"]["url"].startswith("https://github.com/")
        assert case["quotes"]
        _run(case)
    assert {c["counter"] for c in DATA["training"]} == {"allocated", "reserved", "process"}


@pytest.mark.xfail(strict=True, reason="scored once at ea8698f: every row 26.5 % median, 59.5 % max; torchtune "
                                       "8.4 % / 43 %; allocated bytes 7.6 % / 41 %; reserved 26.5 % / 52 %; "
                                       "every error an under-estimate (issue target 10 % / 30 %)")
def test_training_peaks_meet_the_issue_target() -> None:
    errors = [_training_error(case) for case in DATA["training"]]
    assert statistics.median(errors) <= 10.0 and max(errors) <= 30.0


def test_the_allocated_bytes_rows_are_met_at_the_median() -> None:
    # what the estimator models is the allocator's peak: on the rows that measured it, the median holds
    errors = [_training_error(case) for case in DATA["training"] if case["counter"] == "allocated"]
    assert len(errors) == 6 and statistics.median(errors) <= 10.0


def _engine_errors() -> tuple[list[float], list[float]]:
    return engine_errors(DATA["vllm"])


def test_vllm_weights_meet_the_issue_target() -> None:
    weights, _ = _engine_errors()
    assert statistics.median(weights) <= 1.0 and max(weights) <= 3.0  # scored once: 0.1 % / 0.9 %


def test_vllm_kv_tokens_meet_the_issue_median() -> None:
    _, tokens = _engine_errors()
    assert statistics.median(tokens) <= 2.0  # scored once: 0.2 %


@pytest.mark.xfail(strict=True, reason="scored once at ea8698f: max 86.6 % on the RTX 5090 laptop row, whose "
                                       "GPU total memory the log never prints (23.89 GiB assumed; 1.17 GiB of KV "
                                       "cache, so 1 % on the total moves the tokens ~20 %); next worst 7.6 %")
def test_vllm_kv_tokens_meet_the_issue_maximum() -> None:
    _, tokens = _engine_errors()
    assert max(tokens) <= 8.0
