"""`bench serve`: load levels against an OpenAI-compatible server, with an optional SLA sweep.

A level runs closed loop (N requests kept in flight, a new one sent as soon as one ends) or open loop
(Poisson arrivals at a rate, optionally capped in flight). Each level gets fresh prompts, a warm
connection pool, a prefix-cache reset where the server has one, and its own NVML peak-memory window.
Results are written after every level and every request, so an interrupted run keeps what it measured.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import gc
import math
import random
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Literal

import httpx

from sizer_agent.tools.bench.client import (
    ConnectionSlots,
    LoopLagMonitor,
    ProgressCallback,
    RequestSpec,
    Slot,
    new_client,
    send_request,
)
from sizer_agent.tools.bench.metrics import inter_token_gaps_ms, latency_stats, meets_slo, sla_passed
from sizer_agent.tools.bench.nvml import GpuMemorySampler, probe_gpus
from sizer_agent.tools.bench.prompts import Prompt, make_prompts
from sizer_agent.tools.bench.results import (
    REQUEST_RECORD,
    LaunchInfo,
    LevelResult,
    RequestRecord,
    ServeResult,
    ServerInfo,
    ServeSettings,
    SweepStep,
)
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.input_files import check_output, write_atomic

_DEFAULT_PROMPTS_MIN = 50
_DURATION_PROMPT_POOL_MIN = 100


def default_num_prompts(concurrency: int) -> int:
    """Requests per level when neither --num-prompts nor --duration is given: enough rounds for a p99."""
    return max(_DEFAULT_PROMPTS_MIN, 4 * concurrency)


def validate(settings: ServeSettings) -> None:
    if settings.sweep and not (settings.slo_ttft_ms or settings.slo_tpot_ms or settings.slo_e2e_ms):
        raise InputError("--sweep", "needs an SLA to search for", "--slo-ttft-ms, --slo-tpot-ms, --slo-e2e-ms")
    if settings.mode == "open" and not settings.request_rate:
        raise InputError("--request-rate", "open loop needs at least one rate", "positive req/s, e.g. 2,4,8")
    if settings.request_rate and any(rate <= 0 for rate in settings.request_rate):
        raise InputError("--request-rate", "rates must be positive", "req/s > 0")
    if any(c < 1 for c in settings.concurrency):
        raise InputError("--concurrency", "levels must be >= 1", "comma-separated integers >= 1")
    if settings.num_prompts is not None and settings.num_prompts < 1:
        raise InputError("--num-prompts", "must be >= 1", "integer >= 1")
    if settings.duration_s is not None and settings.duration_s <= 0:
        raise InputError("--duration", "must be positive", "seconds > 0")
    if not settings.base_url.startswith(("http://", "https://")):
        raise InputError("--base-url", f"not an HTTP URL: {settings.base_url!r}", "http://HOST:PORT")
    # the same ranges as the command line's flags (sizer_agent.cli.numbers), for callers that build settings
    for flag, value, low, high in (
        ("--timeout", settings.timeout_s, 0.0, 7 * 86_400.0), ("--duration", settings.duration_s, 0.0, 7 * 86_400.0),
        ("--slo-ttft-ms", settings.slo_ttft_ms, 0.0, 3_600_000.0),
        ("--slo-tpot-ms", settings.slo_tpot_ms, 0.0, 3_600_000.0),
        ("--slo-e2e-ms", settings.slo_e2e_ms, 0.0, 3_600_000.0),
        ("--max-dispatch-delay-ms", settings.max_dispatch_delay_ms, 0.0, 3_600_000.0),
        *(("--request-rate", rate, 0.0, 1e6) for rate in settings.request_rate or ()),
    ):
        if value is not None and not (math.isfinite(value) and low < value <= high):
            raise InputError(flag, f"{value} is out of range", f"({low:g}, {high:g}]")
    if settings.warmup < 0:
        raise InputError("--warmup", f"{settings.warmup} is out of range", ">= 0")
    if not settings.concurrency or max(settings.concurrency) > 1_000_000 or settings.max_concurrency < 1:
        raise InputError("--concurrency", f"levels {settings.concurrency} out of range", "1..1,000,000")
    if not 0 <= settings.seed < 2**32:
        raise InputError("--seed", f"{settings.seed} is out of range", "0..4,294,967,295")


async def server_info(client: httpx.AsyncClient, base_url: str) -> ServerInfo:
    """What the server says about itself: /version (vLLM) and /v1/models."""
    base = base_url.rstrip("/")
    info = ServerInfo(base_url=base_url)
    with contextlib.suppress(httpx.HTTPError, ValueError):
        response = await client.get(base + "/version")
        if response.status_code == 200:
            info.version = str(response.json().get("version"))
    with contextlib.suppress(httpx.HTTPError, ValueError):
        response = await client.get(base + "/v1/models")
        if response.status_code == 200:
            data = response.json().get("data") or []
            info.models = [str(item.get("id")) for item in data if isinstance(item, dict)]
            if data and isinstance(data[0], dict):
                first = data[0]
                info.owned_by = first.get("owned_by")
                max_len = first.get("max_model_len") or (first.get("meta") or {}).get("n_ctx")
                info.max_model_len = int(max_len) if max_len else None
    if info.owned_by == "vllm" or info.version is not None:
        info.engine = "vllm"
    elif info.owned_by == "llamacpp":
        info.engine = "llama.cpp"
    else:
        info.engine = info.owned_by
    return info


_KV_USAGE_METRICS = ("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc")  # new name, pre-V1 name


class KvUsageSampler:
    """Polls vLLM's Prometheus /metrics once a second for the KV-cache usage; keeps the highest value.

    vLLM pre-allocates its KV pool, so NVML shows the pool, not how much of it the load used (docs/design.md §6).
    """

    def __init__(self, client: httpx.AsyncClient, base_url: str, interval_s: float = 1.0) -> None:
        self._client = client
        self._url = base_url.rstrip("/") + "/metrics"
        self._interval_s = interval_s
        self.peak: float | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> float | None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._sample()
        return self.peak

    async def _run(self) -> None:
        while True:
            await self._sample()
            await asyncio.sleep(self._interval_s)

    async def _sample(self) -> None:
        try:
            response = await self._client.get(self._url)
        except httpx.HTTPError:
            return
        if response.status_code != 200:
            return
        for line in response.text.splitlines():
            if line.startswith(_KV_USAGE_METRICS):
                try:
                    value = float(line.rsplit(" ", 1)[1])
                except (IndexError, ValueError):
                    continue
                self.peak = value if self.peak is None else max(self.peak, value)


async def reset_prefix_cache(client: httpx.AsyncClient, base_url: str) -> bool:
    """vLLM's POST /reset_prefix_cache (served in dev mode or recent versions); False when refused."""
    try:
        response = await client.post(base_url.rstrip("/") + "/reset_prefix_cache")
    except httpx.HTTPError:
        return False
    return response.status_code == 200


