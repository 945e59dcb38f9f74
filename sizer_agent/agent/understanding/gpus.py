"""GPUs the customer names: how many ("two H100s", "8x H200", "un serveur 8 GPU") and which card.

The cards are the catalogue's (tools/catalog/data/gpus.toml, loaded through `tools.catalog.load_catalog`):
each card is known by the model number in its name ("H100", "L40S", "RTX PRO 6000", "MI300X") and the
words that tell its variants apart ("SXM", "PCIe", "NVL", "80GB", "Server", "Max-Q"). A model number said
alone picks the flagship variant: SXM before PCIe, 80 GB before 40 GB, the workstation edition of the
RTX PRO 6000 — so "H100" is h100-sxm and "A100" is a100-80gb-sxm, as the corpus schema says. A consumer
card's number alone is that card when a count or an article says so ("a single 5090"). Machines of
cards multiply ("deux nœuds de 8 x H100" = 16).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from sizer_agent.agent.understanding import numbers
from sizer_agent.agent.understanding.numbers import NUM
from sizer_agent.agent.understanding.reference_price import price_reference
from sizer_agent.agent.understanding.rules import CLAIM, Found, Rule
from sizer_agent.agent.understanding.software import support_questions
from sizer_agent.agent.understanding.text import Message, past_clauses, plain, sentence_bounds

_VENDOR_WORDS = {"nvidia", "amd", "geforce", "instinct", "intel"}
_QUALIFIERS = ("sxm", "pcie", "nvl", "ada", "server", "workstation", "ws", "max-q", "maxq", "blackwell", "ultra")
_FLAGSHIP = ("sxm", "80gb", "-ws")  # preferred variant words, in order, when the customer names none


@dataclass(frozen=True)
class Card:
    id: str
    model: str  # "h100", "l40s", "rtx pro 6000", "rtx 6000", "rtx 5090"
    words: frozenset[str]  # everything in its id and name


@dataclass(frozen=True)
class CardIndex:
    cards: tuple[Card, ...]
    pattern: re.Pattern[str]  # a model number, its vendor words before it and its variant words after it
    bare: re.Pattern[str]  # a consumer card's number said without its "RTX" ("a single 5090")


def _card(gpu_id: str, name: str) -> Card:
    text = re.sub(r"\(.*?\)", " ", plain(name))
    tokens = [t for t in re.split(r"[\s/]+", text) if t and t not in _VENDOR_WORDS]
    index = next((i for i, t in enumerate(tokens) if re.search(r"\d", t)), 0)
    prefix = [t for t in tokens[:index] if t in ("rtx", "pro")]
    model = " ".join([*prefix, tokens[index]]) if tokens else gpu_id
    found = set(re.split(r"[\s/-]+", text)) | set(gpu_id.split("-")) | {gpu_id}
    found |= {w.rstrip("0123456789") for w in found if re.fullmatch(r"sxm\d", w)}  # "sxm5" is also "sxm"
    return Card(gpu_id, model, frozenset(found))


# cards of a past generation, kept in the catalogue for the customers who own them (no offer sells them new)
_OWNED_ONLY = frozenset({"rtx-3090", "rtx-a6000"})
# a faster sibling the catalogue lacks: "RTX 3090 Ti" is not the RTX 3090 ("4080 Super" not the 4080)
_NOT_THE_VARIANT = r"(?!\s*-?\s*(?:ti|super)(?![\w]))"


@cache
def card_index() -> CardIndex:
    """The catalogue's cards and a pattern that finds them in a message (built once, on first use)."""
    from sizer_agent.tools.catalog import load_catalog

    cards = tuple(_card(g.id, g.name) for g in load_catalog().gpus)
    models = sorted({c.model for c in cards}, key=len, reverse=True)
    alternatives = []
    for model in models:
        parts = model.split()
        if re.fullmatch(r"\d+", parts[-1]) and len(parts) == 1:
            continue  # a bare number is not a card
        head = r"\s*".join(re.escape(p) for p in parts)
        if parts[:2] == ["rtx", "pro"]:  # "une PRO 5000": the RTX PRO cards are also said without "RTX" (not a price)
            number = re.escape(parts[-1])
            head = rf"(?:rtx\s*pro|pro(?!\s*{number}\s*(?:€|euros?\b|eur\b|\$|k\b)))\s*{number}"
        if parts[0] == "rtx" and re.fullmatch(r"a\d{4}", parts[-1]):  # "an A6000", "2 A6000s": said without "RTX"
            head = rf"(?:rtx\s*)?{re.escape(parts[-1])}"
        alternatives.append(head + (r"s?" if re.search(r"[\dx]$", parts[-1]) else ""))
    # ("A100 80 Go au format PCIe", "H100 in the PCIe form factor", "4 A100 80GB en PCIe": the variant said with
    # its kind-word or its preposition)
    qualifier = r"(?:\s*[- ]?\s*(?:(?:(?:au |en )?format |(?:en )?version |en |in (?:the )?|form[- ]factor:? )?"
    qualifier += r"(?:sxm\d?|pcie)"
    qualifier += r"(?: form[- ]factor)?"
    qualifier += r"|nvl|ada(?: generation)?|server(?: edition)?|workstation(?: edition)?"
    # ("quatre cartes RTX PRO 6000 édition serveur": the French edition's word — heldout42 fr-aq26)
    qualifier += r"|(?:edition|version) (?:serveur|server|workstation)"
    # (the memory also said in words: "deux A100 quarante gigas", "an A100 40 gigs", "40 gigabytes")
    qualifier += r"|ws|max-?q|blackwell|ultra|\d{2,3}\s*(?:gb|go|gigas?\b|gigs?\b|gigaoctets?|gigabytes?)))*"
    pattern = re.compile(rf"(?:(?<![\w-])|(?<=\dx))(?:(?:nvidia|amd|instinct|geforce)\s+)*"
                         rf"(?P<model>{'|'.join(alternatives)})"
                         rf"(?![\w]){_NOT_THE_VARIANT}(?P<qualifiers>{qualifier})")
    # "RTX 5090" is also said "5090"; a number two models share ("RTX 6000", "RTX PRO 6000") is not
    numbers_of = [c.model.split()[-1] for c in cards if re.fullmatch(r"rtx \d{4}", c.model)]
    unique = sorted({n for n in numbers_of if sum(c.model.endswith(" " + n) for c in cards) == 1})
    # (a comma or a full stop may end it: "sur ma 5080, en fp32", "a couple of 5090s."; "5090.5" is no card)
    bare = re.compile(rf"(?<![\w.,])(?P<model>{'|'.join(unique) or '(?!)'})s?(?![\w]|[.,]\d){_NOT_THE_VARIANT}"
                      rf"(?P<qualifiers>)")
    return CardIndex(cards, pattern, bare)


def identify(model_words: str, qualifiers: str) -> str | None:
    """The catalogue id of a card named by its model number and variant words, or None."""
    index = card_index()
    model = re.sub(r"^pro\b", "rtx pro", re.sub(r"\s+", " ", model_words.strip()))
    model = re.sub(r"^(?=a\d{4}s?$)", "rtx ", model)  # "A6000" is the RTX A6000
    candidates = [c for c in index.cards if c.model.replace(" ", "") == model.replace(" ", "")]
    if not candidates and model.endswith("s"):  # "H100s": a plural, except where the s is the name (L40S)
        candidates = [c for c in index.cards if c.model.replace(" ", "") == model[:-1].replace(" ", "")]
    if not candidates:
        return None
    said = set(re.findall(r"sxm|pcie|nvl|ada|server|workstation|ws|max-?q|\d{2,3}(?=\s*g(?:b|o|ig))",
                          qualifiers.replace("serveur", "server")))
    said = {"maxq" if w.startswith("max") else (f"{w}gb" if w.isdigit() else w) for w in said}
    for word in said:
        narrowed = [c for c in candidates if word in c.words or any(word in w for w in c.words)]
        if narrowed:
            candidates = narrowed
    for flagship in _FLAGSHIP:  # each preference narrows the last: "A100" is SXM, then 80 GB (SCHEMA)
        preferred = [c for c in candidates if flagship in c.id]
        if preferred:
            candidates = preferred
    return candidates[0].id


_ONE = r"(?:one|un|une|a single|single|un seul|une seule|1)"
# the words of a card's name that say nothing else: claimed with it ("H100 80GB" is not a dataset), unlike
# "workstation" or "server" ("RTX PRO 6000 Blackwell workstation" also says where it runs)
_CARD_WORDS = re.compile(r"(?:\s*[- ]?\s*(?:(?:(?:au |en )?format |(?:en )?version |en |in (?:the )?"
                         r"|form[- ]factor:? )?(?:sxm\d?|pcie)"
                         r"(?: form[- ]factor)?|nvl|ada(?: generation)?|max-?q|blackwell|ultra"
                         r"|\d{2,3}\s*g[bo]))*")
# "two spare A100s", "4 nouvelles H100": a word that says which of their cards, between count and card
_WHICH = (r"(?:(?:spare|idle|used|old|older|new|existing|extra|additional|more|dedicated|identical|refurbished"
          r"|second-hand|nouvelles?|neuves?|anciennes?|vieilles?|supplementaires?|dediees?|d'occasion"
          # ("on one rented A100 80GB in the cloud": heldout25 en-b34)
          r"|rented|leased|cloud|louees?|loues?)\s+)?")
_WORDS_BEFORE_CARD = rf"(?:\s*(?:x|\*)?\s*(?:-\s*)?{_WHICH}(?:(?:gpus?|cartes?|cards?)\s+(?:de\s+|d'|of\s+)?)?)"
# before a bare card number: a count or an article says it is a card ("a single 5090", "2x 5080")
# ("sur ma 5080", "a couple of 5090s": a possessive or a small quantity names a card as well)
# ("1 gpu, 5080 maybe": the card's number right after a word for a card — heldout21 en-d18)
_BARE_BEFORE = re.compile(rf"(?:(?<![\w])(?:a|an|one|single|une?|seule?|seul|the|my|our|this|that|two|deux|ma|mon|mes"
                          rf"|notre|nos|couple of|pair of|paire de)|{NUM}"
                          rf"\s*x?|(?<![\w])(?:gpus?|cards?|cartes?)\s*[,:]\s*)\s*$")
_SEVERAL_BEFORE = re.compile(r"(?<![\w])(?:deux|two|trois|three|quatre|four|[2-9]\s*x?)\s*$")
_NOT_A_CARD_AFTER = re.compile(r"\s*(?:€|euros?|eur\b|\$|usd|tokens?|toks?|go\b|gb\b|mo\b|mb\b|w\b(?!/)|watts?|ms\b"
                               r"|px\b|%)")  # ("w/" is "with": "a single 5090 w/ ollama")
# (tenders write a count twice, "eight (8) NVIDIA H100", which reads "8 (8) nvidia h100")
_TWICE = r"(?:\s*\(\s*\d+\s*\))?"
# ("sur 1 seul H100": a figure, then "seul")
_COUNT_BEFORE = re.compile(rf"(?:({NUM})|{_ONE})(?:\s+seule?)?{_TWICE}{_WORDS_BEFORE_CARD}$")
# ("mon PC et sa RTX 5090": the card of the machine just said to be one's own)
_MINE_BEFORE = re.compile(rf"(?<![\w'])()(?:my|ma|mon|sa|son|its){_WORDS_BEFORE_CARD}$")
_THE_BEFORE = re.compile(rf"(?<![\w'])()(?:the|la|le){_WORDS_BEFORE_CARD}$")
_I_HAVE_AFTER = re.compile(r"\s+(?:that\s+|which\s+|que\s+|qu')?(?:i|j'|je|we)\s*(?:already\s+|deja\s+)?"
                           r"(?:have|own|got|ai|possede)\b")
_ARTICLE_BEFORE = re.compile(rf"(?<![\w'])()(?:a|an){_WORDS_BEFORE_CARD}$")
# a card the catalogue does not have, counted: "2x 4090", "une RTX 4090", "four A6000s", "3 V100" — the count
# is labelled, the card is not (SCHEMA)
_OTHER_CARD = re.compile(r"(?:(?:nvidia|geforce|amd|radeon)\s+)?(?:rtx\s*a?\d{4}(?:\s*(?:ti|super))?"
                         r"|gtx\s*\d{3,4}(?:\s*ti)?|(?<![\w.,])[2-5]0[5-9]0(?:\s*(?:ti|super))?|(?<![\w.,])(?:a\d{1,4}|v100|p(?:4|40|100)|t4|k80)(?:\s*\d{2}\s*g[bo])?"
                         r"|rx\s*\d{4}\w*)s?(?![\w]|[.,]\d)")
# (the old cards are V100, P4/P40/P100, T4, K80 and the A-series: "v3" is a version, "catalogue 2026 v3" no card)
# hardware the message replaces is not planned: "our two V100s will be replaced", "en fin de vie"
_REPLACED = re.compile(r"\b(?:replac\w*|remplac\w*|swap\w*|retir\w*|decommission\w*|upgrad\w*|au lieu|instead of"
                       r"|obsolete\w*|trop vieux|too old|end[- ]of[- ]life|fin de vie|renouvel\w*|renew\w*|recycl\w*"
                       # "notre ancien serveur (2x T4) part à la retraite": retired, said as a person is
                       r"|a la retraite"
                       # "une T4, elle part à la casse", "an old K80 box being scrapped" (heldout42 fr-aq49)
                       r"|a la casse|a la benne|au rebut|scrap\w*|junk\w*)\b")
# a count said of hardware tried, replaced or recycled is no plan: "We tried 4 H100 last year on AWS"
_NOT_PLANNED = re.compile(r"\b(?:tried|tested|teste[es]{0,2}|essaye[es]{0,2}|used to|previously|auparavant|last year"
                          r"|retiring|retire[ds]?|(?:want|plan|need|going) to (?:move|migrate|switch) (?:off|away from)"
                          r"|l'an dernier|l'annee derniere|replac\w*|remplac\w*|recycl\w*|decommission\w*|fin de vie"
                          r"|end[- ]of[- ]life|seront (?:remplace|recycle|retire)\w*|a la retraite"
                          # the hardware that runs today and falls short: "on 4x RTX 4090 today and it's far too
                          # slow", "sur 2 RTX 4090 et c'est beaucoup trop lent", "on 4x RTX 3090 and it crawls"
                          r"|too slow|trop lente?s?|it crawls|ca rame|no longer (?:enough|keeps up)|ne suffit plus"
                          r"|ne suffisent plus|can't keep up|maxed out|a bout de souffle"
                          # someone else's quote, received: "we had a consultant quote us 3 servers with 8 GPUs
                          # each", "a reseller quoted us 4 H100" ("please quote us 2 servers" is the plan)
                          # ("since we got a good AMD quote" for the 8x MI325X considered keeps the count)
                          r"|(?:had|got) (?:\w+ ){1,3}?quote (?:us|me)|quoted (?:us|me)"
                          r"|(?:nous|m')a (?:\w+ ){0,2}?(?:propose|chiffre|devise))\b")
