"""Load the catalogue from TOML: the bundled data files, optionally merged with a vendor's own file.

A vendor file may hold `[[gpus]]`, `[[platforms]]`, `[[offers]]`, `[assumptions]` and `[sources]`.
GPUs and platforms are merged by id (the file wins); when the file lists offers, they replace the bundled
offers (a vendor sells its own list); assumptions given in the file override the bundled ones.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sizer_agent.tools.catalog.models import Assumptions, Catalog, Gpu, Offer, Platform
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.input_files import read_toml

DATA_DIR = Path(__file__).resolve().parent / "data"
_SECTIONS: dict[str, type[Gpu] | type[Platform] | type[Offer]] = {
    "gpus": Gpu, "platforms": Platform, "offers": Offer,
}


MAX_CATALOG_BYTES = 8 * 2**20  # the bundled catalogue is ~200 kB
_TOP_LEVEL = ("gpus", "platforms", "offers", "assumptions", "sources")


def _read_toml(path: Path) -> dict[str, Any]:
    raw = read_toml(path, "catalog", max_bytes=MAX_CATALOG_BYTES)
    unknown = sorted(key for key in raw if key not in _TOP_LEVEL)
    if unknown:
        raise InputError(f"{path}: {unknown[0]}", "not a catalogue section", ", ".join(_TOP_LEVEL))
    sources = raw.get("sources", {})
    if not isinstance(sources, dict) or not all(isinstance(v, str) for v in sources.values()):
        raise InputError(f"{path}: sources", "must be a table of key = \"text\"")
    return raw


def _entries(path: Path, raw: dict[str, Any], section: str) -> list[Any]:
    """Validate each entry of one section, naming file, entry and field on the first error."""
    model = _SECTIONS[section]
    entries = raw.get(section, [])
    if not isinstance(entries, list):
        raise InputError(f"{path.name}: {section}", f"must be an array of tables ([[{section}]])")
    parsed = []
    for index, entry in enumerate(entries):
        label = entry.get("id", f"#{index + 1}") if isinstance(entry, dict) else f"#{index + 1}"
        try:
            parsed.append(model.model_validate(entry))
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "entry"
            raise InputError(f"{path}: {section}[{label}].{field}", first["msg"]) from None
    return parsed


def _assumptions(path: Path, raw: dict[str, Any]) -> dict[str, Any]:
    data = raw.get("assumptions", {})
    if not isinstance(data, dict):
        raise InputError(f"{path}: assumptions", "must be a table")
    return data


def _merge_by_id(base: list[Any], extra: list[Any]) -> list[Any]:
    merged = {item.id: item for item in base}
    merged.update({item.id: item for item in extra})
    return list(merged.values())


@lru_cache(maxsize=8)
def _load(path_text: str | None) -> Catalog:
    files = [DATA_DIR / "gpus.toml", DATA_DIR / "platforms.toml", DATA_DIR / "offers.toml"]
    gpus: list[Gpu] = []
    platforms: list[Platform] = []
    offers: list[Offer] = []
    assumptions: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for path in files:
        raw = _read_toml(path)
        gpus += _entries(path, raw, "gpus")
        platforms += _entries(path, raw, "platforms")
        offers += _entries(path, raw, "offers")
        assumptions.update(_assumptions(path, raw))
        sources.update(raw.get("sources", {}))
    if path_text is not None:
        path = Path(path_text)
        raw = _read_toml(path)
        gpus = _merge_by_id(gpus, _entries(path, raw, "gpus"))
        platforms = _merge_by_id(platforms, _entries(path, raw, "platforms"))
        own_offers = _entries(path, raw, "offers")
        if own_offers:
            offers = own_offers
        assumptions.update(_assumptions(path, raw))
        sources.update(raw.get("sources", {}))
    offers = [_with_unit(offer, platforms, gpus) for offer in offers]
    where = path_text or "bundled catalogue"
    try:
        parsed_assumptions = Assumptions.model_validate(assumptions)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise InputError(f"{where}: assumptions.{field}", first["msg"]) from None
    try:
        return Catalog(gpus=gpus, platforms=platforms, offers=offers,
                       assumptions=parsed_assumptions, sources=sources)
    except ValidationError as error:
        first = error.errors()[0]
        raise InputError(f"{where}", str(first["msg"]).removeprefix("Value error, ")) from None


def _with_unit(offer: Offer, platforms: list[Platform], gpus: list[Gpu]) -> Offer:
    """A vendor file written before units existed: the unit follows the platform (an HGX/OAM board is a node)."""
    if offer.unit is not None:
        return offer
    platform = next((p for p in platforms if p.id == offer.platform), None)
    gpu = next((g for g in gpus if g.id == offer.gpu), None)
    if platform is None:
        return offer  # reported by the catalogue's reference check
    unit = {"workstation": "workstation", "rack": "rack", "cloud": "cloud"}.get(platform.kind, "server")
    if unit == "server" and gpu is not None and gpu.form_factor in ("sxm", "oam", "superchip"):
        unit = "node"
    return offer.model_copy(update={"unit": "cloud" if offer.kind == "cloud" else unit})


def load_catalog(path: Path | None = None) -> Catalog:
    """The bundled catalogue, merged with `path` (a vendor's own TOML file) when given. Cached per path."""
    return _load(None if path is None else str(Path(path).resolve()))


def gpu_memory_bytes(gpu_id: str, path: Path | None = None) -> int:
    """Usable memory of a catalogue GPU as the driver reports it, in bytes (InputError if unknown)."""
    return load_catalog(path).gpu(gpu_id).memory_bytes
