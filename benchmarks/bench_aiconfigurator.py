"""Roofline (this project) against NVIDIA AIConfigurator on the same published serving rows.

AIConfigurator (Apache-2.0, `pip install aiconfigurator==0.12.0`, not a project dependency) prices each kernel
from a database measured on H100/H200/B200/GB200/RTX PRO 6000 with TensorRT-LLM; the roofline is the fallback
for every other accelerator. Both are scored on the held-out rows of tools.perf.validation (validation, fresh
and fresh3 splits, TensorRT-LLM max-throughput tables; a per-GPU row counts as its total over tp x pp GPUs) at the
same running batch: the one the roofline's memory model admits (KV capacity, 2048 at most). Output: a Markdown
table on stdout and, with `--json PATH`, every row.

    pip install --target .aic aiconfigurator==0.12.0
    PYTHONPATH=.:.aic python benchmarks/bench_aiconfigurator.py --json benchmarks/results/aiconfigurator.json
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sizer_agent.tools.perf.serving import predict_load
from sizer_agent.tools.perf.validation import DEFAULT_EFFICIENCIES, _setup, is_moe, row_key, rows_of

# catalogue id -> AIConfigurator system; model id -> the config AIConfigurator bundles
SYSTEMS = {"h100-sxm": "h100_sxm", "h200-sxm": "h200_sxm", "b200": "b200_sxm", "gb200": "gb200",
           "rtx-pro-6000-server": "rtx_pro_6000_server"}
MODELS = {"meta-llama/Llama-3.1-8B-Instruct": "meta-llama/Meta-Llama-3.1-8B",
          "meta-llama/Llama-3.1-70B-Instruct": "meta-llama/Meta-Llama-3.1-70B",
          "meta-llama/Llama-3.1-405B-Instruct": "meta-llama/Meta-Llama-3.1-405B",
          "meta-llama/Llama-4-Scout-17B-16E-Instruct": "meta-llama/Llama-4-Scout-17B-16E-Instruct",
          "Qwen/Qwen3-30B-A3B": "Qwen/Qwen3-30B-A3B"}
QUANT = {"fp8": "fp8", "nvfp4": "nvfp4"}


def aiconfigurator_tokens_per_s(row: dict[str, Any], batch: int) -> float | None:
    from aiconfigurator.cli.api import cli_estimate

    quant = QUANT[row["quantization"]]
    # trtllm-bench runs MoE models with expert parallelism over the TP group (perf-overview.md: `--ep`)
    moe = {"moe_tp_size": 1, "moe_ep_size": row["tp"]} if is_moe(row) else {}
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            result = cli_estimate(MODELS[row["model"]], SYSTEMS[row["gpu"]], mode="agg", isl=row["isl"],
                                  osl=row["osl"], batch_size=batch, tp_size=row["tp"], pp_size=row["pp"],
                                  gemm_quant_mode=quant, moe_quant_mode=quant, kvcache_quant_mode="fp8",
                                  fmha_quant_mode="fp8" if quant == "fp8" else None, **moe)
    except Exception as error:  # a configuration its database does not cover
        logging.warning("%s: %s", row["id"], str(error).splitlines()[0] if str(error) else type(error).__name__)
        return None
    # agg mode at `batch` per replica; one replica here
    return float(result.tokens_per_second)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write every row here")
    parser.add_argument("--limit", type=int, default=0, help="first N rows only (a quick look)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    for name in ("aiconfigurator", "aiconfigurator_core"):
        logging.getLogger(name).setLevel(logging.ERROR)
    rows = [r for split in ("validation", "fresh", "fresh3") for r in rows_of(split)  # type: ignore[arg-type]
            if r["kind"] == "throughput" and r["gpu"] in SYSTEMS and r["model"] in MODELS]
    rows = rows[: args.limit] if args.limit else rows
    out = []
    for row in rows:
        setup = _setup(row, DEFAULT_EFFICIENCIES)
        point = predict_load(setup, row["isl"], row["osl"], 10**6, offline=True)
        metrics = row["metrics"]
        # a per-GPU row (fresh3's post-1.0 table) is compared as its total over the GPUs it ran on
        measured = metrics.get("total_output_tokens_per_s") or (
            metrics["output_tokens_per_s_per_gpu"] * row["tp"] * row.get("pp", 1))
        aic = aiconfigurator_tokens_per_s(row, point.running_batch)
        out.append({"id": row["id"], "split": row["split"], "family": row_key(row), "moe": is_moe(row),
                    "batch": point.running_batch, "measured": measured,
                    "roofline": point.output_tokens_per_s, "aiconfigurator": aic})
        print(f"{row['id']}: measured {measured:.0f}, roofline {point.output_tokens_per_s:.0f}, "
              f"aiconfigurator {aic if aic is None else round(aic)}", file=sys.stderr)
    groups = {"all": lambda r: True, "Hopper FP8": lambda r: r["family"] == "hopper/fp8",
              "Blackwell FP4": lambda r: r["family"] == "blackwell/fp4",
              "RTX PRO FP4": lambda r: r["family"] == "blackwell-gb20x/fp4", "MoE": lambda r: r["moe"]}
    print("| split | group | rows both priced | roofline median / max | AIConfigurator median / max |")
    print("|---|---|---|---|---|")
    for split in ("validation", "fresh", "fresh3"):
        for name, member in groups.items():
            both = [r for r in out if r["split"] == split and member(r) and r["aiconfigurator"]]
            if not both:
                continue
            ours = [abs(r["roofline"] / r["measured"] - 1) for r in both]
            theirs = [abs(r["aiconfigurator"] / r["measured"] - 1) for r in both]
            print(f"| {split} | {name} | {len(both)} | {statistics.median(ours):.1%} / {max(ours):.0%} | "
                  f"{statistics.median(theirs):.1%} / {max(theirs):.0%} |")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
