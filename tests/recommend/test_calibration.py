"""Issue #13 item 4: calibration you can reproduce, and serving accuracy on rows the fit never saw.

The shipped efficiencies (tools/perf/data/serving_efficiencies.json) must be exactly what
`python -m sizer_agent.tools.perf.calibrate --write` produces from the committed rows; the split is the stated
hash rule; the held-out rows (validation: hash-odd rows; fresh: columns transcribed before the model ever ran
on them) are scored apart from the calibration rows. The issue's accuracy target (12 % median, 60 % max on
output tokens/s, overall, Blackwell FP4 and MoE apart) is checked as it stands; where it is not met the test is
an expected failure that says by how much, so the gap stays visible.
"""

from __future__ import annotations

import json

import pytest

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.perf import Efficiencies, ModelShape, ServingSetup, predict_load
from sizer_agent.tools.perf.calibrate import calibrate, input_digest, render
from sizer_agent.tools.perf.efficiency import CALIBRATED_PATH, DEFAULT_EFFICIENCIES, generation, resolve
from sizer_agent.tools.perf.serving import step_cost
from sizer_agent.tools.perf.validation import (
    FRESH2_PATH,
    FRESH_PATH,
    REPORT_GROUPS,
    all_rows,
    hash_split,
    rows_of,
    score_row,
    summarise,
)

SHIPPED = json.loads(CALIBRATED_PATH.read_text())
# Issue #13 done-when: at least as accurate as AIConfigurator 0.12 on unseen rows.
TARGET_MEDIAN, TARGET_MAX = 0.12, 0.60
# The project's held-out bound before issue #13 (tests/recommend/test_perf_validation.py), kept as the floor.
FLOOR_MEDIAN = 0.25


def test_shipped_constants_are_the_calibration_scripts_output() -> None:
    assert SHIPPED["inputs_sha256"] == input_digest(), "rows or calibrate.py changed: rerun calibrate --write"
    assert render(calibrate()) == CALIBRATED_PATH.read_text()


def test_split_is_the_stated_rule_and_fresh_rows_never_reach_the_fit() -> None:
    rows = all_rows()
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids))
    fresh = {r["id"] for r in json.loads(FRESH_PATH.read_text())["throughput"]}
    fresh2 = json.loads(FRESH2_PATH.read_text())
    fresh2_ids = {r["id"] for r in fresh2["static"] + fresh2["latency"]}
    assert set(SHIPPED["fresh2_ids"]) == fresh2_ids
    fresh |= fresh2_ids
    seen = [r for r in rows if r["id"] not in fresh]
    assert SHIPPED["calibration_ids"] == sorted(r["id"] for r in seen if hash_split(r["id"]) == "calibration")
    assert SHIPPED["validation_ids"] == sorted(r["id"] for r in seen if hash_split(r["id"]) == "validation")
    assert set(SHIPPED["fresh_ids"]) | fresh2_ids == fresh
    fitted = {i for entry in SHIPPED["sets"].values() for i in entry["rows"]}
    assert fitted <= set(SHIPPED["calibration_ids"])
    assert not fitted & (fresh | set(SHIPPED["validation_ids"]))


def test_generation_families_and_fallbacks() -> None:
    catalog = load_catalog()
    assert generation(catalog.gpu("h100-sxm").architecture) == "hopper"
    assert generation(catalog.gpu("b200").architecture) == "blackwell"
    assert generation(catalog.gpu("gb200").architecture) == "blackwell"  # "B200 in GB200": data-centre part
    assert generation(catalog.gpu("rtx-pro-6000-server").architecture) == "blackwell-gb20x"
    hopper = resolve(DEFAULT_EFFICIENCIES, catalog.gpu("h200-sxm").architecture, "fp8")
    fp4 = resolve(DEFAULT_EFFICIENCIES, catalog.gpu("b200").architecture, "fp4")
    assert hopper.compute == SHIPPED["sets"]["hopper/fp8"]["constants"]["compute"]
    assert fp4.compute == SHIPPED["sets"]["blackwell/fp4"]["constants"]["compute"]
    # no published rows for MI300X bf16: the set fitted on the whole calibration split
    mi300x = resolve(DEFAULT_EFFICIENCIES, catalog.gpu("mi300x").architecture, "bf16")
    assert mi300x.bandwidth == SHIPPED["sets"]["default"]["constants"]["bandwidth"]
    hand = Efficiencies(bandwidth=0.5, compute=0.5)
    assert resolve(hand, catalog.gpu("h100-sxm").architecture, "fp8") is hand  # a caller's own set is kept


