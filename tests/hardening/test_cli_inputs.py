"""Every finding of the hardening review, run through the real CLI: exit 2, one line, no traceback,
nothing changed. Each case builds its bad input in a fresh workspace (tests/hardening/conftest.py)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.hardening.conftest import MODELS, Workspace, assert_refused

CATALOGUE = (Path(__file__).resolve().parents[2] / "tools" / "catalog" / "data" / "gpus.toml").read_text()
GPU = "[[gpus]]" + CATALOGUE.split("[[gpus]]")[1]  # the first GPU of the bundled catalogue (rtx-5080)
ESTIMATE = ("estimate", "--model")
RECOMMEND = ("recommend", "--model", "llama-3.1-8b", "--catalog")
SERVE = ("bench", "serve", "--base-url", "http://127.0.0.1:9", "--num-prompts", "1", "--quiet")
ANSWERS = "customer: Acme\nuse_case: online_serving\nmodel: llama-3.1-8b\n"
Case = Callable[[Workspace], tuple[list[str], str]]


def _gpu(space: Workspace, old: str, new: str) -> str:
    assert old in GPU
    return str(space.file("vendor.toml", GPU.replace(old, new, 1)))


def _assumption(space: Workspace, name: str, value: str) -> str:
    return str(space.file("vendor.toml", f'[assumptions]\n{name} = {{value = {value}, src = ["assumption"]}}\n'))


def _fifo(space: Workspace) -> str:
    path = space.root / "fifo"
    os.mkfifo(path)
    return str(path)


def _export(space: Workspace, change: Callable[[dict], None]) -> str:
    result = space.run("sessions", "export", "1")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    change(data)
    return str(space.file("export.json", json.dumps(data)))


def _answer(field: str, value: object) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        data["answers"][field] = {"value": value, "assumed": False, "raw_text": "", "history": []}
    return change


def _damaged_db(space: Workspace, raw: bytes) -> None:
    space.db.write_bytes(raw)


def _garbage_wal(space: Workspace) -> None:
    space.file("sessions.db-wal", b"garbage, not a write-ahead log" * 4)


CASES: dict[str, Case] = {
    # -- files the product reads: config.json
    "config nested 100 000 deep": lambda s: ([*ESTIMATE, str(s.file("deep.json", "[" * 100_000 + "]" * 100_000))],
                                             "deeper than"),
    "config UTF-16": lambda s: ([*ESTIMATE, str(s.file("u16.json", json.dumps({"a": 1}).encode("utf-16")))],
                                "UTF-16"),
    "config binary": lambda s: ([*ESTIMATE, str(s.file("bin.json", b'{"a": 1}\x00\x01\x02'))], "binary"),
    "config not UTF-8": lambda s: ([*ESTIMATE, str(s.file("latin.json", '{"a": "é"}'.encode("latin-1")))],
                                   "not UTF-8"),
    "config NaN": lambda s: ([*ESTIMATE, str(s.file("nan.json", '{"hidden_size": NaN}'))], "NaN"),
    "config 1e400": lambda s: ([*ESTIMATE, str(s.file("big.json", '{"rope_theta": 1e400}'))], "1e400"),
    "config 5000-digit integer": lambda s: ([*ESTIMATE, str(s.file("digits.json", '{"a": ' + "9" * 5000 + "}"))],
                                           "model"),
    "config larger than 4 MB": lambda s: ([*ESTIMATE, str(s.file("huge.json", '{"a": "' + "x" * (5 * 2**20) + '"}'))],
                                         "larger than"),
    "config is a list": lambda s: ([*ESTIMATE, str(s.file("list.json", "[1, 2]"))], "JSON object"),
    "model /dev/zero": lambda s: ([*ESTIMATE, "/dev/zero"], "device"),
    "model FIFO": lambda s: ([*ESTIMATE, _fifo(s)], "FIFO"),
    "model directory without config": lambda s: ([*ESTIMATE, str(s.root / "home")], "config.json"),
    "missing config path read as a Hub id": lambda s: ([*ESTIMATE, "nonexistent/config.json"], "no such file"),
    "num_hidden_layers 1e9": lambda s: ([*ESTIMATE, str(s.config("c.json", num_hidden_layers=10**9))],
                                        "num_hidden_layers"),
    "num_hidden_layers 1e9 as a float": lambda s: ([*ESTIMATE, str(s.config("c.json", num_hidden_layers=1e9))],
                                                   "num_hidden_layers"),
    "vocab 10^12": lambda s: ([*ESTIMATE, str(s.config("c.json", vocab_size=10**12))], "vocab_size"),
    "hidden_size 10^7": lambda s: ([*ESTIMATE, str(s.config("c.json", hidden_size=10**7))], "hidden_size"),
    "7 KV heads for 32 heads": lambda s: ([*ESTIMATE, str(s.config("c.json", num_key_value_heads=7))],
                                         "num_key_value_heads"),
    "top-k 16 of 8 experts": lambda s: (
        [*ESTIMATE, str(s.config("c.json", "mistralai__Mixtral-8x7B-Instruct-v0.1", num_experts_per_tok=16))],
        "num_experts_per_tok"),
    "rope factor -1": lambda s: ([*ESTIMATE, str(s.config("c.json", rope_scaling={"rope_type": "llama3",
                                                                               "factor": -1.0}))], "factor"),
    "torch_dtype float1024": lambda s: ([*ESTIMATE, str(s.config("c.json", torch_dtype="float1024"))],
                                        "torch_dtype"),
    "hidden_size true": lambda s: ([*ESTIMATE, str(s.config("c.json", hidden_size=True))], "hidden_size"),
    "vision patch_size 0": lambda s: (
        [*ESTIMATE, str(s.file("v.json", json.dumps({**json.loads((MODELS / "google__gemma-3-4b-it" / "config.json")
                                                                  .read_text()), "vision_config": {
            "model_type": "siglip_vision_model", "hidden_size": 8, "patch_size": 0}})))], "patch_size"),
    # -- the catalogue
    "catalogue bandwidth 0": lambda s: ([*RECOMMEND, _gpu(s, "bandwidth_gbs = {value = 960",
                                                          "bandwidth_gbs = {value = 0")], "bandwidth_gbs"),
    "catalogue TFLOP/s 0": lambda s: ([*RECOMMEND, _gpu(s, "bf16 = {value = 113", "bf16 = {value = 0")], "bf16"),
    "catalogue TFLOP/s inf": lambda s: ([*RECOMMEND, _gpu(s, "bf16 = {value = 113", "bf16 = {value = inf")], "inf"),
    "catalogue memory 0": lambda s: ([*RECOMMEND, _gpu(s, "usable_memory_mib = {value = 16303",
                                                       "usable_memory_mib = {value = 0")], "usable_memory_mib"),
    "catalogue amortisation 0": lambda s: ([*RECOMMEND, _assumption(s, "amortisation_years", "0")], "amortisation"),
    "catalogue utilisation 0": lambda s: ([*RECOMMEND, _assumption(s, "utilisation", "0")], "utilisation"),
    "catalogue price inf": lambda s: ([*RECOMMEND, str(s.file("vendor.toml", CATALOGUE.split("[[gpus]]")[0] + """
