"""The estimate the interview runs first uses what the answers say about the hardware."""

from __future__ import annotations

import pytest

from sizer_agent import advice
from sizer_agent.agent import explain
from sizer_agent.agent.planning import bench_arguments, estimate_arguments, recommend_arguments
from sizer_agent.agent.profile import WorkloadProfile
from sizer_agent.agent.questions import question
from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.recommend import RecommendRequest, recommend

SERVING = {"use_case": "online_serving", "model": "openai/gpt-oss-20b", "input_len": 2048, "output_len": 512,
           "concurrency": 32}


def test_a_preferred_tpu_is_named_so_the_first_kv_figure_counts_its_padding() -> None:
    # gpt-oss-20b: 24 layers, 8 KV heads of 64, bf16 KV -> 2 × 24 × 8 × 64 × 2 = 49,152 B/token on a GPU;
    # vLLM on TPU stores each head padded to 128 lanes (tools/perf/codesign.py), so twice that on a v6e
    tpu = estimate_arguments(WorkloadProfile(**SERVING, gpu_preference="tpu-v6e"))
    assert tpu["gpu"] == "tpu-v6e"
    assert estimate(EstimateRequest(**tpu)).kv_cache_bytes_per_token == 2 * 24 * 8 * 128 * 2
    # a GPU preference leaves the first estimate generic (the recommendation sizes on each card)
    gpu = estimate_arguments(WorkloadProfile(**SERVING, gpu_preference="h100-sxm"))
    assert "gpu" not in gpu
    assert estimate(EstimateRequest(**gpu)).kv_cache_bytes_per_token == 2 * 24 * 8 * 64 * 2


@pytest.mark.parametrize(("use_case", "model", "precision"), [
    # vLLM serves a quantized checkpoint as published: gpt-oss ships MXFP4 experts (OpenAI model card),
    # DeepSeek-V3 and R1 FP8 blocks (their config's quantization_config); Llama 3.1 is published in bf16
    ("online_serving", "openai/gpt-oss-20b", "mxfp4"),
    ("batch_inference", "deepseek-ai/DeepSeek-V3", "fp8"),
    ("online_serving", "deepseek-ai/DeepSeek-R1", "fp8"),
    ("online_serving", "meta-llama/Llama-3.1-8B-Instruct", "bf16"),
    ("online_serving", None, "bf16"),
    # training updates bf16 weights, whatever the serving checkpoint; QLoRA keeps an NF4 base
    ("finetune_full", "openai/gpt-oss-20b", "bf16"),
    ("finetune_lora", "deepseek-ai/DeepSeek-V3", "bf16"),
    ("finetune_qlora", "openai/gpt-oss-20b", "nf4"),
])
def test_the_assumed_precision_is_the_one_the_model_is_published_in(use_case: str, model: str | None,
                                                                       precision: str) -> None:
    profile = WorkloadProfile(use_case=use_case, model=model)
    assert question("precision").default_for(profile) == precision


def test_an_assumed_precision_agrees_with_the_plans_weights() -> None:
    """The answers table says what the plan runs: gpt-oss assumed in mxfp4, not 'bf16' beside mxfp4 weights."""
    profile = WorkloadProfile(**SERVING, precision=question("precision").default_for(WorkloadProfile(**SERVING)))
    result = estimate(EstimateRequest(**estimate_arguments(profile)))
    assert profile.precision == "mxfp4" and result.weight_format.startswith("mxfp4")


