"""Fit the serving efficiencies on the calibration split; write them with the split's ids.

    python -m sizer_agent.tools.perf.calibrate            # fit on the calibration split, print the constants
    python -m sizer_agent.tools.perf.calibrate --write    # also store tools/perf/data/serving_efficiencies.json
    python -m sizer_agent.tools.perf.calibrate --report   # median/max error per split and group, shipped constants

Rows and split: tools.perf.validation (SPLIT_RULE). Only the calibration split is fitted; the validation and
fresh splits are scored afterwards (`--report`). Five serving constants: bandwidth, compute, step_overhead_s and
host_per_sequence_s are fitted per generation/precision family ("hopper/fp8", "blackwell/fp4", ...) that has at
least MIN_RESIDUALS calibration metrics; moe_half_size (grouped-GEMM size at half efficiency) is fitted once
on every calibration MoE row and shared, because no family has enough MoE rows alone. A "default" set, fitted on
the whole calibration split, serves every other family (MI300X bf16, TPU, Trainium, ...). The search is a
deterministic coordinate descent over fixed grids (per family from two starts) that minimises the mean absolute
log error (predicted / published) of every metric: output tokens/s, TTFT, TPOT, end-to-end latency.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import statistics
from pathlib import Path
from typing import Any

from sizer_agent.tools.perf.efficiency import CALIBRATED_PATH, SERVING_FIELDS, Efficiencies
from sizer_agent.tools.perf.validation import (
    CALIBRATION_PATH,
    HELDOUT_PATH,
    SPLIT_RULE,
    is_moe,
    row_key,
    rows_of,
    score_row,
)

MIN_RESIDUALS = 8
_RATIO = [round(0.03 * 1.06**i, 4) for i in range(61) if 0.03 * 1.06**i <= 1.0]  # 3 % .. 100 %, 6 % steps
GRIDS: dict[str, list[float]] = {
    "bandwidth": [v for v in _RATIO if v >= 0.2],
    "compute": _RATIO,
    "moe_half_size": [0.0] + [round(1e5 * 1.25**i) for i in range(42)],  # 0, then 1e5 .. 1e9 elements
    "step_overhead_s": [0.0, 1e-4, 2.5e-4, 5e-4, 7.5e-4, 1e-3, 1.5e-3, 2e-3, 3e-3, 4e-3, 6e-3, 8e-3, 12e-3, 16e-3],
    "host_per_sequence_s": [0.0, 1e-6, 2e-6, 3e-6, 5e-6, 7.5e-6, 10e-6, 15e-6, 20e-6, 25e-6, 30e-6, 40e-6, 50e-6],
}
START = {"bandwidth": 0.6, "compute": 0.45, "moe_half_size": 0.0, "step_overhead_s": 1e-3,
         "host_per_sequence_s": 20e-6}  # the constants shipped before this calibration existed
MAX_PASSES = 8
MOE_FIELDS = ("moe_half_size",)


def _nearest(grid: list[float], value: float) -> float:
    return min(grid, key=lambda g: (abs(g - value), g))


def objective(rows: list[dict[str, Any]], constants: dict[str, float]) -> float:
    eff = Efficiencies(**constants)
    errs = [abs(math.log(c.predicted / c.measured)) for row in rows for c in score_row(row, eff)]
    return statistics.fmean(errs)


def fit(rows: list[dict[str, Any]], start: dict[str, float], fields: tuple[str, ...]) -> dict[str, float]:
    """Coordinate descent over the grids; the two MoE constants are searched jointly (on the MoE rows only, the
    only rows they change) because only their pair is pinned by data."""
    best = {k: (_nearest(GRIDS[k], v) if k in fields else v) for k, v in start.items()}
    best_score = objective(rows, best)
    single = [f for f in fields if f not in MOE_FIELDS]
    moe_rows = [r for r in rows if is_moe(r)]
    for _ in range(MAX_PASSES):
        improved = False
        for field in single:
            for value in GRIDS[field]:
                trial = {**best, field: value}
                score = objective(rows, trial)
                if score < best_score - 1e-12:
                    best, best_score, improved = trial, score, True
        if moe_rows and all(f in fields for f in MOE_FIELDS):
            pairs = [dict(zip(MOE_FIELDS, pair, strict=True))
                     for pair in itertools.product(*(GRIDS[f] for f in MOE_FIELDS))]
            moe_best = min(pairs, key=lambda pair: (objective(moe_rows, {**best, **pair}), tuple(pair.values())))
            trial = {**best, **moe_best}
            score = objective(rows, trial)
            if score < best_score - 1e-12:
                best, best_score, improved = trial, score, True
        if not improved:
            break
    return best


def _residuals(rows: list[dict[str, Any]]) -> int:
    return sum(len(r["metrics"]) for r in rows)


def input_digest() -> str:
    """sha256 over the row files and this script: the shipped constants must be the output of these inputs."""
    digest = hashlib.sha256()
    for path in (CALIBRATION_PATH, HELDOUT_PATH, Path(__file__)):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def calibrate() -> dict[str, Any]:
    rows = rows_of("calibration")
    fields_all = SERVING_FIELDS
    default = fit(rows, START, fields_all)
    sets: dict[str, Any] = {"default": {"constants": default, "rows": sorted(r["id"] for r in rows)}}
    families: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        families.setdefault(row_key(row), []).append(row)
    for key in sorted(families):
        members = families[key]
        if _residuals(members) < MIN_RESIDUALS:
            continue
        # the MoE pair is shared from the default set: each family has too few MoE rows to pin it alone
        fields = tuple(f for f in fields_all if f not in MOE_FIELDS)
        # two starts (the default set, the pre-calibration constants): coordinate descent finds local optima
        fits = [fit(members, {**start, "moe_half_size": default["moe_half_size"]}, fields)
                for start in (default, START)]
        best = min(fits, key=lambda c: objective(members, c))
        sets[key] = {"constants": best, "rows": sorted(r["id"] for r in members)}
    return {
        "about": ("Serving efficiencies fitted by tools/perf/calibrate.py on the calibration split only; "
                  "regenerate with `python -m sizer_agent.tools.perf.calibrate --write`. Families without a set "
                  "use 'default'."),
        "split_rule": SPLIT_RULE,
        "inputs_sha256": input_digest(),
        "calibration_ids": sorted(r["id"] for r in rows),
        "validation_ids": sorted(r["id"] for r in rows_of("validation")),
        "fresh_ids": sorted(r["id"] for r in rows_of("fresh")),
        "fresh2_ids": sorted(r["id"] for r in rows_of("fresh2")),
        "sets": sets,
    }


def render(result: dict[str, Any]) -> str:
    return json.dumps(result, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"store the result in {CALIBRATED_PATH}")
    parser.add_argument("--report", action="store_true", help="score every split with the shipped constants")
    args = parser.parse_args(argv)
    if args.report:
        from sizer_agent.tools.perf.validation import report

        print(json.dumps(report(), indent=1))
        return 0
    result = calibrate()
    text = render(result)
    if args.write:
        CALIBRATED_PATH.write_text(text)
    for key, entry in result["sets"].items():
        print(key, json.dumps(entry["constants"]), f"({len(entry['rows'])} rows)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
