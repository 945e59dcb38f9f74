"""The size of a one-off batch job: "traduire 200 000 pages", "summarise 1.2 million reviews",
"40k e-mails to classify".

A batch job rented by the hour is paid for the job, not for three years of a machine: knowing how many requests
it holds lets the recommendation weigh a rental by that job's cost (hours at the plan's output rate x the hourly
price). A count said per day, per night or per month is a recurring load, not one job, and is left alone; so are
images (vision sizes them) and counts of people.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding import numbers
from sizer_agent.agent.understanding.numbers import NUM
from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message, sentence_bounds
from sizer_agent.agent.understanding.training import TRAINS

_VERB = (r"(?:tradui\w*|translat\w*|resum\w*|summari[sz]\w*|class\w*|transcri\w*|annot\w*|label\w*|etiquet\w*"
         r"|trait\w*|process\w*|extra\w*|analy[sz]\w*|redig\w*|rewrit\w*|reecri\w*|convert\w*|tagg?\w*"
         r"|generat\w*|gener\w*|pass\w*|run|faire passer)")
_ITEM = (r"(?:pages?|documents?|docs|actes|articles?|fiches?|contrats?|contracts?|e-?mails?|mails|courriels?|avis"
         r"|reviews?|tickets?|rapports?|reports?|manuels?|manuals?|livres?|books?|dossiers?|fichiers?|files?|notices?"
         r"|descriptions?|enregistrements?|recordings?|conversations?|messages?|questions?|requetes?|requests?|items?"
         r"|produits?|products?|records?|chunks?|passages?|abstracts?|chapitres?|chapters?|factures?|invoices?"
         r"|lettres?|letters?|textes?|texts?|commentaires?|comments?|publications?|posts?|sinistres?|claims?"
         r"|decisions?|jugements?|judgments?|brevets?|patents?|prompts?|transcripts?|minutes|comptes rendus"
         r"|repliques?|calls?|appels?)")
_SCALE = r"(k|m|millions?|milliards?)?"
# ("classify ~2M shipping emails": a tilde before the count says it is approximate, not that there is none)
_COUNT = rf"(?:[~≈][ \t]*)?({NUM})[ \t]*{_SCALE}[ \t]*(?:de |d')?(?:[a-z-]+[ \t]+){{0,2}}?{_ITEM}\b"
_PATTERNS = (
    # "traduire 200 000 pages", "summarise about 1.2 million customer reviews"
    re.compile(rf"\b{_VERB}[ \t]+(?:[a-z'-]+[ \t]+){{0,3}}?{_COUNT}"),
    # "traduire tout son fonds : environ 2 millions de documents": what is done, a colon, then its count
    re.compile(rf"\b{_VERB}[ \t]+(?:[a-z'-]+[ \t]+){{0,5}}?[a-z'-]+[ \t]*:[ \t]*(?:(?:environ|about|around|roughly"
               rf"|some|pres de|quelque|approx\.?)[ \t]+)?{_COUNT}"),
    # "40k e-mails to classify", "200 000 pages à traduire"
    re.compile(rf"{_COUNT}(?:[ \t]+[a-z-]+){{0,2}}?[ \t]+(?:a|to|à)[ \t]+{_VERB}"),
    # "summarise each call with Llama 3.1 8B: 30,000 calls a day": the count and how often, the verb said before in
    # the sentence (a rate of items alone, "30 000 appels par jour", is a job only where the brief is a batch job)
    re.compile(rf"(?<![\w.,]){_COUNT}[ \t]+(?:a|an|per|par|each|every|chaque)[ \t]+(?:day|night|week|month|jour|nuit"
               rf"|semaine|mois)\b"),
)
# "200 documents par jour", "résumer chaque nuit 50 000 dossiers", "a nightly job over 80,000 documents",
# "(traitement batch mensuel)": a recurring load anywhere in the sentence, not one job
_RECURRING = re.compile(r"(?:\b(?:par|per|a|an|each|every|chaque|tous les|toutes les)[ \t]+|/[ \t]*)"
                        r"(?:jours?|nuits?|soirs?|matins?|semaines?|mois|ans?|day|night|evening|morning|week|month"
                        r"|year|heure|hour)\b"
                        r"|\b(?:daily|nightly|weekly|monthly|quotidien\w*|hebdo\w*|mensuel\w*)\b")
# the next sentence that says only how often: "Une fois par mois.", "Once a week.", "Every month."
_HOW_OFTEN_NEXT = re.compile(r"[ \t]*(?:[.!;][ \t]*)?(?:(?:une|1|one) fois[ \t]+|once[ \t]+|(?:et |and )?)"
                             r"(?:par|per|a|an|each|every|chaque|tous les|toutes les)[ \t]+"
                             r"(?:jour|nuit|semaine|mois|an|day|night|week|month|year)s?\b[ \t]*(?:[.!;\n]|$)"
                             r"|[ \t]*(?:[.!;][ \t]*)?(?:daily|nightly|weekly|monthly|mensuel\w*|hebdo\w*)"
                             r"[ \t]*(?:[.!;\n]|$)")
# how often a recurring run comes, from the word that says it: a rented machine is paid for each run's hours
_RUNS_PER_YEAR = (("jour", 365), ("day", 365), ("daily", 365), ("quotidien", 365), ("nuit", 365), ("night", 365),
                  ("soir", 365), ("evening", 365), ("matin", 365), ("morning", 365), ("semaine", 52), ("week", 52),
                  ("hebdo", 52), ("mois", 12), ("month", 12), ("mensuel", 12), ("an", 1), ("year", 1))


def runs_per_year(words: str) -> int | None:
    """Runs a year of a load said "par jour", "nightly", "each month" (None for an hourly or unknown rate)."""
    for word, runs in _RUNS_PER_YEAR:
        if re.search(rf"\b{word}", words):
            return runs
    return None


# images and videos are sized by the vision tools, not as language-model requests
_MEDIA = re.compile(r"\b(?:images?|photos?|videos?|frames?|clips?)\b")


_DONE_BEFORE = re.compile(rf"\b{_VERB}\b")


def find_job_requests(message: Message) -> Iterator[Found]:
    for pattern in _PATTERNS:
        for m in pattern.finditer(message.text):
            if message.negated(m.start()) or _MEDIA.search(m.group(0)):
                continue
            bounds = sentence_bounds(message.text, m.start())
            if pattern is _PATTERNS[-1] and not _DONE_BEFORE.search(message.text, bounds[0], m.start()):
                continue  # "5,000 requests a day" with nothing done to them: a serving load's traffic, no job
            every = _RECURRING.search(message.text, *bounds)
            if every is None:
                # "… 500 000 répliques de 80 tokens … Une fois par mois.": how often, said alone just after
                every = _HOW_OFTEN_NEXT.match(message.text, bounds[1])
            recurring = every is not None
            scale = (m.group(2) or "").lower()
            number = numbers.read_number(m.group(1), message.lang, whole=not scale)
            if number is None:
                continue
            factor = 1e9 if scale.startswith("milliard") else 1e6 if scale.startswith("m") else 1e3 if scale else 1
            count = int(number * factor)
            if count < 100:
                continue  # "translate 3 documents": no job worth sizing by its length
            yield Found("job_requests", count, m.start(), m.end(), claim=False)
            # each night's or each month's run: its size still sets how fast it must go (a deadline), but the
            # machine is paid for over the period, not per run
            yield Found("job_recurring", recurring, m.start(), m.end(), claim=False)
            runs = runs_per_year(every.group(0)) if every is not None else None
            if runs is not None:
                yield Found("job_runs_per_year", runs, every.start(), every.end(), claim=False)
            return


_ONE_OFF = {"job_recurring": False}
_EACH_RUN = {"job_recurring": True}
JOB_REQUESTS = Rule(
    "job-requests", ("job_requests", "job_recurring", "job_runs_per_year"), find_job_requests,
    examples=(("Nous devons traduire 200 000 pages avec Llama 3.3 70B.", {"job_requests": 200000, **_ONE_OFF}),
              ("We need to summarise about 1.2 million customer reviews.", {"job_requests": 1200000, **_ONE_OFF}),
              ("40k e-mails to classify overnight", {"job_requests": 40000, **_ONE_OFF}),
              ("résumer 500 000 avis clients", {"job_requests": 500000, **_ONE_OFF}),
              ("on traite chaque nuit ~500 000 avis clients à classer",
               {"job_requests": 500000, **_EACH_RUN, "job_runs_per_year": 365}),
              ("on doit résumer environ 200 documents par jour",
               {"job_requests": 200, **_EACH_RUN, "job_runs_per_year": 365}),
              ("we process 3,000 tickets a day", {"job_requests": 3000, **_EACH_RUN, "job_runs_per_year": 365}),
              ("summarise each call with Llama 3.1 8B: 30,000 calls a day",
               {"job_requests": 30000, **_EACH_RUN, "job_runs_per_year": 365}),
              ("On doit résumer 30 000 appels par jour avec Llama 3.1 8B.",
               {"job_requests": 30000, **_EACH_RUN, "job_runs_per_year": 365}),
              ("A chatbot on Llama 3.1 8B, 5,000 requests a day, 20 at once.", {}),
              ("classify ~2M shipping emails every night",
               {"job_requests": 2000000, **_EACH_RUN, "job_runs_per_year": 365}),
              ("We classify about 2 million support tickets per month",
               {"job_requests": 2000000, **_EACH_RUN, "job_runs_per_year": 12}),
              ("traduire 3 documents", {}), ("caption 3M product images", {}),
              ("Classification de 3 millions d'images produits", {}),
              ("résumer chaque nuit environ 50 000 dossiers",
               {"job_requests": 50000, **_EACH_RUN, "job_runs_per_year": 365}),
              ("We run a nightly job that classifies 1.2M product reviews.",
               {"job_requests": 1200000, **_EACH_RUN, "job_runs_per_year": 365}),
              ("classification de 8 millions d'avis clients (traitement batch mensuel)",
               {"job_requests": 8000000, **_EACH_RUN, "job_runs_per_year": 12}),
              ("on veut générer des dialogues de PNJ en masse : 500 000 répliques de 80 tokens avec Mistral Nemo. "
               "Une fois par mois.", {"job_requests": 500000, **_EACH_RUN, "job_runs_per_year": 12}),
              ("Classify 200,000 tickets with Llama 3.1 8B. Every month.",
               {"job_requests": 200000, **_EACH_RUN, "job_runs_per_year": 12}),
              ("Classify 200,000 tickets with Llama 3.1 8B. Every month we review the labels by hand.",
               {"job_requests": 200000, **_ONE_OFF}),
              ("We'll index about 90,000 documents for a RAG assistant", {}),
              ("500 utilisateurs", {})),
    doc="the requests of a batch job (documents, pages, reviews), and whether it runs once or every night/month",
)


# "une seule fois", "a one-off fine-tune", "we only need to run it once": one run, not a recurring load. A rented
# GPU is then paid for that run's hours only (a training run, a batch job without a count).
# (a bare "une fois" is a time, not a count: "une fois déployé", "120 Go une fois dédupliqué"; "ponctuellement"
# is "now and then")
_ONCE = re.compile(r"\b(?:(?:une|1) (?:seule|unique) fois(?! (?:par|tous|toutes|les))|qu'une (?:seule )?fois"
                   r"|une fois pour toutes"
                   r"|one-?off|one[- ]time(?! (?:fee|cost|payment|purchase|licen[cs]e))"
                   r"|(?:a |one )?single (?:run|training run|job|fine-?tune|fine-?tuning)(?!s)"
                   r"|(?<![\w-])one (?:training )?run(?: only)?(?=\s*[,;.)]|\s+on\b)"
                   r"|(?:only|just) once|(?:run|train|fine-?tune|do)\w* (?:it |this |that |the job )?once\b"
                   r"|(?:un|une) (?:seul|seule|unique) (?:run|entrainement|passe|job|lancement)"
                   r"|(?:entrainement|job|travail|traitement|location|besoin|run|calcul)s? ponctuel(?:le)?s?\b)")


def find_one_off(message: Message) -> Iterator[Found]:
    for m in _ONCE.finditer(message.text):
        if message.negated(m.start()) or _RECURRING.search(message.text, *sentence_bounds(message.text, m.start())):
            continue
        yield Found("job_recurring", False, m.start(), m.end(), claim=False)
        return


ONE_OFF = Rule(
    "one-off", ("job_recurring",), find_one_off,
    examples=(("on veut fine-tuner Mistral 7B en LoRA, une seule fois", {"job_recurring": False}),
              ("It's a one-off fine-tune on our support tickets", {"job_recurring": False}),
              ("we only need to run it once", {"job_recurring": False}),
              ("un entraînement ponctuel sur nos données", {"job_recurring": False}),
              ("QLoRA on ~200M tokens, single run, on rented GPUs", {"job_recurring": False}),
              ("one run, on rented GPUs", {"job_recurring": False}),
              ("a single-GPU run every night", {}), ("single runs of 2 h every week", {}),
              ("une fois que le modèle est déployé, 50 utilisateurs", {}),
              ("a one-time licence fee", {}),
              ("une fois par mois on réentraîne", {}), ("environ 120 Go une fois dédupliqué", {}),
              ("servira aussi ponctuellement à nos dessinateurs", {}),
              ("classer 200 documents par jour, une seule fois par jour", {})),
    doc="a job run once (a fine-tune, a batch without a count): rented, it is paid by its own hours",
)


# "Le job doit finir en moins de 4 h", "it must finish within 6 hours", "within a 5-hour window", "in under 2 days"
# a number of time units, or one said by its article ("une semaine", "a day"): groups (number, article, unit)
_SPAN = rf"(?:(?:a |an |une? )?({NUM})|(a|an|une?|one|1))[ \t-]*"  # ("un mois", "d'un mois": masculine one)
_DAYS_AND_LONGER = r"jours?|days?|semaines?|weeks?|mois\b|months?"
_DEADLINE = re.compile(
    rf"\b(?:finir|finie?s?|finish\w*|terminer|terminee?s?|complete\w*|done|boucler|run|tourner|durer|tenir|take|prendre"
    rf"|window|fenetre"
    rf"|deadline|delai)\b[^.;\n]{{0,30}}?\b(?:en moins de|en|within|in under|in less than|under|sous|d'ici|by|in|de)\s+"
    rf"{_SPAN}(h\b|heures?|hours?|hrs?|{_DAYS_AND_LONGER}|nuits?|nights?|min\b|minutes?)")
# "Timeline: 3 months max", "délai : 6 semaines", "deadline 10 days": the time the job is given, said as a heading
_TIMELINE = re.compile(
    # ("On vise une durée d'entraînement de 3 semaines maximum", "a training time of 10 days")
    rf"\b(?:timeline|time ?frame|delai|deadline|duree max\w*|duree totale|calendrier"
    rf"|duree (?:d'|de |du )(?:l')?(?:entrainement|traitement|calcul|job|run)|(?:training|run|job) (?:time|duration))"
    rf"\s*[:=-]?\s*(?:de |of |is "
    rf"|about |around |environ |roughly )?{_SPAN}({_DAYS_AND_LONGER})")
# a job's time said with no verb before it: "LoRA sur 300 000 exemples, 2 époques, en moins d'une semaine", "within
# 10 days" — only for a batch or training job (a chatbot "en production en moins de 2 mois" has no deadline)
_WITHIN = re.compile(
    rf"\b(?:en moins d['e]\s*|within\s+|in under\s+|in less than\s+){_SPAN}({_DAYS_AND_LONGER}|h\b|heures?"
    rf"|hours?)")
# "On a un mois pour le faire", "we have two weeks to do it": the time the job is given (only for a job)
_HAVE_SPAN = re.compile(
    rf"\b(?:on a|on dispose d[e']|nous avons|nous disposons d[e']|we have|we've got|we got|we'll have)\s+"
    rf"(?:({NUM})|(a|an|un|une|one))[ \t-]*({_DAYS_AND_LONGER})\s+(?:pour|to|in which to)\b")
# "Rent only. Two weeks max.", "Deux semaines maximum.": a span said alone as its own sentence, with its ceiling
# (only for a job)
_SPAN_MAX = re.compile(
    rf"(?:^|[.!?;:\n(]|\s[-\u2013\u2014])[ \t]*{_SPAN}({_DAYS_AND_LONGER})[ \t]+(?:max(?:imum)?|tops|at most|au plus"
    rf"|au maximum|grand maximum|at the most)\b[ \t]*(?:[.!;)\n]|$)")
# a month as 730 h (8,760 h / 12): a deadline in months is a calendar span, not a count of working days
_HOURS = {"h": 1.0, "heure": 1.0, "hour": 1.0, "hr": 1.0, "jour": 24.0, "day": 24.0, "semaine": 168.0, "week": 168.0,
          "mois": 730.0, "month": 730.0, "min": 1 / 60, "minute": 1 / 60}


# "ça doit tourner en une nuit", "classify them overnight", "d'ici demain matin": a job that runs through one
# night. Read as an 8-hour window (22:00-06:00), the length operations teams give an overnight batch window;
# our reading, said as approximate, that the customer can correct. Only for a batch job or a training run: a
# chatbot "available overnight" has no deadline.
NIGHT_HOURS = 8.0
_NIGHT = re.compile(r"\b(?:(?:en|sur|within|in|during) (?:une|a|one|1|la|the) (?:seule |single )?(?:nuit|night)"
                    r"|overnight|dans la nuit|d'ici (?:a )?demain matin|d'ici le lendemain matin|avant le matin"
                    r"|by (?:tomorrow|the next|next) morning|by morning)\b")
# a job run every night ("résumer chaque nuit", "a nightly job", "toutes les nuits") runs in that same window
_EVERY_NIGHT = re.compile(r"\b(?:chaque nuit|toutes les nuits|every night|each night|nightly|la nuit)\b")
# "entre 22 h et 6 h", "de 22h00 à 5h30", "between 10pm and 6am", "from 22:00 to 06:00": a clock window, its
# length in hours (across midnight); a time needs its "h", ":" or am/pm, so "entre 2 et 4 GPU" is no window
_CLOCK = r"(\d{1,2})(\s*h\s*|:)?((?<=h|:)\d{2})?(?:\s*([ap])\.?m\b\.?)?"
_WINDOW = re.compile(rf"\b(?:entre|de|from|between)\s+{_CLOCK}\s*(?:et|à|a|to|and|-|–)\s*{_CLOCK}(?![\w%])")


def _hour(h: str, mark: str | None, mins: str | None, half: str | None) -> float | None:
    if not mark and not half:
        return None  # a bare number ("entre 2 et 4 GPU") is no time of day
    hour = int(h) % 12 + (12 if half == "p" else 0) if half else int(h)
    return None if hour > 24 or int(mins or 0) >= 60 else hour % 24 + int(mins or 0) / 60


def window_hours(m: re.Match[str]) -> float | None:
    """The length of a clock window, across midnight ("22 h à 6 h" = 8 h); None for no window at all."""
    start, end = _hour(*m.group(1, 2, 3, 4)), _hour(*m.group(5, 6, 7, 8))
    if start is None or end is None:
        return None
    hours = (end - start) % 24
    return hours if 0 < hours <= 16 else None  # a longer "window" is a working day said loosely, not a deadline


_JOB_USE_CASES = ("batch_inference", "finetune_full", "finetune_lora", "finetune_qlora", "pretraining")
# with no use case read yet (the rule alone), the words of a job: a batch verb or training
_BATCH_VERB = re.compile(rf"\b{_VERB}\b")


def find_deadline(message: Message) -> Iterator[Found]:
    job = message.training_context or message.found.get("use_case") in _JOB_USE_CASES or (
        message.found.get("use_case") is None and bool(_BATCH_VERB.search(message.text) or TRAINS.search(message.text)))
    timelines = [*_TIMELINE.finditer(message.text), *_WITHIN.finditer(message.text),
                 *_HAVE_SPAN.finditer(message.text), *_SPAN_MAX.finditer(message.text)] if job else []
    for m in [*_DEADLINE.finditer(message.text), *timelines]:
        if message.negated(m.start()):
            continue
        # "within a week", "en une semaine": the article counts one
        number = numbers.read_number(m.group(1), message.lang) if m.group(1) else 1.0
        unit = m.group(3).rstrip("s")
        # ("mois" keeps its s: "moi" would match no unit)
        factor = next((f for word, f in _HOURS.items() if unit.startswith(word) or m.group(3).startswith(word)), None)
        if not number or factor is None or unit.startswith(("nuit", "night")):
            continue  # "a night" is no figure: the interview asks
        if not job and factor >= _HOURS["mois"]:
            continue  # "en production d'ici 3 mois": a project's date, not a job's running time
        yield Found("deadline_hours", round(number * factor, 4), m.start(), m.end(), claim=False)
        return
    if not job:
        return
    for m in _WINDOW.finditer(message.text):
        hours = window_hours(m)
        if hours is not None and not message.negated(m.start()):
            yield Found("deadline_hours", round(hours, 4), m.start(), m.end(), claim=False)
            return
    for pattern in (_NIGHT, _EVERY_NIGHT):
        for m in pattern.finditer(message.text):
            if not message.negated(m.start()):
                yield Found("deadline_hours", NIGHT_HOURS, m.start(), m.end(), claim=False, approximate=True)
                return


DEADLINE = Rule(
    "deadline", ("deadline_hours",), find_deadline,
    examples=(("Le job doit finir en moins de 4 h.", {"deadline_hours": 4.0}),
              ("It must finish within a 5-hour window.", {"deadline_hours": 5.0}),
              ("it must finish within 6 hours", {"deadline_hours": 6.0}),
              ("Must finish within 2 days.", {"deadline_hours": 48.0}),
              ("Renting only, and it has to be done within a week.", {"deadline_hours": 168.0}),
              ("le pré-entraînement doit tenir en une semaine", {"deadline_hours": 168.0}),
              ("pré-entraîner un 8B, il faut que ce soit fini en 30 jours", {"deadline_hours": 720.0}),
              ("traduire 2 millions de pages, une seule fois, en moins d'un mois", {"deadline_hours": 730.0}),
              ("on voudrait finir en une nuit", {}), ("the first token within 2 seconds", {}),
              ("fine-tuner Mistral 7B en LoRA, une seule fois, et ça doit tourner en une nuit",
               {"deadline_hours": NIGHT_HOURS}),
              ("40k e-mails to classify overnight with Llama 3.1 8B", {"deadline_hours": NIGHT_HOURS}),
              ("chatbot RAG pour 200 agents, on voudrait un devis d'ici demain matin", {}),
              ("un checkpoint toutes les 2 heures", {}),
              ("résumer chaque nuit 50 000 documents ; le traitement doit tenir entre 22 h et 6 h",
               {"deadline_hours": 8.0}),
              ("classify 40k tickets between 11pm and 5:30am", {"deadline_hours": 6.5}),
              ("a nightly job that classifies 1.2M reviews", {"deadline_hours": NIGHT_HOURS}),
              ("on traite chaque nuit ~500 000 avis clients à classer", {"deadline_hours": NIGHT_HOURS}),
              ("un chatbot disponible la nuit pour 50 agents", {}),
              ("classer 80 000 documents, entre 2 et 4 GPU", {}),
              ("pretrain a 1B model from scratch on 100B tokens. Timeline: 3 months max.", {"deadline_hours": 2190.0}),
              ("Pré-entraînement d'un 3B, délai : 6 semaines.", {"deadline_hours": 1008.0}),
              ("chatbot pour 50 agents, délai : 3 mois pour la mise en service", {}),
              ("the fine-tune must finish within 2 months", {"deadline_hours": 1460.0}),
              ("fine-tuner Llama 3.3 70B en LoRA, 2 époques, en moins d'une semaine", {"deadline_hours": 168.0}),
              ("un chatbot en production en moins de 2 mois", {}),
              ("We want to fine-tune Gemma 3 27B fully on 5B tokens. Rent only. Two weeks max. Budget €60k.",
               {"deadline_hours": 336.0}),
              ("Fine-tuning LoRA de Mistral 7B. Deux semaines maximum.", {"deadline_hours": 336.0}),
              ("Chatbot pour 50 agents. Deux semaines max.", {})),
    doc="the time a batch or training job must finish in: configurations too slow for it are ruled out",
)


# a training rerun on a schedule: "a new model every month", "we retrain every month", "un nouveau modèle chaque
# mois", "on réentraîne tous les trimestres": the runs a year of the training job (a rented machine is paid by each
# run's hours; the planner passes it for training and vision use cases)
_RETRAINED = re.compile(r"(?<![\w])(?:re-?train\w*|re-?entrain\w*|re-?fine-?tun\w*|re-?affin\w*|(?:new|nouveaux?"
                        r"|fresh) (?:models?|modeles?|checkpoints?|versions?)|entrain\w*|train\w*|fine-?tun\w*"
                        r"|affin\w*|mise a jour du modele|model update\w*|update the model)(?![\w])")
_SCHEDULE = (
    (r"(?:every|each) (?:two|2) months|tous les (?:deux|2) mois|bimonthly|bimestriel\w*", 6),
    (r"(?:every|each) (?:six|6) months|tous les (?:six|6) mois|semestr\w*|twice a year|deux fois par an"
     r"|half-yearly|semi-?annual\w*", 2),
    (r"(?:every|each|per|a) (?:quarter|trimester)|quarterly|(?:tous les|chaque|par) trimestres?|trimestriel\w*", 4),
    (r"(?:every|each|per|a) month|monthly|(?:tous les|chaque|par) mois|mensuel\w*", 12),
    (r"(?:every|each|per|a) week|weekly|(?:toutes les|chaque|par) semaines?|hebdomadaire\w*", 52),
    (r"(?:every|each|per|a) year|yearly|annually|(?:tous les|chaque|par) ans?|(?:chaque|par) annee|annuel\w*", 1),
)
_TRAINING_CASES = frozenset({"finetune_full", "finetune_lora", "finetune_qlora", "pretraining", "vision"})


def find_retrain_runs(message: Message) -> Iterator[Found]:
    if "job_runs_per_year" in message.found:
        return
    # (the use case said, or, read alone, the message's training words or a vision training's: "YOLO detector")
    said = message.found.get("use_case")
    if said not in _TRAINING_CASES and (said is not None or not (
            TRAINS.search(message.text) or re.search(r"\b(?:detect\w*|classif\w*|segment\w*|yolo)\b", message.text))):
        return
    for m in _RETRAINED.finditer(message.text):
        start, end = sentence_bounds(message.text, m.start())
        for words, runs in _SCHEDULE:
            every = re.search(rf"(?<![\w]){words}(?![\w])", message.text[start:end])
            if every is not None and not message.negated(m.start()):
                yield Found("job_runs_per_year", runs, start + every.start(), start + every.end(), claim=False)
                return


RETRAIN_RUNS = Rule(
    "retrain-runs", ("job_runs_per_year",), find_retrain_runs,
    examples=(("LoRA sur Mistral 7B : un nouveau modèle chaque mois.", {"job_runs_per_year": 12}),
              ("LoRA on Mistral 7B; we retrain every month.", {"job_runs_per_year": 12}),
              ("On réentraîne tous les trimestres un LoRA de Qwen3 8B.", {"job_runs_per_year": 4}),
              ("YOLO detector at 640 px, retrained weekly on new images.", {"job_runs_per_year": 52}),
              ("We retrain our defect-detection model every month on 200 GB of images at 640 px.",
               {"job_runs_per_year": 12}),
              # not a schedule of training: a budget per month, a serving load, a training said once
              ("LoRA on Mistral 7B, budget €2k per month.", {}),
              ("Serve Llama 3.1 8B, a new model every month.", {}),
              ("Fine-tune Llama 3.1 8B once with LoRA.", {})),
    doc="a training rerun on a schedule: runs a year",
)
