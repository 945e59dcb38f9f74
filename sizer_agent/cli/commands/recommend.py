"""`sizer-agent recommend`: rank the catalogue's offers for a workload, with the reason each one fails."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Literal

from sizer_agent import advice
from sizer_agent.agent.planning import DEPLOYMENT_UNITS
from sizer_agent.agent.questions import BY_ID
from sizer_agent.cli.commands.size_cluster import render as render_cluster
from sizer_agent.cli.estimate_args import (
    add_estimate_arguments,
    add_vision_arguments,
    check_language_flags,
    number,
    positive_float,
    request_from_args,
    vision_request_from_args,
)
from sizer_agent.cli.numbers import number_type
from sizer_agent.i18n import Lang
from sizer_agent.i18n import render as i18n_render
from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.catalog.models import DEFAULT_STACKS, STACKS, UNIT_KINDS
from sizer_agent.tools.cluster import size_cluster
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.perf.estimate import PerfEstimate
from sizer_agent.tools.plan import RecommendResult
from sizer_agent.tools.recommend import (
    PRECISION_CHOICES,
    RecommendRequest,
    ServeAfter,
    cluster_request,
    recommend,
)

NAME = "recommend"
ORDER = 20
HELP = "rank catalogue offers (GPU x count x parallelism x precision): fit, speed, cost per million tokens"
DESCRIPTION = """\
Size the workload, then choose the hardware an expert would sign: every catalogue offer, sold as whole
units (a workstation, N rack servers or 8-GPU nodes, an NVL72 rack, cloud instances of 1/2/4/8 GPUs), each
tensor x pipeline split, is checked and either fits or is rejected with its reasons. The plan is the
cheapest priced option in scope within the budget; over budget, the document-ready answer says so, with
the gap and the workload changes that fit the budget, each computed.

Definitions
  scope         --units (or --deployment): how the customer buys; --ecc, --graphics, --power-limit-w and
                --rack-units reject what cannot serve; --gpu-preference is honoured when it fits.
  fits          per-GPU memory under a named TP x PP split fits the card (vLLM: its KV pool, inside
                --gpu-memory-utilization of the card, holds the load), the SLA holds at --concurrency, and
                the scope's constraints are met. GPU memory never adds up across cards.
  practitioner  training runs with gradient checkpointing and a chunked loss, FSDP/ZeRO-3 for a full
  defaults      fine-tune over several GPUs; serving with --engine vllm uses vLLM's own accounting.
  knobs         when nothing in scope fits, an expert's changes are tried in order (FP8 KV cache, FP8 then
                4-bit weights, shorter context; micro-batch, 8-bit AdamW, LoRA, QLoRA, CPU offload) and
                stated as assumptions (--no-search turns this off).
  budget        compared with the purchase price, or with a rental's cost over the amortisation period.
  EUR / M tok   hourly cost / (sustained output tokens/s x 3600) x 10^6; owned hardware = price amortised
                over the catalogue's period + energy (catalogue [assumptions], override with --catalog).

examples:
  sizer-agent recommend --model llama-3.1-70b --quantization fp8 --input-len 2048 --output-len 256 \\
      --concurrency 50 --slo-ttft-ms 500 --slo-tpot-ms 50 --units server,node --ecc --budget-eur 60000
  sizer-agent recommend --model qwen2.5-7b --mode training --method lora --batch-size 8 --seq-len 1024 \\
      --units workstation --graphics --dataset-gb 2 --checkpoint-minutes 30 --lang fr
  sizer-agent recommend --model llama-3.1-8b --concurrency 32 --json
  sizer-agent recommend --model gemma-2-9b --concurrency 64 --deployment cloud --stacks all
  sizer-agent recommend --task vision --model yolov8x --resolution 1024 --batch-size 32 --mode training \
      --dtype bfloat16 --dataset-images 118287 --units workstation --budget-eur 30000
