"""`bench vision`: the vision job of a sizing, run for real with random weights and synthetic images.

The same architecture the estimate traces (timm, torchvision or our YOLOv8) is materialised with its own
initialisers (`to_empty` + `reset_parameters`), fed random images of the planned resolution and batch, and
timed per step after warm-up. Training: forward under autocast (bfloat16/float16) or float32, a sum of the
outputs as loss (its backward has the shape of a real loss's), the optimizer step. Inference: eval mode,
no grad, weights in the dtype. Measured: images/s, step time (mean, p50, p95), peak memory (torch allocator
on CUDA plus NVML's device peak when available; process peak RSS on CPU). torch/torchvision/timm are
imported lazily (`pip install 'sizer-agent[vision]'`).
"""

from __future__ import annotations

import contextlib
import resource
import time
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field

from sizer_agent.tools.bench.nvml import GpuMemorySampler
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.vision.estimate import VisionOptimizer

Progress = Callable[[str], None]


class VisionBenchSettings(BaseModel):
    model: str
    resolution: int = Field(224, ge=16, le=8192)
    batch_size: int = Field(8, ge=1, le=65536)
    mode: Literal["training", "inference"] = "training"
    dtype: Literal["float32", "bfloat16", "float16"] = "float32"
    num_classes: int | None = Field(None, ge=1)
    optimizer: VisionOptimizer = "sgd_momentum"
    steps: int = Field(10, ge=1, le=100_000)
    warmup_steps: int = Field(2, ge=0)
    device: str = Field("cpu", description="cpu, cuda or cuda:N")
    seed: int = 0


class VisionBenchResult(BaseModel):
    kind: Literal["vision"] = "vision"
    schema_version: int = 1
    settings: VisionBenchSettings
    model: str
    library: str
    params_total: int
    device: str
    device_name: str | None
    torch_version: str
    images_per_s: float = Field(description="batch × timed steps / their total time")
    step_time_mean_ms: float
    step_time_p50_ms: float
    step_time_p95_ms: float = Field(description="linear interpolation (numpy default)")
    steps_timed: int
    peak_memory_bytes: int | None = Field(description="torch.cuda.max_memory_allocated (CUDA) or peak RSS (CPU)")
    peak_memory_source: str
    peak_memory_reserved_bytes: int | None = None
    peak_gpu_memory_nvml_bytes: int | None = None


def _init(model: Any, torch: Any) -> None:
    """Random weights with each module's own initialiser; BatchNorm statistics at their identity."""
    for module in model.modules():
        reset = getattr(module, "reset_parameters", None)
        if callable(reset):
            with contextlib.suppress(Exception):
                reset()
    for name, buffer in model.named_buffers():
        if buffer.is_floating_point():
            buffer.fill_(1.0 if name.endswith("running_var") else 0.0)
        else:
            buffer.zero_()


def _optimizer(name: str, params: list[Any], torch: Any) -> Any:
    if name == "sgd":
        return torch.optim.SGD(params, lr=1e-3)
    if name == "sgd_momentum":
        return torch.optim.SGD(params, lr=1e-3, momentum=0.9)
    if name == "adamw":
        return torch.optim.AdamW(params, lr=1e-3)
    try:
        import bitsandbytes as bnb
    except ImportError:
        raise InputError("--optimizer", "adamw8bit needs bitsandbytes", "pip install bitsandbytes") from None
    return bnb.optim.AdamW8bit(params, lr=1e-3)  # type: ignore[attr-defined,no-untyped-call]


def run_vision_bench(settings: VisionBenchSettings, progress: Progress | None = None) -> VisionBenchResult:
    from sizer_agent.tools.vision.models import build, require_vision, resolve

    require_vision()
    import torch

    say = progress or (lambda text: None)
    library, name = resolve(settings.model)
    device = torch.device(settings.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise InputError("--device", "CUDA is not available on this host", "cpu")
    torch.manual_seed(settings.seed)
    low = {"float32": None, "bfloat16": torch.bfloat16, "float16": torch.float16}[settings.dtype]
    model = build(library, name, settings.num_classes, settings.resolution)
    model.to_empty(device=device)
    with torch.no_grad():
        _init(model, torch)
    training = settings.mode == "training"
    if not training:
        model.eval()
        if low is not None:
            model.to(low)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = _optimizer(settings.optimizer, params, torch) if training else None
    scaler = torch.amp.GradScaler(device.type, enabled=training and low is torch.float16 and device.type == "cuda")
    images = torch.randn(settings.batch_size, 3, settings.resolution, settings.resolution, device=device,
                         dtype=low if (low is not None and not training) else torch.float32)
    sampler = GpuMemorySampler() if device.type == "cuda" else None
    if sampler is not None:
        sampler.start()
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)

    def step() -> None:
        if training:
            assert optimizer is not None
            with torch.autocast(device.type, dtype=low, enabled=low is not None):
                out = model(images)
                leaves = [t for t in torch.utils._pytree.tree_leaves(out) if isinstance(t, torch.Tensor)]
                loss = torch.stack([t.float().mean() for t in leaves]).sum()
            scaler.scale(loss).backward()  # type: ignore[no-untyped-call]
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
        else:
            with torch.no_grad():
                model(images)

    times: list[float] = []
    for index in range(settings.warmup_steps + settings.steps):
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        start = time.perf_counter()
        step()
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        elapsed = time.perf_counter() - start
        if index >= settings.warmup_steps:
            times.append(elapsed)
        say(f"step {index + 1}: {elapsed * 1000:.1f} ms")
    peaks = sampler.stop() if sampler is not None else None
    if sampler is not None:
        sampler.close()
    if device.type == "cuda":
        peak = int(torch.cuda.max_memory_allocated(device))
        reserved: int | None = int(torch.cuda.max_memory_reserved(device))
        source = "torch.cuda.max_memory_allocated"
        name_text: str | None = torch.cuda.get_device_name(device)
    else:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB
        reserved, source, name_text = None, "process peak RSS (getrusage ru_maxrss)", None
    ms = np.asarray(times) * 1000
    return VisionBenchResult(
        settings=settings, model=name, library=library, params_total=sum(p.numel() for p in model.parameters()),
        device=str(device), device_name=name_text, torch_version=torch.__version__,
        images_per_s=settings.batch_size * len(times) / sum(times), step_time_mean_ms=float(ms.mean()),
        step_time_p50_ms=float(np.percentile(ms, 50)), step_time_p95_ms=float(np.percentile(ms, 95)),
        steps_timed=len(times), peak_memory_bytes=peak, peak_memory_source=source,
        peak_memory_reserved_bytes=reserved,
        # The device the job ran on (index of cuda:N; NVML and CUDA order agree unless CUDA_VISIBLE_DEVICES remaps).
        peak_gpu_memory_nvml_bytes=peaks[device.index or 0] if peaks and (device.index or 0) < len(peaks) else None,
    )
