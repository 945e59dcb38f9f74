"""Headless intake: the whole interview from one answers file or a free-text brief, all problems at once.

A brief (a customer's e-mail) is read like a first chat message (`read_brief`): every field it states,
with the words it came from, and the questions it leaves open. Given with an answers file, the answers
win and the brief fills the rest.

An answers file maps profile fields to values. A value may be typed (`concurrency: 32`) or free text read
like a chat answer (`context_len: "8k"`, `dataset_size_bytes: "1,5 To"`, `budget_eur: "pas de limite"`);
`"je ne sais pas"` / `"I don't know"` takes the question's documented default and marks it assumed.
Optional top-level keys: `lang` (fr|en) and `title`.

The interview runs in memory first; only a complete, valid profile whose estimate succeeded is stored,
so a file with mistakes never leaves a half-wrong session behind.
"""

from __future__ import annotations

import json
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field, ValidationError

from sizer_agent.agent.engine import DeterministicEngine, bundled_model_names
from sizer_agent.agent.events import AgentMessage, ToolReturned
from sizer_agent.agent.planning import question_for_error
from sizer_agent.agent.profile import PROFILE_FIELDS, WorkloadProfile, validate_field
from sizer_agent.agent.questions import BY_ID, Lang, missing_questions
from sizer_agent.agent.understanding import (
    MAX_CHARS,
    detect_intent,
    detect_language,
    no_limit,
    parse_for_question,
    parse_message,
)
from sizer_agent.tools.registry import ToolRegistry

META_KEYS = ("lang", "title")


class IntakeProblem(BaseModel):
    field: str
    kind: Literal["missing", "invalid", "unknown_field", "tool"]
    message: str


class IntakeResult(BaseModel):
    ok: bool
    lang: Lang = "fr"
    title: str = ""
    problems: list[IntakeProblem] = Field(default_factory=list)
    profile: dict[str, Any] = Field(default_factory=dict)
    assumed: list[str] = Field(default_factory=list)
    events: list[dict[str, Any]] = Field(default_factory=list)  # Event dicts, in order


class BriefField(BaseModel):
    """One field a brief states, with the words it came from."""

    field: str
    value: Any
    words: str  # the brief's own words
    span: tuple[int, int]  # where they are in the brief (characters)
    approximate: bool  # "about 50", "une vingtaine"
    rule: str  # the rule that read it (sizer_agent/agent/understanding/table.py)


class OpenQuestion(BaseModel):
    """A question the brief leaves open, and what "I don't know" would record."""

    field: str
    question: str
    default: str | None  # None: no default, an answer is required


class BriefReading(BaseModel):
    lang: Lang
    understood: list[BriefField] = Field(default_factory=list)  # in the brief's order
    dropped: list[IntakeProblem] = Field(default_factory=list)  # values read but refused by the profile
    suggestions: dict[str, list[str]] = Field(default_factory=dict)  # field -> "did you mean" values
    to_confirm: list[str] = Field(default_factory=list)  # fields named with several values: none recorded
    # those fields' candidates as values (ids, numbers), for scripts and for showing them in words
    candidates: dict[str, list[Any]] = Field(default_factory=dict)
    open: list[OpenQuestion] = Field(default_factory=list)  # still to ask, in interview order
    # workloads named that the tools do not size, as (kind, words): "image_generation", "Stable Diffusion XL"
    unsupported: list[tuple[str, str]] = Field(default_factory=list)
    read_chars: int = 0  # characters read: a brief longer than MAX_CHARS is read up to there
    truncated: bool = False

    @property
    def values(self) -> dict[str, Any]:
        return {f.field: f.value for f in self.understood}


