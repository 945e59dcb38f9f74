"""Paths and loaders of the validation data: the published set bundled with the package."""

from __future__ import annotations

import json
from pathlib import Path

from sizer_agent.tools.validation import BUNDLED_VALIDATION

ROOT = Path(__file__).resolve().parents[2]
VALIDATION = BUNDLED_VALIDATION


def load_cases(name: str) -> list[dict]:
    return json.loads((VALIDATION / name).read_text())
