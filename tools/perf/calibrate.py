"""Fit the serving efficiencies on the calibration splits; write them with every split's ids.

    python -m sizer_agent.tools.perf.calibrate            # fit on calibration + calibration3, print the constants
    python -m sizer_agent.tools.perf.calibrate --write    # also store tools/perf/data/serving_efficiencies.json
    python -m sizer_agent.tools.perf.calibrate --report   # median/max error per split and group, shipped constants
    python -m sizer_agent.tools.perf.calibrate --report --score-fresh3-once   # once, after the constants are merged

Rows and split: tools.perf.validation (SPLIT_RULE). Only the calibration and calibration3 splits are fitted;
the validation and fresh splits are scored afterwards (`--report`); the fresh3 split is never scored by
`--report` unless `--score-fresh3-once` is given. Six serving constants: bandwidth, compute, step_overhead_s and
host_per_sequence_s are fitted per generation/precision family ("hopper/fp8", "blackwell/fp4", ...) that has at
least MIN_RESIDUALS calibration metrics; moe_half_tokens (rows per expert at which a routed-expert grouped GEMM
runs at half the dense efficiency) and moe_routing_traffic (factor on the routing kernels' first-principles
bytes) are fitted once on every calibration MoE row and shared, because no family has enough MoE rows of
several architectures alone (where those rows leave one free, the value nearest MOE_PRIOR). A "default" set, fitted on
the whole calibration split, serves every other family (MI300X bf16, TPU, Trainium, ...). The search is a
deterministic coordinate descent over fixed grids (per family from two starts) that minimises the mean absolute
log error (predicted / published) per kind of metric -- throughput (output tokens/s, total or per GPU), TTFT,
TPOT, end-to-end latency -- averaged over the kinds, so that hundreds of throughput rows do not outvote the
latency rows on the constants only latency pins (the fixed step cost). Where a family has no latency row, its
fixed step cost is searched only up to its generation's published bound (STEP_OVERHEAD_MAX_S).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
from pathlib import Path
from typing import Any

from sizer_agent.tools.perf.efficiency import CALIBRATED_PATH, SERVING_FIELDS, Efficiencies
from sizer_agent.tools.perf.validation import (
    CALIBRATION_PATH,
    FRESH3_PATH,
    HELDOUT_PATH,
    SEEN_SPLITS,
    SPLIT_RULE,
    fit_rows,
    fresh3_excluded,
    is_moe,
    row_key,
    rows_of,
    score_row,
)

MIN_RESIDUALS = 8
_RATIO = [round(0.03 * 1.06**i, 4) for i in range(61) if 0.03 * 1.06**i <= 1.0]  # 3 % .. 100 %, 6 % steps
GRIDS: dict[str, list[float]] = {
    # at most the device-copy ceiling, ~4.3 of 4.8 TB/s on H200 = 0.90 (docs/design.md §5): no kernel streams faster
    "bandwidth": [v for v in _RATIO if 0.2 <= v <= 0.90],
    "compute": _RATIO,
    "moe_half_tokens": [0.0] + [round(1.25**i, 1) for i in range(48)],  # 0, then 1 .. 36,000 rows per expert
    "moe_routing_traffic": [0.0] + [round(1.25**i, 3) for i in range(-8, 17)],  # 0, then 0.17 .. 36 x the count
    "step_overhead_s": [0.0, 1e-4, 2.5e-4, 5e-4, 7.5e-4, 1e-3, 1.5e-3, 2e-3, 3e-3, 4e-3, 6e-3, 8e-3, 12e-3, 16e-3],
    "host_per_sequence_s": [0.0, 1e-6, 2e-6, 3e-6, 5e-6, 7.5e-6, 10e-6, 15e-6, 20e-6, 25e-6, 30e-6, 40e-6, 50e-6],
}
# Physical prior on the fixed per-step cost, per accelerator generation, from published whole-step times there: a
# fixed part of a step is at most the step less its weight reads at the bandwidth ceiling (0.90, GRIDS) and its
# all-reduces. Data-centre Blackwell: SemiAnalysis InferenceX, Llama 3.3 70B FP4 on B200, 1k/1k (inferencex.
# semianalysis.com/compare-precision/llama-3-3-70b-b200-fp4-vs-fp8, read 2026-12-02): 139 tok/s/user at
# concurrency ~16 and 1,032 tok/s/GPU, i.e. ~2 GPUs and a 7.2 ms step; its 21.4 GB of FP4 weights per GPU take
# >= 3.1 ms at 0.90 x 7.7 TB/s and its 160 all-reduces ~1.3 ms (Efficiencies.allreduce_latency_nvlink_s), so
# <= 2.8 ms is left, KV reads included. Looser, same generation: NVIDIA's > 1,000 tok/s/user on Llama 4 Maverick
# (DGX B200, TensorRT-LLM) is "a 4x speed-up relative to the best prior Blackwell baseline" with EAGLE-3
# speculation (developer.nvidia.com/blog/blackwell-breaks-the-1000-tps-user-barrier-with-metas-llama-4-maverick/,
# 2025-05-22): one-token steps of <= 1/250 s = 4 ms, weights and all. Without a bound, the family's throughput
# rows alone (no latency row of the family pins the fixed cost) took the grid's top, 16 ms.
STEP_OVERHEAD_MAX_S = {"blackwell": 2.8e-3}
START = {"bandwidth": 0.6, "compute": 0.45, "moe_half_tokens": 0.0, "moe_routing_traffic": 1.0,
         "step_overhead_s": 1e-3, "host_per_sequence_s": 20e-6}  # the constants shipped before this calibration
MAX_PASSES = 8
MOE_FIELDS = ("moe_half_tokens", "moe_routing_traffic")
# Where the calibration rows leave the MoE constant free (their objective is flat to 1e-9 over a range: the
# steps of every calibration MoE row are memory-bound there), the grid value nearest this published kernel
# measurement is taken instead of the grid's smallest. DeepGEMM's FP8 grouped GEMM on H800 runs at 0.72 / 0.80 /
# 0.95 (N 4096, K 7168) and 0.74 / 0.83 / 0.84 (N 7168, K 2048) of its 4096-8192-row rate at 256 / 512 / 1024
# rows per expert (deepseek-ai/DeepGEMM README, "Performance", 2025-02): m / (m + h) with h from 53 to 192 rows,
# median 100. For the routing traffic the prior is the first-principles byte count itself (factor 1).
MOE_PRIOR = {"moe_half_tokens": 100.0, "moe_routing_traffic": 1.0}


def _nearest(grid: list[float], value: float) -> float:
    return min(grid, key=lambda g: (abs(g - value), g))


# throughput at full load (total or per GPU) is one kind; TTFT, TPOT and end-to-end latency are the others
METRIC_KIND = {"total_output_tokens_per_s": "throughput", "output_tokens_per_s_per_gpu": "throughput"}
_SCORES: dict[tuple[tuple[str, ...], tuple[tuple[str, float], ...]], float] = {}  # descent revisits points


def objective(rows: list[dict[str, Any]], constants: dict[str, float]) -> float:
    key = (tuple(r["id"] for r in rows), tuple(sorted(constants.items())))
    if key not in _SCORES:
        eff = Efficiencies(**constants)
        by_kind: dict[str, list[float]] = {}
        for row in rows:
            for c in score_row(row, eff):
                kind = METRIC_KIND.get(c.metric, c.metric)
                by_kind.setdefault(kind, []).append(abs(math.log(c.predicted / c.measured)))
        # each kind of published metric weighs the same: hundreds of max-throughput rows barely pin the fixed
        # step cost (the throughput objective moves by ~1 % between 0 and 8 ms), the few latency rows do
        _SCORES[key] = statistics.fmean(statistics.fmean(errs) for errs in by_kind.values())
    return _SCORES[key]


def grids_of(family: str) -> dict[str, list[float]]:
    """The search grids of one family ("blackwell/fp4"), its generation's step-cost prior applied."""
    cap = STEP_OVERHEAD_MAX_S.get(family.split("/")[0])
    if cap is None:
        return GRIDS
    return {**GRIDS, "step_overhead_s": [v for v in GRIDS["step_overhead_s"] if v <= cap]}


