"""Per-level duration instead of a request count, and the warning when prompts get reused."""

from __future__ import annotations

from pathlib import Path

from tests.bench.conftest import Server
from sizer_agent.tools.bench.prompts import parse_length
from sizer_agent.tools.bench.results import ServeSettings
from sizer_agent.tools.bench.serve import run_serve


def test_duration_mode_runs_for_the_given_time(fast_schedule_server: Server, tmp_path: Path) -> None:
    """Tokens every 5 ms after 30 ms, 8 tokens: ~65 ms per request; 2 s at concurrency 2 ≈ 60 requests."""
    settings = ServeSettings(
        base_url=fast_schedule_server.url,
        input_len=parse_length("8", "--input-len"),
        output_len=parse_length("8", "--output-len"),
        concurrency=[2],
        duration_s=2.0,
    )
    result = run_serve(settings, out=tmp_path / "d.json")
    level = result.levels[0]
    assert level.requests_failed == 0
    assert 20 <= level.requests_completed <= 80
    assert 1.9 <= level.window_s <= 3.0  # no new request after the deadline; in-flight ones finish
    # The prompt pool (max(100, 4 × concurrency)) was not exhausted here, so no reuse warning.
    assert not any("reused" in w for w in result.warnings)
