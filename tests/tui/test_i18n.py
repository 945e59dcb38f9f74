"""One catalogue, two languages: every key complete, placeholders equal, every used key defined."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from sizer_agent.app.i18n import t
from sizer_agent.i18n import catalogue

APP = Path(__file__).resolve().parents[2] / "sizer_agent" / "app"
APP_SECTIONS = ("app", "chat", "cmd", "help", "key", "mem", "notice", "results", "sessions", "side", "tool")
# the app's part of the product catalogue: key -> (français, English)
STRINGS = {k: (catalogue("fr")[k], catalogue("en")[k]) for k in catalogue("en") if k.split(".")[0] in APP_SECTIONS}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(STRINGS))
def test_both_languages_present_with_the_same_placeholders(key: str) -> None:
    french, english = STRINGS[key]
    assert french.strip() and english.strip()
    assert _fields(french) == _fields(english)


def test_every_key_the_app_uses_exists() -> None:
    used: set[str] = set()
    for path in APP.rglob("*.py"):
        source = path.read_text()
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z_]+)["']""", source))
        used |= set(re.findall(r"""["']((?:key|results|cmd|notice|side|chat|tool)\.[a-z_]+)["']""", source))
    missing = sorted(k for k in used if k not in STRINGS)
    assert missing == []


def test_placeholders_are_filled() -> None:
    assert t("notice.exported", "en", path="x.json") == "Session exported: x.json"
    assert t("notice.exported", "fr", path="x.json") == "Session exportée : x.json"


def test_every_key_is_used() -> None:
    """A string nobody shows is a translation nobody checks: the catalogue holds only live keys."""
    sources = "\n".join(p.read_text() for p in APP.rglob("*.py"))
    unused = sorted(k for k in STRINGS if f'"{k}"' not in sources and f"'{k}'" not in sources)
    assert unused == []
