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
The models the sizing guidance names (docs/method.md), bundled with their config.json so that sizing works offline.
Any other model works too: pass a config.json path, a folder holding one, or a Hub id (org/name, with
--revision) which is fetched once and cached. None of the bundled configs is tied to a Hub revision:
each is reported as unpinned.

"active" is what one token's matrix products use: the total minus the input embedding table (a lookup, not a
product; with tied embeddings the same table is the output layer, so it counts) and, for a mixture of
experts, minus the experts a token is not routed to. Llama 3.1 8B: 8.03 B total, 7.50 B active, the
difference being its 128,256 x 4,096 embedding table.
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
    print("\nactive: parameters one token's matrix products use: the total minus the input embedding table (a lookup;")
    print("        tied embeddings count, as the output layer) and, for MoE, minus the experts it is not routed to")
    print("revision: every bundled config is unpinned (not tied to a Hub commit)")
    return 0
