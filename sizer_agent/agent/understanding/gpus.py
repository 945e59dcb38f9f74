"""GPUs the customer names: how many ("two H100s", "8x H200", "un serveur 8 GPU") and which card.

The cards are the catalogue's (tools/catalog/data/gpus.toml, loaded through `tools.catalog.load_catalog`):
each card is known by the model number in its name ("H100", "L40S", "RTX PRO 6000", "MI300X") and the
words that tell its variants apart ("SXM", "PCIe", "NVL", "80GB", "Server", "Max-Q"). A model number said
alone picks the flagship variant: SXM before PCIe, 80 GB before 40 GB, the workstation edition of the
RTX PRO 6000 — so "H100" is h100-sxm and "A100" is a100-80gb-sxm, as the corpus schema says.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from sizer_agent.agent.understanding import numbers
from sizer_agent.agent.understanding.numbers import NUM
from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message, plain

_VENDOR_WORDS = {"nvidia", "amd", "geforce", "instinct", "intel"}
_QUALIFIERS = ("sxm", "pcie", "nvl", "ada", "server", "workstation", "ws", "max-q", "maxq", "blackwell", "ultra")
_FLAGSHIP = ("sxm", "80gb", "-ws")  # preferred variant words, in order, when the customer names none


@dataclass(frozen=True)
class Card:
    id: str
    model: str  # "h100", "l40s", "rtx pro 6000", "rtx 6000", "rtx 5090"
    words: frozenset[str]  # everything in its id and name


@dataclass(frozen=True)
class CardIndex:
    cards: tuple[Card, ...]
    pattern: re.Pattern[str]  # a model number, its vendor words before it and its variant words after it


def _card(gpu_id: str, name: str) -> Card:
    text = re.sub(r"\(.*?\)", " ", plain(name))
    tokens = [t for t in re.split(r"[\s/]+", text) if t and t not in _VENDOR_WORDS]
    index = next((i for i, t in enumerate(tokens) if re.search(r"\d", t)), 0)
    prefix = [t for t in tokens[:index] if t in ("rtx", "pro")]
    model = " ".join([*prefix, tokens[index]]) if tokens else gpu_id
    found = set(re.split(r"[\s/-]+", text)) | set(gpu_id.split("-")) | {gpu_id}
    found |= {w.rstrip("0123456789") for w in found if re.fullmatch(r"sxm\d", w)}  # "sxm5" is also "sxm"
    return Card(gpu_id, model, frozenset(found))


@cache
def card_index() -> CardIndex:
    """The catalogue's cards and a pattern that finds them in a message (built once, on first use)."""
    from tools.catalog import load_catalog

    cards = tuple(_card(g.id, g.name) for g in load_catalog().gpus)
    models = sorted({c.model for c in cards}, key=len, reverse=True)
    alternatives = []
    for model in models:
        parts = model.split()
        if re.fullmatch(r"\d+", parts[-1]) and len(parts) == 1:
            continue  # a bare number is not a card
        head = r"\s*".join(re.escape(p) for p in parts)
        alternatives.append(head + (r"s?" if re.search(r"[\dx]$", parts[-1]) else ""))
    qualifier = r"(?:\s*[- ]?\s*(?:sxm\d?|pcie|nvl|ada(?: generation)?|server(?: edition)?|workstation(?: edition)?"
    qualifier += r"|ws|max-?q|blackwell|ultra|\d{2,3}\s*gb|\d{2,3}\s*go))*"
    pattern = re.compile(rf"(?:(?<![\w-])|(?<=\dx))(?:(?:nvidia|amd|instinct|geforce)\s+)*"
                         rf"(?P<model>{'|'.join(alternatives)})"
                         rf"(?![\w])(?P<qualifiers>{qualifier})")
    return CardIndex(cards, pattern)


