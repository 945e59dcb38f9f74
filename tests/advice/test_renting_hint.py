"""A one-off training job over a workstation budget: renting, outside the scope, is named with its cost per
epoch — never for a customer who refused the cloud."""

from __future__ import annotations

from sizer_agent import advice
from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.recommend import RecommendRequest, recommend

# QLoRA of Llama 3.1 70B (NF4 base, about 37 GB): no workstation under 8,000 EUR holds it (the RTX 5080 has
# 16 GB), while a rented 80-192 GB card runs an epoch of 2 GB of text (500 M tokens) for a few hundred euros.
WORKLOAD = EstimateRequest(model="meta-llama/Llama-3.1-70B-Instruct", mode="training", method="qlora",
                           input_len=2048, batch_size=4, optimizer="adamw8bit")


def _result(**scope: object):  # type: ignore[no-untyped-def]
    return recommend(RecommendRequest(workload=WORKLOAD, units=["workstation"], budget_eur=8_000,
                                      dataset_bytes=2_000_000_000, **scope),  # type: ignore[arg-type]
                     load_model("meta-llama/Llama-3.1-70B-Instruct"))


def test_renting_is_named_with_its_cost_per_epoch_when_the_machine_is_over_budget() -> None:
    result = _result()
    assert result.status == "over_budget"
    rent = advice.worth_renting(result)
    assert rent is not None and rent.purchase.how == "rent" and rent.costs.eur_per_epoch is not None
    assert rent.costs.eur_per_epoch < 8_000
    assert rent.costs.eur_per_epoch == min(p.costs.eur_per_epoch for p in result.options if p.fits
                                           and p.purchase.how == "rent" and p.costs.eur_per_epoch is not None)
    lines = advice.summary(result, "en")
    assert any(line.startswith("Renting instead, outside the scope asked for") for line in lines)
    assert any(line.startswith("En location, hors du périmètre demandé") for line in advice.summary(result, "fr"))


def test_no_rental_is_suggested_to_a_customer_who_refused_the_cloud() -> None:
    result = _result(cloud_excluded=True)
    assert advice.worth_renting(result) is None
    assert not any("Renting instead" in line for line in advice.summary(result, "en"))
