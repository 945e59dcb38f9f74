"""One rank of `bench train --nproc-per-node N`: run by `torchrun` (torch.distributed.run), never directly.

The same job as the one-process `bench train` (tools.bench.train: the model transformers builds from the
config, random weights, full or LoRA), wrapped by PyTorch's own data-parallel engines:

- DDP (`torch.nn.parallel.DistributedDataParallel`): a full replica per rank, gradients all-reduced;
- FSDP2 (`torch.distributed.fsdp.fully_shard`): each decoder layer and the root sharded over the ranks
  (parameters, gradients and optimizer state as DTensors, all-gather before use, reduce-scatter after).

Every rank trains on its own batches (they depend on seed, rank, step and micro-batch only). The checkpoint
is torch.distributed.checkpoint (DCP): each rank writes its own shard file (`__<rank>_0.distcp`) and rank 0
the `.metadata`. Resume: a fresh model with other initial weights (LoRA: same base, other adapters) is
wrapped the same way and loads the checkpoint; on every rank its local optimizer state and trainable weights
must equal the saved ones bit for bit and its losses on the following steps must equal the uninterrupted
run's. The ranks' results are gathered on rank 0, which writes the job's JSON.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

from sizer_agent.tools.bench.dist_train import DistJob, RankResult
from sizer_agent.tools.bench.train import (
    _numel,
    _optimizer,
    _quiet_libraries,
    _settings_config,
    _Trainer,
    build_model,
    state_digest,
    transformers_config,
)


def _local(state: Any, torch: Any) -> Any:
    """A state with every DTensor (FSDP2) replaced by this rank's shard: digests compare what a rank holds."""
    from torch.distributed.tensor import DTensor

    if isinstance(state, dict):
        return {k: _local(v, torch) for k, v in state.items()}
    if isinstance(state, list | tuple):
        return [_local(v, torch) for v in state]
    if isinstance(state, DTensor):
        return state.to_local()
    return state


def _decoder_layers(model: Any, torch: Any, count: int) -> list[Any]:
    """The decoder layers (the ModuleList as long as the config's layer count), LoRA-wrapped or not."""
    for module in model.modules():
        if isinstance(module, torch.nn.ModuleList) and len(module) == count:
            return list(module)
    raise RuntimeError("cannot find the decoder layers to shard")


def _mesh(device: Any) -> Any:
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh

    return init_device_mesh(device.type, (dist.get_world_size(),))


def _sharded_full_model(settings: Any, config: Any, device: Any, dtype: Any, init_seed: int) -> Any:
    """FSDP2's way for a full fine-tune: the model is built on the meta device, sharded, and only then given
    memory (each rank its shards) and initialised, so no rank ever holds the whole model (a 70B model in
    bf16 is 140 GB: more than one GPU). Tied embeddings take the materialised path instead (re-tying
    parameters FSDP2 already manages would leave it a stale one)."""
    import torch
    from torch.distributed.fsdp import fully_shard

    torch.manual_seed(init_seed)
    model = build_model(config, dtype, "meta")
    if settings.gradient_checkpointing:
        kwargs = {"use_reentrant": False}
        if hasattr(model, "activation_checkpointing_enable"):
            model.activation_checkpointing_enable(activation_checkpointing_kwargs=kwargs)
        else:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=kwargs)
    mesh = _mesh(device)
    for layer in _decoder_layers(model, torch, int(config.num_hidden_layers)):
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    model.to_empty(device=device)
    with torch.no_grad():
        for module in model.modules():
            model._init_weights(module)  # DTensor-aware: each rank fills its shards (and the rotary buffers)
    model.train()
    return model


