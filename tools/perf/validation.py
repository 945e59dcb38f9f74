"""Check the performance model against published measurements (calibration set and held-out set).

Calibration set: the TensorRT-LLM max-throughput table on H100 SXM FP8 (`serving_perf_cases.json` of the
validation data); the efficiencies were fitted on its even rows only. Held-out set (`data/heldout_cases.json`):
the other columns of the same table (H200, B200, GB200, RTX PRO 6000 Server; FP4; MoE; pipeline parallelism)
and low-concurrency latency points (NVIDIA NIM, vLLM CI). Needs the memory estimator (tools.estimate).
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.perf.efficiency import DEFAULT_EFFICIENCIES, Efficiencies
from sizer_agent.tools.perf.serving import ServingSetup, predict_load, step_cost

DATA = Path(__file__).resolve().parent / "data"
HELDOUT_PATH = DATA / "heldout_cases.json"
CALIBRATION_PATH = DATA / "calibration_cases.json"  # copy of the validation set's serving_perf_cases.json
# trtllm-bench sizes the KV pool with kv_cache_free_gpu_mem_fraction 0.95 "in many cases" (perf-overview.md)
TRTLLM_FREE_FRACTION = 0.95
# running-sequence cap assumed for trtllm-bench max-throughput runs (its CUDA-graph batch list goes to 8192;
# 2048 is our assumption for the scheduler's max_batch_size)
TRTLLM_MAX_BATCH = 2048
GPU_BY_NAME = {"H100 SXM 80GB": "h100-sxm"}


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


def _setup(case: dict[str, Any], efficiencies: Efficiencies, concurrency: int = 1) -> ServingSetup:
    from sizer_agent.tools.estimate import EstimateRequest, estimate  # the memory side, imported when used
    from sizer_agent.tools.model_loader import load_model
    from sizer_agent.tools.perf.estimate import serving_setup

    gpu = load_catalog().gpu(case["gpu"])
    spec = load_model(case["model"])
    request = EstimateRequest(
        model=case["model"], quantization=case.get("quantization"), kv_cache_dtype=case.get("kv_cache_dtype", "auto"),
        input_len=case["isl"], output_len=case["osl"], concurrency=concurrency,
        tensor_parallel_size=case.get("tp", 1), pipeline_parallel_size=case.get("pp", 1),
    )
    result = estimate(request, spec)
    setup = serving_setup(result, gpu, spec, efficiencies, headroom=1.0 - TRTLLM_FREE_FRACTION)
    return setup.model_copy(update={"max_batch": TRTLLM_MAX_BATCH})


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


def predict_throughput(case: dict[str, Any], efficiencies: Efficiencies = DEFAULT_EFFICIENCIES) -> float:
    setup = _setup(case, efficiencies)
    return predict_load(setup, case["isl"], case["osl"], 10**6, offline=True).output_tokens_per_s


def check_throughput(name: str, cases: list[dict[str, Any]],
                     efficiencies: Efficiencies = DEFAULT_EFFICIENCIES) -> Summary:
    results = [CaseResult(id=c["id"], metric="total_output_tokens_per_s",
                          measured=c["metrics"]["total_output_tokens_per_s"],
                          predicted=predict_throughput(c, efficiencies)) for c in cases]
    return _summary(name, results)


def check_latency(cases: list[dict[str, Any]], efficiencies: Efficiencies = DEFAULT_EFFICIENCIES) -> Summary:
    results = []
    for case in cases:
        conc = case.get("concurrency", 1)
        setup = _setup(case, efficiencies, concurrency=conc)
        # a fixed batch submitted at once: every prompt is prefilled, then all decode together
        point = predict_load(setup, case["isl"], case["osl"], conc)
        measured = case["metrics"]
        if "ttft_ms" in measured:
            results.append(CaseResult(id=case["id"] + ":ttft", metric="ttft_ms", measured=measured["ttft_ms"],
                                      predicted=point.ttft_mean_ms))
        if "tpot_ms" in measured:
            results.append(CaseResult(id=case["id"] + ":tpot", metric="tpot_ms", measured=measured["tpot_ms"],
                                      predicted=point.tpot_ms))
        if "e2e_ms" in measured:
            # offline latency test: the whole batch is prefilled in one step, then decodes together
            isl, osl = case["isl"], case["osl"]
            prefill = step_cost(setup, 0.0, 0.0, float(conc * isl), float(isl)).time_s * setup.pp
            decode = step_cost(setup, conc / setup.pp, isl + osl / 2.0, 0.0, float(isl)).time_s * setup.pp
            results.append(CaseResult(id=case["id"] + ":e2e", metric="e2e_ms", measured=measured["e2e_ms"],
                                      predicted=(prefill + osl * decode) * 1e3))
    return _summary("latency", results)


def _summary(name: str, results: list[CaseResult]) -> Summary:
    errors = [abs(r.error) for r in results]
    return Summary(name=name, count=len(results), median_abs_error=statistics.median(errors),
                   max_abs_error=max(errors), cases=results)
