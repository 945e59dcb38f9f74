"""Find the session a proposal is written from: a session export file, or a session id in the store.

The session store (`sizer_agent.store`) is optional here: a path to an export JSON always works; an id is
looked up only when the store module is importable, through whichever export function it offers.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from sizer_agent.tools.errors import InputError
from sizer_agent.tools.input_files import read_json

# Names the store may give its "session id -> export dict" function (first found wins).
_EXPORT_FUNCTIONS = ("export_session", "export", "session_export")


def load_session(source: str, db: str | None = None) -> dict[str, Any]:
    """The session export dict named by `source` (a JSON file path, or an integer session id)."""
    path = Path(source)
    if path.suffix.lower() == ".json" or path.exists():
        return _read_file(path)
    if source.isdigit():
        return _from_store(int(source), db)
    raise InputError(
        "SESSION",
        f"{source!r} is neither an existing session export file nor a session id",
        "a path to a session export .json file, or a session id number",
    )


def _read_file(path: Path) -> dict[str, Any]:
    data = read_json(path, "SESSION", max_bytes=64 * 2**20)  # the one input reader: regular file, UTF-8, bounded
    if not isinstance(data, dict):
        raise InputError("SESSION", f"{path} does not hold a session export object")
    return data


def _from_store(session_id: int, db: str | None) -> dict[str, Any]:
    try:
        store = importlib.import_module("sizer_agent.store")
    except ImportError:
        raise InputError("SESSION", "reading a session by id needs the session store, which is not installed",
                         "a path to a session export .json file (sizer-agent sessions export ID)") from None
    store_error: type[Exception] = getattr(store, "StoreError", LookupError)
    try:
        data = _export(store, session_id, db)
    except (KeyError, LookupError, store_error) as error:
        where = f" in {db}" if db else ""
        raise InputError("SESSION", f"cannot read session {session_id}{where}: {error}") from None
    if hasattr(data, "model_dump"):
        data = data.model_dump(mode="json")
    if not isinstance(data, dict):
        raise InputError("SESSION", f"the store returned no export for session {session_id}")
    return data


def _export(store: Any, session_id: int, db: str | None) -> Any:
    """`export_session(SessionStore(db), id)` (sizer_agent.store), or `export_session(id[, db])`."""
    session_store = getattr(store, "SessionStore", None)
    for name in _EXPORT_FUNCTIONS:
        export = getattr(store, name, None)
        if not callable(export):
            continue
        if session_store is not None:
            with session_store(db) as opened:
                return export(opened, session_id)
        return export(session_id, db) if db is not None else export(session_id)
    raise InputError("SESSION", "this version of the session store cannot export a session by id",
                     "a path to a session export .json file")
