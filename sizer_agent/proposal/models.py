"""The proposal context models: what the templates receive, all numbers already in display units.

Bytes become GiB (2^30) or decimal GB/TB where the field name says so, FLOP/s become TFLOP/s; nothing
else is transformed. Built by `sizer_agent.proposal.context.build_context`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel as _PydanticModel
from pydantic import ConfigDict, Field


class BaseModel(_PydanticModel):
    # Session text fields may hold numbers (a revision "2", a version 0.11): print them, do not refuse them.
    model_config = ConfigDict(coerce_numbers_to_str=True)

RiskCode = Literal[
    "tool", "revision_unpinned", "no_recommend", "no_recommendation", "not_measured", "settings_mismatch",
    "no_level_at_load", "client_lagged", "assumed_answers",
]
SoftwareKey = Literal[
    "model", "revision", "framework", "framework_version", "engine", "engine_version", "gpu", "driver",
    "sizer_agent",
]


class Answer(BaseModel):
    field: str
    value: Any
    assumed: bool
    raw_text: str
    corrections: int  # earlier values in the history


class MemoryTerm(BaseModel):
    key: str
    bytes: int
    gib: float
    share_pct: float  # of the per-GPU total


class EngineProfile(BaseModel):
    name: str | None
    budget_gib: float | None
    total_used_gib: float | None  # budget plus what the engine holds outside it (CUDA graphs, context)
    kv_cache_gib: float | None
    kv_cache_tokens: int | None
    max_concurrency: float | None
    gpu_memory_utilization: float | None


class WeightFigure(BaseModel):
    precision: str
    bytes_per_param: float
    gb: float  # decimal GB, as the seed documents quote them (70 B × 2 bytes = 140 GB)


class Sizing(BaseModel):
    model: str
    revision: str | None
    architecture: str | None
    params_total: int | None
    params_active: int | None
    mode: str
    precision: str
    kv_cache_dtype: str | None
    input_len: int | None
    output_len: int | None
    concurrency: int | None
    max_model_len: int | None
    gpu: str | None
    terms: list[MemoryTerm]
    total_bytes: int
    total_gib: float
    dominant: str
    gpu_memory_gib: float | None
    fits: bool | None
    headroom_gib: float | None
    kv_bytes_per_token: int | None
    weight_gb_total: float | None  # decimal GB, whole model, with quantization metadata
    weight_figures: list[WeightFigure]
    engine: EngineProfile | None


class OptionPerf(BaseModel):
    ttft_ms: float | None = None
    tpot_ms: float | None = None
    output_tokens_per_s: float | None = None
    max_concurrency_under_slo: float | None = None
    sla_met: bool | None = None
    sustained_output_tokens_per_s: float | None = None


class Option(BaseModel):
    offer_id: str
    name: str
    kind: str | None
    gpu: str
    num_gpus: int
    tp: int
    pp: int
    precision: str | None
    price_eur: float | None
    hourly_eur: float | None  # cloud: the price; owned hardware: amortised price + energy (the cost basis)
    fits: bool
    recommended: bool
    reasons: list[str]  # why it does not fit
    notes: list[str]  # warnings that do not reject it
    per_gpu_total_gib: float | None
    gpu_memory_gib: float | None
    headroom_pct: float | None
    perf: OptionPerf | None
    eur_per_million_tokens: float | None
    tokens_per_s_per_keur: float | None
    power_w: float | None


class OfferVerdict(BaseModel):
    offer_id: str
    name: str
    fits: bool
    summary: str


class Recommendation(BaseModel):
    recommended_id: str | None
    reason: str | None
    options: list[Option]  # the recommended one, then the best option of every other offer
    evaluated: int  # options the tool checked in all
    offers: list[OfferVerdict]
    assumptions: list[str]


class RooflinePoint(BaseModel):
    phase: str
    operational_intensity: float
    attainable_tflops: float
    bound: str | None
    time_ms: float | None


class Roofline(BaseModel):
    peak_tflops: float
    bandwidth_tb_s: float
    ridge_flops_per_byte: float | None
    precision: str | None
    points: list[RooflinePoint]


class Performance(BaseModel):
    basis: Literal["recommended", "estimate"]
    offer_id: str | None
    concurrency: int | None
    percentile: float  # of the estimated TTFT
    ttft_ms: float | None
    ttft_mean_ms: float | None
    tpot_ms: float | None
    output_tokens_per_s: float | None
    max_concurrency_under_slo: float | None
    sustained_output_tokens_per_s: float | None
    eur_per_million_tokens: float | None
    tokens_per_s_per_keur: float | None
    bound: str | None
    slo_ttft_ms: float | None
    slo_tpot_ms: float | None
    slo_percentile: float
    roofline: Roofline | None
    assumptions: list[str]


class Stat(BaseModel):
    mean: float | None = None
    p50: float | None = None
    p90: float | None = None
    p99: float | None = None


class Level(BaseModel):
    concurrency: int
    requests_completed: int | None
    requests_failed: int | None
    ttft_ms: Stat
    tpot_ms: Stat
    itl_ms: Stat
    output_tokens_per_s: float | None
    total_tokens_per_s: float | None
    goodput_rps: float | None
    client_lagged: bool
    peak_gpu_memory_gib: float | None
    meets_slo: bool | None  # the level's own verdict, else from sla_max_concurrency; None without an SLA


class Comparison(BaseModel):
    metric: Literal["ttft_p", "ttft_mean", "tpot_mean", "output_tokens_per_s", "peak_memory_gib"]
    estimate: float | None
    measured: float | None
    deviation_pct: float | None


class Measured(BaseModel):
    settings: dict[str, Any]  # the trial settings, flattened (model, precision, lengths, engine, gpu, driver…)
    created: str | None
    percentile_method: str | None
    levels: list[Level]
    sla_max_concurrency: int | None
    at_load: Level | None
    comparable: bool
    mismatches: list[str]  # trial settings that differ from the estimate's
    comparison: list[Comparison]
    warnings: list[str]


class HostItem(BaseModel):
    key: str
    kind: Literal["bytes", "quantity", "bool", "text"]
    value: Any
    unit: str | None = None
    gib: float | None = None
    tb: float | None = None
    reason: str | None
    source: str | None


class MultiGpu(BaseModel):
    num_gpus: int
    tp: int
    pp: int
    dp: int
    notes: list[str]


class Risk(BaseModel):
    code: RiskCode  # "tool": a warning a tool wrote (its text is in `text`); else catalogue key risk.<code>
    text: str | None = None
    items: list[str] = Field(default_factory=list)


class Command(BaseModel):
    index: int
    kind: Literal["serve", "train"]
    text: str


class AcceptanceLimit(BaseModel):
    index: int
    code: Literal["ttft", "tpot", "throughput", "peak_memory", "failed_requests", "checkpoint", "step_time"]
    comparator: Literal["<=", ">=", "=="]
    value: float | None
    unit: Literal["ms", "tokens_per_s", "gib", "count", "bool"]
    percentile: float | None
    concurrency: int | None
    command: int
    measured: float | None
    status: Literal["pass", "fail", "not_measured"]


class SoftwareItem(BaseModel):
    key: SoftwareKey
    value: str | None


class Source(BaseModel):
    id: str
    ref: str | None


class ProposalContext(BaseModel):
    session_id: int | None
    title: str
    customer: str
    created: str | None
    updated: str | None
    session_lang: str | None
    answers: list[Answer]
    assumed_fields: list[str]
    sizing: Sizing
    recommendation: Recommendation | None
    performance: Performance | None
    measured: Measured | None
    host: list[HostItem] | None
    multi_gpu: MultiGpu
    risks: list[Risk]
    acceptance: list[AcceptanceLimit]
    commands: list[Command]
    software: list[SoftwareItem]
    sources: list[Source]
    generator_version: str
