"""Performance model: hand-checked roofline numbers, collectives, SLA search, training step and goodput."""

from __future__ import annotations

import math

import pytest

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.perf import Efficiencies, ModelShape, ServingSetup, max_concurrency_memory, predict_load, sla_search
from sizer_agent.tools.perf.collectives import collective_time_s
from sizer_agent.tools.perf.serving import roofline, step_cost
from sizer_agent.tools.perf.training import TrainingSetup, estimate_training

# A 10 B-parameter dense model with round numbers, no embeddings tricks: easy to check by hand.
SHAPE = ModelShape(name="toy-10b", params_total=10**10, params_active=10**10, num_layers=40, hidden_size=5120,
                   num_attention_heads=40, num_kv_heads=8, head_dim=128)
PLAIN = Efficiencies(bandwidth=0.5, compute=0.5, step_overhead_s=0.0, host_per_sequence_s=0.0)


def setup(**kw: object) -> ServingSetup:
    base: dict[str, object] = dict(gpu=load_catalog().gpu("h100-sxm"), shape=SHAPE, weight_bytes_total=2 * 10**10,
                                   kv_bytes_per_token=163_840, kv_capacity_tokens=300_000,
                                   compute_precision="bf16", efficiencies=PLAIN)
    base.update(kw)
    return ServingSetup(**base)  # type: ignore[arg-type]


def test_decode_at_batch_one_is_weight_streaming() -> None:
    s = setup()
    cost = step_cost(s, 1.0, 1000.0, 0.0, 0.0)
    # bytes = 20 GB weights + 1000 tokens x 163,840 B of KV; bandwidth 3.35 TB/s x 0.5
    expected_bytes = 2e10 + 1000 * 163_840
    assert cost.bytes == pytest.approx(expected_bytes)
    assert cost.memory_s == pytest.approx(expected_bytes / (3.35e12 * 0.5))
    # FLOPs = 2 x 1e10 + attention 4 x 40 layers x 40 heads x 128 x 1000 tokens
    assert cost.flops == pytest.approx(2e10 + 4 * 40 * 40 * 128 * 1000)
    assert cost.bound == "memory"
    assert cost.time_s == pytest.approx(cost.memory_s)


def test_prefill_is_compute_bound_and_roofline_point_is_consistent() -> None:
    s = setup()
    cost = step_cost(s, 0.0, 0.0, 4096.0, 4096.0)
    linear = 4096 * 2e10
    attention = 4096 * 4 * 40 * 40 * 128 * 2048  # causal: a prompt token attends to half the prompt on average
    assert cost.flops == pytest.approx(linear + attention)
    assert cost.compute_s == pytest.approx((linear + attention) / (989e12 * 0.5))
    assert cost.bound == "compute"
    point = roofline(s, "prefill", cost)
    assert point.ridge_point == pytest.approx(989e12 / 3.35e12)
    assert point.operational_intensity > point.ridge_point
    assert point.attainable_flops == pytest.approx(989e12)


def test_tensor_parallel_all_reduce_follows_nccl_busbw() -> None:
    gpu = load_catalog().gpu("h100-sxm")
    eff = Efficiencies(collective_bandwidth=1.0, allreduce_latency_nvlink_s=0.0)
    # 8 GPUs, 1 GB: busbw convention, time = bytes x 2(n-1)/n / unidirectional NVLink (450 GB/s)
    assert collective_time_s(gpu, 8, 1e9, eff) == pytest.approx(1e9 * 2 * 7 / 8 / 450e9)
    assert collective_time_s(gpu, 1, 1e9, eff) == 0.0
    geforce = load_catalog().gpu("rtx-5090")  # no NVLink, no P2P: through host memory, PCIe crossed twice
    assert collective_time_s(geforce, 2, 1e9, Efficiencies(collective_bandwidth=1.0, allreduce_latency_host_s=0)) \
        == pytest.approx(1e9 * 1 / 32e9)


def test_tp_splits_weights_and_adds_communication() -> None:
    one, two = setup(), setup(tp=2, kv_bytes_per_token=81_920)
    c1, c2 = step_cost(one, 1.0, 1000.0, 0.0, 0.0), step_cost(two, 1.0, 1000.0, 0.0, 0.0)
    assert c2.bytes == pytest.approx(c1.bytes / 2)
    assert c2.communication_s > 0 and c1.communication_s == 0


