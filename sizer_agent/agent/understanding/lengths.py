"""Sequence lengths in tokens: mean input, mean output, maximum context ("4k" = 4 096: binary k)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding import numbers
from sizer_agent.agent.understanding.numbers import NUM, TOKEN_SUFFIX
from sizer_agent.agent.understanding.rules import Found, Rule, first_match
from sizer_agent.agent.understanding.text import Message

TOKENS = rf"({NUM})\s*{TOKEN_SUFFIX}"
_TOK = r"(?:\s*(?:tokens?|toks?)\b)?"
_ABOUT = r"(?:(?:d')?(?:environ|a peu pres|approx\.?|approximativement)\s*|about\s*|around\s*|roughly\s*|~\s*" \
         r"|autour de\s*|up to\s*|jusqu'a\s*|max(?:imum)?\s*|en moyenne\s*|on average\s*|average of\s*" \
         r"|typiquement\s*|typically\s*|say\s*|disons\s*|plutot\s*)?"
# Things whose length in tokens is the input ("documents de 3 000 tokens", "tickets are ~600 tokens") or the
# output ("résumé d'environ 200 tokens"); with these, the word "tokens" must be said.
_INPUT_THINGS = (r"(?:prompts?|inputs?|entrees?|questions?|requetes?|queries|requests?|documents?|docs?|fiches?"
                 r"|tickets?|dossiers?|articles?|reviews?|avis|rapports?|reports?|lettres?|letters?|e-?mails?|mails?"
                 r"|messages?|contrats?|contracts?|transcripts?|notes?|textes?|texts?|chunks?|extraits?|pages?"
                 r"|conversations?|sources?)")
_OUTPUT_THINGS = (r"(?:sorties?|outputs?|reponses?|answers?|responses?|replies|completions?|generations?|resumes?"
                  r"|summaries|summary|traductions?|translations?|etiquettes?|labels?|syntheses?)")
_GAP_CHAR = r"[^.;\d\n_]"  # between a thing and its length: a few words, no figure, no sentence end
_IN_WORDS = r"(?:en entree|d'entree|entree|input|in\b|prompts?|de prompt|de contexte d'entree|de question)"
_OUT_WORDS = r"(?:en sortie|de sortie|sortie|output|out\b|generes|generated|de reponse|de generation|completion)"


def _tokens(m: re.Match[str], message: Message, group: int = 1) -> int | None:
    return numbers.tokens(m.group(group), m.group(group + 1), message.lang)


def find_pair(message: Message) -> Iterator[Found]:
    """'4k input and 512 output tokens', '2k / 512', '3000 en entrée, 800 en sortie'."""
    patterns = (
        rf"{TOKENS}{_TOK}\s*{_IN_WORDS}{_TOK}(?P<cut>)\s*(?:/|,|;|et|and|->|→|&)\s*{_ABOUT}{TOKENS}{_TOK}\s*{_OUT_WORDS}",
        # "2k / 512": a slash between two lengths, not a date ("12/03/2026") nor a ratio of other things
        rf"(?<![\w.,/])(?:{TOKENS}){_TOK}(?P<cut>)\s*/\s*{TOKENS}(?![\d/])(?!\s*(?:€|%|s\b|sec|ms|user|util|gpu"
        rf"|(?!tokens?\b)[a-z]))",
    )
    for index, pattern in enumerate(patterns):
        for m in re.finditer(pattern, message.text):
            if message.negated(m.start()):
                continue
            first, second = _tokens(m, message, 1), _tokens(m, message, 4)  # group 3 marks the cut
            said_tokens = m.group(2) or m.group(5) or re.search(r"tok", m.group(0))
            if index == 1 and not said_tokens and min(first or 0, second or 0) < 32:
                continue  # "12/03" is a date: a bare slash pair needs "k", "tokens" or lengths of tokens
            if first and second:
                yield Found("input_len", first, m.start(), m.start("cut"))
                yield Found("output_len", second, m.start(4), m.end())
                return


PAIR = Rule(
    "input-output-pair", ("input_len", "output_len"), find_pair,
    examples=(("4k input and 512 output tokens", {"input_len": 4096, "output_len": 512}),
              ("Suite à notre RDV du 12/03, voici le besoin", {}),
              ("2k / 512", {"input_len": 2048, "output_len": 512}),
              ("2k en entrée, 512 en sortie", {"input_len": 2048, "output_len": 512})),
    doc="an input and an output length given together",
)

CONTEXT = Rule(
    "context-length", ("context_len",),
    lambda message: _first_tokens(message, "context_len", (
        rf"(?<![\w])(?:contexte|context|ctx|fenetre(?: de contexte)?|context window|window|sequence length"
        rf"|longueur de sequence|longueurs? de sequence|seq(?:uence)?s?[ _-]?len(?:gth)?s?|max[ _-]?(?:model[ _-]?)?len"
        rf"|max_model_len|sequences?|seq)"
        rf"\s*(?:maximale?s?|max(?:imum)?|de|of|:|=|a|length|len|lengths|jusqu'a|up to)?\s*(?:de\s*|of\s*)?{_ABOUT}"
        rf"{TOKENS}",
        rf"{TOKENS}{_TOK}\s*(?:de\s+|of\s+)?(?:contexte|context|ctx|context window|de fenetre|sequence length"
        rf"|de longueur de sequence|sequences?|seq)\b",
        rf"{TOKENS}{_TOK}\s*(?:per|par)\s+(?:sample|exemple|echantillon|sequence)\s*(?:max(?:imum)?)?",
        rf"{TOKENS}\s*tokens?\s*(?:max(?:imum)?|maxi|at most|au plus)\b",
    )),
    examples=(("contexte 8k", {"context_len": 8192}), ("128k context", {"context_len": 131072}),
              ("sequence length 4096", {"context_len": 4096}), ("32k tokens de contexte", {"context_len": 32768}),
              ("4096 tokens max", {"context_len": 4096})),
)

INPUT = Rule(
    "input-length", ("input_len",),
    lambda message: _first_tokens(message, "input_len", (
        rf"{TOKENS}{_TOK}\s*(?:en entree|d'entree|input|in\b|de prompt|prompt|par (?:question|requete|prompt)"
        rf"|per (?:prompt|request|query))",
        rf"(?:entrees?|inputs?|prompts?|questions?|requetes?|requests?|input length|longueur d'entree)\s*"
        rf"(?:moyen\w*|mean|average|typiques?|typical)?\s*(?:de|of|:|=|d'|around|about|are|sont|font)?\s*{_ABOUT}"
        rf"{TOKENS}{_TOK}",
        rf"(?<![\w]){_INPUT_THINGS}(?:(?!{_OUTPUT_THINGS}){_GAP_CHAR}){{0,30}}?{_ABOUT}{TOKENS}\s*tokens?\b"
        rf"(?!\s*(?:de sortie|en sortie|out|output|generes))",
        rf"{TOKENS}\s*tokens?\s*(?:par|per|each|chacun\w*|/)\s*(?:{_INPUT_THINGS}|each|chacun)",
    )),
    examples=(("prompts of about 3k tokens", {"input_len": 3072}), ("1500 tokens en entrée", {"input_len": 1500})),
)

OUTPUT = Rule(
    "output-length", ("output_len",),
    lambda message: _first_tokens(message, "output_len", (
        rf"{TOKENS}{_TOK}\s*(?:en sortie|de sortie|output|out\b|generes|generated|de reponse|par reponse"
        rf"|per (?:answer|response|reply))",
        rf"(?:sorties?|outputs?|generations?|reponses?|answers?|responses?|completions?|output length)\s*"
        rf"(?:moyenne?s?|mean|average|typiques?|typical)?\s*(?:de|of|:|=|d'|around|about|are|sont|font)?\s*{_ABOUT}"
        rf"{TOKENS}{_TOK}",
        rf"(?<![\w]){_OUTPUT_THINGS}(?:(?!{_INPUT_THINGS}){_GAP_CHAR}){{0,30}}?{_ABOUT}{TOKENS}\s*tokens?\b",
        rf"{TOKENS}\s*tokens?\s*(?:de sortie|en sortie|out\b|output|generes|generated)",
    )),
    examples=(("answers around 500 tokens", {"output_len": 500}), ("réponses de 800", {"output_len": 800})),
)


def _first_tokens(message: Message, field: str, patterns: tuple[str, ...]) -> Iterator[Found]:
    # the whole phrase is reported; only the figure is blanked for the other rules
    return first_match(message, field, ((p, _tokens) for p in patterns),
                       lambda m: (m.start(1), m.end(2) if m.group(2) else m.end(1)))
