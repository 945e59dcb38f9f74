"""`estimate`: memory per GPU for an inference or training workload, for the most loaded GPU.

One request model (the `sizer-agent estimate` flags, underscores for dashes) in, one result model out.
The JSON of `EstimateResult` is the documented schema of `sizer-agent estimate --json` (docs/estimate.md).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from sizer_agent.tools.errors import InputError
from sizer_agent.tools.memory.activations import inference_activation_bytes
from sizer_agent.tools.memory.kv_cache import kv_cache_bytes, kv_cache_bytes_per_token
from sizer_agent.tools.memory.runtime import GiB, RuntimeItem, cuda_context, workspace_bytes
from sizer_agent.tools.memory.training import (
    OFFLOAD_CHOICES,
    Offload,
    TrainingMemory,
    TrainingSettings,
    canonical_lora_targets,
    training_memory,
)
from sizer_agent.tools.memory.vllm_profile import BLOCK_SIZE, VllmProfile, default_scheduler_limits, vllm_profile
from sizer_agent.tools.memory.weights import weight_bytes, weight_bytes_per_stage
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.model_spec import LongContext, ModelSpec
from sizer_agent.tools.parallelism import CAPACITY_NOTE, ParallelismPlan, plan_parallelism
from sizer_agent.tools.quantization import QUANTIZATION_CHOICES, kv_dtype_bytes, resolve_dtype, weight_format

MAX_TOKENS = 10_000_000  # beyond any published context window: rejects typos like 8e9
MAX_GPU_GIB = 4096.0


class EstimateRequest(BaseModel):
    """One field per `sizer-agent estimate` flag. Defaults are those of the CLI."""

    model: str = Field(description="bundled model name, config.json path or directory, or Hub id")
    revision: str | None = None
    mode: Literal["inference", "training"] = "inference"
    method: Literal["full", "lora", "qlora"] = "full"
    from_scratch: bool = Field(False, description="training: a model pre-trained from random weights, where adapters "
                               "(LoRA) are no option")
    dtype: str = "auto"
    quantization: str | None = None
    group_size: int = Field(128, ge=1, le=65536)
    kv_cache_dtype: str = "auto"
    max_model_len: int | None = Field(None, ge=1, le=MAX_TOKENS)
    input_len: int = Field(1024, ge=1, le=MAX_TOKENS)
    output_len: int = Field(256, ge=1, le=MAX_TOKENS)
    concurrency: int = Field(1, ge=1, le=100_000)
    images_per_request: int = Field(0, ge=0, le=1024, description="images in each prompt (multimodal models): "
                                    "their tokens join the context and the KV cache, their encoder outputs the "
                                    "encoder cache")
    batch_size: int = Field(1, ge=1, le=100_000)
    seq_len: int = Field(2048, ge=1, le=MAX_TOKENS)
    gradient_accumulation_steps: int = Field(1, ge=1, le=100_000)
    optimizer: Literal["adamw", "adamw8bit", "paged_adamw8bit", "sgd", "adafactor"] = "adamw"
    gradient_checkpointing: Literal["none", "selective", "full"] = "none"
    flash_attention: bool = True
    master_weights: Literal["fp32", "none"] = "fp32"
    lora_rank: int = Field(16, ge=1, le=4096)
    lora_targets: list[str] = Field(default_factory=lambda: ["q_proj", "v_proj"])
    optimizer_in_backward: bool = False
    fused_loss: bool = False
    cpu_offload: bool = False  # kept for scripts: the same as offload=["optimizer"]
    offload: list[Offload] = Field(default_factory=list, description="training: optimizer, parameters, "
                                   "activations (host RAM instead of GPU memory)")
    cpu_offload_gb: float | Literal["auto"] = Field(
        0.0, description="inference: GiB of weights per GPU kept in host RAM and read over the host link every "
        "forward pass (vLLM --cpu-offload-gb; llama.cpp layers left on the CPU); 'auto': the least that fits the GPU")
    host_memory_gbs: float | None = Field(
        None, gt=0, le=100_000, description="with cpu_offload_gb: the offloaded layers run on the CPU (llama.cpp "
        "-ngl below the layer count) at this host DRAM bandwidth, GB/s, instead of crossing PCIe (vLLM)")
    zero: int = Field(0, ge=0, le=3)
    tensor_parallel_size: int = Field(1, ge=1, le=1024)
    pipeline_parallel_size: int = Field(1, ge=1, le=1024)
    data_parallel_size: int = Field(1, ge=1, le=100_000)
    gpu: str | None = None
    gpu_memory_gib: float | None = Field(None, gt=0, le=MAX_GPU_GIB)
    engine: Literal["generic", "vllm"] = "generic"
    gpu_memory_utilization: float = Field(0.9, gt=0, le=1)
    max_num_batched_tokens: int | None = Field(None, ge=1, le=MAX_TOKENS)
    max_num_seqs: int | None = Field(None, ge=1, le=100_000)
    enforce_eager: bool = False

    @field_validator("lora_targets")
    @classmethod
    def _known_targets(cls, value: list[str]) -> list[str]:
        try:
            canonical_lora_targets(value)
        except InputError as error:
            raise ValueError(f"{error.message} (allowed: {error.allowed})") from None
        return value

    @field_validator("offload", mode="before")
    @classmethod
    def _offload_list(cls, value: object) -> object:
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if isinstance(value, list):
            unknown = [v for v in value if v not in OFFLOAD_CHOICES]
            if unknown:
                raise ValueError(f"unknown offload {', '.join(map(str, unknown))}; "
                                 f"allowed: {', '.join(OFFLOAD_CHOICES)}")
        return value

    @field_validator("quantization")
    @classmethod
    def _known_quantization(cls, value: str | None) -> str | None:
        if value is not None and value.lower() not in QUANTIZATION_CHOICES:
            raise ValueError(f"{value!r} is not a known weight format; allowed: {', '.join(QUANTIZATION_CHOICES)}")
        return value

    @field_validator("cpu_offload_gb", mode="before")
    @classmethod
    def _offload_amount(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().lower() == "auto":
            return "auto"
        try:
            amount = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ValueError(f"{value!r} is not a number of GiB or 'auto'") from None
        if not 0 <= amount <= MAX_GPU_GIB * 64:
            raise ValueError(f"{amount} GiB is out of range (0 to {MAX_GPU_GIB * 64:g}, or 'auto')")
        return amount

    @model_validator(mode="after")
    def _coherent(self) -> EstimateRequest:
        if self.zero and self.data_parallel_size == 1:
            raise ValueError("zero > 0 shards over data-parallel ranks: set data_parallel_size > 1")
        return self


class ModelSummary(BaseModel):
    name: str
    revision: str | None
    revision_pinned: bool
    architecture: str
    source: str
    params_total: int
    params_active: int
    num_layers: int
    hidden_size: int
    num_attention_heads: int
    num_kv_heads: int
    head_dim: int
    vocab_size: int
    max_position_embeddings: int
    is_moe: bool
    attention: str  # "full", "sliding+full", "mla", ...
    vision_params: int = 0  # vision tower + projector (multimodal checkpoints)
    image_tokens_per_image: int = 0


class MemoryBreakdown(BaseModel):
    """Bytes on the most loaded GPU."""

    weights_bytes: int
    kv_cache_bytes: int
    activations_bytes: int
    gradients_bytes: int
    optimizer_bytes: int
    runtime_bytes: int
    total_bytes: int


class WeightOffload(BaseModel):
    """Inference weights kept in host RAM (vLLM --cpu-offload-gb, llama.cpp CPU layers): every forward pass
    reads them over the GPU's host link, so each decode step costs offloaded_bytes / link bandwidth more
    (tools/perf/offload.py)."""

    requested: float | Literal["auto"]
    offloaded_bytes_per_gpu: int  # what leaves the GPU (never more than its weights)
    host_ram_bytes: int  # all GPUs of the replica together, pinned host memory
    num_gpus: int


class EstimateResult(BaseModel):
    request: EstimateRequest
    model: ModelSummary
    dtype: str
    weight_format: str
    weight_format_source: str
    kv_cache_dtype_bytes: float
    max_model_len: int
    long_context: LongContext | None = Field(None, description="the RoPE scaling the context asked for needs "
                                             "(beyond the config's own): the engine must be started with it")
    per_gpu: MemoryBreakdown
    runtime_items: list[RuntimeItem]
    kv_cache_bytes_per_token: int  # one GPU's share, all its layers, before window caps, heads as stored
    kv_head_alignment: int | None = Field(
        None, description="KV heads stored padded to a multiple of this many elements (the chip's serving engine: "
        "vLLM on TPU, 128 lanes); every KV figure above includes the padding. None: heads at their size")
    weight_bytes_total: int  # the whole model, all GPUs together
    weight_bytes_nominal: int  # params x headline width (e.g. 70 B x 1 byte): docs/method.md's arithmetic
    gpu_memory_bytes: int | None
    gpu_name: str | None = None
    fits: bool | None  # None when no GPU size was given
    headroom_bytes: int | None
    dominant_term: str
    engine: VllmProfile | None = None
    training: TrainingMemory | None = None
    weight_offload: WeightOffload | None = None
    parallelism: ParallelismPlan
    warnings: list[Msg] = Field(default_factory=list)
    explanation: list[Msg] = Field(default_factory=list)


def _gpu_memory(request: EstimateRequest) -> tuple[int | None, str | None, int | None]:
    """(usable bytes, name, KV head alignment) of the GPU asked for; --gpu-memory-gib wins for the size."""
    if request.gpu is None:
        return (None if request.gpu_memory_gib is None else int(request.gpu_memory_gib * GiB)), None, None
    try:
        from sizer_agent.tools.catalog import load_catalog  # the hardware catalogue; optional at this layer
    except ImportError:
        if request.gpu_memory_gib is not None:
            return int(request.gpu_memory_gib * GiB), None, None
        raise InputError("gpu", "the hardware catalogue is not installed", "use --gpu-memory-gib") from None
    if request.gpu_memory_gib is not None:  # the size is given: the catalogue only adds the KV layout, if known
        try:
            return int(request.gpu_memory_gib * GiB), None, load_catalog().gpu(request.gpu).kv_alignment
        except InputError:
            return int(request.gpu_memory_gib * GiB), None, None
    gpu = load_catalog().gpu(request.gpu)
    return int(gpu.memory_usable_bytes), str(gpu.name), gpu.kv_alignment


def _summary(model: ModelSpec) -> ModelSummary:
    kinds = sorted(set(model.layer_attention))
    return ModelSummary(
        name=model.name,
        revision=model.revision,
        revision_pinned=model.revision is not None,
        architecture=model.architecture,
        source=model.source,
        params_total=model.params_total,
        params_active=model.params_active,
        num_layers=model.num_layers,
        hidden_size=model.hidden_size,
        num_attention_heads=model.num_attention_heads,
        num_kv_heads=model.num_kv_heads,
        head_dim=model.head_dim,
        vocab_size=model.vocab_size,
        max_position_embeddings=model.max_position_embeddings,
        is_moe=model.is_moe,
        attention="+".join(kinds),
        vision_params=model.vision_params,
        image_tokens_per_image=model.image_tokens_per_image,
    )


def _image_tokens(request: EstimateRequest, model: ModelSpec) -> int:
    """Prompt tokens the images of one request add (0 for text-only requests)."""
    if request.images_per_request and not model.image_tokens_per_image:
        raise InputError("images_per_request", f"{model.name} has no vision tower this tool counts",
                         "0 for a text-only model")
    return request.images_per_request * model.image_tokens_per_image


def _max_model_len(request: EstimateRequest, model: ModelSpec) -> int:
    limit = model.max_position_embeddings
    prompt = request.input_len + _image_tokens(request, model)
    if request.max_model_len is not None:
        # beyond the config's context, as far as the publisher validated a RoPE scaling (YaRN): said in a warning
        longest = max(limit, model.long_context.context) if model.long_context else limit
        if request.max_model_len > longest:
            scaled = f", {longest} with the publisher's RoPE scaling" if longest > limit else ""
            raise InputError("max_model_len", f"{request.max_model_len} exceeds the model's context of {limit} "
                             f"tokens (max_position_embeddings{scaled})", f"1 to {longest}")
        length = request.max_model_len
    elif request.engine == "vllm":
        length = limit  # vLLM's default: the model's full context
    else:
        length = prompt + request.output_len
    if request.mode == "inference" and prompt + request.output_len > length:
        field = "max_model_len" if request.max_model_len else "input_len"
        images = " (image tokens included)" if prompt > request.input_len else ""
        raise InputError(field, f"input_len + output_len = {prompt + request.output_len} tokens{images} "
                         f"do not fit in a context of {length}", f"input_len + output_len <= {length}")
    if request.mode == "training" and request.seq_len > limit:
        raise InputError("seq_len", f"{request.seq_len} exceeds the model's context of {limit} tokens",
                         f"1 to {limit}")
    return length


MIN_UTILIZATION = 0.5  # below this share vLLM's KV pool is too small to be worth serving from


def _utilization_that_fits(result: EstimateResult) -> float | None:
    """The largest --gpu-memory-utilization (in hundredths) at which vLLM's budget plus its graphs and context fit
    the card, when the one asked for overflows it; None when it already fits or nothing reasonable does."""
    engine, card = result.engine, result.gpu_memory_bytes
    if engine is None or card is None or engine.total_used_bytes <= card:
        return None
    lowered = int((card - engine.cudagraph_bytes - engine.cuda_context_bytes) / card * 100) / 100
    return lowered if MIN_UTILIZATION <= lowered < engine.gpu_memory_utilization else None


def _offload_needed(result: EstimateResult, headroom: float) -> int:
    """Bytes of weights per GPU to move to the host so that the load fits (0 when it already does)."""
    request = result.request
    if result.engine is not None:
        stage = result.engine.stages[result.engine.limiting_stage]
        tokens = max(result.max_model_len, request.concurrency * (request.input_len + request.output_len))
        blocks = -(-tokens // BLOCK_SIZE) + 1
        return max(0, blocks * BLOCK_SIZE * stage.kv_bytes_per_token - stage.kv_pool_bytes)
    if result.gpu_memory_bytes is None:
        return 0
    return max(0, result.per_gpu.total_bytes - int(result.gpu_memory_bytes * (1.0 - headroom)))


def estimate(request: EstimateRequest, model: ModelSpec | None = None, headroom: float = 0.0,
             kv_head_alignment: int | None = None) -> EstimateResult:
    """Estimate the GPU memory of an inference or training job for one language model: weights, KV cache,
    activations, gradients, optimizer states and runtime per GPU (the most loaded one), the parallelism plan,
    and whether it fits a given GPU. Call it once the model, precision, lengths and load are known.
    `headroom`: share of the GPU kept free when `cpu_offload_gb` is 'auto'. `kv_head_alignment`: the chip's
    engine pads each KV head to a multiple of it (catalogue `kv_head_alignment`, vLLM on TPU: 128); taken from
    `request.gpu` when not given."""
    spec = model or load_model(request.model, request.revision)
    amount = request.cpu_offload_gb
    if amount != 0.0 and request.mode == "training":
        raise InputError("cpu_offload_gb", "keeps inference weights in host RAM",
                         "0 in training; use --offload optimizer,parameters,activations")
    if amount == "auto":
        if request.gpu is None and request.gpu_memory_gib is None:
            raise InputError("cpu_offload_gb", "'auto' sizes the offload to the GPU", "--gpu ID or --gpu-memory-gib N")
        first = _estimate(request, spec, 0, kv_head_alignment)
        lowered = _utilization_that_fits(first)
        if lowered is not None:
            # vLLM's CUDA graphs and context sit outside its budget: on a small card they overflow it at the
            # default share, whatever the weights; practitioners lower --gpu-memory-utilization, then offload
            request = request.model_copy(update={"gpu_memory_utilization": lowered})
            first = _estimate(request, spec, 0, kv_head_alignment)
        need = _offload_needed(first, headroom)
        if need == 0:
            return first
        half_gib = GiB // 2  # whole half-GiB steps, as a user would type --cpu-offload-gb
        return _estimate(request, spec, -(-need // half_gib) * half_gib, kv_head_alignment)
    return _estimate(request, spec, int(amount * GiB), kv_head_alignment)


def _estimate(request: EstimateRequest, spec: ModelSpec, offload_bytes: int,
              kv_head_alignment: int | None) -> EstimateResult:
    dtype = resolve_dtype(request.dtype, spec.torch_dtype)
    act_bytes = 4.0 if dtype == "float32" else 2.0
    fmt = weight_format(request.quantization, dtype, spec.hidden_size, spec.quantization, request.group_size)
    kv_bytes = kv_dtype_bytes(request.kv_cache_dtype, dtype)
    tp, pp = request.tensor_parallel_size, request.pipeline_parallel_size
    plan = plan_parallelism(spec, tp, pp, request.data_parallel_size)
    gpu_bytes, gpu_name, gpu_alignment = _gpu_memory(request)
    align = kv_head_alignment or gpu_alignment  # KV heads as the chip's engine stores them
    max_len = _max_model_len(request, spec)
    warnings = list(spec.warnings)
    yarn = spec.long_context if spec.long_context and max_len > spec.max_position_embeddings else None
    if yarn is not None:
        warnings.append(Msg("estimate.long_context", context=max_len, factor=yarn.factor, original=yarn.original,
                            src=yarn.src))
    if spec.revision is None:
        warnings.append(Msg("estimate.revision_unpinned"))
    stage_weights = weight_bytes_per_stage(spec, fmt, plan)
    heaviest = max(range(pp), key=lambda i: stage_weights[i])
    first = sum(plan.stage_layers[:heaviest])
    stage_slice = slice(first, first + plan.stage_layers[heaviest])
    per_token = kv_cache_bytes_per_token(spec, kv_bytes, tp, stage_slice, align)
    engine: VllmProfile | None = None
    training: TrainingMemory | None = None
    explanation: list[Msg] = []
    gradients = optimizer = 0
    runtime_items = [cuda_context(), workspace_bytes(tp, pp)]

    if request.mode == "training":
        settings = TrainingSettings(
            method=request.method, batch_size=request.batch_size, seq_len=request.seq_len,
            gradient_accumulation_steps=request.gradient_accumulation_steps, optimizer=request.optimizer,
            gradient_checkpointing=request.gradient_checkpointing, flash_attention=request.flash_attention,
            master_weights=request.master_weights, lora_rank=request.lora_rank, lora_targets=request.lora_targets,
            optimizer_in_backward=request.optimizer_in_backward, fused_loss=request.fused_loss,
            cpu_offload=request.cpu_offload, offload=request.offload, zero=request.zero, tp=tp, pp=pp,
            dp=request.data_parallel_size,
        )
        training = training_memory(spec, settings, act_bytes)
        weights, kv, activations = training.weights_bytes, 0, training.activations_bytes
        gradients, optimizer = training.gradients_bytes, training.optimizer_bytes
        warnings.extend(training.notes)
        explanation.append(Msg(f"estimate.training_peak_{training.peak_phase}"))
    elif request.engine == "vllm":
        if gpu_bytes is None:
            raise InputError("gpu_memory_gib", "the vllm engine profile needs the GPU's memory",
                             "--gpu ID or --gpu-memory-gib N")
        engine = vllm_profile(
            spec, fmt, plan, gpu_memory_bytes=gpu_bytes, gpu_memory_utilization=request.gpu_memory_utilization,
            max_model_len=max_len, act_bytes=act_bytes, kv_bytes=kv_bytes,
            max_num_batched_tokens=request.max_num_batched_tokens, max_num_seqs=request.max_num_seqs,
            enforce_eager=request.enforce_eager, gpu_name=gpu_name, cpu_offload_bytes=offload_bytes,
            kv_head_alignment=align,
        )
        weights, kv, activations = engine.weights_bytes, engine.kv_cache_bytes, engine.activation_peak_bytes
        runtime_items = [
            cuda_context(),
            RuntimeItem(name="non-torch memory", bytes=engine.non_torch_bytes, source=workspace_bytes(tp, pp).source),
        ]
        if engine.cudagraph_bytes:
            runtime_items.append(RuntimeItem(name="CUDA graphs", bytes=engine.cudagraph_bytes,
                                             source="fit on vLLM 0.19 logs (±20 %), outside the KV budget"))
        explanation.append(Msg("estimate.vllm_pool", utilization=request.gpu_memory_utilization,
                               gpu=gpu_bytes, tokens=engine.kv_cache_tokens, requests=engine.max_concurrency,
                               max_len=max_len))
        if engine.kv_cache_tokens < max_len:
            warnings.append(Msg("estimate.vllm_refuses", tokens=engine.kv_cache_tokens, max_len=max_len))
        elif request.concurrency > engine.max_concurrency:
            warnings.append(Msg("estimate.vllm_queue", concurrency=request.concurrency, max_len=max_len,
                                fit=engine.max_concurrency))
    else:
        weights = max(0, stage_weights[heaviest] - offload_bytes)
        image_tokens = _image_tokens(request, spec)
        tokens_per_seq = min(request.input_len + image_tokens + request.output_len, max_len)
        kv = kv_cache_bytes(spec, kv_bytes, tokens_per_seq, request.concurrency, tp, stage_slice, align)
        batched = request.max_num_batched_tokens or default_scheduler_limits(gpu_bytes or 80 * GiB, gpu_name)[0]
        step_tokens = min(request.concurrency * (request.input_len + image_tokens), batched)
        activations = inference_activation_bytes(
            spec, step_tokens, request.concurrency, act_bytes, tp, last_stage=heaviest == pp - 1
        )
        if image_tokens and heaviest == 0:
            # vLLM's encoder cache keeps image embeddings (text width) until their prompt is prefilled; it
            # holds max(max_num_batched_tokens, one image) tokens (vllm/v1/core/encoder_cache_manager.py,
            # compute_encoder_budget), or what the running requests' images need when that is less.
            cached = min(request.concurrency * image_tokens, max(batched, spec.image_tokens_per_image))
            activations += round(cached * spec.hidden_size * act_bytes)
        explanation.append(Msg("estimate.kv_and_prefill", concurrency=request.concurrency,
                               tokens=tokens_per_seq, step_tokens=step_tokens))

    runtime = sum(item.bytes for item in runtime_items)
    total = weights + kv + activations + gradients + optimizer + runtime
    terms = {"weights": weights, "kv_cache": kv, "activations": activations, "gradients": gradients,
             "optimizer": optimizer, "runtime": runtime}
    dominant = max(terms, key=lambda k: terms[k])
    fits = None if gpu_bytes is None else total <= gpu_bytes
    if engine is not None and gpu_bytes is not None:
        fits = engine.kv_cache_tokens >= max_len and engine.total_used_bytes <= gpu_bytes
    if plan.num_gpus > 1:
        explanation.append(CAPACITY_NOTE)
    if fits is False and gpu_bytes is not None:
        explanation.append(Msg("estimate.does_not_fit", need=total, gpu=gpu_bytes))
    weight_offload = None
    if offload_bytes and request.mode == "inference":
        moved = min(offload_bytes, stage_weights[heaviest])
        weight_offload = WeightOffload(requested=request.cpu_offload_gb, offloaded_bytes_per_gpu=moved,
                                       host_ram_bytes=moved * plan.num_gpus, num_gpus=plan.num_gpus)
        explanation.append(Msg("estimate.weight_offload", offloaded=moved, host=moved * plan.num_gpus))
    return EstimateResult(
        request=request,
        model=_summary(spec),
        dtype=dtype,
        weight_format=fmt.name,
        weight_format_source=fmt.source,
        kv_cache_dtype_bytes=kv_bytes,
        max_model_len=max_len,
        long_context=yarn,
        per_gpu=MemoryBreakdown(
            weights_bytes=weights, kv_cache_bytes=kv, activations_bytes=activations, gradients_bytes=gradients,
            optimizer_bytes=optimizer, runtime_bytes=runtime, total_bytes=total,
        ),
        runtime_items=runtime_items,
        kv_cache_bytes_per_token=per_token,
        kv_head_alignment=align,
        weight_bytes_total=weight_bytes(spec, fmt),
        weight_bytes_nominal=spec.params_total * fmt.nominal_bits // 8,
        gpu_memory_bytes=gpu_bytes,
        gpu_name=gpu_name,
        fits=fits,
        headroom_bytes=None if gpu_bytes is None else gpu_bytes - total,
        dominant_term=dominant,
        engine=engine,
        training=training,
        weight_offload=weight_offload,
        parallelism=plan,
        warnings=warnings + plan.notes,
        explanation=explanation,
    )
