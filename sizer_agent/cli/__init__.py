"""Command-line entry point.

Subcommands live one per module in `sizer_agent.cli.commands`, the module named after the command; each
defines `NAME`, `HELP`, `configure(parser)` and `run(args) -> int`, and is discovered here, so adding a
command touches no shared file. `sizer-agent` with no subcommand starts the interactive app. Only the
chosen command's module is imported (start-up time of the app); `--help` imports them all.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from pydantic import ValidationError

from sizer_agent import __version__
from sizer_agent.cli import commands
from sizer_agent.tools.errors import InputError

EXIT_USAGE = 2


def _command_names() -> list[str]:
    return [info.name for info in pkgutil.iter_modules(commands.__path__) if not info.name.startswith("_")]


def _command_modules(only: str | None = None) -> list[ModuleType]:
    names = [only] if only in _command_names() else _command_names()
    modules = [importlib.import_module(f"{commands.__name__}.{name}") for name in names]
    return sorted(modules, key=lambda m: getattr(m, "ORDER", 50))


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line naming the flag, not the whole usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def build_parser(only: str | None = None) -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    parser = _Parser(
        prog="sizer-agent",
        description=(
            "Size an AI workload before buying hardware. With no command, starts the interview app; "
            "each command below is one deterministic or benchmark tool (try `sizer-agent COMMAND --help`)."
        ),
    )
    parser.add_argument("--version", action="version", version=f"sizer-agent {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    by_name: dict[str, ModuleType] = {}
    for module in _command_modules(only):
        sub_parser = sub.add_parser(
            module.NAME,
            help=module.HELP,
            description=getattr(module, "DESCRIPTION", module.HELP),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.configure(sub_parser)
        by_name[module.NAME] = module
    return parser, by_name


def format_validation_error(error: ValidationError) -> str:
    """One line per problem, naming the field path and pydantic's reason."""
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "input"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list:
        args_list = ["app"] if "app" in _command_names() else ["--help"]
    elif args_list[0].startswith("-") and args_list[0] not in ("-h", "--help", "--version") \
            and "app" in _command_names():
        args_list = ["app", *args_list]  # `sizer-agent --lang en` starts the app in English
    parser, by_name = build_parser(args_list[0])
    args = parser.parse_args(args_list)
    module = by_name.get(args.command or "")
    if module is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(module.run(args) or 0)
    except InputError as error:
        print(f"sizer-agent {args.command}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except ValidationError as error:
        print(f"sizer-agent {args.command}: error: {format_validation_error(error)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `sizer-agent models | head`: the reader left; not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the interpreter's final flush does not fail again
        return 0
