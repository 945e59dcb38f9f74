"""`sizer-agent compare-chips`: seed 003's per-chip table across vendors (per chip, per euro, per watt)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sizer_agent.cli.commands.recommend import parse_stacks
from sizer_agent.cli.estimate_args import positive_float
from sizer_agent.cli.numbers import number_type
from sizer_agent.i18n import render as i18n_render
from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.catalog.models import STACKS
from sizer_agent.tools.compare_chips import (
    BENCHMARK_MODELS,
    DEFAULT_SLO_TPOT_MS,
    DEFAULT_SLO_TTFT_MS,
    CompareRequest,
    CompareResult,
    compare_chips,
)
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.model_loader import load_model

NAME = "compare-chips"
ORDER = 22
HELP = "per-chip throughput at the SLA, per euro and per watt, NVIDIA/AMD/TPU/Trainium side by side"
DESCRIPTION = f"""\
Seed 003's normalisation: the same models on every vendor's chip, compared per chip. Each chip's rental offer
(every cloud offer of the catalogue by default, so that every chip has a price per hour) is sized as
`recommend` sizes it: the smallest configuration sold that serves the load at the SLA, memory checked per chip
under a named split. Then:

  tok/s/chip   sustained output tokens/s of that configuration / its chips, at the SLA
  EUR/chip-h   the configuration's hourly price / its chips
  Mtok/EUR     output tokens per euro of chip time (millions): tok/s/chip x 3,600 / EUR/chip-h
  tok/s/W      tok/s/chip / the chip's TDP ('-' where no TDP is published: TPU, Trainium)
  fill         co-design: share of the chip's matrix unit the model's shapes fill, attention / projections,
               and of the KV bytes the engine stores when it pads heads (vLLM on TPU: 128 lanes)
               ('-' on GPUs, whose 16-wide tensor-core fragments make padding negligible)

Default models: seed 003's benchmark list ({', '.join(BENCHMARK_MODELS)}), each in its checkpoint's own
weight format unless --quantization is given. Default SLA: P99 TTFT {DEFAULT_SLO_TTFT_MS:g} ms, TPOT
{DEFAULT_SLO_TPOT_MS:g} ms (the interactive floor `recommend` uses for an unstated target).
TPUs and Trainium run their own engines (vLLM TPU, JetStream/MaxText; vLLM Neuron): their memory is sized
with the generic accounting, not vLLM CUDA's profile.

examples:
  sizer-agent compare-chips
  sizer-agent compare-chips --models gpt-oss-120b,gemma-2-9b --stacks xla,cuda
  sizer-agent compare-chips --models llama-3.1-70b --quantization fp8 --concurrency 64 --json
"""


def _models(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("empty list; give model names, e.g. llama-3.1-8b,gemma-2-9b")
    return names


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--models", type=_models, default=list(BENCHMARK_MODELS),
                        help="comma-separated model names (default: seed 003's benchmark models)")
    parser.add_argument("--input-len", type=number_type(int, low=1), default=1024, help="prompt tokens (1024)")
    parser.add_argument("--output-len", type=number_type(int, low=1), default=256, help="output tokens (256)")
    parser.add_argument("--concurrency", type=number_type(int, low=1), default=32,
                        help="concurrent requests the configuration must hold (32)")
    parser.add_argument("--slo-ttft-ms", type=positive_float, default=DEFAULT_SLO_TTFT_MS,
                        help=f"P99 time to first token ({DEFAULT_SLO_TTFT_MS:g})")
    parser.add_argument("--slo-tpot-ms", type=positive_float, default=DEFAULT_SLO_TPOT_MS,
                        help=f"P99 time per output token ({DEFAULT_SLO_TPOT_MS:g})")
    parser.add_argument("--quantization", help="weight format for every model, e.g. fp8, or none for 16 bits "
                        "(default: the checkpoint's own, and 16 bits too when the checkpoint is quantized)")
    parser.add_argument("--stacks", type=parse_stacks, default=list(STACKS),
                        help="stacks compared: cuda, rocm, xla, neuron or all (default: all)")
    parser.add_argument("--offers", help="comma-separated offer ids (default: every cloud offer of those stacks)")
    parser.add_argument("--catalog", type=Path, help="vendor catalogue TOML merged over the bundled one")
    parser.add_argument("--json", action="store_true", help="print the result as JSON (tools.compare_chips)")


def _num(value: float | None, fmt: str) -> str:
    return "-" if value is None else fmt.format(value)


def render(result: CompareResult) -> str:
    lines = [f"per chip at P99 TTFT {_num(result.slo_ttft_ms, '{:,.0f}')} ms, TPOT "
             f"{_num(result.slo_tpot_ms, '{:,.0f}')} ms; {result.concurrency} concurrent requests of "
             f"{result.input_len:,} + {result.output_len:,} tokens"]
    header = (f"  {'chip':<30}{'stack':<7}{'n':>4} {'format':<10}{'tok/s/chip':>11}{'EUR/chip-h':>11}"
              f"{'Mtok/EUR':>9}{'tok/s/W':>8}  fill")
    for comparison in result.comparisons:
        lines += ["", comparison.model, header, "  " + "-" * (len(header) - 2)]
        for row in comparison.rows:
            fill = "-" if row.attention_fill is None else f"{row.attention_fill:.0%} / {row.linear_fill or 0:.0%}"
            if row.kv_fill is not None and row.kv_fill < 1:
                fill += f", KV {row.kv_fill:.0%}"
            if not row.fits:
                why = i18n_render("en", row.reason) if row.reason else "does not serve the load"
                lines.append(f"  {row.gpu_name[:29]:<30}{row.stack:<7}{row.chips:>4} {'':<10}  ✗ {why}")
                continue
            lines.append(
                f"  {row.gpu_name[:29]:<30}{row.stack:<7}{row.chips:>4} {row.weight_precision[:9]:<10}"
                f"{_num(row.tokens_per_s_per_chip, '{:,.0f}'):>11}{_num(row.eur_per_chip_hour, '{:,.2f}'):>11}"
                f"{_num(row.tokens_per_eur and row.tokens_per_eur / 1e6, '{:,.2f}'):>9}"
                f"{_num(row.tokens_per_s_per_watt, '{:,.1f}'):>8}  {fill}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    offers = [o.strip() for o in (args.offers or "").split(",") if o.strip()]
    catalog = load_catalog(args.catalog)
    for offer in offers:
        catalog.offer(offer)  # an unknown id is named with the ids allowed
    if args.offers is not None and not offers:
        raise InputError("--offers", "empty list", ", ".join(o.id for o in catalog.offers))
    for name in args.models:
        load_model(name)  # a bad name is the only line printed
    print("sizing every chip…", file=sys.stderr)
    result = compare_chips(CompareRequest(
        models=args.models, input_len=args.input_len, output_len=args.output_len, concurrency=args.concurrency,
        slo_ttft_ms=args.slo_ttft_ms, slo_tpot_ms=args.slo_tpot_ms, quantization=args.quantization,
        offer_ids=offers, stacks=args.stacks, catalog=args.catalog))
    print(json.dumps(result.model_dump(mode="json"), indent=2) if args.json else render(result))
    return 0
