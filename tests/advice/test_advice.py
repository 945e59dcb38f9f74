"""Customer scenarios end to end: answers -> intake -> recommendation -> proposal, in French and English.

The expectations (tests/advice/scenarios.py) were written from domain knowledge before the tools were run
on these briefs. On top of them every document must hold the invariants a buyer relies on: one language,
no placeholder section, no machine path, commands that parse with the CLI's own parser, acceptance limits
the recommended hardware can meet, the split printed where the plan has it, a budget answered when one
was given, and training documents that speak training.
"""

from __future__ import annotations

import re
import shlex
from functools import cache
from typing import Any

import pytest

from sizer_agent import advice
from sizer_agent.cli import build_parser
from sizer_agent.proposal import render_proposal
from sizer_agent.proposal.context import build_context
from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.plan import RecommendResult
from sizer_agent.tools.recommend import quote_price_bound
from tests.advice.scenarios import SCENARIOS, Scenario
from tests.support.language import foreign
from tests.support.sessions import sized_session

GIB = 2**30
IDS = [s.id for s in SCENARIOS]
PLACEHOLDERS = re.compile(r"non fourni|not provided|\bNone\b|\bnan\b|\binf\b|\{[a-z_]+(:[^}]*)?\}|Traceback")
MACHINE_PATH = re.compile(r"(/tmp/|/home/|/root/|/work/|/var/|\\Users\\|\.cache/|custom-models|[A-Za-z]:\\)")
SERVING_WORDS = {"fr": re.compile(r"requêtes simultanées|TTFT|TPOT|premier token"),
                 "en": re.compile(r"concurrent requests|TTFT|TPOT|first token")}
# a vision document speaks images, never tokens (issue #12): the language-model words it must not contain
TOKEN_WORDS = re.compile(r"\btokens?\b|\bKV\b|TTFT|TPOT|cache KV|KV cache|vLLM", re.IGNORECASE)


@cache
def sized(scenario_id: str) -> tuple[dict[str, Any], RecommendResult]:
    scenario = next(s for s in SCENARIOS if s.id == scenario_id)
    session, _ = sized_session(scenario.answers, lang=scenario.langs[0])
    call = [c for c in session["tool_calls"] if c["tool"] == "recommend"][-1]
    assert call["ok"], call.get("error")
    result = advice.load(call["result"])
    assert result is not None
    return session, result


@cache
def document(scenario_id: str, lang: str, fmt: str = "md") -> str:
    return render_proposal(sized(scenario_id)[0], fmt, lang)  # type: ignore[arg-type]