def fit(rows: list[dict[str, Any]], start: dict[str, float], fields: tuple[str, ...],
        grids: dict[str, list[float]] = GRIDS) -> dict[str, float]:
    """Coordinate descent over the grids; the MoE constants are searched one at a time on the MoE rows only (the
    only rows they change), nearest MOE_PRIOR among equal scores, and kept unless they raise the whole
    objective."""
    best = {k: (_nearest(grids[k], v) if k in fields else v) for k, v in start.items()}
    best_score = objective(rows, best)
    single = [f for f in fields if f not in MOE_FIELDS]
    moe_rows = [r for r in rows if is_moe(r)]
    for _ in range(MAX_PASSES):
        improved = False
        for field in single:
            for value in grids[field]:
                trial = {**best, field: value}
                score = objective(rows, trial)
                if score < best_score - 1e-12:
                    best, best_score, improved = trial, score, True
        for field in (f for f in MOE_FIELDS if moe_rows and f in fields):
            value = min(grids[field], key=lambda v: (round(objective(moe_rows, {**best, field: v}), 9),
                                                      _distance_to_prior({field: v})))
            trial = {**best, field: value}
            score = objective(rows, trial)
            if round(score, 9) <= round(best_score, 9):  # a tie moves to the value nearest MOE_PRIOR
                improved = improved or score < best_score - 1e-12
                best, best_score = trial, score
        if not improved:
            break
    return best


