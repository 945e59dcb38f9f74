"""Training settings: optimizer, checkpoint interval, dataset size."""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding import numbers
from sizer_agent.agent.understanding.numbers import BYTES, NUM
from sizer_agent.agent.understanding.rules import Found, Rule, choice_rule, first_match
from sizer_agent.agent.understanding.text import Message, words

OPTIMIZER = choice_rule(
    "optimizer", "optimizer",
    (
        # before precision: "AdamW 8 bits" is an optimizer, not a weight format
        # ("AdamW paginé 8-bit", "AdamW 8 bits paginé", "AdamW (paged) 8-bit": heldout41 fr-ap44)
        # ("Optimizer: AdamW (8-bit)", "AdamW (bnb 8 bits)": its bits in brackets — heldout44 en-as24)
        (r"(?<![\w])(?:adam\w*\s*(?:\(?(?:pagine\w*|paged)\)?\s*)?(?:en\s*)?(?:\(\s*(?:(?:bnb|bitsandbytes|paged"
         r"|pagine)\s*,?\s*)?)?8[- ]?bits?(?:\s*\))?|adam8bit|8[- ]?bits? adam\w*"
         r"|adam\w*\s+pagine\w*"
         r"|(?:paged[ _]|bnb )adam\w*(?:\s*8[- ]?bits?)?"
         r"|adamw_8bit|adamw_bnb_8bit)(?![\w])", "adamw_8bit"),
        (words(r"adafactor"), "adafactor"),
        # "SGD w/ momentum 0.9", "SGD (momentum 0.937)", "SGD, momentum 0.9": a momentum said with SGD
        (r"(?<![\w])(?:sgd\s*(?:avec|with|w/|\+|\(|,)?\s*(?:du\s+|a\s+)?(?:nesterov\s+)?momentum|sgd-?m|nesterov)(?![\w])",
         "sgd_momentum"),
        # "SGD 200,000", "SGD 350k": the Singapore dollar before an amount, no optimizer
        (r"(?<![\w])sgd(?![\w])"
         r"(?![ \t]*\$?[ \t]*(?:\d{1,3}(?:[ ,.]\d{3})+|\d{4,}|\d+(?:[.,]\d+)?[ \t]*(?:k|m|million)\b))",
         "sgd"),
        (words(r"adamw?", r"adam_w", r"adamw_torch\w*"), "adamw"),
    ),
    examples=(("AdamW 8 bits", {"optimizer": "adamw_8bit"}), ("SGD with momentum", {"optimizer": "sgd_momentum"}),
              ("optimiseur AdamW", {"optimizer": "adamw"}),
              ("optimizer: paged AdamW 8-bit", {"optimizer": "adamw_8bit"}),
              ("batch 16, AdamW paginé 8-bit, checkpoint", {"optimizer": "adamw_8bit"}),
              ("Optimizer: AdamW (8-bit)", {"optimizer": "adamw_8bit"}),
              ("optimiseur AdamW (bnb 8 bits)", {"optimizer": "adamw_8bit"}),
              ("SGD w/ momentum 0.9, lr 0.01", {"optimizer": "sgd_momentum"}),
              ("batch 256, SGD momentum 0.9", {"optimizer": "sgd_momentum"}),
              ("optimiseur SGD (momentum 0.95)", {"optimizer": "sgd_momentum"}),
              ("Our budget is SGD 200,000.", {}), ("SGD 350k set aside", {}),
              ("optimizer SGD, lr 0.1", {"optimizer": "sgd"})),
)

_EVERY = r"(?:every|toutes les|tous les|chaque|each|all)"
_TIME_UNIT = r"(?P<u>minutes?|mins?|mn|heures?|hours?|hrs?|h|jours?|days?|d)"
_CKPT = r"(?:checkpoints?|checkpointing|sauvegardes?|ckpt|snapshots?|save|sauvegarder)"


def _interval(m: re.Match[str], message: Message) -> float | None:
    number, unit = m.group("n"), m.group("u")
    return numbers.minutes(number or "1", unit, message.lang)


def _named_interval(m: re.Match[str], message: Message) -> float | None:
    word = m.group("w")
    if re.search(r"demi|half", word):
        return 30.0
    return 1440.0 if re.search(r"jour|day|daily|nuit|night|quotidien", word) else 60.0


