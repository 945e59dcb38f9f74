"""`bench micro`: accelerator microbenchmarks (docs/design.md §2; docs/method.md seed 003), each beside
the vendor spec.

- dense GEMM TFLOP/s per precision: 2·n³ / time of an n×n×n matmul (torch.matmul; fp8 via torch._scaled_mm);
- device memory bandwidth, read, write and copy apart (seed 003's HBM streaming): a sum over N bytes reads
  N bytes, a fill writes N bytes, a device-to-device copy of N bytes moves 2·N bytes (read + write);
- host↔device bandwidth: N bytes from pinned host memory to the GPU and back / time, each direction;
- all-reduce bus bandwidth across local GPUs (NCCL through torch.distributed), nccl-tests convention:
  algbw = bytes / time, busbw = algbw × 2(n−1)/n.
Timing with CUDA events after warm-up; the median of the repetitions is reported.
torch is imported lazily; without CUDA the result says so and nothing runs.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from pydantic import BaseModel, Field

from sizer_agent.tools.errors import InputError


class GpuSpec(BaseModel):
    """Vendor peak figures (dense, no sparsity) used as the denominator of measured/spec."""

    name: str
    tflops: dict[str, float] = Field(description="precision -> dense TFLOP/s")
    memory_bandwidth_gbs: float
    host_link_gbs: float = Field(description="theoretical one-direction host link bandwidth, GB/s")
    tdp_w: float | None = Field(None, description="board power (TDP), W")
    source: str


# Fallback table when the catalogue (tools.catalog) does not know the GPU. Dense Tensor Core peaks.
_PCIE5_X16_GBS = 64.0  # 32 GT/s × 16 lanes × 128b/130b ≈ 63 GB/s per direction (PCI-SIG PCIe 5.0 spec)
_PCIE4_X16_GBS = 32.0  # 16 GT/s × 16 lanes (PCIe 4.0)
SPECS: list[tuple[tuple[str, ...], GpuSpec]] = [
    (("H200",), GpuSpec(
        name="NVIDIA H200 SXM", tflops={"fp32": 67.0, "tf32": 494.5, "bf16": 989.0, "fp16": 989.0, "fp8": 1979.0},
        memory_bandwidth_gbs=4800.0, host_link_gbs=_PCIE5_X16_GBS,
        source="NVIDIA H200 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/h200); sparse figures halved",
    )),
    (("H100", "PCIe"), GpuSpec(
        name="NVIDIA H100 PCIe", tflops={"fp32": 51.0, "tf32": 378.0, "bf16": 756.0, "fp16": 756.0, "fp8": 1513.0},
        memory_bandwidth_gbs=2000.0, host_link_gbs=_PCIE5_X16_GBS,
        source="NVIDIA H100 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/h100); sparse figures halved",
    )),
    (("H100",), GpuSpec(
        name="NVIDIA H100 SXM", tflops={"fp32": 67.0, "tf32": 494.5, "bf16": 989.0, "fp16": 989.0, "fp8": 1979.0},
        memory_bandwidth_gbs=3350.0, host_link_gbs=_PCIE5_X16_GBS,
        source="NVIDIA H100 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/h100); sparse figures halved",
    )),
    (("A100", "80GB"), GpuSpec(
        name="NVIDIA A100 80GB SXM", tflops={"fp32": 19.5, "tf32": 156.0, "bf16": 312.0, "fp16": 312.0},
        memory_bandwidth_gbs=2039.0, host_link_gbs=_PCIE4_X16_GBS,
        source="NVIDIA A100 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/a100); sparse figures halved",
    )),
    (("L40S",), GpuSpec(
        name="NVIDIA L40S", tflops={"fp32": 91.6, "tf32": 183.0, "bf16": 362.05, "fp16": 362.05, "fp8": 733.0},
        memory_bandwidth_gbs=864.0, host_link_gbs=_PCIE4_X16_GBS,
        source="NVIDIA L40S datasheet (nvidia.com/en-us/data-center/l40s); sparse figures halved",
    )),
    (("RTX PRO 6000",), GpuSpec(
        name="NVIDIA RTX PRO 6000 Blackwell", tflops={"tf32": 251.9, "bf16": 503.8, "fp16": 503.8, "fp8": 1007.6},
        memory_bandwidth_gbs=1792.0, host_link_gbs=_PCIE5_X16_GBS,
        source="NVIDIA RTX Blackwell GPU architecture whitepaper, RTX PRO 6000 table; sparse figures halved",
    )),
    (("RTX 5090",), GpuSpec(
        name="NVIDIA GeForce RTX 5090", tflops={"tf32": 104.8, "bf16": 209.5, "fp16": 209.5, "fp8": 419.0},
        memory_bandwidth_gbs=1792.0, host_link_gbs=_PCIE5_X16_GBS,
        source="NVIDIA RTX Blackwell GPU architecture whitepaper, GeForce RTX 5090 (FP32 accumulate); sparse halved",
    )),
]


# Device name fragments -> catalogue GPU id (tools.catalog), tried before the table above. None: a different board
# of the same number the catalogue lacks (RTX PRO 4000 SFF: 70 W, 432 GB/s; laptop and server RTX PRO parts).
_CATALOG_IDS: list[tuple[tuple[str, ...], str | None]] = [
    (("RTX PRO", "SFF"), None), (("RTX PRO", "Laptop"), None), (("RTX PRO 4500", "Server"), None),
    (("RTX PRO 5000",), "rtx-pro-5000"), (("RTX PRO 4500",), "rtx-pro-4500"), (("RTX PRO 4000",), "rtx-pro-4000"),
    (("H200", "NVL"), "h200-nvl"), (("H200",), "h200-sxm"), (("H100", "NVL"), "h100-nvl"),
    (("H100", "PCIe"), "h100-pcie"), (("H100",), "h100-sxm"), (("A100", "80GB", "PCIe"), "a100-80gb-pcie"),
    (("A100", "80GB"), "a100-80gb-sxm"), (("A100", "PCIe"), "a100-40gb-pcie"), (("A100",), "a100-40gb-sxm"),
    (("L40S",), "l40s"), (("RTX PRO 6000", "Max-Q"), "rtx-pro-6000-maxq"),
    (("RTX PRO 6000", "Server"), "rtx-pro-6000-server"), (("RTX PRO 6000",), "rtx-pro-6000-ws"),
    (("RTX 6000 Ada",), "rtx-6000-ada"), (("RTX 5090",), "rtx-5090"), (("RTX 5080",), "rtx-5080"),
    (("B200",), "b200"), (("B300",), "b300"), (("GB200",), "gb200"), (("GB300",), "gb300"),
    (("MI300X",), "mi300x"), (("MI325X",), "mi325x"), (("MI355X",), "mi355x"),
]


def _matches(needles: tuple[str, ...], device_name: str) -> bool:
    return all(needle.lower() in device_name.lower() for needle in needles)


def catalog_gpu(device_name: str) -> Any | None:
    """The catalogue's GPU (tools.catalog.models.Gpu) for a device name, None when unknown."""
    gpu_id = next((gid for needles, gid in _CATALOG_IDS if _matches(needles, device_name)), None)
    if gpu_id is None:
        return None
    try:
        from sizer_agent.tools.catalog import load_catalog

        return load_catalog().gpu(gpu_id)
    except (ImportError, KeyError, ValueError, InputError):
        return None


