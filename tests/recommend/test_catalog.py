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
    "gb200", "gb300", "mi300x", "mi325x", "mi355x",
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
