"""`sizer-agent validate`: the estimator's accuracy on published measurements."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from sizer_agent.tools.validation import run_validation

NAME = "validate"
ORDER = 90
HELP = "accuracy report: the estimator against published measurements (parameter counts, vLLM, training)"
DESCRIPTION = """\
Runs the estimator over every case of a validation folder and prints each case's error, then the median
and maximum absolute error per metric beside the targets:
  params            exact parameter counts (safetensors total_size)         target 0 %
  weights           vLLM 'Model loading took X GiB'                          median <= 2 %, max <= 5 %
  kv_cache_tokens   vLLM 'GPU KV cache size: N tokens'                       median <= 5 %, max <= 15 %
  training_peak     torchtune peak memory (allocator; context excluded)      median <= 20 %
Exit code 1 when a target is missed.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--path", type=Path, default=Path("../shared/validation"),
                        help="validation folder (default: ../shared/validation)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    report = run_validation(args.path)
    if args.json:
        print(json.dumps(report.model_dump(mode="json"), indent=2))
    else:
        print(f"{'case':<32}{'metric':<18}{'expected':>20}{'predicted':>20}{'error':>9}")
        for case in report.cases:
            print(f"{case.case[:31]:<32}{case.metric:<18}{case.expected:>20,.2f}{case.predicted:>20,.2f}"
                  f"{case.error_pct:>+8.2f}%  {case.note}")
        print()
        for s in report.summary:
            target = "" if s.target_median_pct is None else f" (target median {s.target_median_pct:g} %"
            target += "" if s.target_max_pct is None else f", max {s.target_max_pct:g} %"
            target += ")" if target else ""
            status = "ok " if s.meets_target else "MISS"
            print(f"{status} {s.metric:<16} n={s.count:<3} median {s.median_abs_error_pct:.2f} %  "
                  f"max {s.max_abs_error_pct:.2f} %{target}")
    return 0 if all(s.meets_target for s in report.summary) else 1
