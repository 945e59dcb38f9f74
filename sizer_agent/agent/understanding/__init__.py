"""Understanding customers as they write: free text in French and English -> profile fields.

`parse_message` reads one message; each value comes with the words it came from, whether it was
approximate and the rule that found it (`Finding`). The rules live one module per field family and run
in the order of `table.RULES`; each carries its own examples, which the tests run. docs/agent.md
explains how to add one.
"""

from sizer_agent.agent.understanding.answers import no_limit, parse_for_question
from sizer_agent.agent.understanding.intents import Intent, detect_intent, strip_correction
from sizer_agent.agent.understanding.language import LanguageGuess, detect_language
from sizer_agent.agent.understanding.numbers import read_number
from sizer_agent.agent.understanding.reading import MAX_CHARS, ParseResult, parse_message
from sizer_agent.agent.understanding.rules import Finding, Rule
from sizer_agent.agent.understanding.table import RULES

__all__ = [
    "MAX_CHARS", "RULES", "Finding", "Intent", "LanguageGuess", "ParseResult", "Rule", "detect_intent",
    "detect_language", "no_limit", "parse_for_question", "parse_message", "read_number", "strip_correction",
]
