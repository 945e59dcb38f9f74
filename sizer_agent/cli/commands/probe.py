"""`sizer-agent probe`: inventory of the GPUs (NVML) and the host."""

from __future__ import annotations

import argparse
import json
import sys

NAME = "probe"
ORDER = 41
HELP = "list this machine's GPUs (NVML) and host CPU, memory and disks"
DESCRIPTION = """\
Inventory of the hardware a benchmark runs on, so results say where they were measured.

GPUs (through NVML, the NVIDIA driver's management library): name, UUID, memory, driver and CUDA
versions, ECC mode, PCIe generation and width (current and maximum: a card in a x8 or Gen3 slot shows
here), NVLink links, the topology matrix between GPUs (X self, NV# NVLink links, PIX/PXB one or more
PCIe switches, PHB host bridge, NODE same NUMA node, SYS across sockets), MIG mode, power limits.
Host: CPU model, sockets and cores, RAM, mounted disks (SSD or rotational).

Without an NVIDIA driver it says so, lists no GPU and exits 0.

Examples:
  sizer-agent probe
  sizer-agent probe --json > probe.json
JSON: {kind, schema_version, taken_at, nvml {available, error, driver_version, cuda_driver_version,
gpus[] {index, name, uuid, memory_total_bytes, ecc_current, pcie_gen_current, pcie_gen_max,
pcie_width_current, pcie_width_max, nvlink, mig, power_limit_w, ...}, topology}, host {...}}
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the inventory as JSON")


def _gib(value: int | None) -> str:
    return "?" if value is None else f"{value / 2**30:.1f} GiB"


def run(args: argparse.Namespace) -> int:
    from sizer_agent.tools.bench.probe import probe

    result = probe()
    if args.json:
        json.dump(result.model_dump(mode="json"), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    nvml = result.nvml
    if not nvml.available:
        print(f"No NVIDIA GPU visible: {nvml.error}")
    else:
        print(f"NVIDIA driver {nvml.driver_version}, CUDA {nvml.cuda_driver_version}, {len(nvml.gpus)} GPU(s)")
        for gpu in nvml.gpus:
            pcie = (
                f"PCIe Gen{gpu.pcie_gen_current}/{gpu.pcie_gen_max} x{gpu.pcie_width_current}/{gpu.pcie_width_max}"
            )
            links = f", NVLink {gpu.nvlink.active_links} links" if gpu.nvlink else ""
            ecc = {True: "ECC on", False: "ECC off", None: "ECC n/a"}[gpu.ecc_current]
            mig = ", MIG on" if gpu.mig and gpu.mig.current_mode == 1 else ""
            power = f", power limit {gpu.power_limit_w:.0f} W" if gpu.power_limit_w else ""
            print(f"  [{gpu.index}] {gpu.name}: {_gib(gpu.memory_total_bytes)}, {ecc}, {pcie}{links}{mig}{power}")
        if nvml.topology:
            print("  topology: " + " | ".join(" ".join(row) for row in nvml.topology))
    host = result.host
    print(
        f"Host: {host.cpu_model or '?'} ({host.cpu_sockets or '?'} socket(s), {host.cpu_physical_cores or '?'} "
        f"cores, {host.cpu_logical_cores} threads), RAM {_gib(host.memory_total_bytes)}"
    )
    for disk in host.disks:
        kind = {True: "HDD", False: "SSD", None: "?"}[disk.rotational]
        print(f"  disk {disk.mount} ({disk.device}, {disk.filesystem}, {kind}): {_gib(disk.total_bytes)}")
    return 0
