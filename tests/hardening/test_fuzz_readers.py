"""Every reader fuzzed: whatever the bytes or the parsed document, the product either accepts it or raises
the one error type the command line turns into one line and exit code 2 (InputError, or the store's
InvalidExportError); never another exception, never a hang."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sizer_agent.store.export import InvalidExportError, check_export
from sizer_agent.tools.architectures import spec_from_config
from sizer_agent.tools.bench.compare import load_result
from sizer_agent.tools.catalog.loader import load_catalog
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.input_files import parse_json, parse_toml, parse_yaml, read_data, read_json, write_atomic
from sizer_agent.tools.model_loader import load_model

MODELS = Path(__file__).resolve().parents[2] / "tools" / "data" / "models"
LLAMA = json.loads((MODELS / "meta-llama__Llama-3.1-8B-Instruct" / "config.json").read_text())
MIXTRAL = json.loads((MODELS / "mistralai__Mixtral-8x7B-Instruct-v0.1" / "config.json").read_text())
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12))
documents = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                          st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                         max_leaves=20)


def _write(data: bytes, suffix: str) -> Path:
    fd, name = tempfile.mkstemp(suffix=suffix)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return Path(name)


@FUZZ
@given(data=st.binary(max_size=400), suffix=st.sampled_from([".json", ".yaml", ".toml", ".txt"]))
def test_any_bytes_are_read_or_refused_as_input_errors(data: bytes, suffix: str) -> None:
    path = _write(data, suffix)
    try:
        read_data(path, "file")
    except InputError:
        pass
    finally:
        path.unlink()


@FUZZ
@given(text=st.text(max_size=300))
def test_any_text_parses_or_is_an_input_error(text: str) -> None:
    for parse in (parse_json, parse_yaml, parse_toml):
        with contextlib.suppress(InputError):
            parse(text, "file", "fuzz")


@FUZZ
@given(depth=st.integers(min_value=1, max_value=200_000), opener=st.sampled_from(["[", "{\"a\":", "- "]))
def test_deep_documents_are_refused_without_recursion_errors(depth: int, opener: str) -> None:
    text = opener * depth
    for parse in (parse_json, parse_yaml):
        with contextlib.suppress(InputError):
            parse(text, "file", "fuzz")


@FUZZ
@given(changes=st.dictionaries(st.sampled_from(sorted({*LLAMA, "num_experts_per_tok", "num_local_experts",
                                                        "rope_scaling", "vision_config", "text_config"})),
                               documents, max_size=4),
       base=st.sampled_from([LLAMA, MIXTRAL]))
def test_any_config_json_builds_a_bounded_spec_or_is_an_input_error(changes: dict[str, Any],
                                                                    base: dict[str, Any]) -> None:
    path = _write(json.dumps({**base, **changes}, allow_nan=True).encode(), ".json")
    try:
        spec = load_model(str(path))
    except InputError:
        return
    finally:
        path.unlink()
    assert 0 < spec.num_layers <= 1024 and 0 < spec.vocab_size <= 2**22
    assert spec.num_attention_heads % spec.num_kv_heads == 0
    assert spec.params_total >= 0 and (spec.moe is None or spec.moe.experts_per_token <= spec.moe.num_experts)


@FUZZ
@given(config=st.dictionaries(st.text(max_size=10), documents, max_size=6))
def test_any_config_mapping_is_a_spec_or_an_input_error(config: dict[str, Any]) -> None:
    with contextlib.suppress(InputError):
        spec_from_config(config, name="fuzz")


FIGURE = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(min_value=-5, max_value=10**6))


@FUZZ
@given(bandwidth=FIGURE, tflops=FIGURE, memory=FIGURE, amortisation=FIGURE, utilisation=FIGURE, price=FIGURE)
def test_any_catalogue_figure_is_loaded_usable_or_refused(bandwidth: float, tflops: float, memory: float,
                                                          amortisation: float, utilisation: float,
                                                          price: float) -> None:
    gpus = (Path(__file__).resolve().parents[2] / "tools" / "catalog" / "data" / "gpus.toml").read_text()
    gpu = "[[gpus]]" + gpus.split("[[gpus]]")[1]
    gpu = gpu.replace("bandwidth_gbs = {value = 960", f"bandwidth_gbs = {{value = {_toml(bandwidth)}", 1)
    gpu = gpu.replace("bf16 = {value = 113", f"bf16 = {{value = {_toml(tflops)}", 1)
    gpu = gpu.replace("usable_memory_mib = {value = 16303", f"usable_memory_mib = {{value = {_toml(memory)}", 1)
    text = (gpu + f'\n[assumptions]\namortisation_years = {{value = {_toml(amortisation)}, src = ["assumption"]}}\n'
            f'utilisation = {{value = {_toml(utilisation)}, src = ["assumption"]}}\n')
    text += f'eur_per_usd = {{value = {_toml(price)}, src = ["assumption"]}}\n'
    path = _write(text.encode(), ".toml")
    try:
        catalog = load_catalog(path)
    except InputError:
        return
    finally:
        path.unlink()
    gpu_model = catalog.gpu("rtx-5080")
    assert gpu_model.bandwidth_gbs.value > 0 and gpu_model.memory_bytes > 0
    assert catalog.assumptions.amortisation_years.value > 0 and 0 < catalog.assumptions.utilisation.value <= 1


def _toml(value: float) -> str:
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return repr(value)


EXPORT = {"format": "sizer-agent-session/1", "id": 1, "created": "2026-01-01T00:00:00+00:00",
          "updated": "2026-01-01T00:00:00+00:00", "lang": "en", "answers": {}, "tool_calls": [], "benchmarks": [],
          "proposals": [], "events": []}


@FUZZ
@given(field=st.sampled_from(["concurrency", "budget_eur", "model", "use_case", "colour", "ttft_ms"]),
       value=documents, extra=st.dictionaries(st.text(max_size=6), documents, max_size=2))
def test_any_session_export_is_checked_or_refused_as_invalid(field: str, value: Any, extra: dict[str, Any]) -> None:
    data = {**EXPORT, **extra, "answers": {field: {"value": value, "assumed": False, "raw_text": "", "history": []}}}
    with contextlib.suppress(InvalidExportError):
        check_export(data)


@FUZZ
@given(document=documents)
def test_any_bench_result_is_read_or_refused(document: Any) -> None:
    path = _write(json.dumps(document, allow_nan=True).encode(), ".json")
    try:
        load_result(path)
    except InputError:
        pass
    finally:
        path.unlink()


@FUZZ
@given(document=documents)
def test_any_answers_document_is_read_or_refused(document: Any) -> None:
    from sizer_agent.agent.intake import run_intake

    path = _write(json.dumps(document, allow_nan=True).encode(), ".json")
    try:
        data = read_json(path, "answers")
    except InputError:
        return
    finally:
        path.unlink()
    run_intake(data, run_tools=False)  # a problem list, never an exception


def test_write_atomic_refuses_a_directory_and_leaves_nothing(tmp_path: Path) -> None:
    try:
        write_atomic(tmp_path, "x", "--out")
    except InputError as error:
        assert "directory" in str(error)
    else:
        raise AssertionError("a directory was accepted as an output file")
    assert list(tmp_path.iterdir()) == []
    target = write_atomic(tmp_path / "sub" / "out.json", "{}", "--out")
    assert target.read_text() == "{}" and [p.name for p in target.parent.iterdir()] == ["out.json"]


def test_deep_flow_yaml_is_refused_before_the_parser_and_quoted_brackets_are_not_nesting() -> None:
    """5,000 "[" took PyYAML about a second to give up on; the bracket scan refuses them at once, and brackets in
    quotes or comments are text, not levels."""
    with pytest.raises(InputError, match="deeper than 64"):
        parse_yaml("[" * 5000, "file", "deep.yaml")
    text = 'note: "' + "[" * 100 + '"\nsteps: [1, [2, {c: 3}]]  # ' + "{" * 100 + "\nwho: it's [us]\n"
    assert parse_yaml(text, "file", "ok.yaml") == {"note": "[" * 100, "steps": [1, [2, {"c": 3}]], "who": "it's [us]"}
