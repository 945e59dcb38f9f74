"""From a complete profile to tool arguments: which tools to call, with what, in which order.

The only translation layer between the interview vocabulary (use case, precision, concurrent users,
growth) and the tools' request models (mode, method, dtype/quantization, concurrency). Kept in one place so
that the deterministic engine, the LLM backend's fallback and the headless intake size the same way.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Collection
from pathlib import Path
from typing import Any

from sizer_agent.agent.profile import TRAINING_USE_CASES, WorkloadProfile

# precision answer -> (EstimateRequest.dtype, EstimateRequest.quantization)
PRECISION_TO_REQUEST: dict[str, tuple[str, str | None]] = {
    "fp32": ("float32", None),
    "bf16": ("bfloat16", None),
    "fp16": ("float16", None),
    "fp8": ("auto", "fp8"),
    "int8": ("auto", "int8"),
    "int4": ("auto", "int4"),
    "nf4": ("auto", "nf4"),
    "mxfp4": ("auto", "mxfp4"),
    "nvfp4": ("auto", "nvfp4"),
}


def published_precision(model: str | None) -> str | None:
    """The precision answer that matches a bundled model's quantized checkpoint (gpt-oss: mxfp4, DeepSeek-V3:
    fp8), None when the weights are published unquantized or the model is not bundled (no network here)."""
    from sizer_agent.tools.model_loader import bundled_quantization

    config = bundled_quantization(model) if model else None
    if not config:
        return None
    method = str(config.get("quant_method", "")).lower()
    algo = str(config.get("quant_algo", "")).lower()
    if method in ("modelopt", "compressed-tensors"):
        return "nvfp4" if "nvfp4" in algo else "fp8" if "fp8" in algo else None
    return {"fp8": "fp8", "mxfp4": "mxfp4", "gptq": "int4", "awq": "int4"}.get(method)


# optimizer answer -> EstimateRequest.optimizer. The estimator's "sgd" keeps one momentum buffer
# (momentum 0.9); plain SGD is sized the same way, which over-counts by one state per parameter at most.
OPTIMIZER_TO_REQUEST: dict[str, str] = {
    "adamw": "adamw", "adamw_8bit": "adamw8bit", "sgd": "sgd", "sgd_momentum": "sgd", "adafactor": "adafactor",
}


# EstimateRequest field named in a tool's InputError -> the interview question that set it
REQUEST_FIELD_TO_QUESTION: dict[str, str] = {
    "model": "model", "revision": "model", "dtype": "precision", "quantization": "precision",
    "max_model_len": "context_len", "seq_len": "context_len", "input_len": "input_len",
    "output_len": "output_len", "concurrency": "concurrency", "batch_size": "batch_size",
    "optimizer": "optimizer", "tensor_parallel_size": "num_gpus", "data_parallel_size": "num_gpus",
    "pipeline_parallel_size": "num_gpus",
    # estimate --task vision flags (a missing extra, "--task vision", is not a question to ask again)
    "--model": "vision_model", "--resolution": "image_resolution", "--batch-size": "batch_size",
    "resolution": "image_resolution",
}


def question_for_error(error: str | None) -> str | None:
    """The question to ask again when a tool refused the input ("max_model_len: ..." -> context_len)."""
    field = (error or "").split(":", 1)[0].strip()
    return REQUEST_FIELD_TO_QUESTION.get(field)


def sized_concurrency(profile: WorkloadProfile) -> int:
    """Concurrent requests to size for: today's peak times the expected growth, rounded up."""
    base = profile.concurrency or 1
    return max(1, math.ceil(base * (profile.growth_factor or 1.0)))


def custom_config_path(profile: WorkloadProfile, cache_dir: Path | None = None) -> str | None:
    """Write a custom architecture as a config.json the model loader reads; stable path per content."""
    if profile.custom_architecture is None:
        return None
    config = profile.custom_architecture.to_hf_config()
    text = json.dumps(config, sort_keys=True)
    if cache_dir is None:
        from platformdirs import user_cache_dir

        cache_dir = Path(user_cache_dir("sizer-agent", appauthor=False)) / "custom-models"
    folder = cache_dir / hashlib.sha256(text.encode()).hexdigest()[:16]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.json"
    if not path.exists():
        path.write_text(text)
    return str(path)


