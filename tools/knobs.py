"""The settings a practitioner turns, in the order they turn them, as workload transforms.

Two kinds (the expert's habits, written down in the project's notes on sizing proposals):
- practitioner defaults: the same job, run the way people run it (gradient checkpointing and a chunked loss
  for LLM fine-tuning, FSDP/ZeRO-3 when a full fine-tune spans GPUs, vLLM's own memory accounting when the
  engine is vLLM). They are applied to the stated workload and stated as assumptions;
- workload changes, each with a cost stated in the document, tried when the stated workload fits nowhere in
  scope or not within the budget: inference FP8 KV cache -> FP8 weights -> 4-bit weights -> shorter context;
  training smaller micro-batch -> 8-bit optimizer -> LoRA instead of full -> QLoRA instead of LoRA -> CPU
  offload of optimizer states.

Every function returns a new `EstimateRequest` and the `Knob` that names the change; nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Callable

from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.plan import Knob, KnobCode

Step = tuple[Knob, Callable[[EstimateRequest], EstimateRequest | None]]  # None: the change does not apply

SIXTEEN_BIT = ("auto", "bfloat16", "float16", "bf16", "fp16")


def knob(code: KnobCode, changes_workload: bool, **params: object) -> Knob:
    return Knob(code=code, changes_workload=changes_workload, text=Msg(f"knob.{code}", **params))


def is_sixteen_bit(request: EstimateRequest) -> bool:
    return request.quantization is None and request.dtype.lower() in SIXTEEN_BIT


def practitioner_defaults(request: EstimateRequest, engine: str) -> tuple[EstimateRequest, list[Knob]]:
    """The stated workload as practitioners run it; `engine` is the serving engine the customer uses."""
    knobs: list[Knob] = []
    update: dict[str, object] = {}
    if request.mode == "training":
        if request.gradient_checkpointing == "none":
            update["gradient_checkpointing"] = "full"
            knobs.append(knob("gradient_checkpointing", False))
        if not request.fused_loss:
            update["fused_loss"] = True
            knobs.append(knob("chunked_loss", False))
    elif engine == "vllm" and request.engine != "vllm":
        update["engine"] = "vllm"
        knobs.append(knob("engine_vllm", False, utilization=request.gpu_memory_utilization))
    return request.model_copy(update=update), knobs


def zero_for(request: EstimateRequest, data_parallel: int) -> tuple[int, Knob | None]:
    """ZeRO stage for training over several data-parallel GPUs: FSDP (ZeRO-3), as torchtune's distributed
    full and LoRA recipes run (and FSDP + QLoRA for a base too large for one card)."""
    if request.mode != "training" or data_parallel <= 1:
        return 0, None
    return 3, knob("zero", False, stage=3, gpus=data_parallel)


def _kv_fp8(r: EstimateRequest) -> EstimateRequest | None:
    return None if r.kv_cache_dtype.startswith("fp8") else r.model_copy(update={"kv_cache_dtype": "fp8"})


def _weights_fp8(r: EstimateRequest) -> EstimateRequest | None:
    return r.model_copy(update={"quantization": "fp8"}) if is_sixteen_bit(r) else None


def _weights_int4(r: EstimateRequest) -> EstimateRequest | None:
    if r.quantization is not None and r.quantization.lower() in ("int4", "awq", "gptq", "nf4", "mxfp4", "nvfp4"):
        return None
    return r.model_copy(update={"quantization": "int4"})


def _shorter_context(r: EstimateRequest) -> EstimateRequest | None:
    needed = r.input_len + r.output_len
    if r.max_model_len is None or r.max_model_len <= needed:
        return None
    return r.model_copy(update={"max_model_len": needed})


def _weights_offload(r: EstimateRequest) -> EstimateRequest | None:
    return None if r.cpu_offload_gb != 0.0 else r.model_copy(update={"cpu_offload_gb": "auto"})


def _micro_batch(r: EstimateRequest) -> EstimateRequest | None:
    if r.batch_size <= 1:
        return None
    return r.model_copy(update={"batch_size": 1,
                                "gradient_accumulation_steps": r.gradient_accumulation_steps * r.batch_size})


def _optimizer_8bit(r: EstimateRequest) -> EstimateRequest | None:
    return r.model_copy(update={"optimizer": "adamw8bit"}) if r.optimizer == "adamw" else None


def _lora_instead_of_full(r: EstimateRequest) -> EstimateRequest | None:
    # adapters tune a model that already knows: a model pre-trained from scratch has every weight to learn
    return r.model_copy(update={"method": "lora"}) if r.method == "full" and not r.from_scratch else None


def _qlora_instead_of_lora(r: EstimateRequest) -> EstimateRequest | None:
    return r.model_copy(update={"method": "qlora"}) if r.method == "lora" else None


def _cpu_offload(r: EstimateRequest) -> EstimateRequest | None:
    return None if r.cpu_offload else r.model_copy(update={"cpu_offload": True})


def ladder(request: EstimateRequest) -> list[Step]:
    """The workload changes an expert tries, in order (each applied on top of the previous ones)."""
    if request.mode == "training":
        return [
            (knob("micro_batch", True, batch=request.batch_size), _micro_batch),
            (knob("optimizer_8bit", True), _optimizer_8bit),
            (knob("lora_instead_of_full", True), _lora_instead_of_full),
            (knob("qlora_instead_of_lora", True), _qlora_instead_of_lora),
            (knob("cpu_offload", True), _cpu_offload),
        ]
    return [
        (knob("kv_fp8", True), _kv_fp8),
        (knob("weights_fp8", True), _weights_fp8),
        (knob("weights_int4", True), _weights_int4),
        (knob("shorter_context", True, tokens=request.input_len + request.output_len), _shorter_context),
        (knob("weights_offload", True), _weights_offload),
    ]


def cumulative(request: EstimateRequest) -> list[tuple[list[Knob], EstimateRequest]]:
    """Each prefix of the ladder that changes something: ([knobs so far], workload with all of them)."""
    out: list[tuple[list[Knob], EstimateRequest]] = []
    turned: list[Knob] = []
    current = request
    for step, apply in ladder(request):
        changed = apply(current)
        if changed is None:
            continue
        current, turned = changed, [*turned, step]
        out.append((turned, current))
    return out


def single(request: EstimateRequest) -> list[tuple[list[Knob], EstimateRequest]]:
    """Each change of the ladder alone, on the stated workload."""
    out = []
    for step, apply in ladder(request):
        changed = apply(request)
        if changed is not None:
            out.append(([step], changed))
    return out


def fewer_users(concurrency: int, asked: int) -> Knob:
    return knob("fewer_users", True, users=concurrency, asked=asked)