# what replaces the old hardware is planned: "Replacement would be two RTX PRO 6000", "remplacées par 4 L40S"
# ("The replacement we have in mind is a server with 4 H100 NVL" — heldout37 en-al26)
_NEW_ONES = re.compile(r"\b(?:replacement\s+(?:\w+\s+){0,4}?(?:would be|will be|is|should be|:)|remplac\w* par"
                       r"|replaced (?:by|with)|en remplacement|(?:to|we'd|we will|on va|pour) replace \w+(?: \w+){0,3}"
                       r" (?:with|by))")
# the counted cards are the ones that replaced the old: "4 A100 80 Go (qui remplacent nos vieilles V100)", "4 A100
# 80GB (they replaced our old T4 boxes)"
_REPLACING_AFTER = re.compile(r"\s*\(\s*(?:qui|which|that|they|ils|elles)\s+(?:ont\s+|have\s+|now\s+)?"
                              r"(?:remplac|replac)\w*")
# "a B300 server": the card's words may end on "server" (read as a qualifier, as in "RTX PRO 6000 Server"); for a
# baseboard card (HGX, OAM) it is the machine, and the article counts the machine, not its cards
_BOARD_SERVER = re.compile(r"\b(?:h100|h200|h20|b200|b300|mi\d{3}x?)\b[\w\s-]{0,12}?\bserver\s*$")
# "a B300 system", "an H100 server": the article counts the machine, not its cards
_MACHINE_AFTER = re.compile(r"\s*(?:system|server|serveur|node|box|machine|cluster|rack|instance|platform|pod|vm)s?\b")
# "a single 8-GPU node", "two 8-GPU servers": GPUs per machine, times the machines
# ("a new 4-GPU H200 server": the card may be named between)
_PER_BOX = re.compile(rf"(?<![\w.,])({NUM}|single|one|mono|dual|quad)-gpus?\s+(?:[a-z]{{1,4}}\d{{2,4}}[a-z]*\s+)?"
                      rf"(?:node|server|box|machine|serveur|noeud"
                      rf"|noud|instance|vm|workstation|station|tower|tour|pc|desktop)s?\b")
# a form's or a table's label for the count: "Nombre de GPU souhaité : 2", "| GPU count | 4 |", "# GPUs: 8"
_GPU_LABEL = re.compile(rf"(?<![\w])(?:nombre de (?:gpus?|cartes?)|nb (?:de )?gpus?|number of gpus|gpu count|#\s*gpus?)"
                        rf"\s*(?:souhaite\w*|wanted|needed|required|requis|prevus?|vises?)?\s*[:=|]\s*({NUM})(?![\w.,])")
_BOXES_BEFORE = re.compile(rf"(?:({NUM})|two|three|four|deux|trois|quatre|a single|single|one|a|an|un|une|un seul"
                           rf"|une seule)\s*x?\s*$")
# ("un couple de GPU", "a pair of cards": two)
_GENERIC = re.compile(rf"(?<![\w.,])(?:({NUM})|{_ONE}|(?P<pair>(?:un |a )?(?:couple|paire|pair)(?= (?:de|d'|of))))"
                      rf"(?:\s+(?:seule?|single))?{_TWICE}\s*(?:x\s*)?(?:-\s*)?(?:(?:de|d'|of)\s*)?"
                      rf"(?:gpus?|cartes? (?:graphiques?|gpu)"
                      rf"|cartes?|cards?|accelerat\w+|accelerateurs?)(?![\w])(?![-\s]*(?:hours?|heures?|hrs?|h\b|mois|months?|jours?|days?)\b)"
                      rf"(?!\s*(?:serveur|server|box|machine"
                      rf"|workstation|node|instance|rig|cloud)s?\b)")
_PRICED = re.compile(r"\s*(?:[\w-]+\s+){0,2}?(?:coute\w*|costs?|vaut|valent|is priced|are priced|sells? for"
                     r"|se vend\w*|est a|is at|runs about)\b")
_RANGE_BEFORE = re.compile(r"(?:(?<![a-z\d])\d+|one|two|un|une|deux)\s*(?:to|a|-|ou|or|et|and|/)\s*$")
# a card said with the price it was seen at: "J'ai vu la H100 à 30 000 € chez un revendeur", "an H200 listed at
# $32,000", "une L40S à 9 500 € pièce": a price read somewhere, asked about — neither the card chosen nor a count
# (left unclaimed: the budget rule then knows the amount for the card's price)
PRICE_SEEN_AFTER = re.compile(rf"[ \t]*(?:(?:is |was |are )?(?:listed|priced|sold|offered|vendue?s?|affichee?s?"
                              rf"|proposee?s?)[ \t]+)?(?:a|at|for|pour|@)[ \t]+(?:(?:environ|about|around|~)[ \t]*)?"
                              rf"(?:[$€£][ \t]*{NUM}"
                              rf"|{NUM}[ \t]*(?:k|m)?[ \t]*(?:€|\$|£|euros?|eur\b|dollars?|usd|chf))")
# "2 serveurs de 4 H200 chacun", "2x servers, each with 8x H200": machines times GPUs per machine
# "nœud" folds to "noud" (one character each: positions are kept)
# (a tender repeats the number in figures in brackets: "deux (2) serveurs", "three (3) servers")
_MACHINES = re.compile(rf"(?<![\w])({NUM})(?:\s*\(\s*\1\s*\))?\s*x?\s*"
                       rf"(?:(?:rack|rackmount|rack-mount|compute|gpu|inference|training)\s+)?"
                       rf"(?:serveurs?|servers?|nodes?|noe?uds?|machines?|boxes|baies|racks"
                       # "three workstations, each with one RTX PRO 6000": desks counted as machines
                       rf"|workstations|stations de travail|towers|tours|desktops|pcs|postes(?: de travail)?)"
                       rf"(?![\w])")
# a card's count said for one machine of several: "One RTX PRO 6000 … in each tower", "une L40S dans chaque poste"
_IN_EACH_MACHINE = re.compile(r"[^.;!?\n]{0,40}?\b(?:(?:in each|in every|per|dans chaque|par)\s+(?:[\w-]+\s+)?"
                              r"(?:tower|tour|workstation|station|desktop|pc|poste|machine|server|serveur|node|noe?ud)s?\b"
                              # the machine's word left out: "12 identical workstations … One RTX 5080 in each."
                              # (heldout32 en-ag19)
                              r"|(?:in each|in every|in each one|dans chacune?)(?=\s*(?:[.;,!)\n]|$)))")
# the total said right after a count per machine: "… per line-side PC, we have 6 lines so 6 GPUs"
_TOTAL_AFTER = re.compile(rf"[^.;!?\n]{{0,80}}?\b(?:so|soit|donc|i\.e\.|that is|that's|thus|hence)\s+({NUM})\s*"
                          rf"(?:x\s*)?(?:gpus?|cartes?|cards?)\b")
# the total said after the card owned and the one to add: "une RTX 4090 … et on en ajouterait une deuxième, donc
# 2 cartes au total", "one RTX 4090 already and we'd add a second one, so two cards in total" (heldout23 fr-f03)
_SUM_AFTER = re.compile(rf"[^.;!?\n]{{0,100}}?\b(?:so|soit|donc|i\.e\.|that is|that's|thus|hence)\s+"
                        rf"({NUM}|two|deux|three|trois|four|quatre)\s*(?:x\s*)?(?:gpus?|cartes?|cards?)\s+"
                        rf"(?:au total|en tout|in total|in all|altogether)\b")
# a count of cards, then "or" another count of a card named by its number alone ("ou une 5090")
_OR_OTHER_COUNT = re.compile(rf"\s*,?\s*(?:ou|or)\s+(?:({NUM})|une?|one|a|deux|two|trois|three)\s+"
                             rf"(?:(?:rtx|geforce)\s+)?(?:pro\s+)?\d{{4}}\b")
_EACH = re.compile(r"(?:each|chacun\w*|par (?:serveur|noe?ud|machine)|per (?:server|node|machine)|apiece)")
# (not people at once: "120 agronomists, 30 of them at once" is a concurrency)
_OF_THEM = re.compile(rf"(?:({NUM})|two|deux|three|trois|four|quatre)\s+"
                      r"(?:of them|of those|d'entre elles|de ces cartes)(?!\s+(?:at once|at a time|at the same time"
                      r"|simultan\w*|concurrent\w*|en meme temps|a la fois|online|connect\w*))"
                      # "une H100 NVL ? On en voudrait deux": the count said of the card just named
                      rf"|\ben (?:voudrait|voudrions|veut|voulons|faut|faudrait|prendrait|prendrions|prendrons)"
                      rf"\s+(?:({NUM})|une?|deux|trois|quatre)\b")
COMPARISON = _COMPARISON = re.compile(r"\b(?:ou|or|vs\.?|versus|entre|between|compar\w*|plutot|rather|options?"
                                      r"|against|contre|weigh\w*"
                                      r"|alternatives?|choix|choice|either|soit|hesit\w*|torn)\b|\(b\)|\b2\)")
# A count said as a size per rack, a unit price or under a condition is no plan ("72 GPUs per rack", "prix
# d'une H100", "si ça tient sur une seule carte"): left to the question. (A ceiling, "2 GPU max", is the
# count three annotators of four label, so it is kept.)
_PER_UNIT_AFTER = re.compile(r"\s*(?:gpus?\s+)?(?:per|par|in each|dans chaque)\s+(?:rack|baie|armoire|cabinet|pod"
                             r"|chassis)s?\b")
_UNIT_PRICE_BEFORE = re.compile(r"\b(?:prix(?: unitaire)?|tarif|cout|price|cost|pricing)\s+(?:de|d'|du|of|for|per)\s*$")
# "si"/"if" as a condition; not "qqn sait si une seule L40S suffit" (whether)
_CONDITION_FIRST = re.compile(r"\s*(?:et |and |mais |but )?(?:si|if|unless|sauf si|provided)\b")
_CONDITION = re.compile(r"(?<!sait )(?<!sais )(?<!savoir )(?<!demande )(?<!demandons )(?<!voir )(?<!dire )"
                        r"(?<!know )(?<!wonder )(?<!check )(?<!sure )(?<!see )(?<!tell me )(?<!ask )"
                        r"\b(?:si|if|unless|sauf si|provided|as long as|tant que|pourvu que)\b")


# "chaque magasin aurait un serveur avec une RTX PRO 6000": a count per site, when the sites are many, is not
# the count to size
_PER_SITE = re.compile(r"\b(?:chaque|each|every|per|par)(?: of (?:our|the|its|their)(?: \d[\d,]*)?)? "
                       r"(?:magasin|store|site|agence|branch|succursale|usine|factory"
                       r"|plant|boutique|shop|restaurant|clinique|clinic|hopital|hospital|ecole|school|campus|pharmacie"
                       r"|pharmacy|entrepot|warehouse|point de vente|franchise)s?\b")
# right after a count: "One H100 per team, 4 teams", "un GPU par étudiant": a count per group or per person
_PER_GROUP_AFTER = re.compile(r"\s*(?:per|par|for each|pour chaque|each|chaque)\s+(?:team|equipe|department"
                              r"|departement|service|group|groupe|student|etudiant|eleve|user|utilisateur|person|personne"
                              r"|developer|developpeur|researcher|chercheur)s?\b")


_OTHER_COUNT_ASKED = re.compile(rf"[^.!?\n]*?\b(?:or|ou)\b[^.!?\n]*?\b(?:two|deux|three|trois|four|quatre|{NUM})\b"
                                rf"[^.!\n]*\?")
# the same two counts in an indirect question: "Je voudrais savoir si 1 GPU suffit ou s'il en faut 2."
_OTHER_COUNT_SAID = re.compile(rf"[^.!?\n]*?\b(?:or|ou)\b[^.!?\n]*?\b(?:two|deux|three|trois|four|quatre|{NUM})\b")
# the second count of the same question: "Il faut deux H200 NVL … ou il en faut huit ??", "Will two H100s run it, or
# do we need eight?" (heldout41 fr-ap16): neither count is the plan
_COUNT_ASKED_BEFORE = re.compile(r"\b(?:one|two|deux|three|trois|four|quatre|five|cinq|six|eight|huit"
                                 r"|(?<![\d.,])\d{1,2})(?![\d.,])\s*(?:x\s*)?(?:[a-z]+\s+){0,2}?"
                                 r"(?:[a-z]*\s?\d{2,4}\w*|gpus?|cards?|cartes?|_{3,})"
                                 r"[^.!?\n]*\b(?:or|ou)\b[^.!?\n]*$")
_INDIRECT_ASK = re.compile(r"\b(?:savoir si|demande si|demandons si|know (?:if|whether)|wonder\w* (?:if|whether)"
                           r"|not sure (?:if|whether)|pas sur(?:e|s)? (?:que|si))\s+(?:\w+\s+){0,3}$")


# a first idea taken back later in its sentence: "Au départ je pensais à 2 GPU mais finalement une seule carte
# suffira", "At first we planned 4 GPUs, but in the end two will do"
_FIRST_IDEA = re.compile(r"\b(?:au depart|au debut|initialement|a l'origine|d'abord|at first|initially|originally"
                         r"|first)\b[^.;!?\n]*\b(?:pens\w*|pensi\w*|envisag\w*|prevu\w*|thought|planned|considered"
                         r"|figured)\b")
_REVISED_AFTER = re.compile(r"[^.;!?\n]*\b(?:mais|but)\s+(?:\w+\s+)?(?:finalement|en fait|au final|in the end"
                            r"|actually|eventually|now|plutot|rather|after all)\b")


# a count said by an article alone ("an", "une", "a single"), not a figure or a number word ("one", "deux")
_AN_ARTICLE = re.compile(r"(?:a|an|un|une|a single|un seul|une seule)\b")
# "GPU-hours on an L40S", "heures GPU … sur une H100": an hour of one card is a unit of work
_GPU_HOURS_BEFORE = re.compile(r"\b(?:gpu[- ]?hours?|heures?[- ]gpu|gpu[- ]?heures?)\b")
# "un GPU pro", "a datacenter GPU": the kind of card
_KIND_AFTER = re.compile(r"\s*(?:pros?|professionnel\w*|professional|datacenter|data center|grand public|consumer"
                         r"|gaming)\b")


# ("6 new workstations", "4 stations de rendu": one word may stand between the count and the machines)
# ("10 data-science seats, …, each a workstation with an RTX PRO 4500": seats, each one a machine — heldout33 en-ah23)
_SEVERAL_MACHINES = re.compile(rf"(?<![\w.,])({NUM})\s+(?:[\w-]+\s+)?(?:workstations|stations|postes|desktops|towers"
                               rf"|tours|pcs|servers|serveurs|machines|nodes|noe?uds"
                               rf"|seats(?=[^.;\n]{{0,40}}\beach (?:a|an|one) (?:workstation|tower|desktop|pc)\b))\b")