def estimate_arguments(profile: WorkloadProfile, cache_dir: Path | None = None) -> dict[str, Any]:
    """Arguments of the `estimate_memory` tool (`tools.estimate.EstimateRequest`) for this profile."""
    training = profile.use_case in TRAINING_USE_CASES
    dtype, quantization = PRECISION_TO_REQUEST.get(profile.precision or "bf16", ("auto", None))
    model = custom_config_path(profile, cache_dir) or profile.model
    args: dict[str, Any] = {
        "model": model,
        "revision": profile.model_revision,
        "mode": "training" if training else "inference",
        "dtype": dtype,
        "quantization": quantization,
    }
    gpus = profile.num_gpus or 1
    if training:
        args["method"] = {"finetune_lora": "lora", "finetune_qlora": "qlora"}.get(profile.use_case or "", "full")
        if profile.use_case == "pretraining":
            args["from_scratch"] = True
        if args["method"] == "qlora":  # the estimator stores a QLoRA base in NF4 itself; compute in bf16
            args["quantization"] = None
            args["dtype"] = "bfloat16" if dtype == "auto" else dtype
        args["batch_size"] = profile.batch_size or 1
        if profile.context_len:
            args["seq_len"] = profile.context_len
        args["optimizer"] = OPTIMIZER_TO_REQUEST[profile.optimizer or "adamw"]
        args["data_parallel_size"] = gpus
    else:
        if profile.input_len:
            args["input_len"] = profile.input_len
        if profile.output_len:
            args["output_len"] = profile.output_len
        if profile.context_len:
            args["max_model_len"] = profile.context_len
        if profile.use_case == "online_serving":
            args["concurrency"] = sized_concurrency(profile)
        else:  # batch inference and vision: the batch is the load
            args["concurrency"] = profile.batch_size or 1
            args["batch_size"] = profile.batch_size or 1
        args["tensor_parallel_size"] = gpus
        # engine stays "generic": the vLLM profile needs a GPU size, which the recommendation chooses;
        # a preferred chip that pads KV heads (TPU) is named, so the first figures already count the padding
        if profile.gpu_preference and _pads_kv(profile.gpu_preference):
            args["gpu"] = profile.gpu_preference
    return {k: v for k, v in args.items() if v is not None or k in ("revision", "quantization")}


def _pads_kv(gpu_id: str) -> bool:
    from sizer_agent.tools.catalog import load_catalog
    from sizer_agent.tools.errors import InputError

    try:
        return load_catalog().gpu(gpu_id).kv_alignment is not None
    except InputError:  # not a catalogue chip: the recommendation says so
        return False


# precision answer -> the vision job's compute dtype (autocast for training, weights for inference)
VISION_DTYPES: dict[str, str] = {"fp32": "float32", "bf16": "bfloat16", "fp16": "float16"}
# optimizer answer -> tools.vision.estimate.VisionOptimizer (Adafactor is not a vision optimizer)
VISION_OPTIMIZERS: dict[str, str] = {"adamw": "adamw", "adamw_8bit": "adamw8bit", "sgd": "sgd",
                                     "sgd_momentum": "sgd_momentum"}


def vision_arguments(profile: WorkloadProfile) -> dict[str, Any]:
    """Arguments of the `estimate_vision` tool (`tools.vision.estimate.VisionRequest`) for a vision profile."""
    training = profile.vision_mode != "inference"
    args: dict[str, Any] = {
        "model": profile.vision_model,
        "resolution": profile.image_resolution or 224,
        "batch_size": profile.batch_size or 32,
        "mode": "training" if training else "inference",
        # another precision (fp8, int4...) is sent as asked: the tool names what a vision job allows
        "dtype": VISION_DTYPES.get(profile.precision or "bf16", profile.precision),
        "gpus": profile.num_gpus or 1,
    }
    if training:
        args["optimizer"] = VISION_OPTIMIZERS.get(profile.optimizer or "sgd_momentum", profile.optimizer)
        args["dataset_images"] = profile.dataset_images
    return {k: v for k, v in args.items() if v is not None}


