"""The customer's name, from the sentence that states it: "pour la société Dupont Industrie", "we're Acme
Robotics", "working for Renault Digital", "Client : Globex", "Dupont SAS".

Only the name is taken: capitalised words after the phrase that introduces it, stopping at the first
lowercase word or punctuation; never a whole sentence. Words that are product names (Llama, H100, vLLM)
or sentence openers (We, Nous, Bonjour) are not names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message, plain

_UPPER = "A-ZÀ-ÖØ-Þ"
_NAME_WORD = rf"(?:[{_UPPER}0-9](?:[\w&'’+-]|\.(?=\w))*|[a-z]+[{_UPPER}][\w&-]*)"  # "Acme", "3M", "iRobot", "AT&T"
_PARTICLE = r"(?:de|du|des|la|le|les|et|and|of|the|&|von|van|der|di|da|y)"
NAME = rf"(?P<name>{_NAME_WORD}(?:[ \t]+(?:{_PARTICLE}[ \t]+)?{_NAME_WORD}){{0,4}})"
_LEGAL = (r"(?:SAS|SARL|SA|SASU|SCOP|SCA|SNC|EURL|GIE|GmbH|AG|Inc\.?|Ltd\.?|LLC|PLC|plc|BV|NV|SpA|S\.A\.|SE"
          r"|Corp\.?|Co\.)")

# Phrases that introduce a company name, strongest first (matched without regard to case).
_ORG_NOUNS = (r"(?:la |le |l'|une? )?(?:soci[ée]t[ée]|entreprise|groupe|start-?up|pme|eti|cabinet|banque|assureur"
              r"|mutuelle|h[ôo]pital|chu|clinique|mairie|collectivit[ée]|r[ée]gion|d[ée]partement|[ée]cole|universit[ée]"
              r"|laboratoire|labo|agence|marque|fondation|association|minist[èe]re|company|firm|bank|insurer|hospital"
              r"|university|lab|agency|startup|client|customer|notre client|our client|projet|project)")
INTRODUCERS: tuple[str, ...] = (
    r"(?:client|soci[ée]t[ée]|entreprise|company|customer|organisation|organization|compte|account)\s*:\s*",
    rf"(?:pour|for|chez|at|with|avec|de la part de|on behalf of|au nom de)\s+{_ORG_NOUNS}\s+",
    rf"{_ORG_NOUNS}\s+",
    r"(?:chez|au sein de|de la part de|au nom de|on behalf of)\s+",
    r"(?:working|work|works|i work|we work|je travaille|nous travaillons|on travaille)\s+(?:for|at|with|pour|chez)\s+",
    r"(?:we(?:'| a)re|we are|nous sommes|on est|this is|here at|ici)\s+",
    r"(?:i'?m|i am|je suis)\s+\S+(?:\s+\S+)?\s+(?:from|at|de chez|chez|with)\s+",
)
_INTRO = re.compile(rf"(?i:(?<![\w])(?:{'|'.join(INTRODUCERS)}))" + NAME)
_LEGAL_NAME = re.compile(rf"{NAME}[ \t]+(?P<legal>{_LEGAL})(?![\w])")
_HERE = re.compile(rf"^\s*{NAME}\s+(?:here|ici)\b")

# Capitalised words that are not company names.
STOP = frozenset(plain(w) for w in (
    "we", "nous", "our", "notre", "nos", "votre", "your", "the", "le", "la", "les", "un", "une", "a", "an", "this",
    "that", "ce", "cette", "it", "il", "elle", "on", "they", "ils", "je", "i", "bonjour", "hello", "hi", "hey",
    "merci", "thanks", "thank", "dear", "cher", "chère", "madame", "monsieur", "cordialement", "regards", "best",
    "ai", "ia", "gpu", "gpus", "cpu", "llm", "llms", "rag", "api", "apis", "ecc", "cad", "cao", "fp8", "bf16",
    "fp16", "int4", "int8", "vram", "ram", "ssd", "nvme", "llama", "qwen", "mistral", "mixtral", "gemma",
    "deepseek", "phi", "gpt", "openai", "meta", "google", "microsoft", "nvidia", "amd", "intel", "vllm", "sglang",
    "tensorrt", "ollama", "transformers", "pytorch", "jax", "tensorflow", "hugging", "face", "huggingface", "h100",
    "h200", "a100", "l40s", "b200", "b300", "rtx", "mi300x", "dgx", "hgx", "aws", "azure", "gcp", "ovh", "scaleway",
    "cloud", "linux", "windows", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "monday", "tuesday",
    "wednesday", "thursday", "friday", "january", "february", "janvier", "février", "mars", "avril", "mai", "juin",
    "juillet", "août", "septembre", "octobre", "novembre", "décembre", "q1", "q2", "q3", "q4", "inference",
    "inférence", "training", "fine-tuning", "lora", "qlora", "chatbot", "assistant", "budget",
))


def clean_name(raw: str) -> str | None:
    """Trim trailing particles and punctuation; None when what is left is not a name."""
    words = raw.strip(" .,;:!?'’\"").split()
    while words and re.fullmatch(_PARTICLE, words[-1].lower()):
        words.pop()
    while words and plain(words[0]).strip(".,") in STOP:
        words.pop(0)  # "Bonjour Acme" -> "Acme"
    if not words:
        return None
    name = " ".join(words).strip(" .,;:!?'’\"")
    name = re.sub(r"['’]s$", "", name)  # "Acme's" -> "Acme"
    if plain(name) in STOP or all(plain(w).strip(".,") in STOP for w in words):
        return None
    if re.fullmatch(r"[\d\s.,]+", name):
        return None
    return name


def find_customer(message: Message) -> Iterator[Found]:
    original = message.original
    for pattern in (_INTRO, _LEGAL_NAME, _HERE):
        for m in pattern.finditer(original):
            start, end = m.span("name")
            if pattern is _LEGAL_NAME:
                end = m.end("legal")
            name = clean_name(original[start:end])
            if name is None:
                continue
            offset = original.find(name, start)
            a, b = message.view_span(offset, offset + len(name))
            if message.negated(a):
                continue
            yield Found("customer", name, a, b)
            return


CUSTOMER = Rule(
    "customer-name", ("customer",), find_customer,
    examples=(
        ("Bonjour, pour la société Dupont Industrie on voudrait héberger Llama", {"customer": "Dupont Industrie"}),
        ("Hi, we're Acme Robotics and we want to serve Llama 3.1 8B", {"customer": "Acme Robotics"}),
        ("I'm working for Renault Digital on a chatbot", {"customer": "Renault Digital"}),
        ("Client : Globex", {"customer": "Globex"}),
        ("Devis pour Dupont SAS", {"customer": "Dupont SAS"}),
        ("We're looking to serve Llama 3.1 70B", {}),
        ("La machine sert aussi à la CAO sous SolidWorks", {}),
    ),
    doc="the company or project named by the sentence that introduces it",
)
