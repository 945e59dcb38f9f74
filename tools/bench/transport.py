"""A lean HTTP/1.1 transport for httpx, one keep-alive connection, built for reading many SSE streams.

Why: httpx's default stack (httpcore + h11 + anyio) costs on the order of 100 µs of CPU per received chunk
on a small VM core, so one client process could not read more than ~10k SSE events/s and its own lag would
be measured as server latency. This transport parses the response framing itself (Content-Length,
chunked, close-delimited) on an asyncio Protocol and yields every complete piece available in one go.
It speaks plain `http://` only; the client falls back to httpx's own transport for `https://`.

It also stamps the moment the request bytes were handed to the socket (`extensions["sizer.sent_ns"]`)
and the TCP connect duration when a connection had to be opened (`extensions["sizer.connect_ns"]`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import httpx

_MAX_HEADER_BYTES = 64 * 1024


class _Connection(asyncio.Protocol):
    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.closed = False
        self.received_ns = 0  # when the latest bytes were handed over by the event loop
        self._waiter: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.received_ns = time.perf_counter_ns()
        self.buffer += data
        self._wake()

    def eof_received(self) -> bool:
        self.closed = True
        self._wake()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait(self) -> None:
        """Until more bytes arrive or the peer closes."""
        if self.closed:
            return
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()


class LeanStream(httpx.AsyncByteStream):
    """Base of this transport's response streams: they know when the bytes they yield arrived."""

    received_ns = 0

    def arrival_ns(self) -> int:
        return self.received_ns


class _Body(LeanStream):
    def __init__(self, owner: LeanTransport, conn: _Connection, chunked: bool, length: int | None) -> None:
        self._owner = owner
        self._conn = conn
        self._chunked = chunked
        self._length = length
        self._complete = False
        # Arrival stamp of the bytes that completed the piece being yielded: taken in data_received, so a
        # busy consumer coroutine does not push the stamp later than the bytes really arrived.
        self.received_ns = 0

    def __aiter__(self) -> AsyncIterator[bytes]:
        # The reader itself, not a generator wrapping it: one async layer less per received piece.
        if self._chunked:
            return self._read_chunked()
        if self._length is not None:
            return self._read_length(self._length)
        return self._read_until_close()

    async def _read_chunked(self) -> AsyncIterator[bytes]:
        conn = self._conn
        buffer = conn.buffer
        while True:
            pieces: list[bytes] = []
            finished = False
            position = 0
            while True:  # every complete chunk already received
                line_end = buffer.find(b"\r\n", position)
                if line_end < 0:
                    break
                try:
                    size = int(bytes(buffer[position:line_end]).split(b";", 1)[0], 16)
                except ValueError:
                    conn.close()
                    raise httpx.RemoteProtocolError("malformed chunk size line") from None
                if size == 0:
                    trailer_end = buffer.find(b"\r\n", line_end + 2)
                    if trailer_end < 0:
                        break
                    position = trailer_end + 2
                    finished = True
                    break
                end = line_end + 2 + size
                if len(buffer) < end + 2:
                    break
                pieces.append(bytes(buffer[line_end + 2 : end]))
                position = end + 2
            if position:
                del buffer[:position]
            if pieces:
                self.received_ns = conn.received_ns
                yield b"".join(pieces) if len(pieces) > 1 else pieces[0]
            if finished:
                self._complete = True
                return
            if conn.closed:
                raise httpx.RemoteProtocolError("peer closed connection without sending complete message body")
            await conn.wait()

    async def _read_length(self, length: int) -> AsyncIterator[bytes]:
        conn = self._conn
        remaining = length
        while remaining > 0:
            if conn.buffer:
                self.received_ns = conn.received_ns
                take = bytes(conn.buffer[:remaining])
                del conn.buffer[: len(take)]
                remaining -= len(take)
                yield take
                continue
            if conn.closed:
                raise httpx.RemoteProtocolError("peer closed connection before the announced Content-Length")
            await conn.wait()
        self._complete = True

    async def _read_until_close(self) -> AsyncIterator[bytes]:
        conn = self._conn
        while True:
            if conn.buffer:
                self.received_ns = conn.received_ns
                data = bytes(conn.buffer)
                conn.buffer.clear()
                yield data
                continue
            if conn.closed:
                self._complete = True
                self._owner.discard(conn)
                return
            await conn.wait()

    async def aclose(self) -> None:
        if not self._complete:
            # Unread body: the connection is in an unknown state, never reuse it.
            self._owner.discard(self._conn)


