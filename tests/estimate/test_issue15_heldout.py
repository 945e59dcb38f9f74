"""Issue #15 done-when, on the rows of tests/estimate/data/heldout_issue15.json (recorded with their sources
before the estimator ran on them; `cited_by_issue_15` marks rows whose error the issue itself quotes).

Targets are the issue's: training peaks median <= 10 %, max <= 30 %; vLLM weights median <= 1 %, max <= 3 %;
KV-cache tokens median <= 2 %, max <= 8 %. The training target is not met (docs/estimate.md, "Issue #15
held-out"): that test is an expected failure that turns into an error the day it passes, so the marker goes.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from sizer_agent.tools.estimate import EstimateResult
from tests.estimate._data import engine_errors, run_heldout_case

GiB = 2**30
DATA = json.loads((Path(__file__).parent / "data" / "heldout_issue15.json").read_text())


def _run(case: dict) -> EstimateResult:
    return run_heldout_case(case)


def _training_errors() -> list[float]:
    errors = []
    for case in DATA["training"]:
        r = _run(case)
        peak = (r.per_gpu.total_bytes - r.per_gpu.runtime_bytes) / GiB  # allocator peak, as tools/validation.py
        errors.append(abs(peak - case["expect_peak_gib"]) / case["expect_peak_gib"] * 100)
    return errors


def test_every_heldout_row_has_a_source_and_runs() -> None:
    assert len(DATA["training"]) >= 9 and len(DATA["vllm"]) >= 3
    for case in [*DATA["training"], *DATA["vllm"]]:
        assert case["held_out"] is True and case["source"]["url"].startswith("https://github.com/")
        assert case["quotes"]
        _run(case)  # offload, LoRA on lm_head, hybrid and multimodal: every case runs


@pytest.mark.xfail(strict=True, reason="training median 9.6 %, max 50 % on these rows (seen since 2026-12-01; "
                                       "issue target 10 % / 30 %)")
def test_heldout_training_peaks_meet_the_issue_target() -> None:
    errors = _training_errors()
    assert statistics.median(errors) <= 10.0 and max(errors) <= 30.0


def test_heldout_vllm_weights_and_kv_tokens_meet_the_issue_target() -> None:
    weights, tokens = engine_errors(DATA["vllm"])
    assert statistics.median(weights) <= 1.0 and max(weights) <= 3.0
    assert statistics.median(tokens) <= 2.0 and max(tokens) <= 8.0