def _moe_setup(expert_intermediate: int) -> ServingSetup:
    # 64 experts, top-2, hidden 4096; the routed experts' parameters fixed so FLOPs and bytes are equal
    shape = ModelShape(name="toy-moe", params_total=40 * 10**9, params_active=4 * 10**9, num_layers=32,
                       hidden_size=4096, num_attention_heads=32, num_kv_heads=8, head_dim=128,
                       expert_params=36 * 10**9, num_experts=64, experts_per_token=2,
                       expert_intermediate_size=expert_intermediate)
    return ServingSetup(gpu=load_catalog().gpu("h100-sxm"), shape=shape, weight_bytes_total=40 * 10**9,
                        kv_bytes_per_token=131_072, kv_capacity_tokens=10**6, compute_precision="fp8")


def test_grouped_gemm_of_small_experts_costs_more_than_of_large_ones() -> None:
    # Same FLOPs per token; many small expert matrices fill the GPU worse than fewer large ones (MegaBlocks).
    small = step_cost(_moe_setup(768), 0.0, 0.0, 8192.0, 8192.0)
    large = step_cost(_moe_setup(14336), 0.0, 0.0, 8192.0, 8192.0)
    assert small.flops == pytest.approx(large.flops)
    assert small.compute_s > 1.5 * large.compute_s


def test_mean_ttft_includes_the_queue_when_clients_outnumber_the_batch() -> None:
    # Closed loop, C clients, B running slots, each request served in T: Little's law gives a cycle of C T / B
    # per client, so a request first waits (C / B - 1) T before it is admitted.
    s = _moe_setup(14336).model_copy(update={"max_batch": 64})
    within = predict_load(s, 1000, 1000, 64)
    over = predict_load(s, 1000, 1000, 256)
    assert within.running_batch == over.running_batch == 64
    served_s = within.e2e_ms / 1e3
    assert over.ttft_mean_ms / 1e3 >= 0.9 * (256 / 64 - 1) * served_s
    assert within.ttft_mean_ms < 0.2 * served_s * 1e3


THROUGHPUT = ("total_output_tokens_per_s", "output_tokens_per_s_per_gpu")


def _errors(splits: tuple[str, ...], group: str, metrics: tuple[str, ...]) -> tuple[int, float, float]:
    member = REPORT_GROUPS[group]
    results = [c for split in splits for r in rows_of(split) if member(r)  # type: ignore[arg-type]
               for c in score_row(r) if c.metric in metrics]
    s = summarise(group, results)
    return s.count, s.median_abs_error, s.max_abs_error


def _throughput(split: str, group: str) -> tuple[int, float, float]:
    return _errors((split,), group, THROUGHPUT)


@pytest.mark.parametrize("split", ["calibration", "validation", "fresh", "fresh2"])
def test_median_error_stays_under_the_projects_held_out_floor(split: str) -> None:
    count, median, _ = _throughput(split, "all")
    assert count >= 48
    assert median < FLOOR_MEDIAN, median


@pytest.mark.xfail(strict=True, reason="scored once after the fit (2026-12-01). fresh (TensorRT-LLM 1.0 table): "
                   "22.5 % median, 99 % max overall; Blackwell FP4 24.8 % / 99 %; MoE 27.0 % / 99 % (Llama 4 Scout "
                   "over-predicted +23 % median, Qwen3-30B on RTX PRO 6000 under-predicted up to -60 %). fresh2 "
                   "(TensorRT-LLM 0.9 static batches): 22.1 % / 124 % overall, MoE (Mixtral) 38.4 % / 124 %")
@pytest.mark.parametrize(("split", "group"), [("fresh", "all"), ("fresh", "Blackwell FP4 (B200/GB200)"),
                                              ("fresh", "MoE"), ("fresh2", "all"), ("fresh2", "MoE")])
def test_fresh_rows_meet_the_issue_target(split: str, group: str) -> None:
    _, median, worst = _throughput(split, group)
    assert median <= TARGET_MEDIAN and worst <= TARGET_MAX, (median, worst)


@pytest.mark.xfail(strict=True, reason="held-out TTFT (validation + fresh2, 31 points, all at concurrency 1: no "
                   "published high-concurrency TTFT in the set): 21.6 % median, 64 % max; TPOT has 1 held-out point")
def test_held_out_ttft_within_20_percent_median() -> None:
    count, median, _ = _errors(("validation", "fresh2"), "all", ("ttft_ms",))
    assert count >= 30
    assert median <= 0.20, median
