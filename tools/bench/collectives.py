"""`bench collectives`: all-reduce, all-gather and reduce-scatter bandwidth over message sizes, on the GPUs
of a node or across nodes, with torch.distributed (NCCL on GPUs, gloo on CPU) under torchrun.

Conventions are nccl-tests' (github.com/NVIDIA/nccl-tests, doc/PERFORMANCE.md, read 2026-12-01):
- S is the size of the whole array in bytes: the all-reduce buffer; for all-gather the gathered output
  (sendcount × n × type size), for reduce-scatter the input (recvcount × n × type size). Sizes go from
  --min-bytes to --max-bytes by a factor of 2 (nccl-tests -b 8 -e ... -f 2); the element count is rounded
  down to a multiple of the rank count, as nccl-tests does.
- algbw = S / t;  busbw = algbw × 2(n−1)/n (all-reduce), × (n−1)/n (all-gather, reduce-scatter).
  busbw reflects the bottleneck link (NVLink, PCIe, network) independently of n and is what is compared
  with the link's one-direction spec.
t is the mean time of one operation over --iters back-to-back operations after --warmup untimed ones
(nccl-tests defaults: 5 warm-up, 20 timed), taken on the slowest rank. Then one more operation on known
data is checked element by element (`wrong`, as nccl-tests' #wrong column).

Link spec (measured/spec): inside a node, the catalogue's link for this GPU and group (tools.perf.collectives
.link: NVLink one-direction = scale-up GB/s / 2, else PCIe); across nodes, the NIC: --nic-gbps (per GPU,
rail-optimised fabric: one NIC per GPU) or the InfiniBand rate read from /sys/class/infiniband.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.bench.torchrun import Launch, Progress, check_launch, run_torchrun, torchrun_command
from sizer_agent.tools.errors import InputError

Op = Literal["all_reduce", "all_gather", "reduce_scatter"]
OPS: tuple[Op, ...] = ("all_reduce", "all_gather", "reduce_scatter")
_ELEMENT_BYTES = 4  # float32, nccl-tests' default type


def busbw_factor(op: Op, ranks: int) -> float:
    """nccl-tests PERFORMANCE.md: all-reduce 2(n−1)/n; all-gather and reduce-scatter (n−1)/n."""
    if op == "all_reduce":
        return 2.0 * (ranks - 1) / ranks
    return (ranks - 1) / ranks


def message_sizes(min_bytes: int, max_bytes: int, factor: int = 2) -> list[int]:
    sizes = []
    size = min_bytes
    while size <= max_bytes:
        sizes.append(size)
        size *= factor
    return sizes


class CollectiveSettings(BaseModel):
    ops: list[Op] = Field(default_factory=lambda: list(OPS))
    min_bytes: int = Field(8, ge=4)
    max_bytes: int = Field(1 << 30, ge=4)
    factor: int = Field(2, ge=2)
    warmup: int = Field(5, ge=0)
    iters: int = Field(20, ge=1)
    device: Literal["auto", "cpu", "cuda"] = "auto"
    nic_gbps: float | None = Field(None, gt=0, description="NIC line rate per GPU, Gb/s (across nodes)")


class CollectivePoint(BaseModel):
    op: Op
    size_bytes: int = Field(description="S: the whole array (nccl-tests 'size')")
    count: int = Field(description="float32 elements of the whole array")
    time_us: float = Field(description="mean time of one operation, slowest rank")
    algbw_gbs: float
    busbw_gbs: float
    wrong: int = Field(description="elements off the expected result in a check run after timing (nccl-tests #wrong)")


class LinkSpec(BaseModel):
    kind: str = Field(description="nvlink, pcie, host, network, or none")
    gbs: float | None = Field(None, description="one-direction GB/s the busbw is compared with")
    source: str


class CollectiveResult(BaseModel):
    kind: Literal["collectives"] = "collectives"
    schema_version: int = 1
    settings: CollectiveSettings
    world_size: int
    nnodes: int
    backend: str
    device_name: str | None = None
    torch_version: str
    link: LinkSpec
    points: list[CollectivePoint]
    peak_busbw_gbs: dict[str, float] = Field(description="op -> highest busbw over the sizes")
    ratio: dict[str, float | None] = Field(description="op -> peak busbw / link spec")
    convention: str = ("nccl-tests doc/PERFORMANCE.md: algbw = S/t; busbw = algbw x 2(n-1)/n (all-reduce), "
                       "x (n-1)/n (all-gather, reduce-scatter); S = whole array")


def infiniband_gbps() -> float | None:
    """Line rate of the first active InfiniBand/RoCE port (sysfs `rate`: "400 Gb/sec (4X NDR)"), Gb/s."""
    root = Path("/sys/class/infiniband")
    if not root.is_dir():
        return None
    for rate in sorted(root.glob("*/ports/*/rate")):
        try:
            state = (rate.parent / "state").read_text()
            text = rate.read_text().split()
        except OSError:
            continue
        if "ACTIVE" in state and text and text[0].replace(".", "", 1).isdigit():
            return float(text[0])
    return None


def link_spec(device_name: str | None, world: int, nnodes: int, nic_gbps: float | None) -> LinkSpec:
    if nnodes > 1:
        gbps = nic_gbps or infiniband_gbps()
        if gbps is None:
            return LinkSpec(kind="network", source="unknown NIC: give --nic-gbps (line rate per GPU)")
        source = "--nic-gbps" if nic_gbps else "/sys/class/infiniband/*/ports/*/rate"
        return LinkSpec(kind="network", gbs=gbps / 8, source=f"{source}: {gbps:g} Gb/s per NIC, one NIC per GPU")
    if device_name is None:
        return LinkSpec(kind="none", source="CPU ranks (gloo over loopback): no link spec")
    from sizer_agent.tools.bench.micro import catalog_gpu
    from sizer_agent.tools.perf.collectives import link

    gpu = catalog_gpu(device_name)
    if gpu is None:
        return LinkSpec(kind="none", source=f"{device_name} is not in the catalogue")
    kind, bytes_per_s = link(gpu, world)
    return LinkSpec(kind=kind, gbs=bytes_per_s / 1e9,
                    source=f"sizer-agent catalogue {gpu.id} interconnect (sources: {', '.join(gpu.interconnect.src)})")


def run_collectives(settings: CollectiveSettings, launch: Launch, progress: Progress | None = None,
                    quiet: bool = False) -> CollectiveResult | None:
    """Run under torchrun; the result on the node holding rank 0, None elsewhere."""
    check_launch(launch)
    if settings.min_bytes > settings.max_bytes:
        raise InputError("--min-bytes", "is above --max-bytes", f"at most {settings.max_bytes}")
    if settings.device == "cuda" or settings.device == "auto":
        import torch

        gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if settings.device == "cuda" and gpus == 0:
            raise InputError("--device", "CUDA requested but torch sees no GPU", "auto, cpu")
        if gpus and launch.nproc_per_node > gpus:
            raise InputError("--nproc-per-node", f"{launch.nproc_per_node} ranks but {gpus} GPU(s)", f"1..{gpus}")
    with tempfile.TemporaryDirectory(prefix="sizer-coll-") as scratch:
        job, out = Path(scratch) / "job.json", Path(scratch) / "result.json"
        job.write_text(settings.model_dump_json())
        arguments = ["--job", str(job), "--out", str(out)] + (["--quiet"] if quiet else [])
        run_torchrun(torchrun_command(launch, "sizer_agent.tools.bench.collectives", arguments), launch.timeout_s,
                     progress)
        if not out.exists():
            return None
        return CollectiveResult.model_validate_json(out.read_text())


# ---------------------------------------------------------------- one rank (under torchrun)


def _ops(dist: Any) -> dict[Op, Any]:
    # torch 2.14 renamed the tensor forms (*_single); older releases only have *_into_tensor / *_tensor
    gather = getattr(dist, "all_gather_single", None) or dist.all_gather_into_tensor
    scatter = getattr(dist, "reduce_scatter_single", None) or dist.reduce_scatter_tensor
    return {
        "all_reduce": lambda out, inp: dist.all_reduce(inp),
        "all_gather": lambda out, inp: gather(out, inp),
        "reduce_scatter": lambda out, inp: scatter(out, inp),
    }


def _buffers(torch: Any, op: Op, count: int, world: int, device: Any) -> tuple[Any, Any]:
    """(output, input) of one operation on the whole-array count, as nccl-tests sizes them."""
    part = count // world
    if op == "all_reduce":
        buffer = torch.ones(count, dtype=torch.float32, device=device)
        return buffer, buffer
    if op == "all_gather":
        return torch.empty(count, dtype=torch.float32, device=device), torch.ones(part, dtype=torch.float32,
                                                                                  device=device)
    return torch.empty(part, dtype=torch.float32, device=device), torch.ones(count, dtype=torch.float32,
                                                                             device=device)


def _check(torch: Any, dist: Any, op: Op, run: Any, output: Any, inp: Any, rank: int, world: int,
           device: Any) -> int:
    """One more operation on known data: rank r contributes r + 1. All-reduce and reduce-scatter must give
    n(n+1)/2 everywhere; all-gather must give block k = k + 1. Returns the wrong elements, summed over ranks."""
    inp.fill_(rank + 1)
    run(output, inp)
    if op == "all_gather":
        expected = torch.arange(1, world + 1, device=device, dtype=torch.float32).repeat_interleave(output.numel()
                                                                                                    // world)
    else:
        expected = torch.full_like(output, world * (world + 1) / 2)
    wrong = torch.tensor([int((output != expected).sum())], device=device)
    dist.all_reduce(wrong)
    return int(wrong.item())


def run_rank(settings: CollectiveSettings, out: Path | None, quiet: bool) -> None:
    import torch
    import torch.distributed as dist

    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    cuda = settings.device == "cuda" or (settings.device == "auto" and torch.cuda.is_available())
    if cuda:
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
    else:
        device = torch.device("cpu")
    dist.init_process_group("nccl" if cuda else "gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    nnodes = int(os.environ.get("GROUP_WORLD_SIZE", "1"))
    operations = _ops(dist)
    points: list[CollectivePoint] = []
    for op in settings.ops:
        for size in message_sizes(settings.min_bytes, settings.max_bytes, settings.factor):
            count = (size // _ELEMENT_BYTES) // world * world
            if count == 0:
                continue
            output, inp = _buffers(torch, op, count, world, device)
            run = operations[op]
            for _ in range(settings.warmup):
                run(output, inp)
            if cuda:
                torch.cuda.synchronize(device)
            dist.barrier()
            start = time.perf_counter()
            for _ in range(settings.iters):
                run(output, inp)
            if cuda:
                torch.cuda.synchronize(device)
            elapsed = torch.tensor([(time.perf_counter() - start) / settings.iters], dtype=torch.float64,
                                   device=device)
            dist.all_reduce(elapsed, op=dist.ReduceOp.MAX)  # the slowest rank sets the pace
            seconds = float(elapsed.item())
            wrong = _check(torch, dist, op, run, output, inp, rank, world, device)
            nbytes = count * _ELEMENT_BYTES
            algbw = nbytes / seconds / 1e9
            points.append(CollectivePoint(op=op, size_bytes=nbytes, count=count, time_us=seconds * 1e6,
                                          algbw_gbs=algbw, busbw_gbs=algbw * busbw_factor(op, world), wrong=wrong))
            if rank == 0 and not quiet:
                p = points[-1]
                print(f"{op:<15} {p.size_bytes:>12} B {p.time_us:>11.1f} us  algbw {p.algbw_gbs:8.3f}  "
                      f"busbw {p.busbw_gbs:8.3f} GB/s", file=sys.stderr, flush=True)
            del output, inp
    if rank == 0 and out is not None:
        name = torch.cuda.get_device_name(device) if cuda else None
        spec = link_spec(name, world, nnodes, settings.nic_gbps)
        peaks = {op: max(p.busbw_gbs for p in points if p.op == op) for op in settings.ops
                 if any(p.op == op for p in points)}
        result = CollectiveResult(
            settings=settings, world_size=world, nnodes=nnodes, backend=dist.get_backend(), device_name=name,
            torch_version=str(torch.__version__), link=spec, points=points, peak_busbw_gbs=peaks,
            ratio={op: (peak / spec.gbs if spec.gbs else None) for op, peak in peaks.items()},
        )
        out.write_text(result.model_dump_json())
    dist.barrier()
    dist.destroy_process_group()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="one rank of `bench collectives` (run by torchrun)")
    parser.add_argument("--job", type=Path, required=True)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    run_rank(CollectiveSettings.model_validate(json.loads(args.job.read_text())), args.out, args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
