"""`sizer-agent estimate`: memory per GPU for an inference or training workload."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sizer_agent.cli.commands.recommend import render_perf
from sizer_agent.cli.estimate_args import (
    add_estimate_arguments,
    add_vision_arguments,
    check_language_flags,
    request_from_args,
    vision_request_from_args,
)
from sizer_agent.cli.units import bar, both, gib, params
from sizer_agent.i18n import render as i18n_render
from sizer_agent.tools.estimate import EstimateResult, estimate
from sizer_agent.tools.perf.estimate import perf_for_estimate

NAME = "estimate"
ORDER = 10
HELP = "memory per GPU (weights, KV cache, activations, runtime) for an inference or training load"
DESCRIPTION = """\
Estimate the memory the most loaded GPU needs for a workload, and say why.

Inference: weights (in the chosen format, quantization metadata included) + KV cache for
--concurrency requests of --input-len + --output-len tokens (GQA, MLA, sliding windows handled) +
activations of one prefill step + runtime (CUDA context, workspaces). With --engine vllm, reproduces
vLLM's start-up accounting instead: budget = GPU memory x --gpu-memory-utilization; KV pool = budget -
weights - activation peak - non-torch memory; KV capacity in tokens; maximum concurrency.

Training (--mode training): weights + gradients + optimizer states + saved activations + loss buffers,
for full fine-tuning, LoRA or QLoRA, with checkpointing, ZeRO/FSDP, offload, TP/PP.

Sizes are printed in GiB (2^30 bytes) and GB (10^9 bytes). VRAM does not add up across GPUs: with
several GPUs the numbers are for the most loaded one, under the parallelism you give.

examples:
  sizer-agent estimate --model llama-3.1-70b --quantization fp8 --input-len 2048 --output-len 512 \\
      --concurrency 32 --gpu-memory-gib 80
  sizer-agent estimate --model meta-llama/Llama-3.1-8B-Instruct --engine vllm --gpu-memory-gib 79.19 \\
      --gpu-memory-utilization 0.95 --max-model-len 8192
  sizer-agent estimate --model llama-3.1-8b --mode training --method lora --batch-size 2 --seq-len 2048 \\
      --gradient-checkpointing full --json
  sizer-agent estimate --model llama-3.1-70b --mode training --zero 3 -dp 8 --offload parameters \\
      --gradient-checkpointing full --master-weights none     # FSDP CPU offload: host RAM, PCIe per step
  sizer-agent estimate --model llama-3.1-8b --engine vllm --gpu rtx-5080 --max-model-len 8192 \\
      --cpu-offload-gb auto                                   # weights in host RAM: the tokens/s it costs

Computer vision (--task vision; needs `pip install 'sizer-agent[vision]'`): the architecture is traced
without weights (timm, torchvision, or yolov8n..yolov8x) at --resolution px and --batch-size images per
GPU. Training: fp32 weights + gradients + optimizer states (--optimizer sgd, sgd_momentum, adamw,
adamw8bit) + the activations autograd saves (float32, or bfloat16/float16 autocast; --checkpointing keeps
block inputs only) + the largest transient + CUDA runtime; --gpus N data-parallel GPUs, each with the whole
model and its own batch. Inference: weights in --dtype + the largest live activations of a forward pass.
With --gpu ID also images/s (training and inference) and, with --dataset-images, the epoch time.
The first call traces the model (seconds); later calls read the trace from the cache ($SIZER_AGENT_CACHE).

  sizer-agent estimate --task vision --model resnet50 --resolution 224 --batch-size 256 --mode training \\
      --dtype bfloat16 --gpu a100-80gb-sxm --json
  sizer-agent estimate --task vision --model yolov8x --resolution 1024 --batch-size 32 --mode training \\
      --optimizer sgd_momentum --gpus 4 --gpu h100-sxm --dataset-images 118287
  sizer-agent estimate --task vision --model vit_base_patch16_224 --mode inference --batch-size 64 \\
      --dtype bfloat16
