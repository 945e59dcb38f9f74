"""Published multi-node training results against the scale-out model (tools/perf/cluster_training.py).

Rows: tools/data/validation/scaleout_training.json, per-chip training tokens/s from MLPerf Training result
logs (benchmarks/scaleout/extract_mlperf_training.py), split by round before the model ran: v3.1 and v4.0
calibrate, v4.1 and v5.0 are held out. Two measures, as issue #13 states them:
- per-chip throughput: median |predicted / measured - 1| over rows;
- shape of each scaling series (same round, submitter family, benchmark, chip): the drop of per-chip
  throughput from its smallest to its largest count, predicted minus measured, in points.
"""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.perf.cluster_training import (
    FITTED_COMPUTE_EFFICIENCY,
    FITTED_STEP_OVERHEAD_S,
    ClusterTrainingRequest,
    TrainShape,
    estimate_cluster_training,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "validation" / "scaleout_training.json"

# The benchmark models' shapes, from their papers / configs.
SHAPES = {
    # Brown et al. 2020, "Language Models are Few-Shot Learners", Table 2.1: 96 layers, d 12,288, 96 heads of 128
    "gpt3-175b": TrainShape(name="GPT-3 175B", params_total=175_000_000_000, params_active=175_000_000_000,
                            num_layers=96, hidden_size=12288, num_attention_heads=96, num_kv_heads=96, head_dim=128),
    # Touvron et al. 2023, "Llama 2", Table 1 / config.json: 80 layers, d 8,192, 64 heads, 8 KV heads
    "llama-2-70b-lora": TrainShape(name="Llama 2 70B (LoRA)", params_total=68_976_648_192,
                                   params_active=68_976_648_192, num_layers=80, hidden_size=8192,
                                   num_attention_heads=64, num_kv_heads=8, head_dim=128),
    # meta-llama/Llama-3.1-405B config.json (bundled, tools/data/models): 126 layers, d 16,384, 128 heads, 8 KV
    "llama-3.1-405b": TrainShape(name="Llama 3.1 405B", params_total=405_853_388_800,
                                 params_active=403_752_042_496, num_layers=126, hidden_size=16384,
                                 num_attention_heads=128, num_kv_heads=8, head_dim=128),
}


class RowResult(BaseModel):
    round: str
    system: str
    benchmark: str
    chip: str
    chips: int
    split: str
    measured: float
    predicted: float
    error: float  # predicted / measured - 1
    layout: str


class SeriesResult(BaseModel):
    key: str
    split: str
    chips: tuple[int, int]
    measured_drop: float  # 1 - per-chip(largest) / per-chip(smallest)
    predicted_drop: float
    gap_points: float  # (predicted - measured) x 100


def load_rows() -> list[dict[str, Any]]:
    return list(json.loads(DATA.read_text())["rows"])


def predict_rows(rows: list[dict[str, Any]], efficiency: float = FITTED_COMPUTE_EFFICIENCY,
                 overhead_s: float = FITTED_STEP_OVERHEAD_S) -> list[RowResult]:
    catalog = load_catalog()
    out = []
    for row in rows:
        req = ClusterTrainingRequest(shape=SHAPES[row["model"]], gpu=catalog.gpu(row["chip"]), chips=row["chips"],
                                     global_batch=row["global_batch"], seq_len=row["seq_len"],
                                     precision=row["precision"], lora=row["lora"], compute_efficiency=efficiency,
                                     step_overhead_s=overhead_s)
        est = estimate_cluster_training(req)
        lay = est.layout
        out.append(RowResult(round=row["round"], system=row["system"], benchmark=row["benchmark"], chip=row["chip"],
                             chips=row["chips"], split=row["split"], measured=row["tokens_per_s_per_chip"],
                             predicted=est.tokens_per_s_per_chip,
                             error=est.tokens_per_s_per_chip / row["tokens_per_s_per_chip"] - 1,
                             layout=f"TP{lay.tp} PP{lay.pp} CP{lay.cp} DP{lay.dp} {lay.recompute}"))
    return out


def series_key(r: RowResult) -> str:
    """Same round, submitter, cluster family (Eos and Eos-DFW are one), benchmark and chip."""
    submitter, name = r.system.split("/")[0], r.system.split("/")[-1]
    family = re.sub(r"^\d+x", "", name).split("_")[0].removesuffix("-dfw")
    return f"{r.round} {submitter}/{family} {r.benchmark} {r.chip}"


def series(results: list[RowResult]) -> list[SeriesResult]:
    groups: dict[str, list[RowResult]] = {}
    for r in results:
        groups.setdefault(series_key(r), []).append(r)
    out = []
    for key, rs in groups.items():
        if len({r.chips for r in rs}) < 2:
            continue
        small, large = min(rs, key=lambda r: r.chips), max(rs, key=lambda r: r.chips)
        measured = 1 - large.measured / small.measured
        predicted = 1 - large.predicted / small.predicted
        out.append(SeriesResult(key=key, split=small.split, chips=(small.chips, large.chips),
                                measured_drop=measured, predicted_drop=predicted,
                                gap_points=(predicted - measured) * 100))
    return out


def summary(results: list[RowResult], split: str) -> dict[str, float]:
    rows = [r for r in results if r.split == split]
    shapes = [s for s in series(results) if s.split == split]
    return {
        "rows": len(rows),
        "median_abs_error": statistics.median(abs(r.error) for r in rows),
        "series": len(shapes),
        "median_abs_shape_gap_points": statistics.median(abs(s.gap_points) for s in shapes) if shapes else 0.0,
        "max_abs_shape_gap_points": max((abs(s.gap_points) for s in shapes), default=0.0),
    }
