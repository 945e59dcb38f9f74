"""Efficiencies: the fraction of a spec figure real kernels reach. Each constant names where it comes from.

Serving efficiencies (bandwidth, compute, MoE grouped-GEMM rows per expert, step overhead, host cost per sequence)
come per accelerator generation and compute precision ("hopper/fp8", "blackwell/fp4", ...) from
`data/serving_efficiencies.json`, which `tools/perf/calibrate.py` writes: it fits them on the calibration and
calibration3 splits of published serving rows only (the splits' ids are stored in that file). A generation/precision
with too few calibration rows (MI300X bf16, TPU, Trainium, ...) gets the "default" set, fitted on all of them;
the roofline stays the model for every accelerator. The other constants below carry their own sources.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

CALIBRATED_PATH = Path(__file__).resolve().parent / "data" / "serving_efficiencies.json"
# the fields the calibration fits (the others keep the sourced values below)
SERVING_FIELDS = ("bandwidth", "compute", "moe_half_tokens", "moe_routing_traffic", "step_overhead_s",
                  "host_per_sequence_s")


class Efficiencies(BaseModel):
    model_config = ConfigDict(frozen=True)

    # docs/design.md §5: H200 device copy ~4.3 of 4.8 TB/s = 0.90 is the ceiling; decode kernels (paged attention,
    # GEMV over many small tensors) reach less. Fallback when no calibrated set applies.
    bandwidth: float = Field(0.60, gt=0, le=1)
    # docs/design.md §5: H200 dense bf16 GEMM ~790 of 989 TFLOP/s = 0.80 for large square GEMMs; a serving step mixes
    # smaller GEMMs, attention and elementwise kernels. Fallback when no calibrated set applies.
    compute: float = Field(0.45, gt=0, le=1)
    # Routed-expert (grouped) GEMMs run at `compute` x m / (m + moe_half_tokens), m = tokens each routed expert
    # receives in one step (its GEMM's M dimension). A grouped GEMM pads every expert's rows to the kernel's
    # M tile (vLLM fused_moe `moe_align_block_size`: "pads the number of tokens that each expert needs to process
    # so that it is divisible by block_size"; vLLM tunes BLOCK_SIZE_M per M, fused_moe/configs/README) and an
    # expert with few rows cannot fill the tensor cores, so its cost is that of about m + moe_half_tokens rows
    # (MegaBlocks, Gale et al. 2023, arXiv 2211.15841 §3-5: padding to blocks is the cost of dynamic routing).
    # Measured: DeepGEMM's FP8 grouped GEMM on H800 reaches 932 / 1040 / 1233 TFLOP/s at 256 / 512 / 1024 rows per
    # expert and ~1300 at 4096-8192 (deepseek-ai/DeepGEMM README, Performance, 2025-02): efficiency rises with m.
    # 0 = priced like dense. serving.grouped_gemm_efficiency.
    moe_half_tokens: float = Field(0.0, ge=0)
    # Routing cost of the routed experts, outside their GEMMs: each step's routed rows (tokens x k) go through
    # memory-bound kernels that run between the GEMMs, one after another: the permute copies each token's
    # activation to its k expert rows, the gated activation reads the first GEMM's 2 x I outputs and writes I,
    # the finalize (unpermute) reads the k expert outputs back and sums them per token, and the router's top-k
    # reads the E logits (TensorRT-LLM cpp/tensorrt_llm/kernels/mixtureOfExperts/moe_kernels.cu:
    # expandInputRowsKernel, doActivation, finalizeMoeRoutingKernel; vLLM fused_moe moe_align_block_size +
    # moe_sum; MegaBlocks, Gale et al. 2023, §5: gather/scatter of the permutation). serving.routing_bytes counts
    # those bytes from the model's shape; this factor scales them (1 = exactly the first-principles count at the
    # decode bandwidth efficiency; more = kernels that move them slower, e.g. the gather's scattered reads, or
    # extra passes such as quantising the permuted rows). Fitted once on every calibration MoE row.
    moe_routing_traffic: float = Field(1.0, ge=0)
    # Fixed cost of one engine step (scheduling, sampling, kernel launches not hidden by CUDA graphs), seconds.
    step_overhead_s: float = Field(0.001, ge=0)
    # Host-side cost per running sequence per step (scheduler, sampler, detokeniser), overlapped with the GPU step.
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
    # True: the serving fields are replaced by the calibrated set of the GPU's generation and precision.
    # Efficiencies built by hand (tests, the calibration search) keep their own values.
    per_generation: bool = False


DEFAULT_EFFICIENCIES = Efficiencies(per_generation=True)


def generation(architecture: str) -> str:
    """Calibration family of a catalogue architecture string: 'Hopper (GH100)' -> 'hopper'.

    Data-centre Blackwell (B200, GB200, B300: sm_100, HBM) and the GB20x parts (RTX PRO 6000, RTX 50: sm_120,
    GDDR7) have different tensor cores and memory, so they are separate families."""
    arch = architecture.lower()
    if arch.startswith("blackwell"):
        return "blackwell-gb20x" if "(gb20" in arch else "blackwell"  # "B200 in GB200" is data-centre
    for family in ("hopper", "ampere", "ada", "cdna", "tpu", "trainium", "turing", "volta"):
        if arch.startswith(family):
            return family
    return arch.split(" ")[0] or "unknown"


def calibration_key(architecture: str, precision: str) -> str:
    return f"{generation(architecture)}/{precision}"


@lru_cache(maxsize=1)
def calibrated_sets(path: Path = CALIBRATED_PATH) -> dict[str, dict[str, float]]:
    """{key: {field: value}} from the calibration output; empty when the file is absent."""
    if not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_text())
    return {key: dict(entry["constants"]) for key, entry in data["sets"].items()}


@lru_cache(maxsize=256)
def resolve(eff: Efficiencies, architecture: str, precision: str) -> Efficiencies:
    """The efficiencies a step on this GPU/precision runs at (calibrated set when `eff.per_generation`)."""
    if not eff.per_generation:
        return eff
    sets = calibrated_sets()
    values = sets.get(calibration_key(architecture, precision)) or sets.get("default")
    if not values:
        return eff.model_copy(update={"per_generation": False})
    return eff.model_copy(update={**{k: values[k] for k in SERVING_FIELDS if k in values}, "per_generation": False})