# deployment answer -> the unit kinds it buys (tools.plan.UnitKind); not answered (assumed) -> all of them
DEPLOYMENT_UNITS: dict[str, tuple[str, ...]] = {
    "workstation": ("workstation",), "server": ("server", "node", "rack"), "cloud": ("cloud",),
}
ON_PREMISES_UNITS: tuple[str, ...] = ("workstation", "server", "node", "rack")
# serving framework answer -> the memory accounting of its engine (vLLM pre-allocates; the others are sized
# by what they hold)
VLLM_FRAMEWORKS = frozenset({"vllm"})
JAX_STACKS = ("cuda", "rocm", "xla")  # JAX runs on NVIDIA/AMD GPUs and on TPUs (XLA)


def one_seat_each(profile: WorkloadProfile) -> bool:
    """A budget said per seat for people counted, with no count of machines ("8 architectes … 6 000 € par poste"):
    one workstation each, an assumption the document states."""
    return (profile.workstations is None
            and (bool(profile.budget_per_workstation) or profile.budget_eur_per_workstation is not None)
            and (profile.head_count or 0) > 1 and profile.deployment in (None, "workstation"))


def workstation_count(profile: WorkloadProfile) -> int:
    """Identical workstations bought together: the count said, else one a person when the budget is per seat."""
    if profile.workstations:
        return profile.workstations
    return min(profile.head_count or 1, WORKSTATIONS_MAX) if one_seat_each(profile) else 1


WORKSTATIONS_MAX = 50  # the profile's own bound on a count of workstations (profile.workstations)


def several_workstations(profile: WorkloadProfile) -> bool:
    """Identical workstations bought together (not servers: a rack of several is a split, sized as such)."""
    return workstation_count(profile) > 1 and profile.deployment in (None, "workstation")


def _machine_share(profile: WorkloadProfile, budget: float | None) -> float | None:
    """One machine's share of a budget said for several identical workstations (all of it when said per seat)."""
    if budget is None or not several_workstations(profile) or profile.budget_per_workstation:
        return budget
    return round(budget / workstation_count(profile), 2)


