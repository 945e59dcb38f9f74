"""The RTX PRO Blackwell workstation cards by their names: the three mid-range cards the catalogue gained (RTX PRO
4000, 4500, 5000 Blackwell) are read from the ways customers write them, and the older Ada Generation cards of the
same numbers (RTX 4000/4500/5000 Ada: 20/24/32 GB GDDR6, not in the catalogue) are not read as them. Then the
Ampere cards customers own (RTX 3090, RTX A6000) and the Qwen2.5-Coder models, by their names."""

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


# The Ampere cards customers own (catalogue rtx-3090, rtx-a6000): read by the ways they are written, A6000 also
# without "RTX"; their faster or newer namesakes (RTX 3090 Ti, RTX 6000 Ada, RTX PRO 6000) stay their own
@pytest.mark.parametrize(("text", "card", "count"), [
    ("We have 4x RTX 3090 in a box, can it serve Qwen2.5-Coder 32B for 10 devs?", "rtx-3090", 4),
    ("On a deux RTX 3090, ça passe ?", "rtx-3090", 2),
    ("deux RTX 3090", "rtx-3090", 2),
    ("is a single 3090 enough for Qwen3 8B?", "rtx-3090", 1),
    ("an A6000", "rtx-a6000", None),
    ("2 A6000s", "rtx-a6000", 2),
    ("RTX A6000", "rtx-a6000", None),
    ("Can our lab's two RTX A6000 cards run Llama 3.1 70B in 4-bit?", "rtx-a6000", 2),
    ("une A6000 de 48 Go", "rtx-a6000", 1),
    ("RTX 6000 Ada", "rtx-6000-ada", None),
    ("one RTX 6000 Ada", "rtx-6000-ada", 1),
    ("RTX PRO 6000", "rtx-pro-6000-ws", None),
    ("an RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000-server", None),
])
def test_an_owned_ampere_card_and_its_namesakes_are_read_by_their_names(text: str, card: str,
                                                                         count: int | None) -> None:
    values = parse_message(text).values
    assert values.get("gpu_preference") == card
    assert values.get("num_gpus") == count


@pytest.mark.parametrize(("text", "count"), [
    ("we have a 3090 Ti", 1), ("2x RTX 3090 Ti in a tower", 2), ("une RTX 3090Ti", 1), ("deux RTX 3080", 2),
])
def test_a_3090_ti_is_not_the_3090(text: str, count: int) -> None:
    values = parse_message(text).values
    assert values.get("gpu_preference") is None  # a card the catalogue lacks: counted, not named
    assert values.get("num_gpus") == count


@pytest.mark.parametrize(("text", "card"), [
    ("Remplacement de nos 2 vieilles RTX A6000 par une machine avec des H100 PCIe.", "h100-pcie"),
    ("Currently on 2x RTX A6000 and they're too slow. We'd like a couple of RTX PRO 6000 Server Edition.",
     "rtx-pro-6000-server"),
    ("Ma vieille tour avec une 3090 ne suit plus, je cherche une station avec deux RTX 5090.", "rtx-5090"),
    ("Notre station à une RTX A6000 ne tient plus la charge ; on veut basculer sur quatre L40S.", "l40s"),
    ("We run Mixtral on 4x RTX 3090 today and it crawls. What should we buy?", None),
    ("Notre serveur actuel (2 RTX A6000) arrive en fin de vie et sera remplacé.", None),
])
def test_owned_ampere_cards_being_replaced_are_no_preference(text: str, card: str | None) -> None:
    assert parse_message(text).values.get("gpu_preference") == card


@pytest.mark.parametrize("text", [
    "Qwen2.5-Coder 32B for 10 devs", "qwen 2.5 coder 32b instruct", "Qwen2.5-Coder-32B-Instruct in AWQ",
    "un assistant de code basé sur Qwen2.5 Coder 32B",
])
def test_qwen25_coder_32b_is_read_as_itself_not_qwen25_32b(text: str) -> None:
    assert parse_message(text).values.get("model") == "Qwen/Qwen2.5-Coder-32B-Instruct"


def test_qwen25_coder_7b_and_the_general_32b_stay_apart() -> None:
    assert parse_message("Qwen2.5 Coder 7B on one RTX 4090").values.get("model") == "Qwen/Qwen2.5-Coder-7B-Instruct"
    assert parse_message("Qwen2.5 32B Instruct in AWQ int4").values.get("model") == "Qwen/Qwen2.5-32B-Instruct"
