"""`sizer-agent intake --answers FILE` / `--brief FILE|-`: the interview without the app (self-service,
scripts, CI); a brief is a customer's free text, read like a first chat message."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import TYPE_CHECKING, Any

from sizer_agent.agent.questions import QUESTIONS
from sizer_agent.cli.commands._store_args import EXIT_USAGE, add_db_argument, open_store, report_store_error
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.input_files import decode_text, read_bytes, read_data

if TYPE_CHECKING:
    from sizer_agent.agent.intake import BriefReading, IntakeResult

NAME = "intake"
ORDER = 30
HELP = "run the sizing interview from an answers file (YAML or JSON) or a free-text brief, and store the session"
MAX_BRIEF_BYTES = 100_000  # a customer's e-mail is a few kB; more is not a brief (and would be read slowly)
_FIELDS = "\n".join(
    f"  {q.id:<24} {q.label['en']}" + ("" if q.applies_doc == "always" else f"  [{q.applies_doc}]")
    + (f"  default: {q.default_doc['en']}" if q.has_default() else "  (required, no default)")
    for q in QUESTIONS
)
DESCRIPTION = f"""\
Runs the same interview as the app, headless.

--answers FILE: reads every answer from FILE, checks them all, lists every missing or invalid answer at
once (exit 2, nothing stored), else stores a session, runs the tools (estimate_memory, then recommend
when installed) and prints the result.

