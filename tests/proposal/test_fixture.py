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
    est = tool_result(session, "estimate_memory")
    per_gpu = est["per_gpu"]
    assert sum(v for k, v in per_gpu.items() if k != "total_bytes") == per_gpu["total_bytes"]
    assert est["headroom_bytes"] == est["gpu_memory_bytes"] - per_gpu["total_bytes"]
    engine = est["engine"]
    assert engine["kv_cache_bytes"] == engine["kv_cache_tokens"] * est["kv_cache_bytes_per_token"]
    assert engine["budget_bytes"] == int(est["gpu_memory_bytes"] * est["request"]["gpu_memory_utilization"])
    pool = (
        engine["budget_bytes"]
        - est["per_gpu"]["weights_bytes"]
        - engine["activation_peak_bytes"]
        - engine["non_torch_bytes"]
        - engine["cudagraph_bytes"]
    )
    assert (
        0 <= pool - engine["kv_cache_bytes"] < 16 * est["kv_cache_bytes_per_token"]
    )  # rounded to 16-token blocks
    assert engine["max_concurrency"] == pytest.approx(
        engine["kv_cache_tokens"] / est["request"]["max_model_len"], abs=0.01
    )
    req = est["request"]
    load_kv = req["concurrency"] * (req["input_len"] + req["output_len"]) * est["kv_cache_bytes_per_token"]
    assert per_gpu["kv_cache_bytes"] == load_kv
    # Llama-3.1-70B: 80 layers × 2 (K and V) × 8 KV heads × 128 head_dim × 1 byte (fp8).
    assert est["kv_cache_bytes_per_token"] == 80 * 2 * 8 * 128


def test_options_match_the_catalogue_and_the_estimate(session: dict[str, Any], tool_result: Any) -> None:
    est = tool_result(session, "estimate_memory")
    rec = tool_result(session, "recommend")
    for option in rec["options"]:
        assert CATALOGUE[option["offer_id"]] == (option["name"], option["price_eur"])
        assert option["per_gpu_total_bytes"] == est["per_gpu"]["total_bytes"]
        headroom = (
            (option["gpu_memory_bytes"] - option["per_gpu_total_bytes"]) / option["gpu_memory_bytes"] * 100
        )
        assert option["headroom_pct"] == pytest.approx(headroom, abs=0.01)
        assert option["fits"] == (headroom >= 10)
    chosen = next(o for o in rec["options"] if o["offer_id"] == rec["recommended"]["offer_id"])
    perf = chosen["perf"]
    assert perf == {k: est["perf"][k] for k in ("ttft_ms", "tpot_ms", "output_tokens_per_s")} | {
        "max_concurrency_under_slo": perf["max_concurrency_under_slo"]
    }
    assert perf["output_tokens_per_s"] == pytest.approx(
        est["request"]["concurrency"] / perf["tpot_ms"] * 1000, abs=0.1
    )
    hourly = chosen["cost_basis"]["hourly_eur"]
    assert chosen["eur_per_million_tokens"] == pytest.approx(
        hourly / (perf["output_tokens_per_s"] * 3600) * 1e6, abs=0.01
    )
    assert chosen["tokens_per_s_per_eur"] == pytest.approx(
        perf["output_tokens_per_s"] / chosen["price_eur"], rel=1e-3
    )
    roof = est["perf"]["roofline"]
    assert roof["ridge_point_flops_per_byte"] == pytest.approx(
        roof["peak_flops_per_s"] / roof["memory_bandwidth_bytes_per_s"], abs=0.1
    )
    for point in roof["points"]:
        roofline = min(
            roof["peak_flops_per_s"], roof["memory_bandwidth_bytes_per_s"] * point["operational_intensity"]
        )
        assert point["attainable_flops_per_s"] == pytest.approx(roofline, rel=1e-3)


def test_benchmark_levels_are_coherent(session: dict[str, Any]) -> None:
    bench = session["benchmarks"][0]
    settings = bench["settings"]
    slo = bench["slo"]
    passing = []
    for level in bench["levels"]:
        for metric in ("ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"):
            stat = level[metric]
            assert stat["p50"] <= stat["p90"] <= stat["p99"], (level["concurrency"], metric)
        # E2E = TTFT + (tokens − 1) × TPOT for the mean request (DESIGN §6).
        e2e = level["ttft_ms"]["mean"] + (settings["output_len"] - 1) * level["tpot_ms"]["mean"]
        assert level["e2e_ms"]["mean"] == pytest.approx(e2e, rel=0.01)
        if level["ttft_ms"]["p99"] <= slo["ttft_ms"] and level["tpot_ms"]["p99"] <= slo["tpot_ms"]:
            passing.append(level["concurrency"])
        assert level["peak_gpu_memory_bytes"] <= 97_887 * 2**20  # never above the card (nvidia-smi total)
    assert max(passing) == bench["sla_max_concurrency"]
    level = next(lv for lv in bench["levels"] if lv["concurrency"] == 32)
    steady = 32 * settings["output_len"] / (level["e2e_ms"]["mean"] / 1000)
    assert level["output_tokens_per_s"] == pytest.approx(steady, rel=0.01)
    assert level["total_tokens_per_s"] == pytest.approx(
        level["output_tokens_per_s"]
        * (settings["input_len"] + settings["output_len"])
        / settings["output_len"],
        rel=0.01,
    )
