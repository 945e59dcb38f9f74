"""Trace a vision architecture without weights: exact parameters, FLOPs, saved activations, live memory.

The model is built on the `meta` device, then moved to *fake* tensors (`FakeTensorMode`: shapes, dtypes,
devices and aliasing, no data), so PyTorch runs its real dispatcher — autocast, autograd, the same kernels'
shape rules — and nothing is computed or allocated. Each trace runs one training step (forward and
backward) and one no-grad inference forward, at two batch sizes; every quantity below is affine in the
batch (`const + per_image × batch`: per-image activations plus batch-independent terms such as BatchNorm
statistics or autocast weight copies), so two batches give the exact line and any batch is read off it.

What is counted (definitions shared with docs/vision.md):

- `params_total`: every parameter (frozen ones too, e.g. YOLOv8's DFL conv); `buffer_bytes`: BatchNorm
  running statistics and other buffers.
- `forward_flops`: `torch.utils.flop_counter` formulas (`flop_registry`, 2 FLOPs per multiply-add) over the
  ops of a training-mode forward, exactly what `FlopCounterMode` reports. PyTorch's CPU fused attention
  (`_scaled_dot_product_flash_attention_for_cpu`) has no formula there, so its FLOPs are reported apart,
  `attention_flops`, with the CUDA kernels' formula; the speed model adds both.
- `saved_bytes`: what autograd keeps for backward, seen by `torch.autograd.graph.saved_tensors_hooks` during
  the training forward: storages deduplicated (two views of one storage count once, a view counts its whole
  storage), parameters and buffers excluded, the input batch and autocast's low-precision weight copies
  included. `saved_bytes` follows PyTorch's CPU rules (CPU autocast op lists, CPU fused attention) so it can
  be checked on any machine; `saved_bytes_cuda` follows CUDA's (CUDA autocast lists: e.g. layer norm runs in
  fp32; flash or memory-efficient attention) and is what GPU memory uses.
- `step_peak_bytes`: largest sum of live tensor storages (parameters and buffers excluded; the input batch,
  saved tensors, temporaries and gradients included) at any point of forward + backward, CPU rules.
- `inference_peak_bytes`: largest sum of live storages during a no-grad, eval-mode forward with the weights
  in the inference dtype (weights and buffers excluded; the input batch included).
- checkpointing: the "blocks" are the innermost modules listed in an `nn.Sequential`/`nn.ModuleList` that
  hold other modules (ResNet bottlenecks, ViT blocks, C2f bottlenecks). With activation checkpointing per
  block, what stays saved is everything saved outside blocks plus each block's inputs
  (`checkpoint_saved_bytes`), and backward recomputes one block at a time (`checkpoint_recompute_bytes`:
  the largest block's own saved set).
- `ops`: every aten op of the traced step with its FLOPs and the bytes it reads and writes (inputs + outputs,
  views and metadata ops excluded), grouped by kind for the roofline (`tools/vision/speed.py`).

Traces are cached on disk per (architecture, classes, resolution, dtype, library versions):
`$SIZER_AGENT_CACHE/vision` (default `~/.cache/sizer-agent/vision`), so a second estimate imports no torch.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.vision.models import Library, build, require_vision, resolve

TraceDtype = Literal["float32", "bfloat16", "float16"]
OpKind = Literal["conv", "dwconv", "matmul", "attention", "norm", "other"]
OP_KINDS: tuple[OpKind, ...] = ("conv", "dwconv", "matmul", "attention", "norm", "other")
Phase = Literal["forward", "backward", "inference"]
SCHEMA = 3  # bump when a field's meaning changes: old cache entries are then ignored
TRACE_BATCHES = (2, 4)  # two batches fix the affine line; 2, not 1: BatchNorm refuses one value per channel


class Affine(BaseModel):
    """const + per_image × batch."""

    const: float
    per_image: float

    def at(self, batch: int) -> float:
        return self.const + self.per_image * batch

    @classmethod
    def fit(cls, low: float, high: float) -> Affine:
        b0, b1 = TRACE_BATCHES
        slope = (high - low) / (b1 - b0)
        return cls(const=low - slope * b0, per_image=slope)


class Envelope(BaseModel):
    """The largest of several lines: a peak over the moments of a step, each moment affine in the batch."""

    lines: list[Affine]

    def at(self, batch: int) -> float:
        return max((line.at(batch) for line in self.lines), default=0.0)

    @classmethod
    def fit(cls, low: list[float], high: list[float]) -> Envelope:
        """Pair moment i of the two traced batches; keep the lines that are the maximum somewhere."""
        if len(low) != len(high) or not low:  # the program changed with the batch: scale the larger trace
            peak = max(high, default=0.0)
            return cls(lines=[Affine(const=0, per_image=peak / TRACE_BATCHES[1])])
        lines = [Affine.fit(a, b) for a, b in zip(low, high, strict=True)]
        keep: dict[tuple[float, float], Affine] = {}
        for batch in _ENVELOPE_SAMPLES:
            best = max(lines, key=lambda line: line.at(batch))
            keep[(best.const, best.per_image)] = best
        return cls(lines=list(keep.values()))


# Batches where the envelope keeps its maximal lines: 1 ... 65536 in steps of about 19 %.
_ENVELOPE_SAMPLES = sorted({round(1.19**i) for i in range(65)} | {1, 2, 3, 4})


class OpRecord(BaseModel):
    """One kernel-launching aten op of the traced step: its FLOPs and the bytes it reads and writes."""

    phase: Phase
    kind: OpKind
    flops: Affine
    bytes: Affine


class VisionTrace(BaseModel):
    schema_version: int = SCHEMA
    model: str
    library: Library
    num_classes: int | None
    resolution: int
    dtype: TraceDtype
    versions: dict[str, str]
    trace_seconds: float
    from_cache: bool = Field(False, description="True when this answer was read from the disk cache")
    params_total: int
    params_trainable: int
    trainable_numels: list[int] = Field(description="element count of each trainable parameter tensor")
    buffer_bytes: int
    batchnorm_layers: int
    checkpoint_blocks: int
    input_bytes: Affine
    forward_flops: Affine
    attention_flops: Affine
    saved_bytes: Affine
    saved_bytes_cuda: Affine
    step_peak_bytes: Envelope
    transient_bytes: Envelope
    checkpoint_saved_bytes: Affine
    checkpoint_recompute_bytes: Affine
    largest_activation_bytes: Affine
    inference_peak_bytes: Envelope
    inference_flops: Affine
    ops: list[OpRecord]


# ------------------------------------------------------------------------------------------------ cache


def cache_dir() -> Path:
    root = os.environ.get("SIZER_AGENT_CACHE") or str(Path.home() / ".cache" / "sizer-agent")
    return Path(root) / "vision"


def _cache_path(model: str, num_classes: int | None, resolution: int, dtype: str) -> Path:
    key = json.dumps([SCHEMA, model.strip().lower(), num_classes, resolution, dtype, _installed_versions(),
                      _code_fingerprint()])
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return cache_dir() / f"{digest}.json"


@functools.cache
def _code_fingerprint() -> str:
    """The tracing code itself: a change to how a network is built or traced invalidates old entries
    (SCHEMA covers the meaning of fields; this covers a fix in yolo.py or models.py)."""
    folder = Path(__file__).parent
    digest = hashlib.sha256()
    for name in ("trace.py", "yolo.py", "models.py"):
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()[:16]


def _installed_versions() -> dict[str, str]:
    """Library versions from package metadata (no import of torch: the warm path stays fast)."""
    from importlib import metadata

    versions = {}
    for package in ("torch", "torchvision", "timm"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = "absent"
    return versions


def trace(model: str, num_classes: int | None, resolution: int, dtype: TraceDtype, *, use_cache: bool = True) -> (
        VisionTrace):
    """The trace of `model` at `resolution` px (square, 3 channels), from the cache when present."""
    path = _cache_path(model, num_classes, resolution, dtype)
    if use_cache and path.is_file():
        with contextlib.suppress(ValueError, OSError):
            cached = VisionTrace.model_validate_json(path.read_text())
            cached.from_cache = True
            return cached
    result = _trace(model, num_classes, resolution, dtype)
    if use_cache:
        with contextlib.suppress(OSError):  # a read-only home only costs speed
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(result.model_dump_json())
            tmp.replace(path)
    return result


# ------------------------------------------------------------------------------------------------ tracing


class _Step(BaseModel):
    """Raw measurements of one traced batch."""

    forward_flops: float = 0
    attention_flops: float = 0
    saved: float = 0
    saved_cuda: float = 0
    step_live: list[float] = Field(default_factory=list)
    transient: list[float] = Field(default_factory=list)
    checkpoint_saved: float = 0
    checkpoint_recompute: float = 0
    largest_activation: float = 0
    inference_live: list[float] = Field(default_factory=list)
    inference_flops: float = 0
    ops: list[tuple[str, str, float, float]] = Field(default_factory=list)  # (phase, kind, flops, bytes)


def _trace(model: str, num_classes: int | None, resolution: int, dtype: TraceDtype) -> VisionTrace:
    require_vision()
    import torch

    library, name = resolve(model)
    started = time.perf_counter()
    steps = _trace_batches(library, name, num_classes, resolution, dtype)
    meta_model = build(library, name, num_classes, resolution)
    params = list(meta_model.parameters())
    trainable = [p for p in params if p.requires_grad]
    buffers = sum(b.numel() * b.element_size() for b in meta_model.buffers())
    bn = sum(isinstance(m, torch.nn.modules.batchnorm._BatchNorm) for m in meta_model.modules())
    low, high = steps

    def fit(field: str) -> Affine:
        return Affine.fit(getattr(low, field), getattr(high, field))

    ops = _fit_ops(low.ops, high.ops)
    return VisionTrace(
        model=name, library=library, num_classes=num_classes, resolution=resolution, dtype=dtype,
        versions=_installed_versions(), trace_seconds=round(time.perf_counter() - started, 3),
        params_total=sum(p.numel() for p in params), params_trainable=sum(p.numel() for p in trainable),
        trainable_numels=[p.numel() for p in trainable], buffer_bytes=buffers, batchnorm_layers=bn,
        checkpoint_blocks=len(_blocks(meta_model, torch)),
        input_bytes=Affine(const=0, per_image=3 * resolution * resolution * 4),
        forward_flops=fit("forward_flops"), attention_flops=fit("attention_flops"), saved_bytes=fit("saved"),
        saved_bytes_cuda=fit("saved_cuda"),
        step_peak_bytes=Envelope.fit(low.step_live, high.step_live),
        transient_bytes=Envelope.fit(low.transient, high.transient),
        checkpoint_saved_bytes=fit("checkpoint_saved"), checkpoint_recompute_bytes=fit("checkpoint_recompute"),
        largest_activation_bytes=fit("largest_activation"),
        inference_peak_bytes=Envelope.fit(low.inference_live, high.inference_live),
        inference_flops=fit("inference_flops"), ops=ops,
    )


def _fit_ops(low: list[tuple[str, str, float, float]], high: list[tuple[str, str, float, float]]) -> list[OpRecord]:
    """Pair the ops of the two traced batches (same program, same order) into per-op lines."""
    if len(low) == len(high) and all(a[:2] == b[:2] for a, b in zip(low, high, strict=True)):
        return [OpRecord(phase=a[0], kind=a[1], flops=Affine.fit(a[2], b[2]),
                         bytes=Affine.fit(a[3], b[3])) for a, b in zip(low, high, strict=True)]
    # A program that changes with the batch (rare): scale the larger trace's ops per image.
    b1 = TRACE_BATCHES[1]
    return [OpRecord(phase=p, kind=k, flops=Affine(const=0, per_image=f / b1),
                     bytes=Affine(const=0, per_image=m / b1)) for p, k, f, m in high]


def _trace_batches(library: Library, name: str, num_classes: int | None, resolution: int,
                   dtype: TraceDtype) -> list[_Step]:
    """One `_Step` per batch of TRACE_BATCHES. Each phase builds its fake model once and runs every batch
    through it: making the fake parameters (`to_empty`) was 40 % of a trace when rebuilt per batch."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode

    steps = [_Step() for _ in TRACE_BATCHES]
    low = {"float32": None, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
    # Training step, CPU rules: forward (saved tensors, FLOPs, blocks) and backward (ops, live peak).
    model = build(library, name, num_classes, resolution)
    model.train()
    with FakeTensorMode(allow_non_fake_inputs=True):
        model.to_empty(device="cpu")
        excluded = _storage_keys(model)
        for step, batch in zip(steps, TRACE_BATCHES, strict=True):
            _training_step(model, excluded, step, batch, resolution, low, torch)
    # Forward under CUDA rules (autocast lists, fused attention kernels): what a GPU keeps for backward.
    model = build(library, name, num_classes, resolution)
    model.train()
    with FakeTensorMode(allow_non_fake_inputs=True):
        model.to_empty(device="cuda")
        excluded = _storage_keys(model)
        for step, batch in zip(steps, TRACE_BATCHES, strict=True):
            x = torch.empty(batch, 3, resolution, resolution, device="cuda")
            saved_cuda = _SavedTracker(excluded)
            with _CudaAttention(torch), torch.autograd.graph.saved_tensors_hooks(saved_cuda.pack, _identity), \
                    _autocast("cuda", low):
                out = model(x)
            step.saved_cuda = saved_cuda.total()
            del out, x
    # Inference: eval mode, no grad, weights in the dtype.
    model = build(library, name, num_classes, resolution)
    model.eval()
    weight_dtype = low or torch.float32
    model.to(weight_dtype)  # on meta, before the fake copy
    with FakeTensorMode(allow_non_fake_inputs=True):
        model.to_empty(device="cpu")
        excluded = _storage_keys(model)
        for step, batch in zip(steps, TRACE_BATCHES, strict=True):
            recorder = _Recorder(excluded, phase="inference")
            x = torch.empty(batch, 3, resolution, resolution, dtype=weight_dtype)
            recorder.track(x)
            with torch.no_grad(), recorder:
                out = model(x)
            step.inference_live = recorder.timeline
            step.inference_flops = recorder.registry_flops + recorder.extra_flops
            step.ops.extend(recorder.ops)
            del out, x
    return steps


def _training_step(model: Any, excluded: set[int], step: _Step, batch: int, resolution: int, low: Any,
                   torch: Any) -> None:
    """Forward and backward of one fake batch; the gradients are dropped after, as `zero_grad` does."""
    x = torch.empty(batch, 3, resolution, resolution)
    recorder = _Recorder(excluded)
    recorder.track(x)
    saved = _SavedTracker(excluded)
    saved.listeners.append(recorder.mark_saved)
    blocks = _BlockTracker(model, saved, torch)
    hooks = [parameter.register_post_accumulate_grad_hook(recorder.mark_grad)
             for parameter in model.parameters() if parameter.requires_grad]
    with recorder, blocks, torch.autograd.graph.saved_tensors_hooks(saved.pack, _identity), \
            _autocast("cpu", low):
        out = model(x)
    step.forward_flops = recorder.registry_flops
    step.attention_flops = recorder.extra_flops
    step.saved = saved.total()
    step.checkpoint_saved, step.checkpoint_recompute = blocks.checkpoint_bytes()
    step.largest_activation = recorder.largest_output
    recorder.phase = "backward"
    with recorder:
        loss = _loss(out, torch)
        del out
        loss.backward()
    step.step_live = recorder.timeline
    step.transient = recorder.transients
    step.ops = list(recorder.ops)
    del loss, x
    for hook in hooks:
        hook.remove()
    model.zero_grad(set_to_none=True)


def _identity(t: Any) -> Any:
    return t


def _loss(out: Any, torch: Any) -> Any:
    leaves = [t for t in torch.utils._pytree.tree_leaves(out) if isinstance(t, torch.Tensor) and t.is_floating_point()]
    return sum(t.float().sum() for t in leaves)


def _storage_keys(model: Any) -> set[int]:
    return {t.untyped_storage()._cdata for t in [*model.parameters(), *model.buffers()]}


@contextlib.contextmanager
def _autocast(device: str, dtype: Any) -> Iterator[None]:
    """torch.autocast without its "is CUDA available" check: fake CUDA tensors need no GPU."""
    import torch

    if dtype is None:
        yield
        return
    previous = (torch.is_autocast_enabled(device), torch.get_autocast_dtype(device), torch.is_autocast_cache_enabled())
    torch.set_autocast_enabled(device, True)
    torch.set_autocast_dtype(device, dtype)
    torch.autocast_increment_nesting()
    torch.set_autocast_cache_enabled(True)
    try:
        yield
    finally:
        if torch.autocast_decrement_nesting() == 0:
            torch.clear_autocast_cache()
        torch.set_autocast_enabled(device, previous[0])
        torch.set_autocast_dtype(device, previous[1])
        torch.set_autocast_cache_enabled(previous[2])


class _SavedTracker:
    """Storages autograd saves (pack hook), deduplicated, minus parameters and buffers."""

    def __init__(self, excluded: set[int]) -> None:
        self.excluded = excluded
        self.saved: dict[int, int] = {}
        self.listeners: list[Callable[[int, int], None]] = []

    def pack(self, tensor: Any) -> Any:
        storage = tensor.untyped_storage()
        key = storage._cdata
        if key not in self.excluded and key not in self.saved:
            self.saved[key] = storage.nbytes()
            for listener in self.listeners:
                listener(key, storage.nbytes())
        return tensor

    def total(self) -> int:
        return sum(self.saved.values())


def _blocks(model: Any, torch: Any) -> list[Any]:
    """Innermost modules listed in a Sequential/ModuleList that themselves hold modules (checkpoint units)."""
    containers = (torch.nn.Sequential, torch.nn.ModuleList)
    candidates = [child for parent in model.modules() if isinstance(parent, containers)
                  for child in parent.children()
                  if not isinstance(child, containers) and any(True for _ in child.children())]
    ids = {id(c) for c in candidates}
    return [c for c in candidates if not any(id(m) in ids for m in c.modules() if m is not c)]


class _BlockTracker:
    """Attributes saved storages to the block running when they were saved, and records block inputs."""

    def __init__(self, model: Any, saved: _SavedTracker, torch: Any) -> None:
        self.blocks = _blocks(model, torch)
        self.stack: list[int] = []
        self.inside: dict[int, dict[int, int]] = {}
        self.inputs: dict[int, int] = {}
        # A storage's key is its address, which a later storage may reuse once it is freed: an input that
        # dies moves here, so a newcomer at the same address is counted as itself, not merged into it.
        self.dead_inputs: list[int] = []
        self.outside: dict[int, int] = {}
        self.handles: list[Any] = []
        self.torch = torch
        saved.listeners.append(self._saved)

    def _saved(self, key: int, size: int) -> None:
        if self.stack:
            self.inside.setdefault(self.stack[-1], {})[key] = size
        else:
            self.outside[key] = size

    def __enter__(self) -> _BlockTracker:
        for index, block in enumerate(self.blocks):
            self.handles.append(block.register_forward_pre_hook(self._pre(index)))
            self.handles.append(block.register_forward_hook(self._post))
        return self

    def __exit__(self, *exc: object) -> None:
        for handle in self.handles:
            handle.remove()

    def _pre(self, index: int) -> Callable[..., None]:
        def hook(module: Any, args: Any) -> None:
            if not self.stack:  # only the outermost running block keeps its inputs
                for t in self.torch.utils._pytree.tree_leaves(args):
                    if isinstance(t, self.torch.Tensor):
                        storage = t.untyped_storage()
                        key = storage._cdata
                        if key not in self.inputs:
                            self.inputs[key] = storage.nbytes()
                            weakref.finalize(storage, self._input_freed, key)
            self.stack.append(index)
        return hook

    def _post(self, module: Any, args: Any, output: Any) -> None:
        self.stack.pop()

    def checkpoint_bytes(self) -> tuple[float, float]:
        if not self.blocks:
            return float(sum(self.outside.values()) + sum(sum(d.values()) for d in self.inside.values())), 0.0
        kept = {**self.outside, **self.inputs}  # a saved storage lives until backward: never a dead input
        recompute = max((sum(d.values()) for d in self.inside.values()), default=0)
        return float(sum(kept.values()) + sum(self.dead_inputs)), float(recompute)

    def _input_freed(self, key: int) -> None:
        if key in self.inputs:
            self.dead_inputs.append(self.inputs.pop(key))


def _op_kind(func: Any, args: Any) -> OpKind:
    name = func._overloadpacket.__name__
    if name in ("convolution", "_convolution", "convolution_backward"):
        # aten.convolution(input, weight, ..., groups) / convolution_backward(grad, input, weight, ..., groups, mask)
        weight, groups = (args[2], args[9]) if name == "convolution_backward" else (args[1], args[8])
        return "dwconv" if isinstance(groups, int) and groups > 1 and weight.shape[1] == 1 else "conv"
    if name in ("mm", "addmm", "bmm", "baddbmm", "_scaled_mm"):
        return "matmul"
    if "attention" in name:
        return "attention"
    if "norm" in name:
        return "norm"
    return "other"


class _Recorder:
    """A dispatch mode: FLOPs (torch's formulas), bytes moved per op, and the live-storage peak."""

    def __init__(self, excluded: set[int], phase: Phase = "forward") -> None:
        import torch
        from torch.utils._python_dispatch import TorchDispatchMode
        from torch.utils.flop_counter import flop_registry

        aten = torch.ops.aten
        self.torch = torch
        self.registry = flop_registry
        # CPU fused attention: no formula in torch (2.14); same arithmetic as the CUDA kernels'.
        self.extra = {
            aten._scaled_dot_product_flash_attention_for_cpu: flop_registry[aten._scaled_dot_product_flash_attention],
            aten._scaled_dot_product_flash_attention_for_cpu_backward:
                flop_registry[aten._scaled_dot_product_flash_attention_backward],
        }
        self.excluded = set(excluded)
        self.phase: Phase = phase
        self.live: dict[int, int] = {}
        self.current = 0
        self.saved_keys: set[int] = set()
        self.saved_live = 0
        self.grad_keys: set[int] = set()
        self.grads_live = 0
        self.timeline: list[float] = []  # live bytes after each kernel
        self.transients: list[float] = []  # live bytes neither saved for backward nor a gradient
        self.registry_flops = 0.0
        self.extra_flops = 0.0
        self.largest_output = 0
        self.ops: list[tuple[str, str, float, float]] = []
        recorder = self

        class Mode(TorchDispatchMode):  # type: ignore[no-untyped-call]  # torch's modes are untyped
            def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
                out = func(*args, **(kwargs or {}))
                recorder._record(func, args, kwargs or {}, out)
                return out

        self.mode: Any = Mode()  # type: ignore[no-untyped-call]

    def __enter__(self) -> _Recorder:
        self.mode.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.mode.__exit__(*exc)

    def _release(self, key: int) -> None:
        size = self.live.pop(key, 0)
        self.current -= size
        if key in self.saved_keys:
            self.saved_keys.discard(key)
            self.saved_live -= size
        if key in self.grad_keys:
            self.grad_keys.discard(key)
            self.grads_live -= size

    def track(self, tensor: Any) -> None:
        """Count a tensor made outside the mode (the input batch)."""
        storage = tensor.untyped_storage()
        key = storage._cdata
        if key not in self.live:
            self.live[key] = storage.nbytes()
            self.current += storage.nbytes()
            weakref.finalize(storage, self._release, key)

    def mark_saved(self, key: int, size: int) -> None:
        if key in self.live and key not in self.saved_keys:
            self.saved_keys.add(key)
            self.saved_live += self.live[key]

    def mark_grad(self, parameter: Any) -> None:
        key = parameter.grad.untyped_storage()._cdata
        if key in self.live and key not in self.grad_keys and key not in self.saved_keys:
            self.grad_keys.add(key)
            self.grads_live += self.live[key]

    def _record(self, func: Any, args: Any, kwargs: Any, out: Any) -> None:
        torch = self.torch
        packet = func._overloadpacket
        flops = 0.0
        if packet in self.registry:
            flops = float(self.registry[packet](*args, **kwargs, out_val=out))
            if self.phase in ("forward", "inference"):
                self.registry_flops += flops
        elif packet in self.extra:
            flops = float(self.extra[packet](*args, **kwargs, out_val=out))
            if self.phase in ("forward", "inference"):
                self.extra_flops += flops
        inputs = [t for t in torch.utils._pytree.tree_leaves((args, kwargs)) if isinstance(t, torch.Tensor)]
        outputs = [t for t in torch.utils._pytree.tree_leaves(out) if isinstance(t, torch.Tensor)]
        in_keys = {t.untyped_storage()._cdata for t in inputs}
        moved = 0
        for t in outputs:
            storage = t.untyped_storage()
            key = storage._cdata
            if key in in_keys:
                if packet.__name__.endswith("_"):  # in place: read and written
                    moved += t.nbytes
                continue
            moved += t.nbytes
            if key not in self.live and key not in self.excluded:
                size = storage.nbytes()
                self.live[key] = size
                self.current += size
                weakref.finalize(storage, self._release, key)
                self.largest_output = max(self.largest_output, size)
        if moved == 0 and flops == 0:
            return  # views and metadata: no kernel
        moved += sum(t.nbytes for t in inputs)
        self.timeline.append(float(self.current))
        self.transients.append(float(self.current - self.saved_live - self.grads_live))
        self.ops.append((self.phase, _op_kind(func, args), flops, float(moved)))


class _CudaAttention:
    """Route `scaled_dot_product_attention` on fake CUDA tensors to the fused kernel a GPU would pick.

    Without a GPU, PyTorch's kernel choice falls back to the math path, which saves the attention matrix;
    on a GPU, flash attention (fp16/bf16) or memory-efficient attention (fp32) runs and saves only q, k, v,
    the output and log-sum-exp. Under autocast the inputs are cast as autocast would.
    """

    def __init__(self, torch: Any) -> None:
        from torch.overrides import TorchFunctionMode

        functional = torch.nn.functional

        class Mode(TorchFunctionMode):
            def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
                kwargs = kwargs or {}
                if func is not functional.scaled_dot_product_attention or args[0].device.type != "cuda":
                    return func(*args, **kwargs)
                q, k, v = args[:3]
                mask = args[3] if len(args) > 3 else kwargs.get("attn_mask")
                dropout = args[4] if len(args) > 4 else kwargs.get("dropout_p", 0.0)
                causal = args[5] if len(args) > 5 else kwargs.get("is_causal", False)
                scale = kwargs.get("scale")
                if torch.is_autocast_enabled("cuda"):
                    low = torch.get_autocast_dtype("cuda")
                    q, k, v = q.to(low), k.to(low), v.to(low)
                aten = torch.ops.aten
                if q.dtype in (torch.float16, torch.bfloat16) and mask is None:
                    return aten._scaled_dot_product_flash_attention(q, k, v, dropout, causal, False, scale=scale)[0]
                return aten._scaled_dot_product_efficient_attention(q, k, v, mask, True, dropout, causal,
                                                                    scale=scale)[0]

        self.mode: Any = Mode()

    def __enter__(self) -> _CudaAttention:
        self.mode.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.mode.__exit__(*exc)
