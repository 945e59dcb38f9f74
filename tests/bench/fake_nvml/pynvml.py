"""A scripted stand-in for `pynvml` (nvidia-ml-py): two H200-like GPUs joined by NVLink.

Put this directory first on PYTHONPATH to run the NVML code paths on a machine without a driver.
Memory in use climbs by 1 GiB per query of device 0 (up to 40 GiB) so a sampler sees a peak.
FAKE_NVML_MODE=nodriver makes nvmlInit fail like a host without the driver.
FAKE_NVML_MODE=throttle scripts a GPU under a long load, advanced by each clock-event-reasons query:
queries 1-3 at full clock (1980 MHz, 70 C), 4-5 thermal slowdown (SW + HW thermal bits 0x20|0x40,
1400 MHz, 88 C), 6 and later power capped (bit 0x4, 1700 MHz, 80 C); 650 W; the energy counter grows
700 J per query.
"""

from __future__ import annotations

import os
from types import SimpleNamespace

NVML_CLOCK_SM = 1
NVML_CLOCK_MEM = 2
NVML_TEMPERATURE_GPU = 0
GIB = 2**30


class NVMLError(Exception):
    pass


class NVMLError_LibraryNotFound(NVMLError):
    pass


class NVMLError_NotSupported(NVMLError):
    pass


_state = {"initialised": False, "queries": [0, 0], "reasons": 0, "energy_mj": 0}
_BUS = ["00000000:18:00.0", "00000000:2A:00.0"]


def nvmlInit() -> None:
    if os.environ.get("FAKE_NVML_MODE") == "nodriver":
        raise NVMLError_LibraryNotFound("NVML Shared Library Not Found")
    _state["initialised"] = True


def nvmlShutdown() -> None:
    _state["initialised"] = False


def nvmlSystemGetDriverVersion() -> str:
    return "570.124.06"


def nvmlSystemGetCudaDriverVersion() -> int:
    return 12080


def nvmlSystemGetNVMLVersion() -> str:
    return "12.570.124.06"


def nvmlDeviceGetCount() -> int:
    return 2


def nvmlDeviceGetHandleByIndex(index: int) -> int:
    return index


def nvmlDeviceGetName(handle: int) -> str:
    return "NVIDIA H200"


def nvmlDeviceGetUUID(handle: int) -> str:
    return f"GPU-fake-{handle}"


def nvmlDeviceGetPciInfo(handle: int) -> SimpleNamespace:
    return SimpleNamespace(busId=_BUS[handle].encode())


def nvmlDeviceGetMemoryInfo(handle: int) -> SimpleNamespace:
    _state["queries"][handle] += 1
    used = min(40, _state["queries"][handle]) * GIB if handle == 0 else 2 * GIB
    return SimpleNamespace(total=143771 * 2**20, used=used, free=143771 * 2**20 - used)


def nvmlDeviceGetEccMode(handle: int) -> tuple[int, int]:
    return (1, 1)


def nvmlDeviceGetCudaComputeCapability(handle: int) -> tuple[int, int]:
    return (9, 0)


def nvmlDeviceGetCurrPcieLinkGeneration(handle: int) -> int:
    return 5


def nvmlDeviceGetMaxPcieLinkGeneration(handle: int) -> int:
    return 5


def nvmlDeviceGetCurrPcieLinkWidth(handle: int) -> int:
    return 16 if handle == 0 else 8  # the second card sits in a narrower slot


def nvmlDeviceGetMaxPcieLinkWidth(handle: int) -> int:
    return 16


def nvmlDeviceGetNvLinkState(handle: int, link: int) -> int:
    if link >= 18:
        raise NVMLError_NotSupported("no such link")
    return 1


def nvmlDeviceGetNvLinkRemotePciInfo(handle: int, link: int) -> SimpleNamespace:
    return SimpleNamespace(busId=_BUS[1 - handle].encode())


def nvmlDeviceGetTopologyCommonAncestor(a: int, b: int) -> int:
    return 40


def nvmlDeviceGetMigMode(handle: int) -> tuple[int, int]:
    return (0, 0)


def nvmlDeviceGetPowerManagementLimit(handle: int) -> int:
    return 700_000


def nvmlDeviceGetPowerManagementDefaultLimit(handle: int) -> int:
    return 700_000


def nvmlDeviceGetPowerManagementLimitConstraints(handle: int) -> tuple[int, int]:
    return (200_000, 700_000)


def _throttling() -> bool:
    return os.environ.get("FAKE_NVML_MODE") == "throttle"


def _phase() -> int:
    """0 full clock, 1 thermal slowdown, 2 power capped (FAKE_NVML_MODE=throttle)."""
    count = _state["reasons"]
    return 0 if count <= 3 else 1 if count <= 5 else 2


def nvmlDeviceGetPowerUsage(handle: int) -> int:
    return 650_000 if _throttling() else 95_000


def nvmlDeviceGetCurrentClocksEventReasons(handle: int) -> int:
    if not _throttling():
        return 0
    _state["reasons"] += 1
    return [0, 0x20 | 0x40, 0x4][_phase()]


def nvmlDeviceGetClockInfo(handle: int, clock: int) -> int:
    if clock == NVML_CLOCK_MEM:
        return 3201
    return [1980, 1400, 1700][_phase()] if _throttling() else 1980


def nvmlDeviceGetTotalEnergyConsumption(handle: int) -> int:
    _state["energy_mj"] += 700_000
    return _state["energy_mj"]


def nvmlDeviceGetMaxClockInfo(handle: int, clock: int) -> int:
    return 1980


def nvmlDeviceGetTemperature(handle: int, sensor: int) -> int:
    if _throttling():
        return [70, 88, 80][_phase()]
    raise NVMLError_NotSupported("not on this board")
