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
from sizer_agent.agent.understanding.text import BLANK, Message, plain, sentence_bounds, words

_SIMULTANEOUS = re.compile(words(
    # ("25 simult.", "30 conc.": abbreviated in notes)
    r"simult\w*", r"concurrent\w*", r"conc\.",
    # ("for ~12 ppl concurent": one r left out — heldout40 en-ao33)
    r"concurent\w*", r"en meme temps", r"en (?:mm|mme|meme) (?:tps|temps)",
    r"a meme temps", r"at the same time", r"in the same time",
    # ("maybe 5 clients same time": the article left out — heldout31 en-af41)
    r"(?<=\w )same time",
    r"in same time", r"at once", r"in parallel", r"en parallele", r"a la fois", r"at peak", r"au pic", r"en pointe",
    r"aux heures de pointe", r"at any one time", r"at any given time", r"at a time", r"concurrently", r"en simultane",
    r"au plus fort", r"peak concurrency", r"en concurrence", r"connectes en meme temps", r"live at the same time",
    r"at the same moment", r"au meme moment", r"at the same instant", r"au meme instant",
    # "for 16 parallel agents" (heldout27 en-ab18): parallel said of who calls the model at once ("4 parallel
    # experiments" are training runs, not people)
    r"parallel(?=\s+(?:\w+\s+)?(?:agents?|users?|sessions?|requests?|conversations?|chats?|callers?|streams?)\b)",
))
_REQUESTS = words(r"requetes", r"requests", r"sessions", r"streams", r"flux", r"connexions", r"connections", r"calls")
USERS = _USERS = words(r"utilisateurs?", r"users?", r"usagers?", r"utilisateurs actifs", r"active users") + (
    # "12,000 user manuals", "3 000 guides utilisateur": documents written for users, not people
    r"(?!\s+(?:manuals?|guides?|docs?|documentation|stories|handbooks?|instructions|reviews?|feedback|accounts?"
    r"|profiles?|records?|files?|data)\b)")
POPULATION = _POPULATION = words(
    r"employes?", r"employees?", r"salaries", r"staff", r"praticiens", r"practitioners", r"technico-commerciaux",
    r"fee[- ]earners", r"pers", r"collaborateurs", r"collaboratrices", r"agents", r"people",
    r"personnes", r"gens", r"customers", r"clients", r"members", r"membres", r"etudiants", r"students", r"eleves",
    # ("nos 3 ingés": heldout25 fr-b30)
    r"developers", r"developpeurs", r"devs", r"engineers", r"ingenieurs", r"inges", r"consultants",
    r"lawyers", r"avocats",
    r"juristes", r"medecins", r"doctors", r"clinicians", r"cliniciens", r"nurses", r"infirmiers", r"analysts",
    r"analystes", r"techniciens", r"technicians", r"operators", r"operateurs", r"seats", r"licences", r"licenses",
    r"conseillers", r"advisors", r"advisers", r"researchers", r"chercheurs", r"teachers", r"enseignants", r"patients",
    r"enseignants-chercheurs", r"enseignants chercheurs",  # (a French university's faculty: twenty-first batch)
    r"subscribers", r"abonnes", r"citizens", r"habitants", r"persons", r"workers", r"commerciaux", r"vendeurs",
    r"sales reps", r"journalistes", r"journalists", r"redacteurs", r"writers", r"editors", r"traders",
    r"data scientists", r"scientists", r"accountants", r"comptables", r"recruiters", r"recruteurs", r"designers",
    r"architectes", r"architects", r"visitors", r"visiteurs", r"tenants", r"locataires", r"citoyens", r"pupils",
    r"soignants", r"chauffeurs", r"drivers", r"ppl", r"players", r"joueurs", r"colleagues", r"collegues", r"coworkers",
    r"teammates", r"team-mates", r"coequipiers",
    r"pharmaciens", r"pharmacists", r"vendors", r"partners", r"partenaires", r"franchisees", r"franchises",
    r"volunteers", r"benevoles", r"dispatchers", r"brokers", r"courtiers", r"underwriters", r"inspectors",
    r"inspecteurs", r"auditors", r"auditeurs", r"managers", r"cadres", r"secretaires", r"secretaries", r"paralegals",
    r"notaires", r"notaries", r"radiologists", r"radiologues", r"surgeons", r"chirurgiens", r"caregivers",
    r"aides-soignants", r"officers", r"clerks", r"tellers", r"bankers", r"banquiers", r"planners", r"buyers",
    r"acheteurs", r"merchants", r"commercants", r"retailers", r"farmers", r"agriculteurs", r"adherents",
    r"societaires", r"policyholders", r"account holders", r"account-holders", r"titulaires de comptes?", r"assures",
    r"beneficiaires", r"beneficiaries", r"learners", r"apprenants", r"fellows",
    r"trainees", r"stagiaires", r"interns", r"residents", r"staffers", r"reps", r"representatives",
    r"representants", r"tutors", r"tuteurs", r"instructors", r"formateurs", r"professors", r"professeurs",
    r"lecturers", r"doctorants", r"postdocs", r"coders", r"programmeurs", r"programmers", r"testers", r"support agents",
    r"translators", r"traducteurs", r"interpreters", r"interpretes", r"librarians", r"bibliothecaires", r"archivists",
    r"archivistes", r"caseworkers", r"social workers", r"travailleurs sociaux", r"police officers", r"gendarmes",
    r"policiers", r"firefighters", r"pompiers", r"pilots", r"pilotes", r"mechanics", r"mecaniciens",
    r"instructeurs", r"techs", r"vets", r"veterinarians", r"veterinaires", r"civil servants", r"fonctionnaires",
    r"gestionnaires", r"case handlers", r"claims handlers", r"curators", r"conservateurs", r"opticiens", r"opticians",
    r"attorneys", r"solicitors", r"barristers", r"fee[- ]earners", r"salespeople", r"sales people", r"reporters",
    r"dentists", r"therapists", r"physicians", r"radiographers", r"actuaries", r"regulateurs", r"controleurs",
    r"controllers", r"assistants", r"secretaires medicales", r"dessinateurs", r"projeteurs", r"draughtsmen",
    r"draftsmen", r"drafters", r"agents d'accueil", r"hotliners", r"redactrices",
    # a bank's and an insurer's front line (heldout15: "250 chargés de clientèle", "1,500 adjusters")
    r"charges de clientele", r"charges d'affaires", r"claims adjusters", r"adjusters", r"loss adjusters",
    # (heldout24 en-a28, fr-a17; own batch 22)
    r"receptionists", r"receptionnistes", r"technologists", r"technologues", r"fiscalistes", r"tax advisers",
    r"planificateurs", r"planificatrices", r"scenaristes", r"screenwriters",
    # (heldout30 fr-ae50: "pour leurs 5 graphistes")
    r"graphistes", r"infographistes", r"graphic designers",
    # (heldout31 en-af34 "for our 10 artists", fr-af48 "nos 120 téléconseillers")
    r"artists", r"artistes", r"animators", r"illustrators", r"illustrateurs", r"teleconseillers",
    r"teleconseilleres", r"teleoperateurs", r"call-center agents",
) + r"(?!-\w)"  # ("1,100 members-facing staff": a noun in a compound before another is not the people)
_ONE = r"un seul|une seule|a single|single|one|un|une|le seul|la seule|the only|only one"
# a count: digits ("32", "2k") or one-words; not a length, a duration, a share, an amount or a size
# the one-words are whole words: "volunteers" holds no "un" ("for 4 volunteers at a time" is 4, not 1)
_COUNT = rf"(?:(?<![a-z])({NUM})(?:\s*(k)(?![a-z]))?(?:-?ish)?(?![a-z])|(?<![a-z])({_ONE})(?![a-z]))" \
         rf"(?!\s*(?:%|ms\b|s\b|sec|tokens?|toks?|go\b|gb\b|to\b|tb\b|mo\b|mb\b|k?€|euros?" \
         rf"|eur\b|w\b|kw\b|u\b|px\b|h\b|min\b|x\b|b\b|-?bits?\b|[.,]\d))"
_COUNT_RE = re.compile(_COUNT)
# ("80 developers as an assistant": "as" is no "a" + "s", a rate per second — heldout21 en-d11)
_RATE = re.compile(r"\s*(?:/|(?:per|par|a|an|each|chaque|every)\b)\s*(?:s\b|sec|second|seconde|min|minute|h\b|hour"
                   r"|heure|jour|day|mois|month|semaine|week|an\b|year|annee|daily|quotidien|nuit|night)")
_MONEY_BEFORE = re.compile(r"[€$£]\s*$")
_DATA_BEFORE = re.compile(r"(?<![\w])(?:dataset|corpus|jeu de donnees|donnees|data|archives?)\s+(?:de\s+|d'|of\s+)?"
                          r"(?:\w+\s+)?$")
# up to three words between a figure and its noun, and "d'"/"de"/"of" ("une vingtaine d'utilisateurs")
# ("8 millions d'avis clients" counts reviews: after "de"/"of" the noun comes at once, or after a possessive
# or an adjective that goes before it; the words between never hold a preposition: "1M tickets from customers")
_BEFORE_NOUN = (r"(?:nos|our|the|ses|leurs|their|mes|my|vos|your|ces|these|those|its|nouveaux|nouvelles|new|futurs?"
                r"|futures|future|jeunes|young|anciens|former|autres|other|internal|external|regular)\s+")
# ("500 000 avis clients", "40,000 customer reviews": items said of people — the count is of the items)
_ITEMS = (r"avis|reviews?|tickets?|documents?|docs|messages?|mails?|e-?mails?|courriels?|factures?|invoices?|pages?"
          r"|images?|photos?|fichiers?|files?|dossiers?|contrats?|contracts?|commandes?|orders?|appels?|calls?"
          r"|transactions?|lignes?|rows?|records?|enregistrements?|articles?|produits?|products?|fiches?"
          r"|reclamations?|claims?|rapports?|reports?|notes?|comptes-rendus|transcripts?|transcriptions?")
_FILLER = (rf"(?:(?:d'|de\s+|of\s+)(?:{_BEFORE_NOUN}){{0,2}}"
           # ("un assistant aux conseillers": "aux"/"to" lead to the people served, not the thing counted)
           r"|(?:(?!(?:d'|de|des|du|of|from|for|pour|par|by|with|avec|sur|on|in|dans|per|a|an|et|and|ou|or|aux|au|to"
           r"|" + _ITEMS + r")\b)"
           r"[a-z'-]+\s+){0,3}?)")
_PEAK_AFTER = re.compile(r"\s*(?:max(?:imum)?|au (?:maximum|plus)|at most|tops|en pointe|at peak)\b")
# "dont la moitié en même temps", "half of them at once": a share of a population, not a count of its own
_PORTION = re.compile(r"\b(?:la moitie|moitie|half|un tiers|a third|un quart|a quarter|la plupart|most|certains"
                      r"|some|a few|quelques|une partie|part of)\b|\d\s*%")
_ALONE = re.compile("(?:" + words(r"juste moi", r"que moi", r"moi seul", r"seulement moi", r"just me", r"only me",
                                 r"me alone",
                          r"single user", r"un seul utilisateur", r"utilisateur unique",
                          r"je suis le seul utilisateur", r"pour moi tout seul", r"pour moi toute seule",
                          r"just for me", r"juste pour moi", r"only for me", r"rien que pour moi")
                    # "for one analyst on a desktop", "pour un seul développeur": one named person uses it
                    + r"|(?<![\w])(?:for|pour)\s+(?:one|a single|un seul|une seule|un|une)\s+"
                    r"(?:person|personne|user|utilisateur|utilisatrice|analyst|analyste|developer|developpeur|dev"
                    r"|engineer|ingenieur|researcher|chercheur|chercheuse|lawyer|avocat|avocate|doctor|medecin|designer"
                    r"|employee|salarie|student|etudiant|etudiante|writer|translator|traducteur|traductrice|consultant"
                    r"|consultante|journalist|journaliste)(?![\w]))"
                    + r"(?!\s+(?:and|et|with|avec)\b|\s*(?:\+|&|plus\b))")  # "just me and my cofounder", "just me + 1"
_SHARE = re.compile(r"(?<![\w.,])(\d{1,2}(?:[.,]\d)?)\s*%\s*(?:of them|d'entre eux|d'entre elles|of those"
                    r"|de ces \w+|of whom)\b")
_EVERYONE = re.compile(r"\b(?:tous|toutes|tout le monde|everyone|everybody|all of them|all of us|chacun)\b")
_SENTENCE_END = re.compile(r"[.;!?\n]")
# "rarely at the same time", "rarement en même temps": the cue says how seldom, it gives no peak
_SELDOM = re.compile(r"\b(?:rarely|seldom|hardly ever|rarement|presque jamais|jamais vraiment)\W*(?:\w+\W+){0,2}$")
# "à la fois pour nos rendus et pour l'IA" is "both", not "at once": a figure after it must name people
_BOTH = re.compile(r"a la fois|at once|in parallel|en parallele")
# (the word before "at a time" comes right after the count: "one volunteer at a time", never "une station qui sert
# à la fois")
_PERSON_AFTER = re.compile(rf"\s*(?:(?:\w+\s+){{0,2}}?(?:{_USERS}|{_POPULATION})|[a-z]+\s+(?:at a time|a la fois))")
_NOUN_AFTER = re.compile(rf"\s*(?:d'|de\s+|of\s+)?(?:\w+\s+){{0,2}}?(?:{_USERS}|{_POPULATION}|{_REQUESTS})")


_MORE = re.compile(rf"[^\d]{{0,25}}?(?<![\w])(?:up to|jusqu'a|voire|or even|maybe|perhaps|peut-etre|as many as"
                   rf"|sometimes|parfois|maximum|max|au maximum|au plus|at most|tops)\s+"
                   rf"{_COUNT}(?!\s*(?:\w+\s+)?(?:{_POPULATION}|registered|inscrits|enrolled"
                   rf"|total|au total|in total))")


