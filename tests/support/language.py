"""Find sentences of the other language in a rendered document.

Two checks, both after removing what is not prose (code blocks, inline code, URLs, identifiers, numbers,
and the product and model names the document cites, which keep their own spelling in every language):
- function words that only the other language uses (`the`, `with`, `does` in a French document;
  `les`, `avec`, `est` in an English one) — deterministic, catches a single English clause;
- a language detector (lingua, French and English only) on every segment of six words or more.
"""

from __future__ import annotations

import html
import re
from functools import cache
from typing import Any

# Function words that do not occur in the other language (checked as whole, lower-case words).
ENGLISH_ONLY = frozenset({
    "the", "with", "and", "of", "for", "is", "are", "does", "not", "fits", "serves", "cheapest", "which", "when",
    "this", "that", "these", "those", "per", "was", "were", "be", "been", "has", "have", "its", "it", "by", "from",
    "into", "than", "then", "there", "will", "would", "should", "must", "can", "cannot", "only", "no", "yes",
    "over", "under", "within", "without", "between", "each", "every", "all", "none", "both", "at",
    "in", "if", "so", "up", "out", "what", "who", "how",
})
FRENCH_ONLY = frozenset({
    "le", "la", "les", "des", "du", "et", "pour", "avec", "est", "sont", "une", "dans", "sur", "aux", "au", "ne",
    "pas", "moins", "par", "qui", "que", "ce", "cette", "ces", "leur", "leurs", "être", "sans", "entre",
    "chaque", "tout", "tous", "aucune", "aucun", "selon", "où", "mais", "ou", "donc", "lorsqu", "quand",
})
MIN_DETECT_WORDS = 6


def _strip(text: str, names: list[str]) -> str:
    text = re.sub(r"```.*?```", " ", text, flags=re.S)  # code blocks
    text = re.sub(r"<pre>.*?</pre>", " ", text, flags=re.S)
    text = re.sub(r"<(style|title)>.*?</\1>", " ", text, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))  # HTML tags and entities
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"(https?://|github:)\S+", " ", text)
    for name in sorted(names, key=len, reverse=True):
        if name:
            text = text.replace(name, " ")
    text = re.sub(r"(?<![\w-])--[\w-]+(=\S+)?", " ", text)  # command-line flags quoted in prose
    return text


def segments(text: str, names: list[str]) -> list[str]:
    """Prose segments: lines, table cells and sentences, without names, code or links."""
    out: list[str] = []
    for line in _strip(text, names).splitlines():
        for cell in re.split(r"\s\|\s|^\||\|$|\s{3,}", line):
            for sentence in re.split(r"(?<=[.;:!?])\s+", cell):
                cleaned = sentence.strip(" -*#|")
                if cleaned:
                    out.append(cleaned)
    return out


def _words(segment: str) -> list[str]:
    # identifiers (digits, underscores, slashes, dots inside) are not words of a language
    tokens = re.findall(r"[^\s(),;:«»“”\"'’]+", segment.lower().replace("’", "'"))
    return [t for t in tokens if re.fullmatch(r"[a-zàâäçéèêëîïôöùûüÿœæ]+", t)]


@cache
def _detector() -> Any:
    from lingua import Language, LanguageDetectorBuilder

    return LanguageDetectorBuilder.from_languages(Language.ENGLISH, Language.FRENCH).build()


def foreign(text: str, lang: str, names: list[str]) -> list[str]:
    """Segments of `text` written in the other language (empty when the document is one language)."""
    other = ENGLISH_ONLY if lang == "fr" else FRENCH_ONLY
    found: list[str] = []
    for segment in segments(text, names):
        words = _words(segment)
        if not words:
            continue
        hits = [w for w in words if w in other]
        if hits:
            found.append(f"{segment!r} (words: {', '.join(sorted(set(hits)))})")
            continue
        if len(words) >= MIN_DETECT_WORDS:
            from lingua import Language

            values = {c.language: c.value for c in _detector().compute_language_confidence_values(segment)}
            wrong = Language.ENGLISH if lang == "fr" else Language.FRENCH
            if values.get(wrong, 0.0) > 0.95:
                found.append(f"{segment!r} (detected {wrong.name.lower()})")
    return found
