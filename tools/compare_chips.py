"""Per-chip comparison across vendors (seed 003's normalisation): throughput per chip at the SLA, per euro and
per watt, side by side for NVIDIA, AMD, Google TPU and AWS Trainium.

Each chip is sized by the recommender as any offer is (the smallest configuration it sells that serves the
load, memory checked per chip under a named split, the SLA searched), then normalised:
- tokens/s per chip = sustained output tokens/s of the configuration / its chips;
- EUR per chip-hour = the configuration's hourly cost / its chips (a rental's price; a purchase amortised with
  energy, as `tools.costs` does);
- tokens per euro = tokens/s per chip x 3,600 / EUR per chip-hour (seed 003: "performances par euro");
- each chip in the best weight format its engine runs: the checkpoint's own, or 16 bits when the checkpoint is
  quantized (a chip's engine may refuse the format: vLLM Neuron on Trainium2 runs gpt-oss in bf16);
- tokens/s per watt = tokens/s per chip / the chip's TDP (none where the vendor publishes no TDP: TPU,
  Trainium, whose power is in the hourly price).
The co-design fill of the chip's matrix unit (tools.perf.codesign) is reported beside each row.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from sizer_agent.tools.catalog import Catalog, load_catalog
from sizer_agent.tools.catalog.models import STACKS, Stack
from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.perf.codesign import codesign
from sizer_agent.tools.perf.shape import ModelShape
from sizer_agent.tools.plan import Plan, RecommendResult

# Seed 003's benchmark models ("Llama 3.1 8B/70B/405B, Mixtral 8x7B, DeepSeek-V3, Qwen3-Coder-480B"),
# as registry names of tools/data/models.
BENCHMARK_MODELS: tuple[str, ...] = ("llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "mixtral-8x7b",
                                     "deepseek-v3", "qwen3-coder-480b")
# The interactive floor the recommender sizes an unstated target against (tools.recommend: 500 ms x 4 TTFT,
# 50 ms x 2 TPOT): a chip is compared at a latency people accept, not at any latency.
DEFAULT_SLO_TTFT_MS = 2000.0
DEFAULT_SLO_TPOT_MS = 100.0


class ChipRow(BaseModel):
    """One chip serving one model, normalised per chip."""

    model: str
    offer_id: str
    gpu_id: str
    gpu_name: str
    vendor: str
    stack: str
    fits: bool
    chips: int = Field(description="chips of the smallest configuration sold that serves the load")
    tensor_parallel: int
    pipeline_parallel: int
    weight_precision: str
    tokens_per_s: float | None = Field(None, description="sustained output tokens/s of the configuration")
    tokens_per_s_per_chip: float | None = None
    eur_per_chip_hour: float | None = None
    rented: bool = Field(description="priced by the hour (else a purchase amortised with energy)")
    tokens_per_eur: float | None = Field(None, description="output tokens per euro of chip time")
    eur_per_million_tokens: float | None = None
    tdp_w: float | None = Field(None, description="the chip's TDP; None where none is published")
    tokens_per_s_per_watt: float | None = None
    attention_fill: float | None = Field(None, description="co-design fill of attention math; None on GPUs")
    linear_fill: float | None = None
    kv_fill: float | None = Field(None, description="useful share of the KV bytes the engine stores (TPU: 128 lanes)")
    reason: Msg | None = Field(None, description="why it does not serve the load")


def _fills(plan: Plan, catalog: Catalog, shape: ModelShape | None) -> tuple[float, float, float] | None:
    """(attention, linear, KV) fill: computed from the shape, else read from the plan's co-design notes."""
    gpu = catalog.gpu(plan.gpu_id)
    if shape is not None:
        fit = codesign(shape, gpu)
        return None if fit is None else (fit.attention_fill, fit.linear_fill, fit.kv_fill)
    if gpu.matrix_tile is None:
        return None
    notes = {n.id: n.params for n in plan.notes}
    applied, kv = notes.get("codesign.applied", {}), notes.get("codesign.kv", {})
    # a tiled chip with no penalty note: the shapes fill the unit
    attention, linear, kv_fill = applied.get("attention", 1.0), applied.get("linear", 1.0), kv.get("fill", 1.0)
    if isinstance(attention, int | float) and isinstance(linear, int | float) and isinstance(kv_fill, int | float):
        return (float(attention), float(linear), float(kv_fill))
    return None