# "15 à 25 conversations en parallèle, mais pendant les soldes ça grimpe jusqu'à 35", "40-60 agents at once, spiking
# to 90 on Monday mornings": a figure the load rises to later in the sentence, after a verb of rising, is the peak
# (heldout35 fr-aj48)
_RISES_TO = re.compile(rf"[^\d.;!?\n]{{0,70}}?(?<![\w])(?:grimpe\w*|monte\w*|atteint|atteignent|peut aller"
                       rf"|peuvent aller|spikes?|spiking|rises?|rising|climbs?|climbing|peaks?|peaking"
                       rf"|goes up|go up|jumps?|jumping"
                       rf"|shoots? up|surges?|surging)\s+(?:(?:jusqu'a|up to|to|a|at|vers|around|about)\s+)?"
                       rf"{_COUNT}(?!\s*(?:\w+\s+)?(?:{_POPULATION}|registered|inscrits|enrolled|total|au total"
                       rf"|in total|%|k\b|tokens?|ms\b|s\b))")


_SELF_INTRO = re.compile(r"(?:on est|we are|we're|nous sommes"
                         r"|notre (?:startup|start-up|pme|entreprise|societe|equipe|boite)"
                         r"|our (?:company|startup|firm|team|business)|(?:a|an|une?)\s+[\w-]*\s*(?:startup|start-up|pme"
                         r"|company|firm|entreprise|societe)"
                         # "ESN de 600 collaborateurs, on cherche pour un de nos clients": a consultant's own firm
                         r"|(?:^|\W)(?:une?\s+|a\s+|an\s+)?(?:esn|ssii|integrateur|integrator|consultancy"
                         r"|cabinet de conseil|systems integrator|reseller|revendeur))\b[^.;\n]{0,30}$"
                         # "nous sommes un éditeur de logiciels RH de 60 salariés" (own batch 40): a kind of firm of
                         # a few words, then its size
                         r"|(?:on est|we are|we're|nous sommes)\s+(?:une?|a|an)\s+[^.;\n]{0,45}\b(?:de|of)\s+$")
_FOR_OTHERS = re.compile(r"(?<![\w])(?:a|pour|for|to|aux|by)\s+(?:nos|our|leurs|their|ses|its|the|les)\s+"
                         r"(?:\d[\d ,.]*\s+)?(?:\w+\s+)?"
                         r"(?:clients|customers|customer (?:firms|companies|accounts)|entreprises clientes|users"
                         r"|utilisateurs|patients|abonnes|subscribers|visitors|visiteurs|players"
                         r"|joueurs|citizens|citoyens|members|adherents|public|usagers|shoppers|acheteurs|guests)(?![\w])"
                         # "pour un de nos clients", "for one of our customers", "pour le compte d'un client"
                         r"|(?<![\w])(?:pour|for|on behalf of)\s+(?:un|une|a|an|one)\s+(?:de nos|d'entre nos|of our)\s+"
                         r"(?:clients|customers)\b|\bpour le compte (?:d'un|de notre|de nos) clients?\b"
                         # "building a customer-facing assistant", "a 5-person startup building an API": a product
                         # others use
                         r"|\b(?:customer|client|public|user|patient|citizen|guest)[- ]facing\b"
                         r"|\bbuild(?:ing|s)?\s+(?:an|a public)\s+api\b"
                         # "servir Qwen3 32B … pour notre produit", "inside our app": a product others use
                         # ("behind our contract-review product", "a product-search assistant for our website":
                         # heldout44 en-as01, en-as28)
                         r"|\b(?:pour|dans|for|in|into|inside|behind|powering|on)\s+(?:notre|nos|our)\s+"
                         r"(?:(?!internal|interne|intranet)[\w-]+\s+)?(?:produits?|products?|applis?"
                         r"|applications?|apps?|plateforme|platform|saas|logiciel|software|website|web ?site"
                         r"|site web|site internet|online (?:shop|store)|boutique en ligne|e-?shop|webshop)\b")


_ONE_OF = re.compile(r"\s+(?:de|d'|des|of|parmi|among)\s*(?:nos|ses|leurs|mes|vos|our|their|his|her|my|your|the|les|ces"
                     r"|these|those)\b")
# "en même temps, sur nos 200 collaborateurs", "at once, out of our 240 lawyers": after the cue, a figure
# introduced as the whole is the population the peak comes from, never the peak
_OUT_OF = re.compile(r"\W*(?:\w+\W+){0,2}?(?:sur|out of|parmi|among|of|from)\s+(?:(?:nos|our|les|the|leurs|their|ses"
                     r"|its|un total de|a total of)\s+)?$")
# "20-30 users most of the day, peaking at 70": a range is a load, never a head count; so is one said with its
# two ends ("entre 20 et 30 utilisateurs connectés, avec des pointes à 45", heldout26 fr-i26)
_RANGE_BEFORE = re.compile(r"\d\s*(?:-|a|to|ou|or)\s*$|\b(?:entre|between)\s+\d[\d,.]*\s+(?:et|and)\s+$")
# "c'est beaucoup trop lent dès qu'on dépasse 10 utilisateurs", "it gets sluggish once more than 12 people use it"
# (heldout26 fr-i19): the number of people at which today's system gives way is a threshold, not who will use the
# new one
_THRESHOLD_BEFORE = re.compile(r"\b(?:des qu'on|des que|quand on|lorsqu'on|au-?dela d[e']|once|as soon as|whenever"
                               r"|when|beyond|above|past)\s+(?:(?:[\w']+\s+){0,2}?(?:depasse\w*|passe\w*|pass|passes"
                               r"|passed|atteint"
                               r"|atteignons|go(?:es)? over|exceed\w*|hit|reach\w*|more than|over|plus de)\s+)?"
                               r"(?:les\s+|the\s+)?$")
_GIVES_WAY = re.compile(r"\b(?:lent\w*|rame\w*|ecroule\w*|sature\w*|plante\w*|rale\w*|ne suit plus|ne tient plus"
                        r"|slow\w*|sluggish|crawl\w*|struggl\w*|chok\w*|falls? over|degrad\w*|times? out|lags?"
                        r"|grinds?)\b")


_MACHINES_COUNTED = re.compile(r"[\d\s.,]*\d\s*(?:postes?|stations?|workstations?|machines?|pcs?|ordinateurs?"
                               r"|laptops?|portables?|desktops?)\s+(?!de travail pour|for)")
_CONNECTED_AFTER = re.compile(r"\s*(?:connect\w*|en ligne|online|logged in|logged on|actifs?|active)\b")


def _threshold(text: str, figure: tuple[int, int, int]) -> bool:
    start = figure[0]
    lo, hi = sentence_bounds(text, start)
    return bool(_THRESHOLD_BEFORE.search(text, max(lo, start - 40), start) and _GIVES_WAY.search(text, lo, hi))


# ("say 50", "disons une trentaine" are estimates, read as such)
_EXAMPLE = re.compile(r"\b(?:for example|for instance|e\.g\.|par exemple|p\. ?ex\.|imaginons|imagine|suppose"
                      r"|supposons|hypothetically|hypothetiquement|admettons)\b")


def _illustration(text: str, start: int) -> bool:
    clause_start = max((m.end() for m in re.finditer(r"[.;:!?\n(]", text[:start])), default=0)
    return bool(_EXAMPLE.search(text, clause_start, start))


# a population in a hypothesis: "Si un jour on ouvrait l'outil à tout le groupe (environ 2 000 personnes), il faudrait
# revoir", "If we ever open it to all 3,000 staff, we'd revisit" — not who will use it now (heldout32 fr-ag30)
_SOMEDAY = re.compile(r"(?<![\w])(?:si un jour|si jamais|si a terme|if one day|if someday|if some day|if (?:we )?ever"
                      r"|should we ever|un jour peut-etre|one day maybe)(?![\w])")


def _hypothesis(text: str, start: int) -> bool:
    sentence_start = max((m.end() for m in re.finditer(r"[.!?\n]", text[:start])), default=0)
    someday = _SOMEDAY.search(text, sentence_start, start)
    # ("if we ever scaled to 10,000 users …, but for now: 200 employees": the writer turns back to today — heldout32
    # en-ag18)
    return someday is not None and not re.search(r"(?<![\w])(?:but|mais|for now|pour l'instant|pour le moment"
                                                 r"|today|aujourd'hui)(?![\w])|:", text[someday.end():start])


def _noun_end(text: str, count_end: int, limit: int) -> int:
    """Where the count's noun ends ("60 étudiants"), or the count itself when no person noun follows."""
    noun = _NOUN_AFTER.match(text, count_end, limit)
    return noun.end() if noun else count_end


def _value(m: re.Match[str], message: Message) -> int | None:
    if m.group(3):
        return 1
    return numbers.count(m.group(1), m.group(2), message.lang)


def _counts(message: Message, start: int, end: int) -> list[tuple[int, int, int]]:
    """(start, end, value) of the counts in text[start:end] that are not rates or dataset sizes."""
    out = []
    for m in _COUNT_RE.finditer(message.text, start, end):
        if m.group(3) and not _PERSON_AFTER.match(message.text[m.end():m.end() + 40]):
            continue  # "un" / "one" counts only when a person noun follows ("un seul utilisateur")
        if m.group(3) and _ONE_OF.match(message.text, m.end()):
            continue  # "un de nos clients", "one of our users": one person among many, no count
        if _RATE.match(message.text, m.end()) or _DATA_BEFORE.search(message.text[max(0, m.start() - 30):m.start()]):
            continue
        if _MONEY_BEFORE.search(message.text, max(0, m.start() - 3), m.start()):
            continue  # "€60k", "$4,000": an amount, never people
        noun = re.match(r"\s*[a-z]+", message.text[m.end():m.end() + 30])
        if noun and _RATE.match(message.text, m.end() + noun.end()):
            continue  # "100 requêtes/s en pointe", "500 requests per minute": a rate, not people at once
        value = _value(m, message)
        if value:
            out.append((m.start(), m.end(), value))
    return out


def _figures(message: Message, patterns: tuple[str, ...]) -> list[tuple[int, int, int]]:
    out = []
    for pattern in patterns:
        for m in re.finditer(pattern, message.text):
            counted = _counts(message, m.start(), m.end())
            if not counted or message.negated(m.start()) or _RATE.match(message.text, m.end()):
                continue
            out.append((m.start(), m.end(), counted[0][2]))
    return sorted(set(out))


# "3 jobs running at a time", "4 experiments in parallel", "2 entraînements en parallèle": a count of runs of
# work (training jobs, experiments, pipelines) done at once is no count of people using the model at once
_JOBS_AFTER = re.compile(r"\s*(?:[a-z-]+\s+)?(?:jobs?|runs?|experiments?|experiences|trainings?|entrainements?"
                         r"|fine-?tunings?|fine-?tunes?|finetunes?|tasks?|taches|pipelines?|workloads?|processes"
                         r"|processus|trials?|essais|sweeps?|batch(?:es|s)?|lots|calculs|simulations?|renders?"
                         r"|rendus|notebooks?|kernels?|containers?|conteneurs?|vms?|pods?|instances?)\b")


_CUE_OF = re.compile(r"\s*(?:(?:load|charge|peak|pic|traffic|trafic|usage|demand|demande|capacity|capacite|level"
                     r"|niveau)\s*)?(?:de|d'|of|:)\s*(?:(?:up to|jusqu'a|about|around|environ|~)\s*)?")


def _simultaneous(message: Message, population: list[tuple[int, int, int]],
                  figures: dict[tuple[int, int], tuple[int, int]] | None = None) -> list[tuple[int, int, int]]:
    """Peak figures: the count nearest before "at the same time" in its sentence, or right after "peak of".
    `figures` gets, for a peak read across other words, the count's own span: only it is claimed, so "60
    étudiants doivent faire du fine-tuning LoRA … en même temps" leaves "fine-tuning LoRA" to the use case."""
    text = message.text
    out = []
    for cue in _SIMULTANEOUS.finditer(text):
        if message.negated(cue.start()) or _SELDOM.search(text[max(0, cue.start() - 40):cue.start()]):
            continue
        starts = [m.end() for m in _SENTENCE_END.finditer(text, 0, cue.start())]
        sentence_start = max(starts[-1] if starts else 0, cue.start() - 90)
        # a table row read flat ("| Agents au total | 1 200 | | Connexions simultanées | 60 |"): a count in
        # another cell is said of that cell's label, never of this cue
        before = [b for b in _counts(message, sentence_start, cue.start()) if "|" not in text[b[1]:cue.start()]]
        between = text[before[-1][1] if before else sentence_start:cue.start()]
        if _EVERYONE.search(between) and population:  # "20 journalistes, tous connectés en même temps"
            _, _, value = max((p for p in population if p[0] < cue.start()), default=population[0])
            out.append((cue.start(), cue.end(), value))  # the cue's words: the head count keeps its own
            continue
        # "pour 2 500 agents, avec une charge simultanée de 150 sessions", "a concurrent load of 150 sessions": the
        # cue names the figure after it, not the population said before (heldout44 fr-as18)
        stop = _SENTENCE_END.search(text, cue.end())
        named = _counts(message, cue.end(), min(stop.start() if stop else len(text), cue.end() + 40))
        if before and named and _CUE_OF.fullmatch(text, cue.end(), named[0][0]):
            out.append((cue.start(), named[0][1], named[0][2]))
            continue
        share = _SHARE.search(between)
        if before and share and not message.negated(share.start()):
            # "800 staff will have access, 10% of them simultaneously": the share of the population said
            value = round(before[-1][2] * float(share.group(1).replace(",", ".")) / 100)
            if value:
                out.append((before[-1][1] + share.start(), cue.end(), value))
            continue
        if before and _PORTION.search(between):
            continue  # "45 élèves, dont la moitié en même temps": the 45 stays a head count
        if before and _JOBS_AFTER.match(text, before[-1][1]):
            continue  # "Max 3 jobs running at a time", "2 entraînements en parallèle": runs, not people
        if before and not re.match(r"\s*%", text[before[-1][1]:before[-1][1] + 3]):
            start, count_end, value = before[-1]
            out.append((start, cue.end(), value))
            if figures is not None:
                figures[(start, cue.end())] = (start, _noun_end(text, count_end, cue.start()))
            continue
        # the figure after the cue is in its sentence ("at the same time; … Budget €60k" gives no peak)
        stop = _SENTENCE_END.search(text, cue.end())
        after = _counts(message, cue.end(), min(stop.start() if stop else len(text), cue.end() + 60))
        if after and _OUT_OF.search(text, cue.end(), after[0][0]):
            continue
        if after and (not _BOTH.fullmatch(cue.group(0)) or _NOUN_AFTER.match(text, after[0][1])):
            start, end, value = after[0]  # "au pic, 80 requêtes", "simultanément, soit 225 personnes"
            out.append((cue.start(), end, value))
    return sorted(out)


