"""Parallelism rules: how a model is split over GPUs, and which splits are impossible.

VRAM does not add up across GPUs: a model runs on several GPUs only through a partitioning strategy
(tensor, pipeline or expert parallelism), and each has rules the model must satisfy.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from sizer_agent.tools.errors import InputError
from sizer_agent.tools.messages import Msg
from sizer_agent.tools.model_spec import ModelSpec


class ParallelismPlan(BaseModel):
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1
    data_parallel_size: int = 1
    num_gpus: int = 1
    kv_heads_per_gpu: int = 1
    kv_heads_replicated: bool = False
    stage_layers: list[int] = Field(default_factory=list)  # layers held by each pipeline stage
    notes: list[Msg] = Field(default_factory=list)


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def stage_layer_counts(num_layers: int, pp: int) -> list[int]:
    """vLLM's split (vllm/distributed/utils.py get_pp_indices): the remainder goes to the stages
    just before the last, which already carries the lm_head and the sampler."""
    counts = [num_layers // pp] * pp
    for i in range(2, num_layers % pp + 2):
        counts[-i] += 1
    return counts


def plan_parallelism(model: ModelSpec, tp: int, pp: int, dp: int = 1) -> ParallelismPlan:
    """Check a TP x PP x DP layout against the model and explain what it implies."""
    for field, value in (("tensor_parallel_size", tp), ("pipeline_parallel_size", pp),
                         ("data_parallel_size", dp)):
        if value < 1 or value > 1024:
            raise InputError(field, f"must be between 1 and 1024, got {value}")
    heads = model.num_attention_heads
    if heads % tp:
        raise InputError(
            "tensor_parallel_size",
            f"{tp} does not divide the {heads} attention heads of {model.name}",
            ", ".join(str(d) for d in divisors(heads) if d <= 64),
        )
    if model.vocab_size % tp and model.vocab_size < tp:
        raise InputError("tensor_parallel_size", f"{tp} is larger than the vocabulary")
    if pp > model.num_layers:
        raise InputError(
            "pipeline_parallel_size", f"{pp} stages for {model.num_layers} layers",
            f"1 to {model.num_layers}",
        )
    notes: list[Msg] = []
    kv = model.num_kv_heads
    replicated = model.mla is None and tp > kv
    if model.mla is not None and tp > 1:
        notes.append(Msg("par.mla_replicated"))
    elif replicated:
        if tp % kv:
            raise InputError(
                "tensor_parallel_size",
                f"{tp} exceeds the {kv} KV heads and is not a multiple of them",
                ", ".join(str(d) for d in divisors(heads) if d <= kv or d % kv == 0),
            )
        notes.append(Msg("par.kv_replicated", tp=tp, kv=kv, copies=tp // kv))
    elif kv % tp:
        raise InputError("tensor_parallel_size", f"{tp} does not divide the {kv} KV heads",
                         ", ".join(str(d) for d in divisors(kv)))
    if tp > 1:
        notes.append(Msg("par.tp_allreduce", tp=tp))
    if pp > 1:
        notes.append(Msg("par.pp_stages", pp=pp))
    if model.moe is not None and tp > 1:
        notes.append(Msg("par.moe_tp"))
    return ParallelismPlan(
        tensor_parallel_size=tp,
        pipeline_parallel_size=pp,
        data_parallel_size=dp,
        num_gpus=tp * pp * dp,
        kv_heads_per_gpu=1 if model.mla is not None else max(1, kv // tp),
        kv_heads_replicated=replicated,
        stage_layers=stage_layer_counts(model.num_layers, pp),
        notes=notes,
    )


CAPACITY_NOTE = Msg("par.capacity")  # GPU memory does not add up across cards
