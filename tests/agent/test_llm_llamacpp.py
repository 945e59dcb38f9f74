"""The LLM backend against a real llama.cpp server (xllamacpp) on 127.0.0.1.

A tiny random GGUF cannot follow instructions; what this checks is the wire: the server's real error
(the prompt with the tool schemas exceeds the tiny model's context) reaches the user in one line and the
deterministic engine takes over. Needs the tiny-GGUF writer of the benchmark tests and `xllamacpp`.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from sizer_agent.agent.events import AgentMessage, QuestionAsked
from sizer_agent.agent.llm import LLMConfig, LLMEngine
from sizer_agent.tools.registry import ToolRegistry

ROOT = Path(__file__).resolve().parents[2]
TINY_GGUF = ROOT / "tests" / "bench" / "tiny_gguf.py"
pytestmark = pytest.mark.slow

SERVE = """
import socket, sys
import xllamacpp
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
params = xllamacpp.CommonParams()
params.model.path = sys.argv[1]
params.n_parallel = 1
params.n_ctx = 512
params.hostnames = ["127.0.0.1"]
params.port = port
params.use_jinja = True
server = xllamacpp.Server(params)
print(f"PORT {port}", flush=True)
sys.stdin.read()
"""


@pytest.fixture(scope="module")
def llama_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("xllamacpp")
    pytest.importorskip("gguf")
    if not TINY_GGUF.exists():
        pytest.skip("the tiny GGUF writer (tests/bench/tiny_gguf.py) is not in this checkout")
    spec = importlib.util.spec_from_file_location("tiny_gguf", TINY_GGUF)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    model = module.write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "tiny.gguf")
    proc = subprocess.Popen([sys.executable, "-c", SERVE, str(model)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline().split()[1])
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        yield url + "/v1"
    finally:
        if proc.stdin:
            proc.stdin.close()
        proc.wait(timeout=20)


def test_a_real_server_error_falls_back_with_its_message(llama_url: str, registry: ToolRegistry) -> None:
    engine = LLMEngine(LLMConfig(url=llama_url, model="tiny", timeout_s=30, max_tokens=16), registry, lang="en")
    engine.start()
    events = engine.handle("Acme")
    error = next(m for m in events if isinstance(m, AgentMessage) and m.tone == "error")
    assert "HTTP 400" in error.text and "context" in error.text  # llama.cpp's own reason
    assert engine.state.answers["customer"].value == "Acme"
    assert [e for e in events if isinstance(e, QuestionAsked)][-1].question_id == "use_case"
