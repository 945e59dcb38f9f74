"""The one boundary every file the product reads goes through, and the one way it writes its outputs.

Reading (`read_json`, `read_yaml`, `read_toml`, `read_data`, then `validate`):
- only a regular file is opened, without blocking: a directory, a FIFO, a socket or a device such as
  /dev/zero is refused before a byte is read (opening a FIFO for reading would wait for a writer forever);
- at most `max_bytes` are read (one byte more tells a file that is too large);
- the bytes are decoded as UTF-8 (a UTF-8 byte-order mark is allowed); UTF-16/32 text and binary data
  are refused, naming what was found;
- JSON: NaN, Infinity and numbers too large for a float are refused (json reads `1e400` as infinity);
- YAML: the safe loader, with aliases refused (an alias bomb expands a few hundred bytes into gigabytes);
- every parsed document is at most `max_depth` containers deep;
- `validate` runs the pydantic model the product uses and names the first bad field.
Every refusal is an `InputError` naming the field and what is allowed: one line, exit code 2.

Writing (`write_atomic`): a directory is refused, the data goes to a temporary file beside the target
and is renamed over it, and the temporary file is removed whatever happens.
"""

from __future__ import annotations

import json
import math
import os
import stat
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from sizer_agent.tools.errors import InputError

# A config.json is a few kB, a catalogue ~200 kB, a session export with a benchmark a few MB.
MAX_BYTES = 16 * 2**20
MAX_DEPTH = 64  # the deepest legitimate document (a session export's events) nests about 10 levels
_M = TypeVar("_M", bound=BaseModel)