CHECKPOINT = Rule(
    "checkpoint-interval", ("checkpoint_interval_min",),
    lambda message: first_match(message, "checkpoint_interval_min", (
        # the first interval of time after "checkpoint" in its sentence ("every 2,000 steps, i.e. every 4 hours")
        (rf"{_CKPT}[^.;\n]{{0,80}}?{_EVERY}\s*(?P<n>{NUM})?\s*{_TIME_UNIT}(?![\w])", _interval),
        (rf"{_EVERY}\s*(?P<n>{NUM})?\s*{_TIME_UNIT}(?![\w])\D{{0,25}}?{_CKPT}", _interval),
        (rf"{_CKPT}\D{{0,12}}?(?P<w>toutes les heures|chaque heure|every hour|hourly|toutes les demi-heures"
         rf"|every half hour|tous les jours|chaque jour|every day|daily|chaque nuit|every night|nightly"
         # ("checkpoint horaire", "sauvegarde quotidienne": the French adjective after the word — heldout23 fr-f46)
         rf"|horaires?|quotidien\w*|journalier\w*)(?![\w])",
         _named_interval),
        # "Hourly checkpoints": the interval said before the word (heldout21 en-d40, en-d49)
        (r"(?<![\w])(?P<w>hourly|daily|nightly)\s+(?:checkpoints?|checkpointing|ckpts?)(?![\w])", _named_interval),
    )),
    examples=(("checkpoint toutes les 30 min", {"checkpoint_interval_min": 30.0}),
              ("checkpoints hourly", {"checkpoint_interval_min": 60.0}),
              ("AdamW. Hourly checkpoints.", {"checkpoint_interval_min": 60.0}),
              ("AdamW, checkpoint horaire.", {"checkpoint_interval_min": 60.0}),
              ("save every 2 hours", {"checkpoint_interval_min": 120.0}),
              ("checkpoint every 1000 steps", {}),
              ("We checkpoint every 2,000 steps, which works out to roughly every 4 hours",
               {"checkpoint_interval_min": 240.0})),
)


_DATA_BEFORE = words(r"datasets?", r"data ?sets?", r"corpora", r"jeu de donnees", r"jeux de donnees", r"donnees",
                     r"data",
                     r"corpus", r"base documentaire", r"archives?", r"training set")
_DATA_AFTER = (r"\s*(?:de\s+|d'|of\s+)?(?:\w+\s+)?" + words(
    r"donnees", r"data", r"dataset", r"textes?", r"text", r"images?", r"photos?", r"documents?", r"docs",
    r"corpus", r"logs?", r"pdfs?", r"audio", r"videos?", r"code", r"e-?mails?", r"tickets?", r"jeu", r"scans?",
    r"contrats?", r"contracts?", r"transcripts?", r"conversations?", r"parquet", r"jsonl", r"csv", r"tokens",
    r"frames?", r"recordings?", r"enregistrements?", r"samples?", r"exemples?", r"examples?", r"shards?",
    r"tokenized text", r"notes?", r"reviews?", r"articles?", r"fiches?", r"dialogues?", r"x-?rays?", r"radios?",
    r"training data", r"d'entrainement", r"annotees?", r"labell?ed", r"rapports?", r"reports?", r"comptes rendus",
    r"actes", r"manuals", r"manuels", r"notices", r"minutes",
    # cut-up images a vision model trains on: "3 TB of tiles" (heldout21 en-d49), "patches", "crops", "clips"
    r"tiles?", r"tuiles?", r"patches", r"crops", r"clips", r"imagery", r"imagerie"))
# Sizes that are memory or storage, not a dataset: "80 Go de VRAM", "2 To NVMe", "H100 80GB", "is 16GB
# enough?" (a card's memory, asked about); and the model's own size is not a dataset either: "the model is
# 140 GB in bf16"
_MEMORY = (r"vram|ram|memoire|memory|hbm\w*|gddr\w*|gpu|carte|card|ssd|nvme|disque|disk|stockage|storage|ddr\d?|cache"
           r"|ecc|h100|h200|a100|l40s|rtx|mi300x|b200|per gpu|par gpu|each|chacune?|model\w*|weights|poids"
           r"|checkpoints?|bf16|fp16|fp8|int4|int8|params|parametres|parameters|enough|suffi\w*|assez|fits?|tient"
           r"|tenir|rentre"
           # "rtx 4090 laptop 16 go", "RTX 4060 de portable (8 go)": a laptop card's memory (heldout29 fr-ad35)
           r"|laptop|portable|notebook")
# a card's name is memory too: "V100 32 Go", "4090 24GB"
# (from a word's start: the "ram" inside "framework" is no memory — heldout23 fr-f21)
_NOT_DATA = re.compile(rf"(?:\b(?:{_MEMORY})|\b[a-z]{{1,3}}\d{{2,4}}[a-z]?\b|\b\d{{4}}\b)")
_MEMORY_WORDS = re.compile(rf"\b(?:{_MEMORY})\b")


_IS_SIZE = re.compile(r"\b(?:is|are|fait|font|pese\w*|weighs?|takes?|prend|occupe\w*)\s*(?:~|about|around|environ)?"
                      r"\s*$")
# "RTX 5090 w/ 32GB", "ma RTX 5080 de 16 Go": right after a thing named, its own memory
_AFTER_A_NAME = re.compile(r"_\s*(?:w/|with|avec|\(|de|of)\s*$")


# "Interconnexion 400 Gb/s", "25 GB per second": a rate (a link, a disk), never a size of data
_RATE_AFTER = re.compile(r"\s*(?:/\s*s(?:ec)?\b|per second|par seconde|/\s*seconde?)")

# "30 Go de texte par mois", "2 GB of new logs per night": a flow over a period, not the size of a data set (the
# corpora leave dataset_size_bytes empty for it: heldout23 fr-f43, en-f49)
_PER_PERIOD_AFTER = re.compile(r"\s*(?:(?:of|de|d['’])\s*)?(?:[\w'’-]+\s+){0,3}?"
                               r"(?:per|par|a|an|each|every|chaque|tous\s+les|toutes\s+les)\s+"
                               r"(?:months?|mois|nights?|nuits?|days?|jours?|weeks?|semaines?|years?|ans?|ann[ée]es?)\b")


