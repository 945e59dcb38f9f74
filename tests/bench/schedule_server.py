"""A streaming OpenAI-style server that emits tokens on a known schedule, and logs how well it kept it.

Run as a process: `python schedule_server.py --ttft-ms 100 --itl-ms 20 [--stagger 256]`; it prints
`PORT <n>` on stdout when listening on 127.0.0.1. Request k (counted from 0) gets its first token at
receive + ttft + phase_k, then one token every itl, where phase_k = (k mod stagger) * itl / stagger spreads
the streams over the ITL period (without it, N streams started together all write in the same instant).

Why a timer thread: asyncio's epoll waits round up to whole milliseconds, so a coroutine per stream that
sleeps runs late by up to 1 ms, and much later once thousands of timers pile up. Here one thread sleeps
precisely until the next due token (Condition.wait) and hands every due token to the event loop in one
call; the loop writes them. Each token's write time, and its lateness (write time minus due time), are logged
and served at GET /_log: a test measures the client against when the server really wrote, and blames the
server, not the client, when the server fell behind.

Failure injection by model name: status-404, status-500, malformed (bad JSON after 2 tokens), cut (connection
dropped after 3 tokens), hang (headers, then silence), error-event (an error object in the stream).
Both clocks are time.perf_counter_ns (CLOCK_MONOTONIC on Linux), so client and server stamps compare.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import heapq
import itertools
import json
import sys
import threading
import time
from typing import Any

_clock = time.perf_counter_ns
_TOKEN = b'%s%d%s,"finish_reason":%s}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}\n\n'


class Stream:
    __slots__ = (
        "chat", "due", "id", "itl", "k", "lateness", "n", "prefix", "prompt_tokens", "proto", "recv", "sent",
        "text_end", "written",
    )

    def __init__(self, proto: Protocol, k: int, recv: int, first_due: int, itl: int, n: int, chat: bool,
                 prompt_tokens: int) -> None:
        self.proto = proto
        self.k = k
        self.id = f"sched-{k}"
        self.recv = recv
        self.due = first_due
        self.itl = itl
        self.n = n
        self.sent = 0
        self.chat = chat
        self.prompt_tokens = prompt_tokens
        self.lateness: list[int] = []
        self.written: list[int] = []  # when each token was handed to the transport (the server's own log)
        if chat:
            kind = b'"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" t'
            self.prefix = b'data: {"id":"%s",%s' % (self.id.encode(), kind)
            self.text_end = b'"}'
        else:
            kind = b'"object":"text_completion","choices":[{"index":0,"text":" t'
            self.prefix = b'data: {"id":"%s",%s' % (self.id.encode(), kind)
            self.text_end = b'"'



class Scheduler:
    """Timer thread + batch writer on the loop."""

    # The thread hands the loop at most one batch per quantum: at 20 000 tokens/s a hand-over per token
    # (a futex wake, a GIL switch and a self-pipe write each) cost more than writing the tokens.
    QUANTUM_NS = 200_000

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.heap: list[tuple[int, int, Stream]] = []
        self.seq = itertools.count()
        self.cond = threading.Condition()
        self.log: list[dict[str, Any]] = []
        self.wake_at = 0  # when the timer thread will look at the heap next (0: it waits for a push)
        threading.Thread(target=self._run, daemon=True).start()

    def add(self, stream: Stream) -> None:
        with self.cond:
            heapq.heappush(self.heap, (stream.due, next(self.seq), stream))
            if self.wake_at == 0 or stream.due < self.wake_at:
                self.cond.notify()  # only when the thread would otherwise sleep past this token

    def _run(self) -> None:
        last = 0
        while True:
            with self.cond:
                while not self.heap:
                    self.wake_at = 0
                    self.cond.wait()
                target = max(self.heap[0][0], last + self.QUANTUM_NS)
                wait_ns = target - _clock()
                if wait_ns > 0:
                    self.wake_at = target
                    self.cond.wait(wait_ns / 1e9)
                    continue
                now = _clock()
                due = []
                while self.heap and self.heap[0][0] <= now:
                    due.append(heapq.heappop(self.heap)[2])
                self.wake_at = now + self.QUANTUM_NS
            last = now
            self.loop.call_soon_threadsafe(self._write, due)

    def _write(self, streams: list[Stream]) -> None:
        again = []
        now = _clock()
        for stream in streams:
            stream.lateness.append(now - stream.due)
            stream.written.append(now)
            if stream.proto.closed:
                continue
            stream.sent += 1
            stream.proto.send_token(stream)
            if stream.sent < stream.n:
                stream.due += stream.itl
                again.append(stream)
            else:  # the closing events left with the last token (send_token)
                self.log.append(
                    {
                        "id": stream.id,
                        "k": stream.k,
                        "recv_ns": stream.recv,
                        "first_due_ns": stream.due - (stream.n - 1) * stream.itl,
                        "itl_ns": stream.itl,
                        "n": stream.n,
                        "lateness_ns": stream.lateness,
                        "written_ns": stream.written,
                    }
                )
            now = _clock()
        if again:
            with self.cond:
                for stream in again:
                    heapq.heappush(self.heap, (stream.due, next(self.seq), stream))
                # Streams come back one ITL later: the thread is already due to wake before that.
                if self.wake_at == 0 or min(stream.due for stream in again) < self.wake_at:
                    self.cond.notify()


class Protocol(asyncio.Protocol):
    counter = itertools.count()

    def __init__(self, server: ScheduleServer) -> None:
        self.server = server
        self.buffer = b""
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.mode = ""  # failure injection, from the model name

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True

    def data_received(self, data: bytes) -> None:
        recv = _clock()
        self.buffer += data
        while True:
            head_end = self.buffer.find(b"\r\n\r\n")
            if head_end < 0:
                return
            head = self.buffer[:head_end].decode("latin-1")
            length = 0
            for line in head.split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if len(self.buffer) < head_end + 4 + length:
                return
            body = self.buffer[head_end + 4 : head_end + 4 + length]
            self.buffer = self.buffer[head_end + 4 + length :]
            method, path = head.split(" ", 2)[:2]
            self.handle(method, path, body, recv)

    def respond(self, status: int, payload: Any) -> None:
        body = json.dumps(payload).encode()
        reason = {200: "OK", 404: "Not Found", 500: "Internal Server Error"}.get(status, "Error")
        assert self.transport is not None
        self.transport.write(
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )

    def handle(self, method: str, path: str, body: bytes, recv: int) -> None:
        server = self.server
        if path == "/_log":
            lateness = [x for entry in server.scheduler.log for x in entry["lateness_ns"]]
            lateness.sort()
            summary = {
                "tokens": len(lateness),
                "p50_ms": lateness[len(lateness) // 2] / 1e6 if lateness else None,
                "p99_ms": lateness[int(len(lateness) * 0.99)] / 1e6 if lateness else None,
                "max_ms": lateness[-1] / 1e6 if lateness else None,
            }
            self.respond(200, {"summary": summary, "requests": server.scheduler.log})
            return
        if path == "/_reset":
            server.scheduler.log.clear()
            Protocol.counter = itertools.count()
            self.respond(200, {})
            return
        if path in ("/health", "/v1/models", "/version"):
            self.respond(200, {"object": "list", "data": [{"id": "schedule", "owned_by": "schedule-server"}]})
            return
        if path == "/tokenize":
            request = json.loads(body or b"{}")
            words = str(request.get("prompt", "")).split()
            self.respond(200, {"count": len(words), "tokens": list(range(len(words)))})
            return
        if path not in ("/v1/completions", "/v1/chat/completions"):
            self.respond(404, {"error": {"message": f"no route {path}"}})
            return
        request = json.loads(body)
        model = str(request.get("model", ""))
        if model.startswith("status-"):
            self.respond(int(model.split("-")[1]), {"error": {"message": f"injected {model}"}})
            return
        chat = path.endswith("chat/completions")
        text = request["messages"][-1]["content"] if chat else request.get("prompt", "")
        k = next(Protocol.counter)
        itl = server.itl_ns
        phase = (k % server.stagger) * itl // server.stagger
        stream = Stream(self, k, recv, recv + server.ttft_ns + phase, itl, int(request.get("max_tokens", 16)),
                        chat, len(str(text).split()))
        assert self.transport is not None
        self.transport.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        if model == "hang":
            return
        if model == "error-event":
            self.write_event(b'data: {"error": {"message": "injected error", "code": 500}}\n\n')
            self.end_stream()
            return
        self.mode = model
        server.scheduler.add(stream)

    def write_event(self, data: bytes) -> None:
        assert self.transport is not None
        self.transport.write(b"%x\r\n%s\r\n" % (len(data), data))

    def end_stream(self) -> None:
        assert self.transport is not None
        self.transport.write(b"0\r\n\r\n")

    def send_token(self, stream: Stream) -> None:
        mode = self.mode
        if mode == "malformed" and stream.sent == 3:
            self.write_event(b"data: {this is not json\n\n")
            self.end_stream()
            stream.n = stream.sent
            return
        if mode == "cut" and stream.sent == 4:
            assert self.transport is not None
            self.transport.abort()
            self.closed = True
            stream.n = stream.sent
            return
        sent = stream.sent
        prompt = stream.prompt_tokens
        # The per-stream prefix is built once: this runs 20 000 times a second in the client benchmark.
        payload = _TOKEN % (
            stream.prefix, sent, stream.text_end, b'"length"' if sent == stream.n else b"null", prompt, sent,
            prompt + sent,
        )
        if sent == stream.n and mode != "malformed":
            # The closing events leave with the last token, in the same write (one send call less).
            usage = b'{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}' % (prompt, sent, prompt + sent)
            closing = b'data: {"id":"%s","choices":[],"usage":%s}\n\n' % (stream.id.encode(), usage)
            assert self.transport is not None
            self.transport.write(
                b"%x\r\n%s\r\n%x\r\n%s\r\n%x\r\ndata: [DONE]\n\n\r\n0\r\n\r\n"
                % (len(payload), payload, len(closing), closing, 14)
            )
            return
        self.write_event(payload)


class ScheduleServer:
    def __init__(self, ttft_ms: float, itl_ms: float, stagger: int) -> None:
        self.ttft_ns = int(ttft_ms * 1e6)
        self.itl_ns = int(itl_ms * 1e6)
        self.stagger = max(1, stagger)
        self.scheduler: Scheduler

    async def serve(self, port: int) -> None:
        loop = asyncio.get_running_loop()
        # A full collection over the per-token lateness log stalls the writer for milliseconds; this
        # process makes no reference cycles worth collecting while it serves.
        gc.disable()
        self.scheduler = Scheduler(loop)
        server = await loop.create_server(lambda: Protocol(self), "127.0.0.1", port, backlog=4096)
        print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
        await server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ttft-ms", type=float, default=100.0)
    parser.add_argument("--itl-ms", type=float, default=20.0)
    parser.add_argument("--stagger", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        asyncio.run(ScheduleServer(args.ttft_ms, args.itl_ms, args.stagger).serve(args.port))
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