class LeanTransport(httpx.AsyncBaseTransport):
    """One keep-alive HTTP/1.1 connection to one `http://` origin (reopened when the server closes it)."""

    def __init__(self, connect_timeout_s: float = 10.0) -> None:
        self._conn: _Connection | None = None
        self._connect_timeout_s = connect_timeout_s

    def discard(self, conn: _Connection) -> None:
        conn.close()
        if self._conn is conn:
            self._conn = None

    async def _connect(self, request: httpx.Request) -> _Connection:
        host = request.url.host
        port = request.url.port or 80
        start = time.perf_counter_ns()
        try:
            async with asyncio.timeout(self._connect_timeout_s):
                _, conn = await asyncio.get_running_loop().create_connection(_Connection, host, port)
        except TimeoutError:
            raise httpx.ConnectTimeout(f"connect to {host}:{port} timed out", request=request) from None
        except OSError as error:
            raise httpx.ConnectError(f"cannot connect to {host}:{port}: {error}", request=request) from None
        request.extensions["sizer.connect_ns"] = time.perf_counter_ns() - start
        return conn

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme != "http":
            raise httpx.UnsupportedProtocol("LeanTransport speaks plain http:// only", request=request)
        body = request.content if request.method != "GET" else b""
        head = self._head(request, len(body))
        reused = self._conn is not None and not self._conn.closed
        conn = self._conn if reused and self._conn is not None else await self._connect(request)
        self._conn = conn
        try:
            return await self._exchange(request, conn, head + body)
        except httpx.RemoteProtocolError:
            if not reused:
                raise
        # A kept-alive connection the server closed meanwhile: one retry on a fresh one, as httpcore does.
        self.discard(conn)
        conn = await self._connect(request)
        self._conn = conn
        return await self._exchange(request, conn, head + body)

    @staticmethod
    def _head(request: httpx.Request, length: int) -> bytes:
        target = request.url.raw_path.decode("ascii")
        lines = [f"{request.method} {target} HTTP/1.1"]
        for name, value in request.headers.raw:
            lower = name.lower()
            if lower in (b"content-length", b"transfer-encoding", b"accept-encoding", b"connection"):
                continue
            lines.append(f"{name.decode('latin-1')}: {value.decode('latin-1')}")
        lines.append("Accept-Encoding: identity")
        if length or request.method != "GET":
            lines.append(f"Content-Length: {length}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _exchange(self, request: httpx.Request, conn: _Connection, data: bytes) -> httpx.Response:
        assert conn.transport is not None
        conn.transport.write(data)
        request.extensions["sizer.sent_ns"] = time.perf_counter_ns()
        buffer = conn.buffer
        while True:
            end = buffer.find(b"\r\n\r\n")
            if end >= 0:
                break
            if len(buffer) > _MAX_HEADER_BYTES:
                self.discard(conn)
                raise httpx.RemoteProtocolError("response headers too large")
            if conn.closed:
                self.discard(conn)
                raise httpx.RemoteProtocolError("Server disconnected without sending a response.")
            await conn.wait()
        head = bytes(buffer[:end]).decode("latin-1")
        del buffer[: end + 4]
        status_line, *header_lines = head.split("\r\n")
        parts = status_line.split(" ", 2)
        try:
            status = int(parts[1])
        except (IndexError, ValueError):
            self.discard(conn)
            raise httpx.RemoteProtocolError(f"bad status line {status_line!r}") from None
        headers: list[tuple[str, str]] = []
        chunked = False
        length: int | None = None
        close = False
        for line in header_lines:
            name, _, value = line.partition(":")
            name, value = name.strip(), value.strip()
            headers.append((name, value))
            lower = name.lower()
            if lower == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
            elif lower == "content-length":
                length = int(value)
            elif lower == "connection" and value.lower() == "close":
                close = True
        if request.method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            length = 0
        body = _Body(self, conn, chunked, None if chunked else length)
        stream: httpx.AsyncByteStream = _CloseAfter(body, self, conn) if close else body
        return httpx.Response(status, headers=headers, stream=stream, request=request)

    async def aclose(self) -> None:
        if self._conn is not None:
            self.discard(self._conn)


class _CloseAfter(LeanStream):
    """`Connection: close`: drop the connection once the body is read."""

    def __init__(self, inner: _Body, owner: LeanTransport, conn: _Connection) -> None:
        self._inner = inner
        self._owner = owner
        self._conn = conn

    def arrival_ns(self) -> int:
        return self._inner.received_ns

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._inner.__aiter__()

    async def aclose(self) -> None:
        await self._inner.aclose()
        self._owner.discard(self._conn)