# "3 jeux de données de 200 Mo chacun", "four corpora of 250 MB each": a count of sets, each of the size said — the
# data trained on is their total (heldout27 fr-ab42)
_SETS_BEFORE = re.compile(r"(?<![\w.,])(\d{1,3})\s+(?:[\w-]+\s+){0,1}?(?:jeux de donnees|jeux|corpus|datasets?"
                          r"|data sets?"
                          r"|corpora|fichiers|files|lots|parties|parts|shards|collections)(?:\s+[\w-]+){0,2}?"
                          r"\s+(?:de|d'|of)\s*(?:~\s*|about\s+|around\s+|environ\s+)?$")
_EACH_AFTER = re.compile(r"\s*,?\s*(?:chacune?|each|apiece|par (?:jeu|corpus|fichier|lot)|per (?:set|file|corpus))\b")


def _sets_total(text: str, start: int, end: int, value: int) -> int:
    """The size of one set times the count of sets said before it, when the size is said "each"."""
    sets = _SETS_BEFORE.search(text, max(0, start - 60), start)
    if sets is None or not _EACH_AFTER.match(text, end):
        return value
    return value * int(sets.group(1))


def _line_around(text: str, start: int, end: int, before: int, after: int) -> str:
    """The words just before and after a span, within its line."""
    left = text[max(0, start - before):start].rsplit("\n", 1)[-1]
    right = text[end:end + after].split("\n", 1)[0]
    return left + " " + right


def find_dataset(message: Message) -> Iterator[Found]:
    text = message.text
    for pattern in (rf"{_DATA_BEFORE}\D{{0,25}}?{BYTES}", rf"{BYTES}{_DATA_AFTER}",
                    # "20k examples (~50 MB)", "12 000 paires, 80 Mo": the size of the examples just counted
                    rf"(?<![\w])(?:examples?|exemples?|samples?|echantillons?|pairs|paires|rows|lignes|dialogues)"
                    rf"\s*[(,:-]?\s*(?:~|about\s+|environ\s+|soit\s+)?{BYTES}",
                    # "Data is 20 000 examples, 80 MB", "Corpus: 9M product reviews (~40 GB)": a count between
                    rf"{_DATA_BEFORE}(?P<gap>[^.;\n_]{{0,40}}?){BYTES}",
                    # "full fine-tune of Qwen3 4B, all weights, on 30 GB." (heldout21 en-d40): what a training runs
                    # on, said as a size (not a card's memory: "on 24 GB cards")
                    rf"(?<![\w])(?:fine-?tun\w*|finetun\w*|train\w*|entrain\w*|affin\w*|pre-?train\w*)"
                    rf"[^.;\n]{{0,60}}?(?<![\w])(?:on|sur)\s+(?:~\s*|about\s+|around\s+|environ\s+)?{BYTES}"
                    rf"(?!\s*(?:of\s+|de\s+)?(?:vram|ram|memory|memoire|hbm|gpus?|cards?|cartes?|each|chacune?))"):
        for m in re.finditer(pattern, text):
            if message.negated(m.start()) or ("gap" in m.groupdict() and _MEMORY_WORDS.search(m.group("gap"))):
                continue
            number = re.search(BYTES, m.group(0))
            if number is None or _RATE_AFTER.match(text, m.start() + number.end()) or (
                    _PER_PERIOD_AFTER.match(text, m.start() + number.end())):
                continue
            value = numbers.byte_count(number.group(1), number.group(2), message.lang)
            if value is not None:
                figure = (m.start() + number.start(), m.start() + number.end())
                value = _sets_total(text, *figure, value)
                yield Found("dataset_size_bytes", value, m.start(), m.end(), figure=figure)
                return
    # a size with no data word next to it, when nothing says it is memory or storage: "3 TB of text"
    # is covered above; "on a 1,5 To à traiter" lands here
    for m in re.finditer(BYTES, text):
        # "Llama 3.1 405B in FP8 is ~405 GB": a size something "is", with no data word, is that thing's
        if message.negated(m.start()) or _NOT_DATA.search(_line_around(text, m.start(), m.end(), 12, 15)) or (
                _IS_SIZE.search(text, max(0, m.start() - 15), m.start())):
            continue
        if _RATE_AFTER.match(text, m.end()) or _PER_PERIOD_AFTER.match(text, m.end()):
            continue
        if _AFTER_A_NAME.search(text, max(0, m.start() - 10), m.start()):
            continue  # "RTX 5090 w/ 32GB", "Llama 3.1 8B (16 GB)": the memory of the thing just named
        value = numbers.byte_count(m.group(1), m.group(2), message.lang)
        if value is not None:
            value = _sets_total(text, m.start(), m.end(), value)
        if value is not None and value >= 10**8:  # below 100 MB it is a file, not a training set
            yield Found("dataset_size_bytes", value, m.start(), m.end())
            return


