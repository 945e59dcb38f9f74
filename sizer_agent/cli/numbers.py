"""Every number typed on the command line goes through one parser: finite, whole when it must be, in range.

`number_type(...)` builds the argparse `type=` of one flag, `number_list(...)` that of a comma-separated
list. A value outside its range is argparse's one-line error naming the flag and the range, exit code 2:
NaN, infinities, `1,,2`, `-1` warm-up requests or a port of 70000 never reach the tools.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any

MAX_INT = 2**63 - 1  # SQLite INTEGER, numpy int64: a larger id or count cannot be stored or computed
SEED_MAX = 2**32 - 1  # numpy's and random's seeds are 32-bit words
PORT_MAX = 65_535  # TCP ports (RFC 793: 16 bits)
DAY_S = 86_400.0


def _range_text(low: float | None, high: float | None, low_open: bool, high_open: bool, integer: bool) -> str:
    def show(value: float) -> str:
        return f"{int(value):,}" if integer else f"{value:g}"

    if low is not None and high is not None:
        return f"{'(' if low_open else '['}{show(low)}, {show(high)}{')' if high_open else ']'}"
    if low is not None:
        return f"{'>' if low_open else '>='} {show(low)}"
    if high is not None:
        return f"{'<' if high_open else '<='} {show(high)}"
    return "any finite number"


def _parse(text: str, integer: bool, suffixes: bool) -> float | int:
    cleaned = text.strip().replace("_", "")
    if integer:
        try:
            return int(cleaned)
        except ValueError:
            pass
        multiplier = {"k": 1024, "m": 1024 * 1024}.get(cleaned[-1:].lower()) if suffixes and cleaned else None
        if multiplier is not None:
            try:
                value = float(cleaned[:-1]) * multiplier
            except ValueError:
                value = math.nan
            if math.isfinite(value) and value == int(value):
                return int(value)
        example = " (e.g. 8192 or 8k)" if suffixes else ""
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number{example}")
    try:
        value = float(cleaned)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def number_type(
    kind: type[int] | type[float] = float, *, low: float | None = None, high: float | None = None,
    low_open: bool = False, high_open: bool = False, suffixes: bool = False,
) -> Callable[[str], Any]:
    """argparse `type=` for one number: finite, whole for `int` (`suffixes`: 8k = 8192), in the range."""
    integer = kind is int
    if integer and high is None:
        high = MAX_INT
    allowed = _range_text(low, high, low_open, high_open, integer)

    def convert(text: str) -> float | int:
        value = _parse(text, integer, suffixes)
        below = low is not None and (value <= low if low_open else value < low)
        above = high is not None and (value >= high if high_open else value > high)
        if below or above:
            raise argparse.ArgumentTypeError(f"{value:g} is out of range (allowed: {allowed})"
                                             if not integer else f"{value} is out of range (allowed: {allowed})")
        return value

    convert.__name__ = "whole number" if integer else "number"
    return convert


def number_list(
    kind: type[int] | type[float] = float, *, low: float | None = None, high: float | None = None,
    low_open: bool = False, high_open: bool = False, example: str = "1,4,16",
) -> Callable[[str], list[Any]]:
    """argparse `type=` for `A,B,C`: each item as `number_type` checks it; an empty item is an error."""
    one = number_type(kind, low=low, high=high, low_open=low_open, high_open=high_open)

    def convert(text: str) -> list[Any]:
        items = [item.strip() for item in text.split(",")]
        if items and items[-1] == "" and len(items) > 1:
            items.pop()  # a trailing comma ("1,4,") is harmless
        values = []
        for index, item in enumerate(items, 1):
            if not item:
                raise argparse.ArgumentTypeError(f"item {index} of {text!r} is empty (e.g. {example})")
            try:
                values.append(one(item))
            except argparse.ArgumentTypeError as error:
                raise argparse.ArgumentTypeError(f"item {index} of {text!r}: {error} (e.g. {example})") from None
        return values

    convert.__name__ = "list of numbers"
    return convert


# The types most flags share.
positive_int = number_type(int, low=1, suffixes=True)
non_negative_int = number_type(int, low=0)
positive_float = number_type(float, low=0, low_open=True)
fraction = number_type(float, low=0, high=1, low_open=True)
seed = number_type(int, low=0, high=SEED_MAX)
port = number_type(int, low=1, high=PORT_MAX)
port_or_zero = number_type(int, low=0, high=PORT_MAX)  # 0: the system picks a free port
session_id = number_type(int, low=1)
percentile = number_type(float, low=0, high=100, low_open=True, high_open=True)
seconds = number_type(float, low=0, high=7 * DAY_S, low_open=True)  # a week: no benchmark waits longer
milliseconds = number_type(float, low=0, high=3_600_000, low_open=True)  # an hour
