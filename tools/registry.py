"""The tool registry: every tool declared once, called the same way by every agent backend.

A tool is a function `InputModel -> OutputModel` (pydantic) with a name and a description. The registry
gives the deterministic engine its callables, an LLM backend its JSON schemas (OpenAI `tools` format), and
turns bad arguments into a message the caller can act on (an LLM retries with it) instead of an exception.

Pure: imports no application code. Tools that live in modules not present in this checkout are skipped by
`default_registry()`, which records why in `ToolRegistry.unavailable`.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from sizer_agent.tools.errors import InputError


@dataclass(frozen=True)
class Tool:
    name: str  # letters, digits, underscores: the name an LLM calls
    description: str  # what it computes and when to call it (read by the LLM)
    input_model: type[BaseModel]
    output_model: type[BaseModel]
    function: Callable[[Any], BaseModel]

    def parameters_schema(self) -> dict[str, Any]:
        return self.input_model.model_json_schema()

    def openai_schema(self) -> dict[str, Any]:
        """The entry of the `tools` list of an OpenAI-compatible /v1/chat/completions request."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters_schema(),
            },
        }


class ToolOutcome(BaseModel):
    """What one call gave: a result, or an error with a message telling the caller how to retry."""

    tool: str
    ok: bool
    arguments: dict[str, Any]
    result: dict[str, Any] | None = None
    error: str | None = None
    retry_message: str | None = None  # set when the arguments were wrong: what to change
    duration_ms: float = 0.0


def _validation_message(tool: Tool, error: ValidationError) -> str:
    lines = [f"The arguments for tool `{tool.name}` are invalid:"]
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        lines.append(f"- {where}: {item['msg']}")
    lines.append("Call the tool again with corrected arguments matching its JSON schema.")
    return "\n".join(lines)


@dataclass(frozen=True)
class _Spec:
    name: str
    module: str
    function: str
    input_model: str
    output_model: str
    description: str


@dataclass
class ToolRegistry:
    tools: dict[str, Tool] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)  # tool name -> why it is not registered
    # declared but not imported yet: a tool module is imported on first use, so that opening an interview
    # does not pay for importing every tool (the catalogue search pulls numpy, the benchmark httpx...)
    pending: dict[str, _Spec] = field(default_factory=dict)

    def _resolve(self, name: str) -> None:
        spec = self.pending.pop(name, None)
        if spec is None:
            return
        try:
            module = importlib.import_module(spec.module)
            function = getattr(module, spec.function)
            input_model = getattr(module, spec.input_model)
            output_model = getattr(module, spec.output_model)
        except (ImportError, AttributeError) as error:
            self.unavailable[spec.name] = f"{spec.module}: {error}"
            return
        self.register(Tool(spec.name, spec.description, input_model, output_model, function))

    def _resolve_all(self) -> None:
        for name in list(self.pending):
            self._resolve(name)

    def register(self, tool: Tool) -> Tool:
        if tool.name in self.tools:
            raise ValueError(f"tool {tool.name!r} is already registered")
        self.tools[tool.name] = tool
        self.unavailable.pop(tool.name, None)
        return tool

    def get(self, name: str) -> Tool:
        self._resolve(name)
        try:
            return self.tools[name]
        except KeyError:
            raise InputError("tool", f"unknown tool {name!r}", ", ".join(sorted(self.tools))) from None

    def __contains__(self, name: object) -> bool:
        if isinstance(name, str):
            self._resolve(name)
        return name in self.tools

    def names(self) -> list[str]:
        self._resolve_all()
        return list(self.tools)

    def openai_tools(self, names: list[str] | None = None) -> list[dict[str, Any]]:
        self._resolve_all()
        return [self.tools[n].openai_schema() for n in (names or list(self.tools)) if n in self.tools]

    def call(self, name: str, arguments: dict[str, Any] | str) -> ToolOutcome:
        """Validate the arguments, run the tool, never raise for bad input: the outcome says what failed."""
        self._resolve(name)
        if name not in self.tools:
            message = f"Unknown tool {name!r}; available tools: {', '.join(sorted(self.tools)) or 'none'}."
            args = arguments if isinstance(arguments, dict) else {}
            return ToolOutcome(tool=name, ok=False, arguments=args, error=message, retry_message=message)
        tool = self.tools[name]
        if isinstance(arguments, str):
            try:
                decoded = json.loads(arguments or "{}")
            except json.JSONDecodeError as error:
                message = f"The arguments for tool `{name}` are not valid JSON ({error.msg}); send a JSON object."
                return ToolOutcome(tool=name, ok=False, arguments={}, error=message, retry_message=message)
            if not isinstance(decoded, dict):
                message = f"The arguments for tool `{name}` must be a JSON object."
                return ToolOutcome(tool=name, ok=False, arguments={}, error=message, retry_message=message)
            arguments = decoded
        start = time.perf_counter()
        try:
            request = tool.input_model.model_validate(arguments)
        except ValidationError as error:
            message = _validation_message(tool, error)
            return ToolOutcome(tool=name, ok=False, arguments=arguments, error=message, retry_message=message)
        try:
            output = tool.function(request)
        except InputError as error:
            message = str(error)
            return ToolOutcome(tool=name, ok=False, arguments=arguments, error=message,
                               retry_message=f"Tool `{name}` refused the input: {message}",
                               duration_ms=(time.perf_counter() - start) * 1000)
        except ValidationError as error:  # a tool validating its own derived input
            message = _validation_message(tool, error)
            return ToolOutcome(tool=name, ok=False, arguments=arguments, error=message, retry_message=message,
                               duration_ms=(time.perf_counter() - start) * 1000)
        duration = (time.perf_counter() - start) * 1000
        return ToolOutcome(tool=name, ok=True, arguments=arguments, result=output.model_dump(mode="json"),
                           duration_ms=duration)


