from __future__ import annotations

from pathlib import Path

import pytest

from tests.estimate._data import VALIDATION


@pytest.fixture(scope="session")
def validation_dir() -> Path:
    if not (VALIDATION / "configs").is_dir():
        pytest.skip("the shared validation folder is not beside this checkout")
    return VALIDATION
