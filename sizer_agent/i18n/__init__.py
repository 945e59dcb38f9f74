"""Every sentence people read, from one catalogue per language, with numbers and units by locale.

`render(lang, "reason.memory", need=..., usable=...)` or `render(lang, msg)` for a tool's `Msg`. The
catalogue (`fr.toml`, `en.toml` beside this file, read with importlib.resources so the wheel finds them)
holds `{name:spec}` placeholders; the spec says how a raw value is written in that language (Babel, the
CLDR data, does the locale work: "1 234,5" with a narrow no-break space in French, "1,234.5" in English):

    n        integer with grouping                 12 345 / 12,345
    d0..d3   fixed decimals                        1 234,5 / 1,234.5
    g        up to 2 decimals, trailing zeros off  1,5 / 1.5
    gib      bytes as binary gibibytes, 1 decimal  105,4 Gio / 105.4 GiB (memory: one family, binary)
    gib2     same, 2 decimals
    tb       bytes as decimal terabytes            1,5 To / 1.5 TB (storage, sold in decimal units)
    gb       bytes as decimal gigabytes            72,7 Go / 72.7 GB (disk, datasets, seed arithmetic)
    eur      euros, no decimals                    55 480 € / €55,480
    eur2     euros, 2 decimals                     0,42 € / €0.42
    eura     euros, cents below 100 €              0,45 € / 1 234 €
    dur      seconds, in ms below one second       18 ms / 0,7 s
    pct      a fraction as a percentage            10 % / 10%
    pct1     same, 1 decimal
    ms       milliseconds                          500 ms
    s        seconds, up to 1 decimal              1,2 s
    h        hours, up to 1 decimal                3,5 h
    w        watts                                 1 600 W
    kw       watts as kilowatts, 1 decimal         14,3 kW
    tps      tokens per second                     2 566 tokens/s
    date     ISO date as a long date               1er décembre 2026 / 1 December 2026
    asof     a day, month or year a figure dates from   au 1er mai 2026, en mars 2025 / as of 1 May 2026
    list     list of items (messages or text)      a, b et c / a, b and c
    pl:a|b   the singular or plural word for the value (French: 0 and 1 are singular)
    (none)   text as is; a message rendered; an int grouped; a float with `g`

A missing key or parameter raises: an incomplete translation cannot ship (tests/test_i18n_catalogue.py).

Accelerator words: a TPU or a Trainium is a chip, not a GPU. Inside `with device_terms("chip")` a key that
has a `chip.`-prefixed form in the catalogue (`chip.advice.split` for `advice.split`) is rendered from it,
nested messages included, so the sentences that name the accelerator say "chip" for those plans.
"""

from __future__ import annotations

import datetime
import decimal
import math
import string
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources
from typing import Any, Literal

from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal

from sizer_agent.tools.messages import Msg

Lang = Literal["fr", "en"]
LANGS: tuple[Lang, ...] = ("fr", "en")
LOCALES: dict[str, str] = {"fr": "fr_FR", "en": "en_GB"}
NBSP = "\u00a0"  # between a number and its unit, so "105,4 Gio" never breaks across lines
GIB = 2**30


Terms = Literal["chip"]
TERMS: tuple[Terms, ...] = ("chip",)
# the accelerator words of the sentences rendered now (None: GPU); a context variable, so a worker thread or
# a task rendering another plan keeps its own
_TERMS: ContextVar[Terms | None] = ContextVar("sizer_agent_device_terms", default=None)


@contextmanager
def device_terms(terms: Terms | None) -> Iterator[None]:
    """Render with the accelerator words of `terms` (None: GPU words) until the block ends."""
    token = _TERMS.set(terms)
    try:
        yield
    finally:
        _TERMS.reset(token)