class _Writer:
    """Writes the per-request JSONL and the result JSON after each level (atomic), also when interrupted."""

    def __init__(self, out: Path | None) -> None:
        self.out = out
        self.requests_path = out.with_suffix(".requests.jsonl") if out else None
        self._requests: IO[str] | None = None
        if out is not None and self.requests_path is not None:
            check_output(out, "--out")  # a directory is refused before anything is measured or created
            check_output(self.requests_path, "--out")
            out.parent.mkdir(parents=True, exist_ok=True)
            self._requests = self.requests_path.open("w")

    def request(self, record: RequestRecord) -> None:
        if self._requests is not None:
            self._requests.write(REQUEST_RECORD.dump_json(record).decode() + "\n")

    def result(self, result: ServeResult) -> None:
        if self._requests is not None:
            self._requests.flush()
        if self.out is None:
            return
        write_atomic(self.out, result.model_dump_json(indent=2), "--out")

    def close(self) -> None:
        if self._requests is not None:
            self._requests.close()
            self._requests = None


class _Level:
    """Runs one level and keeps its records, even when cancelled half-way."""

    def __init__(
        self,
        run: ServeRun,
        index: int,
        concurrency: int,
        request_rate: float | None,
        prompts: list[Prompt],
    ) -> None:
        self.run = run
        self.index = index
        self.concurrency = concurrency
        self.request_rate = request_rate
        self.prompts = prompts
        self.encoded = [run.spec.encode(prompt) for prompt in prompts]  # built before the clock starts
        self.records: list[RequestRecord] = []
        self.done = self.failed = self.output_tokens = 0  # running counts for the progress line
        self.in_flight = 0
        self.started_ns = 0
        self.next_index = 0

    def _take(self, deadline_ns: int | None) -> int | None:
        settings = self.run.settings
        if deadline_ns is not None:
            if time.perf_counter_ns() >= deadline_ns:
                return None
        elif self.next_index >= (settings.num_prompts or default_num_prompts(self.concurrency)):
            return None
        index = self.next_index
        self.next_index += 1
        return index

    async def _one(self, index: int, scheduled_ns: int, slot: Slot | None = None) -> RequestRecord:
        """One request; on `slot` when the caller holds one (closed loop), else on a slot from the pool."""
        prompt_index = index % len(self.prompts)
        prompt = self.prompts[prompt_index]
        record = RequestRecord(
            level=self.index,
            index=index,
            scheduled_ns=scheduled_ns,
            planned_prompt_tokens=prompt.tokens if prompt.exact else None,
            planned_output_tokens=prompt.output_tokens,
        )
        self.in_flight += 1
        slots = self.run.slots
        held = slot
        if held is None:
            held = await slots.acquire()
        try:
            await send_request(held, self.run.spec, self.encoded[prompt_index], record)
        finally:
            if slot is None:
                slots.release(held)
            self.in_flight -= 1
            settings = self.run.settings
            if record.status == "ok":
                record.met_slo = meets_slo(record, settings.slo_ttft_ms, settings.slo_tpot_ms, settings.slo_e2e_ms)
            self.records.append(record)
            self.done += 1
            if record.status == "ok":
                self.output_tokens += record.output_tokens or 0
            else:
                self.failed += 1
        return record

    async def closed_loop(self, deadline_ns: int | None) -> None:
        async def worker() -> None:
            scheduled = self.started_ns
            slot = await self.run.slots.acquire()  # one connection per worker for the whole level
            try:
                while (index := self._take(deadline_ns)) is not None:
                    record = await self._one(index, scheduled, slot)
                    # The next request was due when this one's end arrived: a late client shows up as
                    # dispatch delay, even when the kernel stamped the arrivals.
                    scheduled = record.done_ns or time.perf_counter_ns()
            finally:
                self.run.slots.release(slot)

        # Start the workers one per loop iteration, so the first wave's sends interleave with reading the
        # streams already answering (all at once, N sends would run back to back with no read between).
        loop = asyncio.get_running_loop()
        tasks: list[asyncio.Task[None]] = []
        try:
            for _ in range(self.concurrency):
                tasks.append(loop.create_task(worker()))
                await asyncio.sleep(0)
            await asyncio.gather(*tasks)
        except asyncio.CancelledError:
            await _cancel_all(tasks)
            raise

    async def open_loop(self, deadline_ns: int | None) -> None:
        assert self.request_rate is not None
        rng = random.Random(self.run.settings.seed * 7919 + self.index)
        slots = asyncio.Semaphore(self.concurrency)
        tasks: set[asyncio.Task[None]] = set()
        arrival = self.started_ns

        async def dispatch(index: int, due_ns: int) -> None:
            had_to_wait = slots.locked()
            async with slots:
                # Due at its arrival, or when a slot under the cap freed if that came later.
                await self._one(index, time.perf_counter_ns() if had_to_wait else due_ns)

        try:
            while (index := self._take(deadline_ns)) is not None:
                wait_s = (arrival - time.perf_counter_ns()) / 1e9
                if wait_s > 0:
                    await asyncio.sleep(wait_s)
                task = asyncio.get_running_loop().create_task(dispatch(index, arrival))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                arrival += int(rng.expovariate(self.request_rate) * 1e9)
            if tasks:
                await asyncio.gather(*tasks)
        except asyncio.CancelledError:
            await _cancel_all(tasks)
            raise


