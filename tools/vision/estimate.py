"""`estimate --task vision`: memory per GPU of a vision training or inference job, from the traced graph.

Training (per GPU, data parallelism: every GPU holds the whole model and its own `batch_size` images):

    weights      parameters in fp32 + buffers (mixed precision keeps fp32 master weights; autocast makes
                 the 16-bit copies, which are part of the saved activations)
    gradients    trainable parameters × 4 bytes
    optimizer    SGD 0, SGD+momentum 4, AdamW 8 bytes per trainable parameter; 8-bit AdamW: two uint8 states
                 + one fp32 absmax per 256 values for tensors of 4096 values or more, fp32 states below
                 (bitsandbytes `Optimizer8bit`: block size 256, `min_8bit_size=4096`)
    activations  what autograd saves for backward at this batch (CUDA rules), or with activation
                 checkpointing: block inputs + what is saved outside blocks + one block recomputed
    workspace    the largest transient: live tensors that are neither saved nor gradients, at any moment of
                 the step, or the optimizer step's intermediates (foreach: one parameter-sized list), the larger
    runtime      CUDA context + cuDNN/cuBLAS workspace (+ DDP gradient buckets with several GPUs)

Activations and gradients are added although PyTorch frees activations while gradients appear: the sum is
the conservative bound; `vision.step_peak_bytes` gives the traced peak of the two together.

Inference: weights in the dtype + the largest live set of a no-grad forward + runtime.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.errors import InputError
from sizer_agent.tools.memory.runtime import GiB, RuntimeItem, cuda_context, workspace_bytes
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.vision.trace import TraceDtype, VisionTrace, trace

VisionMode = Literal["training", "inference"]
VisionOptimizer = Literal["sgd", "sgd_momentum", "adamw", "adamw8bit"]
VISION_OPTIMIZERS: tuple[str, ...] = ("sgd", "sgd_momentum", "adamw", "adamw8bit")
VISION_DTYPES: tuple[str, ...] = ("float32", "bfloat16", "float16")

# Wu & He 2018, "Group Normalization" (ECCV), Figure 1: ResNet-50 ImageNet error with BatchNorm rises from
# 23.7 % at 16 images per GPU to 24.8 % at 8, 27.3 % at 4 and 34.7 % at 2. Below 8 per GPU: warn.
BATCHNORM_MIN_BATCH = 8
# bitsandbytes Optimizer8bit: blockwise quantised states, 256 values per fp32 absmax; tensors under 4096
# values keep 32-bit states (bitsandbytes/optim/optimizer.py, `min_8bit_size=4096`).
ADAM8BIT_BLOCK = 256
ADAM8BIT_MIN_SIZE = 4096
MAX_RESOLUTION = 8192


class VisionRequest(BaseModel):
    """One field per `sizer-agent estimate --task vision` flag."""

    model: str = Field(min_length=1, description="timm or torchvision name, or yolov8n..yolov8x")
    resolution: int = Field(224, ge=32, le=MAX_RESOLUTION, description="image side in pixels (square)")
    batch_size: int = Field(32, ge=1, le=65536, description="images per GPU per step")
    mode: VisionMode = "training"
    dtype: TraceDtype = Field("float32", description="float32, or bfloat16/float16 autocast (training) / weights "
                              "and activations (inference)")
    num_classes: int | None = Field(None, ge=1, le=1_000_000, description="None = the architecture's default")
    optimizer: VisionOptimizer = "sgd_momentum"
    gpus: int = Field(1, ge=1, le=4096, description="data-parallel GPUs (each holds the model and its batch)")
    checkpointing: bool = Field(False, description="activation checkpointing per block")
    gpu: str | None = Field(None, description="catalogue GPU id: usable memory and fit")
    gpu_memory_gib: float | None = Field(None, gt=0, le=4096)
    dataset_images: int | None = Field(None, ge=1, description="images per epoch (speed: epoch time)")


class VisionModelSummary(BaseModel):
    name: str
    library: str = Field(description="yolo (our YOLOv8 code), torchvision or timm")
    params_total: int
    params_trainable: int
    num_classes: int | None
    batchnorm_layers: int
    checkpoint_blocks: int


class VisionMemory(BaseModel):
    """Bytes on one GPU (every data-parallel GPU holds the same)."""

    weights_bytes: int
    gradients_bytes: int
    optimizer_bytes: int
    activations_bytes: int
    workspace_bytes: int
    runtime_bytes: int
    total_bytes: int


class VisionFigures(BaseModel):
    resolution: int
    batch_size: int = Field(description="images per GPU per step")
    global_batch: int = Field(description="images per step over all GPUs")
    dtype: str
    forward_flops_per_image: float = Field(description="FlopCounterMode count of a training-mode forward, per image")
    attention_flops_per_image: float = Field(description="fused-attention FLOPs FlopCounterMode does not see on CPU")
    inference_flops_per_image: float
    saved_activation_bytes: int = Field(description="autograd's saved tensors at this batch (CPU rules)")
    saved_activation_bytes_cuda: int = Field(description="the same under CUDA rules (used for GPU memory)")
    checkpointed_activation_bytes: int = Field(description="kept with per-block checkpointing, + one block recomputed")
    inference_peak_activation_bytes: int = Field(description="largest live set of a no-grad forward, weights excluded")
    step_peak_bytes: int = Field(description="traced peak of activations + temporaries + gradients in one step")
    transient_bytes: int
    input_bytes: int
    trace_seconds: float = Field(description="seconds the trace took when it was made")
    from_cache: bool = Field(description="answered from the disk cache (no torch imported)")


class VisionEstimate(BaseModel):
    request: VisionRequest
    model: VisionModelSummary
    per_gpu: VisionMemory
    runtime_items: list[RuntimeItem]
    vision: VisionFigures
    gpu_memory_bytes: int | None
    gpu_name: str | None = None
    fits: bool | None
    headroom_bytes: int | None
    dominant_term: str
    warnings: list[Msg] = Field(default_factory=list)
    explanation: list[Msg] = Field(default_factory=list)
    trace: VisionTrace = Field(exclude=True, description="the traced graph (ops for the speed model); not in JSON")


def adam8bit_state_bytes(numels: list[int]) -> int:
    """Two states per parameter tensor, as bitsandbytes lays them out."""
    total = 0
    for n in numels:
        if n >= ADAM8BIT_MIN_SIZE:
            total += 2 * (n + 4 * math.ceil(n / ADAM8BIT_BLOCK))
        else:
            total += 2 * 4 * n
    return total


def optimizer_bytes(optimizer: VisionOptimizer, numels: list[int]) -> int:
    params = sum(numels)
    if optimizer == "sgd":
        return 0
    if optimizer == "sgd_momentum":
        return 4 * params
    if optimizer == "adamw":
        return 8 * params
    return adam8bit_state_bytes(numels)


def _gpu_memory(request: VisionRequest) -> tuple[int | None, str | None]:
    if request.gpu_memory_gib is not None:
        return int(request.gpu_memory_gib * GiB), None
    if request.gpu is None:
        return None, None
    from sizer_agent.tools.catalog.loader import load_catalog

    gpu = load_catalog().gpu(request.gpu)
    return gpu.memory_usable_bytes, gpu.name


def estimate_vision(request: VisionRequest | str, **fields: Any) -> VisionEstimate:
    """Estimate the GPU memory of a computer-vision job (timm/torchvision model or YOLOv8) at a resolution and
    batch per GPU, training or inference: weights, gradients, optimizer states, saved activations, workspace
    and runtime per GPU. Needs the `vision` extra (torch, torchvision, timm)."""
    # from Python, estimate_vision("resnet50", resolution=224, batch_size=64) works too
    if isinstance(request, str):
        request = VisionRequest(model=request, **fields)
    try:
        traced = trace(request.model, request.num_classes, request.resolution, request.dtype)
    except InputError:
        raise
    except (RuntimeError, ValueError, AssertionError, TypeError, IndexError) as error:
        first = str(error).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__
        raise InputError("--resolution", f"{request.model} does not run at {request.resolution} px ({first})",
                         "a size the architecture accepts: e.g. 224 for classifiers, a multiple of 32 for YOLO") \
            from None
    return compose(request, traced)


def compose(request: VisionRequest, traced: VisionTrace) -> VisionEstimate:
    """The memory arithmetic on a trace (pure: no torch)."""
    b = request.batch_size
    training = request.mode == "training"
    warnings: list[Msg] = []
    explanation: list[Msg] = []
    saved = int(traced.saved_bytes.at(b))
    saved_cuda = int(traced.saved_bytes_cuda.at(b))
    checkpointed = int(traced.checkpoint_saved_bytes.at(b) + traced.checkpoint_recompute_bytes.at(b))
    trainable = traced.params_trainable
    runtime = [cuda_context(), workspace_bytes(1, 1)]
    if training:
        weights = traced.params_total * 4 + traced.buffer_bytes
        gradients = trainable * 4
        optimizer = optimizer_bytes(request.optimizer, traced.trainable_numels)
        if request.checkpointing:
            activations = checkpointed
            explanation.append(Msg("vision.checkpointing", blocks=traced.checkpoint_blocks,
                                   saved=saved_cuda, kept=checkpointed))
        else:
            activations = saved_cuda
        # The optimizer step's foreach intermediates come after backward: they never add to the activations.
        workspace = int(max(traced.transient_bytes.at(b), 4 * trainable if request.optimizer != "sgd" else 0))
        if request.gpus > 1:
            runtime.append(RuntimeItem(name="DDP gradient buckets", bytes=gradients,
                                       source="PyTorch DistributedDataParallel: gradient_as_bucket_view=False "
                                              "(default) keeps a bucket copy of every gradient"))
        if traced.batchnorm_layers and b < BATCHNORM_MIN_BATCH:
            warnings.append(Msg("vision.batchnorm_small_batch", batch=b, minimum=BATCHNORM_MIN_BATCH,
                                layers=traced.batchnorm_layers))
        explanation.append(Msg("vision.training_memory", optimizer=request.optimizer, dtype=request.dtype))
    else:
        element = 4 if request.dtype == "float32" else 2
        weights = traced.params_total * element + traced.buffer_bytes * element // 4
        gradients = optimizer = workspace = 0
        activations = int(traced.inference_peak_bytes.at(b))
        explanation.append(Msg("vision.inference_memory", dtype=request.dtype))
    runtime_total = sum(item.bytes for item in runtime)
    total = weights + gradients + optimizer + activations + workspace + runtime_total
    memory = VisionMemory(weights_bytes=weights, gradients_bytes=gradients, optimizer_bytes=optimizer,
                          activations_bytes=activations, workspace_bytes=workspace, runtime_bytes=runtime_total,
                          total_bytes=total)
    gpu_bytes, gpu_name = _gpu_memory(request)
    fits = None if gpu_bytes is None else total <= gpu_bytes
    if fits is False:
        warnings.append(Msg("vision.does_not_fit", need=total, gpu=gpu_bytes))
    terms = {"weights": weights, "gradients": gradients, "optimizer": optimizer, "activations": activations,
             "workspace": workspace, "runtime": runtime_total}
    return VisionEstimate(
        request=request,
        model=VisionModelSummary(name=traced.model, library=traced.library, params_total=traced.params_total,
                                 params_trainable=trainable, num_classes=traced.num_classes,
                                 batchnorm_layers=traced.batchnorm_layers,
                                 checkpoint_blocks=traced.checkpoint_blocks),
        per_gpu=memory, runtime_items=runtime,
        vision=VisionFigures(
            resolution=request.resolution, batch_size=b, global_batch=b * request.gpus, dtype=request.dtype,
            forward_flops_per_image=traced.forward_flops.per_image,
            attention_flops_per_image=traced.attention_flops.per_image,
            inference_flops_per_image=traced.inference_flops.per_image,
            saved_activation_bytes=saved, saved_activation_bytes_cuda=saved_cuda,
            checkpointed_activation_bytes=checkpointed,
            inference_peak_activation_bytes=int(traced.inference_peak_bytes.at(b)),
            step_peak_bytes=int(traced.step_peak_bytes.at(b)), transient_bytes=int(traced.transient_bytes.at(b)),
            input_bytes=int(traced.input_bytes.at(b)), trace_seconds=traced.trace_seconds,
            from_cache=traced.from_cache,
        ),
        gpu_memory_bytes=gpu_bytes, gpu_name=gpu_name or request.gpu, fits=fits,
        headroom_bytes=None if gpu_bytes is None else gpu_bytes - total,
        dominant_term=max(terms, key=lambda k: terms[k]),
        warnings=warnings, explanation=explanation, trace=traced,
    )
