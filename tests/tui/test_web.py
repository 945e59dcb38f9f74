"""`sizer-agent web` serves the app over HTTP on 127.0.0.1 (textual-serve), and says so when it cannot."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "SIZER_AGENT_DB": str(tmp_path / "sessions.db")}


async def _first_screen(url: str, timeout: float = 60.0) -> str:
    """Bytes the served app sends until its first question is on screen (terminal escapes included)."""
    import aiohttp  # textual-serve's own dependency

    received = ""
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as websocket:
        deadline = time.monotonic() + timeout
        while "Bonjour" not in received and time.monotonic() < deadline:
            try:
                message = await websocket.receive(timeout=deadline - time.monotonic())
            except TimeoutError:
                break
            if message.type == aiohttp.WSMsgType.BINARY:
                received += message.data.decode("utf-8", "replace")
            elif message.type == aiohttp.WSMsgType.TEXT:
                received += message.data
            else:
                break
    return received


def test_web_serves_the_page_on_localhost(tmp_path: Path) -> None:
    pytest.importorskip("textual_serve")
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "sizer_agent", "web", "--port", str(port)],
        cwd=ROOT, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        response = None
        while time.monotonic() < deadline:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.TransportError:  # not listening yet
                if server.poll() is not None:
                    pytest.fail(f"server exited: {server.stderr.read().decode()}")  # type: ignore[union-attr]
                time.sleep(0.1)
        assert response is not None, "server did not answer within 30 s"
        assert response.status_code == 200
        page = response.text
        assert "sizer-agent" in page  # the page title
        assert f"ws://127.0.0.1:{port}/ws" in page  # the browser's terminal connects back here
        # What the browser does next: open the websocket, which starts one app; its screen arrives.
        screen = asyncio.run(_first_screen(f"http://127.0.0.1:{port}/ws?width=80&height=24"))
        assert "Bonjour" in screen and "sizer-agent" in screen
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_web_without_textual_serve_says_how_to_install(tmp_path: Path) -> None:
    # A module path entry that shadows textual_serve with a package that fails to import.
    fake = tmp_path / "shadow" / "textual_serve"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('not installed')\n")
    env = _env(tmp_path)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "shadow"), str(ROOT)])
    done = subprocess.run(
        [sys.executable, "-m", "sizer_agent", "web"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "pip install 'sizer-agent[web]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_web_command_runs_the_app_in_self_service_mode(tmp_path: Path) -> None:
    import argparse

    from sizer_agent.cli.commands.web import app_command

    args = argparse.Namespace(lang="en", db=tmp_path / "x.db")
    command = app_command(args)
    assert "-m sizer_agent app --self-service --lang en --db" in command