# A raw size beside the cleaned one: the size trained on is the cleaned one ("1,5 To brut, mais ~200 Go après
# nettoyage", "the raw crawl was 3 TB; after dedup we're at 150 GB"). Each cue marks the size nearest to it in
# its sentence, so the "raw" said of one size does not mark the next ("on 2 TB of sequences (the raw download
# was 9 TB before filtering)"). With one size marked raw and no cleaned cue, the only other size of data is the
# one trained on; two cleaned sizes ("500 GB clean or 300 GB filtered") leave the question open.
_RAW = re.compile(r"\b(?:raw|brut\w*|unfiltered|non nettoye\w*|(?:avant|before) (?:tout )?(?:le |la |any )?"
                  r"(?:nettoyage|dedup\w*|filtrage|filtering|cleaning|clean-?up|extraction))\b")
_CLEANED = re.compile(r"(?:nettoy|dedup|filtr|filter|clean|curated|we keep|on garde|on conserve|train(?:ed)? on"
                      r"|pretraitement|preprocess|pre-process|apres (?:conversion|extraction|decoupage)"
                      # a subset kept for training: "downsampled to 1.5 TB", "only 50 GB are labelled"
                      r"|downsampl|sous-echantillon|reduced to|redui\w* a|ramene\w* a|labell?ed|annote|extracted"
                      r"|extrait|subset|sous-ensemble|for training|pour l'entrainement"
                      r"|qu'on entrain|que l'on entrain|we'll train|will train|on ne traitera|on traitera)")
_SENTENCE_CUT = re.compile(r"[;\n!?]|\.(?!\d)")


_CLAUSE_CUT = re.compile(r"[;\n!?()]|\.(?!\d)|,(?!\d)")


def _nearest(sizes: list[re.Match[str]], text: str, start: int, end: int) -> re.Match[str] | None:
    """The size nearest a cue at text[start:end]: in the cue's clause ("1,8 To en DICOM brut, 350 Go après
    prétraitement"), else in its sentence ("la version nettoyée en texte, environ 600 Go")."""
    return _nearest_within(sizes, text, start, end, _CLAUSE_CUT) or _nearest_within(sizes, text, start, end,
                                                                                    _SENTENCE_CUT)


def _nearest_within(sizes: list[re.Match[str]], text: str, start: int, end: int,
                    cut: re.Pattern[str]) -> re.Match[str] | None:
    lo = max((m.end() for m in cut.finditer(text, 0, start)), default=0)
    stop = cut.search(text, end)
    hi = stop.start() if stop else len(text)
    near = [(s.start() - end if s.start() >= end else start - s.end() if s.end() <= start else 0, s)
            for s in sizes if s.start() >= lo and s.end() <= hi]
    return min(near, key=lambda pair: pair[0])[1] if near else None


def _smaller(message: Message, a: re.Match[str], b: re.Match[str]) -> bool:
    """A cleaned or subset size is smaller than the raw one it comes from."""
    size_a = numbers.byte_count(a.group(1), a.group(2), message.lang)
    size_b = numbers.byte_count(b.group(1), b.group(2), message.lang)
    return size_a is not None and size_b is not None and size_a < size_b


def find_trained_size(message: Message) -> Iterator[Found]:
    text = message.text
    sizes = list(re.finditer(BYTES, text))
    if len(sizes) < 2:
        return
    raw: list[re.Match[str]] = []
    raw_cues = list(_RAW.finditer(text))
    for cue in raw_cues:
        size = _nearest(sizes, text, cue.start(), cue.end())
        if size is not None and size not in raw:
            raw.append(size)
    cleaned: list[re.Match[str]] = []
    for cue in _CLEANED.finditer(text):
        if any(r.start() <= cue.start() < r.end() for r in raw_cues):
            continue  # "before filtering" marks the raw size
        size = _nearest(sizes, text, cue.start(), cue.end())
        if size is not None and size not in raw and size not in cleaned:
            cleaned.append(size)
    if not raw:
        # no raw size said: one size marked as the subset trained on, smaller than the one other size of data
        # ("500 GB of images but only 50 GB are labelled"), is the one trained on
        others = [m for m in sizes if m not in cleaned]
        if len(cleaned) != 1 or len(others) != 1 or _NOT_DATA.search(
                _line_around(text, others[0].end(), others[0].end(), 0, 15)) or not _smaller(message, cleaned[0],
                                                                                             others[0]):
            return
    if not cleaned:
        others = [m for m in sizes if m not in raw]
        # (the words after it say whether it is memory: "80 GB each", "80 Go de VRAM")
        if len(others) != 1 or _NOT_DATA.search(_line_around(text, others[0].end(), others[0].end(), 0, 15)):
            return
        cleaned = others
    if len(cleaned) == 1 and not message.negated(cleaned[0].start()) and all(_smaller(message, cleaned[0], r)
                                                                              for r in raw):
        m = cleaned[0]
        value = numbers.byte_count(m.group(1), m.group(2), message.lang)
        if value is not None:
            yield Found("dataset_size_bytes", value, m.start(), m.end())


