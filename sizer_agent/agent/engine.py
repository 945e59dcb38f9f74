"""The deterministic conversation engine: the default backend, offline, no model.

It asks the next required unanswered question, understands free text (several answers per message,
units, French and English), confirms what it understood, accepts corrections, "I don't know" (documented
default, marked assumed) and "why?", re-asks nonsense with a hint, and once the profile is complete calls
the tools through the registry and explains the results with numbers taken from the results only.

Every event is handed to `on_event` as soon as it exists (the session store commits it there), so an
answer is saved before any tool runs.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from sizer_agent.agent import explain, wording
from sizer_agent.agent.events import (
    AgentMessage,
    AnswerRecorded,
    Event,
    LanguageChanged,
    ProfileUpdated,
    QuestionAsked,
    ToolCalled,
    ToolReturned,
)
from sizer_agent.agent.planning import (
    bench_arguments,
    cluster_arguments,
    estimate_arguments,
    question_for_error,
    recommend_arguments,
    vision_arguments,
)
from sizer_agent.agent.profile import PROFILE_FIELDS, TRAINING_USE_CASES, WorkloadProfile, validate_field
from sizer_agent.agent.questions import BY_ID, Lang, Question, field_label, missing_questions
from sizer_agent.agent.state import InterviewState
from sizer_agent.agent.understanding import (
    ParseResult,
    detect_language,
    parse_for_question,
    parse_message,
    strip_correction,
)
from sizer_agent.agent.understanding.answers import yes_or_no
from sizer_agent.agent.understanding.reading import ANSWER_RULE
from sizer_agent.i18n import render
from sizer_agent.tools.registry import ToolOutcome, ToolRegistry, default_registry

EventSink = Callable[[Any], None]
# A message is a pasted brief, restated field by field, when it is this long and names this many fields.
BRIEF_MIN_CHARS = 120
BRIEF_MIN_FIELDS = 3


# a question answered around this many times in a row is asked again after the others, not a third time
DEFER_AFTER = 2

class DeterministicEngine:
    """Implements `sizer_agent.agent.events.ConversationEngine`."""

    def __init__(
        self,
        registry: ToolRegistry | None = None,
        *,
        lang: Lang = "fr",
        state: InterviewState | None = None,
        on_event: EventSink | None = None,
        known_models: list[str] | None = None,
    ) -> None:
        self.registry = registry if registry is not None else default_registry()
        self.state = state if state is not None else InterviewState(lang=lang)
        self.on_event = on_event
        self.known_models = known_models if known_models is not None else bundled_model_names()
        self._out: list[Any] = []

    # -- public API ------------------------------------------------------------------------------------
    @property
    def lang(self) -> Lang:
        return self.state.lang

    def set_lang(self, lang: Lang) -> None:
        """The consultant chose the language (F2, `--lang`): it stays, whatever the customer writes next."""
        if lang != self.state.lang:
            self.state.lang_pinned = True
        self.state.lang = lang

    def read(self, text: str) -> ParseResult:
        """What the rules read in a message, for the open question, in the conversation's language."""
        current = self._current()
        training = self.profile().use_case in TRAINING_USE_CASES  # "sur 2 000 milliards de tokens" then sizes it
        return parse_message(text, current.id if current else None, current.type if current else None,
                             current.choices if current else (), self.known_models, lang=self.lang,
                             training=training)

    def follow_language(self, text: str) -> list[Event]:
        """Answer in the language the customer writes, unless the consultant chose one (`set_lang`)."""
        self._out = []
        self._follow_language(detect_language(text).lang)
        return self._flush()

    def profile(self) -> WorkloadProfile:
        return self.state.profile()

    def missing(self) -> list[str]:
        return [q.id for q in missing_questions(self.profile(), self.state.answered())]

    @property
    def complete(self) -> bool:
        return not self.missing()

    def start(self) -> list[Event]:
        self._out = []
        if not self.state.answers:
            self._emit(AgentMessage(text=render(self.lang, "agent.say.hello")))
        else:
            summary = ", ".join(
                f"{field_label(f, self.lang)} {wording.format_value(f, a.value, self.lang)}"
                for f, a in self.state.answers.items() if f != "model_family"
            )
            self._emit(AgentMessage(text=render(self.lang, "agent.say.resumed", summary=summary)))
            self._emit(self._profile_event())
            if self.complete and self._sized():
                self._emit(AgentMessage(tone="hint", text=render(self.lang, "agent.say.resumed_complete")))
        self._advance(run_tools=False)
        return self._flush()

    def resume_sizing(self) -> list[Event]:
        """After a resume: size again when the last run did not finish for these answers (the process died
        during a tool, or after an answer and before the tools). Nothing when the results are current."""
        self._out = []
        if self.state.answers and self.complete and not self._sized():
            self._emit(AgentMessage(text=render(self.lang, "agent.say.resumed_resize")))
            self._run_tools()
        return self._flush()

    def _sized(self) -> bool:
        return self.profile().model_dump(mode="json") == self.state.sized_profile

    def handle(self, text: str) -> list[Event]:
        self._out = []
        try:
            self._handle(text)
        except Exception as error:  # a bug must not end the interview: say it, keep the session
            self._emit(AgentMessage(tone="error", text=render(
                self.lang, "agent.say.internal_error", error=type(error).__name__)))
            self._reask()
        return self._flush()

    def apply_answers(
        self, values: dict[str, Any], raw_text: str = "", assumed: frozenset[str] = frozenset(),
        raw_texts: dict[str, str] | None = None, *, quiet: bool = False, words: dict[str, str] | None = None,
    ) -> tuple[list[Event], dict[str, str]]:
        """Record several answers at once (answers file, LLM tool call). Returns events and the refusals
        (field -> reason); a refused value changes nothing. `raw_texts` gives a field its own words;
        `quiet` records without the "Understood: …" sentence (a caller that phrases it itself); `words`:
        the exact words of the message each value was read from."""
        self._out = []
        problems = self._record(values, raw_text, correction=False, assumed=assumed, raw_texts=raw_texts,
                                quiet=quiet, words=words)
        if self.state.answers:
            self._emit(self._profile_event())
        return self._flush(), problems

    def run_tools(self) -> list[Event]:
        """Call the tools for the current profile (the profile must be complete)."""
        self._out = []
        self._run_tools()
        return self._flush()

    def warm_up(self) -> list[str]:
        """Import every tool now (a front end calls it in a background worker after the first question),
        so that the first answer that completes the profile does not pay the imports, and build the indexes
        free text is read with (GPU catalogue, model registry: about 0.1 s). Returns the tools."""
        parse_message("warm up: 2 H100, Llama 3.1 8B")
        return self.registry.names()

    def next_question(self) -> list[Event]:
        self._out = []
        self._advance(run_tools=False)
        return self._flush()

    # -- internals -------------------------------------------------------------------------------------
    def _emit(self, event: BaseModel) -> None:
        self._out.append(event)
        if self.on_event is not None:
            self.on_event(event)

    def _flush(self) -> list[Event]:
        out, self._out = self._out, []
        return out

    def _current(self) -> Question | None:
        qid = self.state.current_question
        return BY_ID.get(qid) if qid else None

    def _follow_language(self, lang: Lang | None) -> None:
        """A message in the other language switches the conversation to it, said once, in that language."""
        if lang is None or lang == self.state.lang or self.state.lang_pinned:
            return
        self.state.lang = lang
        self._emit(LanguageChanged(lang=lang))
        self._emit(AgentMessage(tone="hint", text=render(lang, "agent.language.switched")))

    def _handle(self, text: str) -> None:
        current = self._current()
        parsed = self.read(text)
        self._follow_language(parsed.lang)
        if parsed.intent == "empty":
            self._reask()
            return
        if parsed.intent == "why":
            if current is None:
                self._emit(AgentMessage(text=render(self.lang, "agent.misc.all_answered")))
                return
            self._emit(AgentMessage(text=wording.why(current.id, self.lang)))
            self._reask()
            return
        if parsed.intent == "dont_know":
            self._dont_know(current, text)
            return
        self._answer(parsed, current, text)

    def _dont_know(self, current: Question | None, text: str) -> None:
        if current is None:
            self._emit(AgentMessage(tone="hint", text=wording.not_understood(None, text, 1, self.lang)))
            return
        if not current.has_default(self.profile()):
            self._emit(AgentMessage(tone="hint", text=wording.no_default(current.id, self.lang)))
            self._reask()
            return
        value = current.default_for(self.profile())
        self._record({current.id: value}, text, correction=False, assumed=frozenset({current.id}), quiet=True)
        self._emit(AgentMessage(tone="confirm", text=wording.assumed_default(
            current.id, value, self.lang, cloud_excluded=bool(self.profile().cloud_excluded))))
        self._emit(self._profile_event())
        self._advance(run_tools=True)

    def _answer(self, parsed: ParseResult, current: Question | None, text: str) -> None:
        values = dict(parsed.values)
        offered = self.state.suggested.get(current.id) if current else None
        pending = self.state.to_confirm.get(current.id, []) if current else []
        if offered is None and current is not None and len(pending) == 1:
            offered = parse_for_question(current.type, current.id, pending[0], current.choices, self.known_models)
        said_yes = yes_or_no(text) is True and (
            current is None or current.id not in parsed.findings or parsed.findings[current.id].rule == ANSWER_RULE)
        if current is not None and offered is not None and said_yes:
            values[current.id] = offered  # "oui" to "Did you mean Llama 3.1 8B Instruct?"
        keyword_fields = set(values) - {current.id} if current else set(values)
        # "non, plutôt 64": a bare value in a correction belongs to the last answer, not the new question
        last = self.state.last_field
        if parsed.correction and last and last in BY_ID and not keyword_fields and (
                current is None or last != current.id):
            bare = parse_for_question(BY_ID[last].type, last, _strip_markers(text), BY_ID[last].choices,
                                      self.known_models)
            if bare is not None:
                values = {last: bare}
        if "model_family" in values and "model" not in values:
            values.pop("model_family")
        for kind, words in parsed.unsupported:  # "Stable Diffusion XL": said plainly, before the questions go on
            self._emit(AgentMessage(tone="hint", text=wording.unsupported_said(kind, words, self.lang)))
        if not values:
            self._offer_suggestions(parsed, values)
            self.state.misunderstood += 1
            self._emit(AgentMessage(tone="hint", text=wording.not_understood(
                current.id if current else None, text, self.state.misunderstood, self.lang)))
            self._reask(hint=True)
            return
        self.state.misunderstood = 0
        self.state.suggested = {}
        brief = _is_brief(parsed, text)
        problems = self._record(values, text, correction=parsed.correction, quiet=brief,
                                words={name: finding.words for name, finding in parsed.findings.items()})
        for field, reason in problems.items():
            self._emit(AgentMessage(tone="error", text=wording.invalid(field, reason, self.lang)))
        accepted = set(values) - set(problems)
        if brief:
            findings = [f for name, f in parsed.findings.items() if name in accepted]
            self._emit(AgentMessage(tone="confirm", text=wording.restate(findings, len(self.missing()), self.lang)))
        self._offer_suggestions(parsed, values)
        if accepted:
            self._emit(self._profile_event())
        if not accepted:
            self._reask(hint=True)
            return
        if current is not None and current.id not in accepted:
            # answered around: asked once more, then after the others (DEFER_AFTER times)
            self.state.answered_around[current.id] = self.state.answered_around.get(current.id, 0) + 1
        self._advance(run_tools=True)

    def _offer_suggestions(self, parsed: ParseResult, values: dict[str, Any]) -> None:
        """'Did you mean …?' for a model named loosely; a lone suggestion can be accepted with 'yes'.
        A field the message named several values for is recorded with none: the candidates are kept
        and offered when its question comes ('to confirm')."""
        for field in values:
            self.state.to_confirm.pop(field, None)
        for field, raw in parsed.doubts.items():
            if field in values or not raw or field in self.state.answers:
                continue
            candidates = [wording.format_value(field, value, self.lang) for value in raw]
            if field in BY_ID:
                self.state.to_confirm[field] = candidates
            self._emit(AgentMessage(tone="hint", text=wording.to_confirm(field, candidates, self.lang)))
        names = parsed.suggestions.get("model")
        if not names or "model" in values or "model" in parsed.doubts:
            return
        self._emit(AgentMessage(tone="hint", text=wording.did_you_mean(names, self.lang)))
        if len(names) == 1:
            self.state.suggested["model"] = names[0]

    def _record(
        self, values: dict[str, Any], raw_text: str, *, correction: bool,
        assumed: frozenset[str] = frozenset(), quiet: bool = False, raw_texts: dict[str, str] | None = None,
        words: dict[str, str] | None = None,
    ) -> dict[str, str]:
        problems: dict[str, str] = {}
        confirmed: list[tuple[str, Any, Any, bool]] = []
        base = self.profile()
        for field, raw_value in values.items():
            if field not in PROFILE_FIELDS:
                problems[field] = render(self.lang, "agent.misc.unknown_field")
                continue
            try:
                value = validate_field(field, raw_value, base)
            except ValidationError as error:
                problems[field] = "; ".join(e["msg"] for e in error.errors())
                continue
            previous_answer = self.state.answers.get(field)
            if previous_answer is not None and previous_answer.value == value and not (
                    previous_answer.assumed and field not in assumed):
                continue  # already known: nothing to record or say
            said = (raw_texts or {}).get(field, raw_text)
            previous = self.state.set_answer(field, value, said, field in assumed)
            base = self.profile()
            self._emit(AnswerRecorded(field=field, value=value, raw_text=said, assumed=field in assumed,
                                      previous=previous, label=field_label(field, self.lang),
                                      words=(words or {}).get(field, ""),
                                      shown=wording.format_answer(field, value, self.lang, assumed=field in assumed,
                                                                  cloud_excluded=bool(base.cloud_excluded))))
            if field != "model_family":
                confirmed.append((field, value, previous, previous_answer is not None))
        if confirmed and not quiet:
            revision = self.state.answers.get("model_revision")
            self._emit(AgentMessage(tone="confirm", text=wording.understood(
                confirmed, self.lang, revision.value if revision else None)))
        return problems

    def _profile_event(self) -> ProfileUpdated:
        profile = self.profile().model_dump(mode="json")
        return ProfileUpdated(
            profile=profile, missing=self.missing(), assumed=self.state.assumed(),
            shown={k: wording.format_value(k, v, self.lang) for k, v in profile.items() if v not in (None, "")},
        )

    def _ask(self, question: Question, hint: bool = False) -> None:
        self.state.current_question = question.id
        offered = self.state.suggested.get(question.id)
        first = self.state.to_confirm.get(question.id) or ([str(offered)] if offered else [])
        self._emit(QuestionAsked(
            question_id=question.id,
            text=question.text[self.lang],
            why=question.why[self.lang],
            suggestions=first + [s for s in question.suggestions.get(self.lang, ()) if s not in first],
            hint=question.example[self.lang] if hint else "",
        ))

    def _reask(self, hint: bool = False) -> None:
        current = self._current()
        if current is not None:
            self._ask(current, hint=hint)

    def _advance(self, run_tools: bool) -> None:
        """Ask the next missing question, or size the profile when it changed since the last sizing."""
        missing = missing_questions(self.profile(), self.state.answered())
        if missing:
            fresh = [q for q in missing if self.state.answered_around.get(q.id, 0) < DEFER_AFTER]
            self._ask((fresh or missing)[0])
            return
        self.state.current_question = None
        if run_tools and self.profile().model_dump(mode="json") != self.state.sized_profile:
            self._run_tools()

    def _call(self, tool: str, arguments: dict[str, Any]) -> ToolOutcome:
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        self._emit(ToolCalled(call_id=call_id, tool=tool, arguments=arguments))
        outcome = self.registry.call(tool, arguments)
        self._emit(ToolReturned(call_id=call_id, tool=tool, ok=outcome.ok, result=outcome.result,
                                error=outcome.error, duration_ms=outcome.duration_ms))
        if outcome.ok and outcome.result is not None:
            self.state.results[tool] = outcome.result
        return outcome

    def _run_tools(self) -> None:
        profile = self.profile()
        lang = self.lang
        self.state.sized_profile = profile.model_dump(mode="json")
        # the memory estimate of the job (a language model's or a vision network's), then the recommendation
        vision = profile.use_case == "vision"
        tool = "estimate_vision" if vision else "estimate_memory"
        if tool not in self.registry:
            self._emit(AgentMessage(tone="error", text=explain.tool_missing(tool, self.registry, lang)))
            return
        estimate = self._call(tool, vision_arguments(profile) if vision else estimate_arguments(profile))
        if not estimate.ok:
            self._emit(AgentMessage(tone="error", text=explain.tool_failed(tool, estimate, lang)))
            refused = question_for_error(estimate.error)
            if refused in BY_ID:  # ask that question again; the new answer replaces it and sizes again
                self._ask(BY_ID[refused], hint=True)
            return
        result = estimate.result or {}
        text = explain.estimate_vision(result, lang) if vision else explain.estimate(
            result, profile, lang, gpus_assumed="num_gpus" in self.state.assumed())
        self._emit(AgentMessage(tone="result", text=text))
        if "recommend" in self.registry:
            fields = set(self.registry.get("recommend").input_model.model_fields)
            arguments = recommend_arguments(profile, fields, self.state.assumed())
            outcome = self._call("recommend", arguments)
            if outcome.ok:
                self._emit(AgentMessage(tone="result", text=explain.recommendation(outcome.result or {}, lang)))
                # a training no configuration in scope ends in time: how many chips would, on the node offers
                asked = cluster_arguments(arguments, outcome.result or {}) if "size_cluster" in self.registry \
                    else None
                if asked is not None:
                    cluster = self._call("size_cluster", asked)
                    if cluster.ok:
                        self._emit(AgentMessage(tone="result", text=explain.cluster(cluster.result or {}, lang,
                                                                                prefer=profile.gpu_preference)))
            else:
                self._emit(AgentMessage(tone="error", text=explain.tool_failed("recommend", outcome, lang)))
        if profile.server_url and "bench_serve" in self.registry and not vision:
            fields = set(self.registry.get("bench_serve").input_model.model_fields)
            outcome = self._call("bench_serve", bench_arguments(profile, fields))
            self._emit(AgentMessage(
                tone="result" if outcome.ok else "error",
                text=explain.bench(outcome.result or {}, lang) if outcome.ok
                else explain.tool_failed("bench_serve", outcome, lang)))


def _strip_markers(text: str) -> str:
    return strip_correction(text)[0].strip(" ,.;:!")


def _is_brief(parsed: ParseResult, text: str) -> bool:
    """A pasted brief (an e-mail, a long first message): several fields read by the rules, not one answer."""
    read = [f for f in parsed.findings.values() if f.rule != ANSWER_RULE]
    return len(text) >= BRIEF_MIN_CHARS and len(read) >= BRIEF_MIN_FIELDS


def bundled_model_names() -> list[str]:
    """Names of the estimator's bundled models, to match spoken names against (empty without it)."""
    return list(_bundled_model_names())


@functools.lru_cache(maxsize=1)
def _bundled_model_names() -> tuple[str, ...]:
    try:
        from sizer_agent.tools.model_loader import list_models
    except ImportError:
        return ()
    try:
        return tuple(spec.name for spec in list_models())
    except Exception:  # a broken registry file must not stop the interview
        return ()
