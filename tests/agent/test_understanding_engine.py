"""The engine with the understanding layer: new profile fields, pasted briefs, language, "Did you mean?"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from sizer_agent.agent.engine import DeterministicEngine
from sizer_agent.agent.events import AgentMessage, AnswerRecorded, LanguageChanged, QuestionAsked
from sizer_agent.agent.intake import read_brief
from sizer_agent.agent.profile import WorkloadProfile, catalogue_gpu_ids, validate_field
from sizer_agent.agent.questions import field_label
from sizer_agent.agent.understanding import parse_message
from sizer_agent.agent.wording import format_value
from sizer_agent.i18n import catalogue
from sizer_agent.store import SessionStore
from sizer_agent.tools.registry import ToolRegistry

ROOT = Path(__file__).resolve().parents[2]


def of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def test_new_fields_are_validated_labelled_and_shown() -> None:
    assert "h100-sxm" in catalogue_gpu_ids() and "l40s" in catalogue_gpu_ids()
    assert validate_field("gpu_preference", "h100-sxm") == "h100-sxm"
    with pytest.raises(ValidationError, match="not a GPU of the catalogue"):
        validate_field("gpu_preference", "H100")
    with pytest.raises(ValidationError):
        validate_field("head_count", 0)
    profile = WorkloadProfile(head_count=500, concurrency=50, gpu_preference="l40s")
    assert profile.head_count == 500 and profile.concurrency == 50
    assert field_label("head_count", "fr") == "personnes concernées"
    assert field_label("gpu_preference", "en") == "preferred GPU"
    assert format_value("head_count", 500, "en") == "500 people" and format_value("head_count", 1, "fr") == "1 personne"
    assert format_value("gpu_preference", "l40s", "en") == "NVIDIA L40S"


def test_new_fields_survive_export_and_import(registry: ToolRegistry, store: SessionStore) -> None:
    sid = store.create_session(lang="en")
    engine = DeterministicEngine(registry, lang="en", on_event=store.recorder(sid))
    engine.start()
    engine.handle("Acme")
    engine.handle("We serve Llama 3.1 8B to 500 people, maybe 50 at the same time, on two H100s.")
    exported = store.export_session(sid)
    assert exported["answers"]["head_count"]["value"] == 500
    assert exported["answers"]["gpu_preference"]["value"] == "h100-sxm"
    copy = store.import_session(exported)
    state = store.load_state(copy)
    assert state.profile().head_count == 500 and state.profile().gpu_preference == "h100-sxm"
    assert state.profile().concurrency == 50 and state.profile().num_gpus == 2
    broken = {**exported, "answers": {**exported["answers"], "gpu_preference": {
        **exported["answers"]["gpu_preference"], "value": "not-a-gpu"}}}
    imported = store.import_session(broken)  # the store keeps what it is given; the profile refuses it
    with pytest.raises(ValidationError):
        store.load_state(imported).profile()


def test_a_pasted_brief_is_restated_with_its_words_then_only_the_missing_is_asked(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="fr")
    engine.start()
    events = engine.handle(
        "Bonjour, pour la société Dupont Industrie on voudrait héberger Llama 3.1 70B en FP8, une vingtaine "
        "d'utilisateurs en même temps, prompts de 2k tokens et réponses de 300 tokens, budget autour de 60k€ HT.")
    restated = next(m.text for m in of(events, AgentMessage) if m.text.startswith("Voici ce que j'ai compris"))
    assert "- client : Dupont Industrie (« Dupont Industrie »)" in restated
    assert "- simultanéité : environ 20 requêtes (« une vingtaine d'utilisateurs en même temps »)" in restated
    assert "Questions restantes :" in restated
    assert not any(m.text.startswith("Compris :") for m in of(events, AgentMessage))  # said once, not twice
    recorded = {e.field for e in of(events, AnswerRecorded)}
    assert {"customer", "use_case", "model", "precision", "concurrency", "budget_eur"} <= recorded
    asked = of(events, QuestionAsked)[-1].question_id
    assert asked not in recorded and asked == "context_len"


def test_a_short_answer_is_confirmed_as_before(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="en")
    engine.start()
    events = engine.handle("Llama 3.1 8B in fp8, 16 users")
    assert of(events, AgentMessage)[0].text.startswith("Understood:")


def test_language_follows_the_customer_until_the_consultant_chooses(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="fr")
    engine.start()
    events = engine.handle("Hello, we want to serve Llama 3.1 8B for our support team")
    assert of(events, LanguageChanged)[0].lang == "en" and engine.lang == "en"
    assert of(events, QuestionAsked)[-1].text == "Which customer or project is this sizing for?"
    assert not of(engine.handle("32"), LanguageChanged)  # a short answer says no language
    engine.set_lang("fr")  # the consultant's choice (F2) stays
    events = engine.handle("and we would like to keep it on premises please")
    assert not of(events, LanguageChanged) and engine.lang == "fr"


def test_did_you_mean_for_an_ambiguous_model_and_yes_accepts_a_single_suggestion(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="en")
    engine.start()
    engine.handle("Acme")
    engine.handle("online serving")
    events = engine.handle("Llama 3.1")
    hint = next(m.text for m in of(events, AgentMessage) if m.tone == "hint")
    assert hint.startswith("I could not tell which model you mean. Did you mean")
    assert "meta-llama/Llama-3.1-8B-Instruct" in hint and "meta-llama/Llama-3.1-70B-Instruct" in hint
    assert "model" not in engine.state.answers
    events = engine.handle("Llama 3 70B")  # no such model: the near ones
    hint = next(m.text for m in of(events, AgentMessage) if m.tone == "hint")
    assert hint.endswith("meta-llama/Llama-3.1-70B-Instruct or meta-llama/Llama-3.3-70B-Instruct?")
    events = engine.handle("Llama 3.1 405B base")  # the 405B base model is not bundled: one near name
    assert of(events, QuestionAsked)[-1].suggestions[0] == "meta-llama/Llama-3.1-405B-Instruct"
    engine.handle("yes")
    assert engine.state.answers["model"].value == "meta-llama/Llama-3.1-405B-Instruct"


def test_a_family_word_alone_is_never_a_model() -> None:
    for text in ("un modèle de type Llama (architecture maison, 3B)", "something like Mistral", "llama 70b"):
        assert "model" not in parse_message(text).values, text


def test_every_agent_and_intake_sentence_is_used() -> None:
    """A sentence nobody shows is a translation nobody checks: each key is named in the sources, or its
    section is completed at run time (f"agent.label.{field}")."""
    sources = "\n".join(p.read_text(encoding="utf-8") for folder in ("sizer_agent/agent", "sizer_agent/cli")
                        for p in (ROOT / folder).rglob("*.py"))
    keys = [k for k in catalogue("en") if k.split(".")[0] in ("agent", "intake")]
    unused = [k for k in keys if f'"{k}"' not in sources and f"'{k}'" not in sources
              and f'f"{k.rsplit(".", 1)[0]}.{{' not in sources]
    assert keys and unused == []


sentences = st.lists(st.sampled_from([
    "Bonjour", "we're Acme Robotics", "pour la société Dupont", "Llama 3.1 70B", "lama 3 70", "Qwen 2.5",
    "en FP8", "not 4-bit", "une vingtaine d'utilisateurs", "500 people, maybe 50 at once", "two H100s",
    "8x H200", "budget autour de 25k€", "2.048 s de TTFT", "1,500 Go", "1,5 To de texte", "serve", "fine tuner (full)",
    "pas de CAO", "no ECC", "x2", "+50 %", "seq 8k", "4k input and 512 output", "chaque nuit", "YOLO en 640 px",
    "Cordialement,\nA. B – Nova Conseil", "(", ")", ",", "\n\n", "–", "€", "%", "k", "0", "1e9", "٣", "ﬁ", "İ",
]), max_size=12).map(" ".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sentences | st.text(max_size=400))
def test_briefs_never_raise_and_words_are_the_message_s(text: str) -> None:
    result = parse_message(text)
    for finding in result.findings.values():
        start, end = finding.span
        assert 0 <= start <= end <= len(text) and text[start:end] == finding.words
    reading = read_brief(text if text.strip() else "x")
    assert all(f.field in WorkloadProfile.model_fields for f in reading.understood)


def test_each_answer_keeps_the_words_it_was_read_from(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="fr")
    engine.start()
    text = "Pour la société Dupont, une vingtaine d'utilisateurs en même temps sur Llama 3.1 8B"
    recorded = {e.field: e for e in of(engine.handle(text), AnswerRecorded)}
    assert recorded["concurrency"].words == "une vingtaine d'utilisateurs en même temps"
    assert recorded["concurrency"].raw_text == text  # the message itself, as the chat replays it
    assert recorded["customer"].words == "Dupont"


def test_every_finding_quotes_some_words() -> None:
    """Even a value inferred from the rest of the message points at the words that justify it."""
    for text in ("Qwen2.5 72B Instruct, internal use, 12 clinicians.", "~30 concurrent users on llama 70b"):
        findings = parse_message(text).findings
        assert findings["use_case"].value == "online_serving" and findings["use_case"].words.strip()


def test_the_proposal_quotes_the_words_a_value_came_from_not_the_whole_message(store: SessionStore) -> None:
    from sizer_agent.proposal import build_context
    from sizer_agent.tools.registry import default_registry

    sid = store.create_session(lang="en")
    engine = DeterministicEngine(default_registry(), lang="en", on_event=store.recorder(sid))
    engine.start()
    message = ("We're Acme Robotics and we want to serve Llama 3.1 8B Instruct with vLLM to 500 people, "
               "maybe 50 at the same time, prompts around 2k tokens, answers ~300 tokens, on a workstation.")
    engine.handle(message)
    while not engine.complete:
        engine.handle("I don't know")
    said = {a.field: a.raw_text for a in build_context(store.export_session(sid)).answers}
    assert said["concurrency"] == "50 at the same time"
    assert said["head_count"] == "500 people"
    assert said["customer"] == "Acme Robotics"
    assert all(text != message for text in said.values())  # never the whole message
