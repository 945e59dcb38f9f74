"""The host around the GPUs: CPU, memory and disks, read from /proc and /sys (Linux) without extra packages."""

from __future__ import annotations

import os
import platform
import shutil
from pathlib import Path

from pydantic import BaseModel, Field

# Filesystems that hold data (skip proc, tmpfs, overlay layers of containers...).
_REAL_FILESYSTEMS = {"ext2", "ext3", "ext4", "xfs", "btrfs", "zfs", "f2fs", "ntfs", "vfat", "nfs", "nfs4", "lustre"}


class DiskInfo(BaseModel):
    mount: str
    device: str
    filesystem: str
    total_bytes: int
    free_bytes: int
    rotational: bool | None = Field(None, description="from /sys/block/<dev>/queue/rotational; False = SSD/NVMe")


class HostInfo(BaseModel):
    hostname: str
    os: str
    kernel: str
    python: str
    cpu_model: str | None = None
    cpu_sockets: int | None = None
    cpu_physical_cores: int | None = None
    cpu_logical_cores: int | None = None
    memory_total_bytes: int | None = None
    memory_available_bytes: int | None = None
    disks: list[DiskInfo] = Field(default_factory=list)


def probe_host(proc: Path = Path("/proc"), sys_block: Path = Path("/sys/block")) -> HostInfo:
    cpu_model, sockets, physical = _cpu(proc / "cpuinfo")
    total, available = _memory(proc / "meminfo")
    return HostInfo(
        hostname=platform.node(),
        os=platform.platform(),
        kernel=platform.release(),
        python=platform.python_version(),
        cpu_model=cpu_model,
        cpu_sockets=sockets,
        cpu_physical_cores=physical,
        cpu_logical_cores=os.cpu_count(),
        memory_total_bytes=total,
        memory_available_bytes=available,
        disks=_disks(proc / "mounts", sys_block),
    )


def _cpu(path: Path) -> tuple[str | None, int | None, int | None]:
    try:
        text = path.read_text()
    except OSError:
        return platform.processor() or None, None, None
    model = None
    cores: set[tuple[str, str]] = set()
    sockets: set[str] = set()
    physical_id = "0"
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key == "model name" and model is None:
            model = value
        elif key == "physical id":
            physical_id = value
            sockets.add(value)
        elif key == "core id":
            cores.add((physical_id, value))
    return model, (len(sockets) or None), (len(cores) or None)


def _memory(path: Path) -> tuple[int | None, int | None]:
    values: dict[str, int] = {}
    try:
        for line in path.read_text().splitlines():
            key, _, rest = line.partition(":")
            parts = rest.split()
            if parts and parts[0].isdigit():
                values[key] = int(parts[0]) * 1024  # /proc/meminfo counts kB = KiB
    except OSError:
        return None, None
    return values.get("MemTotal"), values.get("MemAvailable")


def _disks(mounts: Path, sys_block: Path) -> list[DiskInfo]:
    try:
        lines = mounts.read_text().splitlines()
    except OSError:
        return []
    disks: list[DiskInfo] = []
    seen: set[str] = set()
    for line in lines:
        parts = line.split()
        if len(parts) < 3 or parts[2] not in _REAL_FILESYSTEMS or parts[0] in seen:
            continue
        device, mount, filesystem = parts[0], parts[1], parts[2]
        seen.add(device)
        try:
            usage = shutil.disk_usage(mount)
        except OSError:
            continue
        disks.append(
            DiskInfo(
                mount=mount,
                device=device,
                filesystem=filesystem,
                total_bytes=usage.total,
                free_bytes=usage.free,
                rotational=_rotational(device, sys_block),
            )
        )
    return disks


def _rotational(device: str, sys_block: Path) -> bool | None:
    name = Path(device).name
    # /dev/nvme0n1p2 -> nvme0n1, /dev/sda1 -> sda: the queue lives on the whole disk.
    whole = name.rstrip("0123456789")
    for candidate in (name, whole.removesuffix("p") if "nvme" in name else whole):
        flag = sys_block / candidate / "queue" / "rotational"
        try:
            return flag.read_text().strip() == "1"
        except OSError:
            continue
    return None