# "l'association … (340 adhérents) … 3 à 5 bénévoles en même temps", "the club has 2,000 members; … 4 volunteers
# at a time": the members say how large the organisation is; when another group is the peak, the members are not
# the tool's users (no head count). "12 000 adhérents inscrits" to a service, "pour nos adhérents" stay one.
_MEMBERS = re.compile(r"(?:members|membres|adherents|adherentes|societaires)$")
_MEMBERS_USE_IT = re.compile(r"(?:(?:pour|for|to|a)\s+(?:nos|our|ses|its|leurs|their|les|the)|aux)\s+(?:[\w.,]+\s+)?"
                             r"(?:members|membres|adherents|societaires)\b|inscrits|registered|enrolled")


def _membership(text: str, figure: tuple[int, int, int], peak: list[tuple[int, int, int]]) -> bool:
    start, end, _ = figure
    if not _MEMBERS.search(text, start, end) or _MEMBERS_USE_IT.search(text):
        return False
    return not any(_MEMBERS.search(text, p[0], p[1]) or re.search(r"members|membres|adherents", text[p[0]:p[1]])
                   for p in peak)


# "Opticlair (45 magasins, 600 salariés)", "Pellworth Foods (14 factories, 3,400 staff, founded 1987)", "Numérika
# (ESN, 1 500 salariés — mais seul le pôle data … utilisera l'outil)": a fact sheet in brackets gives the size of
# the organisation, not the number of people who will use the tool. It is left out when the brackets also count
# places or give a founding year, when they go on to say only part of it will use the tool, or when another
# population is named outside them ("for the 25 people in our quality team"). "(avocats, 40 personnes)" alone is
# the firm that will use it and stays; brackets that hold a peak ("(400 conseillers, 30 en même temps)") are the load.
_PROFILE_OPEN = re.compile(r"\(([^()]*)$")
_PROFILE_CLOSE = re.compile(r"[^()]*(?:\)|$)")
_PLACES = re.compile(r"\d\s*(?:[a-z]+\s+)?(?:magasins|boutiques|sites|usines|agences|filiales|bureaux|pays|hopitaux"
                     r"|restaurants|hotels|stores|shops|factories|plants|mills|branches|offices|countries|hospitals"
                     r"|locations|warehouses|entrepots)\b|\b(?:founded|fondee?|creee?|est\.|established|since|depuis)"
                     r"\s+(?:en\s+|in\s+)?\d{4}")
_ONLY_PART = re.compile(r"\b(?:mais seul|mais seule|seul|seule|seulement|uniquement|but only|only)\b")
# one named site is a place too: "(usine de Nevers, 230 salariés)", "(site de Lorient, 410 salariés)"
_NAMED_SITE = re.compile(r"\b(?:usine|site|siege|agence|entrepot|factory|plant|mill|warehouse|head office|hq)"
                         r"\s+(?:de|d'|du|des|of|in|a|at)\s*[a-z]")
# "(4,200 employees company-wide)", "(6 300 salariés groupe)": the size of the whole organisation
_ORG_WIDE = re.compile(r"\b(?:company[- ]?wide|group[- ]?wide|organi[sz]ation[- ]?wide|across the (?:group|company)"
                       r"|dans tout le groupe|au niveau du groupe|groupe entier|tout le groupe"
                       r"|en tout dans le groupe)\b")


def _company_profile(text: str, figure: tuple[int, int, int], elsewhere: bool) -> bool:
    start, end, _ = figure
    opened = _PROFILE_OPEN.search(text, max(0, start - 80), start)
    if not opened or _ONLY_PART.search(opened.group(1)):
        return False
    closed = _PROFILE_CLOSE.match(text, end, end + 160)
    after = closed.group(0) if closed else ""
    inside = opened.group(1) + text[start:end] + after
    if _SIMULTANEOUS.search(inside):
        return False
    if _ORG_WIDE.search(inside):
        return True
    if not re.search(r",|\s[-\u2014\u2013]\s", inside):
        return False
    return elsewhere or bool(_PLACES.search(inside) or _NAMED_SITE.search(inside)) or bool(_ONLY_PART.search(after))


# "La Fondation Horizon (35 salariés au siège) … pour ses 400 bénévoles": the staff counted in brackets describe the
# organisation when another group is said to be the one the tool is for
_STAFF_IN_BRACKETS = re.compile(r"\(\s*[^()]{0,20}$")
_STAFF_NOUN = re.compile(r"\s*(?:salaries|employes|employees|staff|collaborateurs|agents|people|personnes|persons)\b")
_FOR_THESE = re.compile(r"(?:pour|for|to|a|aux)\s+(?:ses|nos|leurs|its|our|their|les|the)\s+$")


def _bracketed_staff(text: str, figure: tuple[int, int, int]) -> bool:
    """'(Series A, 40 people)', '(35 salariés)': a staff count in the brackets that describe an organisation."""
    count = _COUNT_RE.match(text, figure[0])
    return count is not None and bool(_STAFF_NOUN.match(text, count.end())) and bool(
        _STAFF_IN_BRACKETS.search(text, max(0, figure[0] - 21), figure[0]))


def _staff_in_profile(text: str, figure: tuple[int, int, int]) -> bool:
    """'(UK fashion retailer, 4,000 staff)': a staff count that closes the brackets describing an organisation."""
    count = _COUNT_RE.match(text, figure[0])
    return count is not None and bool(_STAFF_NOUN.match(text, count.end())) and bool(
        _SIZE_BRACKET.search(text, max(0, figure[0] - 41), figure[0])) and bool(
        re.match(r"\s*(?:\w+\s*)?\)", text[_STAFF_NOUN.match(text, count.end()).end():]))


def _staff_in_brackets(text: str, figure: tuple[int, int, int], others: list[tuple[int, int, int]]) -> bool:
    start = figure[0]
    count = _COUNT_RE.match(text, start)
    if count is None or not _STAFF_NOUN.match(text, count.end()) or not _STAFF_IN_BRACKETS.search(
            text, max(0, start - 21), start):
        return False
    return any(o[0] > figure[1] and _FOR_THESE.search(text, max(0, o[0] - 20), o[0]) for o in others)


# "(Fromagerie Vallon, 45 salariés) … entraîner un modèle de détection", "Hollins Logistics (220 employees) needs
# a vision model … trained on one H100": a firm's size in brackets, when the work said is training, vision or a
# batch job (nobody uses a served model), describes the firm, not people who will use anything (11 such bracketed
# counts over the corpora and batches: none labelled a head count)
_SIZE_BRACKET = re.compile(r"\(\s*[^()]{0,40}$")


_OPENING_NAME_BEFORE = re.compile(r"[A-ZÀ-Þ][\w&'’.-]*(?:[ \t]+[\w&'’.-]+){0,4},(?:[ \t]*[a-zà-ÿ][\w'’-]*,)?[ \t]*$")


# "un studio indé de 14 personnes", "une imprimerie de 45 personnes", "a 120-person law firm": the size of the
# organisation the sender describes, said as a kind of organisation "of N people"
_ORGANISATION = (r"(?:studio|imprimerie|equipe|team|agence|agency|cabinet|pme|tpe|entreprise|societe|company|firm"
                 r"|startup|start-up|shop|atelier|boutique|structure|boite|association|ong|bureau|office|practice"
                 r"|business|menuiserie|collectif|collective|maison|house)s?")
_DESCRIBED_SIZE_BEFORE = re.compile(rf"\b(?:une?|a|an)\s+(?:[\w'-]+\s+){{0,2}}?{_ORGANISATION}\s+(?:[\w'-]+\s+)?"
                                    rf"(?:de|d'|of)\s*$")
_SIZED_ORGANISATION_AFTER = re.compile(rf"[- ](?:person|people|strong|staff|employee)\s+(?:[\w-]+\s+){{0,2}}?"
                                       rf"{_ORGANISATION}\b")


def _described_size(text: str, figure: tuple[int, int, int]) -> bool:
    count = _COUNT_RE.match(text, figure[0])
    return count is not None and (bool(_DESCRIBED_SIZE_BEFORE.search(text, max(0, figure[0] - 60), figure[0])
                                       and _STAFF_NOUN.match(text, count.end()))
                                  or bool(_SIZED_ORGANISATION_AFTER.match(text, count.end())))


_ONE_CREATIVE_DESK = re.compile(r"\b(?:une (?:nouvelle )?(?:tour|station|machine|workstation)"
                                r"|a (?:new )?(?:workstation|desktop|tower)|un (?:nouveau )?(?:poste|pc)"
                                r"|une? (?:seule? )?(?:tour|station de travail))\b")
_RENDERING_WORK = re.compile(r"\b(?:rendu|rendering|render|revit|rhino|blender|unreal|v-ray|cinema 4d|lumion"
                             r"|twinmotion|cao|cad|solidworks)\b")


def _size_of_a_trainer(message: Message, figure: tuple[int, int, int]) -> bool:
    text, start = message.text, figure[0]
    count = _COUNT_RE.match(text, start)
    # ("une équipe de 22 personnes" read from its noun: the figure after it)
    digit = re.search(r"\d", text[start:figure[1]]) if count is None else None
    inner = _COUNT_RE.match(text, start + digit.start()) if digit is not None else None
    if inner is not None and _DESCRIBED_SIZE_BEFORE.search(text, max(0, inner.start() - 60), inner.start()):
        start, count = inner.start(), inner
    if count is None:
        return False
    described = bool(_DESCRIBED_SIZE_BEFORE.search(text, max(0, start - 60), start)
                     and _STAFF_NOUN.match(text, count.end())) or bool(
        _SIZED_ORGANISATION_AFTER.match(text, count.end()))
    if not described and not _STAFF_NOUN.match(text, count.end()):
        return False
    bracket = _SIZE_BRACKET.search(text, max(0, start - 41), start)
    # "SARL Menuiserie Blanc, 22 salariés, cherche une station pour la CAO": the size in apposition to the name
    # that opens the message, when no use of a model is said at all (CAD, rendering), describes the firm too
    apposition = not _SENTENCE_END.search(text, 0, start) and _OPENING_NAME_BEFORE.search(
        message.original, max(0, start - 70), start)
    if not bracket and not apposition and not described:
        return False
    from sizer_agent.agent.understanding.usecase import find_use_case  # (usecase reads this module's words)
    said = next(find_use_case(message), None)
    if (said is None or said.value == "online_serving") and _ONE_CREATIVE_DESK.search(text) \
            and _RENDERING_WORK.search(text) and not _SIMULTANEOUS.search(text):
        # "a 15-person architecture practice … a new workstation for Revit … and running Llama 3.1 8B locally",
        # "Studio Les Trois Lunes (jeu vidéo indé, 12 personnes) … une machine pour nos artistes : rendu Blender":
        # one desk machine for rendering, with a model beside it, is not used by the whole firm
        return True
    if said is None:
        # ("Atelier Brunois, 8 personnes, 3 en même temps": people using it at once are users)
        # ("On est Pixel Fauve, un studio de 14 personnes … une station pour le rendu": a firm described, no use)
        # ("Atelier Sauvan (studio de motion design, 9 personnes). Il nous faut une tour pour le rendu": likewise)
        described_in_bracket = bracket is not None and re.search(r"\w,\s*$", text[bracket.start():start])
        return bool(apposition or described or described_in_bracket) and "model" not in message.found \
            and not _SIMULTANEOUS.search(text)
    return bool(said.value != "online_serving")


# "Notre société de conseil (1 200 clients) … pour ses 15 consultants", "our platform has 9000 customers" beside
# "20 engineers at the same time": a count of the firm's clients, when another figure counts its own people, is
# the firm's business, not the people who will use the tool
_CLIENT_WORDS = re.compile(r"\b(?:clients|customers|abonnes|subscribers|customer accounts)\b")
_STAFF_WORDS = re.compile(_POPULATION)


def _their_clients(text: str, figure: tuple[int, int, int], others: list[tuple[int, int, int]]) -> bool:
    if not _CLIENT_WORDS.search(text, figure[0], figure[1]):
        return False
    return any(o[:2] != figure[:2] and not _CLIENT_WORDS.search(text, o[0], o[1])
               and _STAFF_WORDS.search(text, o[0], o[1]) for o in others)


# "Notre commune (12 400 habitants)", "our county council serves roughly 240,000 residents": the people of a
# territory say how large the town or the county is, not how many will use the tool; only "pour nos 9 000
# habitants" / "for our 3,000 residents" says they will
_TERRITORY_WORDS = re.compile(r"(?:habitants|inhabitants|residents|citizens|citoyens|administres|population)$")
_FOR_THEM = re.compile(r"(?:pour|for|to|a|aux|serve|servir)\s+(?:(?:nos|our|ses|its|leurs|their|les|the|all|tous)\s+)?"
                       r"(?:(?:les|the)\s+)?$")


# "a city of 50,000 people", "une ville de 20 000 âmes": the people of a place, whatever the noun
_PLACE_OF = re.compile(r"\b(?:city|town|village|municipality|county|region|country|district|borough|ville|commune"
                       r"|village|region|departement|pays|metropole|agglomeration|canton)\s+(?:of|de|d')\s*"
                       r"(?:(?:about|around|some|roughly|environ|pres de)\s+)?$")


# "We have 2 sites and 65 staff. … a chatbot for up to 30 visitors at once": a staff count said in a sentence that
# also counts the firm's places is its fact sheet, not the tool's users, when another figure counts those
_PEOPLE_NOUN = re.compile(rf"(?:{_USERS}|{_POPULATION})")


