"""Which language a customer writes in, French or English, from the little words every sentence has.

A sizing message is half technical vocabulary ("Llama 3.1 70B in FP8, 4k context") that belongs to no
language; what tells French from English are function words ("pour", "avec", "nous" / "for", "with",
"we"). Counting them is deterministic, instant and needs no model; a message with too few of them
("32", "oui", "Llama 3.1 8B") is undecided and the conversation keeps its language. Measured against
lingua-language-detector on the development corpus in benchmarks/bench_parse.py (docs/agent.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sizer_agent.agent.understanding.text import Lang, plain

# Words that occur in one language only (accents removed, as `plain` writes them). Words both languages
# share ("a", "on", "six", "plus", "non", "type") are left out on purpose.
FRENCH = frozenset((
    "le", "la", "les", "des", "du", "de", "un", "une", "et", "est", "sont", "nous", "vous", "je", "pour",
    "avec", "sur", "dans", "pas", "ne", "qui", "que", "quoi", "au", "aux", "ce", "cette", "ces", "mais", "ou",
    "donc", "car", "chez", "notre", "nos", "votre", "vos", "leur", "leurs", "sera", "serait", "avons", "avez",
    "faire", "fait", "veut", "veux", "voudrait", "voudrions", "voudrais", "souhaite", "souhaitons", "souhaiterions",
    "besoin", "bonjour", "merci", "cordialement", "environ", "entre", "sans", "tres", "aussi", "deja", "faut",
    "peut", "pouvez", "peux", "sais", "oui", "il", "elle", "ils", "elles", "en", "par", "quel", "quelle", "quels",
    "quelles", "combien", "pourquoi", "comment", "serveur", "utilisateurs",
    "personnes", "salaries", "donnees", "modele", "carte", "cartes", "jours", "mois", "annee", "an", "heure",
    "heures", "depuis", "moins", "premier", "premiere", "chaque", "toutes", "tous", "tout", "toute", "prevu",
    "prevus", "prevoir", "voulons", "aimerions", "mettre", "souhaitez", "ete", "avoir", "etre", "notamment",
    "actuellement", "aujourd", "hui", "mon", "ma", "mes", "ton",
))
ENGLISH = frozenset((
    "the", "an", "and", "is", "are", "we", "you", "i", "it", "to", "for", "with", "in", "of", "not", "our", "your",
    "their", "will", "would", "want", "wants", "wanted", "need", "needs", "needed", "please", "thanks", "thank",
    "hello", "hi", "about", "between", "without", "very", "also", "already", "can", "could", "know", "yes", "this",
    "that", "these", "those", "from", "at", "by", "be", "been", "have", "has", "do", "does", "don", "don't",
    "doesn't", "what", "which", "who", "how", "we're", "we'll", "i'm", "it's", "there", "they", "them", "us", "my",
    "some", "any", "each", "every", "per", "users", "people", "planned", "plan", "should", "looking", "run",
    "running", "serve", "serving", "host", "hosting", "deploy", "around", "up", "out", "into", "than", "then",
    "when", "where", "while", "just", "only", "team", "company", "enough", "under", "behind", "so", "all", "no",
    "expect", "quick", "single", "usable", "it'll", "we'd", "i'd", "app", "box", "or",
))
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
MIN_WORDS = 2  # fewer distinctive words than this: undecided


@dataclass(frozen=True)
class LanguageGuess:
    lang: Lang | None  # None: the message does not say (too short, or both languages equally)
    french: int  # distinctive French words counted
    english: int


def detect_language(text: str) -> LanguageGuess:
    """French, English or undecided, by counting each language's own function words."""
    french = english = 0
    for word in _WORD.findall(plain(text[:5000])):
        if word in FRENCH:
            french += 1
        elif word in ENGLISH:
            english += 1
        elif "'" in word:  # elisions are French: "l'equipe", "d'utilisateurs", "qu'on"
            head = word.split("'", 1)[0]
            if head in ("l", "d", "qu", "c", "j", "n", "s", "m", "t"):
                french += 1
    if french >= MIN_WORDS and french >= 2 * english:
        return LanguageGuess("fr", french, english)
    if english >= MIN_WORDS and english >= 2 * french:
        return LanguageGuess("en", french, english)
    return LanguageGuess(None, french, english)