class MissingTranslation(KeyError):
    """A key (or one of its parameters) is absent from the catalogue of that language."""


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
    """All `section.key -> text` pairs of one language."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}")
    text = resources.files(__package__).joinpath(f"{lang}.toml").read_text(encoding="utf-8")
    return _flatten(tomllib.loads(text))


def check_lang(value: object) -> Lang:
    """The language named, or a ValueError naming what is allowed."""
    if value not in LANGS:
        raise ValueError(f"lang: {value!r} is not a language of this product; allowed: {', '.join(LANGS)}")
    return value  # type: ignore[return-value]


# --- numbers and units ---------------------------------------------------------------------------------

def _finite(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def number(value: Any, lang: Lang, decimals: int = 0) -> str:
    """Localised digits with a fixed number of decimals; '—' for a missing or non-finite value."""
    x = _finite(value)
    if x is None:
        return "—"
    pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
    return _minus(_format(x, pattern, lang))


def _format(x: float, pattern: str, lang: Lang) -> str:
    # Babel quantizes in the current decimal context (28 digits): a value past 1e27 would raise.
    with decimal.localcontext() as context:
        context.prec = 400
        return format_decimal(x, format=pattern, locale=LOCALES[lang])


def _minus(text: str) -> str:
    return "\u2212" + text[1:] if text.startswith("-") else text  # a true minus sign, as typeset


def trimmed(value: Any, lang: Lang, decimals: int = 2) -> str:
    """Up to `decimals` decimals, trailing zeros dropped: 1.5 -> '1,5', 2.0 -> '2'."""
    x = _finite(value)
    if x is None:
        return "—"
    pattern = "#,##0" + ("." + "#" * decimals if decimals else "")
    return _minus(_format(x, pattern, lang))


def with_unit(text: str, unit: str) -> str:
    return text if text == "—" else f"{text}{NBSP}{unit}"


def unit(lang: Lang, key: str) -> str:
    return catalogue(lang)[f"unit.{key}"]


def gib(n_bytes: Any, lang: Lang, decimals: int = 1) -> str:
    x = _finite(n_bytes)
    return with_unit(number(None if x is None else x / GIB, lang, decimals), unit(lang, "gib"))


def eur(value: Any, lang: Lang, decimals: int = 0) -> str:
    text = number(value, lang, decimals)
    if text == "—":
        return text
    return f"{text}{NBSP}€" if lang == "fr" else f"€{text}"


def usd(value: Any, lang: Lang) -> str:
    text = number(value, lang, 0)
    if text == "—":
        return text
    return f"{text}{NBSP}$" if lang == "fr" else f"${text}"


def long_date(value: Any, lang: Lang) -> str:
    """'2026-12-01' -> '1er décembre 2026' / '1 December 2026'."""
    if isinstance(value, str):
        try:
            value = datetime.date.fromisoformat(value[:10])
        except ValueError:
            return value
    if not isinstance(value, datetime.date):
        return "—"
    text = format_date(value, format="long", locale=LOCALES[lang])
    if lang == "fr" and value.day == 1:
        text = "1er" + text[1:]  # French writes the first of the month as an ordinal
    return text


def as_of(value: Any, lang: Lang) -> str:
    """'2026-05-01' -> 'au 1er mai 2026' / 'as of 1 May 2026'; '2025-03' -> 'en mars 2025'; '2026' -> 'en 2026'."""
    text = str(value or "")
    if len(text) >= 10:
        return render(lang, "fmt.as_of_day", day=long_date(text, lang))
    if len(text) == 7:
        try:
            month = datetime.date.fromisoformat(text + "-01")
        except ValueError:
            return text
        return render(lang, "fmt.as_of_month", month=format_date(month, format="LLLL y", locale=LOCALES[lang]))
    return render(lang, "fmt.as_of_year", year=text) if text else "—"


def _plural(value: Any, forms: str, lang: Lang) -> str:
    one, _, other = forms.partition("|")
    x = _finite(value)
    singular = x is not None and (abs(x) < 2 if lang == "fr" else x == 1)
    return one if singular else (other or one)


class _Formatter(string.Formatter):
    def __init__(self, lang: Lang) -> None:
        self.lang = lang

    def format_field(self, value: Any, spec: str) -> str:
        lang = self.lang
        if isinstance(value, Msg):
            return render(lang, value)
        if isinstance(value, dict) and "id" in value:
            return render(lang, Msg.model_validate(value))
        if spec.startswith("pl:"):
            return _plural(value, spec[3:], lang)
        if spec == "list":
            items = [self.format_field(v, "") for v in (value or [])]
            return format_list(items, locale=LOCALES[lang]) if items else "—"
        if spec == "":
            if isinstance(value, bool) or value is None:
                return catalogue(lang)["common.yes" if value else "common.no"] if value is not None else "—"
            if isinstance(value, int):
                return number(value, lang)
            if isinstance(value, float):
                return trimmed(value, lang)
            return str(value)
        if spec == "n":
            return number(value, lang)
        if spec in ("d0", "d1", "d2", "d3"):
            return number(value, lang, int(spec[1]))
        if spec == "g":
            return trimmed(value, lang)
        if spec in ("gib", "gib2"):
            return gib(value, lang, 2 if spec == "gib2" else 1)
        if spec in ("gb", "tb"):
            x = _finite(value)
            scale = 1e9 if spec == "gb" else 1e12
            return with_unit(trimmed(None if x is None else x / scale, lang, 1), unit(lang, spec))
        if spec == "size":  # a data size in the decimal unit that reads best: 1,5 To, 800 Go, 12 Mo
            x = _finite(value)
            if x is None:
                return "—"
            for name, scale in (("tb", 1e12), ("gb", 1e9), ("mb", 1e6), ("kb", 1e3)):
                if x >= scale:
                    return with_unit(trimmed(x / scale, lang, 1), unit(lang, name))
            return with_unit(number(x, lang), unit(lang, "bytes"))
        if spec in ("eur", "eur2"):
            return eur(value, lang, 2 if spec == "eur2" else 0)
        if spec == "usd":
            return usd(value, lang)
        if spec == "eura":  # an amount that may be small (cost of one epoch): cents below 100 €
            x = _finite(value)
            return eur(value, lang, 2 if x is not None and abs(x) < 100 else 0)
        if spec in ("pct", "pct1"):
            x = _finite(value)
            return with_unit(number(None if x is None else x * 100, lang, 1 if spec == "pct1" else 0), "%")
        if spec == "ms":
            return with_unit(number(value, lang), "ms")
        if spec == "dur":  # a duration in seconds, in ms below one second: "18 ms", "0,7 s"
            x = _finite(value)
            if x is not None and x < 1:
                return with_unit(number(x * 1000, lang), "ms")
            return with_unit(trimmed(value, lang, 1), "s")
        if spec in ("s", "h"):
            return with_unit(trimmed(value, lang, 1), spec)
        if spec == "w":
            return with_unit(number(value, lang), "W")
        if spec == "kw":
            x = _finite(value)
            return with_unit(trimmed(None if x is None else x / 1000, lang, 1), "kW")
        if spec == "tps":
            return with_unit(number(value, lang), unit(lang, "tokens_per_s"))
        if spec == "date":
            return long_date(value, lang)
        if spec == "asof":
            return as_of(value, lang)
        raise ValueError(f"unknown format spec {spec!r}")


def render(lang: Lang, key: str | Msg, /, **params: Any) -> str:
    """The sentence of `key` (or of a tool's `Msg`) in `lang`, its `{name:spec}` placeholders filled."""
    if isinstance(key, Msg):
        params = {**key.params, **params}
        key = key.id
    terms = _TERMS.get()
    texts = catalogue(lang)
    try:
        text = (texts.get(f"{terms}.{key}") or texts[key]) if terms else texts[key]
    except KeyError:
        raise MissingTranslation(f"{lang}: no translation for {key!r}") from None
    try:
        return _Formatter(lang).vformat(text, (), params)
    except KeyError as missing:
        raise MissingTranslation(f"{lang}: {key!r} needs parameter {missing}") from None


def has(lang: Lang, key: str) -> bool:
    return key in catalogue(lang)
