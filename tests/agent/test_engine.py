"""Scripted transcripts through the deterministic engine, French and English."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sizer_agent.agent.engine import DeterministicEngine
from sizer_agent.agent.events import (
    AgentMessage,
    AnswerRecorded,
    ConversationEngine,
    QuestionAsked,
    ToolCalled,
    ToolReturned,
)
from sizer_agent.i18n import gib
from sizer_agent.proposal import render_proposal
from sizer_agent.store import SessionStore
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.registry import ToolRegistry, default_registry


def kinds(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def answers(events: list[Any]) -> dict[str, Any]:
    return {e.field: e.value for e in kinds(events, AnswerRecorded)}


def last_question(events: list[Any]) -> str | None:
    asked = kinds(events, QuestionAsked)
    return asked[-1].question_id if asked else None


def test_engine_implements_the_protocol(registry: ToolRegistry) -> None:
    engine: ConversationEngine = DeterministicEngine(registry)
    assert last_question(engine.start()) == "customer"


def test_french_transcript_with_multi_answers_corrections_and_dont_know(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="fr")
    engine.start()
    events = engine.handle("Acme")
    assert answers(events) == {"customer": "Acme"}
    assert last_question(events) == "use_case"

    events = engine.handle("un chatbot interne en ligne")
    assert answers(events)["use_case"] == "online_serving"

    events = engine.handle("Llama 3.1 70B Instruct en fp8, contexte 8k, 32 utilisateurs")
    got = answers(events)
    assert got["model"] == "meta-llama/Llama-3.1-70B-Instruct"  # matched to the bundled registry
    assert got["precision"] == "fp8"
    assert got["context_len"] == 8192
    assert got["concurrency"] == 32
    confirm = kinds(events, AgentMessage)[0].text
    assert confirm.startswith("Compris :") and "8\u202f192 tokens" in confirm and "fp8" in confirm
    assert last_question(events) == "input_len"

    events = engine.handle("2k / 512")
    assert answers(events) == {"input_len": 2048, "output_len": 512}

    # a correction of an earlier answer while another question is open
    events = engine.handle("non, plutôt 64 utilisateurs")
    recorded = kinds(events, AnswerRecorded)
    assert [(r.field, r.value, r.previous) for r in recorded] == [("concurrency", 64, 32)]
    assert "Corrigé" in kinds(events, AgentMessage)[0].text
    assert last_question(events) == "growth_factor"

    events = engine.handle("je ne sais pas")
    (recorded,) = kinds(events, AnswerRecorded)
    assert (recorded.field, recorded.value, recorded.assumed) == ("growth_factor", 1.0, True)
    assert "par défaut" in kinds(events, AgentMessage)[0].text

    events = engine.handle("pourquoi ?")
    assert "Pourquoi" in kinds(events, AgentMessage)[0].text
    assert not kinds(events, AnswerRecorded)
    assert last_question(events) == "ttft_ms"

    engine.handle("500 ms")
    engine.handle("40 ms par token")
    events = engine.handle("en fait bf16")  # correction by keyword
    assert [(r.field, r.value, r.previous) for r in kinds(events, AnswerRecorded)] == [("precision", "bf16", "fp8")]
    for text in ("vLLM 0.11.0", "2 GPU", "station de travail", "non", "oui", "25 000 €"):
        events = engine.handle(text)
    assert last_question(events) == "power_limit_w"
    events = engine.handle("pas de limite")
    assert answers(events) == {"power_limit_w": None}

    # complete: the estimate tool ran and its result is explained
    calls = kinds(events, ToolCalled)
    assert [c.tool for c in calls] == ["estimate_memory"]
    args = calls[0].arguments
    assert args["model"] == "meta-llama/Llama-3.1-70B-Instruct" and args["dtype"] == "bfloat16"
    assert args["concurrency"] == 64 and args["max_model_len"] == 8192 and args["tensor_parallel_size"] == 2
    (returned,) = kinds(events, ToolReturned)
    assert returned.ok and returned.call_id == calls[0].call_id
    result_text = next(m.text for m in kinds(events, AgentMessage) if m.tone == "result")
    # the stand-in's canned bytes, printed in binary units by the catalogue (one family per language)
    assert gib(83_400_000_000, "fr") in result_text and gib(70_600_000_000, "fr") in result_text
    assert engine.complete
    profile = engine.profile()
    assert profile.rendering_cad is False and profile.ecc_required is True and profile.budget_eur == 25000
    assert engine.state.assumed() == ["growth_factor"]


def test_english_transcript_training(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="en")
    engine.start()
    engine.handle("Globex")
    events = engine.handle("QLoRA fine-tuning of Mistral 7B with 8-bit AdamW, batch 4, sequence length 4k")
    got = answers(events)
    assert got["use_case"] == "finetune_qlora" and got["model"] == "mistralai/Mistral-7B-Instruct-v0.3"
    assert got["optimizer"] == "adamw_8bit" and got["batch_size"] == 4 and got["context_len"] == 4096
    assert kinds(events, AgentMessage)[0].text.startswith("Understood:")
    assert last_question(events) == "precision"
    events = engine.handle("I don't know")
    assert answers(events) == {"precision": "nf4"}  # the documented QLoRA default
    events = engine.handle("why?")
    assert kinds(events, AgentMessage)[0].text.startswith("Why this matters")
    assert last_question(events) == "dataset_size_bytes"
    assert answers(engine.handle("1.5 TB")) == {"dataset_size_bytes": 1_500_000_000_000}
    assert answers(engine.handle("every 2 hours")) == {"checkpoint_interval_min": 120.0}
    engine.handle("PyTorch 2.4")
    engine.handle("actually 2.5")  # bare correction goes to the last answer, not the open question
    assert engine.state.answers["framework_version"].value == "2.5"
    for text in ("1", "cloud", "no", "no budget"):
        events = engine.handle(text)
    calls = kinds(events, ToolCalled)
    assert calls and calls[0].arguments["method"] == "qlora" and calls[0].arguments["optimizer"] == "adamw8bit"
    result_text = next(m.text for m in kinds(events, AgentMessage) if m.tone == "result")
    # the job as stated keeps every activation: labelled so, since the recommendation recomputes them
    assert f"Memory per GPU, the job as stated (every activation kept): {gib(90_400_000_000, 'en')}" in result_text
    assert "turns on activation recomputation" in result_text


def test_nonsense_is_reasked_with_a_hint(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="fr")
    engine.start()
    events = engine.handle("blablabla")  # any text names the customer
    assert answers(events) == {"customer": "blablabla"}
    events = engine.handle("zzzz qwerty")
    (hint,) = kinds(events, AgentMessage)
    assert hint.tone == "hint" and "Exemple" in hint.text
    (question,) = kinds(events, QuestionAsked)
    assert question.question_id == "use_case" and question.hint
    events = engine.handle("toujours rien")
    assert "Réponses possibles" in kinds(events, AgentMessage)[0].text


def test_invalid_value_is_refused_and_nothing_changes(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="en")
    engine.start()
    engine.handle("Acme")
    engine.handle("online serving")
    engine.handle("Llama 3.1 8B bf16, context 8k")
    engine.handle("2k / 512")
    events = engine.handle("0 users")
    assert not kinds(events, AnswerRecorded)
    assert any(m.tone == "error" and "concurrency" in m.text for m in kinds(events, AgentMessage))
    assert "concurrency" not in engine.state.answers
    assert last_question(events) == "concurrency"


def test_no_default_for_the_model(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="en")
    engine.start()
    engine.handle("Acme")
    engine.handle("batch inference")
    events = engine.handle("no idea")
    assert not kinds(events, AnswerRecorded)
    assert "no sensible default" in kinds(events, AgentMessage)[0].text
    assert last_question(events) == "model"


def complete_serving(engine: DeterministicEngine, model: str = "Llama 3.1 8B") -> list[Any]:
    engine.start()
    events: list[Any] = []
    for text in ("Acme", "online serving", f"{model} bf16, context 8k, 16 users, 2k / 512",
                 "x1", "500 ms", "50 ms", "vLLM 0.11", "1", "server", "no", "no budget", "no", "no"):
        events = engine.handle(text)
    return events


def test_correction_after_results_reruns_the_tools(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="en")
    events = complete_serving(engine)
    assert [c.tool for c in kinds(events, ToolCalled)] == ["estimate_memory"]
    events = engine.handle("actually 64 users")
    assert [(r.field, r.value) for r in kinds(events, AnswerRecorded)] == [("concurrency", 64)]
    calls = kinds(events, ToolCalled)
    assert len(calls) == 1 and calls[0].arguments["concurrency"] == 64


def test_unknown_model_reported_and_asked_again(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="en")
    events = complete_serving(engine, model="unknown-org/unknown-model")
    returned = kinds(events, ToolReturned)
    assert returned and not returned[0].ok and "unknown model" in (returned[0].error or "")
    assert last_question(events) == "model"


def test_without_estimator_the_profile_is_kept(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(ToolRegistry(unavailable={"estimate_memory": "tools.estimate: not installed"}))
    events = complete_serving(engine)
    assert any("not available" in m.text or "pas disponible" in m.text for m in kinds(events, AgentMessage))
    assert engine.complete


def test_every_event_reaches_the_store_at_once_and_resume(registry: ToolRegistry, store: SessionStore) -> None:
    sid = store.create_session(lang="en")
    engine = DeterministicEngine(registry, lang="en", on_event=store.recorder(sid))
    engine.start()
    engine.handle("Acme")
    engine.handle("online serving, Llama 3.1 8B in fp8, 16 users")
    # a new engine on the stored state continues where the first one stopped
    resumed = DeterministicEngine(registry, state=store.load_state(sid), on_event=store.recorder(sid))
    events = resumed.start()
    assert "Session resumed" in kinds(events, AgentMessage)[0].text
    assert last_question(events) == "input_len"
    assert resumed.profile().concurrency == 16 and resumed.profile().precision == "fp8"
    assert store.get_session(sid).customer == "Acme"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(max_size=80), min_size=1, max_size=4))
def test_engine_never_crashes_and_always_answers(registry: ToolRegistry, messages: list[str]) -> None:
    engine = DeterministicEngine(registry, lang="fr")
    engine.start()
    for message in messages:
        events = engine.handle(message)
        assert events, f"no event for {message!r}"
        assert not any(isinstance(e, AgentMessage) and "Erreur interne" in e.text for e in events), message


def test_with_the_real_estimator_every_shown_figure_comes_from_the_result() -> None:
    from sizer_agent.tools.registry import default_registry

    registry = default_registry()
    engine = DeterministicEngine(registry, lang="en")
    events = complete_serving(engine, model="Llama 3.1 8B")
    returned = kinds(events, ToolReturned)[0]
    assert returned.tool == "estimate_memory" and returned.ok, returned.error
    result = returned.result or {}
    assert result["request"]["model"] == "meta-llama/Llama-3.1-8B-Instruct"
    text = next(m.text for m in kinds(events, AgentMessage) if m.tone == "result")
    assert f"Memory per GPU: {gib(result['per_gpu']['total_bytes'], 'en')}" in text
    assert f"Weights {gib(result['per_gpu']['weights_bytes'], 'en')}" in text
    recommended = next(e for e in kinds(events, ToolReturned) if e.tool == "recommend")
    assert recommended.ok, recommended.error
    texts = [m.text for m in kinds(events, AgentMessage) if m.tone == "result"]
    pick = (recommended.result or {}).get("recommended")
    assert pick is not None and any(str(pick) in t for t in texts)  # the plan is named in the chat


def test_new_questions_after_a_use_case_change_then_sized_again(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="en")
    complete_serving(engine)
    events = engine.handle("actually LoRA fine-tuning")
    assert not kinds(events, ToolCalled)
    assert last_question(events) == "batch_size"  # training questions now apply
    for text in ("4", "10 GB", "AdamW", "every 30 min"):
        events = engine.handle(text)
    calls = kinds(events, ToolCalled)
    assert len(calls) == 1 and calls[0].arguments["mode"] == "training" and calls[0].arguments["method"] == "lora"


def test_unknown_model_then_a_known_one_sizes_again(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="en")
    events = complete_serving(engine, model="unknown-org/unknown-model")
    assert last_question(events) == "model"
    events = engine.handle("Llama 3.1 8B")
    returned = kinds(events, ToolReturned)
    assert returned and returned[0].ok


def test_a_refused_value_asks_its_question_again() -> None:
    from sizer_agent.tools.registry import default_registry

    engine = DeterministicEngine(default_registry(), lang="en")
    engine.start()
    events: list[Any] = []
    for text in ("Acme", "online serving", "Llama 3.1 70B bf16, context 8k, 16 users, 2k / 512",
                 "x1", "500 ms", "50 ms", "vLLM 0.11", "3", "server", "no", "no budget", "no", "no"):
        events = engine.handle(text)
    returned = kinds(events, ToolReturned)
    assert returned and not returned[0].ok and "tensor_parallel_size" in (returned[0].error or "")
    assert last_question(events) == "num_gpus"
    events = engine.handle("4")
    assert kinds(events, ToolReturned)[0].ok


def test_resuming_a_complete_session_says_how_to_go_on(store: SessionStore) -> None:
    registry = default_registry(bench=False)
    sid = store.create_session(lang="en")
    engine = DeterministicEngine(registry, lang="en", on_event=store.recorder(sid))
    complete_serving(engine)
    resumed = DeterministicEngine(registry, state=store.load_state(sid), on_event=store.recorder(sid))
    events = resumed.start() + resumed.resume_sizing()
    assert not kinds(events, QuestionAsked) and not kinds(events, ToolCalled)  # the results are current
    assert "correct an answer" in kinds(events, AgentMessage)[-1].text
    assert {"estimate_memory", "recommend"} <= set(resumed.state.results)
    events = resumed.handle("actually 32 users")
    assert [c.tool for c in kinds(events, ToolCalled)] == ["estimate_memory", "recommend"]


def test_a_sizing_cut_short_runs_again_on_resume(store: SessionStore) -> None:
    """The process died after an answer was stored and before recommend answered: resume sizes again."""
    registry = default_registry(bench=False)
    sid = store.create_session(lang="en")
    complete_serving(DeterministicEngine(registry, lang="en", on_event=store.recorder(sid)))
    record = store.recorder(sid)
    # what a process killed during recommend leaves: the answer, the estimate, a recommend call, no result
    survivor = DeterministicEngine(registry, state=store.load_state(sid))
    for event in survivor.handle("actually 48 users"):
        record(event)
        if isinstance(event, ToolCalled) and event.tool == "recommend":
            break
    with pytest.raises(InputError, match="stopped during recommend: resume it"):  # no plan beside other answers
        render_proposal(store.export_session(sid), "md", "en")
    resumed = DeterministicEngine(registry, state=store.load_state(sid), on_event=record)
    opening = resumed.start()
    assert not any("correct an answer" in m.text for m in kinds(opening, AgentMessage))
    events = resumed.resume_sizing()
    assert [c.tool for c in kinds(events, ToolCalled)] == ["estimate_memory", "recommend"]
    assert kinds(events, ToolCalled)[0].arguments["concurrency"] == 48
    assert resumed.state.results["recommend"] == kinds(events, ToolReturned)[-1].result
    again = DeterministicEngine(registry, state=store.load_state(sid))
    assert again.resume_sizing() == []  # now current: a second resume runs nothing
    assert "48" in render_proposal(store.export_session(sid), "md", "en")



def test_a_budget_per_month_answers_the_budget_question(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="fr")
    engine.handle("Acme, chatbot en ligne sur Llama 3.1 8B Instruct, 20 utilisateurs, 1k en entrée, 256 en sortie, "
                  "en location cloud")
    for _ in range(12):
        current = engine.state.current_question
        if current == "budget_eur":
            break
        engine.handle("je ne sais pas")
    assert engine.state.current_question == "budget_eur"
    engine.handle("3 000 € par mois maximum")
    profile = engine.profile()
    assert profile.budget_eur_per_month == 3000 and profile.budget_eur is None
    assert engine.state.current_question != "budget_eur"  # answered: the total is not asked for on top


def test_a_question_answered_around_twice_is_asked_again_after_the_others(registry: ToolRegistry) -> None:
    # "Pour quel client ?" answered with the load, then with the budget: a person moves on after the second time
    # and comes back to it once the rest is known, instead of asking it a third time in a row
    engine = DeterministicEngine(registry, lang="fr")
    engine.start()
    events = engine.handle("on voudrait un chatbot interne")
    assert last_question(events) == "customer"  # asked once more
    events = engine.handle("une cinquantaine de personnes, peut-être 15 en même temps")
    assert answers(events)["concurrency"] == 15
    assert last_question(events) != "customer"  # answered around twice: after the others
    events = engine.handle("Mistral Small, la dernière")
    assert "customer" not in answers(events) and last_question(events) != "customer"
    # the customer question comes back once the other required questions are answered or assumed
    asked = []
    for _ in range(30):
        events = engine.handle("je ne sais pas")
        asked.append(last_question(events))
        if asked[-1] == "customer" or asked[-1] is None:
            break
    assert "customer" in asked


def test_a_length_said_in_paragraphs_or_pages_answers_a_question_on_tokens(registry: ToolRegistry) -> None:
    # "quelques paragraphes" to "how many input tokens?": 3 x 100 words x 4/3 tokens a word (OpenAI: 100 tokens
    # ~ 75 words) = 400, said as approximate; "une page" (~500 words) ~ 670
    engine = DeterministicEngine(registry, lang="fr")
    engine.start()
    engine.handle("Acme, un chatbot interne sur Mistral 7B en bf16, 10 utilisateurs")
    while engine.state.current_question not in ("input_len", None):
        engine.handle("je ne sais pas")
    assert engine.state.current_question == "input_len"
    events = engine.handle("des questions de quelques paragraphes")
    assert answers(events) == {"input_len": 400}
    assert last_question(events) == "output_len"
    assert answers(engine.handle("une page")) == {"output_len": 670}


def test_prompt_and_answer_lengths_said_in_text_are_read_whatever_the_question(registry: ToolRegistry) -> None:
    # "short questions, answers of about a paragraph" said while the precision question is open: a sentence
    # (~25 words) and a paragraph (~100 words) at 4/3 tokens a word — 30 and 130 tokens, approximate
    engine = DeterministicEngine(registry, lang="en")
    engine.start()
    engine.handle("Acme, an internal assistant on Llama 3.1 8B for 10 people at once")
    events = engine.handle("short questions, answers of about a paragraph")
    assert answers(events) == {"input_len": 30, "output_len": 130}


def test_a_training_set_and_a_deadline_said_in_an_answer_once_the_job_trains(registry: ToolRegistry) -> None:
    # the interview, question by question: the use case said first, then "sur 2 000 milliards de tokens, il faut que
    # ce soit fini en 30 jours" as an answer with no training word of its own — lost before (the epoch timed on the
    # 10 GB default, no deadline), and quoted back cut inside "30" ("… fini en 3")
    engine = DeterministicEngine(registry, lang="fr")
    engine.handle("Laboratoire LIMSI-Paris")
    engine.handle("on veut pré-entraîner from scratch un Llama 3.1 8B")
    events = engine.handle("sur 2 000 milliards de tokens, il faut que ce soit fini en 30 jours")
    got = answers(events)
    assert got.get("dataset_tokens") == 2 * 10**12 and got.get("deadline_hours") == 720
    # the same words before any use case is known are no training set (a RAG corpus, a context)
    fresh = DeterministicEngine(registry, lang="fr")
    fresh.handle("Laboratoire LIMSI-Paris")
    assert "dataset_tokens" not in answers(fresh.handle("sur 2 000 milliards de tokens"))


def test_a_long_answer_quoted_back_is_cut_at_a_word() -> None:
    from sizer_agent.agent.wording import quoted

    said = quoted("sur 2 000 milliards de tokens, il faut que ce soit fini en 30 jours")
    assert said.endswith(" …") and "fini en 3 " not in said + " " and len(said) <= 62
    assert quoted("bf16") == "bf16"
