"""vLLM start-up memory lines parsed against real logs (10 committed GPU logs, vLLM 0.19; one CPU-build log).

The quotes and expected values come with their source URL in data/vllm_startup_logs.json.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sizer_agent.tools.bench.vllm_log import parse_startup_memory

CASES = json.loads((Path(__file__).parent / "data" / "vllm_startup_logs.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_startup_lines_parse_to_the_published_values(case: dict) -> None:
    parsed = parse_startup_memory(case["quotes"]).model_dump()
    for field, expected in case["expect"].items():
        assert parsed[field] == pytest.approx(expected), (field, case["source"])
    assert parsed["lines"], "the matching lines are kept as evidence"


def test_unrelated_lines_give_nothing() -> None:
    parsed = parse_startup_memory(["INFO Started server process", "Uvicorn running on http://127.0.0.1:8000"])
    assert parsed.kv_cache_tokens is None and parsed.weights_gib is None and parsed.lines == []
