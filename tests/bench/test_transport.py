"""LeanTransport's HTTP/1.1 framing against a raw socket server on 127.0.0.1 (every framing it supports)."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator

import httpx
import pytest

from tools.bench.transport import LeanTransport

RESPONSES = {
    b"/length": b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
    b"/chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n",
    b"/close": b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end",
    b"/cut": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n",
    b"/badsize": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n",
}


@pytest.fixture(scope="module")
def raw_server() -> Iterator[tuple[str, list[int]]]:
    """Answers by path; closes after /close, /cut and /badsize; counts accepted connections."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted = [0]

    def serve(conn: socket.socket) -> None:
        buffer = b""
        with conn:
            while True:
                data = conn.recv(65536)
                if not data:
                    return
                buffer += data
                while b"\r\n\r\n" in buffer:
                    head, buffer = buffer.split(b"\r\n\r\n", 1)
                    path = head.split(b" ")[1]
                    conn.sendall(RESPONSES[path])
                    if path in (b"/close", b"/cut", b"/badsize"):
                        return

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            accepted[0] += 1
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}", accepted
    listener.close()


def test_framings_keep_alive_and_errors(raw_server: tuple[str, list[int]]) -> None:
    url, accepted = raw_server

    async def main() -> None:
        async with httpx.AsyncClient(transport=LeanTransport()) as client:
            start = accepted[0]
            assert (await client.get(url + "/length")).text == "hello"
            assert (await client.get(url + "/chunked")).text == "abcde"
            assert (await client.get(url + "/length")).text == "hello"
            assert accepted[0] - start == 1  # one keep-alive connection for all three
            assert (await client.get(url + "/close")).text == "until the end"
            assert (await client.get(url + "/length")).text == "hello"  # reconnects after the close
            assert accepted[0] - start == 2
            with pytest.raises(httpx.RemoteProtocolError):
                await client.get(url + "/cut")
            with pytest.raises(httpx.RemoteProtocolError):
                await client.get(url + "/badsize")
            assert (await client.get(url + "/length")).text == "hello"
            request = client.build_request("GET", url + "/length")
            assert (await client.send(request)).status_code == 200
            assert request.extensions["sizer.sent_ns"] > 0

    asyncio.run(main())


def test_refused_connection_is_a_connect_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def main() -> None:
        async with httpx.AsyncClient(transport=LeanTransport()) as client:
            with pytest.raises(httpx.ConnectError):
                await client.get(f"http://127.0.0.1:{port}/")
            with pytest.raises(httpx.UnsupportedProtocol):
                await client.get("https://127.0.0.1:1/")

    asyncio.run(main())
