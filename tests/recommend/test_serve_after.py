"""A fine-tune whose model is then served ("fine-tune Llama 3.1 8B with LoRA, then serve it to our agents, about 10
at once"): the training's cards are checked at the serving load, and what serves it is named, in the tool, the
interview's arguments, the advice sentences and the proposal's acceptance.

Expectations come from the models' shapes, written before the tool ran:
- Llama 3.1 8B in bf16: 8.03e9 x 2 bytes = 16.1 GB of weights; its KV cache is 32 layers x 8 KV heads x 128 x 2 (K, V)
  x 2 bytes = 131,072 bytes a token, so 10 requests of 2,048 + 300 tokens hold 23,480 tokens = 2.9 GiB: any card of
  24 GB or more that trains its LoRA also serves it.
- Llama 3.1 70B in 4-bit weights: 70.6e9 x 0.5 bytes = 35.3 GB before the group scales; its KV cache is 80 layers x
  8 x 128 x 2 x 2 = 327,680 bytes a token, 20 requests of 1,424 tokens = 8.7 GiB. On a 48 GB card (vLLM reserving
  90 %, 43 GiB) weights and that cache do not both fit: the QLoRA's single 48 GB card does not serve 20 at once.
"""

from __future__ import annotations

from typing import Any

import pytest

from sizer_agent import advice
from sizer_agent.agent.planning import recommend_arguments, serve_after
from sizer_agent.agent.profile import WorkloadProfile
from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.recommend import RecommendRequest, recommend

SERVERS = ["server", "node", "rack"]
FIELDS = set(RecommendRequest.model_fields)


def lora_8b(**kw: Any) -> RecommendRequest:
    workload = EstimateRequest(model="meta-llama/Llama-3.1-8B-Instruct", mode="training", method="lora",
                               dtype="bfloat16", batch_size=1, seq_len=2048)
    args: dict[str, Any] = {"dataset_tokens": 40_000_000, "epochs": 3, "units": SERVERS, "deployment": "server",
                            "budget_eur": 40_000, "serve_after": {
                                "concurrency": 10, "input_len": 2048, "output_len": 300, "slo_ttft_ms": 500,
                                "slo_tpot_ms": 50, "slo_assumed": ["ttft", "tpot"]}}
    return RecommendRequest(workload=workload, **{**args, **kw})


def test_the_training_server_of_an_8b_lora_serves_the_fine_tuned_model() -> None:
    result = recommend(lora_8b())
    assert result.plan is not None and result.plan.training is not None
    after = result.serving_after
    assert after is not None and after.status == "recommended"
    mine = after.owned
    assert mine is not None and mine.fits, [r.id for r in (mine.reasons if mine else [])]
    assert (mine.gpu_id, mine.parallelism.num_gpus) == (result.plan.gpu_id, result.plan.parallelism.num_gpus)
    assert mine.purchase.price_eur is None  # already bought for the training: nothing priced again
    assert mine.memory is not None and mine.memory.weights_bytes == pytest.approx(16.06e9, rel=0.02)
    assert mine.serving is not None and mine.serving.concurrency == 10
    assert mine.serving.target_assumed == ["ttft", "tpot"]  # the acceptance says whose targets they are
    lines = advice.serving_after(result, "en")
    assert len(lines) == 1 and "the same 2 × NVIDIA L40S serve it, nothing more to buy" in lines[0]
    assert "10 at once, 2,048-token prompts, 300-token answers, weights in bfloat16" in lines[0]
    assert lines[0] in advice.summary(result, "en")  # the chat, the results view and the proposal say it
    fr = advice.serving_after(result, "fr")[0]
    assert "les mêmes 2 × NVIDIA L40S le servent, rien de plus à acheter" in fr


def test_a_rented_training_names_what_serves_the_model_afterwards() -> None:
    # a one-off run on rented GPUs gives them back: nothing is checked as owned, the serving is its own rental
    result = recommend(lora_8b(units=["cloud"], deployment="cloud", training_one_off=True))
    assert result.plan is not None and result.plan.purchase.how == "rent"
    after = result.serving_after
    assert after is not None and after.owned is None and after.plan is not None
    assert after.plan.purchase.how == "rent" and after.plan.serving is not None
    line = advice.serving_after(result, "en")[0]
    assert "the training's GPUs are rented for the run only; serving it needs" in line and "per hour" in line


