"""The tool registry: every tool declared once, by reference, called the same way by every agent backend.

A tool is one typed function `InputModel -> OutputModel` (pydantic in, pydantic out). Its name, description
and JSON schemas come from the function itself (name, docstring, type hints), as pydantic-ai builds its tools,
so the description an LLM or an MCP client reads is the docstring a developer reads. The registry gives the
deterministic engine its callables, an LLM backend its JSON schemas (OpenAI `tools` format), the MCP server
its tool list, and turns bad arguments into a message the caller can act on (an LLM retries with it) instead
of an exception.

Tools are imported on first use, so that opening an interview does not pay for importing every tool (the
catalogue search pulls numpy, the benchmark httpx). A tool whose module fails to import is a bug and raises;
only a tool whose optional extra is not installed (vision needs torch) is left out, with the reason recorded.

Pure: imports no application code.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import time
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from sizer_agent.tools.errors import InputError

ToolFunction = Callable[..., BaseModel]

# Docstring sections that document the Python call, not the tool (Google style): cut from the description.
_SECTIONS = ("Args:", "Arguments:", "Returns:", "Raises:", "Examples:", "Example:")


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model of a parameter or return annotation (`Model` or `Model | str`), else None."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        models = [a for a in typing.get_args(annotation) if isinstance(a, type) and issubclass(a, BaseModel)]
        if len(models) == 1:
            return models[0]
    return None


def describe(function: Callable[..., Any]) -> str:
    """The tool description: the function's docstring up to its first Args/Returns section."""
    doc = inspect.getdoc(function) or ""
    lines: list[str] = []
    for line in doc.splitlines():
        if line.strip() in _SECTIONS:
            break
        lines.append(line)
    text = "\n".join(lines).strip()
    if not text:
        raise TypeError(f"tool function {function.__qualname__} has no docstring: it is the tool's description")
    return text


@dataclass(frozen=True)
class Tool:
    name: str  # letters, digits, underscores: the name an LLM calls
    description: str  # what it computes and when to call it (read by the LLM)
    input_model: type[BaseModel]
    output_model: type[BaseModel]
    function: Callable[[Any], BaseModel]
    bench: bool = False  # starts servers or loads GPUs: exposed to outside clients only when allowed

    @classmethod
    def from_function(cls, function: Callable[..., BaseModel], *, name: str | None = None,
                      bench: bool = False) -> Tool:
        """A tool from its function: the first parameter's model is the input, the return model the output."""
        hints = typing.get_type_hints(function)
        parameters = list(inspect.signature(function).parameters.values())
        if not parameters:
            raise TypeError(f"tool function {function.__qualname__} takes no request")
        input_model = _model_in(hints.get(parameters[0].name))
        output_model = _model_in(hints.get("return"))
        if input_model is None or output_model is None:
            raise TypeError(f"tool function {function.__qualname__} must take a pydantic model and return one")
        for extra in parameters[1:]:
            if extra.default is inspect.Parameter.empty and extra.kind is not inspect.Parameter.VAR_KEYWORD:
                raise TypeError(f"tool function {function.__qualname__}: {extra.name} needs a default")
        return cls(name or function.__name__, describe(function), input_model, output_model, function, bench)

    def parameters_schema(self) -> dict[str, Any]:
        return self.input_model.model_json_schema()

    def output_schema(self) -> dict[str, Any]:
        return self.output_model.model_json_schema(mode="serialization")

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
class ToolSource:
    """A tool of the product, declared by reference: `load` imports its module and returns the function."""

    name: str
    load: Callable[[], Callable[..., BaseModel]]
    extra: str | None = None  # the optional extra it needs (`pip install 'sizer-agent[extra]'`)
    requires: tuple[str, ...] = ()  # top-level modules of that extra: all must be importable
    bench: bool = False  # starts servers or loads GPUs

    def missing(self) -> str | None:
        """Why the tool cannot run in this environment (its extra is not installed), or None."""
        absent = [module for module in self.requires if importlib.util.find_spec(module) is None]
        if not absent:
            return None
        return (f"needs the `{self.extra}` extra ({', '.join(absent)} not installed): "
                f"pip install 'sizer-agent[{self.extra}]'")

    def tool(self) -> Tool:
        return Tool.from_function(self.load(), name=self.name, bench=self.bench)


