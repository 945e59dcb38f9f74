"""The interview state an engine works on: answers with their history, the current question, tool results.

The state is plain data so that the session store can rebuild it (resume) and two engines can share it
(the LLM backend hands the same state to the deterministic engine when its endpoint fails).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from sizer_agent.agent.profile import WorkloadProfile

Lang = Literal["fr", "en"]


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class AnswerVersion(BaseModel):
    value: Any
    raw_text: str = ""
    at: str = Field(default_factory=now_iso)


class Answer(BaseModel):
    value: Any
    assumed: bool = False
    raw_text: str = ""
    history: list[AnswerVersion] = Field(default_factory=list)  # every value given, oldest first


class InterviewState(BaseModel):
    lang: Lang = "fr"
    lang_pinned: bool = False  # the consultant chose the language (F2, set_lang): the customer's no longer leads
    suggested: dict[str, Any] = Field(default_factory=dict)  # field -> the one value offered by "Did you mean?"
    # field -> values a message named for it, none recorded (understanding/doubt.py); offered at its question
    to_confirm: dict[str, list[str]] = Field(default_factory=dict)
    answers: dict[str, Answer] = Field(default_factory=dict)
    current_question: str | None = None  # id of the question waiting for an answer
    # questions answered around rather than answered ("Pour quel client ?" → "15 en même temps"), and how many
    # times: those answered around twice are asked again after the others, as a person would, not five times
    answered_around: dict[str, int] = Field(default_factory=dict)
    last_field: str | None = None  # last field answered: where a bare correction ("no, 64") goes
    misunderstood: int = 0  # consecutive answers not understood (the hint grows more explicit)
    results: dict[str, dict[str, Any]] = Field(default_factory=dict)  # last successful result per tool
    sized_profile: dict[str, Any] | None = None  # the profile the tools last ran on (re-run when it changes)

    def profile(self) -> WorkloadProfile:
        return WorkloadProfile.model_validate({k: a.value for k, a in self.answers.items()})

    def answered(self) -> frozenset[str]:
        return frozenset(self.answers)

    def assumed(self) -> list[str]:
        return [k for k, a in self.answers.items() if a.assumed]

    def set_answer(self, field: str, value: Any, raw_text: str = "", assumed: bool = False) -> Any:
        """Record an answer (a correction keeps the older ones in history); return the previous value."""
        previous = self.answers.get(field)
        history = list(previous.history) if previous else []
        history.append(AnswerVersion(value=value, raw_text=raw_text))
        self.answers[field] = Answer(value=value, assumed=assumed, raw_text=raw_text, history=history)
        self.last_field = field
        return previous.value if previous else None
