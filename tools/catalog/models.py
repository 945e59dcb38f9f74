"""Pydantic models of the hardware catalogue: GPUs, platforms, offers and cost assumptions.

Every outside figure is a `Figure`: its value, the keys of the sources it comes from (resolved against the
catalogue's `[sources]` tables) and an optional note; `derived` marks a value computed by us, not stated.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sizer_agent.tools.errors import InputError

Precision = Literal["fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4"]
PRECISIONS: tuple[str, ...] = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4")
MIB = 2**20


class _Strict(BaseModel):
    # no catalogue figure is infinite or NaN (TOML spells both): a price or a FLOP/s of inf is a mistake
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class _Figure(_Strict):
    src: list[str] = Field(min_length=1, description="keys of [sources]")
    note: str | None = None
    derived: bool = False


class NumFigure(_Figure):
    value: float = Field(ge=0)


class PositiveFigure(_Figure):
    """A rate, a size or a duration the cost and speed models divide by: > 0."""

    value: float = Field(gt=0)


class FractionFigure(_Figure):
    """A share of the time or of a whole, in (0, 1]."""

    value: float = Field(gt=0, le=1)


class PueFigure(_Figure):
    """Power usage effectiveness: facility power / IT power, >= 1 by definition (no site is below 1)."""

    value: float = Field(ge=1, le=10)


class IntFigure(_Figure):
    value: int = Field(ge=0)


class PositiveIntFigure(_Figure):
    value: int = Field(gt=0)


class TextFigure(_Figure):
    value: str = Field(min_length=1)


class BoolFigure(_Figure):
    value: bool


GraphicsClass = Literal["geforce", "rtx-pro", "vgpu", "none"]


class GraphicsFigure(_Figure):
    # geforce: display outputs, consumer drivers; rtx-pro: outputs + certified (ISV) drivers;
    # vgpu: graphics only through NVIDIA vGPU software (licensed); none: compute only.
    value: GraphicsClass


class Interconnect(_Strict):
    kind: Literal["pcie", "nvlink", "infinity-fabric", "ici", "neuronlink"]
    pcie_gen: int = Field(ge=3)
    pcie_gbs: float = Field(gt=0, description="host link, bidirectional GB/s")
    scaleup_gbs: float = Field(ge=0, description="GPU fabric per GPU, bidirectional GB/s (0 = none)")
    scaleup_domain: int = Field(ge=1, description="GPUs joined by the fabric (1 = none)")
    p2p: bool = Field(description="PCIe peer-to-peer between cards")
    src: list[str] = Field(min_length=1)
    note: str | None = None


Stack = Literal["cuda", "rocm", "xla", "neuron"]
STACKS: tuple[str, ...] = ("cuda", "rocm", "xla", "neuron")
# What a team that asks for "GPUs" runs today: CUDA or ROCm builds of PyTorch/vLLM. TPUs (XLA) and Trainium
# (Neuron) need their own engines and are rented only, so they are compared when asked for, not by default.
DEFAULT_STACKS: tuple[str, ...] = ("cuda", "rocm")
_VENDOR_STACK = {"NVIDIA": "cuda", "AMD": "rocm"}


class Gpu(_Strict):
    id: str = Field(min_length=1)
    name: str
    vendor: str
    architecture: str
    # cloud-only: a chip rented by the hour on its vendor's cloud (TPU, Trainium), never sold as a card
    form_factor: Literal["pcie", "sxm", "oam", "superchip", "cloud-only"]
    stack: Stack | None = Field(None, description="software stack; derived from the vendor when absent "
                                                  "(NVIDIA: cuda, AMD: rocm)")
    engines: TextFigure | None = Field(None, description="serving/training engines that run on it, as facts")
    matrix_tile: PositiveIntFigure | None = Field(
        None, description="width of the systolic matrix unit (TPU MXU, Trainium Tensor Engine) that a model's "
                          "matrix dimensions are padded to; None where padding is negligible (GPU MMA tiles)")
    pod_size: PositiveIntFigure | None = Field(None, description="chips in the largest scale-up domain sold "
                                                                 "(TPU pod, Trn UltraServer)")
    unserved_weight_formats: TextFigure | None = Field(
        None, description="weight formats its engines refuse, comma-separated (e.g. 'mxfp4' on Trainium2: "
                          "vLLM Neuron runs gpt-oss in bf16 there)")
    kv_head_alignment: PositiveIntFigure | None = Field(
        None, description="the serving engine stores each KV head padded to a multiple of this many elements "
                          "(vLLM on TPU: 128 lanes); None where heads are stored at their size")
    memory_gb: PositiveFigure
    usable_memory_mib: PositiveIntFigure
    memory_type: TextFigure
    bandwidth_gbs: PositiveFigure
    tdp_w: PositiveFigure | None = Field(None, description="board power; None when the vendor publishes none "
                                                           "(TPU, Trainium: power is in the hourly price)")
    peak_tflops: dict[Precision, PositiveFigure]  # a precision the GPU lacks is left out, not 0
    interconnect: Interconnect
    ecc: BoolFigure
    display_outputs: IntFigure
    graphics: GraphicsFigure
    notes: list[str] = []
    conflicts: list[str] = []
    indicative_price: TextFigure | None = None

    @property
    def software_stack(self) -> str:
        return self.stack or _VENDOR_STACK.get(self.vendor, "cuda")

    @property
    def kv_alignment(self) -> int | None:
        """Elements each KV head is padded to by its serving engine (memory and speed both use it)."""
        return int(self.kv_head_alignment.value) if self.kv_head_alignment else None

    def serves_weight_format(self, name: str) -> bool:
        if self.unserved_weight_formats is None:
            return True
        refused = {f.strip().lower() for f in self.unserved_weight_formats.value.split(",")}
        return name.lower() not in refused

    @property
    def tdp_value_w(self) -> float | None:
        return None if self.tdp_w is None else self.tdp_w.value

    @property
    def memory_bytes(self) -> int:
        """Usable memory as the driver reports it, in bytes."""
        return self.usable_memory_mib.value * MIB

    @property
    def memory_usable_bytes(self) -> int:
        """Alias used by the memory estimator (`--gpu ID`)."""
        return self.memory_bytes

    @property
    def bandwidth_bytes_s(self) -> float:
        return self.bandwidth_gbs.value * 1e9

    def peak_flops(self, precision: str) -> float | None:
        """Dense peak in FLOP/s for a compute precision; None when the GPU has no such unit."""
        figure = self.peak_tflops.get(precision)  # type: ignore[call-overload]
        return None if figure is None else figure.value * 1e12

    @property
    def supported_precisions(self) -> list[str]:
        return [p for p in PRECISIONS if p in self.peak_tflops]


class Platform(_Strict):
    id: str = Field(min_length=1)
    name: str
    kind: Literal["workstation", "server", "rack", "cloud"]
    gpu: str = Field(description="catalogue GPU id, or '*' for any")
    max_gpus: PositiveIntFigure
    scaleup_domain: int = Field(ge=1)
    cpu: TextFigure
    host_ram_gb: NumFigure | None = None
    ecc_ram: BoolFigure | None = None
    pcie_lanes: IntFigure | None = None
    psu_w: NumFigure | None = None
    host_power_w: NumFigure | None = None
    system_power_w: NumFigure | None = None
    cooling: TextFigure | None = None
    networking: TextFigure | None = None
    storage: TextFigure | None = None
    nvme_tb: NumFigure | None = None
    storage_write_gbs: PositiveFigure | None = Field(
        None, description="sequential write GB/s of the local NVMe that takes checkpoints (vendor peak)")
    rack_units: IntFigure | None = Field(None, description="height in rack units (U) of one unit")
    max_gpu_board_w: PositiveFigure | None = Field(
        None, description="highest board power (W) of one card its slots, power and cooling are built for; a "
                          "card above it is refused (a 2U server that takes 350-400 W cards, not 600 W ones); "
                          "None when not stated")
    measured_allreduce_busbw_gbs: PositiveFigure | None = None
    notes: list[str] = []
    conflicts: list[str] = []


UnitKind = Literal["workstation", "server", "node", "rack", "cloud"]
UNIT_KINDS: tuple[str, ...] = ("workstation", "server", "node", "rack", "cloud")


class Offer(_Strict):
    """What a customer can buy or rent, as it is sold: whole units of `gpu_counts[i]` GPUs each.

    unit: workstation (a tower), server (rack server with PCIe cards), node (HGX/DGX board of SXM GPUs),
    rack (NVL72), cloud (an instance). A configuration is `units` x `gpus per unit`, `units` <= max_units
    (nodes joined by InfiniBand/RoCE, several cloud instances); a rack is never sold by the GPU.
    """

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    kind: Literal["purchase", "cloud", "quote"] = Field(
        description="purchase: priced to buy; cloud: priced per GPU-hour; quote: no public price")
    platform: str = Field(min_length=1)
    gpu: str = Field(min_length=1)
    unit: UnitKind | None = Field(None, description="how it is sold; derived from the platform when absent")
    gpu_counts: list[Annotated[int, Field(ge=1)]] = Field(
        min_length=1, description="GPUs one unit holds, per configuration sold (instance sizes for cloud)")
    max_units: int = Field(1, ge=1, description="whole units that can be joined for one job")
    price_eur: PositiveFigure | None = Field(None, description="purchase: one unit with gpu_counts[0] GPUs")
    price_usd: PositiveFigure | None = Field(None, description="the same in US dollars, converted at eur_per_usd")
    extra_gpu_eur: PositiveFigure | None = Field(None, description="purchase: each GPU beyond gpu_counts[0] in a unit")
    extra_gpu_usd: PositiveFigure | None = None
    price_kind: Literal["list", "estimate"] = Field(
        "list", description="list: the vendor's own price; estimate: a market price from public sources")
    price_date: str | None = Field(None, pattern=r"^\d{4}(-\d{2}(-\d{2})?)?$",
                                   description="when the price was observed (ISO year, month or day)")
    hourly_usd_per_gpu: PositiveFigure | None = None
    hourly_eur_per_gpu: PositiveFigure | None = None
    card_eur: PositiveFigure | None = Field(
        None, description="quote: one GPU card alone at its public price, a lower bound of the server's price")
    card_usd: PositiveFigure | None = None
    to_confirm: bool = Field(False, description="not listed by the vendor as such (extra cards): to confirm")

    @model_validator(mode="before")
    @classmethod
    def _older_names(cls, data: Any) -> Any:
        # catalogues written before units existed: "reference" was an unpriced platform (now "quote")
        if isinstance(data, dict) and data.get("kind") == "reference":
            data = {**data, "kind": "quote"}
        return data

    @model_validator(mode="after")
    def _price_matches_kind(self) -> Offer:
        if self.kind == "purchase" and self.price_eur is None and self.price_usd is None:
            raise ValueError("price_eur or price_usd: required for a purchase offer")
        if (self.card_eur is not None or self.card_usd is not None) and self.kind != "quote":
            raise ValueError("card_eur/card_usd: only for a quote offer (a priced offer has its own price)")
        if self.kind == "cloud" and self.hourly_usd_per_gpu is None and self.hourly_eur_per_gpu is None:
            raise ValueError("hourly_eur_per_gpu or hourly_usd_per_gpu: required for a cloud offer")
        if self.unit is not None and (self.kind == "cloud") != (self.unit == "cloud"):
            raise ValueError("unit: a cloud offer is sold as cloud instances, and only a cloud offer is")
        return self

    def unit_price_eur(self, gpus_in_unit: int, eur_per_usd: float) -> float | None:
        """Purchase price of one unit holding `gpus_in_unit` GPUs: base configuration + extra cards."""
        base = _eur(self.price_eur, self.price_usd, eur_per_usd)
        if base is None:
            return None
        extra = gpus_in_unit - self.gpu_counts[0]
        if extra <= 0:
            return base
        card = _eur(self.extra_gpu_eur, self.extra_gpu_usd, eur_per_usd)
        return None if card is None else base + extra * card

    def card_price_eur(self, eur_per_usd: float) -> float | None:
        return _eur(self.card_eur, self.card_usd, eur_per_usd)

    def hourly_eur_per_gpu_value(self, eur_per_usd: float) -> float | None:
        return _eur(self.hourly_eur_per_gpu, self.hourly_usd_per_gpu, eur_per_usd)

    @property
    def price_sources(self) -> list[str]:
        figures = (self.price_eur, self.price_usd, self.extra_gpu_eur, self.extra_gpu_usd, self.hourly_eur_per_gpu,
                   self.hourly_usd_per_gpu, self.card_eur, self.card_usd)
        return [key for f in figures if f is not None for key in f.src]


def _eur(eur: PositiveFigure | None, usd: PositiveFigure | None, eur_per_usd: float) -> float | None:
    if eur is not None:
        return eur.value
    return None if usd is None else usd.value * eur_per_usd


class Assumptions(_Strict):
    amortisation_years: PositiveFigure  # the hourly cost divides the price by it
    energy_eur_per_kwh: NumFigure
    pue: PueFigure
    eur_per_usd: PositiveFigure
    utilisation: FractionFigure  # the cost per token divides by it


class Catalog(_Strict):
    gpus: list[Gpu]
    platforms: list[Platform]
    offers: list[Offer]
    assumptions: Assumptions
    sources: dict[str, str]

    @model_validator(mode="after")
    def _references_resolve(self) -> Catalog:
        gpu_ids = {g.id for g in self.gpus}
        platform_ids = {p.id for p in self.platforms}
        for kind, ids in (("gpus", [g.id for g in self.gpus]), ("platforms", [p.id for p in self.platforms]),
                          ("offers", [o.id for o in self.offers])):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                raise ValueError(f"{kind}: duplicate ids {dupes}")
        for offer in self.offers:
            if offer.gpu not in gpu_ids:
                raise ValueError(f"offers[{offer.id}].gpu: unknown GPU id {offer.gpu!r}")
            if offer.platform not in platform_ids:
                raise ValueError(f"offers[{offer.id}].platform: unknown platform id {offer.platform!r}")
        for offer in self.offers:
            if offer.unit is None:
                raise ValueError(f"offers[{offer.id}].unit: missing (workstation, server, node, rack or cloud)")
        for platform in self.platforms:
            if platform.gpu != "*" and platform.gpu not in gpu_ids:
                raise ValueError(f"platforms[{platform.id}].gpu: unknown GPU id {platform.gpu!r}")
        missing = sorted(key for key in _source_keys(self) if key not in self.sources)
        if missing:
            raise ValueError(f"sources: keys cited but not defined in any [sources] table: {missing}")
        return self

    def gpu(self, gpu_id: str) -> Gpu:
        for gpu in self.gpus:
            if gpu.id == gpu_id:
                return gpu
        raise InputError("gpu", f"unknown GPU id {gpu_id!r}", ", ".join(g.id for g in self.gpus))

    def platform(self, platform_id: str) -> Platform:
        for platform in self.platforms:
            if platform.id == platform_id:
                return platform
        raise InputError("platform", f"unknown platform id {platform_id!r}",
                         ", ".join(p.id for p in self.platforms))

    def offer(self, offer_id: str) -> Offer:
        for offer in self.offers:
            if offer.id == offer_id:
                return offer
        raise InputError("offer", f"unknown offer id {offer_id!r}", ", ".join(o.id for o in self.offers))


def _source_keys(catalog: Catalog) -> set[str]:
    keys: set[str] = set()

    def walk(model: BaseModel) -> None:
        for name in type(model).model_fields:
            value = getattr(model, name)
            if isinstance(value, _Figure | Interconnect):
                keys.update(value.src)
            elif isinstance(value, dict):
                for item in value.values():
                    if isinstance(item, _Figure):
                        keys.update(item.src)

    for item in (*catalog.gpus, *catalog.platforms, *catalog.offers, catalog.assumptions):
        walk(item)
    return keys
