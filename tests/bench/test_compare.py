"""`bench compare` refuses unlike trials and lists why; `bench calibrate` puts the estimator beside a run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bench.conftest import Server, run_cli
from sizer_agent.tools.bench.compare import calibrate, compare_results, load_result
from sizer_agent.tools.errors import InputError


def _serve(server: Server, out: Path, *extra: str) -> Path:
    done = run_cli(
        "bench", "serve", "--base-url", server.url, "--model", "meta-llama/Llama-3.1-8B-Instruct",
        "--precision", "bfloat16", "--input-len", "16", "--concurrency", "1,2", "--num-prompts", "4",
        "--out", str(out), "--quiet", *extra,
    )
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def results(fast_schedule_server: Server, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("compare")
    return {
        "a": _serve(fast_schedule_server, base / "a.json", "--output-len", "8"),
        "b": _serve(fast_schedule_server, base / "b.json", "--output-len", "8"),
        "other": _serve(fast_schedule_server, base / "c.json", "--output-len", "4", "--revision", "abc123"),
    }


def test_same_settings_compare_side_by_side(results: dict[str, Path]) -> None:
    done = run_cli("bench", "compare", str(results["a"]), str(results["b"]))
    assert done.returncode == 0, done.stderr
    assert "c=2 TTFT p50 (ms)" in done.stdout and "B/A" in done.stdout
    comparison = compare_results(load_result(results["a"]), load_result(results["b"]))
    assert comparison.comparable and len(comparison.rows) == 2 * 10
    row = next(r for r in comparison.rows if r.label == "c=1 output tok/s")
    assert row.a and row.b and row.ratio == pytest.approx(row.b / row.a)


def test_different_settings_are_refused_with_every_field(results: dict[str, Path]) -> None:
    done = run_cli("bench", "compare", str(results["a"]), str(results["other"]), "--json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert data["comparable"] is False and data["rows"] == []
    fields = {d["field"]: (d["a"], d["b"]) for d in data["differences"]}
    assert fields["settings.revision"] == (None, "abc123")
    assert fields["settings.output_len"] == ({"low": 8, "high": 8}, {"low": 4, "high": 4})
    assert set(fields) == {"settings.revision", "settings.output_len"}
    text = run_cli("bench", "compare", str(results["a"]), str(results["other"]))
    assert text.returncode == 1 and "settings.revision" in text.stdout


def test_different_kinds_and_bad_files(tmp_path: Path, results: dict[str, Path]) -> None:
    train = tmp_path / "t.json"
    train.write_text(json.dumps({"kind": "train", "settings": {}}))
    assert compare_results(load_result(results["a"]), load_result(train)).differences[0].field == "kind"
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    done = run_cli("bench", "compare", str(bad), str(results["a"]))
    assert done.returncode == 2 and "bad.json" in done.stderr and "Traceback" not in done.stderr


def test_calibrate_matches_the_estimator_for_the_same_settings(results: dict[str, Path]) -> None:
    from sizer_agent.tools.catalog import load_catalog
    from sizer_agent.tools.estimate import EstimateRequest, estimate
    from sizer_agent.tools.model_loader import load_model
    from sizer_agent.tools.perf.estimate import estimate_perf

    calibration = calibrate(load_result(results["a"]), gpu="h200-sxm")
    assert calibration.model == "meta-llama/Llama-3.1-8B-Instruct" and calibration.dtype == "bfloat16"
    spec = load_model("meta-llama/Llama-3.1-8B-Instruct")
    request = EstimateRequest(model=spec.name, dtype="bfloat16", input_len=16, output_len=8, concurrency=2,
                              gpu="h200-sxm")
    expected = estimate_perf(estimate(request, spec), load_catalog().gpu("h200-sxm"), spec)
    row = next(r for r in calibration.rows if r.concurrency == 2 and r.metric == "TPOT mean (ms)")
    assert row.predicted == pytest.approx(expected.tpot_ms)
    assert row.measured is not None and row.ratio == pytest.approx(row.measured / row.predicted)
    done = run_cli("bench", "calibrate", str(results["a"]), "--gpu", "h200-sxm")
    assert done.returncode == 0, done.stderr and "meas/pred" in done.stdout


def test_calibrate_refuses_non_serve_results(tmp_path: Path) -> None:
    train = tmp_path / "t.json"
    train.write_text(json.dumps({"kind": "train", "settings": {}}))
    with pytest.raises(InputError):
        calibrate(load_result(train), gpu="h200-sxm")