--brief FILE (or - for standard input): reads a free-text brief (a customer's e-mail, French or English)
and prints what was understood, each field with the words it came from, and the questions still open
with what "I don't know" would record. Nothing is stored. With --answers too, the answers win and the
brief fills the fields they leave out; then the tools run and the session is stored as with --answers.

--assume-defaults answers "I don't know" to every question still open that has a default, so a brief
alone is enough to size: `sizer-agent intake --brief email.txt --assume-defaults`, then
`sizer-agent propose SESSION_ID`. Each default is listed as an assumption in the proposal.

Values may be typed or free text read like a chat answer:
  use_case: online_serving           model: "Llama 3.1 70B Instruct"     precision: fp8
  context_len: "8k"                  input_len: 2048                     output_len: "512"
  concurrency: 32                    growth_factor: "x2"                 ttft_ms: "500 ms"
  dataset_size_bytes: "1,5 To"       budget_eur: "pas de limite"         ecc_required: "oui"
  tpot_ms: "je ne sais pas"          -> the documented default, marked as an assumption
Optional: lang (fr|en), title, model_revision, custom_architecture {{hidden_size, num_layers, ...}},
server_url (a running OpenAI-compatible server to benchmark), head_count (everyone who will use it),
gpu_preference (a catalogue GPU id, e.g. h100-sxm), budget_usd / budget_usd_per_month (a budget in US
dollars, converted at the catalogue's rate), epochs (training: passes over the data), workstations (identical
machines bought together: one is sized, the answer prices them all).

Questions (which ones are required depends on use_case):
{_FIELDS}

--json prints, with --answers: {{"ok": bool, "session_id": int|null, "lang", "title", "problems": [{{"field",
"kind": missing|invalid|unknown_field|tool, "message"}}], "profile": {{...}}, "assumed": [field],
"events": [...], "brief": <as below>|null}}
and with --brief alone: {{"ok": true, "source", "lang", "understood": [{{"field", "value", "words",
"span": [start, end], "approximate": bool, "rule"}}], "dropped": [problem], "suggestions": {{field:
[value]}}, "to_confirm": [field], "candidates": {{field: [value as an id or number]}}, "open": [{{"field",
"question", "default": str|null}}], "read_chars": int, "truncated": bool,
"profile": {{...}}}} (a brief is read up to 20,000 characters)

Exit codes: 0 brief read, or session stored; 2 bad input (a file missing, binary, empty or larger than
{MAX_BRIEF_BYTES:,} bytes; answers missing or invalid; a tool refused them; a damaged database; nothing
stored).
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--answers", metavar="FILE", help="answers file, .yaml/.yml or .json")
    parser.add_argument("--brief", metavar="FILE", help="free-text brief, UTF-8 (- reads standard input)")
    parser.add_argument("--lang", choices=("fr", "en"), default=None,
                        help="language of the session (default: the answers file's, else the brief's)")
    parser.add_argument("--assume-defaults", action="store_true",
                        help="answer \"I don't know\" to every open question that has a default (each is recorded "
                             "as an assumption), then store the session and size it; works with --brief alone")
    parser.add_argument("--no-tools", action="store_true", help="store the profile without running the tools")
    parser.add_argument("--json", action="store_true", help="machine-readable result (schema above)")
    add_db_argument(parser)


MAX_ANSWERS_BYTES = 1_000_000  # an answers file is a few hundred bytes; a custom architecture a few more


def _load(path: str) -> Any:
    """JSON for .json, else YAML (a superset of JSON), through the input reader: a regular file or stdin,
    UTF-8, at most MAX_ANSWERS_BYTES, no YAML aliases; InputError (exit 2, one line) otherwise."""
    return read_data(path, "answers", max_bytes=MAX_ANSWERS_BYTES, max_depth=16, allow_stdin=True)


class BriefError(ValueError):
    """The brief cannot be read; the message names the problem."""


def read_brief_file(path: str) -> str:
    """The text of a brief file (or of standard input for "-"), or BriefError with one line saying why."""
    name = "standard input" if path == "-" else path
    try:  # a regular file (a FIFO or a device would block or never end) or stdin, UTF-8, bounded
        data = read_bytes(path, "brief", max_bytes=MAX_BRIEF_BYTES, allow_stdin=True)
        text = decode_text(data, "brief", path)
    except InputError as error:
        too_large = "larger than" in error.message
        raise BriefError(error.message + (": not a brief (paste the customer's text)" if too_large else "")) from None
    if not text.strip():
        raise BriefError(f"{name} is empty")
    return text


# "no AI at all", "pas d'IA", "sans IA": a brief that says it asks for no AI workload
_NO_AI = re.compile(r"\b(?:no ai|no machine learning|no llms?|pas d'ia|pas d'intelligence artificielle|sans ia"
                    r"|aucune ia)\b", re.IGNORECASE)


def run(args: argparse.Namespace) -> int:
    if not args.answers and not args.brief:
        print("sizer-agent intake: error: give --answers FILE, --brief FILE, or both (see --help)", file=sys.stderr)
        return EXIT_USAGE
    brief: BriefReading | None = None
    brief_text = ""
    if args.brief:
        from sizer_agent.agent.engine import bundled_model_names
        from sizer_agent.agent.intake import read_brief

        try:
            text = brief_text = read_brief_file(args.brief)
        except BriefError as error:
            print(f"sizer-agent intake: error: brief: {error}", file=sys.stderr)
            return EXIT_USAGE
        brief = read_brief(text, args.lang, bundled_model_names())
        if not args.answers and not args.assume_defaults:
            _print_brief(brief, args)
            return 0
    data: Any = {}
    if args.answers:
        data = _load(args.answers)
    from sizer_agent.agent.intake import run_intake

    result = run_intake(data, lang=args.lang, run_tools=not args.no_tools, brief=brief,
                        assume_defaults=args.assume_defaults)
    answered = set(data) if isinstance(data, dict) else set()
    return _store_and_print(result, brief, args, answered, no_ai=bool(_NO_AI.search(brief_text)))


def _store_and_print(
    result: IntakeResult, brief: BriefReading | None, args: argparse.Namespace, answered: set[str],
    no_ai: bool = False,
) -> int:
    from sizer_agent.i18n import render

    session_id = None
    if result.ok:
        from pydantic import TypeAdapter

        from sizer_agent.agent.events import Event
        from sizer_agent.store import StoreError

        events = TypeAdapter(list[Event]).validate_python(result.events)
        try:
            with open_store(args) as store:
                session_id = store.create_session(title=result.title, lang=result.lang, events=events)
        except StoreError as error:
            return report_store_error(NAME, error)
    if args.json:
        print(json.dumps({"session_id": session_id, **result.model_dump(mode="json"),
                          "brief": brief.model_dump(mode="json") if brief else None}, ensure_ascii=False, indent=2))
        return 0 if result.ok else EXIT_USAGE
    lang = result.lang
    if brief is not None:
        _print_understood(brief, lang, answered)
    if not result.ok:
        # the problems themselves are written in English (as every error of the command line): so is their header
        source = args.answers or args.brief
        if len(result.problems) == 1:  # one mistake: the one line every command prints for bad input
            problem = result.problems[0]
            print(f"sizer-agent intake: error: {problem.field}: {problem.kind}: {problem.message} "
                  f"({source}, nothing stored)", file=sys.stderr)
            return EXIT_USAGE
        print(render("en", "intake.problems", n=len(result.problems), source=source), file=sys.stderr)
        for problem in result.problems:
            print(f"  {problem.field}: {problem.kind}: {problem.message}", file=sys.stderr)
        if no_ai and {"use_case", "model"} <= {p.field for p in result.problems if p.kind == "missing"}:
            # "new workstations for Houdini/Redshift, no AI at all": not a brief this tool sizes — said so
            print("  (the brief names no AI workload: sizer-agent sizes model serving, batch inference, "
                  "fine-tuning, training and vision jobs; a rendering- or CAD-only workstation is outside it)",
                  file=sys.stderr)
        return EXIT_USAGE
    from sizer_agent.agent.events import AgentMessage

    for event in result.events:
        if event.get("kind") == "message" and event.get("tone") in ("result", "error"):
            print(AgentMessage.model_validate(event).text)
    if result.assumed:
        print(render(lang, "intake.assumed", fields=", ".join(result.assumed)))
    print(render(lang, "intake.stored", id=session_id))
    return 0


def _print_brief(brief: BriefReading, args: argparse.Namespace) -> None:
    if args.json:
        from sizer_agent.agent.profile import WorkloadProfile

        profile = WorkloadProfile.model_validate(brief.values).model_dump(mode="json", exclude_none=True)
        source = "-" if args.brief == "-" else args.brief
        print(json.dumps({"ok": True, "source": source, **brief.model_dump(mode="json"), "profile": profile},
                         ensure_ascii=False, indent=2))
        return
    _print_understood(brief, brief.lang)
    from sizer_agent.i18n import render

    lang = brief.lang
    if brief.open:
        print(render(lang, "intake.open", n=len(brief.open)))
        width = max(len(q.field) for q in brief.open)
        for question in brief.open:
            default = render(lang, "intake.open_default", default=question.default) if question.default else (
                render(lang, "intake.open_required"))
            print(f"  {question.field:<{width}}  {question.question}  {default}")
    else:
        print(render(lang, "intake.complete"))


def _print_understood(brief: BriefReading, lang: Any, answered: set[str] | frozenset[str] = frozenset()) -> None:
    """Each field with the words it came from; approximate values marked, and those the answers file
    replaced; refused values and suggestions."""
    from sizer_agent.agent.questions import field_label
    from sizer_agent.agent.wording import did_you_mean, format_value, to_confirm, unsupported_said
    from sizer_agent.i18n import render

    if brief.truncated:
        print(render(lang, "intake.truncated", n=brief.read_chars))
    print(render(lang, "intake.understood", n=len(brief.understood)))
    rows = [(field_label(f.field, lang), format_value(f.field, f.value, lang), f) for f in brief.understood]
    label_width = max((len(label) for label, _, _ in rows), default=0)
    value_width = max((len(value) for _, value, _ in rows), default=0)
    for label, value, finding in rows:
        status = render(lang, "intake.replaced" if finding.field in answered else (
            "intake.approximate" if finding.approximate else "intake.given"))
        print(render(lang, "intake.row", label=f"{label:<{label_width}}", value=f"{value:<{value_width}}",
                     status=f"{status:<10}", words=finding.words.replace("\n", " ")))
    for problem in brief.dropped:
        print(render(lang, "intake.dropped", field=problem.field, reason=problem.message))
    for kind, words in brief.unsupported:
        print(unsupported_said(kind, words, lang))
    for field, names in brief.suggestions.items():
        if field in brief.to_confirm and names:
            # in the catalogue's words ("vLLM or SGLang", "15 000 €"), as the app offers them
            raw = brief.candidates.get(field) or names
            print(to_confirm(field, [format_value(field, value, lang) for value in raw], lang))
        elif field == "model" and names:
            print(did_you_mean(names, lang))
