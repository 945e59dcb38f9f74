"""Workloads the brief names that this version does not size: image generation (Stable Diffusion, FLUX), speech
recognition (Whisper). Said plainly, once, instead of asking "which model?" as if the answer could be sized: the
tools size language models (serving, batch, fine-tuning, pre-training) and vision networks (classification,
detection, segmentation). Read on the customer's own words; a bare "flux" is French for a stream, so FLUX counts
only with its version or variant ("FLUX.1", "Flux dev").
"""

from __future__ import annotations

import re
from typing import Literal

from sizer_agent.agent.understanding.text import plain

Unsupported = Literal["image_generation", "speech_recognition"]

_NAMES: tuple[tuple[Unsupported, re.Pattern[str]], ...] = (
    ("image_generation", re.compile(
        r"\b(?:stable[ -]?diffusion(?:[ -]?(?:xl|3(?:\.5)?|1\.5|2(?:\.1)?))?|sdxl|sd[ -]?(?:1\.5|3(?:\.5)?)\b"
        r"|flux(?:\.1)?[ -](?:dev|schnell|pro|kontext)|flux\.1|midjourney|dall-?e(?:[ -]?3)?|imagen)")),
    ("speech_recognition", re.compile(r"\b(?:whisper(?:[ -](?:large|medium|small|base|tiny)(?:[ -]v\d)?)?)\b")),
)


def unsupported_workloads(text: str) -> tuple[tuple[Unsupported, str], ...]:
    """(kind, the words as written) for each workload the brief names that the tools do not size, first one each."""
    said = plain(text)
    found: list[tuple[Unsupported, str]] = []
    for kind, pattern in _NAMES:
        m = pattern.search(said)
        if m is not None:
            found.append((kind, text[m.start():m.end()] if len(said) == len(text) else m.group(0)))
    return tuple(found)
