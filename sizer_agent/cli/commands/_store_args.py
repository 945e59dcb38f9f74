"""The --db option shared by the commands that use the session store."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sizer_agent.store import SessionStore, StoreError

# The store (SQLite, pydantic models) is imported when a command opens it, not when the parser is
# built: `sizer-agent` alone must reach its first question fast (the app opens the store on its own thread).
ENV_DB = "SIZER_AGENT_DB"

EXIT_USAGE = 2
EXIT_STORE = 1


def add_db_argument(parser: argparse.ArgumentParser, *, nested: bool = False) -> None:
    """`nested`: on a sub-command whose parent has --db too (SUPPRESS keeps the parent's value)."""
    parser.add_argument(
        "--db", metavar="PATH", default=argparse.SUPPRESS if nested else None,
        help=f"session database file (default: ${ENV_DB}, else sessions.db in the user data directory)",
    )


def open_store(args: argparse.Namespace) -> SessionStore:
    from sizer_agent.store import SessionStore

    return SessionStore(args.db)


def report_store_error(command: str, error: StoreError) -> int:
    """One line, exit code 2: a damaged or foreign database, an unknown session or a bad export is bad input
    (the database is left as it was); exit code 1 is kept for a measurement that failed its own check."""
    print(f"sizer-agent {command}: error: {error}", file=sys.stderr)
    return EXIT_USAGE
