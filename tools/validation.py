"""Accuracy report: run the estimator over published measurements and compare.

The validation folder holds `param_counts.json`, `vllm_memory_cases.json` and
`training_memory_cases.json` (each case names its source) and `configs/<name>/config.json`. The published
set ships inside the package (`data/validation/`, sources in its README.md); `--path` checks another folder
laid out the same way.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from sizer_agent.tools.architectures import spec_from_config
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.input_files import read_json
from sizer_agent.tools.memory.runtime import GiB

BUNDLED_VALIDATION = Path(__file__).resolve().parent / "data" / "validation"

# Targets of the estimator (issue "memory estimator", done-when).
TARGETS = {
    "params": (0.0, 0.0),
    "weights": (2.0, 5.0),
    "kv_cache_tokens": (5.0, 15.0),
    "training_peak": (20.0, None),
}


class CaseError(BaseModel):
    case: str
    metric: str
    expected: float
    predicted: float
    error_pct: float
    note: str = ""


class MetricSummary(BaseModel):
    metric: str
    count: int
    median_abs_error_pct: float
    max_abs_error_pct: float
    target_median_pct: float | None
    target_max_pct: float | None
    meets_target: bool


class ValidationReport(BaseModel):
    path: str
    cases: list[CaseError]
    summary: list[MetricSummary]


def flags_to_fields(args: list[str]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    index = 0
    while index < len(args):
        key = args[index].lstrip("-").replace("-", "_")
        if index + 1 < len(args) and not args[index + 1].startswith("--"):
            fields[key] = args[index + 1]
            index += 2
        else:
            fields[key] = True
            index += 1
    if "lora_targets" in fields:
        fields["lora_targets"] = str(fields["lora_targets"]).split(",")
    return fields


def _load(path: Path) -> list[dict[str, Any]]:
    data = read_json(path, "path")
    if not isinstance(data, list):
        raise InputError("path", f"{path} must hold a JSON list of cases")
    return data


def _error(case: str, metric: str, expected: float, predicted: float, note: str = "") -> CaseError:
    pct = 0.0 if expected == predicted else (predicted - expected) / expected * 100 if expected else float("inf")
    return CaseError(case=case, metric=metric, expected=expected, predicted=predicted, error_pct=round(pct, 3),
                     note=note)


def _config(directory: Path, name: str) -> dict[str, Any]:
    path = directory / "configs" / name / "config.json"
    data = read_json(path, "path")
    if not isinstance(data, dict):
        raise InputError("path", f"{path} must hold a JSON object")
    return data


def run_validation(directory: Path = BUNDLED_VALIDATION) -> ValidationReport:
    if not directory.is_dir():
        raise InputError("path", f"{directory} is not a folder", "the validation folder (holds configs/)")
    cases: list[CaseError] = []
    params_file = directory / "param_counts.json"
    if params_file.exists():
        for row in _load(params_file):
            spec = spec_from_config(_config(directory, row["config"]), row["config"])
            cases.append(_error(row["config"], "params", row["params"], spec.params_total))
    vllm_file = directory / "vllm_memory_cases.json"
    if vllm_file.exists():
        for row in _load(vllm_file):
            spec = spec_from_config(_config(directory, row["config"]), row["model"])
            result = estimate(EstimateRequest(model=row["model"], **flags_to_fields(row["args"])), spec)
            assert result.engine is not None
            expect = row["expect"]
            weights_gib = round(result.engine.weights_bytes / GiB, 2)
            cases.append(_error(row["id"], "weights", expect["weights_gib"], weights_gib))
            cases.append(_error(row["id"], "kv_cache_tokens", expect["kv_cache_tokens"], result.engine.kv_cache_tokens))
            cases.append(_error(row["id"], "activation_peak", expect["activation_peak_gib"],
                                round(result.engine.activation_peak_bytes / GiB, 2), "informational"))
    training_file = directory / "training_memory_cases.json"
    if training_file.exists():
        for row in _load(training_file):
            spec = spec_from_config(_config(directory, row["config"]), row["model"])
            result = estimate(EstimateRequest(model=row["model"], **flags_to_fields(row["args"])), spec)
            # Published peaks come from PyTorch's allocator: no CUDA context, no cuBLAS workspace.
            allocator_peak = result.per_gpu.total_bytes - result.per_gpu.runtime_bytes
            cases.append(_error(row["id"], "training_peak", row["expect_peak_gib"], round(allocator_peak / GiB, 2),
                                f"confidence {row.get('confidence', '?')}"))
    summary = []
    for metric in dict.fromkeys(c.metric for c in cases):
        errors = [abs(c.error_pct) for c in cases if c.metric == metric]
        target_median, target_max = TARGETS.get(metric, (None, None))
        median, worst = statistics.median(errors), max(errors)
        meets = (target_median is None or median <= target_median) and (target_max is None or worst <= target_max)
        summary.append(MetricSummary(metric=metric, count=len(errors), median_abs_error_pct=round(median, 3),
                                     max_abs_error_pct=round(worst, 3), target_median_pct=target_median,
                                     target_max_pct=target_max, meets_target=meets))
    return ValidationReport(path=str(directory), cases=cases, summary=summary)