class _RankTrainer:
    """A `_Trainer`'s model and optimizer, wrapped by DDP or FSDP2, fed this rank's batches."""

    def __init__(self, job: DistJob, config: Any, device: Any, dtype: Any, init_seed: int, rank: int) -> None:
        import torch

        self.torch = torch
        self.job = job
        self.device = device
        self.rank = rank
        settings = job.train
        self.sharded_init = job.strategy == "fsdp" and settings.method == "full" and \
            not getattr(config, "tie_word_embeddings", False)
        if self.sharded_init:
            model = _sharded_full_model(settings, config, device, dtype, init_seed)
            self.architecture = type(model).__name__.removeprefix("FSDP")
            self.model = model
        else:
            base = _Trainer(settings, config, device, dtype, adapter_seed=init_seed)
            model = base.model
            self.architecture = type(model.get_base_model() if settings.method != "full" else model).__name__
            del base
        if job.strategy == "fsdp" and not self.sharded_init:
            from torch.distributed.fsdp import fully_shard

            mesh = _mesh(device)
            for layer in _decoder_layers(model, torch, int(config.num_hidden_layers)):
                fully_shard(layer, mesh=mesh)  # one FSDP unit per decoder layer: all-gathered just before it runs
            fully_shard(model, mesh=mesh)
            self.model = model
        elif job.strategy == "ddp":
            from torch.nn.parallel import DistributedDataParallel

            self.model = DistributedDataParallel(
                model, device_ids=[device.index] if device.type == "cuda" else None
            )
        self.vocab = int(config.vocab_size)
        self.trainable = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = _optimizer(settings, self.trainable)

    def _batch(self, step: int, micro: int) -> Any:
        settings = self.job.train
        seed = ((settings.seed * 1_000_003 + self.rank) * 1_009 + step) * 1_013 + micro
        generator = self.torch.Generator().manual_seed(seed)
        tokens = self.torch.randint(0, self.vocab, (settings.batch_size, settings.seq_len + 1), generator=generator)
        return tokens.to(self.device)

    def step(self, step: int) -> float:
        import contextlib

        torch = self.torch
        accumulation = self.job.train.gradient_accumulation_steps
        self.optimizer.zero_grad(set_to_none=True)
        total = torch.zeros((), device=self.device)
        for micro in range(accumulation):
            last = micro == accumulation - 1
            # DDP: all-reduce the gradients once per optimizer step, not once per micro-batch
            sync = contextlib.nullcontext() if last or self.job.strategy != "ddp" else self.model.no_sync()
            with sync:
                batch = self._batch(step, micro)
                logits = self.model(input_ids=batch[:, :-1]).logits
                loss = torch.nn.functional.cross_entropy(
                    logits.float().reshape(-1, self.vocab), batch[:, 1:].reshape(-1)
                )
                (loss / accumulation).backward()
            total += loss.detach() / accumulation
            del logits, loss
        self.optimizer.step()
        return float(total.cpu())

    def _options(self) -> Any:
        from torch.distributed.checkpoint.state_dict import StateDictOptions

        # LoRA: the frozen base is the same "pretrained" model in every run, only adapters are saved (and the
        # load is not strict: the base keys are absent from the checkpoint on purpose)
        lora = self.job.train.method != "full"
        return StateDictOptions(ignore_frozen_params=lora, strict=not lora)

    def trainable_state(self) -> dict[str, Any]:
        return {name: p.detach() for name, p in self.model.named_parameters() if p.requires_grad}

    def digests(self) -> tuple[Any, Any]:
        torch = self.torch
        return (state_digest(_local(self.optimizer.state_dict(), torch), torch),
                state_digest(_local(self.trainable_state(), torch), torch))

    def save(self, directory: Path) -> None:
        from torch.distributed.checkpoint.state_dict import get_state_dict

        dcp: Any = importlib.import_module("torch.distributed.checkpoint")  # save/load are not in its stubs' exports

        model_state, optim_state = get_state_dict(self.model, self.optimizer, options=self._options())
        dcp.save({"model": model_state, "optim": optim_state}, checkpoint_id=str(directory))

    def load(self, directory: Path) -> None:
        from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict

        dcp: Any = importlib.import_module("torch.distributed.checkpoint")

        # get_state_dict initialises the fresh optimizer's state so that DCP has tensors to load into
        model_state, optim_state = get_state_dict(self.model, self.optimizer, options=self._options())
        state: dict[str, Any] = {"model": model_state, "optim": optim_state}
        dcp.load(state, checkpoint_id=str(directory))
        set_state_dict(self.model, self.optimizer, model_state_dict=state["model"],
                       optim_state_dict=state["optim"], options=self._options())


def _sync(torch: Any, device: Any) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def _peak_memory(torch: Any, device: Any) -> tuple[int, str]:
    if device.type == "cuda":
        return int(torch.cuda.max_memory_allocated(device)), "torch.cuda.max_memory_allocated"
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "process peak RSS (getrusage ru_maxrss)"


