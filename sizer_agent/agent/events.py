"""Events a conversation engine emits and the UI renders, one widget per event.

This is the contract between the agent (deterministic planner or LLM backend) and every front end (Textual
app, web mode, headless intake). Events are pydantic models so that they can be stored in the session
database and replayed exactly.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, Field


class UserSaid(BaseModel):
    """The user's message, stored before any model is asked about it: kept whatever happens next."""

    kind: Literal["user"] = "user"
    text: str


class QuestionAsked(BaseModel):
    kind: Literal["question"] = "question"
    question_id: str
    text: str
    why: str = ""  # shown when the user asks "why?"
    suggestions: list[str] = Field(default_factory=list)
    hint: str = ""  # example of a valid answer, set when the previous answer was not understood


class AnswerRecorded(BaseModel):
    kind: Literal["answer"] = "answer"
    field: str
    value: Any
    raw_text: str = ""
    assumed: bool = False  # a documented default was used ("I don't know")
    previous: Any = None  # the value this answer replaced (a correction); None for a first answer
    label: str = ""  # human name of the field in the session language, for display
    words: str = ""  # the exact words of `raw_text` the value was read from ("une vingtaine d'utilisateurs")
    shown: str = ""  # the value as a person reads it, in the session language ("32 requêtes", "oui")


class ToolCalled(BaseModel):
    kind: Literal["tool_call"] = "tool_call"
    call_id: str
    tool: str
    arguments: dict[str, Any]


class ToolReturned(BaseModel):
    kind: Literal["tool_result"] = "tool_result"
    call_id: str
    tool: str
    ok: bool
    result: dict[str, Any] | None = None
    error: str | None = None
    duration_ms: float = 0.0


class AgentMessage(BaseModel):
    kind: Literal["message"] = "message"
    text: str  # Markdown; every number in it comes from a tool result
    # what the message is for, so a front end can style it; "info" is the neutral default
    tone: Literal["info", "confirm", "hint", "result", "error"] = "info"


class ProfileUpdated(BaseModel):
    kind: Literal["profile"] = "profile"
    profile: dict[str, Any]
    missing: list[str] = Field(default_factory=list)  # required questions still unanswered, in order
    assumed: list[str] = Field(default_factory=list)  # fields filled with a documented default
    shown: dict[str, str] = Field(default_factory=dict)  # field -> value as a person reads it (session language)


class LanguageChanged(BaseModel):
    """The engine now speaks `lang`: the customer wrote in it. A front end follows (its interface language)."""

    kind: Literal["language"] = "language"
    lang: Literal["fr", "en"]


Event = Annotated[
    QuestionAsked | AnswerRecorded | ToolCalled | ToolReturned | AgentMessage | ProfileUpdated | LanguageChanged
    | UserSaid,
    Field(discriminator="kind"),
]


class ConversationEngine(Protocol):
    """What every backend offers the front ends."""

    def start(self) -> list[Event]:
        """Events to show when the conversation opens (or resumes)."""
        ...

    def handle(self, text: str) -> list[Event]:
        """Process one user message and return the events it caused, in order."""
        ...