@pytest.mark.parametrize(("fields", "assumed", "lang", "said"), [
    # the first figure is one card's whole load: the reader learns whose count that is before the plan splits it
    ({"num_gpus": 1}, False, "en", "for the one GPU planned"),
    ({}, True, "en", "for one GPU, before any count is chosen"),
    ({}, True, "fr", "pour un seul GPU, avant tout choix de nombre"),
    ({"gpu_preference": "tpu-v6e"}, True, "en", "for one chip, before any count is chosen"),
])
def test_the_first_estimate_says_which_gpu_count_it_is_for(fields: dict[str, object], assumed: bool, lang: str,
                                                          said: str) -> None:
    profile = WorkloadProfile(**SERVING, **fields)  # type: ignore[arg-type]
    result = estimate(EstimateRequest(**estimate_arguments(profile))).model_dump(mode="json")
    text = explain.estimate(result, profile, lang, gpus_assumed=assumed)  # type: ignore[arg-type]
    assert said in text, text


def test_a_training_estimate_states_no_kv_cache() -> None:
    profile = WorkloadProfile(use_case="finetune_lora", model="llama-3.1-8b", context_len=4096, batch_size=4)
    result = estimate(EstimateRequest(**estimate_arguments(profile))).model_dump(mode="json")
    for lang in ("en", "fr"):
        text = explain.estimate(result, profile, lang)  # type: ignore[arg-type]
        assert "KV" not in text, text  # a training step keeps no KV cache: the figure would mislead


def test_the_chats_other_options_label_those_outside_the_scope() -> None:
    """A cloud rental listed to a buyer of a workstation is labelled, as in the proposal's summary."""
    workload = EstimateRequest(model="llama-3.1-8b", mode="training", method="lora", batch_size=4, seq_len=4096)
    result = recommend(RecommendRequest(workload=workload, units=["workstation"]), load_model("llama-3.1-8b"))
    outside = [p for p in result.alternatives if p.purchase.unit != "workstation"]
    assert result.plan is not None and outside  # the cheapest rental is shown as a comparison
    text = explain.recommendation(result.model_dump(mode="json"), "en")
    listed = text.split("Other options: ", 1)[1]
    for plan in result.alternatives:
        said = advice.configuration(plan, "en") + " — " + advice.price(plan, "en")
        assert (said + " (outside the scope)" in listed) == (plan in outside), said


def test_a_refused_cloud_keeps_every_way_of_buying_but_renting() -> None:
    from sizer_agent.agent.planning import recommend_arguments

    fields = set(RecommendRequest.model_fields)
    base = {"use_case": "online_serving", "model": "Qwen/Qwen2.5-7B-Instruct", "cloud_excluded": True}
    # no machine named: the scope is every unit sold for the premises
    said = recommend_arguments(WorkloadProfile(**base), fields, assumed=("deployment",))
    assert set(said["units"]) == {"workstation", "server", "node", "rack"}
    # a machine named narrows it further; an answer of "cloud" given later wins over the refusal read earlier
    assert recommend_arguments(WorkloadProfile(**base, deployment="server"), fields)["units"] == ["server", "node",
                                                                                                  "rack"]
    assert recommend_arguments(WorkloadProfile(**base, deployment="cloud"), fields)["units"] == ["cloud"]
    # without the refusal, an assumed deployment looks at everything
    open_scope = recommend_arguments(WorkloadProfile(**{**base, "cloud_excluded": None}), fields,
                                     assumed=("deployment",))
    assert "units" not in open_scope


def test_owned_cards_among_the_options_weighed_are_checked_as_owned_and_not_weighed_again() -> None:
    from sizer_agent.agent.planning import recommend_arguments

    fields = set(RecommendRequest.model_fields)
    profile = WorkloadProfile(use_case="online_serving", model="Qwen/Qwen2.5-7B-Instruct", num_gpus=2, gpus_owned=True,
                              compared_gpus=["2:l40s", "2:h200-nvl"])
    said = recommend_arguments(profile, fields)
    assert said["owned_config"] == "2:l40s" and said["compared"] == ["2:h200-nvl"]
    # owned cards named as the preference are the preference's check; the options stay options
    named = WorkloadProfile(use_case="online_serving", model="Qwen/Qwen2.5-7B-Instruct", num_gpus=2, gpus_owned=True,
                            gpu_preference="l40s", compared_gpus=["2:l40s", "2:h200-nvl"])
    both = recommend_arguments(named, fields)
    assert both["owned_gpus"] is True and "owned_config" not in both and both["compared"] == ["2:l40s", "2:h200-nvl"]


