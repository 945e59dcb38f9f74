"""What a configuration costs to buy, rent, power and run (docs/design.md §5, cost model).

- Price: a purchase is whole units (`Offer.unit_price_eur` per unit); a rental is GPUs x hourly price.
- Power: GPUs at their TDP plus the host per unit (a node's system power when the platform states it).
- Hourly cost: rented = the rental; owned = price / (amortisation years x 8 760 h x utilisation) + energy
  (power x EUR/kWh x PUE). Cost per million output tokens = hourly cost / (tokens/s x 3 600) x 10^6.
- TCO over the amortisation period, the same period for both, so that a purchase budget and a rental are
  never compared silently: owned = price + energy x years; rented = hourly x 8 760 x years x utilisation.
The assumptions (period, utilisation, EUR/kWh, PUE, EUR/USD) come from the catalogue with their sources.
"""

from __future__ import annotations

from sizer_agent.tools.catalog.models import Catalog, Gpu, Offer, Platform
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.plan import Costs, Purchase

HOURS_PER_YEAR = 8760
DEFAULT_HOST_W = 350.0  # per 8 GPUs when a platform states no host power (dual-socket host class; assumption)


def power_w(gpu: Gpu, platform: Platform, num_gpus: int, units: int) -> float:
    """Whole configuration at full load: the node's stated system power, else GPUs at TDP + host."""
    if platform.system_power_w is not None and platform.max_gpus.value and num_gpus == units * platform.max_gpus.value:
        return platform.system_power_w.value * units
    host = platform.host_power_w.value if platform.host_power_w else DEFAULT_HOST_W * max(1, num_gpus // 8)
    # a chip without a published TDP (TPU, Trainium) is rented: its power is in the hourly price
    return (gpu.tdp_value_w or 0.0) * num_gpus + host * units


def purchase(offer: Offer, catalog: Catalog, num_gpus: int, units: int) -> Purchase:
    """How this configuration is bought: whole units, priced (list or estimate), rented, or on quote."""
    per_unit = num_gpus // units
    rate = catalog.assumptions.eur_per_usd.value
    if offer.unit is None:  # the catalogue loader fills it from the platform
        raise InputError(f"offers[{offer.id}].unit", "missing", "workstation, server, node, rack, cloud")
    if offer.kind == "cloud":
        hourly = offer.hourly_eur_per_gpu_value(rate)
        return Purchase(how="rent", unit=offer.unit, units=units, gpus_per_unit=per_unit, price_kind="list",
                        hourly_eur=None if hourly is None else hourly * num_gpus, price_date=offer.price_date,
                        sources=offer.price_sources)
    if offer.kind == "quote":
        card = offer.card_price_eur(rate)
        return Purchase(how="quote", unit=offer.unit, units=units, gpus_per_unit=per_unit, price_kind=None,
                        cards_eur=None if card is None else card * num_gpus,
                        price_date=offer.price_date if card is not None else None, sources=offer.price_sources)
    unit_price = offer.unit_price_eur(per_unit, rate)
    return Purchase(how="buy", unit=offer.unit, units=units, gpus_per_unit=per_unit, price_kind=offer.price_kind,
                    price_eur=None if unit_price is None else unit_price * units, price_date=offer.price_date,
                    to_confirm=offer.to_confirm, sources=offer.price_sources)


def costs(buy: Purchase, catalog: Catalog, watts: float, tokens_per_s: float | None = None,
          epoch_hours: float | None = None, serving: bool = True, power_published: bool = True,
          job_hours: float | None = None, per_job: bool = False, runs_per_year: int | None = None) -> Costs:
    """Hourly cost, energy, TCO over the amortisation period, and cost per unit of work. `power_published`:
    False when `watts` lacks the accelerators (no published TDP), so no tokens per kW is stated."""
    a = catalog.assumptions
    years, utilisation = a.amortisation_years.value, a.utilisation.value
    hours = HOURS_PER_YEAR * utilisation
    kwh_per_year = watts / 1000 * hours * a.pue.value
    owned = buy.how == "buy"
    energy_eur = kwh_per_year * a.energy_eur_per_kwh.value if owned else 0.0
    hourly: float | None = None
    tco: float | None = None
    if buy.how == "rent" and buy.hourly_eur is not None:
        hourly = buy.hourly_eur
        tco = hourly * hours * years
        if runs_per_year and job_hours:
            # a recurring job rented run by run ("2 million tickets a month"): only its hours are paid, never
            # more than renting around the clock
            tco = min(tco, hourly * job_hours * runs_per_year * years)
    elif owned and buy.price_eur is not None:
        energy_per_hour = watts / 1000 * a.energy_eur_per_kwh.value * a.pue.value
        hourly = buy.price_eur / (years * hours) + energy_per_hour
        tco = buy.price_eur + energy_eur * years
    per_million = None
    if hourly is not None and tokens_per_s and serving:
        per_million = hourly / (tokens_per_s * 3600) * 1e6
    per_epoch = hourly * epoch_hours if hourly is not None and epoch_hours is not None else None
    return Costs(
        power_w=watts, amortisation_years=years, utilisation=utilisation, eur_per_kwh=a.energy_eur_per_kwh.value,
        pue=a.pue.value, energy_kwh_per_year=kwh_per_year, energy_eur_per_year=energy_eur, hourly_eur=hourly,
        tco_eur=tco, eur_per_million_tokens=per_million, eur_per_epoch=per_epoch, job_hours=job_hours,
        eur_per_job=hourly * job_hours if hourly is not None and job_hours is not None else None,
        paid_per_job=per_job and job_hours is not None, runs_per_year=runs_per_year if job_hours else None,
        tokens_per_s_per_kw=tokens_per_s / (watts / 1000) if tokens_per_s and watts and power_published else None,
        accelerator_power_published=power_published,
    )


def budget_cost(buy: Purchase, tco: float | None, job_eur: float | None = None) -> float | None:
    """What a budget is compared with: the purchase price, or the rental over the same period (TCO) — or, for a
    one-off batch job of a stated size, the rental for that job alone (hours x hourly price)."""
    if buy.how == "buy":
        return buy.price_eur
    if buy.how == "rent":
        return job_eur if job_eur is not None else tco
    return None
