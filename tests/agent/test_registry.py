"""The tool registry: schemas for LLM tool calling, validation as retry messages, guarded tools."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from sizer_agent.agent.llm import _record_tool_schema
from sizer_agent.tools.registry import Tool, ToolRegistry, ToolSource, default_registry, describe
from tests.bench.conftest import schedule_server, stop_process


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


def _call(registry: ToolRegistry, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    outcome = registry.call(name, arguments)
    assert outcome.ok, f"{name}: {outcome.error}"
    assert outcome.result is not None
    declared = registry.get(name).output_schema()["properties"]
    assert set(outcome.result) <= set(declared), f"{name}: fields outside its declared output"
    return outcome.result


def test_every_declared_tool_imports_and_runs(tmp_path: Path) -> None:
    """A tool that cannot be imported or called fails here, whatever its module: each is run for real."""
    registry = default_registry()
    # the dev install has every extra: nothing may be left out, whatever the reason
    assert registry.unavailable == {}
    server = schedule_server(5, 1)
    try:
        result = _call(registry, "bench_serve", {
            "base_url": server.url, "model": "meta-llama/Llama-3.1-8B-Instruct", "precision": "bfloat16",
            "input_len": {"low": 16, "high": 16}, "output_len": {"low": 4, "high": 4}, "concurrency": [1],
            "num_prompts": 2,
        })
    finally:
        stop_process(server)
    assert result["levels"][0]["requests_completed"] == 2
    served = tmp_path / "served.json"
    served.write_text(json.dumps(result))
    runs = {
        "estimate_memory": {"model": "llama-3.1-8b", "concurrency": 4},
        "estimate_vision": {"model": "resnet18", "resolution": 64, "batch_size": 2},
        "recommend": {"workload": {"model": "llama-3.1-8b", "concurrency": 8}},
        "size_system": {"num_gpus": 2, "gpu_memory_used_bytes": 40_000_000_000, "gpu": "h200-sxm"},
        "size_cluster": {"model": "deepseek-v3", "offers": ["HGX-B300-8"], "nodes": 2},
        "list_models": {"search": "llama"},
        "list_offers": {"kind": "purchase"},
        "compare_chips": {"models": ["llama-3.1-8b"], "offer_ids": ["CLOUD-TPU-V6E", "CLOUD-H100-SXM"]},
        "compare_bench": {"a": {"path": str(served)}, "b": {"result": result}},
        "calibrate_bench": {"result": {"path": str(served)}, "gpu": "h200-sxm"},
        "bench_serve": None,  # run above, against a real server
    }
    assert set(runs) == set(registry.names()), "every tool needs a real run here"
    results = {name: _call(registry, name, args) for name, args in runs.items() if args is not None}
    assert results["estimate_memory"]["per_gpu"]["weights_bytes"] > 15e9  # 8 B parameters in bf16
    assert results["recommend"]["plan"] is not None
    cluster = results["size_cluster"]["options"][0]
    assert cluster["gpus"] == 16 and cluster["serving"]["memory"]["weights_gb"] < 270  # fits a B300's HBM
    assert results["list_models"]["models"] and all("lama" in m["id"].lower() for m in results["list_models"]["models"])
    assert results["list_offers"]["offers"] and {o["kind"] for o in results["list_offers"]["offers"]} == {"purchase"}
    chips = {r["gpu_id"] for r in results["compare_chips"]["comparisons"][0]["rows"]}
    assert chips == {"tpu-v6e", "h100-sxm"}
    assert results["compare_bench"]["comparable"] is True
    assert results["calibrate_bench"]["rows"]


def test_a_tool_is_described_by_its_own_function() -> None:
    registry = default_registry()
    for tool in registry.all():
        assert tool.description == describe(tool.function)
        assert tool.parameters_schema()["type"] == "object"
        assert tool.output_schema()["type"] == "object"
    assert registry.get("recommend").input_model.__name__ == "RecommendRequest"


class In(BaseModel):
    x: int


class Out(BaseModel):
    y: int


def test_from_function_refuses_what_is_not_a_typed_tool() -> None:
    def documented(request: In) -> Out:
        """Double x."""
        return Out(y=2 * request.x)

    def untyped(request):  # type: ignore[no-untyped-def]
        """No types."""

    def undocumented(request: In) -> Out:
        return Out(y=request.x)

    tool = Tool.from_function(documented)
    assert (tool.name, tool.description, tool.input_model, tool.output_model) == ("documented", "Double x.", In, Out)
    with pytest.raises(TypeError, match="pydantic model"):
        Tool.from_function(untyped)
    with pytest.raises(TypeError, match="docstring"):
        Tool.from_function(undocumented)


def test_a_broken_tool_module_raises_instead_of_hiding() -> None:
    def load() -> Any:
        raise ImportError("tools.nowhere: No module named 'tools.nowhere'")

    registry = ToolRegistry()
    registry.declare(ToolSource("broken", load))
    with pytest.raises(ImportError):
        registry.call("broken", {})


def test_a_missing_extra_is_the_only_reason_to_leave_a_tool_out() -> None:
    registry = ToolRegistry()
    registry.declare(ToolSource("needs_extra", lambda: None, extra="fancy",  # type: ignore[arg-type,return-value]
                                requires=("no_such_module_xyz",)))
    assert "needs_extra" not in registry
    assert "pip install 'sizer-agent[fancy]'" in registry.unavailable["needs_extra"]


def test_bench_tools_can_be_left_out() -> None:
    names = default_registry(bench=False).names()
    assert "bench_serve" not in names and "recommend" in names


def test_tools_are_imported_on_first_use_only() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys\n"
        "from sizer_agent.tools.registry import default_registry\n"
        "r = default_registry()\n"
        "assert 'estimate_memory' in r\n"
        "assert 'sizer_agent.tools.estimate' not in sys.modules, 'imported too early'\n"
        "assert r.call('estimate_memory', {'model': 'llama-3.1-8b'}).ok\n"
        "assert 'sizer_agent.tools.estimate' in sys.modules\n"
        "assert 'sizer_agent.tools.bench.serve' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True, env={"PYTHONPATH": str(root)})
