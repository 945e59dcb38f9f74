"""The machine around the GPUs: host RAM, NVMe, CPU and PCIe lanes, power, cooling, ECC, graphics.

Each rule returns its value with the reason, quoting the sizing guidance (docs/method.md: French vendor
guidance) or the outside figure it rests on, so a proposal can show why a platform is or is not enough.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.catalog.models import Gpu, Platform
from sizer_agent.tools.messages import Msg

GB = 1e9

# The reason of each rule is a catalogue message (host.*) that quotes the guidance of docs/method.md (seed
# 002: RAM 64 GB base / 128 GB+, NVMe for data and checkpoints, Threadripper PRO for lanes and ECC RDIMM,
# PSU/case/thermals for continuous load, ECC for long jobs; seed 000: graphics and licences differ).

# Outside figures used by the rules.
DGX_RAM_RATIO = 1.8  # DGX H200: 2 TB host RAM for 1,128 GB HBM (catalogue platform hgx-h200-8)
PSU_MARGIN = 1.3  # NVIDIA recommends a 1,000 W PSU for a 575 W RTX 5090 desktop (catalogue source kad8)
LANES_PER_GPU = 16  # x16 slot per GPU for full host bandwidth (PCIe CEM)
LANES_PER_NVME = 4  # NVMe SSDs use x4 links
DESKTOP_LANES = 24  # typical desktop CPU lane budget (assumption stated in platforms.toml)
CHECKPOINT_TARGET_S = 120.0  # write a checkpoint in <= 2 min so it stays a small share of the interval (assumption)


class Requirement(BaseModel):
    name: str
    value: float | str | bool
    unit: str = ""
    reason: Msg


class SystemRequest(BaseModel):
    mode: Literal["inference", "training"] = "inference"
    num_gpus: int = Field(1, ge=1)
    gpu_memory_used_bytes: int = Field(0, ge=0, description="per GPU, from the memory estimate")
    weight_bytes: int = Field(0, ge=0, description="whole model as stored on disk")
    checkpoint_bytes: int = Field(0, ge=0, description="one training checkpoint (weights + optimizer states)")
    checkpoints_kept: int = Field(3, ge=0)
    dataset_bytes: int = Field(0, ge=0)
    needs_graphics: bool = Field(False, description="the machine also does rendering or CAD")
    long_running: bool = Field(False, description="production serving or multi-day training")
    offloaded_bytes: int = Field(0, ge=0, description="pinned host RAM of offload (weights, optimizer states, "
                                 "parameters, activations), all GPUs of the machine together")


class SystemSizing(BaseModel):
    requirements: list[Requirement]
    issues: list[Msg] = Field(description="what the given platform/GPU lacks (empty = nothing found)")


def _ram(req: SystemRequest) -> Requirement:
    base = 64.0 if req.num_gpus == 1 and req.dataset_bytes < 32 * GB else 128.0
    gpu_total = req.num_gpus * req.gpu_memory_used_bytes / GB
    # host RAM must stage the weights while loading and hold the active data set
    need = max(base, req.weight_bytes / GB * 1.2, gpu_total, req.dataset_bytes / GB * 0.5)
    if req.num_gpus > 2:
        need = max(need, gpu_total * DGX_RAM_RATIO)
    # offloaded tensors live in pinned host memory beside everything else (OS, loader, data): on top of the base
    need = max(need, req.offloaded_bytes / GB + base / 2)
    value = 2 ** math.ceil(math.log2(need)) if need > 0 else 64
    return Requirement(name="host_ram", value=float(value), unit="GB", reason=Msg("sys.ram_reason"))


def _nvme(req: SystemRequest) -> list[Requirement]:
    capacity = 2 * req.weight_bytes + req.checkpoints_kept * req.checkpoint_bytes + req.dataset_bytes
    capacity_tb = max(1.0, math.ceil(capacity / 1e12 * 1.25 * 10) / 10)
    out = [Requirement(name="nvme_capacity", value=capacity_tb, unit="TB",
                       reason=Msg("sys.nvme_reason", kept=req.checkpoints_kept))]
    write = req.checkpoint_bytes / CHECKPOINT_TARGET_S / GB
    if req.mode == "training" and write >= 0.1:  # below 0.1 GB/s any NVMe drive does it: no requirement
        out.append(Requirement(name="nvme_write_bandwidth", value=round(write, 1), unit="GB/s",
                               reason=Msg("sys.nvme_write_reason", seconds=CHECKPOINT_TARGET_S)))
    return out


def _lanes(req: SystemRequest, gpu: Gpu | None, platform: Platform | None = None) -> list[Requirement]:
    lanes = req.num_gpus * LANES_PER_GPU + 2 * LANES_PER_NVME
    if req.num_gpus > 1:
        lanes += 16  # one x16 network card for multi-GPU data movement
    cpu = "desktop" if lanes <= DESKTOP_LANES else ("threadripper" if lanes <= 88 else "threadripper_pro")
    if platform is not None and platform.kind in ("server", "rack") and cpu != "desktop":
        cpu = "server_cpu"  # a rack server's lanes come from its EPYC or Xeon sockets, not a Threadripper
    if gpu is not None and gpu.form_factor in ("sxm", "oam", "superchip"):
        cpu = "baseboard"
    return [
        Requirement(name="pcie_lanes", value=float(lanes), unit="lanes", reason=Msg("sys.lanes_reason")),
        Requirement(name="cpu_class", value=cpu, reason=Msg("sys.cpu_reason")),
    ]


def _power(req: SystemRequest, gpu: Gpu | None, platform: Platform | None) -> list[Requirement]:
    if gpu is None or gpu.tdp_w is None:  # no published TDP: a rented chip, the provider powers it
        return []
    tdp = gpu.tdp_w.value
    host = platform.host_power_w.value if platform and platform.host_power_w else 350.0
    draw = req.num_gpus * tdp + host
    psu = math.ceil(draw * PSU_MARGIN / 50) * 50
    cooling = "air_tower" if req.num_gpus * tdp <= 1200 else "server_airflow"
    if platform is not None and platform.kind in ("server", "rack"):
        cooling = "server_airflow"  # a rack server is cooled front to back, whatever its draw
    if tdp >= 1000:
        cooling = "liquid"
    return [
        Requirement(name="psu", value=float(psu), unit="W",
                    reason=Msg("sys.psu_reason", gpus=req.num_gpus, tdp=tdp, host=host,
                               margin=PSU_MARGIN)),
        Requirement(name="cooling", value=cooling, reason=Msg("sys.cooling_reason")),
    ]


def _ecc(req: SystemRequest) -> Requirement:
    wanted = req.long_running or req.mode == "training" or req.gpu_memory_used_bytes > 48 * GB
    return Requirement(name="ecc", value=wanted, reason=Msg("sys.ecc_reason"))


def _graphics(req: SystemRequest) -> Requirement:
    value = "certified" if req.needs_graphics else "none"
    return Requirement(name="graphics", value=value, reason=Msg("sys.graphics_reason"))


def graphics_issue(gpu: Gpu) -> Msg | None:
    """Why this GPU cannot serve a rendering/CAD workstation, or None when it can."""
    kind = gpu.graphics.value
    if kind == "rtx-pro":
        return None
    return Msg(f"sys.graphics_{kind.replace('-', '_')}", gpu=gpu.name)


def size_system(req: SystemRequest, gpu: Gpu | None = None, platform: Platform | None = None) -> SystemSizing:
    """Requirements for the whole machine; with a platform, also what it lacks."""
    reqs = [_ram(req), *_nvme(req), *_lanes(req, gpu, platform), *_power(req, gpu, platform), _ecc(req), _graphics(req)]
    issues: list[Msg] = []
    by_name = {r.name: r for r in reqs}
    if platform is not None:
        ram = by_name["host_ram"].value
        if platform.host_ram_gb and isinstance(ram, float) and platform.host_ram_gb.value < ram:
            issues.append(Msg("sys.issue_ram", have=platform.host_ram_gb.value, need=ram))
        if platform.max_gpus.value < req.num_gpus:
            issues.append(Msg("sys.issue_slots", have=platform.max_gpus.value, need=req.num_gpus))
        lanes = by_name["pcie_lanes"].value
        if platform.pcie_lanes and isinstance(lanes, float) and platform.pcie_lanes.value < lanes:
            issues.append(Msg("sys.issue_lanes", have=platform.pcie_lanes.value, need=lanes))
        psu = by_name.get("psu")
        if psu is not None and platform.psu_w and isinstance(psu.value, float) and platform.psu_w.value < psu.value:
            issues.append(Msg("sys.issue_psu", have=platform.psu_w.value, need=psu.value))
        if by_name["ecc"].value is True and platform.ecc_ram is not None and not platform.ecc_ram.value:
            issues.append(Msg("sys.issue_ecc_ram"))
    if gpu is not None:
        if by_name["ecc"].value is True and not gpu.ecc.value:
            issues.append(Msg("sys.issue_ecc_gpu", gpu=gpu.name))
        if req.needs_graphics:
            problem = graphics_issue(gpu)
            if problem:
                issues.append(problem)
    return SystemSizing(requirements=reqs, issues=issues)


class SystemSizingRequest(SystemRequest):
    """The machine's requirements, optionally checked against a catalogue GPU and platform."""

    gpu: str | None = Field(None, description="catalogue GPU id the machine carries (checks ECC and graphics)")
    platform: str | None = Field(None, description="catalogue platform id to check (RAM, slots, lanes, PSU)")
    catalog: str | None = Field(None, description="a vendor's own catalogue TOML, merged over the bundled one")


def size_system_tool(request: SystemSizingRequest) -> SystemSizing:
    """Size the machine around the GPUs: host RAM, NVMe for data and checkpoints, PCIe lanes, power supply,
    ECC and graphics, each with its reason; given a catalogue GPU and platform, also list what that machine
    lacks. Call it with the per-GPU memory and weight bytes from estimate_memory."""
    from pathlib import Path

    from sizer_agent.tools.catalog import load_catalog

    catalog = load_catalog(None if request.catalog is None else Path(request.catalog))
    gpu = None if request.gpu is None else catalog.gpu(request.gpu)
    platform = None if request.platform is None else catalog.platform(request.platform)
    return size_system(SystemRequest.model_validate(request.model_dump(include=set(SystemRequest.model_fields))),
                       gpu, platform)