def test_an_assumed_concurrency_never_exceeds_the_people_who_will_use_it() -> None:
    # "3 ou 4 personnes" with no concurrency said: a person in a chat waits for one answer at a time, so the
    # assumed peak is 4, not the method's 8; a large population keeps the 8 (no share of it is invented)
    from sizer_agent.agent.questions import BY_ID

    question = BY_ID["concurrency"]
    assert question.default_for(WorkloadProfile(use_case="online_serving", head_count=4)) == 4
    assert question.default_for(WorkloadProfile(use_case="online_serving", head_count=500)) == 8
    assert question.default_for(WorkloadProfile(use_case="online_serving")) == 8


def test_identical_workstations_are_sized_once_against_each_ones_share_of_the_budget() -> None:
    # "3 postes pour SolidWorks … Budget 30 000 € pour les trois postes": one machine is sized against 10 000 €,
    # and the answer prices all three; "12 000 € par poste" is each machine's budget as said
    from sizer_agent.agent.planning import recommend_arguments

    fields = set(RecommendRequest.model_fields)
    base = dict(use_case="online_serving", model="Qwen/Qwen2.5-7B-Instruct", workstations=3, budget_eur=30_000.0,
                rendering_cad=True)
    shared = recommend_arguments(WorkloadProfile(**base), fields)
    assert shared["budget_eur"] == 10_000 and shared["machines"] == 3
    each = recommend_arguments(WorkloadProfile(**{**base, "budget_eur": 12_000.0, "budget_per_workstation": True}),
                               fields)
    assert each["budget_eur"] == 12_000 and each["machines"] == 3
    # "Budget : 2 500 € par poste" with no total: read apart from a total (heldout32 fr-ag16), still each machine's
    seat = WorkloadProfile(**{**base, "budget_eur": None, "budget_eur_per_workstation": 2_500.0})
    assert recommend_arguments(seat, fields)["budget_eur"] == 2_500
    from sizer_agent.agent.questions import missing_questions

    assert "budget_eur" not in {q.id for q in missing_questions(seat, frozenset())}
    dollars = recommend_arguments(WorkloadProfile(**{**base, "budget_eur": None, "budget_usd": 60_000.0}), fields)
    assert dollars["budget_usd"] == 20_000 and dollars["machines"] == 3
    servers = recommend_arguments(WorkloadProfile(**{**base, "deployment": "server"}), fields)
    assert servers["budget_eur"] == 30_000 and servers["machines"] == 1
    result = recommend(RecommendRequest(**{k: v for k, v in shared.items() if k in fields}),
                       load_model("Qwen/Qwen2.5-7B-Instruct"))
    assert result.plan is not None and result.plan.purchase.price_eur is not None
    total = 3 * result.plan.purchase.price_eur
    line = next(x for x in advice.summary(result, "en") if x.startswith("For the 3 identical workstations"))
    assert f"{total:,.0f}" in line
    # the headline's budget is one machine's share: said with the whole right after it
    summary = advice.summary(result, "en")
    assert summary[1] == "The budget above is one workstation's: €10,000 each, €30,000 for the 3 workstations."


