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
from sizer_agent.agent.understanding.text import Message

# "3 postes", "3 postes de travail", "deux stations de travail", "4 workstations", "5 CAD seats"
_SEATS = re.compile(r"(?<![\w.,])(\d{1,2})\s+(?:nouveaux\s+|new\s+|identiques?\s+|identical\s+|cad\s+|dao\s+)?"
                    r"(?:postes?(?:\s+de\s+(?:travail|cao|dao|dessin|conception|calcul))?(?!\s+(?:de|d'|a pourvoir"
                    r"|ouverts?))|stations?\s+de\s+travail|workstations?|cad\s+seats?|seats?\s+(?:for|with)\s+cad)\b")
# a budget said for each of them: "12 000 € par poste", "€9k per workstation", "each machine at most €10k"
_EACH = re.compile(r"(?:€\s*\d[\d.,]*\s*k?|\d[\d\s.,]*\s*(?:k\s*)?(?:€|euros?|eur))\s*(?:ht\s*)?"
                   r"(?:par|per|each|chacun\w*|/)\s*"
                   r"(?:poste|station|workstation|machine|seat|pc)s?\b"
                   r"|\b(?:par|per)\s+(?:poste|workstation|machine|seat)s?\s*:?\s*\d")


def find_workstations(message: Message) -> Iterator[Found]:
    for m in _SEATS.finditer(message.text):
        count = int(m.group(1))
        if 2 <= count <= 50 and not message.negated(m.start()):
            yield Found("workstations", count, m.start(), m.end(), claim=False)
            each = _EACH.search(message.text)
            if each is not None:
                yield Found("budget_per_workstation", True, each.start(), each.end(), claim=False)
            return


WORKSTATIONS = Rule(
    "workstations", ("workstations", "budget_per_workstation"), find_workstations,
    examples=(("On cherche 3 postes pour SolidWorks. Budget 30 000 € pour les trois postes.", {"workstations": 3}),
              ("We need two workstations for Revit and Enscape, about €9k per workstation.",
               {"workstations": 2, "budget_per_workstation": True}),
              ("renouveler 5 postes de CAO, 12 000 € par poste", {"workstations": 5, "budget_per_workstation": True}),
              ("nous ouvrons 3 postes de data scientist", {}), ("deux postes à pourvoir en 2027", {}),
              ("une station de travail pour le rendu", {})),
    doc="identical workstations bought together: one is sized, the answer prices them all",
)
