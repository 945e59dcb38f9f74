"""The RTX PRO Blackwell workstation cards by their names: the three mid-range cards the catalogue gained (RTX PRO
4000, 4500, 5000 Blackwell) are read from the ways customers write them, and the older Ada Generation cards of the
same numbers (RTX 4000/4500/5000 Ada: 20/24/32 GB GDDR6, not in the catalogue) are not read as them."""

from __future__ import annotations

import pytest

from sizer_agent.agent.understanding import parse_message


@pytest.mark.parametrize(("text", "card", "count"), [
    ("Nous voulons une RTX PRO 4000 pour la CAO et un peu d'IA.", "rtx-pro-4000", 1),
    ("We'd like an RTX Pro 4500 Blackwell for SolidWorks and a local LLM.", "rtx-pro-4500", 1),
    ("Une station avec une PRO 5000, c'est jouable ?", "rtx-pro-5000", 1),  # said without "RTX"
    ("one NVIDIA RTX PRO 5000 Blackwell 48GB", "rtx-pro-5000", 1),
    ("j'ai déjà une rtx pro 4000 blackwell, elle suffit ?", "rtx-pro-4000", 1),
    ("2x RTX PRO 4500 in one tower", "rtx-pro-4500", 2),
])
def test_an_rtx_pro_blackwell_card_is_read_by_its_name(text: str, card: str, count: int) -> None:
    values = parse_message(text).values
    assert values.get("gpu_preference") == card
    assert values.get("num_gpus") == count


@pytest.mark.parametrize("text", [
    "We have an RTX 5000 Ada in our CAD workstation; is it enough for Llama 3.1 8B?",
    "Notre poste de CAO a une RTX 4000 Ada, ça suffit ?",
    "une RTX 4500 Ada Generation",
    "a Quadro RTX 5000 from 2019",
    "two RTX A5000 cards",
])
def test_an_ada_or_older_card_of_the_same_number_is_not_the_blackwell_card(text: str) -> None:
    assert parse_message(text).values.get("gpu_preference") is None


@pytest.mark.parametrize("text", ["Budget Pro 5000 €", "l'offre pro 4000 euros HT"])
def test_a_price_after_pro_is_no_card(text: str) -> None:
    assert parse_message(text).values.get("gpu_preference") is None


def test_two_rtx_pro_cards_weighed_are_a_question_not_a_choice() -> None:
    assert parse_message("RTX PRO 4000 Blackwell ou RTX PRO 4500 ?").values.get("gpu_preference") is None