def read_brief(text: str, lang: Lang | None = None, known_models: list[str] | None = None) -> BriefReading:
    """Everything a free-text brief states, validated like any answer, and the questions left open."""
    detected = detect_language(text).lang
    chosen: Lang = lang or detected or "fr"
    parsed = parse_message(text, known_models=known_models, lang=detected or chosen)
    understood: list[BriefField] = []
    dropped: list[IntakeProblem] = []
    base = WorkloadProfile()
    for name, finding in sorted(parsed.findings.items(), key=lambda item: item[1].span):
        try:
            value = validate_field(name, finding.value, base)
        except ValidationError as error:
            dropped.append(IntakeProblem(field=name, kind="invalid",
                                         message="; ".join(e["msg"] for e in error.errors())))
            continue
        base = WorkloadProfile.model_validate({**base.model_dump(), name: value})
        understood.append(BriefField(field=name, value=value, words=finding.words, span=finding.span,
                                     approximate=finding.approximate, rule=finding.rule))
    open_questions = [
        OpenQuestion(field=q.id, question=q.text[chosen],
                     default=q.default_doc.get(chosen) if q.has_default(base) else None)
        for q in missing_questions(base, frozenset(f.field for f in understood))
    ]
    suggestions = {k: list(v) for k, v in parsed.suggestions.items() if getattr(base, k, None) is None}
    return BriefReading(lang=chosen, understood=understood, dropped=dropped, open=open_questions,
                        suggestions=suggestions, to_confirm=[k for k in parsed.doubts if k in suggestions],
                        candidates={k: list(v) for k, v in parsed.doubts.items() if k in suggestions},
                        unsupported=list(parsed.unsupported), read_chars=min(len(text), MAX_CHARS),
                        truncated=len(text) > MAX_CHARS)


def _read_value(field: str, raw: Any) -> tuple[Any, bool]:
    """(value, assumed) for one file entry; raises ValueError with a user message when unreadable."""
    question = BY_ID.get(field)
    if isinstance(raw, bool) and bool not in get_args(WorkloadProfile.model_fields[field].annotation):
        raise ValueError(f"{str(raw).lower()} is a yes/no answer, not a value for this question")
    if isinstance(raw, str) and question is None and detect_intent(raw) == "dont_know":
        return None, True  # an optional field nobody knows (e.g. the revision) stays unset, marked assumed
    if isinstance(raw, str) and question is not None and detect_intent(raw) == "dont_know":
        if not question.has_default():
            raise ValueError("no default exists for this question; an answer is required")
        return _DEFAULT, True
    if isinstance(raw, str) and question is not None and question.type not in ("text",):
        known = bundled_model_names() if field == "model" else None
        value = parse_for_question(question.type, field, raw, question.choices, known)
        if value is None:
            found = parse_message(raw, known_models=known).values.get(field)
            value = found
        if value is None and question.type in ("money", "power", "integer") and no_limit(raw) and \
                question.has_default() and question.default is None:
            return None, False
        if value is None:
            raise ValueError(f"could not read {raw!r} (example: {question.example['en']!r})")
        return value, False
    return raw, False


_DEFAULT = object()