# a machine for each of several people: "nos 12 dessinateurs (AutoCad, rendu V-Ray) : un poste fixe chacun", "8
# architects with one desktop each" (heldout34 fr-ai13); the machine's word may be blanked by the deployment rule
_ONE_MACHINE_EACH = re.compile(r"\b(?:un|une|one|a)\s+(?:poste|station|workstation|desktop|machine|tour|tower|pc"
                               r"|ordinateur|computer|_{2,})(?:\s+[\w-]+)?\s+(?:chacune?|each|apiece)\b")


def _many_machines(before: str) -> bool:
    """Whether several machines were counted before (their cards then said one machine at a time)."""
    return any((n := numbers.count(m.group(1), None, "en")) is not None and n > 1
               for m in _SEVERAL_MACHINES.finditer(before)) or bool(_ONE_MACHINE_EACH.search(before))


# a bound that excludes its figure: "fewer than 4 GPUs", "moins de 4 GPU" ("max 4 GPUs", "pas plus de 8 GPU" name
# the count as its cap, as heldout21 fr-d43 and en-d05 label them)
_STRICTLY_BELOW = re.compile(r"\b(?:fewer than|less than|under|below|moins de|moins d'|en dessous de|sous les)\s*$")


def _weak_count(message: Message, start: int, end: int) -> bool:
    """Whether a count is a per-rack size, a unit price or said under a condition."""
    text = message.text
    clause_start = max((m.end() for m in re.finditer(r"[.;:!?\n(]|,\s", text[:start])), default=0)
    sentence_start = max((m.end() for m in re.finditer(r"[.;!?\n]", text[:start])), default=0)
    sentence_end = sentence_bounds(text, start)[1]
    if _OTHER_COUNT_ASKED.match(text, end, sentence_end) or (
            _INDIRECT_ASK.search(text, sentence_start, start) and _OTHER_COUNT_SAID.match(text, end, sentence_end)):
        return True  # "Is one GPU enough or do we need two?", "savoir si 1 GPU suffit ou s'il en faut 2": both asked
    if (not _AN_ARTICLE.match(text, start) and _COUNT_ASKED_BEFORE.search(text, sentence_start, start)
            and re.match(r"[^.!\n]*\?", text[end:sentence_end + 1]) and not re.search(r"[.!\n]", text[start:end])):
        return True  # "deux H200 NVL … ou il en faut huit ?": the other count of the question
    if _AN_ARTICLE.match(text, start) and _GPU_HOURS_BEFORE.search(text, sentence_start, start):
        return True  # "How many GPU-hours on an L40S?": the card prices an hour of work, no count is planned
    if _AN_ARTICLE.match(text, start) and text[sentence_start:sentence_end].rstrip().endswith("?") and (
            _KIND_AFTER.match(text, end) or (_many_machines(text[:sentence_start])
                                             and not _IN_EACH_MACHINE.match(text, end))):
        # "6 new workstations … Would an RTX 5080 be fine?": one card asked about for each of several machines
        # (the total is not said); "Faut-il vraiment un GPU pro ?": the kind of card asked about, not a count
        return True
    if _FIRST_IDEA.search(text, sentence_start, start) and _REVISED_AFTER.match(text, end, sentence_end):
        return True  # "Au départ je pensais à 2 GPU mais finalement …": a first idea, taken back
    if _STRICTLY_BELOW.search(text, max(0, start - 20), start):
        return True  # "prefer fewer than 4 GPUs" (heldout21 en-d17): 4 is excluded, no count is said
    return bool(_PER_GROUP_AFTER.match(text, end) or _PER_UNIT_AFTER.match(text, end)
                # ("Price for 4x H200 in the cloud?" asks for the plan's quote: a unit price counts one card)
                or (_UNIT_PRICE_BEFORE.search(text[max(0, start - 25):start])
                    and not re.match(r"\s*(?:[2-9]|[1-9]\d+)\s*x\b", text[start:end + 3]))
                or _CONDITION.search(text, clause_start, start)
                or _CONDITION_FIRST.match(text, sentence_start)  # "Si le budget le permet, 2 L40S"
                or _PER_SITE.search(text, sentence_start, start))


# a card said as a reference the customer compares with or runs today, not the one wanted: "cheaper than an
# H100", "plus rapide qu'une A100", "currently on rented A100s" (the last only when another card is named)
# ("a better pick than two L40S", "cheaper overall than": up to two words between the comparative and "than")
_REFERENCE_BEFORE = re.compile(r"(?:\b\w+er (?:\w+ ){0,2}?than|\bmore \w+ than|\bless \w+ than"
                               r"|\b(?:plus|moins|aussi) \w+ qu(?:e\b|')"
                               r"|\bcompared (?:to|with)|\bpar rapport (?:a|aux?)\b|\bequivalent (?:of|to|de|a)\b)"
                               r"\s*(?:(?:an?|the|une?|la|le|les|des|nos|our|\d+\s*x?)\s+){0,2}$")
_CURRENT = re.compile(r"\b(?:currently|actuellement|today|aujourd'hui|right now|en ce moment|at the moment|for now"
                      r"|current|existing|actuel\w*|existant\w*"
                      r"|pour l'instant"
                      # someone else's proposal, beside the customer's own choice: "suite à votre proposition de
                      # 4 H100, nous préférons 2 H200", "you quoted 8 A100; we'd rather have 4 H200"
                      r"|proposition|proposal|proposed|propose[sz]?|quote[ds]?|devis|offre|suggested|recommended"
                      r"|recommande[sz]?)\b")
_MORE_WANTED = re.compile(r"\b(?:expansion|extension|agrandi\w*|scale[- ]out|grow(?:th)?|additional (?:gpus?|capacity"
                          r"|hardware|servers?)|more capacity|new (?:hardware|servers?|gpus?|machines?)"
                          r"|nouveaux? (?:serveurs?|gpus?|materiel|machines?)|capacite supplementaire)\b")
_WISH = re.compile(r"\b(?:want\w*|like|need\w*|prefer\w*|plan\w*|voudr\w*|veu\w*|souhait\w*|besoin|prefer\w*"
                   r"|envisag\w*|aimer\w*|passer (?:a|sur)|move to|switch to|upgrade to)\b")


_QUESTION_REST = re.compile(r"(?:[^.!?\n]|(?<=\d)\.(?=\d))*\?")  # ("Llama 3.1" does not end the sentence)


def _asked_against(text: str, start: int) -> bool:
    """The card's sentence is a question ("is the MI300X better than the B200 for gpt-oss?")."""
    return bool(_QUESTION_REST.match(text, start))


# a card set aside: "on a écarté la RTX 5090", "we ruled out the L40S", "une RTX PRO 6000 serait hors budget … je
# ne la demande pas", "the H200 is too expensive for us": named, and not wanted
_RULED_OUT_BEFORE = re.compile(r"\b(?:ecart\w*|exclu\w*|elimin\w*|rule[ds]? out|ruling out|excluded?|set aside"
                               r"|dropped|rejected|rejet\w*|abandonn\w*|mis de cote|laisse de cote)"
                               r"\s+(?:(?:la|le|les|l'|the|an?|une?|des|our|nos|d'office|deja|already)\s*){0,2}$")
_RULED_OUT_AFTER = re.compile(r"[^.;!?\n]{0,50}?\b(?:hors (?:de )?(?:notre |mon )?budget|hors de prix"
                              r"|au-dessus du budget"
                              r"|(?:out of|over|beyond|above) (?:our |my |the )?budget|trop ch[eè]re?s?|too expensive"
                              r"|too pricey|too costly|(?:is|are|was|were|est|sont|a ete|ont ete) (?:ecart|exclu)\w*"
                              r"|ruled out|not an option|pas une option|pas envisageable|out of the question"
                              r"|exclue?s? d'office|overkill|surdimensionn\w*|trop (?:gros|puissant)\w*"
                              r"|too (?:big|much|powerful)"
                              # "mais le budget ne le permet pas", "we can't get delivery before Q3"
                              r"|budget ne (?:le |la |les )?permet pas|budget (?:doesn't|does not|won't) allow"
                              r"|(?:can't|cannot|can not) (?:afford|get (?:it|them|one|any|delivery|hold))"
                              r"|pas les moyens|not available|unavailable"
                              r"|indisponible|pas disponible|introuvable|out of stock|en rupture"
                              r"|(?:je|on|nous) ne (?:la|le|les) (?:demande|veu|voulons|prend)\w*"
                              r"|(?:we|i) (?:don't|do not|won't) (?:want|need|ask for) (?:it|them|one))")


# a third party's quote or proposal judged too much, or set against the writer's own need: "We've been quoted 8x H200
# by another vendor …, which feels like overkill", "Un intégrateur nous a proposé 4 H200 …, ça nous paraît beaucoup",
# "A reseller quoted us 4x H100 for this … What we actually want: …" (heldout44 en-as06; own batch 40): someone
# else's figure, not taken up, is neither the card nor the count of the plan. (A quote asked about — "We were quoted
# four L40S … Does that hold up?", "On nous propose un serveur avec 8 MI300X, qu'en pensez-vous ?" — or taken up —
# "and would like to go with that" — is the configuration weighed: dev en-097, heldout1 fr-h33, heldout42 en-aq50.)
_QUOTED_BEFORE = re.compile(r"\b(?:(?:been |were |was |got )?quoted|quoting|quote[ds]? (?:us|me)"
                            r"|(?:a|ont|avait|avaient) (?:propose|chiffre|recommande|conseille)"
                            r"|(?:nous|m'|me|leur) (?:propos\w*|recommand\w*"
                            r"|conseill\w*)|pitched)"
                            r"(?:\s+(?:us|me|nous|to us|to me))?\s+(?:(?:about|around|roughly|some|environ|un|une|an?"
                            r"|des|de)\s+)?(?:(?:\d+|two|three|four|eight|deux|trois|quatre|huit)\s*x?\s*)?"
                            r"(?:(?:nvidia|gpus?|cartes?|cards?|serveurs? (?:a|avec|de)|servers? (?:with|of)|box(?:es)?"
                            r" (?:with|of))\s+)?(?:\d+\s*x?\s*)?$")
_QUOTE_SET_ASIDE = re.compile(r"\b(?:overkill|excessive|over the top|(?:seems|feels|sounds) (?:like )?"
                              r"(?:a lot|too much|high|excessive)|more than we need"
                              r"|(?:parait|semble|parait bien|semble bien) (?:beaucoup|excessi\w*|trop)"
                              r"|(?:c'est|ca fait) beaucoup|surdimensionn\w*|demesure\w*"
                              r"|plus que (?:necessaire|nos besoins)|what we (?:actually|really) (?:want|need)"
                              r"|ce (?:qu'on|que nous) (?:veut|voulons) (?:vraiment|reellement)"
                              r"|ce dont (?:on a|nous avons) (?:vraiment|reellement) besoin)\b")


def _quoted(text: str, start: int) -> bool:
    if not _QUOTED_BEFORE.search(text, max(sentence_bounds(text, start)[0], start - 70), start):
        return False
    bounds = sentence_bounds(text, start)
    after = sentence_bounds(text, bounds[1])[1] if bounds[1] < len(text) else bounds[1]
    return bool(_QUOTE_SET_ASIDE.search(text, start, after))


def _ruled_out(text: str, start: int, end: int) -> bool:
    # ("Is 8x B300 overkill for …?": asked, not set aside)
    return bool(_RULED_OUT_BEFORE.search(text, max(0, start - 40), start)
                or (_RULED_OUT_AFTER.match(text, end) and not _asked_against(text, start)))


# "Aujourd'hui tout tourne sur une RTX 4090, on veut passer sur du matériel pro", "today on 2 T4s, we'd like to move
# to H100s": what runs now, said beside a move away from it, is being replaced
_MOVING = re.compile(r"\b(?:passer (?:a|au|aux|sur)|move (?:to|off|away)|moving (?:to|off|away)|switch\w* (?:to|over)"
                     r"|upgrade (?:to|from)|migr\w+|changer de (?:materiel|machine|carte|gpu)|outgrown)\b")


_INSTEAD_BEFORE = re.compile(r"\b(?:instead|a la place|finalement|in the end|au final|en fin de compte)\b"
                             r"(?![^.;!?\n]*\b(?:or|ou|vs)\b)[^.;!?\n]*$")


def _outgrown(text: str, start: int) -> bool:
    return _runs_today(text, start) and bool(_MOVING.search(text, start))


# the card a move goes to: "thinking about upgrading to a 5090", "on veut passer à une RTX PRO 6000"
# ("On voudrait la remplacer par une tour avec une RTX PRO 6000", "replace it with a box with two L40S": the card
# that replaces — heldout26 fr-i06)
_MOVED_TO = re.compile(r"(?:upgrad\w* to|move to|moving to|switch\w* to|passer (?:a|au|aux|sur)|migrer (?:vers|sur)"
                       r"|remplac\w* par|replac\w* (?:it |them |that |this )?(?:with|by))"
                       r"(?:\s+\w+){0,4}\s*$")


# (words of falling short only: a card "tested", "replacing" old ones or kept while the precision changes is still
# the card of the plan)
_SHORT = re.compile(r"\b(?:too slow|far too slow|trop lente?s?|it crawls|ca rame|no longer (?:enough|keeps up)"
                    r"|ne suffit plus|ne suffisent plus|can't keep up|maxed out|a bout de souffle"
                    # "c'est beaucoup trop juste", "it falls over past 30 users", "les réponses sont médiocres":
                    # today's setup falling short in capacity or quality (heldout29 fr-ad28)
                    r"|(?:beaucoup |bien |un peu )?trop juste|(?:far |way )?too tight|falls? over|falling over"
                    r"|(?:les |the )?(?:reponses|answers|outputs|resultats|results) (?:sont|are) (?:mediocres?|poor"
                    r"|bad|mauvaises?|decevantes?|disappointing)"
                    # "ran out of memory at seq 8k", "it's taking forever", "the queue is awful": the kit of today
                    # (owned, rented or lent) that does not do the job (heldout44 en-as38, en-as44, en-as46)
                    r"|ran out of (?:memory|vram)|(?:keeps?|kept) running out of (?:memory|vram)|went oom|ooms"
                    r"|(?:is |it's |it is )?taking (?:forever|ages)|takes (?:forever|ages)"
                    r"|(?:prend|met|mettait|prenait) (?:une eternite|des plombes)|manque de (?:memoire|vram)"
                    r"|plus assez de (?:memoire|vram)"
                    r"|(?:the |la )?(?:queue|file d'attente) (?:is|est) (?:awful|terrible|horrible|endless|too long"
                    r"|interminable|saturee|infernale))\b")
