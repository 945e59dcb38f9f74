"""Hardware catalogue: GPUs, platforms and offers as sourced TOML data validated by pydantic.

`load_catalog()` returns the bundled catalogue; `load_catalog(path)` merges a vendor's own file.
"""

from sizer_agent.tools.catalog.loader import DATA_DIR, gpu_memory_bytes, load_catalog
from sizer_agent.tools.catalog.models import (
    PRECISIONS,
    Assumptions,
    Catalog,
    Gpu,
    Interconnect,
    Offer,
    Platform,
)

__all__ = [
    "DATA_DIR",
    "PRECISIONS",
    "Assumptions",
    "Catalog",
    "Gpu",
    "Interconnect",
    "Offer",
    "Platform",
    "gpu_memory_bytes",
    "load_catalog",
]
