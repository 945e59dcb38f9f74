"""Model sources: local file, local folder with safetensors, and a Hub served on 127.0.0.1 (cached, offline)."""

from __future__ import annotations

import json
import struct
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from sizer_agent.tools.errors import InputError
from sizer_agent.tools.model_loader import load_model

TINY = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64, "intermediate_size": 128,
    "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 1000,
    "max_position_embeddings": 512, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
}  # fmt: skip
TINY_PARAMS = 2 * 1000 * 64 + 2 * (64 * 64 + 2 * 64 * 32 + 64 * 64 + 3 * 64 * 128 + 2 * 64) + 64


class _Hub(BaseHTTPRequestHandler):
    requests: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Hub.requests.append(self.path)
        if self.path == "/acme/tiny/resolve/main/config.json":
            body = json.dumps(TINY).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path.startswith("/acme/gated/"):
            self.send_response(401)
            self.end_headers()
        else:
            self.send_response(404)
            self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def hub(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    monkeypatch.setenv("HF_ENDPOINT", url)
    monkeypatch.setenv("SIZER_AGENT_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    yield url
    server.shutdown()


def test_local_config_file_and_folder(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps(TINY))
    assert load_model(str(tmp_path / "config.json")).params_total == TINY_PARAMS
    assert load_model(str(tmp_path)).params_total == TINY_PARAMS


def test_safetensors_headers_give_exact_counts(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps(TINY))
    header = json.dumps({"a": {"dtype": "BF16", "shape": [10, 20], "data_offsets": [0, 400]},
                         "b": {"dtype": "F32", "shape": [5], "data_offsets": [400, 420]}}).encode()
    (tmp_path / "model.safetensors").write_bytes(struct.pack("<Q", len(header)) + header + bytes(420))
    spec = load_model(str(tmp_path))
    assert spec.checkpoint_params == 205 and spec.checkpoint_bytes == 420


def test_hub_fetch_then_offline_from_cache(hub: str, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = load_model("acme/tiny")
    assert spec.params_total == TINY_PARAMS and spec.source.startswith(hub)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert load_model("acme/tiny").params_total == TINY_PARAMS  # served from the cache


def test_hub_errors_name_the_field(hub: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InputError, match="revision"):
        load_model("acme/tiny", revision="v9")
    with pytest.raises(InputError, match="HF_TOKEN"):
        load_model("acme/gated")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(InputError, match="not in the cache"):
        load_model("acme/other")


def test_unreachable_hub_without_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # discard port: nothing listens
    monkeypatch.setenv("SIZER_AGENT_CACHE", str(tmp_path))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with pytest.raises(InputError, match="could not be reached"):
        load_model("acme/tiny")


def test_registry_aliases_and_unpinned_revision() -> None:
    spec = load_model("LLAMA-3.1-70B")
    assert spec.name == "meta-llama/Llama-3.1-70B-Instruct" and spec.revision is None
    with pytest.raises(InputError, match="revision"):
        load_model("llama-3.1-8b", revision="bad revision with spaces")
