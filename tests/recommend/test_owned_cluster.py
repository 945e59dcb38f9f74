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
