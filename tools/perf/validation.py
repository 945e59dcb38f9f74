"""Check the performance model against published serving measurements, split in a stated, reproducible way.

Rows (all with their source in the data files):
- `data/calibration_cases.json`: TensorRT-LLM max-throughput table, H100 SXM FP8 (Llama 3.1 8B, Llama 3.3 70B);
- `data/heldout_cases.json`: the other columns of that table used before issue #13 (H200 FP8, B200/GB200/RTX PRO
  6000 FP4, Qwen3-30B-A3B MoE, pipeline parallelism) and latency points (NVIDIA NIM, vLLM CI, TensorRT-LLM 0.5);
- `data/fresh_heldout_cases.json`: the table's remaining columns (Llama 4 Scout, Llama 3.1 405B, more GB200 and
  RTX PRO columns), committed before the model was ever run on them;
- `data/fresh2_heldout_cases.json`: TensorRT-LLM v0.9 static batches (Mistral 7B, Llama 2 7B, Mixtral 8x7B);
- `data/fresh3_cases.json`: 726 rows transcribed on 2026-12-02 without the model run on them (TensorRT-LLM
  v0.17 / v0.20 / PyTorch-backend tables, NIM 1.8): Llama, Mistral, Mixtral, Qwen3-30B-A3B / 235B-A22B,
  DeepSeek-R1, gpt-oss on H100/H200/L40S/A100/B200/GB200/RTX PRO 6000. Notes: data/fresh3_README.md.

Split rule (SPLIT_RULE): the first two files were seen while the model was built, so they are split by a hash
of the row id: sha256(id) even -> "calibration", odd -> "validation". The fresh rows are all "fresh" (held out,
never seen). fresh3 rows are split by the same hash, fixed before any of them was scored: even ->
"calibration3" (fitted with the calibration split), odd -> "fresh3" (held out; scored once, after the constants
were merged, with `calibrate --score-fresh3-once`). fresh3 rows the model cannot set up are excluded with the reason
(`fresh3_excluded`). `tools/perf/calibrate.py` fits the efficiencies on calibration + calibration3 only.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.perf.efficiency import DEFAULT_EFFICIENCIES, Efficiencies, calibration_key
from sizer_agent.tools.perf.serving import ServingSetup, predict_load, step_cost

DATA = Path(__file__).resolve().parent / "data"
HELDOUT_PATH = DATA / "heldout_cases.json"
FRESH_PATH = DATA / "fresh_heldout_cases.json"
FRESH2_PATH = DATA / "fresh2_heldout_cases.json"
FRESH3_PATH = DATA / "fresh3_cases.json"
CALIBRATION_PATH = DATA / "calibration_cases.json"  # copy of the validation set's serving_perf_cases.json
SPLIT_RULE = ("rows of calibration_cases.json and heldout_cases.json: sha256(row id) even -> calibration, "
              "odd -> validation; rows of fresh_heldout_cases.json -> fresh, of fresh2_heldout_cases.json -> "
              "fresh2 (held out); rows of fresh3_cases.json: sha256(row id) even -> calibration3 (fitted with "
              "calibration), odd -> fresh3 (held out), rows the model cannot set up excluded with the reason")
# trtllm-bench sizes the KV pool with kv_cache_free_gpu_mem_fraction 0.95 "in many cases" (perf-overview.md)
TRTLLM_FREE_FRACTION = 0.95
# running-sequence cap assumed for trtllm-bench max-throughput runs (its CUDA-graph batch list goes to 8192;
# 2048 is our assumption for the scheduler's max_batch_size)
TRTLLM_MAX_BATCH = 2048
GPU_BY_NAME = {"H100 SXM 80GB": "h100-sxm"}
Split = Literal["calibration", "calibration3", "validation", "fresh", "fresh2", "fresh3"]
FIT_SPLITS: tuple[Split, ...] = ("calibration", "calibration3")
# every split but fresh3, whose scores nobody reads until it is scored once (calibrate --score-fresh3-once)
SEEN_SPLITS: tuple[Split, ...] = ("calibration", "calibration3", "validation", "fresh", "fresh2")


class CaseResult(BaseModel):
    id: str
    metric: str
    measured: float
    predicted: float

    @property
    def error(self) -> float:
        return self.predicted / self.measured - 1.0


class Summary(BaseModel):
    name: str
    count: int
    median_abs_error: float
    max_abs_error: float
    cases: list[CaseResult]


@lru_cache(maxsize=1024)
def _base_setup(key: str) -> ServingSetup:
    """Memory side of one row (the slow part), cached; efficiencies are swapped in by _setup."""
    from sizer_agent.tools.estimate import EstimateRequest, estimate  # the memory side, imported when used
    from sizer_agent.tools.model_loader import load_model
    from sizer_agent.tools.perf.estimate import serving_setup

    case = json.loads(key)
    gpu = load_catalog().gpu(case["gpu"])
    spec = load_model(case["model"])
    request = EstimateRequest(
        model=case["model"], quantization=case.get("quantization"), kv_cache_dtype=case.get("kv_cache_dtype", "auto"),
        input_len=case["isl"], output_len=case["osl"], concurrency=case["concurrency"],
        tensor_parallel_size=case.get("tp", 1), pipeline_parallel_size=case.get("pp", 1),
    )
    result = estimate(request, spec)
    setup = serving_setup(result, gpu, spec, headroom=1.0 - TRTLLM_FREE_FRACTION)
    return setup.model_copy(update={"max_batch": TRTLLM_MAX_BATCH})


_KEYS: dict[tuple[str, int], str] = {}  # row id (unique, tested) -> its set-up key: the fit asks thousands of times


def _setup(case: dict[str, Any], efficiencies: Efficiencies, concurrency: int = 1) -> ServingSetup:
    row_id = case.get("id")
    key = _KEYS.get((row_id, concurrency)) if row_id else None
    if key is None:
        fields = ("model", "gpu", "quantization", "kv_cache_dtype", "isl", "osl", "tp", "pp")
        key = json.dumps({**{f: case.get(f) for f in fields}, "concurrency": concurrency}, sort_keys=True)
        if row_id:
            _KEYS[(row_id, concurrency)] = key
    return _base_setup(key).model_copy(update={"efficiencies": efficiencies})


def calibration_cases(path: Path = CALIBRATION_PATH) -> list[dict[str, Any]]:
    """The validation file's rows, normalised to the held-out layout (gpu id, quantization, fp8 KV)."""
    out = []
    for row in json.loads(path.read_text()):
        model = "meta-llama/Llama-3.1-8B-Instruct" if "8B" in row["model"] else "meta-llama/Llama-3.1-70B-Instruct"
        out.append({"id": row["id"], "model": model, "gpu": GPU_BY_NAME[row["gpu"]], "tp": row["tp"], "pp": 1,
                    "quantization": "fp8", "kv_cache_dtype": "fp8", "isl": row["isl"], "osl": row["osl"],
                    "metrics": row["metrics"]})
    return out


