"""StreamConnection's HTTP/1.1 framing: against a raw socket server on 127.0.0.1 (every framing it
supports, keep-alive and reconnection), and fuzzed with arbitrary splits of the byte stream."""

from __future__ import annotations

import asyncio
import itertools
import socket
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sizer_agent.tools.bench.stream_connection import (
    ConnectFailed,
    Exchange,
    ProtocolFailure,
    Reactor,
    StreamConnection,
    StreamSlot,
    _SocketWire,
)

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


async def _get(slot: StreamSlot, path: str) -> tuple[Exchange, bytes]:
    body = bytearray()

    def sink(data: bytes, now: int) -> None:
        assert now > 0
        body.extend(data)

    exchange = Exchange(sink)
    await slot.send(exchange, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return exchange, bytes(body)


def test_framings_keep_alive_and_errors(raw_server: tuple[str, list[int]]) -> None:
    url, accepted = raw_server
    port = int(url.rsplit(":", 1)[1])

    async def main() -> None:
        slot = StreamSlot("127.0.0.1", port)
        start = accepted[0]
        assert (await _get(slot, "/length"))[1] == b"hello"
        exchange, body = await _get(slot, "/chunked")
        assert body == b"abcde" and exchange.status == 200 and exchange.connect_ns is None
        assert ("Transfer-Encoding", "chunked") in exchange.headers
        assert (await _get(slot, "/length"))[1] == b"hello"
        assert accepted[0] - start == 1  # one keep-alive connection for all three
        assert (await _get(slot, "/close"))[1] == b"until the end"
        exchange, body = await _get(slot, "/length")  # reconnects after the close
        assert body == b"hello" and exchange.connect_ns is not None and exchange.sent_ns > 0
        assert accepted[0] - start == 2
        with pytest.raises(ProtocolFailure, match="before the response ended"):
            await _get(slot, "/cut")
        with pytest.raises(ProtocolFailure, match="chunk size"):
            await _get(slot, "/badsize")
        assert (await _get(slot, "/length"))[1] == b"hello"
        assert await slot.get("/length") == 200
        slot.close()

    asyncio.run(main())


def test_refused_connection_is_a_connect_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def main() -> None:
        with pytest.raises(ConnectFailed, match="cannot connect"):
            await StreamSlot("127.0.0.1", port).get("/")

    asyncio.run(main())


class _FakeTransport(asyncio.Transport):
    """Enough of asyncio.Transport for feeding a StreamConnection by hand."""

    def __init__(self) -> None:
        super().__init__()
        self.closed = False
        self.written = b""

    def write(self, data: bytes) -> None:  # type: ignore[override]
        self.written += data

    def close(self) -> None:
        self.closed = True


def _feed(response: bytes, cuts: list[int]) -> tuple[bytes, BaseException | None, bool]:
    """Deliver `response` split at `cuts`; (body the sink saw, the exchange's error, connection kept)."""

    async def main() -> tuple[bytes, BaseException | None, bool]:
        conn = StreamConnection()
        transport = _FakeTransport()
        conn.connection_made(transport)
        body = bytearray()
        done = conn.start(Exchange(lambda data, now: body.extend(data)), b"GET / HTTP/1.1\r\n\r\n")
        points = sorted({c % (len(response) + 1) for c in cuts} | {0, len(response)})
        for a, b in itertools.pairwise(points):
            if not done.done():
                conn.data_received(response[a:b])
        if not done.done():
            conn.eof_received()
        error = done.exception()
        return bytes(body), error, not transport.closed

    return asyncio.run(main())


def _chunked(pieces: list[bytes], extension: bool, trailer: bool) -> bytes:
    out = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    for piece in pieces:
        out += b"%x%s\r\n%s\r\n" % (len(piece), b";e=1" if extension else b"", piece)
    return out + b"0\r\n" + (b"X-T: 1\r\n" if trailer else b"") + b"\r\n"


pieces_strategy = st.lists(st.binary(min_size=1, max_size=40), max_size=8)
cuts_strategy = st.lists(st.integers(min_value=0, max_value=10_000), max_size=12)


@given(pieces=pieces_strategy, cuts=cuts_strategy, extension=st.booleans(), trailer=st.booleans())
def test_chunked_body_survives_any_split(
    pieces: list[bytes], cuts: list[int], extension: bool, trailer: bool
) -> None:
    body, error, kept = _feed(_chunked(pieces, extension, trailer), cuts)
    assert error is None and body == b"".join(pieces) and kept


@given(payload=st.binary(max_size=200), cuts=cuts_strategy)
def test_length_body_survives_any_split(payload: bytes, cuts: list[int]) -> None:
    response = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(payload), payload)
    body, error, kept = _feed(response, cuts)
    assert error is None and body == payload and kept


