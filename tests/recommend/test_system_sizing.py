"""System sizing rules: each requirement has its value and the guidance's reason
(docs/method.md)."""

from __future__ import annotations

from sizer_agent.i18n import render
from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.system_sizing import SystemRequest, graphics_issue, size_system


def reqs(**kw: object) -> dict[str, object]:
    return {r.name: r.value for r in size_system(SystemRequest(**kw)).requirements}  # type: ignore[arg-type]


def test_ram_base_and_multi_gpu() -> None:
    assert reqs()["host_ram"] == 64.0  # docs/method.md, seed 002: 64 GB practical base
    assert reqs(num_gpus=2)["host_ram"] == 128.0  # several GPUs: 128 GB+
    assert reqs(num_gpus=8, gpu_memory_used_bytes=140 * 10**9)["host_ram"] >= 1.8 * 8 * 140  # DGX ratio
    sizing = size_system(SystemRequest())
    assert all(r.reason for r in sizing.requirements)
    reason = next(r.reason for r in sizing.requirements if r.name == "host_ram")
    assert "64 Go" in render("fr", reason) and "64 GB" in render("en", reason)


def test_nvme_and_checkpoint_write_bandwidth() -> None:
    r = reqs(mode="training", weight_bytes=16 * 10**9, checkpoint_bytes=120 * 10**9, checkpoints_kept=3)
    assert r["nvme_capacity"] >= (32 + 360) / 1000
    assert r["nvme_write_bandwidth"] == 1.0  # 120 GB in 120 s


def test_lanes_cpu_psu() -> None:
    catalog = load_catalog()
    assert reqs()["cpu_class"] == "desktop"
    assert reqs(num_gpus=4)["cpu_class"] in ("threadripper", "threadripper_pro")
    sizing = size_system(SystemRequest(num_gpus=1), catalog.gpu("rtx-5090"), catalog.platform("ws-acd-009"))
    psu = next(r for r in sizing.requirements if r.name == "psu")
    assert psu.value == 1300.0  # (575 + 400) x 1.3 rounded up to 50 W


def test_platform_and_gpu_issues() -> None:
    catalog = load_catalog()
    sizing = size_system(SystemRequest(num_gpus=2, long_running=True, needs_graphics=True),
                         catalog.gpu("rtx-5080"), catalog.platform("ws-acd-006"))
    text = " | ".join(render("en", issue) for issue in sizing.issues)
    assert "holds 1 GPU, 2 needed" in text and "ECC" in text and "not ISV-certified" in text


def test_graphics_classes() -> None:
    catalog = load_catalog()
    assert graphics_issue(catalog.gpu("rtx-pro-6000-ws")) is None
    assert "vGPU" in render("en", graphics_issue(catalog.gpu("l40s")))  # type: ignore[arg-type]
    assert "compute-only" in render("en", graphics_issue(catalog.gpu("h200-sxm")))  # type: ignore[arg-type]


def test_a_rack_server_is_sized_with_a_server_cpu_and_front_to_back_airflow() -> None:
    from sizer_agent.tools.catalog import load_catalog
    from sizer_agent.tools.system_sizing import SystemRequest, size_system

    # two 600 W cards: a tower takes them on air with a Threadripper's lanes; in a rack server the lanes come from
    # its EPYC or Xeon sockets and the chassis is cooled front to back whatever its draw
    catalog = load_catalog()
    gpu = catalog.gpu("rtx-pro-6000-server")
    request = SystemRequest(mode="training", num_gpus=2, gpu_memory_used_bytes=70 * 2**30, weight_bytes=16 * 10**9)
    server = {r.name: r.value for r in size_system(request, gpu, catalog.platform(
        catalog.offer("SRV-RTXPRO6000-SE").platform)).requirements}
    assert server["cpu_class"] == "server_cpu" and server["cooling"] == "server_airflow"
    tower = {r.name: r.value for r in size_system(request, catalog.gpu("rtx-pro-6000-maxq"), catalog.platform(
        catalog.offer("ACD-014-MAXQ").platform)).requirements}
    assert tower["cpu_class"] == "threadripper" and tower["cooling"] == "air_tower"
