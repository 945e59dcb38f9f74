"""Sentences as data: a tool says *what* happened with a message id and its parameters, never in English.

`Msg("reason.memory", need=..., usable=...)` travels in the tools' pydantic results (and their JSON); the
application renders it in the reader's language from one catalogue per language
(`sizer_agent/i18n/{fr,en}.toml`), where the formatting of each parameter (bytes in GiB, euros, dates) is
chosen by the sentence, not by the tool. A parameter may itself be a message (a reason inside a verdict).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Msg(BaseModel):
    """One sentence: catalogue id + parameters (raw values: bytes, euros, milliseconds...)."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(min_length=1, description="catalogue key, e.g. 'reason.memory'")
    params: dict[str, str | int | float | bool | list[Any] | Msg | None] = Field(default_factory=dict)

    def __init__(self, id: str | None = None, /, **data: Any) -> None:
        if id is not None:
            params = {k: v for k, v in data.items() if k not in ("id", "params")}
            super().__init__(id=id, params={**data.get("params", {}), **params})
        else:
            super().__init__(**data)


Msg.model_rebuild()