# The tools of this product. Each lives in its own module; a missing module (not merged into this
# checkout yet, or an optional extra not installed) leaves that tool out, with the reason recorded.
_SPECS: tuple[_Spec, ...] = (
    _Spec(
        "estimate_memory", "sizer_agent.tools.estimate", "estimate", "EstimateRequest", "EstimateResult",
        "Estimate the GPU memory of an inference or training workload for one model: weights, KV cache, "
        "activations, gradients, optimizer states and runtime per GPU, the parallelism plan, and whether it "
        "fits a given GPU. Call it once the model, precision, lengths and load are known.",
    ),
    _Spec(
        "estimate_vision", "sizer_agent.tools.vision.estimate", "estimate_vision", "VisionRequest", "VisionEstimate",
        "Estimate the GPU memory of a computer-vision job (timm/torchvision model or YOLOv8) at a resolution and "
        "batch per GPU, training or inference: weights, gradients, optimizer states, saved activations, "
        "workspace and runtime per GPU. Needs the `vision` extra (torch, torchvision, timm).",
    ),
    _Spec(
        "recommend", "sizer_agent.tools.recommend", "recommend", "RecommendRequest", "RecommendResult",
        "Rank the catalogue configurations for a workload (memory fit, throughput and latency at the load, "
        "cost) and say why each rejected configuration fails. Call it after estimate_memory.",
    ),
    _Spec(
        "bench_serve", "sizer_agent.tools.bench.serve", "run_serve", "ServeSettings", "ServeResult",
        "Measure a running OpenAI-compatible server (vLLM, llama.cpp) at the given input/output lengths and "
        "concurrency: TTFT, inter-token latency, TPOT, throughput and peak GPU memory from the same trial. "
        "Call it only when the user gave a server URL; it takes seconds to minutes.",
    ),
)


def default_registry() -> ToolRegistry:
    """The product's tools that this checkout provides, each imported on first use."""
    registry = ToolRegistry()
    for spec in _SPECS:
        try:
            found = importlib.util.find_spec(spec.module)
        except ImportError as error:  # a parent package that is absent or fails to import
            found, reason = None, str(error)
        else:
            reason = "module not installed"
        if found is None:
            registry.unavailable[spec.name] = f"{spec.module}: {reason}"
        else:
            registry.pending[spec.name] = spec
    return registry
