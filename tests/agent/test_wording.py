"""Sentences of the interview: a default said once, in the customer's language."""

from __future__ import annotations

import pytest

from sizer_agent.agent.wording import assumed_default, format_value


@pytest.mark.parametrize(
    ("field", "value", "lang", "said", "not_said"),
    [
        # French numbers use narrow spaces and the documented default plain ones: still one figure, said once
        ("input_len", 1024, "fr", "entrée moyenne : 1 024 tokens, ou le contexte annoncé", "(1 024 tokens"),
        ("input_len", 1024, "en", "mean input: 1,024 tokens, or the context said", "(1,024 tokens"),
        # the framework version's default in words, never the English id in a French sentence
        ("framework_version", "latest", "fr", "version : la dernière version (non fixée).", "latest"),
        ("framework_version", "latest", "en", "version: the latest release (unpinned).", "latest ("),
        # a default whose documentation adds something keeps it
        ("tpot_ms", 50.0, "fr", "50 ms (20 tokens/s par utilisateur)", "xx"),
    ],
)
def test_a_default_is_said_once_in_words(field: str, value: object, lang: str, said: str, not_said: str) -> None:
    text = assumed_default(field, value, lang)  # type: ignore[arg-type]
    assert said in text.replace("\u202f", " ").replace("\u00a0", " "), text
    assert not_said not in text.replace("\u202f", " ").replace("\u00a0", " "), text


def test_the_latest_version_reads_as_words() -> None:
    assert format_value("framework_version", "latest", "fr") == "la dernière"
    assert format_value("framework_version", "0.11", "fr") == "0.11"
