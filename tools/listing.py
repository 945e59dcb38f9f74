"""What the tools know about: the bundled models and the catalogue offers, as tool results.

The same rows `sizer-agent models --json` prints, and one row per catalogue offer with its price, so that
an assistant can name a model or an offer the other tools accept before calling them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field


class ModelQuery(BaseModel):
    """Which bundled models to list."""

    search: str | None = Field(None, description="keep models whose id, alias or title contains this text "
                                                 "(case-insensitive); all when absent")


class ModelRow(BaseModel):
    id: str = Field(description="the Hub id; accepted as `model` by estimate_memory and recommend")
    aliases: list[str] = Field(description="short names accepted as `model` too")
    title: str
    revision: str | None = Field(description="Hub commit the bundled config is tied to (None: unpinned)")
    architecture: str
    params_total: int
    params_active: int = Field(description="per token: differs from the total for MoE, and leaves out the "
                                           "input embeddings")
    max_position_embeddings: int
    provenance: str


class ModelList(BaseModel):
    models: list[ModelRow]


def list_models(query: ModelQuery) -> ModelList:
    """List the models bundled with the tools (usable offline as `model` by estimate_memory and recommend),
    with parameter counts, context length and provenance. Any other Hub id or config.json works too."""
    from sizer_agent.tools.model_loader import load_model, registry_entries

    needle = (query.search or "").casefold()
    rows: list[ModelRow] = []
    for entry in registry_entries():
        text = " ".join([entry["id"], entry["title"], *entry["aliases"]]).casefold()
        if needle and needle not in text:
            continue
        spec = load_model(entry["id"])
        rows.append(ModelRow(
            id=entry["id"], aliases=entry["aliases"], title=entry["title"], revision=entry["revision"] or None,
            architecture=spec.architecture, params_total=spec.params_total, params_active=spec.params_active,
            max_position_embeddings=spec.max_position_embeddings, provenance=entry["provenance"],
        ))
    return ModelList(models=rows)


class OfferQuery(BaseModel):
    """Which catalogue offers to list."""

    kind: Literal["purchase", "cloud", "quote"] | None = Field(
        None, description="purchase: priced to buy; cloud: priced per GPU-hour; quote: no public price")
    gpu: str | None = Field(None, description="keep offers of this catalogue GPU id")
    catalog: str | None = Field(None, description="a vendor's own catalogue TOML, merged over the bundled one")


class OfferRow(BaseModel):
    id: str
    name: str
    kind: str
    unit: str | None = Field(description="how it is sold: workstation, server, node, rack or cloud")
    gpu: str = Field(description="catalogue GPU id")
    gpu_name: str
    gpu_memory_gb: float
    gpu_counts: list[int] = Field(description="GPUs one unit holds, per configuration sold")
    max_units: int
    platform: str
    price_eur: float | None = Field(description="purchase: one unit with gpu_counts[0] GPUs, in euros")
    hourly_eur_per_gpu: float | None = Field(description="cloud: per GPU-hour, in euros")
    card_eur: float | None = Field(description="quote: one GPU card alone, a lower bound of the server's price")
    price_kind: str
    price_date: str | None
    sources: list[str] = Field(description="source URLs of the prices")


class OfferList(BaseModel):
    eur_per_usd: float = Field(description="the exchange rate the euro prices were converted at")
    offers: list[OfferRow]


def list_offers(query: OfferQuery) -> OfferList:
    """List the catalogue offers that recommend ranks: what a customer can buy, rent or ask a quote for, with
    GPU, configurations sold, price in euros (converted at the catalogue's rate), price date and sources."""
    from sizer_agent.tools.catalog import load_catalog

    catalog = load_catalog(None if query.catalog is None else Path(query.catalog))
    if query.gpu is not None:
        catalog.gpu(query.gpu)  # an unknown id is the caller's error, named with the ids allowed
    rate = catalog.assumptions.eur_per_usd.value
    rows: list[OfferRow] = []
    for offer in catalog.offers:
        if (query.kind is not None and offer.kind != query.kind) or (query.gpu is not None and offer.gpu != query.gpu):
            continue
        gpu = catalog.gpu(offer.gpu)
        rows.append(OfferRow(
            id=offer.id, name=offer.name, kind=offer.kind, unit=offer.unit, gpu=offer.gpu, gpu_name=gpu.name,
            gpu_memory_gb=gpu.memory_gb.value, gpu_counts=list(offer.gpu_counts), max_units=offer.max_units,
            platform=offer.platform, price_eur=offer.unit_price_eur(offer.gpu_counts[0], rate),
            hourly_eur_per_gpu=offer.hourly_eur_per_gpu_value(rate), card_eur=offer.card_price_eur(rate),
            price_kind=offer.price_kind, price_date=offer.price_date,
            sources=[catalog.sources[key] for key in offer.price_sources if key in catalog.sources],
        ))
    return OfferList(eur_per_usd=rate, offers=rows)
