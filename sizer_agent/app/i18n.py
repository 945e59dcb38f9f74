"""The app's strings: the product's one catalogue per language (`sizer_agent.i18n`), read by key.

Widgets never hold literal UI text: they ask `t(key, lang)`. tests/tui/test_i18n.py checks that every key
the app's sources use exists in both languages.
"""

from __future__ import annotations

from sizer_agent.i18n import LANGS, Lang, render

__all__ = ["LANGS", "Lang", "t"]


def t(key: str, lang: Lang, /, **values: object) -> str:
    """The string for `key` in `lang`, with `{name}` placeholders filled from `values`."""
    return render(lang, key, **values)
