"""Errors the tools raise for bad user input.

A user mistake is never a traceback: every tool raises `InputError` naming the field and what is allowed,
and the CLI turns it into one line on stderr and exit code 2.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input from the user: names the field, what was wrong and what is allowed."""

    def __init__(self, field: str, message: str, allowed: str | None = None) -> None:
        self.field = field
        self.message = message
        self.allowed = allowed
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"{self.field}: {self.message}"
        if self.allowed:
            text += f" (allowed: {self.allowed})"
        return text
