"""`sizer-agent app` (also what `sizer-agent` with no arguments runs): the interview in the terminal."""

from __future__ import annotations

import argparse
from pathlib import Path

from sizer_agent.cli.commands._store_args import add_db_argument
from sizer_agent.cli.numbers import number_type

NAME = "app"
ORDER = 1
HELP = "the interactive interview (also what `sizer-agent` alone starts)"
DESCRIPTION = """\
Start the interview app in the terminal.

The agent asks what decides the size of your workload (model and revision, precision, input and output
lengths, concurrent requests, training settings…), calls the estimate and recommendation tools as soon
as it knows enough, and shows every tool call as a card you can open (Tab to reach it, Enter to open).
Every answer is stored at once in the session database; quitting never loses one.

Keys: Enter send · ↓/↑ suggestions · ctrl+n new session · ctrl+r resume · ctrl+s export JSON ·
ctrl+p write the proposal · F3 results · F2 français/English · ctrl+k command palette · F1 help ·
ctrl+q quit.

Examples:
  sizer-agent                         new session, French interface
  sizer-agent app --lang en           new session, English interface
  sizer-agent app --resume 12         reopen session 12 (its conversation is replayed)
  sizer-agent app --db ./acme.db      use another session database
  sizer-agent app --llm-url http://127.0.0.1:8000/v1 --llm-model my-model
                                      an OpenAI-compatible model phrases; the tools still compute
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=["fr", "en"], default="fr", help="interface language (default fr)")
    parser.add_argument("--resume", metavar="SESSION", type=number_type(int, low=1),
                        help="reopen this stored session (its id, see `sizer-agent sessions list`)")
    add_db_argument(parser)
    # Same flags as sizer_agent.agent.llm.add_llm_arguments, declared here so that building the CLI
    # parser does not import httpx for every command.
    parser.add_argument("--llm-url", metavar="URL", default=None,
                        help="OpenAI-compatible endpoint with tool calling, e.g. http://127.0.0.1:8000/v1 "
                             "(key: $SIZER_LLM_API_KEY); without it the built-in deterministic engine runs")
    parser.add_argument("--llm-model", metavar="NAME", default=None, help="model name sent to the endpoint")
    parser.add_argument("--output-dir", type=Path, default=Path("."), metavar="DIR",
                        help="where ctrl+s exports and ctrl+p proposals go (default: current folder)")
    parser.add_argument("--self-service", action="store_true",
                        help="customer mode: no listing or resuming of other people's sessions")


def run(args: argparse.Namespace) -> int:
    # Textual is imported here, not at module level: every other command stays fast to start.
    from sizer_agent.app import AppConfig, SizerApp
    from sizer_agent.app.production import production_backend_factory

    if args.resume is not None:  # checked before the screen opens: a bad id is one line, exit 2
        from sizer_agent.cli.commands._store_args import open_store, report_store_error
        from sizer_agent.store import StoreError

        try:
            with open_store(args) as store:
                store.get_session(args.resume)
        except StoreError as error:
            return report_store_error("app", error)
    config = AppConfig(lang=args.lang, resume=None if args.resume is None else str(args.resume),
                       output_dir=args.output_dir, self_service=args.self_service)
    backend = production_backend_factory(args.db, llm_url=args.llm_url, llm_model=args.llm_model)
    SizerApp(backend, config).run()
    return 0
