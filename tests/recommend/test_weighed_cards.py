"""Cards the customer weighs ("we are weighing Google TPU v6e against 8x H100"): a card said with no count is sized
(its cheapest configuration that holds the load), its software stack joins the comparison, and an ECC requirement
nobody stated says it is an assumption when it rules a card out.

Expectations from the chips' facts, written before the tool ran: Gemma 3 27B in bf16 is 27.4e9 x 2 bytes = 55 GB of
weights; a TPU v6e chip has 32 GB of HBM (Google Cloud TPU v6e documentation), so one chip cannot hold it and the
count the tool chooses is at least two; 8 H100 (640 GB) hold it with room for 60 users' KV cache.
"""

from __future__ import annotations

import pytest

from sizer_agent import advice
from sizer_agent.agent.planning import recommend_arguments
from sizer_agent.agent.profile import WorkloadProfile
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.recommend import RecommendRequest, recommend

GEMMA = EstimateRequest(model="google/gemma-3-27b-it", input_len=2048, output_len=500, concurrency=60)


def test_a_card_weighed_without_a_count_is_sized_and_its_stack_joins() -> None:
    result = recommend(RecommendRequest(workload=GEMMA, units=["cloud"], deployment="cloud", slo_ttft_ms=500,
                                        slo_tpot_ms=50, slo_assumed=["ttft", "tpot"],
                                        compared=["tpu-v6e", "8:h100-sxm"]))
    tpu, h100 = result.compared
    assert tpu.gpu_id == "tpu-v6e" and tpu.parallelism.num_gpus >= 2 and tpu.fits
    assert (h100.gpu_id, h100.parallelism.num_gpus) == ("h100-sxm", 8) and h100.fits
    assert "xla" in result.scope.stacks  # weighing a TPU accepts its engine (vLLM TPU, JetStream)
    lines = advice.summary(result, "en")
    said = f"Option you weighed, {tpu.parallelism.num_gpus} × Google Cloud TPU v6e"
    assert any(line.startswith(said) for line in lines)
    assert any(line.startswith("Of the two,") for line in lines)  # the question asked gets its answer


def test_an_unknown_card_weighed_is_refused_by_name() -> None:
    with pytest.raises(InputError, match="compared: 'no-such-card' is not COUNT:GPU or GPU"):
        recommend(RecommendRequest(workload=GEMMA, units=["cloud"], compared=["no-such-card", "8:h100-sxm"]))


def test_an_assumed_ecc_requirement_says_so_when_it_rules_out_a_card() -> None:
    request = RecommendRequest(workload=GEMMA, units=["cloud"], gpu_preference="tpu-v6e", ecc_required=True,
                               ecc_assumed=True)
    result = recommend(request)
    tpu = [p for p in result.options if p.gpu_id == "tpu-v6e"]
    assert tpu and all(any(r.id == "reason.ecc_assumed" for r in p.reasons) for p in tpu)
    assert "ECC, assumed for a production service (not said: lift it if it is not needed)" in advice.preference(
        result, "en")
    said = recommend(request.model_copy(update={"ecc_assumed": False}))
    assert all(any(r.id == "reason.ecc" for r in p.reasons) for p in said.options if p.gpu_id == "tpu-v6e")


def test_the_interview_passes_an_assumed_ecc_as_such() -> None:
    profile = WorkloadProfile(use_case="online_serving", model="google/gemma-3-27b-it", concurrency=60,
                              ecc_required=True)
    fields = set(RecommendRequest.model_fields)
    assert recommend_arguments(profile, fields, assumed=("ecc_required",))["ecc_assumed"] is True
    assert recommend_arguments(profile, fields, assumed=())["ecc_assumed"] is False  # said: a requirement
    weighed = WorkloadProfile(use_case="online_serving", model="google/gemma-3-27b-it",
                              compared_gpus=["tpu-v6e", "8:h100-sxm"])
    assert recommend_arguments(weighed, fields)["compared"] == ["tpu-v6e", "8:h100-sxm"]


def test_a_count_weighed_over_several_nodes_is_sized_as_said_on_sxm_boards() -> None:
    # "16 H100 or 8 H200 to serve Llama 3.1 70B to 200 users?": 16 H100 SXM are two HGX 8-GPU baseboards (NVIDIA HGX
    # H100 datasheet), not PCIe cards, and the option weighed is the 16 said, not the 8 that would already hold it;
    # 8 H200 (1,128 GB) hold 141 GB of bf16 weights and the KV cache of 200 users with room to spare
    workload = EstimateRequest(model="meta-llama/Llama-3.1-70B-Instruct", input_len=1024, output_len=256,
                               concurrency=200)
    result = recommend(RecommendRequest(workload=workload, units=["server", "node"], compared=["16:h100-sxm",
                                                                                               "8:h200-sxm"]))
    h100, h200 = result.compared
    assert (h100.gpu_id, h100.parallelism.num_gpus, h100.purchase.units) == ("h100-sxm", 16, 2)
    assert (h200.gpu_id, h200.parallelism.num_gpus) == ("h200-sxm", 8) and h200.fits
    from sizer_agent.agent.wording import _weighed

    assert _weighed("16:h100-sxm").startswith("16 × NVIDIA H100 SXM")
    assert _weighed("2:h100-sxm").startswith("2 × NVIDIA H100 PCIe")  # two SXM chips bought are PCIe cards
