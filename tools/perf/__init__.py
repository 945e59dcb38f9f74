"""Performance model: roofline serving (TTFT, TPOT, throughput, SLA search) and training step time."""

from sizer_agent.tools.perf.efficiency import DEFAULT_EFFICIENCIES, Efficiencies
from sizer_agent.tools.perf.serving import (
    LoadPoint,
    RooflinePoint,
    ServingSetup,
    SlaResult,
    max_concurrency_memory,
    predict_load,
    sla_search,
)
from sizer_agent.tools.perf.shape import ModelShape
from sizer_agent.tools.perf.training import TrainingEstimate, TrainingSetup, estimate_training

__all__ = [
    "DEFAULT_EFFICIENCIES",
    "Efficiencies",
    "LoadPoint",
    "ModelShape",
    "RooflinePoint",
    "ServingSetup",
    "SlaResult",
    "TrainingEstimate",
    "TrainingSetup",
    "estimate_training",
    "max_concurrency_memory",
    "predict_load",
    "sla_search",
]
