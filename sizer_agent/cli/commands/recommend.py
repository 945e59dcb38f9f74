"""`sizer-agent recommend`: rank the catalogue's offers for a workload, with the reason each one fails."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sizer_agent.cli.estimate_args import add_estimate_arguments, number, positive_float, request_from_args
from sizer_agent.cli.units import gb
from tools.errors import InputError
from tools.perf.estimate import PerfEstimate
from tools.recommend import Option, RecommendRequest, RecommendResult, recommend

NAME = "recommend"
ORDER = 20
HELP = "rank catalogue offers (GPU x count x parallelism x precision): fit, speed, cost per million tokens"
DESCRIPTION = """\
Size the workload, then choose the hardware: every offer of the catalogue x GPU count x parallelism
(x precision with --precisions) is checked and either fits or is rejected with its reasons.

Definitions
  fits          per-GPU memory (estimate, under a named TP x PP split) <= usable memory x (1 - headroom),
                the SLA holds at --concurrency, graphics and budget constraints are met. GPU memory never
                adds up: two 32 GB cards are not one 64 GB card; a multi-GPU option names its split.
  TTFT / TPOT   time to first token / time per output token, predicted by the roofline model
                (prefill compute-bound, decode bandwidth-bound, TP all-reduces, fixed step overhead).
  SLA search    the largest concurrency whose P<percentile> TTFT and TPOT meet --slo-ttft-ms/--slo-tpot-ms;
                the sustained tokens/s there give the cost. An SLA missed even at concurrency 1 is said so,
                with the best achievable numbers.
  EUR / M tok   hourly cost / (sustained output tokens/s x 3600) x 10^6; owned hardware = price amortised
                over 3 years + energy (catalogue [assumptions], override with --catalog).

examples:
  sizer-agent recommend --model llama-3.1-70b --precisions bf16,fp8,awq --input-len 1024 --output-len 256 \\
      --concurrency 8
  sizer-agent recommend --model llama-3.1-8b --slo-ttft-ms 500 --slo-tpot-ms 50 --concurrency 32 --json
  sizer-agent recommend --model qwen3-32b --budget-eur 30000 --graphics --catalog my_offers.toml
