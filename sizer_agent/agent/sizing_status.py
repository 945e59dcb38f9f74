"""Whether a session's results belong to its answers, read back from its events.

A sizing run is the estimate tool, then recommend (then bench_serve when a server was given). A process can
die anywhere in it (kill -9, power cut): the answers are stored, the tool results that came back are stored,
and nothing else. Replaying the events says which profile the last *finished* run sized, so that a resumed
interview sizes again when its answers changed since, and a proposal is never written from a plan that
belongs to older answers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ValidationError

from sizer_agent.agent.profile import WorkloadProfile

ESTIMATE_TOOLS = ("estimate_memory", "estimate_vision")  # the first call of every run
FINAL_TOOL = "recommend"  # a run has its plan when recommend answered


class SizingStatus(BaseModel):
    profile: dict[str, Any]  # the profile the answers give now
    sized_profile: dict[str, Any] | None  # the profile the last finished run sized (None: never)
    planned_profile: dict[str, Any] | None = None  # the profile of the last plan recommend returned
    interrupted: str | None = None  # a tool called and never answered (the process died during it)

    @property
    def current(self) -> bool:
        """The stored results are those of the current answers."""
        return self.sized_profile is not None and self.sized_profile == self.profile

    @property
    def planned(self) -> bool:
        """The last plan was made for the current answers (what a proposal needs)."""
        return self.planned_profile is not None and self.planned_profile == self.profile


def _profile(answers: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return WorkloadProfile.model_validate(answers).model_dump(mode="json")
    except ValidationError:
        return None


def _get(event: Any, key: str) -> Any:
    return event.get(key) if isinstance(event, dict) else getattr(event, key, None)


def sizing_status(events: Iterable[Any]) -> SizingStatus:
    """Replay a session's events (models or their dicts, in order)."""
    answers: dict[str, Any] = {}
    run_profile: dict[str, Any] | None = None
    sized: dict[str, Any] | None = None
    planned: dict[str, Any] | None = None
    open_calls: dict[str, str] = {}
    for event in events:
        kind = _get(event, "kind")
        if kind == "answer":
            answers[str(_get(event, "field"))] = _get(event, "value")
        elif kind == "tool_call":
            tool = str(_get(event, "tool"))
            if tool in ESTIMATE_TOOLS:
                run_profile = _profile(answers)
            open_calls[str(_get(event, "call_id"))] = tool
        elif kind == "tool_result":
            tool = str(open_calls.pop(str(_get(event, "call_id")), _get(event, "tool")))
            if tool == FINAL_TOOL or (tool in ESTIMATE_TOOLS and not _get(event, "ok")):
                sized = run_profile  # the run ended: with a plan, or with the estimate's refusal
                if tool == FINAL_TOOL and _get(event, "ok"):
                    planned = run_profile
    interrupted = next(iter(open_calls.values()), None)
    return SizingStatus(profile=_profile(answers) or {}, sized_profile=sized, planned_profile=planned,
                        interrupted=interrupted)
