"""A training that must end by a date no configuration in scope meets: the chips it needs, per node offer."""

from __future__ import annotations

import pytest

from sizer_agent.tools.cluster import ClusterRequest, size_cluster
from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.recommend import DEADLINE_COUNTS, RecommendRequest, cluster_request, recommend

PRETRAIN = EstimateRequest(model="meta-llama/Llama-3.1-8B", mode="training", method="full", from_scratch=True,
                           seq_len=8192, batch_size=8, dtype="bfloat16")


def test_an_8b_pretraining_on_2t_tokens_in_30_days_needs_about_a_hundred_h100() -> None:
    # 6 x 8.0e9 parameters x 2e12 tokens = 9.6e22 FLOP (the 6ND rule, Kaplan et al. 2020); an H100 SXM gives
    # 989 TFLOP/s dense bf16 (NVIDIA datasheet), 40-50 % of it in Llama-style pre-training (MFU reported by Meta
    # and MLPerf): 54,000-67,000 GPU-hours, 75-93 GPUs for 720 h — 128 on a power-of-two ladder, not 64.
    request = ClusterRequest(model="meta-llama/Llama-3.1-8B", mode="training", offers=["HGX-H100-8"],
                             chip_counts=list(DEADLINE_COUNTS), global_batch=64, batch_policy="per_chip",
                             seq_len=8192, precision="bf16", tokens=2 * 10**12, deadline_hours=720)
    plan = size_cluster(request)
    option = plan.options[0]
    assert option.deadline_chips == 128
    at = next(p for p in option.scaling if p.chips == 128)
    assert at.estimate is not None and at.job_hours is not None and at.job_hours <= 720
    assert at.job_hours == pytest.approx(2 * 10**12 / (at.estimate.tokens_per_s_per_chip * 128
                                                       * at.estimate.goodput) / 3600)
    half = next(p for p in option.scaling if p.chips == 64)
    assert half.job_hours is not None and half.job_hours > 720
    # with no job size nothing is timed
    untimed = size_cluster(request.model_copy(update={"tokens": None, "deadline_hours": None}))
    assert untimed.options[0].deadline_chips is None and all(p.job_hours is None for p in untimed.options[0].scaling)


def test_recommend_asks_for_a_cluster_only_when_the_deadline_is_what_no_configuration_meets() -> None:
    spec = load_model("meta-llama/Llama-3.1-8B")
    late = RecommendRequest(workload=PRETRAIN, dataset_tokens=2 * 10**12, deadline_hours=720, units=["cloud"],
                            training_one_off=True, epochs=1)
    result = recommend(late, spec)
    assert result.status == "no_fit"
    asked = cluster_request(late, result)
    assert asked is not None and asked.mode == "training" and asked.tokens == 2 * 10**12
    assert asked.deadline_hours == 720 and asked.precision == "bf16" and asked.batch_policy == "per_chip"
    # two epochs are twice the tokens
    twice = late.model_copy(update={"epochs": 2})
    again = cluster_request(twice, recommend(twice, spec))
    assert again is not None and again.tokens == 4 * 10**12
    # a small job that ends in time needs no cluster
    small = late.model_copy(update={"dataset_tokens": 10**9})
    assert cluster_request(small, recommend(small, spec)) is None


def test_a_rented_cluster_that_makes_the_deadline_is_priced_at_its_chips_gpu_hour() -> None:
    # "pretrain a 7B on 2T tokens within 30 days, renting H100s": the count that ends in time is rented by the hour,
    # so its cost is chips x hours x the GPU-hour of that chip's cheapest rental in the catalogue (Lambda's H100 SXM
    # at USD 4.29, catalogue rate); a purchase scope says no rental
    request = ClusterRequest(model="meta-llama/Llama-3.1-8B", mode="training", offers=["HGX-H100-8"],
                             chip_counts=list(DEADLINE_COUNTS), global_batch=64, batch_policy="per_chip",
                             seq_len=8192, precision="bf16", tokens=2 * 10**12, deadline_hours=720, rented=True)
    option = size_cluster(request).options[0]
    assert option.rent_offer is not None and "H100" in option.rent_offer
    assert option.rent_eur_per_gpu_hour is not None and 2.0 < option.rent_eur_per_gpu_hour < 6.0
    said = option.deadline_said()
    assert said is not None and said.id == "cluster.deadline_line_rented"
    at = next(p for p in option.scaling if p.chips == option.deadline_chips)
    assert at.job_hours is not None
    assert said.params["cost"] == pytest.approx(option.deadline_chips * at.job_hours * option.rent_eur_per_gpu_hour)
    bought = size_cluster(request.model_copy(update={"rented": False})).options[0]
    assert bought.rent_offer is None and bought.deadline_said().id == "cluster.deadline_line"  # type: ignore[union-attr]
    spec = load_model("meta-llama/Llama-3.1-8B")
    late = RecommendRequest(workload=PRETRAIN, dataset_tokens=2 * 10**12, deadline_hours=720, units=["cloud"],
                            training_one_off=True, epochs=1)
    asked = cluster_request(late, recommend(late, spec))
    assert asked is not None and asked.rented
