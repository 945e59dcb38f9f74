"""The streaming client: sends one request and time-stamps what comes back, on one clock.

Measurement points (docs/design.md §6), all `time.perf_counter_ns()`:
- scheduled: when the request was due (closed loop: its slot freed; open loop: its Poisson arrival, or the
  moment a slot under the in-flight cap freed);
- send: when the request bytes were handed to the socket (http://: just before the write call, so that no
  reply can be stamped earlier; https: when httpcore reports the body written). Connection set-up and
  request building are not latency;
- every token-bearing chunk: when its bytes arrived: the kernel's receive stamp under the Reactor (Linux,
  http://), else when the event loop delivered them (events in one read share the stamp);
- end: the last token-bearing chunk; done: the arrival of the response's end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from sizer_agent.tools.bench.metrics import finish_record
from sizer_agent.tools.bench.prompts import Prompt
from sizer_agent.tools.bench.results import FailureReason, RequestRecord
from sizer_agent.tools.bench.sse import MalformedStream, SSEDecoder, parse_event
from sizer_agent.tools.bench.stream_connection import ConnectFailed, Exchange, ProtocolFailure, Reactor, StreamSlot

_ERROR_BODY_CHARS = 300


@dataclass(slots=True, frozen=True)
class EncodedRequest:
    body: bytes  # the JSON body (the httpx path for https)
    wire: bytes  # the whole HTTP/1.1 request, head and body (a StreamSlot writes it as it is)


@dataclass(slots=True)
class RequestSpec:
    """What every request of a trial shares."""

    url: str
    endpoint: str  # "completions" | "chat"
    model: str | None
    ignore_eos: bool
    timeout_s: float
    _head_prefix: bytes = b""  # the request head up to Content-Length, built once

    def __post_init__(self) -> None:
        url = httpx.URL(self.url)
        target = url.raw_path.decode("ascii")
        host = f"[{url.host}]" if ":" in url.host else url.host  # an IPv6 literal goes in brackets
        host = host if url.port is None else f"{host}:{url.port}"
        self._head_prefix = (
            f"POST {target} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: */*\r\n"
            "Accept-Encoding: identity\r\nUser-Agent: sizer-agent-bench\r\nContent-Length: "
        ).encode("latin-1")

    def encode(self, prompt: Prompt) -> EncodedRequest:
        """The request for `prompt`, built ahead of the level: JSON encoding is a visible cost per request."""
        body = self.body(prompt)
        return EncodedRequest(body, b"%s%d\r\n\r\n%s" % (self._head_prefix, len(body), body))

    def body(self, prompt: Prompt) -> bytes:
        payload: dict[str, Any] = {
            "max_tokens": prompt.output_tokens,
            "stream": True,
            # Token counts from the server, on every chunk when it supports it (vLLM does).
            "stream_options": {"include_usage": True, "continuous_usage_stats": True},
        }
        if self.model:
            payload["model"] = self.model
        if self.ignore_eos:
            payload["ignore_eos"] = True
        if self.endpoint == "chat":
            payload["messages"] = [{"role": "user", "content": prompt.text}]
        else:
            payload["prompt"] = prompt.text
        return json.dumps(payload).encode()


def new_client(pool_size: int, timeout_s: float, ssl_context: ssl.SSLContext | None = None) -> httpx.AsyncClient:
    """An httpx client for everything but the plain-http streams (server info, /tokenize, https)."""
    timeout = httpx.Timeout(connect=10.0, read=timeout_s, write=30.0, pool=timeout_s)
    limits = httpx.Limits(
        max_connections=pool_size, max_keepalive_connections=pool_size, keepalive_expiry=600.0
    )
    return httpx.AsyncClient(
        limits=limits,
        timeout=timeout,
        headers={"Content-Type": "application/json"},
        verify=ssl_context if ssl_context is not None else True,
    )


Slot = StreamSlot | httpx.AsyncClient


class ConnectionSlots:
    """`size` single-connection slots handed out one per request in flight.

    One connection per slot keeps each request O(1) (httpcore scans its whole pool on every request,
    with a socket syscall per idle connection) and makes the number of connections exactly the
    concurrency, so requests never queue inside the client. Plain `http://` slots are StreamSlots, read
    in the event loop's callback (tools/bench/stream_connection.py says why); https slots are one-
    connection httpx clients.
    """

    def __init__(self, size: int, timeout_s: float, base_url: str) -> None:
        self.timeout_s = timeout_s
        url = httpx.URL(base_url)
        self.lean = url.scheme == "http"
        self._host = url.host
        self._port = url.port or 80
        self._context: ssl.SSLContext | None = None
        # Slots are created on first use (an uncapped open loop may allow 1024 but use a few).
        self._free: list[Slot] = []
        self._all: list[Slot] = []
        self._limit = size
        self._available = asyncio.Semaphore(size)
        self._reactor: Reactor | None = None
        self._reactor_tried = False

    @property
    def size(self) -> int:
        return self._limit

    def grow(self, size: int) -> None:
        for _ in range(size - self._limit):
            self._limit += 1
            self._available.release()

    def _new(self) -> Slot:
        slot: Slot
        if self.lean:
            if not self._reactor_tried:
                self._reactor_tried = True
                with contextlib.suppress(NotImplementedError):  # a loop without add_reader reads via asyncio
                    self._reactor = Reactor(asyncio.get_running_loop())
            slot = StreamSlot(self._host, self._port, self._reactor)
        else:
            if self._context is None:
                self._context = ssl.create_default_context()  # once: httpx would load the CA bundle per client
            slot = new_client(1, self.timeout_s, self._context)
        self._all.append(slot)
        return slot

    async def acquire(self) -> Slot:
        await self._available.acquire()
        return self._free.pop() if self._free else self._new()

    def release(self, slot: Slot) -> None:
        self._free.append(slot)
        self._available.release()

    async def warm(self, base_url: str, count: int) -> int:
        """Open `count` keep-alive connections at once (cheap GETs) so no level pays for TCP set-up."""
        base = httpx.URL(base_url.rstrip("/") + "/v1/models")
        path = base.raw_path.decode("ascii")

        async def one(slot: Slot) -> bool:
            try:
                if isinstance(slot, StreamSlot):
                    return await slot.get(path) < 500
                response = await slot.get(str(base))
                return response.status_code < 500
            except (httpx.HTTPError, ConnectFailed, ProtocolFailure):
                return False

        while len(self._all) < min(count, self._limit):
            self._free.append(self._new())
        results = await asyncio.gather(*(one(slot) for slot in self._all[:count]))
        return sum(results)

    def arrival_reads(self) -> dict[str, int]:
        """Reads so far by the source of their arrival stamp: the kernel's, or the event loop's."""
        return dict(self._reactor.reads) if self._reactor is not None else {"kernel": 0, "event_loop": 0}

    async def aclose(self) -> None:
        for slot in self._all:
            if isinstance(slot, StreamSlot):
                slot.close()
        if self._reactor is not None:
            self._reactor.close()
        await asyncio.gather(
            *(slot.aclose() for slot in self._all if isinstance(slot, httpx.AsyncClient)), return_exceptions=True
        )


class ServerErrorEvent(Exception):
    """The stream carried an `error` object."""


class StreamTally:
    """What the body of one streamed completion says, time-stamped: fed as bytes arrive.

    Token-bearing chunks are the ones that carry text, or (continuous usage) raise the server's count on a
    chunk that is not the closing one (llama.cpp puts its total on the last, empty chunk).
    """

    __slots__ = (
        "chunk_ns", "chunk_tokens", "counted", "decoder", "finish_ns", "finished", "prompt_tokens", "record",
        "response_id", "usage",
    )

    def __init__(self, record: RequestRecord) -> None:
        self.record = record
        self.decoder = SSEDecoder()
        self.chunk_ns: list[int] = []
        self.chunk_tokens: list[int] = []
        self.counted = 0  # the server's cumulative usage when present, else one per chunk with text
        self.usage: int | None = None
        self.finished = False
        self.finish_ns = 0
        # Kept here and copied to the record once: a pydantic attribute write per event is measurable.
        self.response_id: str | None = None
        self.prompt_tokens: int | None = None

    def feed(self, data: bytes, now: int) -> None:
        for payload in self.decoder.feed(data):
            event = parse_event(payload)
            if event.error is not None:
                raise ServerErrorEvent(event.error)
            if self.response_id is None:
                self.response_id = event.response_id
            if event.prompt_tokens is not None:
                self.prompt_tokens = event.prompt_tokens
            total = event.completion_tokens
            if total is not None:
                self.usage = total
            counted = self.counted
            if event.has_output or (total is not None and total > counted and event.has_choices and not event.finished):
                self.counted = total if total is not None and total > counted else counted + 1
                self.chunk_ns.append(now)
                self.chunk_tokens.append(self.counted)
            if event.finished and not self.finished:
                self.finished = True
                self.finish_ns = now

    def _copy_ids(self) -> None:
        record = self.record
        if self.response_id is not None:
            record.response_id = self.response_id
        if self.prompt_tokens is not None:
            record.prompt_tokens = self.prompt_tokens

    def conclude(self) -> RequestRecord:
        """The record of a stream that ended normally (or the reason it does not count)."""
        record = self.record
        self._copy_ids()
        if not (self.decoder.done or self.finished) or self.decoder.pending.strip():
            return self.fail("stream_cut", "stream ended without [DONE] or a finish_reason")
        chunk_ns, chunk_tokens = self.chunk_ns, self.chunk_tokens
        if not chunk_ns and self.usage and self.finish_ns:
            # The server held every token back (bytes that are not yet a whole character) and flushed them
            # with its closing chunk: that chunk is where the output reached the client.
            chunk_ns.append(self.finish_ns)
            chunk_tokens.append(self.usage)
        if not chunk_ns:
            return _fail(record, "no_tokens", "the stream finished without a token")
        record.chunk_ns = chunk_ns
        record.chunk_tokens = chunk_tokens
        record.first_token_ns = chunk_ns[0]
        record.end_ns = chunk_ns[-1]
        if self.usage is not None:
            record.output_tokens = self.usage
            record.output_tokens_source = "usage"
            record.chunk_token_mismatch = self.usage - len(chunk_ns)
        else:
            record.output_tokens = self.counted
            record.output_tokens_source = "chunks"
        record.status = "ok"
        finish_record(record)
        return record

    def fail(self, reason: FailureReason, message: str) -> RequestRecord:
        """Record a failure, keeping what arrived before it (it shows where a stream was cut)."""
        self._copy_ids()
        return _fail(self.record, reason, message, self.chunk_ns, self.chunk_tokens)


async def send_request(
    slot: Slot, spec: RequestSpec, request: EncodedRequest, record: RequestRecord
) -> RequestRecord:
    """Run one streaming request into `record`; failures are recorded with their reason, never raised
    (except cancellation, which is recorded as `cancelled` and re-raised)."""
    tally = StreamTally(record)
    try:
        async with asyncio.timeout(spec.timeout_s):
            if isinstance(slot, StreamSlot):
                failed = await _stream_lean(slot, request.wire, record, tally)
            else:
                failed = await _stream_httpx(slot, spec, request.body, record, tally)
        if failed is not None:
            return failed
    except MalformedStream as error:
        return tally.fail("malformed_sse", str(error))
    except ServerErrorEvent as error:
        return tally.fail("server_error_event", str(error))
    except TimeoutError:
        return tally.fail("timeout", f"no complete answer within {spec.timeout_s:g} s")
    except httpx.TimeoutException as error:
        return tally.fail("timeout", f"{type(error).__name__}: {error}")
    except (ConnectFailed, httpx.ConnectError) as error:
        return _fail(record, "connect_error", f"{type(error).__name__}: {error}")
    except (ProtocolFailure, httpx.RemoteProtocolError, httpx.ReadError) as error:
        return tally.fail("stream_cut", f"{type(error).__name__}: {error}")
    except httpx.HTTPError as error:
        return tally.fail("client_error", f"{type(error).__name__}: {error}")
    except asyncio.CancelledError:
        tally.fail("cancelled", "interrupted before the stream finished")
        raise
    return tally.conclude()


async def _stream_lean(
    slot: StreamSlot, wire: bytes, record: RequestRecord, tally: StreamTally
) -> RequestRecord | None:
    exchange = Exchange(tally.feed)
    try:
        await slot.send(exchange, wire)
    finally:
        # Known even when the exchange failed: when it was sent, over which connection.
        record.send_ns = exchange.sent_ns or None
        record.connect_ns = exchange.connect_ns
        record.http_status = exchange.status or None
    record.done_ns = exchange.ended_ns or time.perf_counter_ns()  # when the response's end arrived
    if exchange.status >= 400:
        return _http_failure(record, exchange.status, bytes(exchange.error_body))
    return None


async def _stream_httpx(
    client: httpx.AsyncClient, spec: RequestSpec, body: bytes, record: RequestRecord, tally: StreamTally
) -> RequestRecord | None:
    clock = time.perf_counter_ns
    sent: list[int] = []
    connect: list[int] = []

    async def trace(name: str, info: dict[str, Any]) -> None:
        # httpcore's hooks: the body written, and the TCP connect when one had to be opened.
        if name == "http11.send_request_body.complete":
            sent.append(clock())
        elif name.startswith("connection.connect_tcp."):
            connect.append(clock())

    request = client.build_request("POST", spec.url, content=body, extensions={"trace": trace})
    response = await client.send(request, stream=True)
    try:
        record.send_ns = sent[0] if sent else clock()
        # A new TCP connection (some servers close after every stream) is network set-up, not lag.
        record.connect_ns = connect[1] - connect[0] if len(connect) == 2 else None
        record.http_status = response.status_code
        if response.status_code >= 400:
            return _http_failure(record, response.status_code, await response.aread())
        async for data in response.aiter_raw():
            tally.feed(data, clock())
        record.done_ns = clock()
    finally:
        await response.aclose()
    return None


def _http_failure(record: RequestRecord, status: int, body: bytes) -> RequestRecord:
    text = body[:_ERROR_BODY_CHARS].decode(errors="replace")
    reason: FailureReason = "http_4xx" if status < 500 else "http_5xx"
    return _fail(record, reason, f"HTTP {status}: {text}")


def _fail(
    record: RequestRecord,
    reason: FailureReason,
    message: str,
    chunk_ns: list[int] | None = None,
    chunk_tokens: list[int] | None = None,
) -> RequestRecord:
    record.status = "failed"
    record.reason = reason
    record.error = message
    if chunk_ns:
        record.chunk_ns = chunk_ns
        record.chunk_tokens = chunk_tokens or []
    if record.done_ns is None:
        record.done_ns = time.perf_counter_ns()
    return record


class LoopLagMonitor:
    """Measures how late the event loop wakes a 5 ms sleeper: a busy client shows up here first."""

    def __init__(self, interval_s: float = 0.005) -> None:
        self.interval_s = interval_s
        self.lags_ms: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> list[float]:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        return self.lags_ms

    async def _run(self) -> None:
        interval_ns = int(self.interval_s * 1e9)
        while True:
            start = time.perf_counter_ns()
            await asyncio.sleep(self.interval_s)
            self.lags_ms.append(max(0, time.perf_counter_ns() - start - interval_ns) / 1e6)


ProgressCallback = Callable[[str], None]
