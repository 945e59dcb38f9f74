"""The proposal in both languages: every text from the catalogue, numbers by locale, no other language."""

from __future__ import annotations

from typing import Any

import pytest

from sizer_agent.proposal.i18n import Translator, catalogue, format_eur, format_number
from sizer_agent.proposal.render import render_proposal
from tests.support.language import foreign


def test_missing_key_is_an_error_not_a_fallback() -> None:
    with pytest.raises(KeyError, match="no translation"):
        Translator("fr")("doc.no_such_key")


@pytest.mark.parametrize("fmt", ["md", "html"])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_document_carries_no_sentence_of_the_other_language(session: dict[str, Any], fmt: str,
                                                                 lang: str) -> None:
    document = render_proposal(session, fmt, lang)  # type: ignore[arg-type]
    quoted = [str(a.get("raw_text") or "") for a in session["answers"].values()]  # the customer's own words
    names = ["Enterprise Max", "Advanced Pro", "Pro", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "vLLM",
             *quoted]
    assert foreign(document, lang, names) == []
    headings = {"fr": ("Synthèse", "Profil de la charge", "Limites de recette", "Sources"),
                "en": ("Summary", "Workload profile", "Acceptance limits", "Sources")}[lang]
    for heading in headings:
        assert heading in document


def test_the_catalogue_texts_of_one_language_stay_in_it(session: dict[str, Any]) -> None:
    """No English catalogue sentence appears in the French document (and the reverse), past the profile table
    that quotes the customer's own words."""
    fr, en = catalogue("fr"), catalogue("en")
    french = render_proposal(session, "md", "fr").split("## 2.")[1]
    english = render_proposal(session, "md", "en").split("## 2.")[1]
    assert [en[k] for k in en if en[k] != fr[k] and len(en[k]) > 12 and "{" not in en[k] and en[k] in french] == []
    assert [fr[k] for k in fr if en[k] != fr[k] and len(fr[k]) > 12 and "{" not in fr[k] and fr[k] in english] == []


def test_number_formats() -> None:
    assert format_number(1234567.891, 2, "fr") == "1\u202f234\u202f567,89"
    assert format_number(1234567.891, 2, "en") == "1,234,567.89"
    assert format_number(-161.26, 1, "fr") == "\u2212161,3"
    assert format_number(None, 1, "en") == "—"
    assert format_eur(55480, "fr") == "55\u202f480\u00a0€"
    assert format_eur(55480, "en") == "€55,480"