"""


def configure(parser: argparse.ArgumentParser) -> None:
    add_estimate_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON (schema: docs/estimate.md, "
                        "docs/vision.md with --task vision)")
    add_vision_arguments(parser)


def render(result: EstimateResult) -> str:
    model, req, mem = result.model, result.request, result.per_gpu
    revision = model.revision or "revision not pinned"
    active = f", {params(model.params_active)} active" if model.is_moe else ""
    lines = [
        f"{model.name} ({revision}) · {params(model.params_total)} parameters{active} · {model.architecture}",
        f"weights {result.weight_format} · KV cache {result.kv_cache_dtype_bytes:g} byte(s)/value · "
        f"TP {result.parallelism.tensor_parallel_size} × PP {result.parallelism.pipeline_parallel_size} × "
        f"DP {result.parallelism.data_parallel_size} = {result.parallelism.num_gpus} GPU(s)",
    ]
    if req.mode == "inference":
        lines.append(f"inference · engine {req.engine} · {req.concurrency} request(s) × "
                     f"{req.input_len:,} in / {req.output_len:,} out · context {result.max_model_len:,}")
    else:
        lines.append(f"training · {req.method} · micro-batch {req.batch_size} × {req.seq_len:,} tokens · "
                     f"{req.optimizer} · checkpointing {req.gradient_checkpointing}")
    scale = max(mem.total_bytes, result.gpu_memory_bytes or 0)
    lines += ["", "memory on the most loaded GPU"]
    rows = [("weights", mem.weights_bytes), ("KV cache", mem.kv_cache_bytes),
            ("activations", mem.activations_bytes), ("gradients", mem.gradients_bytes),
            ("optimizer states", mem.optimizer_bytes), ("runtime", mem.runtime_bytes)]
    for label, value in rows:
        if value or label in ("weights", "runtime"):
            lines.append(f"  {label:<17}{both(value):>28}  {bar(value, scale)}")
    lines.append(f"  {'total':<17}{both(mem.total_bytes):>28}  {bar(mem.total_bytes, scale)}")
    padded = ""
    if result.kv_head_alignment and model.head_dim % result.kv_head_alignment and "mla" not in model.attention:
        padded = f" (each KV head stored padded to {result.kv_head_alignment} elements, head_dim {model.head_dim})"
    lines.append(f"  KV cache per token (this GPU): {result.kv_cache_bytes_per_token:,} bytes{padded} · "
                 f"whole model weights: {both(result.weight_bytes_total)}")
    lines.append(f"  (params × {result.weight_bytes_nominal * 8 // max(model.params_total, 1)} bits alone: "
                 f"{both(result.weight_bytes_nominal)}; the rest is 16-bit tensors and quantization scales)")
    if result.engine is not None:
        e = result.engine
        lines += ["", f"vLLM ({e.basis})",
                  f"  budget {gib(e.budget_bytes)} · activation peak {gib(e.activation_peak_bytes)} · "
                  f"non-torch {gib(e.non_torch_bytes)} · CUDA graphs {gib(e.cudagraph_bytes)}",
                  f"  KV cache {gib(e.kv_cache_bytes)} = {e.kv_cache_tokens:,} tokens · maximum concurrency "
                  f"{e.max_concurrency:g} × {e.max_model_len:,} tokens"]
    if result.training is not None:
        t = result.training
        lines += ["", f"  trainable parameters {params(t.trainable_params)} · checkpoint {both(t.checkpoint_bytes)}"
                  f" (with optimizer state for resume: {both(t.checkpoint_resume_bytes)})"]
        if t.paged_optimizer_bytes:
            lines.append(f"  paged optimizer states (host-backed): {both(t.paged_optimizer_bytes)}")
        if t.offloaded_bytes:
            parts = [(label, value) for label, value in (
                ("optimizer states", t.offloaded_optimizer_bytes), ("parameters", t.offloaded_parameters_bytes),
                ("gradients", t.offloaded_gradients_bytes), ("activations", t.offloaded_activations_bytes)) if value]
            lines.append(f"  offloaded to host RAM (this GPU's process): {both(t.offloaded_bytes)} = "
                         + " + ".join(f"{label} {gib(value)}" for label, value in parts))
            lines.append(f"  host-link traffic per optimizer step: {both(t.host_link_bytes_per_step)}")
    if result.weight_offload is not None:
        w = result.weight_offload
        lines += ["", f"  weights in host RAM: {both(w.offloaded_bytes_per_gpu)} per GPU, {both(w.host_ram_bytes)} "
                  f"pinned for {w.num_gpus} GPU(s) (requested: {w.requested})"]
    if result.gpu_memory_bytes is not None:
        verdict = "fits" if result.fits else "does NOT fit"
        lines += ["", f"GPU {result.gpu_name or ''} {gib(result.gpu_memory_bytes)}: {verdict} "
                  f"(headroom {gib(result.headroom_bytes or 0)})"]
    for text in result.explanation:
        lines.append(f"· {i18n_render('en', text)}")
    if result.warnings:
        lines += ["", "warnings:"] + [f"  - {i18n_render('en', w)}" for w in result.warnings]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.task == "vision":
        return run_vision(args)
    check_language_flags(args)
    result = estimate(request_from_args(args))
    perf = perf_for_estimate(result)  # speed on a catalogue GPU (--gpu ID); None otherwise
    if args.json:
        print(json.dumps({**result.model_dump(mode="json"), "perf": perf and perf.model_dump(mode="json")},
                         indent=2))
    else:
        print(render(result) + ("\n\n" + render_perf(perf) if perf else "") + _engine_note(result))
    return 0


def _engine_note(result: EstimateResult) -> str:
    """On a TPU or a Trainium, vLLM's CUDA start-up accounting describes another engine: say so."""
    if result.request.gpu is None or result.request.engine != "vllm":
        return ""
    from sizer_agent.tools.catalog import load_catalog

    gpu = load_catalog().gpu(result.request.gpu)
    if gpu.software_stack in ("cuda", "rocm"):
        return ""
    engines = gpu.engines.value if gpu.engines else gpu.software_stack
    return (f"\n\nnote: {gpu.name} runs {engines}; --engine vllm reproduces vLLM's CUDA start-up accounting, "
            "which does not describe it (use --engine generic)")


