"""NVIDIA GPUs through NVML: the inventory (`sizer-agent probe`) and a peak-memory sampler for benchmarks.

`pynvml` (package `nvidia-ml-py`) is imported lazily. Without a driver, `nvmlInit` raises an NVMLError
(LibraryNotFound, DriverNotLoaded, ...): callers get an empty inventory with the reason, never a crash.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from types import ModuleType
from typing import Any, TypeVar

from pydantic import BaseModel, Field

from sizer_agent.tools.bench.results import GpuSummary, HardwareSummary

T = TypeVar("T")

# nvmlDeviceGetTopologyCommonAncestor levels -> nvidia-smi `topo -m` labels (NVML API reference,
# nvmlGpuTopologyLevel_t; labels as printed by `nvidia-smi topo -m`).
_TOPOLOGY_LABELS = {0: "X", 10: "PIX", 20: "PXB", 30: "PHB", 40: "NODE", 50: "SYS"}
_NVLINK_MAX_LINKS = 18  # NVML_NVLINK_MAX_LINKS in nvml.h (H100/H200: 18 links)


class NvLinkInfo(BaseModel):
    active_links: int
    remote_bus_ids: list[str] = Field(default_factory=list)


class MigInfo(BaseModel):
    current_mode: int | None = Field(None, description="1 = MIG enabled")
    pending_mode: int | None = None
    instances: int | None = Field(None, description="MIG devices present when enabled")


class GpuInventory(BaseModel):
    index: int
    name: str
    uuid: str | None = None
    pci_bus_id: str | None = None
    compute_capability: str | None = None
    memory_total_bytes: int | None = None
    memory_used_bytes: int | None = None
    ecc_current: bool | None = None
    ecc_pending: bool | None = None
    pcie_gen_current: int | None = None
    pcie_gen_max: int | None = None
    pcie_width_current: int | None = None
    pcie_width_max: int | None = None
    nvlink: NvLinkInfo | None = None
    mig: MigInfo | None = None
    power_limit_w: float | None = Field(None, description="current management limit")
    power_limit_default_w: float | None = None
    power_limit_min_w: float | None = None
    power_limit_max_w: float | None = None
    power_draw_w: float | None = None
    max_sm_clock_mhz: int | None = None
    temperature_c: int | None = None


class NvmlInventory(BaseModel):
    available: bool
    error: str | None = Field(None, description="why NVML gave nothing, e.g. no NVIDIA driver")
    driver_version: str | None = None
    cuda_driver_version: str | None = Field(None, description="highest CUDA version the driver supports")
    nvml_version: str | None = None
    gpus: list[GpuInventory] = Field(default_factory=list)
    topology: list[list[str]] | None = Field(
        None, description="nvidia-smi style matrix: X self, NV# NVLink count, PIX/PXB/PHB/NODE/SYS PCIe path"
    )

    def summary(self) -> HardwareSummary:
        return HardwareSummary(
            driver_version=self.driver_version,
            cuda_driver_version=self.cuda_driver_version,
            gpus=[
                GpuSummary(index=g.index, name=g.name, uuid=g.uuid, memory_total_bytes=g.memory_total_bytes)
                for g in self.gpus
            ],
            nvml_error=self.error,
        )


def load_pynvml() -> ModuleType:
    """Import pynvml; ImportError says which package provides it."""
    try:
        import pynvml
    except ImportError as error:  # pragma: no cover - nvidia-ml-py is a core dependency
        raise ImportError("NVML bindings missing: pip install nvidia-ml-py") from error
    module: ModuleType = pynvml
    return module


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _safe(nvml: ModuleType, call: Callable[[], T]) -> T | None:
    """Many queries are unsupported on some boards (NotSupported): that is an unknown, not an error."""
    try:
        return call()
    except nvml.NVMLError:
        return None


def nvml_init() -> tuple[ModuleType | None, str | None]:
    """(pynvml, None) once initialised, or (None, reason) when there is no usable driver."""
    try:
        nvml = load_pynvml()
    except ImportError as error:
        return None, str(error)
    try:
        nvml.nvmlInit()
    except nvml.NVMLError as error:
        return None, f"NVML unavailable ({error}): no NVIDIA driver on this host?"
    return nvml, None


def probe_gpus() -> NvmlInventory:
    """Everything NVML tells about the local GPUs; an empty inventory with `error` when it cannot."""
    nvml, error = nvml_init()
    if nvml is None:
        return NvmlInventory(available=False, error=error)
    try:
        return _inventory(nvml)
    finally:
        _safe(nvml, nvml.nvmlShutdown)


def _inventory(nvml: ModuleType) -> NvmlInventory:
    cuda = _safe(nvml, nvml.nvmlSystemGetCudaDriverVersion)
    count = _safe(nvml, nvml.nvmlDeviceGetCount) or 0
    handles = [nvml.nvmlDeviceGetHandleByIndex(i) for i in range(count)]
    gpus = [_gpu(nvml, index, handle) for index, handle in enumerate(handles)]
    return NvmlInventory(
        available=True,
        driver_version=_opt_text(_safe(nvml, nvml.nvmlSystemGetDriverVersion)),
        cuda_driver_version=f"{cuda // 1000}.{(cuda % 1000) // 10}" if isinstance(cuda, int) else None,
        nvml_version=_opt_text(_safe(nvml, nvml.nvmlSystemGetNVMLVersion)),
        gpus=gpus,
        topology=_topology(nvml, handles, gpus) if count > 1 else None,
    )


def _opt_text(value: object) -> str | None:
    return None if value is None else _text(value)


def _gpu(nvml: ModuleType, index: int, handle: Any) -> GpuInventory:
    memory = _safe(nvml, lambda: nvml.nvmlDeviceGetMemoryInfo(handle))
    ecc = _safe(nvml, lambda: nvml.nvmlDeviceGetEccMode(handle))
    capability = _safe(nvml, lambda: nvml.nvmlDeviceGetCudaComputeCapability(handle))
    pci = _safe(nvml, lambda: nvml.nvmlDeviceGetPciInfo(handle))
    constraints = _safe(nvml, lambda: nvml.nvmlDeviceGetPowerManagementLimitConstraints(handle))
    mig = _safe(nvml, lambda: nvml.nvmlDeviceGetMigMode(handle))

    def watts(milliwatts: object) -> float | None:
        return float(milliwatts) / 1000.0 if isinstance(milliwatts, int | float) else None

    mig_info = None
    if mig is not None:
        instances = None
        if mig[0] == 1:
            slots = _safe(nvml, partial(nvml.nvmlDeviceGetMaxMigDeviceCount, handle)) or 0
            instances = len(
                [i for i in range(slots) if _safe(nvml, partial(nvml.nvmlDeviceGetMigDeviceHandleByIndex, handle, i))]
            )
        mig_info = MigInfo(current_mode=mig[0], pending_mode=mig[1], instances=instances)
    return GpuInventory(
        index=index,
        name=_text(nvml.nvmlDeviceGetName(handle)),
        uuid=_opt_text(_safe(nvml, lambda: nvml.nvmlDeviceGetUUID(handle))),
        pci_bus_id=_text(pci.busId) if pci is not None else None,
        compute_capability=f"{capability[0]}.{capability[1]}" if capability else None,
        memory_total_bytes=int(memory.total) if memory is not None else None,
        memory_used_bytes=int(memory.used) if memory is not None else None,
        ecc_current=bool(ecc[0]) if ecc is not None else None,
        ecc_pending=bool(ecc[1]) if ecc is not None else None,
        pcie_gen_current=_safe(nvml, lambda: nvml.nvmlDeviceGetCurrPcieLinkGeneration(handle)),
        pcie_gen_max=_safe(nvml, lambda: nvml.nvmlDeviceGetMaxPcieLinkGeneration(handle)),
        pcie_width_current=_safe(nvml, lambda: nvml.nvmlDeviceGetCurrPcieLinkWidth(handle)),
        pcie_width_max=_safe(nvml, lambda: nvml.nvmlDeviceGetMaxPcieLinkWidth(handle)),
        nvlink=_nvlink(nvml, handle),
        mig=mig_info,
        power_limit_w=watts(_safe(nvml, lambda: nvml.nvmlDeviceGetPowerManagementLimit(handle))),
        power_limit_default_w=watts(_safe(nvml, lambda: nvml.nvmlDeviceGetPowerManagementDefaultLimit(handle))),
        power_limit_min_w=watts(constraints[0]) if constraints else None,
        power_limit_max_w=watts(constraints[1]) if constraints else None,
        power_draw_w=watts(_safe(nvml, lambda: nvml.nvmlDeviceGetPowerUsage(handle))),
        max_sm_clock_mhz=_safe(nvml, lambda: nvml.nvmlDeviceGetMaxClockInfo(handle, nvml.NVML_CLOCK_SM)),
        temperature_c=_safe(nvml, lambda: nvml.nvmlDeviceGetTemperature(handle, nvml.NVML_TEMPERATURE_GPU)),
    )


def _nvlink(nvml: ModuleType, handle: Any) -> NvLinkInfo | None:
    active = 0
    remotes: list[str] = []
    supported = False
    for link in range(_NVLINK_MAX_LINKS):
        state = _safe(nvml, partial(nvml.nvmlDeviceGetNvLinkState, handle, link))
        if state is None:
            continue
        supported = True
        if state == 1:
            active += 1
            remote = _safe(nvml, partial(nvml.nvmlDeviceGetNvLinkRemotePciInfo, handle, link))
            if remote is not None:
                remotes.append(_text(remote.busId))
    return NvLinkInfo(active_links=active, remote_bus_ids=remotes) if supported else None


def _topology(nvml: ModuleType, handles: list[Any], gpus: list[GpuInventory]) -> list[list[str]]:
    matrix: list[list[str]] = []
    for i, a in enumerate(handles):
        row = []
        for j, b in enumerate(handles):
            if i == j:
                row.append("X")
                continue
            nvlink = gpus[i].nvlink
            links = nvlink.remote_bus_ids.count(gpus[j].pci_bus_id or "?") if nvlink is not None else 0
            if links:
                row.append(f"NV{links}")
                continue
            level = _safe(nvml, partial(nvml.nvmlDeviceGetTopologyCommonAncestor, a, b))
            row.append(_TOPOLOGY_LABELS.get(level, "?") if isinstance(level, int) else "?")
        matrix.append(row)
    return matrix


class GpuMemorySampler:
    """Background thread polling `nvmlDeviceGetMemoryInfo().used` of every GPU; keeps the peak per device.

    Start it around a benchmark level: `with sampler.window() as peaks: ...`. Without NVML it is inert and
    `peaks` stays None. The interval (default 50 ms) bounds what a short spike can hide.
    """

    def __init__(self, interval_s: float = 0.05) -> None:
        self.interval_s = interval_s
        self._nvml, self.error = nvml_init()
        self._handles: list[Any] = []
        if self._nvml is not None:
            count = _safe(self._nvml, self._nvml.nvmlDeviceGetCount) or 0
            self._handles = [self._nvml.nvmlDeviceGetHandleByIndex(i) for i in range(count)]
        self._peaks: list[int] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def available(self) -> bool:
        return self._nvml is not None and bool(self._handles)

    def start(self) -> None:
        if not self.available:
            return
        self._peaks = [0] * len(self._handles)
        self._stop.clear()
        self._sample()
        self._thread = threading.Thread(target=self._run, name="gpu-memory-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> list[int] | None:
        """Stop sampling; peak used bytes per device (None without NVML)."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
            self._sample()
        return list(self._peaks) if self._peaks is not None else None

    def close(self) -> None:
        self.stop()
        if self._nvml is not None:
            _safe(self._nvml, self._nvml.nvmlShutdown)
            self._nvml = None

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._sample()

    def _sample(self) -> None:
        nvml = self._nvml
        if nvml is None or self._peaks is None:
            return
        for i, handle in enumerate(self._handles):
            info = _safe(nvml, partial(nvml.nvmlDeviceGetMemoryInfo, handle))
            if info is not None and int(info.used) > self._peaks[i]:
                self._peaks[i] = int(info.used)
