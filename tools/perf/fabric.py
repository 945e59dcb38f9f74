"""The fabric a multi-node job runs on: a scale-up domain (NVLink/NVSwitch, NVL72 switch trays, TPU ICI,
NeuronLink) and a scale-out network (one InfiniBand/RoCE/EFA NIC per GPU, rail-optimised) between domains.

Scale-up figures come from the GPU catalogue (`Gpu.interconnect`); the scale-out NIC line rate per GPU is a
small sourced table here, because the catalogue states platform networking as text. Link rates are per
direction: a 400 Gb/s NIC moves 50 GB/s each way, NVLink's 900 GB/s is bidirectional (450 GB/s each way).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from sizer_agent.tools.catalog.models import Gpu

# Scale-out NIC line rate per GPU, Gb/s per direction, with the source of each figure.
NIC_GBPS: dict[str, tuple[float, str]] = {
    "a100-40gb-sxm": (200, "DGX A100 user guide: 8x ConnectX-6 HDR 200 Gb/s compute NICs (1 per GPU)"),
    "a100-80gb-sxm": (200, "DGX A100 user guide: 8x ConnectX-6 HDR 200 Gb/s compute NICs (1 per GPU)"),
    "h100-sxm": (400, "MLPerf Training v4.0 NVIDIA Eos system JSON: 'Compute: 8x ConnectX-7 IB NDR 400Gb/s' "
                      "(github:mlcommons/training_results_v4.0 NVIDIA/results/eos_n64_ngc24.04_nemo)"),
    "h200-sxm": (400, "catalogue platform hgx-h200-8: '10x 400 Gb InfiniBand' (8 compute + 2 storage), MLPerf "
                      "system description mlc_h200"),
    "b200": (400, "catalogue platform dgx-b200: '8x ConnectX-7 400 Gb/s (1 per GPU)'"),
    "b300": (800, "catalogue platform hgx-b300-8: '8x ConnectX-8 SuperNIC 800G (1 per GPU)' (Supermicro "
                  "SYS-822GS-NB3RT; NVIDIA Enterprise RA pattern 2-8-9-800)"),
    "gb200": (400, "MLPerf Training v5.0 CoreWeave/NVIDIA GB200 system JSON: '4x ConnectX-7 IB NDR 400Gb/s' per "
                   "4-GPU tray (github:mlcommons/training_results_v5.0 IBM+CoreWeave+NVIDIA/systems/"
                   "carina_ngpu512_ngc25.04_nemo.json @0fdc28f0)"),
    "gb300": (800, "catalogue platform gb300-nvl72: '1 ConnectX-8 800 Gb/s per GPU (72)' (NVIDIA Enterprise RA "
                   "NVL72)"),
    "mi300x": (400, "AMD Instinct MI300X platform: 8x 400 Gb/s NICs (1 per GPU) in OEM/cloud nodes (e.g. OCI "
                    "BM.GPU.MI300X.8: 8x 400 Gb/s RoCE); assumption for other vendors' nodes"),
    "trn2": (200, "AWS trn2.48xlarge: 3.2 Tb/s EFAv3 for 16 chips = 200 Gb/s per chip (AWS Trn2 page)"),
}
DEFAULT_NIC_GBPS = 400.0  # NDR/400G Ethernet: the common per-GPU rate of 2024-2025 AI clusters (assumption)
# A GPU group talks over a PCIe host link only when there is neither scale-up fabric nor NIC: then one
# "domain" is the card itself.


class Fabric(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: str = Field(description="scale-up fabric kind: nvlink, ici, neuronlink, infinity-fabric, pcie")
    domain: int = Field(ge=1, description="GPUs joined by the scale-up fabric (8: HGX node, 72: NVL72 rack)")
    scaleup_uni_bytes_s: float = Field(gt=0, description="per GPU, per direction")
    gpus_per_node: int = Field(ge=1, description="GPUs sharing one host (NICs are per GPU)")
    nic_uni_bytes_s: float = Field(gt=0, description="scale-out NIC per GPU, per direction")
    nic_source: str

    def group_bandwidth(self, group: int, span: int) -> tuple[str, float]:
        """(link kind, busbw ceiling in bytes/s) of a collective over `group` GPUs laid out on `span`
        consecutive GPUs (a TP group of 8 inside a node: span 8; a DP group strided by TP x PP: span larger).

        Inside one scale-up domain: the fabric's per-direction rate. Across domains: the group's GPUs in each
        domain share their own NICs, so the busbw ceiling is (group GPUs per domain) x NIC, never above the
        fabric (hierarchical rings, NCCL; nccl-tests PERFORMANCE.md: busbw is compared with the link rate).
        """
        if span <= self.domain:
            return self.kind, self.scaleup_uni_bytes_s
        domains = max(1, -(-span // self.domain))
        per_domain = max(1, group // domains)
        return "network", min(self.scaleup_uni_bytes_s, per_domain * self.nic_uni_bytes_s)


def fabric_for(gpu: Gpu, gpus_per_node: int | None = None) -> Fabric:
    """The fabric of `gpu` as sold: its scale-up domain from the catalogue, one NIC per GPU across domains."""
    ic = gpu.interconnect
    nic_gbps, source = NIC_GBPS.get(gpu.id, (DEFAULT_NIC_GBPS, "assumed 400 Gb/s per GPU (no figure in the table)"))
    if ic.scaleup_gbs > 0:
        kind, domain, uni = ic.kind, ic.scaleup_domain, ic.scaleup_gbs * 1e9 / 2
    else:
        kind, domain, uni = "pcie", 1, ic.pcie_gbs * 1e9 / 2
    per_node = gpus_per_node or min(domain, 8) if domain > 1 else (gpus_per_node or 1)
    return Fabric(kind=kind, domain=domain, scaleup_uni_bytes_s=uni, gpus_per_node=max(1, per_node),
                  nic_uni_bytes_s=nic_gbps * 1e9 / 8, nic_source=source)