"""


def _headroom(text: str) -> float:
    value = number(text)
    if value >= 1:
        value /= 100  # accept "10" as 10 %
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"must be a fraction in [0, 1) or a percentage, got {text}")
    return value


def _compared(text: str) -> list[str]:
    items = [i.strip() for i in text.split(",") if i.strip()]
    for item in items:
        count, colon, gpu = item.rpartition(":")
        if (colon and not count.isdigit()) or not gpu:
            raise argparse.ArgumentTypeError(f"{item!r}: write each option as COUNT:GPU, e.g. 2:h100-sxm, or a GPU id "
                                             "alone (the fewest of it that hold the load), e.g. tpu-v6e")
    if not 1 <= len(items) <= 3:
        raise argparse.ArgumentTypeError("one to three options, comma-separated")
    return items


def _units(text: str) -> list[str]:
    units = [u.strip() for u in text.split(",") if u.strip()]
    unknown = [u for u in units if u not in UNIT_KINDS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown unit kind(s) {', '.join(unknown)}; allowed: {', '.join(UNIT_KINDS)}")
    return units


def parse_stacks(text: str) -> list[str]:
    """`--stacks cuda,rocm` / `all`: the software stacks an offer may need (also `compare-chips`)."""
    stacks = [t.strip() for t in text.split(",") if t.strip()]
    if stacks == ["all"]:
        return list(STACKS)
    unknown = [t for t in stacks if t not in STACKS]
    if unknown or not stacks:
        raise argparse.ArgumentTypeError(f"unknown stack(s) {', '.join(unknown) or '(empty)'}; allowed: "
                                         f"{', '.join(STACKS)} or all")
    return stacks


def configure(parser: argparse.ArgumentParser) -> None:
    add_estimate_arguments(parser)
    add_vision_arguments(parser, gpus=False)  # the recommendation chooses the GPU count
    group = parser.add_argument_group("recommendation")
    group.add_argument("--slo-ttft-ms", type=positive_float, help="latency SLA: time to first token at the percentile")
    group.add_argument("--slo-tpot-ms", type=positive_float, help="latency SLA: time per output token (percentile)")
    group.add_argument("--percentile", type=positive_float, default=99.0, help="SLA percentile (99)")
    group.add_argument("--budget-eur-per-month", type=positive_float,
                       help="a budget per month (renting is paid so), weighed as month x 12 x the amortisation "
                            "period; used when --budget-eur is not given")
    group.add_argument("--budget-usd", type=positive_float,
                       help="a budget said in US dollars, converted at the catalogue's eur_per_usd; used when no "
                            "euro budget is given")
    group.add_argument("--budget-usd-per-month", type=positive_float,
                       help="a monthly budget in US dollars, converted likewise")
    group.add_argument("--no-cloud", action="store_true",
                       help="the customer refuses the cloud: every way of buying but renting, and no rental hint")
    group.add_argument("--job-requests", type=number_type(int, low=1),
                       help="batch inference: requests (documents) in one run of the job; a one-off job's rental is "
                            "weighed by the job's cost")
    group.add_argument("--recurring", action="store_true",
                       help="with --job-requests: the job runs every night/month (rental weighed over the period)")
    group.add_argument("--runs-per-year", type=number_type(int, low=1, high=8760), metavar="N",
                       help="with --recurring: runs a year (365 nightly, 52 weekly, 12 monthly); a rental then pays "
                            "only those runs' hours over the period")
    group.add_argument("--one-off", action="store_true",
                       help="training: one run (one epoch of the dataset); a rental is weighed by that run's cost")
    group.add_argument("--deadline-hours", type=positive_float,
                       help="a batch run or a training epoch must end within this many hours (more GPUs if slower)")
    group.add_argument("--compare", type=_compared, default=[],
                       help="configurations the customer weighs, COUNT:GPU comma-separated, e.g. 2:h100-sxm,4:l40s; "
                            "each is checked at the load; a GPU id alone (tpu-v6e) is sized: its cheapest "
                            "configuration that holds the load")
    group.add_argument("--owned", action="store_true",
                       help="the --gpu-preference cards, --planned-gpus of them, are already owned: checked first, "
                            "as they are")
    group.add_argument("--serve-after", type=number_type(int, low=1, high=100_000), metavar="N",
                       help="training: the fine-tuned model is then served to N concurrent requests of --input-len/"
                            "--output-len tokens within --slo-ttft-ms/--slo-tpot-ms (500/50 ms assumed when not "
                            "given): the training's cards are checked for it, and what serves it is named (a LoRA "
                            "or full fine-tune served merged in bf16, a QLoRA in 4-bit weights)")
    group.add_argument("--images-per-s", type=positive_float,
                       help="vision inference: images per second to keep up with (cameras x frames per second)")
    group.add_argument("--budget-eur", type=positive_float,
                       help="budget in EUR excl. VAT: a purchase price, or a rental's cost over the period")
    group.add_argument("--units", type=_units, default=[],
                       help=f"unit kinds in scope, comma-separated: {', '.join(UNIT_KINDS)} (default: all)")
    group.add_argument("--deployment", choices=sorted(DEPLOYMENT_UNITS),
                       help="workstation | server | cloud: a shortcut for --units")
    group.add_argument("--stacks", type=parse_stacks, default=list(DEFAULT_STACKS),
                       help="software stacks the team can run, comma-separated: cuda (NVIDIA), rocm (AMD), xla "
                       "(Google TPU: vLLM TPU, JetStream, MaxText), neuron (AWS Trainium: vLLM Neuron), or all "
                       "(default: cuda,rocm). TPUs and Trainium are rented only and need their own engine")
    group.add_argument("--ecc", action="store_true", help="ECC memory required on the GPU")
    group.add_argument("--graphics", action="store_true", help="the machine also does rendering or CAD")
    group.add_argument("--power-limit-w", type=positive_float, help="electrical limit of the whole configuration")
    group.add_argument("--rack-units", type=number_type(int, low=1, high=1000), help="rack space available (U)")
    group.add_argument("--gpu-preference", help="catalogue GPU id the customer asked for, e.g. h100-sxm")
    group.add_argument("--planned-gpus", type=number_type(int, low=1, high=100_000),
                       help="GPUs the customer planned (a note when the plan differs; above 8, a cluster plan too)")
    group.add_argument("--nodes", type=number_type(int, low=1, high=1024),
                       help="also size a cluster of N nodes or racks of each node/rack offer (see size-cluster); "
                       "a cluster plan is added by itself when --planned-gpus exceeds one node or nothing fits")
    group.add_argument("--engine-memory", dest="serving_engine", choices=["vllm", "generic"], default="vllm",
                       help="serving memory accounting: vllm (pre-allocates --gpu-memory-utilization) or generic")
    group.add_argument("--no-defaults", action="store_true",
                       help="do not apply practitioner defaults (checkpointing, chunked loss, FSDP, vLLM)")
    group.add_argument("--no-search", action="store_true", help="do not turn the expert's knobs when nothing fits")
    group.add_argument("--dataset-gb", type=positive_float, help="training: dataset size in GB (tokens per epoch)")
    group.add_argument("--dataset-tokens", type=positive_float, metavar="N",
                       help="training: the dataset counted in tokens, e.g. 4e7 (an epoch is timed on them; wins over "
                            "--dataset-gb)")
    group.add_argument("--checkpoint-minutes", type=positive_float, help="training: minutes between checkpoints")
    group.add_argument("--catalog", type=Path, help="vendor catalogue TOML merged over the bundled one "
                       "(its [[offers]] replace the bundled offers; see docs/catalog.md)")
    group.add_argument("--offers", help="comma-separated offer ids to consider (default: all), e.g. ACD-006,ACD-014")
    group.add_argument("--headroom", type=_headroom, default=0.10, help="GPU memory kept free: 0.1 or 10 (10 %%)")
    group.add_argument("--precisions", help="comma-separated weight formats to try too, e.g. bf16,fp8,awq,nvfp4")
    group.add_argument("--top", type=number_type(int, low=1), default=25, help="rows in the table (25; all in --json)")
    group.add_argument("--lang", choices=["en", "fr"], default="en", help="language of the text output (en)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON (schema: docs/catalog.md)")


def request_from(args: argparse.Namespace) -> RecommendRequest:
    if args.percentile >= 100:
        raise InputError("--percentile", f"must be below 100, got {args.percentile:g}", "0 < p < 100")
    if args.top < 1:
        raise InputError("--top", f"must be at least 1, got {args.top}", ">= 1")
    precisions = [p.strip() for p in (args.precisions or "").split(",") if p.strip()]
    unknown = [p for p in precisions if p.lower() not in PRECISION_CHOICES]
    if unknown or (args.precisions is not None and not precisions):
        raise InputError("--precisions", f"unknown weight format {unknown[0]!r}" if unknown else "empty list",
                         ", ".join(PRECISION_CHOICES))
    units = list(args.units) or list(DEPLOYMENT_UNITS.get(args.deployment or "", ()))
    if args.no_cloud:
        if "cloud" in units:
            raise InputError("--no-cloud", "contradicts --deployment/--units cloud", "one of them")
        units = units or ["workstation", "server", "node", "rack"]
    known = {g.id for g in load_catalog(args.catalog).gpus}
    for item in args.compare:
        if item.rpartition(":")[2] not in known:
            raise InputError("--compare", f"{item!r}: unknown GPU id; write each option as COUNT:GPU or GPU",
                             ", ".join(sorted(known)))
    if args.owned and not (args.gpu_preference and args.planned_gpus):
        raise InputError("--owned", "needs --gpu-preference and --planned-gpus (the cards owned)",
                         "--gpu-preference ID --planned-gpus N --owned")
    vision = args.task == "vision"
    if not vision:
        check_language_flags(args)
    if args.serve_after is not None and (vision or args.mode != "training"):
        raise InputError("--serve-after", "sizes the serving that follows a training", "--mode training")
    return RecommendRequest(
        workload=None if vision else request_from_args(args),
        vision=vision_request_from_args(args) if vision else None,
        slo_ttft_ms=args.slo_ttft_ms, slo_tpot_ms=args.slo_tpot_ms,
        percentile=args.percentile, budget_eur=args.budget_eur, headroom=args.headroom, units=units,
        deployment=args.deployment, needs_graphics=args.graphics, ecc_required=args.ecc,
        power_limit_w=args.power_limit_w, rack_units=args.rack_units, gpu_preference=args.gpu_preference,
        planned_gpus=args.planned_gpus, engine=args.serving_engine, practitioner_defaults=not args.no_defaults,
        search=not args.no_search, precisions=precisions,
        dataset_bytes=int(args.dataset_gb * 1e9) if args.dataset_gb else None,
        dataset_tokens=int(args.dataset_tokens) if args.dataset_tokens else None,
        checkpoint_interval_min=args.checkpoint_minutes, catalog=args.catalog,
        offer_ids=[o.strip() for o in (args.offers or "").split(",") if o.strip()], stacks=args.stacks,
        budget_eur_per_month=args.budget_eur_per_month, cloud_excluded=args.no_cloud, budget_usd=args.budget_usd,
        budget_usd_per_month=args.budget_usd_per_month,
        job_requests=args.job_requests, job_recurring=args.recurring, deadline_hours=args.deadline_hours,
        job_runs_per_year=args.runs_per_year, training_one_off=args.one_off,
        compared=args.compare, owned_gpus=args.owned, vision_images_per_s=args.images_per_s,
        serve_after=_serve_after(args),
    )


def _serve_after(args: argparse.Namespace) -> ServeAfter | None:
    """--serve-after N: the serving load after the training, from the request-length and SLA flags."""
    if args.serve_after is None:
        return None
    assumed: list[Literal["ttft", "tpot"]] = [name for name in ("ttft", "tpot")  # type: ignore[misc]
                                               if getattr(args, f"slo_{name}_ms") is None]
    return ServeAfter(concurrency=args.serve_after, input_len=args.input_len, output_len=args.output_len,
                      max_model_len=args.max_model_len, dtype="bfloat16",
                      quantization="int4" if args.method == "qlora" else None,
                      slo_ttft_ms=args.slo_ttft_ms or BY_ID["ttft_ms"].default,
                      slo_tpot_ms=args.slo_tpot_ms or BY_ID["tpot_ms"].default, slo_assumed=assumed)


def to_json(result: RecommendResult) -> dict[str, object]:
    """The documented schema: tools.plan.RecommendResult (plan, status, budget, alternatives, options...)."""
    return result.model_dump(mode="json")


def _num(value: float | None, fmt: str = "{:,.0f}") -> str:
    return "-" if value is None else fmt.format(value)


def render(result: RecommendResult, top: int = 25, lang: Lang = "en") -> str:
    """The plan in the proposal's own sentences, then every option evaluated with its reasons."""
    n = result.params_total
    size = f"{n / 1e9:.1f} B" if n >= 1e9 else f"{n / 1e6:.1f} M"
    lines = [f"{result.model} · {size} · {result.mode}", ""]
    lines += advice.summary(result, lang)
    speed = "img/s" if result.options and result.options[0].vision else "t/s"
    header = (f"{'#':>3} {'fit':<4}{'offer':<20}{'GPU':<24}{'n':>3} {'TPxPPxDP':<9}{'format':<12}"
              f"{'GiB/GPU':>8}{'TTFT ms':>9}{'TPOT ms':>8}{speed:>8}  price")
    lines += ["", header, "-" * len(header)]
    for index, o in enumerate(result.options[:top], 1):
        p = o.parallelism
        need = "-" if o.memory is None else f"{o.memory.load_bytes / 2**30:.1f}"
        s = o.serving
        tokens = s.sustained_output_tokens_per_s if s else (o.training.tokens_per_s if o.training else (
            o.vision.images_per_s if o.vision else None))
        lines.append(
            f"{index:>3} {'yes' if o.fits else 'no':<4}{o.offer_id[:19]:<20}{o.gpu_name[:23]:<24}{p.num_gpus:>3} "
            f"{p.tensor_parallel}x{p.pipeline_parallel}x{p.data_parallel:<5}{o.weight_precision[:11]:<12}"
            f"{need:>8}{_num(s.ttft_ms if s else None):>9}{_num(s.tpot_ms if s else None, '{:.1f}'):>8}"
            f"{_num(tokens):>8}  {advice.price_short(o, lang)}")
        for reason in o.reasons:
            lines.append(f"{'':8}✗ {i18n_render(lang, reason)}")
    if len(result.options) > top:
        lines.append(f"… {len(result.options) - top} more (--top N, or --json for all)")
    lines += [""] + [f"  {'✓' if v.fits else '✗'} {v.offer_id}: {i18n_render(lang, v.reason)}" for v in result.offers]
    lines += [""] + [f"  - {i18n_render(lang, a)}" for a in result.assumptions]
    return "\n".join(lines)


