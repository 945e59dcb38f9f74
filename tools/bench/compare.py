"""`bench compare` and `bench calibrate`.

compare: two results side by side, only when they were measured the same way (docs/design.md §2: same model
revision, precision, lengths, concurrency and software versions); otherwise a refusal listing every
differing field. The hardware is what a comparison is for, so it never blocks one.

calibrate: a serve result against the estimator's prediction for the same settings (tools.estimate +
tools.perf), level by level, as measured / predicted ratios.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from sizer_agent.tools.errors import InputError
from sizer_agent.tools.input_files import read_json

# Fields that must agree, per result kind (dotted paths into the result JSON).
_SAME: dict[str, list[str]] = {
    "serve": [
        "settings.model", "settings.revision", "settings.precision", "settings.endpoint", "settings.input_len",
        "settings.output_len", "settings.ignore_eos", "settings.mode", "settings.request_rate",
        "levels[].concurrency", "settings.engine", "settings.engine_version",
    ],
    "train": [
        "schema_version", "model_id", "revision", "settings.shape", "settings.method", "settings.lora_rank",
        "settings.lora_alpha", "settings.lora_targets", "settings.batch_size", "settings.seq_len",
        "settings.gradient_accumulation_steps", "settings.steps", "settings.optimizer",
        "settings.gradient_checkpointing", "settings.dtype", "torch_version", "library_versions",
    ],
    "micro": ["torch_version"],
    "collectives": ["schema_version", "settings.ops", "settings.min_bytes", "settings.max_bytes", "settings.warmup",
                    "settings.iters", "world_size", "nnodes"],
    "sustain": ["schema_version", "settings.gemm_size", "settings.precision"],
}
# a distributed training run is compared like a one-process one, plus its parallel layout
_SAME["train_distributed"] = [*_SAME["train"], "distributed.strategy", "world_size", "nnodes"]

_ROWS: dict[str, list[tuple[str, str]]] = {
    "train_distributed": [
        ("step time p50 (ms)", "step_time_ms.p50"), ("tokens/s", "tokens_per_s"),
        ("tokens/s per chip", "tokens_per_s_per_chip"), ("MFU", "mfu"),
        ("peak memory, largest rank (GiB)", "peak_memory_bytes_max"), ("checkpoint save (s)", "checkpoint_save_s"),
        ("checkpoint load (s)", "checkpoint_load_s"),
    ],
    "sustain": [
        ("initial TFLOP/s", "initial_tflops"), ("sustained TFLOP/s", "sustained_tflops"),
        ("sustained / initial", "sustained_over_initial"), ("SM clock drop", "sm_clock_drop"),
        ("mean power (W)", "mean_power_w"), ("TFLOP/s per W", "tflops_per_watt"),
    ],
}

_SERVE_METRICS: list[tuple[str, str]] = [
    ("TTFT p50 (ms)", "ttft_ms.p50"), ("TTFT p99 (ms)", "ttft_ms.p99"), ("ITL p50 (ms)", "itl_ms.p50"),
    ("TPOT p50 (ms)", "tpot_ms.p50"), ("TPOT p99 (ms)", "tpot_ms.p99"), ("E2E p99 (ms)", "e2e_ms.p99"),
    ("output tok/s", "output_tokens_per_s"), ("total tok/s", "total_tokens_per_s"),
    ("goodput req/s", "goodput_rps"), ("peak GPU memory (GiB)", "peak_gpu_memory_bytes"),
]


class FieldDifference(BaseModel):
    field: str
    a: Any
    b: Any


class ComparisonRow(BaseModel):
    label: str
    a: float | None
    b: float | None
    ratio: float | None = Field(None, description="b / a")


class Comparison(BaseModel):
    kind: str
    comparable: bool
    differences: list[FieldDifference] = Field(default_factory=list)
    hardware_a: str | None = None
    hardware_b: str | None = None
    rows: list[ComparisonRow] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


def load_result(path: Path) -> dict[str, Any]:
    data = read_json(path, str(path), max_bytes=256 * 2**20)  # a result with its requests' stamps: tens of MB
    if not isinstance(data, dict) or "kind" not in data:
        raise InputError(str(path), "not a benchmark result (no `kind`)", "a file written by sizer-agent bench")
    return data


def _get(data: Any, path: str) -> Any:
    if path.startswith("levels[]."):
        return [_get(level, path.removeprefix("levels[].")) for level in data.get("levels", [])]
    for part in path.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(part)
    return data


def _hardware(data: dict[str, Any]) -> str | None:
    gpus = (data.get("hardware") or {}).get("gpus") or []
    if gpus:
        return f"{len(gpus)} x {gpus[0].get('name')}"
    return data.get("device_name") or data.get("device")


def compare_results(a: dict[str, Any], b: dict[str, Any]) -> Comparison:
    kind = str(a.get("kind"))
    if kind != b.get("kind"):
        return Comparison(
            kind=kind, comparable=False, differences=[FieldDifference(field="kind", a=kind, b=b.get("kind"))]
        )
    differences = [
        FieldDifference(field=field, a=_get(a, field), b=_get(b, field))
        for field in _SAME.get(kind, [])
        if _get(a, field) != _get(b, field)
    ]
    comparison = Comparison(
        kind=kind, comparable=not differences, differences=differences, hardware_a=_hardware(a), hardware_b=_hardware(b)
    )
    if differences:
        return comparison
    if kind == "serve":
        for level_a, level_b in zip(a.get("levels", []), b.get("levels", []), strict=False):
            prefix = f"c={level_a.get('concurrency')}"
            if level_a.get("client_lagged") or level_b.get("client_lagged"):
                comparison.notes.append(f"{prefix}: a level where the client lagged is not a valid measurement")
            for label, path in _SERVE_METRICS:
                comparison.rows.append(_row(f"{prefix} {label}", _get(level_a, path), _get(level_b, path), path))
    elif kind == "train":
        for label, path in (("step time p50 (ms)", "step_time_ms.p50"), ("tokens/s", "tokens_per_s"),
                            ("peak memory (GiB)", "peak_memory_bytes"), ("checkpoint save (s)", "checkpoint_save_s"),
                            ("checkpoint load (s)", "checkpoint_load_s")):
            comparison.rows.append(_row(label, _get(a, path), _get(b, path), path))
    elif kind in _ROWS:
        for label, path in _ROWS[kind]:
            comparison.rows.append(_row(label, _get(a, path), _get(b, path), path))
    elif kind == "collectives":
        for op, peak in (a.get("peak_busbw_gbs") or {}).items():
            comparison.rows.append(_row(f"{op} peak busbw (GB/s)", peak, (b.get("peak_busbw_gbs") or {}).get(op), ""))
        points_b = {(p["op"], p["size_bytes"]): p for p in b.get("points", [])}
        largest = max((p["size_bytes"] for p in a.get("points", [])), default=None)
        for p in a.get("points", []):
            if p["size_bytes"] == largest:
                other = points_b.get((p["op"], p["size_bytes"]))
                comparison.rows.append(_row(f"{p['op']} {largest} B time (us)", p["time_us"],
                                            other["time_us"] if other else None, ""))
    elif kind == "micro":
        by_name_b = {m["name"]: m for m in b.get("measurements", [])}
        for m in a.get("measurements", []):
            other = by_name_b.get(m["name"])
            value_b = other["value"] if other else None
            comparison.rows.append(_row(f"{m['name']} ({m['unit']})", m["value"], value_b, ""))
    return comparison


def _row(label: str, a: Any, b: Any, path: str) -> ComparisonRow:
    scale = 2**30 if path.endswith("_bytes") else 1
    value_a = float(a) / scale if isinstance(a, int | float) else None
    value_b = float(b) / scale if isinstance(b, int | float) else None
    ratio = value_b / value_a if value_a and value_b is not None else None
    return ComparisonRow(label=label, a=value_a, b=value_b, ratio=ratio)


# ---------------------------------------------------------------- calibrate


class CalibrationRow(BaseModel):
    concurrency: int
    metric: str
    measured: float | None
    predicted: float | None
    ratio: float | None = Field(None, description="measured / predicted")


class Calibration(BaseModel):
    kind: str = "calibration"
    model: str
    revision: str | None
    gpu: str = Field(description="catalogue GPU id the prediction is for")
    measured_on: str | None
    dtype: str
    input_len: int
    output_len: int
    percentile: float
    rows: list[CalibrationRow]
    memory_rows: list[CalibrationRow] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


def calibrate(
    result: dict[str, Any],
    gpu: str,
    model: str | None = None,
    tensor_parallel_size: int = 1,
    dtype: str | None = None,
) -> Calibration:
    """Estimator prediction vs measurement for every level of a serve result (same settings)."""
    from sizer_agent.tools.estimate import EstimateRequest, estimate
    from sizer_agent.tools.model_loader import load_model
    from sizer_agent.tools.perf.estimate import estimate_perf

    if result.get("kind") != "serve":
        raise InputError("RESULT", "calibrate needs a `bench serve` or `bench launch` result", "kind = serve")
    settings = result["settings"]
    name = model or settings.get("model")
    if not name:
        raise InputError("--model", "the result names no model", "the model id the estimator knows")
    spec = load_model(name, settings.get("revision"))
    input_len = round((settings["input_len"]["low"] + settings["input_len"]["high"]) / 2)
    output_len = round((settings["output_len"]["low"] + settings["output_len"]["high"]) / 2)
    precision = dtype or settings.get("precision") or "auto"
    engine = "vllm" if settings.get("engine") == "vllm" else "generic"
    percentile = float(settings.get("percentile", 99.0))
    from sizer_agent.tools.catalog import load_catalog

    catalog_gpu = load_catalog().gpu(gpu)
    rows: list[CalibrationRow] = []
    memory_rows: list[CalibrationRow] = []
    notes: list[str] = []
    if settings.get("model") and name != settings.get("model"):
        notes.append(f"the estimate is for {name}; the result measured the server's model {settings.get('model')}")
    for level in result.get("levels", []):
        concurrency = int(level["concurrency"])
        request = EstimateRequest(
            model=name, revision=settings.get("revision"), dtype=precision, input_len=input_len,
            output_len=output_len, concurrency=concurrency, gpu=gpu, engine=engine,
            tensor_parallel_size=tensor_parallel_size,
        )
        estimated = estimate(request, spec)
        perf = estimate_perf(estimated, catalog_gpu, spec, percentile=percentile)
        if level.get("client_lagged"):
            notes.append(f"c={concurrency}: the client lagged, the measurement is not valid")
        pairs = [
            ("TTFT mean (ms)", level["ttft_ms"].get("mean"), perf.ttft_mean_ms),
            (f"TTFT p{percentile:g} (ms)", level["ttft_ms"].get("at_percentile"), perf.ttft_ms),
            ("TPOT mean (ms)", level["tpot_ms"].get("mean"), perf.tpot_ms),
            ("output tok/s", level.get("output_tokens_per_s"), perf.output_tokens_per_s),
        ]
        for metric, measured, predicted in pairs:
            rows.append(CalibrationRow(
                concurrency=concurrency, metric=metric, measured=measured, predicted=predicted,
                ratio=measured / predicted if measured is not None and predicted else None,
            ))
        peak = level.get("peak_gpu_memory_bytes")
        if peak is not None and not memory_rows:
            memory_rows.append(CalibrationRow(
                concurrency=concurrency, metric="peak GPU memory (GiB)", measured=peak / 2**30,
                predicted=estimated.per_gpu.total_bytes / 2**30,
                ratio=peak / estimated.per_gpu.total_bytes if estimated.per_gpu.total_bytes else None,
            ))
    launch = result.get("launch") or {}
    memory = launch.get("startup_memory") or {}
    if memory and result.get("levels"):
        first = EstimateRequest(
            model=name, revision=settings.get("revision"), dtype=precision, input_len=input_len,
            output_len=output_len, gpu=gpu, engine="vllm", tensor_parallel_size=tensor_parallel_size,
        )
        startup = estimate(first, spec)
        if memory.get("weights_gib") is not None:
            weights = startup.per_gpu.weights_bytes / 2**30
            memory_rows.append(CalibrationRow(concurrency=0, metric="vLLM weights (GiB)",
                                              measured=memory["weights_gib"], predicted=weights,
                                              ratio=memory["weights_gib"] / weights if weights else None))
        if memory.get("kv_cache_tokens") is not None and startup.engine is not None:
            tokens = float(startup.engine.kv_cache_tokens)
            memory_rows.append(CalibrationRow(concurrency=0, metric="vLLM KV cache (tokens)",
                                              measured=float(memory["kv_cache_tokens"]), predicted=tokens,
                                              ratio=memory["kv_cache_tokens"] / tokens if tokens else None))
    return Calibration(
        model=name, revision=settings.get("revision"), gpu=gpu, measured_on=_hardware(result), dtype=precision,
        input_len=input_len, output_len=output_len, percentile=percentile, rows=rows, memory_rows=memory_rows,
        notes=notes,
    )


# ---------------------------------------------------------------- as tools


class ResultRef(BaseModel):
    """A benchmark result: the path of a JSON file written by `sizer-agent bench`, or the result itself."""

    path: str | None = Field(None, description="a result JSON written by sizer-agent bench")
    result: dict[str, Any] | None = Field(None, description="the result object itself")

    def load(self, field: str) -> dict[str, Any]:
        if (self.path is None) == (self.result is None):
            raise InputError(field, "give exactly one of `path` or `result`", "a result file path or object")
        if self.path is not None:
            return load_result(Path(self.path))
        assert self.result is not None
        if "kind" not in self.result:
            raise InputError(field, "not a benchmark result (no `kind`)", "an object written by sizer-agent bench")
        return self.result


class CompareRequest(BaseModel):
    """Two benchmark results to put side by side."""

    a: ResultRef
    b: ResultRef


def compare_bench(request: CompareRequest) -> Comparison:
    """Compare two benchmark results (serve, train or micro) side by side, as b / a ratios per metric, only
    when they were measured the same way (model revision, precision, lengths, concurrency, software versions);
    otherwise list every setting that differs. The hardware may differ: that is what a comparison is for."""
    return compare_results(request.a.load("a"), request.b.load("b"))


class CalibrateRequest(BaseModel):
    """A serve result and the catalogue GPU to predict it on."""

    result: ResultRef
    gpu: str = Field(min_length=1, description="catalogue GPU id the measurement ran on")
    model: str | None = Field(None, description="the model the estimator should use (default: the result's)")
    tensor_parallel_size: int = Field(1, ge=1)
    dtype: str | None = Field(None, description="precision (default: the result's)")


def calibrate_bench(request: CalibrateRequest) -> Calibration:
    """Compare a `bench serve` or `bench launch` result with the estimator's prediction for the same settings:
    TTFT, TPOT and output tokens/s per concurrency level, and vLLM's start-up memory, as measured / predicted."""
    return calibrate(request.result.load("result"), request.gpu, request.model, request.tensor_parallel_size,
                     request.dtype)
