"""The proposal context: the session's typed plan, and what the document derives from it.

`build_context(session)` reads a session export (format `sizer-agent-session/1`): the latest successful
`recommend` call is the plan (`tools.plan.RecommendResult`, validated as such — no alternative field names,
no fallbacks); the answers, the latest `estimate_memory` (model details) and the benchmarks of the session
complete it. Derived here, each in one named function: the acceptance limits and the commands that check
them (from the plan and its workload), the comparison of a measurement with the plan at the same load, the
risks, the sources (catalogue references, never a local path) and the validity date.

A session without a usable plan raises `InputError` naming what to do: size it (again).
"""

from __future__ import annotations

import datetime
import json
import math
import re
import shlex
from typing import Any, Literal

from pydantic import ValidationError

from sizer_agent import __version__, advice
from sizer_agent.agent.profile import TRAINING_USE_CASES
from sizer_agent.agent.questions import BY_ID
from sizer_agent.agent.sizing_status import sizing_status
from sizer_agent.agent.understanding.software import SERVING_ENGINE_IDS
from sizer_agent.proposal.fields import FIELD_ORDER
from sizer_agent.proposal.models import (
    AcceptanceLimit,
    Answer,
    Command,
    Comparison,
    Level,
    Measured,
    MemoryRow,
    ModelInfo,
    ProposalContext,
    Risk,
    SoftwareItem,
    Source,
    StackNote,
    Stat,
)
from sizer_agent.proposal.serving_stacks import ServingStack, serving_stack
from sizer_agent.tools.cluster import ClusterPlan
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.model_spec import LongContext
from sizer_agent.tools.plan import Plan, RecommendResult, ServingPerf

SESSION_FORMAT = "sizer-agent-session/1"
RECOMMEND_TOOL = "recommend"
ESTIMATE_TOOLS = ("estimate_memory", "estimate")
BENCH_BASE_URL = "http://SERVER:8000"  # placeholder the customer replaces with the machine under test
CUSTOM_MODEL_PLACEHOLDER = "MODEL_DIR"  # a custom architecture: the customer's own checkpoint folder
MIN_PROMPTS = 200  # a P99 over fewer than ~200 requests rests on two samples; 8 per slot otherwise
# Prices move: cloud on-demand rates rose 15-21 % on 2026-10-01 at one provider (catalogue sources), and a
# market estimate is not a quote. The document states a short validity.
VALIDITY_DAYS = 30
# Acceptance tolerances, stated in the document beside each limit: the estimator is within a few % of
# vLLM's own accounting but within ~7-10 % of measured training peaks (docs/estimate.md, validation), and
# step times rest on an assumed MFU (tools/perf/efficiency.py).
TRAINING_MEMORY_TOLERANCE = 0.10
STEP_TIME_TOLERANCE = 0.25
THROUGHPUT_TOLERANCE = 0.20  # batch inference without an SLA: the roofline model's order of accuracy
CHECKPOINT_SLOWDOWN = 2.0  # vendor NVMe figures are peak sequential writes; sustained writes run slower
CHECKPOINT_FLOOR_S = 10.0  # serialising optimizer state and syncing files costs seconds even for small adapters
BENCH_TRAIN_OPTIMIZERS = {"adamw": "adamw", "adamw8bit": "adamw8bit", "paged_adamw8bit": "adamw8bit",
                          "sgd": "sgd"}


# --- small readers -------------------------------------------------------------------------------------