def recommend_arguments(
    profile: WorkloadProfile, input_fields: set[str], assumed: Collection[str] = (),
) -> dict[str, Any]:
    """Arguments of the `recommend` tool (`tools.recommend.RecommendRequest`): the workload and the scope.

    An assumed answer (a documented default the customer did not give) does not narrow the scope: an
    assumed deployment looks at every way of buying, an assumed GPU count is not a plan the customer made.
    Fields the tool does not declare are not sent.
    """
    serving = profile.use_case == "online_serving"
    training = profile.use_case in TRAINING_USE_CASES
    units = DEPLOYMENT_UNITS.get(profile.deployment or "", ()) if "deployment" not in assumed else ()
    if not units and profile.cloud_excluded and "cloud_excluded" not in assumed:
        units = ON_PREMISES_UNITS  # "pas de cloud" with no machine named: every way of buying but renting
    framework = profile.framework or ("vllm" if not training else "pytorch")
    vision = profile.use_case == "vision"
    owned_first = bool(profile.gpus_owned and profile.compared_gpus and profile.gpu_preference is None)
    candidates: dict[str, Any] = {
        "workload": None if vision else estimate_arguments(profile),
        "vision": vision_arguments(profile) if vision else None,
        "slo_ttft_ms": profile.ttft_ms if serving else None,
        "slo_tpot_ms": profile.tpot_ms if serving else None,
        "slo_assumed": [name for name in ("ttft", "tpot") if serving and f"{name}_ms" in assumed],
        "percentile": profile.slo_percentile,
        # several identical workstations: one is sized against its share of a budget said for all of them
        # (a budget said only per machine is each one's: "2 500 € par poste")
        "budget_eur": _machine_share(profile, profile.budget_eur) if profile.budget_eur is not None
        else profile.budget_eur_per_workstation,
        "machines": workstation_count(profile) if several_workstations(profile) else 1,
        "machines_assumed": several_workstations(profile) and one_seat_each(profile),
        "budget_eur_per_month": profile.budget_eur_per_month,
        "budget_usd": _machine_share(profile, profile.budget_usd),
        "epochs": (profile.epochs or 1) if training or (vision and profile.vision_mode != "inference") else 1,
        "epochs_assumed": profile.epochs is None and (training or (vision and profile.vision_mode != "inference")),
        "budget_usd_per_month": profile.budget_usd_per_month,
        "cloud_excluded": bool(profile.cloud_excluded) and "cloud_excluded" not in assumed,
        "job_requests": profile.job_requests if profile.use_case == "batch_inference" else None,
        # a batch job, or a training rerun on a schedule ("a new model every month"), said to recur
        "job_recurring": bool(profile.job_recurring) if profile.use_case == "batch_inference"
        else True if (training or vision) and profile.job_runs_per_year else None,
        "precision_assumed": "precision" in assumed,
        "batch_assumed": (vision or training) and "batch_size" in assumed,
        "job_runs_per_year": profile.job_runs_per_year if profile.use_case == "batch_inference" or training
        or vision else None,
        # "une seule fois", "a one-off fine-tune": one run, paid by its hours when rented
        # a pre-training is one run unless said to recur: its rental and its budget ("€400k for the run") are the run's
        # and so is a training the customer rents with nothing said of a schedule: a cloud GPU is paid by the hour of
        # the run, and weighing it over the amortisation period would have it train non-stop for three years
        "training_one_off": training and (profile.job_recurring is False or (profile.job_recurring is None and (
            profile.use_case == "pretraining"
            or (profile.deployment == "cloud" and "deployment" not in assumed and not profile.job_runs_per_year)))),
        "deadline_hours": profile.deadline_hours if profile.use_case in ("batch_inference", *TRAINING_USE_CASES) or (
            vision and profile.vision_mode != "inference") else None,
        "vision_images_per_s": profile.images_per_s if vision and profile.vision_mode == "inference" else None,
        "units": list(units),
        "deployment": profile.deployment if "deployment" not in assumed else None,
        "needs_graphics": bool(profile.rendering_cad),
        "ecc_required": bool(profile.ecc_required),
        "ecc_assumed": bool(profile.ecc_required) and "ecc_required" in assumed,
        "power_limit_w": profile.power_limit_w,
        "rack_units": profile.rack_units,
        "gpu_preference": getattr(profile, "gpu_preference", None),
        "planned_gpus": profile.num_gpus if "num_gpus" not in assumed else None,
        # cards already owned: the preference in the planned number, or the first option weighed ("nous avons déjà
        # 2 L40S. On hésite : les garder, ou passer à 2 H200 NVL ?"), checked as they are and not weighed again
        "compared": list(profile.compared_gpus or [])[1 if owned_first else 0:],
        "owned_config": (profile.compared_gpus or [None])[0] if owned_first else None,
        "owned_gpus": bool(profile.gpus_owned) and profile.num_gpus is not None and "num_gpus" not in assumed
        and profile.gpu_preference is not None,
        "engine": "vllm" if framework in VLLM_FRAMEWORKS else "generic",
        # a JAX team (JAX, Flax, MaxText) also runs on Google TPUs: their rentals join the comparison
        "stacks": list(JAX_STACKS) if framework == "jax" and "framework" not in assumed else None,
        "dataset_bytes": profile.dataset_size_bytes if training or vision else None,
        "dataset_tokens": profile.dataset_tokens if training else None,
        "checkpoint_interval_min": profile.checkpoint_interval_min if training or vision else None,
        "serve_after": serve_after(profile, assumed) if training else None,
    }
    return {k: v for k, v in candidates.items() if k in input_fields and v is not None and v != []}


# a fine-tune's precision -> the weights it is served in: merged LoRA or full weights in their training precision; a
# QLoRA model in 4-bit weights, as it was trained against a 4-bit base (merged, then AWQ/GPTQ: vLLM's usual path)
SERVED_AFTER_TRAINING: dict[str, str] = {"bf16": "bf16", "fp16": "fp16", "fp32": "bf16", "fp8": "fp8", "nf4": "int4",
                                         "int4": "int4", "int8": "int8"}


