"""The proposal's view of the product catalogue (`sizer_agent.i18n`): a translator and number formatters.

The catalogue lives in `sizer_agent/i18n/{fr,en}.toml`, one file per language for the whole product; a
missing key is an error, never a silent fallback, so an incomplete translation cannot ship.

Formatting only: these helpers never compute a quantity, they print the one they are given.
"""

from __future__ import annotations

from typing import Any

from sizer_agent.i18n import LANGS, NBSP, Lang, MissingTranslation, catalogue, eur, has, number, render

__all__ = ["LANGS", "NBSP", "Lang", "MissingTranslation", "Translator", "catalogue", "format_eur",
           "format_number", "format_signed_pct"]


class Translator:
    """`t(key, name=value)`: the text of a catalogue key, with `{name}` placeholders filled."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang

    def __call__(self, key: Any, **params: Any) -> str:
        return render(self.lang, key, **params)

    def has(self, key: str) -> bool:
        return has(self.lang, key)

    def label(self, section: str, key: str) -> str:
        """Label of a data key (an answer field, a host item): translated when known, else the raw key."""
        name = f"{section}.{key}"
        return render(self.lang, name) if has(self.lang, name) else key


def format_number(value: float | int | None, decimals: int = 0, lang: Lang = "en") -> str:
    """Localised digits: `12 345,6` in French, `12,345.6` in English; `—` for a missing value."""
    return number(value, lang, decimals)


def format_eur(value: float | int | None, lang: Lang = "en", decimals: int = 0) -> str:
    """`55 480 €` in French, `€55,480` in English."""
    return eur(value, lang, decimals)


def format_signed_pct(value: float | None, lang: Lang = "en", decimals: int = 1) -> str:
    """A deviation: always signed (`+4.2 %`, `−1.8 %`)."""
    if value is None:
        return "—"
    digits = number(abs(value), lang, decimals)
    sign = "+" if value >= 0 else "\u2212"
    return f"{sign}{digits}{NBSP}%"
