"""`sizer-agent recommend` and the perf block of `estimate`, run as a user would (subprocess)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sizer_agent", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)


def test_recommend_json_schema() -> None:
    out = cli("recommend", "--model", "llama-3.1-8b", "--input-len", "512", "--output-len", "128",
              "--concurrency", "4", "--slo-ttft-ms", "1000", "--slo-tpot-ms", "60", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["status"] in ("recommended", "over_budget", "no_fit")
    assert data["recommended"] == (data["plan"] or {}).get("offer_id")
    assert data["headline"]["id"].startswith("headline.")
    plan = data["plan"]
    for key in ("offer_id", "gpu_id", "purchase", "parallelism", "memory", "serving", "costs", "knobs", "request",
                "fits", "reasons", "notes", "host"):
        assert key in plan
    for key in ("ttft_ms", "tpot_ms", "output_tokens_per_s", "max_concurrency_under_slo"):
        assert key in plan["serving"]
    assert plan["parallelism"]["num_gpus"] == plan["purchase"]["units"] * plan["purchase"]["gpus_per_unit"]
    assert {o["offer_id"] for o in data["options"]} >= {"ACD-006", "ACD-009", "ACD-014"}


def test_recommend_table_lists_fitting_first() -> None:
    out = cli("recommend", "--model", "llama-3.1-70b", "--precisions", "fp8,awq", "--units", "workstation",
              "--engine-memory", "generic", "--top", "200")
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line[:3].strip().isdigit()]
    flags = [line.split()[1] for line in rows]
    assert flags == sorted(flags, key=lambda f: f != "yes")
    assert "✓ ACD-014: serves the load with 1 GPU (TP 1 × PP 1 × DP 1: 1 copy of the model on 1 GPU; fp8" in out.stdout
    assert out.stdout.splitlines()[2].startswith("Recommended configuration:")
    french = cli("recommend", "--model", "llama-3.1-8b", "--units", "workstation", "--lang", "fr")
    assert french.returncode == 0 and "Configuration recommandée" in french.stdout


def test_bad_offer_file_is_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "offers.toml"
    path.write_text('[[offers]]\nid = "X"\nname = "x"\nkind = "purchase"\nunit = "workstation"\n'
                    'platform = "ws-acd-006"\n'
                    'gpu = "rtx-5080"\ngpu_counts = [1]\nprice_eur = {value = -1, src = ["seed002"]}\n')
    out = cli("recommend", "--model", "llama-3.1-8b", "--catalog", str(path))
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert "Traceback" not in out.stderr
    assert "offers.toml" in lines[-1] and "offers[X].price_eur.value" in lines[-1]


def test_estimate_json_gains_perf_with_a_catalogue_gpu() -> None:
    out = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--concurrency", "8", "--json")
    assert out.returncode == 0, out.stderr
    perf = json.loads(out.stdout)["perf"]
    assert perf["ttft_ms"] > 0 and perf["tpot_ms"] > 0 and perf["output_tokens_per_s"] > 0
    assert perf["bound"] in ("compute", "memory", "communication")
    phases = {p["phase"]: p for p in perf["roofline"]}
    assert set(phases) == {"prefill", "decode"}
    assert phases["decode"]["operational_intensity"] < phases["prefill"]["operational_intensity"]
    no_gpu = cli("estimate", "--model", "llama-3.1-8b", "--gpu-memory-gib", "80", "--json")
    assert json.loads(no_gpu.stdout)["perf"] is None


def test_unknown_gpu_id_lists_known() -> None:
    out = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "rtx-9090")
    assert out.returncode == 2 and "h200-sxm" in out.stderr and "Traceback" not in out.stderr


def test_option_parsers_reject_garbage_cleanly() -> None:
    import argparse

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from sizer_agent.cli.commands.recommend import _headroom
    from sizer_agent.cli.estimate_args import positive_float as _positive

    @settings(max_examples=200, deadline=None)
    @given(st.text(max_size=8))
    def check(text: str) -> None:
        for parse in (_headroom, _positive):
            try:
                value = parse(text)
            except argparse.ArgumentTypeError:
                continue
            assert value == value  # not NaN
            assert value > 0 if parse is _positive else 0 <= value < 1

    check()


def test_recommend_a_vision_job() -> None:
    """--task vision: the same recommendation, sized in images; language-only flags are refused with it."""
    import pytest

    pytest.importorskip("timm")
    out = cli("recommend", "--task", "vision", "--model", "resnet18", "--resolution", "64", "--batch-size", "8",
              "--mode", "inference", "--dtype", "bfloat16", "--units", "workstation", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    plan = data["plan"]
    assert data["status"] == "recommended" and plan["vision"]["images_per_s"] > 0 and plan["serving"] is None
    assert plan["vision"]["request"]["model"] == "resnet18" and plan["request"] is None
    text = cli("recommend", "--task", "vision", "--model", "resnet18", "--resolution", "64", "--batch-size", "8",
               "--mode", "inference", "--units", "workstation", "--lang", "fr")
    assert text.returncode == 0 and "images/s" in text.stdout and "img/s" in text.stdout
    bad = cli("recommend", "--model", "llama-3.1-8b", "--dataset-images", "1000")
    assert bad.returncode == 2 and "--task vision" in bad.stderr and "Traceback" not in bad.stderr


def test_each_offer_line_names_the_whole_split_that_multiplies_to_its_gpus() -> None:
    # "with 8 GPUs (TP 1 × PP 1)" leaves a reader wondering where 7 GPUs went: the line gives DP too
    out = cli("recommend", "--model", "llama-3.1-8b", "--concurrency", "64")
    assert out.returncode == 0, out.stderr
    lines = re.findall(r"serves the load with (\d+) GPUs? \(TP (\d+) × PP (\d+) × DP (\d+): ([^;]*);", out.stdout)
    assert len(lines) >= 10
    for gpus, tp, pp, dp, words in lines:
        assert int(tp) * int(pp) * int(dp) == int(gpus)
        copies = "1 copy of the model" if dp == "1" else f"{dp} copies of the model, each"
        assert words == f"{copies} on {int(tp) * int(pp)} GPU" + ("s" if int(tp) * int(pp) > 1 else "")
    assert any(int(dp) > 1 for _, _, _, dp, _ in lines)


def test_recommend_takes_the_buyers_constraints_and_questions_as_flags() -> None:
    out = cli("recommend", "--model", "llama-3.1-8b", "--input-len", "1024", "--output-len", "256", "--concurrency",
              "4", "--no-cloud", "--budget-eur-per-month", "3000", "--gpu-preference", "a100-80gb-pcie",
              "--planned-gpus", "2", "--owned", "--compare", "4:l40s,1:rtx-5090", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["scope"]["cloud_excluded"] and "cloud" not in data["scope"]["units"]
    assert data["scope"]["budget_eur_per_month"] == 3000 and data["scope"]["budget_eur"] == 3000 * 36
    assert data["owned"]["gpu_id"] == "a100-80gb-pcie" and data["owned"]["parallelism"]["num_gpus"] == 2
    assert [(p["parallelism"]["num_gpus"], p["gpu_id"]) for p in data["compared"]] == [(4, "l40s"), (1, "rtx-5090")]
    assert all(a["purchase"]["unit"] != "cloud" for a in data["alternatives"])
    # contradictions and malformed options are one line, exit 2
    clash = cli("recommend", "--model", "llama-3.1-8b", "--deployment", "cloud", "--no-cloud")
    assert clash.returncode == 2 and "--no-cloud" in clash.stderr and len(clash.stderr.strip().splitlines()) == 1
    bad = cli("recommend", "--model", "llama-3.1-8b", "--compare", "two-h100")
    assert bad.returncode == 2 and "COUNT:GPU" in bad.stderr and "--compare" in bad.stderr
    alone = cli("recommend", "--model", "llama-3.1-8b", "--owned")
    assert alone.returncode == 2 and "--owned" in alone.stderr


def test_recommend_serve_after_a_training_checks_its_cards_and_refuses_a_serving_job() -> None:
    out = cli("recommend", "--model", "llama-3.1-8b", "--mode", "training", "--method", "lora", "--batch-size", "4",
              "--seq-len", "2048", "--dataset-tokens", "4e7", "--deployment", "server", "--serve-after", "10",
              "--input-len", "2048", "--output-len", "300", "--json")
    assert out.returncode == 0, out.stderr
    after = json.loads(out.stdout)["serving_after"]
    assert after["status"] == "recommended" and after["owned"]["serving"]["concurrency"] == 10
    assert after["owned"]["serving"]["target_assumed"] == ["ttft", "tpot"]  # no --slo flags: the defaults, said so
    text = cli("recommend", "--model", "llama-3.1-8b", "--mode", "training", "--method", "lora", "--dataset-tokens",
               "4e7", "--deployment", "server", "--serve-after", "10", "--lang", "fr")
    assert text.returncode == 0 and "Service du modèle affiné ensuite (10 requêtes simultanées" in text.stdout
    refused = cli("recommend", "--model", "llama-3.1-8b", "--serve-after", "10")
    assert refused.returncode == 2 and "--serve-after" in refused.stderr and "--mode training" in refused.stderr