@given(pieces=pieces_strategy.filter(bool), cuts=cuts_strategy, keep=st.integers(min_value=1, max_value=400))
def test_a_cut_chunked_stream_is_a_protocol_failure(pieces: list[bytes], cuts: list[int], keep: int) -> None:
    response = _chunked(pieces, False, False)
    cut = response[: len(response) - 1 - keep % (len(response) - 40)]  # always loses part of the ending
    _, error, kept = _feed(cut, cuts)
    assert isinstance(error, ProtocolFailure) and not kept


@given(garbage=st.binary(max_size=120), cuts=cuts_strategy)
def test_garbage_never_escapes_as_another_exception(garbage: bytes, cuts: list[int]) -> None:
    _, error, _ = _feed(garbage, cuts)
    assert error is None or isinstance(error, ProtocolFailure)


def test_error_status_keeps_the_body_away_from_the_sink() -> None:
    response = b"HTTP/1.1 503 Busy\r\nContent-Length: 4\r\n\r\nbusy"

    async def main() -> Exchange:
        conn = StreamConnection()
        conn.connection_made(_FakeTransport())
        exchange = Exchange(lambda data, now: pytest.fail("error bodies never reach the sink"))
        done = conn.start(exchange, b"GET / HTTP/1.1\r\n\r\n")
        conn.data_received(response)
        await done
        return exchange

    exchange = asyncio.run(main())
    assert exchange.status == 503 and bytes(exchange.error_body) == b"busy"


class _InstantReplyTransport(_FakeTransport):
    """A peer that answers inside write(): the reply's arrival is stamped before write() returns, as on
    loopback when the server is faster than the client's return from the system call."""

    def __init__(self, conn: StreamConnection, reply: bytes) -> None:
        super().__init__()
        self.conn, self.reply = conn, reply

    def write(self, data: bytes) -> None:  # type: ignore[override]
        super().write(data)
        self.conn.feed(self.reply, time.perf_counter_ns())


def test_a_reply_inside_the_write_is_never_stamped_before_the_send() -> None:
    async def main() -> tuple[Exchange, list[int]]:
        conn = StreamConnection()
        conn.connection_made(_InstantReplyTransport(conn, b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"))
        stamps: list[int] = []
        exchange = Exchange(lambda data, now: stamps.append(now))
        await conn.start(exchange, b"GET / HTTP/1.1\r\n\r\n")
        return exchange, stamps

    exchange, stamps = asyncio.run(main())
    assert stamps and min(stamps) - exchange.sent_ns >= 0  # the TTFT of this exchange is never negative
    assert exchange.ended_ns >= exchange.sent_ns


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="kernel receive stamps (SO_TIMESTAMPNS) are Linux's")
def test_a_kernel_stamp_older_than_the_send_is_not_taken_as_the_arrival() -> None:
    """Bytes the kernel stamped before the request went out (a wall-clock step between the two stamps, or
    bytes already waiting) arrive, for this request, when they are read: TTFT is never negative."""

    async def main() -> tuple[Exchange, list[int], dict[str, int]]:
        reactor = Reactor(asyncio.get_running_loop())
        listener = socket.create_server(("127.0.0.1", 0))
        ours = socket.create_connection(listener.getsockname())
        peer, _ = listener.accept()
        listener.close()
        try:
            ours.setblocking(False)
            assert reactor._enable_kernel_stamps(ours)
            conn = StreamConnection()
            wire = _SocketWire(reactor, ours, conn, True)
            conn.connection_made(wire)
            peer.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")  # stamped by the kernel now
            time.sleep(0.005)
            stamps: list[int] = []
            exchange = Exchange(lambda data, now: stamps.append(now))
            conn.start(exchange, b"GET / HTTP/1.1\r\n\r\n")
            wire.read()
            return exchange, stamps, dict(reactor.reads)
        finally:
            reactor.close()
            ours.close()
            peer.close()

    exchange, stamps, reads = asyncio.run(main())
    assert stamps and min(stamps) >= exchange.sent_ns and exchange.ended_ns >= exchange.sent_ns
    assert reads == {"kernel": 0, "event_loop": 1}  # the kernel's stamp was refused, not silently kept
