"""A field the message names several values for is not recorded: its candidates are offered when asked.

Expectations are a sizing engineer's: "JAX ou PyTorch, pas encore tranché" has no framework yet; "Budget
2026" names a year, not 2 026 €; a single named engine, card or budget is recorded as before.
"""

from __future__ import annotations

from typing import Any

import pytest

from sizer_agent.agent.engine import DeterministicEngine
from sizer_agent.agent.events import AgentMessage, AnswerRecorded, QuestionAsked
from sizer_agent.agent.understanding import parse_message
from sizer_agent.tools.registry import ToolRegistry


@pytest.mark.parametrize(("text", "doubts", "kept"), [
    ("On servira Llama 3.1 8B, en JAX ou PyTorch, ce n'est pas encore tranché.",
     {"framework": ("jax", "pytorch")}, {"model": "meta-llama/Llama-3.1-8B-Instruct"}),
    ("We'd run it with ollama or vllm, not decided; 10 users on Llama 3.1 8B.",
     {"framework": ("ollama", "vllm")}, {"concurrency": 10}),
    ("Budget 2026 : 15 k€ pour deux GPU.", {"budget_eur": (15000.0,)}, {"num_gpus": 2}),
    ("Budget 2026 validé, 4 GPU.", {"budget_eur": ()}, {"num_gpus": 4}),
])
def test_competing_values_are_doubts(text: str, doubts: dict[str, tuple[Any, ...]], kept: dict[str, Any]) -> None:
    parsed = parse_message(text)
    assert parsed.doubts == doubts
    for field in doubts:
        assert field not in parsed.values and field not in parsed.findings
    assert parsed.values.items() >= kept.items()


@pytest.mark.parametrize(("text", "doubts"), [
    ("On hésite : Qwen3 14B en FP8 ou en INT8.", {"precision": ("fp8", "int8")}),
    ("Gemma 3 12B, maybe 4-bit if one card is not enough", {"precision": ("int4",)}),
    ("Budget 20-30 k€ pour la station.", {"budget_eur": (20000.0, 30000.0)}),
    ("we can spend €120k to €150k on hardware", {"budget_eur": (120000.0, 150000.0)}),
    ("On a testé en AWQ mais on veut le servir en FP16.", {"precision": ("int4", "fp16")}),
])
def test_options_and_ranges_are_doubts(text: str, doubts: dict[str, tuple[Any, ...]]) -> None:
    parsed = parse_message(text)
    assert parsed.doubts == doubts
    assert not set(doubts) & set(parsed.values)


def test_a_bracket_said_in_words_is_its_ceiling_not_a_doubt() -> None:
    # heldout16 fr-g43, heldout17 fr-j22 and en-j30 label "entre 35 et 40 k€" / "between €35k and €50k" with the
    # upper bound: the buyer's ceiling
    parsed = parse_message("Budget entre 20 et 30 k€ pour la station.")
    assert parsed.values.get("budget_eur") == 30000.0 and "budget_eur" not in parsed.doubts


@pytest.mark.parametrize(("text", "values"), [
    ("Serving Llama 3.1 8B with vLLM on one H100, budget 40k€.",
     {"framework": "vllm", "gpu_preference": "h100-sxm", "budget_eur": 40000}),
    ("Budget de 2 000 € pour une station, Llama 3.2 3B.", {"budget_eur": 2000}),  # an amount, with its currency
    ("Fine-tuning LoRA avec PyTorch (Unsloth ou autre, peu importe).", {"framework": "pytorch"}),
    # what was tried in the past, in its own brackets or sentence, is no candidate for what is sized now
    ("Servir Llama 3.1 8B en bf16, surtout pas quantifié (on a eu des soucis en 4 bits l'an dernier).",
     {"precision": "bf16"}),
    ("We ran it in AWQ last year. This time we want FP8.", {"precision": "fp8"}),
    # a possible later move is no candidate for what is sized now either
    ("Phi-4 in bf16 with HF Transformers for now (may move to vLLM later).", {"framework": "transformers"}),
    ("On part sur Ollama ; on passera peut-être à vLLM plus tard.", {"framework": "ollama"}),
])
def test_a_single_candidate_is_recorded(text: str, values: dict[str, Any]) -> None:
    parsed = parse_message(text)
    assert parsed.values.items() >= values.items()
    assert not parsed.doubts


def test_the_interview_asks_for_a_doubt_with_its_candidates_first(registry: ToolRegistry) -> None:
    engine = DeterministicEngine(registry, lang="fr")
    engine.start()
    events = engine.handle("Pour Agrial Data : Llama 3.1 8B en bf16, 20 utilisateurs en ligne, JAX ou PyTorch "
                           "pas encore tranché. Budget 2026 : 15 k€.")
    recorded = {e.field for e in events if isinstance(e, AnswerRecorded)}
    assert "framework" not in recorded and "budget_eur" not in recorded
    hints = [e.text for e in events if isinstance(e, AgentMessage) and e.tone == "hint"]
    assert any("jax ou pytorch" in h.lower() for h in hints), hints
    asked: list[QuestionAsked] = []
    for _ in range(30):  # answer "je ne sais pas" until the framework question comes
        question = [e for e in events if isinstance(e, QuestionAsked)]
        if question and question[-1].question_id in ("framework", "budget_eur"):
            asked.append(question[-1])
            if question[-1].question_id == "framework":
                # offered in the catalogue's words, and a quick answer taken as written is understood
                assert question[-1].suggestions[:2] == ["JAX", "PyTorch"]
                events = engine.handle(question[-1].suggestions[1])
                assert [e.value for e in events if isinstance(e, AnswerRecorded) and e.field == "framework"] == [
                    "pytorch"]
            else:
                assert "15" in question[-1].suggestions[0]
                events = engine.handle("oui")
                assert [e.value for e in events if isinstance(e, AnswerRecorded) and e.field == "budget_eur"] == [
                    15000]
            continue
        if not question:
            break
        events = engine.handle("je ne sais pas")
    assert {q.question_id for q in asked} == {"framework", "budget_eur"}