def identify(model_words: str, qualifiers: str) -> str | None:
    """The catalogue id of a card named by its model number and variant words, or None."""
    index = card_index()
    model = re.sub(r"\s+", " ", model_words.strip())
    candidates = [c for c in index.cards if c.model.replace(" ", "") == model.replace(" ", "")]
    if not candidates and model.endswith("s"):  # "H100s": a plural, except where the s is the name (L40S)
        candidates = [c for c in index.cards if c.model.replace(" ", "") == model[:-1].replace(" ", "")]
    if not candidates:
        return None
    said = set(re.findall(r"sxm|pcie|nvl|ada|server|workstation|ws|max-?q|\d{2,3}(?=\s*g[bo])", qualifiers))
    said = {"maxq" if w.startswith("max") else (f"{w}gb" if w.isdigit() else w) for w in said}
    for word in said:
        narrowed = [c for c in candidates if word in c.words or any(word in w for w in c.words)]
        if narrowed:
            candidates = narrowed
    for flagship in _FLAGSHIP:
        preferred = [c for c in candidates if flagship in c.id]
        if preferred:
            return preferred[0].id
    return candidates[0].id


_ONE = r"(?:one|un|une|a single|single|un seul|une seule|1)"
_COUNT_BEFORE = rf"(?:({NUM})|{_ONE})\s*(?:x|\*)?\s*(?:-\s*)?(?:(?:gpus?|cartes?|cards?)\s+(?:de\s+|d')?)?$"
_GENERIC = re.compile(rf"(?<![\w.,])(?:({NUM})|{_ONE})\s*(?:x\s*)?(?:-\s*)?(?:gpus?|cartes? (?:graphiques?|gpu)|cartes?"
                      rf"|cards?|accelerat\w+|accelerateurs?)(?![\w])")
_RANGE_BEFORE = re.compile(r"\d+\s*(?:to|a|-|ou|or|et|and|/)\s*$")


def find_gpus(message: Message) -> Iterator[Found]:
    text = message.text
    index = card_index()
    for m in index.pattern.finditer(text):
        if message.negated(m.start()):
            continue
        card = identify(m.group("model"), m.group("qualifiers"))
        if card is None:
            continue
        yield Found("gpu_preference", card, m.start(), m.end())
        before = re.search(_COUNT_BEFORE, text[max(0, m.start() - 30):m.start()])
        after = re.match(r"\s*(?:x|\*)\s*(\d+)(?![\d.])", text[m.end():])
        if before and not _RANGE_BEFORE.search(text[max(0, m.start() - 40):m.start() - len(before.group(0))]):
            value = numbers.count(before.group(1), None, message.lang) if before.group(1) else 1
            if value:
                yield Found("num_gpus", value, m.start() - len(before.group(0)), m.end())
        elif after:
            yield Found("num_gpus", int(after.group(1)), m.start(), m.end() + after.end())
        break
    for m in _GENERIC.finditer(text):
        if message.negated(m.start()) or _RANGE_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
            continue
        value = numbers.count(m.group(1), None, message.lang) if m.group(1) else 1
        if value:
            yield Found("num_gpus", value, m.start(), m.end())
            return


GPUS = Rule(
    "gpus", ("num_gpus", "gpu_preference"), find_gpus,
    examples=(
        ("two H100s", {"num_gpus": 2, "gpu_preference": "h100-sxm"}),
        ("4 L40S", {"num_gpus": 4, "gpu_preference": "l40s"}),
        ("8x H200", {"num_gpus": 8, "gpu_preference": "h200-sxm"}),
        ("2×RTX 5090", {"num_gpus": 2, "gpu_preference": "rtx-5090"}),
        ("un serveur 8 GPU", {"num_gpus": 8}),
        ("one GPU planned", {"num_gpus": 1}),
        ("a couple of GPUs", {"num_gpus": 2}),
        ("A100 40GB PCIe", {"gpu_preference": "a100-40gb-pcie"}),
        ("une RTX PRO 6000 Server Edition", {"num_gpus": 1, "gpu_preference": "rtx-pro-6000-server"}),
        ("pas de H100, trop cher", {}),
    ),
    doc="GPU count and the catalogue card the customer names",
)