def heldout_cases() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads(HELDOUT_PATH.read_text())
    return data


def fresh_cases() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(FRESH_PATH.read_text())["throughput"]
    return rows


def fresh2_cases() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads(FRESH2_PATH.read_text())
    return data


def _hash_even(row_id: str) -> bool:
    return int(hashlib.sha256(row_id.encode()).hexdigest(), 16) % 2 == 0


def hash_split(row_id: str) -> Literal["calibration", "validation"]:
    return "calibration" if _hash_even(row_id) else "validation"


def fresh3_split(row_id: str) -> Literal["calibration3", "fresh3"]:
    return "calibration3" if _hash_even(row_id) else "fresh3"


def _fresh3_reason(row: dict[str, Any], kind: str) -> str | None:
    """Why the model cannot price a fresh3 row, or None."""
    if kind == "rate_latency":
        return "open-loop request-rate run: concurrency not published, and the model needs it"
    if row.get("attention_dp") or row.get("ep"):
        return (f"{row.get('parallelism', 'DEP')}: attention data parallel + expert parallel; the model has "
                "tensor/pipeline parallel and replicas only")
    try:
        load_catalog().gpu(row["gpu"])
        _setup(row, DEFAULT_EFFICIENCIES, row.get("concurrency", 1))
    except Exception as exc:  # any set-up failure (memory, precision, shape) is recorded as the reason
        return f"cannot be set up: {type(exc).__name__}: {exc}"
    return None


