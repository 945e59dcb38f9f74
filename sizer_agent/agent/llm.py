"""Optional LLM backend: any OpenAI-compatible `/v1/chat/completions` endpoint with tool calling.

The model proposes; the deterministic side decides. Each user message is stored first (`UserSaid`), then
read by the deterministic rules (`sizer_agent.agent.understanding`): what they find is recorded before the
model is asked, with the customer's own words. The model extracts through one tool call, `record_answers`,
whose schema is the profile's; a value it proposes is recorded only when the user's own words support it
(the rules read the same value from them as an answer to that field, or the value is written there), is
validated like any typed answer, and where the rules read a field differently their value is kept. The
model never calls the sizing tools: they run on the recorded profile as soon as it is complete, and their
results are given to the model to phrase (it may look up models and catalogue offers). Every figure of its
text must come from the user, the profile or a tool result; a sentence with any other figure is dropped.
The API key is redacted from everything stored or shown.

If the endpoint fails — connection refused or dropped, HTTP error, malformed stream, tool calls still
malformed after the retries — the deterministic engine takes over on the same interview state: no answer
is lost and the conversation goes on offline.

Key: environment variable SIZER_LLM_API_KEY (sent as a Bearer token when set). A server that sends no
first token within `first_token_timeout_s` is abandoned for this message (the built-in engine answers).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Callable
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import from_json

from sizer_agent.agent import explain
from sizer_agent.agent.engine import DeterministicEngine, EventSink
from sizer_agent.agent.events import AgentMessage, Event, QuestionAsked, ToolCalled, ToolReturned, UserSaid
from sizer_agent.agent.profile import WorkloadProfile, validate_field
from sizer_agent.agent.questions import BY_ID, Lang, missing_questions
from sizer_agent.agent.state import InterviewState
from sizer_agent.agent.understanding.answers import parse_for_question
from sizer_agent.agent.understanding.intents import detect_intent
from sizer_agent.tools.bench.sse import SSEDecoder
from sizer_agent.tools.registry import ToolRegistry, default_registry

ENV_API_KEY = "SIZER_LLM_API_KEY"
RECORD_TOOL = "record_answers"
LOOKUP_TOOLS = ("list_models", "list_offers")  # what the model may call itself: lookups, no profile values
REDACTED = "[redacted]"
MAX_TOOL_CONTENT = 12_000  # characters of a tool result sent back to the model (context budget)


class LLMConfig(BaseModel):
    url: str  # base URL, e.g. http://127.0.0.1:8000/v1 (a trailing /chat/completions is accepted)
    model: str
    api_key: str | None = Field(default_factory=lambda: os.environ.get(ENV_API_KEY) or None)
    timeout_s: float = 60.0
    first_token_timeout_s: float = 8.0  # a stalled server hands over to the built-in engine after this
    max_tool_retries: int = 2  # malformed tool calls tolerated per user message before falling back
    max_rounds: int = 6  # model <-> tools round trips per user message
    temperature: float = 0.2
    max_tokens: int | None = None  # per completion; None leaves it to the server

    @property
    def endpoint(self) -> str:
        base = self.url.rstrip("/")
        return base if base.endswith("/chat/completions") else base + "/chat/completions"


class LLMUnavailableError(Exception):
    """The endpoint cannot be used for this message; the deterministic engine takes over."""


class RecordAnswers(BaseModel):
    """Input of the `record_answers` tool: any subset of the profile, plus which values are assumed."""

    model_config = ConfigDict(extra="forbid")

    answers: dict[str, Any] = Field(description="profile field -> value, in the units named by the field")
    assumed: list[str] = Field(default_factory=list,
                               description="fields filled with the documented default after 'I don't know'")


def _record_tool_schema() -> dict[str, Any]:
    fields = WorkloadProfile.model_json_schema()
    return {
        "type": "function",
        "function": {
            "name": RECORD_TOOL,
            "description": (
                "Record the user's answers in the workload profile. Call it whenever the user gives one or "
                "more answers or corrections. Use the field names and units of the profile schema "
                "(tokens, ms, bytes, euros, watts, minutes)."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "answers": {"type": "object", "properties": fields.get("properties", {}),
                                "additionalProperties": False},
                    "assumed": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["answers"],
                "additionalProperties": False,
                "$defs": fields.get("$defs", {}),  # CustomArchitecture, referenced from the answers
            },
        },
    }


def _system_prompt(lang: Lang) -> str:
    language = "French" if lang == "fr" else "English"
    return (
        "You are a hardware sizing assistant interviewing a customer about an AI workload. Speak "
        f"{language}. Ask one question at a time: the next missing question given in the status message. "
        "When the user answers, call record_answers with every value you understood (several per message "
        "are fine), then confirm briefly what you recorded. The values a built-in reader found in the message "
        "are already in the profile of the status message, with the user's own words; add what it missed. "
        "If the user does not know, record the documented default and list the field in `assumed`. "
        "If asked why, explain with the given reason. Record only what the user said: a value not in the user's "
        "words is not recorded, so ask for it instead. Never invent a number: every figure you state must come "
        "from a tool result, the profile or the user, or the sentence is not shown. You do not call the sizing "
        "tools: they run by themselves once the profile is complete, and their results come back to you (in "
        "record_answers' result and in the status message); then explain them in plain words."
    )


def _status(state: InterviewState) -> str:
    profile = state.profile()
    missing = missing_questions(profile, state.answered())
    lang = state.lang
    status: dict[str, Any] = {"profile": profile.model_dump(mode="json", exclude_none=True),
                              "assumed": state.assumed()}
    if missing:
        q = missing[0]
        status["next_question"] = {"id": q.id, "text": q.text[lang], "why": q.why[lang],
                                   "default_on_dont_know": q.default_doc.get(lang)}
        status["still_missing"] = [m.id for m in missing]
    else:
        status["next_question"] = None
        status["instruction"] = "Profile complete: the tools sized it; explain their results."
    if state.results:
        sized = json.dumps({name: _essentials(name, result) for name, result in state.results.items()},
                           ensure_ascii=False)
        status["sizing_results"] = sized[:MAX_TOOL_CONTENT]
    return "Interview status (JSON): " + json.dumps(status, ensure_ascii=False)


def _essentials(tool: str, result: dict[str, Any]) -> dict[str, Any]:
    """What the model needs of a tool result to phrase it (the full result is shown to the user)."""
    if tool == "recommend":
        return {k: result.get(k) for k in ("status", "headline", "plan", "budget", "alternatives")}
    return result


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


_SCALES = (1, 1e3, 1e6, 1e9, 1e12, 2**10, 2**20, 2**30, 2**40, 0.01)  # units a figure may be restated in


def _numbers_in(value: Any, out: set[float], *, scaled: bool = True) -> None:
    """Every number a source states (in text too); `scaled`: also in the units it may be restated in (bytes
    as GB or GiB, ratios as %), to 0-2 decimals. Unscaled is what a small figure must match."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        v = float(value)
        for scale in _SCALES if scaled else (1,):
            for digits in (0, 1, 2) if scaled else (2,):
                out.add(round(v / scale, digits))
    elif isinstance(value, dict):
        for item in value.values():
            _numbers_in(item, out, scaled=scaled)
    elif isinstance(value, list | tuple):
        for item in value:
            _numbers_in(item, out, scaled=scaled)
    elif isinstance(value, str):
        for token in _NUMBER.findall(value):
            parsed = _to_float(token)
            if parsed is not None:
                _numbers_in(parsed, out, scaled=scaled)


