"""Fit the vision speed model's efficiencies on published measurements; score the held-out rows.

    python -m tools.vision.calibrate [--rows tests/vision/published.yaml] [--write]

Rows carry their split in the data file (`calibration` or `test`), fixed before any fit. The three
constants (compute efficiency, bandwidth efficiency, per-kernel overhead) are chosen on a log grid to
minimise the median absolute log error of images/s over the calibration rows only; the test rows are then
scored once with those constants. `--write` stores constants and both errors in
`tools/vision/data/calibration.json`, which `tools.vision.speed` reads. Needs the `vision` extra (traces).
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import math
import statistics
from pathlib import Path
from typing import Any

import yaml

from sizer_agent.tools.catalog.loader import load_catalog
from sizer_agent.tools.vision.estimate import VisionRequest, estimate_vision
from sizer_agent.tools.vision.speed import CALIBRATION_FILE, VisionEfficiencies, vision_speed

ROOT = Path(__file__).resolve().parents[2]
ROWS = ROOT / "tests" / "vision" / "published.yaml"
# Search grid: efficiencies from 5 % to 100 % (about 8 % steps), overhead from 0 to 60 us.
_COMPUTE = [round(0.05 * 1.08**i, 4) for i in range(40) if 0.05 * 1.08**i <= 1.0]
_BANDWIDTH = _COMPUTE
_OVERHEAD = [0.0, 2e-6, 4e-6, 6e-6, 8e-6, 10e-6, 15e-6, 20e-6, 30e-6, 45e-6, 60e-6]


def load_rows(path: Path = ROWS) -> list[dict[str, Any]]:
    data = yaml.safe_load(path.read_text())
    rows: list[dict[str, Any]] = data["rows"]
    return rows


def predict(row: dict[str, Any], eff: VisionEfficiencies, cache: dict[str, Any]) -> float:
    key = json.dumps([row["model"], row["resolution"], row["dtype"], row["batch"], row["gpus"],
                      row.get("optimizer", "sgd_momentum"), row["mode"]])
    if key not in cache:
        cache[key] = estimate_vision(VisionRequest(model=row["model"], resolution=row["resolution"],
                                                   batch_size=row["batch"], mode=row["mode"], dtype=row["dtype"],
                                                   optimizer=row.get("optimizer", "sgd_momentum"), gpus=row["gpus"]))
    gpu = load_catalog().gpu(row["gpu"])
    speed = vision_speed(cache[key], gpu, efficiencies=eff)
    phase = speed.training if row["mode"] == "training" else speed.inference
    return phase.images_per_s


def errors(rows: list[dict[str, Any]], eff: VisionEfficiencies, cache: dict[str, Any]) -> list[float]:
    """Signed relative errors (predicted / published - 1)."""
    return [predict(row, eff, cache) / row["images_per_s"] - 1 for row in rows]


def _objective(rows: list[dict[str, Any]], eff: VisionEfficiencies, cache: dict[str, Any]) -> float:
    return statistics.median(abs(math.log(1 + e)) for e in errors(rows, eff, cache))


def fit(rows: list[dict[str, Any]], cache: dict[str, Any]) -> VisionEfficiencies:
    best: tuple[float, VisionEfficiencies] | None = None
    for compute, bandwidth, overhead in itertools.product(_COMPUTE, _BANDWIDTH, _OVERHEAD):
        eff = VisionEfficiencies(compute=compute, bandwidth=bandwidth, kernel_overhead_s=overhead)
        score = _objective(rows, eff, cache)
        if best is None or score < best[0] - 1e-12:
            best = (score, eff)
    assert best is not None
    return best[1]


def summary(rows: list[dict[str, Any]], errs: list[float]) -> dict[str, Any]:
    absolute = [abs(e) for e in errs]
    return {
        "rows": [row["id"] for row in rows],
        "errors": {row["id"]: round(e, 4) for row, e in zip(rows, errs, strict=True)},
        "images_per_s_median_abs_error": round(statistics.median(absolute), 4),
        "images_per_s_max_abs_error": round(max(absolute), 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=Path, default=ROWS)
    parser.add_argument("--write", action="store_true", help=f"store the result in {CALIBRATION_FILE}")
    args = parser.parse_args(argv)
    rows = load_rows(args.rows)
    calibration = [r for r in rows if r["split"] == "calibration"]
    test = [r for r in rows if r["split"] == "test"]
    cache: dict[str, Any] = {}
    eff = fit(calibration, cache)
    result = {
        "fitted": dt.date.today().isoformat(),
        "script": "python -m tools.vision.calibrate --write",
        "rows_file": str(args.rows.relative_to(ROOT)) if args.rows.is_relative_to(ROOT) else str(args.rows),
        "objective": "median |log(predicted / published)| over the calibration rows, grid search",
        "constants": {"compute": eff.compute, "bandwidth": eff.bandwidth, "kernel_overhead_s": eff.kernel_overhead_s},
        "calibration_rows": len(calibration),
        "calibration": summary(calibration, errors(calibration, eff, cache)),
        "test": summary(test, errors(test, eff, cache)),
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.write:
        CALIBRATION_FILE.parent.mkdir(parents=True, exist_ok=True)
        CALIBRATION_FILE.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
