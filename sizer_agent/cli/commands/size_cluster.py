"""`sizer-agent size-cluster`: N nodes or racks for a training run or a serving load, on the real fabric."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from sizer_agent.cli.estimate_args import positive_float
from sizer_agent.cli.numbers import number_type
from sizer_agent.i18n import Lang
from sizer_agent.i18n import render as i18n_render
from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.cluster import DEFAULT_COUNTS, ClusterPlan, ClusterRequest, size_cluster
from sizer_agent.tools.model_loader import load_model

NAME = "size-cluster"
ORDER = 21
HELP = "multi-node plans: training tokens/s per chip from 8 to 4,096 chips, or a rack/cluster serving plan"
DESCRIPTION = """\
Size a cluster of whole nodes (HGX/DGX 8-GPU) or racks (GB300 NVL72) joined by InfiniBand/RoCE, on each
offer's real fabric: NVLink/NVSwitch or the NVL72 switch trays inside a scale-up domain, one NIC per GPU
(ConnectX-7 400 Gb/s, ConnectX-8 800 Gb/s...) between domains. Collectives are priced with the nccl-tests
bus-bandwidth convention.

inference   the best layout on the whole rack or cluster: wide expert parallelism (attention data-parallel,
            experts sharded, all-to-all per MoE layer) or tensor x pipeline; per-GPU memory (weights, KV);
            output tokens/s per chip at the TPOT limit; hourly cost and output tokens per euro.
            --nodes N or --gpus G fixes the size; --target-tokens-per-s grows it until the load is served.