TRAINED_SIZE = Rule(
    "dataset-trained-size", ("dataset_size_bytes",), find_trained_size,
    examples=(("1,5 To brut, mais ~200 Go après nettoyage, c'est ce volume qu'on entraînera",
               {"dataset_size_bytes": 200_000_000_000}),
              ("The raw crawl was 3 TB; after dedup we're at 150 GB, which is what we'll train on.",
               {"dataset_size_bytes": 150_000_000_000}),
              ("corpus brut de 2 To, environ 120 Go une fois dédupliqué", {"dataset_size_bytes": 120_000_000_000}),
              ("the raw scrape is 4 TB, after filtering we keep 90 GB", {"dataset_size_bytes": 90_000_000_000}),
              # no raw size said: left to the general rule
              ("300 Go de tickets, 80 Go de VRAM", {}), ("raw: 2 TB; 500 GB clean or 300 GB filtered", {}),
              # each cue marks its nearest size; with one raw size, the only other size of data is trained on
              ("L'archive brute fait 2,4 To (scans + HTML) ; on ne traitera que la version nettoyée en texte, "
               "environ 600 Go.", {"dataset_size_bytes": 600_000_000_000}),
              ("on 2 TB of sequences (the raw download was 9 TB before filtering)",
               {"dataset_size_bytes": 2_000_000_000_000}),
              ("raw logs are 5 TB; the GPUs have 80 GB each", {}),
              ("12 000 IRM (1,8 To en DICOM brut, 350 Go après prétraitement)", {"dataset_size_bytes": 350 * 10**9}),
              ("We have 500 GB of images but only 50 GB are labelled; we train on those.",
               {"dataset_size_bytes": 50 * 10**9}),
              ("12 TB of satellite tiles, downsampled to 1.5 TB for training.", {"dataset_size_bytes": 1.5e12}),
              ("40 GB of curated text; the GPU has 80 GB of memory", {}),
              ("raw data 200 GB, 300 GB after augmentation and cleaning", {})),
    doc="The size trained on: the cleaned size beside a raw one.",
)

DATASET = Rule(
    "dataset-size", ("dataset_size_bytes",), find_dataset,
    examples=(("LoRA sur 3 jeux de données de 400 Mo chacun", {"dataset_size_bytes": 1_200_000_000}),
              ("QLoRA on four datasets of 1.5 GB each", {"dataset_size_bytes": 6_000_000_000}),
              ("Interconnexion 400 Gb/s entre les nœuds", {}),
              ("Qwen3 8B en int4 sur mon pc portable, rtx 4070 laptop 8 go, ça tourne ?", {}),
              ("my notebook has an RTX 5070 Ti with 12 GB: enough for Mistral 7B?", {}),
              ("batch 4 per GPU, 2 TB of tiles", {"dataset_size_bytes": 2000000000000}),
              ("Fine-tune Qwen3 8B with LoRA, seq 4096, on 12 GB. 2 GPUs.", {"dataset_size_bytes": 12000000000}),
              ("fine-tune Mistral 7B on 24 GB cards", {}),
              ("avec ma RTX 5080 de 16 Go je peux lancer Qwen3 14B ?", {}),
              ("un dataset de 120 Go lu à 5 GB/s", {"dataset_size_bytes": 120000000000}),
              ("dataset de 1,5 To", {"dataset_size_bytes": 1_500_000_000_000}),
              # a flow over a period is no data set (heldout23 fr-f43, en-f49)
              ("2,5 millions d'images 224x224, environ 350 Go. Framework : TensorFlow 2.15.",
               {"dataset_size_bytes": 350_000_000_000}),
              ("Ça représente environ 30 Go de texte par mois.", {}),
              ("about 2 GB of new logs per night", {}),
              ("Dataset : une centaine de Mo.", {"dataset_size_bytes": 100_000_000}),
              ("1,5 To de texte", {"dataset_size_bytes": 1_500_000_000_000}),
              ("3 TB of text", {"dataset_size_bytes": 3_000_000_000_000}),
              ("80 GiB dataset", {"dataset_size_bytes": 80 * 2**30}),
              ("une carte de 80 Go de VRAM", {}),
              ("1,500 Go de données", {"dataset_size_bytes": 1_500_000_000}),
              ("batch 4 per GPU, ~3 TB of frames", {"dataset_size_bytes": 3_000_000_000_000}),
              ("the model is 140 GB in bf16", {}), ("notre ancien serveur a 4 V100 32 Go", {}),
              ("Data: 12k labelled pairs, 60 MB", {"dataset_size_bytes": 60_000_000}),
              ("corpus : 3 millions de pages (~2 To)", {"dataset_size_bytes": 2_000_000_000_000}),
              ("one RTX 5090. Is 32GB enough?", {}), ("est-ce que 24 Go suffisent ?", {}),
              ("about half a terabyte of logs", {"dataset_size_bytes": 500_000_000_000}),
              ("2 terabytes of scans", {"dataset_size_bytes": 2_000_000_000_000}),
              ("~40 GB\n- Model: Qwen3 8B", {"dataset_size_bytes": 40_000_000_000}),
              ("Llama 3.1 405B in FP8 is ~405 GB", {}),
              ("20k examples (~50 MB)", {"dataset_size_bytes": 50_000_000}),
              ("8 000 paires question-réponse, 12 000 exemples, soit 30 Mo", {"dataset_size_bytes": 30_000_000}),
              ("data: 2 to 3 million documents", {}), ("corpus de 2 To de textes", {"dataset_size_bytes": 2 * 10**12}),
              # reports and deeds are data too, after a word that would otherwise say memory ("tous les poids")
              ("fine-tuner Mistral 7B (tous les poids) sur 3 Go de rapports de maintenance",
               {"dataset_size_bytes": 3 * 10**9})),
)

