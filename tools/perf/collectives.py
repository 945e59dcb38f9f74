"""Collective communication time, nccl-tests convention.

algbw = bytes / time; all-reduce busbw = algbw x 2(n-1)/n; all-gather / reduce-scatter busbw = algbw x (n-1)/n.
busbw is compared with the unidirectional link figure, so time = bytes x factor / busbw + latency.
"""

from __future__ import annotations

from typing import Literal

from sizer_agent.tools.catalog.models import Gpu
from sizer_agent.tools.perf.efficiency import Efficiencies

Collective = Literal["all_reduce", "all_gather", "reduce_scatter"]


def link(gpu: Gpu, group: int) -> tuple[str, float]:
    """(kind, unidirectional GB/s-in-bytes/s) of the slowest link a group of `group` GPUs uses."""
    ic = gpu.interconnect
    if ic.scaleup_gbs > 0 and group <= ic.scaleup_domain:
        return "nvlink", ic.scaleup_gbs * 1e9 / 2
    if ic.p2p:
        return "pcie", ic.pcie_gbs * 1e9 / 2
    # no peer-to-peer: data goes card -> host memory -> card, crossing PCIe twice
    return "host", ic.pcie_gbs * 1e9 / 4


def collective_time_s(gpu: Gpu, group: int, nbytes: float, eff: Efficiencies,
                      op: Collective = "all_reduce") -> float:
    """Seconds for one collective of `nbytes` (per rank) over `group` GPUs; 0 for a group of one."""
    if group <= 1 or nbytes <= 0:
        return 0.0
    kind, uni = link(gpu, group)
    factor = 2 * (group - 1) / group if op == "all_reduce" else (group - 1) / group
    latency = {"nvlink": eff.allreduce_latency_nvlink_s, "pcie": eff.allreduce_latency_pcie_s,
               "host": eff.allreduce_latency_host_s}[kind]
    return latency + nbytes * factor / (uni * eff.collective_bandwidth)
