"""The estimate flags, shared by `estimate` and every command built on it (recommend, ...).

Flag names follow vLLM's where they overlap (--max-model-len, --tensor-parallel-size, --kv-cache-dtype,
--gpu-memory-utilization, --quantization, --dtype).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from sizer_agent.cli import numbers
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.memory.training import (
    LORA_ALIASES,
    LORA_TARGETS,
    OFFLOAD_CHOICES,
    canonical_lora_targets,
)
from sizer_agent.tools.quantization import QUANTIZATION_CHOICES

if TYPE_CHECKING:
    from sizer_agent.tools.vision.estimate import VisionRequest

POSITIVE_INT_FIELDS = ("max_model_len", "input_len", "output_len", "concurrency", "batch_size", "seq_len")


# every numeric flag goes through sizer_agent.cli.numbers (finite, whole when it must be, in range)
_positive_int = numbers.positive_int
number = numbers.number_type(float)
fraction = numbers.fraction
positive_float = numbers.positive_float


def _nonnegative_int(text: str) -> int:
    return 0 if text.strip() == "0" else _positive_int(text)


def _offload_gib(text: str) -> float | str:
    return "auto" if text.strip().lower() == "auto" else numbers.number_type(float)(text)


def add_estimate_arguments(parser: argparse.ArgumentParser) -> None:
    model = parser.add_argument_group("model")
    model.add_argument("--model", required=True,
                       help="bundled name (see `sizer-agent models`), config.json path or folder, or Hub id org/name")
    model.add_argument("--revision", help="Hub revision (branch, tag or commit); unpinned when omitted")
    model.add_argument("--dtype", default="auto", help="activation/weight dtype: auto (checkpoint's), bfloat16, "
                       "float16, float32")
    model.add_argument("--quantization", choices=QUANTIZATION_CHOICES, metavar="FORMAT",
                       help="weight format, overrides the checkpoint's quantization_config: "
                       + ", ".join(QUANTIZATION_CHOICES))
    model.add_argument("--group-size", type=_positive_int, default=128, help="group size of int4 GPTQ/AWQ (128)")
    model.add_argument("--kv-cache-dtype", default="auto", help="auto (= dtype), fp8, fp8_e4m3, fp8_e5m2, bfloat16")

    load = parser.add_argument_group("load (inference)")
    load.add_argument("--mode", choices=["inference", "training"], default="inference")
    load.add_argument("--max-model-len", type=_positive_int,
                      help="context window; default: input+output (generic) or the model's maximum (vllm)")
    load.add_argument("--input-len", type=_positive_int, default=1024, help="prompt tokens per request (1024)")
    load.add_argument("--output-len", type=_positive_int, default=256, help="generated tokens per request (256)")
    load.add_argument("--concurrency", type=_positive_int, default=1, help="requests served at once (1)")
    load.add_argument("--images-per-request", type=_nonnegative_int, default=0, metavar="N",
                      help="images in each prompt, multimodal models only (0): each adds the model's image tokens "
                      "(Gemma 3: 256, Mistral Small 3.1: up to 3,080, Llama 4: 144 per tile, Qwen2.5-VL: 1,369 at "
                      "1024 px) to the context and KV cache")
    load.add_argument("--cpu-offload-gb", type=_offload_gib, default=0.0, metavar="GIB|auto",
                      help="weights per GPU kept in host RAM and streamed over the host link every forward pass "
                      "(vLLM --cpu-offload-gb; llama.cpp layers left on the CPU): less GPU memory, slower tokens. "
                      "'auto': the least that fits --gpu / --gpu-memory-gib")
    load.add_argument("--host-memory-gbs", type=positive_float, metavar="GB/S",
                      help="with --cpu-offload-gb: the offloaded layers run on the CPU at this host memory "
                      "bandwidth (llama.cpp -ngl below the layer count; dual-channel DDR5-5600 ~90 GB/s, "
                      "12-channel DDR5 server ~460 GB/s) instead of crossing PCIe every step (vLLM)")

    train = parser.add_argument_group("training")
    train.add_argument("--method", choices=["full", "lora", "qlora"], default="full")
    train.add_argument("--batch-size", type=_positive_int, default=1, help="micro-batch per GPU (1)")
    train.add_argument("--seq-len", type=_positive_int, default=2048, help="training sequence length (2048)")
    train.add_argument("--gradient-accumulation-steps", type=_positive_int, default=1)
    train.add_argument("--optimizer", choices=["adamw", "adamw8bit", "paged_adamw8bit", "sgd", "adafactor"],
                       default="adamw")
    train.add_argument("--gradient-checkpointing", choices=["none", "selective", "full"], default="none")
    train.add_argument("--no-flash-attention", dest="flash_attention", action="store_false",
                       help="eager attention: stores the s x s score matrices")
    train.add_argument("--master-weights", choices=["fp32", "none"], default="fp32",
                       help="fp32: mixed precision with an fp32 master copy (12 B/param AdamW); none: pure "
                       "low-precision training as in torchtune's bf16 recipes")
    train.add_argument("--lora-rank", type=_positive_int, default=16)
    train.add_argument("--lora-targets", default="q_proj,v_proj",
                       help="comma-separated linears: " + ",".join(LORA_TARGETS) + " (on MoE models gate/up/down "
                       "_proj adapt every expert, as PEFT's suffix match does; router is the gating linear; "
                       "lm_head the output projection). Also accepted: "
                       + ", ".join(f"{a}={b}" for a, b in LORA_ALIASES.items()))
    train.add_argument("--optimizer-in-backward", action="store_true",
                       help="apply and free each gradient during backward (torchtune optimizer_in_bwd)")
    train.add_argument("--fused-loss", action="store_true",
                       help="chunked or fused cross-entropy (torchtune CEWithChunkedOutputLoss under compile, "
                            "Liger, Unsloth): no fp32 copy of the logits is kept")
    train.add_argument("--cpu-offload", action="store_true",
                       help="optimizer states in host RAM (= --offload optimizer)")
    train.add_argument("--offload", default="", metavar="WHAT",
                       help="comma-separated, what lives in host RAM instead of GPU memory: optimizer (ZeRO-Offload, "
                       "torchao CPUOffloadOptimizer), parameters (FSDP CPUOffloadPolicy / torchtune fsdp_cpu_offload, "
                       "ZeRO-3 offload_param; with --zero 3; implies optimizer), activations (torchtune "
                       "enable_activation_offloading). Reports the host RAM and host-link bytes per step")
    train.add_argument("--zero", type=int, choices=[0, 1, 2, 3], default=0,
                       help="ZeRO stage / FSDP sharding over data-parallel ranks")

    hw = parser.add_argument_group("GPUs and engine")
    hw.add_argument("--tensor-parallel-size", "-tp", type=_positive_int, default=1)
    hw.add_argument("--pipeline-parallel-size", "-pp", type=_positive_int, default=1)
    hw.add_argument("--data-parallel-size", "-dp", type=_positive_int, default=1)
    hw.add_argument("--gpu", help="catalogue GPU id (usable memory from the catalogue)")
    hw.add_argument("--gpu-memory-gib", type=positive_float, help="usable GPU memory in GiB, as the driver reports it")
    hw.add_argument("--engine", choices=["generic", "vllm"], default="generic",
                    help="generic: peak need at the stated load; vllm: vLLM's start-up accounting")
    hw.add_argument("--gpu-memory-utilization", type=fraction, default=0.9, help="vLLM's fraction (0.9)")
    hw.add_argument("--max-num-batched-tokens", type=_positive_int, help="vLLM scheduler token budget")
    hw.add_argument("--max-num-seqs", type=_positive_int, help="vLLM scheduler sequence limit")
    hw.add_argument("--enforce-eager", action="store_true", help="vLLM without CUDA graphs")


def request_from_args(args: argparse.Namespace) -> EstimateRequest:
    targets = [t.strip() for t in args.lora_targets.split(",") if t.strip()]
    try:
        canonical_lora_targets(targets)
    except InputError as error:
        raise InputError("--lora-targets", error.message, error.allowed) from None
    offload = [t.strip() for t in (getattr(args, "offload", "") or "").split(",") if t.strip()]
    unknown = [t for t in offload if t not in OFFLOAD_CHOICES]
    if unknown:
        raise InputError("--offload", f"unknown {', '.join(unknown)}", ",".join(OFFLOAD_CHOICES))
    amount = getattr(args, "cpu_offload_gb", 0.0)
    if amount != "auto" and amount < 0:
        raise InputError("--cpu-offload-gb", f"{amount} GiB is negative", "0 or more GiB, or auto")
    fields = {name: getattr(args, name) for name in EstimateRequest.model_fields if hasattr(args, name)}
    fields["lora_targets"] = targets
    fields["offload"] = offload
    return EstimateRequest(**fields)


def add_vision_arguments(parser: argparse.ArgumentParser, *, gpus: bool = True) -> None:
    """--task vision and its flags (estimate, recommend). Shared flags whose vision meaning differs
    (--batch-size, --optimizer) get their defaults per task in vision_request_from_args."""
    vision = parser.add_argument_group("computer vision (--task vision)")
    vision.add_argument("--task", choices=["language", "vision"], default="language",
                        help="language (default): a transformer language model; vision: CNN, ViT or detector")
    vision.add_argument("--resolution", type=_positive_int, default=224, help="image side in pixels (224)")
    vision.add_argument("--num-classes", type=_positive_int, help="classes of the head (default: the architecture's)")
    if gpus:
        vision.add_argument("--gpus", type=_positive_int, default=1, help="data-parallel GPUs (1)")
    vision.add_argument("--checkpointing", action="store_true", help="activation checkpointing per block")
    vision.add_argument("--dataset-images", type=_positive_int, help="images per epoch: the epoch time")
    parser.set_defaults(batch_size=None, optimizer=None)
    for action in parser._actions:
        if action.dest == "optimizer" and action.choices is not None:
            action.choices = [*action.choices, "sgd_momentum"]
            action.help = "language: adamw (default), adamw8bit, paged_adamw8bit, sgd, adafactor; vision: " \
                          "sgd_momentum (default), sgd, adamw, adamw8bit"
        if action.dest == "batch_size":
            action.help = "micro-batch per GPU (language: 1; vision: images per GPU, 32)"


def vision_request_from_args(args: argparse.Namespace) -> VisionRequest:
    """tools.vision.estimate.VisionRequest from --task vision flags (InputError naming the flag otherwise)."""
    from sizer_agent.tools.vision.estimate import VISION_DTYPES, VISION_OPTIMIZERS, VisionRequest

    dtype = "float32" if args.dtype == "auto" else args.dtype
    if dtype not in VISION_DTYPES:
        raise InputError("--dtype", f"{args.dtype!r} is not a vision training/inference dtype",
                         "float32, bfloat16, float16")
    optimizer = args.optimizer or "sgd_momentum"
    if optimizer not in VISION_OPTIMIZERS:
        raise InputError("--optimizer", f"{optimizer!r} is not sized for vision", ", ".join(VISION_OPTIMIZERS))
    return VisionRequest(model=args.model, resolution=args.resolution, batch_size=args.batch_size or 32,
                         mode=args.mode, dtype=dtype, num_classes=args.num_classes, optimizer=optimizer,
                         gpus=getattr(args, "gpus", 1), checkpointing=args.checkpointing,
                         gpu=getattr(args, "gpu", None), gpu_memory_gib=getattr(args, "gpu_memory_gib", None),
                         dataset_images=args.dataset_images)


def check_language_flags(args: argparse.Namespace) -> None:
    """A language-model run: vision-only flags are refused (naming them), the shared flags get their
    language defaults (micro-batch 1, AdamW)."""
    if getattr(args, "gpus", 1) != 1 or args.checkpointing or args.dataset_images or args.num_classes:
        raise InputError("--gpus/--checkpointing/--dataset-images/--num-classes", "only with --task vision",
                         "language models: -tp, -pp, -dp, --gradient-checkpointing, --dataset-gb")
    if args.optimizer == "sgd_momentum":
        raise InputError("--optimizer", "sgd_momentum is a vision optimizer name",
                         "adamw, adamw8bit, paged_adamw8bit, sgd (momentum 0.9), adafactor")
    args.batch_size = args.batch_size or 1
    args.optimizer = args.optimizer or "adamw"