def _to_float(token: str) -> float | None:
    cleaned = token.replace(" ", "")
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", cleaned):
        cleaned = cleaned.replace(",", "")
    else:
        cleaned = cleaned.replace(",", ".")
    try:
        return float(cleaned)
    except ValueError:
        return None


SMALL_FIGURE = 10.0  # at or below, a figure matches only a number stated as is (8 must not pass as 8192 / 1024)


def ungrounded_numbers(text: str, sources: list[Any], exact_sources: list[Any] | None = None) -> list[str]:
    """Figures in `text` that no source (tool results, user messages, profile) contains, after units.

    Every figure is checked. One at or below SMALL_FIGURE must appear as is in `exact_sources` (default: the
    sources): unit scaling would let almost any small number through."""
    allowed: set[float] = set()
    for source in sources:
        _numbers_in(source, allowed)
    exact: set[float] = set()
    for source in sources if exact_sources is None else exact_sources:
        _numbers_in(source, exact, scaled=False)
    bad = []
    for token in _NUMBER.findall(re.sub(r"\b(fp|bf|int|nf|mxfp|nvfp)\d+\b|\b\d+(st|nd|rd|th|er|e)\b", "", text)):
        value = _to_float(token)
        if value is None:
            continue
        if abs(value) <= SMALL_FIGURE:
            if round(value, 2) not in exact:
                bad.append(token)
        elif value not in allowed and not any(abs(value - a) <= 0.005 * abs(a) for a in allowed):
            bad.append(token)  # 0.5 % tolerance: the model may round a figure it was given
    return bad


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")


