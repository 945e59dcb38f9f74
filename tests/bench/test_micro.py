"""`bench micro` on a host without a GPU (the real path here) and its pure parts (spec lookup, busbw)."""

from __future__ import annotations

import json

import pytest

from sizer_agent.tools.bench.micro import MicroSettings, busbw_from_algbw, find_spec, run_micro
from tests.bench.conftest import run_cli


def test_without_gpu_it_says_so_and_exits_zero() -> None:
    result = run_micro(MicroSettings())
    assert result.available is False and "GPU" in (result.reason or "")
    done = run_cli("bench", "micro")
    assert done.returncode == 0 and "nothing measured" in done.stdout
    assert json.loads(result.model_dump_json())["measurements"] == []


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("NVIDIA H200", "NVIDIA H200 SXM 141GB"),
        ("NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5 80GB"),
        ("NVIDIA H100 PCIe", "NVIDIA H100 PCIe 80GB"),
        ("NVIDIA A100-SXM4-80GB", "NVIDIA A100 80GB SXM4"),
        ("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition"),
        ("NVIDIA GeForce RTX 5090", "NVIDIA GeForce RTX 5090"),
        ("NVIDIA RTX PRO 4000 Blackwell", "NVIDIA RTX PRO 4000 Blackwell"),
        ("NVIDIA RTX PRO 4500 Blackwell", "NVIDIA RTX PRO 4500 Blackwell"),
        ("NVIDIA RTX PRO 5000 Blackwell", "NVIDIA RTX PRO 5000 Blackwell"),
    ],
)
def test_spec_lookup_by_device_name(name: str, expected: str) -> None:
    spec = find_spec(name)
    assert spec is not None and spec.name == expected and spec.source


def test_unknown_gpu_has_no_spec() -> None:
    assert find_spec("NVIDIA Tesla T4") is None


@pytest.mark.parametrize("name", ["NVIDIA RTX 4000 Ada Generation", "NVIDIA RTX 5000 Ada Generation",
                                  "NVIDIA RTX PRO 4000 Blackwell SFF Edition",
                                  "NVIDIA RTX PRO 5000 Blackwell Generation Laptop GPU"])
def test_another_board_of_the_same_number_gets_no_spec(name: str) -> None:
    # Ada cards (GDDR6) and the 70 W SFF or laptop RTX PRO parts are not the catalogue's desktop Blackwell cards
    assert find_spec(name) is None


def test_catalogue_figures_are_used_with_their_sources() -> None:
    spec = find_spec("NVIDIA H200")
    assert spec is not None and spec.tflops["bf16"] == 989.0 and spec.memory_bandwidth_gbs == 4800.0
    assert "catalogue" in spec.source and "h200-sxm" in spec.source


def test_busbw_follows_nccl_tests() -> None:
    # nccl-tests PERFORMANCE.md: all-reduce busbw = algbw × 2(n−1)/n; 8 GPUs → factor 1.75.
    assert busbw_from_algbw(100.0, 8) == pytest.approx(175.0)
    assert busbw_from_algbw(100.0, 2) == pytest.approx(100.0)


def test_memory_streams_measure_read_write_copy_apart_on_cpu() -> None:
    torch = pytest.importorskip("torch")
    from sizer_agent.tools.bench.micro import memory_streams

    streams = memory_streams(torch, torch.device("cpu"), 64 << 20, 3)
    assert set(streams) == {"read", "write", "copy"}
    # 64 MiB is far beyond any CPU cache: DRAM speed, which for any server or VM lies in 0.5..2000 GB/s
    for name, gbs in streams.items():
        assert 0.5 < gbs < 2000, name
