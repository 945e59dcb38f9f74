"""Extract per-chip training throughput from MLPerf Training result logs (the validation rows of the scale-out model).

Reads the `:::MLLOG` lines of `result_*.txt` in local git mirrors of github:mlcommons/training_results_vX.Y and
writes tools/data/validation/scaleout_training.json. Throughput of a run = training tokens between consecutive
`block_start` counters / time inside the blocks, the first block left out (compilation, warm-up) and evaluation
time excluded; a row is the median over the run files. Counters are tokens for gpt3, samples (x the logged or
stated sequence length) for the others.

    python benchmarks/scaleout/extract_mlperf_training.py /work/.mirror

(mirrors laid out as <root>/mlcommons+training_results_vX.Y/repo, e.g. from `git clone --bare`).
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

# (round, submitter/results/system, benchmark, catalogue chip, chips, precision as stated by the submitter)
# Precision: FP8 Transformer Engine for NVIDIA NeMo GPT-3/Llama runs on Hopper and Blackwell (NVIDIA MLPerf
# Training v3.1-v5.0 technical blogs). Google TPU v5p GPT-3 rows are left out: whether "v5p-1024" counts chips
# or TensorCores, and the precision (bf16 or int8 AQT), could not be settled from the logs alone.
ROWS: list[tuple[str, str, str, str, int, str]] = [
    ("v3.1", "NVIDIA/results/eos_n64_ngc23.09_nemo", "gpt3", "h100-sxm", 512, "fp8"),
    ("v3.1", "NVIDIA/results/eos_n96_ngc23.09_nemo", "gpt3", "h100-sxm", 768, "fp8"),
    ("v3.1", "NVIDIA/results/eos-dfw_n512_ngc23.09_nemo", "gpt3", "h100-sxm", 4096, "fp8"),
    ("v3.1", "NVIDIA/results/eos-dfw_n768_ngc23.09_nemo", "gpt3", "h100-sxm", 6144, "fp8"),
    ("v3.1", "NVIDIA/results/eos-dfw_n1024_ngc23.09_nemo", "gpt3", "h100-sxm", 8192, "fp8"),
    ("v3.1", "NVIDIA/results/eos-dfw_n1344_ngc23.09_nemo", "gpt3", "h100-sxm", 10752, "fp8"),
    ("v4.0", "NVIDIA/results/eos_n64_ngc24.04_nemo", "gpt3", "h100-sxm", 512, "fp8"),
    ("v4.0", "NVIDIA/results/eos-dfw_n1452_ngc24.04_nemo", "gpt3", "h100-sxm", 11616, "fp8"),
    ("v4.0", "NVIDIA/results/eos_ngc24.04_nemo", "llama2_70b_lora", "h100-sxm", 8, "fp8"),
    ("v4.0", "NVIDIA/results/eos_n8_ngc24.04_nemo", "llama2_70b_lora", "h100-sxm", 64, "fp8"),
    ("v4.0", "NVIDIA/results/eos_n128_ngc24.04_nemo", "llama2_70b_lora", "h100-sxm", 1024, "fp8"),
    ("v4.1", "NVIDIA/results/eos_n32_ngc24.09_nemo", "gpt3", "h100-sxm", 256, "fp8"),
    ("v4.1", "NVIDIA/results/eos_n64_ngc24.09_nemo", "gpt3", "h100-sxm", 512, "fp8"),
    ("v4.1", "NVIDIA/results/eos_ngc24.09_nemo", "llama2_70b_lora", "h100-sxm", 8, "fp8"),
    ("v4.1", "NVIDIA/results/eos_n8_ngc24.09_nemo", "llama2_70b_lora", "h100-sxm", 64, "fp8"),
    ("v4.1", "NVIDIA/results/eos_n128_ngc24.09_nemo", "llama2_70b_lora", "h100-sxm", 1024, "fp8"),
    ("v4.1", "Oracle/results/1536xBM.GPU.H100.8", "gpt3", "h100-sxm", 1536, "fp8"),
    ("v4.1", "Oracle/results/3072xBM.GPU.H100.8", "gpt3", "h100-sxm", 3072, "fp8"),
    ("v4.1", "Dell/results/XE9680x8H100-SXM-80GB", "llama2_70b_lora", "h100-sxm", 8, "fp8"),
    ("v4.1", "Dell/results/2xXE9680x8H100-SXM-80GB", "llama2_70b_lora", "h100-sxm", 16, "fp8"),
    ("v4.1", "Dell/results/4xXE9680x8H100-SXM-80GB", "llama2_70b_lora", "h100-sxm", 32, "fp8"),
    ("v4.1", "Dell/results/8xXE9680x8H100-SXM-80GB", "llama2_70b_lora", "h100-sxm", 64, "fp8"),
    ("v5.0", "NVIDIA/results/eos-dfw_n64_ngc25.01_nemo", "llama31_405b", "h100-sxm", 512, "fp8"),
    ("v5.0", "NVIDIA/results/eos-dfw_n256_ngc25.01_nemo", "llama31_405b", "h100-sxm", 2048, "fp8"),
    ("v5.0", "NVIDIA/results/eos-dfw_n1024_ngc25.01_nemo", "llama31_405b", "h100-sxm", 8192, "fp8"),
    ("v5.0", "IBM+CoreWeave+NVIDIA/results/carina_ngpu512_ngc25.04_nemo", "llama31_405b", "gb200", 512, "fp8"),
    ("v5.0", "IBM+CoreWeave+NVIDIA/results/carina_ngpu1024_ngc25.04_nemo", "llama31_405b", "gb200", 1024, "fp8"),
    ("v5.0", "IBM+CoreWeave+NVIDIA/results/carina_ngpu2496_ngc25.04_nemo", "llama31_405b", "gb200", 2496, "fp8"),
    ("v5.0", "NVIDIA/results/tyche_ngpu8_ngc25.04_nemo", "llama2_70b_lora", "gb200", 8, "fp8"),
    ("v5.0", "NVIDIA/results/tyche_ngpu72_ngc25.04_nemo", "llama2_70b_lora", "gb200", 72, "fp8"),
    ("v5.0", "NVIDIA/results/tyche_ngpu512_ngc25.04_nemo", "llama2_70b_lora", "gb200", 512, "fp8"),
]
# The rule, fixed before the model ran: rounds v3.1 and v4.0 calibrate; v4.1 and later are held out
# (later software, other submitters, Blackwell, Llama 3.1 405B).
CALIBRATION_ROUNDS = {"v3.1", "v4.0"}
MODEL = {"gpt3": "gpt3-175b", "llama2_70b_lora": "llama-2-70b-lora", "llama31_405b": "llama-3.1-405b"}
SEQ = {"llama2_70b_lora": 8192, "llama31_405b": 8192}  # MLPerf rules: LoRA packed/padded to 8,192; 405B 8,192


def _events(text: str) -> list[dict]:
    return [json.loads(m) for m in re.findall(r":::MLLOG (\{.*\})", text)]


def run_throughput(text: str, benchmark: str) -> tuple[float, int, int]:
    """(training tokens/s of the whole system, global batch size, sequence length) of one result file."""
    events = _events(text)
    gbs = next(int(e["value"]) for e in events if e["key"] == "global_batch_size")
    seq = next((int(e["value"]) for e in events if e["key"] == "max_sequence_length"), SEQ.get(benchmark, 2048))
    starts = [e for e in events if e["key"] == "block_start"]
    stops = [e for e in events if e["key"] == "block_stop"]

    def counter(e: dict) -> int:
        meta = e["metadata"]
        return int(meta.get("samples_count", meta.get("first_epoch_num", 0)))

    amount = 0.0
    seconds = 0.0
    for i, start in enumerate(starts[1:-1], start=1):  # the first block (compilation, warm-up) left out
        stop = next((e for e in stops if e["time_ms"] >= start["time_ms"]), None)
        meta = start["metadata"]
        done = int(meta["epoch_count"]) if "epoch_count" in meta else counter(starts[i + 1]) - counter(start)
        if stop is None or done <= 0:
            continue
        amount += done
        seconds += (stop["time_ms"] - start["time_ms"]) / 1000
    tokens = amount if benchmark == "gpt3" else amount * seq
    return tokens / seconds, gbs, seq


def main(root: Path) -> None:
    out = []
    for rnd, system, bench, chip, chips, precision in ROWS:
        repo = root / f"mlcommons+training_results_{rnd}" / "repo"
        commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True,
                                check=True).stdout.strip()
        names = subprocess.run(["git", "-C", str(repo), "ls-tree", "--name-only", "HEAD", f"{system}/{bench}/"],
                               capture_output=True, text=True, check=True).stdout.split()
        rates, gbs, seq = [], 0, 0
        for name in names:
            if not re.search(r"result_\d+\.txt$", name):
                continue
            text = subprocess.run(["git", "-C", str(repo), "show", f"HEAD:{name}"], capture_output=True,
                                  text=True, check=True).stdout
            rate, gbs, seq = run_throughput(text, bench)
            rates.append(rate)
        per_chip = statistics.median(rates) / chips
        out.append({
            "round": rnd, "system": system, "benchmark": bench, "model": MODEL[bench], "chip": chip,
            "chips": chips, "precision": precision, "global_batch": gbs, "seq_len": seq,
            "lora": bench.endswith("lora"), "runs": len(rates), "tokens_per_s_per_chip": round(per_chip, 1),
            "split": "calibration" if rnd in CALIBRATION_ROUNDS else "heldout",
            "source": f"github:mlcommons/training_results_{rnd} {system}/{bench}/result_*.txt @{commit[:10]}",
        })
        print(f"{rnd} {bench:16s} {chip:9s} {chips:6d} gbs={gbs:5d} {per_chip:9.1f} tok/s/chip ({len(rates)} runs)")
    dest = Path(__file__).resolve().parents[2] / "tools/data/validation/scaleout_training.json"
    dest.write_text(json.dumps({"about": __doc__.split("\n\n")[0], "rows": out}, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror"))
