"""Result models of the benchmark tools: what a trial measured and under which settings.

These models are the stable JSON schema of `sizer-agent bench ... --json` and of the result files.
Times are milliseconds, memory is bytes, throughput is tokens per second; every field says its unit.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

SCHEMA_VERSION = 1

# docs/design.md §6: state the percentile rule. numpy's default method is linear interpolation between ranks.
PERCENTILE_RULE = "linear interpolation between closest ranks (numpy.percentile method='linear')"

FailureReason = Literal[
    "connect_error",  # server down or refused the connection
    "http_4xx",
    "http_5xx",
    "malformed_sse",  # a data line that is not JSON, or an event the OpenAI stream format does not allow
    "stream_cut",  # the connection closed before the stream said it was finished
    "timeout",
    "server_error_event",  # the stream carried an `error` object
    "no_tokens",  # the stream finished without a single token
    "cancelled",  # stopped by Ctrl-C before finishing
    "client_error",  # anything else raised on the client side (message kept)
]


class LatencyStats(BaseModel):
    """Distribution summary of one latency metric over the requests of a level (milliseconds)."""

    count: int = Field(description="number of samples the statistics are computed from")
    mean: float | None = None
    p50: float | None = None
    p90: float | None = None
    p99: float | None = None
    max: float | None = None
    at_percentile: float | None = Field(
        None, description="value at the SLA percentile of the trial (settings.percentile)"
    )


class TokenLength(BaseModel):
    """A length in tokens: fixed (`low == high`) or drawn uniformly from [low, high]."""

    low: int = Field(ge=1)
    high: int = Field(ge=1)

    @property
    def fixed(self) -> bool:
        return self.low == self.high

    def label(self) -> str:
        return str(self.low) if self.fixed else f"{self.low}:{self.high}"


class ServeSettings(BaseModel):
    """Everything that defines a serving trial. Two results compare only when these agree (docs/design.md §2)."""

    base_url: str
    endpoint: Literal["completions", "chat"] = "completions"
    model: str | None = Field(None, description="model id sent to the server; None = first of /v1/models")
    revision: str | None = None
    precision: str | None = Field(None, description="dtype or quantization the server runs, as told by the user")
    input_len: TokenLength
    output_len: TokenLength
    ignore_eos: bool = True
    mode: Literal["closed", "open"] = "closed"
    concurrency: list[int] = Field(description="closed loop: levels; open loop: cap on requests in flight")
    request_rate: list[float] | None = Field(None, description="open loop: Poisson arrival rates, req/s")
    num_prompts: int | None = Field(None, description="requests per level (None = --duration decides)")
    duration_s: float | None = None
    warmup: int = 0
    sweep: bool = False
    max_concurrency: int = Field(1024, description="upper bound of the --sweep ladder")
    slo_ttft_ms: float | None = None
    slo_tpot_ms: float | None = None
    slo_e2e_ms: float | None = None
    percentile: float = Field(99.0, gt=0, le=100, description="percentile the SLA is checked at")
    timeout_s: float = 600.0
    seed: int = 0
    max_dispatch_delay_ms: float = Field(
        10.0,
        description="client self-check: p99 dispatch delay (open loop; closed loop with max_slot_idle), or "
        "event-loop lag when arrivals are not kernel-stamped, above this marks client_lagged",
    )
    max_slot_idle: float = Field(
        0.01,
        description="client self-check, closed loop: share of slot time the client left idle between a "
        "response's end and the next send above this, with the p99 dispatch delay above "
        "max_dispatch_delay_ms, marks client_lagged",
    )
    max_client_cpu: float = Field(
        0.9, description="client self-check: process CPU / wall time above this marks client_lagged"
    )
    engine: str | None = Field(None, description="serving engine name, from /version or the launcher")
    engine_version: str | None = None


class ServerInfo(BaseModel):
    base_url: str
    version: str | None = Field(None, description="`version` field of GET /version (vLLM)")
    models: list[str] = Field(default_factory=list, description="ids from GET /v1/models")
    max_model_len: int | None = None
    owned_by: str | None = None
    engine: str | None = Field(None, description="best guess: vllm, llama.cpp, or the `owned_by` field")
    tokenize_endpoint: bool = Field(False, description="whether POST /tokenize answered (exact prompt lengths)")


class GpuSummary(BaseModel):
    index: int
    name: str
    uuid: str | None = None
    memory_total_bytes: int | None = None


class HardwareSummary(BaseModel):
    driver_version: str | None = None
    cuda_driver_version: str | None = None
    gpus: list[GpuSummary] = Field(default_factory=list)
    nvml_error: str | None = Field(None, description="why NVML gave nothing (e.g. no driver)")


@dataclasses.dataclass(slots=True)
class RequestRecord:
    """One request as the client saw it. Times are `time.perf_counter_ns()` of the client process.

    A plain slotted dataclass filled in by the client's own code, not a BaseModel: the client sets about
    18 fields on each of thousands of requests a second, and BaseModel's validating `__setattr__` cost
    12 % of the client's CPU at 4 000 requests/s (a pydantic dataclass validates its `__init__`: 16 µs
    against 1 µs). `REQUEST_RECORD` (a TypeAdapter) writes the JSONL line and gives the JSON schema.
    """

    level: Annotated[int, Field(description="index of the level in `levels`")]
    index: int
    scheduled_ns: Annotated[int, Field(description="when the request was due (slot freed or Poisson arrival)")]
    planned_prompt_tokens: Annotated[int | None, Field(description="exact planned length (None: estimated)")] = None
    planned_output_tokens: int | None = None
    send_ns: Annotated[int | None, Field(description="request body fully written to the socket")] = None
    connect_ns: Annotated[int | None, Field(description="TCP connect duration when a new connection was opened")] = None
    first_token_ns: int | None = None
    end_ns: Annotated[int | None, Field(description="last token-bearing chunk")] = None
    done_ns: Annotated[int | None, Field(description="stream closed")] = None
    chunk_ns: Annotated[list[int], Field(description="arrival of every token-bearing chunk")] = dataclasses.field(
        default_factory=list
    )
    chunk_tokens: Annotated[
        list[int], Field(description="cumulative output tokens after each token-bearing chunk")
    ] = dataclasses.field(default_factory=list)
    prompt_tokens: Annotated[int | None, Field(description="from the server's usage")] = None
    output_tokens: int | None = None
    output_tokens_source: Literal["usage", "chunks"] | None = None
    chunk_token_mismatch: Annotated[
        int | None, Field(description="usage output tokens minus token-bearing chunks (cross-check)")
    ] = None
    status: Literal["ok", "failed"] = "failed"
    http_status: int | None = None
    reason: FailureReason | None = None
    error: str | None = None
    response_id: str | None = None
    ttft_ms: float | None = None
    tpot_ms: float | None = None
    e2e_ms: float | None = None
    met_slo: bool | None = None


REQUEST_RECORD: TypeAdapter[RequestRecord] = TypeAdapter(RequestRecord)


class LevelResult(BaseModel):
    """One load level: the latencies, throughput and memory of the same trial (docs/design.md §2)."""

    concurrency: int = Field(description="closed loop: requests kept in flight; open loop: the cap")
    request_rate: float | None = Field(None, description="open loop arrival rate, req/s")
    requests_completed: int
    requests_failed: int
    failures: dict[str, int] = Field(default_factory=dict, description="failed requests by reason")
    window_s: float = Field(description="first send to last stream end")
    ttft_ms: LatencyStats
    itl_ms: LatencyStats
    tpot_ms: LatencyStats
    e2e_ms: LatencyStats
    input_tokens: int
    output_tokens: int
    output_tokens_per_s: float = Field(description="output tokens of completed requests / window")
    total_tokens_per_s: float = Field(description="input + output tokens of completed requests / window")
    request_rps: float
    goodput_rps: float = Field(description="completed requests meeting every set SLO / window")
    slo_attainment: float | None = Field(None, description="fraction of requests meeting every set SLO")
    sla_passed: bool | None = Field(None, description="percentile latencies meet the SLA; None without SLO")
    client_lagged: bool
    client_lag_reasons: list[str] = Field(default_factory=list)
    dispatch_delay_ms: LatencyStats = Field(
        description="send − scheduled, minus TCP connect time, after the first wave (closed loop: scheduled "
        "= arrival of the previous response's end): how late the client got requests out in steady state"
    )
    ramp_up_ms: float | None = Field(
        None, description="closed loop: time to get the first `concurrency` requests on the wire"
    )
    slot_idle_fraction: float | None = Field(
        None,
        description="closed loop, after the first wave: Σ dispatch delay / Σ (dispatch delay + request "
        "time), the share of the intended concurrency the client itself did not keep in flight",
    )
    event_loop_lag_ms: LatencyStats
    arrival_stamps: Literal["kernel", "event_loop", "mixed"] = Field(
        "event_loop",
        description="where chunk arrival times came from: the kernel's receive stamp (SO_TIMESTAMPNS, Linux, "
        "plain http) or the event loop's read callback; with kernel stamps the event-loop lag does not "
        "distort arrivals and is reported without marking the level lagged",
    )
    client_cpu_fraction: float = Field(description="client process CPU seconds / wall seconds")
    new_connections: int = Field(0, description="requests that had to open a TCP connection (server closed it)")
    token_count_mismatch_requests: int = Field(
        0, description="requests whose usage count differs from the number of token-bearing chunks"
    )
    prompt_len_mismatch_requests: int = Field(
        0, description="requests whose server-counted prompt differs from the planned length"
    )
    peak_gpu_memory_bytes: int | None = Field(None, description="max over GPUs of the sampled peak; None without NVML")
    peak_gpu_memory_by_device: list[int] | None = None
    kv_cache_usage_peak: float | None = Field(
        None, description="vLLM: highest vllm:kv_cache_usage_perc (0-1) seen on /metrics during the level"
    )
    prefix_cache_reset: bool | None = Field(None, description="None when not attempted")
    interrupted: bool = False


class SweepStep(BaseModel):
    concurrency: int
    passed: bool
    level: int = Field(description="index in `levels`")


class VllmStartupMemory(BaseModel):
    """vLLM's start-up memory lines, parsed (GiB as printed by vLLM)."""

    weights_gib: float | None = None
    model_load_s: float | None = None
    activation_peak_gib: float | None = None
    non_torch_gib: float | None = None
    non_kv_cache_gib: float | None = None
    cudagraph_gib: float | None = None
    kv_cache_gib: float | None = None
    kv_cache_tokens: int | None = None
    max_concurrency: float | None = None
    max_concurrency_tokens_per_request: int | None = None
    lines: list[str] = Field(default_factory=list, description="the log lines these numbers come from")


class ServeResult(BaseModel):
    schema_version: int = SCHEMA_VERSION
    kind: Literal["serve"] = "serve"
    settings: ServeSettings
    server: ServerInfo
    hardware: HardwareSummary
    percentile_rule: str = PERCENTILE_RULE
    throughput_note: str = (
        "output_tokens_per_s counts output tokens only; total_tokens_per_s adds the prompt tokens; "
        "both over the window from the first send to the last stream end of the level"
    )
    started_at: str
    finished_at: str | None = None
    levels: list[LevelResult] = Field(default_factory=list)
    sweep: list[SweepStep] | None = None
    sla_max_concurrency: int | None = Field(
        None, description="--sweep: largest concurrency whose level met the SLA (None: none passed)"
    )
    interrupted: bool = False
    launch: LaunchInfo | None = None
    warnings: list[str] = Field(default_factory=list)
    requests_file: str | None = None


class LaunchInfo(BaseModel):
    command: list[str]
    startup_s: float
    startup_memory: VllmStartupMemory
    exit_code: int | None = None
    stop_signal: str | None = None
    log_file: str | None = None
    ray_cluster: dict[str, Any] | None = Field(None, description="multi-node: the pre-flight check of the Ray cluster")


ServeResult.model_rebuild()