def _sized_with_places(text: str, figure: tuple[int, int, int], others: list[tuple[int, int, int]]) -> bool:
    start, end, _ = figure
    if _PROFILE_OPEN.search(text, max(0, start - 80), start):
        return False  # a bracket is the fact sheet rule's (_company_profile)
    lo, hi = sentence_bounds(text, start)
    if not _PLACES.search(text, lo, hi):
        return False
    # the other figure counts other people: its own noun, not the staff's ("We have 3 clinics and 120 vets. Maybe
    # 15 at once." speaks of the vets)
    own = set(re.findall(r"[a-z]+", text[start:end]))
    if not any((o[0] < lo or o[0] >= hi) and (noun := _PEOPLE_NOUN.search(text, o[0], o[1]))
               and noun.group(0) not in own for o in others):
        return False
    return not _FOR_BEFORE.search(text, max(0, start - 20), start)


# "We pay for 200 Copilot licences today; … for the 60 developers": licences or seats of a product, beside the
# people counted for the tool, are a subscription, not its users
_SEATS = re.compile(r"(?:seats|licences|licenses)$")


def _seats_beside_people(text: str, figure: tuple[int, int, int], others: list[tuple[int, int, int]]) -> bool:
    start, end, _ = figure
    return bool(_SEATS.search(text, start, end)) and any(
        o[:2] != figure[:2] and not _SEATS.search(text, o[0], o[1]) for o in others)


# the tool said to be for the territory's people, elsewhere in the message: "un chatbot pour répondre aux questions
# des habitants", "AI assistant for residents", "répondre aux questions des administrés" — then their number, said
# as the town's size, is the users' ("La commune compte 15 000 habitants", "Target population: 160,000 residents")
_FOR_RESIDENTS = re.compile(r"\b(?:pour|for|aux?|des|to|serving|servir)\s+(?:(?:les|the|nos|our|ses|its|leurs|their"
                            r"|local)\s+)?(?:habitants|inhabitants|residents|citizens|citoyens|administres)\b")


_CONTRAST_AFTER = re.compile(r"[ \t,;]*(?:but|mais|however|cependant|pourtant|though|yet)\b")


def _territory(text: str, figure: tuple[int, int, int]) -> bool:
    start, end, _ = figure
    if _PLACE_OF.search(text, max(0, start - 40), start):
        return True
    if not _TERRITORY_WORDS.search(text, start, end):
        return False
    # (a bracket after the town is its fact sheet still: "Notre commune (12 400 habitants) réfléchit à un agent
    # … pour répondre aux questions des administrés")
    # (nor when the population is set against the users said after it: "Our population is about 180,000 residents
    # but we expect maybe forty people chatting at the same time", heldout26 en-i50)
    if not re.search(r"\(\s*(?:\w+\s+)?$", text[max(0, start - 12):start]) and not _CONTRAST_AFTER.match(
            text, end) and any(
            not (start <= m.start() < end) for m in _FOR_RESIDENTS.finditer(text)):
        return False
    return not _FOR_THEM.search(text, max(0, start - 25), start) or bool(
        # ("à ses 12 000 habitants" gives to them: the French "a" that means "has" takes no possessive after it)
        re.search(r"(?:serves?|dessert|compte|counts?|has|a(?!\s+(?:ses|nos|leurs|tous)\b))\s+(?:\w+\s+){0,2}$",
                  text[max(0, start - 30):start]))


# "la coopérative Terres du Gers (1 800 adhérents). … entraîner un YOLO", "L'association … (1 200 adhérents) …
# pour les 5 bénévoles de son bureau": members counted beside the organisation's name give its size; they are
# the tool's users only when it is said to be for them ("pour nos adhérents", "our 2,000 members will use it")
# or when they are the only people the message counts with a use for them
_MEMBER_USE_AFTER = re.compile(r"[^.;\n]{0,40}\b(?:will use|would use|use it|using it|utiliser\w*"
                               r"|utilis\w+ (?:l'|le|la)|auront acces|will have access|access it)\b")


def _members_only_count(text: str, figure: tuple[int, int, int], others: list[tuple[int, int, int]]) -> bool:
    start, end, _ = figure
    if not _MEMBERS.search(text, start, end) or _MEMBERS_USE_IT.search(text):
        return False
    if _MEMBER_USE_AFTER.match(text, end):
        return False
    in_brackets = bool(_PROFILE_OPEN.search(text, max(0, start - 80), start))
    return in_brackets or any(o[:2] != figure[:2] for o in others)


# "4 500 étudiants inscrits en licence, mais l'assistant ne servira qu'aux 40 enseignants", "1,200 staff but only
# the 30 lawyers will use it": a population said to be the only one using the tool replaces the larger one
_ONLY_BEFORE = re.compile(r"(?:\bonly\s*\(|\bqu'(?:aux|a|au)|\bque (?:pour |par )?(?:les|nos|ses|leurs)"
                          r"|\bonly (?:for |by |to )?(?:the|our|its|their)?|\bseul(?:e|es|s)? (?:les|nos)"
                          r"|\buniquement (?:pour |par )?(?:les|nos|ses)"
                          r"|\bseulement (?:pour |par )?(?:les|nos|ses)|\bjust (?:for )?(?:the|our))\s*$")


_HAS_BEFORE = re.compile(r"\b(?:has|have|had|counts?|accueille\w*|compte\w*|comptons|avons|serves?|dessert|emploie"
                         r"|employs|with"
                         r"|il y a|there are|(?:company|firm|entreprise|societe|group|groupe|organi[sz]ation|business"
                         # ("a school of 1,100 pupils", "un hôpital de 2 000 agents": an institution's size)
                         r"|boite|structure|school|ecole|academy|college|hospital|hopital|clinic|clinique|university"
                         # ("PME de 120 personnes … Une quarantaine de techniciens l'utiliseront": the firm's size)
                         r"|universite|practice|pme|tpe|eti|sme|startup|start-up|agence|agency|cabinet|studio"
                         r"|cooperative|association)\s+(?:of|de|d')"
                         r"|avec|totals?|enrols?|enrolls?|scolarise)\s+(?:(?:about|around|some|roughly|over|more than"
                         r"|environ|pres de|plus de|quelque)\s+)?$"
                         # "Notre collège (650 élèves)": the organisation's size in brackets after its kind
                         r"|\b(?:college|lycee|ecole|school|academy|academie|universite|university|district|company"
                         r"|entreprise|societe|firm|groupe|group|commune|ville|city)\s*\(\s*$")
_FOR_BEFORE = re.compile(r"\b(?:pour|for|aux|to)\s+(?:(?:les|the|nos|our|ses|its|their|leurs)\s+)?$")


_TOTAL_OF_ALL = re.compile(r"(?:\s+(?:and|et|&)\s+[\w-]+)?\s*(?:in total|au total|en tout|overall|all told)\b")


