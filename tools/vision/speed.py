"""Images per second of a vision job on a catalogue GPU: a roofline over every traced kernel.

Each aten op of the traced step (forward + backward for training; the no-grad forward for inference) is
one kernel with its FLOPs and the bytes it reads and writes. Its time on the GPU is

    t_op = max(FLOPs / (peak[precision] × compute_efficiency), bytes / (bandwidth × bandwidth_efficiency))
           + kernel_overhead

so a convolution at training batch is compute-bound, a depthwise convolution, a norm, an activation or
attention at high resolution is memory-bound, and a small batch pays the per-kernel launch cost. A training
step adds the optimizer (memory-bound: reads and writes parameters, gradients and states) and, over several
GPUs, the gradient all-reduce not hidden behind backward. Precision: float32 runs on TF32 tensor cores
(cuDNN's default for convolutions, `torch.backends.cudnn.allow_tf32 = True`); bfloat16/float16 on the 16-bit
tensor cores.

The three efficiencies are fitted by `python -m tools.vision.calibrate` on published GPU measurements
(`tests/vision/published.yaml`, calibration split) and stored with their errors in
`tools/vision/data/calibration.json`; the held-out split is scored by the same script and by the tests.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.catalog.models import Gpu
from sizer_agent.tools.perf.collectives import collective_time_s
from sizer_agent.tools.perf.efficiency import DEFAULT_EFFICIENCIES
from sizer_agent.tools.vision.estimate import VisionEstimate, optimizer_bytes
from sizer_agent.tools.vision.trace import OP_KINDS, OpRecord

CALIBRATION_FILE = Path(__file__).resolve().parent / "data" / "calibration.json"
# Optimizer step bytes per trainable parameter (fp32 states, foreach kernels): read param + grad (+ states),
# write param (+ states). SGD: 4+4 read, 4 write; momentum adds 4 read + 4 write; AdamW two states.
_OPTIMIZER_TRAFFIC = {"sgd": 12, "sgd_momentum": 20, "adamw": 28, "adamw8bit": 16}


class VisionEfficiencies(BaseModel):
    """Fractions of the spec sheet reached, and the fixed cost of one kernel. Fitted; see `source`."""

    compute: float = Field(gt=0, le=1, description="of peak tensor FLOP/s (convolutions, matmuls, attention)")
    bandwidth: float = Field(gt=0, le=1, description="of peak memory bandwidth (memory-bound kernels)")
    kernel_overhead_s: float = Field(ge=0, description="launch + tail cost per kernel, seconds")
    source: str = "tools/vision/data/calibration.json"


@lru_cache(maxsize=1)
def calibrated_efficiencies() -> VisionEfficiencies:
    data = json.loads(CALIBRATION_FILE.read_text())
    return VisionEfficiencies(**data["constants"],
                              source=f"fit on {data['calibration_rows']} published rows ({data['fitted']}), "
                                     f"held-out median error {data['test']['images_per_s_median_abs_error']:.0%}")


class KindTime(BaseModel):
    kind: str
    seconds: float
    flops: float
    bytes: float
    compute_bound_seconds: float = Field(description="part of `seconds` spent in compute-bound kernels")


class PhaseSpeed(BaseModel):
    step_time_s: float = Field(description="one step at the per-GPU batch")
    images_per_s: float = Field(description="all GPUs together")
    images_per_s_per_gpu: float
    bound: Literal["compute", "memory", "overhead"] = Field(description="what most of the step time is spent on")
    by_kind: list[KindTime]


class VisionSpeed(BaseModel):
    gpu: str
    gpu_name: str
    precision: str = Field(description="tensor-core precision used: tf32, bf16 or fp16")
    peak_flops: float
    bandwidth_bytes_s: float
    gpus: int
    batch_size: int
    training: PhaseSpeed
    inference: PhaseSpeed
    allreduce_s: float = Field(description="gradient all-reduce per step not hidden behind backward")
    optimizer_s: float
    epoch_time_s: float | None = Field(description="dataset_images / training images/s (None without a dataset size)")
    dataset_images: int | None
    efficiencies: VisionEfficiencies
    notes: list[str] = Field(default_factory=list)


def precision_for(dtype: str) -> str:
    return {"float32": "tf32", "bfloat16": "bf16", "float16": "fp16"}[dtype]


def _peak(gpu: Gpu, precision: str) -> tuple[float, str | None]:
    peak = gpu.peak_flops(precision)
    if peak is not None:
        return peak, None
    bf16 = gpu.peak_flops("bf16") or gpu.peak_flops("fp16")
    if bf16 is None:
        raise ValueError(f"{gpu.id} has no tensor-core figure for {precision} or bf16")
    # NVIDIA tensor cores since Ampere run TF32 at half the dense 16-bit rate (A100 156/312, H100 SXM 495/989).
    return bf16 / 2, f"{precision} peak not in the catalogue: half the 16-bit figure (Ampere and later ratio)"


def _phase(ops: list[OpRecord], phases: tuple[str, ...], batch: int, peak: float, bandwidth: float,
           eff: VisionEfficiencies, extra_s: float, images: float) -> PhaseSpeed:
    kinds = {kind: KindTime(kind=kind, seconds=0, flops=0, bytes=0, compute_bound_seconds=0) for kind in OP_KINDS}
    compute_time = memory_time = overhead_time = 0.0
    for op in ops:
        if op.phase not in phases:
            continue
        flops, moved = max(op.flops.at(batch), 0.0), max(op.bytes.at(batch), 0.0)
        t_compute = flops / (peak * eff.compute)
        t_memory = moved / (bandwidth * eff.bandwidth)
        t = max(t_compute, t_memory) + eff.kernel_overhead_s
        entry = kinds[op.kind]
        entry.seconds += t
        entry.flops += flops
        entry.bytes += moved
        if t_compute >= t_memory:
            entry.compute_bound_seconds += t - eff.kernel_overhead_s
            compute_time += t_compute
        else:
            memory_time += t_memory
        overhead_time += eff.kernel_overhead_s
    step = sum(k.seconds for k in kinds.values()) + extra_s
    shares: dict[Literal["compute", "memory", "overhead"], float] = {
        "compute": compute_time, "memory": memory_time + extra_s, "overhead": overhead_time}
    bound = max(shares, key=lambda k: shares[k])
    per_gpu = batch / step if step > 0 else 0.0
    return PhaseSpeed(step_time_s=step, images_per_s=per_gpu * images, images_per_s_per_gpu=per_gpu, bound=bound,
                      by_kind=[k for k in kinds.values() if k.seconds > 0])


def vision_speed(estimate: VisionEstimate, gpu: Gpu, *, efficiencies: VisionEfficiencies | None = None,
                 dataset_images: int | None = None) -> VisionSpeed:
    """Training and inference images/s of `estimate`'s job on `gpu` (a catalogue `Gpu`). Pure: no torch."""
    eff = efficiencies or calibrated_efficiencies()
    request, traced = estimate.request, estimate.trace
    precision = precision_for(request.dtype)
    peak, note = _peak(gpu, precision)
    bandwidth = gpu.bandwidth_bytes_s
    b, n = request.batch_size, request.gpus
    ops = traced.ops
    if request.checkpointing:  # backward recomputes each block's forward: one more forward's worth of kernels
        ops = ops + [op for op in ops if op.phase == "forward"]
    opt_bytes = traced.params_trainable * _OPTIMIZER_TRAFFIC[request.optimizer]
    if request.optimizer == "adamw8bit":
        opt_bytes = traced.params_trainable * 12 + 2 * optimizer_bytes("adamw8bit", traced.trainable_numels)
    optimizer_s = opt_bytes / (bandwidth * eff.bandwidth)
    grads = traced.params_trainable * 4
    allreduce = collective_time_s(gpu, n, grads, DEFAULT_EFFICIENCIES)
    backward_s = sum(max(op.flops.at(b) / (peak * eff.compute), op.bytes.at(b) / (bandwidth * eff.bandwidth))
                     for op in ops if op.phase == "backward")
    exposed = allreduce - min(allreduce, DEFAULT_EFFICIENCIES.gradient_overlap * backward_s)
    training = _phase(ops, ("forward", "backward"), b, peak, bandwidth, eff, optimizer_s + exposed, n)
    inference = _phase(traced.ops, ("inference",), b, peak, bandwidth, eff, 0.0, n)
    images = dataset_images or request.dataset_images
    notes = [note] if note else []
    return VisionSpeed(
        gpu=gpu.id, gpu_name=gpu.name, precision=precision, peak_flops=peak, bandwidth_bytes_s=bandwidth, gpus=n,
        batch_size=b, training=training, inference=inference, allreduce_s=exposed, optimizer_s=optimizer_s,
        epoch_time_s=images / training.images_per_s if images and training.images_per_s else None,
        dataset_images=images, efficiencies=eff, notes=notes,
    )
