"""Text from users, shown safely: stored as given, displayed with its control characters made visible.

A customer name or an answer is stored byte for byte, but a terminal interprets ESC sequences (a name could
retitle the window or hide lines) and documents should carry no NUL or other control bytes. Everything that
shows user text — terminal output, the app's title, the proposal — goes through `printable`.
"""

from __future__ import annotations

import re
from typing import Any

# C0 controls except tab and newline, DEL, and C1 controls (0x9b is a one-byte CSI in some terminals)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_OR_NEWLINE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    return " " if char in "\n\t" else f"\\x{ord(char):02x}"


def printable(text: str, *, one_line: bool = False) -> str:
    """`text` with every control character shown as `\\xNN` (tabs and newlines kept unless `one_line`)."""
    return (_CONTROL_OR_NEWLINE if one_line else _CONTROL).sub(_visible, text)


def printable_data(value: Any) -> Any:
    """The same for every string inside JSON-like data (dict keys included)."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {printable_data(k): printable_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [printable_data(v) for v in value]
    return value
