"""SSE parsing (fuzzed: any split of the byte stream gives the same events) and metrics by hand."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sizer_agent.tools.bench.client import StreamTally
from sizer_agent.tools.bench.metrics import finish_record, inter_token_gaps_ms, latency_stats, meets_slo, sla_passed
from sizer_agent.tools.bench.prompts import parse_length
from sizer_agent.tools.bench.results import RequestRecord
from sizer_agent.tools.bench.sse import MalformedStream, SSEDecoder, parse_event
from sizer_agent.tools.errors import InputError

STREAM = (
    b'data: {"id":"x","choices":[{"index":0,"text":"a","finish_reason":null}],"usage":{"prompt_tokens":3,'
    b'"completion_tokens":1,"total_tokens":4}}\n\n'
    b": keep-alive comment\n\n"
    b'data: {"id":"x","choices":[{"index":0,"delta":{"content":"b"},"finish_reason":"length"}]}\r\n\r\n'
    b'data: {"id":"x","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}\n\n'
    b"data: [DONE]\n\n"
)


def _decode(parts: list[bytes]) -> tuple[list[bytes], bool, bytes]:
    decoder = SSEDecoder()
    payloads = [p for part in parts for p in decoder.feed(part)]
    return payloads, decoder.done, decoder.pending


@given(st.lists(st.integers(min_value=0, max_value=len(STREAM)), max_size=12))
def test_any_split_of_the_stream_gives_the_same_events(cuts: list[int]) -> None:
    points = [0, *sorted(cuts), len(STREAM)]
    parts = [STREAM[a:b] for a, b in itertools.pairwise(points)]
    assert _decode(parts) == _decode([STREAM])


def test_events_carry_tokens_usage_and_finish() -> None:
    payloads, done, pending = _decode([STREAM])
    assert done and pending == b"" and len(payloads) == 3
    first, second, last = (parse_event(p) for p in payloads)
    assert first.has_output and first.completion_tokens == 1 and first.prompt_tokens == 3
    assert second.has_output and second.finished and second.completion_tokens is None
    assert not last.has_output and not last.has_choices and last.completion_tokens == 2


def _tally(parts: list[bytes]) -> tuple[list[int], list[int], int | None, bool]:
    tally = StreamTally(RequestRecord(level=0, index=0, scheduled_ns=0))
    for stamp, part in enumerate(parts):
        tally.feed(part, stamp)
    return tally.chunk_ns, tally.chunk_tokens, tally.usage, tally.decoder.done


@given(st.lists(st.integers(min_value=0, max_value=len(STREAM)), max_size=12))
def test_the_tally_counts_the_same_tokens_however_the_bytes_arrive(cuts: list[int]) -> None:
    """The decoder's one-event fast path and its general path give the tally the same tokens on every split."""
    points = [0, *sorted(cuts), len(STREAM)]
    parts = [STREAM[a:b] for a, b in itertools.pairwise(points)]
    stamps, tokens, usage, done = _tally(parts)
    _, whole_tokens, whole_usage, whole_done = _tally([STREAM])
    assert (tokens, usage, done) == (whole_tokens, whole_usage, whole_done) == ([1, 2], 2, True)
    assert stamps == sorted(stamps) and len(stamps) == 2


@given(st.binary(max_size=200))
def test_garbage_never_crashes_except_as_malformed(data: bytes) -> None:
    decoder = SSEDecoder()
    try:
        for payload in decoder.feed(data + b"\n\n"):
            parse_event(payload)
    except MalformedStream:
        pass


def test_error_object_in_stream() -> None:
    event = parse_event(b'{"error": {"message": "out of memory"}}')
    assert event.error == "out of memory"
    with pytest.raises(MalformedStream):
        parse_event(b"[1, 2]")


def test_metrics_by_hand() -> None:
    ms = 1_000_000
    record = RequestRecord(level=0, index=0, scheduled_ns=0, send_ns=10 * ms)
    record.chunk_ns = [110 * ms, 130 * ms, 150 * ms, 210 * ms]
    record.first_token_ns, record.end_ns = record.chunk_ns[0], record.chunk_ns[-1]
    record.output_tokens = 4
    record.status = "ok"
    finish_record(record)
    assert record.ttft_ms == 100.0  # 110 − 10
    assert record.e2e_ms == 200.0  # 210 − 10
    assert record.tpot_ms == pytest.approx(100.0 / 3)  # (200 − 100) / (4 − 1)
    assert inter_token_gaps_ms(record) == [20.0, 20.0, 60.0]
    assert meets_slo(record, 150, 40, None) and not meets_slo(record, 99, None, None)
    stats = latency_stats([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    # numpy linear interpolation: rank (n − 1)·q = 9·0.9 = 8.1 → 9 + 0.1·(10 − 9)
    assert stats.p50 == 5.5 and stats.p90 == pytest.approx(9.1) and stats.p99 == pytest.approx(9.91)
    assert stats.count == 10 and stats.mean == 5.5 and stats.max == 10
    assert sla_passed(stats, stats, stats, 10, None, None) is True
    assert sla_passed(stats, stats, stats, 9, None, None) is False
    assert sla_passed(stats, stats, stats, None, None, None) is None


def test_length_parsing() -> None:
    assert parse_length("128", "--output-len").fixed
    length = parse_length("64:256", "--input-len")
    assert (length.low, length.high) == (64, 256)
    for bad in ("0", "x", "9:3", "-4"):
        with pytest.raises(InputError):
            parse_length(bad, "--input-len")


@given(st.text(max_size=20))
def test_length_parser_accepts_or_names_the_field(text: str) -> None:
    try:
        length = parse_length(text, "--output-len")
    except InputError as error:
        assert error.field == "--output-len"
    else:
        assert 1 <= length.low <= length.high


def test_empty_text_chunks_are_tokens_but_role_and_closing_chunks_are_not() -> None:
    assert parse_event(b'{"choices":[{"index":0,"text":"","finish_reason":null}]}').has_output
    assert not parse_event(b'{"choices":[{"index":0,"text":"","finish_reason":"length"}]}').has_output
    role = b'{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}'
    assert not parse_event(role).has_output
    assert not parse_event(b'{"choices":[{"index":0,"delta":{"content":null},"finish_reason":null}]}').has_output
    assert parse_event(b'{"choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}').has_output
