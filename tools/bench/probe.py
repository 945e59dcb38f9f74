"""`sizer-agent probe`: what hardware is here — GPUs through NVML, plus host CPU, memory and disks."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel

from sizer_agent.tools.bench.host import HostInfo, probe_host
from sizer_agent.tools.bench.nvml import NvmlInventory, probe_gpus


class ProbeResult(BaseModel):
    kind: str = "probe"
    schema_version: int = 1
    taken_at: str
    nvml: NvmlInventory
    host: HostInfo


def probe() -> ProbeResult:
    """Never raises for missing hardware: without a driver, `nvml.available` is False with the reason."""
    return ProbeResult(
        taken_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), nvml=probe_gpus(), host=probe_host()
    )