def grounded_text(text: str, sources: list[Any], exact_sources: list[Any] | None = None) -> tuple[str, int]:
    """`text` without the sentences that state a figure no source gives; and how many were dropped."""
    kept_lines: list[str] = []
    dropped = 0
    for line in text.splitlines():
        sentences = [part for part in _SENTENCE_END.split(line) if part]
        kept = [part for part in sentences if not ungrounded_numbers(part, sources, exact_sources)]
        dropped += len(sentences) - len(kept)
        if kept or not sentences:
            kept_lines.append(" ".join(kept))
    return "\n".join(kept_lines).strip(), dropped


class _Turn(BaseModel):
    content: str = ""
    tool_calls: list[dict[str, Any]] = Field(default_factory=list)


class LLMEngine:
    """Implements `ConversationEngine`; falls back to `DeterministicEngine` on the same state."""

    def __init__(
        self,
        config: LLMConfig,
        registry: ToolRegistry | None = None,
        *,
        lang: Lang = "fr",
        state: InterviewState | None = None,
        on_event: EventSink | None = None,
        client: httpx.Client | None = None,
        on_text: Callable[[str], None] | None = None,  # streamed text deltas, for a live view
    ) -> None:
        self.config = config
        self.registry = registry if registry is not None else default_registry()
        sink = None if on_event is None else (lambda event: on_event(self._redact_event(event)))
        self.fallback = DeterministicEngine(self.registry, lang=lang, state=state, on_event=sink)
        # read: the longest wait for a byte, so a server that never starts answering hands over quickly
        self.client = client or httpx.Client(timeout=httpx.Timeout(
            config.timeout_s, connect=5.0, read=min(config.first_token_timeout_s, config.timeout_s)))
        self.on_text = on_text
        self.failure: str | None = None  # why the LLM was abandoned; None while it is in use
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": _system_prompt(lang)}]
        self._out: list[Any] = []
        self._user_text = ""
        self._read_by_rules: dict[str, Any] = {}  # what the rules recorded from the current message

    @property
    def state(self) -> InterviewState:
        return self.fallback.state

    @property
    def active(self) -> bool:
        return self.failure is None

    # the same conveniences as DeterministicEngine, over the shared state
    @property
    def lang(self) -> Lang:
        return self.state.lang

    def set_lang(self, lang: Lang) -> None:
        self.fallback.set_lang(lang)  # the system prompt is rebuilt from the state each round

    def profile(self) -> WorkloadProfile:
        return self.fallback.profile()

    def missing(self) -> list[str]:
        return self.fallback.missing()

    @property
    def complete(self) -> bool:
        return self.fallback.complete

    def warm_up(self) -> list[str]:
        return self.fallback.warm_up()

    def _emit(self, event: BaseModel) -> None:
        self._out.append(event)  # redacted where it leaves: the sink (stored) and _shown (returned)
        if self.fallback.on_event is not None:
            self.fallback.on_event(event)

    # -- the API key appears nowhere: not stored, not shown, whoever echoes it --------------------------
    def _redact(self, value: Any) -> Any:
        key = self.config.api_key
        if not key or len(key) < 4:  # shorter is no secret, and would mangle ordinary text
            return value
        if isinstance(value, str):
            return value.replace(key, REDACTED)
        if isinstance(value, dict):
            return {self._redact(k): self._redact(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._redact(v) for v in value]
        return value

    def _redact_event(self, event: Any) -> Any:
        key = self.config.api_key
        if not key or len(key) < 4 or not isinstance(event, BaseModel):
            return event
        data = event.model_dump(mode="json")
        cleaned = self._redact(data)
        return event if cleaned == data else type(event).model_validate(cleaned)

    def _shown(self, events: list[Any]) -> list[Any]:
        """What a front end gets: whatever path an event took, the key is not in it."""
        return [self._redact_event(e) for e in events]

    def start(self) -> list[Event]:
        events = self._shown(self.fallback.start())  # needs no model: instant and offline
        text = "\n".join(getattr(e, "text", "") for e in events if e.kind in ("message", "question"))
        self.messages.append({"role": "assistant", "content": text})
        return events

    def resume_sizing(self) -> list[Event]:
        return self._shown(self.fallback.resume_sizing())  # the tools need no model

    def handle(self, text: str) -> list[Event]:
        if not self.active:
            return self._shown(self.fallback.handle(text))
        self._out = []
        self._emit(UserSaid(text=text))  # stored before the model is asked: the user's words are never lost
        self._out.extend(self.fallback.follow_language(text))
        checkpoint = len(self.messages)
        try:
            self._read_with_rules(text)
            self._size_if_complete()
            self._turn(text)
        except LLMUnavailableError as error:
            self.failure = self._redact(str(error))
            error = LLMUnavailableError(self.failure)
            del self.messages[checkpoint:]
            self._emit(AgentMessage(tone="error", text=(
                f"Le modèle de langage ne répond plus ({error}) ; je continue avec le moteur intégré, "
                "sans rien perdre." if self.state.lang == "fr" else
                f"The language model stopped answering ({error}); continuing with the built-in engine, "
                "nothing lost.")))
            out = self._out
            self._out = []
            return self._shown([*out, *self.fallback.handle(text)])
        out, self._out = self._out, []
        return self._shown(out)

    def _size_if_complete(self) -> dict[str, Any] | None:
        """Run the tools on the recorded profile when it is complete and changed: the model never sizes."""
        if missing_questions(self.state.profile(), self.state.answered()):
            return None
        if self.state.profile().model_dump(mode="json") != self.state.sized_profile:
            self._out.extend(self.fallback.run_tools())
        return {name: self.state.results[name] for name in ("estimate_memory", "estimate_vision", "recommend")
                if name in self.state.results}

    # -- one user message ------------------------------------------------------------------------------
    def _read_with_rules(self, text: str) -> None:
        """Record what the deterministic rules read in the message, before the model is asked."""
        parsed = self.fallback.read(text)
        values = {k: v for k, v in parsed.values.items() if k in WorkloadProfile.model_fields}
        self._read_by_rules = {}
        if parsed.intent != "answer" or not values:
            return
        said = {name: finding.words for name, finding in parsed.findings.items()}
        events, problems = self.fallback.apply_answers(values, raw_text=text, quiet=True, words=said)
        self._out.extend(events)
        self._read_by_rules = {k: self.state.answers[k].value for k in values
                               if k not in problems and k in self.state.answers}

    def _turn(self, text: str) -> None:
        self._user_text = text
        self.messages.append({"role": "user", "content": text})
        retries = 0
        results: list[Any] = []
        for _round in range(self.config.max_rounds):
            # the status lives in the one leading system message (some chat templates refuse a system
            # message anywhere else), refreshed each round rather than accumulated
            self.messages[0] = {"role": "system",
                                "content": _system_prompt(self.state.lang) + "\n\n" + _status(self.state)}
            turn = self._complete()
            if not turn.tool_calls:
                self._final_text(turn.content, text, results)
                return
            self.messages.append({"role": "assistant", "content": turn.content or None,
                                  "tool_calls": turn.tool_calls})
            for call in turn.tool_calls:
                ok, content, result = self._run_call(call)
                if result is not None:
                    results.append(result)
                if not ok:
                    retries += 1
                self.messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": content})
            if retries > self.config.max_tool_retries:
                raise LLMUnavailableError(f"tool calls still malformed after {self.config.max_tool_retries} retries")
        raise LLMUnavailableError(f"no answer after {self.config.max_rounds} tool rounds")

    def _user_texts(self) -> list[str]:
        return [str(m.get("content") or "") for m in self.messages if m.get("role") == "user"]

    def _final_text(self, content: str, user_text: str, results: list[Any]) -> None:
        self.messages.append({"role": "assistant", "content": content.strip()})
        profile = self.state.profile().model_dump(mode="json")
        sources: list[Any] = [user_text, profile, *self.state.results.values(), *results, *self._user_texts()]
        # a small figure ("8 GPUs") must be stated as is by the user, the profile, an estimate or the plan
        recommended = self.state.results.get("recommend") or {}
        exact: list[Any] = [user_text, profile, *self._user_texts(),
                            *(r for name, r in self.state.results.items() if name != "recommend"),
                            {k: recommended.get(k) for k in ("plan", "budget", "headline", "alternatives")}]
        content, dropped = grounded_text(content.strip(), sources, exact)
        if dropped and not content:
            # nothing the model said survives: the tools' own explanation when there is one
            estimate = self.state.results.get("estimate_memory")
            content = explain.estimate(estimate, self.state.profile(), self.state.lang,
                                               gpus_assumed="num_gpus" in self.state.assumed()) if estimate else ""
        missing = missing_questions(self.state.profile(), self.state.answered())
        if missing:
            q = missing[0]
            self.state.current_question = q.id
            self._emit(QuestionAsked(question_id=q.id, text=content or q.text[self.state.lang],
                                     why=q.why[self.state.lang],
                                     suggestions=list(q.suggestions.get(self.state.lang, ()))))
        elif content:
            self.state.current_question = None
            self._emit(AgentMessage(text=content, tone="info"))

    def _run_call(self, call: dict[str, Any]) -> tuple[bool, str, dict[str, Any] | None]:
        function = call.get("function") or {}
        name = str(function.get("name") or "")
        raw_args = function.get("arguments") or "{}"
        call_id = str(call.get("id") or f"call_{uuid.uuid4().hex[:12]}")
        if name != RECORD_TOOL and name not in LOOKUP_TOOLS:
            # a sizing tool with the model's own arguments would size something the user never said:
            # nothing runs, nothing is stored or shown, and the model is told how it works
            return False, (f"`{name}` is not a tool you call: the sizing tools run by themselves on the recorded "
                           "profile once it is complete, and their results come back to you. Record the "
                           "user's answers with record_answers, or ask for what is missing."), None
        try:
            arguments = json.loads(raw_args) if isinstance(raw_args, str) else raw_args
        except json.JSONDecodeError as error:
            message = f"Arguments are not valid JSON ({error.msg}). Send a JSON object matching the schema."
            self._emit(ToolCalled(call_id=call_id, tool=name, arguments={}))  # the model's text is not shown
            self._emit(ToolReturned(call_id=call_id, tool=name, ok=False, error=message))
            return False, message, None
        if not isinstance(arguments, dict):
            arguments = {"_raw": arguments}
        if name == RECORD_TOOL:
            return self._record(call_id, arguments)
        self._emit(ToolCalled(call_id=call_id, tool=name, arguments=arguments))
        outcome = self.registry.call(name, arguments)
        self._emit(ToolReturned(call_id=call_id, tool=name, ok=outcome.ok, result=outcome.result,
                                error=outcome.error, duration_ms=outcome.duration_ms))
        if outcome.ok and outcome.result is not None:
            content = json.dumps(outcome.result, ensure_ascii=False)
            if len(content) > MAX_TOOL_CONTENT:  # the full result is in the event; the model gets the head
                content = content[:MAX_TOOL_CONTENT] + " …(truncated; full result shown to the user)"
            return True, content, outcome.result
        return False, outcome.retry_message or outcome.error or "failed", None

    # -- what the model may record: only what the user's own words support -----------------------------
    def _supported(self, field: str, value: Any) -> bool:
        """The user's words support `value` for `field`: the rules read it from them as an answer to that
        field, or it is written there (a name, every figure of a number)."""
        texts = self._user_texts()
        question = BY_ID.get(field)
        try:
            wanted = validate_field(field, value, self.state.profile())
        except ValidationError:
            return False
        for text in texts:
            if question is not None:
                read = parse_for_question(question.type, field, text, question.choices,
                                          self.fallback.known_models, self.state.lang)
                if read is not None:
                    try:
                        if validate_field(field, read, self.state.profile()) == wanted:
                            return True
                    except ValidationError:
                        pass
        said = " ".join(texts).casefold()
        if isinstance(wanted, bool) or wanted is None:
            return False  # yes/no and "none" come only from the rules' reading of an answer
        if isinstance(wanted, int | float):
            numbers: set[float] = set()
            _numbers_in(said, numbers, scaled=False)
            return round(float(wanted), 2) in numbers
        if isinstance(wanted, str):
            return len(wanted) >= 2 and wanted.casefold() in said
        return False

    def _assumption_allowed(self, field: str, value: Any) -> bool:
        """"I don't know" to the question asked: its documented default, nothing else."""
        question = BY_ID.get(field)
        if question is None or field != self.state.current_question or not question.has_default(self.state.profile()):
            return False
        if detect_intent(self._user_text) != "dont_know":
            return False
        return value is None or value == question.default_for(self.state.profile())

    def _record(self, call_id: str, arguments: dict[str, Any]) -> tuple[bool, str, dict[str, Any] | None]:
        try:
            request = RecordAnswers.model_validate(arguments)
        except ValidationError as error:
            message = "Invalid record_answers arguments: " + "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors())
            self._emit(ToolCalled(call_id=call_id, tool=RECORD_TOOL, arguments={}))
            self._emit(ToolReturned(call_id=call_id, tool=RECORD_TOOL, ok=False, error=message))
            return False, message, None
        unknown = [k for k in request.answers if k not in WorkloadProfile.model_fields]
        values = {k: v for k, v in request.answers.items() if k not in unknown}
        # merged with the rules' reading: a field they read from the customer's words keeps their value
        kept = {k: self._read_by_rules[k] for k, v in values.items()
                if k in self._read_by_rules and v != self._read_by_rules[k]}
        values = {k: v for k, v in values.items() if k not in kept and k not in self._read_by_rules}
        assumed = {f for f in request.assumed if f in values and self._assumption_allowed(f, values[f])}
        if len(assumed) == 1 and values.get(next(iter(assumed))) is None:
            field = next(iter(assumed))
            values[field] = BY_ID[field].default_for(self.state.profile())
        invalid: dict[str, str] = {}
        for field, value in values.items():  # validated like any answer first: the model is told what is wrong
            try:
                validate_field(field, value, self.state.profile())
            except ValidationError as error:
                invalid[field] = "; ".join(e["msg"] for e in error.errors())
        values = {k: v for k, v in values.items() if k not in invalid}
        unsupported = sorted(k for k, v in values.items() if k not in assumed and not self._supported(k, v))
        values = {k: v for k, v in values.items() if k not in unsupported}
        # what is shown and stored of the call: the values the user's words support, never the others
        self._emit(ToolCalled(call_id=call_id, tool=RECORD_TOOL,
                              arguments={"answers": values, "assumed": sorted(assumed)}))
        events, problems = self.fallback.apply_answers(
            values, raw_text=self._user_text, assumed=frozenset(assumed))
        self._out.extend(events)  # already sent to on_event by the deterministic engine
        problems.update(invalid)
        problems.update({k: "unknown field" for k in unknown})
        recorded = sorted(set(values) - set(problems))
        result: dict[str, Any] = {
            "recorded": recorded, "refused": problems,
            "missing": [q.id for q in missing_questions(self.state.profile(), self.state.answered())]}
        if unsupported:  # not an error of the call: the user has to say it
            result["not_in_the_users_words"] = unsupported
            result["instruction"] = ("Values not in the user's words were not recorded: ask the user for them, "
                                     "without suggesting a value.")
        if kept:  # not an error: the customer's own words decided
            result["kept_from_the_message"] = kept
        ok = not problems
        self._emit(ToolReturned(call_id=call_id, tool=RECORD_TOOL, ok=ok,
                                result={k: v for k, v in result.items() if k != "instruction"},
                                error=None if ok else json.dumps(sorted(problems), ensure_ascii=False)))
        sized = self._size_if_complete()
        if sized:  # the tools ran on the complete profile: their results go back to the model to phrase
            result = {**result, "sizing_results": {k: _essentials(k, v) for k, v in sized.items()}}
        content = json.dumps(result, ensure_ascii=False)
        if len(content) > MAX_TOOL_CONTENT:
            content = content[:MAX_TOOL_CONTENT] + " …(truncated; full results shown to the user)"
        return ok, content, sized or None

    # -- HTTP ------------------------------------------------------------------------------------------
    def _complete(self) -> _Turn:
        headers = {"Content-Type": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        payload = {
            "model": self.config.model,
            "messages": self.messages,
            "tools": [_record_tool_schema(), *self.registry.openai_tools([n for n in LOOKUP_TOOLS
                                                                          if n in self.registry])],
            "tool_choice": "auto",
            "stream": True,
            "temperature": self.config.temperature,
        }
        if self.config.max_tokens is not None:
            payload["max_tokens"] = self.config.max_tokens
        try:
            with self.client.stream("POST", self.config.endpoint, json=payload, headers=headers) as response:
                if response.status_code >= 400:
                    detail = self._redact(response.read().decode("utf-8", "replace").strip().replace("\n", " "))[:200]
                    raise LLMUnavailableError(f"HTTP {response.status_code} from {self.config.endpoint}"
                                              + (f": {detail}" if detail else ""))
                kind = response.headers.get("content-type", "")
                if "text/event-stream" not in kind:  # a server that ignores stream=True
                    response.read()
                    return self._from_json(response.json())
                return self._from_stream(response.iter_bytes())
        except httpx.HTTPError as error:
            raise LLMUnavailableError(f"{type(error).__name__}: {error}".rstrip(": ")) from error
        except (ValueError, KeyError, TypeError, AttributeError, IndexError) as error:
            raise LLMUnavailableError(f"malformed response: {type(error).__name__}: {error}") from error

    def _from_json(self, body: dict[str, Any]) -> _Turn:
        message = body["choices"][0]["message"]
        return _Turn(content=message.get("content") or "", tool_calls=message.get("tool_calls") or [])

    def _from_stream(self, data: Any) -> _Turn:
        """Assemble one streamed completion (text deltas and tool-call fragments) from raw SSE bytes, with
        the project's shared decoder (tools/bench/sse.py)."""
        content: list[str] = []
        calls: dict[int, dict[str, Any]] = {}
        decoder = SSEDecoder()
        for block in data:
            for payload in decoder.feed(block):  # MalformedStream is a ValueError: "malformed response"
                chunk = from_json(payload)
                if not isinstance(chunk, dict):
                    raise ValueError("an event that is not a JSON object")
                if chunk.get("error"):
                    raise LLMUnavailableError(f"server error: {chunk['error']}")
                for choice in chunk.get("choices") or []:
                    self._add_delta((choice or {}).get("delta") or {}, content, calls)
            if decoder.done:
                break
        if not decoder.done:
            raise LLMUnavailableError("the stream ended before [DONE] (connection dropped)")
        return _Turn(content="".join(content), tool_calls=[calls[i] for i in sorted(calls)])

    def _add_delta(self, delta: dict[str, Any], content: list[str], calls: dict[int, dict[str, Any]]) -> None:
        if delta.get("content"):
            content.append(delta["content"])
            if self.on_text is not None:
                self.on_text(delta["content"])
        for part in delta.get("tool_calls") or []:
            slot = calls.setdefault(int(part.get("index", 0)),
                                    {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
            if part.get("id"):
                slot["id"] = part["id"]
            function = part.get("function") or {}
            slot["function"]["name"] += function.get("name") or ""
            slot["function"]["arguments"] += function.get("arguments") or ""


def add_llm_arguments(parser: Any) -> None:
    """--llm-url / --llm-model for any command that runs an interview (the key comes from the environment)."""
    parser.add_argument("--llm-url", metavar="URL", default=None,
                        help="OpenAI-compatible endpoint with tool calling, e.g. http://127.0.0.1:8000/v1 "
                             f"(key: ${ENV_API_KEY}); without it the built-in deterministic engine runs")
    parser.add_argument("--llm-model", metavar="NAME", default=None, help="model name sent to the endpoint")


def make_engine(
    llm_url: str | None = None, llm_model: str | None = None, **kwargs: Any
) -> DeterministicEngine | LLMEngine:
    """The engine a front end should use: LLM when --llm-url is given, else deterministic."""
    if llm_url:
        return LLMEngine(LLMConfig(url=llm_url, model=llm_model or "default"), **kwargs)
    kwargs.pop("client", None)
    kwargs.pop("on_text", None)
    return DeterministicEngine(**kwargs)


__all__ = [
    "ENV_API_KEY", "LLMConfig", "LLMEngine", "LLMUnavailableError", "add_llm_arguments", "make_engine",
    "ungrounded_numbers",
]
