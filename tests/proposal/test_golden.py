"""Golden files: the Markdown proposals of two briefs sized by the real tools, in French and English.

Acme (serving Llama 3.1 8B in FP8 on a workstation, tests/proposal/fixtures/acme.yaml) and the LoRA of
Qwen2.5-7B with CAD on the same workstation (tests/advice/scenarios.py). Every number in them comes from
the tools run on the answers; a change to the tools, the catalogue, the templates or the catalogue of
sentences shows up here as a diff. When the change is intended, regenerate and review before committing:

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


def _lora_session() -> dict[str, Any]:
    from tests.advice.scenarios import SCENARIOS
    from tests.support.sessions import sized_session

    return sized_session(next(s for s in SCENARIOS if s.id == "qwen7b-lora-cad-workstation").answers)[0]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("name", ["acme", "lora"])
def test_markdown_matches_golden(session: dict[str, Any], lang: str, name: str) -> None:
    chosen = session if name == "acme" else _lora_session()
    # The generator version is printed in the document; pin it so a version bump is not a template change.
    text = render_proposal(chosen, "md", lang).replace(f"sizer-agent {__version__}", "sizer-agent VERSION")
    path = GOLDEN / f"proposal_{name}.{lang}.md"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path.name}: run with SIZER_UPDATE_GOLDEN=1"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path.name} differs; if intended, regenerate with SIZER_UPDATE_GOLDEN=1"


def test_rendering_is_deterministic(session: dict[str, Any]) -> None:
    assert render_proposal(session, "md", "fr") == render_proposal(session, "md", "fr")
    assert render_proposal(session, "html", "en") == render_proposal(session, "html", "en")
