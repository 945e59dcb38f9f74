"""Start a module on every rank with `torchrun` (torch.distributed.run) and wait for it.

One node: `--standalone` (a local c10d rendezvous on a free port). Several nodes: the same command on every
node with the same `--rdzv-endpoint HOST:PORT` and `--rdzv-id`; torchrun's c10d rendezvous (a TCPStore on
the endpoint's host) assigns the ranks (PyTorch docs, "torchrun (Elastic Launch)").
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from sizer_agent.tools.errors import InputError

Progress = Callable[[str], None]


class TorchrunError(RuntimeError):
    """torchrun or a rank failed (the message carries the error lines and the tail of the log)."""


class Launch(BaseModel):
    nproc_per_node: int = Field(1, ge=1, description="ranks on this node (one per GPU)")
    nnodes: int = Field(1, ge=1)
    rdzv_endpoint: str | None = Field(None, description="HOST:PORT of the c10d rendezvous (several nodes)")
    rdzv_id: str = Field("sizer-bench", description="same on every node of one job")
    timeout_s: float = Field(3600.0, gt=0)


def check_launch(launch: Launch) -> None:
    if launch.nnodes > 1 and launch.rdzv_endpoint is None:
        raise InputError("--rdzv-endpoint", "several nodes need a rendezvous endpoint", "HOST:PORT of node 0")
    if launch.rdzv_endpoint is not None:
        host, _, port = launch.rdzv_endpoint.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise InputError("--rdzv-endpoint", f"{launch.rdzv_endpoint!r} is not HOST:PORT", "e.g. 10.0.0.1:29400")


def torchrun_command(launch: Launch, module: str, arguments: list[str]) -> list[str]:
    command = [sys.executable, "-m", "torch.distributed.run", f"--nproc-per-node={launch.nproc_per_node}"]
    if launch.nnodes == 1 and launch.rdzv_endpoint is None:
        command.append("--standalone")
    else:
        command += [f"--nnodes={launch.nnodes}", "--rdzv-backend=c10d", f"--rdzv-endpoint={launch.rdzv_endpoint}",
                    f"--rdzv-id={launch.rdzv_id}"]
    return [*command, "--module", module, *arguments]


def run_torchrun(command: list[str], timeout_s: float, progress: Progress | None) -> None:
    """Run torchrun, forwarding its lines to `progress`; TorchrunError with the cause when it fails."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])  # the tree holding sizer_agent/, for the ranks' imports
    env["PYTHONPATH"] = os.pathsep.join(p for p in [root, env.get("PYTHONPATH", "")] if p)
    env.setdefault("OMP_NUM_THREADS", "1")  # torchrun's own default with several ranks, set to silence its note
    tail: deque[str] = deque(maxlen=30)
    errors: deque[str] = deque(maxlen=3)  # "XxxError: ..." lines: the cause, often far above the tail
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    assert process.stdout is not None
    try:
        for line in process.stdout:
            tail.append(line.rstrip())
            if re.search(r"\w(Error|Exception): ", line):
                errors.append(line.rstrip())
            if progress is not None:
                progress(line.rstrip())
        code = process.wait(timeout=timeout_s)
    except (subprocess.TimeoutExpired, KeyboardInterrupt):
        process.terminate()  # torchrun forwards SIGTERM to its ranks
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        raise
    if code != 0:
        raise TorchrunError(f"torchrun exited with {code}; " + " | ".join(errors) + "\nlog tail:\n" + "\n".join(tail))