def run_vision(args: argparse.Namespace) -> int:
    from sizer_agent.tools.vision.estimate import estimate_vision

    request = vision_request_from_args(args)
    result = estimate_vision(request)
    speed = None
    if args.gpu:
        from sizer_agent.tools.catalog.loader import load_catalog
        from sizer_agent.tools.vision.speed import vision_speed

        speed = vision_speed(result, load_catalog().gpu(args.gpu))
    if args.json:
        print(json.dumps({**result.model_dump(mode="json"), "perf": speed and speed.model_dump(mode="json")},
                         indent=2))
    else:
        print(render_vision(result, speed))
    return 0


def render_vision(result: Any, speed: Any) -> str:
    model, req, mem, v = result.model, result.request, result.per_gpu, result.vision
    lines = [
        f"{model.name} ({model.library}) · {params(model.params_total)} parameters · {model.num_classes or 'default'}"
        f" classes · {v.resolution} px",
        f"{req.mode} · {v.batch_size} image(s) per GPU × {req.gpus} GPU(s) = {v.global_batch} per step · {v.dtype}"
        + (f" · {req.optimizer}" if req.mode == "training" else "")
        + (" · activation checkpointing" if req.checkpointing else ""),
        f"forward {v.forward_flops_per_image / 1e9:,.2f} GFLOP per image"
        + (f" (+ {v.attention_flops_per_image / 1e9:,.2f} fused attention)" if v.attention_flops_per_image else ""),
        "", "memory per GPU",
    ]
    scale = max(mem.total_bytes, result.gpu_memory_bytes or 0)
    rows = [("weights", mem.weights_bytes), ("gradients", mem.gradients_bytes),
            ("optimizer states", mem.optimizer_bytes), ("activations", mem.activations_bytes),
            ("workspace", mem.workspace_bytes), ("runtime", mem.runtime_bytes)]
    for label, value in rows:
        if value or label in ("weights", "activations", "runtime"):
            lines.append(f"  {label:<17}{both(value):>28}  {bar(value, scale)}")
    lines.append(f"  {'total':<17}{both(mem.total_bytes):>28}  {bar(mem.total_bytes, scale)}")
    lines.append(f"  saved for backward {both(v.saved_activation_bytes_cuda)} · inference live peak "
                 f"{both(v.inference_peak_activation_bytes)}")
    if result.gpu_memory_bytes is not None:
        verdict = "fits" if result.fits else "does NOT fit"
        lines += ["", f"GPU {result.gpu_name or ''} {gib(result.gpu_memory_bytes)}: {verdict} "
                  f"(headroom {gib(result.headroom_bytes or 0)})"]
    if speed is not None:
        t, i = speed.training, speed.inference
        lines += ["", f"speed on {speed.gpu_name} ({speed.precision}, roofline per kernel; "
                      f"{speed.efficiencies.source})",
                  f"  training  {t.images_per_s:,.0f} images/s · step {t.step_time_s * 1000:,.1f} ms · "
                  f"{t.bound}-bound",
                  f"  inference {i.images_per_s:,.0f} images/s · batch {i.step_time_s * 1000:,.1f} ms · "
                  f"{i.bound}-bound"]
        if speed.epoch_time_s is not None:
            lines.append(f"  epoch of {speed.dataset_images:,} images: {speed.epoch_time_s / 60:,.1f} min")
        lines += [f"  note: {note}" for note in speed.notes]
    for text in result.explanation:
        lines.append(f"· {i18n_render('en', text)}")
    if result.warnings:
        lines += ["", "warnings:"] + [f"  - {i18n_render('en', w)}" for w in result.warnings]
    return "\n".join(lines)
