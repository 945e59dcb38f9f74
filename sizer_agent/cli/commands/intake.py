"""`sizer-agent intake --answers FILE`: the interview without the app (self-service, scripts, CI)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml

from sizer_agent.agent.events import AgentMessage
from sizer_agent.agent.intake import run_intake
from sizer_agent.agent.questions import QUESTIONS
from sizer_agent.cli.commands._store_args import EXIT_USAGE, add_db_argument, open_store, report_store_error
from sizer_agent.store import StoreError

NAME = "intake"
ORDER = 30
HELP = "run the sizing interview from an answers file (YAML or JSON) and store the session"
_FIELDS = "\n".join(
    f"  {q.id:<24} {q.label['en']}" + ("" if q.applies_doc == "always" else f"  [{q.applies_doc}]")
    + (f"  default: {q.default_doc['en']}" if q.has_default() else "  (required, no default)")
    for q in QUESTIONS
)
DESCRIPTION = f"""\
Runs the same interview as the app, headless: reads every answer from FILE, checks them all, lists every
missing or invalid answer at once (exit 2, nothing stored), else stores a session, runs the tools
(estimate_memory, then recommend when installed) and prints the result.

Values may be typed or free text read like a chat answer:
  use_case: online_serving           model: "Llama 3.1 70B Instruct"     precision: fp8
  context_len: "8k"                  input_len: 2048                     output_len: "512"
  concurrency: 32                    growth_factor: "x2"                 ttft_ms: "500 ms"
  dataset_size_bytes: "1,5 To"       budget_eur: "pas de limite"         ecc_required: "oui"
  tpot_ms: "je ne sais pas"          -> the documented default, marked as an assumption
Optional: lang (fr|en), title, model_revision, custom_architecture {{hidden_size, num_layers, ...}},
server_url (a running OpenAI-compatible server to benchmark).

Questions (which ones are required depends on use_case):
{_FIELDS}

--json prints: {{"ok": bool, "session_id": int|null, "lang", "title", "problems": [{{"field", "kind":
missing|invalid|unknown_field|tool, "message"}}], "profile": {{...}}, "assumed": [field], "events": [...]}}
Exit codes: 0 stored; 2 missing/invalid answers or a tool refused them (nothing stored); 1 database error.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--answers", required=True, metavar="FILE", help="answers file, .yaml/.yml or .json")
    parser.add_argument("--lang", choices=("fr", "en"), default=None, help="language of the session")
    parser.add_argument("--no-tools", action="store_true", help="store the profile without running the tools")
    parser.add_argument("--json", action="store_true", help="machine-readable result (schema above)")
    add_db_argument(parser)


def _load(path: str) -> Any:
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    if path.endswith(".json"):
        return json.loads(text)
    return yaml.safe_load(text)  # YAML is a superset of JSON: other extensions read either


def run(args: argparse.Namespace) -> int:
    try:
        data = _load(args.answers)
    except (OSError, json.JSONDecodeError, yaml.YAMLError) as error:
        print(f"sizer-agent intake: error: answers: cannot read {args.answers}: {error}".splitlines()[0],
              file=sys.stderr)
        return EXIT_USAGE
    result = run_intake(data, lang=args.lang, run_tools=not args.no_tools)
    session_id = None
    if result.ok:
        from pydantic import TypeAdapter

        from sizer_agent.agent.events import Event

        events = TypeAdapter(list[Event]).validate_python(result.events)
        try:
            with open_store(args) as store:
                session_id = store.create_session(title=result.title, lang=result.lang, events=events)
        except StoreError as error:
            return report_store_error(NAME, error)
    if args.json:
        print(json.dumps({"session_id": session_id, **result.model_dump(mode="json")}, ensure_ascii=False,
                         indent=2))
    else:
        if not result.ok:
            print(f"sizer-agent intake: {len(result.problems)} problem(s) in {args.answers}, nothing stored:",
                  file=sys.stderr)
            for problem in result.problems:
                print(f"  {problem.field}: {problem.kind}: {problem.message}", file=sys.stderr)
        else:
            for event in result.events:
                if event.get("kind") == "message" and event.get("tone") in ("result", "error"):
                    print(AgentMessage.model_validate(event).text)
            if result.assumed:
                print(("assumed (documented defaults): " if result.lang == "en" else "hypothèses (défauts "
                       "documentés) : ") + ", ".join(result.assumed))
            print(f"stored as session {session_id}")
    return 0 if result.ok else EXIT_USAGE
