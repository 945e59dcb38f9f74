"""Size a cluster: N nodes or racks of a catalogue offer for a training run or a serving load.

Training: tokens/s per chip, scaling efficiency, MFU and goodput at each chip count (default 8, 256, 1,024 and
4,096: the "scaling tax" of seed 003), on the offer's fabric (tools/perf/cluster_training.py).
Inference: the best expert/tensor/pipeline layout on the whole rack or cluster, its per-GPU memory and output
tokens/s per chip at the SLA, with the hourly cost and tokens per euro (tools/perf/cluster_serving.py).
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.catalog.models import Catalog, Offer
from sizer_agent.tools.costs import costs, power_w, purchase
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.perf.cluster_serving import ClusterServingEstimate, best_layouts
from sizer_agent.tools.perf.cluster_training import (
    MTBF_GPU_HOURS,
    ClusterTrainingRequest,
    ScalingPoint,
    TrainShape,
    scaling_curve,
)
from sizer_agent.tools.perf.fabric import fabric_for
from sizer_agent.tools.quantization import KV_DTYPE_BYTES, QUANTIZATION_CHOICES, weight_format

MAX_UNITS = 1024  # a search bound, not a limit of the model
DEFAULT_COUNTS = [8, 256, 1024, 4096]


class ClusterRequest(BaseModel):
    """A cluster question: which N units of an offer, and what they do."""

    model: str = Field(description="bundled model id, local path or Hugging Face id, e.g. deepseek-v3")
    mode: Literal["inference", "training"] = "inference"
    offers: list[str] = Field(default_factory=list, description="catalogue offer ids (default: every node and "
                              "rack offer of the CUDA and ROCm stacks)")
    nodes: int | None = Field(None, ge=1, le=MAX_UNITS, description="units of each offer (nodes, racks)")
    gpus: int | None = Field(None, ge=1, le=1_000_000, description="GPUs asked for: rounded up to whole units")
    # inference
    input_len: int = Field(2048, ge=1, le=1_048_576)
    output_len: int = Field(512, ge=1, le=1_048_576)
    slo_tpot_ms: float | None = Field(50.0, gt=0, description="time per output token limit")
    slo_ttft_ms: float | None = Field(2000.0, gt=0, description="time to first token limit (no queueing)")
    target_tokens_per_s: float | None = Field(None, gt=0, description="output tokens/s the cluster must serve: "
                                              "sizes the number of units")
    quantization: str | None = Field(None, description="weight format (default: the checkpoint's)")
    kv_cache_dtype: Literal["fp8", "bf16"] = "fp8"
    # training
    chip_counts: list[int] = Field(default_factory=lambda: list(DEFAULT_COUNTS))
    global_batch: int = Field(1024, ge=1, description="sequences per optimizer step")
    seq_len: int = Field(8192, ge=1, le=1_048_576)
    precision: str = Field("fp8", description="GEMM precision: bf16, fp8 or fp4")
    lora: bool = False
    batch_policy: Literal["fixed", "per_chip"] = "fixed"
    checkpoint_interval_min: float = Field(30.0, gt=0)
    mtbf_gpu_hours: float = Field(MTBF_GPU_HOURS, gt=0)
    tokens: int | None = Field(None, ge=1, description="training: the tokens the whole job processes (the dataset "
                               "times its epochs): each count gets the job's hours")
    deadline_hours: float | None = Field(None, gt=0, description="training: the job must end within this: each "
                                         "offer names the smallest count that makes it")
    rented: bool = Field(False, description="training: the chips are rented by the hour: the count that ends the job "
                         "in time is priced at the cheapest cloud rate of its chip in the catalogue")
    catalog: str | None = Field(None, description="a vendor's catalogue TOML, merged over the bundled one")

    @model_validator(mode="after")
    def _check(self) -> ClusterRequest:
        if self.quantization is not None and self.quantization.lower() not in QUANTIZATION_CHOICES:
            raise ValueError(f"quantization: unknown format {self.quantization!r} "
                             f"(allowed: {', '.join(QUANTIZATION_CHOICES)})")
        if any(c < 1 for c in self.chip_counts) or not self.chip_counts:
            raise ValueError("chip_counts: at least one count, each >= 1")
        return self


class FabricSummary(BaseModel):
    kind: str
    domain: int = Field(description="GPUs per scale-up domain")
    scaleup_gbs_per_direction: float
    nic_gbps_per_gpu: float
    nic_source: str


class ClusterOption(BaseModel):
    offer_id: str
    offer_name: str
    gpu_id: str
    unit: str
    units: int
    gpus_per_unit: int
    gpus: int
    fabric: FabricSummary
    serving: ClusterServingEstimate | None = None
    alternatives: list[ClusterServingEstimate] = Field(default_factory=list)
    scaling: list[ScalingPoint] = Field(default_factory=list)
    hourly_eur: float | None = None
    deadline_chips: int | None = Field(None, description="training: the smallest count whose job ends within the "
                                       "deadline (ClusterRequest.deadline_hours), None when none of those tried does")
    rent_offer: str | None = Field(None, description="a rented job: the cloud offer of the same chip with the "
                                   "cheapest GPU-hour")
    rent_eur_per_gpu_hour: float | None = None
    eur_per_million_tokens: float | None = None
    tokens_per_eur: float | None = Field(None, description="inference: output tokens per euro at the SLA")
    tokens_per_s_per_chip_per_eur_hour: float | None = Field(
        None, description="inference: tokens/s per chip / (EUR per chip-hour)")
    notes: list[Msg] = Field(default_factory=list)

    def deadline_said(self) -> Msg | None:
        """The fewest chips that end the job in time, as every reader says it (chat, CLI, proposal); None when no
        count of the ladder does or no job was timed."""
        point = next((p for p in self.scaling if p.chips == self.deadline_chips), None)
        if point is None or point.job_hours is None:
            return None
        units = -(-point.chips // self.gpus_per_unit)
        if self.rent_eur_per_gpu_hour is not None and self.rent_offer is not None:
            # a rented job: the chips x its hours at the GPU-hour of that chip's rental
            return Msg("cluster.deadline_line_rented", offer=self.offer_name, chips=point.chips, units=units,
                       hours=point.job_hours, rental=self.rent_offer, rate=self.rent_eur_per_gpu_hour,
                       cost=point.chips * point.job_hours * self.rent_eur_per_gpu_hour)
        return Msg("cluster.deadline_line", offer=self.offer_name, chips=point.chips, units=units,
                   hours=point.job_hours)


class ClusterPlan(BaseModel):
    mode: str
    model: str
    options: list[ClusterOption]
    best: str | None = Field(description="offer id of the best option (inference: tokens per euro, else per chip)")
    notes: list[Msg]
    elapsed_ms: float


def _offers(catalog: Catalog, request: ClusterRequest) -> list[Offer]:
    if request.offers:
        return [catalog.offer(o) for o in request.offers]
    return [o for o in catalog.offers if o.unit in ("node", "rack")
            and catalog.gpu(o.gpu).software_stack in ("cuda", "rocm")]


def _units(request: ClusterRequest, per_unit: int) -> int | None:
    if request.nodes is not None:
        return request.nodes
    if request.gpus is not None:
        return max(1, math.ceil(request.gpus / per_unit))
    return None


def _fabric_summary(gpu_id: str, catalog: Catalog, per_node: int) -> FabricSummary:
    fabric = fabric_for(catalog.gpu(gpu_id), per_node)
    return FabricSummary(kind=fabric.kind, domain=fabric.domain,
                         scaleup_gbs_per_direction=fabric.scaleup_uni_bytes_s / 1e9,
                         nic_gbps_per_gpu=fabric.nic_uni_bytes_s * 8 / 1e9, nic_source=fabric.nic_source)


def _gpus_per_node(offer: Offer, catalog: Catalog) -> int:
    # an NVL72 rack is 18 compute trays of 4 GPUs; other units are one host
    return 4 if offer.unit == "rack" else offer.gpu_counts[0]


def _inference_option(request: ClusterRequest, catalog: Catalog, offer: Offer) -> ClusterOption | None:
    spec = load_model(request.model)
    gpu = catalog.gpu(offer.gpu)
    fmt = weight_format(request.quantization, spec.torch_dtype if spec.torch_dtype in ("bfloat16", "float16",
                        "float32") else "bfloat16", spec.hidden_size, spec.quantization)
    precision = "fp4" if fmt.bits <= 4.6 and gpu.peak_flops("fp4") else ("fp8" if fmt.bits <= 8.1 and
                                                                          gpu.peak_flops("fp8") else "bf16")
    per_unit = offer.gpu_counts[-1]
    per_node = _gpus_per_node(offer, catalog)
    kv_bytes = KV_DTYPE_BYTES["fp8" if request.kv_cache_dtype == "fp8" else "bfloat16"]
    fixed = _units(request, per_unit)
    notes: list[Msg] = []
    chosen: list[ClusterServingEstimate] = []
    units = fixed or 1
    while units <= (fixed or MAX_UNITS):
        layouts = best_layouts(spec, gpu, fmt, kv_bytes, units * per_unit, request.input_len, request.output_len,
                               request.slo_tpot_ms, request.slo_ttft_ms, precision, per_node)
        good = [e for e in layouts if e.sla_met]
        enough = bool(good) and (request.target_tokens_per_s is None
                                 or good[0].tokens_per_s >= request.target_tokens_per_s)
        if fixed or enough:
            chosen = good or layouts
            break
        # with no target a unit that fits nothing grows; a target grows units until the load is served
        units = units * 2 if not good and units < 8 else units + max(1, units // 8)
    if not chosen:
        return None
    serving = chosen[0]
    buy = purchase(offer, catalog, units * per_unit, units)
    watts = power_w(gpu, catalog.platform(offer.platform), units * per_unit, units)
    cost = costs(buy, catalog, watts, serving.tokens_per_s if serving.sla_met else None,
                 power_published=gpu.tdp_w is not None)
    if units > offer.max_units:
        notes.append(Msg("cluster.beyond_max_units", units=units, max_units=offer.max_units))
    if request.target_tokens_per_s is not None and serving.tokens_per_s < request.target_tokens_per_s:
        notes.append(Msg("cluster.target_missed", target=request.target_tokens_per_s, got=serving.tokens_per_s))
    notes.append(Msg("cluster.network_not_priced"))
    per_chip_hour = cost.hourly_eur / (units * per_unit) if cost.hourly_eur else None
    return ClusterOption(
        offer_id=offer.id, offer_name=offer.name, gpu_id=gpu.id, unit=offer.unit or "", units=units,
        gpus_per_unit=per_unit, gpus=units * per_unit, fabric=_fabric_summary(gpu.id, catalog, per_node),
        serving=serving, alternatives=chosen[1:4], hourly_eur=cost.hourly_eur,
        eur_per_million_tokens=cost.eur_per_million_tokens,
        tokens_per_eur=serving.tokens_per_s * 3600 / cost.hourly_eur if cost.hourly_eur and serving.sla_met else None,
        tokens_per_s_per_chip_per_eur_hour=(serving.tokens_per_s_per_chip / per_chip_hour
                                            if per_chip_hour and serving.sla_met else None),
        notes=notes)


def _training_option(request: ClusterRequest, catalog: Catalog, offer: Offer) -> ClusterOption:
    spec = load_model(request.model)
    gpu = catalog.gpu(offer.gpu)
    per_unit = offer.gpu_counts[-1]
    per_node = _gpus_per_node(offer, catalog)
    counts = list(request.chip_counts)
    fixed = _units(request, per_unit)
    if fixed is not None:
        counts = sorted(set(counts) | {fixed * per_unit}) if request.nodes is None else [fixed * per_unit]
    req = ClusterTrainingRequest(shape=TrainShape.from_spec(spec), gpu=gpu, chips=counts[0],
                                 global_batch=request.global_batch, seq_len=request.seq_len,
                                 precision=request.precision, lora=request.lora, gpus_per_node=per_node,
                                 checkpoint_interval_min=request.checkpoint_interval_min,
                                 mtbf_gpu_hours=request.mtbf_gpu_hours)
    points = scaling_curve(req, counts, request.batch_policy)
    deadline_chips = None
    if request.tokens:
        for p in points:
            e = p.estimate
            if e is not None and e.tokens_per_s_per_chip > 0:
                # the job at this count's useful rate: per-chip tokens/s x chips, less what failures and
                # checkpoints take (goodput)
                p.job_hours = request.tokens / (e.tokens_per_s_per_chip * p.chips * (e.goodput or 1.0)) / 3600
                if deadline_chips is None and request.deadline_hours and p.job_hours <= request.deadline_hours:
                    deadline_chips = p.chips
    largest = max(counts)
    units = math.ceil(largest / per_unit)
    notes = [Msg("cluster.training_fit", efficiency=req.compute_efficiency, overhead_s=req.step_overhead_s)]
    if units > offer.max_units:
        notes.append(Msg("cluster.beyond_max_units", units=units, max_units=offer.max_units))
    rental = _cheapest_rental(catalog, gpu.id) if request.rented else None
    return ClusterOption(offer_id=offer.id, offer_name=offer.name, gpu_id=gpu.id, unit=offer.unit or "",
                         units=units, gpus_per_unit=per_unit, gpus=units * per_unit,
                         fabric=_fabric_summary(gpu.id, catalog, per_node), scaling=points, notes=notes,
                         deadline_chips=deadline_chips, rent_offer=rental[0] if rental else None,
                         rent_eur_per_gpu_hour=rental[1] if rental else None)


def _cheapest_rental(catalog: Catalog, gpu_id: str) -> tuple[str, float] | None:
    """The cloud offer of a chip with the cheapest GPU-hour, in euros: (its name, the rate); None when none rents it."""
    rate = catalog.assumptions.eur_per_usd.value
    rentals = [(o.name, hourly) for o in catalog.offers if o.kind == "cloud" and o.gpu == gpu_id
               and (hourly := o.hourly_eur_per_gpu_value(rate)) is not None]
    return min(rentals, key=lambda r: r[1]) if rentals else None


def size_cluster(request: ClusterRequest) -> ClusterPlan:
    """Size a multi-node cluster (N nodes or racks) for a model: training tokens/s per chip, scaling
    efficiency, MFU and goodput as the chip count grows (8 to 4,096), or serving throughput per chip at the SLA
    with the expert/tensor/pipeline layout and per-GPU memory, on each node or rack offer's real fabric."""
    start = time.perf_counter()
    catalog = load_catalog(None if request.catalog is None else Path(request.catalog))
    offers = _offers(catalog, request)
    if not offers:
        raise InputError("offers", "no node or rack offer in the catalogue", "catalogue offer ids of unit node/rack")
    options: list[ClusterOption] = []
    for offer in offers:
        gpu = catalog.gpu(offer.gpu)
        if request.mode == "training" and gpu.peak_flops(request.precision) is None:
            continue
        if request.mode == "inference":
            option = _inference_option(request, catalog, offer)
            if option is not None:
                options.append(option)
        else:
            options.append(_training_option(request, catalog, offer))
    if request.mode == "inference":
        options.sort(key=lambda o: (o.serving is None or not o.serving.sla_met, -(o.tokens_per_eur or 0.0),
                                    -(o.serving.tokens_per_s_per_chip if o.serving else 0.0)))
    elif request.deadline_hours and request.tokens:
        # a job with a deadline: the offer that makes it with the fewest chips first
        options.sort(key=lambda o: (o.deadline_chips is None, o.deadline_chips or 0,
                                    -max((p.estimate.tokens_per_s_per_chip for p in o.scaling if p.estimate),
                                         default=0.0)))
    else:
        options.sort(key=lambda o: -max((p.estimate.tokens_per_s_per_chip for p in o.scaling if p.estimate),
                                        default=0.0))
    notes = [Msg("cluster.fabric_method")]
    notes.append(Msg("cluster.serving_method") if request.mode == "inference" else Msg("cluster.training_method"))
    best = options[0].offer_id if options else None
    return ClusterPlan(mode=request.mode, model=request.model, options=options, best=best, notes=notes,
                       elapsed_ms=(time.perf_counter() - start) * 1000)
