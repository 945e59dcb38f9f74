"""Precision: a wrong value is worse than a question. Whole messages through `parse_message`, for the general
causes of wrong values the corpora showed (tests/agent/corpus/README.md), each said in phrasings of our own,
and our own message set (tests/agent/precision/) where no wrong value is allowed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from sizer_agent.agent.understanding import parse_message
from sizer_agent.agent.understanding.text import retracted_spans
from tests.agent.corpus_score import score

OWN = Path(__file__).parent / "precision" / "own.yaml"


def values(text: str) -> dict[str, Any]:
    return parse_message(text).values


# -- a correction within the message takes the words before it back -------------------------------------------

@pytest.mark.parametrize(("text", "field", "expected"), [
    ("We need 16k context — sorry, 32k context — for Qwen2.5 72B", "context_len", 32768),
    ("batch de 8, pardon, batch de 16, séquences de 2048", "batch_size", 16),
    ("On voulait Qwen3 Coder 480B, enfin non, c'est trop lourd : plutôt Qwen3 32B", "model", "Qwen/Qwen3-32B"),
    ("our devs want Qwen3 Coder 480B... actually no, too big, make it Qwen2.5 32B", "model",
     "Qwen/Qwen2.5-32B-Instruct"),
    ("on part sur 4 H100, oups, 4 H200 pour Llama 3.1 70B", "gpu_preference", "h200-sxm"),
    # "enfin plutôt 8", "well rather 8": the first figure is taken back; the new one, bare, is asked for
    ("LoRA sur Llama 3.1 70B. 4 GPU, enfin plutôt 8 d'après notre ML engineer.", "num_gpus", None),
    ("LoRA on Llama 3.1 70B with 4 GPUs, well rather 8 according to our ML lead.", "num_gpus", None),
    ("4 GPU, enfin plutôt 8 GPU pour le LoRA", "num_gpus", 8),
    # the corrected context said without its cue is the context the old words were said of: heldout2 fr-k14 and
    # heldout6 en-q16 (two writers who never saw the parser) label it so (branch names-precision28; was None)
    ("contexte 32k... non, 16k suffira", "context_len", 16384),
    ("a 64k window — sorry, 8k", "context_len", 8192),
    ("a 64k window — sorry, 8 hours", "context_len", None),
    # a second thought after an ellipsis, on the next line or after "actually"/"well,"
    ("Power: 2 kW on that circuit... actually the electrician says 3 kW max", "power_limit_w", 3000.0),
    ("contexte de 8k...\npardon, 16k de contexte", "context_len", 16384),
    ("around 30 users at once... well, 45 concurrent users at peak", "concurrency", 45),
    ("Budget 20k€... hmm, 25k€ with the support contract", "budget_eur", 25000.0),
    # an amount said as the first one, then the one that holds now
    ("Budget : on avait dit 12k€ au départ mais c'est 15k€ maintenant.", "budget_eur", 15000.0),
    ("Budget: we said €40k at first but it's €55k now.", "budget_eur", 55000.0),
])
def test_a_correction_within_the_message_is_never_read_as_the_first_value(text: str, field: str,
                                                                         expected: object) -> None:
    assert values(text).get(field) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("On part sur du LoRA, poids de base en bf16. Le QLoRA, on l'a écarté après un essai décevant en 4 bits.",
     "bf16"),
    ("LoRA in bf16 this time. QLoRA in 4-bit was ruled out after a disappointing trial.", "bf16"),
])
def test_a_format_of_a_trial_set_aside_is_no_candidate(text: str, expected: str) -> None:
    assert values(text).get("precision") == expected


@pytest.mark.parametrize("text", [
    "CAO, non, pas besoin. ECC : non.",  # "non" answers a question
    "Budget 20k€. Sorry for the long mail, we also need ECC.",  # after a full stop: no correction
    "Llama 3.1 8B, no fine-tuning, no CAD",
    "pas de cloud, non négociable",
    "Budget 20k€, sorry for the late reply, we need 4 H100",
    "Mémoire GPU avec ECC, correction d'erreurs obligatoire",
    "Llama 3.1 8B, pardon my French, is what we use",
    "Le modèle tourne bien, enfin plutôt bien, sur 2 GPU",  # "plutôt" before no figure qualifies, not corrects
])
def test_what_is_not_a_correction_takes_nothing_back(text: str) -> None:
    from sizer_agent.agent.understanding.text import plain

    assert retracted_spans(plain(text)) == []


# -- a question is not a statement ------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "do we need ECC for inference? we're serving Qwen3 8B to 5 users",
    "Faut-il de la mémoire ECC pour du fine-tuning LoRA ?",
    "ECC: is it really needed for a chatbot?",
])
def test_ecc_asked_about_is_not_required(text: str) -> None:
    assert "ecc_required" not in values(text)


# -- the use case needs a cue of its own --------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("can i run phi-4 on my desktop? it's got a 5080 in it", None),
    ("est-ce que je peux faire tourner Qwen3 8B sur mon PC ?", None),
    ("we also want to run Llama 3.1 70B Instruct for our writers", "online_serving"),
    ("Could two L40S handle Qwen2.5 72B in FP8 for a few dozen users?", "online_serving"),
    ("Mistral 7B pour nos juristes, sur une tour", "online_serving"),
    # one person trying a model out says no workload (heldout19 en-o11, en-o36)
    ("hey, could my gaming pc run mistral 7b? just me messing around with it", None),
    ("gpu for qwen3 8b inference, 8-bit, just testing. under 1000 euros", None),
    ("I want to run Mistral 7B locally for my 12 colleagues", "online_serving"),
])
def test_running_a_model_is_serving_only_when_people_use_it(text: str, expected: object) -> None:
    assert values(text).get("use_case") == expected


# -- our own messages: no wrong value at all ----------------------------------------------------------------------

def test_own_precision_set_has_no_wrong_value(corpus_report: Any) -> None:
    entries = yaml.safe_load(OWN.read_text(encoding="utf-8"))
    assert len(entries) >= 60
    assert sum(e["lang"] == "fr" for e in entries) >= 30 and sum(e["lang"] == "en" for e in entries) >= 30
    result = score(entries)
    corpus_report(result.summary("own precision set (written by the parser's author, not independent)"))
    assert result.wrong_values == [], result.summary("own precision set")
    assert result.recall >= 0.95, result.summary("own precision set")


# -- two readings that conflict: the chosen one, or none ------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("We first thought of Llama 3.1 405B but it's overkill; we'll go with Llama 3.1 70B in FP8",
     "meta-llama/Llama-3.1-70B-Instruct"),
    ("Candidats : Qwen3 32B et Gemma 3 27B ; finalement on part sur Gemma 3 27B", "google/gemma-3-27b-it"),
    ("Qwen3 32B or Mistral Small 3.1, not decided yet", None),
    ("Llama 3.1 8B pour le chat et Llama 3.3 70B pour les synthèses de nuit", None),
])
def test_two_models_named_give_the_chosen_one_or_a_question(text: str, expected: object) -> None:
    result = parse_message(text)
    assert result.values.get("model") == expected
    if expected is None:
        assert len(result.suggestions.get("model", ())) == 2  # "Did you mean …?" offers both


# -- a number attached to a product name, or said as a price, is no quantity -------------------------------------

@pytest.mark.parametrize(("text", "absent"), [
    ("Can a single RTX 5090 w/ 32GB handle Mistral 7B?", ("power_limit_w", "dataset_size_bytes")),
    ("gpt-oss-20b on one 5090 w/ vLLM", ("power_limit_w",)),
    ("Une carte coûte 8 000 € pièce ; notre enveloppe est de 20 000 €", ("num_gpus",)),
    ("une enveloppe électrique de 400 kW pour 256 B200", ("budget_eur",)),
    ("Budget around £8k for a Blender workstation", ("budget_eur",)),
    ("about 2 billion output tokens total over the weekend", ("output_len",)),
    ("Lot 2 : fourniture d'un serveur 4U", ("batch_size",)),
    ("Projet : classer 8 millions d'avis clients chaque mois", ("head_count",)),
    ("Our startup (a Llama 3.3 70B based product) needs a quote", ("customer",)),
    ("Pour la filiale UK : 4 B200", ("customer",)),
])
def test_a_number_or_name_read_with_a_weak_cue_is_not_a_value(text: str, absent: tuple[str, ...]) -> None:
    found = values(text)
    assert not set(absent) & set(found), found


# -- found on the second batch of our own messages, said otherwise ------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("need quote asap: 4U box, 4x L40S", {"deployment": "server", "rack_units": 4}),
    ("3 L40S ou 2 H100 pour du Llama 3.1 70B ?", {"model": "meta-llama/Llama-3.1-70B-Instruct"}),
    ("We'd rent 8x H200 to batch-caption 3M product images; budget €20k", {"budget_eur": 20000.0}),
    ("usually 10 users at the same time, up to 35 at month end", {"concurrency": 35}),
    ("Prompts de 4k tokens (correction : 6k)", {}),
    ("50 000 résumés à générer par nuit, résumés de 200 tokens", {"output_len": 200}),
])
def test_second_batch_causes(text: str, expected: dict[str, object]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert "num_gpus" not in found or "ou" not in text  # compared configurations give no count
    assert "input_len" not in found or "correction" not in text


# -- found by a scan of everyday sentences that should give nothing of the kind ----------------------------------

@pytest.mark.parametrize(("text", "absent"), [
    ("H100 80GB vs H200 141GB ?", ("dataset_size_bytes", "num_gpus")),  # no "200 141" in "H200 141GB"
    ("Llama 3.1 405B in FP8 is ~405 GB", ("dataset_size_bytes",)),
    ("Les 8 GPU de notre ancien cluster seront recyclés.", ("num_gpus",)),
    ("We tried 4 H100 last year on AWS; too expensive.", ("num_gpus",)),
    ("Team: TBD", ("customer",)), ("Besoin pour Noël : un serveur", ("customer",)),
    ("We're based at Harwell Campus in Oxfordshire.", ("customer",)),
    ("The window is 8 hours.", ("context_len",)),
    ("We use Python 3.11 and CUDA 12.4 with vLLM.", ("framework_version",)),
])
def test_everyday_sentences_give_no_value_of_that_kind(text: str, absent: tuple[str, ...]) -> None:
    found = values(text)
    assert not set(absent) & set(found), found


def test_a_size_next_to_a_precision_word_is_still_the_data() -> None:
    found = values("full fine-tune of Qwen2.5 7B (all weights, bf16) on 15 GB of tickets (~1.2 GB). seq len 8192")
    assert found["dataset_size_bytes"] == 15_000_000_000


# -- a precision said as an option or under a condition is offered, never recorded ------------------------------

@pytest.mark.parametrize(("text", "offered"), [
    ("On servira Qwen2.5 14B en FP8 ou en INT8, on hésite encore.", ("fp8", "int8")),
    ("Mistral 7B, peut-être en 4 bits si la carte est trop petite.", ("int4",)),
    ("We want BF16 unless memory is short, then AWQ.", ("bf16", "int4")),
    ("Phi-4 in GGUF Q8 if the laptop copes, otherwise Q4_K_M", ("int8", "int4")),
])
def test_a_hedged_precision_is_offered_not_recorded(text: str, offered: tuple[str, ...]) -> None:
    parsed = parse_message(text)
    assert "precision" not in parsed.values
    assert parsed.suggestions.get("precision") == offered


@pytest.mark.parametrize(("text", "expected"), [
    ("Serve Qwen3 8B in FP8 on one L4, 10 users", "fp8"),
    ("le modèle est publié en bf16, on le servira en FP8", "fp8"),
    ("Fine-tune with paged AdamW 8-bit on the bf16 weights", "bf16"),  # the optimizer's 8-bit is not int8
])
def test_a_chosen_precision_is_still_recorded(text: str, expected: str) -> None:
    assert values(text).get("precision") == expected


def test_two_precisions_stated_alike_are_a_doubt() -> None:
    parsed = parse_message("On a testé en AWQ mais on veut le servir en FP16.")
    assert "precision" not in parsed.values and parsed.doubts == {"precision": ("int4", "fp16")}


@pytest.mark.parametrize("text", [
    "Agence de 15 personnes : on veut traduire 20 000 documents chaque nuit en batch avec Qwen2.5 32B.",
    "We're a 9-person studio; nightly batch job captioning 50k images with Qwen2.5 7B.",
])
def test_a_company_size_in_a_batch_brief_is_no_head_count(text: str) -> None:
    parsed = values(text)
    assert parsed.get("use_case") == "batch_inference" and "head_count" not in parsed


# -- a range or an alternative of figures names no one value -------------------------------------------------

@pytest.mark.parametrize(("text", "absent"), [
    ("Qwen3 14B, contexte 8k-16k selon les dossiers", ("context_len",)),
    ("prompts of 500 to 1,000 tokens, answers 200-400 tokens", ("input_len", "output_len")),
    ("TTFT 200 - 300 ms for the chat", ("ttft_ms",)),
    ("On vise entre 2 et 4 GPU, avec 1 à 2 To de données", ("num_gpus", "dataset_size_bytes")),
    ("alimentation 2-3 kW dans le local", ("power_limit_w",)),
    ("images de 512 ou 1024 px", ("image_resolution",)),
    ("2x H100 or 4 L40S, whichever is cheaper", ("num_gpus", "gpu_preference")),
])
def test_a_range_of_figures_records_none(text: str, absent: tuple[str, ...]) -> None:
    parsed = values(text)
    assert not set(absent) & set(parsed), parsed


@pytest.mark.parametrize(("text", "expected"), [
    ("Context: 32k - 4 H100 - budget 50k€", {"context_len": 32768, "num_gpus": 4, "budget_eur": 50000}),
    ("4 H100 - 32k context", {"num_gpus": 4, "context_len": 32768}),
    ("batch 8 - 2 GPUs", {"batch_size": 8}),
])
def test_a_dash_between_list_items_is_no_range(text: str, expected: dict[str, object]) -> None:
    assert values(text).items() >= expected.items()


@pytest.mark.parametrize(("text", "absent", "kept"), [
    ("Max output 2048 tokens; context window 32k.", "output_len", {"context_len": 32768}),
    ("Prompts up to 4k tokens, outputs around 300.", "input_len", {"output_len": 300}),
    ("prompts moyens de 2 000 tokens, réponses de 300 tokens au maximum", "output_len", {"input_len": 2000}),
])
def test_a_mean_length_said_as_a_ceiling_is_not_recorded(text: str, absent: str, kept: dict[str, object]) -> None:
    parsed = values(text)
    assert absent not in parsed and parsed.items() >= kept.items()


# -- issue 11, second pass: a unit carries over from the input length to the output named right after it ----

@pytest.mark.parametrize(("text", "expected"), [
    ("Nightly we summarise support calls with Qwen2.5 7B; call notes average 2,500 tokens, summaries ~200.",
     {"input_len": 2500, "output_len": 200}),
    ("Chaque nuit on traduit des notices (documents de 1 800 tokens, traductions 2 000 environ) avec Mistral Small",
     {"input_len": 1800, "output_len": 2000}),
])
def test_the_input_unit_carries_over_to_the_output_named_next(text: str, expected: dict[str, object]) -> None:
    found = values(text)
    assert {k: found.get(k) for k in expected} == expected


def test_a_count_after_an_input_length_is_no_output_length() -> None:
    found = values("Tickets are 400 tokens; summaries 5,000 per night with Qwen3 8B.")
    assert found.get("input_len") == 400
    assert "output_len" not in found


@pytest.mark.parametrize(("text", "field", "expected"), [
    ("Budget : 30k... pardon 35 k€ HT.", "budget_eur", 35000.0),
    ("We need H100s: I said 8 but actually 6 GPUs will do.", "num_gpus", 6),
    ("j'avais dit 16 mais en fait 12 GPU suffiront", "num_gpus", 12),
])
def test_a_figure_corrected_by_pardon_or_but_actually_gives_the_new_one(text: str, field: str,
                                                                        expected: object) -> None:
    assert values(text).get(field) == expected


def test_sorry_for_a_delay_takes_nothing_back() -> None:
    assert values("Sorry 2 days late: we need 4 H100 for Llama 3.1 70B").get("num_gpus") == 4


# -- heldout10's causes (names-precision5), said otherwise: whole messages, where rules meet -----------------------

@pytest.mark.parametrize(("text", "expected", "absent"), [
    # people counted and using it at once make it served, whatever volume of items the business handles
    ("We process about 3,000 calls per day and 40 agents use the tool, 25 at once.",
     {"use_case": "online_serving", "head_count": 40, "concurrency": 25}, ()),
    ("Traduire 40 000 documents chaque nuit ; 30 salariés, 5 en même temps consultent les résultats.",
     {"use_case": "batch_inference"}, ()),
    ("Classify 2 million documents with Qwen3 8B; 3 data scientists, 2 at once, will check the results.",
     {"use_case": "batch_inference"}, ()),
    # what runs today, when the wish is to buy, is no cloud plan
    ("We rent a GPU at €2.50/h today; want to buy. Gemma 3 27B for 12 people.", {}, ("deployment",)),
    # people said to use it are its users even for training; runs of work at once are no concurrency
    ("LoRA de Llama 3.1 8B pour un TP : 30 étudiants vont l'utiliser, 3 jobs à la fois max.",
     {"head_count": 30, "use_case": "finetune_lora"}, ("concurrency",)),
    # learners on a teaching machine are its users, unless each has a machine of their own
    ("For our MSc cohort (45 students) we'd like a shared server to QLoRA fine-tune Mistral 7B.",
     {"head_count": 45, "use_case": "finetune_qlora"}, ()),
    ("Bootcamp: a class of 24 students practise LoRA, each on their own desktop with one GPU.",
     {"use_case": "finetune_lora"}, ("head_count",)),
    ("Notre équipe de 6 personnes fine-tune Mistral 7B en LoRA.", {"use_case": "finetune_lora"}, ("head_count",)),
    # a territory's people, a member count beside the name: no head count
    ("Notre commune (12 400 habitants) voudrait un chatbot Mistral 7B, 10 à 20 conversations en parallèle.",
     {"concurrency": 20}, ("head_count",)),
    ("La coopérative Terres du Causse (900 adhérents) veut entraîner un YOLO sur 40 Go d'images.",
     {"customer": "Terres du Causse"}, ("head_count",)),
    # a card weighed in a question, ruled out, or over budget: no preference, no count
    ("Is the MI300X better than the B200 for gpt-oss 120b? About 40 users at once.",
     {"concurrency": 40}, ("gpu_preference", "num_gpus")),
    ("Une RTX PRO 6000 Max-Q serait hors budget, donc je ne la demande pas. Une station de travail pour AutoCAD.",
     {"deployment": "workstation"}, ("gpu_preference", "num_gpus")),
    # a year after "la rentrée", a Canadian-dollar amount: no length, no CAD work, no euro budget
    ("Tutorat avec Gemma 2 9B, 50 élèves en même temps. Démarrage à la rentrée 2027.", {"concurrency": 50},
     ("input_len",)),
    ("Two RTX 5090s in a desktop tower. Budget: CAD $12,000.", {"num_gpus": 2}, ("rendering_cad", "budget_eur")),
    # raw vs filtered: the size trained on
    ("Pre-train on 3 TB of sequences (the raw download was 11 TB before filtering).",
     {"dataset_size_bytes": 3 * 10**12}, ()),
])
def test_heldout10_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


# -- heldout11's general causes, said in our own words (branch names-precision6) ---------------------------------

@pytest.mark.parametrize(("text", "expected", "absent"), [
    # an engine, a lone user or a kiosk says no use: the interview asks
    ("J'ai installé vLLM sur une L40S avec Gemma 3 27B. Faut-il plus de RAM ?", {"framework": "vllm"}, ("use_case",)),
    ("Ollama on my desktop with Qwen3 8B: would 64 GB of RAM help?", {"framework": "ollama"}, ("use_case",)),
    ("Phi-4 sur une tour avec une RTX 5080, 1 seul utilisateur. Ça passe ?", {"concurrency": 1}, ("use_case",)),
    ("A kiosk in our lobby, maybe with Llama 3.2 3B Instruct on a small box.", {}, ("use_case",)),
    # ... but an engine with people or a latency target, a verb of use with its user, a kiosk assistant serve
    ("vLLM with Qwen3 32B for 30 concurrent users", {"use_case": "online_serving"}, ()),
    ("Je veux faire tourner Mistral 7B en local, un seul utilisateur : moi.", {"use_case": "online_serving"}, ()),
    ("Kiosks answering visitor questions with Gemma 3 4B, 6 at once.", {"use_case": "online_serving"}, ()),
    # a funder's project, a document heading, a computer, a consultancy, the writer's first name: not the customer
    ("Dans le cadre du projet ANR MOSAIC, l'équipe LIRMM veut affiner Llama 3.1 8B en LoRA sur 2 H100.",
     {"customer": "LIRMM"}, ()),
    ("REQUEST FOR QUOTATION\nBuyer: Kelmoor District Council\nTwo L40S servers for a staff chatbot.",
     {"customer": "Kelmoor District Council"}, ()),
    ("Mon MacBook Pro ne suffit plus pour Qwen3 32B en 4 bits.", {}, ("customer",)),
    ("Ashdown Advisory here, on behalf of our client Brightmere Dairies: a LoRA on Mistral 7B.",
     {"customer": "Brightmere Dairies"}, ()),
    ("Bonjour, ici Yann de l'INSA Rennes. On voudrait un serveur pour des TP de LoRA.",
     {"customer": "INSA Rennes"}, ()),
    # NVL72 racks, a variant said in full, hardware retired or outgrown
    ("Two GB200 NVL72 racks for pre-training from scratch.", {"num_gpus": 144, "gpu_preference": "gb200"}, ()),
    ("Subject: spare H100s\nWe have 8 H100 PCIe in two boxes.", {"num_gpus": 8, "gpu_preference": "h100-pcie"}, ()),
    ("Aujourd'hui on tourne sur 2 RTX 4090 et on veut passer à des H200.", {"gpu_preference": "h200-sxm"},
     ("num_gpus",)),
    # a rack's height beside the room left, a link's rate, a ruled-out framework, feeds, people after a length word
    ("Notre armoire fait 47U, il reste 4U de libres.", {"rack_units": 4}, ()),
    ("Réseau 200 Gb/s entre les nœuds, corpus de 80 Go.", {"dataset_size_bytes": 80 * 10**9}, ()),
    ("TensorFlow is not an option for us: we fine-tune with PyTorch FSDP.", {"framework": "pytorch"}, ()),
    ("Detection on 16 camera streams with YOLO, trained on 50 GB of images.", {"use_case": "vision"},
     ("concurrency",)),
    ("Autocompletion: 80 developers, 25 at once.", {"concurrency": 25, "head_count": 80}, ("output_len",)),
    # Apple's desktops are workstations, unless the joke is taken back
    ("Un Mac mini suffira pour Phi-4 en 4 bits ?", {"deployment": "workstation"}, ("customer",)),
    ("gemma 3 4b on a mac studio... jk, on a linux box with one rtx 5080", {"num_gpus": 1}, ("deployment",)),
])
def test_heldout11_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


# -- heldout21 and own batch 19: the causes of their wrong values, said in phrasings of our own ---------------------

@pytest.mark.parametrize(("text", "expected", "absent"), [
    # a market price quoted for comparison, the budget said apart: neither cards, server nor amount are the plan
    ("Pour info, une baie de 8 B200 se négocie vers 450 000 €. Notre budget est de 300 000 €.",
     {"budget_eur": 300000}, ("num_gpus", "gpu_preference", "deployment")),
    ("Budget: €120k. For reference, a server with 4 H200 is priced at about €160,000.",
     {"budget_eur": 120000}, ("num_gpus", "gpu_preference", "deployment")),
    ("We want 2 L40S; one costs about €9,000.", {"num_gpus": 2, "gpu_preference": "l40s"}, ()),
    # the budget in the same sentence, in its own clause
    ("8 H200 coûtent ~350 000 €, notre budget est 250 000 €.", {"budget_eur": 250000},
     ("num_gpus", "gpu_preference")),
    ("A DGX with 8 H100 lists at about $400k, while our budget is €250k.", {"budget_eur": 250000},
     ("num_gpus", "gpu_preference", "deployment")),
    ("Notre budget est de 90 000 €, alors qu'un serveur à 4 H100 coûte 150 000 €.", {"budget_eur": 90000},
     ("num_gpus", "gpu_preference", "deployment")),
    ("We'd buy 4 H100s, which cost about €120k, and our budget is €150k.", {"num_gpus": 4, "budget_eur": 150000}, ()),
    # a head count said per unit, the units counted before it: the total a sizing engineer works out
    ("On compte 5 magasins, 8 vendeurs par magasin, pour un assistant sur Mistral 7B.", {"head_count": 40}, ()),
    ("Two departments of 35 engineers each will use the assistant.", {"head_count": 70}, ()),
    ("One workstation per lab: 4 labs with 6 researchers each.", {"head_count": 6}, ()),
    # a choice taken back: by a sentence that opens with "scratch that", or by "finalement non" after a bracket
    ("We'll do QLoRA in 4-bit NF4 on Mistral 7B. Scratch that: full LoRA in bf16 it is.",
     {"use_case": "finetune_lora", "precision": "bf16"}, ()),
    ("Nous pensions à du QLoRA (4 bits) — finalement non, du LoRA en bf16 sur Qwen2.5 7B.",
     {"use_case": "finetune_lora", "precision": "bf16"}, ()),
    # an event named near the customer; a name whose article is grammar at first and written in the signature
    ("Loved your keynote at Devoxx Antwerp. We'd like to fine-tune Llama 3.1 8B with LoRA.\nCheers, Pieter de Wit, "
     "Kempen Data", {"customer": "Kempen Data"}, ()),
    ("The Fenwick Foundation would like a chatbot on Mistral 7B.\nRegards,\nJo\n— The Fenwick Foundation",
     {"customer": "The Fenwick Foundation"}, ()),
    # no use chosen yet: neither a product's word nor a verb of use says a workload
    ("Nous voulons un serveur GPU pour nos 40 salariés, sans projet précis pour l'instant.", {"head_count": 40},
     ("use_case",)),
    ("Not sure what we'd use it for yet; 25 people might use it. Would love to chat about options.", {},
     ("use_case",)),
    # a bound that excludes its figure is no count
    ("Serving Qwen2.5 32B to 30 users, ideally on fewer than 2 GPUs.", {"concurrency": 30}, ("num_gpus",)),
    # a first idea, then what was settled
    ("Au départ on visait du FP8, finalement on restera en BF16 pour Llama 3.1 8B.", {"precision": "bf16"}, ()),
    ("At first we considered int8, in the end we'll serve Qwen3 8B in bf16.", {"precision": "bf16"}, ()),
    # "to" before a figure already read is the English preposition, not téraoctets; a version before its engine
    ("We serve Mistral 7B via vLLM 0.10 to 200 users of our app.", {"framework_version": "0.10", "concurrency": 200},
     ("dataset_size_bytes",)),
    # a correction that names no model corrects the words before the model, not the model
    ("We'd do a full fine-tune of Qwen3 8B — no, actually, LoRA will do — on 2 H100.",
     {"model": "Qwen/Qwen3-8B", "use_case": "finetune_lora"}, ()),
    # a method taken back in other words: after the model, by "change of plan", "we then decided", "but switched
    # to", "oubliez le …"
    ("Fine-tune Mistral 7B with QLoRA — no, actually plain LoRA on bf16.",
     {"use_case": "finetune_lora", "model": "mistralai/Mistral-7B-Instruct-v0.3"}, ()),
    ("We planned QLoRA (4-bit). Change of plan: LoRA in bf16 on Llama 3.1 8B.",
     {"use_case": "finetune_lora", "precision": "bf16"}, ()),
    ("Initially QLoRA in NF4; we then decided on plain LoRA, bf16, for Gemma 2 9B.",
     {"use_case": "finetune_lora", "precision": "bf16"}, ()),
    ("We were going to use QLoRA but switched to LoRA in bf16 for Mistral 7B.", {"use_case": "finetune_lora"}, ()),
    ("Oubliez le QLoRA : ce sera du LoRA en bf16 sur Mistral 7B.", {"use_case": "finetune_lora"}, ()),
    # after an ellipsis only the last words are taken back, not the sentence
    ("Our 30 developers want an assistant on Qwen3 32B... actually no, make it Qwen2.5 32B.",
     {"model": "Qwen/Qwen2.5-32B-Instruct", "use_case": "online_serving"}, ()),
])
def test_heldout21_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize(("text", "expected", "absent"), [
    # a legal form of several parts, or Québec's lowercase "inc.", is part of the name
    ("Hello from Lindqvist Maschinenbau GmbH & Co. KG: we want a chatbot on Mistral 7B.",
     {"customer": "Lindqvist Maschinenbau GmbH & Co. KG"}, ()),
    ("This is Aiko Sato from Hoshino Materials Co., Ltd. We need to serve Qwen2.5 7B.",
     {"customer": "Hoshino Materials Co., Ltd."}, ()),
    ("Je travaille chez Tremblay Logistique inc. à Sherbrooke; on veut servir Llama 3.1 8B.",
     {"customer": "Tremblay Logistique inc."}, ()),
    # the price once paid for the machine replaced is no budget; a figure with no currency from outside the euro
    # area is none either
    ("We're retiring our 4x A100 box (purchased in 2021 for €120,000). No budget figure yet.", {},
     ("budget_eur",)),
    ("Notre vieux serveur, acheté en 2018 pour 30 000 €, sera remplacé. Budget : 50 k€ HT.",
     {"budget_eur": 50000}, ()),
    ("Our district in Texas has a budget of about 20k for the lab.", {}, ("budget_eur",)),
    ("Budget autour de 40 000, on est une PME de Lyon.", {"budget_eur": 40000}, ()),
    ("Budget autour de 40 000 ; nous sommes à Sherbrooke, au Québec.", {}, ("budget_eur",)),
    # a tender writes each number twice: the machines still count
    ("Supply of four (4) servers, each fitted with two (2) L40S GPUs.", {"num_gpus": 8}, ()),
    # people at once, not cards
    ("A new 8-GPU H100 server for 200 analysts, 40 of them at once.", {"num_gpus": 8, "concurrency": 40}, ()),
    # advice from others, then the writer's own choice
    ("Our consultant suggested QLoRA; we were told LoRA might be enough, but we want a full fine-tune of Qwen2.5 7B.",
     {"use_case": "finetune_full"}, ()),
    # an LLM assistant served beside a detector that only runs
    ("The box will host a chatbot on Llama 3.1 8B and run YOLOv8s inference on 6 cameras.",
     {"use_case": "online_serving"}, ()),
    ("We want to train YOLOv8s on 50,000 images, then an assistant will explain the detections.",
     {"use_case": "vision"}, ()),
    # two listed models, the choice still open
    ("We can't decide whether we go with Qwen2.5 72B or Llama 3.3 70B for the assistant.", {}, ("model",)),
    # a figure, a word that is no unit and the article "a" before another figure make no range ("1024, on a 3 GiB")
    ("Full fine-tune of Qwen2.5 7B, sequence length 2048, on a 3 GiB dataset.",
     {"context_len": 2048, "dataset_size_bytes": 3 * 2**30}, ()),
    # a length said for each thing generated
    ("Traduction de 8 000 fiches chaque nuit avec Qwen2.5 14B, environ 250 tokens par traduction.",
     {"output_len": 250}, ()),
    # "two dozen" is twenty-four, never two
    ("We have two dozen analysts who would use the assistant, a dozen at once.",
     {"head_count": 24, "concurrency": 12}, ()),
    # a negation inside an aside between spaced dashes ends with the aside
    ("On voudrait Qwen3 32B — la version dense, pas le MoE — en FP8 pour 40 utilisateurs simultanés.",
     {"precision": "fp8"}, ()),
    # a format of trials already judged is no candidate beside the one wanted
    ("We want Qwen2.5 32B in FP8; our first tests in 4-bit were poor.", {"precision": "fp8"}, ()),
    # a budget corrected in a second breath
    ("Budget de 30 k€, enfin non, la direction vient de valider 42 k€.", {"budget_eur": 42000}, ()),
    # a prototype set aside for production
    ("Our PoC ran a Q4_K_M GGUF in Ollama; for production we want FP8 on vLLM for 50 users.",
     {"precision": "fp8", "framework": "vllm"}, ()),
])
def test_heldout22_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


# heldout23's causes, said in other words than the corpus and the twenty-first batch (branch names-precision18)
@pytest.mark.parametrize("text,expected,absent", [
    # a registered form after the name, lowercase or dotted
    ("Morning — Tarnwell Foods plc would like a quote for an on-prem chatbot.", {"customer": "Tarnwell Foods plc"}, ()),
    ("Kladno Glass s.r.o. plans to serve Qwen2.5 7B for its sales team.", {"customer": "Kladno Glass s.r.o."}, ()),
    ("Greetings from Saimaa Timber Oy, we need a summariser.", {"customer": "Saimaa Timber Oy"}, ()),
    # a pronoun with its verb right after the name
    ("Writing for the Royal Botanic Trust I'm looking for a training box.", {"customer": "Royal Botanic Trust"}, ()),
    # a department's words, then its organisation
    ("La Direction des Systèmes d'Information de l'Université de Picardie souhaite un devis.",
     {"customer": "Université de Picardie"}, ()),
    # a client named as such, below the sender's firm
    ("De : Julie Martin (Cabinet Orient Conseil)\nLe client, c'est Fromagerie des Aravis : un chatbot.",
     {"customer": "Fromagerie des Aravis"}, ()),
    # a flow of data over a period is no data set
    ("Chaque nuit on résume les tickets du jour, environ 12 Go de texte par mois.", {}, ("dataset_size_bytes",)),
    ("We tag about 3 GB of fresh logs every night with Mistral 7B.", {}, ("dataset_size_bytes",)),
    # the card owned, one more to add, the total said after
    ("Nous avons une RTX 5090 et nous en achèterions une autre, soit 2 cartes en tout.", {"num_gpus": 2}, ()),
    # two configurations weighed, one card named by its number only
    ("Pour la station : 2 RTX 5080 ou une 5090, à voir.", {}, ("num_gpus",)),
    # a slash pair, its line ended, the next line starting with a word
    ("Entrée / sortie : 2 500 / 400\nUtilisateurs : 60", {"input_len": 2500, "output_len": 400}, ()),
    # a format dropped or that failed
    ("We first planned to use int8 but FP8 runs faster on our H100s, so FP8.", {"precision": "fp8"}, ()),
    ("Nous avions eu des divergences en fp16, alors on passera en bf16.", {"precision": "bf16"}, ()),
    # engines still weighed
    ("Training stack: DeepSpeed or Nanotron, not decided yet.", {}, ("framework",)),
    # a staff count in brackets, the chatbot for patients
    ("I run IT at Brightmoor Clinics (60 staff). Our patient-facing triage bot must handle 30 chats at once.",
     {"concurrency": 30}, ("head_count",)),
    # a ceiling word on the next line is not said of the length before it
    ("Input/output: 4k / 500 tokens\nMax context: 16k", {"input_len": 4096, "output_len": 500, "context_len": 16384},
     ()),
    # a joke taken back
    ("Mistral Small 3.1 avec 2M de contexte ? mdr non sérieusement, un contexte de 128k ira.",
     {"context_len": 131072}, ()),
    # an institution's size, then the smaller group that uses the tool
    ("Greyfield College, a college of 2,300 students. Our library team (9 librarians) wants an assistant.",
     {"head_count": 9}, ()),
])
def test_heldout23_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


# heldout24's causes, said in other words than the corpus and the twenty-second batch (branch names-precision19)
@pytest.mark.parametrize("text,expected,absent", [
    # a firm's size, then the only group that uses the tool with its size in brackets
    ("Bureau d'études de 70 personnes ; seul le pôle structure (14 ingénieurs) utilisera l'assistant.",
     {"head_count": 14}, ()),
    # a forwarded count corrected below it
    ("> Besoin de 2 L40S pour Mistral 7B.\n\nMise à jour du client : finalement 5 L40S et non 2.",
     {"num_gpus": 5, "gpu_preference": "l40s"}, ()),
    ("> They asked for 3 H200s.\n\nUpdate from the client: now 6 H200s rather than 3.",
     {"num_gpus": 6, "gpu_preference": "h200-sxm"}, ()),
    # offers said not to be the budget; today's server falling short is no place chosen
    ("Notre serveur actuel (4x V100) ne suffit plus. Des intégrateurs nous ont cité 300 k€, ce n'est pas notre "
     "budget. Servir Qwen3 32B à 60 personnes en même temps.", {"concurrency": 60}, ("budget_eur", "deployment")),
    # a load said as a move over time is today's figure, with the growth
    ("We'll grow from 20 to 60 concurrent users next year (x3) on our Llama 3.1 8B assistant.",
     {"concurrency": 20, "growth_factor": 3.0}, ()),
    # a labelled range gives its top; the writer counts with a range of colleagues
    ("Modèle : Qwen3 14B\nConcurrence : 30 à 50 sessions\nDéploiement : serveur", {"concurrency": 50}, ()),
    ("Can two RTX 5090 run Qwen3 32B for me and 3-4 colleagues at once?", {"concurrency": 5}, ()),
    # a laptop's card is another chip of the same name; its one GPU is still counted
    ("Could I fine-tune Llama 3.2 1B with LoRA on my laptop's RTX 5090 Laptop GPU (24 GB)?", {"num_gpus": 1},
     ("gpu_preference", "dataset_size_bytes")),
    # today's setup falling short for the people who use it says no workload planned
    ("At present Gemma 3 27B runs on three RTX A5000 and it crawls for our 45 paralegals. Advice on H200 vs B200?",
     {"head_count": 45}, ("use_case",)),
    # two listed models said with a maybe
    ("We may go with Qwen2.5 72B or Llama 3.3 70B, not decided; whichever it is, FP8 for 30 concurrent users.",
     {"precision": "fp8", "concurrency": 30}, ("model",)),
    # a figure after an output's word is the output, even said per item
    ("Model: Qwen2.5 14B. Output about 180 tokens per record, 3 million records in one batch.",
     {"output_len": 180, "use_case": "batch_inference"}, ("input_len",)),
    # a consultancy advising its named client, and a card pair
    ("Hi, we're Tarrant Advisory, advising Holm Shipping AS. They'd like an L40S pair for a crew chatbot.",
     {"customer": "Holm Shipping AS", "num_gpus": 2, "gpu_preference": "l40s"}, ()),
    # a fine-tune done is the plan; a streamed answer's speed; an answer that starts within a delay
    ("Nous voulons faire un fine-tune de Mistral 7B sur nos comptes rendus.", {"use_case": "finetune_full"}, ()),
    ("Chatbot Qwen2.5 7B, réponses en streaming à au moins 20 tokens/s, et la réponse démarre en moins de 500 ms.",
     {"tpot_ms": 50.0, "ttft_ms": 500.0}, ()),
    # today's engine beside the one planned; a call note's heading; "c'est Léa de …"; "base" before a name
    ("Aujourd'hui on tourne avec Ollama sur une tour. On veut un serveur avec SGLang pour Qwen3 8B.",
     {"framework": "sglang"}, ()),
    ("Compte rendu de réunion — Cabinet Lefort & Associés (experts-comptables, Tours)\n- besoin : assistant",
     {"customer": "Cabinet Lefort & Associés"}, ()),
    ("Bonjour, c'est Léa de Vignobles Associés du Médoc. On veut un chatbot sur Qwen3 8B.",
     {"customer": "Vignobles Associés du Médoc"}, ()),
    ("On veut servir notre modèle affiné (base Llama 3.1 8B Instruct) via vLLM.",
     {"model": "meta-llama/Llama-3.1-8B-Instruct"}, ()),
    # batch work said as one lot, a night's generation, a monthly translation of ~N documents
    ("Générer les résumés de 40 000 dossiers en un seul lot avec Qwen3 8B.", {"use_case": "batch_inference"}, ()),
    ("Traduction nocturne de 5 000 fiches avec Mistral Small 3.1.", {"use_case": "batch_inference"}, ()),
])
def test_heldout24_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


# heldout25's and heldout26's causes, said in other words than the corpora and the twenty-third batch (branch
# names-precision20)
@pytest.mark.parametrize("text,expected,absent", [
    # a press title keeps its article at a sentence's start; an organisation's article stays grammar
    ("Le Petit Journal des Alpes voudrait résumer ses archives avec Qwen3 8B.",
     {"customer": "Le Petit Journal des Alpes"}, ()),
    # a count taken back by a bare figure that names it, or with the GPUs' word, or right after the count
    ("We'd take 2x L40S for 50 people at once — sorry, I meant 3, not 2.",
     {"num_gpus": 3, "gpu_preference": "l40s", "concurrency": 50}, ()),
    ("Côté matériel : 8 GPU — correction, 4 GPU, après arbitrage.", {"num_gpus": 4}, ()),
    ("On vise 2 H200... pardon, 4, j'ai mal lu le devis.", {"num_gpus": 4, "gpu_preference": "h200-sxm"}, ()),
    # a count of prompts beside their length; a share of them under a bound is no length
    ("Re-run 8,000 prompts (about 700 tokens each) through Mistral 7B offline.", {"input_len": 700}, ()),
    ("75 % des demandes font moins de 1 000 tokens ; 30 utilisateurs simultanés.", {"concurrency": 30},
     ("input_len",)),
    # a chat speaker named like a CAD product, with their firm in brackets; a side job on rented GPUs set aside
    ("[thread]\nUnity (Head of Ops, Corvexa): we serve Qwen3 14B to 25 people at once\nBen: the retrain runs on "
     "rented GPUs, don't size for it", {"customer": "Corvexa", "concurrency": 25}, ("rendering_cad", "deployment")),
    # CAD denied by "nothing"
    ("A YOLOv8 trainer; nothing will be modelled or rendered in CAD on that box.", {"rendering_cad": False}, ()),
    # money spent before, or charged by the previous supplier, is no budget
    ("L'an dernier on a dépensé 6 500 € en GPU loués ; cette fois un serveur sur site, budget 25 k€.",
     {"budget_eur": 25000.0, "deployment": "server"}, ()),
    ("Our previous transcription vendor charged us €30k; we now want Whisper on-prem.", {}, ("budget_eur",)),
    # the people at which today's system gives way; a range of users logged in beside a peak; residents set against
    # the users
    ("Notre assistant actuel sature dès qu'on dépasse 20 utilisateurs ; on en vise 60 simultanés.",
     {"concurrency": 60}, ("head_count",)),
    ("Between 25 and 35 people logged in most days, peaking at 55.", {"concurrency": 55}, ("head_count",)),
    ("A chatbot for residents: the district has 70,000 residents, but perhaps 30 chatting at once.",
     {"concurrency": 30}, ("head_count",)),
    # "to" after a version is the English word, not téraoctets
    ("Serve Qwen3 32B with SGLang 0.4 to around 90 analysts.", {"framework_version": "0.4"},
     ("dataset_size_bytes",)),
    # a laptop's card in brackets beside the desktop card wanted; the card that replaces
    ("My laptop's RTX 5090 (the mobile 24 GB one) is too small; I'd buy a desktop with an RTX PRO 6000 instead.",
     {"gpu_preference": "rtx-pro-6000-ws", "num_gpus": 1}, ("dataset_size_bytes",)),
    ("Notre poste avec une RTX 4090 rame ; on voudrait le remplacer par une tour avec une RTX PRO 5000.",
     {"gpu_preference": "rtx-pro-5000"}, ()),
    # a school's teaching room is no customer; an acronym that opens a sentence sizing it; a funded project's carrier
    ("Pour le Lycée Victor-Hugo, on équipe une salle de TD avec 10 postes.", {"customer": "Lycée Victor-Hugo"}, ()),
    ("L'ENSTA compte environ 900 élèves, mais l'assistant sera pour 15 enseignants.", {"customer": "ENSTA"}, ()),
    ("Projet ANR « Breizh-LM », porté par le LS2N : pré-entraînement d'un modèle de 1B.", {"customer": "LS2N"}, ()),
    # a model replaced by another; "enfin" after an ellipsis corrects an amount
    ("Nous voulons remplacer Llama 3.1 8B par Qwen3 14B pour le support.", {"model": "Qwen/Qwen3-14B"}, ()),
    ("Budget 60 k€... enfin 70 k€, validé hier.", {"budget_eur": 70000.0}, ()),
    # lengths said "is a ~N-token", "d'env.", after a word of size; an output's ceiling is no context
    ("Output is a ~120-token summary per call.", {"output_len": 120}, ()),
    ("Réponses brèves, env. 90 tokens ; sortie 200 tokens max.", {}, ("context_len",)),
])
def test_heldout25_26_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


# heldout27's causes, said in other words than the corpus and the twenty-fourth batch (branch names-precision21)
@pytest.mark.parametrize("text,expected,absent", [
    # "Côté X" opens a name; a school's town after someone who teaches there; minutes name the organisation that
    # holds the meeting, in brackets after its project
    ("Côté Orvane (start-up), on aimerait servir Qwen3 8B à 10 personnes.", {"customer": "Orvane"}, ()),
    ("Je suis documentaliste au Lycée Jules-Ferry de Cahors, on voudrait une tour avec une RTX 5090.",
     {"customer": "Lycée Jules-Ferry"}, ()),
    ("Minutes of 12 March – Project Kestrel (Halden Group)\n- model: Llama 3.1 8B\n- 30 concurrent users",
     {"customer": "Halden Group", "concurrency": 30}, ()),
    # a court's registry, public archives and a regional office named with lowercase kind words
    ("Le greffe du Tribunal judiciaire de Nantes veut anonymiser environ 800 000 jugements, en différé.",
     {"customer": "Tribunal judiciaire de Nantes", "use_case": "batch_inference"}, ()),
    ("Les Archives nationales du monde du travail souhaitent indexer leurs fonds.", {}, ()),
    # cards granted at a computing centre choose no place; a machine kept as it is beside a new one is set aside
    ("Notre équipe peut utiliser quatre A100 du centre de calcul de l'université pour un LoRA de Qwen3 8B.",
     {"num_gpus": 4, "use_case": "finetune_lora"}, ("deployment",)),
    ("We already have a box with 2 RTX A6000 for the BI team; it stays as it is. We need a new server with 4 H200 "
     "for Llama 3.3 70B.", {"num_gpus": 4, "gpu_preference": "h200-sxm", "deployment": "server"}, ()),
    # data sets counted each; agents in parallel; an order of size names no head count
    ("Fine-tuning LoRA sur 5 corpus de 100 Mo chacun.", {"dataset_size_bytes": 500_000_000}, ()),
    ("Our tool-calling stack needs to sustain 12 parallel agent sessions on Qwen3 32B.", {"concurrency": 12},
     ("head_count",)),
    ("The firm has several thousand employees; an internal chatbot on Mistral Small 3.1.", {}, ("head_count",)),
    # a method tried and left for another; a fine-tune before serving is the fine-tune
    ("QLoRA gave us poor answers, so we're switching to standard LoRA on Qwen2.5 7B.",
     {"use_case": "finetune_lora"}, ()),
    ("We intend to QLoRA Gemma 3 12B on our manuals and afterwards serve it to staff.",
     {"use_case": "finetune_qlora"}, ()),
    # a text given back is no rendering; an office's IT signs with its organisation
    ("Chaque courrier fait 1k tokens et le texte rendu autant ; traitement de nuit.", {}, ("rendering_cad",)),
    ("Serve Qwen3 8B to 40 people at once. Thanks, Town of Marlow IT", {"customer": "Town of Marlow"}, ()),
    # a judgment's length is the input; a task said as a noun over a mass of e-mails is batch work; "Cie" signs
    ("Chaque arrêt fait environ 4k tokens ; anonymisation de 90 000 arrêts avec Qwen3 8B.",
     {"input_len": 4096, "use_case": "batch_inference"}, ()),
    ("Classification de 250 000 courriels clients avec Mistral 7B.\nCie Bretonne de Transport",
     {"use_case": "batch_inference", "customer": "Cie Bretonne de Transport"}, ()),
    # a requester field: the organisation after the asking unit, or in brackets after the person; a person alone none
    ("Réf. 2231 | Demandeur : DSI Laiteries du Forez | Priorité : normale\nBesoin : résumer 20 000 fiches.",
     {"customer": "Laiteries du Forez"}, ()),
    ("Requested by: M. Tanaka (Kiso Rail Systems, operations)\nNeed: Qwen3 8B chatbot for 25 users at once.",
     {"customer": "Kiso Rail Systems"}, ()),
    ("Demandeur : Paul Girard\nBesoin : un chatbot Mistral 7B.", {}, ("customer",)),
    # a format named with a bad experience is set aside
    ("Pas de quantification, on reste en fp16 (on a eu de mauvais résultats en int8).", {"precision": "fp16"}, ()),
    # a DGX system counted holds 8 GPUs of its kind
    ("Merci de chiffrer deux DGX H100 pour notre labo.", {"num_gpus": 16, "gpu_preference": "h100-sxm",
                                                         "deployment": "server"}, ()),
])
def test_heldout27_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


# heldout28's causes, said in other words than the corpus and the twenty-fifth batch (branch names-precision22)
@pytest.mark.parametrize("text,expected,absent", [
    # "servir à / pour" is what a machine is used for; a LoRA said in a noun phrase is the plan
    ("Une tour qui servira également au rendu 3D. Objectif : entraînement de LoRA sur Stable Diffusion XL.",
     {"use_case": "finetune_lora"}, ()),
    ("Le serveur actuel nous sert pour la paie ; on veut fine-tuner Qwen3 8B par LoRA.",
     {"use_case": "finetune_lora"}, ()),
    # a machine hosted in a room and hosting constraints say where it sits, not a model served
    ("Spécialisation de Gemma 3 12B par LoRA ; serveur hébergé chez nous, ECC exigée.",
     {"use_case": "finetune_lora"}, ()),
    ("Conditions d'hébergement : 6U max. Le serveur servira à l'apprentissage et à l'inférence.", {}, ("use_case",)),
    # a machine kept aside before a purchase said apart: its cards are not the plan, nor is its place
    ("On a déjà une machine avec 4 A40 pour le rendu, on n'y touche pas. Pour le chatbot on voudrait acheter "
     "2 H100 NVL.", {"num_gpus": 2, "gpu_preference": "h100-nvl"}, ("deployment",)),
    ("We have a node with 8 A100 for simulation, that one is off limits. We'd purchase 2 H200 NVL for the assistant.",
     {"num_gpus": 2, "gpu_preference": "h200-nvl"}, ("deployment",)),
    # the side of an application that computes is no deployment
    ("Les répliques des personnages sont calculées côté serveur, 200 joueurs en même temps.", {"concurrency": 200},
     ("deployment",)),
    # a monthly spend with a word between the period and the money word is no total budget
    ("Monthly GPU spend is capped at €12k; QLoRA of Qwen3 14B in NF4 on AWS.", {"use_case": "finetune_qlora"},
     ("budget_eur",)),
    ("Les dépenses cloud mensuelles sont limitées à 3 000 €.", {}, ("budget_eur",)),
    # a cloud kept out beside the datacenter chosen; a French "station" alone is a workstation, a radio's is not
    ("Chatbot RAG hébergé dans notre salle serveur (données sensibles, donc rien dans le cloud).",
     {"deployment": "server"}, ()),
    ("Détection de défauts sur photos, YOLOv8. Une station avec une RTX 5090 suffira-t-elle ?",
     {"deployment": "workstation"}, ()),
    ("Un LoRA sur Mistral 7B pour écrire dans le ton de la station.", {"use_case": "finetune_lora"}, ("deployment",)),
    # the base checkpoint said before the name or "(not the instruct)"
    ("Classify 2M tickets overnight with the base Llama 3.1 8B.", {"model": "meta-llama/Llama-3.1-8B"}, ()),
    ("Llama 3.1 8B (pas l'Instruct), en bf16, pour étiqueter nos fiches la nuit.",
     {"model": "meta-llama/Llama-3.1-8B"}, ()),
])
def test_heldout28_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize("text,expected,absent", [
    # who the writer is ("Hobbyist here", "Étudiant ici") is no customer; a firm's stage before its name is dropped
    ("Hobbyiste ici : Qwen3 8B en int4 sur ma RTX 4070, ça tient ?", {}, ("customer",)),
    ("PhD student here, can Mistral 7B run on my RTX 3060?", {}, ("customer",)),
    ("Bonjour, Startup Norvane ici. On veut servir Mistral Small 3.1 à 40 utilisateurs.", {"customer": "Norvane"},
     ()),
    # the writer's title before the firm on a signature line, and a vision network in brackets, are no name
    ("Llama 3.1 70B in FP8 for 300 staff.\n\nRegards,\nAnna Pike\nCIO, Pike & Rowe Logistics",
     {"customer": "Pike & Rowe Logistics"}, ()),
    ("Dunmore Robotics: semantic segmentation (DeepLabV3) of shelf photos, 512 px, batch 16.",
     {"customer": "Dunmore Robotics", "use_case": "vision"}, ()),
    # a department named after imaging is no vision task; ECC said indifferent is not required
    ("Un assistant de rédaction pour les 25 radiologues du service d'imagerie, Mistral Small 3.1, 6 en même temps.",
     {"use_case": "online_serving"}, ()),
    ("Fine-tuning LoRA de SDXL sur une station ; l'ECC, on s'en fiche.", {"ecc_required": False}, ()),
    # cards already had and kept for another use, or falling short today, are not the plan
    ("Nos 4 A40 restent dédiées au rendu. Pour le chatbot on veut acheter un serveur avec 2 H200 NVL.",
     {"num_gpus": 2, "gpu_preference": "h200-nvl"}, ()),
    ("We run Qwen3 32B in AWQ on 2x RTX 4090 today and the answers are poor. We want FP8 for 25 users.", {},
     ("num_gpus", "gpu_preference")),
    ("Our assistant runs on 4x T4 and falls over at 20 users; target 60 users at once.", {"concurrency": 60},
     ("growth_factor",)),
    # a laptop card's memory is no data set; a bare fit question says no use
    ("Gemma 3 12B en int4 sur mon pc portable, RTX 4080 laptop 12 go ?", {}, ("dataset_size_bytes",)),
    ("mistral small 3.1, awq, one L40S: enough for 12 users?", {"concurrency": 12}, ("use_case",)),
    # where today's setup gives way, said with the English "pass", is a threshold, no population
    ("Our current box on 2x A6000 gets slow once we pass 15 users; we want 50 users at once.", {"concurrency": 50},
     ("head_count",)),
])
def test_heldout29_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize("text,expected,absent", [
    # people counted after "for/pour" with no word of a whole are the users at once; a total keeps its head count
    ("On veut faire tourner Gemma 3 12B pour 20 personnes, sur une tour.", {"concurrency": 20}, ("head_count",)),
    ("Host Phi-4 for about 15 people on a small server.", {"concurrency": 15}, ("head_count",)),
    ("Host Mistral 7B for 40 people in total, rarely more than 8 at once.", {"head_count": 40, "concurrency": 8}, ()),
    # a product for N people, no model served or run for them: its audience, a head count
    ("An internal chatbot for 150 people, maybe twice that next year.", {"head_count": 150}, ("concurrency",)),
    # a table drawn with bars: each row its own line; "Peak users" is the peak; "Hosting" says where, not a use
    ("Model       | Llama 3.1 8B Instruct\nPeak users  | 25\nTotal users | 300\n", {"concurrency": 25,
                                                                               "head_count": 300}, ()),
    ("Modèle        | Llama 3.1 8B Instruct\nHébergement   | colocation\n", {"deployment": "server"}, ("use_case",)),
    # a tender's issuer labels the customer; a numbered part of the document is no name
    ("APPEL D'OFFRES — Section 2.1 Exigences techniques\nÉmis par : Syndicat des Eaux de Rivebourg\n\n"
     "2.1.1 Le titulaire fournira un serveur servant Mistral Small 3.1.",
     {"customer": "Syndicat des Eaux de Rivebourg"}, ()),
    ("TENDER — Part C Technical Annex\n\nC.1 The supplier shall deliver a server for Llama 3.1 70B.", {},
     ("customer",)),
    # a quote received before, beside the ceiling: no server, count or height planned; "not to exceed" is a limit
    ("The previous quote was €180k for an HGX box with 8 GPUs, too much. Our ceiling is €100k. Llama 3.1 70B for "
     "30 users at once.", {"budget_eur": 100000.0}, ("deployment", "num_gpus")),
    ("Le dernier devis annonçait 200 000 € pour un serveur 6U ; notre plafond est de 120 000 €.",
     {"budget_eur": 120000.0}, ("deployment", "rack_units")),
    ("4.2 The contract value is not to exceed €500,000 excl. VAT.", {"budget_eur": 500000.0}, ()),
    # a peak corrected after a dash; a thousand said "grand"; desks under the desk and fixed desks; Siemens NX
    ("Il nous faut 30 utilisateurs simultanés — pardon, je corrige, plutôt 45 — sur Qwen3 8B.", {"concurrency": 45},
     ()),
    ("A quiet under-desk machine for Qwen3 8B, twelve grand euros max.", {"budget_eur": 12000.0,
                                                                         "deployment": "workstation"}, ()),
    ("Llama 3.1 8B sur des postes fixes pour nos 6 graphistes.", {"deployment": "workstation", "head_count": 6}, ()),
    ("A workstation for defect segmentation; the design office also runs Siemens NX on it.",
     {"rendering_cad": True}, ()),
    # sizes said aloud; a task said as a noun over a counted mass
    ("on a environ trois cents mégas de textes pour le LoRA", {"dataset_size_bytes": 300_000_000}, ()),
    ("Extraction des montants sur 500 000 factures avec Qwen3 8B.", {"use_case": "batch_inference"}, ()),
    # a model left ("moved off", "switched from", "on a quitté") beside the one used now; two compared stay open
    ("We moved off Mistral 7B last month; the helpdesk bot now runs Qwen3 8B.", {"model": "Qwen/Qwen3-8B"}, ()),
    ("On a quitté Llama 3.1 8B pour Gemma 3 12B sur le même serveur.", {"model": "google/gemma-3-12b-it"}, ()),
    ("We compared Mistral 7B and Qwen3 8B on our tickets.", {}, ("model",)),
    # a SaaS named after its word, and a call centre's organisation in brackets ("appels" is no app)
    ("Pour notre SaaS Quillora on veut un assistant sur Qwen3 8B, 30 utilisateurs simultanés.",
     {"customer": "Quillora"}, ()),
    ("Résumés d'appels pour notre centre d'appels (Vocalis Ouest) : Mistral 7B en FP8.", {"customer": "Vocalis Ouest"},
     ()),
    # ", but correction:" takes back what was said before it
    ("We said 2 A100 earlier, but correction: we'll take 4 L40S.", {"num_gpus": 4, "gpu_preference": "l40s"}, ()),
    # "on behalf of our group" is the writer's own unit: the signature names the customer
    ("I'm writing on behalf of our research group. We want a LoRA of Mistral 7B.\n\nKind regards,\nJane Doe\n"
     "Head of Data, The Larchfield Trust", {"customer": "The Larchfield Trust"}, ()),
    # the business the writer runs, its size in brackets; software run is no name
    ("Hi, I run Copperleaf Bakery (4 shops). We'd like Gemma 3 4B on a mini PC.", {"customer": "Copperleaf Bakery"},
     ()),
    ("I run Open WebUI, is Gemma 3 4B fine on it?", {}, ("customer",)),
])
def test_heldout30_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize("text,expected,absent", [
    # someone else's set-up: another organisation's model, cards and machine room are a comparison, not the plan
    ("Un de nos concurrents utilise Llama 3.1 70B sur 8 H200. Nous voulons Qwen3 14B pour 12 personnes à la fois.",
     {"model": "Qwen/Qwen3-14B", "concurrency": 12}, ("num_gpus", "gpu_preference")),
    ("Our parent company hosts Qwen2.5 72B on 8 H100 in its own datacenter; for us, Gemma 3 12B will do, 10 users "
     "at once.", {"model": "google/gemma-3-12b-it"}, ("num_gpus", "gpu_preference", "deployment")),
    ("A friend at another startup told us they run Mixtral 8x7B on 4 L40S. We only need Mistral 7B for 6 people.",
     {"model": "mistralai/Mistral-7B-Instruct-v0.3"}, ("num_gpus", "gpu_preference")),
    ("Unlike other companies, we run everything on 2 H100 NVL.", {"num_gpus": 2, "gpu_preference": "h100-nvl"}, ()),
    # the writer speaking again after a comma or a semicolon ends someone else's clause
    ("Other companies use Llama 3.1 405B via an API; we want to self-host Llama 3.1 70B for 50 users.",
     {"model": "meta-llama/Llama-3.1-70B-Instruct", "concurrency": 50}, ()),
    ("Our competitors run 8 H100, we only need 2 L40S for Mistral 7B.", {"num_gpus": 2, "gpu_preference": "l40s"}, ()),
    # a parent company that pays for the writer's plan is no set-up of its own (heldout26 fr-i26)
    ("Notre maison mère a validé une enveloppe pour héberger Llama 3.1 8B sur site, 20 utilisateurs simultanés.",
     {"model": "meta-llama/Llama-3.1-8B-Instruct", "concurrency": 20}, ()),
    # advice or a quote the writer rejects is not theirs; advice taken or asked about stays
    ("An integrator suggested 8 H200 for our chatbot, which is way too much. We'd serve Phi-4 to 15 users.",
     {"concurrency": 15}, ("num_gpus", "gpu_preference")),
    ("Notre fournisseur a chiffré pour 100 utilisateurs simultanés, mais c'est son hypothèse : on ne sait pas "
     "encore.", {}, ("concurrency",)),
    ("We were quoted four L40S for our RAG bot. Is that enough?", {"num_gpus": 4, "gpu_preference": "l40s"}, ()),
    ("A consultant recommended 2 L40S. We don't know if that's enough.", {"num_gpus": 2, "gpu_preference": "l40s"},
     ()),
    ("Our consultant recommended 4 H100. Our budget is way too small for anything bigger.",
     {"num_gpus": 4, "gpu_preference": "h100-sxm"}, ()),
    # the card after "instead" / "finalement" is the one kept
    ("We considered MI300X but our team only knows CUDA. Instead we'll buy 4 H100 NVL.",
     {"num_gpus": 4, "gpu_preference": "h100-nvl"}, ()),
    # a format first planned and dropped after "but"; a format asked about in general
    ("We initially planned Qwen3 32B in GPTQ, but the auditors want full bf16 weights.", {"precision": "bf16"}, ()),
    ("Does FP8 work on an L40S? Just curious. We want an RTX PRO 6000 Max-Q tower for Qwen3 8B.",
     {"gpu_preference": "rtx-pro-6000-maxq"}, ("precision",)),
    ("Les poids non quantifiés en fp16, s'il vous plaît.", {"precision": "fp16"}, ()),
    ("Sans quantification en 4 bits.", {}, ("precision",)),
    # a product's user base is a head count; items a batch job goes through are no load; "same time" without "at the"
    ("Serve Gemma 3 12B as a tutor for our 2,000 mobile users.", {"head_count": 2000}, ("concurrency",)),
    ("A weekly batch over ~8,000 requests from the archive, with Qwen3 8B.", {"use_case": "batch_inference"},
     ("concurrency",)),
    ("We want chatbot with Qwen3 8B, 12 customers same time.", {"concurrency": 12}, ("head_count",)),
    # the cloud of today, being brought back in-house, is not the place chosen
    ("Aujourd'hui tout tourne sur Azure et on veut le rapatrier sur un serveur chez nous.", {"deployment": "server"},
     ()),
    # who trains a model is no place; a label of people is the population
    ("Model: YOLOv8, built in-house. We plan 2 GPUs.", {"num_gpus": 2}, ("deployment",)),
    ("Engineers: 400\nConcurrent: 30", {"head_count": 400, "concurrency": 30}, ()),
    # a numbered clause opens a sentence: its capitalised article is grammar; a brief's heading names the
    # organisation in brackets after its project's code name
    ("Article 2.3 – Le Centre hospitalier de Valbrune acquiert un serveur pour Llama 3.1 8B.",
     {"customer": "Centre hospitalier de Valbrune"}, ()),
    ("Besoins – projet HÉLIOS (Mutuelle Garance)\n| Modèle | Mistral Small 3.1 |", {"customer": "Mutuelle Garance"},
     ()),
    # Megatron-LM is an engine of its own; beside PyTorch the stack is PyTorch's
    ("Pre-training a 3B model from scratch with Megatron-LM on 16 H100.", {"framework": "other"}, ()),
    ("Pre-training a 3B model, Megatron/DeepSpeed on PyTorch.", {"framework": "pytorch"}, ()),
    # a firm named after its trade signs the message; a team of it signs with its name, a function does not
    ("We need Llama 3.1 8B for 20 users.\nSilverline Travel", {"customer": "Silverline Travel"}, ()),
    ("Mistral 7B pour 10 personnes. Merci - Équipe Brindalo", {"customer": "Brindalo"}, ()),
    ("Mistral 7B pour 10 personnes.\n- Équipe Data", {}, ("customer",)),
    # a cap said with "n'… pas plus de"; a card's digits are no range
    ("On n'a pas plus de 25 000 € pour ce projet.", {"budget_eur": 25000.0}, ()),
    ("4x B200 or 4x H200 for Qwen3 235B?", {"num_gpus": 4}, ("gpu_preference",)),
])
def test_heldout31_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


# -- heldout32's causes of wrong values, said in other words --------------------------------------------------
@pytest.mark.parametrize(("text", "expected", "absent"), [
    # a neighbouring or partner organisation's set-up, a rival's announced or bought cluster: not the writer's plan
    ("Nos collègues de l'hôpital voisin utilisent 2 H100 avec vLLM pour Llama 3.3 70B. Nous voulons Qwen3 8B pour "
     "8 personnes à la fois.", {"model": "Qwen/Qwen3-8B", "concurrency": 8}, ("num_gpus", "gpu_preference",
                                                                              "framework")),
    ("Our partner hospital uses 4 H200s with SGLang; we only need Phi-4 for 5 users at once.",
     {"model": "microsoft/phi-4", "concurrency": 5}, ("num_gpus", "gpu_preference", "framework")),
    ("Un concurrent direct vient d'annoncer un cluster de 256 H100. Nous, on veut juste Mistral 7B.",
     {"model": "mistralai/Mistral-7B-Instruct-v0.3"}, ("num_gpus", "gpu_preference")),
    ("A rival invested in 128 B200s last year, not our game: we want Gemma 3 4B on one workstation.",
     {"model": "google/gemma-3-4b-it"}, ("num_gpus", "gpu_preference")),
    # a provider's work already done: its cards and its workload are past, its model is the writer's own
    ("Our contractor already fine-tuned Qwen3 8B with LoRA on 4 A100s. Now we want to serve it to 30 staff.",
     {"model": "Qwen/Qwen3-8B", "use_case": "online_serving"}, ("num_gpus", "gpu_preference")),
    # a card per machine, the machine's word left out or said in the sentence that counts the machines
    ("We're buying 5 identical towers for Blender. One RTX 5090 in each.", {"num_gpus": 5,
                                                                            "gpu_preference": "rtx-5090"}, ()),
    ("6 postes de travail, une carte par poste, RTX 5080 de préférence.", {"num_gpus": 6}, ()),
    ("une salle de 12 postes. Une carte par poste, RTX 5080 idéalement.", {"num_gpus": 1}, ()),
    # the context a model can take, set against the one the texts fit in
    ("Qwen3 8B supports a 128k context, but our tickets fit in 4k.", {"context_len": 4096}, ()),
    # a unit on the next line of a form is no unit of the figure above it
    ("Contexte : 8k\nUtilisateurs : 40 agents, 10 simultanés", {"context_len": 8192, "head_count": 40,
                                                                "concurrency": 10}, ()),
    # places counted under a people label; a population in a hypothesis; a dictated correction of a figure
    ("Users: 12 stores, up to 30 concurrent sessions", {"concurrency": 30}, ("head_count",)),
    ("20 users at once. If one day we open it to all 5,000 staff, we'd revisit.", {"concurrency": 20},
     ("head_count",)),
    ("If we ever scale to 9,000 users we'd rethink, but for now: 300 employees, 15 at once.",
     {"head_count": 300, "concurrency": 15}, ()),
    ("we need thirty users no sorry fifty users at the same time", {"concurrency": 50}, ("head_count",)),
    # a format tried and then said to fail
    ("Le 4 bits a été essayé sur Qwen2.5 72B et la qualité s'est effondrée : on reste en précision native.", {},
     ("precision",)),
    ("We tried GPTQ and the answers degraded, so we'll serve in FP8.", {"precision": "fp8"}, ()),
    # an organisation before its project's code name; a descriptive phrase before partners; a forwarded sender's
    # organisation after their role
    ("Start-up Orvane – projet Pégase : LoRA de Llama 3.1 8B.", {"customer": "Orvane"}, ()),
    ("Agence d'urbanisme Morel & Fils : on veut un assistant.", {"customer": "Morel & Fils"}, ()),
    ("From my client:\n> From: Jo Park, Head of IT, Calder Mutual\n> 20 users at once on Qwen3 8B.\n— Sam "
     "(Brightpath Advisory)", {"customer": "Calder Mutual"}, ()),
    # "HGX" says no place
    ("8 H100s, one HGX node, for pre-training a 1B model.", {"num_gpus": 8}, ("deployment",)),
    # a budget said per seat or per unit is each machine's, not the total
    ("10 postes de travail. Budget : 4 000 € par poste.", {"budget_eur_per_workstation": 4000.0}, ("budget_eur",)),
    ("A kiosk PC in each store. Budget €900 per unit.", {"budget_eur_per_workstation": 900.0}, ("budget_eur",)),
    ("Budget 9 000 € par poste, soit 27 000 € au total.", {"budget_eur": 27000.0}, ()),
    # cheap misses: a minutes' "Rejected:" label refuses the cloud; costs held under a ceiling are a budget
    ("• Rejected: cloud (GDPR).\n• Hosted in our own datacenter.", {"deployment": "server"}, ()),
    ("On veut garder les coûts sous 12 000 € au total.", {"budget_eur": 12000.0}, ()),
    ("The L40S costs about €9,000.", {}, ("budget_eur",)),
    # a quoted e-mail wrapped mid-sentence reads as one line (not after the quote's header line)
    ("From a client:\n> We'd want Qwen3 8B for our staff, with about 40\n> simultaneous users at peak.",
     {"concurrency": 40}, ()),
    ("Une tour pour Phi-4 mini. Max 3 000 balles.", {"budget_eur": 3000.0}, ()),
])
def test_heldout32_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


# -- heldout33's causes of wrong values, said in other words --------------------------------------------------
@pytest.mark.parametrize(("text", "expected", "absent"), [
    # a past workplace's set-up, a rival's boast: not the writer's plan
    ("Mon ancienne boîte faisait tourner Llama 3.1 405B sur 32 H100, mais ici on veut Mistral 7B pour 6 personnes "
     "à la fois.", {"model": "mistralai/Mistral-7B-Instruct-v0.3", "concurrency": 6}, ("num_gpus", "gpu_preference")),
    ("My previous employer used 64 H200s for everything. We need Phi-4 for 10 users at once.",
     {"model": "microsoft/phi-4", "concurrency": 10}, ("num_gpus", "gpu_preference")),
    ("A competitor boasted about its 1,024-GPU H100 cluster. We only want Gemma 3 4B.",
     {"model": "google/gemma-3-4b-it"}, ("num_gpus", "gpu_preference")),
    # a quote turned down; an option raised and dropped in the same line; a plan set aside for some day
    ("Un intégrateur nous a chiffré un serveur 8 × H200 à 300 k€ : hors de question. On vise 60 k€.",
     {"budget_eur": 60000.0}, ("num_gpus", "gpu_preference", "deployment")),
    ("- L40S evoked by IT but not retained; preference for 2 x H100 NVL", {"num_gpus": 2,
                                                                          "gpu_preference": "h100-nvl"}, ()),
    ("If one day we moved to Llama 3.1 405B we'd need 16 B200s, but that's not the question today. For now: Qwen3 "
     "8B, 12 users at once.", {"model": "Qwen/Qwen3-8B", "concurrency": 12}, ("num_gpus", "gpu_preference")),
    # a question asked in passing, then the plan
    ("How much is renting 16 H100s for a week? Out of curiosity — what we will actually buy is one RTX 5090 for a "
     "desktop.", {"num_gpus": 1, "gpu_preference": "rtx-5090"}, ()),
    # the kit owned, listed under its heading
    ("Current setup:\n- 2 servers with 8x A100 80GB (training)\nWhat we want:\n- 2x L40S for serving Qwen3 8B",
     {"num_gpus": 2, "gpu_preference": "l40s"}, ()),
    # the writer's own fine-tuning already done: the model is to serve
    ("We have already QLoRA-tuned Mistral 7B last year; now we need to serve it to 20 people at once.",
     {"use_case": "online_serving", "concurrency": 20}, ()),
    # night renders are no batch inference
    ("An assistant on Qwen3 8B for 15 people at once; the box also does Blender renders overnight.",
     {"use_case": "online_serving"}, ()),
    # a smaller height preferred to the room left
    ("Il nous reste 12U mais on préfère plutôt 2U maximum.", {"rack_units": 2}, ()),
    # machines named after who sits at them
    ("On équipe 15 postes développeurs pour du fine-tuning LoRA de Llama 3.2 1B.", {}, ("head_count",)),
    # seats each said to be a workstation
    ("We're fitting out 8 analyst seats, each a workstation with an RTX 5080.", {"num_gpus": 8}, ()),
    # a project's client labelled in brackets
    ("Minutes – project Atlas (customer: Varnel Foods)\n- model: Qwen3 8B", {"customer": "Varnel Foods"}, ()),
    # inference with no mode and nobody using it
    ("Usage : inférence locale de Qwen3 8B en FP8 sur une RTX 5090.", {"model": "Qwen/Qwen3-8B"}, ("use_case",)),
])
def test_heldout33_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


# -- heldout34's causes of wrong values, said in other words --------------------------------------------------
@pytest.mark.parametrize(("text", "expected", "absent"), [
    # a rival's, a subsidiary's or a sister team's cards and engine beside the writer's own plan
    ("Notre principal concurrent a une ferme de 128 H200. Nous, on veut 2 L40S pour Mistral 7B.",
     {"num_gpus": 2, "gpu_preference": "l40s"}, ()),
    ("Notre filiale espagnole utilise 4 H100 avec SGLang ; chez nous ce sera Phi-4 pour 8 personnes à la fois.",
     {"model": "microsoft/phi-4", "concurrency": 8}, ("num_gpus", "gpu_preference", "framework")),
    ("Our sister lab in Leeds runs 8 A100s with TensorRT-LLM. We want Qwen3 8B for 12 users at once.",
     {"model": "Qwen/Qwen3-8B", "concurrency": 12}, ("num_gpus", "gpu_preference", "framework")),
    # a maker's offer left undecided or turned down; an offer the writer takes stays the plan
    ("Lenovo proposed a 4x L40S server; nothing has been decided. We serve Gemma 3 12B to 30 users at once.",
     {"concurrency": 30}, ("num_gpus", "gpu_preference", "deployment")),
    ("Supermicro nous a fait une offre pour 8 H200, on ne l'a pas retenue. Budget : 90 k€.",
     {"budget_eur": 90000.0}, ("num_gpus", "gpu_preference")),
    ("Dell proposed 2 H100 NVL and we're going with it.", {"num_gpus": 2, "gpu_preference": "h100-nvl"}, ()),
    # an imagined future beside today; a future with no today said apart stays
    ("Si un jour tout le ministère s'y met, ce sera 20 000 agents ; pour l'instant, 150 agents, 20 en même temps.",
     {"head_count": 150, "concurrency": 20}, ()),
    ("What if we later switched to DeepSeek V3? For now it's Qwen3 32B for 40 users at once.",
     {"model": "Qwen/Qwen3-32B", "concurrency": 40}, ()),
    ("Si un jour on a besoin de plus, on ajoutera des cartes. On part sur 2 L40S.", {"num_gpus": 2}, ()),
    # a question about the plan itself, with no other need said, stays the plan
    ("Is 2x L40S feasible for Llama 3.3 70B in fp8?", {"num_gpus": 2, "gpu_preference": "l40s"}, ()),
    # a question whether a long context is possible, beside the context needed
    ("Would a 256k context even be possible? In practice we need 16k.", {"context_len": 16384}, ()),
    ("Le client demande si 1M de contexte serait faisable ; le vrai besoin est de 8k de contexte.",
     {"context_len": 8192}, ()),
    # corrections whose new figure comes bare
    ("On avait dit 30 utilisateurs simultanés, en fait ce sera plutôt 45.", {"concurrency": 45}, ()),
    ("We first said 16k context, but make that 64k.", {"context_len": 65536}, ()),
    # a format denied after a dash, ECC said not needed
    ("Stay on fp8 — no 4-bit please.", {"precision": "fp8"}, ()),
    ("ECC isn't required for this box.", {"ecc_required": False}, ()),
    # a card asked about for people who each get a desk: no count; a ceiling price is the budget
    ("We're equipping 6 designers with a workstation each. Could you suggest a graphics card?", {}, ("num_gpus",)),
    ("Prix plafond : 120 000 € HT.", {"budget_eur": 120000.0}, ()),
])
def test_heldout34_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


# -- heldout35's causes of wrong values, said in other words --------------------------------------------------
@pytest.mark.parametrize(("text", "expected", "absent"), [
    # another department's, a partner's or a neighbour's cards, disowned or located elsewhere
    ("Le service informatique dispose de 4 H100 pour la paie, ce n'est pas notre budget. Nous : 1 L40S pour Phi-4.",
     {"num_gpus": 1, "gpu_preference": "l40s", "model": "microsoft/phi-4"}, ()),
    ("Our research partner runs 32 H200s with SGLang. We want one RTX 5090 for Qwen3 8B.",
     {"num_gpus": 1, "gpu_preference": "rtx-5090"}, ("framework",)),
    ("The startup across the street uses 8 B200s. Our need: 2 L40S for Gemma 3 12B.",
     {"num_gpus": 2, "gpu_preference": "l40s"}, ()),
    # an offer declined or unsigned, a cloud vetoed, cards excluded, a model dropped
    ("Un intégrateur proposait 8 A100, on a refusé. Il nous faut une seule carte pour Mistral 7B.",
     {"num_gpus": 1}, ("gpu_preference",)),
    ("We got a quote for 4x H200 NVL, not signed yet. The need: Llama 3.1 8B for 20 users at once.",
     {"concurrency": 20}, ("num_gpus", "gpu_preference")),
    ("AWS was rejected by legal, so we'll buy a 4U server with 2 H100 NVL.",
     {"deployment": "server", "num_gpus": 2, "rack_units": 4}, ()),
    ("Nous avons exclu les cartes grand public comme la RTX 4090 (pas d'ECC) ; ECC obligatoire.",
     {"ecc_required": True}, ("gpu_preference",)),
    ("We tested Phi-2 and it wasn't accurate enough. We now want Qwen2.5 14B for 10 users at once.",
     {"model": "Qwen/Qwen2.5-14B-Instruct", "concurrency": 10}, ()),
    # a dream beside the plan
    ("On rêve parfois de DeepSeek R1 sur 8 B300, mais soyons réalistes : Qwen3 14B sur 1 L40S.",
     {"model": "Qwen/Qwen3-14B", "num_gpus": 1, "gpu_preference": "l40s"}, ()),
    # what the writer declines is only what follows the verb: the plan said after stays
    ("We declined the cloud option and will buy 2 L40S for Mistral 7B.",
     {"num_gpus": 2, "gpu_preference": "l40s", "model": "mistralai/Mistral-7B-Instruct-v0.3"}, ()),
    # ... and what only looks like it stays the plan: a condition, an aspiration, a service the partner will give, a
    # question in passing that is the whole message
    ("We want 1 L40S for Qwen3 8B; if it isn't fast enough we'd add another.",
     {"num_gpus": 1, "gpu_preference": "l40s", "model": "Qwen/Qwen3-8B"}, ()),
    ("On veut 2 L40S pour Mistral Small 3.1, et si ce n'est pas assez bon on passera à 4.",
     {"num_gpus": 2, "gpu_preference": "l40s"}, ()),
    ("We dream of a chatbot that answers in 1 s: Llama 3.1 8B on 1 L40S for 10 users at once.",
     {"model": "meta-llama/Llama-3.1-8B-Instruct", "num_gpus": 1, "concurrency": 10}, ()),
    ("Our partner will host the server in their data centre; we need 2 H100 for Llama 3.3 70B.",
     {"num_gpus": 2, "deployment": "server"}, ()),
    ("Par curiosité, 2 L40S suffiraient pour Llama 3.3 70B en FP8 ? Merci. Jean, Cabinet Martin & Associés",
     {"num_gpus": 2, "gpu_preference": "l40s"}, ()),
    ("Out of curiosity, how much would 8 H100s cost to rent? Our plan: 2 L40S for Mistral 7B.",
     {"num_gpus": 2, "gpu_preference": "l40s"}, ("deployment",)),
    # a correction with its reason before the new figure; a peak after a usual range
    ("Il faudrait 50 utilisateurs simultanés… pardon, après vérification avec la direction : plutôt 30.",
     {"concurrency": 30}, ()),
    ("Usually 10-20 users at once, but at month end it climbs to 45.", {"concurrency": 45}, ()),
    # money is no data size; a laptop replaced by a desktop gives no count
    ("We have £60,000 to invest in a server for Llama 3.1 8B.", {}, ("dataset_size_bytes", "budget_eur")),
    ("My laptop's RTX 5080 Laptop GPU is too slow, so I want a desktop for Qwen3 8B.", {}, ("num_gpus",)),
    # examples counted with their length: the length is the sequence trained on
    ("LoRA sur Mistral 7B avec 12 000 tickets d'environ 700 tokens chacun.", {"input_len": 700}, ()),
    # a team inside its lab, a team named in brackets
    ("Compte rendu — LIRMM, équipe ADVANSE : LoRA sur Llama 3.1 8B.", {"customer": "LIRMM"}, ()),
    ("Nous sommes une petite équipe de data science (Ondalys) et on veut servir Phi-4.", {"customer": "Ondalys"}, ()),
])
def test_heldout35_causes_said_otherwise(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize(("text", "expected", "absent"), [
    # a competitor's cards lined up, then the writer's organisation opens the next clause
    ("Notre principal concurrent vient d'aligner douze H200 ; chez Vitrages Morin on veut une L40S pour Qwen3 8B.",
     {"num_gpus": 1, "gpu_preference": "l40s"}, ()),
    ("A rival studio just lined up 32 B200s; at Pinewick Games we need two L40S to serve Mistral 7B.",
     {"num_gpus": 2, "gpu_preference": "l40s"}, ()),
    # another unit's cards, not lent or theirs
    ("Le service études de Verrerie Lamotte possède six A100, mais ils ne nous sont pas prêtés. Nous voulons deux "
     "RTX 5090.", {"num_gpus": 2, "gpu_preference": "rtx-5090"}, ()),
    ("Engineering at Coldbrook Mills has 8 H100 — that's theirs. Legal wants one L40S for Llama 3.1 8B.",
     {"num_gpus": 1, "gpu_preference": "l40s"}, ()),
    # a vendor's offer still undecided
    ("Lenovo offered a 4x H200 box, still on the table. We serve Qwen3 32B to 20 users at once.",
     {"concurrency": 20}, ("num_gpus", "gpu_preference")),
    # pretraining dreamt of one day, a LoRA wanted today
    ("Un jour, peut-être, on pré-entraînera notre propre modèle, mais aujourd'hui c'est un LoRA sur Mistral 7B.",
     {"use_case": "finetune_lora"}, ()),
    ("Maybe one day we'll train a model from scratch; today we need a LoRA on Qwen2.5 7B.",
     {"use_case": "finetune_lora"}, ()),
    # imaging reports are text
    ("LoRA de Llama 3.1 8B sur nos comptes rendus d'imagerie.", {"use_case": "finetune_lora"}, ()),
])
def test_heldout40_set_aside(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize(("text", "expected", "absent"), [
    # a first version's count, then the final one's
    ("Le devis initial prévoyait 2 H100 ; la version définitive en demande 4.", {"num_gpus": 4}, ()),
    ("Our first draft said 8 L40S, but the signed version calls for 6.", {"num_gpus": 6}, ()),
    # no first version said: the count stays
    ("We want 4 H100; the approved budget asks for 200k.", {"num_gpus": 4}, ()),
    # a laptop's card said by its number alone is not the desktop card; another card said beside it is read
    ("can i run mistral 7b on my 5080 laptop gpu?", {"num_gpus": 1}, ("gpu_preference",)),
    ("I have a 4090 laptop, and we want 2x 5090 in a tower.", {"num_gpus": 2, "gpu_preference": "rtx-5090"}, ()),
    # "concurent" with one r is still simultaneous
    ("llama 3.1 8b for 9 users concurent", {"concurrency": 9}, ("head_count",)),
    # a pilot that convinces may bring more cards one day; the current request is the count
    ("Si l'essai est concluant, on passerait peut-être à seize cartes, mais la demande actuelle porte sur quatre L40S.",
     {"num_gpus": 4, "gpu_preference": "l40s"}, ()),
])
def test_heldout40_counts(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize(("text", "expected", "absent"), [
    # the other count of the same question: neither count is the plan
    ("Il faut deux H200 NVL pour DeepSeek V3 ou il en faut huit ?? c'est pour 50 utilisateurs simultanés.",
     {"gpu_preference": "h200-nvl"}, ("num_gpus",)),
    ("Will two H100s run Llama 3.1 405B, or do we need eight?", {"gpu_preference": "h100-sxm"}, ("num_gpus",)),
    ("Is an RTX 3090 enough or do we need an L40S?", {"num_gpus": 1}, ()),
    # people connected at night are a service's hours, not a nightly job
    ("un assistant pour les régulateurs : 12 régulateurs, dont 8 connectés en même temps la nuit. Llama 3.1 8B.",
     {"use_case": "online_serving"}, ()),
    ("An assistant for our dispatchers on the night shift: 30 dispatchers, 10 logged in at the same time overnight.",
     {"use_case": "online_serving"}, ()),
    ("résumer 40 000 comptes rendus la nuit avec Qwen2.5 7B", {"use_case": "batch_inference"}, ()),
    # an assistant that works offline is served
    ("We want an offline-capable assistant in our field offices to translate & answer questions: Gemma 3 27B.",
     {"use_case": "online_serving"}, ()),
    ("un assistant utilisable hors ligne dans nos antennes pour traduire et répondre aux questions",
     {"use_case": "online_serving"}, ()),
    ("we run the extraction offline, 200k invoices", {"use_case": "batch_inference"}, ()),
    # a fine-tune said as a noun after a model's name is a model made, to serve
    ("we've got an old Llama 2 7B finetune we want to serve as an API, ~80 req at once", {"use_case": "online_serving"},
     ()),
    ("we want a Llama 3.1 8B fine-tune on our tickets", {"use_case": "finetune_full"}, ()),
    # paged 8-bit AdamW in French word order
    ("QLoRA NF4 de Mistral 7B, batch 16, AdamW paginé 8-bit", {"optimizer": "adamw_8bit"}, ()),
    # "would be nice but it's not required"
    ("ECC would be nice but it's not required.", {"ecc_required": False}, ()),
    ("L'ECC serait un plus, mais ce n'est pas obligatoire.", {"ecc_required": False}, ()),
    ("ECC would be nice, but it is required by IT.", {"ecc_required": True}, ()),
    # cards lying in the office are no workstation
    ("got 2 5090s in the office already, can we just use those?", {"num_gpus": 2}, ("deployment",)),
    ("we run Llama 3.1 8B in the office", {"deployment": "workstation"}, ()),
    # a budget said monthly after its label
    ("• budget: monthly, about €15k", {"budget_eur_per_month": 15000.0}, ("budget_eur",)),
    ("Budget : mensuel, environ 8 k€.", {"budget_eur_per_month": 8000.0}, ("budget_eur",)),
])
def test_heldout41_wrong_values(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize(("text", "expected", "absent"), [
    # the firm's size, then the people who will use it: the users
    ("Nous sommes Hydrotech Valence, PME de 120 personnes (pompes industrielles). On voudrait un assistant pour la "
     "maintenance. Une quarantaine de techniciens l'utiliseront, jamais plus de 8 en même temps.",
     {"head_count": 40, "concurrency": 8}, ()),
    # a training's time said as a "durée d'entraînement"; a cluster bought is racks on premises
    ("Le laboratoire LIMSI-Paris souhaite pré-entraîner from scratch un modèle de 1B sur 100 milliards de tokens. On "
     "vise une durée d'entraînement de 3 semaines maximum. Achat d'un cluster, budget 1,5 M€",
     {"use_case": "pretraining", "deadline_hours": 504.0, "deployment": "server"}, ()),
    ("buy cluster time on Jean Zay", {}, ("deployment",)),
    # translating a whole back list is a batch job, with its count and the month it is given
    ("Éditions Pélican souhaite traduire tout son fonds : environ 2 millions de documents, 1 500 tokens en entrée et "
     "autant en sortie en moyenne, avec Qwen2.5 72B. On a un mois pour le faire et on préfère louer du cloud",
     {"use_case": "batch_inference", "job_requests": 2_000_000, "deadline_hours": 730.0, "deployment": "cloud"}, ()),
    ("We have two weeks to classify 40,000 contracts with Qwen2.5 7B.", {"deadline_hours": 336.0}, ()),
    ("we have a month to get a chatbot live", {}, ("deadline_hours",)),
    # one workstation for each engineer, replaced by new towers
    ("We're a small engineering firm (Castellan Design, 6 mechanical engineers). Each engineer has a CAD workstation "
     "that is getting old. We'd like to replace them with new towers that can also run a local assistant, Llama 3.1 "
     "8B, for the engineer at that desk. Budget about €7k per workstation.",
     {"workstations": 6, "head_count": 6, "deployment": "workstation"}, ()),
])
def test_own_briefs_round35(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize(("text", "expected", "absent"), [
    # a lab's own cards in its cluster plan no machine; a texted "dont want cloud"; a cloud reseller's trade
    ("On dispose de 8 A100 40 Go SXM sur notre cluster, on veut savoir en combien de temps ça tourne.",
     {"num_gpus": 8}, ("deployment",)),
    ("looking 2 host qwen 3 30b a3b as a helpdesk bot, maybe 40 concurent. vllm. dont want cloud.",
     {"concurrency": 40}, ("deployment",)),
    ("Halcyon Compute (we resell GPU cloud) asks: how many B300 to serve DeepSeek V3 for 200 concurrent users?",
     {"concurrency": 200}, ("deployment",)),
    # a tender's "Office's datacenter" is a data centre
    ("Hardware shall be installed in the Office's datacenter and shall provide ECC memory.",
     {"deployment": "server", "ecc_required": True}, ()),
    # the server edition said in French; a corrected rack space; a semester's budget; an old card scrapped;
    # a quoted wish then "not required"
    ("quatre cartes RTX PRO 6000 édition serveur pour servir Qwen3 32B",
     {"gpu_preference": "rtx-pro-6000-server", "num_gpus": 4}, ()),
    ("On pense à 4x H100 PCIe dans un serveur 2U... non, c'est 4U qu'on a de libre.", {"rack_units": 4}, ()),
    ("TP de fine-tuning LoRA pour 40 étudiants. On passerait par OVH. Budget semestriel 5 000 €.",
     {"budget_eur_per_month": 833.33}, ("budget_eur",)),
    ("Déployé dans notre salle serveur (on a encore un vieux serveur avec une T4, il part à la casse).",
     {"deployment": "server"}, ("num_gpus",)),
    ('* asked about ECC: "nice to have", not required', {"ecc_required": False}, ()),
])
def test_heldout42_round36(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize(("text", "expected", "absent"), [
    # a firm's size beside one rendering workstation; machines counted around their size
    ("Hi, we're a 15-person architecture practice (Hale Architects). We need a new workstation for Revit, Rhino and "
     "V-Ray rendering, and we'd also like to run Llama 3.1 8B Instruct locally for drafting specs.",
     {"deployment": "workstation"}, ("head_count",)),
    ("Studio Les Lunes (jeu vidéo indé, 12 personnes). On veut une machine pour nos artistes : rendu Blender + un "
     "petit LLM local (Llama 3.2 3B Instruct) pour les dialogues.", {}, ("head_count",)),
    ("Qwen3 Coder 480B en FP8, vLLM. On a la place pour 2 serveurs 8 GPU B200 dans notre datacenter.",
     {"num_gpus": 16, "gpu_preference": "b200"}, ()),
    ("Qwen3 Coder 480B, FP8. Two 8-GPU B200 nodes in our datacenter.", {"num_gpus": 16}, ()),
    # a peer's tool on their own machine; a laptop's card; "me + 1"; a founder's title
    ("Nous voulons un assistant pour résumer nos dossiers. Un confrère utilise Ollama sur son Mac. Nous sommes 7 "
     "avocats.", {"head_count": 7}, ("framework",)),
    ("I run a small firm (Pell & Ward). A friend runs LM Studio on his MacBook and another uses Ollama.",
     {"customer": "Pell & Ward"}, ("framework", "deployment")),
    ("hi can i run deepseek r1 distill llama 8b on my laptop w rtx 4090?? the 16gb laptop one.",
     {"num_gpus": 1}, ("gpu_preference",)),
    ("Hey, indie dev here (Mossgrave Studio, just me + 1). I want a desktop to train small YOLO detectors.",
     {"customer": "Mossgrave Studio"}, ("concurrency",)),
    ("Founder of Lumiflux AI here. We want to generate ~50M tokens of synthetic data with DeepSeek R1.",
     {"customer": "Lumiflux AI"}, ()),
    # hosting required somewhere is no model hosted
    ("Projet 1 : LoRA sur Gemma 2 9B, 1,2 Go de données. Hébergement HDS obligatoire → cloud HDS (OVHcloud).",
     {"use_case": "finetune_lora", "deployment": "cloud"}, ()),
    ("Project 1: LoRA on Qwen2.5 7B, 2 GB of data. Hosting must stay in the EU, so cloud (OVHcloud).",
     {"use_case": "finetune_lora"}, ()),
])
def test_heldout43_round37(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize(("text", "expected"), [
    ("Hi, our research group (Caldera Lab) uses JAX. We want to fine-tune Gemma 3 27B fully (not LoRA) on 5B tokens, "
     "seq len 8192 … Rent only. Two weeks max. Budget €60k.", {"deadline_hours": 336.0, "use_case": "finetune_full"}),
    ("Hôpital Saint-Roch : nous voulons servir Llama 4 Scout pour 30 médecins simultanés (dossiers patients, environ "
     "20 000 tokens de contexte par question, réponses de 800 tokens)",
     # (no context_len: the longest context, prompt and answer, is not said; 20,000 could not hold the 800 out, and
     # the estimate refused the brief: "input_len + output_len = 20800 tokens do not fit in a context of 20000")
     {"input_len": 20000, "context_len": None, "output_len": 800, "concurrency": 30}),
    ("Pixel Forge Lyon, on veut générer des dialogues de PNJ en masse : 500 000 répliques de 80 tokens avec Mistral "
     "Nemo, prompts de 600 tokens. Une fois par mois. On a une RTX 5090 dans une tour, ça suffit ?",
     {"output_len": 80, "input_len": 600, "job_requests": 500000, "job_recurring": True, "job_runs_per_year": 12,
      "gpus_owned": True, "num_gpus": 1, "gpu_preference": "rtx-5090", "use_case": "batch_inference",
      "deployment": "workstation"}),
])
def test_own_briefs_round37(text: str, expected: dict[str, object]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found


@pytest.mark.parametrize(("text", "expected", "absent"), [
    # hardware that is not the plan: a competitor's quote judged too much, today's cards falling short
    ("FYI from the client: We've been quoted 8x H200 by another vendor for our batch summarisation, which feels like "
     "overkill. We'd like to run Qwen2.5 72B on our own server.", {"deployment": "server"},
     ("num_gpus", "gpu_preference")),
    ("Un revendeur nous a proposé 4 H100 pour notre chatbot, ça nous paraît beaucoup. Qu'en pensez-vous ?", {},
     ("num_gpus", "gpu_preference")),
    ("We're serving Qwen3 30B A3B on a single H100 today and it's fine for our 20 concurrent users, but we expect 3x "
     "the traffic by Q3. What do we need?", {"concurrency": 20, "growth_factor": 3.0}, ("num_gpus", "gpu_preference")),
    ("We tried LoRA on Qwen2.5 32B with our 2x RTX 4090 and ran out of memory at seq 8k. What should we buy?",
     {"use_case": "finetune_lora"}, ("num_gpus", "gpu_preference")),
    ("Running LoRA on Llama 3.1 70B with 8x A100 80GB, seq 4096. It's taking forever. Would H200s help?",
     {"gpu_preference": "h200-sxm"}, ("num_gpus",)),
    ("Uni has a Slurm cluster with H100s but the queue is awful, so we're considering renting cloud GPUs.",
     {"deployment": "cloud"}, ("gpu_preference",)),
    # a firm's size where it introduces itself, its product serving others; a tender's agents and sessions
    ("We're a 40-person legal-tech startup serving Llama 3.3 70B behind our contract-review product, ~25 concurrent "
     "requests at peak.", {"concurrency": 25}, ("head_count",)),
    ("Acheteur : Conseil départemental. Llama 3.3 70B pour 2 500 agents, avec une charge simultanée de 150 sessions.",
     {"head_count": 2500, "concurrency": 150}, ()),
    # an 8-bit optimizer in brackets; a price each, then its total
    ("Workload: LoRA fine-tune\nOptimizer: AdamW (8-bit)\nFramework: Axolotl", {"optimizer": "adamw_8bit"},
     ("precision",)),
    ("Looking for 3 workstations for Revit, no AI. Budget €6k each, so €18k total.", {"budget_eur": 18000.0}, ()),
    # names: a lab before its university, the end client after the writer's firm, greetings and openings
    ("Je suis doctorante au laboratoire CRISTAL-Bio de l'Université de Fréjac. LoRA sur Llama 3.1 8B.",
     {"customer": "CRISTAL-Bio"}, ()),
    ("Hi, Ines from Caldera Partners. New one: Fennick Water Utilities wants a customer-service chatbot for its "
     "customers. Hosted in their own datacenter.", {"customer": "Fennick Water Utilities"}, ()),
    ("Hello from Penrose & Vale (UK fashion retailer, 4,000 staff). A product-search assistant for our website, 150 "
     "simultaneous shoppers.", {"customer": "Penrose & Vale", "concurrency": 150}, ("head_count",)),
    ("Bonjour, pour Brasseries Kerlouan on voudrait un serveur pour un chatbot RH (Qwen3 8B).",
     {"customer": "Brasseries Kerlouan"}, ()),
    ("Projet OPALINE (consortium de 5 hôpitaux, financement ANR) : fine-tuning complet de Mixtral 8x7B.",
     {"customer": "OPALINE"}, ()),
])
def test_heldout44_round38(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize(("text", "expected", "absent"), [
    # our own use: a one-off batch over days is no serving load; cards rented today and too slow are no plan
    ("summarise 200k call transcripts, a one-off job over 5 days", {"use_case": "batch_inference",
                                                                    "job_requests": 200000},
     ("concurrency", "head_count")),
    ("we rent 4 H100 on AWS today, too slow", {}, ("num_gpus", "gpu_preference")),
    ("On loue 4 H100 chez AWS aujourd'hui, trop lent.", {}, ("num_gpus", "gpu_preference")),
])
def test_own_briefs_round38(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found


@pytest.mark.parametrize(("text", "expected", "absent"), [
    # someone else's offer: a competing quote, a previous vendor's, an integrator's judged too dear or sent for a second
    # opinion — neither its price, nor its count, nor its card
    ("Le client a par ailleurs reçu un devis concurrent à 41 k€ pour 2 L40S, mais nous cherchons un second avis.",
     {}, ("budget_eur", "num_gpus", "gpu_preference")),
    ("Their previous vendor quoted €7k for a year of a single L40S box, which they declined.", {},
     ("num_gpus", "gpu_preference", "budget_eur")),
    ("An integrator already quoted them €60k for 4 H100s; they'd like a second opinion.", {},
     ("num_gpus", "gpu_preference", "budget_eur")),
    ("Another vendor offered 8 L40S for €70k - way too expensive. Our budget is €45k.", {"budget_eur": 45000.0},
     ("num_gpus", "gpu_preference")),
    ("l'autre prestataire nous avait sorti 28 k€ pour 4 L40S, beaucoup trop cher. Budget 15 k€.",
     {"budget_eur": 15000.0}, ("num_gpus", "gpu_preference")),
    ("A competitor proposed a €26k tower with 2 RTX 6000 Ada, but the client wants a cheaper option.", {},
     ("num_gpus", "gpu_preference", "budget_eur")),
    # a count corrected by a bare figure after "non", "actually make it", "finalement"; the quote after it set aside
    ("on part sur 2 RTX 5090… non, 3 finalement. le revendeur concurrent nous a fait 19k€ pour 2 A6000, trop cher.",
     {"num_gpus": 3, "gpu_preference": "rtx-5090"}, ("budget_eur", "concurrency")),
    ("we're going w/ 4 L40S...\nactually make it 6. competitor quoted €50k for 2 H100s, too pricey. 8U free.",
     {"num_gpus": 6, "gpu_preference": "l40s", "rack_units": 8}, ("budget_eur",)),
    ("on avait dit 2 RTX PRO 4500… finalement 3.", {"num_gpus": 3, "gpu_preference": "rtx-pro-4500"}, ()),
    # names: a consultant's client after the consultant's firm, a unit named of its own before its host
    ("Bonjour, je suis consultante chez Quantivo et j'accompagne l'étude notariale Roux-Mercier & Associés. Ils "
     "veulent un assistant.", {"customer": "Roux-Mercier & Associés"}, ()),
    ("Writing from the HELIX neuroimaging group at Ashdown University Hospital. We'd like a LoRA on Llama 3.1 8B.",
     {"customer": "HELIX"}, ()),
    # a quote asked about stays the configuration weighed (dev fr-103, en-097)
    ("Un intégrateur nous propose 4 L40S pour notre chatbot. Est-ce suffisant ?", {"num_gpus": 4,
                                                                                 "gpu_preference": "l40s"}, ()),
])
def test_heldout45_round39(text: str, expected: dict[str, object], absent: tuple[str, ...]) -> None:
    found = values(text)
    for name, value in expected.items():
        assert found.get(name) == value, found
    assert not set(absent) & set(found), found
