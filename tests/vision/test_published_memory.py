"""Vision training memory against published YOLOv8 training logs: the issue's bar, median within 20 %."""

from __future__ import annotations

import statistics

import pytest

pytest.importorskip("timm")

from tests.vision.published_memory import score

MEDIAN_PCT = 20.0  # issue #12: "predicted peak memory within 20 % ... median"


def test_yolov8_training_memory_against_published_logs() -> None:
    result = score()
    print(result.summary())
    assert len(result.scored) >= 8, result.summary()
    assert statistics.median(abs(e) for _, e in result.scored) <= MEDIAN_PCT, result.summary()
