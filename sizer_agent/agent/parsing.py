"""Free-text understanding for the deterministic engine, French and English.

`parse_message(text, current)` finds every answer a message gives: keyword-tagged values anywhere
("contexte 8k", "32 utilisateurs", "en fp8", "budget 25 000 €"), a model name, and — for the question
being asked — a bare value ("32", "oui", "2k / 512"). It also recognises the intents that are not answers:
"why?", "I don't know", and correction markers ("actually", "non, plutôt").

Units: tokens use binary k/M like context windows ("8k" = 8 192); counts use decimal k ("2k users" =
2 000); bytes follow the unit named (Go/GB = 10^9, Gio/GiB = 2^30, To/TB = 10^12); French decimal commas
("1,5 To") and thousands spaces ("25 000 €") are understood.

Never raises on any input: values a pattern finds but cannot convert are simply not returned.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Intent = Literal["answer", "why", "dont_know", "empty"]

# -- normalisation ---------------------------------------------------------------------------------------


def _fold(text: str) -> str:
    """Lowercase, typographic spaces and quotes made plain, accents kept (French keywords use them)."""
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u2019", "'").replace("\u00a0", " ").replace("\u202f", " ").replace("×", "x")
    return text.lower()


def _strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")


# -- numbers and units -----------------------------------------------------------------------------------

_NUM = r"(?:[1-9]\d{0,2}(?:[ ,.]\d{3})+(?![\d])|\d+(?:[.,]\d+)?)"


def parse_number(text: str) -> float | None:
    """'25 000' -> 25000, '25,000' -> 25000, '1,5' -> 1.5, '1.5' -> 1.5, '2.048' -> 2048."""
    text = text.strip()
    if re.fullmatch(r"[1-9]\d{0,2}(?:[ ,.]\d{3})+", text):  # a leading 0 is a decimal: "0.125"
        separators = set(re.findall(r"[ ,.]", text))
        if len(separators) == 1:  # one kind of grouping: thousands (a decimal has one separator)
            if (text.count(",") == 1 and "," in separators) or (text.count(".") == 1 and "." in separators):
                # "1,500" or "1.500": three digits after a single separator read as thousands
                pass
            return float(re.sub(r"[ ,.]", "", text))
        return None
    match = re.fullmatch(r"(\d+)(?:[.,](\d+))?", text)
    if not match:
        return None
    return float(f"{match.group(1)}.{match.group(2) or 0}")


_TOKEN_SUFFIX = {"": 1, "k": 1024, "m": 1024 * 1024}
_COUNT_SUFFIX = {"": 1, "k": 1000, "m": 1_000_000}
TOKENS_RE = rf"({_NUM})\s*(k|m)?(?![a-z])"
_ABOUT = r"(?:(?:d')?environ\s*|about\s*|around\s*|~\s*|à peu près\s*|approx\.?\s*)?"


def parse_tokens(number: str, suffix: str | None) -> int | None:
    value = parse_number(number)
    if value is None:
        return None
    return round(value * _TOKEN_SUFFIX[(suffix or "").lower()])


def parse_count(number: str, suffix: str | None = None) -> int | None:
    value = parse_number(number)
    if value is None:
        return None
    result = value * _COUNT_SUFFIX[(suffix or "").lower()]
    return int(result) if result == int(result) else None


_BYTE_UNITS = {
    "o": 1, "b": 1, "octets": 1, "bytes": 1,
    "ko": 10**3, "kb": 10**3, "mo": 10**6, "mb": 10**6, "go": 10**9, "gb": 10**9, "to": 10**12,
    "tb": 10**12, "po": 10**15, "pb": 10**15,
    "kio": 2**10, "kib": 2**10, "mio": 2**20, "mib": 2**20, "gio": 2**30, "gib": 2**30, "tio": 2**40,
    "tib": 2**40, "pio": 2**50, "pib": 2**50,
}
BYTES_RE = rf"({_NUM})\s*(kio|kib|mio|mib|gio|gib|tio|tib|pio|pib|ko|kb|mo|mb|go|gb|to|tb|po|pb)\b"


def parse_bytes(number: str, unit: str) -> int | None:
    value = parse_number(number)
    if value is None:
        return None
    return round(value * _BYTE_UNITS[unit.lower()])


def parse_duration_ms(number: str, unit: str | None) -> float | None:
    value = parse_number(number)
    if value is None:
        return None
    unit = (unit or "ms").lower()
    return value * (1000.0 if unit in ("s", "sec", "secondes", "seconde", "seconds", "second") else 1.0)


def parse_minutes(number: str, unit: str) -> float | None:
    value = parse_number(number)
    if value is None:
        return None
    unit = unit.lower()
    if unit.startswith(("h", "heure")):
        return value * 60
    if unit.startswith(("j", "d")):
        return value * 1440
    if unit.startswith("s"):
        return value / 60
    return value


_WORD_NUMBERS = {
    "un": 1, "une": 1, "one": 1, "deux": 2, "two": 2, "trois": 3, "three": 3, "quatre": 4, "four": 4,
    "cinq": 5, "five": 5, "six": 6, "huit": 8, "eight": 8, "seize": 16, "sixteen": 16,
}


# -- results ---------------------------------------------------------------------------------------------


@dataclass
class ParseResult:
    intent: Intent = "answer"
    values: dict[str, Any] = field(default_factory=dict)  # field -> value, in the order found
    correction: bool = False  # the message corrects an earlier answer ("actually", "non, plutôt")
    rest: str = ""  # the text left once the recognised parts are removed


# -- intents ---------------------------------------------------------------------------------------------

_WHY = re.compile(
    r"^\s*(pourquoi|why|à quoi (ça|cela) sert|a quoi ca sert|pour quoi faire|what for|why does it matter"
    r"|c'est quoi|qu'est-ce que c'est|what is that|what does (it|that) mean)\b.{0,60}$"
)
_DONT_KNOW = re.compile(
    r"^\s*(je\s+(ne\s+)?(le\s+)?sais\s+pas|j'sais pas|sais pas|chais pas|aucune idée|pas d'idée|je ne suis pas sûr"
    r"|pas sûr|i\s+(do\s*n[o']?t|dont)\s+know|idk|dunno|no idea|not sure|no clue|unknown|inconnu"
    r"|par défaut|default|passer|passe|skip|next|je passe)\b[\s.!?…]*$"
)
_CORRECTION = re.compile(
    r"^\s*(?:(?:non|no|nope|oups|oops|pardon|sorry|désolé|correction|erratum)"
    r"(?:\s*[,.:;!-]+\s*|\s+(?=en fait|actually|in fact|finalement|plutôt|rather|i meant|\d)))?"
    r"(?:(?:en fait|actually|in fact|finalement|plutôt|rather|i meant|je voulais dire|make it|change)\b[\s,.:;!-]*)?",
)


def detect_intent(text: str) -> Intent:
    folded = _fold(text).strip()
    if not folded:
        return "empty"
    if _WHY.match(folded) and len(folded) < 80:
        return "why"
    if _DONT_KNOW.match(folded):
        return "dont_know"
    return "answer"


def strip_correction(text: str) -> tuple[str, bool]:
    """Remove a leading correction marker; say whether there was one."""
    folded = _fold(text)
    match = _CORRECTION.match(folded)
    if match and match.end() > 0 and match.group(0).strip():
        rest = text[match.end():]
        if not rest.strip(" ,.;:!?-"):  # a bare "non" / "no" is an answer, not a correction marker
            return text, False
        return rest, True
    if re.search(r"\b(plutôt|rather|instead|au lieu de|pas \d)", folded):
        return text, True
    return text, False


# -- choices ---------------------------------------------------------------------------------------------

USE_CASE_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"\bq-?lora\b", "finetune_qlora"),
    (r"\blora\b|adaptateurs?|adapters?|\bpeft\b", "finetune_lora"),
    (r"(affinage|fine-?tun\w*|finetun\w*|ajustement fin|sft)\s*(complet|full|total)?|full fine", "finetune_full"),
    (r"à partir de zéro|a partir de zero|from scratch|pré-?entra[iî]nement|pre-?train\w*|pretrain\w*"
     r"|entra[iî]nement complet|entra[iî]ner un modèle", "pretraining"),
    (r"par lots|en lots|\bbatch inference|inférence batch|offline|hors ligne|traitement de masse", "batch_inference"),
    (r"service en ligne|en ligne|online|serving|servir|chatbot|chat bot|assistant|\bapi\b|production"
     r"|temps réel|real[- ]time|interacti\w+|\brag\b", "online_serving"),
    (r"\bvision\b|images?\b|détection|detection|segmentation|yolo|resnet|\bvit\b|classification d'images"
     r"|computer vision", "vision"),
)
_USE_CASE_BARE = (  # only for an answer to the use-case question itself
    (r"entra[iî]nement|training|train", "pretraining"),
    (r"inférence|inference|infér", "online_serving"),
    (r"affinage|fine", "finetune_full"),
)

PRECISION_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"\bmxfp4\b", "mxfp4"), (r"\bnvfp4\b", "nvfp4"), (r"\bnf4\b|bitsandbytes 4|bnb[- ]?4", "nf4"),
    (r"\b(fp8|float8|e4m3|e5m2)\b", "fp8"),
    (r"\b(int4|w4a16|awq|gptq|q4(_k(_[ms])?)?|4[- ]?bits?)\b", "int4"),
    (r"\b(int8|w8a8|q8(_0)?|8[- ]?bits?)\b", "int8"),
    (r"\b(bf16|bfloat16|bfloat 16)\b", "bf16"),
    (r"\b(fp16|float16|half|demi-précision)\b", "fp16"),
    (r"\b(fp32|float32|pleine précision|full precision|simple précision)\b", "fp32"),
)

OPTIMIZER_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"adam\w*\s*(en\s*)?8[- ]?bits?|adam8bit|8[- ]?bits? adam\w*|paged adam\w*|bnb adam", "adamw_8bit"),
    (r"\badafactor\b", "adafactor"),
    (r"\bsgd\b\s*(avec|with|\+)\s*momentum|sgd-?m\b|nesterov", "sgd_momentum"),
    (r"\bsgd\b", "sgd"),
    (r"\badam\w*\b", "adamw"),
)

FRAMEWORK_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"\bvllm\b", "vllm"), (r"\bsglang\b", "sglang"), (r"tensorrt[- ]?llm|trt[- ]?llm|\btensorrt\b", "tensorrt-llm"),
    (r"llama\.?cpp|\bgguf\b", "llama.cpp"), (r"\bollama\b", "ollama"),
    (r"\btransformers\b|hugging ?face|\btgi\b", "transformers"), (r"\bpytorch\b|\btorch\b", "pytorch"),
    (r"\bjax\b|\bflax\b", "jax"), (r"\btensorflow\b|\bkeras\b", "tensorflow"),
)
_VERSION = r"v?(\d+(?:\.\d+){1,3}(?:[.-]?(?:post|rc|dev)\d*)?)"

DEPLOYMENT_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"station de travail|station|workstation|\bposte\b|desktop|bureau|tour\b", "workstation"),
    (r"serveur|server|\bbaie\b|\brack\b|datacenter|data center|centre de données|on-?prem\w*|sur site",
     "server"),
    (r"\bcloud\b|\baws\b|azure|\bgcp\b|\bovh\w*|scaleway|location|louer|\brent\w*|nuage", "cloud"),
)

_YES = re.compile(r"^\s*(oui|yes|y|o|ouais|yep|yeah|vrai|true|bien sûr|of course|absolument|obligatoire"
                  r"|exigée?|requise?|required|needed|nécessaire|indispensable|sure|certainly|affirmatif)\b")
_NO = re.compile(r"^\s*(non|no|n|nope|nan|faux|false|pas (du tout|besoin|nécessaire|obligatoire)|aucun\w*"
                 r"|not (needed|required)|none|never|jamais|sans)\b")
_NO_LIMIT = re.compile(r"(pas de (limite|budget|contrainte|plafond)|aucune (limite|contrainte)|illimité"
                       r"|no (limit|budget|constraint|cap)|unlimited|sans limite)")

# -- model names -----------------------------------------------------------------------------------------

_FAMILIES = (
    "llama", "qwen", "mistral", "mixtral", "ministral", "gemma", "deepseek", "phi", "falcon", "gpt-oss",
    "command-r", "yi", "olmo", "granite", "smollm", "internlm", "glm", "codellama", "starcoder", "nemotron",
    "kimi",
)
_FAMILY_RE = "|".join(re.escape(f) for f in sorted(_FAMILIES, key=len, reverse=True))
_MODEL_RE = re.compile(
    rf"\b(?P<family>{_FAMILY_RE})(?P<ver>[-\s]?(?:v?\d+(?:\.\d+)?(?![\d.]*(?:[bm]\b|x\d))|r1|v3|v2\.5))?"
    rf"(?P<rest>(?:[-\s](?:\d+(?:\.\d+)?[bm]|\d+x\d+b|a\d+(?:\.\d+)?b|instruct|chat|it|base|coder|math|vl|moe"
    rf"|scout|maverick|mini|small|medium|large|nemo|turbo|distill|lite|hf))*)",
)
_HF_ID_RE = re.compile(r"\b([A-Za-z0-9][\w.-]{0,95})/([A-Za-z][\w.-]{0,95}[\w])")
_REVISION_RE = re.compile(r"(?:révision|revision|rev\.?|commit|@)\s*[:=]?\s*([0-9a-f]{7,40}|main|v?\d[\w.-]*)\b",
                          re.IGNORECASE)


def normalize_model(raw: str, known: list[str] | None = None) -> str:
    """Turn a spoken model name into the name the model loader knows, when one matches."""
    raw = raw.strip().strip(".,;")
    if "/" in raw:
        return raw
    words = [w for w in re.split(r"[\s_-]+", _fold(raw)) if w]
    if known:
        wanted = {w for w in words if w not in ("hf",)}
        best: tuple[int, str] | None = None
        for name in known:
            tokens = set(re.split(r"[\s_/-]+", _fold(name)))
            if wanted <= tokens:
                score = len(tokens - wanted)  # fewest extra words wins
                if best is None or score < best[0]:
                    best = (score, name)
        if best:
            return best[1]
    pretty = []
    for word in words:
        if re.fullmatch(r"\d+(\.\d+)?[bm]|a\d+(\.\d+)?b|\d+x\d+b", word):
            pretty.append(word.upper())
        elif word in ("gpt-oss",):
            pretty.append(word)
        else:
            pretty.append(word[:1].upper() + word[1:])
    return "-".join(pretty)


# -- extraction ------------------------------------------------------------------------------------------


@dataclass
class _Scanner:
    text: str  # folded text; recognised spans are blanked out so no two fields read the same characters
    values: dict[str, Any] = field(default_factory=dict)

    def take(self, pattern: str | re.Pattern[str], build: Callable[[re.Match[str]], tuple[str, Any] | None],
             repeat: bool = False) -> None:
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        for match in list(regex.finditer(self.text)):
            try:
                got = build(match)
            except (ValueError, KeyError, OverflowError, ZeroDivisionError):
                got = None
            if got is None:
                continue
            name, value = got
            if value is None:
                continue
            self.values.setdefault(name, value) if not repeat else self.values.__setitem__(name, value)
            start, end = match.span()
            self.text = self.text[:start] + " " * (end - start) + self.text[end:]
            if not repeat:
                return


def _first_choice(text: str, patterns: tuple[tuple[str, str], ...]) -> str | None:
    for pattern, value in patterns:
        if re.search(pattern, text):
            return value
    return None


def _bool_answer(text: str) -> bool | None:
    if _NO.match(text):
        return False
    if _YES.match(text):
        return True
    return None


def extract(text: str, known_models: list[str] | None = None) -> tuple[dict[str, Any], str]:
    """Values tagged by a keyword, anywhere in the message; also returns the text left over."""
    s = _Scanner(_fold(text))
    original = text

    # URLs and Hub ids first: their characters must not be read as numbers
    s.take(r"https?://[^\s,;]+", lambda m: ("server_url", original[m.start():m.end()].rstrip(".)")))
    s.take(_REVISION_RE, lambda m: ("model_revision", original[m.start(1):m.end(1)]))

    def hub(m: re.Match[str]) -> tuple[str, Any] | None:
        org = m.group(1)
        if re.fullmatch(r"[\d.,k ]+", org) or re.fullmatch(r"[\d.,k ]+", m.group(2)):
            return None  # "2k / 512" is a pair of lengths, not a repository
        return "model", original[m.start():m.end()]

    s.take(_HF_ID_RE, hub)
    if "model" not in s.values:
        def model(m: re.Match[str]) -> tuple[str, Any] | None:
            return "model", normalize_model(original[m.start():m.end()], known_models)
        s.take(_MODEL_RE, model)
    if "model" in s.values and "model_family" not in s.values:
        family = re.search(_FAMILY_RE, _fold(str(s.values["model"])))
        if family:
            s.values["model_family"] = family.group(0)

    # "4 x H100": a GPU count, not a growth factor
    s.take(r"\b(\d+)\s*x\s*(?:rtx|h100|h200|h20|a100|a6000|l40s?|l4|b200|b300|gb200|mi300x?|mi325x?|rtx pro)\b",
           lambda m: ("num_gpus", int(m.group(1))))
    # optimizer before precision: "AdamW 8 bits" is an optimizer, not a weight format
    for name, table in (("optimizer", OPTIMIZER_PATTERNS), ("precision", PRECISION_PATTERNS)):
        for pattern, value in table:
            s.take(pattern, _constant(name, value))

    # lengths
    s.take(rf"(?:contexte|context|ctx|fenêtre|window|séquences?|sequences?|seq(?:uence)?[ _-]?len(?:gth)?"
           rf"|max[ _-]?model[ _-]?len)\s*(?:de|of|:|=|à|a|length|len)?\s*(?:de\s*)?{TOKENS_RE}",
           lambda m: ("context_len", parse_tokens(m.group(1), m.group(2))))
    s.take(rf"{TOKENS_RE}\s*(?:tokens?\s*)?(?:de\s+)?(?:contexte|context|ctx)\b",
           lambda m: ("context_len", parse_tokens(m.group(1), m.group(2))))
    pair = rf"{TOKENS_RE}\s*(?:tokens?\s*)?(?:en entrée|d'entrée|entrée|input|in|prompt)?\s*(?:/|,|et|and|->|→)\s*" \
           rf"{TOKENS_RE}\s*(?:tokens?\s*)?(?:en sortie|de sortie|sortie|output|out|générés|generated)"
    s.take(pair, lambda m: ("input_len", parse_tokens(m.group(1), m.group(2))))
    if "input_len" not in s.values:  # "2k / 512": a slash between two lengths is input / output
        pair = rf"(?<![\w.])(?:{TOKENS_RE})\s*(?:tokens?\s*)?/\s*{TOKENS_RE}(?!\s*(?:€|%|(?!tokens?\b)\w))"
        s.take(pair, lambda m: ("input_len", parse_tokens(m.group(1), m.group(2))))
    if "input_len" in s.values:
        m2 = re.search(pair, _fold(text))
        if m2:
            s.values.setdefault("output_len", parse_tokens(m2.group(3), m2.group(4)))
    s.take(rf"{TOKENS_RE}\s*(?:tokens?\s*)?(?:en entrée|d'entrée|input|in\b|de prompt|prompt)",
           lambda m: ("input_len", parse_tokens(m.group(1), m.group(2))))
    s.take(rf"(?:entrée|input|prompt|question)s?\s*(?:moyenne?s?|mean|average)?\s*(?:de|of|:|=)?\s*{_ABOUT}"
           rf"{TOKENS_RE}",
           lambda m: ("input_len", parse_tokens(m.group(1), m.group(2))))
    s.take(rf"{TOKENS_RE}\s*(?:tokens?\s*)?(?:en sortie|de sortie|output|out\b|générés|generated)",
           lambda m: ("output_len", parse_tokens(m.group(1), m.group(2))))
    s.take(rf"(?:sortie|output|génération|generation|réponse|answer|completion)s?\s*(?:moyenne?s?|mean|average)?"
           rf"\s*(?:de|of|:|=)?\s*{_ABOUT}{TOKENS_RE}",
           lambda m: ("output_len", parse_tokens(m.group(1), m.group(2))))

    # load
    s.take(rf"({_NUM})\s*(k)?\s*(?:utilisateurs?|users?|requêtes|requests|sessions|clients|personnes|people"
           rf"|simultan\w+|concurrent\w*|en parallèle|in parallel)",
           lambda m: ("concurrency", parse_count(m.group(1), m.group(2))))
    s.take(rf"(?:concurrence|simultanéité|concurrency|parallélisme de requêtes)\s*(?:de|of|:|=)?\s*({_NUM})",
           lambda m: ("concurrency", parse_count(m.group(1))))
    s.take(rf"(?:batch|lots?)(?:[ _-]?size)?\s*(?:de|of|:|=)?\s*({_NUM})\b",
           lambda m: ("batch_size", parse_count(m.group(1))))
    s.take(rf"({_NUM})\s*(?:par batch|per batch|par lot)",
           lambda m: ("batch_size", parse_count(m.group(1))))
    s.take(r"(\d+)\s*(?:x|par|by)\s*\1\s*(?:px|pixels)?|(\d+)\s*(?:px|pixels)",
           lambda m: ("image_resolution", int(m.group(1) or m.group(2))))

    # growth
    def growth(m: re.Match[str]) -> tuple[str, Any] | None:
        return "growth_factor", _ratio(m.group(0))
    s.take(r"(?:croissance|growth|grandir|augmentation|hausse)\D{0,30}?(?:x\s*\d+(?:[.,]\d+)?|\d+(?:[.,]\d+)?\s*x"
           r"|\+?\s*\d+(?:[.,]\d+)?\s*%|doubl\w*|tripl\w*|quadrupl\w*)", growth)
    s.take(r"\d+(?:[.,]\d+)?\s*%\s*(?:de\s+)?(?:croissance|growth|more|de plus|d'augmentation|increase)",
           growth)
    s.take(r"\bx\s*\d+(?:[.,]\d+)?\b(?!\s*\d)|\b\d+(?:[.,]\d+)?\s*x\b(?!\s*\d)|\+\s*\d+(?:[.,]\d+)?\s*%"
           r"|doubl\w*|tripl\w*|quadrupl\w*", growth)

    # latency SLA
    dur = rf"({_NUM})\s*(ms|millisecondes?|milliseconds?|s|sec|secondes?|seconds?)\b"
    s.take(rf"(?:ttft|premier token|first token|time to first token|délai initial)\D{{0,25}}?{dur}",
           lambda m: ("ttft_ms", parse_duration_ms(m.group(1), _ms_unit(m.group(2)))))
    s.take(rf"(?:tpot|itl|par token|per token|inter-?token|entre tokens)\D{{0,25}}?{dur}",
           lambda m: ("tpot_ms", parse_duration_ms(m.group(1), _ms_unit(m.group(2)))))
    s.take(rf"{dur}\s*(?:de\s*|pour le\s*|for\s*|to\s*)?(?:ttft|premier token|first token)",
           lambda m: ("ttft_ms", parse_duration_ms(m.group(1), _ms_unit(m.group(2)))))
    s.take(rf"{dur}\s*(?:de\s*|par\s*|per\s*)?(?:tpot|token|itl)",
           lambda m: ("tpot_ms", parse_duration_ms(m.group(1), _ms_unit(m.group(2)))))

    # training
    s.take(rf"(?:checkpoints?|sauvegardes?|ckpt)\D{{0,30}}?({_NUM})\s*(minutes?|min|mn|heures?|h|hours?|jours?|days?|d)\b",
           lambda m: ("checkpoint_interval_min", parse_minutes(m.group(1), m.group(2))))
    s.take(rf"({_NUM})\s*(minutes?|min|heures?|h|hours?)\s*(?:entre|between)\s*(?:les\s*|two\s*)?checkpoints?",
           lambda m: ("checkpoint_interval_min", parse_minutes(m.group(1), m.group(2))))
    s.take(r"(?:checkpoints?|sauvegardes?|ckpt)\D{0,12}?(toutes les heures|chaque heure|every hour|hourly"
           r"|tous les jours|chaque jour|every day|daily)",
           lambda m: ("checkpoint_interval_min", 1440.0 if re.search("jour|day|daily", m.group(1)) else 60.0))
    s.take(rf"(?:jeu de données|dataset|données|data|corpus)\D{{0,20}}?{BYTES_RE}",
           lambda m: ("dataset_size_bytes", parse_bytes(m.group(1), m.group(2))))
    s.take(rf"{BYTES_RE}\s*(?:de\s*)?(?:données|data|dataset|de jeu|corpus|d'images|of images)",
           lambda m: ("dataset_size_bytes", parse_bytes(m.group(1), m.group(2))))

    # platform
    words = "|".join(_WORD_NUMBERS)
    s.take(rf"\b(\d+|{words})\s*(?:x\s*)?(?:gpus?|cartes?( graphiques)?|cards?|accélérateurs?|accelerators?)\b",
           lambda m: ("num_gpus", _int_or_word(m.group(1))))
    s.take(rf"({_NUM})\s*(k)?\s*(?:€|euros?\b|eur\b)|€\s*({_NUM})\s*(k)?",
           lambda m: ("budget_eur", _money(m)))
    s.take(rf"budget\s*(?:de|of|:|max(?:imum|imal)?|around|about|environ|d'environ|~)?\s*({_NUM})\s*(k)?"
           rf"(?:\s*(?:€|euros?\b|eur\b))?", lambda m: ("budget_eur", _money(m)))
    s.take(rf"({_NUM})\s*(kw|w|watts?|kilowatts?)\b",
           lambda m: ("power_limit_w", _watts(m.group(1), m.group(2))))
    s.take(r"\b(\d+)\s*(?:u|unités de baie|rack units?)\b", lambda m: ("rack_units", int(m.group(1))))

    folded = _fold(text)
    if re.search(r"\becc\b", folded):
        negative = re.search(r"(pas|sans|no|non|not|without|aucune?)\b[^.,;]{0,20}\becc\b|\becc\b[^.,;]{0,25}"
                             r"(pas|non|no|not|inutile|optionnel\w*|optional)\b", folded)
        s.values.setdefault("ecc_required", not negative)
    if re.search(r"\b(rendu|rendering|cao|cad|blender|3d|autocad|solidworks|catia)\b", folded):
        negative = re.search(r"(pas|sans|no|not|aucun\w*|ni)\b[^.,;]{0,20}\b(rendu|rendering|cao|cad|3d)\b"
                             r"|\b(rendu|rendering|cao|cad)\b[^.,;]{0,20}\b(non|no|pas|not)\b", folded)
        s.values.setdefault("rendering_cad", not negative)

    use_case = _first_choice(s.text, USE_CASE_PATTERNS)
    if use_case:
        s.values.setdefault("use_case", use_case)
    framework = None
    for pattern, value in FRAMEWORK_PATTERNS:
        match = re.search(rf"(?:{pattern})\s*(?:version\s*)?(?:{_VERSION})?", s.text)
        if match:
            framework = value
            s.values.setdefault("framework", value)
            if match.group(1):
                s.values.setdefault("framework_version", match.group(1))
            break
    if framework is None and re.search(r"\bllama\.cpp\b", folded):
        s.values.setdefault("framework", "llama.cpp")
    deployment = _first_choice(s.text, DEPLOYMENT_PATTERNS)
    if deployment:
        s.values.setdefault("deployment", deployment)
    if _NO_LIMIT.search(folded) and "budget" in folded:
        s.values.setdefault("budget_eur", None)
    return s.values, s.text


def _constant(name: str, value: str) -> Callable[[re.Match[str]], tuple[str, Any]]:
    return lambda _match: (name, value)


def _ms_unit(unit: str) -> str:
    return "ms" if unit.startswith("m") else "s"


def _int_or_word(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return _WORD_NUMBERS.get(token)


def _money(m: re.Match[str]) -> float | None:
    number, suffix = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    value = parse_number(number)
    if value is None:
        return None
    return value * (1000 if suffix else 1)


def _watts(number: str, unit: str) -> float | None:
    value = parse_number(number)
    if value is None:
        return None
    return value * (1000 if unit.startswith("k") else 1)


def _ratio(text: str) -> float | None:
    t = _fold(text)
    for word, factor in (("quadrupl", 4.0), ("tripl", 3.0), ("doubl", 2.0)):
        if word in t:
            return factor
    m = re.search(r"\+?\s*(\d+(?:[.,]\d+)?)\s*%", t)
    if m:
        return 1 + float(m.group(1).replace(",", ".")) / 100
    m = re.search(r"x\s*(\d+(?:[.,]\d+)?)|(\d+(?:[.,]\d+)?)\s*x", t)
    if m:
        return float((m.group(1) or m.group(2)).replace(",", "."))
    if re.search(r"\b(aucune|pas de|stable|none|no growth|flat|constant)\b", t):
        return 1.0
    return None


# -- answers to the question being asked -----------------------------------------------------------------


def parse_for_question(
    question_type: str, question_id: str, text: str, choices: tuple[str, ...] = (),
    known_models: list[str] | None = None,
) -> Any:
    """Read a bare answer ("32", "oui", "8k") as the value of the current question, or None."""
    t = _fold(text).strip().strip(".!")
    if not t:
        return None
    if question_type == "tokens":
        m = re.search(rf"^(?:~|environ|about|around|à peu près|env\.?)?\s*{TOKENS_RE}\s*(?:tokens?)?$", t)
        return parse_tokens(m.group(1), m.group(2)) if m else None
    if question_type == "integer":
        m = re.search(rf"^(?:~|environ|about|around|à peu près)?\s*({_NUM})\s*(k)?\s*(u|gpus?)?\b", t)
        if m:
            return parse_count(m.group(1), m.group(2))
        return _WORD_NUMBERS.get(t.split()[0]) if t.split() else None
    if question_type == "ratio":
        ratio = _ratio(t)
        if ratio is None:
            m = re.fullmatch(rf"({_NUM})", t)
            ratio = parse_number(m.group(1)) if m else None
        return ratio
    if question_type == "duration_ms":
        m = re.search(rf"^(?:<|moins de|under|below|sous)?\s*({_NUM})\s*(ms|s|sec|secondes?|seconds?)?$", t)
        return parse_duration_ms(m.group(1), _ms_unit(m.group(2)) if m.group(2) else "ms") if m else None
    if question_type == "duration_min":
        if re.search(r"\b(steps?|pas|étapes?|itérations?|iterations?)\b", t):
            return None  # steps are not a duration: their length depends on the step time
        m = re.search(rf"({_NUM})\s*(minutes?|min|mn|heures?|h|hours?|jours?|days?|d|s|sec)?\b", t)
        if m:
            return parse_minutes(m.group(1), m.group(2) or "min")
        for word, minutes in (("heure", 60), ("hour", 60), ("jour", 1440), ("daily", 1440), ("day", 1440)):
            if word in t:
                return float(minutes)
        return None
    if question_type == "bytes":
        m = re.search(BYTES_RE, t)
        return parse_bytes(m.group(1), m.group(2)) if m else None
    if question_type == "money":
        if _NO_LIMIT.search(t) or _NO.match(t):
            return None
        m = re.search(rf"({_NUM})\s*(k)?\s*(?:€|euros?|eur)?$|€\s*({_NUM})\s*(k)?", t)
        return _money(m) if m else None
    if question_type == "power":
        m = re.search(rf"({_NUM})\s*(kw|w|watts?|kilowatts?)\b", t)
        return _watts(m.group(1), m.group(2)) if m else None
    if question_type == "boolean":
        return _bool_answer(t)
    if question_type == "text":
        return text.strip()[:200] or None
    if question_type == "model":
        if re.fullmatch(r"[\w][\w .:/+-]{1,120}", text.strip()) and re.search(r"[a-z]", t):
            return normalize_model(text.strip(), known_models)
        return None
    if question_type == "choice":
        table = {"use_case": USE_CASE_PATTERNS + _USE_CASE_BARE, "precision": PRECISION_PATTERNS,
                 "optimizer": OPTIMIZER_PATTERNS, "framework": FRAMEWORK_PATTERNS,
                 "deployment": DEPLOYMENT_PATTERNS}.get(question_id, ())
        plain = _strip_accents(t).replace(" ", "_").replace("-", "_")
        for choice in choices:  # the exact value first ("finetune_lora" is not "fine-tuning" + "lora")
            if plain == choice.replace("-", "_") or plain == _strip_accents(choice):
                return choice
        found = _first_choice(t, table)
        if found:
            return found
        if question_id == "framework" and re.fullmatch(r"[a-z][\w.+ -]{1,40}", t):
            return "other"
        return None
    if question_type == "url":
        m = re.search(r"https?://\S+", text)
        return m.group(0) if m else None
    return None


def no_limit(text: str) -> bool:
    """'pas de limite', 'no budget', 'non' to a limit question: the answer is an explicit None."""
    t = _fold(text).strip()
    return bool(_NO_LIMIT.search(t) or re.fullmatch(r"(non|no|aucune?|none|nope)[.!]?", t))


_SOFT_FIELDS = frozenset({"use_case", "deployment", "rendering_cad", "ecc_required"})


def parse_message(
    text: str, current: str | None = None, current_type: str | None = None,
    choices: tuple[str, ...] = (), known_models: list[str] | None = None,
) -> ParseResult:
    """Everything one message says: intent, values (keyword-tagged anywhere + the current question)."""
    intent = detect_intent(text)
    if intent != "answer":
        return ParseResult(intent=intent)
    body, correction = strip_correction(text)
    values, rest = extract(body, known_models)
    # a free-text question (customer name) takes the whole message, unless the message was clearly about
    # something else ("Llama 3.1 70B en fp8" answers the model, not the customer)
    if current and current not in values and current_type == "text" and body.strip() and (
            set(values) <= _SOFT_FIELDS):
        values[current] = body.strip()[:200]
    if current and current not in values and current_type and current_type != "text":
        leftover = rest.strip(" ,.;:!?-") if values else body
        value = parse_for_question(current_type, current, leftover, choices, known_models)
        if value is None and values:
            value = None
        elif value is None and current_type in ("money", "power", "integer") and current in (
            "budget_eur", "power_limit_w", "rack_units"
        ) and no_limit(body):
            values[current] = None
        if value is not None:
            values[current] = value
    return ParseResult(intent="answer", values=values, correction=correction, rest=rest)
