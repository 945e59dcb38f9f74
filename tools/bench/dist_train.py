"""`bench train --nproc-per-node N [--nnodes M --rdzv-endpoint HOST:PORT]`: the training job on several
GPUs and nodes through `torchrun` (torch.distributed.run) with PyTorch's DDP or FSDP2.

The launcher writes the job (TrainSettings + strategy) to a file and starts
`python -m torch.distributed.run ... --module sizer_agent.tools.bench.dist_worker` (tools.bench.dist_worker
is what each rank runs; tools.bench.torchrun builds the command: `--standalone` on one node, a c10d
rendezvous at `--rdzv-endpoint` across nodes, the same command on every node). The rank 0 gathers every
rank's numbers and writes the result; the launcher on the node that holds rank 0 returns it, the others
return None.

Reported: step time (per step the slowest rank, after warm-up), tokens/s in total and per chip, model FLOP/s
per chip and MFU against the card's dense peak (tools.bench.micro.find_spec), peak memory per rank,
sharded checkpoint save and load time per rank (torch.distributed.checkpoint), and the bit-identical resume
on every rank. `run_scale` repeats the job at several GPU counts and reports scaling efficiency:
tokens/s per chip at n GPUs / tokens/s per chip at the first size.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.bench.metrics import latency_stats
from sizer_agent.tools.bench.results import LatencyStats
from sizer_agent.tools.bench.torchrun import Launch, check_launch, run_torchrun, torchrun_command
from sizer_agent.tools.bench.train import TrainSettings
from sizer_agent.tools.errors import InputError

Strategy = Literal["ddp", "fsdp"]
Progress = Callable[[str], None]

# Training FLOPs per token: 6N for a full fine-tune (forward 2N, backward 4N; Kaplan et al. 2020, "Scaling
# Laws for Neural Language Models", §2.1). LoRA: the frozen base computes no weight gradients, which are
# half of the backward (2N), so 4N (the adapters' own FLOPs are negligible at small ranks).
FLOPS_PER_TOKEN_PER_PARAM = {"full": 6.0, "lora": 4.0, "qlora": 4.0}
_PEAK_KEY = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16"}  # torch leaves TF32 off for matmul


class DistSettings(BaseModel):
    strategy: Strategy = Field("fsdp", description="ddp (replicas) or fsdp (FSDP2, fully_shard per layer)")
    nproc_per_node: int = Field(1, ge=1, description="ranks on this node (one per GPU)")
    nnodes: int = Field(1, ge=1)
    rdzv_endpoint: str | None = Field(None, description="HOST:PORT of the c10d rendezvous (several nodes)")
    rdzv_id: str = Field("sizer-bench-train", description="same on every node of one job")
    timeout_s: float = Field(3600.0, gt=0)


class DistJob(BaseModel):
    """What the launcher hands to every rank."""

    train: TrainSettings
    strategy: Strategy
    checkpoint_dir: str
    quiet: bool = False


class RankResult(BaseModel):
    rank: int
    local_rank: int
    host: str
    device: str
    device_name: str | None = None
    step_times_ms: list[float] = Field(description="every step, warm-up included")
    losses: list[float] = Field(description="this rank's loss on its own batches")
    peak_memory_bytes: int
    peak_memory_source: str
    checkpoint_save_s: float
    checkpoint_load_s: float
    shard_bytes: int = Field(description="this rank's DCP shard file (__<rank>_0.distcp)")
    optimizer_state_equal: bool = Field(description="reloaded local optimizer shard equals the saved one bit for bit")
    trainable_weights_equal: bool
    resumed_losses: list[float]
    uninterrupted_losses: list[float]

    @property
    def resume_ok(self) -> bool:
        return self.optimizer_state_equal and self.trainable_weights_equal and \
            self.resumed_losses == self.uninterrupted_losses


class DistTrainResult(BaseModel):
    kind: Literal["train_distributed"] = "train_distributed"
    schema_version: int = 1
    settings: TrainSettings
    distributed: DistSettings
    world_size: int
    nnodes: int
    hosts: list[str]
    device_name: str | None = None
    torch_version: str
    model_id: str
    architecture: str
    total_parameters: int
    trainable_parameters: int
    tokens_per_step: int = Field(description="all ranks: world × batch × seq × accumulation")
    step_time_ms: LatencyStats = Field(description="per step the slowest rank, after warm-up")
    step_time_mean_ms: float | None
    tokens_per_s: float
    tokens_per_s_per_chip: float
    model_flops_per_s_per_chip: float = Field(description="FLOPs per token (6N full, 4N LoRA) × tokens/s per chip")
    peak_tflops: float | None = Field(None, description="the card's dense peak at --dtype (None: CPU or unknown)")
    mfu: float | None = Field(None, description="model FLOP/s per chip / peak")
    peak_memory_bytes_max: int
    checkpoint_at: int
    checkpoint_files: dict[str, int] = Field(description="DCP files: one shard per rank + .metadata")
    checkpoint_save_s: float = Field(description="slowest rank")
    checkpoint_load_s: float = Field(description="slowest rank")
    resume_ok: bool = Field(description="every rank resumed bit for bit")
    ranks: list[RankResult]
    warnings: list[str] = Field(default_factory=list)


class ScalePoint(BaseModel):
    nproc: int
    tokens_per_s: float
    tokens_per_s_per_chip: float
    scaling_efficiency: float = Field(description="tokens/s per chip here / at the first size")
    step_time_mean_ms: float | None
    mfu: float | None
    resume_ok: bool


class ScaleResult(BaseModel):
    kind: Literal["train_scale"] = "train_scale"
    schema_version: int = 1
    points: list[ScalePoint]
    runs: list[DistTrainResult]


def check_dist(settings: TrainSettings, dist: DistSettings) -> None:
    """One-line refusals before anything starts."""
    check_launch(_launch(dist))
    if dist.nnodes > 1 and settings.checkpoint_dir is None:
        raise InputError("--checkpoint-dir", "several nodes need a directory every node sees (the sharded "
                         "checkpoint is written by all ranks and read back by all)", "a shared file system path")
    if settings.method == "qlora":
        raise InputError("--method", "qlora is one-process only here (NF4 weights do not shard with FSDP2)",
                         "full, lora")
    if settings.optimizer == "adamw8bit":
        raise InputError("--optimizer", "adamw8bit is one-process only here", "adamw, sgd")
    if settings.device.startswith("cuda") or settings.device == "auto":
        try:
            import torch
        except ImportError:
            raise InputError("bench train", "distributed training needs torch", "pip install torch") from None
        gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if settings.device.startswith("cuda") and gpus == 0:
            raise InputError("--device", "CUDA requested but torch sees no GPU", "auto, cpu")
        if gpus and dist.nproc_per_node > gpus and settings.device != "cpu":
            raise InputError("--nproc-per-node", f"{dist.nproc_per_node} ranks but {gpus} GPU(s) here", f"1..{gpus}")


def _launch(dist: DistSettings) -> Launch:
    return Launch(nproc_per_node=dist.nproc_per_node, nnodes=dist.nnodes, rdzv_endpoint=dist.rdzv_endpoint,
                  rdzv_id=dist.rdzv_id, timeout_s=dist.timeout_s)


def run_dist_train(settings: TrainSettings, dist: DistSettings, progress: Progress | None = None,
                   quiet: bool = False) -> DistTrainResult | None:
    """Run the job under torchrun; the result on the node holding rank 0, None on the other nodes."""
    check_dist(settings, dist)
    checkpoint_at = settings.checkpoint_at or settings.steps // 2
    if not 1 <= checkpoint_at < settings.steps:
        raise InputError("--checkpoint-at", f"must be in [1, {settings.steps - 1}]", "a step before the last")
    if settings.warmup_steps >= settings.steps:
        raise InputError("--warmup-steps", "must be below --steps", f"0..{settings.steps - 1}")
    with tempfile.TemporaryDirectory(prefix="sizer-dist-") as scratch:
        work = Path(scratch)
        checkpoints = settings.checkpoint_dir or work / "checkpoints"
        try:
            Path(checkpoints).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError("--checkpoint-dir", f"cannot create {checkpoints}: {error.strerror}") from None
        job = DistJob(train=settings, strategy=dist.strategy, checkpoint_dir=str(checkpoints), quiet=quiet)
        job_file, out = work / "job.json", work / "result.json"
        job_file.write_text(job.model_dump_json())
        command = torchrun_command(_launch(dist), "sizer_agent.tools.bench.dist_worker",
                                   ["--job", str(job_file), "--out", str(out)])
        run_torchrun(command, dist.timeout_s, progress)
        if not out.exists():
            return None
        return summarise(settings, dist, out.read_text())


def summarise(settings: TrainSettings, dist: DistSettings, text: str) -> DistTrainResult:
    """The job's result from rank 0's gathered JSON."""
    import json

    from sizer_agent.tools.bench.micro import find_spec

    raw = json.loads(text)
    ranks = [RankResult.model_validate(r) for r in raw["ranks"]]
    world = int(raw["world_size"])
    warm = settings.warmup_steps
    slowest = [max(r.step_times_ms[i] for r in ranks) for i in range(warm, settings.steps)]
    stats = latency_stats(slowest)
    tokens_per_step = world * settings.batch_size * settings.seq_len * settings.gradient_accumulation_steps
    tokens_per_s = tokens_per_step / (stats.mean / 1e3) if stats.mean else 0.0
    per_chip = tokens_per_s / world
    flops = FLOPS_PER_TOKEN_PER_PARAM[settings.method] * raw["total_parameters"] * per_chip
    device_name = ranks[0].device_name
    spec = find_spec(device_name) if device_name else None
    peak = spec.tflops.get(_PEAK_KEY[settings.dtype]) if spec else None
    notes = []
    if len({r.device_name for r in ranks}) > 1:
        notes.append("ranks ran on different devices: " + ", ".join(sorted({str(r.device_name) for r in ranks})))
    return DistTrainResult(
        settings=settings, distributed=dist, world_size=world, nnodes=int(raw["nnodes"]),
        hosts=sorted({r.host for r in ranks}), device_name=device_name, torch_version=raw["torch_version"],
        model_id=raw["model_id"], architecture=raw["architecture"], total_parameters=raw["total_parameters"],
        trainable_parameters=raw["trainable_parameters"], tokens_per_step=tokens_per_step, step_time_ms=stats,
        step_time_mean_ms=stats.mean, tokens_per_s=tokens_per_s, tokens_per_s_per_chip=per_chip,
        model_flops_per_s_per_chip=flops, peak_tflops=peak, mfu=flops / (peak * 1e12) if peak else None,
        peak_memory_bytes_max=max(r.peak_memory_bytes for r in ranks), checkpoint_at=raw["checkpoint_at"],
        checkpoint_files=raw["checkpoint_files"], checkpoint_save_s=max(r.checkpoint_save_s for r in ranks),
        checkpoint_load_s=max(r.checkpoint_load_s for r in ranks), resume_ok=all(r.resume_ok for r in ranks),
        ranks=ranks, warnings=notes,
    )


def run_scale(settings: TrainSettings, dist: DistSettings, sizes: list[int],
              progress: Progress | None = None, quiet: bool = False) -> ScaleResult:
    """The same job at each GPU count of one node; efficiency against the first size."""
    if dist.nnodes != 1 or dist.rdzv_endpoint is not None:
        raise InputError("--scale", "sweeps the ranks of one node", "drop --nnodes/--rdzv-endpoint")
    runs: list[DistTrainResult] = []
    for size in sizes:
        if progress is not None:
            progress(f"--- scale: {size} rank(s) ---")
        result = run_dist_train(settings, dist.model_copy(update={"nproc_per_node": size}), progress, quiet)
        assert result is not None  # one node: this launcher holds rank 0
        runs.append(result)
    base = runs[0].tokens_per_s_per_chip
    points = [
        ScalePoint(nproc=r.world_size, tokens_per_s=r.tokens_per_s, tokens_per_s_per_chip=r.tokens_per_s_per_chip,
                   scaling_efficiency=r.tokens_per_s_per_chip / base if base else 0.0,
                   step_time_mean_ms=r.step_time_mean_ms, mfu=r.mfu, resume_ok=r.resume_ok)
        for r in runs
    ]
    return ScaleResult(points=points, runs=runs)