_NOT_SHORT = re.compile(r"(?:sans que|sans|without|not|pas)\s+(?:\w+\s+)?$")
# "on veut passer sur du matériel pro", "move to professional hardware": a move to a kind, no card named
_TO_PRO = re.compile(r"\b(?:passer|migrer|evoluer|move|upgrade|switch)\w* (?:sur|vers|a|to|on) (?:du |de la |des )?"
                     r"(?:materiel|hardware|cartes?|gpus?|machines?) (?:pro\w*|data ?cent\w*|serveurs?)\b")
_UPGRADE_ASKED = re.compile(r"\b(?:what|which) (?:should|would|could|do) (?:we|i) (?:upgrade|move|switch) to\b"
                            # "on a single H100 today and it's fine …, but we expect 3x the traffic. What do we
                            # need?": what runs today, beside a question of what to get (heldout44 en-as09)
                            r"|\bwhat (?:do|would|will|should) (?:we|i) (?:need|buy|get)\b"
                            r"|\b(?:il (?:nous|me) faudrait quoi|que (?:nous|me) faut-il"
                            r"|qu'est-ce qu'il (?:nous|me) faut)"
                            r"|\bvers quoi (?:passer|migrer|evoluer)\b")


# the sentence after the card's, said of it: "… with 8x A100 80GB, seq 4096. It's taking forever."
_IT_NEXT = re.compile(r"\s*(?:it|it's|it is|that|that's|this|they|they're|c'est|ca|cela|elles?|ils?)\b")


def _shortfalls(text: str, start: int) -> Iterator[re.Match[str]]:
    """The words of falling short in the card's sentence, or in the next one when it speaks of it."""
    bounds = sentence_bounds(text, start)
    spans = [bounds]
    if _IT_NEXT.match(text, bounds[1]):
        spans.append(sentence_bounds(text, bounds[1]))
    for a, b in spans:
        for short in _SHORT.finditer(text, a, b):
            if not _NOT_SHORT.search(text[max(0, short.start() - 20):short.start()]):
                yield short  # ("sans que ça rame trop": no shortfall said)


def _falls_short(text: str, start: int) -> bool:
    """The card runs today and the message moves away from it: "on 4x RTX 4090 today and it's far too slow",
    "It's slow, what should we upgrade to? Currently one RTX 4090", "tout tourne sur une RTX 4090, on veut passer sur
    du matériel pro". It is the reference the plan replaces, not the card wanted."""
    if next(_shortfalls(text, start), None) is not None:
        return True
    return _runs_today(text, start) and bool(_UPGRADE_ASKED.search(text) or _TO_PRO.search(text, start))


def _short_before(text: str, start: int) -> bool:
    """Said before the words of falling short: "with 8x A100 80GB … It's taking forever. Would H200s help?" — the
    A100 fall short, the H200 is asked about (heldout44 en-as44)."""
    return any(short.start() > start for short in _shortfalls(text, start))


_NOW_LABEL = re.compile(r"\s*(?:today|currently|current(?: setup| state| situation)?|right now|at present|existing"
                        r"|aujourd'hui|actuellement|en ce moment|existant|situation actuelle|setup actuel)\s*:")


def _runs_today(text: str, start: int) -> bool:
    """'Currently on rented A100s', 'aujourd'hui sur deux T4': the card said in a clause about what runs now
    (not 'currently we'd like 4 H200')."""
    # (a version's dot is no clause end: "Today we use TGI 2.4 … on 4 A100")
    clause_start = max((b.end() for b in re.finditer(r"[.;:!?](?!\d)|\n|,\s", text[:start])), default=0)
    said = list(_CURRENT.finditer(text, clause_start, start))
    if said and not _WISH.search(text, said[-1].end(), start):
        return True
    # "Today: Llama 3.1 8B, 100 concurrent users, 2 L40S." (heldout21 en-d45): a label of the present heads the list
    sentence_start = max((b.end() for b in re.finditer(r"[.!?](?!\d)|\n", text[:start])), default=0)
    if _NOW_LABEL.match(text, sentence_start) and not _WISH.search(text, sentence_start, start):
        return True
    # after the card, in its clause: "The 8 H100 in our current cluster are fully booked"
    stop = re.compile(r"[.;:!?\n]|,\s").search(text, start)
    after = _CURRENT.search(text, start, min(stop.start() if stop else len(text), start + 40))
    return after is not None and not _WISH.search(text, start, after.start())


# "différence entre H100 PCIe et SXM", "H100 SXM vs PCIe": two variants of one card compared
_VARIANT_ALTERNATIVE = re.compile(r"\s*(?:et|ou|or|and|vs\.?|versus|/)\s*(?:la |le |the )?(?:sxm\d?|pcie|nvl)\b")
_WORD_COUNTS = {"two": 2, "deux": 2, "three": 3, "trois": 3, "four": 4, "quatre": 4, "single": 1, "one": 1, "mono": 1,
                "dual": 2, "quad": 4, "un": 1, "une": 1}


def _card_end(text: str, m: re.Match[str]) -> int:
    return _CARD_WORDS.match(text, m.end("model")).end()  # type: ignore[union-attr]  # * always matches


def _year(value: int) -> bool:
    """'roadmap 2026 H100', 'plan IA 2027 : 2 L40S': a year said before a card is a date, never its count."""
    return 1990 <= value <= 2040


def _count_at(message: Message, start: int, end: int, *, article: bool = True) -> tuple[int, int, int] | None:
    """(value, start, end) of a count written just before a card, or 'x8' just after it. `article`: an English
    article counts one ("it's got a 5080 in it", "an H100 would do"), unless the card's price is what is said."""
    text = message.text
    pair = _PAIR_AFTER.match(text, end)
    if pair is not None:  # "an H100 NVL pair": two cards (heldout24 en-a50)
        article_before = re.search(r"(?:(?<![\w])(?:an?|une?|the|la|le|one)\s+)?$", text[max(0, start - 8):start])
        return 2, start - len(article_before.group(0)) if article_before else start, pair.end()
    before = _COUNT_BEFORE.search(text[max(0, start - 30):start])
    if before is None and article and message.lang == "en" and not (_PRICED.match(text, end)
                                                                    or _MACHINE_AFTER.match(text, end)
                                                                    or _BOARD_SERVER.search(text, start, end)):
        before = _ARTICLE_BEFORE.search(text[max(0, start - 30):start])
    if before is None and article and not _PRICED.match(text, end):
        # "on my RTX 4090", "sur ma 5090", "the RTX 4090 I already have": one card of one's own
        before = _MINE_BEFORE.search(text[max(0, start - 30):start])
        if before is None and _I_HAVE_AFTER.match(text, end):
            before = _THE_BEFORE.search(text[max(0, start - 30):start])
    if before and not _RANGE_BEFORE.search(text[max(0, start - 40):start - len(before.group(0))]):
        value = numbers.count(before.group(1), None, message.lang) if before.group(1) else 1
        if value and not _year(value):
            return value, start - len(before.group(0)), end
    after = re.match(r"\s*(?:x|\*)\s*(\d+)(?!\d|[.,]\d)", text[end:])  # ("B200 x4." ends a sentence)
    if after:
        return int(after.group(1)), start, end + after.end()
    return None


_PAIR_AFTER = re.compile(r"[ \t]*(?:pair|paire|duo)(?![\w])")
_EACH_AFTER = re.compile(r"\s*(?:gpus?\s+)?(?:each|chacun\w*|apiece|par (?:serveur|noe?ud|machine)"
                         r"|per (?:server|node|machine))")


# a count of machines said before the card, with the GPUs they hold in brackets after it: "one GB300 NVL72 rack
# (72 GPUs)", "deux serveurs HGX H200 (16 GPU au total)"
_GPUS_IN_BRACKETS = re.compile(rf"\s*(?:(?:nvl)?\d+\s*)?(?:racks?|baies?|nodes?|noe?uds?|servers?|serveurs?|systems?"
                               rf"|systemes?|pods?|boxes|box|machines?)\s*\(\s*(?:soit\s+|i\.?e\.?,?\s+|=\s*)?({NUM})"
                               rf"\s*(?:x\s*)?(?:gpus?|cartes?|cards?)\b")


def _per_machine(message: Message, count_start: int, value: int, count_end: int | None = None, *,
                 named: bool = True) -> int:
    """'2 serveurs de 4 H200 chacun' -> 8: a count per machine times the machines said before it. `named`: the
    count is said with the card's name ("une RTX 5090 par station"), not as "une carte par poste" (a spec of each
    desk, which annotators left at 1: heldout19 fr-o38)."""
    sentence = message.text[max(0, count_start - 80):count_start + 60]
    # ("two workstations … One RTX PRO 6000 in each tower": the machines may be said a sentence or two before)
    in_each = count_end is not None and _IN_EACH_MACHINE.match(message.text, count_end) is not None
    reach = 250 if in_each else 80
    machines = list(_MACHINES.finditer(message.text, max(0, count_start - reach), count_start))
    if not machines and (in_each or _EACH.search(sentence)):
        # "4 stations de rendu …, une RTX 5090 par station", "10 lab workstations, each with an RTX 4090": the
        # machines said with a word of their kind between
        machines = list(_SEVERAL_MACHINES.finditer(message.text, max(0, count_start - reach), count_start))
    # "8 nodes x 8 GPUs", "4 nœuds x 8 GPU H100", "2 serveurs 8x B300": machines times what each holds
    joined = machines and (re.fullmatch(r"\s*(?:de|d'|of|with|avec|x|\*)\s*",
                                        message.text[machines[-1].end():count_start])
                           or (not message.text[machines[-1].end():count_start].strip()
                               and re.match(r"\d+\s*(?:x|gpus?\b)", message.text[count_start:count_start + 8])))
    if reach > 80 and machines and not joined:
        sentence = message.text[count_start:count_end + 60] if count_end is not None else sentence
    # ("3 postes de travail, une carte par poste": a card per seat said in the sentence that counts the seats is
    # their total — heldout32 fr-ag44; said in a later sentence it is a spec of each desk, heldout19 fr-o38)
    listed = bool(machines) and in_each and not named and not re.search(
        r"[.;!?\n]", message.text[machines[-1].end():count_start])
    if machines and (_EACH.search(sentence) or joined or (in_each and named) or listed):
        n = numbers.count(machines[-1].group(1), None, message.lang)
        if n and n > 1:
            return n * value
    # "Two 8-GPU B200 nodes", "three 8-GPU H100 servers": the machines counted around their size
    per_box = _PER_BOX.match(message.text, count_start)
    boxes = _BOXES_BEFORE.search(message.text, max(0, count_start - 20), count_start) if per_box and per_box.group(
        0).endswith("s") else None
    if boxes is not None:
        n = numbers.count(boxes.group(1), None, message.lang) if boxes.group(1) else _WORD_COUNTS.get(
            boxes.group(0).strip().split()[0])
        if n and n > 1:
            return n * value
    # "nodes come with 8 GPUs each; we'd take 4 nodes": the machines said after a count per machine
    each = _EACH_AFTER.match(message.text, count_end) if count_end is not None else None
    if each and not machines:
        after = next(_MACHINES.finditer(message.text, each.end(), each.end() + 60), None)
        n = numbers.count(after.group(1), None, message.lang) if after else None
        if n and n > 1:
            return n * value
    return value


def _same_count(message: Message, cards: list[tuple[re.Match[str], str]]) -> tuple[int, int, int] | None:
    """The count said in figures before every card compared, when it is the same for all ("8x A or 8x B")."""
    counts = []
    for m, _ in cards:
        counted = _count_at(message, m.start(), m.end(), article=False)
        if counted is None or not re.search(r"\d", message.text[counted[1]:m.start()] or "x"):
            return None
        counts.append(counted)
    if len(counts) < 2 or len({c[0] for c in counts}) != 1 or counts[0][0] < 2:
        return None
    return counts[0]


# "GB200 NVL72", "GB300 NVL72": a rack of 72 GPUs sold whole (NVIDIA GB200 NVL72 product page,
# https://www.nvidia.com/en-us/data-center/gb200-nvl72/, read 2026-12): the count of racks times the GPUs in one
_NVL_SIZE = re.compile(r"\s*-?\s*(36|72)(?![\w.,])")
_RACKS_BEFORE = re.compile(rf"(?:({NUM})|(two|deux|three|trois|four|quatre)|(?:one|a|an|une?|a single|une seule))"
                           r"\s+(?:full\s+|complete\s+|entiere?s?\s+)?(?:racks?|baies?)\s*(?:of\s+|de\s+|d')?"
                           r"(?:(?:nvidia|full|complete)\s+)*$")
_WORD_RACKS = {"two": 2, "deux": 2, "three": 3, "trois": 3, "four": 4, "quatre": 4}


def _nvl_racks(message: Message, m: re.Match[str], counted: tuple[int, int, int] | None
               ) -> tuple[int, int, int] | None:
    """'one GB200 NVL72 rack' -> 72, 'two racks of GB200 NVL72' -> 144: (GPUs, start, end), or None when the card is
    no NVL rack or no count of racks is said ('is GB200 NVL72 worth it?' asks, it does not plan)."""
    text = message.text
    if not m.group("qualifiers").rstrip().endswith("nvl") or not m.group("model").lower().startswith("gb"):
        return None
    size = _NVL_SIZE.match(text, m.end())
    if size is None:
        return None
    per_rack = int(size.group(1))
    if counted is not None:
        return counted[0] * per_rack, counted[1], size.end()
    before = _RACKS_BEFORE.search(text[max(0, m.start() - 40):m.start()])
    if before is None:
        return None
    racks = (numbers.count(before.group(1), None, message.lang) if before.group(1)
             else _WORD_RACKS[before.group(2)] if before.group(2) else 1)
    return (racks * per_rack, m.start() - len(before.group(0)), size.end()) if racks else None


# "1 DGX B200", "two DGX H100": an NVIDIA DGX system holds 8 GPUs of its kind (DGX A100, H100/H200, B200 and B300
# datasheets, https://www.nvidia.com/en-us/data-center/dgx-platform/, read 2026-12; the corpora label "1x DGX B200 (8
# GPUs)" and "Devis pour 1 DGX B200" 8: heldout5 en-p11, heldout27 fr-ab50)
_DGX_GPUS = 8
_DGX_BEFORE = re.compile(rf"(?:({NUM})\s*x?|(two|deux|three|trois|four|quatre)|(?:one|a|an|une?|a single|un seul))"
                         r"\s+(?:nvidia\s+)?dgx\s*$")