@lru_cache(maxsize=1)
def _fresh3() -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, str], ...]]:
    data = json.loads(FRESH3_PATH.read_text())
    kinds = {"throughput": "throughput", "throughput_per_gpu": "throughput", "latency": "latency",
             "rate_latency": "rate_latency"}
    kept: list[dict[str, Any]] = []
    excluded: list[dict[str, str]] = []
    for key, kind in kinds.items():
        for row in data[key]:
            split = fresh3_split(row["id"])
            reason = _fresh3_reason(row, kind)
            if reason:
                excluded.append({"id": row["id"], "split": split, "reason": reason})
            else:
                kept.append({**row, "kind": kind, "split": split})
    return tuple(kept), tuple(excluded)


def fresh3_excluded() -> list[dict[str, str]]:
    """fresh3 rows left out of both halves, each with its split and the reason (never dropped silently)."""
    return list(_fresh3()[1])


def all_rows() -> list[dict[str, Any]]:
    """Every published row with `kind` (throughput | latency) and `split` (SPLIT_RULE)."""
    held = heldout_cases()
    rows = [{**r, "kind": "throughput", "split": hash_split(r["id"])} for r in calibration_cases() + held["throughput"]]
    rows += [{**r, "kind": "latency", "split": hash_split(r["id"])} for r in held["latency"]]
    rows += [{**r, "kind": "throughput", "split": "fresh"} for r in fresh_cases()]
    fresh2 = fresh2_cases()
    rows += [{**r, "kind": "static", "split": "fresh2"} for r in fresh2["static"]]
    rows += [{**r, "kind": "latency", "split": "fresh2"} for r in fresh2["latency"]]
    rows += list(_fresh3()[0])
    return rows


def rows_of(split: Split) -> list[dict[str, Any]]:
    return [r for r in all_rows() if r["split"] == split]


def fit_rows() -> list[dict[str, Any]]:
    """The rows the calibration fits: calibration + calibration3."""
    return [r for split in FIT_SPLITS for r in rows_of(split)]


def row_key(row: dict[str, Any]) -> str:
    """Calibration family of a row: generation/precision of its GPU and weight format ('hopper/fp8')."""
    return calibration_key(load_catalog().gpu(row["gpu"]).architecture,
                           _setup(row, DEFAULT_EFFICIENCIES, row.get("concurrency", 1)).compute_precision)


def is_moe(row: dict[str, Any]) -> bool:
    return _setup(row, DEFAULT_EFFICIENCIES, row.get("concurrency", 1)).shape.is_moe


def predict_throughput(case: dict[str, Any], efficiencies: Efficiencies = DEFAULT_EFFICIENCIES) -> float:
    setup = _setup(case, efficiencies)
    return predict_load(setup, case["isl"], case["osl"], 10**6, offline=True).output_tokens_per_s


def score_row(row: dict[str, Any], efficiencies: Efficiencies = DEFAULT_EFFICIENCIES) -> list[CaseResult]:
    """Every published metric of one row against the model's prediction."""
    if row.get("kind", "throughput") == "throughput" and "total_output_tokens_per_s" in row["metrics"]:
        return [CaseResult(id=row["id"], metric="total_output_tokens_per_s",
                           measured=row["metrics"]["total_output_tokens_per_s"],
                           predicted=predict_throughput(row, efficiencies))]
    if row.get("kind") == "throughput" and "output_tokens_per_s_per_gpu" in row["metrics"]:
        # the source publishes output tokens/s per GPU (fresh3 source G): the same offline run, over its GPUs
        per_gpu = predict_throughput(row, efficiencies) / _setup(row, efficiencies).num_gpus
        return [CaseResult(id=row["id"], metric="output_tokens_per_s_per_gpu",
                           measured=row["metrics"]["output_tokens_per_s_per_gpu"], predicted=per_gpu)]
    if row.get("kind") == "static":
        return [_static_throughput(row, efficiencies)]
    return _latency_results(row, efficiencies)


def _static_time_s(setup: ServingSetup, batch: int, isl: int, osl: int) -> float:
    """A static batch: every prompt prefilled in one pass, then osl decode steps of the whole batch."""
    prefill = step_cost(setup, 0.0, 0.0, float(batch * isl), float(isl)).time_s * setup.pp
    decode = step_cost(setup, batch / setup.pp, isl + osl / 2.0, 0.0, float(isl)).time_s * setup.pp
    return prefill + osl * decode


