"""Serving metrics, defined once (DESIGN §6).

- TTFT = first token-bearing chunk − send time.
- ITL  = every gap between consecutive token-bearing chunks (the whole distribution, all requests).
- TPOT = (E2E − TTFT) / (output tokens − 1), per request (undefined for one-token outputs).
- E2E  = last token-bearing chunk − send time.
- Throughput = tokens of completed requests / window (first send → last stream end of the level).
- Goodput = completed requests meeting every SLO that is set / window.
Percentiles: linear interpolation between closest ranks (numpy's default), with the sample count.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from sizer_agent.tools.bench.results import LatencyStats, RequestRecord

NS_PER_MS = 1_000_000


def latency_stats(values_ms: Sequence[float], percentile: float = 99.0) -> LatencyStats:
    """Mean, p50/p90/p99, max and the value at `percentile` (linear interpolation like numpy)."""
    if len(values_ms) == 0:
        return LatencyStats(count=0)
    array = np.asarray(values_ms, dtype=np.float64)
    p50, p90, p99, at = np.percentile(array, [50, 90, 99, percentile])
    return LatencyStats(
        count=int(array.size),
        mean=float(array.mean()),
        p50=float(p50),
        p90=float(p90),
        p99=float(p99),
        max=float(array.max()),
        at_percentile=float(at),
    )


def finish_record(record: RequestRecord) -> None:
    """Fill TTFT, TPOT and E2E of a finished request from its time stamps."""
    if record.send_ns is None or record.first_token_ns is None or record.end_ns is None:
        return
    record.ttft_ms = (record.first_token_ns - record.send_ns) / NS_PER_MS
    record.e2e_ms = (record.end_ns - record.send_ns) / NS_PER_MS
    tokens = record.output_tokens or 0
    record.tpot_ms = (record.e2e_ms - record.ttft_ms) / (tokens - 1) if tokens > 1 else None


def inter_token_gaps_ms(record: RequestRecord) -> list[float]:
    """Gaps between consecutive token-bearing chunks of one request."""
    times = record.chunk_ns
    return [(b - a) / NS_PER_MS for a, b in itertools.pairwise(times)]


def meets_slo(
    record: RequestRecord,
    slo_ttft_ms: float | None,
    slo_tpot_ms: float | None,
    slo_e2e_ms: float | None,
) -> bool:
    """A completed request meets the SLO when every bound that is set holds (TPOT undefined = holds)."""
    if record.status != "ok" or record.ttft_ms is None or record.e2e_ms is None:
        return False
    if slo_ttft_ms is not None and record.ttft_ms > slo_ttft_ms:
        return False
    if slo_tpot_ms is not None and record.tpot_ms is not None and record.tpot_ms > slo_tpot_ms:
        return False
    return not (slo_e2e_ms is not None and record.e2e_ms > slo_e2e_ms)


def sla_passed(
    ttft: LatencyStats,
    tpot: LatencyStats,
    e2e: LatencyStats,
    slo_ttft_ms: float | None,
    slo_tpot_ms: float | None,
    slo_e2e_ms: float | None,
) -> bool | None:
    """The level passes when the latencies at the SLA percentile meet every bound set; None without SLO."""
    checks: list[tuple[LatencyStats, float]] = [
        (stats, bound)
        for stats, bound in ((ttft, slo_ttft_ms), (tpot, slo_tpot_ms), (e2e, slo_e2e_ms))
        if bound is not None
    ]
    if not checks:
        return None
    for stats, bound in checks:
        if stats.count == 0 or stats.at_percentile is None:
            # No sample (e.g. every request failed) cannot prove the bound; one-token outputs have no TPOT.
            if stats is tpot and ttft.count > 0:
                continue
            return False
        if stats.at_percentile > bound:
            return False
    return True