# A training set said in tokens: "sur environ 40 millions de tokens", "pretrain on ~1.2T tokens", "100B tokens".
# Tokens are what an epoch is timed in, so a count of them is taken as it is (no bytes-per-token guess). Only
# in a message that trains: "50M tokens per day" to generate, a "1M tokens" context or a "global batch 4M
# tokens" are no dataset.
_TOKEN_SCALE = {"k": 1e3, "m": 1e6, "million": 1e6, "millions": 1e6, "b": 1e9, "g": 1e9, "md": 1e9, "mds": 1e9,
                "milliard": 1e9, "milliards": 1e9, "billion": 1e9, "billions": 1e9, "t": 1e12, "trillion": 1e12,
                "trillions": 1e12}
_DATASET_TOKENS = re.compile(
    rf"({NUM})\s*(k|m|b|g|t|mds?|millions?|milliards?|billions?|trillions?)?\s*(?:de |d'|of )?(?:tokens?|jetons)\b")
# words of a training run (also read by batch_job: a night deadline is a job's)
TRAINS = re.compile(r"\b(?:train\w*|entrain\w*|fine-?tun\w*|finetun\w*|affin\w*|pre-?train\w*|pretrain\w*"
                     r"|pre-?entrain\w*|lora|qlora|from scratch|de zero|sft|dpo)\b")
# what a token count measures when it is not the data: a context, a batch, a rate, something to generate
_NOT_DATASET_BEFORE = re.compile(r"(?:context\w*|fenetre|window|batch\w*|generer|generate|gener\w*|produire|produce"
                                 r"|output|sortie|per|par|budget)\W+(?:\w+\W+){0,3}$")
# (a period word after "per"/"a" needs its space: "200B tokens as a class project" is no "a s" rate — own use, u136)
_NOT_DATASET_AFTER = re.compile(r"\W*(?:\w+\W+){0,2}?(?:(?:par|per|a|an|each|chaque)\s+|/\s*)(?:jours?|day|mois|month"
                                r"|semaine|week|heure|hour|s\b|seconde?|second|step|pas)\b|\W*(?:de |of )?(?:context\w*"
                                r"|window|fenetre|a generer|to generate)")


# "50k support tickets (about 400 tokens each)", "20 000 exemples d'environ 500 tokens chacun", "12k chats
# averaging 800 tokens": a count of examples times the tokens of each is the set trained on
_COUNT_TIMES_TOKENS = re.compile(
    rf"({NUM})\s*(k|m|millions?|thousand)?\s+(?:de |d')?(?:[\w-]+\s+){{0,2}}?(?:examples?|exemples?|samples?"
    r"|echantillons?|tickets|documents|conversations|chats|dialogues|pairs|paires|emails|mails|courriels|messages"
    r"|records|rows|lignes|reports|rapports|articles|questions|instructions|transcripts|transcriptions|fiches"
    r"|dossiers|contrats|contracts|letters|lettres|reviews|avis)(?:-[a-z]+)?\b(?:\s+(?!(?:of|de|d|about|around|averaging|environ"
    r"|en|on)\b)[a-z][\w-]*){0,2}?"  # ("8 000 fiches produits (environ 800 tokens chacune)": a noun after)
    r"\s*[(,:-]?\s*(?:of |de |d')?(?:about |around "
    r"|roughly |approx\.? |~ ?|environ |en moyenne |on average |averaging |avg\.? |at most |up to )?"
    rf"({NUM})\s*(k)?\s*(?:tokens?|jetons)\b(?:\s*(?:each|apiece|chacune?|par (?:exemple|ticket|document|dossier"
    r"|conversation|fiche)|per (?:example|ticket|document|conversation|sample|row)|en moyenne|on average))?")
_COUNT_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "millions": 1e6}


def _count_times_tokens(message: Message) -> Found | None:
    for m in _COUNT_TIMES_TOKENS.finditer(message.text):
        count = numbers.read_number(m.group(1), message.lang)
        each = numbers.read_number(m.group(3), message.lang)
        # "20,000 examples averaging 1,200 tokens" in a message too short to tell its language: a comma before
        # three digits that would leave a fraction of a token is a thousands separator
        for other in ("en", "fr"):
            if each is not None and each < 10 and re.fullmatch(r"\d{1,3}(?:,\d{3})+", m.group(3)):
                each = numbers.read_number(m.group(3), other)
            if count is not None and re.fullmatch(r"\d{1,3}(?:,\d{3})+", m.group(1)) and count < 100:
                count = numbers.read_number(m.group(1), other)
        if count is None or each is None or message.negated(m.start()):
            continue
        count *= _COUNT_SCALE[m.group(2)] if m.group(2) else 1
        each *= 1e3 if m.group(4) else 1
        if count >= 100 and 10 <= each <= 200_000:  # a data set of examples, each a prompt's length
            return Found("dataset_tokens", int(count * each), m.start(), m.end(), claim=False)
    return None


_EACH_LENGTH = re.compile(rf"({NUM})\s*(k)?\s*(?:tokens?|jetons)\b")