def _catalog_spec(device_name: str) -> GpuSpec | None:
    """The catalogue's figures (each with its sources) when the catalogue is installed and knows the GPU."""
    gpu = catalog_gpu(device_name)
    if gpu is None:
        return None
    gpu_id = gpu.id
    host = _PCIE5_X16_GBS if gpu.interconnect.pcie_gen >= 5 else _PCIE4_X16_GBS
    sources = sorted({key for figure in gpu.peak_tflops.values() for key in figure.src} | set(gpu.bandwidth_gbs.src))
    return GpuSpec(
        name=gpu.name,
        tflops={precision: figure.value for precision, figure in gpu.peak_tflops.items()},
        memory_bandwidth_gbs=gpu.bandwidth_gbs.value,
        host_link_gbs=host,
        tdp_w=gpu.tdp_w.value,
        source=f"sizer-agent catalogue, GPU {gpu_id} (sources: {', '.join(sources)})",
    )


def find_spec(device_name: str) -> GpuSpec | None:
    """Spec of a GPU by its device name: the catalogue first, then the small table above."""
    spec = _catalog_spec(device_name)
    if spec is not None:
        return spec
    for needles, table_spec in SPECS:
        if _matches(needles, device_name):
            return table_spec
    return None


class Measurement(BaseModel):
    name: str = Field(description="e.g. gemm_bf16, device_copy, host_to_device, all_reduce")
    value: float
    unit: str
    spec: float | None = None
    ratio: float | None = Field(None, description="measured / spec")
    detail: str = ""


