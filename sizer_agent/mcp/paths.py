"""Which files the MCP server's tools may read: only those under the folders the user allowed.

A tool argument is free text an assistant wrote. Any string in it that names an existing file or folder, or
is written as a path (absolute, `~`, `./`, `../`), must resolve inside an allowed folder; other strings (Hub
ids such as `meta-llama/Llama-3.1-8B-Instruct`, URLs, dtypes) are not paths and pass. A Hub id that happens
to exist as a relative folder is a path, and is checked as one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

_PATH_PREFIXES = ("/", "~", "./", "../", ".\\", "..\\")
_MAX_DEPTH = 32  # tool arguments are shallow; deeper nesting is refused by the tool's own schema anyway


def _strings(value: Any, where: str, depth: int = 0) -> Iterator[tuple[str, str]]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{where}.{key}" if where else str(key), depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, f"{where}[{index}]", depth + 1)


def _looks_like_path(text: str) -> bool:
    if not text or "\x00" in text or len(text) > 4096 or "://" in text:
        return False
    if text.startswith(_PATH_PREFIXES):
        return True
    try:
        return os.path.lexists(text)
    except (OSError, ValueError):
        return False


class PathGuard:
    """Refuses tool arguments that name files outside the allowed folders."""

    def __init__(self, allowed: Sequence[Path]) -> None:
        self.allowed = [Path(folder).expanduser().resolve() for folder in allowed]

    def problem(self, arguments: dict[str, Any]) -> str | None:
        """Why these arguments may not be used (a path outside the allowed folders), or None."""
        for where, text in _strings(arguments, ""):
            if not _looks_like_path(text):
                continue
            try:
                resolved = Path(text).expanduser().resolve()
            except (OSError, RuntimeError, ValueError):
                return f"{where}: {text!r} is not a usable path"
            if not any(resolved == folder or resolved.is_relative_to(folder) for folder in self.allowed):
                if not self.allowed:
                    return (f"{where}: {text!r} is a file path, and this server reads no files; restart it with "
                            "--allow-path DIR to let its tools read files under DIR")
                allowed = ", ".join(str(folder) for folder in self.allowed)
                return f"{where}: {text!r} is outside the folders this server may read ({allowed})"
        return None