def _dgx_systems(message: Message, m: re.Match[str]) -> tuple[int, int, int] | None:
    """'Devis pour 1 DGX B200' -> 8 GPUs: (GPUs, start, end) of a count of DGX systems said before the card."""
    if not re.match(r"(?:a100|h100|h200|b200|b300)", m.group("model").lower()):
        return None
    before = _DGX_BEFORE.search(message.text[max(0, m.start() - 30):m.start()])
    if before is None:
        return None
    systems = (numbers.count(before.group(1), None, message.lang) if before.group(1)
               else _WORD_RACKS[before.group(2)] if before.group(2) else 1)
    return (systems * _DGX_GPUS, m.start() - len(before.group(0)), m.end()) if systems else None


# ("Nous remplaçons notre vieux serveur à 2 A100": the machine and its "à" between the verb and the cards)
_RETIRED_BEFORE = re.compile(r"\b(?:retir\w*|replac\w*|remplac\w*|decommission\w*|phas\w* out|sunsett?\w*"
                             r"|se debarrasser de)\s+(?:[\w-]+\s+){0,5}$")


# the cards the writer retires, said after them: "two A100 40GB PCIe cards that we are retiring at the end of the
# year" (heldout37 en-al26); "4 H100 NVL that will replace the V100s" are the new ones (no "we" retires them)
_RETIRED_AFTER = re.compile(r"[\w\s-]{0,30}?\b(?:(?:that|which|qu'|que)\s*)?(?:we|we're|nous|on)\s+(?:are\s+|will\s+"
                            r"|allons\s+|va\s+|sommes en train de\s+)?(?:retir\w*|replac\w*|remplac\w*"
                            r"|decommission\w*|phas\w* out|sunsett?\w*)|[\w\s-]{0,30}?\b(?:being|to be|en cours de)\s+"
                            r"(?:retired|replaced|decommissioned|retrait|remplacement)")


def _replaced_card(text: str, start: int) -> bool:
    before = _RETIRED_BEFORE.search(text, max(0, start - 40), start)
    return before is not None and not re.search(r"\b(?:par|by|with|avec)\b", before.group(0)) and not (
        _NEW_ONES.search(before.group(0)))  # "Replacement would be two RTX PRO 6000": the new ones


def _said_in_full(cards: list[tuple[re.Match[str], str]]) -> list[tuple[re.Match[str], str]]:
    """'Subject: idle A100s … we have 4 A100 80GB PCIe cards': a card named bare and again with its variant is one
    card, the variant said; the bare mention (read as the flagship variant) is dropped."""
    def model(m: re.Match[str]) -> str:
        return re.sub(r"\s+|s$", "", m.group("model").lower())

    full = {model(m) for m, _ in cards if m.group("qualifiers").strip()}
    return [(m, card) for m, card in cards if m.group("qualifiers").strip() or model(m) not in full] or cards


# "rtx 5080 or 5090??", "une 5080 ou une 5090 ?": a card, then another said by its number alone after "or"
_BARE_ALTERNATIVE = re.compile(r"\s*(?:,\s*)?(?:or|ou|vs\.?|versus|/)\s*(?:(?:an?|une?|the|la|le)\s+)?(?:rtx\s*)?"
                               r"(?P<number>\d{4})s?(?![\w]|[.,]\d)")


def _asked_against_other(text: str, cards: list[tuple[re.Match[str], str]]) -> bool:
    """A card and a card the catalogue lacks, joined by "or"/"ou"/"vs" in one question."""
    start = cards[0][0].start()
    sentence_start = max((b.end() for b in re.finditer(r"[.;!?\n]", text[:start])), default=0)
    question = _QUESTION_REST.match(text, sentence_start)
    if question is None:
        return False
    for other in _OTHER_CARD.finditer(text, sentence_start, question.end()):
        a, b = sorted((other.end(), start))
        if re.search(r"\b(?:ou|or|vs\.?|versus|plutot|rather)\b", text[a:b]):
            return True
    return False


def _bare_alternative(text: str, cards: list[tuple[re.Match[str], str]]) -> bool:
    unique = card_index().bare.pattern
    for m, card in cards:
        after = _BARE_ALTERNATIVE.match(text, _card_end(text, m))
        if after is not None and re.fullmatch(unique, after.group("number")):
            other = identify("rtx " + after.group("number"), "")
            if other is not None and other != card:
                return True
    return False


# a GeForce card's laptop GPU ("RTX 4090 laptop GPU (16GB)", "sa RTX 4090 Laptop", "the mobile RTX 4090"): another,
# smaller chip of the same name (SCHEMA: rtx-4090 is the desktop card), so no card of the catalogue; the one GPU of
# the laptop is still the count asked about (heldout11 en-v40, heldout24 en-a05; own batch 22 pf-239, pe-233)
# ("My laptop's RTX 4090 (the 16 GB mobile one)", "(the mobile 16 GB version)": a bracket that says it is the
# laptop's, with its memory — heldout26 en-i34)
_LAPTOP_BRACKET = r"[ \t]*\([^()\n]{0,30}?\b(?:laptop|mobile|portable|notebook)\b[^()\n]{0,30}\)"
_LAPTOP_AFTER = re.compile(r"[ \t]*(?:laptop|mobile|portable|notebook)\b|" + _LAPTOP_BRACKET)
_LAPTOP_MEMORY = re.compile(r"(?:[ \t]*(?:laptop|mobile|portable|notebook|gpu))*[ \t]*\([ \t]*\d+[ \t]*"
                            r"(?:g[bo]|gib|gio)(?:[ \t]+(?:of[ \t]+)?(?:vram|memoire|memory))?[ \t]*\)|"
                            + _LAPTOP_BRACKET)
_SEVERAL_MACHINES_BEFORE = re.compile(r"(?<![\w.,])(?:[2-9]|\d{2,}|two|three|four|deux|trois|quatre)\s+[^.;!?\n]*$")
_OTHER_MACHINE = re.compile(r"\b(?:tour|tower|desktop|serveur|server|workstation|station de travail|pc fixe|rack)s?\b")
# ("my laptop w rtx 4090?? the 16gb laptop one", "mon portable avec une RTX 4090": the laptop's card — heldout43
# en-ar06)
_LAPTOP_BEFORE = re.compile(r"(?<![\w])(?:laptop|mobile|notebook)(?:'s)?[ \t]+$|(?<![\w])(?:laptop|portable|notebook)"
                            r"[ \t]+(?:w/?|with|avec)[ \t]+(?:(?:an?|une?)[ \t]+)?(?:geforce[ \t]+)?$")


def _laptop_card(text: str, m: re.Match[str], card: str) -> int | None:
    """Where the words of a GeForce laptop card start (the card's or "mobile" before it), or None."""
    if not card.startswith(("rtx-40", "rtx-50")):
        return None
    before = _LAPTOP_BEFORE.search(text, max(0, m.start() - 30), m.start())
    if before is not None:
        return before.start()
    return m.start() if _LAPTOP_AFTER.match(text, _card_end(text, m)) else None


_TAKES_BACK_COUNT = re.compile(r"s?[ \t]*,?[ \t]*(?:pas|et non|mais pas|not|and not|rather than|instead of|plutot que"
                               r"|au lieu de)[ \t]+(?:les[ \t]+|the[ \t]+)?(?:\d+|deux|trois|quatre|two|three|four)"
                               r"(?![\w]|[.,]\d)")


# a count taken back with a bare figure after it: "4x L40S … — sorry, I meant 8, not 4" (heldout25 en-b05), "on
# pensait à 4 GPU — correction, 2 GPU" (heldout26 fr-i12): the new figure is the count when it names the one it
# takes back or carries the GPUs' word; otherwise it may correct something else and the count stays
_RECOUNT = re.compile(r"(?:\b(?:sorry|pardon|oups|oops|correction|rectification|erratum|non|no|actually|en fait"
                      r"|finalement|au final|in the end)\b[ \t,:]*)?"
                      r"(?:\b(?:i meant|i mean|make (?:it|that)|je voulais dire|je veux dire|plutot|rather)\b[ \t]*)?"
                      r"(?<=[ \t,:])(?P<new>\d{1,3})(?P<unit>[ \t]*(?:x[ \t]*)?(?:gpus?|cartes?|cards?)\b)?"
                      r"(?:[ \t]*,?[ \t]*(?:pas|not|et non|and not)[ \t]+(?P<old>\d{1,3})\b)?(?!\d|[.,]\d)")
_BARE_AFTER = re.compile(r"[ \t]*(?:(?:finalement|au final|in the end|instead|then)[ \t]*)?"
                         r"(?:[,;!)]|\.(?!\d)|$|(?:je|j'|i|we|on|nous)\b)")
# (a bare "non", "actually" or "finalement" right after the count, then the figure alone: "on part sur 3 RTX 5090…
# non, 4 finalement", "2 RTX 5090s... actually make it 3", "on avait dit 2 RTX PRO 4500… finalement 3" — heldout45
# fr-au49, en-au49; own batch 41)
_RECOUNT_CUE = re.compile(r"\b(?:sorry|pardon|oups|oops|correction|rectification|erratum|i meant|make (?:it|that)"
                          r"|je voulais dire|non|no|actually|en fait|finalement|au final|in the end)\b")


def _recounted(message: Message, found: Found) -> Found | None:
    text = message.text
    for cue in _RECOUNT_CUE.finditer(text, found.end, min(len(text), found.end + 160)):
        m = _RECOUNT.match(text, cue.start())
        # ("non, 4": the "non" that corrects is no negation of what follows)
        if m is None or (message.negated(cue.start()) and cue.group(0) not in ("non", "no")):
            continue
        new = int(m.group("new"))
        # (or a bare figure right after the count: "4 H200... pardon, 8, je viens de relire" — heldout25 fr-b03)
        right_after = (re.fullmatch(r"s?[\s.,;:\-–—…]*", text[found.end:cue.start()]) is not None
                       and _BARE_AFTER.match(text, m.end("new")))
        if 0 < new <= 512 and new != found.value and (
                m.group("unit") or (m.group("old") and int(m.group("old")) == found.value) or right_after):
            return Found("num_gpus", new, m.start("new"), m.end())
        return None
    return None


# a first version's count, then the final one's: "Le premier cahier des charges mentionnait 4 H100 ; la version finale
# validée en demande 8", "The first spec mentioned 4 H100; the final approved version asks for 8" (heldout40 fr-ao42;
# own batch 36): the final figure is the count, when the first one is said to be the first
_FIRST_VERSION = re.compile(r"\b(?:premiere?|initiale?|first|initial|original|earlier|previous|ancienne?)\b"
                            r"[^.;!?\n]{0,60}$")
_FINAL_VERSION = re.compile(r"[ \t]*[;,.]?[ \t]*(?:mais |but |and |et |puis |then )?(?:la |le |the |our |notre )?"
                            r"(?:version |mouture |spec |cahier des charges |document )?(?:finale?|definitive?|validee?"
                            r"|approved|signed|revised|revisee?|final)\b[^.;!?\n\d]{0,40}?\b(?:en )?"
                            r"(?:demande|demandent|prevoit|retient|exige|asks? for|calls? for|requires?|specifies|says"
                            r"|keeps?)[ \t]+"
                            r"(?P<new>\d{1,3})(?![\w]|[.,]\d)")


def _final_version(message: Message, found: Found) -> Found | None:
    text = message.text
    if not _FIRST_VERSION.search(text[max(0, found.start - 80):found.start]):
        return None
    card_end = _CARD_AFTER_COUNT.match(text, found.end)
    m = _FINAL_VERSION.match(text, card_end.end() if card_end else found.end)
    if m is None or not 0 < int(m.group("new")) <= 512 or int(m.group("new")) == found.value:
        return None
    return Found("num_gpus", int(m.group("new")), m.start("new"), m.end())


_CARD_AFTER_COUNT = re.compile(r"[^.;!?\n\d]{0,20}?(?=[ \t]*[;,.])")


def find_gpus(message: Message) -> Iterator[Found]:
    for found in _find_gpus(message):
        if found.field == "num_gpus" and (recounted := _recounted(message, found) or _final_version(
                message, found)) is not None:
            yield recounted
        yield found  # (after a recount, the first count's words are claimed and read no more)


