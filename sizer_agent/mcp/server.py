"""The MCP server: the tool registry, the catalogue and bundled model configs, and the intake prompt.

Built on the official SDK's low-level `Server`, because our tools already are typed functions with their own
schemas: each tool's input schema is its request model's JSON schema as is (the high-level `MCPServer` would
wrap the request in a parameter object), and each result is the same JSON as the CLI's `--json`, returned as
structured content with its text beside it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from sizer_agent import __version__
from sizer_agent.mcp.paths import PathGuard
from sizer_agent.mcp.prompts import PROMPTS, get_prompt
from sizer_agent.mcp.resources import list_resources, read_resource
from sizer_agent.tools.registry import TOOLS, Tool, ToolRegistry, default_registry

INSTRUCTIONS = """\
Sizing tools for AI workloads: which GPUs to buy or rent, and why. Typical order: list_models (or any Hub id),
estimate_memory (or estimate_vision), recommend (ranked catalogue configurations with prices and the reason
each other option fails), size_system (host RAM, NVMe, power, ECC). Every number a customer sees should come
from these tools' results; the catalogue is the resource sizer://catalog. The prompt `intake` starts a sizing
interview from a customer's brief."""


BENCH_TOOLS = frozenset(source.name for source in TOOLS if source.bench)


def _annotations(tool: Tool) -> types.ToolAnnotations:
    if tool.bench:  # loads a server or a GPU: not read-only, not idempotent, reaches outside
        return types.ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                                     open_world_hint=True)
    return types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                 open_world_hint=False)


def describe_tool(tool: Tool) -> types.Tool:
    return types.Tool(name=tool.name, description=tool.description, input_schema=tool.parameters_schema(),
                      output_schema=tool.output_schema(), annotations=_annotations(tool))


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


class SizingServer:
    """The handlers, over one registry and one path guard."""

    def __init__(self, registry: ToolRegistry, guard: PathGuard) -> None:
        self.registry = registry
        self.guard = guard
        self.tools = {tool.name: tool for tool in registry.all()}  # imported once, before serving

    async def list_tools(self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None,
                         ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[describe_tool(tool) for tool in self.tools.values()])

    async def call_tool(self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams,
                        ) -> types.CallToolResult:
        name, arguments = params.name, dict(params.arguments or {})
        if name not in self.tools:
            if name in BENCH_TOOLS:
                return _error(f"{name} loads a server or a GPU: start the server with --allow-bench to use it")
            why = self.registry.unavailable.get(name)
            if why is not None:
                return _error(f"{name} cannot run here: {why}")
            return _error(f"unknown tool {name!r}; tools: {', '.join(self.tools)}")
        problem = self.guard.problem(arguments)
        if problem is not None:
            return _error(problem)
        step = 0

        async def report(message: str) -> None:
            nonlocal step
            step += 1
            await ctx.session.report_progress(step, None, message)

        def progress(message: str) -> None:  # called from the tool's thread
            anyio.from_thread.run(report, message)

        await report(f"{name}: started")
        outcome = await anyio.to_thread.run_sync(partial(self.registry.call, name, arguments, progress=progress))
        if not outcome.ok:
            return _error(outcome.error or f"{name} failed")
        await report(f"{name}: done in {outcome.duration_ms:.0f} ms")
        assert outcome.result is not None
        text = json.dumps(outcome.result, ensure_ascii=False)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                    structured_content=outcome.result)

    async def list_resources(self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None,
                             ) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=list_resources())

    async def read_resource(self, ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams,
                            ) -> types.ReadResourceResult:
        contents = await anyio.to_thread.run_sync(read_resource, str(params.uri))
        if contents is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown resource {params.uri}; see resources/list")
        return types.ReadResourceResult(contents=[contents])

    async def list_prompts(self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None,
                           ) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=PROMPTS)

    async def get_prompt(self, ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams,
                         ) -> types.GetPromptResult:
        result = await anyio.to_thread.run_sync(get_prompt, params.name, dict(params.arguments or {}))
        if isinstance(result, str):
            raise MCPError(code=types.INVALID_PARAMS, message=result)
        return result


def build_server(*, allow_bench: bool = False, allowed_paths: list[Path] | None = None,
                 registry: ToolRegistry | None = None) -> Server[Any]:
    """The low-level SDK server with every handler; `allow_bench` exposes the tools that load servers/GPUs."""
    handlers = SizingServer(registry if registry is not None else default_registry(bench=allow_bench),
                            PathGuard(allowed_paths or []))
    on: dict[str, Callable[..., Any]] = {
        "on_list_tools": handlers.list_tools, "on_call_tool": handlers.call_tool,
        "on_list_resources": handlers.list_resources, "on_read_resource": handlers.read_resource,
        "on_list_prompts": handlers.list_prompts, "on_get_prompt": handlers.get_prompt,
    }
    return Server("sizer-agent", version=__version__, title="sizer-agent: GPU sizing tools",
                  instructions=INSTRUCTIONS, **on)


async def serve_stdio(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve_http(server: Server[Any], host: str, port: int, ready: Callable[[int], None] | None = None) -> None:
    """Streamable HTTP at http://HOST:PORT/mcp (uvicorn), with the SDK's DNS-rebinding protection on localhost."""
    import uvicorn

    app = server.streamable_http_app(host=host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    web = uvicorn.Server(config)
    if ready is not None:
        original = web.startup

        async def startup(sockets: Any = None) -> None:
            await original(sockets)
            bound = web.servers[0].sockets[0].getsockname()[1] if web.servers else port
            ready(int(bound))

        web.startup = startup  # type: ignore[method-assign]
    anyio.run(web.serve)
