"""The tool registry: schemas for LLM tool calling, validation as retry messages, guarded tools."""

from __future__ import annotations

import json

from sizer_agent.agent.llm import _record_tool_schema
from sizer_agent.tools.registry import ToolRegistry, default_registry


def test_openai_tools_format(registry: ToolRegistry) -> None:
    (entry,) = registry.openai_tools()
    assert entry["type"] == "function"
    function = entry["function"]
    assert function["name"] == "estimate_memory" and function["description"]
    assert function["parameters"]["type"] == "object"
    assert "model" in function["parameters"]["required"]
    json.dumps(entry)
    json.dumps(_record_tool_schema())


def test_call_validates_and_gives_a_retry_message(registry: ToolRegistry) -> None:
    outcome = registry.call("estimate_memory", {"model": "m", "concurrency": "many"})
    assert not outcome.ok and outcome.retry_message
    assert "concurrency" in outcome.retry_message and "Call the tool again" in outcome.retry_message
    outcome = registry.call("estimate_memory", '{"model": ')
    assert not outcome.ok and "not valid JSON" in (outcome.retry_message or "")
    outcome = registry.call("estimate_memory", "[1, 2]")
    assert not outcome.ok and "JSON object" in (outcome.error or "")
    outcome = registry.call("no_such_tool", {})
    assert not outcome.ok and "estimate_memory" in (outcome.error or "")


def test_input_error_from_the_tool_is_an_outcome(registry: ToolRegistry) -> None:
    outcome = registry.call("estimate_memory", {"model": "unknown/x"})
    assert not outcome.ok and outcome.error and outcome.error.startswith("model: unknown model")


def test_successful_call_returns_json(registry: ToolRegistry) -> None:
    outcome = registry.call("estimate_memory", json.dumps({"model": "m", "concurrency": 4}))
    assert outcome.ok and outcome.result and outcome.result["request"]["concurrency"] == 4
    assert outcome.duration_ms >= 0


def test_default_registry_registers_every_tool_the_engine_calls() -> None:
    registry = default_registry()
    for name in ("estimate_memory", "recommend", "bench_serve"):
        assert name in registry, registry.unavailable.get(name)
        assert name not in registry.unavailable


def test_tools_are_imported_on_first_use_only() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys\n"
        "from tools.registry import default_registry\n"
        "r = default_registry()\n"
        "assert 'sizer_agent.tools.estimate' not in sys.modules, 'imported too early'\n"
        "assert 'estimate_memory' in r\n"
        "assert 'sizer_agent.tools.estimate' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True, env={"PYTHONPATH": str(root)})
