"""Cases the estimator was NOT calibrated on: other models, quantizations, TP sizes, A100s, vLLM 0.10/0.11,
and torchtune rows of other GPUs (tests/estimate/data/unseen_cases.json, each with source and quotes)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from tests.estimate._data import ROOT
from sizer_agent.tools.architectures import spec_from_config
from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.validation import flags_to_fields

GiB = 2**30
DATA = json.loads((Path(__file__).parent / "data" / "unseen_cases.json").read_text())
MODEL_CONFIGS = ROOT.parent / "shared" / "reference" / "model-configs"


def _run(case: dict):
    config = case.get("config")
    if config is None:
        path = MODEL_CONFIGS / case["config_folder_or_null"] / "config.json"
        if not path.exists():
            pytest.skip("shared reference configs not beside this checkout")
        config = json.loads(path.read_text())
    return estimate(EstimateRequest(model=case["model"], **flags_to_fields(case["args"])),
                    spec_from_config(config, case["model"]))


def _errors(metric: str) -> list[float]:
    errors = []
    for case in DATA["vllm"]:
        expected = case["expect"].get(metric)
        if expected:
            engine = _run(case).engine
            got = engine.weights_bytes / GiB if metric == "weights_gib" else engine.kv_cache_tokens
            errors.append(abs(got - expected) / expected * 100)
    return errors


def test_unseen_weights() -> None:
    errors = _errors("weights_gib")
    assert len(errors) >= 20
    assert statistics.median(errors) <= 2.0
    assert max(errors) <= 5.0


def test_unseen_kv_cache_tokens() -> None:
    errors = _errors("kv_cache_tokens")
    assert len(errors) >= 20
    assert statistics.median(errors) <= 5.0
    # Worst: A100, vLLM 0.10, TP 2 at 25 % utilization (-16 %): the TP non-torch memory measured on
    # vLLM 0.19 is ~1.6 GiB more than that version used, on a pool of only ~12 GiB.
    assert max(errors) <= 17.0


def test_unseen_training_peaks() -> None:
    errors = []
    for case in DATA["training"]:
        r = _run(case)
        peak = (r.per_gpu.total_bytes - r.per_gpu.runtime_bytes) / GiB
        errors.append(abs(peak - case["expect_peak_gib"]) / case["expect_peak_gib"] * 100)
    assert len(errors) >= 5
    assert statistics.median(errors) <= 20.0
