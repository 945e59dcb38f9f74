"""Efficiencies: the fraction of a spec figure real kernels reach. Each constant names where it comes from.

Calibrated on the TensorRT-LLM maximum-throughput table (H100 SXM, FP8) in the validation set, with a held-out
set from the same document for other GPUs/precisions/models (see tools/perf/validation.py and docs/catalog.md).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Efficiencies(BaseModel):
    model_config = ConfigDict(frozen=True)

    # docs/design.md §5: H200 device copy ~4.3 of 4.8 TB/s = 0.90 is the ceiling; decode kernels (paged attention,
    # GEMV over many small tensors) reach less. Calibrated value.
    bandwidth: float = Field(0.60, gt=0, le=1)
    # docs/design.md §5: H200 dense bf16 GEMM ~790 of 989 TFLOP/s = 0.80 for large square GEMMs; a serving step mixes
    # smaller GEMMs, attention and elementwise kernels. Calibrated value.
    compute: float = Field(0.45, gt=0, le=1)
    # Fixed cost of one engine step (scheduling, sampling, kernel launches not hidden by CUDA graphs), seconds.
    # Calibrated value.
    step_overhead_s: float = Field(0.001, ge=0)
    # Host-side cost per running sequence per step (scheduler, sampler, detokeniser) that bounds small models
    # at large batch; overlapped with the GPU step. Calibrated value.
    host_per_sequence_s: float = Field(20e-6, ge=0)
    # Collective bandwidth reached vs the unidirectional link figure (nccl-tests busbw convention). NVIDIA
    # quotes ~0.8 for large all-reduce on NVLink (nccl-tests PERFORMANCE.md busbw discussion).
    collective_bandwidth: float = Field(0.60, gt=0, le=1)
    # Latency of one small all-reduce, seconds: ~8 us over NVLink/NVSwitch (one-shot custom all-reduce),
    # ~25 us over PCIe with P2P, ~60 us through host memory without P2P. Engineering estimates, stated.
    allreduce_latency_nvlink_s: float = Field(8e-6, ge=0)
    allreduce_latency_pcie_s: float = Field(25e-6, ge=0)
    allreduce_latency_host_s: float = Field(60e-6, ge=0)
    # Training model FLOPs utilisation: 38-43 % bf16 MFU for Llama 3 405B on H100 (Dubey et al. 2024,
    # "The Llama 3 Herd of Models", Table 4); 0.40 as a default for well-tuned dense training.
    training_mfu: float = Field(0.40, gt=0, le=1)
    # Fraction of the gradient all-reduce hidden behind the backward pass (bucketed overlap as in PyTorch DDP,
    # Li et al. 2020, "PyTorch Distributed"); assumption.
    gradient_overlap: float = Field(0.7, ge=0, le=1)


DEFAULT_EFFICIENCIES = Efficiencies()
