"""The Ray cluster a multi-node vLLM runs on, checked before vLLM starts.

vLLM spans nodes the way its docs describe ("Distributed inference and serving", docs.vllm.ai, read
2026-12-01): a Ray cluster (`ray start --head` on one node, `ray start --address=HEAD:6379` on the others),
then one `vllm serve` on the head with `--tensor-parallel-size` = GPUs per node and
`--pipeline-parallel-size` = nodes, `--distributed-executor-backend ray`. The pre-flight check asks Ray's
GCS for its nodes (`ray.nodes()`, in the interpreter that runs vLLM, which has Ray as a dependency) and
refuses when the plan cannot be placed: fewer alive nodes than pipeline stages, a node with fewer GPUs than
the tensor-parallel size, or fewer GPUs in all than TP × PP.
"""

from __future__ import annotations

import json
import subprocess

from pydantic import BaseModel, Field

_NODES_SCRIPT = """
import json, sys
import ray
ray.init(address=sys.argv[1], logging_level="ERROR", log_to_driver=False)
nodes = [{"node_id": n["NodeID"], "address": n["NodeManagerAddress"], "alive": bool(n["Alive"]),
          "gpus": float(n["Resources"].get("GPU", 0)), "cpus": float(n["Resources"].get("CPU", 0))}
         for n in ray.nodes()]
print("RAY_NODES " + json.dumps({"version": ray.__version__, "nodes": nodes}))
ray.shutdown()
"""


class RayClusterError(RuntimeError):
    """The cluster cannot be reached, or cannot hold the plan (the message says why)."""


class RayNode(BaseModel):
    node_id: str
    address: str
    alive: bool
    gpus: float
    cpus: float


class RayClusterCheck(BaseModel):
    address: str
    ray_version: str
    nodes: list[RayNode]
    alive_nodes: int
    total_gpus: float
    tensor_parallel_size: int
    pipeline_parallel_size: int
    problems: list[str] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def ray_nodes(python: str, address: str, timeout_s: float = 60.0) -> tuple[str, list[RayNode]]:
    """(Ray version, nodes) from the cluster's GCS at `address`, asked from the interpreter `python`."""
    try:
        done = subprocess.run([python, "-c", _NODES_SCRIPT, address], capture_output=True, text=True,
                              timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise RayClusterError(f"cannot ask the Ray cluster at {address} with {python}: {error}") from None
    line = next((x for x in done.stdout.splitlines() if x.startswith("RAY_NODES ")), None)
    if done.returncode != 0 or line is None:
        cause = (done.stderr.strip().splitlines() or ["no output"])[-1]
        if "No module named 'ray'" in done.stderr:
            cause = f"Ray is not installed in {python} (pip install ray; vLLM's GPU wheels bring it)"
        raise RayClusterError(f"no Ray cluster answered at {address}: {cause}")
    data = json.loads(line.removeprefix("RAY_NODES "))
    return str(data["version"]), [RayNode.model_validate(node) for node in data["nodes"]]


def check_cluster(address: str, version: str, nodes: list[RayNode], tensor_parallel: int,
                  pipeline_parallel: int) -> RayClusterCheck:
    alive = [n for n in nodes if n.alive]
    total = sum(n.gpus for n in alive)
    problems = []
    if len(alive) < pipeline_parallel:
        problems.append(f"{len(alive)} alive node(s), --pipeline-parallel-size {pipeline_parallel} needs "
                        f"{pipeline_parallel} (one stage per node)")
    small = [n for n in alive if n.gpus < tensor_parallel]
    if pipeline_parallel > 1 and len(alive) - len(small) < pipeline_parallel:
        problems.append("node(s) with fewer GPUs than --tensor-parallel-size "
                        f"{tensor_parallel}: " + ", ".join(f"{n.address} ({n.gpus:g})" for n in small))
    if total < tensor_parallel * pipeline_parallel:
        problems.append(f"{total:g} GPU(s) in the cluster, TP {tensor_parallel} x PP {pipeline_parallel} needs "
                        f"{tensor_parallel * pipeline_parallel}")
    return RayClusterCheck(address=address, ray_version=version, nodes=nodes, alive_nodes=len(alive),
                           total_gpus=total, tensor_parallel_size=tensor_parallel,
                           pipeline_parallel_size=pipeline_parallel, problems=problems)


def preflight(python: str, address: str, tensor_parallel: int, pipeline_parallel: int) -> RayClusterCheck:
    """The check, or RayClusterError naming every problem."""
    version, nodes = ray_nodes(python, address)
    check = check_cluster(address, version, nodes, tensor_parallel, pipeline_parallel)
    if not check.ok:
        raise RayClusterError(f"the Ray cluster at {address} cannot hold the plan: " + "; ".join(check.problems))
    return check
