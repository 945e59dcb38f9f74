"""Fixtures for the agent tests: a scripted estimator stand-in (until the real one is merged) and a store."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict

from sizer_agent.store import SessionStore
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.registry import Tool, ToolRegistry


class StandInEstimateRequest(BaseModel):
    """The fields of tools.estimate.EstimateRequest the planner sends (subset, same names)."""

    model_config = ConfigDict(extra="forbid")
    model: str
    revision: str | None = None
    mode: Literal["inference", "training"] = "inference"
    method: Literal["full", "lora", "qlora"] = "full"
    dtype: str = "auto"
    quantization: str | None = None
    input_len: int = 1024
    output_len: int = 256
    max_model_len: int | None = None
    concurrency: int = 1
    batch_size: int = 1
    seq_len: int = 2048
    optimizer: str = "adamw"
    tensor_parallel_size: int = 1
    data_parallel_size: int = 1
    engine: Literal["generic", "vllm"] = "generic"


class StandInBreakdown(BaseModel):
    weights_bytes: int
    kv_cache_bytes: int
    activations_bytes: int
    gradients_bytes: int
    optimizer_bytes: int
    runtime_bytes: int
    total_bytes: int


class StandInEstimateResult(BaseModel):
    request: StandInEstimateRequest
    per_gpu: StandInBreakdown
    kv_cache_bytes_per_token: int
    weight_bytes_total: int
    parallelism: dict[str, Any]
    warnings: list[str] = []


# canned numbers, chosen to be recognisable in explanations (not a model of anything)
CANNED = {"weights_bytes": 70_600_000_000, "kv_cache_bytes": 10_700_000_000, "activations_bytes": 0,
          "gradients_bytes": 0, "optimizer_bytes": 0, "runtime_bytes": 2_100_000_000,
          "total_bytes": 83_400_000_000}


def scripted_estimate(request: StandInEstimateRequest) -> StandInEstimateResult:
    if request.model.lower().startswith("unknown"):
        raise InputError("model", f"unknown model {request.model!r}", "a bundled name or a Hub id")
    per_gpu = dict(CANNED)
    if request.mode == "training":
        per_gpu.update(gradients_bytes=1_000_000_000, optimizer_bytes=6_000_000_000,
                       total_bytes=CANNED["total_bytes"] + 7_000_000_000)
    gpus = request.tensor_parallel_size * request.data_parallel_size
    return StandInEstimateResult(
        request=request, per_gpu=StandInBreakdown(**per_gpu), kv_cache_bytes_per_token=163_840,
        weight_bytes_total=70_600_000_000,
        parallelism={"tp": request.tensor_parallel_size, "pp": 1, "dp": request.data_parallel_size,
                     "num_gpus": gpus, "notes": []},
    )


def make_registry() -> ToolRegistry:
    registry = ToolRegistry()
    registry.register(Tool("estimate_memory", "Scripted stand-in of tools.estimate.estimate for tests.",
                           StandInEstimateRequest, StandInEstimateResult, scripted_estimate))
    return registry


@pytest.fixture
def registry() -> ToolRegistry:
    return make_registry()


@pytest.fixture
def store(tmp_path: Path) -> SessionStore:
    with SessionStore(tmp_path / "sessions.db") as db:
        yield db


# -- a scripted OpenAI-compatible server on 127.0.0.1 ------------------------------------------------------

import json  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer  # noqa: E402


def text_chunks(text: str, size: int = 7) -> list[dict[str, Any]]:
    return [{"choices": [{"index": 0, "delta": {"content": text[i:i + size]}}]} for i in range(0, len(text), size)]


def tool_call_chunks(name: str, arguments: str, call_id: str = "call_1", index: int = 0) -> list[dict[str, Any]]:
    """A tool call streamed the way vLLM and OpenAI do: name first, arguments in fragments."""
    first = {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}
    chunks = [{"choices": [{"index": 0, "delta": {"tool_calls": [first]}}]}]
    for i in range(0, len(arguments), 10):
        part = {"index": index, "function": {"arguments": arguments[i:i + 10]}}
        chunks.append({"choices": [{"index": 0, "delta": {"tool_calls": [part]}}]})
    return chunks


class ScriptedLLM:
    """Answers each POST with the next scripted reply: ("stream", chunks) | ("drop", chunks) |
    ("status", code) | ("json", body) | ("stall", seconds) | ("echo401", None). Records every request body
    and header."""

    def __init__(self) -> None:
        self.script: list[tuple[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _chunk(self, data: bytes) -> None:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")

            def _json(self, code: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                owner.requests.append(json.loads(body))
                owner.headers.append(dict(self.headers))
                kind, payload = owner.script.pop(0) if owner.script else ("status", 599)
                if kind == "stall":  # accepts the request and says nothing for `payload` seconds
                    time.sleep(payload)
                    return
                if kind == "echo401":  # a careless server that puts the request's headers in its error
                    self._json(401, {"error": f"bad credentials: {dict(self.headers)}"})
                    return
                if kind == "status":
                    self._json(payload, {"error": {"message": "scripted failure"}})
                    return
                if kind == "json":
                    self._json(200, payload)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for chunk in payload:
                    self._chunk(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                if kind == "drop":  # half a chunk, then the socket closes: a dropped connection
                    self.wfile.write(b"400\r\ndata: {\"choi")
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                self._chunk(b"data: [DONE]\n\n")
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.handle_error = lambda *args: None  # type: ignore[method-assign]  # scripted drops are expected
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


@pytest.fixture
def llm_server() -> Iterator[ScriptedLLM]:
    server = ScriptedLLM()
    server.thread.start()
    yield server
    server.server.shutdown()
    server.server.server_close()


# -- corpus scores: printed at the end of the run (and at once with -s) ------------------------------------
_CORPUS_REPORTS = pytest.StashKey[list[str]]()


@pytest.fixture
def corpus_report(request: pytest.FixtureRequest) -> Any:
    def report(text: str) -> None:
        print("\n" + text)
        request.config.stash.setdefault(_CORPUS_REPORTS, []).append(text)
        request.node.user_properties.append(("corpus_score", text))  # junit XML reports carry it too

    return report


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    for text in config.stash.get(_CORPUS_REPORTS, []):
        terminalreporter.write_sep("-", "brief corpus score")
        terminalreporter.write_line(text)
