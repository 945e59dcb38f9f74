"""The streaming client: sends one request and time-stamps what comes back, on one clock.

Measurement points (DESIGN §6), all `time.perf_counter_ns()`:
- scheduled: when the request was due (closed loop: its slot freed; open loop: its Poisson arrival, or the
  moment a slot under the in-flight cap freed);
- send: when httpcore reports the request body written to the socket (the latest point the client can see
  before the server has the request: connection set-up and request building are not counted as latency);
- every token-bearing chunk: when its bytes were read (events arriving in one read share the stamp);
- end: the last token-bearing chunk; done: the stream closed.
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

from tools.bench.metrics import finish_record
from tools.bench.prompts import Prompt
from tools.bench.results import FailureReason, RequestRecord
from tools.bench.sse import MalformedStream, SSEDecoder, parse_event
from tools.bench.transport import LeanStream, LeanTransport

_ERROR_BODY_CHARS = 300
_JSON_HEADERS = {"Content-Type": "application/json", "Accept": "*/*"}


@dataclass(slots=True)
class RequestSpec:
    """What every request of a trial shares."""

    url: str
    endpoint: str  # "completions" | "chat"
    model: str | None
    ignore_eos: bool
    timeout_s: float
    parsed_url: httpx.URL | None = None  # parsed once: URL parsing is a visible cost per request

    def __post_init__(self) -> None:
        self.parsed_url = httpx.URL(self.url)

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


def new_client(
    pool_size: int, timeout_s: float, ssl_context: ssl.SSLContext | None = None, lean: bool = False
) -> httpx.AsyncClient:
    """An httpx client; `lean` uses the one-connection LeanTransport (plain http) for streaming."""
    timeout = httpx.Timeout(connect=10.0, read=timeout_s, write=30.0, pool=timeout_s)
    headers = {"Content-Type": "application/json"}
    if lean:
        return httpx.AsyncClient(transport=LeanTransport(), timeout=timeout, headers=headers)
    limits = httpx.Limits(
        max_connections=pool_size, max_keepalive_connections=pool_size, keepalive_expiry=600.0
    )
    return httpx.AsyncClient(
        limits=limits, timeout=timeout, headers=headers, verify=ssl_context if ssl_context is not None else True
    )


class ConnectionSlots:
    """`size` single-connection httpx clients handed out one per request in flight.

    Why not one client with a pool of `size`: httpcore scans every pooled connection on each request
    (O(pool) per request, with a socket syscall per idle connection), which made the client itself the
    bottleneck at a few hundred streams. One connection per slot keeps each request O(1), and the number
    of connections is exactly the concurrency, so requests never queue inside httpx. With `lean` (plain
    http://) each slot uses LeanTransport, whose per-chunk cost is a fraction of httpcore's.
    """

    def __init__(self, size: int, timeout_s: float, lean: bool = True) -> None:
        context = ssl.create_default_context()  # built once: httpx would load the CA bundle per client
        self.timeout_s = timeout_s
        self.lean = lean
        self._context = context
        # Clients are created on first use (an uncapped open loop may allow 1024 but use a few).
        self._free: list[httpx.AsyncClient] = []
        self._all: list[httpx.AsyncClient] = []
        self._transports: dict[int, LeanTransport] = {}
        self._limit = size
        self._available = asyncio.Semaphore(size)

    @property
    def size(self) -> int:
        return self._limit

    def grow(self, size: int) -> None:
        for _ in range(size - self._limit):
            self._limit += 1
            self._available.release()

    def _new(self) -> httpx.AsyncClient:
        if self.lean:
            transport = LeanTransport()
            client = httpx.AsyncClient(transport=transport, headers=_JSON_HEADERS)
            self._transports[id(client)] = transport
        else:
            client = new_client(1, self.timeout_s, self._context, self.lean)
        self._all.append(client)
        return client

    def transport_of(self, client: httpx.AsyncClient) -> LeanTransport | None:
        """The LeanTransport behind a slot's client (None for https slots)."""
        return self._transports.get(id(client))

    async def acquire(self) -> httpx.AsyncClient:
        await self._available.acquire()
        return self._free.pop() if self._free else self._new()

    def release(self, client: httpx.AsyncClient) -> None:
        self._free.append(client)
        self._available.release()

    async def warm(self, base_url: str, count: int) -> int:
        """Open `count` keep-alive connections at once (cheap GETs) so no level pays for TCP set-up."""
        url = base_url.rstrip("/") + "/v1/models"

        async def one(client: httpx.AsyncClient) -> bool:
            try:
                response = await client.get(url)
                return response.status_code < 500
            except httpx.HTTPError:
                return False

        while len(self._all) < min(count, self._limit):
            self._free.append(self._new())
        results = await asyncio.gather(*(one(client) for client in self._all[:count]))
        return sum(results)

    async def aclose(self) -> None:
        await asyncio.gather(*(client.aclose() for client in self._all), return_exceptions=True)


async def send_request(
    client: httpx.AsyncClient,
    spec: RequestSpec,
    prompt: Prompt,
    record: RequestRecord,
    transport: LeanTransport | None = None,
) -> RequestRecord:
    """Run one streaming request into `record`; failures are recorded with their reason, never raised
    (except cancellation, which is recorded as `cancelled` and re-raised).

    With `transport` (the client's own LeanTransport) the request goes straight to it: the client's
    redirect/auth/cookie machinery is not needed for one POST and costs CPU on every request."""
    clock = time.perf_counter_ns
    sent: list[int] = []
    connect: list[int] = []

    async def trace(name: str, info: dict[str, Any]) -> None:
        # httpcore's hooks (https and other non-lean clients); LeanTransport stamps request.extensions.
        if name == "http11.send_request_body.complete":
            sent.append(clock())
        elif name.startswith("connection.connect_tcp."):
            connect.append(clock())

    chunk_ns: list[int] = []
    chunk_tokens: list[int] = []
    counted = 0  # tokens so far: the server's cumulative usage when present, else one per chunk with text
    usage_tokens: int | None = None
    finished = False
    finish_ns = 0
    decoder = SSEDecoder()
    body = spec.body(prompt)
    try:
        async with asyncio.timeout(spec.timeout_s):
            if transport is not None:
                request = httpx.Request("POST", spec.parsed_url or spec.url, content=body, headers=_JSON_HEADERS)
                response = await transport.handle_async_request(request)
            else:
                request = client.build_request("POST", spec.url, content=body, extensions={"trace": trace})
                response = await client.send(request, stream=True)
            try:
                extensions = request.extensions
                record.send_ns = extensions.get("sizer.sent_ns") or (sent[0] if sent else clock())
                # A new TCP connection (some servers close after every stream) is network set-up, not lag.
                record.connect_ns = extensions.get("sizer.connect_ns") or (
                    connect[1] - connect[0] if len(connect) == 2 else None
                )
                record.http_status = response.status_code
                if response.status_code >= 400:
                    text = (await response.aread())[:_ERROR_BODY_CHARS].decode(errors="replace")
                    reason: FailureReason = "http_4xx" if response.status_code < 500 else "http_5xx"
                    return _fail(record, reason, f"HTTP {response.status_code}: {text}")
                stream = response.stream
                lean = stream if isinstance(stream, LeanStream) else None
                # The lean transport's stream is read directly (httpx's aiter_raw adds a layer per piece).
                pieces = lean if lean is not None else response.aiter_raw()
                async for data in pieces:
                    # LeanTransport stamps arrival in its protocol callback; otherwise stamp on reading.
                    now = (lean.arrival_ns() if lean is not None else 0) or clock()
                    for payload in decoder.feed(data):
                        event = parse_event(payload)
                        if event.error is not None:
                            return _fail(record, "server_error_event", event.error)
                        if record.response_id is None:
                            record.response_id = event.response_id
                        if event.prompt_tokens is not None:
                            record.prompt_tokens = event.prompt_tokens
                        # Token-bearing: carries text, or (continuous usage) raises the server's count on a
                        # chunk that is not the closing one (llama.cpp puts the total on its last, empty chunk).
                        total = event.completion_tokens
                        if total is not None:
                            usage_tokens = total
                        bearing = event.has_output or (
                            total is not None and total > counted and event.has_choices and not event.finished
                        )
                        if bearing:
                            counted = total if total is not None and total > counted else counted + 1
                        if bearing:
                            chunk_ns.append(now)
                            chunk_tokens.append(counted)
                        if event.finished and not finished:
                            finished = True
                            finish_ns = now
                record.done_ns = clock()
            finally:
                await response.aclose()
    except MalformedStream as error:
        return _fail(record, "malformed_sse", str(error), chunk_ns, chunk_tokens)
    except TimeoutError:
        return _fail(record, "timeout", f"no complete answer within {spec.timeout_s:g} s", chunk_ns, chunk_tokens)
    except httpx.TimeoutException as error:
        return _fail(record, "timeout", f"{type(error).__name__}: {error}", chunk_ns, chunk_tokens)
    except httpx.ConnectError as error:
        return _fail(record, "connect_error", f"{type(error).__name__}: {error}")
    except (httpx.RemoteProtocolError, httpx.ReadError) as error:
        return _fail(record, "stream_cut", f"{type(error).__name__}: {error}", chunk_ns, chunk_tokens)
    except httpx.HTTPError as error:
        return _fail(record, "client_error", f"{type(error).__name__}: {error}", chunk_ns, chunk_tokens)
    except asyncio.CancelledError:
        _fail(record, "cancelled", "interrupted before the stream finished", chunk_ns, chunk_tokens)
        raise
    if not (decoder.done or finished) or decoder.pending.strip():
        return _fail(record, "stream_cut", "stream ended without [DONE] or a finish_reason", chunk_ns, chunk_tokens)
    if not chunk_ns and usage_tokens and finish_ns:
        # The server held every token back (bytes that are not yet a whole character) and flushed them
        # with its closing chunk: that chunk is where the output reached the client.
        chunk_ns.append(finish_ns)
        chunk_tokens.append(usage_tokens)
    if not chunk_ns:
        return _fail(record, "no_tokens", "the stream finished without a token")
    record.chunk_ns = chunk_ns
    record.chunk_tokens = chunk_tokens
    record.first_token_ns = chunk_ns[0]
    record.end_ns = chunk_ns[-1]
    if usage_tokens is not None:
        record.output_tokens = usage_tokens
        record.output_tokens_source = "usage"
        record.chunk_token_mismatch = usage_tokens - len(chunk_ns)
    else:
        record.output_tokens = counted
        record.output_tokens_source = "chunks"
    record.status = "ok"
    finish_record(record)
    return record


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
        # Keep what arrived before the failure: it shows where a stream was cut.
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
