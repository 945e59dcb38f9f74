"""vLLM's start-up memory accounting (V1 engine, checked against vLLM 0.19 logs).

vLLM profiles one forward pass of `max_num_batched_tokens` dummy tokens and one sampler pass over
`max_num_seqs` sequences, then (vllm/v1/worker/gpu_worker.py, determine_available_memory):
    budget   = total GPU memory x gpu_memory_utilization
    KV pool  = budget - weights - torch activation peak - non-torch memory
    tokens   = pool // (KV bytes per token over all layers of the GPU), in whole blocks of 16
    max concurrency = tokens / max_model_len
Hybrid models (sliding-window or chunked layers beside global ones: Gemma 2/3, gpt-oss, Llama 4) go through
vLLM's hybrid KV-cache manager (vllm/v1/core/kv_cache_utils.py, _get_kv_cache_groups_uniform_page_size and
get_kv_cache_config_from_groups): layers of one kind are cut into groups of `group_size` layers (the smallest
kind's count, or the largest's when it is under 1.25x the smallest), padded groups included; the pool is cut
into `group_size` tensors of equal blocks shared by one layer of every group, and the logged token count is
blocks // groups x block size. Gemma 3 27B (52 sliding + 10 global layers) costs 70 layers per token, not 62.
CUDA-graph memory is captured after the KV cache is allocated and is NOT inside the budget in vLLM 0.19
(its log offers a smaller `--kv-cache-memory` "to fit into requested memory"); the CUDA context is not
either. Both are reported so that the total GPU use is visible. With pipeline parallelism every stage
allocates the same number of blocks: the stage with the least free memory decides.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from sizer_agent.tools.memory.activations import inference_activation_bytes
from sizer_agent.tools.memory.kv_cache import kv_cache_bytes_per_token
from sizer_agent.tools.memory.runtime import GiB, cuda_context, cudagraph_bytes, workspace_bytes
from sizer_agent.tools.memory.weights import weight_bytes_per_stage
from sizer_agent.tools.model_spec import ModelSpec
from sizer_agent.tools.parallelism import ParallelismPlan
from sizer_agent.tools.quantization import WeightFormat

BLOCK_SIZE = 16  # vLLM's default KV block size on CUDA (--block-size)


def hybrid_layer_equivalents(model: ModelSpec, layer_slice: slice) -> tuple[int, int]:
    """(layers vLLM pays for per token, attention layers) of one stage, as its hybrid KV-cache manager
    groups them (module docstring). Equal when every layer has the same kind."""
    kinds: dict[tuple[str, int | None], int] = {}
    for layer in model.layers[layer_slice]:
        if layer.attention_kind == "none":
            continue
        key = ("full", None) if layer.attention_kind in ("full", "mla") else (layer.attention_kind, layer.window)
        kinds[key] = kinds.get(key, 0) + 1
    layers = sum(kinds.values())
    if len(kinds) <= 1:
        return layers, layers
    smallest, largest = min(kinds.values()), max(kinds.values())
    group_size = largest if largest < smallest * 1.25 else smallest
    groups = sum(-(-count // group_size) for count in kinds.values())
    return group_size * groups, layers


def default_scheduler_limits(gpu_memory_bytes: int, gpu_name: str | None = None) -> tuple[int, int]:
    """Defaults of `vllm serve` (vllm/engine/arg_utils.py, EngineArgs._set_default_args): GPUs with
    >= 70 GiB (H100, H200, MI300X), A100 excepted, get 8192 batched tokens and 1024 sequences; others
    2048 / 256."""
    if gpu_memory_bytes >= 70 * GiB and "a100" not in (gpu_name or "").lower():
        return 8192, 1024
    return 2048, 256


class VllmStage(BaseModel):
    weights_bytes: int
    activation_peak_bytes: int
    kv_pool_bytes: int
    kv_bytes_per_token: int


class VllmProfile(BaseModel):
    basis: str = "vLLM V1 start-up accounting, as logged by vLLM 0.19"
    gpu_memory_bytes: int
    gpu_memory_utilization: float
    budget_bytes: int
    max_model_len: int
    max_num_batched_tokens: int
    max_num_seqs: int
    block_size: int = BLOCK_SIZE
    weights_bytes: int
    activation_peak_bytes: int
    non_torch_bytes: int
    cudagraph_bytes: int
    cuda_context_bytes: int
    kv_cache_bytes: int
    kv_cache_tokens: int
    max_concurrency: float
    total_used_bytes: int  # everything on the GPU once serving: budget share + graphs + context
    stages: list[VllmStage] = Field(default_factory=list)
    limiting_stage: int = 0


def vllm_profile(
    model: ModelSpec,
    fmt: WeightFormat,
    plan: ParallelismPlan,
    *,
    gpu_memory_bytes: int,
    gpu_memory_utilization: float,
    max_model_len: int,
    act_bytes: float,
    kv_bytes: float,
    max_num_batched_tokens: int | None = None,
    max_num_seqs: int | None = None,
    enforce_eager: bool = False,
    gpu_name: str | None = None,
    cpu_offload_bytes: int = 0,
    kv_head_alignment: int | None = None,
) -> VllmProfile:
    """`cpu_offload_bytes`: weights per GPU vLLM keeps in host RAM (--cpu-offload-gb, vllm/model_executor/
    models/utils.py maybe_offload_to_cpu: whole parameters move until the amount is reached); they leave the
    GPU and the KV pool grows by as much. `kv_head_alignment`: KV heads stored padded to it (tools.memory.
    kv_cache; vLLM on TPU), so each block holds the padded bytes."""
    default_tokens, default_seqs = default_scheduler_limits(gpu_memory_bytes, gpu_name)
    batched = max_num_batched_tokens or default_tokens
    seqs = max_num_seqs or default_seqs
    tp, pp = plan.tensor_parallel_size, plan.pipeline_parallel_size
    budget = int(gpu_memory_bytes * gpu_memory_utilization)
    non_torch = workspace_bytes(tp, pp).bytes
    # vLLM's RoPE cos/sin cache is a buffer in the model's dtype on every GPU, counted in "Model loading
    # took" (Gemma 3's linear-scaled global RoPE caches 131072 x 8 positions: 0.5 GiB at head_dim 256).
    rope = model.rope_cache_values * act_bytes
    weights = weight_bytes_per_stage(model, fmt, plan, pad_mxfp4_experts=True, rope_cache_bytes=rope)
    weights = [max(0, w - cpu_offload_bytes) for w in weights]

    stages: list[VllmStage] = []
    start = 0
    for index, count in enumerate(plan.stage_layers):
        stage_slice = slice(start, start + count)
        start += count
        activation = inference_activation_bytes(
            model, batched, min(seqs, batched), act_bytes, tp, last_stage=index == pp - 1
        )
        per_token = kv_cache_bytes_per_token(model, kv_bytes, tp, stage_slice, kv_head_alignment)
        paid, present = hybrid_layer_equivalents(model, stage_slice)
        if present and paid != present:
            per_token = round(per_token * paid / present)  # one page size: every attention layer costs the same
        stages.append(VllmStage(
            weights_bytes=weights[index],
            activation_peak_bytes=activation,
            kv_pool_bytes=budget - weights[index] - activation - non_torch,
            kv_bytes_per_token=max(per_token, 1),
        ))
    blocks = [max(0, s.kv_pool_bytes) // (s.kv_bytes_per_token * BLOCK_SIZE) for s in stages]
    limiting = min(range(len(stages)), key=lambda i: blocks[i])
    tokens = blocks[limiting] * BLOCK_SIZE
    # Report the stage that uses the most memory (the one a buyer must size for).
    heaviest = max(range(len(stages)), key=lambda i: stages[i].weights_bytes + stages[i].activation_peak_bytes)
    stage = stages[heaviest]
    graphs = 0 if enforce_eager else cudagraph_bytes(plan.stage_layers[heaviest], model.hidden_size, tp).bytes
    context = cuda_context().bytes
    kv_bytes_alloc = tokens * stage.kv_bytes_per_token
    used = stage.weights_bytes + stage.activation_peak_bytes + non_torch + kv_bytes_alloc + graphs + context
    return VllmProfile(
        gpu_memory_bytes=gpu_memory_bytes,
        gpu_memory_utilization=gpu_memory_utilization,
        budget_bytes=budget,
        max_model_len=max_model_len,
        max_num_batched_tokens=batched,
        max_num_seqs=seqs,
        weights_bytes=stage.weights_bytes,
        activation_peak_bytes=stage.activation_peak_bytes,
        non_torch_bytes=non_torch,
        cudagraph_bytes=graphs,
        cuda_context_bytes=context,
        kv_cache_bytes=kv_bytes_alloc,
        kv_cache_tokens=tokens,
        max_concurrency=round(tokens / max_model_len, 2),
        total_used_bytes=used,
        stages=stages,
        limiting_stage=limiting,
    )
