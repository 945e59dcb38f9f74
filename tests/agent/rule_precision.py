"""Per-rule precision over every development corpus: how many values each rule produced, how many were right,
wrong or invented (not stated), and how many were not labelled at all. Rerun after any parser change:

    PYTHONPATH=$PWD python -m tests.agent.rule_precision [--field FIELD] [--wrong]

A rule whose values are often wrong, or whose values come from weak cues, should abstain unless corroborated:
a wrong value costs far more than a question (issue #11).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from sizer_agent.agent.understanding import parse_message
from tests.agent.corpus_score import CORPUS, SCHEMA_FIELDS, load, same

PRECISION = Path(__file__).parent / "precision"
# every corpus that is development data (never a fresh held-out set before it is scored once)
DEV_CORPORA = ("dev.yaml", *(f"heldout{n}.yaml" for n in range(1, 12)))


@dataclass
class RuleCount:
    right: int = 0
    wrong: int = 0  # a value other than the label, or a value where the label says nothing
    cases: list[str] = field(default_factory=list)


def entries() -> list[tuple[str, dict]]:
    found = [(name, entry) for name in DEV_CORPORA if (CORPUS / name).exists() for entry in load(name)]
    own = PRECISION / "own.yaml"
    if own.exists():
        import yaml
        found += [("own.yaml", entry) for entry in yaml.safe_load(own.read_text(encoding="utf-8")) or []]
    return found


def measure(field_filter: str | None = None) -> dict[tuple[str, str], RuleCount]:
    counts: dict[tuple[str, str], RuleCount] = defaultdict(RuleCount)
    for corpus, entry in entries():
        expect = entry.get("expect") or {}
        result = parse_message(str(entry.get("text") or ""))
        for name, finding in result.findings.items():
            if name not in SCHEMA_FIELDS or finding.value is None or (field_filter and name != field_filter):
                continue
            count = counts[(finding.rule, name)]
            wanted = expect.get(name)
            if wanted is not None and same(wanted, finding.value):
                count.right += 1
                continue
            count.wrong += 1
            label = "not stated" if name not in expect else f"expected {wanted!r}"
            count.cases.append(f"{corpus} {entry['id']}: {label}, got {finding.value!r} from {finding.words!r}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--field", help="only this field")
    parser.add_argument("--wrong", action="store_true", help="list each wrong value under its rule")
    parser.add_argument("--min-wrong", type=int, default=0, help="only rules with at least this many wrong")
    args = parser.parse_args()
    counts = measure(args.field)
    print(f"{'rule':<40}{'field':<22}{'values':>7}{'wrong':>7}{'precision':>10}")
    for (rule, name), c in sorted(counts.items(), key=lambda kv: (-kv[1].wrong, kv[0])):
        if c.wrong < args.min_wrong:
            continue
        total = c.right + c.wrong
        print(f"{rule:<40}{name:<22}{total:>7}{c.wrong:>7}{c.right / total:>10.1%}")
        if args.wrong:
            for case in c.cases:
                print("    " + case)
    right = sum(c.right for c in counts.values())
    wrong = sum(c.wrong for c in counts.values())
    print(f"{'all':<62}{right + wrong:>7}{wrong:>7}{right / max(1, right + wrong):>10.1%}")


if __name__ == "__main__":
    main()
