"""A pasted brief as the first message: the app answers in the brief's language, restates what it read,
asks only what is missing, and "I don't know" to every follow-up reaches a recommendation."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from sizer_agent.app import AppConfig, SizerApp
from sizer_agent.app.production import production_backend_factory
from sizer_agent.app.widgets.chat import AgentLine
from sizer_agent.store import SessionStore
from tests.tui.helpers import chat_text, say, settle
from sizer_agent.tools.registry import default_registry

ENGLISH_BRIEF = ("We want to serve Llama 3.1 70B Instruct with vLLM 0.11 in FP8, 4k input and 512 output tokens, "
                 "32 concurrent users, inference only, one GPU planned, no rendering or CAD.")
FRENCH_BRIEF = ("Bonjour, pour la société Dupont Industrie on voudrait héberger Llama 3.1 8B Instruct en FP8 avec "
                "vLLM, une vingtaine d'utilisateurs en même temps, prompts d'environ 2k tokens et réponses de 300 "
                "tokens, budget autour de 40k€ HT, pas de CAO.")
OFFERS = Path(__file__).resolve().parents[2] / "tools" / "catalog" / "data" / "offers.toml"
OFFER_IDS = [offer["id"] for offer in tomllib.loads(OFFERS.read_text(encoding="utf-8"))["offers"]]
HAS_RECOMMEND = "recommend" not in default_registry().unavailable


def make(tmp_path: Path, **config: object) -> SizerApp:
    factory = production_backend_factory(tmp_path / "sessions.db")
    return SizerApp(factory, AppConfig(cursor_blink=False, output_dir=tmp_path, **config))  # type: ignore[arg-type]


async def paste(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    """A pasted message: the whole text lands in the answer box at once, then Enter."""
    pilot.app.query_one("#answer").value = text
    await pilot.press("enter")
    await settle(pilot)


def last_question(app: SizerApp) -> str:
    questions = [line.text for line in app.chat_screen.chat.query(AgentLine) if line.has_class("question")]
    return questions[-1] if questions else ""


async def answer_dont_know_until_sized(pilot, app: SizerApp, dont_know: str) -> int:  # type: ignore[no-untyped-def]
    """'I don't know' to every question until the tools ran; returns how many questions were asked."""
    asked = 0
    for _ in range(25):
        if "estimate_memory" in chat_text(app):
            break
        await say(pilot, dont_know)
        asked += 1
    return asked


@pytest.mark.skipif(not HAS_RECOMMEND, reason="this checkout has no recommend tool")
async def test_english_brief_gets_english_questions_and_reaches_a_recommendation(tmp_path: Path) -> None:
    app = make(tmp_path)  # the interface starts in French, as a consultant's app does by default
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "Pour quel client" in chat_text(app)
        await paste(pilot, ENGLISH_BRIEF)
        text = chat_text(app)
        assert app.lang == "en" and "Switching to English" in text
        assert "Here is what I understood from your message:" in text
        assert "(“Llama 3.1 70B Instruct”)" in text and "(“32 concurrent”)" in text
        assert last_question(app) == "Which customer or project is this sizing for?"
        asked = await answer_dont_know_until_sized(pilot, app, "I don't know")
        text = chat_text(app)
        # only what the brief left open: customer, context, growth, TTFT, TPOT, deployment, ECC, budget, power
        assert asked <= 9
        assert "Que ferez-vous" not in text and "What will you do with the model" not in text
        assert "Recommendation" in text or "Recommended" in text or "No configuration fits" in text
        assert any(offer_id in text for offer_id in OFFER_IDS), "no catalogue offer named"
    with SessionStore(tmp_path / "sessions.db") as store:
        answers = store.answers(1)
        assert answers["use_case"].value == "online_serving" and answers["num_gpus"].value == 1
        assert answers["concurrency"].value == 32 and answers["rendering_cad"].value is False
        assert store.get_session(1).lang == "en"  # the session follows the customer's language


@pytest.mark.skipif(not HAS_RECOMMEND, reason="this checkout has no recommend tool")
async def test_french_brief_in_an_english_app_gets_french_questions(tmp_path: Path) -> None:
    app = make(tmp_path, lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await paste(pilot, FRENCH_BRIEF)
        text = chat_text(app)
        assert app.lang == "fr" and "Je continue en français" in text
        assert "Voici ce que j'ai compris de votre message :" in text
        assert "environ 20 requêtes" in text  # "une vingtaine": kept as approximate
        assert "Dupont Industrie" in app.sub_title  # the customer named in the brief titles the session
        await answer_dont_know_until_sized(pilot, app, "je ne sais pas")
        text = chat_text(app)
        assert any(offer_id in text for offer_id in OFFER_IDS), "no catalogue offer named"
    with SessionStore(tmp_path / "sessions.db") as store:
        answers = store.answers(1)
        assert answers["customer"].value == "Dupont Industrie" and answers["budget_eur"].value == 40000
        assert answers["concurrency"].value == 20 and answers["input_len"].value == 2048


async def test_f2_keeps_the_consultants_language(tmp_path: Path) -> None:
    """Once the consultant chose a language with F2, the customer's messages no longer switch it."""
    app = make(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await paste(pilot, "We want to serve Llama 3.1 8B Instruct for 16 concurrent users.")
        assert app.lang == "en"
        await pilot.press("f2")
        await settle(pilot)
        await say(pilot, "Acme")
        await paste(pilot, "and we would like a budget of 20k€ please, thanks a lot")
        assert app.lang == "fr" and last_question(app).startswith("En quelle précision")