async def _cancel_all(tasks: Iterable[asyncio.Task[None]]) -> None:
    """Ctrl-C mid-level: cancel the requests in flight and wait until each has recorded itself."""
    pending = list(tasks)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


class ServeRun:
    """One `bench serve` invocation: server info, levels (or sweep), files."""

    def __init__(
        self,
        settings: ServeSettings,
        out: Path | None = None,
        progress: ProgressCallback | None = None,
        launch: LaunchInfo | None = None,
        progress_interval_s: float = 1.0,
    ) -> None:
        validate(settings)
        self.settings = settings
        self.progress = progress
        self.progress_interval_s = progress_interval_s
        self.writer = _Writer(out)
        pool = max(settings.concurrency) if settings.concurrency else 1
        if settings.sweep:
            pool = max(pool, settings.max_concurrency)
        self.pool_size = pool
        self.client = new_client(16, settings.timeout_s)  # server info, /tokenize, cache reset
        self.slots = ConnectionSlots(max(settings.concurrency), settings.timeout_s, settings.base_url)
        path = "/v1/chat/completions" if settings.endpoint == "chat" else "/v1/completions"
        url = settings.base_url.rstrip("/") + path
        self.spec = RequestSpec(url, settings.endpoint, settings.model, settings.ignore_eos, settings.timeout_s)
        self.sampler: GpuMemorySampler | None = None
        self.result: ServeResult | None = None
        self._warmed = False
        self._tokenizer_used = False
        self._vocabulary: dict[str, tuple[list[str], int] | None] = {}

    def _say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)

    async def run(self) -> ServeResult:
        settings = self.settings
        inventory = await asyncio.to_thread(probe_gpus)
        self.sampler = GpuMemorySampler()
        info = await server_info(self.client, settings.base_url)
        if settings.model is None and info.models:
            settings.model = info.models[0]
            self.spec.model = settings.model
        settings.engine = settings.engine or info.engine
        settings.engine_version = settings.engine_version or info.version
        result = ServeResult(
            settings=settings,
            server=info,
            hardware=inventory.summary(),
            started_at=_now(),
            requests_file=str(self.writer.requests_path) if self.writer.requests_path else None,
        )
        self.result = result
        if not info.models:
            result.warnings.append("GET /v1/models gave no model: is the server up at --base-url?")
        try:
            if settings.sweep:
                await self._sweep(result)
            elif settings.mode == "open":
                cap = settings.concurrency[0]
                for rate in settings.request_rate or []:
                    await self._level(result, cap, rate)
            else:
                for concurrency in settings.concurrency:
                    await self._level(result, concurrency, None)
        except asyncio.CancelledError:
            result.interrupted = True
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()  # we stop here on purpose: keep what was measured and clean up
        finally:
            result.finished_at = _now()
            result.server.tokenize_endpoint = self._tokenizer_used
            if not self._tokenizer_used:
                result.warnings.append(
                    "the server has no /tokenize: prompt lengths are estimated from words, not exact"
                )
            self.writer.result(result)
            self.writer.close()
            await self.client.aclose()
            await self.slots.aclose()
            if self.sampler is not None:
                self.sampler.close()
        return result

    async def _sweep(self, result: ServeResult) -> None:
        """Double the concurrency while the SLA holds, then bisect between the last pass and the first fail."""
        settings = self.settings
        steps: list[SweepStep] = []
        result.sweep = steps
        concurrency = max(1, settings.concurrency[0]) if settings.concurrency else 1
        best: int | None = None
        failed: int | None = None

        async def attempt(c: int) -> bool | None:
            level = await self._level(result, c, None)
            if level.client_lagged:
                result.warnings.append(
                    f"sweep stopped at concurrency {c}: the client lagged ({'; '.join(level.client_lag_reasons)})"
                )
                return None
            passed = bool(level.sla_passed) and level.requests_failed == 0
            steps.append(SweepStep(concurrency=c, passed=passed, level=len(result.levels) - 1))
            return passed

        while True:
            passed = await attempt(concurrency)
            if passed is None:
                return
            if not passed:
                failed = concurrency
                break
            best = concurrency
            result.sla_max_concurrency = best
            if concurrency >= settings.max_concurrency:
                return
            concurrency = min(concurrency * 2, settings.max_concurrency)
        if best is None:
            return
        # Bisect to a resolution of 1/8 of the passing level (finer steps cost levels and move little).
        while failed - best > max(1, best // 8):
            middle = (best + failed) // 2
            passed = await attempt(middle)
            if passed is None:
                return
            if passed:
                best = middle
                result.sla_max_concurrency = best
            else:
                failed = middle

    async def _level(self, result: ServeResult, concurrency: int, rate: float | None) -> LevelResult:
        settings = self.settings
        index = len(result.levels)
        target = settings.num_prompts or default_num_prompts(concurrency)
        if settings.duration_s is not None:
            target = max(_DURATION_PROMPT_POOL_MIN, 4 * concurrency)
        label = f"level {index + 1} c={concurrency}" + (f" rate={rate:g}/s" if rate else "")
        self._say(f"{label}: preparing {target} prompts")
        prompts, used_tokenizer = await make_prompts(
            self.client,
            settings.base_url,
            settings.model,
            target,
            settings.input_len,
            settings.output_len,
            seed=settings.seed * 1_000_003 + index,
            vocabulary_cache=self._vocabulary,
        )
        self._tokenizer_used = self._tokenizer_used or used_tokenizer
        reset = await reset_prefix_cache(self.client, settings.base_url)
        self.slots.grow(concurrency)
        # Open loop: how many will be in flight is not known; open a modest number ahead.
        await self.slots.warm(settings.base_url, concurrency if rate is None else min(concurrency, 64))
        if not self._warmed and settings.warmup > 0:
            self._say(f"warm-up: {settings.warmup} requests")
            await self._warmup(prompts)
            self._warmed = True
        level = _Level(self, index, concurrency, rate, prompts)
        monitor = LoopLagMonitor()
        kv_usage = KvUsageSampler(self.client, settings.base_url) if settings.engine == "vllm" else None
        if kv_usage is not None:
            kv_usage.start()
        sampler = self.sampler
        if sampler is not None:
            sampler.start()
        # A full garbage collection over the many small objects of thousands of streams can stall the loop
        # for tens of ms (measured as fake latency): collect now, then pause the collector during the level.
        gc.collect()
        gc.freeze()
        gc.disable()
        reads_start = self.slots.arrival_reads()
        cpu_start = time.process_time()
        level.started_ns = time.perf_counter_ns()
        deadline = level.started_ns + int(settings.duration_s * 1e9) if settings.duration_s else None
        monitor.start()
        reporter = asyncio.get_running_loop().create_task(self._report(level, label, target))
        interrupted = False
        try:
            if rate is None:
                await level.closed_loop(deadline)
            else:
                await level.open_loop(deadline)
        except asyncio.CancelledError:
            interrupted = True
            raise
        finally:
            wall_s = (time.perf_counter_ns() - level.started_ns) / 1e9
            cpu_s = time.process_time() - cpu_start
            gc.enable()
            gc.unfreeze()
            reporter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reporter
            lags = await monitor.stop()
            reads_end = self.slots.arrival_reads()
            reads = {source: reads_end[source] - reads_start[source] for source in reads_end}
            peaks = sampler.stop() if sampler is not None else None
            kv_peak = await kv_usage.stop() if kv_usage is not None else None
            summary = summarize_level(
                level.records,
                settings,
                concurrency=concurrency,
                request_rate=rate,
                wall_s=wall_s,
                cpu_s=cpu_s,
                loop_lags_ms=lags,
                arrival_reads=reads,
                peaks=peaks,
                interrupted=interrupted,
                prefix_cache_reset=reset,
                endpoint_exact_prompt=settings.endpoint == "completions",
            )
            summary.kv_cache_usage_peak = kv_peak
            if level.next_index > len(prompts):
                result.warnings.append(
                    f"level {index + 1}: {level.next_index} requests reused {len(prompts)} prompts "
                    "(--duration); a prefix cache may serve repeated prompts faster"
                )
            result.levels.append(summary)
            # The per-request lines are serialized here, off the clock: at 1 000 streams a JSON dump per
            # finished request lands in the bursts where many streams end together.
            for record in level.records:
                self.writer.request(record)
            self.writer.result(result)
            self._say(_level_line(summary))
        return summary

    async def _warmup(self, prompts: list[Prompt]) -> None:
        async def one(i: int) -> None:
            record = RequestRecord(level=-1, index=i, scheduled_ns=time.perf_counter_ns())
            slot = await self.slots.acquire()
            try:
                await send_request(slot, self.spec, self.spec.encode(prompts[i % len(prompts)]), record)
            finally:
                self.slots.release(slot)

        parallel = min(self.settings.warmup, max(self.settings.concurrency))
        for start in range(0, self.settings.warmup, parallel):
            await asyncio.gather(*(one(i) for i in range(start, min(start + parallel, self.settings.warmup))))

    async def _report(self, level: _Level, label: str, target: int) -> None:
        while True:
            await asyncio.sleep(self.progress_interval_s)
            done, failed, tokens = level.done, level.failed, level.output_tokens
            elapsed = (time.perf_counter_ns() - level.started_ns) / 1e9
            of = "" if self.settings.duration_s else f"/{target}"
            self._say(
                f"{label}: {done}{of} done, {failed} failed, {level.in_flight} in flight, "
                f"{elapsed:.1f} s, {tokens / elapsed if elapsed else 0:.0f} output tok/s"
            )


def summarize_level(
    records: list[RequestRecord],
    settings: ServeSettings,
    *,
    concurrency: int,
    request_rate: float | None,
    wall_s: float,
    cpu_s: float,
    loop_lags_ms: list[float],
    peaks: list[int] | None,
    arrival_reads: dict[str, int] | None = None,
    interrupted: bool = False,
    prefix_cache_reset: bool | None = None,
    endpoint_exact_prompt: bool = True,
) -> LevelResult:
    """Aggregate the requests of one level into the LevelResult (metric definitions in tools.bench.metrics)."""
    ok = [r for r in records if r.status == "ok"]
    failed = [r for r in records if r.status != "ok"]
    sends = [r.send_ns for r in records if r.send_ns is not None]
    ends = [end for r in records if (end := r.done_ns or r.end_ns) is not None]
    window_s = (max(ends) - min(sends)) / 1e9 if sends and ends and max(ends) > min(sends) else wall_s
    window_s = max(window_s, 1e-9)
    q = settings.percentile
    ttft = latency_stats([r.ttft_ms for r in ok if r.ttft_ms is not None], q)
    tpot = latency_stats([r.tpot_ms for r in ok if r.tpot_ms is not None], q)
    e2e = latency_stats([r.e2e_ms for r in ok if r.e2e_ms is not None], q)
    itl = latency_stats([gap for r in ok for gap in inter_token_gaps_ms(r)], q)
    # Closed loop starts all `concurrency` requests at once: a single client sends them one after the
    # other, so the first wave's dispatch delay is the ramp-up, reported apart from the steady state.
    sent = [(r, r.send_ns) for r in records if r.send_ns is not None]
    open_loop = request_rate is not None
    ramp = [] if open_loop else [(send - r.scheduled_ns) / 1e6 for r, send in sent if r.index < concurrency]
    steady = [(r, send) for r, send in sent if open_loop or r.index >= concurrency]
    delays_ns = [send - r.scheduled_ns - (r.connect_ns or 0) for r, send in steady]
    dispatch = latency_stats([delay / 1e6 for delay in delays_ns], q)
    ramp_up_ms = max(ramp, default=None)
    # Closed loop: what the client's lateness costs is concurrency. A slot is idle from the arrival of a
    # response's end to the next send; the share of slot time spent so is the load the server never saw.
    slot_idle: float | None = None
    if not open_loop and steady:
        busy_ns = sum(max(0, (r.done_ns or send) - send) for r, send in steady)
        idle_ns = sum(max(0, delay) for delay in delays_ns)
        slot_idle = idle_ns / (idle_ns + busy_ns) if idle_ns + busy_ns > 0 else 0.0
    loop_lag = latency_stats(loop_lags_ms, q)
    input_tokens = sum(r.prompt_tokens or 0 for r in ok)
    output_tokens = sum(r.output_tokens or 0 for r in ok)
    has_slo = any(x is not None for x in (settings.slo_ttft_ms, settings.slo_tpot_ms, settings.slo_e2e_ms))
    good = sum(1 for r in ok if r.met_slo) if has_slo else len(ok)
    cpu_fraction = cpu_s / wall_s if wall_s > 0 else 0.0
    reasons: list[str] = []
    if open_loop and dispatch.p99 is not None and dispatch.p99 > settings.max_dispatch_delay_ms:
        # Open loop: a late send distorts the arrival process itself.
        reasons.append(f"p99 dispatch delay {dispatch.p99:.1f} ms > {settings.max_dispatch_delay_ms:g} ms")
    late = dispatch.p99 is not None and dispatch.p99 > settings.max_dispatch_delay_ms
    # Closed loop: lagged when sends were late in absolute terms AND that cost the concurrency, so neither a
    # sub-millisecond turnover between very short requests nor a rare late send among long ones counts.
    if late and slot_idle is not None and slot_idle > settings.max_slot_idle:
        reasons.append(
            f"slots idle {slot_idle:.1%} of the time between a response's end and the next send "
            f"> {settings.max_slot_idle:.0%} (dispatch delay p99 {dispatch.p99:.1f} ms)"
        )
    if cpu_fraction > settings.max_client_cpu:
        reasons.append(f"client CPU {cpu_fraction:.0%} of one core > {settings.max_client_cpu:.0%}")
    stamps = _arrival_stamps(arrival_reads)
    # A late event loop stamps arrivals late, unless the kernel stamped them: then its lateness only
    # delays sends, which the checks above measure from the previous end's arrival.
    if stamps != "kernel" and loop_lag.p99 is not None and loop_lag.p99 > settings.max_dispatch_delay_ms:
        reasons.append(f"p99 event-loop lag {loop_lag.p99:.1f} ms > {settings.max_dispatch_delay_ms:g} ms")
    return LevelResult(
        concurrency=concurrency,
        request_rate=request_rate,
        requests_completed=len(ok),
        requests_failed=len(failed),
        failures=dict(Counter(r.reason or "client_error" for r in failed)),
        window_s=window_s,
        ttft_ms=ttft,
        itl_ms=itl,
        tpot_ms=tpot,
        e2e_ms=e2e,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        output_tokens_per_s=output_tokens / window_s,
        total_tokens_per_s=(input_tokens + output_tokens) / window_s,
        request_rps=len(ok) / window_s,
        goodput_rps=good / window_s,
        slo_attainment=(good / len(records)) if has_slo and records else None,
        sla_passed=sla_passed(ttft, tpot, e2e, settings.slo_ttft_ms, settings.slo_tpot_ms, settings.slo_e2e_ms),
        client_lagged=bool(reasons),
        client_lag_reasons=reasons,
        dispatch_delay_ms=dispatch,
        ramp_up_ms=ramp_up_ms,
        slot_idle_fraction=slot_idle,
        event_loop_lag_ms=loop_lag,
        arrival_stamps=stamps,
        client_cpu_fraction=cpu_fraction,
        new_connections=sum(1 for r in records if r.connect_ns is not None),
        token_count_mismatch_requests=sum(1 for r in ok if r.chunk_token_mismatch not in (None, 0)),
        prompt_len_mismatch_requests=sum(
            1
            for r in ok
            if endpoint_exact_prompt
            and r.planned_prompt_tokens is not None
            and r.prompt_tokens is not None
            and r.prompt_tokens != r.planned_prompt_tokens
        ),
        peak_gpu_memory_bytes=max(peaks) if peaks else None,
        peak_gpu_memory_by_device=peaks,
        prefix_cache_reset=prefix_cache_reset,
        interrupted=interrupted,
    )


def _arrival_stamps(reads: dict[str, int] | None) -> Literal["kernel", "event_loop", "mixed"]:
    if not reads or not reads.get("kernel"):
        return "event_loop"
    return "mixed" if reads.get("event_loop") else "kernel"


def _level_line(level: LevelResult) -> str:
    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    lag = " CLIENT LAGGED" if level.client_lagged else ""
    return (
        f"c={level.concurrency}: {level.requests_completed} ok, {level.requests_failed} failed, "
        f"TTFT p50 {ms(level.ttft_ms.p50)} / p99 {ms(level.ttft_ms.p99)} ms, "
        f"TPOT p50 {ms(level.tpot_ms.p50)} ms, {level.output_tokens_per_s:.1f} output tok/s{lag}"
    )


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def run_serve(
    settings: ServeSettings,
    out: Path | None = None,
    progress: ProgressCallback | None = None,
    launch: LaunchInfo | None = None,
) -> ServeResult:
    """Synchronous entry point: runs the whole trial in a fresh event loop (Ctrl-C keeps what was measured)."""

    async def main() -> ServeResult:
        run = ServeRun(settings, out=out, progress=progress, launch=launch)
        result = await run.run()
        result.launch = launch
        return result

    return asyncio.run(main())


def bench_serve(settings: ServeSettings, progress: ProgressCallback | None = None) -> ServeResult:
    """Measure a running OpenAI-compatible server (vLLM, llama.cpp) at the given input/output lengths and
    concurrency levels: TTFT, inter-token latency, TPOT, throughput, goodput and peak GPU memory from the same
    trial. Call it only when the user gave a server URL; it takes seconds to minutes and loads that server."""
    return run_serve(settings, progress=progress)