def test_a_70b_qlora_card_does_not_serve_twenty_users_and_the_total_is_weighed_against_the_budget() -> None:
    workload = EstimateRequest(model="meta-llama/Llama-3.1-70B-Instruct", mode="training", method="qlora",
                               dtype="bfloat16", batch_size=1, seq_len=2048)
    result = recommend(RecommendRequest(
        workload=workload, dataset_tokens=20_000_000, epochs=2, units=["workstation"], deployment="workstation",
        budget_eur=15_000, serve_after={"concurrency": 20, "input_len": 1024, "output_len": 400,
                                        "quantization": "int4", "slo_ttft_ms": 500, "slo_tpot_ms": 50,
                                        "slo_assumed": ["ttft", "tpot"]}))
    assert result.plan is not None and result.plan.memory is not None
    assert result.plan.parallelism.num_gpus == 1 and result.plan.memory.gpu_memory_bytes < 50 * 2**30
    after = result.serving_after
    assert after is not None and after.owned is not None and not after.owned.fits
    assert after.owned.memory is not None and after.owned.memory.weights_bytes > 35e9  # 4-bit 70B + scales
    serving = after.plan
    assert serving is not None and serving.fits and serving.memory is not None
    assert serving.parallelism.num_gpus * serving.memory.gpu_memory_bytes > 50 * 2**30
    lines = advice.serving_after(result, "en")
    assert "does not serve it (" in lines[0] and "Serving needs" in lines[0]
    if serving.purchase.price_eur is not None and result.plan.purchase.price_eur is not None:
        total = serving.purchase.price_eur + result.plan.purchase.price_eur
        assert lines[1].startswith("Training and serving together:") and f"€{total:,.0f}" in lines[1]


def test_no_serving_after_a_training_without_a_serving_load() -> None:
    request = lora_8b(serve_after=None)
    assert recommend(request).serving_after is None
    # a serving load asks nothing more of a serving recommendation: the field is for a training
    serving = RecommendRequest(workload=EstimateRequest(model="meta-llama/Llama-3.1-8B-Instruct", concurrency=10),
                               serve_after={"concurrency": 10})
    assert recommend(serving).serving_after is None


def profile(**kw: Any) -> WorkloadProfile:
    base: dict[str, Any] = {"use_case": "finetune_lora", "model": "meta-llama/Llama-3.1-8B-Instruct",
                            "dataset_tokens": 40_000_000}
    return WorkloadProfile(**{**base, **kw})


def test_the_interview_sizes_the_serving_after_a_fine_tune_when_a_load_is_said() -> None:
    said = profile(concurrency=10, input_len=2048, output_len=300, ttft_ms=800)
    args = serve_after(said)
    assert args is not None
    assert args["concurrency"] == 10 and (args["input_len"], args["output_len"]) == (2048, 300)
    assert args["dtype"] == "bfloat16" and args["quantization"] is None  # a merged LoRA, in bf16
    assert args["slo_ttft_ms"] == 800 and args["slo_tpot_ms"] == 50 and args["slo_assumed"] == ["tpot"]
    assert args["max_model_len"] == 4096  # a server's window, not the model's 131,072
    assert recommend_arguments(said, FIELDS)["serve_after"] == args
    # QLoRA: the model was trained against a 4-bit base and is served in 4-bit weights
    qlora = serve_after(profile(use_case="finetune_qlora", precision="nf4", concurrency=20))
    assert qlora is not None and qlora["quantization"] == "int4"
    # growth is sized as for any serving load; a context said longer than the requests is the server's window
    grown = serve_after(profile(concurrency=10, growth_factor=1.5, context_len=16_384), assumed=())
    assert grown is not None and grown["concurrency"] == 15 and grown["max_model_len"] == 16_384
    assert serve_after(profile(concurrency=10, context_len=16_384), assumed=("context_len",))["max_model_len"] == 4096  # type: ignore[index]


def test_no_serving_after_without_a_load_or_for_a_serving_job() -> None:
    assert serve_after(profile()) is None
    assert serve_after(profile(concurrency=10), assumed=("concurrency",)) is None
    assert serve_after(profile(use_case="online_serving", concurrency=10)) is None
    assert "serve_after" not in recommend_arguments(profile(), FIELDS)


def test_the_people_a_fine_tune_is_served_to_size_its_serving_at_the_interviews_default_peak() -> None:
    # "then serve it to our 300 claims handlers": no peak said, so the interview's default for 300 people (8 at once,
    # questions.DEFAULT_CONCURRENCY), marked as assumed and said so in the document; a peak said wins
    args = serve_after(profile(head_count=300))
    assert args is not None and args["concurrency"] == 8 and args["people"] == 300 and args["concurrency_assumed"]
    few = serve_after(profile(head_count=3))
    assert few is not None and few["concurrency"] == 3
    said = serve_after(profile(head_count=300, concurrency=25))
    assert said is not None and said["concurrency"] == 25 and not said["concurrency_assumed"]
    assert serve_after(profile(head_count=300), assumed=("head_count",)) is None
    result = recommend(lora_8b(serve_after={"concurrency": 8, "people": 300, "concurrency_assumed": True}))
    assert result.serving_after is not None and result.serving_after.people == 300
    english = " ".join(advice.serving_after(result, "en"))
    assert "8 at once, assumed for 300 people as no peak was said" in english
    assert "supposées pour 300 personnes" in " ".join(advice.serving_after(result, "fr"))
