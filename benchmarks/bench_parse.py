"""Free-text understanding speed: one message -> every field it states (target < 5 ms median).

Every message of the development corpus (tests/agent/corpus/dev.yaml, 220 first messages, French and
English, from one line to a pasted e-mail) goes through `parse_message` `--repeats` times; the figure is the
median and the 95th percentile (nearest rank) of the time per message. Baseline, same run: one pass of a
single compiled regular expression (numbers with their units) over the same messages, the cheapest reading
a parser could do; the ratio is the parser's cost in multiples of it. The one-time cost of the first
message (the GPU catalogue and the model registry are indexed on first use) is reported apart.

`--languages` also compares the language detectors on the corpus's labelled languages: the function-word
counter the product uses, and lingua-language-detector (French/English only) when installed, with its
load time and memory; short answers ("32", "oui", "2k / 512") should stay undecided or right.

Run: `python benchmarks/bench_parse.py [--repeats N] [--languages] [--json]`.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from sizer_agent.agent.understanding import detect_language, parse_message  # noqa: E402

CORPUS = ROOT / "tests" / "agent" / "corpus" / "dev.yaml"  # by its exact name: the held-out set stays unread
TARGET_MS = 5.0
BASELINE = re.compile(r"(\d+(?:[.,]\d+)?)\s*(k|ms|s|go|gb|to|tb|€|kw|w|u|tokens?|users?|utilisateurs?)?", re.I)
SHORT_ANSWERS = ("32", "oui", "non", "2k / 512", "8k", "Acme", "x2", "500 ms", "no", "yes", "bf16", "25 000 €")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]  # nearest rank


def timings(messages: list[str], repeats: int) -> dict[str, Any]:
    started = time.perf_counter()
    parse_message(messages[0])
    first_ms = (time.perf_counter() - started) * 1000
    for text in messages:  # warm: every regex compiled, every index built
        parse_message(text)
    parse: list[float] = []
    baseline: list[float] = []
    for _ in range(repeats):
        for text in messages:
            t0 = time.perf_counter()
            parse_message(text)
            t1 = time.perf_counter()
            BASELINE.findall(text)
            t2 = time.perf_counter()
            parse.append((t1 - t0) * 1000)
            baseline.append((t2 - t1) * 1000)
    median, base = statistics.median(parse), statistics.median(baseline)
    return {
        "messages": len(messages), "repeats": repeats, "first_message_ms": round(first_ms, 2),
        "median_ms": round(median, 3), "p95_ms": round(percentile(parse, 0.95), 3), "max_ms": round(max(parse), 3),
        "baseline_median_ms": round(base, 4), "ratio_to_baseline": round(median / base, 1) if base else None,
        "target_ms": TARGET_MS, "meets_target": median < TARGET_MS,
    }


def _accuracy(detect: Any, entries: list[dict[str, Any]]) -> dict[str, Any]:
    right = undecided = 0
    started = time.perf_counter()
    for entry in entries:
        lang = detect(entry["text"])
        right += lang == entry["lang"]
        undecided += lang is None
    per_message = (time.perf_counter() - started) / len(entries) * 1000
    wrong = len(entries) - right - undecided
    shorts = {text: detect(text) for text in SHORT_ANSWERS}
    return {"right": right, "undecided": undecided, "wrong": wrong, "ms_per_message": round(per_message, 4),
            "short_answers": shorts}


def lingua_mode(mode: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """lingua-language-detector, French and English only, measured in this (fresh) process."""
    from lingua import Language, LanguageDetectorBuilder

    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    builder = LanguageDetectorBuilder.from_languages(Language.FRENCH, Language.ENGLISH)
    if mode == "low_accuracy":
        builder = builder.with_low_accuracy_mode()
    detector = builder.build()
    detector.detect_language_of("warm up the models")  # models load on first use
    load_s = time.perf_counter() - started
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    def detect(text: str) -> str | None:
        values = detector.compute_language_confidence_values(text)
        best = values[0] if values else None
        if best is None or best.value < 0.75:  # the same caution as the product: unsure is undecided
            return None
        return "fr" if best.language == Language.FRENCH else "en"

    result = _accuracy(detect, entries)
    result.update(load_s=round(load_s, 3), rss_growth_mb=round((rss_after - rss_before) / 1024, 1))
    return result


def languages(entries: list[dict[str, Any]]) -> dict[str, Any]:
    report: dict[str, Any] = {"function_words": _accuracy(lambda t: detect_language(t).lang, entries)}
    try:
        import lingua  # noqa: F401
    except ImportError:
        report["lingua"] = "not installed"
        return report
    for mode in ("default", "low_accuracy"):  # each in a fresh process: load time and memory are its own
        child = subprocess.run([sys.executable, __file__, "--lingua-mode", mode], capture_output=True, text=True,
                               check=True, timeout=300)
        report[f"lingua_{mode}"] = json.loads(child.stdout)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--languages", action="store_true", help="compare language detectors too")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--lingua-mode", help=argparse.SUPPRESS)  # child process of --languages
    args = parser.parse_args()
    entries = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    if args.lingua_mode:
        print(json.dumps(lingua_mode(args.lingua_mode, entries)))
        return
    report: dict[str, Any] = {"parse": timings([e["text"] for e in entries], args.repeats)}
    if args.languages:
        report["languages"] = languages(entries)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    p = report["parse"]
    print(f"parse_message over {p['messages']} corpus messages x {p['repeats']}: median {p['median_ms']} ms, "
          f"p95 {p['p95_ms']} ms, max {p['max_ms']} ms (target < {TARGET_MS} ms median: "
          f"{'met' if p['meets_target'] else 'MISSED'})")
    print(f"baseline (one compiled regex pass): median {p['baseline_median_ms']} ms; parser = "
          f"{p['ratio_to_baseline']}x baseline; first message (indexes built) {p['first_message_ms']} ms")
    for name, result in report.get("languages", {}).items():
        if isinstance(result, str):
            print(f"{name}: {result}")
            continue
        extra = f", load {result['load_s']} s, +{result['rss_growth_mb']} MB" if "load_s" in result else ""
        print(f"{name}: right {result['right']}, undecided {result['undecided']}, wrong {result['wrong']} "
              f"({result['ms_per_message']} ms/message{extra}); short answers: {result['short_answers']}")


if __name__ == "__main__":
    main()
