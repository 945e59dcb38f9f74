"""`sizer-agent --help` is where a newcomer looks first: every subcommand of a command is named on its line."""

from __future__ import annotations

import argparse

import pytest

from sizer_agent.cli import build_parser, main


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {name: p for action in actions for name, p in action.choices.items()}


def test_each_command_line_of_the_top_help_names_all_its_subcommands() -> None:
    parser, modules = build_parser()
    nested = {name: sorted(_subcommands(p)) for name, p in _subcommands(parser).items() if _subcommands(p)}
    assert {"sessions", "bench"} <= set(nested)  # the commands that have subcommands today
    missing = {name: [s for s in subs if s not in modules[name].HELP] for name, subs in nested.items()}
    assert missing == {name: [] for name in nested}


def test_app_options_work_without_naming_the_app(capsys: pytest.CaptureFixture[str]) -> None:
    # the README says `sizer-agent --lang en`: the options go to the app, which `sizer-agent` alone starts
    with pytest.raises(SystemExit) as exit_:
        main(["--lang", "en", "--help"])
    assert exit_.value.code == 0
    assert "usage: sizer-agent app" in capsys.readouterr().out