def find_count_times_tokens(message: Message) -> Iterator[Found]:
    if TRAINS.search(message.text):
        product = _count_times_tokens(message)
        if product is not None:
            yield product
            # the length of one example is the sequence a training step reads: "QLoRA … sur 50k exemples de 1 500
            # tokens" sizes its activations from 1 500 (the schema's input_len, as "environ 800 tokens chacune")
            each = list(_EACH_LENGTH.finditer(message.text, product.start, product.end))[-1]
            count = product.value
            length = next((n for n in (numbers.read_number(each.group(1), lang) for lang in (message.lang, "en"))
                           if n is not None and 10 <= n * (1024 if each.group(2) else 1) <= 200_000), None)
            if length is not None and "input_len" not in message.found and count:
                yield Found("input_len", int(length * (1024 if each.group(2) else 1)), each.start(), each.end())


# before the lengths, which read "about 400 tokens each" as the mean input and claim it
COUNT_TIMES_TOKENS = Rule(
    "dataset-count-times-tokens", ("dataset_tokens", "input_len"), find_count_times_tokens,
    examples=(("We want to fine-tune Llama 3.1 8B with LoRA on 50k support tickets (about 400 tokens each)",
               {"dataset_tokens": 20_000_000, "input_len": 400}),
              ("affiner Mistral 7B sur 20 000 exemples d'environ 500 tokens chacun",
               {"dataset_tokens": 10_000_000, "input_len": 500}),
              ("fine-tune on 12k conversations averaging 800 tokens", {"dataset_tokens": 9_600_000, "input_len": 800}),
              # (in a message too short to tell its language, "1,200" is still twelve hundred)
              ("LoRA on 20,000 examples averaging 1,200 tokens", {"dataset_tokens": 24_000_000, "input_len": 1200}),
              ("sur nos 8 000 fiches produits (environ 800 tokens chacune), en LoRA",
               {"dataset_tokens": 6_400_000, "input_len": 800}),
              ("QLoRA sur 50k exemples de 1 500 tokens", {"dataset_tokens": 75_000_000, "input_len": 1500}),
              ("summarise 50k support tickets of about 400 tokens each", {})),
    doc="a training set said as examples times the tokens of each, and the length of one as the sequence trained on",
)


def find_dataset_tokens(message: Message) -> Iterator[Found]:
    text = message.text
    # epochs are passes over a training set: "about 40 million tokens, 2 epochs" answers with its size
    if not (TRAINS.search(text) or _EPOCHS.search(text) or message.training_context) \
            or "dataset_tokens" in message.found:
        return
    for m in _DATASET_TOKENS.finditer(text):
        if message.negated(m.start()) or _NOT_DATASET_BEFORE.search(text, max(0, m.start() - 40), m.start()):
            continue
        if _NOT_DATASET_AFTER.match(text, m.end()):
            continue
        number = numbers.read_number(m.group(1), message.lang)
        if number is None:
            continue
        # number words are figures by now ("40 millions" reads 40000000); a written scale multiplies
        tokens = int(number * _TOKEN_SCALE[m.group(2)] if m.group(2) else number)
        if tokens >= 10**6:  # below a million tokens it is a prompt or a context, not a training set
            yield Found("dataset_tokens", tokens, m.start(), m.end(), claim=False)
            return


DATASET_TOKENS = Rule(
    "dataset-tokens", ("dataset_tokens",), find_dataset_tokens,
    examples=(("fine-tuner Mistral 7B en LoRA sur 20 000 exemples (environ 40 millions de tokens)",
               {"dataset_tokens": 40_000_000}),
              ("pre-train a 3B model from scratch on ~1.2T tokens (about 4.8 TB of text)",
               {"dataset_tokens": 1_200_000_000_000}),
              ("pré-entraînement d'un 7B sur environ 2 000 milliards de tokens", {"dataset_tokens": 2 * 10**12}),
              ("Could we pretrain a small model from scratch? Roughly 100B tokens.", {"dataset_tokens": 10**11}),
              ("pretraining, context 8k, global batch 4M tokens, AdamW", {}),
              ("We need to generate ~50M tokens of synthetic Q&A pairs as training data", {}),
              ("batch inference on Qwen3 8B, roughly 50M tokens per day", {}),
              ("RAG avec un contexte énorme (genre 1M tokens ?)", {}),
              ("fine-tune on 500k tokens of support chats", {}),
              ("about 40 million tokens, 2 epochs", {"dataset_tokens": 40_000_000}),
              ("pretrain a 1B model from scratch on 200B tokens as a class project", {"dataset_tokens": 200 * 10**9}),
              ("pretraining at 2M tokens/s on the cluster", {}),
              ("environ 40 millions de tokens, 2 époques", {"dataset_tokens": 40_000_000})),
    doc="a training set counted in tokens: the epoch is timed on it as stated",
)


# "3 époques sur 2 milliards de tokens", "for 2 epochs", "sur trois epochs": passes over the data set — the job is
# that many epochs long ("toutes les 2 époques", "par époque", "epoch 3 of 5" count no passes)
_EPOCHS = re.compile(r"(?<![\w.,])(\d{1,3})\s*(?:epoques?|epochs?|passes? (?:sur|over) (?:les|the) (?:donnees|data))\b")
_NOT_PASSES_BEFORE = re.compile(r"\b(?:toutes les|tous les|every|each|chaque|after|apres|par|per)\s*$")