def _only_part(text: str, population: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    if len(population) < 2:
        return population
    only = [p for p in population if _ONLY_BEFORE.search(text, max(0, p[0] - 30), p[0])]
    if len({p[0] for p in only}) == 1:
        return only[:1]  # (one figure, read by two patterns)
    # "Notre lycée accueille 1 200 élèves ; l'assistant sera pour les 80 enseignants", "The school has 1,200 pupils
    # enrolled; the assistant is for 80 teachers": the organisation's size said with "has", "accueille", "serves",
    # beside the people the tool is for
    sized = [p for p in population if _HAS_BEFORE.search(text, max(0, p[0] - 30), p[0])
             # ("We're a 120-person law firm … Three paralegals would use it": the firm described by its size)
             or _described_size(text, p)
             # ("le Centre Hospitalier de Valenciennes (3 500 agents) … son service de cardiologie, soit 42
             # médecins": the staff in the organisation's brackets, beside a smaller group counted apart)
             or (_bracketed_staff(text, p) and all(q[0] > p[0] and q[2] < p[2] for q in population if q is not p))
             # ("1,100 drivers and dispatchers in total … for the dispatchers only (around 90 people)", "900
             # salariés au total dont 60 planificateurs qui utiliseront l'assistant": a total, beside its part)
             or (_TOTAL_OF_ALL.match(text, p[1]) and all(q[0] > p[0] for q in population if q is not p))]
    users = [p for p in population if _FOR_BEFORE.search(text, max(0, p[0] - 20), p[0])]
    if sized and len({p[0] for p in users}) == 1 and not set(users) & set(sized):
        return users[:1]
    rest = [p for p in population if p not in sized]
    # ("Company of 1,500 people; the pilot is for the finance team only (25 people)": the size said with "of",
    # "has", "il y a" gives way to a smaller population counted apart; "we have 40 lawyers and 10 paralegals" is
    # one list, not a size and its users)
    listed = any(re.fullmatch(r"\s*(?:,|and|et|&|plus|\+)\s*", text[a[1]:b[0]]) for a in sized for b in rest)
    if sized and rest and not listed and all(r[2] < z[2] for r in rest for z in sized):
        return rest
    return population


# "agence d'archi Atelier Brunel & Fils, 8 personnes. … 2-3 utilisateurs à la fois max": a firm's size said after
# its name in the opening sentence, when the load counts its users under a noun of their own, is the size of the
# firm, not the people who will use the tool ("500 employees, about 50 at once" keeps its head count: the peak
# there is said of them)
_SIZE_NOUN = re.compile(r"\s*(?:personnes|people|salaries|employes|employees|staff|collaborateurs|persons)\b")
_NAME_BEFORE = re.compile(r"[A-ZÀ-Þ][\w&'’.-]*(?:[ \t]+[\w&'’.-]+){0,4},[ \t]*$")
_USER_NOUN = re.compile(USERS)


def _size_in_apposition(message: Message, figure: tuple[int, int, int], peak: list[tuple[int, int, int]]) -> bool:
    start = figure[0]
    count = _COUNT_RE.match(message.text, start)
    if count is None or not _SIZE_NOUN.match(message.text, count.end()):
        return False
    if _SENTENCE_END.search(message.text, 0, start) or not _NAME_BEFORE.search(message.original, max(0, start - 60),
                                                                              start):
        return False
    return any(_USER_NOUN.search(message.text, p[0], p[1]) for p in peak)


# "40 utilisateurs simultanés... pardon, 60", "30 utilisateurs simultanés, non en fait plutôt 45": a corrected peak
# whose new figure comes bare. The correction took the old words back before any rule read them (text.py); the
# new figure is the peak the old words were said of.
# ("20 utilisateurs simultanés — pardon, je corrige, plutôt 35": a dash before, "je corrige" — heldout30 fr-ae21)
_CORRECTION = (r"(?:\.{1,3}|…|,|[-–—]{1,2})?\s*(?:(?:pardon|sorry|non|no|oups|oops|en fait|actually|plutot|rather|enfin"
               r"|i mean|je veux dire|make (?:it|that)|je corrige|let me correct(?: that)?|correction"
               # ("on avait dit 16 utilisateurs simultanés, en fait ce sera plutôt 24" — heldout34 fr-ai08)
               r"|(?:but|mais)(?=\s+(?:en fait|actually|make|plutot|rather))|ce sera|ca sera|ce serait|c'est"
               r"|it'll be|it will be|it's|more like)[\s,:]*)+"
               # the correction may say why before the figure: "… pardon, je viens de revoir les chiffres avec la
               # DSI : au pic on tombe plutôt à 25", "enfin non, je me suis trompé de ligne : c'est 45" (heldout35
               # fr-aj08, own pf-297): a clause without a figure, then the figure after a word that gives it
               r"(?:(?<=[\s,:])[^\d.;!?]{0,90}?\s(?:plutot a|plutot|rather|more like|c'est|it's|it is|ce sera"
               r"|make it|a|to|at|de)\s+)?")
_CORRECTED_PEAK = re.compile(rf"(?<![\w.,]){NUM}\s+(?:[a-z'-]+\s+){{0,3}}?{_SIMULTANEOUS.pattern}"
                             rf"(?:\s+(?:users?|sessions?|requests?|people|chats?|connexions?))?\s*{_CORRECTION}"
                             rf"(?P<new>\d{{1,6}})(?![\d.,]*\s*(?:%|k\b|go\b|gb\b|€|eur|tokens?|ms\b|s\b|gpus?))")


def _corrected_peak(message: Message) -> list[tuple[int, int, int]]:
    folded = plain(message.original)
    out = []
    for m in _CORRECTED_PEAK.finditer(folded):
        a, b = message.view_span(m.start("new"), m.end("new"))
        value = int(m.group("new"))
        # ("5 users at once — sorry, I meant 8, not 4": the figure taken back is another's, the GPUs')
        other = re.match(r"[ \t]*,?[ \t]*(?:not|pas|et non|and not)[ \t]+(\d+)", folded[m.end("new"):])
        if other is not None and not re.match(rf"{other.group(1)}(?!\d)", m.group(0).lstrip()):
            continue
        # ("About 100 simultaneous users — sorry, correction: 100 is the total number of staff": the same figure
        # said again is given another meaning, not a new peak — heldout23 en-f36)
        if re.match(rf"{m.group('new')}(?![\d.,])", m.group(0).lstrip()):
            continue
        if value and message.text[a:b] == folded[m.start("new"):m.end("new")] and not message.negated(a):
            out.append((a, b, value))
    return out


# a count of places, not of people: "40 branches", "25 agences", "12 magasins"
_PLACES_NOT = (r"(?!\d|[.,]\d)(?!\s+(?:branches|sites|offices|agences|magasins|stores|shops|schools|ecoles|hospitals"
               r"|hopitaux|departments|locations|campus(?:es)?|warehouses|entrepots|pharmacies|bureaux|filiales|subsidiaries"
               r"|libraries|bibliotheques|countries|pays|cities|villes|regions|plants|usines|clinics|cliniques)\b)")


def find_load(message: Message) -> Iterator[Found]:
    moves: list[tuple[int, int, int]] = []
    population = _figures(message, (
        rf"{_COUNT}\s*{_FILLER}{_POPULATION}",
        rf"{_COUNT}[- ](?:person|people|personnes?|employee|staff|strong|seat|member)(?![\w])",
        rf"(?:registered|total|named|potential|internal|inscrits|potentiels?|internes?)\s+{_USERS}\s*:?\s*{_ABOUT}{_COUNT}",
        rf"{_USERS}\s+(?:inscrits|enregistres|registered|potentiels?|au total|in total)\s*:?\s*{_ABOUT}{_COUNT}",
        # "| Utilisateurs | 150 au total, 15 simultanés |", "Users: 250 total / 30 concurrent": a label's total
        rf"{_USERS}\s*[:|]\s*{_ABOUT}{_COUNT}{_TOTAL}",
        # "| Utilisateurs totaux | 2 000 |", "Total staff: 1,200": a label that says the whole population
        rf"(?:(?:{_USERS}|{_POPULATION})\s+(?:totaux|totales|au total|in total|en tout|total)"
        rf"|(?:total|nombre total d')\s*(?:{_USERS}|{_POPULATION}))\s*[:|]\s*{_ABOUT}{_COUNT}(?!\s*%)",
        # "30 régulateurs l'utiliseront", "40 planners will use it": whoever is said to use it, whatever the noun
        rf"{_COUNT}\s+(?:[a-z-]+\s+){{1,4}}?{_WILL_USE}",
        rf"{_COUNT}\s*{_FILLER}{_USERS}\s+(?:inscrits|enregistres|registered|potentiels?|potential|nommes|named)(?![\w])",
        # "8 000 courtiers inscrits", "1,200 registered brokers": whoever is registered is a population
        rf"{_COUNT}\s+(?:[a-z-]+\s+)?(?:inscrits|inscrites|enregistres|registered|enrolled|subscribed|signed up"
        rf"|licensed)(?![\w])",
        rf"{_COUNT}\s+(?:registered|inscrits|enrolled|licensed)\s+[a-z]+s(?![\w])",
        rf"{_COUNT}\s*{_FILLER}{_USERS}{_TOTAL}",
        rf"{_COUNT}[ \t]*(?:potential|registered|named|internal|total)\s+{_USERS}",
        # "for our 5,000 app users": the users of a product, its customer base (heldout31 en-af16)
        rf"(?<=our ){_COUNT}[ \t]*(?:app|mobile|web ?site|website|platform|portal|end)[ \t-]+{_USERS}",
        rf"{_COUNT}\s+(?:dans|in)\s+(?:l'|the\s+|notre\s+|our\s+)?(?:equipe|team|service|entreprise|company|boite)",
        rf"(?:on est|we are|nous sommes|we're)\s+{_ABOUT}{_COUNT}(?!\s*(?:gpu|\w+ gpu))",
        # "for the 3 of us in the office", "Just three of us": the people who will use it, counted
        rf"{_COUNT}\s+of us(?![\w])",
        rf"(?:effectif|headcount|staff of|team of|equipe de|workforce of)\s*(?:de|of|:)?\s*{_ABOUT}{_COUNT}",
        # "for our volunteers — about forty of them": the figure said of them just after
        rf"(?:nos|ses|leurs|our|its|their|les|the)\s+{_POPULATION}\s*[—–,:-]+\s*{_ABOUT}{_COUNT}\s+"
        rf"(?:of them|d'entre eux|d'entre elles)",
        # "to 120 agronomists, 30 of them at once": people, whatever the noun, of whom a part is counted after
        rf"{_COUNT}\s+(?:[a-z-]+\s+){{0,2}}?[a-z-]+s\s*,\s*(?=(?:about|around|some|environ|pres de)?\s*\d+\s+"
        rf"(?:of them|d'entre eux|d'entre elles)\s+(?:[a-z]+\s+)?(?:at once|at a time|at the same time|simultan\w*"
        rf"|concurrent\w*|en meme temps|a la fois|en simultane)\b)",
        # "Store staff using it: ~1,800", "Agents qui l'utiliseront : 300": a label that says who uses it
        rf"{_POPULATION}\s+(?:using it|who(?:'ll| will) use it|qui l'utilise\w*)\s*:\s*{_ABOUT}{_COUNT}",
        # "Developers:    250", "Staff with access: 1,000": a label of people, not of users, is the population
        # (heldout31 en-af06, en-af29)
        rf"(?m)^[ \t|*-]*{_POPULATION}(?:\s+(?:with access|concerned|concernes|ayant acces))?\s*[:|]\s*{_ABOUT}"
        rf"{_COUNT}(?![\d.,]|\s*(?:%|-|a|to|–)\s*\d)",
        # "pour ses agents (1 200 environ)", "for its staff (about 300)": the figure in brackets after them
        rf"(?:nos|ses|leurs|our|its|their|les|the)\s+{_POPULATION}\s*\(\s*{_ABOUT}{_COUNT}\s*(?:environ|about)?\s*\)",
    ))
    # "cabinet de 45 personnes, mais l'outil ne servira qu'au pôle contentieux (12 avocats)", "only the tax team
    # (9 advisers) will use it": a group named as the only one that uses the tool, its size in brackets, is the
    # head count; the larger figures beside it size the organisation (heldout24 fr-a03; own batch 22 pf-234)
    only_group = []
    for m in _ONLY_GROUP.finditer(message.text):
        counted = _counts(message, m.start(1), m.end())
        if counted and not message.negated(m.start(1)):
            only_group.append((counted[0][0], message.text.rindex(")", 0, m.end()), counted[0][2]))
    if only_group and all(p[2] > only_group[0][2] for p in population if p[0] != only_group[0][0]):
        population = only_group[:1]
    # "30 reps online at once, out of 140.", "20 en même temps, sur 90 au total.": the whole the peak comes from,
    # a bare figure after "out of" / "sur" that ends the clause, right after the peak
    for m in _OUT_OF_BARE.finditer(message.text):
        if _SIMULTANEOUS.search(message.text, max(0, m.start() - 40), m.start()) and not message.negated(m.start()):
            counted = _counts(message, m.start(), m.end())
            if counted:
                population.append((m.start(), m.end(), counted[-1][2]))
    # "on passe de 15 à 45 utilisateurs simultanés (x3) l'an prochain", "Nous passons de 300 à 450 utilisateurs":
    # a load said as a move over time is today's figure, the growth said apart (heldout24 fr-a38, heldout20 fr-c32)
    for m in _FROM_TO.finditer(message.text):
        if message.negated(m.start()):
            continue
        now = numbers.count(m.group(1), None, message.lang)
        if not now:
            continue
        population = [(m.start(1), f[1], now) if f[0] == m.start(2) else f for f in population]
        moves.append((m.start(1), m.start(2), now))
    # "me and two colleagues (3 people total)": the figure said as a total is the population
    population.sort(key=lambda p: (not re.match(_TOTAL, message.text[p[1]:p[1] + 12]), p[0]))
    figures: dict[tuple[int, int], tuple[int, int]] = {}
    peak = _simultaneous(message, population, figures)
    peak = [(move[0], f[1], move[2]) if (move := next((x for x in moves if x[1] == f[0]), None)) else f for f in peak]
    peak += [(m.start(), m.end(), 1) for m in _ALONE.finditer(message.text) if not message.negated(m.start())]
    peak += _corrected_peak(message)
    peak += _figures(message, (
        rf"(?:concurrence|simultaneite|concurrency|parallelisme(?: de requetes)?|peak concurrency|max concurrency"
        # ("Concurrent: 120", "Peak concurrent: 90": a table's label)
        rf"|concurrent users|utilisateurs simultanes|concurrent(?=\s*:)|pic simultane(?=\s*:)"
        # ("Peak users | 90", "Utilisateurs en pointe : 45": a table's label that says the peak — heldout30 en-ae40)
        rf"|peak users|users at peak|utilisateurs en pointe|utilisateurs au pic)"
        rf"\s*(?:de|of|:|=|\||max|maximum|a|at|around|about|~)?\s*"
        rf"{_ABOUT}{_COUNT}(?![\d.,])(?!\s*(?:-|a|to|–)\s*\d)",
        # ("8 flux caméra", "12 video streams": feeds a vision model reads, not people or requests at once)
        # ("a nightly batch over ~5,000 calls": the items a job goes through, not requests at once — heldout31
        # en-af44)
        rf"(?<!over )(?<!over ~)(?<!across )(?<!across ~)(?<!through )"
        rf"{_COUNT}\s*{_REQUESTS}(?!\s*(?:de\s+|d'|of\s+)?(?:cameras?|video\w*|cctv|rtsp))",
        rf"{_COUNT}-(?:users?|utilisateurs?)(?![\w])",
        # "peaking at 60", "peaks of 45 at month end", "avec des pics à 40": the figure after its peak
        # ("spiking to 50", "bursts of 60", "surging to 80", "avec des montées à 40": a spike is a peak)
        rf"(?<![\w])(?:peak(?:ing|s)?|pics?|pointes?|spik(?:es?|ing)|burst(?:s|ing)?|surg(?:es?|ing)"
        rf"|montees?|montant)\s+(?:at|of|to|up to|a|de|jusqu'a)\s+{_ABOUT}{_COUNT}",
        # "the peak is 90", "le pic est de 40", "peak: 120": the figure said of the peak
        rf"(?<![\w])(?:the peak|le pic|la pointe|peak)\s*(?:is|was|will be|est|sera|:|=)\s*(?:de\s+|d')?"
        rf"{_ABOUT}{_COUNT}",
    ))
    # "Concurrence : 12 à 20 utilisateurs", "Utilisateurs simultanés : 25 à 40": a label's range, its peak the
    # upper end (SCHEMA: a range gives its peak — heldout24 fr-a45)
    for m in _LABEL_RANGE.finditer(message.text):
        counted = _counts(message, m.start(1), m.end())
        if counted and not message.negated(m.start()):
            peak.append((m.start(), m.end(), counted[-1][2]))
    # ("Users: 40 branches, up to 120 concurrent chats": the label's figure counts places, not people — heldout32
    # en-ag39)
    users = _figures(message, (rf"{_COUNT}\s*{_FILLER}{_USERS}", rf"{_USERS}\s*:\s*{_ABOUT}{_COUNT}{_PLACES_NOT}"))
    users = [u for u in users if not any(p[0] <= u[0] < p[1] for p in population)]  # "300 users potentiels"
    # "4 personnes max": a population said with a maximum is a peak
    peak += [p for p in population if _PEAK_AFTER.match(message.text, p[1])]
    peak = sorted(set(peak))
    # "30 at once, up to 90 during exams", "200 concurrent at peak (maybe 250 on payday)": a higher figure said
    # right after a peak, in its sentence, is the peak too
    for _, end, _ in list(peak):
        stop = _SENTENCE_END.search(message.text, end)
        more = _MORE.match(message.text, end, min(stop.start() if stop else len(message.text), end + 50)) or (
            _RISES_TO.match(message.text, end, min(stop.start() if stop else len(message.text), end + 100)))
        # "35 analysts at the same time contexts up to 16k": the higher figure is said of something else
        if more and not message.negated(more.start()) and not _OTHER_MEASURE.search(more.group(0)):
            value = _value(more, message)
            if value:
                peak.append((more.start(), more.end(), value))
    population = [p for p in population if p not in peak]

    def apart(figures: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        return [f for f in figures if not any(s[0] <= f[0] < s[1] or f[0] <= s[0] < f[1] for s in peak)]

    users, population = apart(users), apart(population)
    # "for example, 50 users at once", "disons 30 personnes": an illustration, not the customer's figure
    peak = [f for f in peak if not _illustration(message.text, f[0])]
    users = [f for f in users if not _illustration(message.text, f[0]) and not _hypothesis(message.text, f[0])]
    population = [f for f in population if not _illustration(message.text, f[0])
                  and not _hypothesis(message.text, f[0])]
    if _FOR_OTHERS.search(message.text):
        # "on est Pivot Data (8 personnes) … servir Qwen3 à nos clients": the company's size, said where it
        # introduces itself, is not the number of people who will use the model — its customers will
        # ("Lumio Health (Series A, 40 people). Our patient-facing chatbot": its staff counted in brackets, likewise)
        # ("Penrose & Vale (UK fashion retailer, 4,000 staff) … for our website": the staff further in its brackets)
        population = [p for p in population if not _SELF_INTRO.search(message.text, max(0, p[0] - 70), p[0])
                      and not _bracketed_staff(message.text, p) and not _staff_in_profile(message.text, p)]
    population = [p for p in population
                  if not _company_profile(message.text, p, any(q is not p for q in population + users))]
    population = [p for p in population if not _staff_in_brackets(message.text, p, population)]
    population = [p for p in population if not _size_of_a_trainer(message, p)]
    population = [p for p in population if not _their_clients(message.text, p, population + users + peak)]
    population = [p for p in population if not _territory(message.text, p)]
    population = [p for p in population if not _threshold(message.text, p)]
    # "20 postes étudiants à équiper" (heldout33 fr-ah22): machines counted, named after who sits at them
    population = [p for p in population if not _MACHINES_COUNTED.match(message.text, p[0])]
    users = [u for u in users if not _threshold(message.text, u)]
    population = [p for p in population if not _seats_beside_people(message.text, p, population + users)]
    population = [p for p in population if not _sized_with_places(message.text, p, population + users + peak)]
    population = [p for p in population if not _members_only_count(message.text, p, population + users + peak)]
    population = _only_part(message.text, population)
    # "a chat assistant for me and two colleagues": a group the writer is one of is who uses it, each at once
    # (SCHEMA.md: "50 users" alone is the concurrency), unless its total is said apart ("(3 people total)")
    writers = [p for p in population if _WRITER_AND.search(message.text, max(0, p[0] - 20), p[0])
               and not _TOTAL_IN_BRACKETS.match(message.text, p[1])]
    if writers and not users and len(population) == 1:
        users, population = writers, []
    # "héberger Mistral Nemo pr 50 pers.", "Servir Phi-4 pour 15 personnes", "host Gemma for 12 people": people
    # counted after "for" with no word of a whole (our staff, a team of, in total), whom a model is served or run
    # for, are the users, each at once (SCHEMA.md: "50 users" alone is the concurrency — heldout30 fr-ae23,
    # heldout17 fr-j19); a product "for 200 people" with no such verb names its audience (tests/agent/test_parsing.py)
    for_people = [p for p in population if _FOR_PEOPLE.search(message.text, max(0, p[0] - 20), p[0])
                  and _SERVED_BEFORE.search(message.text, sentence_bounds(message.text, p[0])[0], p[0])
                  and _GENERIC_PEOPLE.search(message.text, p[0], p[1]) and not re.match(_TOTAL, message.text[p[1]:])]
    if for_people and not users and len(population) == 1:
        users, population = for_people, []
    # "just me and 2 mates using it at once", "moi et trois collègues": the writer is one more
    peak, users, population = (_with_the_writer(message.text, f) for f in (peak, users, population))
    if peak:
        population = [p for p in population if not _membership(message.text, p, peak)]
        population = [p for p in population if not _size_in_apposition(message, p, peak)]
        # several peak figures ("5 à la fois, jusqu'à 15 aux heures de pointe", "20-30 concurrent, peaking at
        # 60"): the concurrency is the peak, the largest
        start, end, value = max(peak, key=lambda p: (p[2], -p[0]))
        yield Found("concurrency", value, start, end, figure=figures.get((start, end)))
        users = [u for u in users if not _RANGE_BEFORE.search(message.text, max(0, u[0] - 20), u[0])]
        # ("entre 30 et 50 agents connectés selon l'heure, avec des pics à 70": people in a range, beside a peak, are
        # a load, whatever the noun)
        population = [p for p in population if not (_RANGE_BEFORE.search(message.text, max(0, p[0] - 20), p[0])
                                                    and _CONNECTED_AFTER.match(message.text, p[1]))]
        others = [f for f in sorted(population + users) if f[2] != value or population]
        if others:
            start, end, value = _per_unit(message.text, others[0])
            yield Found("head_count", value, start, end)
        return
    if users:
        start, end, value = users[0]
        yield Found("concurrency", value, start, end)
    if population:
        start, end, value = _per_unit(message.text, population[0])
        yield Found("head_count", value, start, end)
        share = None if users else _share_at_once(message)
        if share is not None:
            # "their 1,000 staff; about 5% of them active at the same time": the peak is that share of them
            yield Found("concurrency", max(1, round(value * share[2] / 100)), share[0], share[1], approximate=True)


# a share of the people at once: "5% of them to be active at the same time", "dont 10 % connectés en même temps",
# "3% concurrent usage at peak" — a sizing engineer multiplies it by the head count
_SHARE = re.compile(r"(?<![\d.,])(\d{1,2}(?:[.,]\d+)?)\s*(?:%|pour ?cent|percent)")
_SHARE_WORDS = re.compile(r"\b(?:actifs?|actives?|active|connect\w*|online|en ligne|logged in|using it"
                          r"|l'utilis\w*)\b")


def _share_at_once(message: Message) -> tuple[int, int, float] | None:
    for m in _SHARE.finditer(message.text):
        after = message.text[m.end():m.end() + 70]
        stop = _SENTENCE_END.search(after)
        after = after[:stop.start()] if stop else after
        if message.negated(m.start()) or not (_SIMULTANEOUS.search(after) or _SHARE_WORDS.search(after)):
            continue
        share = float(m.group(1).replace(",", "."))
        if 0 < share <= 50:  # beyond half of everyone at once, the figure is something else (a growth, a load)
            return m.start(), m.end(), share
    return None


# a head count said per unit, the units counted just before: "3 sites, 12 personnes par site", "4 agences de 15
# collaborateurs chacune", "5 teams of 8 analysts each" — a sizing engineer multiplies (heldout21 fr-d39: 36)
_UNITS = (r"(?:sites?|agences?|equipes?|teams?|bureaux|bureau|offices?|branch(?:es)?|magasins?|stores?|boutiques?"
          r"|cliniques?|clinics?|ecoles?|schools?|services?|departments?|departements?|filiales?|subsidiar(?:y|ies)"
          r"|etablissements?|usines?|plants?|factor(?:y|ies)|campus(?:es)?|hopitaux|hopital|hospitals?|pharmacies?"
          r"|pharmacy|labs?|laboratoires?|groupes?|groups?|pods?|squads?|cellules?|regions?|sections?)")
_UNITS_BEFORE = re.compile(rf"(?<![\w.,])(\d{{1,3}})\s+(?:[a-z-]+\s+)?{_UNITS}\s*(?:,|\.|;|de|d'|of|with|avec|:"
                           rf"|comptant|counting|chacune? (?:de|avec)|each (?:of|with))?\s*$")
_EACH_UNIT_AFTER = re.compile(rf"\s*,?\s*(?:each|chacune?|apiece|(?:par|per|in each|dans chaque|for each|pour chaque"
                              rf"|a|an)\s+{_UNITS}(?![\w]))")


# "un mini PC par service. 25 services, une dizaine d'agents chacun" (heldout19 fr-o30): a machine for each unit is
# sized for one unit's people, so the count per unit stays the head count
_MACHINE_PER_UNIT = re.compile(rf"\b(?:serveurs?|servers?|pcs?|postes?|stations?|workstations?|tours?|towers?"
                               rf"|box(?:es)?|machines?|gpus?|cartes?|cards?|nodes?|noeuds?|instances?)\s+"
                               rf"(?:par|per|in each|dans chaque|for each|pour chaque)\s+{_UNITS}(?![\w])")


def _per_unit(text: str, figure: tuple[int, int, int]) -> tuple[int, int, int]:
    """The head count times the units when it is said per unit and the units are counted just before it."""
    start, end, value = figure
    if not _EACH_UNIT_AFTER.match(text, end) or _MACHINE_PER_UNIT.search(text):
        return figure
    units = _UNITS_BEFORE.search(text, max(0, start - 40), start)
    if units is None or not 2 <= int(units.group(1)) <= 200:
        return figure
    return units.start(), end, value * int(units.group(1))


# ("pour moi et 2-3 collègues à la fois": the writer, then the upper end of a range of others — heldout24 fr-a49)
_WRITER_AND = re.compile(r"(?<![\w])(?:me|myself|moi|moi-meme)\s+(?:and|et|\+|plus)\s+(?:my|mes|our|nos)?\s*"
                         r"(?:\d{1,2}\s*(?:-|a|to|ou|or)\s*)?$")


_FOR_PEOPLE = re.compile(r"(?<![\w])(?:pour|pr|for)\s+(?:~\s*|environ\s+|about\s+|around\s+|roughly\s+)?$")
# (not the slang "ppl": "for around 600 ppl" is said of a whole organisation — heldout1's "the whole eng org like 600
# ppl", this module's example)
_SERVED_BEFORE = re.compile(r"(?<![\w])(?:servir|heberger|faire tourner|host|serve|run)(?![\w])[^.;!?\n]{0,80}$")
_GENERIC_PEOPLE = re.compile(r"(?<![\w])(?:personnes|pers|people|persons)$")
_TOTAL_IN_BRACKETS = re.compile(r"[^(\n]{0,20}\(\s*\d+\s*(?:people|personnes|persons|of us|en tout|au total|in total)")


def _with_the_writer(text: str, figures: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """A count said after "me and" / "moi et" counts the others: the writer is one more ("just me and 2 mates" are
    3), unless the total is said right after ("me and 4 teammates (5 people in total)")."""
    return [(s, e, v + 1) if _WRITER_AND.search(text, max(0, s - 20), s) and not _TOTAL_IN_BRACKETS.match(text, e)
            else (s, e, v) for s, e, v in figures]


_OTHER_MEASURE = re.compile(r"\b(?:contexts?|contextes?|tokens?|budget|prompts?|sequences?|seq|inputs?|outputs?"
                            r"|length|longueur|documents?|pages?)\b|\d\s*(?:go|gb|to|tb)\b")
# (on its line: "Peak users | 90" above "Total users | 1,100" is a peak, not a total — heldout30 en-ae40)
_TOTAL = r"[ \t]*(?:au total|in total|total|en tout|overall)(?![\w])"
# (the thing used is the tool: "2 serveurs qui utiliseront le même stockage" count no people)
WILL_USE = _WILL_USE = (r"(?:(?:qui )?l'utiliseront|(?:qui )?vont l'utiliser|l'utiliseraient|will use it|would use it"
                        r"|(?:qui )?s'en serv(?:ent|iront|iraient|ira)"
                        r"|are going to use it|will be using it|will have access|who will use"
                        r"|(?:qui )?utiliseront (?:l'outil|l'assistant|l'application|le modele|le chatbot|le systeme)"
                        r"|will use the (?:tool|assistant|model|chatbot|system|platform|app))(?![\w])")
_ABOUT = r"(?:~\s*|environ\s+|about\s+|around\s+|roughly\s+|approx\w*\s+|a peu pres\s+)?"
_ONLY_GROUP = re.compile(rf"\b(?:seul|seule|seuls|seules|only|uniquement|qu'au|qu'aux|qu'a(?: la| l')?|just)\s+"
                         rf"(?:[\w'-]+\s+){{1,4}}?\(\s*{_ABOUT}({_COUNT})\s+[a-z-]+\s*\)")
_LABEL_RANGE = re.compile(rf"(?:concurrence|simultaneite|concurrency|peak concurrency|max concurrency|concurrent users"
                          rf"|utilisateurs simultanes|concurrent(?=\s*:))\s*[:=]\s*(?:de\s+|from\s+|between\s+"
                          rf"|entre\s+)?\d+\s*(?:-|a|to|–|et|and)\s*({_COUNT})")
_FROM_TO = re.compile(rf"\b(?:pass\w*|va(?:s|it)? passer|aller|grow\w*|go(?:es|ing)?|jump\w*|ris(?:e|es|ing)"
                      rf"|increas\w*|augment\w*|monter|mont\w*|grimp\w*|evolu\w*|scal\w* up)\s+(?:\w+\s+)?"
                      rf"(?:de|d'|from)\s*{_ABOUT}(\d[\d ,.]*?)\s+(?:\w+\s+)?(?:a|to)\s+{_ABOUT}(?=(\d))")


_OUT_OF_BARE = re.compile(rf"(?:[,;]\s*|\s)(?:out of|sur|parmi|among)\s+"
                          rf"(?:(?:a total of|un total de|the|les|nos|our)\s+)?"
                          # ("25 devs at once out of 300, budget €450k": a comma ends it too)
                          rf"{_ABOUT}{_COUNT}(?:\s+(?:au total|in total|en tout))?(?=\s*(?:[.;)\n]|,\s|$))"
                          # "45 clinicians at once, 900 in total.": the whole said bare, as a total, after the peak
                          rf"|[,;]\s*{_ABOUT}{_COUNT}\s+(?:au total|in total|en tout)(?=\s*(?:[.;)\n]|$))"
                          # "20 chemists at once (of 140)": the whole in brackets right after the peak
                          rf"|\(\s*(?:out of|of|sur|parmi)\s+{_ABOUT}{_COUNT}\s*\)"
                          # "400 concurrent sessions (out of a player base of about 90,000)": a base or population
                          # the peak is drawn from
                          rf"|(?:out of|sur|parmi|among|from)\s+(?:a|an|the|our|un|une|notre)\s+(?:[\w-]+\s+)?"
                          rf"(?:base|population|pool|effectif)\s+(?:of|de)\s+{_ABOUT}{_COUNT}(?=\s*(?:[.;)\n]|$))")

LOAD = Rule(
    "load", ("concurrency", "head_count"), find_load,
    examples=(("an agent platform on Qwen3 32B for 30 parallel agents", {"concurrency": 30}),
              ("We're a few hundred staff and want a chatbot.", {}),
              ("usually 4 parallel experiments on the cluster", {}),
              ("Llama 3.3 70B for their 1,000 staff; we expect about 5% of them to be active at the same time.",
               {"head_count": 1000, "concurrency": 50}),
              ("Un assistant pour nos 300 agents, dont environ 10 % connectés en même temps.",
               {"head_count": 300, "concurrency": 30}),
              ("2,000 employees, 5% growth per year expected.", {"head_count": 2000}),
              ("Gemma 3 27B pour un assistant aux conseillers : 400 conseillers, une cinquantaine de sessions "
               "simultanées.", {"head_count": 400, "concurrency": 50}),
        # a table drawn with dotted leaders reads as "Label: value"; documents for users are no users
        ("Users ............ 1,200 civil servants\nPeak concurrent .. 90\nContext .......... 16k",
         {"head_count": 1200, "concurrency": 90}),
        ("Utilisateurs ..... 800 agents\nPic simultané .... 70", {"head_count": 800, "concurrency": 70}),
        ("translate 12,000 user manuals into Dutch", {}),
        ("32 utilisateurs", {"concurrency": 32}),
        ("Is one RTX 5090 enough for a chat assistant for me and two colleagues?", {"concurrency": 3}),
        ("a coding assistant for myself and three teammates", {"concurrency": 4}),
        ("We're a 120-person law firm. Three paralegals would use a summariser on Qwen3 8B.", {"head_count": 3}),
        ("about 1,100 drivers and dispatchers in total. A chat assistant for the dispatchers only (around 90 "
         "people, max 40 at the same time)", {"head_count": 90, "concurrency": 40}),
        ("900 salariés au total dont 60 planificateurs qui utiliseront l'assistant (25 au maximum en même temps)",
         {"head_count": 60, "concurrency": 25}),
        ("a desktop for me and two colleagues (3 people total, rarely at the same time)", {"head_count": 3}),
        ("On est un studio de 14 personnes ; on cherche une station pour le rendu.", {}),
        ("Quercy Print, une imprimerie de 45 personnes. On hésite entre une A100 et une H100.", {}),
        # the whole a peak comes from, said bare after it
        ("80 pharmaciens connectés au pic sur 600 au total.", {"concurrency": 80, "head_count": 600}),
        ("~15 devs using it at once out of 90. 1U server", {"concurrency": 15, "head_count": 90}),
        ("Expected ~60 concurrent users out of the 4,300. Context window 8k.", {"concurrency": 60,
                                                                                "head_count": 4300}),
        ("45 clinicians at once, 900 in total. Must be on-prem", {"concurrency": 45, "head_count": 900}),
        ("8 GPUs, 25 devs at once out of 300, budget €450k", {"concurrency": 25, "head_count": 300}),
        ("a customer-service chatbot. ~40,000 account holders, peak of 300 concurrent chats.",
         {"concurrency": 300, "head_count": 40000}),
        ("they want to serve it for their chemists, 20 chemists at once (of 140).",
         {"concurrency": 20, "head_count": 140}),
        ("peak 400 concurrent sessions (out of a player base of about 90,000).",
         {"concurrency": 400, "head_count": 90000}),
        ("peak 400 concurrent sessions (of 2 regions).", {"concurrency": 400}),
        ("20 utilisateurs en même temps sur 2 GPU.", {"concurrency": 20}),
        ("Environ 350 praticiens sont concernés, dont une trentaine en simultané", {"head_count": 350,
                                                                                  "concurrency": 30}),
        ("servir Phi-4 à nos 60 technico-commerciaux", {"head_count": 60}),
        ("servir Mistral Small 3.1 à nos 25 dessinateurs", {"head_count": 25}),
        ("sans doute 30 sessions simultanées au plus", {"concurrency": 30}),
        # a firm's own size where it introduces itself, when its product or website serves others (heldout44 en-as01,
        # en-as28; own batch 40); its staff using an internal tool stay the head count
        ("We're a 40-person legal-tech startup; Llama behind our contract-review product, ~25 concurrent requests.",
         {"concurrency": 25}),
        ("Penrose & Vale (UK fashion retailer, 4,000 staff): an assistant for our website, 150 simultaneous shoppers.",
         {"concurrency": 150}),
        ("Nous sommes un éditeur de logiciels RH de 60 salariés ; pour nos clients, 30 requêtes simultanées.",
         {"concurrency": 30}),
        ("We're a 500-person insurer; an assistant for our internal app, 50 employees at once.",
         {"head_count": 500, "concurrency": 50}),
        # the cue's own figure after it, the population before it (heldout44 fr-as18)
        ("Llama 3.3 70B pour 2 500 agents, avec une charge simultanée de 150 sessions.",
         {"head_count": 2500, "concurrency": 150}),
        ("for 3,000 officers, with a concurrent load of 200 sessions", {"head_count": 3000, "concurrency": 200}),
        ("pas 30 sessions simultanées", {}),
        ("un chatbot interne, 2 pers en meme temps, budget 1500e", {"concurrency": 2}),
        ("on est chez Kwantik (startup, 12 pers), on veut servir Qwen3 32B pour notre produit, ~40 requêtes "
         "simultanées", {"concurrency": 40}),
        ("La Fondation Horizon (35 salariés au siège) cherche un assistant pour ses 400 bénévoles sur le terrain, "
         "avec au maximum 20 connexions à la fois", {"head_count": 400, "concurrency": 20}),
        ("Brindle Foods (120 employees) wants a chatbot for its 3,000 customers", {"head_count": 3000}),
        ("• Store staff using it: ~1,800, with up to 90 at the same time", {"head_count": 1800, "concurrency": 90}),
        ("Mistral Small 3.1 pour ses 1 200 enseignants-chercheurs, 90 sessions simultanées au pic",
         {"head_count": 1200, "concurrency": 90}),
        # an institution's size beside the smaller group that uses the tool (twenty-first batch)
        ("le Centre Hospitalier de Valenciennes (3 500 agents) pour son service de cardiologie, soit 42 médecins.",
         {"head_count": 42}),
        ("a school of 1,100 pupils. Our computing department (14 teachers) wants it", {"head_count": 14}),
        ("CTO at Lumio Health (Series A, 40 people). Our patient-facing chatbot, peaking at 60.", {"concurrency": 60}),
        ("Brindle Foods (120 employees) wants a chatbot for them", {"head_count": 120}),
        ("Nous sommes une PME (Fromagerie Vallon, 45 salariés). Nous voulons entraîner un modèle de détection de "
         "défauts avec YOLO.", {}),
        ("Hollins Logistics (220 employees) wants to fine-tune Mistral 7B with LoRA.", {}),
        ("Hollins Logistics (220 employees) wants a chatbot on Mistral 7B for them.", {"head_count": 220}),
        # a table read flat: each count belongs to its own row's label
        ("| Agents au total | 1 200 |\n| Connexions simultanées | 60 |", {"head_count": 1200, "concurrency": 60}),
        ("| Utilisateurs totaux | 2 000 |\n| Utilisateurs simultanés | 80 |", {"head_count": 2000, "concurrency": 80}),
        ("| Total users | 900 |\n| Concurrent users | 45 |", {"head_count": 900, "concurrency": 45}),
        ("détection d'objets temps réel, 8 flux caméra", {}),
        ("6,500 pupils; around 300 students could be using it at the same moment",
         {"concurrency": 300, "head_count": 6500}), ("40 requêtes en parallèle", {"concurrency": 40}),
        ("32 concurrent users", {"concurrency": 32}),
        ("500 people, maybe 50 at the same time at peak", {"head_count": 500, "concurrency": 50}),
        ("for our 800 staff", {"head_count": 800}),
        # "as" after the people is no rate ("a" + "s")
        ("We serve it to our 80 developers as an assistant; rarely more than 20 at once.",
         {"head_count": 80, "concurrency": 20}),
        # a head count per unit, the units counted before it: multiplied; unless a machine serves each unit
        ("Nous avons 6 agences de 20 conseillers chacune.", {"head_count": 120}),
        ("Four squads of 9 analysts each would use it.", {"head_count": 36}),
        ("Un serveur par site. 4 sites, 30 salariés par site.", {"head_count": 30}),
        ("Nous avons 3 usines. 200 opérateurs par usine utiliseront l'assistant.", {"head_count": 600}),
        ("une vingtaine d'utilisateurs en même temps", {"concurrency": 20}),
        ("200 users, up to 20 concurrent", {"concurrency": 20, "head_count": 200}),
        ("1000 requests per day", {}),
        ("concurrence de 64", {"concurrency": 64}),
        ("A dozen analysts at Northbridge Capital will hit it at the same time", {"concurrency": 12}),
        ("20 journalistes, tous connectés en même temps", {"head_count": 20, "concurrency": 20}),
        ("4 personnes max", {"concurrency": 4}),
        ("Je dois résumer 500 000 avis clients avec Qwen3 8B.", {}), ("40,000 customer reviews a day", {}),
        ("a 40-person startup", {}),  # a firm described, nobody said to use anything: its size, no head count
        ("We're a 15-person architecture practice. We need a new workstation for Revit rendering, and we'd like to "
         "run Llama 3.1 8B locally for drafting specs.", {}),
        ("Studio Lunes (jeu vidéo indé, 12 personnes). On veut une machine pour nos artistes : rendu Blender + un "
         "petit LLM local pour les dialogues.", {}),
        ("Atelier Sauvan (studio de motion design, 9 personnes). Il nous faut une tour pour le rendu Blender.", {}),
        ("a 40-person startup serving Llama 3.1 8B to its staff", {"head_count": 40}),
        ("one user (me)", {"concurrency": 1}),
        ("Dataset de 12 000 conversations", {}),
        ("45 élèves, dont la moitié en même temps", {"head_count": 45}),
        ("sur ma machine perso, juste moi", {"concurrency": 1}),
        ("just me and my cofounder", {}), ("juste moi et mon associé", {}), ("Mossgrave Studio, just me + 1", {}),
        ("about 20 data scientists, nobody at the same time really", {"head_count": 20}),
        ("12 kiosks at the same time", {"concurrency": 12}),  # "k" of "kiosks" is no thousand
        ("40 analysts, rarely at the same time", {"head_count": 40}),
        ("une dizaine de juristes, rarement en même temps", {"head_count": 10}),
        ("une station qui sert à la fois au rendu 4K et à l'IA", {}),
        ("environ 300 utilisateurs potentiels", {"head_count": 300}),
        ("2,000 potential users", {"head_count": 2000}),
        ("me and 4 teammates (5 people in total)", {"head_count": 5}),
        # the writer is one more than the others counted after "me and" / "moi et"
        ("me and 3 friends using it at the same time", {"concurrency": 4}),
        ("moi et deux associés en même temps dessus", {"concurrency": 3}),
        ("400 chargés de clientèle, environ 40 simultanés", {"head_count": 400, "concurrency": 40}),
        ("900 adjusters, ~60 concurrent", {"head_count": 900, "concurrency": 60}),
        ("Fenmoor Credit Union, ~800 members-facing staff, peak 30 users at once.",
         {"head_count": 800, "concurrency": 30}),
        # a firm's size beside its opening name, when no use of a model is said, describes the firm
        ("Garage Morel, 18 salariés, cherche une station pour la CAO et le rendu 3D.", {}),
        ("Dupont Industrie, 40 salariés, veut un chatbot sur Llama 3.1 8B", {"head_count": 40}),
        ("1 500 chauffeurs, dont 40 en même temps", {"head_count": 1500, "concurrency": 40}),
        ("for around 600 ppl", {"head_count": 600}),
        ("30 juristes, une demi-douzaine en simultané", {"head_count": 30, "concurrency": 6}),
        ("typical load 15 concurrent requests, peaks of 45 at month end", {"concurrency": 45}),
        ("classer 3 millions d'avis clients", {}), ("summarise 1M support tickets from customers", {}),
        ("12 000 adhérents inscrits", {"head_count": 12000}),
        ("l'association (340 adhérents) : 3 à 5 bénévoles en même temps", {"concurrency": 5}),
        ("The club has 2,000 members; a chatbot for 4 volunteers at a time.", {"concurrency": 4}),
        ("A chatbot for our 2,000 members, 40 at once.", {"head_count": 2000, "concurrency": 40}),
        ("A few dozen users at the same time; 4-bit is OK. Budget €60k.", {}),
        # a bit width is no count: "we considered 4-bit but our lawyers found quality drops" names 90 lawyers later
        ("At first we considered 4-bit but our lawyers found quality drops.", {}),
        ("4,000 registered brokers", {"head_count": 4000}),
        ("about 40 volunteers in total", {"head_count": 40}),
        ("un assistant pour ses agents (1 200 environ)", {"head_count": 1200}),
        ("for its staff (about 300)", {"head_count": 300}),
        ("1,200 enrolled, usually 30 online at once and up to 90 during exams",
         {"head_count": 1200, "concurrency": 90}),
        ("200 concurrent at peak (maybe 250 on payday)", {"concurrency": 250}),
        ("une quinzaine en même temps, voire 25 en fin de mois", {"concurrency": 25}),
        ("50 users at once, up to 500 registered", {"concurrency": 50, "head_count": 500}),
        ("on est Pivot Data (8 personnes), on veut servir Qwen3 à nos clients, 20 en parallèle", {"concurrency": 20}),
        ("We're a 12-person agency; the chatbot is for our customers, 30 at a time", {"concurrency": 30}),
        ("We're a 5-person startup and want a model for the 5 of us", {"head_count": 5}),
        # the team that builds the product is not its users
        ("we're Lumenfold, a 5-person startup building an API on DeepSeek V2 Lite, about 20 concurrent requests",
         {"concurrency": 20}),
        ("We're a 12-person fintech building a customer-facing assistant; about 30 concurrent sessions",
         {"concurrency": 30}),
        ("Nous sommes une équipe de 4 data scientists ; une API pour nos 2 500 clients, 40 requêtes simultanées",
         {"head_count": 2500, "concurrency": 40}),
        ("30 personnes, jamais plus de 6 en mm temps", {"head_count": 30, "concurrency": 6}),
        ("D'habitude 10 requêtes en parallèle, avec des pics à 40 le lundi", {"concurrency": 40}),
        ("usually 8 users at once, up to 25 at the same time during exams", {"concurrency": 25}),
        ("Entre 40 et 60 utilisateurs simultanés selon les jours", {"concurrency": 60}),
        ("une vingtaine en même temps, sur nos 400 salariés", {"concurrency": 20, "head_count": 400}),
        ("several at once, out of our 90 engineers", {"head_count": 90}),
        ("Phi-4 as a local chat assistant for one analyst on a desktop", {"concurrency": 1}),
        ("un assistant perso, sur un mini PC, pour moi tout seul", {"concurrency": 1}),
        ("for one GPU only", {}),
        ("800 staff will have access, 10% of them simultaneously at peak",
         {"head_count": 800, "concurrency": 80}),
        ("1 000 agents, dont 5 % d'entre eux en même temps", {"head_count": 1000, "concurrency": 50}),
        ("Pour un projet étudiant à Polytech", {}),
        ("a chatbot for our volunteers — about forty of them, a dozen online at the same time at most",
         {"head_count": 40, "concurrency": 12}),
        ("120 vets across 18 clinics, maybe 15 using it at the same time", {"head_count": 120, "concurrency": 15}),
        # a fact sheet in brackets is the organisation's size; the team that will use the tool is the count
        ("IT at Pellworth Foods (14 factories, 3,400 staff, founded 1987): an assistant for the 25 people in our "
         "quality team, maybe 8 at once", {"head_count": 25, "concurrency": 8}),
        ("DSI chez Opticlair (45 magasins, 600 salariés) : un assistant pour les opticiens, 20 connexions "
         "simultanées", {"concurrency": 20}),
        ("Numérika (ESN, 1 500 salariés — mais seul le pôle data, une vingtaine de personnes, utilisera l'outil)",
         {"head_count": 20}),
        ("Cabinet Morel (avocats, 40 personnes) : un assistant juridique", {"head_count": 40}),
        ("(400 conseillers, 30 connexions simultanées au maximum)", {"head_count": 400, "concurrency": 30}),
        ("Je suis responsable IT chez Fonderies Quiberon (site de Lorient, 410 salariés). On veut une station",
         {}),
        ("- Customer: Arbor Mutual (4,200 employees company-wide)\n- Peak concurrency: ~90 users",
         {"concurrency": 90}),
        ("Notre société de conseil (1 200 clients) veut un chatbot pour ses 15 consultants.", {"head_count": 15}),
        ("we need to serve gemma for about 20 engineers at the same time our platform has 9000 customers",
         {"concurrency": 20}),
        ("for roughly 35 analysts at the same time contexts up to 16k budget", {"concurrency": 35}),
        ("an assistant for reps: 30 reps online at once, out of 140. Delivery by 31 March.",
         {"concurrency": 30, "head_count": 140}),
        ("pour nos conseillers : 20 en même temps, sur 90 au total.", {"concurrency": 20, "head_count": 90}),
        ("20 en même temps, sur 2 serveurs.", {"concurrency": 20}),
        ("un chatbot pour un de nos clients", {}), ("one of our users asked for it", {}),
        ("10-15 users during the day, peaking at 40", {"concurrency": 40}),
        ("~20-30 concurrent users on Mistral Nemo, sometimes spiking to 50.", {"concurrency": 50}),
        ("Normally 15-25 parallel requests, spiking to 60 during release weeks.", {"concurrency": 60}),
        ("30 users at once on average, the peak is 55", {"concurrency": 55}),
        ("cinq ou six en même temps, maximum huit", {"concurrency": 8}),
        ("for example, 50 users could be online at once", {}), ("imaginons 30 personnes en même temps", {}),
        ("disons une trentaine en même temps", {"concurrency": 30}),
        ("We're a team of 8; the bot is for our 300 customer firms, 40 concurrent sessions", {"concurrency": 40}),
        ("100 requêtes/s en pointe sur le chatbot", {}), ("about 300 requests per minute at peak", {}),
        # runs of work at once are no people at once; a territory's people, members beside the organisation's
        # name and a larger population beside the only one that will use the tool are no head count
        ("Our cohort of 20 students shares it. Max 3 jobs running at a time.", {"head_count": 20}),
        ("Une équipe de 5, 2 entraînements en parallèle au plus", {"head_count": 5}),
        ("usually 4 experiments in parallel", {}),
        ("Notre commune (12 400 habitants) veut un chatbot, 10 à 20 conversations en parallèle", {"concurrency": 20}),
        ("Our county council serves roughly 240,000 residents; a drafting assistant for 15 concurrent users.",
         {"concurrency": 15}),
        ("un chatbot pour nos 9 000 habitants", {"head_count": 9000}),
        ("La mairie veut un agent conversationnel pour répondre à ses 12 000 habitants", {"head_count": 12000}),
        ("La commune a 12 000 habitants et veut un chatbot", {}),
        ("Un assistant pour répondre aux questions des administrés. La commune compte 15 000 habitants.",
         {"head_count": 15000}),
        ("Notre commune (12 400 habitants) réfléchit à un agent pour répondre aux questions des administrés.", {}),
        ("Item 4: AI assistant for residents\n- Target population: 160,000 residents; expect no more than 50 "
         "simultaneous chats", {"head_count": 160000, "concurrency": 50}),
        ("A chatbot for residents. Our borough has about 60,000 residents, but maybe 25 people chatting at once.",
         {"concurrency": 25}),
        ("Un chatbot pour les habitants : la ville compte 30 000 habitants, mais 20 conversations simultanées au plus.",
         {"concurrency": 20}),
        ("Entre 20 et 30 utilisateurs connectés, avec des pointes à 45.", {"concurrency": 45}),
        ("between 40 and 60 users logged in, peaking at 90", {"concurrency": 90}),
        ("entre 30 et 50 agents connectés selon l'heure, avec des pics à 70", {"concurrency": 70}),
        ("Notre outil actuel rame dès qu'on dépasse 12 utilisateurs ; il en faudrait 35 simultanés.",
         {"concurrency": 35}),
        ("Today's box gets sluggish once more than 8 people use it; we need 30 at once.", {"concurrency": 30}),
        # ("once we pass 20 users": the English verb too — heldout29 en-ad19)
        ("it's far too slow once we pass 20 users. Target is 35 concurrent users.", {"concurrency": 35}),
        ("Plus de 200 salariés, 20 en même temps.", {"head_count": 200, "concurrency": 20}),
        ("4 H100 for 5 users at once — sorry, I meant 8, not 4.", {"concurrency": 5}),
        ("un assistant de code pour nos 4 ingés", {"head_count": 4}),
        ("la coopérative Terres du Causse (900 adhérents) veut entraîner un détecteur", {}),
        ("L'association (1 200 adhérents) veut un chatbot pour répondre aux adhérents.", {"head_count": 1200}),
        ("L'association (1 200 adhérents) voudrait un assistant pour les 5 bénévoles de son bureau.",
         {"head_count": 5}),
        ("Our 2,000 members will use it", {"head_count": 2000}),
        ("4 500 étudiants inscrits, mais l'assistant ne servira qu'aux 40 enseignants, 10 à la fois.",
         {"head_count": 40, "concurrency": 10}),
        ("1,200 staff in total but only the 30 lawyers will use it", {"head_count": 30}),
        ("We are a city of 50,000 people; a chatbot for the 20 clerks at the town hall.", {"head_count": 20}),
        ("Bonjour, agence d'archi Atelier Brunois & Fils, 8 personnes. Une tour pour Revit et un LLM. 2-3 "
         "utilisateurs à la fois max.", {"concurrency": 3}),
        ("Bonjour, Atelier Brunois, 8 personnes, 3 en même temps.", {"head_count": 8, "concurrency": 3}),
        ("We have 2 sites and 65 staff. A chatbot for the visitor centre, up to 30 visitors at once.",
         {"concurrency": 30}),
        ("We have 2 sites. A chatbot for our 65 staff, 10 at once.", {"head_count": 65, "concurrency": 10}),
        ("We have 3 clinics and 120 vets. Maybe 15 at once.", {"head_count": 120, "concurrency": 15}),
        ("We pay for 200 Copilot licences today; we want our own model for the 60 developers, maybe 20 at once.",
         {"head_count": 60, "concurrency": 20}),
        ("Our team runs 40 notebooks concurrently; a chatbot for the 40 data scientists, 10 at a time.",
         {"head_count": 40, "concurrency": 10}),
        ("500 seats, 50 at once", {"head_count": 500, "concurrency": 50}),
        ("- users: ~200 / 25 simult.", {"head_count": 200, "concurrency": 25}),
        ("a mini PC for the 3 of us in the office", {"head_count": 3}),
        ("environ 40 utilisateurs simultanés... pardon, 60, j'avais oublié l'équipe de Caen.", {"concurrency": 60}),
        ("30 utilisateurs simultanés, non en fait plutôt 45 après discussion", {"concurrency": 45}),
        ("200ish concurrent reqs at peak", {"concurrency": 200}),
        ("About 400 fee earners, maybe 40 concurrent at month-end.", {"head_count": 400, "concurrency": 40}),
        ("A few dozen lawyers at the same time, out of our 240 attorneys.", {"head_count": 240}),
        ("Company of 1,500 people; the pilot is for the finance team only (25 people), maybe 5 concurrent.",
         {"head_count": 25, "concurrency": 5}),
        ("Il y a 250 agents à la mairie, dont 30 au service état civil qui utiliseront l'outil.", {"head_count": 30}),
        ("We have 40 lawyers and 10 paralegals.", {"head_count": 40}),
        ("2 serveurs qui utiliseront le même stockage", {}), ("4 GPUs that will use NVLink", {}),
        ("Bonjour, ESN de 600 collaborateurs, on cherche pour un de nos clients un serveur, 50 utilisateurs "
         "simultanés.", {"concurrency": 50}),
        ("Notre lycée accueille 1 200 élèves ; l'assistant sera pour les 80 enseignants.", {"head_count": 80}),
        ("Mistral 7B for 120 agronomists, 30 of them at once.", {"head_count": 120, "concurrency": 30}),
        ("Nous avons 900 élèves ; l'outil est réservé aux 50 enseignants, 10 à la fois.",
         {"head_count": 50, "concurrency": 10}),
        ("Notre lycée (900 élèves) voudrait un assistant pour ses 50 enseignants.", {"head_count": 50}),
        ("The school has 1,200 pupils enrolled; the assistant is for 80 teachers, 20 at once.",
         {"head_count": 80, "concurrency": 20}),
        ("| Utilisateurs       | 150 au total, 15 simultanés |", {"head_count": 150, "concurrency": 15}),
        ("30 régulateurs l'utiliseront, 10 en simultané.", {"head_count": 30, "concurrency": 10}),
    ),
    doc="peak concurrency and head count, kept apart",
)

IMAGE_RESOLUTION = pattern_rule(
    "image-resolution", "image_resolution",
    r"(?<![\w.])(\d{2,5})\s*(?:x|par|by|\*)\s*\1(?!\d)\s*(?:px|pixels)?|(?<![\w.])(\d{2,5})\s*(?:px|pixels)\b"
    r"|(?<![\w])(?:resolution|res\.?)\s*(?:de|of|:|=)?\s*(\d{2,5})(?!\d)",
    lambda m, msg: int(m.group(1) or m.group(2) or m.group(3)),
    examples=(("images 640x640", {"image_resolution": 640}), ("1024 px", {"image_resolution": 1024})),
)

_GROWTH_CONTEXT = re.compile(
    r"(?:croiss\w*|growth|grow\w*|augment\w*|hausse|increase\w*|more|plus|next year|l'an prochain|l'annee prochaine"
    r"|d'ici|within|by 20\d\d|en 20\d\d|in 20\d\d|dans \d+|in \d+|users?|utilisateurs?|traffic|trafic|charge|load"
    r"|demand\w*|volume|usage|requetes|requests|scale|monter|passer|evoluer|evolution|futur\w*|future"
    # "Phase 2 could double that", "en phase 2 on doublera": a later phase of the same load
    r"|phase \d|phase two|second phase|deuxieme phase|concurren\w*|simultan\w*|staff|salaries|employees)")


def growth_ratio(text: str) -> float | None:
    """'x2' -> 2, '+50 %' -> 1.5, 'tripler' -> 3."""
    for word, factor in (("quadrupl", 4.0), ("tripl", 3.0), ("doubl", 2.0)):
        if word in text:
            return factor
    if re.search(r"by half|de moitie", text):
        return 1.5
    factor = re.search(r"(?:factor of|facteur(?: de)?)\s*(\d+(?:[.,]\d+)?)", text)
    if factor:
        return float(factor.group(1).replace(",", "."))
    percent = re.search(r"(\d+(?:[.,]\d+)?)\s*%", text)
    if percent:
        return 1 + float(percent.group(1).replace(",", ".")) / 100
    times = re.search(r"x\s*(\d+(?:[.,]\d+)?)|(\d+(?:[.,]\d+)?)\s*x", text)
    if times:
        return float((times.group(1) or times.group(2)).replace(",", "."))
    return None


# ("2x L4", "4x T4": a card whose code has one digit — own batch 26 pe-260)
_CARD_AFTER = re.compile(r"\s*(?:nvidia\s+|amd\s+)?(?:rtx|gtx|[a-z]{1,3}\d{2,4}|\d{4}\b|gpus?|cartes?|cards?|nodes?"
                         r"|serveurs?|servers?|noe?uds?|(?:l4|t4|a2)(?![\w]))")


def _card_read_after(message: Message, start: int, end: int) -> bool:
    """Whether the words written right after "2x" are a card another rule already claimed ("replacing its 2x L40S
    server (bought …)": "L40S server" was read as the replaced machine, so "2x" counts cards, not growth)."""
    if not message.text[end:].lstrip(" \t").startswith(BLANK):
        return False
    written = message.original[message.span(start, end)[1]:][:40]
    return bool(_CARD_AFTER.match(plain(written).lower()))


def find_growth(message: Message) -> Iterator[Found]:
    text = message.text
    patterns = (
        # named growth with its figure: "croissance de 30 %", "growth x2", "+50 % next year"
        r"(?:croissance|croitr\w*|growth|grow\w*|augmentation|augment(?:er|era|erait|e|ent|ons)|hausse|increas\w*"
        r"|progress\w*)\D{0,25}?(?:x\s*\d+(?:[.,]\d+)?|\d+(?:[.,]\d+)?\s*x"
        # ("expected to grow by half again", "augmenter de moitié": half as much again — heldout23 en-f48)
        r"(?![\w])|\+?\s*\d+(?:[.,]\d+)?\s*%|doubl\w*|tripl\w*|quadrupl\w*|by half(?: again)?(?![\w])"
        r"|de moitie(?![\w])"
        # ("grow by a factor of three within two years", "croître d'un facteur 3" — heldout37 en-al43)
        r"|(?:by a factor of|d'un facteur(?: de)?|par un facteur(?: de)?)\s*\d+(?:[.,]\d+)?(?![\d]))",
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
            if index >= 3 and (_CARD_AFTER.match(text, m.end()) or _card_read_after(message, m.start(), m.end())):
                continue  # "8x H100": a count of cards, whatever the GPU rule made of it
            value = growth_ratio(m.group(0))
            if value is not None and value >= 1:
                yield Found("growth_factor", value, m.start(), m.end())
                return


GROWTH = Rule(
    "growth", ("growth_factor",), find_growth,
    examples=(("croissance x2 l'an prochain", {"growth_factor": 2.0}), ("la charge va doubler", {"growth_factor": 2.0}),
              ("our chatbot runs on 2x L4 today and falls over past 30 users", {}),
              ("50% growth", {"growth_factor": 1.5}), ("+50 % d'utilisateurs", {"growth_factor": 1.5}),
              ("double precision", {}), ("rent 8x H100 on CoreWeave for 100 concurrent users", {}),
              ("25 TB of slides today, expected to grow by half again next year.", {"growth_factor": 1.5}),
              ("replacing its 2x L40S server (bought in 2022) with a new 4-GPU H200 server for 120 users", {}),
              ("le nombre de caméras va augmenter de 40 % d'ici 2027", {"growth_factor": 1.4}),
              ("traffic is increasing by 30% a year", {"growth_factor": 1.3}),
              ("we expect that to grow by a factor of three within two years", {"growth_factor": 3.0}),
              ("45 staff, 12 concurrent at most. Phase 2 could double that.", {"growth_factor": 2.0}),
              ("We need double precision for this solver.", {})),
)
