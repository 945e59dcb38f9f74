"""Several identical workstations: "On cherche 3 postes pour SolidWorks", "we need two workstations for Revit".

A design office that replaces its seats buys one configuration several times. Sized as one machine and priced
once, "3 postes … budget 30 000 € pour les trois postes" was answered "7 591 €, within the 30 000 € budget" —
a third of the purchase. `workstations` keeps the count; the planner weighs one machine against its share of the
budget (the whole budget when it is said per seat: "12 000 € par poste", `budget_per_workstation`) and the answer
gives the total for all of them.

Seats said as jobs ("3 postes de data scientist", "deux postes à pourvoir") are no machines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message, plain, sentence_bounds

# "3 postes", "3 postes de travail", "deux stations de travail", "4 workstations", "5 CAD seats"
_SEATS = re.compile(r"(?<![\w.,])(\d{1,2})\s+(?:nouveaux\s+|new\s+|identiques?\s+|identical\s+|cad\s+|dao\s+)?"
                    r"(?:postes?(?:\s+de\s+(?:travail|cao|dao|dessin|conception|calcul))?(?!\s+(?:de|d'|a pourvoir"
                    r"|ouverts?))|stations?\s+de\s+travail|workstations?|cad\s+seats?|seats?\s+(?:for|with)\s+cad"
                    # "12 stations avec chacune une RTX 5090": stations said with their cards
                    r"|stations?(?=\s+(?:avec|with|equipee?s?|equipped)\b))\b")
# a budget said for each of them: "12 000 € par poste", "€9k per workstation", "each machine at most €10k"
_EACH = re.compile(r"(?:€\s*\d[\d.,]*\s*k?|\d[\d\s.,]*\s*(?:k\s*)?(?:€|euros?|eur))\s*(?:ht\s*)?"
                   r"(?:par|per|each|chacun\w*|/)\s*"
                   r"(?:poste|station|workstation|machine|seat|pc)s?\b"
                   r"|\b(?:par|per)\s+(?:poste|workstation|machine|seat)s?\s*:?\s*(?:autour de |environ |about "
                   r"|around |de |of |max\w* |jusqu'a |up to )?\d")


# a workstation for each person counted: "Chaque poste doit rester autonome", "one workstation per engineer",
# "un poste par ingénieur" — as many machines as people
# (the machine's word may already be read, and blanked, by the deployment rule)
_ONE_EACH = re.compile(r"\b(?:chaque|each|every)\s+(?:poste|station de travail|workstation|seat|desk|_{4,})(?![\w])"
                       r"|\b(?:un|one|a)\s+(?:poste|workstation|station de travail|machine|tower|tour|pc|_{2,})\s+"
                       r"(?:par|per|for each|pour chaque)\s+(?:personne|person|ingenieur|engineer|designer|dessinateur"
                       r"|user|utilisateur|architecte|architect|collaborateur|employee|salarie)\b")
# "Each engineer has a CAD workstation … replace them with new towers" (one machine for each person counted, said of
# the people; read only when the message is about workstations)
_EACH_HAS_ONE = re.compile(r"\b(?:each|every|chaque)\s+(?:engineer|designer|architect|draftsman|drafter|person|user"
                           r"|employee|analyst|developer|ingenieur|dessinateur|architecte|personne|utilisateur"
                           r"|collaborateur|salarie|analyste|developpeur)\s+(?:has|have|gets|uses|needs|will have|a"
                           r"|aura|utilise|dispose d'|possede)\s+(?:a|an|one|his|her|their|own|un|une|son|sa|propre"
                           r"|\s)+"
                           r"(?:\w+\s+)?(?:workstation|desktop|tower|poste|station de travail|tour|_{4,})(?![\w])")


# the machines' words read, and blanked, by the deployment rule ("8 postes de CAO" is a workstation too): the
# customer's words behind the blank say whether they are seats
_SEATS_BLANKED = re.compile(r"(?<![\w.,])(\d{1,2})\s+(?:(?:nouveaux|new|identiques?|identical|cad|dao)\s+)?(_{5,})")


def _seat_count(message: Message) -> tuple[int, int, int] | None:
    for m in _SEATS.finditer(message.text):
        count = int(m.group(1))
        if 2 <= count <= 50 and not message.negated(m.start()):
            return count, m.start(), m.end()
    for m in _SEATS_BLANKED.finditer(message.text):
        count = int(m.group(1))
        words = plain(message.words(m.start(), m.end()))
        if 2 <= count <= 50 and not message.negated(m.start()) and _SEATS.fullmatch(words.strip()):
            return count, m.start(), m.end()
    return None


def find_workstations(message: Message) -> Iterator[Found]:
    found = _seat_count(message)
    people = message.found.get("head_count")
    one_each = _ONE_EACH.search(message.text) or (
        _EACH_HAS_ONE.search(message.text) if message.found.get("deployment") == "workstation" else None)
    # ("Should we put a GPU in each workstation or buy one shared server?": a question, no machines chosen)
    if found is None and one_each is not None and isinstance(people, int) and 2 <= people <= 50 and (
            not message.negated(one_each.start())) and "?" not in message.text[slice(
                *sentence_bounds(message.text, one_each.start()))]:
        found = (people, one_each.start(), one_each.end())
    if found is not None:
        yield Found("workstations", found[0], found[1], found[2], claim=False)
        if "budget_eur_per_workstation" in message.found:
            return  # the budget was read as one workstation's: nothing more to say of it
        # the budget rule may have read, and blanked, "Budget par poste : 6 000 €": the customer's words count
        each = _EACH.search(message.text)
        if each is not None:
            yield Found("budget_per_workstation", True, each.start(), each.end(), claim=False)
        elif _EACH.search(plain(message.original)):
            yield Found("budget_per_workstation", True, found[1], found[2], claim=False)


WORKSTATIONS = Rule(
    "workstations", ("workstations", "budget_per_workstation"), find_workstations,
    examples=(("On cherche 3 postes pour SolidWorks. Budget 30 000 € pour les trois postes.", {"workstations": 3}),
              ("We need two workstations for Revit and Enscape, about €9k per workstation.",
               {"workstations": 2, "budget_per_workstation": True}),
              ("renouveler 5 postes de CAO, 12 000 € par poste", {"workstations": 5, "budget_per_workstation": True}),
              ("nous ouvrons 3 postes de data scientist", {}), ("deux postes à pourvoir en 2027", {}),
              ("une station de travail pour le rendu", {}),
              ("on voudrait les remplacer par 12 stations avec chacune une RTX 5090", {"workstations": 12}),
              # "chaque poste" counts the people read by the load rule (tests/agent/test_parsing.py)
              ("Chaque poste a déjà un écran 4K.", {})),
    doc="identical workstations bought together: one is sized, the answer prices them all",
)
