"""The pre-flight check of a multi-node vLLM launch against a real Ray cluster of two nodes on 127.0.0.1
(`ray start --head` and `ray start --address`, each declaring one GPU as a logical resource, as a node of a
one-GPU-per-node cluster would); the launcher refuses a plan the cluster cannot hold before vLLM starts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from sizer_agent.tools.bench.ray_cluster import RayClusterError, preflight, ray_nodes
from sizer_agent.tools.bench.vllm_launcher import LaunchSettings, free_port
from tests.bench.conftest import run_cli


def _ray_python() -> str | None:
    """SIZER_RAY_PYTHON, or this interpreter when it has Ray (the `multinode` extra, part of `dev`)."""
    candidate = os.environ.get("SIZER_RAY_PYTHON") or sys.executable
    done = subprocess.run([candidate, "-c", "import ray"], capture_output=True)
    return candidate if done.returncode == 0 else None


RAY_PYTHON = _ray_python()
needs_ray = pytest.mark.skipif(
    RAY_PYTHON is None,
    reason="Ray is not installed here: pip install 'sizer-agent[multinode]' (in `dev`), or SIZER_RAY_PYTHON",
)


@dataclass
class Cluster:
    address: str
    python: str


@pytest.fixture(scope="module")
def two_nodes() -> Iterator[Cluster]:
    assert RAY_PYTHON is not None
    port = free_port()
    # small object stores (Ray's minimum, 75 MiB) so a CI container's /dev/shm and memory are enough
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=1", "--num-gpus=1", "--disable-usage-stats",
              f"--object-store-memory={75 * 2**20}", "--block"]
    ray = [RAY_PYTHON, "-m", "ray.scripts.scripts", "start"]
    # --block: each `ray start` stays in the foreground and ends the Ray processes it started on SIGTERM
    head = ["--head", f"--port={port}", "--include-dashboard=false"]
    started = [subprocess.Popen([*ray, *head, *common],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        worker_started = False
        while time.monotonic() < deadline:
            dead = [p.args for p in started if p.poll() is not None]
            if dead:
                pytest.fail(f"`ray start` exited early: {dead[0]}")
            try:
                _, nodes = ray_nodes(RAY_PYTHON, address, timeout_s=30)
            except RayClusterError:
                time.sleep(0.5)
                continue
            if not worker_started:
                started.append(subprocess.Popen([*ray, f"--address={address}", *common],
                                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                worker_started = True
            if sum(n.alive for n in nodes) == 2:
                break
            time.sleep(0.5)
        else:
            pytest.fail("the two-node Ray cluster did not come up in 90 s")
        yield Cluster(address=address, python=RAY_PYTHON)
    finally:
        for process in reversed(started):
            process.send_signal(signal.SIGTERM)
        for process in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


@needs_ray
def test_preflight_accepts_one_stage_per_node(two_nodes: Cluster) -> None:
    check = preflight(two_nodes.python, two_nodes.address, tensor_parallel=1, pipeline_parallel=2)
    assert check.ok and check.alive_nodes == 2 and check.total_gpus == 2
    assert len({n.node_id for n in check.nodes}) == 2 and all(n.gpus == 1 for n in check.nodes)


@needs_ray
def test_preflight_refuses_what_the_cluster_cannot_hold(two_nodes: Cluster) -> None:
    with pytest.raises(RayClusterError) as tp:
        preflight(two_nodes.python, two_nodes.address, tensor_parallel=2, pipeline_parallel=2)
    assert "--tensor-parallel-size 2" in str(tp.value) and "needs 4" in str(tp.value)
    # the launcher runs the same check first: a third stage on two nodes never starts vLLM
    done = run_cli("bench", "launch", "--model", "any/model", "--vllm-python", two_nodes.python,
                   "--ray-address", two_nodes.address, "--pipeline-parallel-size", "3", "--num-prompts", "1")
    assert done.returncode == 1
    assert "--pipeline-parallel-size 3 needs 3" in done.stderr and "vLLM" not in done.stderr.split(":")[0]


def test_launch_command_spans_nodes_the_vllm_way() -> None:
    # vLLM docs (distributed serving): TP inside a node, PP across nodes, the Ray executor
    settings = LaunchSettings(model="m", tensor_parallel_size=8, pipeline_parallel_size=2, ray_address="10.0.0.1:6379")
    command = settings.command(8000)
    assert command[command.index("--tensor-parallel-size") + 1] == "8"
    assert command[command.index("--pipeline-parallel-size") + 1] == "2"
    assert command[command.index("--distributed-executor-backend") + 1] == "ray"
    assert "--distributed-executor-backend" not in LaunchSettings(model="m").command(8000)
