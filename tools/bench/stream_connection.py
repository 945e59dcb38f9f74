"""Keep-alive HTTP/1.1 connections that read a response inside the event loop's data callback.

Why not httpx on this path: at 1 000 streams and 20 000 SSE events/s one core has 50 µs per event for
everything. httpx's stack (httpcore + h11 + anyio) costs ~100 µs per received chunk on a small VM core,
and a lean httpx transport still woke a coroutine for every arrival (a future, a task step and an
async-generator step): 15 300 events/s at 93 % of a core, measured with benchmarks/bench_serve_client.py.
Here each arrival is de-chunked and handed to the request's sink in the read callback; the request's
coroutine wakes once, when the response ends. Plain `http://` only: https streams go through httpx
(tools/bench/client.py).

With a Reactor (any loop with add_reader: Linux, macOS) the stream sockets are not asyncio transports: they
sit in an epoll of their own whose descriptor the event loop watches, so one loop callback reads every
ready socket, and on Linux each read carries the kernel's receive time (SO_TIMESTAMPNS), which is the
arrival stamp. Without a Reactor, asyncio's transport calls `data_received`, which stamps on delivery.

A connection carries one exchange at a time (no pipelining). Anything that leaves it in an unknown state
(unread body, stray bytes, a sink that gave up) closes it; the slot opens a new one for the next request.
"""

from __future__ import annotations

import asyncio
import select
import selectors
import socket
import struct
import sys
import time
from collections.abc import Callable

_MAX_HEADER_BYTES = 64 * 1024
_ERROR_BODY_BYTES = 4096  # enough of a 4xx/5xx body to say why

BodySink = Callable[[bytes, int], None]
"""Receives body bytes and their arrival time (perf_counter_ns); raising aborts the exchange."""

_clock = time.perf_counter_ns


class ConnectFailed(Exception):
    """The TCP connection could not be opened (refused, unreachable, or timed out)."""


class ProtocolFailure(Exception):
    """The server broke HTTP/1.1 framing or closed the connection before the response ended."""

    def __init__(self, message: str, *, before_response: bool = False) -> None:
        super().__init__(message)
        self.before_response = before_response  # nothing at all came back: safe to retry once


class Exchange:
    """One request and its response on a StreamConnection."""

    __slots__ = ("connect_ns", "done", "ended_ns", "error_body", "head", "sent_ns", "sink", "status")

    def __init__(self, sink: BodySink) -> None:
        self.sink = sink
        self.done: asyncio.Future[None] | None = None  # set when sent; resolves when the response ended
        self.status = 0
        self.head = b""  # the response's status line and header block
        self.sent_ns = 0
        self.ended_ns = 0  # arrival of the response's last bytes (0 until it ended)
        self.connect_ns: int | None = None  # TCP connect duration when this exchange opened the connection
        self.error_body = bytearray()  # first bytes of a >= 400 body (the sink sees only success bodies)

    @property
    def headers(self) -> list[tuple[str, str]]:
        """The response's header fields, parsed when asked for."""
        lines = self.head.decode("latin-1").split("\r\n")[1:]
        return [(name.strip(), value.strip()) for name, _, value in (line.partition(":") for line in lines)]


