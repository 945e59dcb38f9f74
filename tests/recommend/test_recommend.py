"""Recommendation: the seed's 70 B example, VRAM never adds up, reasons, ranking, SLA, graphics, budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.estimate import EstimateRequest
from tools.model_loader import load_model
from tools.recommend import RecommendRequest, RecommendResult, recommend

SPEC_70B = load_model("llama-3.1-70b")


def run(**kw: object) -> RecommendResult:
    workload = kw.pop("workload", EstimateRequest(model="llama-3.1-70b", input_len=1024, output_len=256))
    return recommend(RecommendRequest(workload=workload, **kw), SPEC_70B)  # type: ignore[arg-type]


def test_seed_weight_figures() -> None:
    # seed 000: 70 B x 2 bytes = 140 GB, x 1 byte = 70 GB, 4 bits = 35 GB (decimal, before metadata)
    weights = {w.precision: w.weight_bytes / 1e9 for w in run(precisions=["fp8"]).weights}
    assert weights["16-bit"] == pytest.approx(141.1, abs=0.1)
    assert weights["8-bit"] == pytest.approx(70.6, abs=0.1)
    assert weights["4-bit"] == pytest.approx(35.3, abs=0.1)


def test_seed_example_each_workstation_offer() -> None:
    result = run(precisions=["bf16", "fp8", "awq"])
    verdict = {v.offer_id: v for v in result.offers}
    assert not verdict["ACD-006"].fits and "GB needed per GPU" in verdict["ACD-006"].summary
    assert not verdict["ACD-009"].fits  # even 4-bit (35 GB + metadata + KV) exceeds one 32 GB card
    assert "does not add up" in verdict["ACD-009"].summary
    assert verdict["ACD-014"].fits
    assert "fp8" in verdict["ACD-014"].summary and "not with bfloat16" in verdict["ACD-014"].summary
    by = {(o.offer_id, o.precision): o for o in result.options}
    assert by[("ACD-014", "bfloat16")].reasons[0].startswith("memory:")
    assert by[("ACD-014", "fp8")].fits and by[("ACD-014", "fp8")].headroom_pct > 10


def test_two_32gb_cards_are_not_a_64gb_card(tmp_path: Path) -> None:
    catalog = tmp_path / "dual.toml"
    catalog.write_text("""
[[offers]]
id = "DUAL-5090"
name = "two RTX 5090"
kind = "purchase"
platform = "ws-acd-009"
gpu = "rtx-5090"
gpu_counts = [2]
price_eur = {value = 26000, src = ["mine"]}

[[platforms]]
id = "ws-acd-009"
name = "two-slot Threadripper"
kind = "workstation"
gpu = "rtx-5090"
max_gpus = {value = 2, src = ["mine"]}
scaleup_domain = 1
cpu = {value = "Threadripper", src = ["mine"]}

[sources]
mine = "test catalogue"
""")
    # 64 GB of capacity in total, but an 8-bit 70 B needs ~74 GB; each card holds its own shard only
    result = run(precisions=["fp8"], catalog=catalog)
    dual = [o for o in result.options if o.offer_id == "DUAL-5090"]
    assert dual and not any(o.fits for o in dual)
    option = dual[0]
    assert option.num_gpus == 2 and option.tensor_parallel_size * option.pipeline_parallel_size == 2
    assert option.per_gpu_total_bytes is not None and option.per_gpu_total_bytes > 30e9
    assert "does not add up" in option.reasons[0]
    # with TP=2 a 4-bit 70 B (~41 GB) does fit on two 32 GB cards: a compatible strategy, named
    four_bit = next(o for o in run(precisions=["awq"], catalog=catalog).options if o.offer_id == "DUAL-5090")
    assert four_bit.fits and four_bit.tensor_parallel_size * four_bit.pipeline_parallel_size == 2
    assert any("peer-to-peer" in n for n in four_bit.notes)


def test_fitting_options_first_and_ranked_by_cost() -> None:
    result = run(precisions=["fp8"])
    fits = [o.fits for o in result.options]
    assert fits == sorted(fits, reverse=True)
    priced = [o.eur_per_million_tokens for o in result.options if o.fits and o.eur_per_million_tokens is not None]
    assert priced == sorted(priced, key=lambda c: float(f"{c:.3g}"))
    assert result.recommended == result.options[0].offer_id


def test_sla_impossible_even_at_one_is_reported_with_best_numbers() -> None:
    result = run(precisions=["fp8"], slo_tpot_ms=1.0)
    assert result.recommended is None and "no option fits" in result.recommended_reason
    option = next(o for o in result.options if o.offer_id == "ACD-014")
    assert any("impossible even at concurrency 1" in r and "best: TTFT" in r for r in option.reasons)


def test_sla_search_sets_max_concurrency_and_cost() -> None:
    result = run(precisions=["fp8"], slo_ttft_ms=2000, slo_tpot_ms=100)
    option = next(o for o in result.options if o.offer_id == "ACD-014")
    assert option.fits and option.perf.max_concurrency_under_slo and option.perf.max_concurrency_under_slo >= 1
    assert option.eur_per_million_tokens and option.eur_per_million_tokens > 0
    assert option.tokens_per_eur == pytest.approx(1e6 / option.eur_per_million_tokens)


def test_graphics_rejects_datacentre_gpus_and_budget_rejects_price() -> None:
    workload = EstimateRequest(model="llama-3.1-70b", quantization="awq", input_len=512, output_len=128)
    result = run(workload=workload, needs_graphics=True, budget_eur=30000)
    by = {o.offer_id: o for o in result.options}
    assert any(r.startswith("graphics:") and "vGPU" in r for r in by["CLOUD-RTXPRO6000-SE"].reasons)
    assert any(r.startswith("graphics:") for r in by["CLOUD-H100-SXM"].reasons)
    assert any(r.startswith("budget:") for r in by["ACD-014"].reasons)
    assert not any(r.startswith("graphics:") for r in by["ACD-014"].reasons)  # RTX PRO: certified drivers


def test_training_mode_costs_a_run() -> None:
    workload = EstimateRequest(model="llama-3.1-8b", mode="training", method="lora", batch_size=4, seq_len=2048,
                               gradient_checkpointing="full")
    result = recommend(RecommendRequest(workload=workload, train_tokens=10**9), load_model("llama-3.1-8b"))
    option = next(o for o in result.options if o.offer_id == "ACD-014")
    assert option.fits and option.perf.training_tokens_per_s and option.perf.goodput
    assert option.cost_per_training_run_eur == pytest.approx(option.eur_per_million_tokens * 1000)


def test_vllm_engine_profile_decides_the_fit() -> None:
    workload = EstimateRequest(model="llama-3.1-70b", engine="vllm", quantization="fp8", max_model_len=8192,
                               input_len=1024, output_len=256)
    result = run(workload=workload)
    by = {o.offer_id: o for o in result.options}
    assert by["ACD-014"].fits  # 96 GB x 0.9 leaves a KV pool for 8k-token requests
    assert any("KV pool holds" in r for r in by["ACD-009"].reasons)
    assert by["ACD-014"].perf.max_concurrency_memory and by["ACD-014"].perf.max_concurrency_memory >= 1


def test_offer_filter_and_unknown_offer() -> None:
    from tools.errors import InputError

    result = run(precisions=["fp8"], offer_ids=["ACD-014", "ACD-009"])
    assert {o.offer_id for o in result.options} == {"ACD-014", "ACD-009"}
    with pytest.raises(InputError, match="unknown offer id"):
        run(offer_ids=["NOPE"])