def names(result: RecommendResult, session: dict[str, Any] | None = None) -> list[str]:
    """What documents cite as written, in no language of theirs: product and model names, and the customer's
    own words quoted in the profile table."""
    catalog = load_catalog()
    out = [o.name for o in catalog.offers] + [g.name for g in catalog.gpus] + [p.name for p in catalog.platforms]
    out += [result.model, "Hugging Face", "vLLM", "torchrun", "FSDP", "ZeRO", "Threadripper PRO", "Threadripper"]
    quoted = [str(a.get("raw_text") or "") for a in (session or {}).get("answers", {}).values()]
    return out + [q for q in quoted if len(q) > 2]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_the_plan_is_what_an_expert_would_sign(scenario: Scenario) -> None:
    _, result = sized(scenario.id)
    e = scenario.expect
    assert result.mode == e.mode
    assert result.status in e.status, result.status
    plan = result.plan
    assert plan is not None
    assert plan.fits
    # a quote is the plan only while it is surely cheaper than every priced option in scope: its cards alone,
    # times the dearest host-to-cards ratio of the catalogue, under the cheapest priced plan
    priced = [o.costs.tco_eur for o in result.options if o.fits and o.purchase.how != "quote"
              and o.costs.tco_eur is not None and (not result.scope.units or o.purchase.unit in result.scope.units)]
    assert plan.purchase.how != "quote" or not priced or (
        plan.purchase.cards_eur is not None and quote_price_bound(plan.purchase.cards_eur) < min(priced)), (
        "a quote is the plan only when it is surely cheaper than the priced options")
    if e.buy:
        assert plan.purchase.unit in e.buy, plan.purchase.unit
    if e.gpus:
        assert plan.gpu_id in e.gpus, plan.gpu_id
    assert plan.memory is not None and plan.memory.gpu_memory_bytes / GIB >= e.min_gpu_memory_gib
    assert e.min_total_gpus <= plan.parallelism.num_gpus <= e.max_total_gpus
    assert plan.parallelism.num_gpus == plan.purchase.units * plan.purchase.gpus_per_unit  # whole units
    if e.budget:
        # a server on quote has no price to weigh: where its cards stand against the budget is the verdict
        verdict = result.budget.status
        if plan.purchase.how == "quote" and plan.purchase.cards_eur is not None and result.budget.budget_eur:
            verdict = "cards_under" if plan.purchase.cards_eur < result.budget.budget_eur else "cards_over"
        assert verdict in e.budget, result.budget
    codes = {k.code for k in plan.knobs}
    assert set(e.knobs) <= codes, codes
    if e.changes_within_budget:
        assert result.changes and all(c.plan.within_budget for c in result.changes)
    below = scenario.extra.get("within_budget_needs_sharding_below_gib")
    if below and result.status == "recommended" and plan.memory.gpu_memory_bytes / GIB < float(below):
        assert plan.parallelism.num_gpus >= 2 and (plan.parallelism.zero or plan.parallelism.tensor_parallel > 1)
    if result.status == "over_budget":
        assert result.budget.gap_eur and result.budget.gap_eur > 0


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_the_document_is_one_language_without_placeholder_or_path(scenario: Scenario, lang: str) -> None:
    session, result = sized(scenario.id)
    for fmt in ("md", "html"):
        text = document(scenario.id, lang, fmt)
        assert foreign(text, lang, names(result, session)) == [], fmt
        assert not PLACEHOLDERS.search(re.sub(r"<style>.*?</style>", "", text, flags=re.S)), fmt
        assert not MACHINE_PATH.search(text), fmt


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_every_command_parses_with_the_cli_parser(scenario: Scenario) -> None:
    context = build_context(sized(scenario.id)[0])
    parser, _ = build_parser()
    commands = [c.text for c in context.commands if c.text]
    assert commands or context.result.plan is None or all(c.kind == "train_framework" for c in context.commands)
    for text in commands:
        words = shlex.split(text)
        assert words[0] == "sizer-agent"
        parser.parse_args(words[1:])  # exits (SystemExit) on a flag the CLI does not know


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_acceptance_limits_are_the_plans_and_the_hardware_can_meet_them(scenario: Scenario) -> None:
    context = build_context(sized(scenario.id)[0])
    plan = context.result.plan
    assert plan is not None and plan.memory is not None
    limits = {a.code: a for a in context.acceptance}
    memory = limits["peak_memory"]
    assert memory.value <= plan.memory.gpu_memory_bytes  # never above the card
    assert memory.value >= plan.memory.load_bytes  # never below what the plan needs per GPU
    if plan.serving is not None:
        s = plan.serving
        if "ttft" in limits:
            assert s.ttft_ms <= limits["ttft"].value
        if "tpot" in limits:
            assert s.tpot_ms <= limits["tpot"].value
        assert limits["throughput"].value <= s.output_tokens_per_s * 1.0001
        if "kv_tokens" in limits:
            assert plan.memory.kv_cache_tokens is not None
            assert limits["kv_tokens"].value <= plan.memory.kv_cache_tokens
    if plan.training is not None:
        assert limits["step_time"].value >= plan.training.step_time_s
        assert {"checkpoint_save", "resume"} <= set(limits)
    if plan.vision is not None:
        assert limits["images_per_s"].value <= plan.vision.images_per_s_per_gpu  # one GPU, below its estimate


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_the_document_prints_the_plans_own_numbers(scenario: Scenario, lang: str) -> None:
    _, result = sized(scenario.id)
    plan = result.plan
    assert plan is not None
    text = document(scenario.id, lang)
    p = plan.parallelism
    split = {"fr": f"parallélisme de tenseurs {p.tensor_parallel} × pipeline {p.pipeline_parallel} × "
                   f"données {p.data_parallel}",
             "en": f"tensor parallel {p.tensor_parallel} × pipeline {p.pipeline_parallel} × data {p.data_parallel}"}
    if plan.vision is not None:  # data parallel only: the batch per GPU is the split that matters
        split = {"fr": f"{p.num_gpus} GPU en parallélisme de données",
                 "en": f"{p.num_gpus} data-parallel GPU"}
        assert not TOKEN_WORDS.search(text), TOKEN_WORDS.search(text)
        assert {"fr": "images/s", "en": "images/s"}[lang] in text
    assert split[lang] in text
    assert plan.offer_id in text.split("##")[1]  # named in the summary
    if result.scope.budget_eur is not None:
        summary = text.split("## 1.")[0]
        assert ("budget" in summary.lower())
    if result.mode == "training":
        assert not SERVING_WORDS[lang].search(text), "a training document speaks training"
        assert plan.training is not None or plan.vision is not None
        if plan.training is not None and plan.training.epoch_hours is not None:
            assert {"fr": "Durée d’une époque", "en": "Time per epoch"}[lang] in text


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_change_is_said_within_budget_only_when_its_plan_is(lang: str) -> None:
    """A no-fit brief offers the load a machine holds even when that machine is over budget (70B bf16 on a
    workstation for 15 000 €): the sentence must then say it is over, never "within budget"."""
    _, result = sized("qwen14b-bf16-dev-workstation-10k")
    within = result.changes[0]
    over = within.model_copy(update={"plan": within.plan.model_copy(update={"within_budget": False})})
    budget = result.budget.budget_eur
    assert within.plan.within_budget and budget == 10_000
    said_within, said_over = advice.change(within, lang, budget), advice.change(over, lang, budget)
    assert said_within.startswith({"fr": "Dans le budget", "en": "Within budget"}[lang])
    assert not said_over.startswith({"fr": "Dans le budget", "en": "Within budget"}[lang])
    assert {"fr": "au-delà du budget de 10", "en": "over the €10,000 budget"}[lang] in said_over
    assert advice.change(within, lang, None).startswith({"fr": "Tient en changeant", "en": "Fits by changing"}[lang])


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_training_change_states_the_epoch_it_costs(lang: str) -> None:
    """QLoRA of Llama 3.1 70B on a workstation for 25 000 €: the in-budget change (micro-batch 1 with
    accumulation) is slower, and a buyer weighs it by the epoch, not by a step time."""
    from sizer_agent.tools.estimate import EstimateRequest
    from sizer_agent.tools.model_loader import load_model
    from sizer_agent.tools.recommend import RecommendRequest, recommend

    workload = EstimateRequest(model="llama-3.1-70b", mode="training", method="qlora", dtype="bfloat16",
                               batch_size=8, seq_len=2048, gradient_checkpointing="full", fused_loss=True)
    result = recommend(RecommendRequest(workload=workload, units=["workstation"], budget_eur=25_000,
                                        dataset_tokens=75_000_000), load_model("llama-3.1-70b"))
    assert result.changes, "a 70B QLoRA at micro-batch 8 does not fit a 25 k€ workstation as stated"
    change = result.changes[0]
    assert change.plan.training is not None and change.plan.training.epoch_hours is not None
    said = advice.change(change, lang, 25_000)
    assert {"fr": "Une époque de 75 000 000 tokens : environ", "en": "One epoch of 75,000,000 tokens: about"}[lang] \
        in said.replace("\u202f", " ").replace("\xa0", " ")


