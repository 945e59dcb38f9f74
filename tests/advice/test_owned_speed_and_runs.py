"""Owned cards that hold a load only within the interactive floor say so; a recurring job on quote says how long
each run takes."""

from __future__ import annotations

from sizer_agent import advice
from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.recommend import RecommendRequest, recommend


def test_owned_cards_slower_than_the_default_targets_say_both() -> None:
    # "nous avons un serveur avec 4 L40S … Llama 3.3 70B en FP8 pour 40 utilisateurs simultanés"
    workload = EstimateRequest(model="meta-llama/Llama-3.3-70B-Instruct", quantization="fp8", input_len=2048,
                               output_len=500, concurrency=40)
    result = recommend(RecommendRequest(workload=workload, gpu_preference="l40s", planned_gpus=4, owned_gpus=True,
                                        slo_ttft_ms=500, slo_tpot_ms=50, slo_assumed=["ttft", "tpot"],
                                        units=["server"], deployment="server"))
    mine = result.owned
    assert mine is not None and mine.serving is not None and mine.fits
    assert (mine.serving.target_ttft_ms, mine.serving.target_tpot_ms) == (500, 50)
    slow = result.model_copy(update={"owned": mine.model_copy(update={
        "serving": mine.serving.model_copy(update={"ttft_ms": 1257.0, "tpot_ms": 94.7})})})
    line = advice.owned(slow, "en")
    assert "slower than the usual interactive targets (TTFT 500\xa0ms, TPOT 50.0 ms; none was given)" in line
    assert "plus lentement que les cibles interactives usuelles" in advice.owned(slow, "fr")
    fast = result.model_copy(update={"owned": mine.model_copy(update={
        "serving": mine.serving.model_copy(update={"ttft_ms": 300.0, "tpot_ms": 30.0})})})
    assert "slower" not in advice.owned(fast, "en") and "nothing needs buying" in advice.owned(fast, "en")


def test_a_recurring_job_on_quote_says_how_long_each_run_takes() -> None:
    # "Classify 5 million transactions per month with Qwen3 8B (~150 tokens in, 5 out). On-prem only."
    workload = EstimateRequest(model="Qwen/Qwen3-8B", input_len=150, output_len=5, concurrency=64, batch_size=64)
    result = recommend(RecommendRequest(workload=workload, job_requests=5_000_000, job_recurring=True,
                                        job_runs_per_year=12, units=["server"], deployment="server"))
    plan = result.plan
    assert plan is not None and plan.costs.job_hours is not None
    if plan.purchase.how == "quote":  # (a priced plan says the run's cost too: advice.job_runs)
        assert plan.costs.eur_per_job is None
        said = f"Each run: about {round(plan.costs.job_hours, 1):g} h on this configuration at its rate; 12 runs"
        assert any(line.startswith(said) for line in advice.summary(result, "en"))
