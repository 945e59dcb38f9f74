"""The --db option shared by the commands that use the session store."""

from __future__ import annotations

import argparse
import sys

from sizer_agent.store import ENV_DB, InvalidExportError, SessionNotFoundError, SessionStore, StoreError

EXIT_USAGE = 2
EXIT_STORE = 1


def add_db_argument(parser: argparse.ArgumentParser, *, nested: bool = False) -> None:
    """`nested`: on a sub-command whose parent has --db too (SUPPRESS keeps the parent's value)."""
    parser.add_argument(
        "--db", metavar="PATH", default=argparse.SUPPRESS if nested else None,
        help=f"session database file (default: ${ENV_DB}, else sessions.db in the user data directory)",
    )


def open_store(args: argparse.Namespace) -> SessionStore:
    return SessionStore(args.db)


def report_store_error(command: str, error: StoreError) -> int:
    print(f"sizer-agent {command}: error: {error}", file=sys.stderr)
    return EXIT_USAGE if isinstance(error, SessionNotFoundError | InvalidExportError) else EXIT_STORE
