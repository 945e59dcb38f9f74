"""The `estimate` and `validate` commands as a user runs them: exit codes, one-line errors, JSON schema."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.estimate._data import VALIDATION

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-m", "sizer_agent", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=120)


def test_json_schema_has_the_documented_keys() -> None:
    out = cli("estimate", "--model", "llama-3.1-8b", "--engine", "vllm", "--gpu-memory-gib", "80", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    for key in ("weights_bytes", "kv_cache_bytes", "activations_bytes", "gradients_bytes", "optimizer_bytes",
                "runtime_bytes", "total_bytes"):
        assert isinstance(data["per_gpu"][key], int)
    assert sum(v for k, v in data["per_gpu"].items() if k != "total_bytes") == data["per_gpu"]["total_bytes"]
    assert data["kv_cache_bytes_per_token"] == 131_072
    assert data["model"]["params_total"] == 8_030_261_248
    assert data["model"]["params_active"] < data["model"]["params_total"]
    assert isinstance(data["fits"], bool) and isinstance(data["warnings"], list)
    for key in ("kv_cache_tokens", "kv_cache_bytes", "max_concurrency"):
        assert data["engine"][key] > 0


def test_human_output_names_units_and_verdict() -> None:
    out = cli("estimate", "--model", "llama-3.1-70b", "--gpu-memory-gib", "32", "--concurrency", "4")
    assert out.returncode == 0
    assert "GiB" in out.stdout and "GB" in out.stdout and "does NOT fit" in out.stdout


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--model", "no-such-model"], "model"),
        (["--model", "llama-3.1-70b", "--tensor-parallel-size", "3"], "tensor_parallel_size"),
        (["--model", "llama-3.1-8b", "--concurrency", "-4"], "--concurrency"),
        (["--model", "llama-3.1-8b", "--max-model-len", "999999"], "max_model_len"),
        (["--model", "llama-3.1-8b", "--input-len", "abc"], "--input-len"),
        (["--model", "llama-3.1-8b", "--gpu-memory-utilization", "1.5"], "--gpu-memory-utilization"),
        (["--model", "llama-3.1-8b", "--mode", "training", "--lora-targets", "q_proj,bogus"], "--lora-targets"),
        (["--model", "llama-3.1-8b", "--engine", "vllm"], "gpu_memory_gib"),
        (["--model", "llama-3.1-8b", "--quantization", "int3"], "--quantization"),
        (["--model", "llama-3.1-8b", "--kv-cache-dtype", "int2"], "kv_cache_dtype"),
        (["--model", "llama-3.1-8b", "--gpu-memory-gib", "99999"], "gpu_memory_gib"),
    ],
)
def test_bad_input_is_one_line_naming_the_field(args: list[str], field: str) -> None:
    out = cli("estimate", *args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert field in lines[0] and "Traceback" not in out.stderr


def test_config_missing_required_keys(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "llama", "hidden_size": 4096}))
    out = cli("estimate", "--model", str(tmp_path))
    assert out.returncode == 2 and "num_hidden_layers" in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_config_that_is_not_json(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{not json")
    out = cli("estimate", "--model", str(tmp_path / "config.json"))
    assert out.returncode == 2 and "not valid JSON" in out.stderr


def test_help_teaches() -> None:
    out = cli("estimate", "--help")
    assert out.returncode == 0 and "examples:" in out.stdout and "--kv-cache-dtype" in out.stdout


def test_models_command_lists_the_registry() -> None:
    out = cli("models", "--json")
    assert out.returncode == 0
    rows = json.loads(out.stdout)
    assert any(r["id"] == "deepseek-ai/DeepSeek-V3" and r["params_total"] == 671_026_419_200 for r in rows)


def test_models_table_says_why_a_dense_model_has_fewer_active_parameters() -> None:
    out = cli("models")
    assert out.returncode == 0, out.stderr
    row = next(line.split() for line in out.stdout.splitlines() if line.startswith("llama-3.1-8b "))
    assert row[2:6] == ["8.03", "B", "7.50", "B"]  # dense, yet not all "active": the table must say why
    legend = next(line for line in out.stdout.splitlines() if line.startswith("active:"))
    assert "embedding" in legend
    # and the why holds: the difference is exactly the input embedding table (128,256 x 4,096)
    rows = {r["id"]: r for r in json.loads(cli("models", "--json").stdout)}
    llama = rows["meta-llama/Llama-3.1-8B-Instruct"]
    assert llama["params_total"] - llama["params_active"] == 128_256 * 4_096


def test_validate_reports_and_meets_targets() -> None:
    out = cli("validate", "--path", str(VALIDATION), "--json")
    assert out.returncode == 0, out.stdout[-2000:]
    summary = {s["metric"]: s for s in json.loads(out.stdout)["summary"]}
    assert summary["weights"]["median_abs_error_pct"] <= 2 and summary["weights"]["max_abs_error_pct"] <= 5
    assert summary["kv_cache_tokens"]["median_abs_error_pct"] <= 5
    assert summary["kv_cache_tokens"]["max_abs_error_pct"] <= 15
    assert summary["training_peak"]["median_abs_error_pct"] <= 20


def test_validate_with_no_path_prints_the_tables_of_the_bundled_set(tmp_path: Path) -> None:
    # from a folder with nothing beside it: the published set ships with the package
    out = cli("validate", cwd=tmp_path)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr
    table = [line.split() for line in out.stdout.splitlines()]
    cases = {row[0] for row in table if len(row) > 4 and row[1] in ("weights", "kv_cache_tokens", "training_peak")}
    assert {"vllm-llmd-001", "train-torchtune-02"} <= cases
    summary = {row[1]: row[0] for row in table if row and row[0] in ("ok", "MISS")}
    assert set(summary) == {"params", "weights", "kv_cache_tokens", "activation_peak", "training_peak"}
    assert set(summary.values()) == {"ok"}, summary


def test_validate_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    out = cli("validate", "--path", str(tmp_path / "nowhere"))
    assert out.returncode == 2 and "path" in out.stderr