class MicroSettings(BaseModel):
    gemm_size: int = Field(8192, ge=64)
    precisions: list[str] = Field(default_factory=lambda: ["fp32", "tf32", "bf16", "fp16", "fp8"])
    copy_bytes: int = Field(1 << 30, ge=1 << 20)
    host_bytes: int = Field(256 << 20, ge=1 << 20)
    all_reduce_bytes: int = Field(256 << 20, ge=1 << 20)
    repeats: int = Field(10, ge=1)
    device: int = 0


class MicroResult(BaseModel):
    kind: str = "micro"
    schema_version: int = 1
    available: bool
    reason: str | None = None
    device_name: str | None = None
    gpu_count: int = 0
    torch_version: str | None = None
    spec: GpuSpec | None = None
    measurements: list[Measurement] = Field(default_factory=list)


def _torch() -> Any | None:
    try:
        import torch
    except ImportError:
        return None
    return torch


def run_micro(settings: MicroSettings) -> MicroResult:
    torch = _torch()
    if torch is None:
        return MicroResult(available=False, reason="PyTorch is not installed (pip install torch)")
    if not torch.cuda.is_available():
        return MicroResult(
            available=False, torch_version=str(torch.__version__),
            reason="no CUDA GPU visible to PyTorch: microbenchmarks need a GPU host",
        )
    count = torch.cuda.device_count()
    if not 0 <= settings.device < count:
        raise InputError("--device", f"no GPU {settings.device}", f"0..{count - 1}")
    device = torch.device("cuda", settings.device)
    name = torch.cuda.get_device_name(device)
    spec = find_spec(name)
    result = MicroResult(available=True, device_name=name, gpu_count=count, torch_version=str(torch.__version__),
                         spec=spec)
    for precision in settings.precisions:
        measured = _gemm(torch, device, precision, settings.gemm_size, settings.repeats)
        if measured is None:
            continue
        target = spec.tflops.get(precision) if spec else None
        result.measurements.append(_measurement(f"gemm_{precision}", measured, "TFLOP/s", target,
                                                f"{settings.gemm_size}^3 matmul"))
    streams = memory_streams(torch, device, settings.copy_bytes, settings.repeats)
    hbm = spec.memory_bandwidth_gbs if spec else None
    result.measurements.append(_measurement("memory_read", streams["read"], "GB/s", hbm, "sum: bytes / time"))
    result.measurements.append(_measurement("memory_write", streams["write"], "GB/s", hbm, "fill: bytes / time"))
    result.measurements.append(_measurement("device_copy", streams["copy"], "GB/s", hbm, "read + write bytes / time"))
    h2d, d2h = _host_transfer(torch, device, settings.host_bytes, settings.repeats)
    link = spec.host_link_gbs if spec else None
    result.measurements.append(_measurement("host_to_device", h2d, "GB/s", link, "pinned host memory"))
    result.measurements.append(_measurement("device_to_host", d2h, "GB/s", link, "pinned host memory"))
    if count > 1:
        busbw = all_reduce_busbw(count, settings.all_reduce_bytes, settings.repeats)
        result.measurements.append(_measurement(
            "all_reduce_busbw", busbw, "GB/s", None, f"{count} GPUs, NCCL, busbw = algbw x 2(n-1)/n"
        ))
    return result


def _measurement(name: str, value: float, unit: str, spec: float | None, detail: str) -> Measurement:
    return Measurement(name=name, value=value, unit=unit, spec=spec,
                       ratio=value / spec if spec else None, detail=detail)


def _time_ms(torch: Any, fn: Any, repeats: int) -> float:
    """Median of `repeats` timings with CUDA events, after two warm-up calls."""
    fn()
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return float(statistics.median(times))


