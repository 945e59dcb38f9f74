"""The load: concurrent users at peak, the population they come from, image resolution, growth.

Head count and concurrency are two different figures: "500 people, maybe 50 at the same time at peak" is
a population of 500 (head_count) and a peak of 50 (concurrency). A figure said with "at the same time",
"simultanés", "at peak" is concurrency; a population word (employees, staff, personnes, clients) is a head
count; "N users" alone is concurrency, unless a simultaneous figure is also given, then it is the
population.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding import numbers
from sizer_agent.agent.understanding.numbers import NUM
from sizer_agent.agent.understanding.rules import Found, Rule, pattern_rule
from sizer_agent.agent.understanding.text import Message, words

_SIMULTANEOUS = words(
    r"simultan\w*", r"concurrent\w*", r"en meme temps", r"at the same time", r"at once", r"in parallel",
    r"en parallele", r"a la fois", r"at peak", r"au pic", r"en pointe", r"aux heures de pointe", r"at any one time",
    r"at any given time", r"at a time", r"connectes en meme temps", r"concurrently", r"en simultane",
    r"au plus fort", r"peak concurrency", r"en concurrence",
)
_REQUESTS = words(r"requetes", r"requests", r"sessions", r"conversations", r"streams", r"flux", r"connexions",
                  r"connections", r"appels", r"calls", r"queries", r"chats")
_USERS = words(r"utilisateurs?", r"users?", r"usagers", r"utilisateurs actifs", r"active users")
_POPULATION = words(
    r"employes", r"employees", r"salaries", r"staff", r"collaborateurs", r"collaboratrices", r"agents", r"people",
    r"personnes", r"gens", r"customers", r"clients", r"members", r"membres", r"etudiants", r"students",
    r"eleves", r"developers", r"developpeurs", r"devs", r"engineers", r"ingenieurs", r"consultants", r"lawyers",
    r"avocats", r"juristes", r"medecins", r"doctors", r"analysts", r"analystes", r"techniciens", r"technicians",
    r"operators", r"operateurs", r"seats", r"licences", r"licenses", r"conseillers", r"advisors", r"researchers",
    r"chercheurs", r"teachers", r"enseignants", r"patients", r"subscribers", r"abonnes", r"citizens", r"habitants",
    r"persons", r"workers", r"commerciaux", r"vendeurs", r"sales reps", r"call center agents", r"operatives",
)
_RATE = r"\s*(?:/|per|par|a|an|each|chaque|every)\s*(?:s\b|sec|second|seconde|min|minute|h\b|hour|heure|jour|day|mois" \
        r"|month|semaine|week|an\b|year|annee|daily|quotidien)"
_COUNT = rf"({NUM})\s*(k)?"
_FILLER = r"(?:\s+(?:[a-z'-]+\s+){0,3}?)"  # up to three words between a figure and its noun


def _count(m: re.Match[str], message: Message) -> int | None:
    return numbers.count(m.group(1), m.group(2), message.lang)


def _figures(message: Message, patterns: tuple[str, ...]) -> list[tuple[int, int, int]]:
    out = []
    for pattern in patterns:
        for m in re.finditer(pattern, message.text):
            if message.negated(m.start()) or re.match(_RATE, message.text[m.end():m.end() + 14]):
                continue
            value = _count(m, message)
            if value:
                out.append((m.start(), m.end(), value))
    return sorted(out)


def find_load(message: Message) -> Iterator[Found]:
    simultaneous = _figures(message, (
        rf"(?:concurrence|simultaneite|concurrency|parallelisme(?: de requetes)?|peak concurrency|max concurrency"
        rf"|pic|peak|pointe)\s*(?:de|of|:|=|max|maximum|a|at|around|about|d'environ|environ|~|up to|jusqu'a)?\s*"
        rf"(?:de\s+)?{_COUNT}(?!\s*(?:%|ms|s\b|tokens?))",
        rf"{_COUNT}(?:\s+(?:[a-z'-]+\s+){{0,3}}?|\s*){_SIMULTANEOUS}",
        rf"{_COUNT}\s*{_REQUESTS}",
    ))
    users = _figures(message, (rf"{_COUNT}{_FILLER}?\s*{_USERS}",))
    population = _figures(message, (rf"{_COUNT}{_FILLER}?\s*{_POPULATION}",))
    # a simultaneous figure may also be a user figure ("32 concurrent users"): the same words, one figure
    users = [u for u in users if not any(s[0] <= u[0] < s[1] or u[0] <= s[0] < u[1] for s in simultaneous)]
    population = [p for p in population if not any(s[0] <= p[0] < s[1] for s in simultaneous)]
    if simultaneous:
        start, end, value = simultaneous[0]
        yield Found("concurrency", value, start, end)
        others = sorted(population + users)
        if others:
            start, end, value = others[0]
            yield Found("head_count", value, start, end)
        return
    if users:
        start, end, value = users[0]
        yield Found("concurrency", value, start, end)
    if population:
        start, end, value = population[0]
        yield Found("head_count", value, start, end)


LOAD = Rule(
    "load", ("concurrency", "head_count"), find_load,
    examples=(
        ("32 utilisateurs", {"concurrency": 32}),
        ("32 concurrent users", {"concurrency": 32}),
        ("500 people, maybe 50 at the same time at peak", {"head_count": 500, "concurrency": 50}),
        ("for our 800 staff", {"head_count": 800}),
        ("une vingtaine d'utilisateurs en même temps", {"concurrency": 20}),
        ("200 users, up to 20 concurrent", {"concurrency": 20, "head_count": 200}),
        ("1000 requests per day", {}),
        ("concurrence de 64", {"concurrency": 64}),
    ),
    doc="peak concurrency and head count, kept apart",
)

IMAGE_RESOLUTION = pattern_rule(
    "image-resolution", "image_resolution",
    r"(?<![\w.])(\d{2,5})\s*(?:x|par|by|\*)\s*\1(?!\d)\s*(?:px|pixels)?|(?<![\w.])(\d{2,5})\s*(?:px|pixels)\b"
    r"|(?:resolution|res\.?)\s*(?:de|of|:|=)?\s*(\d{2,5})(?!\d)",
    lambda m, msg: int(m.group(1) or m.group(2) or m.group(3)),
    examples=(("images 640x640", {"image_resolution": 640}), ("1024 px", {"image_resolution": 1024})),
)

_GROWTH_CONTEXT = re.compile(
    r"(?:croiss\w*|growth|grow\w*|augment\w*|hausse|increase\w*|more|plus|next year|l'an prochain|l'annee prochaine"
    r"|d'ici|within|by 20\d\d|en 20\d\d|in 20\d\d|dans \d+|in \d+|users?|utilisateurs?|traffic|trafic|charge|load"
    r"|demand\w*|volume|usage|requetes|requests|scale|monter|passer|evoluer|evolution|futur\w*|future)")


def growth_ratio(text: str) -> float | None:
    """'x2' -> 2, '+50 %' -> 1.5, 'tripler' -> 3."""
    for word, factor in (("quadrupl", 4.0), ("tripl", 3.0), ("doubl", 2.0)):
        if word in text:
            return factor
    percent = re.search(r"(\d+(?:[.,]\d+)?)\s*%", text)
    if percent:
        return 1 + float(percent.group(1).replace(",", ".")) / 100
    times = re.search(r"x\s*(\d+(?:[.,]\d+)?)|(\d+(?:[.,]\d+)?)\s*x", text)
    if times:
        return float((times.group(1) or times.group(2)).replace(",", "."))
    return None


def find_growth(message: Message) -> Iterator[Found]:
    text = message.text
    patterns = (
        # named growth with its figure: "croissance de 30 %", "growth x2", "+50 % next year"
        r"(?:croissance|growth|grow\w*|augmentation|hausse|increase)\D{0,25}?(?:x\s*\d+(?:[.,]\d+)?|\d+(?:[.,]\d+)?\s*x"
        r"(?![\w])|\+?\s*\d+(?:[.,]\d+)?\s*%|doubl\w*|tripl\w*|quadrupl\w*)",
        r"\d+(?:[.,]\d+)?\s*%\s*(?:de\s+)?(?:croissance|growth|more|de plus|d'augmentation|increase|supplementaires?)",
        r"\+\s*\d+(?:[.,]\d+)?\s*%",
        r"(?<![\w])(?:doubl|tripl|quadrupl)(?:e|er|era|erait|ement|es|ed|ing|ent)?(?![\w])",
        r"(?<![\w])x\s*\d+(?:[.,]\d+)?(?![\w.,])|(?<![\w.,])\d+(?:[.,]\d+)?\s*x(?![\w])",
    )
    for index, pattern in enumerate(patterns):
        for m in re.finditer(pattern, text):
            if message.negated(m.start()):
                continue
            if index >= 3:  # "double" and "x2" alone: not "double precision"; in a sentence, a word about
                clause = text[max(0, m.start() - 50):m.end() + 50]  # load or time nearby ("2x faster" is not)
                if re.search(r"precision|check|verifi", clause) or (
                        len(text.split()) > 3 and not _GROWTH_CONTEXT.search(clause)):
                    continue
            value = growth_ratio(m.group(0))
            if value is not None and value >= 1:
                yield Found("growth_factor", value, m.start(), m.end())
                return


GROWTH = Rule(
    "growth", ("growth_factor",), find_growth,
    examples=(("croissance x2 l'an prochain", {"growth_factor": 2.0}), ("la charge va doubler", {"growth_factor": 2.0}),
              ("50% growth", {"growth_factor": 1.5}), ("+50 % d'utilisateurs", {"growth_factor": 1.5}),
              ("double precision", {})),
)