@dataclass
class ToolRegistry:
    tools: dict[str, Tool] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)  # tool name -> why it is not registered
    pending: dict[str, ToolSource] = field(default_factory=dict)  # declared, imported on first use

    def _resolve(self, name: str) -> None:
        source = self.pending.pop(name, None)
        if source is not None:
            self.register(source.tool())  # an import error here is a bug in the tool: let it raise

    def _resolve_all(self) -> None:
        for name in list(self.pending):
            self._resolve(name)

    def declare(self, source: ToolSource) -> None:
        """Add a tool to import on first use, or record why it cannot run here."""
        if source.name in self.tools or source.name in self.pending:
            raise ValueError(f"tool {source.name!r} is already registered")
        why = source.missing()
        if why is None:
            self.pending[source.name] = source
        else:
            self.unavailable[source.name] = why

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
            raise InputError("tool", f"unknown tool {name!r}", ", ".join(sorted(self.names()))) from None

    def __contains__(self, name: object) -> bool:
        if isinstance(name, str):
            return name in self.tools or name in self.pending
        return False

    def names(self) -> list[str]:
        """Every tool that can run here, without importing any."""
        return [*self.tools, *self.pending]

    def all(self) -> list[Tool]:
        self._resolve_all()
        return list(self.tools.values())

    def openai_tools(self, names: list[str] | None = None) -> list[dict[str, Any]]:
        self._resolve_all()
        return [self.tools[n].openai_schema() for n in (list(self.tools) if names is None else names)
                if n in self.tools]

    def call(self, name: str, arguments: dict[str, Any] | str, **context: Any) -> ToolOutcome:
        """Validate the arguments, run the tool, never raise for bad input: the outcome says what failed.

        `context` goes to the function as keyword arguments it declares (a progress callback, say)."""
        self._resolve(name)
        if name not in self.tools:
            message = f"Unknown tool {name!r}; available tools: {', '.join(sorted(self.names())) or 'none'}."
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
        accepted = inspect.signature(tool.function).parameters
        extras = {key: value for key, value in context.items() if key in accepted}
        try:
            output = tool.function(request, **extras)
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


# The tools of this product, each a reference to its function (imported when first called).

def _estimate_memory() -> Callable[..., BaseModel]:
    from sizer_agent.tools.estimate import estimate

    return estimate


def _estimate_vision() -> Callable[..., BaseModel]:
    from sizer_agent.tools.vision.estimate import estimate_vision

    return estimate_vision


def _recommend() -> Callable[..., BaseModel]:
    from sizer_agent.tools.recommend import recommend

    return recommend


def _size_system() -> Callable[..., BaseModel]:
    from sizer_agent.tools.system_sizing import size_system_tool

    return size_system_tool


def _size_cluster() -> Callable[..., BaseModel]:
    from sizer_agent.tools.cluster import size_cluster

    return size_cluster


def _list_models() -> Callable[..., BaseModel]:
    from sizer_agent.tools.listing import list_models

    return list_models


def _list_offers() -> Callable[..., BaseModel]:
    from sizer_agent.tools.listing import list_offers

    return list_offers


def _compare_chips() -> Callable[..., BaseModel]:
    from sizer_agent.tools.compare_chips import compare_chips

    return compare_chips


def _compare_bench() -> Callable[..., BaseModel]:
    from sizer_agent.tools.bench.compare import compare_bench

    return compare_bench


def _calibrate_bench() -> Callable[..., BaseModel]:
    from sizer_agent.tools.bench.compare import calibrate_bench

    return calibrate_bench


def _bench_serve() -> Callable[..., BaseModel]:
    from sizer_agent.tools.bench.serve import bench_serve

    return bench_serve


TOOLS: tuple[ToolSource, ...] = (
    ToolSource("estimate_memory", _estimate_memory),
    ToolSource("estimate_vision", _estimate_vision, extra="vision", requires=("torch", "torchvision", "timm")),
    ToolSource("recommend", _recommend),
    ToolSource("size_system", _size_system),
    ToolSource("size_cluster", _size_cluster),
    ToolSource("list_models", _list_models),
    ToolSource("list_offers", _list_offers),
    ToolSource("compare_chips", _compare_chips),
    ToolSource("compare_bench", _compare_bench),
    ToolSource("calibrate_bench", _calibrate_bench),
    ToolSource("bench_serve", _bench_serve, bench=True),
)


def default_registry(*, bench: bool = True) -> ToolRegistry:
    """The product's tools (`bench=False` leaves out those that load a server or a GPU), imported on first use."""
    registry = ToolRegistry()
    for source in TOOLS:
        if bench or not source.bench:
            registry.declare(source)
    return registry
