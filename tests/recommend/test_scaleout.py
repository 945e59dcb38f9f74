"""Issue #13 item 3: the scale-out model (fabric, collectives, multi-node training and serving, size-cluster).

Expectations come from the fabric's published rates and from published training runs, not from the tool.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.cluster import ClusterRequest, size_cluster
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.perf.cluster_serving import ServingLayout, estimate_layout
from sizer_agent.tools.perf.cluster_training import (
    FITTED_COMPUTE_EFFICIENCY,
    FITTED_STEP_OVERHEAD_S,
    ClusterTrainingRequest,
    TrainShape,
    estimate_cluster_training,
    scaling_curve,
)
from sizer_agent.tools.perf.collectives import fabric_collective_time_s
from sizer_agent.tools.perf.fabric import fabric_for
from sizer_agent.tools.perf.scaleout_validation import DATA, SHAPES, load_rows, predict_rows, series, summary
from sizer_agent.tools.quantization import weight_format

ROOT = Path(__file__).resolve().parents[2]
CATALOG = load_catalog()


def test_fabrics_are_the_published_ones() -> None:
    # GB300 NVL72: 72 GPUs on one NVLink switch domain, one ConnectX-8 800 Gb/s per GPU; HGX B300: 8 GPUs per
    # NVSwitch node, ConnectX-8 800 Gb/s per GPU; DGX H100: 8 GPUs, ConnectX-7 400 Gb/s per GPU
    rack, node, hopper = (fabric_for(CATALOG.gpu(g)) for g in ("gb300", "b300", "h100-sxm"))
    assert (rack.domain, rack.nic_uni_bytes_s) == (72, 100e9)
    assert (node.domain, node.nic_uni_bytes_s) == (8, 100e9)
    assert (hopper.domain, hopper.nic_uni_bytes_s, hopper.scaleup_uni_bytes_s) == (8, 50e9, 450e9)


def test_collectives_follow_the_nccl_tests_bus_bandwidth_factors() -> None:
    fabric = fabric_for(CATALOG.gpu("h100-sxm"))
    big = 8e9  # large enough for latency to vanish
    all_reduce = fabric_collective_time_s(fabric, "all_reduce", 8, big)
    all_gather = fabric_collective_time_s(fabric, "all_gather", 8, big)
    assert all_reduce / all_gather == pytest.approx(2.0, rel=0.01)  # 2(n-1)/n against (n-1)/n
    # inside the node: 8 GB x 2 x 7/8 over 450 GB/s x 0.8 busbw ~= 39 ms
    assert all_reduce == pytest.approx(8e9 * 2 * 7 / 8 / (450e9 * 0.8), rel=0.01)


def test_a_group_across_nodes_is_priced_at_its_nics_and_inside_nvl72_at_nvlink() -> None:
    # a data-parallel group of 16 ranks, one per HGX H100 node: each rank's traffic leaves by its own 400 Gb/s
    # NIC (50 GB/s); the same 16 GPUs inside one NVL72 rack talk at NVLink 5's 900 GB/s per direction
    hopper = fabric_for(CATALOG.gpu("h100-sxm"))
    rack = fabric_for(CATALOG.gpu("gb300"))
    across = fabric_collective_time_s(hopper, "all_reduce", 16, 1e9, span=128)
    inside = fabric_collective_time_s(rack, "all_reduce", 16, 1e9, span=16)
    assert across >= 2 * 15 / 16 * 1e9 / 50e9  # at least the NIC line-rate bound: 37.5 ms
    assert across / inside > 10  # 900 / 50 = 18x, less the different efficiencies


def _405b(gpu: str, chips: int, batch: int = 1152) -> ClusterTrainingRequest:
    return ClusterTrainingRequest(shape=SHAPES["llama-3.1-405b"], gpu=CATALOG.gpu(gpu), chips=chips,
                                  global_batch=batch, seq_len=8192, precision="fp8")


def test_what_does_not_fit_is_refused_and_what_mlperf_ran_fits() -> None:
    from sizer_agent.tools.errors import InputError

    # 405 B parameters x >= 6 bytes of weights and gradients alone = 2.4 TB > 8 x 80 GB
    with pytest.raises(InputError, match="no TP x PP x CP x DP layout"):
        estimate_cluster_training(_405b("h100-sxm", 8))
    # MLPerf Training ran Llama 2 70B LoRA on one 8x H100 node and 405B on 512 H100
    lora = ClusterTrainingRequest(shape=SHAPES["llama-2-70b-lora"], gpu=CATALOG.gpu("h100-sxm"), chips=8,
                                  global_batch=8, seq_len=8192, precision="fp8", lora=True)
    for est in (estimate_cluster_training(lora), estimate_cluster_training(_405b("h100-sxm", 512))):
        assert est.layout.memory_per_gpu_gb < 80
        assert est.layout.tp <= 8  # tensor parallelism stays inside the NVLink node
        assert 0.2 < est.mfu < 0.6  # published FP8 MFU of tuned runs is 30-50 %


def test_the_scaling_tax_and_the_failures_grow_with_the_cluster() -> None:
    points = scaling_curve(_405b("h100-sxm", 256), [256, 1024, 4096, 16384])
    assert all(p.estimate is not None for p in points)
    per_chip = [p.estimate.tokens_per_s_per_chip for p in points if p.estimate]
    assert per_chip[-1] < per_chip[0]  # a fixed global batch spread thinner: less work per step per chip
    goodputs = [p.estimate.goodput for p in points if p.estimate]
    assert goodputs[-1] < goodputs[0]
    # Llama 3 405B: 419 unexpected interruptions in 54 days on 16,384 GPUs = 7.8 per day
    last = points[-1].estimate
    assert last is not None and last.failures_per_day == pytest.approx(419 / 54, rel=0.01)


def test_fitted_constants_are_those_the_committed_fit_wrote() -> None:
    fit = json.loads(DATA.with_name("scaleout_fit.json").read_text())
    assert (fit["compute_efficiency"], fit["step_overhead_s"]) == (FITTED_COMPUTE_EFFICIENCY, FITTED_STEP_OVERHEAD_S)
    rows = load_rows()
    assert {r["split"] for r in rows} == {"calibration", "heldout"}
    # the split rule: rounds v3.1 and v4.0 calibrate, later rounds are held out
    assert all((r["round"] in ("v3.1", "v4.0")) == (r["split"] == "calibration") for r in rows)


def test_per_chip_throughput_within_25_percent_median_on_held_out_mlperf_rounds() -> None:
    results = predict_rows(load_rows())
    assert summary(results, "heldout")["median_abs_error"] <= 0.25
    assert summary(results, "calibration")["median_abs_error"] <= 0.25


@pytest.mark.xfail(strict=True, reason="not met (issue #13 item 3): held-out median shape gap 11.6 points; the "
                   "LoRA series' drop is over-predicted (fixed per-step cost changed between software releases)")
def test_scaling_curve_shape_within_10_points_on_held_out_series() -> None:
    results = predict_rows(load_rows())
    gaps = [abs(s.gap_points) for s in series(results) if s.split == "heldout"]
    assert gaps and sorted(gaps)[len(gaps) // 2] <= 10


def test_deepseek_v3_cluster_plans_on_gb300_nvl72_and_hgx_b300_over_infiniband_in_under_a_second() -> None:
    start = time.perf_counter()
    rack = size_cluster(ClusterRequest(model="deepseek-v3", offers=["GB300-NVL72"], nodes=1))
    nodes = size_cluster(ClusterRequest(model="deepseek-v3", offers=["HGX-B300-8"], nodes=4))
    assert time.perf_counter() - start < 1.0
    for plan, gpus in ((rack, 72), (nodes, 32)):
        option = plan.options[0]
        assert option.gpus == gpus
        serving = option.serving
        assert serving is not None and serving.sla_met and serving.tpot_ms <= 50
        lay = serving.layout
        assert lay.gpus_per_replica * lay.replicas == gpus
        # per-GPU memory holds at least the GPU's share of 671 B FP8 parameters, and fits the HBM
        assert 671e9 / lay.gpus_per_replica / 1e9 <= serving.memory.weights_gb < serving.memory.capacity_gb
        assert serving.tokens_per_s_per_chip > 0 and option.tokens_per_eur and option.tokens_per_eur > 0


def test_expert_parallel_across_nodes_pays_the_network() -> None:
    # the same EP-16 group: across two HGX B300 nodes it crosses ConnectX-8 (100 GB/s per GPU); inside an
    # NVL72 rack it stays on NVLink (900 GB/s per GPU)
    spec = load_model("deepseek-v3")
    fmt = weight_format(None, "bfloat16", spec.hidden_size, spec.quantization)
    layout = ServingLayout(kind="wide_ep", ep=16, gpus_per_replica=16, replicas=1)
    b300 = estimate_layout(spec, CATALOG.gpu("b300"), fmt, 1.0, layout, 2048, 512, 50, None, "fp8")
    gb300 = estimate_layout(spec, CATALOG.gpu("gb300"), fmt, 1.0, layout, 2048, 512, 50, None, "fp8")
    assert b300.comm_share > 2 * gb300.comm_share


def test_moe_training_is_priced_on_active_parameters() -> None:
    # Qwen3-Coder-480B-A35B touches ~35 B parameters per token, Llama 3.1 405B all 405 B: ~11x fewer FLOPs
    shape = TrainShape.from_spec(load_model("qwen3-coder-480b"))
    assert shape.num_experts == 160 and 0 < shape.expert_params < shape.params_total
    moe = estimate_cluster_training(ClusterTrainingRequest(shape=shape, gpu=CATALOG.gpu("gb300"), chips=256,
                                                           global_batch=512, seq_len=4096, precision="fp8"))
    dense = estimate_cluster_training(_405b("gb300", 256, batch=512).model_copy(update={"seq_len": 4096}))
    assert moe.tokens_per_s_per_chip > 5 * dense.tokens_per_s_per_chip


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sizer_agent", "size-cluster", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)


def test_cli_json_and_bad_input() -> None:
    out = _cli("--model", "llama-3.1-405b", "--mode", "training", "--offers", "HGX-H100-8", "--chips", "512,4096",
               "--global-batch", "1152", "--json")
    assert out.returncode == 0, out.stderr
    plan = json.loads(out.stdout)
    points = plan["options"][0]["scaling"]
    assert [p["chips"] for p in points] == [512, 4096] and points[0]["scaling_efficiency"] == 1.0
    bad = _cli("--model", "deepseek-v3", "--offers", "NOPE")
    assert bad.returncode == 2 and "offer" in bad.stderr and "GB300-NVL72" in bad.stderr
    bad = _cli("--model", "deepseek-v3", "--chips", "8,x")
    assert bad.returncode == 2 and "--chips" in bad.stderr


def test_recommend_adds_a_cluster_plan_when_the_customer_plans_more_than_one_node() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "sizer_agent", "recommend", "--model", "deepseek-v3",
                          "--concurrency", "64", "--slo-tpot-ms", "50", "--offers", "HGX-B300-8",
                          "--planned-gpus", "32", "--json"], capture_output=True, text=True, cwd=ROOT, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    option = json.loads(out.stdout)["cluster"]["options"][0]
    assert (option["offer_id"], option["units"], option["gpus"]) == ("HGX-B300-8", 4, 32)  # 32 GPUs = 4 nodes