def _gemm(torch: Any, device: Any, precision: str, n: int, repeats: int) -> float | None:
    flops = 2.0 * n**3
    if precision == "fp8":
        if not hasattr(torch, "float8_e4m3fn") or not hasattr(torch, "_scaled_mm"):
            return None
        a = torch.randn(n, n, device=device).to(torch.float8_e4m3fn)
        b = torch.randn(n, n, device=device).to(torch.float8_e4m3fn).t()  # _scaled_mm wants column-major B
        scale = torch.tensor(1.0, device=device)
        try:
            ms = _time_ms(torch, lambda: torch._scaled_mm(a, b, scale_a=scale, scale_b=scale,
                                                          out_dtype=torch.bfloat16), repeats)
        except RuntimeError:
            return None  # FP8 GEMM needs compute capability 8.9+
        return flops / (ms / 1e3) / 1e12
    dtypes = {"fp32": torch.float32, "tf32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
    if precision not in dtypes:
        raise InputError("--precisions", f"unknown precision {precision!r}", "fp32, tf32, bf16, fp16, fp8")
    previous = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
    try:
        a = torch.randn(n, n, device=device, dtype=dtypes[precision])
        b = torch.randn(n, n, device=device, dtype=dtypes[precision])
        ms = _time_ms(torch, lambda: torch.matmul(a, b), repeats)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = previous
    return flops / (ms / 1e3) / 1e12


def _time_ms_any(torch: Any, device: Any, fn: Any, repeats: int) -> float:
    """`_time_ms` on a GPU; on a CPU the median of `repeats` perf_counter timings after two warm-up calls."""
    if device.type == "cuda":
        return _time_ms(torch, fn, repeats)
    fn()
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return float(statistics.median(times))


def memory_streams(torch: Any, device: Any, size: int, repeats: int) -> dict[str, float]:
    """Memory bandwidth in GB/s measured apart, as seed 003's "HBM streaming" asks (read, write, copy):
    read = a sum over `size` bytes (reads them all, writes one number); write = fill `size` bytes;
    copy = `size` bytes to another buffer, counted as read + write (2 x size), as STREAM's Copy counts it
    (McCalpin, STREAM benchmark, www.cs.virginia.edu/stream/ref.html)."""
    count = size // 4
    src = torch.ones(count, dtype=torch.float32, device=device)
    dst = torch.empty_like(src)
    nbytes = count * 4
    read = _time_ms_any(torch, device, lambda: src.sum(), repeats)
    write = _time_ms_any(torch, device, lambda: dst.fill_(2.0), repeats)
    copy = _time_ms_any(torch, device, lambda: dst.copy_(src), repeats)
    return {"read": nbytes / (read / 1e3) / 1e9, "write": nbytes / (write / 1e3) / 1e9,
            "copy": 2.0 * nbytes / (copy / 1e3) / 1e9}


def _host_transfer(torch: Any, device: Any, size: int, repeats: int) -> tuple[float, float]:
    host = torch.empty(size, dtype=torch.uint8, pin_memory=True)
    gpu = torch.empty(size, dtype=torch.uint8, device=device)
    h2d = _time_ms(torch, lambda: gpu.copy_(host, non_blocking=True), repeats)
    d2h = _time_ms(torch, lambda: host.copy_(gpu, non_blocking=True), repeats)
    return size / (h2d / 1e3) / 1e9, size / (d2h / 1e3) / 1e9


def busbw_from_algbw(algbw: float, ranks: int) -> float:
    """nccl-tests convention for all-reduce: busbw = algbw × 2(n−1)/n."""
    return algbw * 2.0 * (ranks - 1) / ranks


def _all_reduce_worker(rank: int, world: int, size: int, repeats: int, port: int, queue: Any) -> None:
    import torch
    import torch.distributed as dist

    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    tensor = torch.ones(size // 4, dtype=torch.float32, device=f"cuda:{rank}")
    ms = _time_ms(torch, lambda: dist.all_reduce(tensor), repeats)
    if rank == 0:
        queue.put(ms)
    dist.destroy_process_group()


def all_reduce_busbw(world: int, size: int, repeats: int) -> float:
    """Bus bandwidth (GB/s) of an all-reduce of `size` bytes across `world` local GPUs, one process each."""
    import torch.multiprocessing as mp

    from sizer_agent.tools.bench.vllm_launcher import free_port

    context = mp.get_context("spawn")
    queue = context.Queue()
    port = free_port()
    os.environ.setdefault("NCCL_DEBUG", "WARN")
    start: Any = getattr(mp, "start_processes")  # noqa: B009 - not exported in torch's stubs
    start(_all_reduce_worker, args=(world, size, repeats, port, queue), nprocs=world, start_method="spawn")
    ms = float(queue.get(timeout=60))
    return busbw_from_algbw(size / (ms / 1e3) / 1e9, world)
