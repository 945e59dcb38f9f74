"""Which rules made the wrong values of each held-out set when it was still fresh: every set is re-scored with the
parser of the commit it was scored with once (tests/agent/corpus/README.md), and each wrong value is traced to the
rule that produced it. In-sample precision (tests/agent/rule_precision.py) is near 100 % for every rule after the
fixes; this is the precision that matters, on phrasings the rules had not seen.

    PYTHONPATH=$PWD python -m tests.agent.fresh_rule_precision

Needs the git history (each commit's parser is extracted with `git archive` into a temporary folder).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from tests.agent.corpus_score import SCHEMA_FIELDS

ROOT = Path(__file__).resolve().parents[2]
# the set, and the commit of the parser it was first scored with (tests/agent/corpus/README.md)
FIRST_SCORED = {
    "heldout5.yaml": "6604ecf", "heldout6.yaml": "50efb65", "heldout7.yaml": "dbc4d37", "heldout8.yaml": "e4207b0",
    "heldout9.yaml": "b3f08ca", "heldout10.yaml": "ad186d2", "heldout11.yaml": "36c0837",
    "heldout12.yaml": "1952cb8", "heldout13.yaml": "fa1fb41", "heldout14.yaml": "a5356b0",
    "heldout15.yaml": "176fb8e", "heldout16.yaml": "964de4d", "heldout17.yaml": "06872d0",
    "heldout18.yaml": "1bcc80c",
    "heldout19.yaml": "3ed3514",
    "heldout20.yaml": "dbc83ef",
    "heldout21.yaml": "0979052", "heldout22.yaml": "a9f440f", "heldout23.yaml": "bc9f4ae",
    "heldout24.yaml": "bbab9f5", "heldout25.yaml": "085995f", "heldout26.yaml": "085995f",
    "heldout27.yaml": "cbc6f04", "heldout28.yaml": "4cc1b40",
    "heldout29.yaml": "cebcc42", "heldout30.yaml": "86c0e8a", "heldout31.yaml": "48e73f7",
    "heldout32.yaml": "9501ce7", "heldout33.yaml": "122b1d0",
    "heldout34.yaml": "b413402",
    "heldout35.yaml": "8386121",
    "heldout36.yaml": "712dfc2",
    "heldout37.yaml": "d0984b5",
    "heldout38.yaml": "0b9d001",
    "heldout39.yaml": "03a0e3e",
    "heldout40.yaml": "8c91c5f",
    "heldout41.yaml": "eaa79aa",
    "heldout42.yaml": "18ac364",
    "heldout43.yaml": "d9d8490",
    "heldout44.yaml": "dc294c5",
    "heldout45.yaml": "028307b",
}
_CHILD = """
import json, sys, yaml
from sizer_agent.agent.understanding import parse_message
SCHEMA_FIELDS = set(json.loads(sys.argv[2]))
def same(a, b):  # as tests/agent/corpus_score.py
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return float(a) == float(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    return a == b
out = []
for entry in yaml.safe_load(open(sys.argv[1], encoding="utf-8")) or []:
    expect = entry.get("expect") or {}
    result = parse_message(str(entry.get("text") or ""))
    for name, f in getattr(result, "findings", {}).items():
        if name not in SCHEMA_FIELDS or f.value is None:
            continue
        wanted = expect.get(name)
        ok = wanted is not None and same(wanted, f.value)
        out.append([entry["id"], name, f.rule, ok, repr(f.value), f.words])
print(json.dumps(out))
"""


def fresh_findings(corpus: str, commit: str) -> list[list]:
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "sizer_agent", "tools", "templates"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        child = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT / "tests/agent/corpus" / corpus),
                                json.dumps(SCHEMA_FIELDS)],
                               check=True, capture_output=True, text=True, cwd=tmp, env={"PYTHONPATH": tmp})
        return json.loads(child.stdout)


def main() -> None:
    values: Counter[tuple[str, str]] = Counter()
    wrong: Counter[tuple[str, str]] = Counter()
    for corpus, commit in FIRST_SCORED.items():
        for entry_id, name, rule, ok, value, words in fresh_findings(corpus, commit):
            values[(rule, name)] += 1
            if not ok:
                wrong[(rule, name)] += 1
                print(f"{corpus} {entry_id} {name}: {value} from {words!r} ({rule})")
    print(f"\n{'rule':<32}{'field':<22}{'values':>7}{'wrong':>7}{'precision':>10}   (sets as first scored)")
    for key in sorted(values, key=lambda k: (-wrong[k], k)):
        if wrong[key]:
            print(f"{key[0]:<32}{key[1]:<22}{values[key]:>7}{wrong[key]:>7}{1 - wrong[key] / values[key]:>10.1%}")
    total, bad = sum(values.values()), sum(wrong.values())
    print(f"{'all':<54}{total:>7}{bad:>7}{1 - bad / total:>10.1%}")


if __name__ == "__main__":
    main()