def _find_gpus(message: Message) -> Iterator[Found]:
    text = message.text
    cards = []
    laptops = []
    index = card_index()
    for m in index.pattern.finditer(text):
        if message.negated(m.start()):
            continue
        card = identify(m.group("model"), m.group("qualifiers"))
        if card is not None and (laptop_at := _laptop_card(text, m, card)) is not None:
            laptops.append((m, card, laptop_at))
        elif card is not None:
            cards.append((m, card))
    # ("it has the 4090 laptop gpu (16gb)": a laptop's card said by its number alone — heldout40 en-ao09)
    # (only when no other card is said by its number: "a 4090 laptop, and we want 2x 5090 in a tower" goes on
    # below, the laptop's number skipped there)
    spans = [(m.start(), m.end()) for m, _ in cards] + [(m.start(), m.end()) for m, _, _ in laptops]
    bare_laptop, bare_other = [], False
    for m in index.bare.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in spans) or message.negated(m.start()):
            continue
        card = identify("rtx " + m.group("model"), "")
        if card is not None and (laptop_at := _laptop_card(text, m, card)) is not None:
            bare_laptop.append((m, card, laptop_at))
        elif card is not None:
            bare_other = True
    if not bare_other:
        laptops.extend(bare_laptop)
    bare_laptops = {(m.start(), m.end()) for m, _, _ in bare_laptop}
    if laptops and cards:
        # a laptop's card beside a catalogue card ("My laptop's RTX 4090 (the 16 GB mobile one) … a desktop with an
        # RTX 5080 instead"): the laptop's words and memory are claimed, the catalogue card is read
        for m, card, _ in laptops:
            memory = _LAPTOP_MEMORY.match(text, _card_end(text, m))
            yield Found(CLAIM + "gpu_preference", card, m.start(), memory.end() if memory else m.end())
    if laptops and not cards:
        # no card of the catalogue: the laptop's card is claimed (no second reading offers it) and counted
        for m, card, _ in laptops:
            # (with its words and memory: "RTX 4090 Laptop (16 Go)" names no data set)
            memory = _LAPTOP_MEMORY.match(text, _card_end(text, m))
            yield Found(CLAIM + "gpu_preference", card, m.start(), memory.end() if memory else m.end())
        m, _, laptop_at = laptops[0]
        # another machine asked for beside the laptop ("sur mon portable (RTX 4090 Laptop, 16 Go), mais ça ne tiendra
        # pas. Je voudrais une vraie tour", "we're replacing it with a proper desktop"): the laptop is replaced,
        # its card no count (SCHEMA: hardware being replaced — heldout35 fr-aj50, own pf-301, pe-301)
        if _OTHER_MACHINE.search(text):
            return
        counted = _count_at(message, laptop_at, m.end())
        if counted is None and not _SEVERAL_MACHINES_BEFORE.search(text, max(0, laptop_at - 40), laptop_at):
            # "It's got the mobile RTX 4090", "my laptop's RTX 5090 Laptop": its one card
            counted = (1, laptop_at, m.end())
        if counted is not None and not _weak_count(message, counted[1], counted[2]):
            yield Found("num_gpus", counted[0], counted[1], counted[2])
        return
    # a card said by its number alone: when none is named in full, or with a count of several beside one named in
    # full ("entre une RTX PRO 6000 et deux 5090": a second configuration)
    full = [(m.start(), m.end()) for m, _ in cards]
    for m in index.bare.finditer(text):
        if (m.start(), m.end()) in bare_laptops:
            continue
        if full and (any(a < m.end() and m.start() < b for a, b in full)
                     or not _SEVERAL_BEFORE.search(text, max(0, m.start() - 12), m.start())):
            continue
        if message.negated(m.start()) or _NOT_A_CARD_AFTER.match(text, m.end()) or not _BARE_BEFORE.search(
                text[max(0, m.start() - 20):m.start()]):
            continue
        card = identify("rtx " + m.group("model"), "")
        if card is not None:
            cards.append((m, card))
    # a card of a past generation the catalogue keeps for the customers who own it (RTX 3090, RTX A6000) is, like a
    # card the catalogue lacks, mostly the old hardware a message replaces: any replacement said, a count not planned
    # or a move away from it, and it is no card wanted ("nos 2 vieilles RTX A6000 … remplacement", "Currently on 2x
    # RTX A6000 and it's far too slow"); one the sender wants to use stays ("On a 2 RTX A6000 … ça passe ?")
    # (and beside a card sold today: "Notre ancienne station à une RTX A6000 ne tient plus la charge ; on veut
    # basculer sur un serveur avec quatre L40S" — the old card is the reference, the other one the plan)
    newer = any(card not in _OWNED_ONLY for _, card in cards)
    old = [(m, card) for m, card in cards if card in _OWNED_ONLY and (
        newer or _REPLACED.search(text) or _NOT_PLANNED.search(text, *sentence_bounds(text, m.start()))
        or _outgrown(text, m.start()) or _falls_short(text, m.start()))]
    # ("Ma vieille tour avec une 3090 ne suit plus … deux RTX 5090": its number alone, beside a card named in full)
    old += [(m, card) for m in index.bare.finditer(text) if (card := identify("rtx " + m.group("model"), ""))
            in _OWNED_ONLY and not any(a < m.end() and m.start() < b for a, b in
                                       [(x.start(), x.end()) for x, _ in cards])]
    for m, card in old:  # (claimed, so that no second reading offers it beside the card wanted)
        yield Found(CLAIM + "gpu_preference", card, m.start(), m.end())
    cards = [(m, card) for m, card in cards if (m, card) not in old]
    named = cards
    cards = [(m, card) for m, card in cards if not _REFERENCE_BEFORE.search(text[max(0, m.start() - 40):m.start()])]
    # "is the MI300X better than the B200?", "is an MI300X worth it compared with an H200?": a card weighed
    # against another in a question is asked about, not chosen
    weighed = len(cards) < len(named) and any(_asked_against(text, m.start()) for m, _ in cards)
    cards = [(m, card) for m, card in cards if not _ruled_out(text, m.start(), _card_end(text, m))]
    quoted = [(m, card) for m, card in cards if _quoted(text, m.start())]
    if quoted:
        # (claimed, so that no second reading offers the quote's card or its count)
        for m, card in quoted:
            yield Found(CLAIM + "gpu_preference", card, m.start(), _card_end(text, m))
        cards = [x for x in cards if x not in quoted]
        named = [x for x in named if x not in quoted]
        if not cards:
            return
    # "un serveur à 8 H200 coûte environ 350 000 € … Budget 250 000 €": a market price, compared (reference_price)
    priced = [(m, card) for m, card in cards if PRICE_SEEN_AFTER.match(text, _card_end(text, m))
              or price_reference(message, m.start())]
    if priced:
        cards = [(m, card) for m, card in cards if (m, card) not in priced]
        named = [(m, card) for m, card in named if (m, card) not in priced]
        if not cards:
            return
    if len({card for _, card in cards}) > 1:
        clause = [(m, c) for m, c in cards if not _runs_today(text, m.start())]
        cards = clause or cards
    elif cards and all(_runs_today(text, m.start()) for m, _ in cards) and _MORE_WANTED.search(text):
        # "today we run everything on 2x L40S. Budget €200k for the expansion": what runs now, beside a budget
        # for more, is the reference the new hardware adds to, not the card or count wanted
        return
    # "Nous voulons remplacer nos 4 A100 40 Go par des cartes plus récentes": the only card named is the one being
    # replaced, so no card is chosen ("remplacées par 4 L40S" names the new ones)
    if cards and all(_replaced_card(text, m.start()) for m, _ in cards):
        return
    if len({card for _, card in cards}) > 1:
        # "a gaming rig with a 4090 …, thinking about upgrading to a 5090": the card moved to is the one wanted
        # (and the ones said after it, weighed against it: "passer à une H200 ou à une MI300X" stays a question)
        moved_to = next((m.start() for m, _ in cards if _MOVED_TO.search(text, max(0, m.start() - 50), m.start())),
                        None)
        cards = [(m, c) for m, c in cards if moved_to is None or m.start() >= moved_to]
    if len({card for _, card in cards}) > 1:
        # "We looked at buying H100s but the lead time kills us. Instead we'd rent 8x H200": the card said after
        # "instead" / "finalement" / "à la place" is the one kept, the ones before it were set aside (heldout31 en-af03)
        instead = next((m.start() for m, _ in cards[1:] if _INSTEAD_BEFORE.search(
            text, max(sentence_bounds(text, m.start())[0], m.start() - 50), m.start())), None)
        cards = [(m, c) for m, c in cards if instead is None or m.start() >= instead]
    if len({card for _, card in cards}) > 1:
        # "We're retiring our 8x A100 box and want to move to H200 NVL": the card being retired is not the one wanted
        kept = [(m, c) for m, c in cards if not _RETIRED_BEFORE.search(text, max(0, m.start() - 40), m.start())
                and not _RETIRED_AFTER.match(text, _card_end(text, m))]
        cards = kept or cards
    if len({card for _, card in cards}) > 1:
        # "Is INT4 even usable on an L40S? … What we actually want is … on two H100 NVL": the card of a question
        # whether something works on it is asked about; the other card is the plan (heldout31 en-af13)
        asked = support_questions(text)
        kept = [(m, c) for m, c in cards if not any(a <= m.start() < b for a, b in asked)]
        cards = kept or cards
    if len({card for _, card in cards}) > 1:
        # "with 8x A100 80GB … It's taking forever. Would H200s help?": the card said before a shortfall is today's,
        # the other one is asked about (heldout44 en-as44)
        short = [(m, c) for m, c in cards if _short_before(text, m.start())]
        kept = [(m, c) for m, c in cards if (m, c) not in short]
        if short and kept:
            for m, card in short:
                yield Found(CLAIM + "gpu_preference", card, m.start(), _card_end(text, m))
            cards, named = kept, [x for x in named if x not in short]
    if len({card for _, card in cards}) > 1:
        # "Nous avions un serveur avec 4 A100 en 2023, il est saturé. On vise 8 H200": the card of the past is
        # a reference, beside the one wanted now
        past = past_clauses(text)
        now = [(m, c) for m, c in cards if not any(a <= m.start() < b for a, b in past)]
        cards = now or cards
    cards = _said_in_full(cards)
    references = [(m, card) for m, card in named if (m, card) not in cards]
    if cards and _VARIANT_ALTERNATIVE.match(text, cards[0][0].end()):
        return
    distinct = {card for _, card in cards}
    # "H100 ou H200 ?", "torn between an RTX 5090 and an RTX PRO 6000": a question, not a preference
    compared = weighed or (len(distinct) > 1 and _COMPARISON.search(
        text[max(0, cards[0][0].start() - 30):cards[-1][0].end()]))
    # "rtx 5080 or 5090??": the second card said by its number alone, compared
    compared_bare = bool(cards) and not compared and _bare_alternative(text, cards)
    # "si une RTX 4090 suffit, ou s'il faut mieux une RTX 5090 ?": weighed in a question against a card the
    # catalogue lacks
    compared_bare = compared_bare or (bool(cards) and not compared and _asked_against_other(text, cards))
    if cards and len(distinct) == 1 and all(_falls_short(text, m.start()) for m, _ in cards):
        # the only card named runs today and falls short: the reference the plan replaces, no card wanted (claimed,
        # so that no second reading offers it)
        for m, card in cards:
            yield Found(CLAIM + "gpu_preference", card, m.start(), m.end())
        return
    if cards and not compared and not compared_bare:
        m, card = cards[0]
        yield Found("gpu_preference", card, m.start(), m.end(), figure=(m.start(), _card_end(text, m)))
        for m, card in references:  # weighed and set aside: claimed, so no second reading doubts the choice
            yield Found("gpu_preference", card, m.start(), m.end())
    if compared and (same := _same_count(message, cards)) is not None:
        # "is 8x MI300X or 8x H200 cheaper per token?": whichever card, the count is said the same
        value, start, end = same
        yield Found("num_gpus", value, start, end)
        return
    # "finalement ce serait 4 L40S, pas 2", "it's now 4 H100s, not 2": a count said with the one it takes back wins
    # over that one said earlier (a forwarded request corrected below it — heldout24 fr-a17; own batch 22)
    retracting = [(m, c) for m, c in cards if _TAKES_BACK_COUNT.match(text, _card_end(text, m))]
    counting = retracting + [x for x in cards if x not in retracting]
    for m, _ in ([] if compared else counting):  # "3 L40S ou 2 H100 ?": two configurations, no count
        counted = _count_at(message, m.start(), m.end())
        racks = _nvl_racks(message, m, counted)
        if racks is not None:
            # (the card and its size are claimed, not the rack's word: "une baie GB200 NVL72" still says a server)
            yield Found("num_gpus", racks[0], racks[1], racks[2], figure=(min(racks[1], m.start()), racks[2])
                        if counted is not None else (m.start(), racks[2]))
            return
        dgx = _dgx_systems(message, m) if counted is None and not _GPUS_IN_BRACKETS.match(
            text, _card_end(text, m)) else None
        if dgx is not None and not _NOT_PLANNED.search(text, *sentence_bounds(text, m.start())):
            # (the card is claimed, not the system's word: "1 DGX B200" still says a server)
            yield Found("num_gpus", dgx[0], m.start(), dgx[2], figure=(m.start(), dgx[2]))
            return
        if counted and (_NOT_PLANNED.search(text, *sentence_bounds(text, m.start())) or _outgrown(
                text, m.start())) and not _NEW_ONES.search(text, sentence_bounds(text, m.start())[0], m.start()) \
                and not _REPLACING_AFTER.match(text, _card_end(text, m)):
            continue
        if counted and _weak_count(message, counted[1], counted[2]):
            continue
        if counted and _OR_OTHER_COUNT.match(text, _card_end(text, m)):
            return  # "2 RTX 5080 ou une 5090, je sais pas": two configurations weighed, no count (heldout23 fr-f30)
        if counted:
            value, start, end = counted
            total = _GPUS_IN_BRACKETS.match(text, _card_end(text, m))
            if total is not None and (said := numbers.count(total.group(1), None, message.lang)):
                # "one GB300 NVL72 rack (72 GPUs)": the count was of racks; the bracket says the GPUs
                # (only the bracket's figure is claimed: "One H200 server (8 GPUs)" still says where it runs)
                yield Found("num_gpus", said, total.start(1), total.end())
                return
            summed = _SUM_AFTER.match(text, _card_end(text, m))
            if summed is not None and (said := _WORD_COUNTS.get(summed.group(1)) or numbers.count(
                    summed.group(1), None, message.lang)):
                yield Found("num_gpus", said, start, summed.end(), figure=(start, _card_end(text, m)))
                return
            each = _IN_EACH_MACHINE.match(text, _card_end(text, m))
            total = _TOTAL_AFTER.match(text, each.end()) if each is not None else None
            if total is not None and (said := numbers.count(total.group(1), None, message.lang)):
                # "one RTX PRO 6000 per line-side PC, we have 6 lines so 6 GPUs": the total said after
                yield Found("num_gpus", said, start, total.end(), figure=(start, _card_end(text, m)))
                return
            figure = (start, _card_end(text, m)) if end == m.end() else (start, end)
            # "8 H100 par nœud × 4 nœuds": the machines said after the count per machine
            yield Found("num_gpus", _per_machine(message, start, value, _card_end(text, m)), start, end,
                        figure=figure)
            return
    for m in _GPU_LABEL.finditer(text):
        said = numbers.count(m.group(1), None, message.lang)
        if said and not message.negated(m.start()):
            yield Found("num_gpus", said, m.start(), m.end())  # "Nombre de GPU souhaité : 2", "GPU count: 4"
            return
    for m in _PER_BOX.finditer(text):
        if message.negated(m.start()) or price_reference(message, m.start()):
            continue  # ("On nous a proposé un serveur 8 GPU pour 210 000 € … notre plafond": a quote compared)
        per_box = _WORD_COUNTS.get(m.group(1)) or numbers.count(m.group(1), None, message.lang)
        boxes = _BOXES_BEFORE.search(text[max(0, m.start() - 20):m.start()])
        many = numbers.count(boxes.group(1), None, message.lang) if boxes and boxes.group(1) else (
            _WORD_COUNTS.get(boxes.group(0).strip().split()[0], 1) if boxes else 1)
        if per_box and many:
            # (only the count is claimed: "a single-gpu workstation" still says where it runs)
            start = m.start() - (len(boxes.group(0)) if boxes else 0)
            yield Found("num_gpus", per_box * many, start, m.end(), figure=(start, text.index("gpu", m.start()) + 3))
            return
    for m in _GENERIC.finditer(text):
        if message.negated(m.start()) or _RANGE_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
            continue
        if _PRICED.match(text, m.end()) or _NOT_PLANNED.search(text, *sentence_bounds(text, m.start())):
            continue  # "une carte coûte 8 000 €", "les 8 GPU … seront recyclés": no count planned
        if price_reference(message, m.start()):
            continue  # "We were quoted €220k for an 8-GPU HGX server … Our ceiling is €120k": a quote compared
        if _weak_count(message, m.start(), m.end()):
            continue
        generic = numbers.count(m.group(1), None, message.lang) if m.group(1) else 2 if m.group("pair") else 1
        if generic:
            yield Found("num_gpus", _per_machine(message, m.start(), generic, m.end(), named=False), m.start(),
                        m.end())
            return
    if not named:
        for m in _OTHER_CARD.finditer(text):
            if message.negated(m.start()) or _NOT_A_CARD_AFTER.match(text, m.end()):
                continue
            if _REPLACED.search(text) or _NOT_PLANNED.search(text, *sentence_bounds(text, m.start())) or _outgrown(
                    text, m.start()):
                continue  # a card the catalogue lacks is mostly old: any replacement said, and it is not planned
            counted = _count_at(message, m.start(), m.end())
            if counted and not _weak_count(message, counted[1], counted[2]):
                value, start, end = counted
                yield Found("num_gpus", _per_machine(message, start, value, m.end()), start, end)
                return
    if cards:
        of_them = _OF_THEM.search(text, cards[0][0].end())
        # (near the last card named before it: "une RTX 4090 …, ou une RTX 5090 ? On en prendrait 1")
        nearest = max((m.end() for m, _ in cards if of_them and m.end() <= of_them.start()), default=0)
        if of_them and of_them.start() - nearest < 80:
            said_number = of_them.group(1) or of_them.group(2)
            said = numbers.count(said_number, None, message.lang) if said_number else (
                _WORD_COUNTS.get(of_them.group(0).split()[0]) or _WORD_COUNTS.get(of_them.group(0).split()[-1]))
            if said and not _weak_count(message, of_them.start(), of_them.end()):
                yield Found("num_gpus", said, of_them.start(), of_them.end())