def test_a_budget_per_seat_for_people_counted_is_one_workstation_each() -> None:
    # "8 architectes sous Revit … un assistant local sur chaque machine. Budget environ 6 000 € par poste": no
    # count of machines, but a budget per seat for 8 people is 8 seats; each serves its own architect (one
    # request at a time), and the answer prices the 8, with the assumption said for the reader to correct
    from sizer_agent.agent.planning import recommend_arguments
    from sizer_agent.agent.questions import BY_ID

    fields = set(RecommendRequest.model_fields)
    base = dict(use_case="online_serving", model="meta-llama/Llama-3.1-8B-Instruct", head_count=8,
                budget_eur_per_workstation=6_000.0, budget_per_workstation=True, rendering_cad=True)
    said = recommend_arguments(WorkloadProfile(**base), fields)
    assert said["machines"] == 8 and said["machines_assumed"] and said["budget_eur"] == 6_000
    assert BY_ID["concurrency"].default_for(WorkloadProfile(**base)) == 1
    # a count said wins; a server, or a budget for the whole team, is no seat each
    assert recommend_arguments(WorkloadProfile(**{**base, "workstations": 4}), fields)["machines_assumed"] is False
    server = WorkloadProfile(**{**base, "deployment": "server"})
    assert recommend_arguments(server, fields)["machines"] == 1
    whole = WorkloadProfile(**{**base, "budget_eur_per_workstation": None, "budget_per_workstation": None,
                               "budget_eur": 48_000.0})
    assert recommend_arguments(whole, fields)["machines"] == 1
    result = recommend(RecommendRequest(**{k: v for k, v in said.items() if k in fields}),
                       load_model("meta-llama/Llama-3.1-8B-Instruct"))
    assert any(a.id == "assume.one_seat_each" and a.params["n"] == 8 for a in result.assumptions)


def test_ecc_is_assumed_for_a_service_whose_sized_peak_is_an_organisations() -> None:
    # seed 002 puts ECC where capacity and continuity come first; our line is 50 requests at once or 100 people.
    # "30 concurrent today, 4x within 18 months" is sized for 120: the default follows the peak it is sized for
    from sizer_agent.agent.questions import BY_ID

    ecc = BY_ID["ecc_required"]
    grown = WorkloadProfile(use_case="online_serving", concurrency=30, growth_factor=4.0)
    assert ecc.default_for(grown) is True
    assert ecc.default_for(WorkloadProfile(use_case="online_serving", concurrency=30)) is False


@pytest.mark.parametrize(("use_case", "size", "expected"), [
    # a model trained or fine-tuned with only its size said is sized on the published Llama shape of that size
    ("pretraining", 7.0, "meta-llama/Llama-2-7b-hf"),
    ("finetune_qlora", 8.0, "meta-llama/Llama-3.1-8B"),
    ("finetune_lora", 70.0, "meta-llama/Llama-3.1-70B-Instruct"),
    # too far from any published shape (30 % tolerance), or served (the model's own layers decide the KV cache)
    ("finetune_lora", 20.0, None),
    ("online_serving", 7.0, None),
])
def test_a_model_said_by_its_size_alone_defaults_to_the_reference_shape_for_training_only(
        use_case: str, size: float, expected: str | None) -> None:
    profile = WorkloadProfile(use_case=use_case, model_size_b=size)
    q = question("model")
    assert (q.default_for(profile) if q.has_default(profile) else None) == expected


@pytest.mark.parametrize(("fields", "expected"), [
    # "50k exemples de 1 500 tokens": a fine-tuning config sets max_seq_len 2,048, not a 4k server window
    ({"use_case": "finetune_qlora", "input_len": 1500}, 2048),
    ({"use_case": "finetune_lora", "input_len": 3000}, 4096),
    ({"use_case": "finetune_full", "input_len": 300}, 512),
    ({"use_case": "finetune_lora"}, 4096),  # no length stated: the documented default
    ({"use_case": "online_serving", "input_len": 3000, "output_len": 2000}, 5000),  # a server: the request
    ({"use_case": "online_serving", "input_len": 1500}, 4096),
])
def test_a_training_sequence_length_follows_the_stated_example_length(fields: dict[str, object],
                                                                      expected: int) -> None:
    assert question("context_len").default_for(WorkloadProfile(**fields)) == expected  # type: ignore[arg-type]