def test_throughput_and_latency_at_concurrency_one() -> None:
    s = setup()
    point = predict_load(s, 1000, 200, 1)
    assert point.running_batch == 1
    assert point.tpot_ms == pytest.approx(step_cost(s, 1.0, 1100.0, 1000 / 200, 1000.0).time_s * 1e3)
    assert point.output_tokens_per_s == pytest.approx(200 / (point.e2e_ms / 1e3))
    assert point.ttft_ms >= point.ttft_mean_ms > 0


def test_more_concurrency_more_throughput_until_memory() -> None:
    s = setup()
    rates = [predict_load(s, 1000, 200, c).output_tokens_per_s for c in (1, 4, 16, 64)]
    assert rates == sorted(rates)
    # 300,000 KV tokens / 1,200 tokens per request
    assert max_concurrency_memory(s, 1000, 200) == 250
    assert predict_load(s, 1000, 200, 10_000).running_batch == 250


def test_moe_reads_only_routed_experts_at_small_batch() -> None:
    moe = SHAPE.model_copy(update={"expert_params": 8 * 10**9, "num_experts": 64, "experts_per_token": 2,
                                   "params_active": 2_250_000_000})
    s = setup(shape=moe)
    small, large = step_cost(s, 1.0, 100.0, 0.0, 0.0), step_cost(s, 512.0, 100.0, 0.0, 0.0)
    # batch 1: dense part 20 % of 20 GB + 2/64 of the experts' 80 %
    assert small.bytes - 100 * 163_840 == pytest.approx(2e10 * (0.2 + 0.8 * 2 / 64))
    assert large.bytes - 512 * 100 * 163_840 == pytest.approx(2e10, rel=1e-3)


def test_sla_search_finds_the_largest_passing_concurrency() -> None:
    s = setup()
    loose = sla_search(s, 1000, 200, 10_000, 200)
    assert loose.met and loose.max_concurrency is not None
    limit = loose.max_concurrency
    if limit < max_concurrency_memory(s, 1000, 200):
        nxt = predict_load(s, 1000, 200, limit + 1)
        assert nxt.ttft_ms > 10_000 or nxt.tpot_ms > 200
    tight = sla_search(s, 1000, 200, None, 1.0)
    assert not tight.met and tight.max_concurrency is None
    assert tight.reason.id == "sla.impossible" and tight.reason.params["parts"][0].id == "sla.tpot_over"
    assert tight.best_at_one.tpot_ms > 1.0


def test_training_step_is_six_p_t_over_peak_times_mfu() -> None:
    gpu = load_catalog().gpu("h100-sxm")
    eff = Efficiencies(training_mfu=0.4, gradient_overlap=1.0)
    est = estimate_training(TrainingSetup(gpu=gpu, params_active=10**10, trainable_params=10**10,
                                          tokens_per_step=10**6, num_gpus=8, data_parallel=8, efficiencies=eff))
    assert est.compute_time_s == pytest.approx(6 * 1e10 * 1e6 / (8 * 989e12 * 0.4))
    assert est.exposed_allreduce_s == 0.0 and est.gradient_allreduce_s > 0
    assert est.tokens_per_s_per_gpu == pytest.approx(1e6 / est.step_time_s / 8)
    full = estimate_training(TrainingSetup(gpu=gpu, params_active=10**10, trainable_params=10**10,
                                           tokens_per_step=10**6, num_gpus=8, data_parallel=8, recompute="full",
                                           efficiencies=eff))
    assert full.compute_time_s == pytest.approx(est.compute_time_s * 8 / 6)


def test_checkpoint_time_and_goodput() -> None:
    gpu = load_catalog().gpu("h100-sxm")
    est = estimate_training(TrainingSetup(gpu=gpu, params_active=10**9, trainable_params=10**9,
                                          tokens_per_step=10**5, checkpoint_bytes=100 * 10**9,
                                          storage_write_gbs=2.0, checkpoint_interval_steps=100))
    assert est.checkpoint_write_s == pytest.approx(50.0)
    interval = 100 * est.step_time_s
    assert est.goodput == pytest.approx(interval / (interval + 50.0))
    flaky = estimate_training(TrainingSetup(gpu=gpu, params_active=10**9, trainable_params=10**9,
                                            tokens_per_step=10**5, checkpoint_bytes=100 * 10**9,
                                            checkpoint_interval_steps=100, failures_per_day=24, restart_s=60))
    assert flaky.goodput < est.goodput
    assert math.isfinite(flaky.goodput) and flaky.goodput >= 0