def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _int(value: Any) -> int | None:
    number = _num(value)
    return None if number is None else int(number)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _latest(session: dict[str, Any], names: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(arguments, result) of the most recent successful call of one of `names`."""
    for call in reversed(_list(session.get("tool_calls"))):
        if isinstance(call, dict) and call.get("tool") in names and call.get("ok") and isinstance(
                call.get("result"), dict):
            return _dict(call.get("arguments")), call["result"]
    return None


def _answer_value(session: dict[str, Any], name: str) -> Any:
    item = _dict(session.get("answers")).get(name)
    return item.get("value") if isinstance(item, dict) else None


def deviation_pct(measured: float | None, estimate: float | None) -> float | None:
    """(measured − estimate) / estimate, in %: positive when the machine measured more than estimated."""
    if measured is None or estimate is None or estimate == 0:
        return None
    return (measured - estimate) / estimate * 100.0


def sla_implied_throughput(concurrency: int, output_len: int, slo_ttft_ms: float, slo_tpot_ms: float) -> float:
    """Output tokens/s of `concurrency` closed-loop clients when every request sits exactly at the SLA.

    A request lasts TTFT + (output_len − 1) × TPOT (TPOT = (E2E − TTFT) / (tokens − 1)), so a machine
    meeting the SLA delivers at least concurrency × output_len / that duration tokens per second.
    """
    seconds = (slo_ttft_ms + (output_len - 1) * slo_tpot_ms) / 1000.0
    return concurrency * output_len / seconds


# --- sections ------------------------------------------------------------------------------------------

def _answers(session: dict[str, Any]) -> list[Answer]:
    raw = session.get("answers") or {}
    if not isinstance(raw, dict):
        raise InputError("answers", "must be an object mapping each field to its answer")
    order = {name: i for i, name in enumerate(FIELD_ORDER)}
    words = _words(session)
    rows = []
    for name in sorted(raw, key=lambda n: (order.get(n, len(order)), n)):
        item = raw[name] if isinstance(raw[name], dict) else {"value": raw[name]}
        history = _list(item.get("history"))
        value = item.get("value")
        said = words.get((name, json.dumps(value, sort_keys=True, default=str))) or str(item.get("raw_text") or "")
        rows.append(Answer(field=name, value=value, assumed=bool(item.get("assumed", False)),
                           raw_text=_shortened(said), corrections=max(0, len(history) - 1)))
    return rows


SAID_MAX_CHARS = 90  # a pasted brief is the whole e-mail: the table quotes a line of it, not the page


def _words(session: dict[str, Any]) -> dict[tuple[str, str], str]:
    """(field, value) -> the exact words the value was read from, from the recorded answer events."""
    found: dict[tuple[str, str], str] = {}
    for event in _list(session.get("events")):
        if isinstance(event, dict) and event.get("kind") == "answer" and event.get("words"):
            key = (str(event.get("field")), json.dumps(event.get("value"), sort_keys=True, default=str))
            found[key] = str(event["words"])
    return found


def _shortened(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SAID_MAX_CHARS else flat[: SAID_MAX_CHARS - 1].rstrip() + "…"


def _model(result: RecommendResult, estimate: dict[str, Any] | None, session: dict[str, Any]) -> ModelInfo:
    summary = _dict((estimate or {}).get("model"))
    custom = _answer_value(session, "custom_architecture") is not None
    revision = summary.get("revision") or _answer_value(session, "model_revision")
    params = result.params_total
    return ModelInfo(
        name=result.model if not custom else "", custom=custom, revision=revision,
        architecture=summary.get("architecture"), params_total=params, params_active=result.params_active,
        weight_figures=[("16-bit", params * 2.0), ("8-bit", params * 1.0), ("4-bit", params * 0.5)],
    )


def _memory_rows(plan: Plan | None) -> list[MemoryRow]:
    """What one GPU holds at the stated load under the plan's split, term by term."""
    if plan is None or plan.memory is None:
        return []
    m = plan.memory
    kv = m.kv_cache_bytes
    if m.engine == "vllm" and m.required_kv_tokens is not None:
        kv = min(m.kv_cache_bytes, m.required_kv_tokens * m.kv_cache_bytes_per_token)
    terms = {"weights": m.weights_bytes, "kv_cache": kv, "activations": m.activations_bytes,
             "gradients": m.gradients_bytes, "optimizer": m.optimizer_bytes, "runtime": m.runtime_bytes}
    total = sum(terms.values()) or 1
    return [MemoryRow(key=k, bytes=v, share_pct=v / total * 100.0) for k, v in terms.items() if v > 0]


def _stat(raw: Any) -> Stat:
    return Stat(**{k: _num(raw.get(k)) for k in ("mean", "p50", "p90", "p99")}) if isinstance(raw, dict) else Stat()


def _length(value: Any) -> int | None:
    if isinstance(value, dict):
        low, high = _int(value.get("low")), _int(value.get("high"))
        return low if low is not None and low == high else None
    return _int(value)


def _trial_settings(bench: dict[str, Any]) -> dict[str, Any]:
    settings, hardware, server = _dict(bench.get("settings")), _dict(bench.get("hardware")), _dict(bench.get("server"))
    gpus = [g for g in _list(hardware.get("gpus")) if isinstance(g, dict)]
    flat = {
        "model": settings.get("model") or (_list(server.get("models")) or [None])[0],
        "revision": settings.get("revision"), "precision": settings.get("precision"),
        "input_len": _length(settings.get("input_len")), "output_len": _length(settings.get("output_len")),
        "engine": settings.get("engine") or server.get("engine"),
        "engine_version": settings.get("engine_version") or server.get("version"),
        "gpu": settings.get("gpu") or (gpus[0].get("name") if gpus else None),
        "driver": settings.get("driver") or hardware.get("driver_version"),
    }
    return {k: v for k, v in flat.items() if v is not None}


def _measured(bench: dict[str, Any], plan: Plan | None, model: ModelInfo) -> Measured:
    settings = _trial_settings(bench)
    sla_max = _int(bench.get("sla_max_concurrency"))
    levels = []
    for raw in _list(bench.get("levels")):
        if not isinstance(raw, dict) or _int(raw.get("concurrency")) is None:
            continue
        verdict = raw.get("sla_passed")
        levels.append(Level(
            concurrency=int(raw["concurrency"]), requests_completed=_int(raw.get("requests_completed")),
            requests_failed=_int(raw.get("requests_failed")), ttft_ms=_stat(raw.get("ttft_ms")),
            tpot_ms=_stat(raw.get("tpot_ms")), output_tokens_per_s=_num(raw.get("output_tokens_per_s")),
            goodput_rps=_num(raw.get("goodput_rps")), client_lagged=bool(raw.get("client_lagged")),
            peak_gpu_memory_bytes=_int(raw.get("peak_gpu_memory_bytes")),
            meets_slo=verdict if isinstance(verdict, bool) else None))
    levels.sort(key=lambda level: level.concurrency)
    serving = plan.serving if plan else None
    at_load = next((lv for lv in levels if serving and lv.concurrency == serving.concurrency), None)
    mismatches = []
    if serving is not None:
        expected = {"model": model.name, "input_len": serving.input_len, "output_len": serving.output_len}
        mismatches = [k for k, want in expected.items()
                      if k in settings and want and str(settings[k]).lower() != str(want).lower()]
    comparable = serving is not None and not mismatches and at_load is not None and not at_load.client_lagged
    comparison: list[Comparison] = []
    if comparable and serving is not None and at_load is not None:
        pct = {99.0: at_load.ttft_ms.p99, 90.0: at_load.ttft_ms.p90, 50.0: at_load.ttft_ms.p50}.get(serving.percentile)
        memory = plan.memory.total_bytes if plan and plan.memory else None
        rows: list[tuple[Any, float | None, float | None]] = [
            ("ttft_p", serving.ttft_ms, pct), ("tpot_mean", serving.tpot_ms, at_load.tpot_ms.mean),
            ("output_tokens_per_s", serving.output_tokens_per_s, at_load.output_tokens_per_s),
            ("peak_memory", memory, at_load.peak_gpu_memory_bytes),
        ]
        comparison = [Comparison(metric=m, estimate=e, measured=v, deviation_pct=deviation_pct(v, e))
                      for m, e, v in rows if e is not None or v is not None]
    return Measured(settings=settings, created=bench.get("created") or bench.get("started_at"), levels=levels,
                    sla_max_concurrency=sla_max, at_load=at_load, comparable=comparable, mismatches=mismatches,
                    comparison=comparison, warnings=[str(w) for w in _list(bench.get("warnings"))])


# --- acceptance: limits the plan can meet, and commands that run as written ------------------------------

def latency_limit(s: ServingPerf, metric: Literal["ttft", "tpot"]) -> tuple[float | None, Msg]:
    """The acceptance limit of one latency metric: the target where the plan meets it, else what it was
    sized against (a target nobody stated and the plan misses is a floor to agree, not a promise)."""
    sized = s.slo_ttft_ms if metric == "ttft" else s.slo_tpot_ms
    target = s.target_ttft_ms if metric == "ttft" else s.target_tpot_ms
    got = s.ttft_ms if metric == "ttft" else s.tpot_ms
    if target is None or target == sized:
        return sized, Msg("basis.slo")
    if got <= target:
        return target, Msg("basis.slo_default" if metric in s.target_assumed else "basis.slo")
    return sized, Msg("basis.slo_floor")


def _load_flags(s: ServingPerf, concurrency: int) -> str:
    load = (f"--input-len {s.input_len} --output-len {s.output_len} --concurrency {concurrency} "
            f"--num-prompts {max(MIN_PROMPTS, 8 * concurrency)}")
    ttft, tpot = latency_limit(s, "ttft")[0], latency_limit(s, "tpot")[0]
    if ttft is not None:
        load += f" --slo-ttft-ms {ttft:g}"
    if tpot is not None:
        load += f" --slo-tpot-ms {tpot:g}"
    return load + f" --percentile {s.percentile:g} --json"


def _serving_commands(plan: Plan, model: str, stack: ServingStack | None = None) -> tuple[Command, Command]:
    """bench launch (vLLM started with the plan's split) and bench serve (a running server). `stack`: the
    chip's own vLLM build (TPU, Trainium), whose devices and flags differ from CUDA vLLM's."""
    r, s = plan.request, plan.serving
    assert s is not None and r is not None
    p = plan.parallelism
    load = _load_flags(s, s.concurrency)
    model = shlex.quote(model)  # a customer's model name is pasted into a shell: never run as code
    serve = Command(index=2, kind="serve",
                    text=f"sizer-agent bench serve --base-url {BENCH_BASE_URL} --model {model} {load}")
    if stack is not None:
        return _stack_launch(plan, model, stack), serve
    # the share the plan's engine reserves: lowered on a card whose graphs would overflow it (tools/estimate.py)
    share = plan.memory.gpu_memory_utilization if plan.memory and plan.memory.gpu_memory_utilization \
        else r.gpu_memory_utilization
    launch = [f"sizer-agent bench launch --model {model} --tensor-parallel-size {p.tensor_parallel}",
              f"--max-model-len {s.max_model_len} --gpu-memory-utilization {share:g}"]
    if plan.weight_precision.startswith("fp8") and (r.quantization or "").startswith("fp8"):
        launch.append("--quantization fp8")
    if s.weight_offload_bytes_per_gpu:  # the weights the plan keeps in host RAM, as vLLM is told them
        launch.append(f"--vllm-arg=--cpu-offload-gb={math.ceil(s.weight_offload_bytes_per_gpu / 2**29) / 2:g}")
    if p.pipeline_parallel > 1:
        launch.append(f"--vllm-arg=--pipeline-parallel-size={p.pipeline_parallel}")
    if p.data_parallel > 1:
        launch.append(f"--vllm-arg=--data-parallel-size={p.data_parallel}")
    if plan.kv_cache_precision == "fp8":
        launch.append("--vllm-arg=--kv-cache-dtype=fp8")
    if s.long_context is not None:  # a context past the config's own: YaRN as the publisher validates it
        launch.append(shlex.quote("--vllm-arg=--hf-overrides=" + yarn_overrides(s.long_context)))
    return Command(index=1, kind="launch", text=" ".join([*launch, load])), serve


def yarn_overrides(long: LongContext) -> str:
    """vLLM's --hf-overrides for YaRN (docs.vllm.ai, features/context_extension: rope_parameters with rope_type
    yarn, factor, original_max_position_embeddings and rope_theta)."""
    return json.dumps({"rope_parameters": {"rope_type": "yarn", "factor": long.factor, "rope_theta": long.theta,
                                           "original_max_position_embeddings": long.original}},
                      separators=(",", ":"))


def _replica_concurrency(plan: Plan) -> int:
    assert plan.serving is not None
    return math.ceil(plan.serving.concurrency / plan.parallelism.data_parallel)


def _stack_launch(plan: Plan, model: str, stack: ServingStack) -> Command:
    """bench launch on the chip's own vLLM build (serving_stacks.py: devices per chip, flags it honours);
    where the build has no data-parallel mode, one replica at its share of the load (its cores are chosen
    by the environment the stack note exports, so that the command itself parses as a sizer-agent one)."""
    r, s, p = plan.request, plan.serving, plan.parallelism
    assert s is not None and r is not None
    one_replica = p.data_parallel > 1 and not stack.data_parallel
    concurrency = _replica_concurrency(plan) if one_replica or stack.compiled_batch else s.concurrency
    launch = [f"sizer-agent bench launch --vllm-python {stack.vllm_python} --model {model}",
              f"--tensor-parallel-size {p.tensor_parallel * stack.devices_per_chip} --max-model-len {s.max_model_len}"]
    if stack.memory_utilization:
        launch.append(f"--gpu-memory-utilization {r.gpu_memory_utilization:g}")
    if plan.weight_precision.startswith("fp8") and (r.quantization or "").startswith("fp8"):
        launch.append("--quantization fp8")
    if p.pipeline_parallel > 1:
        launch.append(f"--vllm-arg=--pipeline-parallel-size={p.pipeline_parallel}")
    if p.data_parallel > 1 and stack.data_parallel:
        launch.append(f"--vllm-arg=--data-parallel-size={p.data_parallel}")
    if stack.compiled_batch:
        launch.append(f"--vllm-arg=--max-num-seqs={_replica_concurrency(plan)}")
    if plan.kv_cache_precision == "fp8":
        launch.append("--vllm-arg=--kv-cache-dtype=fp8")
    return Command(index=1, kind="launch", text=" ".join([*launch, _load_flags(s, concurrency)]))


def _stack_note(plan: Plan | None) -> StackNote | None:
    """Which vLLM build a TPU or Trainium serving plan assumes, how its acceptance runs there (None: a GPU)."""
    if plan is None or plan.serving is None or plan.memory is None:
        return None
    stack = serving_stack(plan.gpu_id)
    if stack is None:
        return None
    p = plan.parallelism
    params = dict(engine=stack.engine, gpu=plan.gpu_name, tp=p.tensor_parallel, per_chip=stack.devices_per_chip,
                  tp_engine=p.tensor_parallel * stack.devices_per_chip, tool=stack.memory_tool)
    text = [Msg(f"acceptance.stack_{stack.stack}", **params)]
    lines = [stack.install, *(f"export {e}" for e in stack.env)]
    if p.data_parallel > 1 and not stack.data_parallel:
        cores = p.tensor_parallel * p.pipeline_parallel * stack.devices_per_chip
        text.append(Msg("acceptance.stack_replicas", replicas=p.data_parallel, per=_replica_concurrency(plan),
                        cores=cores))
        lines.append(f"export {stack.cores_variable}=0-{cores - 1}")  # the first replica's cores
    return StackNote(text=text, install="\n".join(lines))


def _serving_limits(plan: Plan) -> list[AcceptanceLimit]:
    s, m = plan.serving, plan.memory
    assert s is not None and m is not None
    limits: list[AcceptanceLimit] = []

    def add(code: Any, comparator: Any, value: float, unit: Any, basis: Msg, command: int = 1,
            percentile: float | None = None) -> None:
        limits.append(AcceptanceLimit(index=len(limits) + 1, code=code, comparator=comparator, value=value,
                                      unit=unit, basis=basis, command=command, percentile=percentile))

    ttft, ttft_basis = latency_limit(s, "ttft")
    tpot, tpot_basis = latency_limit(s, "tpot")
    if ttft is not None:
        add("ttft", "<=", ttft, "ms", ttft_basis, percentile=s.percentile)
    if tpot is not None:
        add("tpot", "<=", tpot, "ms", tpot_basis, percentile=s.percentile)
    if ttft is not None and tpot is not None:
        floor = sla_implied_throughput(s.concurrency, s.output_len, ttft, tpot)
        add("throughput", ">=", floor, "tokens_per_s", Msg("basis.sla_throughput"))
    else:
        add("throughput", ">=", s.output_tokens_per_s * (1 - THROUGHPUT_TOLERANCE), "tokens_per_s",
            Msg("basis.plan_throughput", estimate=s.output_tokens_per_s, tolerance=THROUGHPUT_TOLERANCE))
    if m.engine == "vllm" and m.engine_reserved_bytes is not None:
        add("peak_memory", "<=", m.engine_reserved_bytes, "bytes",
            Msg("basis.vllm_reservation", utilization=m.gpu_memory_utilization, card=m.gpu_memory_bytes))
        if m.required_kv_tokens is not None:
            add("kv_tokens", ">=", m.required_kv_tokens, "tokens",
                Msg("basis.kv_tokens", users=math.ceil(s.concurrency / plan.parallelism.data_parallel),
                    tokens=s.input_len + s.output_len, planned=m.kv_cache_tokens))
    else:
        add("peak_memory", "<=", min(m.gpu_memory_bytes, m.total_bytes * (1 + TRAINING_MEMORY_TOLERANCE)),
            "bytes", Msg("basis.plan_memory", estimate=m.total_bytes, tolerance=TRAINING_MEMORY_TOLERANCE))
    add("failed_requests", "==", 0.0, "count", Msg("basis.no_failures"))
    return limits


def _training_acceptance(plan: Plan, model: str) -> tuple[list[AcceptanceLimit], list[Command]]:
    t, m, r, p = plan.training, plan.memory, plan.request, plan.parallelism
    assert t is not None and m is not None and r is not None
    single = p.num_gpus == 1
    optimizer = BENCH_TRAIN_OPTIMIZERS.get(t.optimizer)
    commands: list[Command] = []
    if single and optimizer is not None:
        flags = [f"sizer-agent bench train --model {shlex.quote(model)} --method {t.method}"]
        if t.method != "full":
            flags.append(f"--lora-rank {r.lora_rank} --lora-targets {shlex.quote(','.join(r.lora_targets))}")
        flags.append(f"--batch-size {t.micro_batch_size} --seq-len {t.seq_len}")
        if t.gradient_accumulation_steps > 1:
            flags.append(f"--gradient-accumulation-steps {t.gradient_accumulation_steps}")
        flags.append(f"--optimizer {optimizer}")
        if r.gradient_checkpointing != "none":
            flags.append("--gradient-checkpointing")
        flags.append("--dtype bfloat16 --device cuda --steps 20 --json")
        commands.append(Command(index=1, kind="train", text=" ".join(flags)))
    else:
        commands.append(Command(index=1, kind="train_framework", text=""))
    limits = [
        AcceptanceLimit(index=1, code="peak_memory", comparator="<=", unit="bytes", command=1,
                        value=min(m.gpu_memory_bytes, m.total_bytes * (1 + TRAINING_MEMORY_TOLERANCE)),
                        basis=Msg("basis.plan_memory", estimate=m.total_bytes, tolerance=TRAINING_MEMORY_TOLERANCE)),
        AcceptanceLimit(index=2, code="step_time", comparator="<=", unit="s", command=1,
                        value=t.step_time_s * (1 + STEP_TIME_TOLERANCE),
                        basis=Msg("basis.step_time", estimate=t.step_time_s, tolerance=STEP_TIME_TOLERANCE)),
        AcceptanceLimit(index=3, code="checkpoint_save", comparator="<=", unit="s", command=1,
                        value=max(t.checkpoint_write_s * CHECKPOINT_SLOWDOWN, CHECKPOINT_FLOOR_S),
                        basis=Msg("basis.checkpoint", size=t.checkpoint_bytes, gbs=t.storage_write_gbs,
                                  factor=CHECKPOINT_SLOWDOWN, floor=CHECKPOINT_FLOOR_S)),
        AcceptanceLimit(index=4, code="resume", comparator="==", unit="bool", value=1.0, command=1,
                        basis=Msg("basis.resume")),
    ]
    return limits, commands


# The vision speed model's error on published rows kept apart is 17.7 % median (docs/vision.md): a quarter
# below the estimate is what a machine that runs as planned can miss by.
VISION_THROUGHPUT_TOLERANCE = 0.25
VISION_BENCH_STEPS = 50
VISION_HEADROOM = 0.10  # tools.evaluate.DEFAULT_HEADROOM: what the recommendation keeps free on each card


def _vision_acceptance(plan: Plan) -> tuple[list[AcceptanceLimit], list[Command]]:
    """One GPU runs the job as planned (`bench vision` measures one device): its images/s and peak memory."""
    v, m = plan.vision, plan.memory
    assert v is not None and m is not None
    r = v.request
    flags = [f"sizer-agent bench vision --model {shlex.quote(r.model)} --resolution {r.resolution} "
             f"--batch-size {r.batch_size}",
             f"--mode {r.mode} --dtype {r.dtype}"]
    if r.num_classes is not None:
        flags.append(f"--num-classes {r.num_classes}")
    if r.mode == "training":
        flags.append(f"--optimizer {r.optimizer}")
    flags.append(f"--steps {VISION_BENCH_STEPS} --device cuda --json")
    usable = int(m.gpu_memory_bytes * (1 - VISION_HEADROOM))
    limits = [
        AcceptanceLimit(index=1, code="images_per_s", comparator=">=", unit="images_per_s", command=1,
                        value=v.images_per_s_per_gpu * (1 - VISION_THROUGHPUT_TOLERANCE),
                        basis=Msg("basis.vision_throughput", estimate=v.images_per_s_per_gpu,
                                  tolerance=VISION_THROUGHPUT_TOLERANCE)),
        # The fit criterion itself: no OOM with the allocator's headroom. An estimate + x % limit would fail
        # YOLO runs whose label assignment the trace does not count (published logs: +15 % median).
        AcceptanceLimit(index=2, code="peak_memory", comparator="<=", unit="bytes", command=1, value=usable,
                        basis=Msg("basis.vision_memory", need=m.total_bytes, headroom=VISION_HEADROOM,
                                  usable=usable)),
    ]
    return limits, [Command(index=1, kind="vision", text=" ".join(flags))]


def _acceptance(plan: Plan | None, model: ModelInfo, served: str) -> tuple[list[AcceptanceLimit], list[Command]]:
    if plan is None or plan.memory is None:
        return [], []
    if plan.vision is not None:
        return _vision_acceptance(plan)
    if plan.training is not None:
        return _training_acceptance(plan, served)
    if plan.serving is None:
        return [], []
    stack = serving_stack(plan.gpu_id)
    launch, serve = _serving_commands(plan, served, stack)
    # a chip with its own vLLM build (TPU, Trainium) is sized generically, but its acceptance still launches
    # that build with the plan's split
    commands = [launch, serve] if plan.memory.engine == "vllm" or stack is not None else [
        serve.model_copy(update={"index": 1})]
    return _serving_limits(plan), commands


def _with_serving_after(result: RecommendResult, model: ModelInfo, served: str, limits: list[AcceptanceLimit],
                        commands: list[Command]) -> tuple[list[AcceptanceLimit], list[Command]]:
    """The training's acceptance, then the serving's that follows it: its limits numbered on, its commands too."""
    after = advice.served_after(result)
    if after is None or after.serving is None or after.memory is None or not limits:
        return limits, commands
    more_limits, more_commands = _acceptance(after, model, served)
    shift = len(commands)
    return ([*limits, *(a.model_copy(update={"index": len(limits) + i, "command": a.command + shift,
                                             "phase": "serving_after"})
                        for i, a in enumerate(more_limits, start=1))],
            [*commands, *(c.model_copy(update={"index": c.index + shift, "phase": "serving_after"})
                          for c in more_commands)])


def _with_measurements(limits: list[AcceptanceLimit], measured: Measured | None) -> list[AcceptanceLimit]:
    """A benchmark of the session at the stated load fills the serving limits it measures."""
    level = measured.at_load if measured and measured.comparable else None
    if level is None:
        return limits
    values = {"ttft": level.ttft_ms.p99, "tpot": level.tpot_ms.p99, "throughput": level.output_tokens_per_s,
              "peak_memory": level.peak_gpu_memory_bytes,
              "failed_requests": float(level.requests_failed) if level.requests_failed is not None else None}
    out = []
    for limit in limits:
        got = values.get(limit.code)
        if got is None:
            out.append(limit)
            continue
        ok = {"<=": got <= limit.value, ">=": got >= limit.value, "==": got == limit.value}[limit.comparator]
        out.append(limit.model_copy(update={"measured": float(got), "status": "pass" if ok else "fail"}))
    return out


# --- risks, software, sources --------------------------------------------------------------------------

def _risks(result: RecommendResult, model: ModelInfo, measured: Measured | None, assumed: list[str]) -> list[Risk]:
    plan = result.plan
    risks: list[Risk] = []
    if result.status == "over_budget":
        risks.append(Risk(code="over_budget"))
    if result.status == "no_fit":
        risks.append(Risk(code="no_fit"))
    if not model.revision and (plan is None or plan.vision is None):  # a vision network is sized without weights
        risks.append(Risk(code="revision_unpinned"))
    if plan is not None:
        if plan.purchase.how == "quote":
            risks.append(Risk(code="price_quote"))
        elif plan.purchase.price_kind == "estimate":
            risks.append(Risk(code="price_estimate", items=[plan.purchase.price_date or "—"]))
        if plan.purchase.to_confirm:
            risks.append(Risk(code="configuration_to_confirm"))
        if any(k.changes_workload for k in plan.knobs):
            risks.append(Risk(code="workload_changed"))
        if plan.weight_precision.startswith(("awq", "gptq", "int4")):
            risks.append(Risk(code="checkpoint_not_awq"))
        if plan.training is not None and plan.parallelism.num_gpus > 1:
            risks.append(Risk(code="multi_gpu_training_bench"))
        long = plan.serving.long_context if plan.serving is not None else None
        if long is not None and plan.serving is not None:  # the launch command's YaRN flag, and what it costs
            risks.append(Risk(code="tool", msg=Msg("estimate.long_context", context=plan.serving.max_model_len,
                                                   factor=long.factor, original=long.original, src=long.src)))
    if measured is None:
        risks.append(Risk(code="not_measured"))
    else:
        if measured.mismatches:
            risks.append(Risk(code="settings_mismatch", items=measured.mismatches))
        if measured.at_load is None:
            risks.append(Risk(code="no_level_at_load"))
        lagged = [str(level.concurrency) for level in measured.levels if level.client_lagged]
        if lagged:
            risks.append(Risk(code="client_lagged", items=lagged))
    if assumed:
        risks.append(Risk(code="assumed_answers", items=assumed))
    seen: set[str] = set()
    # (the customer's own cards' notes too: how their collectives travel, when several are split — "NVLink bridges
    # join 2 cards only …" for four RTX 3090)
    owned = [msg for msg in (result.owned.notes if result.owned is not None else [])
             if msg.id in ("note.no_p2p", "note.no_p2p_beyond_bridge")]
    for msg in [*(plan.notes if plan else []), *owned]:
        key = msg.model_dump_json()
        if key not in seen:
            seen.add(key)
            risks.append(Risk(code="tool", msg=msg))
    return risks


def _software(session: dict[str, Any], model: ModelInfo, measured: Measured | None) -> list[SoftwareItem]:
    settings = measured.settings if measured else {}

    def text(value: Any) -> str | None:
        return None if value is None else str(value)

    framework, version = _answer_value(session, "framework"), _answer_value(session, "framework_version")
    if _answer_value(session, "use_case") in TRAINING_USE_CASES and framework in SERVING_ENGINE_IDS:
        framework, version = "pytorch", None  # what the training is sized as (profile.scope_serving_engine)
    return [
        SoftwareItem(key="model", value=model.name or None),
        SoftwareItem(key="revision", value=text(model.revision)),
        SoftwareItem(key="framework", value=text(framework)),
        SoftwareItem(key="framework_version", value=text(version)),
        SoftwareItem(key="engine", value=text(settings.get("engine"))),
        SoftwareItem(key="engine_version", value=text(settings.get("engine_version"))),
        SoftwareItem(key="gpu", value=text(settings.get("gpu"))),
        SoftwareItem(key="driver", value=text(settings.get("driver"))),
        SoftwareItem(key="sizer_agent", value=__version__),
    ]


def _sources(result: RecommendResult) -> list[Source]:
    """The catalogue's own references for every figure of the plan and its alternatives."""
    try:
        from sizer_agent.tools.catalog import load_catalog

        known = load_catalog().sources
    except (ImportError, InputError):  # no catalogue installed: cite the keys alone
        known = {}
    keys: list[str] = []
    for plan in [p for p in (result.plan, *result.alternatives) if p is not None]:
        keys += [k for k in plan.sources if k not in keys]
    return [Source(id=k, links=_links(known.get(k, ""))) for k in keys]


def _links(reference: str) -> list[str]:
    """The web addresses and repository locators a catalogue reference cites."""
    found = re.findall(r"(https?://[^\s,;'\]\)]+|github:[^\s,;'\]\)]+)", reference)
    return [link.rstrip(".") for link in found]


def _dates(session: dict[str, Any]) -> tuple[str | None, str | None]:
    text = str(session.get("updated") or session.get("created") or "")[:10]
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        return None, None
    return day.isoformat(), (day + datetime.timedelta(days=VALIDITY_DAYS)).isoformat()


# --- entry point ---------------------------------------------------------------------------------------

def build_context(session: dict[str, Any]) -> ProposalContext:
    """Turn a session export into the proposal context. Raises InputError naming a missing required part
    or a value of the wrong type (a damaged export), never anything else."""
    try:
        return _build(session)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "session"
        raise InputError(where, f"unexpected value in the session ({first['msg']})") from None
    except InputError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError) as error:
        raise InputError("session", f"damaged session export ({type(error).__name__}: {error})") from None


