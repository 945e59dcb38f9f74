"""Prompt and answer lengths said in pages or paragraphs, not tokens: "mostly long contracts (~20 pages) in, a page
or two out", "des contrats de 30 pages en entrée, une page en sortie", "résumer des contrats de 30 pages".

The conversion is the interview's (answers.text_length_tokens: 500 words a page, 100 a paragraph, 4/3 tokens a
word), so a first message and an answer to the question on lengths read the same words the same way. The value is
a reading, not a figure written: it is marked approximate. A length said in tokens wins (these rules run after
lengths.INPUT and lengths.OUTPUT and read nothing once a field is found).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding.answers import text_length_tokens
from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message

_UNIT = r"(?:pages?|paragraphes?|paragraphs?)"
# "20", "~20", "a", "une", "half a", "une demi-", then the unit; "or two", "ou deux": the larger count is said
_COUNT = r"(?:~\s*|environ\s+|about\s+|around\s+|roughly\s+)?(?:\d{1,3}|an?|one|une?|half an?|une? demi-?|demi-?)"
_LENGTH = (rf"(?<![\w])(?P<len>{_COUNT}\s*(?:-\s*)?{_UNIT}(?P<more>\s+(?:or|ou)\s+(?:two|deux|2|three|trois|3))?)"
           r"(?![\w])")
_MORE = {"two": 2, "deux": 2, "2": 2, "three": 3, "trois": 3, "3": 3}
_IN = r"\s*\)?\s*(?:in\b|en entree|d'entree|as input|input)"
_OUT = r"\s*\)?\s*(?:out\b|en sortie|de sortie|as output|output)"
# what is read: a document named with its length ("contrats de 30 pages", "10-page reports", "claim files of 15
# pages"), in a sentence that says it is processed
_DOCUMENT = (r"(?:contrats?|contracts?|documents?|docs?|rapports?|reports?|actes?|dossiers?|files?|articles?"
             r"|chapitres?|chapters?|memoires?|theses?|notes?|comptes rendus|proces-verbaux|courriers?|letters?"
             r"|jugements?|judgments?|decisions?|papers?|manuals?|manuels?|specifications?|cahiers?|transcripts?"
             r"|transcriptions?|emails?|mails?|chapters?|inputs?|entrees?|prompts?)")
_PROCESSED = re.compile(r"(?<![\w])(?:resum\w*|summari[sz]\w*|synthes\w*|tradui\w*|traduct\w*|translat\w*|analy[sz]\w*"
                        r"|extrai\w*|extract\w*|classif\w*|review\w*|relire|relecture|lire|read\w*|process\w*"
                        r"|trait\w*|ingest\w*|index\w*|rag|questions?|verifi\w*|check\w*|compar\w*|annot\w*"
                        # ("inputs are chapters of a page or two": what the model is given)
                        r"|inputs?|entrees?|prompts?)(?![\w])")
# what is written: a summary, an answer, a report to be produced, and "into a page", "en une page"
_WRITTEN = (r"(?:resumes?|syntheses?|summar(?:y|ies)|answers?|reponses?|replies|responses?|outputs?|sorties?"
            r"|comptes rendus|notes? de synthese)")


def _tokens(m: re.Match[str], message: Message) -> int | None:
    words = re.sub(r"\s*-\s*(?=p)", " ", m.group("len"))  # ("10-page": the count, then its unit)
    if m.group("more"):
        words = f"{_MORE[m.group('more').split()[-1]]} {re.search(_UNIT, words).group(0)}"  # type: ignore[union-attr]
    return text_length_tokens(words, message.lang)


def _sentence(text: str, position: int) -> tuple[int, int]:
    start = max((b.end() for b in re.finditer(r"[.!?\n](?:\s|$)", text[:position])), default=0)
    stop = re.compile(r"[.!?\n](?:\s|$)").search(text, position)
    return start, stop.start() if stop else len(text)


def _found(field: str, m: re.Match[str], message: Message) -> Found | None:
    if message.negated(m.start("len")):
        return None
    value = _tokens(m, message)
    if not value:
        return None
    return Found(field, value, m.start("len"), m.end("len"), approximate=True)


def _input(message: Message) -> Iterator[Found]:
    if "input_len" in message.found:
        return
    text = message.text
    for pattern in (rf"{_LENGTH}{_IN}",
                    rf"(?<![\w]){_DOCUMENT}\s*\(?\s*(?:de|d'|of)?\s*{_LENGTH}",
                    rf"{_LENGTH}\s+(?:long\s+)?{_DOCUMENT}(?![\w])"):
        for m in re.finditer(pattern, text):
            if pattern != rf"{_LENGTH}{_IN}":
                start, end = _sentence(text, m.start())
                said_out = re.match(_OUT, text[m.end("len"):m.end("len") + 12])
                if not _PROCESSED.search(text, start, end) or said_out:
                    continue
                if re.search(rf"(?<![\w]){_WRITTEN}\s*\(?\s*(?:de|d'|of)?\s*$", text[max(0, m.start("len") - 25):
                                                                                    m.start("len")]):
                    continue  # "des résumés de 2 pages": the length of what is written
                if re.search(r"(?:\ben|\binto|\bto|\bin)\s+$", text[max(0, m.start("len") - 6):m.start("len")]):
                    continue  # "résumer en une page": the length of the summary
            found = _found("input_len", m, message)
            if found is not None:
                yield found
                return


_SHORTENED = re.compile(r"(?<![\w])(?:resum\w*|summari[sz]\w*|synthes\w*|condens\w*|redui\w*|reduc\w*|boil\w*)")
_INTO = rf"(?<![\w])(?:en|into|to|in)\s+{_LENGTH}"


def _output(message: Message) -> Iterator[Found]:
    if "output_len" in message.found:
        return
    text = message.text
    for pattern in (rf"{_LENGTH}{_OUT}", rf"(?<![\w]){_WRITTEN}\s*\(?\s*(?:de|d'|of|:|~)?\s*{_LENGTH}", _INTO):
        for m in re.finditer(pattern, text):
            # ("résumer des actes de 20 pages en une page": what is shortened into that length, said before it)
            if pattern is _INTO and not _SHORTENED.search(text, _sentence(text, m.start())[0], m.start()):
                continue
            found = _found("output_len", m, message)
            if found is not None:
                yield found
                return


INPUT_PAGES = Rule(
    "input-length-in-pages", ("input_len",), _input,
    examples=(
        ("mostly long contracts (~20 pages) in, a page or two out", {"input_len": 13330}),
        ("des contrats de 30 pages en entrée, une page en sortie", {"input_len": 20000}),
        ("résumer des contrats de 30 pages", {"input_len": 20000}),
        ("summarise 10-page reports overnight", {"input_len": 6670}),
        ("inputs are chapters of a page or two, answers a paragraph", {"input_len": 1330}),
        # a length of what is written, or a document not processed, is no input
        ("des résumés de 2 pages", {}), ("our brochure is 12 pages long", {}),
        ("résumer chaque acte en une page", {}),
    ),
)

OUTPUT_PAGES = Rule(
    "output-length-in-pages", ("output_len",), _output,
    examples=(
        ("mostly long contracts (~20 pages) in, a page or two out", {"output_len": 1330}),
        ("des contrats de 30 pages en entrée, une page en sortie", {"output_len": 670}),
        ("résumer des actes de 20 pages en une page", {"output_len": 670}),
        ("summarise claim files into a paragraph or two", {"output_len": 270}),
        ("answers of about a paragraph", {"output_len": 130}),
        ("a 20-page manual", {}), ("imprimer en une page", {}),
    ),
)
