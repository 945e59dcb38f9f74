"""`estimate_perf`: turn a memory estimate (tools.estimate.EstimateResult) into a performance estimate.

The memory side decides what is resident (weights per GPU, KV bytes per token, KV capacity); this module adds
time: TTFT, TPOT, output tokens/s at the requested concurrency, the bound of each phase with its roofline
point, the largest concurrency that fits, the SLA search, and for training the step time and goodput.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.catalog.models import Gpu
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.perf.codesign import CoDesign, codesign, kv_fill_after
from sizer_agent.tools.perf.efficiency import DEFAULT_EFFICIENCIES, Efficiencies
from sizer_agent.tools.perf.offload import OffloadTime, offload_time
from sizer_agent.tools.perf.serving import (
    Bound,
    RooflinePoint,
    ServingSetup,
    SlaResult,
    max_concurrency_memory,
    predict_load,
    prefill_time_s,
    roofline,
    sla_search,
    step_cost,
)
from sizer_agent.tools.perf.shape import ModelShape
from sizer_agent.tools.perf.training import TrainingEstimate, TrainingSetup, estimate_training

if TYPE_CHECKING:
    from sizer_agent.tools.estimate import EstimateResult
    from sizer_agent.tools.model_spec import ModelSpec

DEFAULT_MAX_NUM_SEQS = 1024  # cap on running sequences when no engine profile says otherwise


class PerfEstimate(BaseModel):
    """Predicted speed of one deployment; `perf` in `estimate --json` and in each recommendation option."""

    mode: Literal["inference", "training"]
    gpu: str
    num_gpus: int
    compute_precision: str
    concurrency: int | None = None
    percentile: float = 99.0
    ttft_ms: float | None = Field(None, description="time to first token at the percentile, at the concurrency")
    ttft_mean_ms: float | None = None
    tpot_ms: float | None = Field(None, description="time per output token (decode step) at the concurrency")
    e2e_ms: float | None = None
    output_tokens_per_s: float | None = Field(None, description="all GPUs, at the requested concurrency")
    output_tokens_per_s_per_gpu: float | None = None
    bound: Bound = Field(description="what limits the dominant phase: compute, memory or communication")
    max_concurrency_memory: int | None = Field(None, description="full-length requests whose KV cache fits")
    max_output_tokens_per_s: float | None = Field(None, description="at max_concurrency_memory, saturated")
    sla: SlaResult | None = None
    roofline: list[RooflinePoint] = Field(default_factory=list)
    training: TrainingEstimate | None = None
    codesign: CoDesign | None = Field(None, description="matrix-unit fill of the model on this chip (TPU, "
                                                        "Trainium); None on GPUs")
    assumptions: list[Msg] = Field(default_factory=list)
    weight_offload: OffloadTime | None = None  # weights read from host RAM every step (tools/perf/offload.py)
    tpot_ms_without_offload: float | None = None  # the same load if the weights all fitted on the GPU
    output_tokens_per_s_without_offload: float | None = None
    # one request alone, the weights all on the GPU: the prompt's own wait, which an assumed TTFT floor leaves out
    # (the host-link time offload adds to it is the configuration's cost, not the prompt's)
    ttft_one_ms_without_offload: float | None = None


def compute_precision(weight_format: str, gpu: Gpu) -> str:
    """Precision the weight GEMMs run in: weight+activation formats use their unit, weight-only run 16-bit."""
    name = weight_format.lower()
    if name.startswith("fp8") and gpu.peak_flops("fp8"):
        return "fp8"
    if name.startswith("int8") and gpu.peak_flops("int8"):
        return "int8"
    if name in ("nvfp4", "mxfp4") and gpu.peak_flops("fp4"):
        return "fp4"
    if name in ("float32", "fp32") and not gpu.peak_flops("bf16"):
        return "fp32"
    return "bf16" if gpu.peak_flops("bf16") else "fp16"


def serving_setup(result: EstimateResult, gpu: Gpu, model: ModelSpec | ModelShape,
                  efficiencies: Efficiencies = DEFAULT_EFFICIENCIES, headroom: float = 0.0) -> ServingSetup:
    """The performance inputs of one estimate: what is resident per GPU and how much KV cache fits."""
    shape = model if isinstance(model, ModelShape) else ModelShape.from_spec(model)
    plan = result.parallelism
    tp, pp, dp = plan.tensor_parallel_size, plan.pipeline_parallel_size, plan.data_parallel_size
    stage_kv = max(result.kv_cache_bytes_per_token, 1)
    max_batch = DEFAULT_MAX_NUM_SEQS
    if result.engine is not None:
        kv_tokens = int(result.engine.kv_cache_tokens)
        max_batch = int(result.engine.max_num_seqs)
    else:
        memory = result.gpu_memory_bytes or gpu.memory_bytes
        resident = result.per_gpu.total_bytes - result.per_gpu.kv_cache_bytes
        kv_tokens = max(0, int((memory * (1.0 - headroom) - resident) // stage_kv))
    attention = "fp8" if result.kv_cache_dtype_bytes <= 1 and gpu.peak_flops("fp8") else "bf16"
    fit = codesign(shape, gpu)
    # padded KV heads (vLLM on TPU): more bytes per token, fewer tokens in the pool. The memory estimate
    # already stores them padded when it knew the chip; only what it did not pad is applied here.
    kv_fill = kv_fill_after(shape, gpu, result.kv_head_alignment)
    return ServingSetup(
        gpu=gpu, shape=shape, weight_bytes_total=result.weight_bytes_total,
        kv_bytes_per_token=round(stage_kv * pp / kv_fill), kv_capacity_tokens=int(kv_tokens * kv_fill),
        compute_precision=compute_precision(result.weight_format, gpu), attention_precision=attention,
        tp=tp, pp=pp, replicas=dp, max_batch=max_batch, efficiencies=efficiencies,
        attention_fill=fit.attention_fill if fit else 1.0, linear_fill=fit.linear_fill if fit else 1.0,
    )


def _training(result: EstimateResult, gpu: Gpu, shape: ModelShape, efficiencies: Efficiencies,
              extra: dict[str, Any]) -> PerfEstimate:
    request, plan = result.request, result.parallelism
    memory = result.training
    fit = codesign(shape, gpu)
    trainable = memory.trainable_params if memory is not None else shape.params_total
    tokens = request.batch_size * request.seq_len * request.gradient_accumulation_steps * plan.data_parallel_size
    setup = TrainingSetup(
        gpu=gpu, params_active=shape.params_active, trainable_params=max(trainable, 1), tokens_per_step=tokens,
        num_gpus=plan.num_gpus, data_parallel=plan.data_parallel_size,
        precision=compute_precision(result.weight_format, gpu),
        recompute=request.gradient_checkpointing,
        checkpoint_bytes=memory.checkpoint_resume_bytes if memory is not None else 0,
        efficiencies=efficiencies, compute_fill=fit.linear_fill if fit else 1.0, **extra,
    )
    train = estimate_training(setup)
    return PerfEstimate(
        mode="training", gpu=gpu.id, num_gpus=plan.num_gpus, compute_precision=setup.precision,
        bound=train.bound, training=train, codesign=fit,
        assumptions=[*train.notes, Msg("speed.tokens_per_step"), *(fit.messages() if fit else [])],
    )


def estimate_perf(result: EstimateResult, gpu: Gpu, model: ModelSpec | ModelShape, *,
                  efficiencies: Efficiencies = DEFAULT_EFFICIENCIES, percentile: float = 99.0,
                  slo_ttft_ms: float | None = None, slo_tpot_ms: float | None = None, headroom: float = 0.0,
                  training: dict[str, Any] | None = None) -> PerfEstimate:
    """Speed of the deployment described by `result` on `gpu` (a catalogue entry)."""
    shape = model if isinstance(model, ModelShape) else ModelShape.from_spec(model)
    if result.request.mode == "training":
        return _training(result, gpu, shape, efficiencies, training or {})
    request = result.request
    fit = codesign(shape, gpu)
    isl, osl, conc = request.input_len, request.output_len, request.concurrency
    offload = None
    if result.weight_offload is not None:
        offload = offload_time(result.weight_offload.offloaded_bytes_per_gpu, gpu,
                               host_bandwidth_gbs=request.host_memory_gbs)
        plain = serving_setup(result, gpu, shape, efficiencies, headroom)
        without = predict_load(plain, isl, osl, conc, percentile)
        resolved = plain.effective_efficiencies  # the calibrated set, then the host-link read on top
        efficiencies = resolved.model_copy(
            update={"step_overhead_s": resolved.step_overhead_s + offload.seconds_per_step})
    setup = serving_setup(result, gpu, shape, efficiencies, headroom)
    point = predict_load(setup, isl, osl, conc, percentile)
    lone = prefill_time_s(setup, isl)
    decode = step_cost(setup, point.running_batch / setup.pp, isl + osl / 2.0, 0.0, float(isl))
    cap = max_concurrency_memory(setup, isl, osl)
    best = predict_load(setup, isl, osl, cap, percentile, offline=True) if cap >= 1 else None
    sla = None
    if slo_ttft_ms is not None or slo_tpot_ms is not None:
        sla = sla_search(setup, isl, osl, slo_ttft_ms, slo_tpot_ms, percentile)
    # the phase that takes the longer share of a request decides the bound reported
    decode_share = (osl - 1) * point.tpot_ms
    bound = point.bound if decode_share >= point.ttft_mean_ms else lone.bound
    eff = setup.effective_efficiencies
    return PerfEstimate(
        mode="inference", gpu=gpu.id, num_gpus=setup.num_gpus, compute_precision=setup.compute_precision,
        concurrency=conc, percentile=percentile, ttft_ms=point.ttft_ms, ttft_mean_ms=point.ttft_mean_ms,
        tpot_ms=point.tpot_ms, e2e_ms=point.e2e_ms, output_tokens_per_s=point.output_tokens_per_s,
        output_tokens_per_s_per_gpu=point.output_tokens_per_s_per_gpu, bound=bound,
        max_concurrency_memory=cap, max_output_tokens_per_s=best.output_tokens_per_s if best else None,
        sla=sla, roofline=[roofline(setup, "prefill", lone), roofline(setup, "decode", decode)],
        codesign=fit,
        assumptions=[
            Msg("speed.efficiencies", bandwidth=eff.bandwidth, compute=eff.compute,
                overhead_ms=eff.step_overhead_s * 1e3),
            Msg("speed.continuous_batching"),
            Msg("speed.ttft_queue", percentile=percentile),
            *(fit.messages() if fit else []),
            *([Msg("speed.weight_offload", gib=offload.offloaded_bytes_per_gpu / 2**30, gbs=offload.link_gbs,
                   ms=offload.seconds_per_step * 1e3)] if offload else []),
        ],
        weight_offload=offload,
        tpot_ms_without_offload=without.tpot_ms if offload else None,
        output_tokens_per_s_without_offload=without.output_tokens_per_s if offload else None,
        ttft_one_ms_without_offload=predict_load(plain, isl, osl, 1, percentile).ttft_ms if offload else None,
    )


def perf_for_estimate(result: EstimateResult, model: ModelSpec | None = None,
                      catalog_path: Any = None) -> PerfEstimate | None:
    """`estimate --json` perf block: needs a catalogue GPU (`--gpu ID`); None with only `--gpu-memory-gib`."""
    if result.request.gpu is None:
        return None
    from sizer_agent.tools.catalog import load_catalog
    from sizer_agent.tools.model_loader import load_model

    gpu = load_catalog(catalog_path).gpu(result.request.gpu)
    spec = model or load_model(result.request.model, result.request.revision)
    return estimate_perf(result, gpu, spec)
