"""A second reading: a value is recorded only when the message names no other candidate for it.

The rules take the first value they find. When the words nobody claimed still name another framework, card
or budget ("JAX ou PyTorch, pas encore tranché", "A100 40 Go… plutôt des H200", "Budget 2026 : 15 k€"),
the first is a guess, and a wrong value costs the customer more than a question does: the field is left
open and both candidates are offered when its question comes. Held-out briefs showed about 20 wrong values
per 100 messages (tests/agent/corpus/README.md); a reading that abstains when unsure is the cure for
those, more rules are not.

Only fields whose value is a name or an amount are doubted this way. Counts (users, GPUs, head count) and
the use case are left to their rules, which already weigh several figures (peaks, corrections, ranges):
on the development sets, doubting them turned 12 right values into questions for 0 wrong ones caught.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sizer_agent.agent.understanding.rules import SUGGEST, Reading, Rule
from sizer_agent.agent.understanding.text import Message, past_clauses, prototype_clauses

# The precision is here since its rule claims only the formats it weighed and set aside (a source or KV-cache
# format): two formats named alike ("testé en AWQ… servir en FP16") are a question, not the first one's value.
# The model is not here: its rule already weighs two named models ("first thought of 405B, we'll go with
# 70B") and asks when it cannot choose (models.py).
DOUBTED_FIELDS = frozenset({"framework", "gpu_preference", "budget_eur", "precision"})
# a name said without the part that picks one ("YOLOv8" with no size): its candidates are offered the same way
OFFERED_FIELDS = DOUBTED_FIELDS | {"vision_model"}
_CATCH_ALL = frozenset({"other"})  # "another engine": no candidate of its own


@dataclass(frozen=True)
class Doubt:
    """A field the message names more than one value for: nothing recorded, the candidates offered."""

    field: str
    candidates: tuple[Any, ...]  # the rules' first value, then the others, in reading order


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool):
        return float(a) == float(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    return bool(a == b)


def _year(value: Any) -> bool:
    """1990-2040 read as money: "Budget 2026" names a year, never a competing amount."""
    return isinstance(value, int | float) and float(value).is_integer() and 1990 <= value <= 2040


# a possible later move names no candidate for what is sized now: "HF Transformers for now (may move to vLLM
# later)", "on passera peut-être à vLLM plus tard"
_LATER_MAYBE = re.compile(r"\b(?:may|might|could|maybe|perhaps|possibly|peut-etre|pourr\w+|eventuellement)\b"
                          r"[^.;:()!?\n]{0,40}?\b(?:later|plus tard|eventually|a terme|down the (?:line|road)"
                          r"|some ?day|un jour|in the future|a l'avenir)\b")


def second_reading(message: Message, reading: Reading, rules: Iterable[Rule]) -> dict[str, Doubt]:
    """Run each rule again over what the first reading left unclaimed; another value for a doubted field
    found there makes that field a doubt. `message` is the message as the first reading left it."""
    others: dict[str, list[Any]] = {}
    # Only a field the first reading recorded can be doubted (another value is weighed against the first): a rule
    # whose doubted fields were all left unread is not run again, nor is anything when none was read (the second
    # reading was a twelfth of a message's parse time, most of it for fields the message never names). A rule
    # fills only the fields it declares (`Rule.fields`; claims and suggestions are set aside here anyway).
    recorded = DOUBTED_FIELDS & reading.findings.keys()
    if recorded:
        # (what was tried in the past names no candidate for what is sized now)
        past = past_clauses(message.text) + prototype_clauses(message.text)  # (and a prototype set aside)
        left = message.copy()
        for start, end in past + [(m.start(), m.end()) for m in _LATER_MAYBE.finditer(message.text)]:
            left.claim(start, end)
    for rule in rules if recorded else ():
        if not recorded.intersection(rule.fields):
            continue
        unclaimed = left.copy()  # (each rule claims what it reads: the next one starts from the same text)
        for item in rule.find(unclaimed):
            if item.field.startswith(SUGGEST) or item.field not in DOUBTED_FIELDS:
                continue
            first = reading.findings.get(item.field)
            if first is None or item.value in _CATCH_ALL or first.value in _CATCH_ALL:
                continue
            if _same(first.value, item.value) or any(_same(v, item.value) for v in others.get(item.field, ())):
                continue
            if item.field == "budget_eur" and _year(item.value):
                continue
            others.setdefault(item.field, []).append(item.value)
    doubts = {name: Doubt(name, (reading.findings[name].value, *values)) for name, values in others.items()}
    for name, offered in reading.suggestions.items():
        # a rule that saw only options for a field ("FP8 ou INT8", "budget 8-10 k€") recorded none: offered too
        if name in OFFERED_FIELDS and name not in reading.findings and name not in doubts and offered:
            doubts[name] = Doubt(name, tuple(offered))
    budget = reading.findings.get("budget_eur")
    if budget is not None and _year(budget.value) and not _currency(budget.words):
        # "Budget 2026": a year, not an amount; the amounts named elsewhere, if any, are offered instead
        doubts["budget_eur"] = Doubt("budget_eur", tuple(others.get("budget_eur", ())))
    return doubts


def shown(value: Any) -> str:
    """A candidate as the customer would write it back: 15000, not 15000.0."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _currency(words: str) -> bool:
    return any(mark in words.lower() for mark in ("€", "eur", "k", "$", "£", "chf", "mille", "thousand"))
