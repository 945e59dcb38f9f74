"""Every rule of the table, run alone on its own examples: the examples are the rule's specification."""

from __future__ import annotations

import pytest

from sizer_agent.agent.understanding import RULES, detect_language
from sizer_agent.agent.understanding.rules import apply_rules
from sizer_agent.agent.understanding.text import Message

CASES = [(rule, text, expected) for rule in RULES for text, expected in rule.examples]


def test_every_rule_has_examples_and_a_unique_name() -> None:
    assert all(rule.examples for rule in RULES)
    assert len({rule.name for rule in RULES}) == len(RULES)


@pytest.mark.parametrize(("rule", "text", "expected"), CASES, ids=[f"{r.name}:{t[:40]}" for r, t, _ in CASES])
def test_rule_example(rule: object, text: str, expected: dict[str, object]) -> None:
    lang = detect_language(text).lang or "fr"
    values = apply_rules(Message.read(text, lang), (rule,)).values  # type: ignore[arg-type]
    assert {k: v for k, v in values.items() if k in rule.fields} == expected  # type: ignore[attr-defined]


def test_a_finding_keeps_its_words_its_rule_and_whether_it_was_approximate() -> None:
    from sizer_agent.agent.understanding import parse_message

    text = "Bonjour, une vingtaine d'utilisateurs en même temps, budget autour de 60k€ HT, Llama 3.1 70B"
    findings = parse_message(text).findings
    load = findings["concurrency"]
    assert load.value == 20 and load.approximate and load.rule == "load"
    assert text[load.span[0]:load.span[1]] == load.words == "une vingtaine d'utilisateurs en même temps"
    budget = findings["budget_eur"]
    assert budget.value == 60000 and budget.approximate and budget.words == "budget autour de 60k€"
    model = findings["model"]
    assert not model.approximate and model.words == "Llama 3.1 70B" and model.rule == "model-name"