def chip_row(plan: Plan, catalog: Catalog, shape: ModelShape | None, model: str) -> ChipRow:
    """Normalise one evaluated configuration per chip (`shape` None: the co-design fill from the plan's note)."""
    gpu = catalog.gpu(plan.gpu_id)
    chips = plan.parallelism.num_gpus
    tokens = plan.serving.sustained_output_tokens_per_s if plan.serving is not None and plan.fits else None
    per_chip = tokens / chips if tokens else None
    hourly = plan.costs.hourly_eur / chips if plan.costs.hourly_eur is not None else None
    tdp = gpu.tdp_value_w
    fit = _fills(plan, catalog, shape)
    return ChipRow(
        model=model, offer_id=plan.offer_id, gpu_id=gpu.id, gpu_name=gpu.name, vendor=gpu.vendor,
        stack=gpu.software_stack, fits=plan.fits, chips=chips, tensor_parallel=plan.parallelism.tensor_parallel,
        pipeline_parallel=plan.parallelism.pipeline_parallel, weight_precision=plan.weight_precision,
        tokens_per_s=tokens, tokens_per_s_per_chip=per_chip, eur_per_chip_hour=hourly,
        rented=plan.purchase.how == "rent",
        tokens_per_eur=per_chip * 3600 / hourly if per_chip and hourly else None,
        eur_per_million_tokens=plan.costs.eur_per_million_tokens if plan.fits else None,
        tdp_w=tdp, tokens_per_s_per_watt=per_chip / tdp if per_chip and tdp else None,
        attention_fill=fit[0] if fit else None, linear_fill=fit[1] if fit else None,
        kv_fill=fit[2] if fit else None,
        reason=None if plan.fits or not plan.reasons else plan.reasons[0],
    )


def rows_from_result(result: RecommendResult, catalog: Catalog, shape: ModelShape | None = None) -> list[ChipRow]:
    """The best configuration of each chip among the options already evaluated (no new evaluation): the one
    with the most tokens per euro, else (nothing fits) the closest. Best value first, unpriced and
    non-fitting last."""
    best: dict[str, ChipRow] = {}
    for plan in result.options:
        if plan.serving is None and plan.fits:
            continue  # training or vision: no tokens per euro to compare
        if any(k.changes_workload for k in plan.knobs):
            continue  # the stated workload only
        row = chip_row(plan, catalog, shape, result.model)
        held = best.get(row.gpu_id)
        if held is None or _value(row) > _value(held):
            best[row.gpu_id] = row
    return sorted(best.values(), key=_value, reverse=True)


def _value(row: ChipRow) -> tuple[int, float, float]:
    return (1 if row.fits else 0, row.tokens_per_eur or 0.0, row.tokens_per_s_per_chip or 0.0)


class CompareRequest(BaseModel):
    models: list[str] = Field(default_factory=lambda: list(BENCHMARK_MODELS), min_length=1)
    input_len: int = Field(1024, ge=1)
    output_len: int = Field(256, ge=1)
    concurrency: int = Field(32, ge=1)
    slo_ttft_ms: float | None = Field(DEFAULT_SLO_TTFT_MS, gt=0)
    slo_tpot_ms: float | None = Field(DEFAULT_SLO_TPOT_MS, gt=0)
    quantization: str | None = Field(None, description="weight format for every model (default: the "
                                                       "checkpoint's own)")
    offer_ids: list[str] = Field(default_factory=list, description="offers compared (default: every rental, "
                                                                   "so that every chip is priced per hour)")
    stacks: list[Stack] = Field(default_factory=lambda: list(STACKS))  # type: ignore[arg-type]
    catalog: Path | None = None


class ModelComparison(BaseModel):
    model: str
    rows: list[ChipRow]


class CompareResult(BaseModel):
    input_len: int
    output_len: int
    concurrency: int
    slo_ttft_ms: float | None
    slo_tpot_ms: float | None
    comparisons: list[ModelComparison]


def compare_chips(request: CompareRequest) -> CompareResult:
    """Seed 003's per-chip table: each model on every chip's offer, per chip, per euro and per watt."""
    from sizer_agent.tools.recommend import RecommendRequest, recommend

    catalog = load_catalog(request.catalog)
    offers = request.offer_ids or [o.id for o in catalog.offers if o.kind == "cloud"
                                   and catalog.gpu(o.gpu).software_stack in request.stacks]
    out: list[ModelComparison] = []
    for name in request.models:
        spec = load_model(name)
        workload = EstimateRequest(model=name, mode="inference", input_len=request.input_len,
                                   output_len=request.output_len, concurrency=request.concurrency,
                                   quantization=request.quantization, engine="vllm")
        # a quantized checkpoint (gpt-oss MXFP4, DeepSeek FP8) is also tried in 16 bits: a chip whose engine
        # refuses the format (vLLM Neuron on Trainium2: no MXFP4) is compared in the format it runs
        workloads = [workload]
        if request.quantization is None and spec.quantization:
            workloads.append(workload.model_copy(update={"quantization": "none"}))  # the 16-bit weights
        options: list[Plan] = []
        for job in workloads:
            result = recommend(RecommendRequest(
                workload=job, slo_ttft_ms=request.slo_ttft_ms, slo_tpot_ms=request.slo_tpot_ms, search=False,
                offer_ids=offers, stacks=request.stacks, catalog=request.catalog), spec)
            options += result.options
        merged = result.model_copy(update={"options": options})
        out.append(ModelComparison(model=spec.name, rows=rows_from_result(merged, catalog,
                                                                          ModelShape.from_spec(spec))))
    return CompareResult(input_len=request.input_len, output_len=request.output_len,
                         concurrency=request.concurrency, slo_ttft_ms=request.slo_ttft_ms,
                         slo_tpot_ms=request.slo_tpot_ms, comparisons=out)