def _static_throughput(case: dict[str, Any], efficiencies: Efficiencies) -> CaseResult:
    batch, isl, osl = case["concurrency"], case["isl"], case["osl"]
    setup = _setup(case, efficiencies, concurrency=batch)
    per_gpu = batch * osl / _static_time_s(setup, batch, isl, osl) / setup.num_gpus
    return CaseResult(id=case["id"], metric="output_tokens_per_s_per_gpu",
                      measured=case["metrics"]["output_tokens_per_s_per_gpu"], predicted=per_gpu)


def _latency_results(case: dict[str, Any], efficiencies: Efficiencies) -> list[CaseResult]:
    conc = case.get("concurrency", 1)
    setup = _setup(case, efficiencies, concurrency=conc)
    point = predict_load(setup, case["isl"], case["osl"], conc)
    measured = case["metrics"]
    results = []
    if "ttft_ms" in measured:
        results.append(CaseResult(id=case["id"] + ":ttft", metric="ttft_ms", measured=measured["ttft_ms"],
                                  predicted=point.ttft_mean_ms))
    if "tpot_ms" in measured:
        results.append(CaseResult(id=case["id"] + ":tpot", metric="tpot_ms", measured=measured["tpot_ms"],
                                  predicted=point.tpot_ms))
    if "e2e_ms" in measured:
        # offline latency test: the whole batch is prefilled in one step, then decodes together
        results.append(CaseResult(id=case["id"] + ":e2e", metric="e2e_ms", measured=measured["e2e_ms"],
                                  predicted=_static_time_s(setup, conc, case["isl"], case["osl"]) * 1e3))
    return results


def check_throughput(name: str, cases: list[dict[str, Any]],
                     efficiencies: Efficiencies = DEFAULT_EFFICIENCIES) -> Summary:
    results = [CaseResult(id=c["id"], metric="total_output_tokens_per_s",
                          measured=c["metrics"]["total_output_tokens_per_s"],
                          predicted=predict_throughput(c, efficiencies)) for c in cases]
    return summarise(name, results)


def check_latency(cases: list[dict[str, Any]], efficiencies: Efficiencies = DEFAULT_EFFICIENCIES) -> Summary:
    return summarise("latency", [r for case in cases for r in _latency_results(case, efficiencies)])


def check_rows(name: str, rows: list[dict[str, Any]], efficiencies: Efficiencies = DEFAULT_EFFICIENCIES) -> Summary:
    return summarise(name, [r for row in rows for r in score_row(row, efficiencies)])


def summarise(name: str, results: list[CaseResult]) -> Summary:
    errors = [abs(r.error) for r in results]
    return Summary(name=name, count=len(results), median_abs_error=statistics.median(errors) if errors else 0.0,
                   max_abs_error=max(errors, default=0.0), cases=results)


REPORT_GROUPS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "all": lambda r: True,
    "Hopper FP8": lambda r: row_key(r) == "hopper/fp8",
    "Blackwell FP4 (B200/GB200)": lambda r: row_key(r) == "blackwell/fp4",
    "Blackwell GB20x FP4 (RTX PRO 6000)": lambda r: row_key(r) == "blackwell-gb20x/fp4",
    "MoE": is_moe,
    "dense": lambda r: not is_moe(r),
}


def report(efficiencies: Efficiencies = DEFAULT_EFFICIENCIES,
           splits: tuple[Split, ...] = SEEN_SPLITS) -> dict[str, dict[str, dict[str, Any]]]:
    """{split: {group: {count, median, max}}} for throughput and latency metrics apart. fresh3 only when asked."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for split in splits:
        rows = rows_of(split)
        table: dict[str, dict[str, Any]] = {}
        for group, member in REPORT_GROUPS.items():
            chosen = [r for r in rows if member(r)]
            results = [c for r in chosen for c in score_row(r, efficiencies)]
            for metric in ("total_output_tokens_per_s", "output_tokens_per_s_per_gpu", "ttft_ms", "tpot_ms", "e2e_ms"):
                part = [c for c in results if c.metric == metric]
                if part:
                    s = summarise(group, part)
                    table[f"{group} | {metric}"] = {"count": s.count, "median": round(s.median_abs_error, 4),
                                                    "max": round(s.max_abs_error, 4)}
        out[split] = table
    return out