[[offers]]
id = "X-1"
name = "x"
kind = "purchase"
platform = "any"
gpu = "rtx-5080"
gpu_counts = [1]
price_eur = {value = inf, src = ["assumption"]}
"""))], "inf"),
    "catalogue is a directory": lambda s: ([*RECOMMEND, str(s.root / "home")], "directory"),
    "catalogue unreadable": lambda s: ([*RECOMMEND, "/proc/self/mem"], "cannot read"),
    "catalogue unknown section": lambda s: ([*RECOMMEND, str(s.file("vendor.toml", "[[gpu]]\nid = 'x'\n"))], "gpu"),
    "catalogue nested 10 000 deep": lambda s: ([*RECOMMEND, str(s.file("vendor.toml", "a = " + "[" * 10_000 +
                                                                       "]" * 10_000))], "catalog"),
    # -- answers files
    "answers binary": lambda s: (["intake", "--answers", str(s.file("a.yaml", b"use_case: \x00\xff\xfe"))], "binary"),
    "answers UTF-16": lambda s: (["intake", "--answers", str(s.file("a.yaml", ANSWERS.encode("utf-16")))], "UTF-16"),
    "answers YAML alias bomb": lambda s: (["intake", "--answers", str(s.file("bomb.yaml", "a: &a [x,x,x,x,x,x,x,x,x]\n"
        + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(9))))],
        "aliases"),
    "answers nested 100 000 deep": lambda s: (["intake", "--answers", str(s.file("d.yaml", "[" * 100_000))], "answers"),
    "answers FIFO": lambda s: (["intake", "--answers", _fifo(s)], "FIFO"),
    "answers budget 1e400 (JSON)": lambda s: (["intake", "--answers", str(s.file("a.json", json.dumps(
        {"use_case": "online_serving", "model": "llama-3.1-8b"})[:-1] + ', "budget_eur": 1e400}'))], "1e400"),
    "answers budget 1e400 (YAML)": lambda s: (["intake", "--assume-defaults", "--no-tools", "--answers",
                                               str(s.file("a.yaml", ANSWERS + "budget_eur: 1e400\n"))], "budget_eur"),
    "answers concurrency .nan": lambda s: (["intake", "--answers",
                                            str(s.file("a.yaml", ANSWERS + "concurrency: .nan\n"))], "nan"),
    "answers concurrency true": lambda s: (["intake", "--assume-defaults", "--no-tools", "--answers",
                                            str(s.file("a.yaml", ANSWERS + "concurrency: true\n"))], "concurrency"),
    "answers lang xx": lambda s: (["intake", "--assume-defaults", "--no-tools", "--answers",
                                   str(s.file("a.yaml", ANSWERS + "lang: xx\n"))], "lang"),
    "brief FIFO": lambda s: (["intake", "--brief", _fifo(s)], "FIFO"),
    "brief /dev/zero": lambda s: (["intake", "--brief", "/dev/zero"], "device"),
    # -- session exports
    "import NaN concurrency": lambda s: (["sessions", "import", _export(s, _answer("concurrency", float("nan")))],
                                         "NaN"),
    "import negative concurrency": lambda s: (["sessions", "import", _export(s, _answer("concurrency", -4))],
                                              "concurrency"),
    "import unknown top-level field": lambda s: (["sessions", "import", _export(s, lambda d: d.update(bogus=1))],
                                                 "bogus"),
    "import unknown answer field": lambda s: (["sessions", "import", _export(s, _answer("colour", "red"))], "colour"),
    "import a directory": lambda s: (["sessions", "import", str(s.root / "home")], "directory"),
    "import nested 100 000 deep": lambda s: (["sessions", "import",
                                              str(s.file("d.json", "[" * 100_000 + "]" * 100_000))], "deeper"),
    "propose from a UTF-16 export": lambda s: (["propose", str(s.file("e.json", '{"a": 1}'.encode("utf-16")))],
                                               "UTF-16"),
    # -- outputs
    "sessions export -o DIR": lambda s: (["sessions", "export", "1", "-o", str(s.root / "home")], "directory"),
    "propose -o DIR": lambda s: (["propose", "1", "-o", str(s.root / "home")], "directory"),
    "bench serve --out DIR": lambda s: ([*SERVE, "--out", str(s.root / "home")], "directory"),
    # -- numbers on the command line
    "sessions show 10**30": lambda s: (["sessions", "show", str(10**30)], "out of range"),
    "sessions show -1": lambda s: (["sessions", "show", "-1"], "out of range"),
    "bench serve --duration nan": lambda s: ([*SERVE[:4], "--duration", "nan"], "--duration"),
    "bench serve --duration inf": lambda s: ([*SERVE[:4], "--duration", "inf"], "--duration"),
    "bench serve --request-rate nan": lambda s: ([*SERVE, "--request-rate", "nan"], "--request-rate"),
    "bench serve --request-rate 0": lambda s: ([*SERVE, "--request-rate", "0"], "--request-rate"),
    "bench serve --concurrency 1,,2": lambda s: ([*SERVE, "--concurrency", "1,,2"], "--concurrency"),
    "bench serve --concurrency 0": lambda s: ([*SERVE, "--concurrency", "0"], "--concurrency"),
    "bench serve --timeout 0": lambda s: ([*SERVE, "--timeout", "0"], "--timeout"),
    "bench serve --timeout -1": lambda s: ([*SERVE, "--timeout", "-1"], "--timeout"),
    "bench serve --timeout nan": lambda s: ([*SERVE, "--timeout", "nan"], "--timeout"),
    "bench serve --warmup -1": lambda s: ([*SERVE, "--warmup", "-1"], "--warmup"),
    "bench serve --slo-ttft-ms nan": lambda s: ([*SERVE, "--slo-ttft-ms", "nan"], "--slo-ttft-ms"),
    "bench serve --percentile 0": lambda s: ([*SERVE, "--percentile", "0"], "--percentile"),
    "bench serve --seed -1": lambda s: ([*SERVE, "--seed", "-1"], "--seed"),
    "bench launch --port 70000": lambda s: (["bench", "launch", "--model", "x/y", "--port", "70000"], "--port"),
    "bench micro --repeats 0": lambda s: (["bench", "micro", "--repeats", "0"], "--repeats"),
    "recommend --precisions foo": lambda s: (["recommend", "--model", "llama-3.1-8b", "--precisions", "foo"],
                                             "--precisions"),
    "recommend --top 0": lambda s: (["recommend", "--model", "llama-3.1-8b", "--top", "0"], "--top"),
    "recommend --top -1": lambda s: (["recommend", "--model", "llama-3.1-8b", "--top", "-1"], "--top"),
    "estimate --concurrency 1e400": lambda s: ([*ESTIMATE, "llama-3.1-8b", "--concurrency", "1e400"],
                                               "--concurrency"),
    "estimate --gpu-memory-utilization nan": lambda s: ([*ESTIMATE, "llama-3.1-8b", "--gpu-memory-utilization",
                                                         "nan"], "--gpu-memory-utilization"),
    "web --port 70000": lambda s: (["web", "--port", "70000"], "--port"),
    # -- damaged databases
    "database of garbage": lambda s: (_damaged_db(s, b"not a database" * 300) or ["sessions", "list"], "unreadable"),
    "database with a bad header": lambda s: (_damaged_db(s, b"SQLite format 4\x00" + s.db.read_bytes()[16:])
                                             or ["sessions", "list"], "unreadable"),
    "database is a directory": lambda s: ((s.db.unlink(), s.db.mkdir()) and ["sessions", "list"], "directory"),
    "garbage -wal beside a valid database": lambda s: (_garbage_wal(s) or ["sessions", "list"], "write-ahead"),
    "damaged database for intake": lambda s: (_damaged_db(s, b"not a database" * 300) or [
        "intake", "--no-tools", "--assume-defaults", "--answers", str(s.file("a.yaml", ANSWERS))], "unreadable"),
    # -- the app: a session id is checked before the screen opens (it showed "Erreur interne : ValueError")
    "app --resume abc": lambda s: (["app", "--resume", "abc"], "--resume"),
    "app --resume of a session that does not exist": lambda s: (["app", "--resume", "999"], "no session 999"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_is_one_line_and_changes_nothing(space: Workspace, name: str) -> None:
    args, needle = CASES[name](space)
    assert_refused(space, *args, needle=needle)


def test_the_cases_cover_the_review() -> None:
    assert len(CASES) >= 70