def _require_current_plan(session: dict[str, Any]) -> None:
    """A plan made for older answers (an answer changed, then the process died before recommend answered)
    would put one plan beside other answers: refuse, saying how to size again."""
    events = _list(session.get("events"))
    if not any(isinstance(e, dict) and e.get("kind") == "answer" for e in events):
        return  # a hand-made export with tool calls only: nothing to compare the plan with
    status = sizing_status(e for e in events if isinstance(e, dict))
    if status.planned:
        return
    sid = session.get("id")
    how = (f"resume it (sizer-agent app --resume {sid}) to size it again" if isinstance(sid, int)
           else "resume it in the app to size it again")
    what = (f"the sizing stopped during {status.interrupted}" if status.interrupted
            else "its answers changed after its last recommendation")
    raise InputError("tool_calls", f"{what}: {how}")


def _build(session: dict[str, Any]) -> ProposalContext:
    if not isinstance(session, dict):
        raise InputError("session", "must be a JSON object (a sizer-agent session export)")
    if session.get("format") != SESSION_FORMAT:
        raise InputError("format", f"unknown session format {session.get('format')!r}", SESSION_FORMAT)
    found = _latest(session, (RECOMMEND_TOOL,))
    if found is None:
        raise InputError("tool_calls", "the session has no successful recommend call: run the sizing first")
    _require_current_plan(session)
    result = advice.load(found[1])
    if result is None:
        raise InputError("tool_calls", "the session's recommendation was made by an older version of "
                         "sizer-agent: size it again (answer any question, or run intake again)")
    estimate = (_latest(session, ESTIMATE_TOOLS) or ({}, None))[1]
    answers = _answers(session)
    model = _model(result, estimate, session)
    benches = [b for b in _list(session.get("benchmarks")) if isinstance(b, dict) and b.get("levels")]
    measured = _measured(benches[-1], result.plan, model) if benches else None
    served = str((measured.settings.get("model") if measured else None) or (
        CUSTOM_MODEL_PLACEHOLDER if model.custom else result.model))
    limits, commands = _acceptance(result.plan, model, served)
    limits, commands = _with_serving_after(result, model, served, limits, commands)
    assumed = [a.field for a in answers if a.assumed]
    date, valid_until = _dates(session)
    assumptions = [k.text for k in result.plan.knobs] if result.plan else []
    assumptions += result.assumptions
    return ProposalContext(
        session_id=_int(session.get("id")), title=str(session.get("title") or ""),
        customer=str(session.get("customer") or ""), date=date, valid_until=valid_until,
        session_lang=session.get("lang"), answers=answers, assumed_fields=assumed, result=result, model=model,
        memory_rows=_memory_rows(result.plan), measured=measured,
        risks=_risks(result, model, measured, assumed), acceptance=_with_measurements(limits, measured),
        commands=commands, software=_software(session, model, measured), sources=_sources(result),
        assumptions=assumptions, generator_version=__version__, cluster=_cluster(session),
        scope_notes=_scope_notes(answers, serving_sized=result.serving_after is not None),
        stack=_stack_note(result.plan),
    )


