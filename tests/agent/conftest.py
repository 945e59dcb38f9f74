"""Fixtures for the agent tests: a scripted estimator stand-in (until the real one is merged) and a store."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict

from sizer_agent.store import SessionStore
from tools.errors import InputError
from tools.registry import Tool, ToolRegistry


class StandInEstimateRequest(BaseModel):
    """The fields of tools.estimate.EstimateRequest the planner sends (subset, same names)."""

    model_config = ConfigDict(extra="forbid")
    model: str
    revision: str | None = None
    mode: Literal["inference", "training"] = "inference"
    method: Literal["full", "lora", "qlora"] = "full"
    dtype: str = "auto"
    quantization: str | None = None
    input_len: int = 1024
    output_len: int = 256
    max_model_len: int | None = None
    concurrency: int = 1
    batch_size: int = 1
    seq_len: int = 2048
    optimizer: str = "adamw"
    tensor_parallel_size: int = 1
    data_parallel_size: int = 1
    engine: Literal["generic", "vllm"] = "generic"


class StandInBreakdown(BaseModel):
    weights_bytes: int
    kv_cache_bytes: int
    activations_bytes: int
    gradients_bytes: int
    optimizer_bytes: int
    runtime_bytes: int
    total_bytes: int


class StandInEstimateResult(BaseModel):
    request: StandInEstimateRequest
    per_gpu: StandInBreakdown
    kv_cache_bytes_per_token: int
    weight_bytes_total: int
    parallelism: dict[str, Any]
    warnings: list[str] = []


# canned numbers, chosen to be recognisable in explanations (not a model of anything)
CANNED = {"weights_bytes": 70_600_000_000, "kv_cache_bytes": 10_700_000_000, "activations_bytes": 0,
          "gradients_bytes": 0, "optimizer_bytes": 0, "runtime_bytes": 2_100_000_000,
          "total_bytes": 83_400_000_000}


def scripted_estimate(request: StandInEstimateRequest) -> StandInEstimateResult:
    if request.model.lower().startswith("unknown"):
        raise InputError("model", f"unknown model {request.model!r}", "a bundled name or a Hub id")
    per_gpu = dict(CANNED)
    if request.mode == "training":
        per_gpu.update(gradients_bytes=1_000_000_000, optimizer_bytes=6_000_000_000,
                       total_bytes=CANNED["total_bytes"] + 7_000_000_000)
    gpus = request.tensor_parallel_size * request.data_parallel_size
    return StandInEstimateResult(
        request=request, per_gpu=StandInBreakdown(**per_gpu), kv_cache_bytes_per_token=163_840,
        weight_bytes_total=70_600_000_000,
        parallelism={"tp": request.tensor_parallel_size, "pp": 1, "dp": request.data_parallel_size,
                     "num_gpus": gpus, "notes": []},
    )


def make_registry() -> ToolRegistry:
    registry = ToolRegistry()
    registry.register(Tool("estimate_memory", "Scripted stand-in of tools.estimate.estimate for tests.",
                           StandInEstimateRequest, StandInEstimateResult, scripted_estimate))
    return registry


@pytest.fixture
def registry() -> ToolRegistry:
    return make_registry()


@pytest.fixture
def store(tmp_path: Path) -> SessionStore:
    with SessionStore(tmp_path / "sessions.db") as db:
        yield db
