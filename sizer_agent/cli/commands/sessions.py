"""`sizer-agent sessions list|show|export|import|delete`: the stored interviews."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sizer_agent.agent.questions import field_label
from sizer_agent.agent.wording import format_value
from sizer_agent.cli.commands._store_args import EXIT_USAGE, add_db_argument, open_store, report_store_error
from sizer_agent.cli.numbers import session_id
from sizer_agent.safe_text import printable, printable_data
from sizer_agent.store import FORMAT, SessionStore, StoreError
from sizer_agent.store.export import MAX_EXPORT_BYTES, check_export
from sizer_agent.tools.input_files import check_output, read_json, write_atomic

NAME = "sessions"
ORDER = 40
HELP = "list, show, export, import, delete or salvage stored interview sessions"
DESCRIPTION = f"""\
Every interview is a session in one SQLite file (WAL journal; each answer is committed as it is given,
so a crash loses nothing). The file is $SIZER_AGENT_DB, or --db, or sessions.db in the user data
directory. A damaged file is reported and left untouched.

  sizer-agent sessions list [--json]        all sessions, oldest first
  sizer-agent sessions show ID [--json]     answers (with assumptions), tool calls, proposals
  sizer-agent sessions export ID [-o FILE]  the session as JSON ({FORMAT})
  sizer-agent sessions import FILE          store an exported session under a new id
  sizer-agent sessions delete ID            remove a session and everything recorded in it
  sizer-agent sessions salvage DAMAGED.db   copy every readable session of a damaged database (read-only)
                                            into --db, under new ids; lists what could not be read

`list --json` prints a JSON list, oldest first; each item has: id, title, customer, lang, created,
updated (ISO 8601 UTC), answers (fields answered), tool_calls.
`show --json` and `export` print the export format: format, id, title, customer, created, updated, lang,
answers {{field: {{value, assumed, raw_text, history[{{value, raw_text, at}}]}}}}, tool_calls[{{call_id, tool,
arguments, ok, result, error, duration_ms, created}}], benchmarks[], proposals[{{format, lang, created,
path}}], events[].
"""


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = sub.add_parser("list", help="all sessions, oldest first")
    listing.add_argument("--json", action="store_true", help="JSON list (schema in `sessions --help`)")
    show = sub.add_parser("show", help="one session: answers, assumptions, tool calls")
    show.add_argument("id", type=session_id)
    show.add_argument("--json", action="store_true", help="the export format")
    export = sub.add_parser("export", help=f"one session as JSON ({FORMAT})")
    export.add_argument("id", type=session_id)
    export.add_argument("-o", "--output", metavar="FILE", help="write there instead of stdout")
    imp = sub.add_parser("import", help="store an exported session under a new id")
    imp.add_argument("file", help="a JSON file written by `sessions export` (- for stdin)")
    imp.add_argument("--json", action="store_true", help='print {"id": NEW_ID}')
    delete = sub.add_parser("delete", help="remove a session")
    delete.add_argument("id", type=session_id)
    salvage = sub.add_parser("salvage", help="copy the readable sessions of a damaged database into --db")
    salvage.add_argument("damaged", help="the damaged database file (opened read-only, never modified)")
    add_db_argument(parser)
    for p in (listing, show, export, imp, delete, salvage):
        add_db_argument(p, nested=True)


def _print_session(data: dict[str, Any]) -> None:
    data = printable_data(data)  # ESC and other control bytes of stored text shown, never interpreted
    lang = data.get("lang", "fr")
    print(f"session {data['id']} · {data['title'] or '(untitled)'}  [{lang}]")
    print(f"created {data['created']}  updated {data['updated']}")
    answers = data["answers"]
    if answers:
        width = max(len(field_label(f, lang)) for f in answers)
        for field, answer in answers.items():
            mark = "  (assumed)" if answer["assumed"] else ""
            versions = len(answer["history"])
            changed = f"  ({versions} values given)" if versions > 1 else ""
            shown = format_value(field, answer["value"], lang)
            print(f"  {field_label(field, lang):<{width}}  {shown}{mark}{changed}")
    for call in data["tool_calls"]:
        status = "ok" if call["ok"] else ("failed: " + (call["error"] or "") if call["ok"] is False else "no result")
        duration = f" {call['duration_ms']:.0f} ms" if call["duration_ms"] is not None else ""
        print(f"  tool {call['tool']} {status}{duration}")
    for bench in data["benchmarks"]:
        print(f"  benchmark {json.dumps(bench)[:100]}")
    for proposal in data["proposals"]:
        print(f"  proposal {proposal['format']} {proposal['lang']} {proposal['path']}")


def run(args: argparse.Namespace) -> int:
    # the inputs are checked before the database is opened: a bad one changes nothing, creates nothing
    if getattr(args, "output", None):
        check_output(args.output, "--output")
    document: Any = None
    try:
        if args.action == "import":
            document = read_json(args.file, "file", max_bytes=MAX_EXPORT_BYTES, allow_stdin=True)
            check_export(document)
        with open_store(args) as store:
            if args.action == "list":
                sessions = [s.model_dump() for s in store.list_sessions()]
                if args.json:
                    print(json.dumps(sessions, ensure_ascii=False, indent=2))
                elif not sessions:
                    print(f"no sessions in {store.path}")
                else:
                    print(f"sessions in {store.path} (--db or $SIZER_AGENT_DB picks another file)")
                    for s in sessions:
                        print(f"{s['id']:>5}  {s['created'][:19].replace('T', ' ')}  {s['answers']:>3} answers  "
                              f"{printable(s['title'], one_line=True) or '(untitled)'}")
                return 0
            if args.action in ("show", "export"):
                data = store.export_session(args.id)
                if args.action == "show" and not args.json:
                    _print_session(data)
                    return 0
                text = json.dumps(data, ensure_ascii=False, indent=2)
                if getattr(args, "output", None):
                    write_atomic(args.output, text + "\n", "--output")
                    print(f"wrote session {args.id} to {args.output}", file=sys.stderr)
                else:
                    print(text)
                return 0
            if args.action == "import":
                new_id = store.import_session(document)
                print(json.dumps({"id": new_id}) if args.json else f"imported as session {new_id}")
                return 0
            if args.action == "salvage":
                if Path(args.damaged).resolve() == store.path.resolve():
                    print("sizer-agent sessions: error: --db: must be another file than the damaged one",
                          file=sys.stderr)
                    return EXIT_USAGE
                exports, problems = SessionStore.salvage(args.damaged)
                for data in exports:
                    new_id = store.import_session(data)
                    print(f"session {data['id']} ({printable(data['title'], one_line=True) or 'untitled'}) -> "
                          f"session {new_id} in {store.path}")
                for problem in problems:
                    print(f"not recovered: {problem}", file=sys.stderr)
                return 0 if not problems else 1
            if args.action == "delete":
                store.delete_session(args.id)
                print(f"deleted session {args.id}")
                return 0
    except StoreError as error:
        return report_store_error(NAME, error)
    return EXIT_USAGE
