"""What the templates receive: the typed plan of the recommendation, and the few things the proposal adds.

The recommendation is `tools.plan.RecommendResult` itself — the plan every number of the document is read
from; nothing here re-declares its fields. The proposal adds what belongs to the document: the interview's
answers, the acceptance limits and the commands that check them (derived from the plan), the benchmark
results of the session compared with the plan, the risks, the sources and the dates.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel as _PydanticModel
from pydantic import ConfigDict, Field

from sizer_agent.tools.cluster import ClusterPlan
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.plan import RecommendResult


class BaseModel(_PydanticModel):
    # Session text fields may hold numbers (a revision "2", a version 0.11): print them, do not refuse them.
    model_config = ConfigDict(coerce_numbers_to_str=True)


RiskCode = Literal[
    "tool", "revision_unpinned", "not_measured", "settings_mismatch", "no_level_at_load", "client_lagged",
    "assumed_answers", "price_estimate", "price_quote", "configuration_to_confirm", "workload_changed",
    "checkpoint_not_awq", "multi_gpu_training_bench", "over_budget", "no_fit",
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


class ModelInfo(BaseModel):
    name: str  # the model's id, or a description of a custom architecture
    custom: bool
    revision: str | None
    architecture: str | None
    params_total: int
    params_active: int
    weight_figures: list[tuple[str, float]]  # seed arithmetic: (format, params x bytes in bytes)


class MemoryRow(BaseModel):
    key: str
    bytes: int
    share_pct: float


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
    output_tokens_per_s: float | None
    goodput_rps: float | None
    client_lagged: bool
    peak_gpu_memory_bytes: int | None
    meets_slo: bool | None


class Comparison(BaseModel):
    metric: Literal["ttft_p", "tpot_mean", "output_tokens_per_s", "peak_memory"]
    estimate: float | None
    measured: float | None
    deviation_pct: float | None


class Measured(BaseModel):
    settings: dict[str, Any]
    created: str | None
    levels: list[Level]
    sla_max_concurrency: int | None
    at_load: Level | None
    comparable: bool
    mismatches: list[str]
    comparison: list[Comparison]
    warnings: list[str]


class Risk(BaseModel):
    code: RiskCode
    msg: Msg | None = None  # code "tool": the tool's own message
    items: list[str] = Field(default_factory=list)


class Command(BaseModel):
    index: int
    kind: Literal["launch", "serve", "train", "train_framework", "vision"]
    text: str
    phase: Literal["job", "serving_after"] = Field("job", description="serving_after: the fine-tuned model served "
                                                  "after its training (RecommendResult.serving_after)")


class StackNote(BaseModel):
    """The vLLM build a TPU or Trainium plan assumes: what it means for the acceptance commands, and how to
    install it (sizer_agent/proposal/serving_stacks.py)."""

    text: list[Msg]
    install: str


class AcceptanceLimit(BaseModel):
    index: int
    code: Literal["ttft", "tpot", "throughput", "peak_memory", "kv_tokens", "failed_requests", "step_time",
                  "checkpoint_save", "resume", "images_per_s"]
    comparator: Literal["<=", ">=", "=="]
    value: float
    unit: Literal["ms", "s", "tokens_per_s", "bytes", "tokens", "count", "bool", "images_per_s"]
    percentile: float | None = None
    command: int
    basis: Msg = Field(description="where the limit comes from (the SLA, the plan and its tolerance)")
    measured: float | None = None
    status: Literal["pass", "fail", "not_measured"] = "not_measured"
    phase: Literal["job", "serving_after"] = "job"


class SoftwareItem(BaseModel):
    key: SoftwareKey
    value: str | None


class Source(BaseModel):
    id: str
    links: list[str]  # the addresses the catalogue cites (its own wording stays in the catalogue's language)


class ProposalContext(BaseModel):
    session_id: int | None
    title: str
    customer: str
    date: str | None  # the document's date (the session's last change), ISO
    valid_until: str | None
    session_lang: str | None
    answers: list[Answer]
    assumed_fields: list[str]
    result: RecommendResult
    model: ModelInfo
    memory_rows: list[MemoryRow]
    measured: Measured | None
    risks: list[Risk]
    acceptance: list[AcceptanceLimit]
    commands: list[Command]
    software: list[SoftwareItem]
    sources: list[Source]
    assumptions: list[Msg]  # the plan's knobs first, then the tools' modelling assumptions
    generator_version: str
    cluster: ClusterPlan | None = None  # the session's last size_cluster call: a multi-node plan
    # answers this job does not use, said as such (a serving engine named for a fine-tuning job)
    scope_notes: list[Msg] = Field(default_factory=list)
    stack: StackNote | None = None  # a TPU or Trainium plan: its own vLLM build; None on GPUs
