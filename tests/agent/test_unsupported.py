"""Workloads the tools do not size (image generation, speech recognition), said plainly instead of asked about."""

from __future__ import annotations

import pytest

from sizer_agent.agent.engine import DeterministicEngine
from sizer_agent.agent.events import AgentMessage
from sizer_agent.agent.intake import read_brief
from sizer_agent.agent.understanding import parse_message
from sizer_agent.agent.understanding.unsupported import unsupported_workloads


@pytest.mark.parametrize(("text", "expected"), [
    ("postes pour Revit, Twinmotion et un peu d'IA générative (Stable Diffusion XL)",
     (("image_generation", "Stable Diffusion XL"),)),
    ("we fine-tune SDXL on product photos", (("image_generation", "SDXL"),)),
    ("FLUX.1 dev on a 4090", (("image_generation", "FLUX.1 dev"),)),
    ("transcrire nos réunions avec Whisper large-v3", (("speech_recognition", "Whisper large-v3"),)),
    # a French stream, a model of the tools' own, a company named Flux-something: nothing
    ("12 flux vidéo à 25 images/s avec YOLOv8", ()),
    ("serve Llama 3.1 8B to 20 users", ()),
])
def test_unsupported_workloads_are_named(text: str, expected: tuple[tuple[str, str], ...]) -> None:
    assert unsupported_workloads(text) == expected
    assert parse_message(text).unsupported == expected


def test_a_brief_and_the_interview_say_it_once_in_the_customers_language() -> None:
    brief = read_brief("Agence Nord, 8 architectes : postes pour Revit et Stable Diffusion XL, 6 000 € par poste.")
    assert brief.unsupported == [("image_generation", "Stable Diffusion XL")]
    engine = DeterministicEngine(lang="fr")
    engine.start()
    said = [e.text for e in engine.handle("On veut générer des images avec SDXL pour nos architectes.")
            if isinstance(e, AgentMessage)]
    assert any(t.startswith("SDXL (génération d'images) n'est pas une charge que cette version dimensionne")
               for t in said)
