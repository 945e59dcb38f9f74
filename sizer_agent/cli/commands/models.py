"""`sizer-agent models`: the bundled model registry."""

from __future__ import annotations

import argparse
import json

from sizer_agent.cli.units import params
from sizer_agent.tools.model_loader import load_model, registry_entries

NAME = "models"
ORDER = 15
HELP = "list the bundled models (names usable with --model), with parameter counts and provenance"
DESCRIPTION = """\
The models the seed documents name, bundled with their config.json so that sizing works offline.
Any other model works too: pass a config.json path, a folder holding one, or a Hub id (org/name, with
--revision) which is fetched once and cached. None of the bundled configs is tied to a Hub revision:
each is reported as unpinned.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the registry as JSON")


def run(args: argparse.Namespace) -> int:
    rows = []
    for entry in registry_entries():
        spec = load_model(entry["id"])
        rows.append({
            "id": entry["id"], "aliases": entry["aliases"], "title": entry["title"],
            "revision": entry["revision"] or None, "architecture": spec.architecture,
            "params_total": spec.params_total, "params_active": spec.params_active,
            "max_position_embeddings": spec.max_position_embeddings, "provenance": entry["provenance"],
        })
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    name_w = max(len("name"), *(len(row["aliases"][0]) for row in rows)) + 2  # the longest name sets the column
    id_w = max(len("id"), *(len(row["id"]) for row in rows)) + 2
    print(f"{'name':<{name_w}}{'id':<{id_w}}{'params':>10}{'active':>10}  context")
    for row in rows:
        print(f"{row['aliases'][0]:<{name_w}}{row['id']:<{id_w}}{params(row['params_total']):>10}"
              f"{params(row['params_active']):>10}  {row['max_position_embeddings']:,}")
    print("\nrevision: every bundled config is unpinned (not tied to a Hub commit)")
    return 0
