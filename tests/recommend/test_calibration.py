"""Issue #13 item 4: calibration you can reproduce, and serving accuracy on rows the fit never saw.

The shipped efficiencies (tools/perf/data/serving_efficiencies.json) must be exactly what
`python -m sizer_agent.tools.perf.calibrate --write` produces from the committed rows; the split is the stated
hash rule; the held-out rows (validation: hash-odd rows; fresh: columns transcribed before the model ever ran
on them) are scored apart from the calibration rows. The issue's accuracy target (12 % median, 60 % max on
output tokens/s, overall, Blackwell FP4 and MoE apart) is checked as it stands; where it is not met the test is
an expected failure that says by how much, so the gap stays visible.
"""

from __future__ import annotations

import inspect
import itertools
import json

import pytest

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.perf import Efficiencies, ModelShape, ServingSetup, predict_load
from sizer_agent.tools.perf.calibrate import calibrate, input_digest, render
from sizer_agent.tools.perf.calibrate import main as calibrate_main
from sizer_agent.tools.perf.efficiency import CALIBRATED_PATH, DEFAULT_EFFICIENCIES, generation, resolve
from sizer_agent.tools.perf.serving import (
    grouped_gemm_efficiency,
    prefill_time_s,
    routing_bytes,
    step_cost,
    tokens_per_expert,
)
from sizer_agent.tools.perf.validation import (
    FRESH2_PATH,
    FRESH3_PATH,
    FRESH_PATH,
    REPORT_GROUPS,
    SEEN_SPLITS,
    all_rows,
    fresh3_excluded,
    hash_split,
    report,
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
    fresh3_all = {r["id"] for key, part in json.loads(FRESH3_PATH.read_text()).items() if isinstance(part, list)
                  for r in part}
    seen = [r for r in rows if r["id"] not in fresh | fresh3_all]
    assert SHIPPED["calibration_ids"] == sorted(r["id"] for r in seen if hash_split(r["id"]) == "calibration")
    assert SHIPPED["validation_ids"] == sorted(r["id"] for r in seen if hash_split(r["id"]) == "validation")
    assert set(SHIPPED["fresh_ids"]) | fresh2_ids == fresh
    # fresh3: the same hash rule, fixed before any of its rows was scored; every row in one half or excluded
    excluded = {e["id"] for e in SHIPPED["fresh3_excluded"]}
    assert len(fresh3_all) == 726
    assert excluded | set(SHIPPED["calibration3_ids"]) | set(SHIPPED["fresh3_ids"]) == fresh3_all
    assert not excluded & (set(SHIPPED["calibration3_ids"]) | set(SHIPPED["fresh3_ids"]))
    assert all(hash_split(i) == "calibration" for i in SHIPPED["calibration3_ids"])
    assert all(hash_split(i) == "validation" for i in SHIPPED["fresh3_ids"])
    fitted = {i for entry in SHIPPED["sets"].values() for i in entry["rows"]}
    assert fitted <= set(SHIPPED["calibration_ids"]) | set(SHIPPED["calibration3_ids"])
    assert not fitted & (fresh | fresh3_all - set(SHIPPED["calibration3_ids"]) | set(SHIPPED["validation_ids"]))


def test_fresh3_rows_the_model_cannot_price_are_excluded_with_their_reason() -> None:
    excluded = fresh3_excluded()
    reasons = {e["id"]: e["reason"] for e in excluded}
    data = json.loads(FRESH3_PATH.read_text())
    # open-loop request-rate rows publish no concurrency (README: "Do not default it to 1")
    assert all("concurrency not published" in reasons[r["id"]] for r in data["rate_latency"])
    # attention data parallel + expert parallel (DEPn) is not a layout the model has
    dep = [r for r in data["throughput_per_gpu"] if r.get("attention_dp")]
    assert dep and all("attention data parallel" in reasons[r["id"]] for r in dep)
    assert len(excluded) == len(data["rate_latency"]) + len(dep)  # the rest are all priced
    assert SHIPPED["fresh3_excluded"] == excluded


def test_the_report_leaves_fresh3_out_unless_the_lead_asks_once() -> None:
    # fresh3's odd half is the next unseen measure: --report must not score it, and the flag that does is
    # refused on its own (exit 2), so nobody reads those scores by accident while building the model
    assert "fresh3" not in SEEN_SPLITS
    assert inspect.signature(report).parameters["splits"].default == SEEN_SPLITS
    with pytest.raises(SystemExit) as refused:
        calibrate_main(["--score-fresh3-once"])
    assert refused.value.code == 2


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


def test_routed_expert_efficiency_rises_with_tokens_per_expert() -> None:
    # A grouped GEMM pads each expert's rows to its M tile (64-128 rows: vLLM fused_moe moe_align_block_size,
    # CUTLASS / DeepGEMM grouped GEMMs), so what decides its efficiency is the rows each expert gets per step.
    qwen = ModelShape.from_spec(load_model("Qwen/Qwen3-30B-A3B"))
    eff = resolve(DEFAULT_EFFICIENCIES, load_catalog().gpu("h100-sxm").architecture, "fp8")
    # uniform routing, top-8 of 128 experts: one token is 1 row in each of its 8 experts; 8192 tokens 512 rows each
    assert tokens_per_expert(qwen, 1.0) == pytest.approx(1.0)
    assert tokens_per_expert(qwen, 8192.0) == pytest.approx(512.0, rel=1e-3)
    steps = [1.0, 16.0, 128.0, 1024.0, 8192.0, 65536.0]
    effs = [grouped_gemm_efficiency(qwen, eff, t) for t in steps]
    assert all(a < b for a, b in itertools.pairwise(effs)), effs
    assert effs[0] < 0.1  # one useful row in a 64-128-row tile
    # DeepGEMM's FP8 grouped GEMM (H800) runs at 0.72-0.83 of its large-M rate at 256-512 rows per expert
    assert effs[4] > 0.6, effs


def _h100_fp8(shape: ModelShape) -> ServingSetup:
    kv = 2 * shape.num_layers * shape.num_kv_heads * shape.head_dim  # fp8 KV cache, one byte per value
    return ServingSetup(gpu=load_catalog().gpu("h100-sxm"), shape=shape, weight_bytes_total=shape.params_total,
                        kv_bytes_per_token=kv, kv_capacity_tokens=10**6, compute_precision="fp8")


def test_routing_bytes_are_the_permute_activation_and_finalize_traffic_of_each_routed_row() -> None:
    # Counted by hand from the MoE kernels between the expert GEMMs (TensorRT-LLM moe_kernels.cu expandInputRows /
    # doActivation / finalizeMoeRouting), 16-bit activations, Qwen3-30B-A3B (hidden 2048, expert width 768,
    # top-8 of 128, 48 MoE layers): per routed row 2 x (2 x 2048 x (1 + 1/8) + 3 x 768) = 13,824 bytes, 8 rows,
    # plus 8 x 128 bytes of router logits: 111,616 bytes per token and layer, 5,357,568 per token.
    qwen = ModelShape.from_spec(load_model("Qwen/Qwen3-30B-A3B"))
    one = _h100_fp8(qwen)
    assert routing_bytes(one, 1.0) == pytest.approx(5_357_568)
    assert routing_bytes(one, 1000.0) == pytest.approx(1000 * 5_357_568)
    # over 2 GPUs each holds half the experts and moves half the routed rows; the router's logits stay whole
    two = one.model_copy(update={"tp": 2})
    assert routing_bytes(two, 1.0) == pytest.approx(48 * (8 * 13_824 / 2 + 8 * 128))
    dense = qwen.model_copy(update={"params_total": qwen.params_active, "expert_params": 0, "num_experts": 0,
                                    "experts_per_token": 0, "expert_intermediate_size": 0})
    assert routing_bytes(_h100_fp8(dense), 1000.0) == 0.0
    # they run between the GEMMs, so they lengthen a step rather than hide under its compute
    eff = resolve(DEFAULT_EFFICIENCIES, one.gpu.architecture, "fp8")
    free = one.model_copy(update={"efficiencies": eff.model_copy(update={"moe_routing_traffic": 0.0})})
    priced = one.model_copy(update={"efficiencies": eff})
    gap = step_cost(priced, 0.0, 0.0, 4096.0, 4096.0).time_s - step_cost(free, 0.0, 0.0, 4096.0, 4096.0).time_s
    expected = eff.moe_routing_traffic * routing_bytes(one, 4096.0) / (one.gpu.bandwidth_bytes_s * eff.bandwidth)
    assert gap == pytest.approx(expected)


# TensorRT-LLM v0.9.0 performance.md, H100 FP8, batch 1, 2048-token prompt (rows fresh2-c1-h100-sxm-*-2048 of
# tools/perf/data/fresh2_heldout_cases.json): Mixtral 8x7B TP2 TTFT 89.5 ms (12.9 B active, 6.45 B per GPU), Mistral
# 7B TP1 32.4 ms (7.25 B): per active parameter per GPU the MoE prefill took 3.1x the dense one, at 2048 x 2 / 8 =
# 512 rows per expert -- the rows Qwen3-30B-A3B's experts get from an 8192-token prompt (8192 x 8 / 128).
def _qwen3_prefill_ratio_on_h100_fp8() -> float:
    moe = ModelShape.from_spec(load_model("Qwen/Qwen3-30B-A3B"))
    dense = moe.model_copy(update={"params_total": moe.params_active, "expert_params": 0, "num_experts": 0,
                                   "experts_per_token": 0, "expert_intermediate_size": 0})
    return prefill_time_s(_h100_fp8(moe), 8192).time_s / prefill_time_s(_h100_fp8(dense), 8192).time_s


def test_long_prompt_prefill_of_qwen3_30b_a3b_is_within_4x_of_its_dense_equivalent_on_h100_fp8() -> None:
    # Bound set from the published measurement above before the model was run: 4x leaves ~30 % over Mixtral's
    # 3.1x for Qwen3's smaller expert matrices. And never faster than dense: the same FLOPs, a grouped GEMM at
    # most as efficient, plus the routing kernels.
    moe = ModelShape.from_spec(load_model("Qwen/Qwen3-30B-A3B"))
    ratio = _qwen3_prefill_ratio_on_h100_fp8()
    assert 1.0 <= ratio <= 4.0, ratio
    # decode of 20 sequences (under 2 rows per expert) stays memory-bound: the padded rows cost less than the reads
    assert step_cost(_h100_fp8(moe), 20.0, 2500.0, 0.0, 2000.0).bound == "memory"


@pytest.mark.xfail(strict=True, reason="2026-12-02, routing cost fitted on calibration + calibration3: the ratio "
                   "is 1.84x (2.13x with an fp8 attention, 2.50x at a 2048-token prompt; Mixtral TP2 / Mistral at "
                   "2048 tokens per active parameter per GPU: 1.71x, published 3.1x). The fitted routing traffic "
                   "(4.77x the counted bytes) is the calibration MoE rows' optimum; at 8192 tokens attention, "
                   "priced alike for both, is ~40 % of the dense prefill")
def test_long_prompt_prefill_of_qwen3_30b_a3b_costs_at_least_2x_its_dense_equivalent_on_h100_fp8() -> None:
    # Lower bound from the same 3.1x Mixtral measurement, with a third left for Qwen3's attention share and
    # routing differences: a MoE prefill at ~500 rows per expert is not priced like a dense one.
    assert _qwen3_prefill_ratio_on_h100_fp8() >= 2.0


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


@pytest.mark.xfail(strict=True, reason="seen (the rows-per-expert form and the routing cost of 2026-12-02 were "
                   "built after these rows were scored). With the routing cost and the B200/GB200 step-cost bound, "
                   "fitted on calibration + calibration3: fresh (TensorRT-LLM 1.0 table) 18.3 % median, 106 % max "
                   "overall; Blackwell FP4 14.8 % / 106 %; MoE 22.8 % / 106 % (Qwen3-30B-A3B on GB200 128/128 "
                   "+106 %; Llama 4 Scout +81-85 % on H100 TP4). fresh2 (TensorRT-LLM 0.9 static batches): 23.8 % / "
                   "95 % overall, MoE (Mixtral) 34.5 % / 82 %")
@pytest.mark.parametrize(("split", "group"), [("fresh", "all"), ("fresh", "Blackwell FP4 (B200/GB200)"),
                                              ("fresh", "MoE"), ("fresh2", "all"), ("fresh2", "MoE")])
def test_fresh_rows_meet_the_issue_target(split: str, group: str) -> None:
    _, median, worst = _throughput(split, group)
    assert median <= TARGET_MEDIAN and worst <= TARGET_MAX, (median, worst)


# Met since the routing-cost refit of 2026-12-02 (14.9 % median, 152 % max over 31 points; every one "seen"):
# the fit weighs each metric kind alike, so the few latency rows, not the hundreds of throughput rows, set the
# fixed step cost. All at concurrency 1 (no published high-concurrency TTFT held out); TPOT has 1 held-out point.
def test_held_out_ttft_within_20_percent_median() -> None:
    count, median, _ = _errors(("validation", "fresh2"), "all", ("ttft_ms",))
    assert count >= 30
    assert median <= 0.20, median


def _single_user_tpot_ms(model: str, tp: int, quantization: str = "nvfp4") -> float:
    # the published rows' own set-up path (validation._setup): B200, FP4 weights, fp8 KV cache, 1000/1000 tokens
    from sizer_agent.tools.perf.validation import _setup

    case = {"model": model, "gpu": "b200", "quantization": quantization, "kv_cache_dtype": "fp8", "isl": 1000,
            "osl": 1000, "tp": tp, "pp": 1}
    return predict_load(_setup(case, DEFAULT_EFFICIENCIES), 1000, 1000, 1).tpot_ms


# SemiAnalysis InferenceX, "Llama 3.3 70B · B200 · FP4 vs FP8" (inferencex.semianalysis.com/compare-precision/
# llama-3-3-70b-b200-fp4-vs-fp8, read 2026-12-02), 1k/1k: FP4 serves 139 tok/s/user at concurrency ~16 with
# 1,032 tok/s/GPU, i.e. ~2 GPUs and a TPOT of 1000 / 139 = 7.2 ms. One user on four such GPUs reads a quarter
# of the weights per GPU and 1/16 of the KV cache: its step is no slower. Bound set before the model was run.
B200_FP4_LLAMA70B_TPOT_BOUND_MS = 1000.0 / 139.0


def test_b200_fp4_single_user_tpot_of_llama_3_3_70b_on_tp4_is_under_the_published_one() -> None:
    tpot = _single_user_tpot_ms("meta-llama/Llama-3.3-70B-Instruct", 4)
    assert 0.5 < tpot <= B200_FP4_LLAMA70B_TPOT_BOUND_MS, tpot
