"""Cards owned in more than one machine ("64 H100 available in our cluster (8 nodes)"): checked as they are, over
whole nodes, and the answer is the time on them, not a purchase.

Expectation from the job's arithmetic, written before the tool ran: pre-training 1.3B parameters on 300B tokens is
6 x 1.3e9 x 3e11 = 2.3e21 FLOPs (8N per token with activation recomputation: 3.1e21); 64 H100 SXM give 64 x 989
dense bf16 TFLOP/s = 6.3e16 FLOP/s (NVIDIA H100 datasheet), so at 30-50 % MFU the run takes about 14 to 38 hours.
"""

from __future__ import annotations

from sizer_agent import advice
from sizer_agent.agent.planning import cluster_arguments, recommend_arguments
from sizer_agent.agent.profile import WorkloadProfile
from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.recommend import RecommendRequest, recommend

FIELDS = set(RecommendRequest.model_fields)


def test_sixty_four_owned_h100_are_checked_over_eight_nodes() -> None:
    profile = WorkloadProfile(use_case="pretraining", model_size_b=1.3, model="meta-llama/Llama-3.2-1B-Instruct",
                              dataset_tokens=300 * 10**9, num_gpus=64, gpu_preference="h100-sxm", gpus_owned=True,
                              deployment="server", checkpoint_interval_min=60, batch_size=8)  # the default batch
    args = recommend_arguments(profile, FIELDS)
    assert args["owned_gpus"] is True and args["planned_gpus"] == 64
    result = recommend(RecommendRequest.model_validate(args))
    mine = result.owned
    assert mine is not None and mine.fits
    assert (mine.gpu_id, mine.parallelism.num_gpus, mine.purchase.units) == ("h100-sxm", 64, 8)
    assert mine.training is not None and mine.training.epoch_hours is not None
    assert 10 < mine.training.epoch_hours < 45
    assert advice.summary(result, "en")[0].startswith("Your own 64 × NVIDIA H100 SXM5 80GB hold the load")
    # no date was said: no deadline ladder of clusters in the answer
    assert cluster_arguments(args, result.model_dump(mode="json")) is None


def test_owned_cards_that_fill_no_whole_number_of_nodes_are_not_invented() -> None:
    workload = EstimateRequest(model="meta-llama/Llama-3.2-1B-Instruct", mode="training", batch_size=4)
    result = recommend(RecommendRequest(workload=workload, gpu_preference="h100-sxm", planned_gpus=13,
                                        owned_gpus=True, units=["server", "node"]))
    assert result.owned is None  # 13 SXM cards are no machine the catalogue knows: not guessed


def test_owned_cards_a_change_fits_but_too_slowly_say_how_long_against_the_date() -> None:
    """A DGX A100 (8 x 80 GB) for a full fine-tune of Llama 3.1 70B on 5B tokens within two weeks: the full fine-tune
    needs ~16 bytes a parameter (bf16 weights and gradients, fp32 master weights and two AdamW moments) = 1.1 TB, 140
    GB a GPU over 8: it does not fit. A LoRA fits, and costs about 6 x 70e9 FLOPs a token with recomputation: 2.1e21
    for 5B tokens, at 40 % of 8 x 312 dense bf16 TFLOP/s (NVIDIA A100 datasheet) about 580 h — past the 336 h."""
    workload = EstimateRequest(model="meta-llama/Llama-3.1-70B-Instruct", mode="training", dtype="bfloat16",
                               batch_size=1, seq_len=4096)
    result = recommend(RecommendRequest(workload=workload, gpu_preference="a100-80gb-sxm", planned_gpus=8,
                                        owned_gpus=True, dataset_tokens=5 * 10**9, deadline_hours=336,
                                        units=["server", "node"], deployment="server"))
    assert result.owned is not None and not result.owned.fits
    change = result.owned_change
    assert change is not None and change.plan.training is not None
    late = [r for r in change.plan.reasons if r.id == "reason.deadline"]
    assert late and late == change.plan.reasons and 400 < float(late[0].params["hours"]) < 900  # type: ignore[arg-type]
    line = advice.summary(result, "en")[0]
    assert "they hold it in memory" in line and "past the 336\xa0h asked. What ends it in time follows." in line
    assert "au-delà des 336\xa0h demandées" in advice.summary(result, "fr")[0]
