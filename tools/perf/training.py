"""Training step time, throughput, gradient communication, checkpoint cost and goodput (docs/design.md §5).

step time = k x active params x tokens per step / (GPUs x peak x MFU) + gradient all-reduce not hidden by the
backward pass, with k = 6 (forward 2 + backward 4; Kaplan et al. 2020) or 8 with full recomputation (one more
forward). Checkpoint time = checkpoint bytes / storage write bandwidth; goodput subtracts checkpoint writes and
the work lost to failures (half an interval on average) plus restart time.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.catalog.models import Gpu
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.perf.collectives import collective_time_s
from sizer_agent.tools.perf.efficiency import DEFAULT_EFFICIENCIES, Efficiencies


class TrainingSetup(BaseModel):
    gpu: Gpu
    params_active: int = Field(gt=0, description="parameters touched per token")
    trainable_params: int = Field(gt=0, description="parameters whose gradients are all-reduced")
    tokens_per_step: int = Field(gt=0, description="global batch x sequence length")
    num_gpus: int = Field(1, ge=1)
    data_parallel: int = Field(1, ge=1)
    precision: str = Field("bf16", description="compute precision of the matmuls")
    recompute: Literal["none", "selective", "full"] = "none"
    gradient_bytes_per_param: float = Field(2.0, gt=0, description="bf16 gradients")
    checkpoint_bytes: int = Field(0, ge=0, description="weights + optimizer states written per checkpoint")
    storage_write_gbs: float = Field(2.0, gt=0, description="sustained write GB/s of the checkpoint target")
    checkpoint_interval_steps: int = Field(1000, ge=1)
    failures_per_day: float = Field(0.0, ge=0, description="expected job interruptions per day")
    restart_s: float = Field(600.0, ge=0, description="time to reschedule, reload and warm up after a failure")
    efficiencies: Efficiencies = DEFAULT_EFFICIENCIES
    # co-design (tools.perf.codesign): share of the matrix unit the projections and MLP fill; 1 on GPUs
    compute_fill: float = Field(1.0, gt=0, le=1)


class TrainingEstimate(BaseModel):
    step_time_s: float
    compute_time_s: float
    gradient_allreduce_s: float = Field(description="full all-reduce time of one step's gradients")
    exposed_allreduce_s: float = Field(description="part not hidden behind the backward pass")
    tokens_per_s: float
    tokens_per_s_per_gpu: float
    checkpoint_write_s: float
    goodput: float = Field(description="useful training time / wall time at the checkpoint interval")
    bound: Literal["compute", "communication"]
    flops_per_step: float
    mfu: float
    notes: list[Msg]


def estimate_training(setup: TrainingSetup) -> TrainingEstimate:
    peak = setup.gpu.peak_flops(setup.precision)
    if peak is None:
        raise InputError("dtype", f"{setup.gpu.name} has no {setup.precision} tensor unit",
                         ", ".join(setup.gpu.supported_precisions))
    eff = setup.efficiencies
    # forward 2N + input gradients 2N + weight gradients 2N of what trains (Kaplan et al. 2020 §2.1: 6N for
    # full training); frozen LoRA bases skip their weight gradients; full recomputation adds a forward (2N)
    trained_share = min(1.0, setup.trainable_params / setup.params_active)
    factor = 4.0 + 2.0 * trained_share + (2.0 if setup.recompute == "full" else 0.0)
    flops = factor * setup.params_active * setup.tokens_per_step
    compute_s = flops / (setup.num_gpus * peak * eff.training_mfu * setup.compute_fill)
    grad_bytes = setup.trainable_params * setup.gradient_bytes_per_param
    # every data-parallel rank all-reduces its (model-parallel shard of the) gradients once per step
    shard = setup.num_gpus // setup.data_parallel
    allreduce_s = collective_time_s(setup.gpu, setup.data_parallel, grad_bytes / max(shard, 1), eff)
    exposed_s = allreduce_s * (1.0 - eff.gradient_overlap)
    step_s = compute_s + exposed_s
    tokens_per_s = setup.tokens_per_step / step_s
    ckpt_s = setup.checkpoint_bytes / (setup.storage_write_gbs * 1e9)
    interval_s = setup.checkpoint_interval_steps * step_s
    wall_s = interval_s + ckpt_s
    useful = interval_s
    notes = [Msg("speed.training_flops", factor=factor, mfu=eff.training_mfu)]
    if setup.failures_per_day > 0:
        failures_per_s = setup.failures_per_day / 86_400
        lost_per_failure = wall_s / 2 + setup.restart_s
        lost_fraction = min(1.0, failures_per_s * lost_per_failure)
        useful *= 1.0 - lost_fraction
        notes.append(Msg("speed.failures", per_day=setup.failures_per_day, restart_s=setup.restart_s))
    goodput = useful / wall_s
    return TrainingEstimate(
        step_time_s=step_s, compute_time_s=compute_s, gradient_allreduce_s=allreduce_s,
        exposed_allreduce_s=exposed_s, tokens_per_s=tokens_per_s,
        tokens_per_s_per_gpu=tokens_per_s / setup.num_gpus, checkpoint_write_s=ckpt_s, goodput=goodput,
        bound="communication" if exposed_s > compute_s else "compute", flops_per_step=flops,
        mfu=eff.training_mfu * compute_s / step_s, notes=notes,
    )
