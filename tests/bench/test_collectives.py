"""`bench collectives` for real: two gloo ranks under torchrun on CPU, busbw at every size by the nccl-tests
conventions (NVIDIA/nccl-tests doc/PERFORMANCE.md); the link spec a GPU host would be compared with."""

from __future__ import annotations

import json

import pytest

from sizer_agent.tools.bench.collectives import busbw_factor, link_spec, message_sizes
from sizer_agent.tools.bench.compare import compare_results
from tests.bench.conftest import run_cli

pytest.importorskip("torch")


def test_two_ranks_report_busbw_at_each_size() -> None:
    done = run_cli("bench", "collectives", "--nproc-per-node", "2", "--device", "cpu", "--max-bytes", "64K",
                   "--warmup", "1", "--iters", "3", "--json", timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["world_size"] == 2 and result["backend"] == "gloo"
    sizes = [8 * 2**k for k in range(14)]  # 8 B ... 64 KiB by x2, as nccl-tests -b 8 -e 64K -f 2
    for op in ("all_reduce", "all_gather", "reduce_scatter"):
        points = [p for p in result["points"] if p["op"] == op]
        assert [p["size_bytes"] for p in points] == sizes
        for p in points:
            assert p["count"] == p["size_bytes"] // 4  # float32, the whole array, divisible by 2 ranks
            assert p["time_us"] > 0 and p["wrong"] == 0  # the operation computed the right result
            assert p["algbw_gbs"] == pytest.approx(p["size_bytes"] / (p["time_us"] / 1e6) / 1e9)
            # n = 2: all-reduce busbw = algbw × 2(n-1)/n = algbw; gather/scatter × (n-1)/n = algbw / 2
            expected = 1.0 if op == "all_reduce" else 0.5
            assert p["busbw_gbs"] == pytest.approx(p["algbw_gbs"] * expected)
        assert result["peak_busbw_gbs"][op] == max(p["busbw_gbs"] for p in points)
    assert result["link"]["kind"] == "none" and result["ratio"]["all_reduce"] is None  # loopback has no spec
    # bench compare: the same trial side by side; another rank count is a different trial
    same = compare_results(result, result)
    assert same.comparable and {row.ratio for row in same.rows} == {1.0}
    other = compare_results(result, {**result, "world_size": 4})
    assert not other.comparable and [d.field for d in other.differences] == ["world_size"]


def test_factors_for_eight_ranks() -> None:
    assert busbw_factor("all_reduce", 8) == pytest.approx(1.75)
    assert busbw_factor("all_gather", 8) == busbw_factor("reduce_scatter", 8) == pytest.approx(0.875)
    assert message_sizes(8, 1 << 30)[-1] == 1 << 30 and len(message_sizes(8, 1 << 30)) == 28


def test_link_specs() -> None:
    # H200 SXM: NVLink 4, 900 GB/s per GPU both directions (NVIDIA H200 datasheet) -> 450 GB/s one way
    nvlink = link_spec("NVIDIA H200", 8, 1, None)
    assert nvlink.kind == "nvlink" and nvlink.gbs == pytest.approx(450.0)
    # across nodes a 400 Gb/s NDR NIC per GPU moves 50 GB/s
    network = link_spec("NVIDIA H200", 16, 2, 400.0)
    assert network.kind == "network" and network.gbs == pytest.approx(50.0)


def test_bad_operation_is_one_line_exit_2() -> None:
    done = run_cli("bench", "collectives", "--ops", "all_to_all")
    assert done.returncode == 2 and "--ops" in done.stderr and len(done.stderr.strip().splitlines()) == 1
