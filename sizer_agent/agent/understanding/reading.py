"""`parse_message`: everything one message says, for the engine, the intake and the LLM backend.

The message's language is detected first (numbers are read in it: "1,5" is 1.5 in French); the rules
of `table.RULES` then read every field the message names; a short answer to the open question ("32",
"oui") is read as that question's type. Never raises: a value a pattern finds but cannot convert is not
returned, and a message longer than `MAX_CHARS` is read up to that length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sizer_agent.agent.understanding.answers import no_limit, parse_for_question, text_length_tokens
from sizer_agent.agent.understanding.doubt import second_reading, shown
from sizer_agent.agent.understanding.intents import Intent, detect_intent, strip_correction
from sizer_agent.agent.understanding.language import detect_language
from sizer_agent.agent.understanding.load import WILL_USE
from sizer_agent.agent.understanding.models import family_of_model
from sizer_agent.agent.understanding.rules import Finding, apply_rules
from sizer_agent.agent.understanding.table import RULES
from sizer_agent.agent.understanding.text import BLANK, Lang, Message, plain
from sizer_agent.agent.understanding.unsupported import unsupported_workloads

MAX_CHARS = 20_000  # a pasted brief is a few thousand characters; beyond this the rest is not read
ANSWER_RULE = "answer-to-question"  # the rule name of a value read as a bare answer to the open question
_SOFT_FIELDS = frozenset({"use_case", "deployment", "cloud_excluded", "rendering_cad", "ecc_required"})
_TRAINING = frozenset({"finetune_full", "finetune_lora", "finetune_qlora", "pretraining"})
_NO_USERS = _TRAINING | {"batch_inference"}
# "30 étudiants vont l'utiliser", "40 researchers will use it": people said to use the machine are its users,
# whatever it does
_USE_AFTER = re.compile(r"\s*(?:[a-z-]+\s+){0,2}?" + WILL_USE)


# "Mes 35 étudiants passeront dessus", "a cohort of 60 MSc students", "pour une promo de 40 étudiants": learners
# on a teaching machine are its users, unless each works on a machine of their own ("class of 24 students, each on
# their own desktop": the machine is sized per seat)
_LEARNERS = re.compile(r"\b(?:etudiants?|students?|eleves|pupils|stagiaires|apprenants|learners|trainees)\b")
_OWN_MACHINE = re.compile(r"\b(?:each on (?:their|his|her) own|their own (?:desktop|machine|workstation|pc|laptop)"
                          r"|chacun sur (?:son|sa)|(?:one|un|une) (?:gpu |machine |poste )?(?:per|par)"
                          r" (?:student|etudiant|eleve))\b")


# "then serve it to our 300 claims handlers", "Afterwards it'll be served to our 600 field advisers", "on le mettra
# à disposition de nos 450 techniciens": the people a trained model is then served to are its users
_SERVED_TO = re.compile(r"\b(?:serve[ds]?|serving|deploy(?:ed)?|roll(?:ed)? (?:it )?out|made available"
                        r"|make it available)"
                        r"(?: it| them| the model)?(?: (?:out|internally|in-house))? (?:to|for)"
                        r"|\b(?:mettr\w*|mis\w*) (?:le |la |les )?a (?:la )?disposition (?:de|des|du)"
                        r"|\b(?:servir|deployer|ouvrir|proposer|donner acces|servi\w*)(?: le| la| les)? (?:a|aux)")
_SERVED_TO_END = re.compile(r"(?:(?:our|their|its|all|all of our|the|nos|ses|leurs|tous nos|l'ensemble de nos)\s+)?$")


def _served_to(text: str, start: int) -> bool:
    """The figure follows a serving verb and its "to/à": "serve it to our 300", "à disposition de nos 450"."""
    before = text[max(0, start - 80):start]
    tail = _SERVED_TO_END.search(before)
    head = before[:tail.start()] if tail else before
    return any(m.end() == len(head.rstrip()) for m in _SERVED_TO.finditer(head.rstrip()))


def _said_to_use(text: str, finding: Finding | None) -> bool:
    if finding is None:
        return False
    if _USE_AFTER.match(text, finding.span[1]) or _served_to(text, finding.span[0]):
        return True
    return bool(_LEARNERS.search(plain(finding.words))) and not _OWN_MACHINE.search(text)
_CUSTOMER_MAX_WORDS = 8  # a longer message that names no customer is not a customer's name
# "on préfère acheter", "we'd rather rent", "je ne sais pas trop": a sentence said by the writer, not a name
_A_SENTENCE = re.compile(r"\W*(?:on|nous|we|we'd|we'll|we're|i|i'd|i'm|je|j'|ils|they|they're|il|elle)\s+\w+")
_GREETING = re.compile(r"\W*(?:bonjour|bonsoir|salut|coucou|hello|hi|hey|good (?:morning|afternoon|evening)|merci"
                       r"|thanks|thank you|ok|okay)\W*(?:(?:a )?(?:tous|toutes|all|team|l'equipe|there))?\W*")


# Fields whose value is one figure, read from a range by their rules (the load and the budget weigh
# ranges themselves: the peak is the range's top, a budget range is a doubt)
_RANGE_FIELDS = frozenset({"input_len", "output_len", "context_len", "ttft_ms", "tpot_ms", "power_limit_w",
                           "dataset_size_bytes", "num_gpus", "rack_units", "image_resolution",
                           "checkpoint_interval_min", "batch_size", "growth_factor"})
_UNITS = frozenset({"k", "m", "ms", "s", "kw", "w", "u", "px", "go", "gb", "to", "tb", "min", "token", "tokens"})
# a figure with its unit: "8k", "200 ms", "16k"
_FIGURE = r"(?<![\w.,])(\d[\d.,]*)(?:\s*([a-zA-Z]+))??"
_JOIN = r"(\s*)(-|–|à|a|to|ou|or)(\s*)"
_RANGE_BEFORE = re.compile(rf"(?:{_FIGURE}{_JOIN}|(?:entre|between)\s+(\d[\d.,]*)\s*\w*\s*(?:et|and)\s+)$",
                           re.IGNORECASE)
_RANGE_AFTER = re.compile(rf"(?:\s*([a-zA-Z]+))??{_JOIN}(\d[\d.,]*)(?:\s*([a-zA-Z]+))?", re.IGNORECASE)


def _unit(word: str | None) -> str:
    return (word or "").lower() if (word or "").lower() in _UNITS else ""


def _joined(unit_a: str, join: tuple[str, str, str], unit_b: str) -> bool:
    """Two figures joined as a range: "8k-16k", "200 to 300 ms", "512 ou 1024 px". A dash with spaces
    around it is also a list separator ("32k - 4 H100"): a range then only when the units agree."""
    space_before, word, space_after = join
    if word in ("-", "–") and space_before and space_after:
        return bool(unit_b) and unit_a in ("", unit_b)
    return not (word.isalpha() and not (space_before and space_after))  # "8kto", "4or": no word there


_MEAN_FIELDS = frozenset({"input_len", "output_len"})
_CEILING = re.compile(r"(?i)\b(?:max\w*|up to|jusqu'[aà]|at most|au plus|no more than|not more than|pas plus de"
                      r"|ne d[ée]pass\w*|never (?:more|longer) than|plafonn\w*|capped)\b")


# (on the figure's line: "6k / 700 tokens\nMax context: 32k" says no ceiling of the 700 — heldout23 en-f16)
_CEILING_AFTER = re.compile(r"(?i)[ \t]*(?:tokens?[ \t]*)?(?:max\b|maximum\b|au maximum|at most|au plus|tops\b)")


def _a_ceiling(text: str, finding: Finding) -> bool:
    """Whether a mean length is said as a ceiling, in its own words or just before them in its clause."""
    start, end = finding.span
    clause = max((m.end() for m in re.finditer(r"[.;:!?\n,(]", text[max(0, start - 25):start])), default=0)
    return bool(_CEILING.search(text, max(0, start - 25) + clause, end) or _CEILING_AFTER.match(text, end))


def _one_end_of_range(text: str, finding: Finding) -> bool:
    """Whether the figure a finding holds is one end of a range written around or within its words."""
    start, end = finding.span
    digits = list(re.finditer(r"\d[\d.,]*", text[start:end]))
    if not digits:
        return False
    first, last = start + digits[0].start(), start + digits[-1].end()
    unit_first = _unit(re.match(r"\s*([a-zA-Z]+)?", text[first + len(digits[0].group(0)):]).group(1))
    before = _RANGE_BEFORE.search(text[max(0, first - 30):first])
    if before and not before.group(6) and before.group(2) and not _unit(before.group(2)):
        before = None  # "sequence length 1024, on a 5 GiB dataset": a word that is no unit, then an article
    if before and (before.group(6) or _joined(_unit(before.group(2)), before.group(3, 4, 5), unit_first)):
        return True
    in_a_name = text[last - len(digits[-1].group(0)) - 1:last - len(digits[-1].group(0))].isalpha()  # "H100"
    after = None if in_a_name else _RANGE_AFTER.match(text, last)
    if after and _joined(_unit(after.group(1)), after.group(2, 3, 4), _unit(after.group(6))):
        return True
    return len(digits) > 1 and any(
        (inner := _RANGE_AFTER.match(text, start + d.end())) and inner.end(5) <= end
        and _joined(_unit(inner.group(1)), inner.group(2, 3, 4), _unit(inner.group(6))) for d in digits[:-1])


@dataclass
class ParseResult:
    intent: Intent = "answer"
    values: dict[str, Any] = field(default_factory=dict)  # field -> value, in the order found
    correction: bool = False  # the message corrects an earlier answer ("actually", "non, plutôt")
    rest: str = ""  # the text left once the recognised parts are removed
    findings: dict[str, Finding] = field(default_factory=dict)  # field -> value, words, span, rule
    suggestions: dict[str, tuple[str, ...]] = field(default_factory=dict)  # "did you mean" values per field
    lang: Lang | None = None  # the language the message is written in; None when it does not say
    # fields named with several values (or a year as a budget): none recorded, the candidates (doubt.py)
    doubts: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    # workloads named that the tools do not size ("Stable Diffusion XL": image generation), said once (unsupported.py)
    unsupported: tuple[tuple[str, str], ...] = ()


def parse_message(
    text: str, current: str | None = None, current_type: str | None = None,
    choices: tuple[str, ...] = (), known_models: list[str] | None = None, lang: Lang | None = None,
    training: bool = False,
) -> ParseResult:
    """Everything one message says: intent, values (named anywhere + the answer to the open question).

    `lang` is the conversation's language, used to read numbers when the message itself does not say; `training`,
    that the conversation already set a training use case (an answer in the interview, not a first message)."""
    text = text[:MAX_CHARS] if isinstance(text, str) else ""
    guess = detect_language(text).lang
    intent = detect_intent(text)
    if intent != "answer":
        return ParseResult(intent=intent, lang=guess)
    body, correction = strip_correction(text)
    offset = len(text) - len(body)
    reading_lang: Lang = guess or lang or "fr"
    message = Message.read(body, reading_lang)
    message.training_context = training
    reading = apply_rules(message, RULES)
    doubts = second_reading(message, reading, RULES)
    for name, doubt in doubts.items():
        reading.findings.pop(name, None)
        if doubt.candidates:
            reading.suggestions[name] = tuple(shown(value) for value in doubt.candidates)
    for name in _MEAN_FIELDS & reading.findings.keys():
        if _a_ceiling(body, reading.findings[name]):
            # "max output 2048 tokens", "prompts up to 4k": the largest, not the mean the schema asks for
            reading.findings.pop(name)
    for name in _RANGE_FIELDS & reading.findings.keys():
        if _one_end_of_range(body, reading.findings[name]):
            # "context 8k-16k", "TTFT 200-300 ms", "2 à 4 GPU": a range names no one value; the interview asks
            reading.findings.pop(name)
    prompt, context = reading.findings.get("input_len"), reading.findings.get("context_len")
    if prompt is not None and context is not None and prompt.value == context.value \
            and prompt.span[0] <= context.span[0] and context.span[1] <= prompt.span[1]:
        # "20 000 tokens de contexte par question": the context each question carries is its prompt; the longest
        # context (the prompt and its answer) is not said, and 20,000 could not hold its 800-token answer
        reading.findings.pop("context_len")
    users_said = _said_to_use(message.text, reading.findings.get("head_count"))
    if reading.values.get("use_case") in _NO_USERS and not users_said:
        # head_count is the people who will use the model; a team that trains it ("a 3-person startup
        # fine-tuning CodeLlama") or runs a nightly batch ("a 12-person agency translating documents
        # overnight") gives a company size, not users
        reading.findings.pop("head_count", None)
    findings = {name: _shifted(f, offset) for name, f in reading.findings.items()}
    values: dict[str, Any] = {name: f.value for name, f in findings.items()}
    if "model" in values and "model_family" not in values:
        family = family_of_model(str(values["model"]))
        if family:
            values["model_family"] = family
    rest = message.text.replace(BLANK, " ")
    result = ParseResult(intent="answer", values=values, correction=correction, rest=rest, findings=findings,
                         suggestions=dict(reading.suggestions), lang=guess,
                         doubts={name: doubt.candidates for name, doubt in doubts.items()},
                         unsupported=unsupported_workloads(text))
    if current and not values.keys() >= {"input_len", "output_len"}:  # (one may be read by the rules already)
        _lengths_in_text(result, body, offset)
    if current and current not in values:
        _answer_current(result, body, offset, current, current_type, choices, known_models, reading_lang)
    return result


# in the interview, the prompt and the answer said as text lengths: "short questions, answers of about a paragraph",
# "des questions de quelques paragraphes et des réponses d'une page" (a brief's free text is read by the rules alone)
_TEXT_INPUT = re.compile(r"\b(?:questions?|prompts?|demandes?|requetes?|requests?|inputs?|entrees?|documents?)\b")
_TEXT_OUTPUT = re.compile(r"\b(?:answers?|reponses?|responses?|outputs?|sorties?|replies)\b")
_SHORT = re.compile(r"\b(?:short|courte?s?|brief|breve?s?)\b")


def _lengths_in_text(result: ParseResult, body: str, offset: int) -> None:
    """Mean input and output said in sentences, paragraphs or pages beside the words for questions and answers
    (`answers.text_length_tokens`, marked approximate); a "short question" is a sentence."""
    text = plain(body)
    for part in re.split(r"[,;]|\bet\b|\band\b|\bwith\b|\bavec\b", text):
        for name, cue in (("input_len", _TEXT_INPUT), ("output_len", _TEXT_OUTPUT)):
            if name in result.values or not cue.search(part):
                continue
            tokens = text_length_tokens(part, "fr" if result.lang == "fr" else "en")
            if tokens is None and _SHORT.search(part) and name == "input_len":
                tokens = text_length_tokens("a sentence", "en")
            if tokens is not None:
                result.values[name] = tokens
                result.findings[name] = Finding(name, tokens, (offset, offset + len(body)), body.strip(), True,
                                                ANSWER_RULE)


def _shifted(finding: Finding, offset: int) -> Finding:
    if not offset:
        return finding
    start, end = finding.span
    return Finding(finding.field, finding.value, (start + offset, end + offset), finding.words,
                   finding.approximate, finding.rule)


def _answer_current(
    result: ParseResult, body: str, offset: int, current: str, current_type: str | None,
    choices: tuple[str, ...], known_models: list[str] | None, lang: Lang,
) -> None:
    """The open question answered without naming it: "Acme" to the customer question, "32" to concurrency."""
    stripped = body.strip()
    if not stripped or current_type is None:
        return
    values = result.values
    value: Any = None
    if current_type == "text":
        # a short message is the answer; a long one that named no customer is about something else, and a
        # greeting ("bonjour", "hi!") is a greeting
        if set(values) <= _SOFT_FIELDS and len(stripped.split()) <= _CUSTOMER_MAX_WORDS and not _GREETING.fullmatch(
                plain(stripped)) and not _A_SENTENCE.match(plain(stripped)):
            value = stripped[:200]
    else:
        leftover = result.rest.strip(" ,.;:!?-") if values else body
        value = parse_for_question(current_type, current, leftover, choices, known_models, lang)
        if value is None and not values and current in ("budget_eur", "power_limit_w", "rack_units") and no_limit(body):
            values[current] = None  # an explicit "no limit": answered, with no value
            return
    if value is None:
        return
    values[current] = value
    start = offset + (len(body) - len(body.lstrip()))
    # (a length said in pages or paragraphs is always a rough figure: answers.text_length_tokens)
    rough = r"~|environ|about|around|approx" + (r"|page|paragra|phrase|sentence|ligne|line" if current_type == "tokens"
                                                 else "")
    result.findings[current] = Finding(current, value, (start, start + len(stripped)), stripped,
                                       bool(re.search(rough, stripped, re.I)), ANSWER_RULE)
