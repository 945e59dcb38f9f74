"""The fixed session is hand-set input: these checks keep its numbers consistent with each other.

They guard later edits of the fixture (a changed term without a changed total, a price that is not the
catalogue's), so that the golden files never bless an impossible session.
"""

from __future__ import annotations

from typing import Any

import pytest

# Seed document 002, "Configurations du catalogue pour lancer la discussion".
CATALOGUE = {
    "ACD-006": ("Pro", 7160),
    "ACD-009": ("Advanced Pro", 22670),
    "ACD-014": ("Enterprise Max", 55480),
}


def test_memory_adds_up(session: dict[str, Any], tool_result: Any) -> None:
    """vLLM accounting as tools.estimate does it: the KV pool is what the budget leaves after weights,
    activation peak and non-torch memory; CUDA graphs and the CUDA context sit outside the budget."""
    est = tool_result(session, "estimate_memory")
    per_gpu, engine, req = est["per_gpu"], est["engine"], est["request"]
    assert sum(v for k, v in per_gpu.items() if k != "total_bytes") == per_gpu["total_bytes"]
    assert per_gpu["total_bytes"] == engine["total_used_bytes"]
    assert est["headroom_bytes"] == est["gpu_memory_bytes"] - per_gpu["total_bytes"]
    assert engine["kv_cache_bytes"] == engine["kv_cache_tokens"] * est["kv_cache_bytes_per_token"]
    assert engine["budget_bytes"] == int(est["gpu_memory_bytes"] * req["gpu_memory_utilization"])
    pool = (
        engine["budget_bytes"] - per_gpu["weights_bytes"] - engine["activation_peak_bytes"] - engine["non_torch_bytes"]
    )
    assert 0 <= pool - engine["kv_cache_bytes"] < engine["block_size"] * est["kv_cache_bytes_per_token"]
    assert (
        per_gpu["runtime_bytes"] == engine["non_torch_bytes"] + engine["cudagraph_bytes"] + engine["cuda_context_bytes"]
    )
    assert engine["max_concurrency"] == pytest.approx(engine["kv_cache_tokens"] / req["max_model_len"], abs=0.01)
    # The stated load fits in the pool: 32 requests of 2 048 + 512 tokens.
    assert req["concurrency"] * (req["input_len"] + req["output_len"]) <= engine["kv_cache_tokens"]
    # Llama-3.1-70B: 80 layers × 2 (K and V) × 8 KV heads × 128 head_dim × 1 byte (fp8).
    assert est["kv_cache_bytes_per_token"] == 80 * 2 * 8 * 128
    assert est["gpu_memory_bytes"] == 97_887 * 2**20  # nvidia-smi total of the RTX PRO 6000


def test_options_match_the_catalogue_and_the_estimate(session: dict[str, Any], tool_result: Any) -> None:
    est = tool_result(session, "estimate_memory")
    rec = tool_result(session, "recommend")
    assert {v["offer_id"] for v in rec["offers"]} == set(CATALOGUE)
    for option in rec["options"]:
        assert CATALOGUE[option["offer_id"]] == (option["name"], option["price_eur"])
        headroom = (option["gpu_memory_bytes"] - option["per_gpu_total_bytes"]) / option["gpu_memory_bytes"] * 100
        assert option["headroom_pct"] == pytest.approx(headroom, abs=0.1)
        assert option["fits"] == (option["reasons"] == [])
        # owned hardware: price over 3 years of 8 760 h + energy at 0.2 EUR/kWh (the tool's assumptions)
        hourly = option["price_eur"] / (3 * 8760) + option["power_w"] / 1000 * 0.2
        assert option["hourly_eur"] == pytest.approx(hourly, rel=1e-6)
    chosen = next(o for o in rec["options"] if o["offer_id"] == rec["recommended"])
    assert chosen["per_gpu_total_bytes"] == est["per_gpu"]["total_bytes"]
    perf = chosen["perf"]
    for key in ("ttft_ms", "tpot_ms", "output_tokens_per_s"):
        assert perf[key] == est["perf"][key]
    # output tokens/s = concurrency × output length / mean E2E, E2E = mean TTFT + (length − 1) × TPOT
    e2e = est["perf"]["ttft_mean_ms"] + 511 * perf["tpot_ms"]
    assert est["perf"]["e2e_ms"] == e2e
    assert perf["output_tokens_per_s"] == pytest.approx(32 * 512 / (e2e / 1000), abs=0.1)
    assert perf["max_concurrency_under_slo"] <= perf["max_concurrency_memory"] == 34
    million = chosen["hourly_eur"] / (perf["sustained_output_tokens_per_s"] * 3600) * 1e6
    assert chosen["eur_per_million_tokens"] == pytest.approx(million, rel=1e-9)
    assert chosen["tokens_per_eur"] == pytest.approx(1e6 / million, rel=1e-9)
    for point in est["perf"]["roofline"]:
        peak, ridge = 1.0076e15, point["ridge_point"]
        assert ridge == pytest.approx(peak / 1.792e12)
        assert point["operational_intensity"] == pytest.approx(point["flops"] / point["bytes"])
        assert point["attainable_flops"] == pytest.approx(min(peak, point["operational_intensity"] * 1.792e12))


def test_benchmark_levels_are_coherent(session: dict[str, Any]) -> None:
    bench = session["benchmarks"][0]
    settings = bench["settings"]
    out_len, in_len = settings["output_len"]["low"], settings["input_len"]["low"]
    for level in bench["levels"]:
        for metric in ("ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"):
            stat = level[metric]
            assert stat["p50"] <= stat["p90"] <= stat["p99"] <= stat["max"], (level["concurrency"], metric)
        # E2E = TTFT + (tokens − 1) × TPOT for the mean request (DESIGN §6).
        assert level["e2e_ms"]["mean"] == pytest.approx(
            level["ttft_ms"]["mean"] + (out_len - 1) * level["tpot_ms"]["mean"], rel=1e-3
        )
        passed = (
            level["ttft_ms"]["p99"] <= settings["slo_ttft_ms"] and level["tpot_ms"]["p99"] <= settings["slo_tpot_ms"]
        )
        assert level["sla_passed"] == passed
        assert level["output_tokens"] == level["requests_completed"] * out_len
        assert level["output_tokens_per_s"] == pytest.approx(level["output_tokens"] / level["window_s"], rel=1e-3)
        assert level["total_tokens_per_s"] == pytest.approx(
            level["output_tokens_per_s"] * (in_len + out_len) / out_len, rel=1e-3
        )
        assert level["peak_gpu_memory_bytes"] <= bench["hardware"]["gpus"][0]["memory_total_bytes"]
        assert not level["client_lagged"]
