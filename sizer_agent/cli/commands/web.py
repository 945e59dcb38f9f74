"""`sizer-agent web`: the same interview app, served to a browser (self-service intake)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from sizer_agent.cli.commands._store_args import add_db_argument
from sizer_agent.cli.numbers import port

NAME = "web"
HELP = "serve the interview app in a web browser (needs the `web` extra)"
DESCRIPTION = """\
Serve the interview app over HTTP so that a customer can answer in a browser.

Each browser tab runs its own copy of the app (a new session in the same database) through
textual-serve. The app runs in customer mode: no listing or resuming of other sessions.
By default only this machine can connect (127.0.0.1); give --host 0.0.0.0 to accept others, behind
your own reverse proxy and authentication.

Install the extra first:  pip install 'sizer-agent[web]'

Examples:
  sizer-agent web                         http://127.0.0.1:8000
  sizer-agent web --port 9000 --lang en
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=port, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--public-url", help="URL browsers use to reach the server, when behind a proxy")
    parser.add_argument("--lang", choices=["fr", "en"], default="fr", help="interface language (default fr)")
    add_db_argument(parser)


def app_command(args: argparse.Namespace) -> str:
    """The shell command textual-serve runs for each browser connection."""
    argv = [sys.executable, "-m", "sizer_agent", "app", "--self-service", "--lang", args.lang]
    if args.db is not None:  # absolute: the app process may start in another folder
        argv += ["--db", str(Path(args.db).resolve())]
    return shlex.join(argv)


def run(args: argparse.Namespace) -> int:
    try:
        from textual_serve.server import Server
    except ImportError:
        print(
            "sizer-agent web: error: textual-serve is not installed; "
            "install the web extra: pip install 'sizer-agent[web]'",
            file=sys.stderr,
        )
        return 2
    if not 0 < args.port < 65536:
        print(f"sizer-agent web: error: --port: {args.port} (allowed: 1-65535)", file=sys.stderr)
        return 2
    server = Server(app_command(args), host=args.host, port=args.port, title="sizer-agent",
                    public_url=args.public_url)
    print(f"sizer-agent web: serving on http://{args.host}:{args.port} (Ctrl-C to stop)", file=sys.stderr)
    server.serve()
    return 0
