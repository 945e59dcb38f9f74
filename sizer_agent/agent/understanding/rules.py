"""What a rule is, what it finds, and how a table of rules reads a message.

A `Rule` has a name, the fields it fills, a `find` function over a `Message`, and examples (message ->
the values it must find) that the test suite runs one by one (tests/agent/test_understanding_rules.py).
To teach the parser something new, add a rule to the module of its field family and list it in
`understanding/table.py`; its examples become tests.

Rules run in table order. The first rule to fill a field wins, and the words it read are blanked so no
later rule reads them again ("8x H200" is GPUs, not a growth factor "x"). Each value keeps the exact words
it came from, whether it was approximate, and the rule that found it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from sizer_agent.agent.understanding.text import Message

SUGGEST = "suggest:"  # a Found whose field is "suggest:model" offers values, it records none
CLAIM = "claim:"  # a Found whose field is "claim:gpu" records nothing: its words are read and set aside


@dataclass(frozen=True)
class Found:
    """A value a rule read, where it read it in `Message.text`."""

    field: str
    value: Any
    start: int
    end: int
    claim: bool = True  # blank the words so that later rules do not read them again
    figure: tuple[int, int] | None = None  # blank only these (the figure) when the words span a gap
    approximate: bool = False  # a reading, not a figure written ("overnight" read as 8 h)


@dataclass(frozen=True)
class Finding:
    """One field understood from a message."""

    field: str
    value: Any
    span: tuple[int, int]  # in the original message
    words: str  # the original words, message[span[0]:span[1]]
    approximate: bool  # "environ 20", "about 50", "une vingtaine"
    rule: str  # the rule that found it


@dataclass(frozen=True)
class Rule:
    name: str
    fields: tuple[str, ...]
    find: Callable[[Message], Iterable[Found]]
    examples: tuple[tuple[str, dict[str, Any]], ...] = ()  # message -> values it must find (tests)
    doc: str = ""


@dataclass
class Reading:
    """Everything the rules found in one message, in the order found."""

    findings: dict[str, Finding] = field(default_factory=dict)
    suggestions: dict[str, tuple[str, ...]] = field(default_factory=dict)  # field -> "did you mean" values

    @property
    def values(self) -> dict[str, Any]:
        return {name: finding.value for name, finding in self.findings.items()}


_COUNTS = frozenset({"num_gpus", "concurrency", "head_count"})


def apply_rules(message: Message, rules: Iterable[Rule], reading: Reading | None = None) -> Reading:
    """Run the rules in order over the message; the first value for a field wins."""
    reading = reading if reading is not None else Reading()
    for rule in rules:
        found = list(rule.find(message))
        for item in found:
            if item.field.startswith(CLAIM):
                continue
            if item.field.startswith(SUGGEST):
                reading.suggestions.setdefault(item.field[len(SUGGEST):], tuple(item.value))
                continue
            if item.field in reading.findings:
                continue
            # (a count of an earlier message, corrected by a bare figure: "I told you 4x H100, … signed off on 8")
            new = next((value for start, end, value in message.recounted
                        if item.start <= start and end <= item.end), None)
            if new is not None and item.field in _COUNTS and isinstance(item.value, int):
                item = replace(item, value=new)
            a, b = message.span(item.start, item.end)
            message.found[item.field] = item.value
            message.found_at[item.field] = (item.start, item.end)
            reading.findings[item.field] = Finding(
                field=item.field, value=item.value, span=(a, b), words=message.original[a:b],
                approximate=item.approximate or message.approximate(item.start, item.end), rule=rule.name)
        for item in found:  # claimed after the whole rule ran: a rule may read one span twice
            if item.claim:
                message.claim(*(item.figure or (item.start, item.end)))
    return reading


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without the spaces and punctuation at its edges: the words, as a person would quote them."""
    while start < end and text[start] in " \t\n,;:":
        start += 1
    while end > start and (text[end - 1] in " \t\n,;:." or (text[end - 1] == ")" and "(" not in text[start:end])):
        end -= 1
    return start, end


# -- helpers for the common shape: one pattern, one field ------------------------------------------------

Build = Callable[[re.Match[str], Message], Any]  # a match -> its value (None, 0: not a value after all)


def first_match(
    message: Message, field_name: str, patterns: Iterable[tuple[str, Build]],
    figure: Callable[[re.Match[str]], tuple[int, int]] | None = None, *, negatable: bool = True,
) -> Iterator[Found]:
    """The first match, pattern by pattern, not under a negation, that its `build` turns into a value.
    `figure`: the part of the match to blank (the number), when the words around may carry other fields."""
    for pattern, build in patterns:
        for match in re.finditer(pattern, message.text):
            if negatable and message.negated(match.start()):
                continue
            value = build(match, message)
            if value:
                yield Found(field_name, value, match.start(), match.end(), figure=figure(match) if figure else None)
                return


def pattern_rule(
    name: str, field_name: str, pattern: str, build: Build,
    examples: tuple[tuple[str, dict[str, Any]], ...] = (), *, negatable: bool = True, doc: str = "",
) -> Rule:
    """A rule that takes the first match of `pattern` not under a negation; `build` turns it into a value."""
    compiled = re.compile(pattern)

    def find(message: Message) -> Iterator[Found]:
        return first_match(message, field_name, ((compiled.pattern, build),), negatable=negatable)

    return Rule(name, (field_name,), find, examples, doc)


def choice_rule(
    name: str, field_name: str, choices: tuple[tuple[str, str], ...],
    examples: tuple[tuple[str, dict[str, Any]], ...] = (), doc: str = "",
) -> Rule:
    """A rule over (pattern, value) pairs: the first pair in table order with a match not negated wins."""
    compiled = tuple((re.compile(pattern), value) for pattern, value in choices)

    def find(message: Message) -> Iterator[Found]:
        for pattern, value in compiled:
            for match in pattern.finditer(message.text):
                if not message.negated(match.start()):
                    yield Found(field_name, value, match.start(), match.end())
                    return

    return Rule(name, (field_name,), find, examples, doc)
