"""Time cost of inference weights kept in host RAM (vLLM `--cpu-offload-gb`, llama.cpp layers on the CPU).

vLLM keeps the offloaded parameters in pinned host memory and the GPU reads them over its host link in every
forward pass (vLLM engine arguments, `--cpu-offload-gb`: "part of the model is loaded from CPU memory to GPU
memory on the fly in each model forward pass", https://docs.vllm.ai/en/latest/configuration/engine_args.html,
read 2026-12-01). One engine step therefore costs `offloaded bytes / host-link bandwidth` more, whatever the
batch: the cost is per step, shared by the sequences decoded together, and it usually dwarfs the HBM read
(PCIe 5.0 x16 moves ~50 GB/s against 3-5 TB/s of HBM).

llama.cpp's partial offload (`-ngl` below the layer count) runs the CPU layers on the CPU instead of copying
them, so its cost is bounded by host DRAM bandwidth rather than PCIe; the same formula with the host link
replaced by `--host-memory-gbs` covers it (this module's `host_bandwidth_gbs` argument).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from sizer_agent.tools.catalog.models import Gpu

# Pinned host-to-device copies reach about 80 % of a PCIe link's per-direction rate (NVIDIA cuda-samples
# bandwidthTest: ~25 GB/s on PCIe 4.0 x16, whose raw rate is 31.5 GB/s per direction, PCI-SIG). Assumption,
# not calibrated on an offloaded vLLM run.
HOST_LINK_EFFICIENCY = 0.80
# When no catalogue GPU is named: PCIe 4.0 x16, 2 x 31.5 GB/s both directions (PCI-SIG PCIe 4.0 spec).
DEFAULT_PCIE_BIDIRECTIONAL_GBS = 63.0


# A desktop's host memory: dual-channel DDR5-5600, 2 channels x 8 bytes x 5,600 MT/s = 89.6 GB/s (JEDEC JESD79-5
# transfer rate); what llama.cpp's CPU layers read their weights at on a workstation.
DESKTOP_DDR5_GBS = 89.6


class OffloadTime(BaseModel):
    """What weight offload costs per engine step."""

    offloaded_bytes_per_gpu: int = Field(ge=0)
    link_gbs: float = Field(gt=0, description="effective one-direction bandwidth the weights cross, GB/s")
    link: str = Field(description="which link: the GPU's PCIe host link, or host DRAM (llama.cpp CPU layers)")
    seconds_per_step: float = Field(ge=0, description="added to every forward pass (decode step, prefill chunk)")
    source: str


def host_link_gbs(gpu: Gpu | None) -> tuple[float, str]:
    """Effective host-to-GPU bandwidth, one direction, GB/s (catalogue figure x HOST_LINK_EFFICIENCY)."""
    if gpu is None:
        return DEFAULT_PCIE_BIDIRECTIONAL_GBS / 2 * HOST_LINK_EFFICIENCY, "PCIe 4.0 x16 assumed (no GPU named)"
    link = gpu.interconnect
    source = f"{gpu.name} PCIe Gen{link.pcie_gen} ({link.pcie_gbs:g} GB/s both ways)"
    return link.pcie_gbs / 2 * HOST_LINK_EFFICIENCY, source


def offload_time(offloaded_bytes: int, gpu: Gpu | None = None, host_bandwidth_gbs: float | None = None) -> OffloadTime:
    """Seconds each forward pass spends reading `offloaded_bytes` of weights from the host.
    `host_bandwidth_gbs`: llama.cpp-style CPU layers, bounded by host DRAM instead of the GPU's link."""
    if host_bandwidth_gbs is not None:
        gbs, link, source = host_bandwidth_gbs, "host DRAM", "host memory bandwidth given"
    else:
        gbs, source = host_link_gbs(gpu)
        link = "PCIe host link"
    return OffloadTime(offloaded_bytes_per_gpu=offloaded_bytes, link_gbs=gbs, link=link,
                       seconds_per_step=offloaded_bytes / (gbs * 1e9), source=source)
