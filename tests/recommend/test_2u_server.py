"""The 2U rack server for 2-4 double-width PCIe cards (platform srv-pcie-2u-4, Dell PowerEdge R760xa class).

Expectations written from the customer's brief and the hardware before running the tools: "un serveur en baie,
2U max, 2 kW max, mémoire ECC obligatoire" for Gemma 3 27B and ~50 sessions, 80 k€. Gemma 3 27B in 16 bits is
27.4 B x 2 bytes = 55 GB of weights: two 80 GB cards or more than two 48 GB cards. A 2U server of this class takes
four 350 W cards (L40S, H100 PCIe) or four 350-400 W H100 NVL; its dual-socket host draws several hundred watts,
so two cards stay well under 2 kW (2 x 350 W + host) while four L40S (1,400 W of cards alone) plus the host pass
it. A 600 W card (RTX PRO 6000 Server Edition) is not a card this server is sold for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sizer_agent import advice
from sizer_agent.i18n import render
from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.plan import Plan, RecommendResult
from sizer_agent.tools.recommend import RecommendRequest, recommend

PLATFORM = "srv-pcie-2u-4"
GEMMA = "gemma-3-27b"


def brief(**overrides: object) -> RecommendResult:
    """The customer's brief: rack server, 2U and 2 kW at most, ECC, 80 k€, Gemma 3 27B for ~50 sessions."""
    workload = EstimateRequest(model=GEMMA, concurrency=50, engine="vllm")
    request: dict[str, object] = dict(units=["server", "node", "rack"], deployment="server", rack_units=2,
                                      power_limit_w=2000, ecc_required=True, budget_eur=80_000, engine="vllm")
    request.update(overrides)
    return recommend(RecommendRequest(workload=workload, **request), load_model(GEMMA))  # type: ignore[arg-type]


def options_of(result: RecommendResult, offer_id: str) -> list[Plan]:
    return [o for o in result.options if o.offer_id == offer_id]


def test_the_platform_is_a_sourced_2u_server_for_four_cards_of_at_most_400_w() -> None:
    catalog = load_catalog()
    platform = catalog.platform(PLATFORM)
    assert platform.kind == "server" and platform.rack_units is not None and platform.rack_units.value == 2
    assert platform.max_gpus.value == 4
    assert platform.ecc_ram is not None and platform.ecc_ram.value
    # the cards it is sold with draw 300-400 W (L40, L40S, H100 PCIe, H100 NVL); a 600 W card is not one of them
    assert platform.max_gpu_board_w is not None and 350 <= platform.max_gpu_board_w.value < 600
    assert platform.psu_w is not None and platform.host_power_w is not None
    # two 350 W cards and the host stay under a 2 kW circuit; a redundant PSU carries four cards and the host
    assert 2 * 350 + platform.host_power_w.value < 2000 < 4 * 350 + platform.host_power_w.value
    assert platform.psu_w.value >= 4 * 350 + platform.host_power_w.value
    figures = [platform.max_gpus, platform.cpu, platform.host_ram_gb, platform.ecc_ram, platform.pcie_lanes,
               platform.psu_w, platform.host_power_w, platform.max_gpu_board_w, platform.cooling, platform.rack_units,
               platform.storage, platform.storage_write_gbs]
    for figure in figures:
        assert figure is not None and figure.src and all(key in catalog.sources for key in figure.src)
        assert figure.note or not figure.derived  # a value we computed says how


def test_offers_put_only_cards_the_platform_takes_and_leave_the_4u_server_alone() -> None:
    catalog = load_catalog()
    on_2u = {o.id: o for o in catalog.offers if o.platform == PLATFORM}
    assert {"l40s", "h100-pcie", "h100-nvl"} <= {o.gpu for o in on_2u.values()}
    assert "rtx-pro-6000-server" not in {o.gpu for o in on_2u.values()}
    for offer in on_2u.values():
        assert offer.kind == "quote" and offer.unit == "server" and max(offer.gpu_counts) <= 4
    # no bundled offer puts a card in a machine above the board power that machine is built for
    for offer in catalog.offers:
        limit = catalog.platform(offer.platform).max_gpu_board_w
        tdp = catalog.gpu(offer.gpu).tdp_w
        assert limit is None or tdp is None or tdp.value <= limit.value, offer.id
    # the 4U server of eight cards keeps its offers as they were
    l40s, pro = catalog.offer("SRV-L40S"), catalog.offer("SRV-RTXPRO6000-SE")
    assert (l40s.platform, l40s.gpu_counts, l40s.card_usd and l40s.card_usd.value) == ("srv-pcie-8", [4, 8], 8000)
    assert (pro.platform, pro.gpu_counts, pro.card_usd and pro.card_usd.value) == ("srv-pcie-8", [2, 4, 8], 8565)
    assert catalog.platform("srv-pcie-8").max_gpu_board_w is None