def serve_after(profile: WorkloadProfile, assumed: Collection[str] = ()) -> dict[str, Any] | None:
    """`RecommendRequest.serve_after` for a fine-tune whose brief also states the serving after it (a number of
    requests at once: a training has none of its own), else None. Latency targets not given are the interview's
    defaults, assumed (an interactive floor, as for any serving load)."""
    if profile.use_case not in TRAINING_USE_CASES:
        return None
    from sizer_agent.agent.questions import BY_ID, DEFAULT_CONCURRENCY

    peak_said = profile.concurrency is not None and "concurrency" not in assumed
    people = profile.head_count if profile.head_count and "head_count" not in assumed else None
    if not peak_said and people is None:
        return None
    from sizer_agent.tools.recommend import SERVED_INPUT, SERVED_OUTPUT, SERVER_WINDOW

    precision = "int4" if profile.use_case == "finetune_qlora" else SERVED_AFTER_TRAINING.get(
        profile.precision or "bf16", "bf16")
    dtype, quantization = PRECISION_TO_REQUEST[precision]
    targets = {name: getattr(profile, f"{name}_ms") for name in ("ttft", "tpot")}
    request_tokens = (profile.input_len or SERVED_INPUT) + (profile.output_len or SERVED_OUTPUT)
    said_context = profile.context_len if profile.context_len and "context_len" not in assumed else 0
    return {
        # only the people said ("then serve it to our 300 claims handlers"): the interview's default peak for them
        "concurrency": sized_concurrency(profile) if peak_said else min(DEFAULT_CONCURRENCY, people or 1),
        "people": people, "concurrency_assumed": not peak_said,
        "input_len": profile.input_len, "output_len": profile.output_len,
        # a server's window, as the interview's default: 4,096 tokens or the stated request if longer, or the
        # context said (left to the model's whole window, vLLM would refuse to start on a card its KV pool fits)
        "max_model_len": max(SERVER_WINDOW, request_tokens, said_context),
        "dtype": dtype, "quantization": quantization,
        **{f"slo_{name}_ms": value if value is not None else BY_ID[f"{name}_ms"].default
           for name, value in targets.items()},
        "slo_assumed": [name for name, value in targets.items() if value is None or f"{name}_ms" in assumed],
    }


def bench_arguments(profile: WorkloadProfile, input_fields: set[str]) -> dict[str, Any]:
    """Arguments for `bench_serve` (`tools.bench.results.ServeSettings`): the interview's load, measured."""
    input_len = profile.input_len or 1024
    output_len = profile.output_len or 256
    candidates: dict[str, Any] = {
        "base_url": profile.server_url,
        "input_len": {"low": input_len, "high": input_len},
        "output_len": {"low": output_len, "high": output_len},
        "concurrency": [profile.concurrency or 1],
        "slo_ttft_ms": profile.ttft_ms,
        "slo_tpot_ms": profile.tpot_ms,
        "percentile": profile.slo_percentile,
        "precision": profile.precision,
        "revision": profile.model_revision,
    }
    return {k: v for k, v in candidates.items() if k in input_fields and v is not None}


def cluster_arguments(recommend_args: dict[str, Any], recommend_result: dict[str, Any]) -> dict[str, Any] | None:
    """Arguments of `size_cluster` when a training must end by a date no configuration in scope meets (the chips
    the job needs, per node offer), else None. (Serving loads nothing holds are left to `recommend --nodes`.)"""
    from sizer_agent.tools.plan import RecommendResult
    from sizer_agent.tools.recommend import RecommendRequest, cluster_request

    try:
        request = RecommendRequest.model_validate(recommend_args)
        result = RecommendResult.model_validate(recommend_result)
    except ValueError:
        return None
    if request.workload is None or request.workload.mode != "training" or request.deadline_hours is None:
        return None  # (64 GPUs planned with no date: the plan and the cards owned answer it, not a deadline ladder)
    asked = cluster_request(request, result)
    return None if asked is None else asked.model_dump(mode="json", exclude_none=True)
