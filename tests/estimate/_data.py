"""Paths and loaders of the shared validation data (beside the checkout, as in CI)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VALIDATION = ROOT.parent / "shared" / "validation"


def load_cases(name: str) -> list[dict]:
    path = VALIDATION / name
    return json.loads(path.read_text()) if path.exists() else []
