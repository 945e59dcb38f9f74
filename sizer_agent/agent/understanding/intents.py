"""Messages that are not answers: "why?", "I don't know", and the markers of a correction ("actually",
"non, plutôt")."""

from __future__ import annotations

import re
from typing import Literal

from sizer_agent.agent.understanding.text import plain

Intent = Literal["answer", "why", "dont_know", "empty"]

_WHY = re.compile(
    r"^\s*(pourquoi|why|a quoi (ca|cela) sert|pour quoi faire|what for|why does it matter|c'est quoi"
    r"|qu'est-ce que c'est|what is that|what does (it|that) mean)\b.{0,60}$"
)
_DONT_KNOW = re.compile(
    r"^\s*(je\s+(ne\s+)?(le\s+)?sais\s+pas|j'sais pas|sais pas|chais pas|aucune idee|pas d'idee|je ne suis pas sur"
    r"|pas sur|i\s+(do\s*n[o']?t|dont)\s+know|idk|dunno|no idea|not sure|no clue|unknown|inconnu"
    r"|par defaut|default|passer|passe|skip|next|je passe)\b[\s.!?…]*$"
)
_CORRECTION = re.compile(
    r"^\s*(?:(?:non|no|nope|oups|oops|pardon|sorry|desole|correction|erratum)"
    r"(?:\s*[,.:;!-]+\s*|\s+(?=en fait|actually|in fact|finalement|plutot|rather|i meant|\d)))?"
    r"(?:(?:en fait|actually|in fact|finalement|plutot|rather|i meant|je voulais dire|make it|change)\b[\s,.:;!-]*)?",
)


def detect_intent(text: str) -> Intent:
    folded = plain(text).strip()
    if not folded:
        return "empty"
    if _WHY.match(folded) and len(folded) < 80:
        return "why"
    if _DONT_KNOW.match(folded):
        return "dont_know"
    return "answer"


def strip_correction(text: str) -> tuple[str, bool]:
    """Remove a leading correction marker; say whether there was one."""
    folded = plain(text)  # same length as `text`: positions carry over
    match = _CORRECTION.match(folded)
    if match and match.end() > 0 and match.group(0).strip():
        rest = text[match.end():]
        if not rest.strip(" ,.;:!?-"):  # a bare "non" / "no" is an answer, not a correction marker
            return text, False
        return rest, True
    if re.search(r"\b(plutot|rather|instead|au lieu de|pas \d)", folded):
        return text, True
    return text, False