def _scope_notes(answers: list[Answer], serving_sized: bool = False) -> list[Msg]:
    """A training job's answers that belong to serving (a brief often describes the fine-tune and the serving
    after it): said to be out of the training's sizing, instead of silently ignored or shown as if they were used.
    `serving_sized`: the serving after the training was sized too (its concurrency is used there, not noted)."""
    given = {a.field: a.value for a in answers if not a.assumed}
    if given.get("use_case") not in TRAINING_USE_CASES:
        return []
    notes = []
    engine = given.get("framework")
    if engine in SERVING_ENGINE_IDS:
        # the product's own name (vLLM, SGLang), the same in both languages
        notes.append(Msg("profile.scope_serving_engine", engine=BY_ID["framework"].choice_labels[engine]["en"]))
    concurrency = given.get("concurrency")
    if isinstance(concurrency, int) and not isinstance(concurrency, bool) and not serving_sized:
        notes.append(Msg("profile.scope_concurrency", n=concurrency))
    return notes


def _cluster(session: dict[str, Any]) -> ClusterPlan | None:
    """The last multi-node plan (size_cluster) of the session; only a plan over more than one unit counts."""
    found = _latest(session, ("size_cluster",))
    if found is None:
        return None
    plan = ClusterPlan.model_validate(found[1])
    multi = any(o.units > 1 or o.gpus > 8 for o in plan.options)
    return plan if multi else None