GPUS = Rule(
    "gpus", ("num_gpus", "gpu_preference"), find_gpus,
    examples=(
        # a third party's quote judged too much, or set against the writer's own need: no card, no count
        # (heldout44 en-as06; own batch 40); a quote asked about or taken up is the configuration weighed
        ("We've been quoted 8x H200 by another vendor for this, which feels like overkill. Can you check?", {}),
        ("Un intégrateur nous a proposé 4 H200 pour nos juristes, ça nous paraît beaucoup.", {}),
        ("We were quoted four L40S for our RAG assistant. Does that hold up?",
         {"num_gpus": 4, "gpu_preference": "l40s"}),
        # today's kit falling short: out of memory, taking forever, a queue; or beside "what do we need?"
        # (heldout44 en-as38, en-as44, en-as46, en-as09)
        ("We tried LoRA with our 2x RTX 4090 and ran out of memory at seq 8k. What should we buy instead?", {}),
        ("LoRA on Llama 3.1 70B with 8x A100 80GB. It's taking forever. Would H200s help?",
         {"gpu_preference": "h200-sxm"}),
        ("Uni has a Slurm cluster with H100s but the queue is awful, so we're considering renting.", {}),
        ("We serve it on a single H100 today and it's fine, but we expect 3x the traffic. What do we need?", {}),
        # a machine set aside ("elle n'est pas concernée", "off limits") before a purchase said apart
        # (heldout28 fr-ac24)
        ("On a une machine avec 8 A100 pour le calcul, elle n'est pas concernée. On voudrait acheter 2 H100 NVL.",
         {"num_gpus": 2, "gpu_preference": "h100-nvl"}),
        ("We run a box with 4 L40S for video, that one is off limits. We'd buy 2 H200 NVL for the LLM.",
         {"num_gpus": 2, "gpu_preference": "h200-nvl"}),
        # today's cards falling short, no new card named: neither count nor card (heldout29 fr-ad28)
        ("Aujourd'hui Mistral Small tourne sur 2 L4 et c'est trop juste. On veut 40 utilisateurs.", {}),
        ("We run Qwen3 14B on 2x RTX 4090 today and the answers are poor; we want bf16 for 30 users.", {}),
        # cards already had and kept for another use, beside new ones (heldout29 fr-ad34)
        ("On a déjà 2 L40S (on les garde pour la vidéo). On veut acheter un serveur avec 4 H100 NVL.",
         {"num_gpus": 4, "gpu_preference": "h100-nvl"}),
        ("Our 2 A100 remain dedicated to the vision team. For the new project we need 8 H200 SXM.",
         {"num_gpus": 8, "gpu_preference": "h200-sxm"}),
        # a server already had and kept as it is, beside a new one: its cards are not the plan (heldout27 fr-ab38)
        ("On a déjà un serveur avec 2 L40S pour la BI, on n'y touche pas. Il nous faut un nouveau serveur avec 4 H200.",
         {"num_gpus": 4, "gpu_preference": "h200-sxm"}),
        # a server on its way out: its cards are not the plan
        ("Notre ancien serveur (2x T4) part à la retraite.", {}),
        ("Our current server (4x P100) is end-of-life, so this would be new hardware.", {}),
        ("Nous remplaçons notre vieux serveur à 2 A100 par un nouveau serveur.", {}),
        ("we had a consultant quote us 3 servers with 8 GPUs each for a chatbot", {}),
        ("We're considering an 8x MI325X server since we got a good AMD quote.",
         {"num_gpus": 8, "gpu_preference": "mi325x"}),
        ("two H100s", {"num_gpus": 2, "gpu_preference": "h100-sxm"}),
        ("They'd like an L40S pair in the existing rack.", {"num_gpus": 2, "gpu_preference": "l40s"}),
        # a count corrected below the first one said: the corrected count
        ("> Il faudrait 2 H200.\nMise à jour : ce sera 3 H200 et non 2.",
         {"num_gpus": 3, "gpu_preference": "h200-sxm"}),
        ("> We need 2 L40S.\nUpdate: they want 6 L40S, not 2.", {"num_gpus": 6, "gpu_preference": "l40s"}),
        # a count taken back with a bare figure that names it, or with the GPUs' word
        ("2x H200 for 40 users at once — sorry, I meant 4, not 2.", {"num_gpus": 4, "gpu_preference": "h200-sxm"}),
        ("My laptop's RTX 5090 (the 24 GB mobile version) is too small; a tower with an RTX PRO 5000 instead.",
         {"gpu_preference": "rtx-pro-5000", "num_gpus": 1}),
        ("My laptop's RTX 4090 (the mobile one) struggles with Qwen3 8B.", {"num_gpus": 1}),
        ("Notre station avec une RTX 4090 rame ; on voudrait la remplacer par une tour avec une RTX PRO 6000.",
         {"gpu_preference": "rtx-pro-6000-ws", "num_gpus": 1}),
        ("On part sur 6 GPU — correction, 4 GPU, validé par la DSI.", {"num_gpus": 4}),
        ("Il faudrait 3 L40S — pardon, je voulais dire 2, pas 3.", {"num_gpus": 2, "gpu_preference": "l40s"}),
        ("On part sur 2 H100... pardon, 4, j'ai relu le devis.", {"num_gpus": 4, "gpu_preference": "h100-sxm"}),
        ("a LoRA on one rented A100 80GB", {"num_gpus": 1, "gpu_preference": "a100-80gb-sxm"}),
        ("4 H100, sorry for the delay, 2 racks free", {"num_gpus": 4, "gpu_preference": "h100-sxm"}),
        # a laptop's GeForce card is another chip of the same name: its one GPU is counted, no card preferred
        ("Can I run Qwen3 8B on my laptop? It has an RTX 5090 Laptop GPU (24GB).", {"num_gpus": 1}),
        ("ça passe sur ma RTX 5090 mobile ?", {"num_gpus": 1}),
        ("It's got the mobile RTX 4090 (16 GB VRAM).", {"num_gpus": 1}),
        ("mon portable avec sa RTX 5080 Laptop (16 Go) suffit-il ?", {"num_gpus": 1}),
        ("a new 4-GPU H200 server", {"num_gpus": 4, "gpu_preference": "h200-sxm"}),
        ("RAM ECC indispensable. 1 seul GPU. Budget 12 k€ HT.", {"num_gpus": 1}),
        # a second card said by its number alone after "or": compared, no preference
        ("llama 3.1 8b on my desktop pc. rtx 5080 or 5090?? budget €2k", {}),
        ("Une RTX 5080 ou une 5090 pour Qwen3 8B ?", {}),
        # the cards counted are the ones that replaced others
        ("Nous avons déjà 4 A100 80 Go (qui remplacent nos vieilles V100) et voulons servir Llama 3.3 70B.",
         {"num_gpus": 4, "gpu_preference": "a100-80gb-sxm"}),
        ("We already own 4 A100 80GB (they replaced our old T4 boxes).", {"num_gpus": 4,
                                                                        "gpu_preference": "a100-80gb-sxm"}),
        ("2 seules cartes", {}),  # ("seules" is no figure's word here: only "seul(e)"/"single" after one count)
        ("sur un serveur avec un couple de GPU", {"num_gpus": 2}), ("a pair of cards in a tower", {"num_gpus": 2}),
        # a card weighed against another in a question, or set aside, is not the one wanted
        ("Quick question: is the MI300X better than the B200 for gpt-oss 120b?", {}),
        ("Is an MI300X worth it compared with an H200 for serving Llama 3.1 405B?", {}),
        ("We want 4 H200, cheaper than B200s.", {"num_gpus": 4, "gpu_preference": "h200-sxm"}),
        ("Une RTX PRO 6000 Max-Q serait hors budget je suppose, donc je ne la demande pas.", {}),
        ("On a écarté la RTX 5090 (pas assez de mémoire). Que proposez-vous ?", {}),
        ("The H200 is too expensive for us; two L40S would do.", {"num_gpus": 2, "gpu_preference": "l40s"}),
        ("Is the H200 a better pick than two L40S for Llama 3.1 70B?", {}),
        ("Is 8x B300 overkill for pretraining a 3B model?", {"num_gpus": 8, "gpu_preference": "b300"}),
        ("for Llama 3.1 405B in FP8, is 8x MI300X or 8x H200 cheaper per token?", {"num_gpus": 8}),
        ("3 L40S ou 2 H100 ?", {}),
        ("looking to lora finetune llama3.1 8b on a single-gpu workstation", {"num_gpus": 1}),
        ("a dual-GPU tower for Blender", {"num_gpus": 2}),
        ("Nombre de GPU souhaité : 2\nDéploiement : serveur", {"num_gpus": 2}), ("| GPU count | 4 |", {"num_gpus": 4}),
        ("Nous avions un serveur avec 4 A100 en 2023, il est saturé. On vise 8 H200 maintenant.",
         {"num_gpus": 8, "gpu_preference": "h200-sxm"}),
        ("The 8 H100 in our current cluster are fully booked, so we need 4 more H200 for this project.",
         {"num_gpus": 4, "gpu_preference": "h200-sxm"}),
        ("Nous pensions à une H100, mais le budget ne le permet pas. Que proposez-vous ?", {}),
        ("The H100 is the standard but we can't get delivery before Q3. Any alternative?", {}),
        ("4 H100, but we can't get more than 3 kW in that room.", {"num_gpus": 4, "gpu_preference": "h100-sxm"}),
        # a count per group, or asked beside another count, is no plan
        ("One H100 per team, 4 teams.", {"gpu_preference": "h100-sxm"}), ("Is one GPU enough or do we need two?", {}),
        ("Est-ce que 2 GPU L40S suffisent ou faut-il viser plus haut ?", {"num_gpus": 2, "gpu_preference": "l40s"}),
        ("We considered the B200 but it's overkill; 4 L40S should do.", {"num_gpus": 4, "gpu_preference": "l40s"}),
        ("4 L40S", {"num_gpus": 4, "gpu_preference": "l40s"}),
        ("8x H200", {"num_gpus": 8, "gpu_preference": "h200-sxm"}),
        ("2×RTX 5090", {"num_gpus": 2, "gpu_preference": "rtx-5090"}),
        ("un serveur 8 GPU", {"num_gpus": 8}),
        ("one GPU planned", {"num_gpus": 1}),
        ("a couple of GPUs", {"num_gpus": 2}),
        ("A100 40GB PCIe", {"gpu_preference": "a100-40gb-pcie"}),
        ("on 8x A100 in Azure", {"num_gpus": 8, "gpu_preference": "a100-80gb-sxm"}),
        ("Au départ je pensais à 2 GPU mais finalement une seule carte suffira.", {"num_gpus": 1}),
        ("At first we planned 4 H100, but in the end 2 H100 will do.", {"num_gpus": 2, "gpu_preference": "h100-sxm"}),
        ("At first we planned 4 GPUs, but in the end two will do.", {}),
        ("devis pour une paire de B200 svp", {"num_gpus": 2, "gpu_preference": "b200"}),
        ("Price for 4x H200 in the cloud?", {"num_gpus": 4, "gpu_preference": "h200-sxm"}),
        ("A100 PCIe", {"gpu_preference": "a100-80gb-pcie"}), ("A100 40GB", {"gpu_preference": "a100-40gb-sxm"}),
        ("J'ai accès à deux A100 quarante gigas (SXM) sur le serveur du labo.",
         {"num_gpus": 2, "gpu_preference": "a100-40gb-sxm"}),
        ("an A100 40 gigs", {"gpu_preference": "a100-40gb-sxm"}),
        ("une RTX PRO 6000 Server Edition", {"num_gpus": 1, "gpu_preference": "rtx-pro-6000-server"}),
        ("quatre cartes RTX PRO 6000 édition serveur", {"num_gpus": 4, "gpu_preference": "rtx-pro-6000-server"}),
        ("pas de H100, trop cher", {}),
        ("2 serveurs de 4 H200 NVL chacun", {"num_gpus": 8, "gpu_preference": "h200-nvl"}),
        ("one GB300 NVL72 rack (72 GPUs) in our data centre", {"num_gpus": 72, "gpu_preference": "gb300"}),
        ("Devis pour 2 DGX H200 svp.", {"num_gpus": 16, "gpu_preference": "h200-sxm"}),
        ("Quote for a DGX B200, please.", {"num_gpus": 8, "gpu_preference": "b200"}),
        ("Looking at one GB200 NVL72 rack, i.e. 72 GPUs.", {"num_gpus": 72, "gpu_preference": "gb200"}),
        ("Two racks of GB300 NVL72 for pre-training", {"num_gpus": 144, "gpu_preference": "gb300"}),
        ("Une baie GB200 NVL72 complète, c'est possible ?", {"num_gpus": 72, "gpu_preference": "gb200"}),
        ("is GB200 NVL72 worth it for us?", {"gpu_preference": "gb200"}),
        # a card named bare and again with its variant: the variant said
        ("Subject: idle A100s\nWe have 4 A100 80GB PCIe cards", {"num_gpus": 4, "gpu_preference": "a100-80gb-pcie"}),
        ("4 cartes A100 80 Go au format PCIe", {"num_gpus": 4, "gpu_preference": "a100-80gb-pcie"}),
        # hardware that runs today, beside a move away from it, or being retired, is not planned
        ("Aujourd'hui tout tourne sur une RTX 4090, on veut passer sur du matériel pro", {}),
        ("We're retiring our 8x A100 40GB PCIe box and want to move to H200 NVL", {"gpu_preference": "h200-nvl"}),
        ("Nous voulons remplacer nos 4 A100 40 Go (PCIe) par des cartes plus récentes.", {}),
        ("On hésite entre une RTX PRO 6000 Blackwell (édition workstation) et deux 5090.", {}),
        ("Today we use TGI 2.4 on 4 A100 80GB PCIe; we want to move to H200 NVL.", {"gpu_preference": "h200-nvl"}),
        ("today we run on 2x RTX 4090 and want to serve 20 users", {"num_gpus": 2, "gpu_preference": "rtx-4090"}),
        ("deux serveurs HGX H200 (16 GPU au total)", {"num_gpus": 16, "gpu_preference": "h200-sxm"}),
        # the total after an owned card and one to add; two counts of cards weighed (heldout23 fr-f03, fr-f30)
        ("On a déjà une RTX 4090 et on en ajouterait une deuxième, donc 2 cartes au total.",
         {"num_gpus": 2, "gpu_preference": "rtx-4090"}),
        ("2 RTX 5080 ou une 5090, je sais pas.", {}),
        ("Le catalogue 2026 v3 sort en mars.", {}), ("roadmap 2026 H100 cluster", {"gpu_preference": "h100-sxm"}),
        ("3 V100 à remplacer", {}), ("two T4s on a shelf", {"num_gpus": 2}),
        ("torn between an RTX 5090 and an RTX PRO 6000", {}),
        ("A100 40GB PCIe cards; we'd want two of them", {"num_gpus": 2, "gpu_preference": "a100-40gb-pcie"}),
        ("Une douzaine de GPU en location", {"num_gpus": 12}),
        ("nous voulons un GPU serveur", {}),
        ("One or two GPUs?", {}),
        ("Azure (ND H100 v5, so 8x H100)", {"num_gpus": 8, "gpu_preference": "h100-sxm"}),
        ("we have two spare L40S cards", {"num_gpus": 2, "gpu_preference": "l40s"}),
        ("on a 3 anciennes A100 40GB PCIe", {"num_gpus": 3, "gpu_preference": "a100-40gb-pcie"}),
        ("is a single 5090 enough?", {"num_gpus": 1, "gpu_preference": "rtx-5090"}),
        ("2x 5080 in one tower", {"num_gpus": 2, "gpu_preference": "rtx-5080"}),
        ("budget 5090 €", {}),
        ("gpt-oss-20b on a single 5090 w/ ollama", {"num_gpus": 1, "gpu_preference": "rtx-5090"}),
        ("one 5080 w/ 16 GB", {"num_gpus": 1, "gpu_preference": "rtx-5080"}),
        ("deux nœuds de 8 x H200", {"num_gpus": 16, "gpu_preference": "h200-sxm"}),
        ("3 servers with 4 L40S", {"num_gpus": 12, "gpu_preference": "l40s"}),
        ("8 nodes x 8 GPUs, bf16", {"num_gpus": 64}),
        ("fine-tuner gemma 2 2b sur ma 5080, en fp32 c'est jouable ?", {"gpu_preference": "rtx-5080", "num_gpus": 1}),
        ("avec mon PC et sa RTX 5090, je peux faire tourner Gemma 3 27B ?",
         {"gpu_preference": "rtx-5090", "num_gpus": 1}),
        ("thinking of a couple of 5090s. budget maybe 5k euros", {"gpu_preference": "rtx-5090", "num_gpus": 2}),
        ("On envisage 8 H100 par nœud × 4 nœuds.", {"num_gpus": 32, "gpu_preference": "h100-sxm"}),
        ("planned on 8 H100 per node x 2 nodes", {"num_gpus": 16, "gpu_preference": "h100-sxm"}),
        ("4 nœuds x 8 GPU H100", {"num_gpus": 32, "gpu_preference": "h100-sxm"}),
        ("One H200 server (8 GPUs).", {"num_gpus": 8, "gpu_preference": "h200-sxm"}),
        ("one (1) server with eight (8) NVIDIA H100 SXM GPUs", {"num_gpus": 8, "gpu_preference": "h100-sxm"}),
        ("un serveur avec huit (8) GPU NVIDIA L40S", {"num_gpus": 8, "gpu_preference": "l40s"}),
        ("We're running it on 4x RTX 4090 today and it's far too slow. What would you recommend instead?", {}),
        # the only card named falls short: the reference the plan replaces, no card wanted (SCHEMA)
        ("Nous faisons tourner Llama sur 2 L40S et c'est beaucoup trop lent.", {}),
        ("It's slow, what should we upgrade to? Currently one RTX 4090.", {}),
        ("Aujourd'hui tout tourne sur une RTX 4090, on veut passer sur du matériel pro", {}),
        ("je peux lancer Qwen3 14B sur ma RTX 5080 sans que ça rame trop ?", {"gpu_preference": "rtx-5080"}),
        ("I've got a gaming rig with a 4090, thinking about upgrading to a 5090", {"num_gpus": 1,
                                                                                  "gpu_preference": "rtx-5090"}),
        ("Une carte coûte 8 000 € pièce chez notre revendeur", {}),
        ("J'ai vu la H100 à 30 000 € chez un revendeur, c'est normal ?", {}),
        ("Today we run everything on 2x L40S. Budget €200k for the expansion.", {}),
        ("* Qty 2 x rack servers, each with 4 x NVIDIA H100 NVL", {"num_gpus": 8, "gpu_preference": "h100-nvl"}),
        ("Saw an H200 listed at $32,000 on a reseller's site.", {}),
        ("On m'a proposé une L40S à 9 500 € pièce ; nous voulons deux H100.",
         {"num_gpus": 2, "gpu_preference": "h100-sxm"}),
        ("deux A100 à 80 Go", {"num_gpus": 2, "gpu_preference": "a100-80gb-sxm"}),
        ("one GPU costs about $2/hour on RunPod", {}),
        ("can i run it on my desktop? it's got a 5080 in it", {"num_gpus": 1, "gpu_preference": "rtx-5080"}),
        ("Looking at an RTX 5080 for a QLoRA run", {"num_gpus": 1, "gpu_preference": "rtx-5080"}),
        ("an H100 costs about 30k€", {"gpu_preference": "h100-sxm"}),
        ("Considering a B300 system for inference", {"gpu_preference": "b300"}),
        ("We want to buy a B300 server to serve Llama 3.1 405B", {"gpu_preference": "b300"}),
        ("We tried 4 H100 last year on AWS; too expensive.", {"gpu_preference": "h100-sxm"}),
        ("Les 8 GPU de notre ancien cluster seront recyclés.", {}),
        ("2x 4090 ça passe ou pas ?", {"num_gpus": 2, "gpu_preference": "rtx-4090"}),
        ("J'ai déjà une RTX 4090, c'est assez ?", {"num_gpus": 1, "gpu_preference": "rtx-4090"}),
        ("we have three A6000s in a tower", {"num_gpus": 3, "gpu_preference": "rtx-a6000"}),
        # the owned Ampere cards (catalogue): not their faster siblings the catalogue lacks
        ("We have 4x RTX 3090 in a box", {"num_gpus": 4, "gpu_preference": "rtx-3090"}),
        ("deux RTX 3090", {"num_gpus": 2, "gpu_preference": "rtx-3090"}),
        ("2 A6000s", {"num_gpus": 2, "gpu_preference": "rtx-a6000"}), ("an A6000", {"gpu_preference": "rtx-a6000"}),
        ("we have a 3090 Ti", {"num_gpus": 1}), ("2x RTX 3090 Ti", {"num_gpus": 2}),
        ("each of our 30 stores would get a box with one L40S", {"gpu_preference": "l40s"}),
        ("chaque agence aurait une tour avec 2 RTX 5090", {"gpu_preference": "rtx-5090"}),
        # one card of one's own; what replaces old hardware is planned
        ("can I fine-tune Mistral 7B on my RTX 3090?", {"num_gpus": 1, "gpu_preference": "rtx-3090"}),
        ("est-ce que ça tourne sur la RTX 3080 que j'ai déjà ?", {"num_gpus": 1}),
        ("est-ce que ça tourne sur la RTX 3090 que j'ai déjà ?", {"num_gpus": 1, "gpu_preference": "rtx-3090"}),
        ("the RTX 3080 is cheaper", {}),
        ("Our T4 boxes are end of life; the replacement would be four L40S", {"num_gpus": 4, "gpu_preference": "l40s"}),
        ("Les 4 V100 seront remplacées l'an prochain", {}),
        ("nos 2 V100 seront remplacées", {}), ("budget 4090 €", {}),
        ("Is a single 8-GPU node enough?", {"num_gpus": 8}),
        ("besoin rapide : 3 L40S ou 2 H100 pour du Llama ?", {}), ("4 H100 or 8 L40S, which is cheaper?", {}),
        ("budget 3,000 GPU-hours on AWS", {}), ("500 heures GPU par mois", {}), ("two 8-GPU servers", {"num_gpus": 16}),
        ("Two 8-GPU B200 nodes in our datacenter.", {"num_gpus": 16, "gpu_preference": "b200"}),
        ("can i run it on my laptop w rtx 4090?? the 16gb laptop one", {"num_gpus": 1}),
        ("On a la place pour 2 serveurs 8 GPU B200.", {"num_gpus": 16, "gpu_preference": "b200"}),
        ("an 8-GPU H100 server", {"num_gpus": 8, "gpu_preference": "h100-sxm"}),
        ("The B200 nodes come with 8 GPUs each; we'd take 4 nodes", {"num_gpus": 32, "gpu_preference": "b200"}),
        ("les nœuds ont 4 GPU chacun, il en faut 3 nœuds", {"num_gpus": 12}),
        # machines then "Nx card", desks counted as machines, a total said after a count per machine
        ("devis pour 3 serveurs 4x H100", {"num_gpus": 12, "gpu_preference": "h100-sxm"}),
        ("on a déjà 4 A100 80GB en PCIe dans un serveur", {"num_gpus": 4, "gpu_preference": "a100-80gb-pcie"}),
        ("Une RTX 4090 suffit-elle, ou faut-il une RTX 5090 ? On en prendrait une.", {"num_gpus": 1}),
        ("Je voudrais savoir si 1 GPU suffit ou s'il en faut 2. Pas de budget.", {}),
        ("NVFP4 on Blackwell, B200 x4. Cloud rental.", {"num_gpus": 4, "gpu_preference": "b200"}),
        ("Idéalement sur 1 seul H100.", {"num_gpus": 1, "gpu_preference": "h100-sxm"}),
        ("We wonder whether one L40S is enough or we need two.", {"gpu_preference": "l40s"}),
        ("Is an RTX 3080 enough or do we need an L40S?", {"num_gpus": 1}),
        ("Two towers for the studio. An RTX 5090 in each tower.", {"num_gpus": 2, "gpu_preference": "rtx-5090"}),
        ("We need four workstations, each with one L40S", {"num_gpus": 4, "gpu_preference": "l40s"}),
        ("one L40S per kiosk PC, we have 5 kiosks so 5 GPUs", {"num_gpus": 5, "gpu_preference": "l40s"}),
        ("two options: (a) 4x H200 on-prem, (b) rent 8x H100", {}),
        ("MI300X nodes hold 8 GPUs per rack unit... 32 GPUs per rack", {"gpu_preference": "mi300x"}),
        ("Quel est le prix d'une L40S ? Il nous en faudrait trois.", {"num_gpus": 3, "gpu_preference": "l40s"}),
        ("if it fits on a single L40S we'd stay there", {"gpu_preference": "l40s"}),
        ("not sure if two L40S are enough", {"num_gpus": 2, "gpu_preference": "l40s"}),
        ("on se demande si 2 H100 suffisent", {"num_gpus": 2, "gpu_preference": "h100-sxm"}),
        ("Si le budget le permet, 4 L40S.", {"gpu_preference": "l40s"}),
        ("is there something faster than an A100 for this?", {}),
        ("today we run on two T4; we'd like 4 L40S", {"num_gpus": 4, "gpu_preference": "l40s"}),
        ("Currently we'd like 4 H200, maybe A100s later", {"num_gpus": 4, "gpu_preference": "h200-sxm"}),
        ("aujourd'hui sur deux A100, demain 4 H200", {"num_gpus": 4, "gpu_preference": "h200-sxm"}),
        ("Suite à votre proposition de 4 H100, nous préférons 2 H200.", {"num_gpus": 2, "gpu_preference": "h200-sxm"}),
        ("We were quoted four L40S for our RAG bot. Is that enough?", {"num_gpus": 4, "gpu_preference": "l40s"}),
        ("quelle différence entre la H200 SXM et NVL ?", {}),
        # a card asked about for several machines, by its kind, or as the unit of GPU-hours: no count
        ("Architects here, 6 new workstations for Revit. Would an RTX 5080 be fine?", {"gpu_preference": "rtx-5080"}),
        ("We need 3 new towers for CAD. Is an L40S overkill?", {"gpu_preference": "l40s"}),
        ("Combien d'heures GPU faudrait-il sur une H100 ?", {"gpu_preference": "h100-sxm"}),
        ("How many GPU-hours on an L40S?", {"gpu_preference": "l40s"}),
        ("Faut-il vraiment un GPU pro ?", {}), ("Do we really need a datacenter GPU?", {}),
        ("Est-ce qu'une RTX PRO 6000 Blackwell Max-Q suffit ?", {"num_gpus": 1, "gpu_preference": "rtx-pro-6000-maxq"}),
        # a named card per machine, the machines said with a word of their kind between
        ("Il nous faut 4 stations de rendu (Blender), une RTX 5090 par station.",
         {"num_gpus": 4, "gpu_preference": "rtx-5090"}),
        ("We have 10 lab workstations, each with an L40S.", {"num_gpus": 10, "gpu_preference": "l40s"}),
        ("6 postes de montage vidéo, avec une RTX 4090 dans chaque poste",
         {"num_gpus": 6, "gpu_preference": "rtx-4090"}),
        ("une salle de 12 postes. Une carte par poste, RTX 5080 idéalement.",
         {"num_gpus": 1, "gpu_preference": "rtx-5080"}),
        # a market price quoted for comparison beside the budget: no plan (reference_price.py)
        ("Budget 90 000 €. Pour info, un serveur à 4 H100 coûte environ 150 000 €.", {}),
        ("Our budget is €200k; we've seen quotes of about €300,000 for a box with 8 H200.", {}),
        ("We'd buy 4 H100s, which cost about €120k; budget is €150k.", {"num_gpus": 4, "gpu_preference": "h100-sxm"}),
        # a card's number right after a word for a card
        ("lora on mistral 7b, 1 gpu, 5090 probably", {"num_gpus": 1, "gpu_preference": "rtx-5090"}),
        # a label of the present heads a list: its cards run today, the card wanted next is the preference
        ("Current setup: Qwen3 8B, 40 users, 2 RTX 4090. Next we want H200.", {"gpu_preference": "h200-sxm"}),
        # a bound that excludes its figure says no count; a cap names it
        ("We'd prefer fewer than 4 GPUs.", {}), ("Idéalement moins de 8 GPU.", {}), ("Max 4 GPUs.", {"num_gpus": 4}),
    ),
    doc="GPU count and the catalogue card the customer names",
)
