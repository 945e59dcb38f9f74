"""`sizer-agent mcp` started as a subprocess and driven by the MCP SDK's own client, over stdio and HTTP."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from tests.bench.conftest import Server, run_cli, schedule_server, stop_process
from sizer_agent.tools.model_loader import bundled_config_path, registry_entries
from sizer_agent.tools.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@asynccontextmanager
async def stdio(*args: str, cwd: Path = ROOT) -> AsyncIterator[Client]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "sizer_agent", "mcp", *args], cwd=cwd,
                                   env={"PYTHONPATH": str(ROOT)})
    async with Client(params, read_timeout_seconds=120) as client:
        yield client


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content[0].text
    # the text is the same JSON as the structured content, for clients that read only text
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


async def test_tools_are_listed_with_the_schemas_of_their_functions() -> None:
    async with stdio() as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    registry = default_registry(bench=False)
    assert set(listed) == set(registry.names())
    assert "bench_serve" not in listed  # loads a server: only with --allow-bench
    for tool in registry.all():
        entry = listed[tool.name]
        assert entry.description == tool.description
        assert entry.input_schema == tool.parameters_schema()
        assert entry.output_schema == tool.output_schema()
        assert entry.annotations is not None and entry.annotations.read_only_hint is True
    assert "model" in listed["estimate_memory"].input_schema["required"]


async def test_estimate_and_recommend_give_the_numbers_of_the_cli_json() -> None:
    async with stdio() as client:
        estimate = structured(await client.call_tool(
            "estimate_memory", {"model": "llama-3.1-8b", "concurrency": 8, "input_len": 2048, "output_len": 512}))
        recommend = structured(await client.call_tool(
            "recommend", {"workload": {"model": "llama-3.1-8b", "concurrency": 32}}))
    cli = run_cli("estimate", "--model", "llama-3.1-8b", "--concurrency", "8", "--input-len", "2048",
                  "--output-len", "512", "--json")
    assert cli.returncode == 0, cli.stderr
    expected = json.loads(cli.stdout)
    expected.pop("perf")  # the CLI adds the speed on --gpu; the tool is the memory estimate alone
    assert estimate == expected
    cli = run_cli("recommend", "--model", "llama-3.1-8b", "--concurrency", "32", "--json")
    assert cli.returncode == 0, cli.stderr
    assert recommend == json.loads(cli.stdout)
    assert recommend["plan"] is not None and recommend["plan"]["offer_id"]


async def test_bad_arguments_are_tool_errors_and_the_server_goes_on() -> None:
    async with stdio() as client:
        bad = await client.call_tool("estimate_memory", {"model": "llama-3.1-8b", "concurrency": "many"})
        assert bad.is_error and "concurrency" in bad.content[0].text
        unknown = await client.call_tool("estimate_memory", {"model": "no-such-model-xyz"})
        assert unknown.is_error and unknown.content[0].text.startswith("model:")
        missing = await client.call_tool("recommend", {})
        assert missing.is_error
        hidden = await client.call_tool("bench_serve", {})
        assert hidden.is_error and "--allow-bench" in hidden.content[0].text
        nothing = await client.call_tool("no_such_tool", {})
        assert nothing.is_error and "estimate_memory" in nothing.content[0].text
        still = structured(await client.call_tool("list_models", {"search": "qwen"}))
    assert still["models"] and all("qwen" in m["id"].lower() for m in still["models"])


async def test_files_are_read_only_under_the_allowed_folders(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    config = bundled_config_path("llama-3.1-8b")
    assert config is not None
    shutil.copy(config, allowed / "config.json")
    outside = tmp_path / "outside.json"
    shutil.copy(config, outside)
    async with stdio() as client:  # no --allow-path: no file at all
        refused = await client.call_tool("estimate_memory", {"model": str(allowed / "config.json")})
        assert refused.is_error and "--allow-path" in refused.content[0].text
    async with stdio("--allow-path", str(allowed)) as client:
        inside = structured(await client.call_tool("estimate_memory", {"model": str(allowed / "config.json")}))
        assert inside["per_gpu"]["weights_bytes"] > 15e9
        for path in (str(outside), str(allowed / ".." / "outside.json"), "/etc/passwd", "~/.ssh/id_rsa"):
            result = await client.call_tool("estimate_memory", {"model": path})
            assert result.is_error and "outside the folders" in result.content[0].text, path
        nested = await client.call_tool("calibrate_bench", {"result": {"path": str(outside)}, "gpu": "h200-sxm"})
        assert nested.is_error and "result.path" in nested.content[0].text


async def test_resources_are_the_catalogue_and_the_bundled_configs() -> None:
    async with stdio() as client:
        listed = {str(r.uri): r for r in (await client.list_resources()).resources}
        catalog = json.loads((await client.read_resource("sizer://catalog")).contents[0].text)
        uri = next(u for u in listed if "Llama-3.1-8B" in u)
        config = json.loads((await client.read_resource(uri)).contents[0].text)
        with pytest.raises(MCPError):
            await client.read_resource("sizer://models/..%2F..%2Fetc%2Fpasswd/config.json")
    assert {"gpus", "platforms", "offers", "assumptions", "sources"} <= set(catalog)
    assert any(o["id"] for o in catalog["offers"])
    path = bundled_config_path("llama-3.1-8b")
    assert path is not None and config == json.loads(path.read_text())
    assert len(listed) == 1 + len(registry_entries())  # the catalogue, then one config per bundled model


async def test_the_intake_prompt_reads_the_brief_in_its_language() -> None:
    brief = ("We want to serve Llama 3.1 70B Instruct in FP8, 4k input and 512 output tokens, "
             "32 concurrent users.")
    async with stdio() as client:
        english = (await client.get_prompt("intake", {"brief": brief})).messages[0].content.text
        french = (await client.get_prompt("intake", {"brief": "Nous voulons servir Llama 3.1 8B pour 20 "
                                                              "utilisateurs simultanés."})).messages[0].content.text
        with pytest.raises(MCPError):
            await client.get_prompt("intake", {"lang": "xx"})
    assert "model = meta-llama/Llama-3.1-70B-Instruct" in english and "concurrency = 32" in english
    assert "Ask these questions" in english and brief in english
    assert "concurrency = 20" in french and "Posez ces questions" in french


@pytest.fixture
def server() -> Iterator[Server]:
    server = schedule_server(5, 1)
    yield server
    stop_process(server)


async def test_bench_serve_with_allow_bench_reports_progress(server: Server) -> None:
    events: list[tuple[float, str | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        events.append((value, message))

    async with stdio("--allow-bench") as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert "bench_serve" in names
        result = structured(await client.call_tool("bench_serve", {
            "base_url": server.url, "input_len": {"low": 16, "high": 16}, "output_len": {"low": 8, "high": 8},
            "concurrency": [1, 2], "num_prompts": 4,
        }, progress_callback=progress))
    assert [level["requests_completed"] for level in result["levels"]] == [4, 4]
    values = [value for value, _ in events]
    assert values == sorted(values) and len(values) >= 3  # started, the client's own lines, done
    assert events[0][1] == "bench_serve: started" and (events[-1][1] or "").startswith("bench_serve: done")


def test_streamable_http_on_localhost() -> None:
    process = subprocess.Popen([sys.executable, "-m", "sizer_agent", "mcp", "--http", "--port", "0"], cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        deadline = time.monotonic() + 60
        url = None
        while time.monotonic() < deadline and url is None:
            line = process.stderr.readline()
            found = re.search(r"listening on (http://\S+/mcp)", line)
            url = found.group(1) if found else None
            if not line and process.poll() is not None:
                break
        assert url, "the HTTP server did not say where it listens"

        async def use() -> dict[str, Any]:
            async with Client(url) as client:
                names = {tool.name for tool in (await client.list_tools()).tools}
                assert "recommend" in names
                return structured(await client.call_tool("list_offers", {"kind": "cloud"}))

        import anyio

        offers = anyio.run(use)
        assert offers["offers"] and {o["kind"] for o in offers["offers"]} == {"cloud"}
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_bad_options_exit_2_with_one_line(tmp_path: Path) -> None:
    done = run_cli("mcp", "--allow-path", str(tmp_path / "missing"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--allow-path" in done.stderr
    done = run_cli("mcp", "--http", "--port", "70000")
    assert done.returncode == 2 and "--port" in done.stderr
    helped = run_cli("mcp", "--help")
    assert helped.returncode == 0 and "mcpServers" in helped.stdout