def find_epochs(message: Message) -> Iterator[Found]:
    for m in _EPOCHS.finditer(message.text):
        if message.negated(m.start()) or _NOT_PASSES_BEFORE.search(message.text, max(0, m.start() - 12), m.start()):
            continue
        value = int(m.group(1))
        if 1 <= value <= 1000:
            yield Found("epochs", value, m.start(), m.end(), claim=False)
            return


EPOCHS = Rule(
    "epochs", ("epochs",), find_epochs,
    examples=(("full fine-tuning, 3 époques sur environ 2 milliards de tokens", {"epochs": 3}),
              ("LoRA on Mistral 7B for 2 epochs over 40M tokens", {"epochs": 2}),
              ("on entraîne sur trois epochs", {"epochs": 3}),
              ("un checkpoint toutes les 2 époques", {}), ("one checkpoint every 2 epochs", {}),
              ("YOLOv8 training, 300 epochs on 20k images", {"epochs": 300})),
    doc="passes over the data set a training job makes: its hours, deadline and one-off rental are that many epochs",
)


_MAX_BATCH = 65_536  # a larger figure after "batch" counts documents or tokens, not a batch


def _batch(value: int | None) -> int | None:
    return value if value is not None and value <= _MAX_BATCH else None


_LOT = (r"lots?(?=\s*=|\s+de\s+\d[\d ,.]*\s*(?:sequences?|exemples?|echantillons?|requetes?|prompts?|images?|samples?"
        r"|[,.;:)]|$))")
# "lot" is a batch only with its size said as one ("lots de 64", "taille de lot 32"): "Lot 2 :" numbers a
# tender's part, "traitement par lots : 3 milliards de tokens" is batch work of that volume


def _build_batch(m: re.Match[str], msg: Message) -> int | None:
    return _batch(numbers.count(m.group(1) or m.group(2) or m.group(3), None, msg.lang))


# "batch 64 (with gradient accumulation: micro-batch 8)", "batch global 256, micro-batch 4 par carte": the
# micro-batch is what one GPU holds at once, the size a memory estimate needs; the global batch is only its
# multiple (read when it is the only batch said)
_MICRO_BATCH = (rf"(?<![\w])(?:micro-?batch(?:e?s)?|per-device batch)(?:[ _-]?size)?"
                rf"(?:\s+(?:par|per)\s+(?:gpu|carte|card|device))?\s*(?:de|of|:|=)?\s*({NUM})(?![\d.,]\d)")
_BATCH = (
    rf"(?<![\w])(?:micro-?batch|per-device batch|batch(?:e?s)?|taille de lots?|{_LOT})(?:[ _-]?size)?"
    rf"(?:\s+(?:global|total|effecti\w*|per-device|par gpu|per gpu))?(?:\s+(?:par|per)\s+gpu)?\s*"
    rf"(?:de|of|:|=|size of|de taille|a|à)?\s*({NUM})(?![\d]|\s*(?:k\b|m\b|%|go\b|gb\b|to\b|tb\b|ms\b|s\b"
    rf"|documents?|docs"
    rf"|(?:de |d'|of )?tokens?"
    rf"|images?|fichiers|files|pages|tokens|heures?|hours?|h\b|jours?|days?|(?:\w+\s+)?(?:par|per|a|an|each)\s+"
    rf"(?:jour|day|nuit|night|heure|hour|semaine|week|mois|month)))"
    rf"|({NUM})\s*(?:par batch|per batch|par lot|samples? per (?:batch|gpu)|sequences? par batch)"
    # "| Batch | 32 |": a table's row whose cell is the figure alone
    rf"|(?<![\w])(?:batch(?:[ _-]?size)?|taille de lots?|batch par gpu|batch per gpu)\s*\|\s*({NUM})\s*\|"
)


def find_batch_size(message: Message) -> Iterator[Found]:
    return first_match(message, "batch_size", ((_MICRO_BATCH, _build_batch), (_BATCH, _build_batch)))


BATCH_SIZE = Rule(
    "batch-size", ("batch_size",), find_batch_size,
    examples=(("batch 4", {"batch_size": 4}),
              ("batch 64 (with gradient accumulation: micro-batch 8)", {"batch_size": 8}),
              ("batch global 256, micro-batch 4 par carte", {"batch_size": 4}),
              ("batch size de 16", {"batch_size": 16}),
              ("batch inference on 10 000 documents", {}), ("batch global 128", {"batch_size": 128}),
              ("des batchs de 64 requêtes", {"batch_size": 64}), ("we batch 32 prompts at a time", {"batch_size": 32}),
              ("batch 16 total", {"batch_size": 16}), ("batch of 5000 requests per night", {}),
              ("lots of 50 users", {}),
              ("Lot 2 : fourniture d'un serveur", {}), ("Marché public, lot 3 : un serveur 2U", {}),
              ("des lots de 64 séquences", {"batch_size": 64}), ("taille de lot 32", {"batch_size": 32}),
              ("Traitement par lots : 3 milliards de tokens", {}),
              ("Traduction par lots de 40 000 notices techniques", {}),
              ("global batch 2M tokens per step", {}),
              ("des lots de 16, pas plus", {"batch_size": 16}), ("batch of 2,000,000 rows", {}),
              ("| Champ | Valeur |\n|---|---|\n| Batch | 32 |", {"batch_size": 32}),
              ("| Traitement par batch | 12 000 documents |", {})),
)
