"""The catalogue: sourced data loads, ids resolve, vendor files merge, bad files name file/entry/field."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sizer_agent.tools.catalog import gpu_memory_bytes, load_catalog
from sizer_agent.tools.errors import InputError

REQUIRED_GPUS = [
    "rtx-5080", "rtx-5090", "rtx-pro-6000-ws", "rtx-pro-6000-server", "rtx-pro-6000-maxq", "rtx-6000-ada", "l40s",
    "a100-40gb-sxm", "a100-80gb-sxm", "h100-sxm", "h100-pcie", "h100-nvl", "h200-sxm", "h200-nvl", "b200", "b300",
    "gb200", "gb300", "mi300x", "mi325x", "mi355x", "rtx-pro-4000", "rtx-pro-4500", "rtx-pro-5000",
]


def test_every_required_gpu_and_platform_is_there() -> None:
    catalog = load_catalog()
    ids = {g.id for g in catalog.gpus}
    assert set(REQUIRED_GPUS) <= ids
    assert {"gb300-nvl72", "hgx-b300-8", "hgx-h200-8", "dgx-b200"} <= {p.id for p in catalog.platforms}
    assert "SYS-822GS-NB3RT" in catalog.platform("hgx-b300-8").name


def test_seed_offers_with_their_prices() -> None:
    catalog = load_catalog()
    expected = {"ACD-006": ("rtx-5080", 7160), "ACD-009": ("rtx-5090", 22670), "ACD-014": ("rtx-pro-6000-ws", 55480)}
    for offer_id, (gpu, price) in expected.items():
        offer = catalog.offer(offer_id)
        assert offer.gpu == gpu
        assert offer.price_eur is not None and offer.price_eur.value == price
        assert offer.gpu_counts == [1]


def test_usable_memory_is_what_the_driver_reports() -> None:
    # docs/design.md §4: H200 "141 GB" shows as 143,771 MiB
    assert gpu_memory_bytes("h200-sxm") == 143_771 * 2**20
    catalog = load_catalog()
    for gpu in catalog.gpus:
        assert gpu.memory_bytes > 0.9 * gpu.memory_gb.value * 1e9 or gpu.memory_gb.value * 2**30 >= gpu.memory_bytes
        assert gpu.bandwidth_gbs.value > 0
        # a card or module someone installs has a board power; only rented-only chips (TPU, Trainium) lack one
        assert gpu.tdp_w is not None or gpu.form_factor == "cloud-only", gpu.id
        assert gpu.peak_tflops, gpu.id
        assert "bf16" in gpu.peak_tflops, f"{gpu.id} needs a 16-bit peak for the perf model"


def test_every_cited_source_is_defined() -> None:
    catalog = load_catalog()  # the model validator rejects undefined keys; check the table is not empty too
    assert len(catalog.sources) > 50
    assert all(text.strip() for text in catalog.sources.values())


def test_conflicts_are_kept_not_hidden() -> None:
    catalog = load_catalog()
    assert catalog.gpu("mi355x").conflicts  # dense peak figures disagree between sources
    server = catalog.gpu("rtx-pro-6000-server")
    assert server.display_outputs.value == 0 and "CONFLICT" in (server.display_outputs.note or "")
    assert server.peak_tflops["bf16"].derived


# NVIDIA datasheets: memory GB, bandwidth GB/s, board power W, 'AI TOPS' (FP4 with sparsity)
RTX_PRO_BLACKWELL = {"rtx-pro-4000": (24, 672, 145, 1178), "rtx-pro-4500": (32, 896, 200, 1617),
                     "rtx-pro-5000": (48, 1344, 300, 2064)}


def test_mid_range_rtx_pro_blackwell_cards_are_sourced_and_dense() -> None:
    catalog = load_catalog()
    flagship = catalog.gpu("rtx-pro-6000-ws")
    for gpu_id, (memory_gb, bandwidth, tdp, ai_tops) in RTX_PRO_BLACKWELL.items():
        gpu = catalog.gpu(gpu_id)
        assert (gpu.memory_gb.value, gpu.bandwidth_gbs.value, gpu.tdp_w and gpu.tdp_w.value) == (memory_gb, bandwidth,
                                                                                                   tdp)
        # the driver shows a little less than the marketing size (nvidia-smi 24,467 / 32,623 / 48,935 MiB)
        assert 0.97 * memory_gb * 2**30 < gpu.memory_bytes < memory_gb * 2**30
        assert gpu.ecc.value and gpu.graphics.value == "rtx-pro" and gpu.display_outputs.value == 4
        assert gpu.interconnect.pcie_gen == 5 and gpu.interconnect.scaleup_gbs == 0  # no NVLink
        peaks = gpu.peak_tflops
        # NVIDIA's AI TOPS are sparse FP4: dense FP4 is half, FP8 a quarter, BF16 an eighth (the PRO 6000's ratio)
        assert peaks["fp4"].value == ai_tops / 2 and peaks["fp8"].value == ai_tops / 4
        assert peaks["bf16"].value == pytest.approx(ai_tops / 8, abs=0.05)
        assert all(peaks[p].derived for p in ("fp4", "fp8", "bf16", "int8"))
        assert peaks["bf16"].value < flagship.peak_tflops["bf16"].value
        assert gpu.bandwidth_gbs.value < flagship.bandwidth_gbs.value
    assert catalog.gpu("rtx-pro-5000").architecture == flagship.architecture  # GB202, a cut-down PRO 6000 die


# Ampere GA102 cards customers already own (GA102 whitepaper v2, NVIDIA spec table): memory GB, bandwidth GB/s,
# board power W, dense FP16/BF16 tensor TFLOP/s with FP32 accumulate, dense INT8 TOP/s, nvidia-smi MiB
OWNED_AMPERE = {"rtx-3090": (24, 936, 350, 71, 284, 24576), "rtx-a6000": (48, 768, 300, 154.8, 309.7, 49140)}


def test_owned_ampere_cards_are_sourced_checked_as_they_are_and_bridged_in_pairs() -> None:
    catalog = load_catalog()
    sold = {offer.gpu for offer in catalog.offers}
    for gpu_id, (memory_gb, bandwidth, tdp, bf16, int8, mib) in OWNED_AMPERE.items():
        gpu = catalog.gpu(gpu_id)
        assert gpu.id not in sold  # a card customers own, checked as it is (as rtx-4090): no offer sells it new
        assert gpu.architecture == "Ampere (GA102)" and gpu.form_factor == "pcie"
        assert (gpu.memory_gb.value, gpu.bandwidth_gbs.value, gpu.tdp_w and gpu.tdp_w.value) == (memory_gb, bandwidth,
                                                                                                   tdp)
        assert gpu.usable_memory_mib.value == mib and not gpu.usable_memory_mib.derived
        peaks = gpu.peak_tflops
        assert peaks["bf16"].value == peaks["fp16"].value == bf16 and peaks["int8"].value == int8
        assert not peaks["bf16"].derived and peaks["tf32"].derived  # TF32 from the half-rate ratio, said so
        assert "fp8" not in peaks and "fp4" not in peaks  # Ampere has no FP8 tensor unit
        # the third-generation NVLink bridge joins a pair: 112.5 GB/s total, a scale-up domain of 2 over PCIe 4.0
        ic = gpu.interconnect
        assert (ic.kind, ic.pcie_gen, ic.scaleup_gbs, ic.scaleup_domain) == ("pcie", 4, 112.5, 2)
        assert "112.5" in catalog.sources["hf_nvlink_ga102"] and gpu.indicative_price is not None
        figures = (gpu.memory_gb, gpu.bandwidth_gbs, gpu.ecc, gpu.usable_memory_mib, peaks["bf16"])
        assert all(key in catalog.sources for figure in figures for key in figure.src)
    geforce, pro = catalog.gpu("rtx-3090"), catalog.gpu("rtx-a6000")
    # GeForce runs FP32 accumulate at half its FP16-accumulate rate (142 dense); the pro card runs it at full rate
    assert "half" in (geforce.peak_tflops["bf16"].note or "") and geforce.peak_tflops["bf16"].value < pro.peak_tflops[
        "bf16"].value / 2
    assert not geforce.ecc.value and geforce.graphics.value == "geforce" and not geforce.interconnect.p2p
    assert pro.ecc.value and pro.graphics.value == "rtx-pro" and pro.display_outputs.value == 4
    assert geforce.name == "NVIDIA GeForce RTX 3090" and pro.name == "NVIDIA RTX A6000"


def test_rtx_pro_workstations_are_the_pro_platform_with_the_card_swapped() -> None:
    # seed 002's ACD-006 (7 160 EUR, one 360 W RTX 5080) - the 5080 at its MSRP USD 999 + the pro card, at 0.86 EUR/USD
    catalog = load_catalog()
    rate = catalog.assumptions.eur_per_usd.value
    base = catalog.offer("ACD-006")
    card_usd = {"ACD-006-PRO4000": ("rtx-pro-4000", 1500), "ACD-006-PRO4500": ("rtx-pro-4500", 2800),
                "ACD-006-PRO5000": ("rtx-pro-5000", 6298)}
    for offer_id, (gpu_id, usd) in card_usd.items():
        offer = catalog.offer(offer_id)
        assert offer.gpu == gpu_id and offer.platform == base.platform and offer.gpu_counts == [1]
        assert offer.price_kind == "estimate" and offer.price_date and offer.price_eur and offer.price_eur.derived
        assert offer.price_eur.value == pytest.approx(7160 + (usd - 999) * rate, abs=1)
        # one card that draws less than the RTX 5080 it replaces: the platform's slots and power as sold
        assert catalog.gpu(gpu_id).tdp_w.value < catalog.gpu("rtx-5080").tdp_w.value  # type: ignore[union-attr]
        assert not offer.to_confirm
        assert offer.price_eur.value < catalog.offer("ACD-009").price_eur.value  # type: ignore[union-attr]


def test_unknown_gpu_lists_known_ids() -> None:
    with pytest.raises(InputError) as error:
        load_catalog().gpu("rtx-9090")
    assert "h200-sxm" in str(error.value) and error.value.field == "gpu"


VENDOR = """
[[offers]]
id = "V-1"
name = "Vendor dual 5090"
kind = "purchase"
platform = "ws-acd-009"
gpu = "rtx-5090"
gpu_counts = [2]
price_eur = {value = 30000, src = ["vendor"]}