def _distance_to_prior(values: dict[str, float]) -> float:
    return sum(abs(math.log((values[k] + 1.0) / (MOE_PRIOR[k] + 1.0))) for k in values)


def _residuals(rows: list[dict[str, Any]]) -> int:
    return sum(len(r["metrics"]) for r in rows)


def input_digest() -> str:
    """sha256 over the row files and this script: the shipped constants must be the output of these inputs."""
    digest = hashlib.sha256()
    for path in (CALIBRATION_PATH, HELDOUT_PATH, FRESH3_PATH, Path(__file__)):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def calibrate() -> dict[str, Any]:
    rows = fit_rows()
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
        # the MoE constants are shared from the default set: each family has too few MoE rows to pin them alone
        fields = tuple(f for f in fields_all if f not in MOE_FIELDS)
        shared = {f: default[f] for f in MOE_FIELDS}
        # two starts (the default set, the pre-calibration constants): coordinate descent finds local optima
        fits = [fit(members, {**start, **shared}, fields, grids_of(key)) for start in (default, START)]
        best = min(fits, key=lambda c: objective(members, c))
        sets[key] = {"constants": best, "rows": sorted(r["id"] for r in members)}
    return {
        "about": ("Serving efficiencies fitted by tools/perf/calibrate.py on the calibration and calibration3 "
                  "splits only; regenerate with `python -m sizer_agent.tools.perf.calibrate --write`. Families "
                  "without a set use 'default'."),
        "split_rule": SPLIT_RULE,
        "inputs_sha256": input_digest(),
        "calibration_ids": sorted(r["id"] for r in rows_of("calibration")),
        "calibration3_ids": sorted(r["id"] for r in rows_of("calibration3")),
        "fresh3_ids": sorted(r["id"] for r in rows_of("fresh3")),
        "fresh3_excluded": fresh3_excluded(),
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
    parser.add_argument("--report", action="store_true",
                        help="score every split but fresh3 with the shipped constants")
    parser.add_argument("--score-fresh3-once", action="store_true",
                        help="with --report, also score the held-out fresh3 split. Its rows are unseen: run this "
                        "once, after the constants are merged, and record the date in docs/method.md")
    args = parser.parse_args(argv)
    if args.score_fresh3_once and not args.report:
        parser.error("--score-fresh3-once: only with --report")
    if args.report:
        from sizer_agent.tools.perf.validation import report

        splits = (*SEEN_SPLITS, "fresh3") if args.score_fresh3_once else SEEN_SPLITS
        print(json.dumps(report(splits=splits), indent=1))
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
