"""Score the vision estimator on CPU measurements made independently of it (tests/vision/cpu_measurements.yaml).

The rows were measured by someone who never read tools/vision, on real tensors (not the meta device), with the
method of `cpu_measurements.METHOD.md`: parameters, FLOPs of one forward (FlopCounterMode, CPU fused attention
counted with the counter's own formula), bytes autograd saves for backward (storages once, parameters
excluded), largest live set of a no-grad forward. Two-stage detectors are in the file and are refused by
the estimator by design (their second stage depends on the image content).

`python -m tests.vision.cpu_truth` prints the per-row errors and the summary the test asserts.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

FILE = Path(__file__).with_name("cpu_measurements.yaml")
REFUSED = ("fasterrcnn",)  # two-stage detectors: refused with a reason (tools.vision.models._TWO_STAGE)


@dataclass
class Score:
    rows: list[dict[str, Any]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def errors(self, key: str) -> list[float]:
        return [abs(r[key]) for r in self.rows if r.get(key) is not None]

    def summary(self) -> str:
        lines = [f"vision estimator vs independent CPU measurements: {len(self.rows)} rows scored, "
                 f"{len(self.refused)} refused by design ({', '.join(sorted(set(self.refused)))})"]
        for key in ("params", "flops", "saved", "inference_peak"):
            errs = self.errors(key)
            if errs:
                lines.append(f"  {key:15s} median {statistics.median(errs):6.2f} %   max {max(errs):6.2f} %   "
                             f"({len(errs)} rows)")
        return "\n".join(lines)


def _name(row: dict[str, Any]) -> str:
    if row["library"] == "ultralytics":
        return row["model"]
    return f"{row['library']}/{row['model']}"


def _pct(ours: float, truth: float) -> float:
    return (ours - truth) / truth * 100.0


def _request(row: dict[str, Any]) -> Any:
    from sizer_agent.tools.vision.estimate import VisionRequest

    dtype = "float32" if row["dtype"] == "float32" else "bfloat16"
    return VisionRequest(model=_name(row), resolution=row["resolution"], batch_size=row["batch"],
                         mode="training", dtype=dtype, num_classes=row["num_classes"])


def _trace_one(row: dict[str, Any]) -> None:
    from sizer_agent.tools.errors import InputError
    from sizer_agent.tools.vision.estimate import estimate_vision

    with contextlib.suppress(InputError):  # scored (and refused) again in order by `score`
        estimate_vision(_request(row))


def warm_cache(rows: list[dict[str, Any]]) -> None:
    """Trace each distinct network once, on every core, into the disk cache that `score` then reads.

    A trace does not depend on the batch (it fits two batches into a line), so rows that differ only by
    batch share one. Cold, the 158 rows hold 80 traces: ~210 s on one core of a 2-core machine.
    """
    distinct = {(r["library"], r["model"], r["resolution"], r["dtype"], r["num_classes"]): r for r in rows
                if not r["model"].startswith(REFUSED)}
    workers = min(os.cpu_count() or 1, len(distinct))
    if workers < 2:
        return
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(_trace_one, distinct.values()))


def score() -> Score:
    from sizer_agent.tools.errors import InputError
    from sizer_agent.tools.vision.estimate import VisionRequest, estimate_vision

    rows = yaml.safe_load(FILE.read_text(encoding="utf-8"))
    warm_cache(rows)
    result = Score()
    for row in rows:
        if row["model"].startswith(REFUSED):
            try:
                estimate_vision(VisionRequest(model=_name(row), resolution=row["resolution"], batch_size=row["batch"]))
            except InputError:
                result.refused.append(row["model"])
                continue
            raise AssertionError(f"{row['model']} was expected to be refused")
        dtype = "float32" if row["dtype"] == "float32" else "bfloat16"
        est = estimate_vision(_request(row))
        v = est.vision
        scored = {
            "case": f"{row['model']} {row['resolution']}px b{row['batch']} {row['dtype']}",
            "params": _pct(est.model.params_total, row["params_total"]),
            "flops": _pct(v.forward_flops_per_image + v.attention_flops_per_image, row["forward_flops_per_image"]),
            "saved": None if row["saved_activation_bytes"] is None else _pct(
                v.saved_activation_bytes, row["saved_activation_bytes"]),
            "inference_peak": None if dtype != "float32" or not row.get("inference_peak_activation_bytes") else _pct(
                v.inference_peak_activation_bytes, row["inference_peak_activation_bytes"]),
        }
        result.rows.append(scored)
    return result


if __name__ == "__main__":
    scored = score()
    for r in scored.rows:
        cells = "  ".join(f"{k} {r[k]:+7.2f}%" if r[k] is not None else f"{k}    —   " for k in
                          ("params", "flops", "saved", "inference_peak"))
        print(f"{r['case']:55s} {cells}")
    print(scored.summary())