class StreamConnection(asyncio.Protocol):
    """The protocol of one TCP connection: response framing parsed as bytes arrive."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.open = False
        self.exchange: Exchange | None = None
        self._pending = b""  # unparsed bytes (a header block or chunk-size line split across reads)
        self._head_done = False
        self._framing = ""  # "chunked" | "length" | "close"
        self._remaining = 0  # length framing: bytes left; chunked: bytes left in the current chunk
        self._crlf_due = False  # chunked: a chunk's data ended, its CRLF has not been read yet
        self._keep_alive = True
        self._to_error_body = False
        self._streaming = False  # a chunked success body is being read (the fast path applies)

    # asyncio.Protocol -------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.open = True

    def data_received(self, data: bytes) -> None:
        self.feed(data, _clock())

    def feed(self, data: bytes, now: int) -> None:
        """Bytes that arrived at `now` (the kernel's receive stamp under a Reactor, else the callback's)."""
        exchange = self.exchange
        if exchange is None:
            self.close()  # bytes nobody asked for: the connection is out of step
            return
        if self._streaming and not self._pending and not self._remaining and not self._crlf_due:
            # The usual arrival of a stream: exactly one whole chunk (`size CRLF data CRLF`).
            line_end = data.find(b"\r\n", 0, 10)
            if line_end > 0:
                try:
                    size = int(data[:line_end], 16)
                except ValueError:
                    size = 0  # an extension or a bad size line: the general path decides
                end = line_end + 2 + size
                if size > 0 and len(data) == end + 2 and data.endswith(b"\r\n"):
                    try:
                        exchange.sink(data[line_end + 2 : end], now)
                    except Exception as error:
                        self._fail(error)
                    return
        try:
            finished = self._body(data, now) if self._head_done else self._head(data, now)
        except Exception as error:  # a framing error, or the sink gave up (its own exception type)
            self._fail(error)
            return
        if finished:
            exchange.ended_ns = now
            self._finish()

    def eof_received(self) -> bool:
        self._peer_closed()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._peer_closed()

    # exchange ---------------------------------------------------------------------------------------

    def start(self, exchange: Exchange, data: bytes) -> asyncio.Future[None]:
        """Send one request (head and body bytes); the future resolves when the response ended."""
        assert self.transport is not None and self.exchange is None
        done = exchange.done = asyncio.get_running_loop().create_future()
        exchange.status = 0
        exchange.ended_ns = 0
        exchange.head = b""
        exchange.error_body = bytearray()
        self.exchange = exchange
        self._pending = b""
        self._head_done = False
        self._crlf_due = False
        self._to_error_body = False
        self._streaming = False
        # Stamped as the bytes are handed to the socket, not after: on loopback the reply can reach the kernel
        # (and get its receive stamp) before write() returns, and nothing can arrive before this stamp.
        exchange.sent_ns = _clock()
        self.transport.write(data)
        return done

    def close(self) -> None:
        self.open = False
        if self.transport is not None:
            self.transport.close()
        exchange = self.exchange
        if exchange is not None:
            self.exchange = None
            _settle(exchange, ProtocolFailure("connection closed by the client"))

    def _finish(self) -> None:
        exchange = self.exchange
        assert exchange is not None
        self.exchange = None
        if self._pending or not self._keep_alive:
            self.close()  # stray bytes after the response, or `Connection: close`
        _settle(exchange, None)

    def _fail(self, error: BaseException) -> None:
        exchange = self.exchange
        self.exchange = None
        self.close()
        if exchange is not None:
            _settle(exchange, error)

    def _peer_closed(self) -> None:
        self.open = False
        if self.exchange is None:
            return
        if self._head_done and self._framing == "close":
            self._finish()
            return
        nothing = not self._head_done and not self._pending
        message = "server closed the connection " + (
            "without sending a response" if nothing else "before the response ended"
        )
        self._fail(ProtocolFailure(message, before_response=nothing))

    # framing ----------------------------------------------------------------------------------------

    def _head(self, data: bytes, now: int) -> bool:
        buffer = self._pending + data if self._pending else data
        end = buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(buffer) > _MAX_HEADER_BYTES:
                raise ProtocolFailure("response headers too large")
            self._pending = buffer
            return False
        exchange = self.exchange
        assert exchange is not None
        head = buffer[:end]
        line_end = head.find(b"\r\n")
        status_line = head if line_end < 0 else head[:line_end]
        parts = status_line.split(b" ", 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
            raise ProtocolFailure(f"bad status line {status_line[:80]!r}")
        status = int(parts[1])
        if 100 <= status < 200:  # an interim response (100 Continue): the real one follows
            self._pending = b""
            return self._head(buffer[end + 4 :], now) if len(buffer) > end + 4 else False
        exchange.status = status
        exchange.head = head
        # Only the three fields that frame the body are read here; `Exchange.headers` parses the rest.
        lower = head.lower()
        framing, length = "close", 0
        if any(b"chunked" in value for value in _field_values(lower, b"transfer-encoding")):
            framing = "chunked"
        else:
            lengths = _field_values(lower, b"content-length")
            if lengths:
                if not lengths[0].isdigit() or any(value != lengths[0] for value in lengths):
                    raise ProtocolFailure(f"bad Content-Length {lengths[0][:40]!r}")
                framing, length = "length", int(lengths[0])
        connection = _field_values(lower, b"connection")
        keep_alive = not parts[0].endswith(b"1.0") if not connection else connection[-1] != b"close"
        if status in (204, 304):
            framing, length = "length", 0
        self._framing = framing
        self._remaining = length
        self._keep_alive = keep_alive and framing != "close"
        self._to_error_body = status >= 400
        self._streaming = framing == "chunked" and status < 400
        self._head_done = True
        self._pending = b""
        rest = buffer[end + 4 :]
        if framing == "length" and length == 0:
            self._pending = rest
            return True
        return self._body(rest, now) if rest else False

    def _deliver(self, data: bytes, now: int) -> None:
        if self._to_error_body:
            exchange = self.exchange
            assert exchange is not None
            room = _ERROR_BODY_BYTES - len(exchange.error_body)
            if room > 0:
                exchange.error_body += data[:room]
            return
        self.exchange.sink(data, now)  # type: ignore[union-attr]

    def _body(self, data: bytes, now: int) -> bool:
        framing = self._framing
        if framing == "chunked":
            return self._chunked(data, now)
        if framing == "length":
            take = data[: self._remaining]
            self._remaining -= len(take)
            if take:
                self._deliver(take, now)
            if self._remaining == 0:
                self._pending = data[len(take) :]
                return True
            return False
        self._deliver(data, now)  # close-delimited: the peer's close ends it
        return False

    def _chunked(self, data: bytes, now: int) -> bool:
        if self._pending:
            data = self._pending + data
            self._pending = b""
        # State in locals for the loop (attribute access per step is what this costs), written back after.
        remaining = self._remaining
        crlf_due = self._crlf_due
        position = 0
        size_of = len(data)
        pieces: list[bytes] = []
        finished = False
        while True:
            if remaining:  # inside a chunk's data: take what is there, even part of it
                take = min(remaining, size_of - position)
                if take:
                    pieces.append(data[position : position + take])
                    position += take
                    remaining -= take
                if remaining:
                    break
                crlf_due = True
            if crlf_due:
                if size_of - position < 2:
                    break
                if data[position : position + 2] != b"\r\n":
                    raise ProtocolFailure("chunk data not followed by CRLF")
                position += 2
                crlf_due = False
            line_end = data.find(b"\r\n", position)
            if line_end < 0:
                if size_of - position > 1024:
                    raise ProtocolFailure("chunk-size line too long")
                break
            try:
                size = int(data[position:line_end].split(b";", 1)[0], 16)
            except ValueError:
                raise ProtocolFailure(f"malformed chunk size line {data[position:line_end][:40]!r}") from None
            if size < 0:
                raise ProtocolFailure("negative chunk size")
            if size == 0:
                # Last chunk: optional trailer fields, then an empty line.
                bare = data[line_end + 2 : line_end + 4] == b"\r\n"
                trailer_end = line_end if bare else data.find(b"\r\n\r\n", line_end)
                if trailer_end < 0:
                    break
                position = trailer_end + 4
                finished = True
                break
            position = line_end + 2
            remaining = size
        self._remaining = remaining
        self._crlf_due = crlf_due
        if pieces:
            self._deliver(pieces[0] if len(pieces) == 1 else b"".join(pieces), now)
        if position < size_of:
            self._pending = data[position:]
        return finished


def _field_values(lower_head: bytes, name: bytes) -> list[bytes]:
    """Every value of header `name` in a lower-cased head block (values lower-cased, stripped)."""
    values = []
    key = b"\r\n" + name + b":"
    start = lower_head.find(key)
    while start >= 0:
        value_start = start + len(key)
        value_end = lower_head.find(b"\r\n", value_start)
        if value_end < 0:
            value_end = len(lower_head)
        values.append(lower_head[value_start:value_end].strip())
        start = lower_head.find(key, value_end)
    return values


class StreamSlot:
    """One request at a time over a kept-alive StreamConnection to `host:port`, reopened when needed."""

    def __init__(self, host: str, port: int, reactor: Reactor | None = None, connect_timeout_s: float = 10.0) -> None:
        self.host = host
        self.port = port
        self.reactor = reactor  # None: asyncio's own transport reads the socket
        self.connect_timeout_s = connect_timeout_s
        self._conn: StreamConnection | None = None

    async def _connect(self) -> tuple[StreamConnection, int]:
        loop = asyncio.get_running_loop()
        start = _clock()
        try:
            async with asyncio.timeout(self.connect_timeout_s):
                if self.reactor is None:
                    _, conn = await loop.create_connection(StreamConnection, self.host, self.port)
                else:
                    conn = await self.reactor.connect(self.host, self.port)
        except TimeoutError:
            raise ConnectFailed(f"connect to {self.host}:{self.port} timed out") from None
        except OSError as error:
            raise ConnectFailed(f"cannot connect to {self.host}:{self.port}: {error}") from None
        return conn, _clock() - start

    async def send(self, exchange: Exchange, data: bytes) -> None:
        """Send `data` (a whole HTTP/1.1 request) and return once its response has ended.

        Raises ConnectFailed, ProtocolFailure, or whatever the sink raised. A kept-alive connection that
        the server closed meanwhile (nothing came back) is retried once on a fresh one, as httpcore does.
        """
        conn = self._conn
        reused = conn is not None and conn.open
        for attempt in range(2):
            connect_ns = None
            if conn is None or not conn.open:
                conn, connect_ns = await self._connect()
                self._conn = conn
            done = conn.start(exchange, data)
            exchange.connect_ns = connect_ns
            try:
                await done
            except ProtocolFailure as failure:
                if reused and attempt == 0 and failure.before_response:
                    conn = None
                    continue
                raise
            except BaseException:
                conn.close()  # cancelled or timed out mid-response: the connection state is unknown
                raise
            return
        raise AssertionError("unreachable")  # pragma: no cover

    async def get(self, path: str) -> int:
        """A plain GET (keep-alive warm-up, health); the status code."""
        host = f"[{self.host}]" if ":" in self.host else self.host  # an IPv6 literal goes in brackets
        head = f"GET {path} HTTP/1.1\r\nHost: {host}:{self.port}\r\nAccept-Encoding: identity\r\n\r\n"
        exchange = Exchange(_ignore)
        await self.send(exchange, head.encode("latin-1"))
        return exchange.status

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _realtime_offset() -> int:
    """CLOCK_REALTIME minus perf_counter, for kernel stamps: each reading brackets the realtime read between
    two monotonic reads, and the tightest of three brackets wins (a preemption between two reads would
    otherwise shift every stamp of the drain by as long as the preemption lasted)."""
    best_window, best_offset = None, 0
    for _ in range(3):
        before = _clock()
        real = time.time_ns()
        after = _clock()
        if best_window is None or after - before < best_window:
            best_window, best_offset = after - before, real - (before + after) // 2
    return best_offset


def _ignore(data: bytes, now: int) -> None:
    return None


def _settle(exchange: Exchange, outcome: BaseException | None) -> None:
    done = exchange.done
    if done is None or done.done():
        return
    if outcome is None:
        done.set_result(None)
    else:
        done.set_exception(outcome)


# 64 KiB, not asyncio's 256 KiB: recv allocates its buffer before reading, and above glibc's 128 KiB mmap
# threshold every read paid an mmap/munmap pair (41 µs against 13 µs per 250-byte read, measured).
_READ_SIZE = 64 * 1024


class Reactor:
    """Many sockets behind one event-loop reader: the loop watches one poller's descriptor and one
    callback drains every ready socket, each straight into its StreamConnection.

    The poller is epoll itself where there is one (Linux), which hands back bare (fd, events) pairs; the
    `selectors` layer would add a key lookup and a tuple per ready socket. Elsewhere it is
    `selectors.DefaultSelector`.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._wires: dict[int, _SocketWire] = {}
        self._epoll = select.epoll() if hasattr(select, "epoll") else None
        self._selector = None if self._epoll is not None else selectors.DefaultSelector()
        self._fileno = self._epoll.fileno() if self._epoll is not None else self._selector.fileno()  # type: ignore[union-attr]
        # Arrival stamps from the kernel (Linux SO_TIMESTAMPNS): the time a segment was received, not the
        # time this process got round to reading it, so a busy moment of the client does not show up as
        # server latency. Reads counted by where their stamp came from, for the result's self-check.
        self.kernel_stamps = sys.platform.startswith("linux") and struct.calcsize("P") == 8
        self.reads = {"kernel": 0, "event_loop": 0}
        self._realtime_offset = _realtime_offset()
        try:
            loop.add_reader(self._fileno, self._drain)
        except NotImplementedError:  # Windows' proactor loop: the caller falls back to asyncio transports
            self._close_poller()
            raise
        self._closed = False

    async def connect(self, host: str, port: int) -> StreamConnection:
        """Open a TCP connection to `host:port` and return its StreamConnection (raises OSError)."""
        infos = await self.loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        error: OSError = OSError(f"no address for {host}")
        for family, kind, proto, _, address in infos:
            sock = socket.socket(family, kind, proto)
            try:
                sock.setblocking(False)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                stamped = self._enable_kernel_stamps(sock)
                await self.loop.sock_connect(sock, address)
            except OSError as failure:
                sock.close()
                error = failure
                continue
            except BaseException:
                sock.close()
                raise
            conn = StreamConnection()
            wire = _SocketWire(self, sock, conn, stamped)
            fd = sock.fileno()
            self._wires[fd] = wire
            if self._epoll is not None:
                self._epoll.register(fd, select.EPOLLIN)
            else:
                self._selector.register(fd, selectors.EVENT_READ)  # type: ignore[union-attr]
            conn.connection_made(wire)
            return conn
        raise error

    def _enable_kernel_stamps(self, sock: socket.socket) -> bool:
        if not self.kernel_stamps:
            return False
        try:
            sock.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
        except OSError:
            self.kernel_stamps = False
            return False
        return True

    def want_write(self, wire: _SocketWire, on: bool) -> None:
        fd = wire.sock.fileno()
        if self._epoll is not None:
            self._epoll.modify(fd, select.EPOLLIN | (select.EPOLLOUT if on else 0))
        else:
            self._selector.modify(fd, selectors.EVENT_READ | (selectors.EVENT_WRITE if on else 0))  # type: ignore[union-attr]

    def forget(self, wire: _SocketWire) -> None:
        fd = wire.sock.fileno()
        if self._closed or self._wires.pop(fd, None) is None:
            return
        if self._epoll is not None:
            self._epoll.unregister(fd)
        else:
            self._selector.unregister(fd)  # type: ignore[union-attr]

    def _drain(self) -> None:
        wires = self._wires
        # Kernel stamps are CLOCK_REALTIME; every other stamp is perf_counter (CLOCK_MONOTONIC): the offset
        # is taken per drain so that a clock adjustment is followed within one loop turn.
        self._realtime_offset = _realtime_offset()
        if self._epoll is not None:
            for fd, events in self._epoll.poll(0):
                wire = wires.get(fd)
                if wire is None:
                    continue
                if events & select.EPOLLOUT:
                    wire.flush()
                if events & _EPOLL_READABLE:
                    wire.read()
            return
        for key, mask in self._selector.select(0):  # type: ignore[union-attr]
            wire = wires.get(key.fd)
            if wire is None:
                continue
            if mask & selectors.EVENT_WRITE:
                wire.flush()
            if mask & selectors.EVENT_READ:
                wire.read()

    def monotonic_ns(self, realtime_ns: int) -> int:
        return realtime_ns - self._realtime_offset

    def close(self) -> None:
        """Close every socket still open and stop watching."""
        if self._closed:
            return
        for wire in list(self._wires.values()):
            wire.close()
        self._closed = True
        self.loop.remove_reader(self._fileno)
        self._close_poller()

    def _close_poller(self) -> None:
        if self._epoll is not None:
            self._epoll.close()
        if self._selector is not None:
            self._selector.close()


_SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # 35 on Linux (asm-generic/socket.h), not in 3.11
_TIMESPEC = struct.Struct("@qq")  # struct timespec on 64-bit Linux: tv_sec, tv_nsec
_STAMP_SPACE = socket.CMSG_SPACE(16) if hasattr(socket, "CMSG_SPACE") else 0  # one struct timespec
_EPOLL_READABLE = getattr(select, "EPOLLIN", 1) | getattr(select, "EPOLLHUP", 16) | getattr(select, "EPOLLERR", 8)


class _SocketWire(asyncio.Transport):
    """The transport a StreamConnection sees under a Reactor: send now, buffer what the socket refused."""

    def __init__(self, reactor: Reactor, sock: socket.socket, protocol: StreamConnection, stamped: bool) -> None:
        super().__init__()
        self.sock = sock
        self._reactor = reactor
        self._protocol = protocol
        self._stamped = stamped
        self._unsent = b""
        self._closed = False

    def read(self) -> None:
        try:
            if self._stamped:
                data, ancillary, _, _ = self.sock.recvmsg(_READ_SIZE, _STAMP_SPACE)
            else:
                data, ancillary = self.sock.recv(_READ_SIZE), []
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self._lost(error)
            return
        if not data:
            self._protocol.eof_received()
            self._lost(None)
            return
        reads = self._reactor.reads
        if ancillary and ancillary[0][0] == socket.SOL_SOCKET and ancillary[0][1] == _SO_TIMESTAMPNS:
            seconds, nanoseconds = _TIMESPEC.unpack_from(ancillary[0][2])
            now = self._reactor.monotonic_ns(seconds * 1_000_000_000 + nanoseconds)
            exchange = self._protocol.exchange
            if exchange is not None and now < exchange.sent_ns:
                # bytes received before this request was sent (the wall clock stepped between the two
                # stamps, or they were waiting already): their arrival for this request is when they are read
                now = _clock()
                reads["event_loop"] += 1
            else:
                reads["kernel"] += 1
        else:
            now = _clock()
            reads["event_loop"] += 1
        self._protocol.feed(data, now)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._closed:
            return
        if self._unsent:
            self._unsent += bytes(data)
            return
        try:
            sent = self.sock.send(data)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError as error:
            self._lost(error)
            return
        if sent < len(data):
            self._unsent = bytes(data[sent:])
            self._reactor.want_write(self, True)

    def flush(self) -> None:
        try:
            sent = self.sock.send(self._unsent)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self._lost(error)
            return
        self._unsent = self._unsent[sent:]
        if not self._unsent:
            self._reactor.want_write(self, False)

    def is_closing(self) -> bool:
        return self._closed

    def close(self) -> None:
        self._lost(None)

    def abort(self) -> None:
        self._lost(None)

    def _lost(self, error: Exception | None) -> None:
        if self._closed:
            return
        self._closed = True
        self._reactor.forget(self)
        self.sock.close()
        self._reactor.loop.call_soon(self._protocol.connection_lost, error)