@cache
def _law_firm_rag(lang: str) -> tuple[dict[str, Any], RecommendResult]:
    """A law firm's research assistant on its premises: Mistral Small 3.1 24B in bf16 (48 GB of weights), 10
    requests in flight on 6,000-token questions with 500-token answers, the cloud refused, 40 k€."""
    session, _ = sized_session({
        "customer": "Lemarchand & Associés", "use_case": "online_serving", "model": "Mistral Small 3.1",
        "precision": "I don't know", "input_len": 6000, "output_len": 500, "context_len": "I don't know",
        "concurrency": 10, "growth_factor": 1, "ttft_ms": "I don't know", "tpot_ms": "I don't know",
        "framework": "I don't know", "framework_version": "I don't know", "num_gpus": "I don't know",
        "deployment": "I don't know", "cloud_excluded": True, "ecc_required": "I don't know", "budget_eur": 40000,
        "power_limit_w": "no limit", "rendering_cad": "I don't know"}, lang=lang)
    ctx = build_context(session)
    return session, ctx.result


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_server_on_quote_under_the_budget_is_no_over_budget_verdict(lang: str) -> None:
    """Two RTX PRO 6000 (96 GB each) hold 48 GB of weights and ten 6,500-token KV caches (10 x 6,500 x 160 KiB
    = 10 GB); their cards cost 2 x USD 8,565 x 0.86 = 14,732 EUR, far under 40 k€. The server around them has no
    public price, so "no configuration holds the load within the budget" would be false: the headline says
    the known prices are over and the quote comes first, and the quote is named once, with its latency."""
    _, result = _law_firm_rag(lang)
    hint = advice.worth_a_quote(result)
    assert result.status == "over_budget" and hint is not None
    assert hint.purchase.cards_eur is not None and hint.purchase.cards_eur < 40_000
    assert advice.headline(result).id.endswith("_quote")
    lines = advice.summary(result, lang)
    assert lines[0].startswith({"fr": "Aucune configuration à prix public", "en": "No configuration with a public "
                                "price"}[lang]), lines[0]
    naming = [line for line in lines if hint.offer_id in line]
    assert len(naming) == 1 and "TTFT" in naming[0], naming
    from sizer_agent.agent import explain

    said = explain.recommendation(result.model_dump(mode="json"), lang)
    assert said.count(f"({hint.offer_id})") == 1, said


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_interactive_floor_over_the_prompt_says_each_configuration_has_its_own(lang: str) -> None:
    """6,000-token prompts take most of a second to read on any card: the assumed floor is counted over that
    read on each configuration, so a cheaper option answering later than the plan's limit is not missing it.
    The assumption says so, with the split of the plan's own limit."""
    _, result = _law_firm_rag(lang)
    assert result.plan is not None
    knob = next(k for k in result.plan.knobs if k.code.startswith("assumed_slo"))
    assert knob.code == "assumed_slo_floor_prefill"
    params = knob.text.params
    assert params["base"] == 2000 and params["floor_ttft"] == params["base"] + params["prefill"]
    text = render_proposal(*_law_firm_session(lang))
    assert {"fr": "chaque configuration a donc sa limite", "en": "each configuration has its own limit"}[lang] in text


