"""A budget in US dollars: "Budget $60k", "we can spend up to USD 250,000", "$20k per month".

The corpora's schema records euros only (`budget_eur` stays empty for a dollar figure), but a customer who says
"$60k" has a budget: left unread, the plan is chosen as if there were none. `budget_usd` and
`budget_usd_per_month` keep the figure as said; the planner converts it at the catalogue's rate
(`eur_per_usd`, an assumption the proposal states) when no euro budget was given. Other dollars (CA$, A$, S$,
HK$, NZ$) are other currencies and stay unread, as a card's price ("an H100 at $30,000") and a bill paid are.

This rule runs before the budget rule and claims its words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding import numbers
from sizer_agent.agent.understanding.numbers import NUM
from sizer_agent.agent.understanding.platform import _PAST_BILL, _UNIT_PRICE, _card_priced
from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message, sentence_bounds

_SCALE = r"(k|m|millions?)?(?![a-z])"
# "$60k", "US$ 60,000", "USD 250k", "60 000 $", "60k USD", "60K$", "60,000 dollars" (not CA$, A$, "60 CAD")
_AMOUNT = re.compile(rf"(?<![a-z])(?:us[ \t]*)?(?:\$|usd\b)[ \t]*({NUM})[ \t]*{_SCALE}"
                     rf"|(?<![\w.,])({NUM})[ \t]*{_SCALE}[ \t]*(?:\$(?![ \t]*(?:ca|cad|au|aud))|usd\b"
                     rf"|(?:us[ \t]+)?dollars?\b(?![ \t]+(?:canadiens?|australiens?|canadian|australian|singapore)))")
_OTHER_DOLLAR_BEFORE = re.compile(r"(?:(?<![a-z])(?:c|ca|can|a|au|nz|s|sg|hk)"
                                  r"|(?<![a-z])(?:cad|aud|nzd|sgd|hkd)[ \t]*)$")
# a budget word before the amount in its sentence, or right after it ("a $60k budget")
_BUDGET_BEFORE = re.compile(r"\b(?:budget\w*|enveloppe|(?:can|could|to|may|will|willing to) spend|spend up to"
                            r"|afford|plafond|cap|ceiling|up to|jusqu'a|maximum|max"
                            r"|no more than|pas plus de|at most|au plus)\b[^.;!?\n$\d]{0,30}$")
# "Under $3,000. What should I buy?": a ceiling said before the amount is the budget of a purchase asked about
_CEILING_BEFORE = re.compile(r"\b(?:under|below|less than|for less than|moins de|pour moins de|sous)[ \t]*$")
_PRICED_BEFORE = re.compile(r"\b(?:sells?|sold|costs?|priced|retails?|goes|cout\w*|vend\w*|prix|price)\b")
_BUYING = re.compile(r"\b(?:what (?:should|would|do) (?:i|we) (?:buy|get)"
                     r"|(?:i|we) (?:want|need|plan) to (?:buy|get|build)"
                     r"|que (?:dois|devons|faut)[- ](?:je|nous|il) acheter|quoi acheter|que faut-il acheter)\b")
_BUDGET_AFTER = re.compile(r"^[ \t]*(?:budget|enveloppe|cap|ceiling|max\b|maximum|to spend|a depenser)")
_PERIOD_AFTER = re.compile(r"^[ \t]*(?:/[ \t]*|par[ \t]+|per[ \t]+|a[ \t]+|an[ \t]+|each[ \t]+|chaque[ \t]+)"
                           r"(mois|month|an\b|annee|year)")
# "$60-80k", "$60k to $80k": a range names no one amount (as the euro budget rule reads it)
_RANGE_AFTER = re.compile(r"[ \t]*(?:-|–|to|a|à)[ \t]*\$?[ \t]*\d")
# the dollars of a place whose dollar is not the US one ("filiale canadienne", "our Sydney office")
_OTHER_DOLLAR_PLACE = re.compile(r"\b(?:canad\w*|australi\w*|singapo\w*|hong kong|new zealand|nouvelle-zelande"
                                 r"|quebec\w*|montreal|toronto|vancouver|ottawa|sydney|melbourne|auckland)\b")
_HAVE_BEFORE = re.compile(r"\b(?:we have|we've got|we can put|on a|nous avons|on dispose de|nous disposons de)\b"
                          r"[^.;!?\n$\d]{0,15}$")
# "we'd rent in the cloud, about $6k a month": a rental the writer intends, and what a month of it may cost (the
# conditional or the future says a plan, not a bill being paid)
_RENT_INTENDED = re.compile(r"\b(?:we'd|we would|we'll|we will|we plan to|we want to|we'd like to|we could|we'll be)"
                            r"\b[^.;!?\n$\d]{0,30}\b(?:rent\w*|leas\w*|cloud)\b[^.;!?\n$\d]{0,30}$")
_PERIOD_BEFORE = re.compile(r"\b(monthly|mensuel\w*|annual|yearly|annuel\w*)\b[^.;!?\n$\d]{0,25}$")


def find_budget_usd(message: Message) -> Iterator[Found]:
    text = message.text
    for m in _AMOUNT.finditer(text):
        first = m.group(1) is not None
        number, scale = (m.group(1), m.group(2)) if first else (m.group(3), m.group(4))
        start = m.start()
        if first and _OTHER_DOLLAR_BEFORE.search(text, max(0, start - 4), start):
            continue
        if message.negated(start) or _card_priced(text, start):
            continue
        sentence_start, _ = sentence_bounds(text, start)
        before = text[max(sentence_start, start - 60):start]
        after = text[m.end():m.end() + 25]
        period = _PERIOD_AFTER.match(after)
        # "we have about $8k/month for it": money had per month is what may be spent on it
        had = period is not None and (_HAVE_BEFORE.search(before) or _RENT_INTENDED.search(before))
        ceiling = _CEILING_BEFORE.search(before) and _BUYING.search(text) and not _PRICED_BEFORE.search(before)
        if not (_BUDGET_BEFORE.search(before) or _BUDGET_AFTER.match(after) or had or ceiling):
            continue
        if _PAST_BILL.search(text, max(sentence_start, start - 60), start) or _UNIT_PRICE.search(after[:12]):
            continue
        if _RANGE_AFTER.match(text, m.end()) or _OTHER_DOLLAR_PLACE.search(text):
            continue
        value = numbers.money(number, (scale or "")[:1], message.lang)
        if not value:
            continue
        said = (period.group(1) if period else None) or (
            (p := _PERIOD_BEFORE.search(before)) and p.group(1)) or None
        end = m.end() + (period.end() if period else 0)
        if said is None:
            yield Found("budget_usd", value, start, end)
        else:
            yearly = not said.startswith(("mois", "month", "mensuel"))
            yield Found("budget_usd_per_month", round(value / 12, 2) if yearly else value, start, end)
        return


BUDGET_USD = Rule(
    "budget-usd", ("budget_usd", "budget_usd_per_month"), find_budget_usd,
    examples=(("Budget is around $60k.", {"budget_usd": 60000.0}),
              ("We can spend up to USD 250,000 on hardware.", {"budget_usd": 250000.0}),
              ("Our monthly cloud budget is $20k.", {"budget_usd_per_month": 20000.0}),
              ("a $45,000 budget for the box", {"budget_usd": 45000.0}),
              ("budget de 60 000 $ pour un serveur", {"budget_usd": 60000.0}),
              ("we have about $8k/month for inference", {"budget_usd_per_month": 8000.0}),
              ("we'd rent in the cloud, about $6k a month", {"budget_usd_per_month": 6000.0}),
              ("we rent 4 H100 on AWS for $38k a month today", {}),
              ("Budget: CAD $15,000.", {}), ("budget A$ 90k", {}),
              ("an H100 costs $30,000 each, our budget is tight", {}),
              ("we paid $40k for our last server", {}),
              ("revenue of $2M last year", {}), ("budget $60-80k", {}),
              ("Solo dev, gpt-oss-20b on a desktop. Under $3,000. What should I buy?", {"budget_usd": 3000.0}),
              ("a desktop for under 3000 dollars, what should I get?", {"budget_usd": 3000.0}),
              ("The RTX 5090 sells for under $2,000; what should we buy?", {}),
              ("spend is ~$38k/month and finance wants it lower", {}),
              ("budget 80 000 $ (filiale canadienne)", {})),
    doc="a budget said in US dollars (a total, or per month/year): converted at the catalogue's rate when no euro "
        "budget is given",
)
