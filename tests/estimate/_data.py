"""Paths and loaders of the validation data: the published set bundled with the package."""

from __future__ import annotations

import json
from pathlib import Path

from sizer_agent.tools.architectures import spec_from_config
from sizer_agent.tools.estimate import EstimateRequest, EstimateResult, estimate
from sizer_agent.tools.model_loader import bundled_dir
from sizer_agent.tools.validation import BUNDLED_VALIDATION, flags_to_fields

ROOT = Path(__file__).resolve().parents[2]
VALIDATION = BUNDLED_VALIDATION


def load_cases(name: str) -> list[dict]:
    return json.loads((VALIDATION / name).read_text())


def run_heldout_case(case: dict) -> EstimateResult:
    """One held-out row (tests/estimate/data/heldout_issue15*.json): its config inline or bundled, its CLI flags."""
    config = case.get("config") or json.loads(
        (bundled_dir() / case["config_folder_or_null"] / "config.json").read_text())
    return estimate(EstimateRequest(model=case["model"], **flags_to_fields(case["args"])),
                    spec_from_config(config, case["model"]))


def engine_errors(cases: list[dict]) -> tuple[list[float], list[float]]:
    """Absolute % errors of vLLM's loaded weights and KV-cache tokens over held-out start-up logs."""
    weights, tokens = [], []
    for case in cases:
        engine = run_heldout_case(case).engine
        assert engine is not None
        expect = case["expect"]
        weights.append(abs(engine.weights_bytes / 2**30 - expect["weights_gib"]) / expect["weights_gib"] * 100)
        tokens.append(abs(engine.kv_cache_tokens - expect["kv_cache_tokens"]) / expect["kv_cache_tokens"] * 100)
    return weights, tokens
