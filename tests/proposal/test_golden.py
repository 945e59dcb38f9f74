"""Golden files: the Markdown proposal of the fixed session, in French and English.

A change to the templates, the catalogue or the context builder shows up here as a diff. When the change
is intended, regenerate the files and review the diff before committing:

    SIZER_UPDATE_GOLDEN=1 python -m pytest tests/proposal/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from sizer_agent import __version__
from sizer_agent.proposal import render_proposal

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("SIZER_UPDATE_GOLDEN") == "1"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_markdown_matches_golden(session: dict[str, Any], lang: str) -> None:
    # The generator version is printed in the document; pin it so a version bump is not a template change.
    text = render_proposal(session, "md", lang).replace(f"sizer-agent {__version__}", "sizer-agent VERSION")
    path = GOLDEN / f"proposal_llama70b.{lang}.md"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path.name}: run with SIZER_UPDATE_GOLDEN=1"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path.name} differs; if intended, regenerate with SIZER_UPDATE_GOLDEN=1"


def test_rendering_is_deterministic(session: dict[str, Any]) -> None:
    assert render_proposal(session, "md", "fr") == render_proposal(session, "md", "fr")
    assert render_proposal(session, "html", "en") == render_proposal(session, "html", "en")