def test_a_training_said_to_recur_reaches_the_recommendation_with_its_runs() -> None:
    from sizer_agent.agent.planning import recommend_arguments

    monthly = WorkloadProfile(use_case="finetune_lora", model="meta-llama/Llama-3.1-8B-Instruct",
                              job_runs_per_year=12)
    fields = {"job_recurring", "job_runs_per_year"}
    args = recommend_arguments(monthly, fields)
    assert args == {"job_recurring": True, "job_runs_per_year": 12}
    once = recommend_arguments(WorkloadProfile(use_case="finetune_lora", model="meta-llama/Llama-3.1-8B-Instruct"),
                               fields)
    assert once == {}  # a run said once (or not said to recur) is weighed as one job


def test_a_rented_training_with_no_schedule_is_one_run_paid_by_its_hours() -> None:
    """A fine-tune the customer rents (\"we'd rent GPUs in the cloud\", 3 epochs, a week) is one run: weighed over
    three years, its rental read as an €83,623 plan over a €15,000 budget for a job of about €300."""
    from sizer_agent.agent.planning import recommend_arguments

    fields = set(RecommendRequest.model_fields)
    base = {"use_case": "finetune_full", "model": "meta-llama/Llama-3.1-8B-Instruct", "epochs": 3}
    assert recommend_arguments(WorkloadProfile(**base, deployment="cloud"), fields)["training_one_off"] is True
    # an assumed deployment, a purchase, a schedule or a rerun said to recur keep the period
    assert recommend_arguments(WorkloadProfile(**base, deployment="cloud"), fields,
                               assumed=("deployment",))["training_one_off"] is False
    assert recommend_arguments(WorkloadProfile(**base, deployment="server"), fields)["training_one_off"] is False
    assert recommend_arguments(WorkloadProfile(**base, deployment="cloud", job_runs_per_year=12),
                               fields)["training_one_off"] is False
    assert recommend_arguments(WorkloadProfile(**base, deployment="cloud", job_recurring=True),
                               fields)["training_one_off"] is False


def test_a_latency_percentile_said_sizes_and_checks_there() -> None:
    # a tender's "P95 time to first token under 2 s": the plan is sized, and its benchmark checked, at P95
    from sizer_agent.tools.bench.results import ServeSettings

    profile = WorkloadProfile(use_case="online_serving", model="meta-llama/Llama-3.3-70B-Instruct", concurrency=150,
                              ttft_ms=2000, slo_percentile=95.0, server_url="http://127.0.0.1:8000")
    assert recommend_arguments(profile, set(RecommendRequest.model_fields))["percentile"] == 95.0
    assert bench_arguments(profile, set(ServeSettings.model_fields))["percentile"] == 95.0
    unsaid = profile.model_copy(update={"slo_percentile": None})
    assert "percentile" not in recommend_arguments(unsaid, set(RecommendRequest.model_fields))  # the tool's P99


def test_a_stated_context_longer_than_a_default_request_is_the_prompt_length_assumed() -> None:
    from sizer_agent.agent.questions import BY_ID

    # "contextes longs (32k tokens)" with no prompt length: seed 000 measures peak memory "au contexte et à la
    # concurrence prévus", so the prompt assumed is the context less the answer; no context said keeps 1,024
    question = BY_ID["input_len"]
    base = {"use_case": "online_serving", "model": "mistralai/Mistral-Small-3.1-24B-Instruct-2503"}
    assert question.default_for(WorkloadProfile(**base)) == 1024
    assert question.default_for(WorkloadProfile(**base, context_len=32_768)) == 32_768 - 256
    assert question.default_for(WorkloadProfile(**base, context_len=32_768, output_len=800)) == 32_768 - 800
    assert question.default_for(WorkloadProfile(**base, context_len=1_200)) == 1024  # no longer than a request
    # the default window itself, assumed before the prompt was asked, says nothing of the prompts
    assert question.default_for(WorkloadProfile(**base, context_len=4_096)) == 1024
    assert question.default_for(WorkloadProfile(**base, context_len=8_192)) == 8_192 - 256