def run_rank(job: DistJob, out: Path | None) -> int:
    import torch
    import torch.distributed as dist

    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    wants_cuda = job.train.device.startswith("cuda") or (job.train.device == "auto" and torch.cuda.is_available())
    if wants_cuda:
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.use_deterministic_algorithms(True, warn_only=True)
    else:
        device = torch.device("cpu")
    dist.init_process_group("nccl" if wants_cuda else "gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    settings = job.train
    raw, spec, _ = _settings_config(settings)
    config = transformers_config(raw)
    dtype = getattr(torch, settings.dtype)
    checkpoint_at = settings.checkpoint_at or settings.steps // 2
    directory = Path(job.checkpoint_dir) / f"checkpoint-{checkpoint_at}"
    talk = rank == 0 and not job.quiet

    def say(text: str) -> None:
        if talk:
            print(text, file=sys.stderr, flush=True)

    say(f"{job.strategy.upper()} over {world} rank(s) ({os.environ.get('LOCAL_WORLD_SIZE', '?')} on this node), "
        f"{spec.name} {settings.method} on {device.type}")
    trainer = _RankTrainer(job, config, device, dtype, init_seed=settings.seed, rank=rank)
    total_params = sum(_numel(p) for p in trainer.model.parameters())
    trainable_params = sum(_numel(p) for p in trainer.trainable)
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
    losses: list[float] = []
    times_ms: list[float] = []
    saved: Any = None
    save_s = 0.0
    for step in range(1, settings.steps + 1):
        _sync(torch, device)
        start = time.perf_counter()
        losses.append(trainer.step(step))
        _sync(torch, device)
        times_ms.append((time.perf_counter() - start) * 1e3)
        say(f"step {step}/{settings.steps}: rank 0 loss {losses[-1]:.4f}, {times_ms[-1]:.0f} ms")
        if step == checkpoint_at:
            dist.barrier()
            start = time.perf_counter()
            trainer.save(directory)
            save_s = time.perf_counter() - start
            saved = trainer.digests()
            say(f"sharded checkpoint at step {step} in {save_s:.2f} s (rank 0)")
    peak, peak_source = _peak_memory(torch, device)
    del trainer
    gc.collect()
    resumed = _RankTrainer(job, config, device, dtype, init_seed=settings.seed + 1, rank=rank)
    dist.barrier()
    _sync(torch, device)
    start = time.perf_counter()
    resumed.load(directory)
    _sync(torch, device)
    load_s = time.perf_counter() - start
    optimizer_digest, weights_digest = resumed.digests()
    resumed_losses = [resumed.step(step) for step in range(checkpoint_at + 1, settings.steps + 1)]
    shard = directory / f"__{rank}_0.distcp"
    mine = RankResult(
        rank=rank,
        local_rank=local_rank,
        host=os.uname().nodename,
        device=str(device),
        device_name=torch.cuda.get_device_name(device) if device.type == "cuda" else None,
        step_times_ms=times_ms,
        losses=losses,
        peak_memory_bytes=peak,
        peak_memory_source=peak_source,
        checkpoint_save_s=save_s,
        checkpoint_load_s=load_s,
        shard_bytes=shard.stat().st_size if shard.exists() else 0,
        optimizer_state_equal=optimizer_digest == saved[0],
        trainable_weights_equal=weights_digest == saved[1],
        resumed_losses=resumed_losses,
        uninterrupted_losses=losses[checkpoint_at:],
    )
    gathered: list[Any] = [None] * world if rank == 0 else []
    dist.gather_object(mine.model_dump(mode="json"), gathered if rank == 0 else None, dst=0)
    if rank == 0 and out is not None:
        files = {p.name: p.stat().st_size for p in sorted(directory.iterdir())} if directory.exists() else {}
        summary = {
            "world_size": world,
            "nnodes": int(os.environ.get("GROUP_WORLD_SIZE", "1")),
            "torch_version": str(torch.__version__),
            "model_id": spec.name,
            "architecture": resumed.architecture,
            "total_parameters": int(total_params),
            "trainable_parameters": int(trainable_params),
            "checkpoint_at": checkpoint_at,
            "checkpoint_files": files,
            "ranks": gathered,
        }
        out.write_text(json.dumps(summary))
    dist.barrier()
    dist.destroy_process_group()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--job", type=Path, required=True, help="DistJob JSON written by the launcher")
    parser.add_argument("--out", type=Path, help="where rank 0 writes the gathered result")
    args = parser.parse_args(argv)
    job = DistJob.model_validate_json(args.job.read_text())
    with _quiet_libraries():
        return run_rank(job, args.out)


if __name__ == "__main__":
    sys.exit(main())
