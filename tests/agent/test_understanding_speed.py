"""The parser's speed-ups read exactly as before: the number pattern written digit-first, and the readings remembered
per message or per text (benchmarks/bench_parse.py measures the speed; these check the sameness)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sizer_agent.agent.understanding.numbers import NUM
from sizer_agent.agent.understanding.text import Message, past_clauses, sentence_bounds

# NUM as it was written, its look-behinds before the first digit
_LOOK_BEHIND_FIRST = (r"(?<![\d.,])(?<!\dx)(?<![a-z])(?:\d{1,3}(?: \d{3})+(?![\d])(?:[.,]\d+)?|\d+(?:[.,]\d+)*)"
                      r"(?![\d])")
_SHAPES = ("({})", r"({})\s*(k)?", "(?:a|{})", r"x?({})(?: ms)?", "^({})$")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789 .,xak-\u0663", max_size=16))
def test_the_number_pattern_matches_as_written_look_behind_first(text: str) -> None:
    for shape in _SHAPES:
        before, now = re.compile(shape.format(_LOOK_BEHIND_FIRST)), re.compile(shape.format(NUM))
        assert [(m.span(), m.groups()) for m in now.finditer(text)] == [
            (m.span(), m.groups()) for m in before.finditer(text)], (shape, text)


def test_a_remembered_reading_is_read_again_once_the_message_changes() -> None:
    message = Message.read("4 H100 pour 20 utilisateurs", "fr")
    reads: list[str] = []

    def read(m: Message) -> str:
        reads.append(m.text)
        return m.text

    assert message.remembered("t", read) == message.remembered("t", read)
    assert len(reads) == 1
    message.found["use_case"] = "online_serving"  # a field the reading says it never looks at
    message.remembered("t", read, "use_case")
    assert len(reads) == 1
    message.found["concurrency"] = 20
    message.remembered("t", read, "use_case")
    assert len(reads) == 2
    message.claim(0, 1)
    assert message.remembered("t", read, "use_case") == "_ h100 pour 20 utilisateurs"  # (the folded text)
    assert message.copy().memo == {}  # a copy reads for itself


def test_per_text_readings_give_each_caller_its_own_list() -> None:
    text = "on avait des soucis l'an dernier. maintenant 4 gpu."
    first = past_clauses(text)
    first.append((0, 0))
    assert past_clauses(text) == first[:-1]
    assert sentence_bounds(text, 40) == (34, len(text))
