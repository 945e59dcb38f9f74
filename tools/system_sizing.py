"""The machine around the GPUs: host RAM, NVMe, CPU and PCIe lanes, power, cooling, ECC, graphics.

Each rule returns its value with the reason, quoting the seed documents (French vendor guidance) or the outside
figure it rests on, so a proposal can show why a platform is or is not enough.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from tools.catalog.models import Gpu, Platform

GB = 1e9

# Seed 002 (vendor guidance, French), quoted as the reason of each rule.
SEED_RAM = ("seed 002: « 64 Go de RAM sont une base pratique pour beaucoup de stations d'IA ; 128 Go ou plus "
            "peuvent être nécessaires pour de gros jeux de données, le prétraitement, plusieurs GPU »")
SEED_NVME = ("seed 002: « Un NVMe rapide aide pour les jeux de données actifs et les checkpoints, tandis qu'un "
             "second volume ou un stockage réseau peut régler la capacité et la sauvegarde »")
SEED_CPU = ("seed 002: « Threadripper et Threadripper PRO se justifient quand il faut beaucoup de lignes PCIe, "
            "de la RDIMM ECC, plus de capacité et une plateforme conçue pour évoluer »")
SEED_POWER = ("seed 002: « une carte mère avec assez d'emplacements et de lignes PCIe, de la marge sur "
              "l'alimentation, le boîtier, les températures en charge continue »")
SEED_ECC = ("seed 002: ECC « peut compter quand la capacité, la continuité et les charges de longue durée sont "
            "prioritaires, en particulier sur les plateformes professionnelles » ; 96 Go « avec ECC » pour l'IA "
            "professionnelle")
SEED_GRAPHICS = ("seed 002 asks « si le poste fera aussi du rendu ou de la CAO » ; seed 000: « Bande passante, "
                 "interconnexion, graphisme et licences diffèrent »")

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
    reason: str


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


class SystemSizing(BaseModel):
    requirements: list[Requirement]
    issues: list[str] = Field(description="what the given platform/GPU lacks (empty = nothing found)")


def _ram(req: SystemRequest) -> Requirement:
    base = 64.0 if req.num_gpus == 1 and req.dataset_bytes < 32 * GB else 128.0
    gpu_total = req.num_gpus * req.gpu_memory_used_bytes / GB
    # host RAM must stage the weights while loading and hold the active data set
    need = max(base, req.weight_bytes / GB * 1.2, gpu_total, req.dataset_bytes / GB * 0.5)
    if req.num_gpus > 2:
        need = max(need, gpu_total * DGX_RAM_RATIO)
    value = 2 ** math.ceil(math.log2(need)) if need > 0 else 64
    return Requirement(name="host_ram", value=float(value), unit="GB",
                       reason=f"{SEED_RAM}; at least the weights staged while loading (+20 %), half the data "
                              f"set in page cache; > 2 GPUs: ~1.8 x GPU memory as on DGX H200 (2 TB for 1,128 GB)")


def _nvme(req: SystemRequest) -> list[Requirement]:
    capacity = 2 * req.weight_bytes + req.checkpoints_kept * req.checkpoint_bytes + req.dataset_bytes
    capacity_tb = max(1.0, math.ceil(capacity / 1e12 * 1.25 * 10) / 10)
    out = [Requirement(name="nvme_capacity", value=capacity_tb, unit="TB",
                       reason=f"{SEED_NVME}; original + converted weights, {req.checkpoints_kept} checkpoints "
                              f"kept, the data set, +25 % free space")]
    if req.mode == "training" and req.checkpoint_bytes:
        write = req.checkpoint_bytes / CHECKPOINT_TARGET_S / GB
        out.append(Requirement(name="nvme_write_bandwidth", value=round(write, 2), unit="GB/s",
                               reason=f"{SEED_NVME}; a checkpoint written in {CHECKPOINT_TARGET_S:.0f} s "
                                      "(assumption) keeps it a small share of the checkpoint interval"))
    return out


def _lanes(req: SystemRequest, gpu: Gpu | None) -> list[Requirement]:
    lanes = req.num_gpus * LANES_PER_GPU + 2 * LANES_PER_NVME
    if req.num_gpus > 1:
        lanes += 16  # one x16 network card for multi-GPU data movement
    cpu = "desktop CPU" if lanes <= DESKTOP_LANES else (
        "Threadripper (many PCIe lanes)" if lanes <= 88 else "Threadripper PRO / dual-socket server")
    if gpu is not None and gpu.form_factor in ("sxm", "oam", "superchip"):
        cpu = "the server platform of the GPU baseboard (HGX/OAM/NVL)"
    return [
        Requirement(name="pcie_lanes", value=float(lanes), unit="lanes",
                    reason="x16 per GPU for full host bandwidth, x4 per NVMe (2), x16 network card when "
                           "several GPUs share data"),
        Requirement(name="cpu_class", value=cpu, reason=SEED_CPU),
    ]


def _power(req: SystemRequest, gpu: Gpu | None, platform: Platform | None) -> list[Requirement]:
    if gpu is None:
        return []
    host = platform.host_power_w.value if platform and platform.host_power_w else 350.0
    draw = req.num_gpus * gpu.tdp_w.value + host
    psu = math.ceil(draw * PSU_MARGIN / 50) * 50
    cooling = "air, workstation tower" if req.num_gpus * gpu.tdp_w.value <= 1200 else "server airflow or liquid"
    if gpu.tdp_w.value >= 1000:
        cooling = "liquid or high-airflow data-centre chassis (>= 1 kW per GPU)"
    return [
        Requirement(name="psu", value=float(psu), unit="W",
                    reason=f"{SEED_POWER}; {req.num_gpus} x {gpu.tdp_w.value:g} W GPU + {host:g} W host, "
                           f"x{PSU_MARGIN} margin (NVIDIA asks 1,000 W for a 575 W RTX 5090 desktop)"),
        Requirement(name="cooling", value=cooling,
                    reason=f"{SEED_POWER}; sustained load, not peak: the seed 003 method runs GEMM for 48 h"),
    ]


def _ecc(req: SystemRequest) -> Requirement:
    wanted = req.long_running or req.mode == "training" or req.gpu_memory_used_bytes > 48 * GB
    return Requirement(name="ecc", value=wanted, reason=SEED_ECC)


def _graphics(req: SystemRequest) -> Requirement:
    value = "workstation GPU with display outputs and certified drivers" if req.needs_graphics else "none"
    return Requirement(name="graphics", value=value,
                       reason=f"{SEED_GRAPHICS}; data-centre GPUs only do graphics through licensed NVIDIA vGPU "
                              "(RTX vWS) and have no display outputs")


def graphics_issue(gpu: Gpu) -> str | None:
    """Why this GPU cannot serve a rendering/CAD workstation, or None when it can."""
    kind = gpu.graphics.value
    if kind == "rtx-pro":
        return None
    if kind == "geforce":
        return (f"{gpu.name}: display outputs but GeForce drivers, not ISV-certified for CAD "
                "(usable for rendering, not certified)")
    if kind == "vgpu":
        return f"{gpu.name}: no active display outputs; graphics need an NVIDIA vGPU licence (RTX vWS)"
    return f"{gpu.name}: compute-only data-centre GPU, no display outputs and no graphics drivers"


def size_system(req: SystemRequest, gpu: Gpu | None = None, platform: Platform | None = None) -> SystemSizing:
    """Requirements for the whole machine; with a platform, also what it lacks."""
    reqs = [_ram(req), *_nvme(req), *_lanes(req, gpu), *_power(req, gpu, platform), _ecc(req), _graphics(req)]
    issues: list[str] = []
    by_name = {r.name: r for r in reqs}
    if platform is not None:
        ram = by_name["host_ram"].value
        if platform.host_ram_gb and isinstance(ram, float) and platform.host_ram_gb.value < ram:
            issues.append(f"host RAM {platform.host_ram_gb.value:g} GB < {ram:g} GB needed")
        if platform.max_gpus.value < req.num_gpus:
            issues.append(f"platform holds {platform.max_gpus.value} GPU(s), {req.num_gpus} needed")
        lanes = by_name["pcie_lanes"].value
        if platform.pcie_lanes and isinstance(lanes, float) and platform.pcie_lanes.value < lanes:
            issues.append(f"{platform.pcie_lanes.value} PCIe lanes < {lanes:g} needed")
        psu = by_name.get("psu")
        if psu is not None and platform.psu_w and isinstance(psu.value, float) and platform.psu_w.value < psu.value:
            issues.append(f"PSU {platform.psu_w.value:g} W < {psu.value:g} W needed")
        if by_name["ecc"].value is True and platform.ecc_ram is not None and not platform.ecc_ram.value:
            issues.append("no ECC system memory for a long-running workload")
    if gpu is not None:
        if by_name["ecc"].value is True and not gpu.ecc.value:
            issues.append(f"{gpu.name}: no end-to-end ECC on GPU memory (recommended for this workload)")
        if req.needs_graphics:
            problem = graphics_issue(gpu)
            if problem:
                issues.append(problem)
    return SystemSizing(requirements=reqs, issues=issues)
