"""Score the parser on a brief corpus (tests/agent/corpus/SCHEMA.md): recall and wrong values per field."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sizer_agent.agent.understanding import parse_message

CORPUS = Path(__file__).parent / "corpus"
# The schema's field vocabulary: only these are scored (model_family, model_revision... are not labelled).
SCHEMA_FIELDS = (
    "customer", "use_case", "model", "precision", "input_len", "output_len", "context_len", "concurrency",
    "head_count", "batch_size", "image_resolution", "growth_factor", "ttft_ms", "tpot_ms", "dataset_size_bytes",
    "optimizer", "checkpoint_interval_min", "num_gpus", "gpu_preference", "rendering_cad", "ecc_required",
    "deployment", "budget_eur", "power_limit_w", "rack_units", "framework", "framework_version",
)


def load(name: str) -> list[dict[str, Any]]:
    """A corpus file of this folder, by its exact name (never a glob: the held-out set stays unread)."""
    data = yaml.safe_load((CORPUS / name).read_text(encoding="utf-8"))
    return list(data or [])


def same(expected: Any, found: Any) -> bool:
    if isinstance(expected, bool) or isinstance(found, bool):
        return expected is found
    if isinstance(expected, int | float) and isinstance(found, int | float):
        return float(expected) == float(found)
    if isinstance(expected, str) and isinstance(found, str):
        return expected.strip().lower() == found.strip().lower()
    return bool(expected == found)


@dataclass
class FieldScore:
    expected: int = 0
    found: int = 0
    wrong: int = 0


@dataclass
class Score:
    fields: dict[str, FieldScore] = field(default_factory=dict)
    wrong_values: list[str] = field(default_factory=list)  # "id field: expected X, got Y"
    misses: list[str] = field(default_factory=list)
    entries: int = 0
    fully_understood: int = 0

    @property
    def expected(self) -> int:
        return sum(s.expected for s in self.fields.values())

    @property
    def found(self) -> int:
        return sum(s.found for s in self.fields.values())

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    def table(self) -> str:
        lines = [f"{'field':<26}{'expected':>9}{'found':>7}{'wrong':>7}{'recall':>8}"]
        for name in sorted(self.fields, key=lambda n: (-self.fields[n].expected, n)):
            s = self.fields[name]
            recall = f"{s.found / s.expected:.1%}" if s.expected else "—"
            lines.append(f"{name:<26}{s.expected:>9}{s.found:>7}{s.wrong:>7}{recall:>8}")
        lines.append(f"{'all':<26}{self.expected:>9}{self.found:>7}{len(self.wrong_values):>7}{self.recall:>8.1%}")
        return "\n".join(lines)

    def summary(self, title: str) -> str:
        parts = [f"{title}: {self.entries} messages, {self.fully_understood} fully understood, recall "
                 f"{self.recall:.1%} ({self.found}/{self.expected}), {len(self.wrong_values)} wrong values",
                 self.table()]
        if self.wrong_values:
            parts.append("wrong values:\n  " + "\n  ".join(self.wrong_values))
        if self.misses:
            parts.append("missed:\n  " + "\n  ".join(self.misses))
        return "\n".join(parts)


def score(entries: list[dict[str, Any]]) -> Score:
    result = Score()
    for entry in entries:
        result.entries += 1
        expect = entry.get("expect") or {}
        values = parse_message(str(entry.get("text") or "")).values
        got = {k: v for k, v in values.items() if k in SCHEMA_FIELDS and v is not None}
        perfect = True
        for name, wanted in expect.items():
            s = result.fields.setdefault(name, FieldScore())
            if wanted is None:
                if name in got:
                    s.wrong += 1
                    perfect = False
                    result.wrong_values.append(f"{entry['id']} {name}: expected nothing, got {got[name]!r}")
                continue
            s.expected += 1
            if name in got and same(wanted, got[name]):
                s.found += 1
            elif name in got:
                s.wrong += 1
                perfect = False
                result.wrong_values.append(f"{entry['id']} {name}: expected {wanted!r}, got {got[name]!r}")
            else:
                perfect = False
                result.misses.append(f"{entry['id']} {name}: expected {wanted!r}")
        for name, value in got.items():
            if name not in expect:
                s = result.fields.setdefault(name, FieldScore())
                s.wrong += 1
                perfect = False
                result.wrong_values.append(f"{entry['id']} {name}: not stated, got {value!r}")
        result.fully_understood += perfect
    return result