def test_the_2u_2kw_ecc_brief_gets_a_2u_server_instead_of_no_configuration() -> None:
    result = brief()
    assert result.status == "recommended" and result.plan is not None
    plan = result.plan
    assert plan.platform_id == PLATFORM and plan.purchase.unit == "server" and plan.purchase.how == "quote"
    assert plan.costs.power_w <= 2000 and plan.parallelism.num_gpus == 2
    assert plan.memory is not None and 2 * plan.memory.gpu_memory_bytes > 55e9  # the 55 GB of 16-bit weights
    assert plan.purchase.cards_eur is not None and plan.purchase.cards_eur < 80_000
    assert result.headline.id == "headline.quote_cards_under"
    text = " ".join(advice.summary(result, "fr")).replace("\u202f", " ").replace("\xa0", " ")
    assert "2U" in text and "sur devis" in text and "80 000 €" in text


def test_four_cards_in_the_2u_server_pass_the_2_kw_limit_and_are_refused_for_it() -> None:
    result = brief()
    four = [o for o in options_of(result, "SRV-2U-L40S") if o.parallelism.num_gpus == 4]
    assert four and not four[0].fits
    power = [r for r in four[0].reasons if r.id == "reason.power"]
    assert power and power[0].params["need"] > 2000 and power[0].params["limit"] == 2000
    assert four[0].costs.power_w >= 4 * 350 + 600  # four L40S at 350 W and a dual-socket host
    assert "2 000 W" in render("fr", power[0]).replace("\u202f", " ").replace("\xa0", " ")
    assert "2,000 W limit" in render("en", power[0])


def test_a_priced_workstation_within_budget_is_still_preferred_to_the_server_on_quote() -> None:
    # with workstations in scope, the 4 x RTX PRO 6000 Max-Q tower (62,846 EUR with two cards, ECC, ~1 kW) is
    # priced and within 80 kEUR: it is the plan; a server on quote is never the plan while a priced one fits
    result = brief(units=["workstation", "server", "node", "rack"], deployment=None, rack_units=None)
    assert result.plan is not None and result.plan.purchase.how == "buy"
    assert result.plan.within_budget
    assert any(o.fits and o.platform_id == PLATFORM for o in result.options)


VENDOR = """
[[offers]]
id = "V-2U-PRO6000"
name = "two RTX PRO 6000 Server Edition in a 2U server"
kind = "quote"
unit = "server"
platform = "srv-pcie-2u-4"
gpu = "rtx-pro-6000-server"
gpu_counts = [2]

[[offers]]
id = "V-4U-PRO6000"
name = "two RTX PRO 6000 Server Edition in a 4U server"
kind = "quote"
unit = "server"
platform = "srv-pcie-8"
gpu = "rtx-pro-6000-server"
gpu_counts = [2]
"""


def test_a_600_w_card_in_the_2u_server_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "vendor.toml"
    path.write_text(VENDOR)
    workload = EstimateRequest(model="Qwen/Qwen2.5-7B-Instruct", input_len=1024, output_len=256, concurrency=4)
    result = recommend(RecommendRequest(workload=workload, units=["server"], catalog=path, engine="generic"),
                       load_model("Qwen/Qwen2.5-7B-Instruct"))
    in_2u, in_4u = options_of(result, "V-2U-PRO6000"), options_of(result, "V-4U-PRO6000")
    assert in_2u and not any(o.fits for o in in_2u)
    board = [r for r in in_2u[0].reasons if r.id == "reason.gpu_board_power"]
    assert board and board[0].params["tdp"] == 600 and board[0].params["limit"] == 400
    assert any(o.fits for o in in_4u)  # the same cards in a machine built for them serve a 7B model
    assert result.plan is not None and result.plan.offer_id == "V-4U-PRO6000"
    en, fr = render("en", board[0]), render("fr", board[0])
    assert "600 W" in en and "400 W" in en and "RTX PRO 6000" in en
    assert "600 W" in fr and "400 W" in fr and "carte" in fr


PLATFORM_ENTRY = """
[[platforms]]
id = "v-2u"
name = "vendor 2U"
kind = "server"
gpu = "*"
max_gpus = {value = 4, src = ["vendor"]}
scaleup_domain = 1
cpu = {value = "dual socket", src = ["vendor"]}
max_gpu_board_w = {value = 0, src = ["vendor"]}

[sources]
vendor = "our data sheet"
"""


@pytest.mark.parametrize("value", ["0", "-350"])
def test_a_board_power_of_zero_or_less_names_the_field(tmp_path: Path, value: str) -> None:
    path = tmp_path / "platforms.toml"
    path.write_text(PLATFORM_ENTRY.replace("value = 0,", f"value = {value},"))
    with pytest.raises(InputError) as error:
        load_catalog(path)
    text = str(error.value)
    assert "platforms.toml" in text and "platforms[v-2u]" in text and "max_gpu_board_w" in text


def test_eight_h100_nvl_already_owned_are_checked_in_a_machine_that_holds_eight() -> None:
    # the only offer selling the H100 NVL is the 2U server of four: eight cards a customer owns still go in the
    # catalogue's 8-card PCIe server, not nowhere (Llama 3.1 70B in 16 bits, 141 GB, spreads over them)
    workload = EstimateRequest(model="llama-3.1-70b", input_len=1024, output_len=256, concurrency=8)
    result = recommend(RecommendRequest(workload=workload, units=["server", "node", "rack"], deployment="server",
                                        owned_config="8:h100-nvl", engine="generic"), load_model("llama-3.1-70b"))
    assert result.owned is not None and result.owned.parallelism.num_gpus == 8
    assert result.owned.platform_id == "srv-pcie-8" and result.owned.fits