[sources]
vendor = "our price list"
"""


def test_vendor_file_replaces_offers_and_keeps_gpus(tmp_path: Path) -> None:
    path = tmp_path / "vendor.toml"
    path.write_text(VENDOR)
    catalog = load_catalog(path)
    assert [o.id for o in catalog.offers] == ["V-1"]
    assert catalog.gpu("h200-sxm")  # bundled GPUs stay


@pytest.mark.parametrize(("old", "new", "field"), [
    ('price_eur = {value = 30000, src = ["vendor"]}', "", "price_eur"),  # missing
    ("value = 30000", "value = -5", "price_eur.value"),  # negative
    ("gpu_counts = [2]", "", "gpu_counts"),  # missing
    ("gpu_counts = [2]", "gpu_counts = [-1]", "gpu_counts"),  # negative
])
def test_bad_offer_names_file_entry_and_field(tmp_path: Path, old: str, new: str, field: str) -> None:
    path = tmp_path / "offers.toml"
    path.write_text(VENDOR.replace(old, new))
    with pytest.raises(InputError) as error:
        load_catalog(path)
    text = str(error.value)
    assert "offers.toml" in text and "offers[V-1]" in text and field in text


def test_unknown_reference_and_bad_toml(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text(VENDOR.replace('gpu = "rtx-5090"', 'gpu = "nope"'))
    with pytest.raises(InputError, match="unknown GPU id 'nope'"):
        load_catalog(path)
    path.write_text("[[offers]\n")
    with pytest.raises(InputError, match="not valid TOML"):
        load_catalog(path)
    with pytest.raises(InputError, match="no such file"):
        load_catalog(tmp_path / "missing.toml")


values = st.one_of(st.integers(-10, 10), st.floats(allow_nan=True), st.text(max_size=5), st.booleans(),
                   st.lists(st.integers(-2, 3), max_size=3), st.none())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(["id", "name", "kind", "platform", "gpu", "gpu_counts", "price_eur"]),
                       values, max_size=7))
def test_fuzzed_offer_entries_only_raise_input_error(tmp_path: Path, entry: dict[str, object]) -> None:
    import tomlkit

    doc = tomlkit.document()
    clean = {k: v for k, v in entry.items() if v is not None and v == v}
    doc["offers"] = [clean]
    path = tmp_path / "fuzz.toml"
    path.write_text(tomlkit.dumps(doc))
    try:
        load_catalog(path)
    except InputError as error:
        assert "fuzz.toml" in str(error)