def _law_firm_session(lang: str) -> tuple[dict[str, Any], str, str]:
    session, _ = _law_firm_rag(lang)
    return session, "md", lang


def test_changes_under_a_monthly_budget_are_said_per_month() -> None:
    """A coding assistant rented for about $6k a month: the headline weighs months, so the changes that follow say
    the monthly budget and what each rental costs a month — not the three-year total the budget is compared as."""
    from sizer_agent.tools.estimate import EstimateRequest
    from sizer_agent.tools.model_loader import load_model
    from sizer_agent.tools.recommend import RecommendRequest, recommend

    workload = EstimateRequest(model="Qwen/Qwen2.5-32B-Instruct", input_len=3072, output_len=250, concurrency=15,
                               max_model_len=4096, engine="vllm")
    result = recommend(RecommendRequest(workload=workload, engine="vllm", units=["cloud"], slo_ttft_ms=500,
                                        slo_tpot_ms=50, slo_assumed=["tpot"], precision_assumed=True,
                                        budget_usd_per_month=6000), load_model("Qwen/Qwen2.5-32B-Instruct"))
    assert result.changes and result.budget.budget_eur is not None
    lines = [advice.change(c, "en", result.budget.budget_eur, False, result.budget.budget_eur / 5160)
             for c in result.changes]
    said = [line for line in advice.summary(result, "en") if "by changing the load" in line]
    assert said == lines
    total = f"{result.budget.budget_eur:,.0f}"
    assert all("monthly budget" in line and " a month;" in line and total not in line for line in said), said