training    tokens/s per chip, scaling efficiency against the smallest count that fits, MFU and goodput
            (checkpoints + failures at an MTBF from Llama 3's 54-day run) at each --chips count
            (default 8, 256, 1024, 4096), with the fastest TP x PP x CP x DP layout that fits memory.
            Fitted on MLPerf Training v3.1/v4.0, tested on v4.1/v5.0 (docs/scaleout.md).

examples:
  sizer-agent size-cluster --model deepseek-v3 --offers GB300-NVL72,HGX-B300-8 --slo-tpot-ms 50
  sizer-agent size-cluster --model deepseek-v3 --offers HGX-B300-8 --nodes 4 --json
  sizer-agent size-cluster --model qwen3-coder-480b --target-tokens-per-s 200000 --offers HGX-B300-8
  sizer-agent size-cluster --model llama-3.1-405b --mode training --offers HGX-H100-8,GB300-NVL72 \\
      --global-batch 1152 --seq-len 8192 --chips 256,1024,4096
"""


def _counts(text: str) -> list[int]:
    try:
        counts = [int(c.strip().replace("_", "")) for c in text.split(",") if c.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"chip counts are whole numbers, comma-separated, got {text!r}") from None
    if not counts or any(c < 1 for c in counts):
        raise argparse.ArgumentTypeError(f"at least one chip count, each >= 1, got {text!r}")
    return counts


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", required=True, help="bundled model id, local path or Hub id (deepseek-v3)")
    parser.add_argument("--mode", choices=["inference", "training"], default="inference")
    parser.add_argument("--offers", help="comma-separated catalogue offer ids (default: every node and rack offer)")
    parser.add_argument("--nodes", type=number_type(int, low=1, high=1024), help="units (nodes or racks) per offer")
    parser.add_argument("--gpus", type=number_type(int, low=1, high=1_000_000),
                        help="GPUs asked for, rounded up to whole units")
    group = parser.add_argument_group("inference")
    group.add_argument("--input-len", type=number_type(int, low=1), default=2048, help="prompt tokens (2048)")
    group.add_argument("--output-len", type=number_type(int, low=1), default=512, help="output tokens (512)")
    group.add_argument("--slo-tpot-ms", type=positive_float, default=50.0, help="time per output token (50)")
    group.add_argument("--slo-ttft-ms", type=positive_float, default=2000.0, help="time to first token (2000)")
    group.add_argument("--target-tokens-per-s", type=positive_float,
                       help="output tokens/s the cluster must serve: the number of units grows to it")
    group.add_argument("--quantization", help="weight format, e.g. fp8 or nvfp4 (default: the checkpoint's)")
    group.add_argument("--kv-cache-dtype", choices=["fp8", "bf16"], default="fp8", help="KV cache format (fp8)")
    group = parser.add_argument_group("training")
    group.add_argument("--chips", type=_counts, default=list(DEFAULT_COUNTS),
                       help="chip counts of the scaling curve (8,256,1024,4096)")
    group.add_argument("--global-batch", type=number_type(int, low=1), default=1024,
                       help="sequences per optimizer step (1024)")
    group.add_argument("--seq-len", type=number_type(int, low=1), default=8192, help="tokens per sequence (8192)")
    group.add_argument("--precision", choices=["bf16", "fp8", "fp4"], default="fp8", help="GEMM precision (fp8)")
    group.add_argument("--lora", action="store_true", help="LoRA fine-tuning: frozen base, adapters only")
    group.add_argument("--batch-policy", choices=["fixed", "per_chip"], default="fixed",
                       help="fixed: the same global batch at every count; per_chip: it grows with the chips")
    group.add_argument("--checkpoint-minutes", type=positive_float, default=30.0,
                       help="minutes between checkpoints (30)")
    group.add_argument("--mtbf-gpu-hours", type=positive_float,
                       help="mean time between failures per GPU, hours (default: Llama 3's run, ~50,700)")
    parser.add_argument("--catalog", type=Path, help="vendor catalogue TOML merged over the bundled one")
    parser.add_argument("--lang", choices=["en", "fr"], default="en", help="language of the text output (en)")
    parser.add_argument("--json", action="store_true", help="print the plan as JSON (tools.cluster.ClusterPlan)")


def _render_inference(plan: ClusterPlan, lang: Lang) -> list[str]:
    t = i18n_render
    lines = [t(lang, "cluster.heading_serving"), ""]
    header = (f"  {t(lang, 'cluster.offer')[:26]:<27}{t(lang, 'cluster.units')[:6]:>6} {'GPUs':>5}  "
              f"{t(lang, 'cluster.layout')[:22]:<23}{'GB':>13}{'TPOT':>7}{'TTFT':>7}{'tok/s/chip':>11}{'tok/EUR':>11}")
    lines += [header, "  " + "-" * (len(header) - 2)]
    for o in plan.options:
        s = o.serving
        if s is None:
            continue
        lay = s.layout
        layout = (f"EP{lay.ep} x{lay.replicas} (DP-attn)" if lay.kind == "wide_ep"
                  else f"TP{lay.tp} PP{lay.pp} x{lay.replicas}")
        mem = f"{s.memory.weights_gb:.0f}+{s.memory.kv_cache_gb:.0f}"
        per_eur = "-" if o.tokens_per_eur is None else f"{o.tokens_per_eur / 1e6:,.1f}M"
        lines.append(f"  {o.offer_name[:26]:<27}{o.units:>6} {o.gpus:>5}  {layout:<23}{mem:>13}"
                     f"{s.tpot_ms:>6.0f}ms{s.ttft_ms:>5.0f}ms{s.tokens_per_s_per_chip:>11,.0f}{per_eur:>11}")
        lines.append(f"      {t(lang, 'cluster.memory')}: {s.memory.weights_gb:.1f} + {s.memory.kv_cache_gb:.1f} GB "
                     f"/ {s.memory.capacity_gb:.1f} GB; batch {s.batch_per_gpu:.0f}/GPU; {s.bound}; "
                     f"fabric {o.fabric.kind} x{o.fabric.domain}, NIC {o.fabric.nic_gbps_per_gpu:.0f} Gb/s per GPU")
        lines.append(f"      {t(lang, 'cluster.per_chip')}: {s.tokens_per_s_per_chip:,.0f}; "
                     f"{t(lang, 'cluster.tokens_per_eur')}: {per_eur}")
        lines += [f"      - {t(lang, n)}" for n in o.notes]
    return lines


def _render_training(plan: ClusterPlan, lang: Lang) -> list[str]:
    t = i18n_render
    lines = [t(lang, "cluster.heading_training"), ""]
    for o in plan.options:
        lines.append(f"{o.offer_name} (fabric {o.fabric.kind} x{o.fabric.domain}, NIC "
                     f"{o.fabric.nic_gbps_per_gpu:.0f} Gb/s per GPU)")
        timed = any(p.job_hours is not None for p in o.scaling)  # a job of known size: its hours at each count
        header = (f"  {t(lang, 'cluster.chips'):>7}  {'TP/PP/CP/DP':<14}{'GB/GPU':>7}{'tok/s/chip':>11}"
                  f"{t(lang, 'cluster.efficiency')[:10]:>11}{t(lang, 'cluster.mfu'):>6}{t(lang, 'cluster.goodput'):>9}"
                  + (f"{'job (h)':>10}" if timed else ""))
        lines += [header, "  " + "-" * (len(header) - 2)]
        for p in o.scaling:
            e = p.estimate
            if e is None:
                lines.append(f"  {p.chips:>7}  {t(lang, 'cluster.no_fit')}")
                continue
            lay = e.layout
            lines.append(f"  {p.chips:>7}  {f'{lay.tp}/{lay.pp}/{lay.cp}/{lay.dp}':<14}{lay.memory_per_gpu_gb:>7.0f}"
                         f"{e.tokens_per_s_per_chip:>11,.0f}{p.scaling_efficiency or 0:>11.1%}{e.mfu:>6.0%}"
                         f"{e.goodput:>9.1%}" + (f"{p.job_hours:>10,.0f}" if timed and p.job_hours is not None
                                                   else ""))
        if (said := o.deadline_said()) is not None:
            lines.append("  > " + t(lang, said))
        lines += [f"  - {t(lang, n)}" for n in o.notes]
        lines.append("")
    return lines


def render(plan: ClusterPlan, lang: Lang = "en") -> str:
    lines = _render_inference(plan, lang) if plan.mode == "inference" else _render_training(plan, lang)
    lines += [f"* {i18n_render(lang, n)}" for n in plan.notes]
    lines.append(f"({plan.elapsed_ms:.0f} ms)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    offers = [o.strip() for o in (args.offers or "").split(",") if o.strip()]
    catalog = load_catalog(args.catalog)
    for offer in offers:
        catalog.offer(offer)  # an unknown id is named with the ids allowed
    load_model(args.model)  # a bad name is the only line printed
    extra = {} if args.mtbf_gpu_hours is None else {"mtbf_gpu_hours": args.mtbf_gpu_hours}
    plan = size_cluster(ClusterRequest(
        model=args.model, mode=args.mode, offers=offers, nodes=args.nodes, gpus=args.gpus,
        input_len=args.input_len, output_len=args.output_len, slo_tpot_ms=args.slo_tpot_ms,
        slo_ttft_ms=args.slo_ttft_ms, target_tokens_per_s=args.target_tokens_per_s, quantization=args.quantization,
        kv_cache_dtype=args.kv_cache_dtype, chip_counts=args.chips, global_batch=args.global_batch,
        seq_len=args.seq_len, precision=args.precision, lora=args.lora, batch_policy=args.batch_policy,
        checkpoint_interval_min=args.checkpoint_minutes, catalog=None if args.catalog is None else str(args.catalog),
        **extra))
    print(json.dumps(plan.model_dump(mode="json"), indent=2) if args.json else render(plan, args.lang))
    return 0
