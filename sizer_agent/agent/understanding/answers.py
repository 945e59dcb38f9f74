"""A bare answer to the question being asked: "32", "oui", "8k", "2 heures", "LoRA".

The rules read values named anywhere in a message ("32 utilisateurs"); a short answer to the open question
often names nothing ("32"), so it is read here as that question's type.
"""

from __future__ import annotations

import re
from typing import Any

from sizer_agent.agent.understanding import numbers
from sizer_agent.agent.understanding.numbers import BYTES, NUM, TOKEN_SUFFIX
from sizer_agent.agent.understanding.rules import Rule, apply_rules
from sizer_agent.agent.understanding.text import Lang, Message, plain

_ABOUT = r"(?:~|environ|about|around|a peu pres|env\.?|approx\.?|roughly)?\s*"
_YES = re.compile(r"^\s*(oui|yes|y|o|ouais|yep|yeah|vrai|true|bien sur|of course|absolument|obligatoire"
                  r"|exigee?|requise?|required|needed|necessaire|indispensable|sure|certainly|affirmatif)\b")
_NO = re.compile(r"^\s*(non|no|n|nope|nan|faux|false|pas (du tout|besoin|necessaire|obligatoire)|aucun\w*"
                 r"|not (needed|required)|none|never|jamais|sans)\b")
_NO_LIMIT = re.compile(r"(pas de (limite|budget|contrainte|plafond)|aucune (limite|contrainte)|illimite"
                       r"|no (limit|budget|constraint|cap)|unlimited|sans limite)")
# Bare words for the use-case question only ("inférence" alone is serving, "training" alone is training).
_USE_CASE_BARE = (
    (r"entrainement|training|train", "pretraining"),
    (r"inference|infer", "online_serving"),
    (r"affinage|fine", "finetune_full"),
)


def no_limit(text: str) -> bool:
    """'pas de limite', 'no budget', 'non' to a limit question: the answer is an explicit None."""
    t = plain(text).strip()
    return bool(_NO_LIMIT.search(t) or re.fullmatch(r"(non|no|aucune?|none|nope)[.!]?", t))


def yes_or_no(text: str) -> bool | None:
    """'oui' -> True, 'no' -> False, anything else -> None."""
    return _bool_answer(plain(text).strip())


def _bool_answer(t: str) -> bool | None:
    if _YES.match(t):
        return True
    if _NO.match(t):
        return False
    return None


def _choice_rules() -> dict[str, Rule]:
    from sizer_agent.agent.understanding import platform, software, training, usecase

    return {"use_case": usecase.USE_CASE, "precision": software.PRECISION, "optimizer": training.OPTIMIZER,
            "framework": software.FRAMEWORK, "deployment": platform.DEPLOYMENT}


def parse_for_question(
    question_type: str, question_id: str, text: str, choices: tuple[str, ...] = (),
    known_models: list[str] | None = None, lang: Lang = "fr",
) -> Any:
    """Read a bare answer ("32", "oui", "8k") as the value of the current question, or None."""
    t = plain(text).strip().strip(".!")
    if not t:
        return None
    if question_type == "tokens":
        m = re.search(rf"^{_ABOUT}({NUM})\s*{TOKEN_SUFFIX}\s*(?:tokens?)?$", t)
        return numbers.tokens(m.group(1), m.group(2), lang) if m else text_length_tokens(t, lang)
    if question_type == "integer":
        m = re.search(rf"^{_ABOUT}({NUM})\s*(k)?\s*(?:u|gpus?)?(?![\w])", t)
        if m:
            return numbers.count(m.group(1), m.group(2), lang)
        spelled = Message.read(t, lang).text
        m = re.search(rf"^{_ABOUT}({NUM})(?![\w])", spelled)
        return numbers.count(m.group(1), None, lang) if m else None
    if question_type == "ratio":
        from sizer_agent.agent.understanding.load import growth_ratio

        ratio = growth_ratio(t)
        if ratio is None:
            m = re.fullmatch(rf"({NUM})", t)
            ratio = numbers.read_number(m.group(1), lang) if m else None
        if ratio is None and re.search(r"\b(aucune|pas de|stable|none|no growth|flat|constant)\b", t):
            ratio = 1.0
        return ratio
    if question_type == "duration_ms":
        m = re.search(rf"^(?:<|moins de|under|below|sous|max\.?|maximum)?\s*{_ABOUT}({NUM})\s*"
                      r"(ms|millisecondes?|milliseconds?|msec|s|sec|secs|secondes?|seconds?)?$", t)
        return numbers.milliseconds(m.group(1), m.group(2) or "ms", lang) if m else None
    if question_type == "duration_min":
        if re.search(r"\b(steps?|pas|etapes?|iterations?)\b", t):
            return None  # steps are not a duration: their length depends on the step time
        m = re.search(rf"({NUM})\s*(minutes?|min|mn|heures?|h|hours?|jours?|days?|d|s|sec)?\b", t)
        if m:
            return numbers.minutes(m.group(1), m.group(2) or "min", lang)
        for word, minutes in (("heure", 60), ("hour", 60), ("jour", 1440), ("daily", 1440), ("day", 1440)):
            if word in t:
                return float(minutes)
        return None
    if question_type == "bytes":
        m = re.search(BYTES, t)
        return numbers.byte_count(m.group(1), m.group(2), lang) if m else None
    if question_type == "money":
        if _NO_LIMIT.search(t) or _NO.match(t):
            return None
        m = re.search(rf"({NUM})\s*(k|m)?\s*(?:€|euros?|eur)?(?:\s*ht)?$|€\s*({NUM})\s*(k|m)?", t)
        if not m:
            return None
        return numbers.money(m.group(1) or m.group(3), m.group(2) or m.group(4), lang)
    if question_type == "power":
        m = re.search(rf"({NUM})\s*(kw|w|watts?|kilowatts?)\b", t)
        return numbers.watts(m.group(1), m.group(2), lang) if m else None
    if question_type == "boolean":
        return _bool_answer(t)
    if question_type == "text":
        return text.strip()[:200] or None
    if question_type == "model":
        return _model_answer(text, known_models, lang)
    if question_type == "choice":
        return _choice_answer(question_id, t, choices, lang)
    if question_type == "url":
        m = re.search(r"https?://\S+", text)
        return m.group(0) if m else None
    return None


