"""Collective communication time, nccl-tests convention.

algbw = bytes / time; all-reduce busbw = algbw x 2(n-1)/n; all-gather / reduce-scatter busbw = algbw x (n-1)/n.
busbw is compared with the unidirectional link figure, so time = bytes x factor / busbw + latency.
"""

from __future__ import annotations

import math
from typing import Literal

from sizer_agent.tools.catalog.models import Gpu
from sizer_agent.tools.perf.efficiency import Efficiencies
from sizer_agent.tools.perf.fabric import Fabric

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


# --- multi-node collectives on a Fabric (scale-up domain + NICs), nccl-tests bus-bandwidth convention ---------
# busbw = algbw x factor; algbw = buffer bytes / time. Factors (nccl-tests doc/PERFORMANCE.md): all-reduce
# 2(n-1)/n, all-gather / reduce-scatter / all-to-all (n-1)/n, send/recv 1.
FabricOp = Literal["all_reduce", "all_gather", "reduce_scatter", "all_to_all", "send_recv"]
BUS_FACTOR_SCALE = {"all_reduce": 2.0, "all_gather": 1.0, "reduce_scatter": 1.0, "all_to_all": 1.0}
# Fraction of the per-direction link rate that busbw reaches for large messages (assumptions, stated):
# 0.80 on NVLink/ICI (ring busbw below the link rate; the catalogue's measured GB300 NVL72 all-reduce reaches
# 919 GB/s busbw over 72 GPUs thanks to in-switch reduction, so 0.8 is conservative there), 0.85 of a NIC's line
# rate across InfiniBand/RoCE (protocol and PCIe overheads).
FABRIC_BUSBW_FRACTION = {"network": 0.85}
SCALEUP_BUSBW_FRACTION = 0.80
# Per-collective start-up latency (engineering estimates, stated): ~10 us inside NVLink/ICI, ~25 us across
# InfiniBand/RoCE, grown with log2 of the group (tree/ring start-up steps of NCCL at scale).
LATENCY_S = {"scaleup": 10e-6, "network": 25e-6}


def fabric_collective_time_s(fabric: Fabric, op: FabricOp, group: int, nbytes: float, span: int | None = None,
                             calls: int = 1) -> float:
    """Seconds for `calls` collectives of an `nbytes` buffer over `group` GPUs laid out on `span` GPUs.

    `span` (default `group`) is how far apart the group's GPUs are: a data-parallel group strided by
    TP x PP spans the whole job and crosses the network even when it has 2 members.
    """
    if group <= 1 or nbytes <= 0:
        return 0.0
    span = span or group
    if op == "all_to_all" and span > fabric.domain:
        # every rank sends 1/n of its buffer to each peer: the peers in other domains through its own NIC,
        # those in its domain over the fabric, both at once (DeepEP's NVLink + RDMA dispatch)
        local = max(1, min(group, group * fabric.domain // span))
        remote = nbytes * (group - local) / group / (fabric.nic_uni_bytes_s * FABRIC_BUSBW_FRACTION["network"])
        near = nbytes * (local - 1) / group / (fabric.scaleup_uni_bytes_s * SCALEUP_BUSBW_FRACTION)
        return calls * (LATENCY_S["network"] * max(1.0, math.log2(group)) + max(remote, near))
    kind, ceiling = fabric.group_bandwidth(group, span)
    fraction = FABRIC_BUSBW_FRACTION.get(kind, SCALEUP_BUSBW_FRACTION)
    factor = 1.0 if op == "send_recv" else BUS_FACTOR_SCALE[op] * (group - 1) / group
    latency = LATENCY_S["network" if kind == "network" else "scaleup"] * max(1.0, math.log2(group))
    return calls * (latency + nbytes * factor / (ceiling * fraction))