"""


def _headroom(text: str) -> float:
    value = number(text)
    if value >= 1:
        value /= 100  # accept "10" as 10 %
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"must be a fraction in [0, 1) or a percentage, got {text}")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    add_estimate_arguments(parser)
    group = parser.add_argument_group("recommendation")
    group.add_argument("--slo-ttft-ms", type=positive_float, help="latency SLA: time to first token at the percentile")
    group.add_argument("--slo-tpot-ms", type=positive_float, help="latency SLA: time per output token (percentile)")
    group.add_argument("--percentile", type=positive_float, default=99.0, help="SLA percentile (99)")
    group.add_argument("--budget-eur", type=positive_float, help="purchase budget in EUR (hourly offers not limited)")
    group.add_argument("--catalog", type=Path, help="vendor catalogue TOML merged over the bundled one "
                       "(its [[offers]] replace the bundled offers; see docs/catalog.md)")
    group.add_argument("--offers", help="comma-separated offer ids to consider (default: all), e.g. ACD-006,ACD-014")
    group.add_argument("--headroom", type=_headroom, default=0.10, help="GPU memory kept free: 0.1 or 10 (10 %%)")
    group.add_argument("--precisions", help="comma-separated weight formats to try, e.g. bf16,fp8,awq,nvfp4")
    group.add_argument("--graphics", action="store_true", help="the machine also does rendering or CAD")
    group.add_argument("--train-tokens", type=positive_float, help="tokens of one training run (training cost)")
    group.add_argument("--checkpoint-interval", type=positive_float, default=1000,
                       help="training: steps between checkpoints (1000); goodput counts their write time")
    group.add_argument("--storage-write-gbs", type=positive_float, default=2.0,
                       help="training: sustained write GB/s of the checkpoint storage (2.0)")
    group.add_argument("--failures-per-day", type=float, default=0.0,
                       help="training: expected interruptions per day (0); each loses half an interval + restart")
    group.add_argument("--top", type=int, default=25, help="rows in the table (25; all in --json)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON (schema: docs/catalog.md)")


def request_from(args: argparse.Namespace) -> RecommendRequest:
    if args.percentile >= 100:
        raise InputError("--percentile", f"must be below 100, got {args.percentile:g}", "0 < p < 100")
    precisions = [p.strip() for p in (args.precisions or "").split(",") if p.strip()]
    return RecommendRequest(
        workload=request_from_args(args), slo_ttft_ms=args.slo_ttft_ms, slo_tpot_ms=args.slo_tpot_ms,
        percentile=args.percentile, budget_eur=args.budget_eur, headroom=args.headroom, needs_graphics=args.graphics,
        precisions=precisions, train_tokens=int(args.train_tokens) if args.train_tokens else None,
        catalog=args.catalog, offer_ids=[o.strip() for o in (args.offers or "").split(",") if o.strip()],
        checkpoint_interval_steps=int(args.checkpoint_interval),
        storage_write_gbs=args.storage_write_gbs, failures_per_day=args.failures_per_day,
    )


def to_json(result: RecommendResult) -> dict[str, object]:
    """The documented schema: options[] (nested perf) and recommended (+ reason)."""
    return result.model_dump(mode="json")


def _num(value: float | None, fmt: str = "{:,.0f}") -> str:
    return "-" if value is None else fmt.format(value)


def _price(option: Option) -> str:
    if option.price_eur is not None:
        return f"{option.price_eur:,.0f} €"
    if option.kind == "cloud" and option.hourly_eur is not None:
        return f"{option.hourly_eur:,.2f} €/h"
    return "no price"


def render(result: RecommendResult, top: int = 25) -> str:
    lines = [f"{result.model} · {result.params_total / 1e9:.1f} B parameters · {result.mode}",
             "weights alone (params × bytes, before quantization metadata): "
             + " · ".join(f"{w.precision} {gb(w.weight_bytes)}" for w in result.weights), ""]
    header = (f"{'#':>3} {'fit':<4}{'offer':<20}{'GPU':<22}{'n':>3} {'TPxPPxDP':<9}{'format':<10}"
              f"{'GB/GPU':>8}{'free':>6}{'TTFT ms':>9}{'TPOT ms':>8}{'sust t/s':>9}{'SLA c':>7}{'€/Mtok':>9}  price")
    lines.append(header)
    lines.append("-" * len(header))
    for index, o in enumerate(result.options[:top], 1):
        p = o.perf
        per_gpu = "-" if o.per_gpu_total_bytes is None else f"{o.per_gpu_total_bytes / 1e9:.1f}"
        free = "-" if o.headroom_pct is None else f"{o.headroom_pct:.0f}%"
        tokens = p.sustained_output_tokens_per_s or p.training_tokens_per_s
        lines.append(
            f"{index:>3} {'yes' if o.fits else 'no':<4}{o.offer_id[:19]:<20}{o.gpu[:21]:<22}{o.num_gpus:>3} "
            f"{o.tensor_parallel_size}x{o.pipeline_parallel_size}x{o.data_parallel_size:<5}{o.precision[:9]:<10}"
            f"{per_gpu:>8}{free:>6}{_num(p.ttft_ms):>9}{_num(p.tpot_ms, '{:.1f}'):>8}{_num(tokens):>9}"
            f"{_num(p.max_concurrency_under_slo):>7}{_num(o.eur_per_million_tokens, '{:.3f}'):>9}  {_price(o)}")
        for reason in o.reasons:
            lines.append(f"{'':8}✗ {reason}")
        for note in o.notes[:2]:
            lines.append(f"{'':8}· {note}")
    if len(result.options) > top:
        lines.append(f"… {len(result.options) - top} more options (--top N, or --json for all)")
    lines += ["", "per offer:"]
    lines += [f"  {'✓' if v.fits else '✗'} {v.offer_id} {v.name}: {v.summary}" for v in result.offers]
    lines += ["", f"recommended: {result.recommended or 'none'} — {result.recommended_reason}", "assumptions:"]
    lines += [f"  - {a}" for a in result.assumptions]
    return "\n".join(lines)


def render_perf(perf: PerfEstimate) -> str:
    """Human text of a PerfEstimate (also used by `estimate` when --gpu names a catalogue GPU)."""
    if perf.training is not None:
        t = perf.training
        return (f"speed on {perf.num_gpus} x {perf.gpu} ({perf.compute_precision}): step {t.step_time_s:.2f} s · "
                f"{t.tokens_per_s:,.0f} tokens/s ({t.tokens_per_s_per_gpu:,.0f} per GPU) · gradient all-reduce "
                f"{t.gradient_allreduce_s * 1e3:.0f} ms ({t.exposed_allreduce_s * 1e3:.0f} ms exposed) · "
                f"checkpoint write {t.checkpoint_write_s:.0f} s · goodput {t.goodput:.1%} · {t.bound}-bound")
    lines = [f"speed on {perf.num_gpus} x {perf.gpu} ({perf.compute_precision} GEMMs), {perf.concurrency} "
             f"concurrent request(s): TTFT P{perf.percentile:g} {_num(perf.ttft_ms, '{:,.0f}')} ms · TPOT "
             f"{_num(perf.tpot_ms, '{:.1f}')} ms · {_num(perf.output_tokens_per_s)} output tokens/s · "
             f"{perf.bound}-bound",
             f"  memory allows {perf.max_concurrency_memory} full-length requests → up to "
             f"{_num(perf.max_output_tokens_per_s)} output tokens/s"]
    for point in perf.roofline:
        lines.append(f"  roofline {point.phase}: {point.operational_intensity:,.1f} FLOP/byte (ridge "
                     f"{point.ridge_point:,.0f}) → attainable {point.attainable_flops / 1e12:,.0f} TFLOP/s, "
                     f"{point.bound}-bound")
    if perf.sla is not None:
        lines.append(f"  SLA: {perf.sla.reason}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    request = request_from(args)
    print("sizing every offer…", file=sys.stderr)
    result = recommend(request)
    if args.json:
        print(json.dumps(to_json(result), indent=2))
    else:
        print(render(result, args.top))
    return 0