def _model_answer(text: str, known_models: list[str] | None, lang: Lang) -> str | None:
    from sizer_agent.agent.understanding.models import read_model

    raw = text.strip().strip(".,;")
    if not re.fullmatch(r"[\w][\w .:/+,()-]{1,120}", raw) or not re.search(r"[a-zA-Z]", raw):
        return None
    if yes_or_no(raw) is not None:
        return None  # "yes" or "non" is not a model's name
    known = tuple(known_models) if known_models else None
    reading = read_model(Message.read(raw, lang), known)
    if reading.found is not None:
        return str(reading.found.value)
    if reading.suggestions:
        return None  # close to bundled names but none exactly ("Llama 3.1"): "Did you mean …?", not a guess
    return raw  # a name the registry does not know: the estimator says whether it can size it


def _choice_answer(question_id: str, t: str, choices: tuple[str, ...], lang: Lang) -> str | None:
    plain_choice = t.replace(" ", "_").replace("-", "_")
    for choice in choices:  # the exact value first ("finetune_lora" is not "fine-tuning" + "lora")
        if plain_choice == choice.replace("-", "_") or plain_choice == plain(choice):
            return choice
    from sizer_agent.agent.questions import BY_ID

    question = BY_ID.get(question_id)
    for choice, labels in (question.choice_labels.items() if question is not None else ()):
        if any(plain(t) == plain(label) for label in labels.values()):  # "inférence", "training"
            return choice
    rule = _choice_rules().get(question_id)
    if rule is not None:
        found = apply_rules(Message.read(t, lang), (rule,)).findings.get(question_id)
        if found is not None:
            return str(found.value)
    if question_id == "use_case":
        for pattern, value in _USE_CASE_BARE:
            if re.search(pattern, t):
                return value
    if question_id == "framework" and re.fullmatch(r"[a-z][\w.+ -]{1,40}", t):
        return "other"
    return None


# A length said in text, not in tokens ("quelques paragraphes", "about a page", "3 pages"), answering a question on
# tokens: words per unit x 4/3 tokens per word (OpenAI, "What are tokens": 100 tokens ~ 75 English words; French
# takes more tokens per word, so this is a floor). A sentence ~ 25 words, a paragraph ~ 100, a single-spaced page
# ~ 500 (the usual typing conventions); "a few" is three. Always said as approximate by the caller.
_TEXT_UNITS = (
    (r"phrases?|sentences?|lignes?|lines?", 25),
    (r"paragraphes?|paragraphs?|paras?", 100),
    (r"pages?", 500),
)
_FEW = r"(?:quelques|a few|few|plusieurs|several|deux ou trois|two or three|2-3|2 ou 3|2 or 3)"
_ONE = r"(?:une?|a|an|one|1)"


def text_length_tokens(t: str, lang: Lang) -> int | None:
    """Tokens of a length said in sentences, paragraphs or pages (the first one said), or None."""
    for unit, words in _TEXT_UNITS:
        m = re.search(rf"(?<![\w])(?:({NUM})|({_FEW})|(?:{_ONE})|(?:demi|half)[ -]?(?:une? |a )?)\s*"
                      rf"(?:(?:petite?s?|courte?s?|short|small|long(?:ue)?s?|grande?s?|full|entiere?s?)\s+)?"
                      rf"(?:{unit})(?![\w])", t)
        if m is None:
            continue
        count = 3.0 if m.group(2) else (numbers.read_number(m.group(1), lang) or 0.0) if m.group(1) else (
            0.5 if re.match(r"demi|half", m.group(0)) else 1.0)
        if count <= 0:
            continue
        return int(round(count * words * 4 / 3, -1)) or None
    return None