def run_intake(
    data: dict[str, Any], registry: ToolRegistry | None = None, *, lang: Lang | None = None,
    run_tools: bool = True, brief: BriefReading | None = None, assume_defaults: bool = False,
) -> IntakeResult:
    """The interview from an answers mapping; a brief's values fill the fields the answers leave out.

    `assume_defaults` answers "I don't know" to every question left open that has a documented default
    (each recorded as an assumption); a question without a default stays a problem.
    """
    if not isinstance(data, dict):
        return IntakeResult(ok=False, problems=[IntakeProblem(
            field="(file)", kind="invalid", message="the answers file must be a mapping of field: value")])
    chosen: Lang = lang or ("en" if data.get("lang") == "en" else (
        "fr" if data.get("lang") == "fr" or brief is None else brief.lang))
    title = str(data.get("title") or "")
    problems: list[IntakeProblem] = []
    if data.get("lang") not in (None, "fr", "en"):
        problems.append(IntakeProblem(field="lang", kind="invalid",
                                      message=f"{data['lang']!r} is not a language of the interview (allowed: fr, en)"))
    if data.get("title") is not None and not (isinstance(data["title"], str) and len(data["title"]) <= 200):
        problems.append(IntakeProblem(field="title", kind="invalid", message="must be text of at most 200 characters"))
    values: dict[str, Any] = {}
    assumed: set[str] = set()
    for key, raw in data.items():
        if key in META_KEYS:
            continue
        if key not in PROFILE_FIELDS:
            problems.append(IntakeProblem(field=str(key), kind="unknown_field", message=(
                f"not a profile field (allowed: {', '.join(PROFILE_FIELDS)})")))
            continue
        try:
            value, is_assumed = _read_value(key, raw)
        except ValueError as error:
            problems.append(IntakeProblem(field=key, kind="invalid", message=str(error)))
            continue
        values[key] = value
        if is_assumed:
            assumed.add(key)
    from_brief = {} if brief is None else {
        f.field: f for f in brief.understood if f.field not in data and f.field not in {p.field for p in problems}}
    values.update({name: finding.value for name, finding in from_brief.items()})  # the answers file wins

    # defaults depend on other answers (QLoRA -> nf4): resolve them on the profile of the given answers
    given = {k: v for k, v in values.items() if v is not _DEFAULT}
    base = WorkloadProfile()
    for key, value in list(given.items()):
        try:
            given[key] = validate_field(key, value)
        except ValidationError as error:
            problems.append(IntakeProblem(field=key, kind="invalid",
                                          message="; ".join(e["msg"] for e in error.errors())))
            del given[key]
            continue
    try:
        base = WorkloadProfile.model_validate(given)
    except ValidationError:  # each field was checked alone above; a combination error is reported here
        base = WorkloadProfile()
    for key in assumed:
        if key in BY_ID:  # an optional field has no default: it stays unset
            given[key] = BY_ID[key].default_for(base)

    answered = frozenset(given) | {p.field for p in problems}  # a wrong answer is reported once, not twice
    try:
        profile = WorkloadProfile.model_validate(given)
    except ValidationError:
        profile = base
    if assume_defaults and brief is not None:
        # "I don't know" to a "did you mean X?" with one candidate takes X, said as an assumption like any default
        for name, candidates in brief.suggestions.items():
            if name not in given and name not in answered and len(candidates) == 1:
                given[name] = candidates[0]
                assumed.add(name)
                answered = answered | {name}
        try:
            profile = WorkloadProfile.model_validate(given)
        except ValidationError:
            profile = base
    while assume_defaults:  # a default can open another question (use case -> its load): until none is left
        open_with_default = [q for q in missing_questions(profile, answered) if q.has_default(profile)]
        if not open_with_default:
            break
        done: set[str] = set()
        for question in open_with_default:
            # one at a time: a default may follow another's ("online serving" assumed, then vLLM as its engine)
            if not question.has_default(profile):
                continue
            given[question.id] = question.default_for(profile)
            assumed.add(question.id)
            done.add(question.id)
            try:
                profile = WorkloadProfile.model_validate(given)
            except ValidationError:
                break
        answered = answered | done
        try:
            profile = WorkloadProfile.model_validate(given)
        except ValidationError:
            break
    for question in missing_questions(profile, answered):
        default = question.default_doc.get("en") if question.has_default(profile) else None
        hint = f" (answer it, or write \"I don't know\" to use the default: {default})" if default else ""
        problems.append(IntakeProblem(field=question.id, kind="missing",
                                      message=question.text["en"] + hint))
    if problems:
        return IntakeResult(ok=False, lang=chosen, title=title, problems=problems)

    engine = DeterministicEngine(registry, lang=chosen)
    said = {k: v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for k, v in data.items()
            if k in given}  # each answer keeps the words of the file; a default assumed with no words has none
    said.update({name: finding.words for name, finding in from_brief.items() if name in given})
    events, refused = engine.apply_answers(given, raw_text="", assumed=frozenset(assumed),
                                           raw_texts=said)
    for key, message in refused.items():
        problems.append(IntakeProblem(field=key, kind="invalid", message=message))
    if not problems and run_tools:
        tool_events = engine.run_tools()
        events += tool_events
        for event in tool_events:
            if isinstance(event, ToolReturned) and not event.ok:
                field = question_for_error(event.error) or event.tool
                problems.append(IntakeProblem(
                    field=field, kind="tool",
                    message=f"{event.tool}: {event.error}"))
    else:
        events += [AgentMessage(text="tools not run (--no-tools)")] if not run_tools else []
    return IntakeResult(
        ok=not problems, lang=chosen, title=title or str(given.get("customer") or ""), problems=problems,
        profile=engine.profile().model_dump(mode="json"), assumed=sorted(assumed),
        events=[e.model_dump(mode="json") for e in events],
    )