_BOMS = (
    (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xfe\xff", "UTF-16"), (b"\xff\xfe", "UTF-16"),
)  # fmt: skip


def _name(path: Path | str) -> str:
    return "standard input" if str(path) == "-" else str(path)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_bytes(path: Path | str, field: str, *, max_bytes: int = MAX_BYTES, allow_stdin: bool = False) -> bytes:
    """The bytes of a regular file (or of standard input for "-" when allowed), at most `max_bytes`."""
    if allow_stdin and str(path) == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
    else:
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            raise InputError(field, f"no such file: {path}", "an existing file") from None
        except IsADirectoryError:
            raise InputError(field, f"{path} is a directory", "a file") from None
        except OSError as error:
            raise InputError(field, f"cannot read {path}: {error.strerror or error}") from None
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise InputError(field, f"{path} is {_kind(mode)}", "a regular file")
            chunks: list[bytes] = []
            left = max_bytes + 1
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            data = b"".join(chunks)
        except OSError as error:
            raise InputError(field, f"cannot read {path}: {error.strerror or error}") from None
        finally:
            os.close(fd)
    if len(data) > max_bytes:
        raise InputError(field, f"{_name(path)} is larger than {max_bytes:,} bytes", f"at most {max_bytes:,} bytes")
    return data


def decode_text(data: bytes, field: str, where: Path | str) -> str:
    """UTF-8 text (a UTF-8 byte-order mark is dropped), or InputError naming what the bytes are."""
    name = _name(where)
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            raise InputError(field, f"{name} is {encoding} text", "UTF-8 text (save the file as UTF-8)")
    if b"\x00" in data:
        raise InputError(field, f"{name} is binary data, not text", "UTF-8 text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(field, f"{name} is not UTF-8 text (byte {error.start})", "UTF-8 text") from None


def read_text(path: Path | str, field: str, *, max_bytes: int = MAX_BYTES, allow_stdin: bool = False) -> str:
    return decode_text(read_bytes(path, field, max_bytes=max_bytes, allow_stdin=allow_stdin), field, path)


def check_depth(value: Any, field: str, where: Path | str, max_depth: int = MAX_DEPTH) -> None:
    """InputError when `value` nests more than `max_depth` lists or mappings (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth > max_depth:
            raise InputError(field, f"{_name(where)} nests deeper than {max_depth} levels", f"at most {max_depth}")
        stack.extend((child, depth + 1) for child in children)


def _too_deep(field: str, where: Path | str, max_depth: int) -> InputError:
    return InputError(field, f"{_name(where)} nests deeper than {max_depth} levels", f"at most {max_depth}")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text}")
    return value


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number JSON allows")


def parse_json(text: str, field: str, where: Path | str, *, max_depth: int = MAX_DEPTH) -> Any:
    try:
        data = json.loads(text, parse_float=_finite_float, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise InputError(field, f"{_name(where)} is not valid JSON ({error.msg} at line {error.lineno})") from None
    except RecursionError:
        raise _too_deep(field, where, max_depth) from None
    except ValueError as error:  # a non-finite number, or an integer of more than 4,300 digits
        raise InputError(field, f"{_name(where)}: {str(error).splitlines()[0]}", "finite numbers") from None
    check_depth(data, field, where, max_depth)
    return data


class _NoAliasLoader(yaml.SafeLoader):  # type: ignore[misc]
    """yaml's safe loader, refusing aliases (`*name`): no document can expand beyond its own size."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed", event.start_mark)
        return super().compose_node(parent, index)


def _flow_depth_over(text: str, max_depth: int) -> bool:
    """Whether brackets outside quotes nest deeper than `max_depth`: a linear scan, because PyYAML takes about a
    second to reach its RecursionError on 5,000 "[" (measured). Brackets in a quoted or commented string are not
    counted; an apostrophe in plain text may hide later brackets from the scan, never add any."""
    depth, quote = 0, ""
    for char in text:
        if quote:
            if char == quote or (char == "\n" and quote == "#"):
                quote = ""
        elif char in "\"'#":
            quote = char
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif char in "]}":
            depth = max(0, depth - 1)
    return False


def parse_yaml(text: str, field: str, where: Path | str, *, max_depth: int = MAX_DEPTH) -> Any:
    if _flow_depth_over(text, max_depth):
        raise _too_deep(field, where, max_depth)
    try:
        data = yaml.load(text, Loader=_NoAliasLoader)  # a SafeLoader subclass: no Python objects
    except yaml.YAMLError as error:
        reason = str(getattr(error, "problem", None) or error).splitlines()[0]
        mark = getattr(error, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise InputError(field, f"{_name(where)} is not valid YAML ({reason}{at})") from None
    except RecursionError:
        raise _too_deep(field, where, max_depth) from None
    except ValueError as error:  # an integer of more than 4,300 digits
        raise InputError(field, f"{_name(where)}: {str(error).splitlines()[0]}") from None
    check_depth(data, field, where, max_depth)
    _check_finite(data, field, where)
    return data


def parse_toml(text: str, field: str, where: Path | str, *, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(field, f"{_name(where)} is not valid TOML ({error})") from None
    except RecursionError:
        raise _too_deep(field, where, max_depth) from None
    except ValueError as error:
        raise InputError(field, f"{_name(where)}: {str(error).splitlines()[0]}") from None
    check_depth(data, field, where, max_depth)
    _check_finite(data, field, where)
    return data


def _check_finite(value: Any, field: str, where: Path | str) -> None:
    """YAML (.inf, .nan) and TOML (inf, nan) spell non-finite floats; no input of ours is one."""
    stack = [(value, "")]
    while stack:
        item, at = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            raise InputError(f"{field}{at}" if at else field, f"{_name(where)} holds {item}", "finite numbers")
        if isinstance(item, dict):
            stack.extend((v, f"{at}.{k}") for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{at}[{i}]") for i, v in enumerate(item))


def read_json(path: Path | str, field: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH,
              allow_stdin: bool = False) -> Any:
    return parse_json(read_text(path, field, max_bytes=max_bytes, allow_stdin=allow_stdin), field, path,
                      max_depth=max_depth)


def read_yaml(path: Path | str, field: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH,
              allow_stdin: bool = False) -> Any:
    return parse_yaml(read_text(path, field, max_bytes=max_bytes, allow_stdin=allow_stdin), field, path,
                      max_depth=max_depth)


def read_toml(path: Path | str, field: str, *, max_bytes: int = MAX_BYTES,
              max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    return parse_toml(read_text(path, field, max_bytes=max_bytes), field, path, max_depth=max_depth)


def read_data(path: Path | str, field: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH,
              allow_stdin: bool = False) -> Any:
    """JSON for a .json file, TOML for .toml, else YAML (a superset of JSON)."""
    suffix = Path(str(path)).suffix.lower()
    parse: Callable[..., Any] = {".json": parse_json, ".toml": parse_toml}.get(suffix, parse_yaml)
    return parse(read_text(path, field, max_bytes=max_bytes, allow_stdin=allow_stdin), field, path,
                 max_depth=max_depth)


def validate(model: type[_M], data: Any, field: str) -> _M:
    """`model.model_validate(data)`, a ValidationError becoming one InputError naming the first bad field."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        raise InputError(f"{field}.{where}" if where else field, message) from None


def check_output(path: Path | str, field: str) -> Path:
    """An output path that can be written: not a directory, its folder not a file. Nothing is created."""
    target = Path(path)
    if target.is_dir():
        raise InputError(field, f"{target} is a directory", "a file path")
    if target.exists() and not target.is_file():
        raise InputError(field, f"{target} is not a regular file", "a file path")
    parent = target.parent
    for folder in (parent, *parent.parents):
        if folder.exists():
            if not folder.is_dir():
                raise InputError(field, f"{folder} is not a directory", "a path inside a directory")
            break
    return target


def write_atomic(path: Path | str, data: bytes | str, field: str) -> Path:
    """Write beside the target and rename over it: an interrupted or refused write leaves nothing behind."""
    target = check_output(path, field)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise InputError(field, f"cannot write {target}: {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        os.replace(tmp, target)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(field, f"cannot write {target}: {error.strerror or error}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
