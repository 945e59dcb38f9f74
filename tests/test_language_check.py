"""The other-language detector used on documents finds what it must and leaves names alone."""

from __future__ import annotations

from tests.support.language import foreign


def test_an_english_clause_in_french_is_found() -> None:
    text = "## Synthèse\n\nConfiguration recommandée : ACD-014 — fits, but no priced option fits.\n"
    assert foreign(text, "fr", []) != []


def test_a_french_sentence_in_english_is_found() -> None:
    assert foreign("Summary\n\nLa mémoire des GPU ne s'additionne pas entre les cartes.\n", "en", []) != []


def test_names_code_and_links_are_not_language() -> None:
    text = ("Configuration : Enterprise Max (ACD-014), station de travail.\n\n```sh\nsizer-agent bench serve --model x"
            "\n```\n\n- nv — https://www.nvidia.com/en-us/data-center/h200/\n")
    assert foreign(text, "fr", ["Enterprise Max"]) == []
