"""`sizer-agent propose`: write the proposal document of a session."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sizer_agent.proposal import load_session, render_pdf, render_proposal
from sizer_agent.proposal.i18n import Lang
from sizer_agent.tools.input_files import check_output, write_atomic

NAME = "propose"
ORDER = 60
HELP = "write the proposal of a session: Markdown, HTML or PDF, in French or English"
DESCRIPTION = """\
Write the proposal document of a sizing session: the workload profile (every answer, with those assumed
by default marked), the memory per GPU and its dominant term, the recommended catalogue configuration and
why the others do not fit, the performance estimate at the stated load, the measured results beside the
estimate when a benchmark was run, host requirements, multi-GPU caveats, risks, and the ACCEPTANCE LIMITS
with the exact `sizer-agent bench` command that checks each one.

Every number comes from the tool results and benchmarks stored in the session; the document never
recomputes them.

SESSION is a session export file (`sizer-agent sessions export ID > session.json`) or a session id in
the session store (--db selects the database file).

Formats:
  md    Markdown (default; charts as text bars and tables)
  html  one self-contained page: inline CSS and SVG charts, no script, no remote resource; prints to PDF
  pdf   the HTML printed by WeasyPrint (optional extra: pip install 'sizer-agent[pdf]')

Examples:
  sizer-agent propose session.json                          # Markdown on stdout, in the session's language
  sizer-agent propose session.json --format html --lang en -o proposal.html
  sizer-agent propose 12 --db ~/sizer.db -o proposal.pdf    # format from the file extension
"""

SUFFIX_FORMATS = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".pdf": "pdf"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "session", metavar="SESSION", help="session export .json file, or a session id in the store"
    )
    parser.add_argument(
        "--format",
        choices=("md", "html", "pdf"),
        default=None,
        help="output format (default: from the -o extension, else md)",
    )
    parser.add_argument(
        "--lang",
        choices=("fr", "en"),
        default=None,
        help="language of the document (default: the session's language, else fr)",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        default=None,
        help="write to FILE (default: stdout; required for pdf)",
    )
    parser.add_argument("--db", metavar="PATH", default=None, help="session database, when SESSION is an id")


def run(args: argparse.Namespace) -> int:
    output = Path(args.output) if args.output else None
    fmt = args.format or (SUFFIX_FORMATS.get(output.suffix.lower(), "md") if output else "md")
    if fmt == "pdf" and output is None:
        print(
            "sizer-agent propose: error: --format pdf needs -o FILE (a PDF is not written to a terminal)",
            file=sys.stderr,
        )
        return 2
    if output is not None:
        check_output(output, "--output")  # a directory is refused before the document is rendered
    session = load_session(args.session, args.db)
    lang: Lang = args.lang or ("en" if session.get("lang") == "en" else "fr")
    if fmt == "pdf":
        data = render_pdf(session, lang)
    else:
        data = render_proposal(session, "html" if fmt == "html" else "md", lang).encode("utf-8")
    if output is None:
        sys.stdout.write(data.decode("utf-8"))
        sys.stdout.flush()
    else:
        write_atomic(output, data, "--output")
        print(f"wrote {output} ({fmt}, {lang}, {len(data):,} bytes)", file=sys.stderr)
    return 0
