"""Translation catalogue and number formatting of the proposal, per language.

The catalogue lives beside the templates (`templates/i18n/{fr,en}.toml`) and is read with
importlib.resources, so the installed wheel finds it. Keys are `section.name`; a missing key is an error,
never a silent fallback, so an incomplete translation cannot ship (tests/proposal/test_i18n.py checks both
files have the same keys and that every key is used).

Formatting only: these helpers never compute a quantity, they print the one they are given.
"""

from __future__ import annotations

import math
import tomllib
from functools import cache
from importlib import resources
from typing import Any, Literal

Lang = Literal["fr", "en"]
LANGS: tuple[Lang, ...] = ("fr", "en")

# No-break space: between a number and its unit, and French thousands (keeps "7 160 €" on one line).
NBSP = "\u00a0"


class MissingTranslation(KeyError):
    """A key the templates ask for is absent from the catalogue of that language."""


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, f"{name}."))
        else:
            out[name] = str(value)
    return out


@cache
def catalogue(lang: Lang) -> dict[str, str]:
    """All `section.key -> text` pairs of one language, read from the installed `templates` package."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}")
    text = resources.files("templates").joinpath("i18n", f"{lang}.toml").read_text(encoding="utf-8")
    return _flatten(tomllib.loads(text))


class Translator:
    """`t("section.key", name=value)`: the text of a key, with `{name}` placeholders filled."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang
        self._texts = catalogue(lang)

    def __call__(self, key: str, **params: Any) -> str:
        try:
            text = self._texts[key]
        except KeyError:
            raise MissingTranslation(f"{self.lang}: no translation for {key!r}") from None
        return text.format(**params) if params else text

    def has(self, key: str) -> bool:
        return key in self._texts

    def label(self, section: str, key: str) -> str:
        """Label of a data key (an answer field, a host item): translated when known, else the raw key."""
        name = f"{section}.{key}"
        return self._texts.get(name, key)


def format_number(value: float | int | None, decimals: int = 0, lang: Lang = "en") -> str:
    """Localised digits: `12 345,6` in French, `12,345.6` in English; `—` for a missing value."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "—"
    text = f"{value:,.{decimals}f}"
    if lang == "fr":
        text = text.replace(",", "\x00").replace(".", ",").replace("\x00", NBSP)
    return text.replace("-", "\u2212") if text.startswith("-") else text


def format_eur(value: float | int | None, lang: Lang = "en", decimals: int = 0) -> str:
    """`55 480 €` in French, `€55,480` in English."""
    if value is None:
        return "—"
    digits = format_number(value, decimals, lang)
    return f"{digits}{NBSP}€" if lang == "fr" else f"€{digits}"


def format_signed_pct(value: float | None, lang: Lang = "en", decimals: int = 1) -> str:
    """A deviation: always signed (`+4.2 %`, `−1.8 %`)."""
    if value is None:
        return "—"
    digits = format_number(abs(value), decimals, lang)
    sign = "+" if value >= 0 else "\u2212"
    return f"{sign}{digits}{NBSP}%"