def _codesign_lines(perf: PerfEstimate) -> list[str]:
    if perf.codesign is None:
        return []
    fit = perf.codesign
    lines = [f"  {i18n_render('en', msg)}" for msg in fit.messages()]
    return lines or [f"  co-design: the model's matrix shapes fill {fit.gpu_name}'s {fit.tile}-wide matrix unit"]


def render_perf(perf: PerfEstimate) -> str:
    """Human text of a PerfEstimate (also used by `estimate` when --gpu names a catalogue GPU)."""
    if perf.training is not None:
        t = perf.training
        head = (f"speed on {perf.num_gpus} x {perf.gpu} ({perf.compute_precision}): step {t.step_time_s:.2f} s · "
                f"{t.tokens_per_s:,.0f} tokens/s ({t.tokens_per_s_per_gpu:,.0f} per GPU) · gradient all-reduce "
                f"{t.gradient_allreduce_s * 1e3:.0f} ms ({t.exposed_allreduce_s * 1e3:.0f} ms exposed) · "
                f"checkpoint write {t.checkpoint_write_s:.0f} s · goodput {t.goodput:.1%} · {t.bound}-bound")
        return "\n".join([head, *_codesign_lines(perf)])
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
    if perf.weight_offload is not None:
        w = perf.weight_offload
        lines.append(f"  weight offload: {w.offloaded_bytes_per_gpu / 2**30:.1f} GiB per GPU over the {w.link} at "
                     f"{w.link_gbs:g} GB/s = +{w.seconds_per_step * 1e3:,.0f} ms per step; TPOT "
                     f"{_num(perf.tpot_ms_without_offload, '{:.1f}')} → {_num(perf.tpot_ms, '{:.1f}')} ms, "
                     f"{_num(perf.output_tokens_per_s_without_offload)} → {_num(perf.output_tokens_per_s)} "
                     "output tokens/s")
    if perf.sla is not None:
        lines.append(f"  SLA: {i18n_render('en', perf.sla.reason)}")
    lines += _codesign_lines(perf)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    request = request_from(args)
    # the inputs are read and checked before the progress line: a bad one is the only line printed
    load_catalog(request.catalog)
    if request.workload is not None:
        load_model(request.workload.model, request.workload.revision)
    print("sizing every offer…", file=sys.stderr)
    result = recommend(request)
    asked = cluster_request(request, result, args.nodes)
    cluster = None if asked is None else size_cluster(asked)
    if args.json:
        data = to_json(result)
        if cluster is not None:
            data["cluster"] = cluster.model_dump(mode="json")  # schema: tools.cluster.ClusterPlan
        print(json.dumps(data, indent=2))
    else:
        print(render(result, args.top, args.lang))
        if cluster is not None:
            print("\n" + render_cluster(cluster, args.lang))
    return 0
