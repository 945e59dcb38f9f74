"""Headless intake: typed and free-text values, all problems at once, never an exception."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sizer_agent.agent.intake import run_intake
from sizer_agent.agent.profile import PROFILE_FIELDS
from sizer_agent.tools.registry import ToolRegistry

TRAINING = {
    "customer": "Globex", "use_case": "finetune_lora", "model": "Mistral 7B", "precision": "bf16",
    "context_len": 4096, "batch_size": "8", "dataset_size_bytes": "1,5 To", "optimizer": "AdamW 8 bits",
    "checkpoint_interval_min": "toutes les 2 heures", "framework": "PyTorch", "framework_version": "2.5",
    "num_gpus": 1, "deployment": "workstation", "rendering_cad": "non", "ecc_required": "je ne sais pas",
    "budget_eur": "25 000 €", "power_limit_w": "pas de limite",
}


def test_training_answers_file(registry: ToolRegistry) -> None:
    result = run_intake(TRAINING, registry)
    assert result.ok, result.problems
    profile = result.profile
    assert profile["dataset_size_bytes"] == 1_500_000_000_000 and profile["optimizer"] == "adamw_8bit"
    assert profile["checkpoint_interval_min"] == 120.0 and profile["budget_eur"] == 25000.0
    assert profile["power_limit_w"] is None and profile["ecc_required"] is False
    assert result.assumed == ["ecc_required"]
    calls = [e for e in result.events if e["kind"] == "tool_call"]
    assert calls[0]["arguments"]["method"] == "lora" and calls[0]["arguments"]["optimizer"] == "adamw8bit"


def test_a_model_the_estimator_refuses_is_reported(registry: ToolRegistry) -> None:
    result = run_intake({**TRAINING, "model": "unknown-org/unknown-model"}, registry)
    assert not result.ok
    (problem,) = result.problems
    assert problem.field == "model" and problem.kind == "tool" and "unknown model" in problem.message


def test_dont_know_without_default_is_invalid(registry: ToolRegistry) -> None:
    result = run_intake({**TRAINING, "model": "I don't know"}, registry)
    assert [(p.field, p.kind) for p in result.problems] == [("model", "invalid")]


def test_not_a_mapping(registry: ToolRegistry) -> None:
    assert not run_intake(["a", "b"], registry).ok  # type: ignore[arg-type]


values = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=30),
                   st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from([*PROFILE_FIELDS, "lang", "title", "junk"]), values, max_size=8))
def test_intake_never_raises(registry: ToolRegistry, data: dict[str, Any]) -> None:
    result = run_intake({**TRAINING, **data}, registry)
    assert result.ok or result.problems


def test_custom_architecture_is_sized_by_the_real_estimator(
    tmp_path: Any, monkeypatch: Any
) -> None:
    from sizer_agent.tools.registry import default_registry

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # the generated config.json goes there
    registry = default_registry()
    data = {**TRAINING, "model": "our in-house model", "use_case": "finetune_full", "custom_architecture": {
        "hidden_size": 2048, "num_layers": 16, "num_attention_heads": 16, "num_kv_heads": 8,
        "intermediate_size": 8192, "vocab_size": 32000, "max_position_embeddings": 8192}}
    result = run_intake(data, registry)
    assert result.ok, result.problems
    call = next(e for e in result.events if e["kind"] == "tool_call")
    assert call["arguments"]["model"].startswith(str(tmp_path)) and call["arguments"]["model"].endswith("config.json")
    returned = next(e for e in result.events if e["kind"] == "tool_result")
    assert returned["ok"] and returned["result"]["model"]["num_layers"] == 16
