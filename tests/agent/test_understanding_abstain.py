"""Whole messages where the reading must abstain (leave the field open, or offer candidates) rather than guess:
an engine named while trying things out, two models still undecided, a year or a share capital beside the
figures, product names joined by a slash."""

from __future__ import annotations

import pytest

from sizer_agent.agent.understanding import parse_message


@pytest.mark.parametrize(("text", "expected"), [
    ("Just for my own tinkering: DeepSeek-R1-Distill-Llama-8B, Q4_K_M, llama.cpp, on a mini PC.", None),
    ("pour bidouiller le soir : Mistral 7B avec Ollama", None),
    # an engine and a model alone say which tool, not what it does (names-precision6: over all development corpora,
    # 7 values served from an engine with no people or latency beside it, 6 of them wrong); with people, served
    ("Mistral 7B avec Ollama sur un mini PC", None),
    ("Mistral 7B avec Ollama sur un mini PC pour 5 utilisateurs simultanés", "online_serving"),
])
def test_an_engine_named_while_trying_things_out_says_no_use_case(text: str, expected: str | None) -> None:
    assert parse_message(text).values.get("use_case") == expected


def test_two_sizes_still_undecided_leave_the_model_open_and_offer_the_named_one() -> None:
    reading = parse_message("Groupe Savoie Transports envisage un assistant RH. Peut-être Llama 3.1 8B, peut-être le "
                            "70B, on n'a pas encore tranché.")
    assert reading.values.get("model") is None
    assert "meta-llama/Llama-3.1-8B-Instruct" in reading.suggestions.get("model", ())


@pytest.mark.parametrize(("text", "field", "expected"), [
    ("Pour Maison Dubreuil on veut Llama 3.1 8B sur AWS. Le catalogue 2026 v3 sort en mars.", "num_gpus", None),
    ("For Kestrel Marine: roadmap 2026, we want 4 H100 in our datacenter.", "num_gpus", 4),
    ("Budget 45 k€ HT.\n--\nMaison Lacroix & Cie – SAS au capital de 1 500 000 € – RCS Bordeaux", "budget_eur",
     45000.0),
    ("Chatbot on Azure.\nRegards,\nCallow & Pryce Ltd. – share capital €500,000", "budget_eur", None),
    ("Blue Heron Architects: a desktop with 2 RTX 6000 Ada for Rhino/V-Ray rendering, and Mixtral 8x7B (GPTQ)",
     "model", "mistralai/Mixtral-8x7B-Instruct-v0.1"),
])
def test_a_distractor_never_becomes_a_value(text: str, field: str, expected: object) -> None:
    assert parse_message(text).values.get(field) == expected
