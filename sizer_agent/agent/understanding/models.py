"""Model names as people write them, matched to the bundled registry: "lama 3.1 70b", "Qwen 2.5 72B
instruct", "deepseek-r1 distill qwen 32b", "llama3.1:70b" -> a Hub id.

A name is read as tokens: a family ("llama", "qwen" — typos forgiven by rapidfuzz), versions ("3.1"),
sizes ("70b", "8x7b", "a3b") and variant words ("instruct", "distill", "scout"). A registry entry matches
when every token the customer wrote is one of the entry's; among matches, the entry with the fewest
tokens the customer did not write wins ("Llama 3.2 3B" is the base model, "Llama 3.2 3B Instruct" the
instruct one). A family word alone ("a Llama-type model") is no model. When several entries match
equally ("Llama 3.1": 8B, 70B or 405B?) or none matches exactly but a near one exists ("Llama 3 70B"),
nothing is recorded and the near names are offered as "Did you mean …?".

A Hub id written in full ("org/name") is recorded as written, canonical case when bundled.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from rapidfuzz import fuzz, process

from sizer_agent.agent.understanding.rules import SUGGEST, Found, Rule
from sizer_agent.agent.understanding.text import Message

_INSTRUCT = {"instruct": "instruct", "chat": "instruct", "it": "instruct", "instruction": "instruct"}
_IGNORED = {"hf", "model", "modele", "version", "v", "the", "le", "la"}
_VARIANTS = {
    "instruct", "chat", "it", "base", "coder", "code", "distill", "scout", "maverick", "lite", "small", "medium",
    "large", "mini", "nemo", "oss", "vl", "math", "turbo", "moe", "r1", "v2", "v3", "v2.5", "v3.1", "preview",
}
# Tokens that close a name: precisions and formats belong to the precision rule ("Llama-3.1-70B-FP8").
_NOT_NAME = {"fp8", "fp16", "bf16", "fp32", "int4", "int8", "awq", "gptq", "gguf", "nf4", "mxfp4", "nvfp4"}
_SIZE = re.compile(r"\d+(?:\.\d+)?[bm]|\d+x\d+(?:\.\d+)?b|a\d+(?:\.\d+)?b|\d+e")
_VERSION = re.compile(r"v?\d+(?:\.\d+)*")
_DATE = re.compile(r"\d{4}")
FUZZY_FAMILY = 85  # rapidfuzz ratio for a family word with a typo ("lama" 89, "mistal" 92, "deepsek" 93)


def tokens_of(name: str, families: Iterable[str] = ()) -> list[str]:
    """'Qwen2.5-72B-Instruct' -> ['qwen', '2.5', '72b', 'instruct']; '70 B' -> '70b'; '3,1' -> '3.1'."""
    text = re.sub(r"(\d),(\d)", r"\1.\2", name.lower())
    raw = [t for t in re.split(r"[\s_/:()\-]+", text) if t]
    out: list[str] = []
    known = tuple(sorted(families, key=len, reverse=True))
    for token in raw:
        glued = re.fullmatch(r"([a-z]+)(\d+(?:\.\d+)*)", token)
        if glued and (glued.group(1) in known or any(glued.group(1) == f for f in ("llama", "qwen", "phi", "gemma"))):
            out += [glued.group(1), glued.group(2)]  # "qwen2.5" -> qwen 2.5, "llama3.1" -> llama 3.1
        elif token in ("b", "m") and out and re.fullmatch(r"\d+(?:\.\d+)?", out[-1]):
            out[-1] += token  # "70 B" -> 70b
        else:
            out.append(token.strip("."))
    return [_INSTRUCT.get(t, t) for t in out if t and t not in _IGNORED]


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    family: str
    tokens: frozenset[str]


@dataclass(frozen=True)
class ModelIndex:
    entries: tuple[Entry, ...]
    families: tuple[str, ...]

    def match(self, said: list[str]) -> tuple[str | None, tuple[str, ...]]:
        """(the entry id the tokens name, or None; names to suggest when unsure)."""
        wanted = set(said)
        meaningful = wanted - set(self.families)
        if not meaningful:
            return None, ()  # a family word alone names no model
        fits = [e for e in self.entries if wanted <= e.tokens]
        if fits:
            best = min(len(e.tokens - wanted) for e in fits)
            top = [e for e in fits if len(e.tokens - wanted) == best]
            numbered = {t for t in meaningful if re.search(r"\d", t)}
            if len(top) == 1 and (numbered or meaningful & _VARIANTS):
                return top[0].id, ()
            return None, tuple(e.id for e in sorted(fits, key=lambda e: len(e.tokens - wanted))[:4])
        # nothing fits exactly: same family and same size, other version or variant -> a suggestion
        sizes = {t for t in wanted if _SIZE.fullmatch(t)}
        near = [e for e in self.entries if e.family in wanted and (not sizes or sizes <= e.tokens)]
        if not near:
            return None, ()
        text = " ".join(said)
        ranked = process.extract(text, {e.id: " ".join(sorted(e.tokens)) for e in near}, scorer=fuzz.token_set_ratio,
                                 limit=3)
        return None, tuple(key for _, score, key in ranked if score >= 60)


def _entry(model_id: str, title: str, aliases: Iterable[str], families: set[str]) -> Entry:
    name = model_id.split("/", 1)[-1]
    tokens = tokens_of(name, families)
    family = tokens[0] if tokens else name.lower()
    every = set(tokens)
    for alias in aliases:
        every |= set(tokens_of(alias, families)) - {"base"}
    return Entry(model_id, title or name, family, frozenset(every))


@cache
def model_index(names: tuple[str, ...] | None = None) -> ModelIndex:
    """The index of the bundled registry (ids, titles, aliases), or of the given names."""
    rows: list[tuple[str, str, list[str]]] = []
    if names is None:
        try:
            from tools.model_loader import registry_entries

            rows = [(e["id"], e.get("title", ""), list(e.get("aliases", []))) for e in registry_entries()]
        except Exception:  # a broken registry must not stop the interview: no names, no matches
            rows = []
    else:
        rows = [(n, "", []) for n in names]
    families = {re.split(r"[\s_\-/0-9.]+", row[0].split("/", 1)[-1].lower())[0] for row in rows}
    families |= {"gpt"} if any("gpt-oss" in row[0] for row in rows) else set()
    entries = tuple(_entry(model_id, title, aliases, families) for model_id, title, aliases in rows)
    return ModelIndex(entries, tuple(sorted(families)))


# -- finding names in a message --------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9][a-z0-9.]*(?:x\d+b)?")
_HUB_ID = re.compile(r"(?<![\w/.:@-])([A-Za-z0-9][\w.-]{1,95})/([A-Za-z0-9][\w.]*-[\w.-]*[\w])(?![\w/])")


def _family_of(token: str, families: tuple[str, ...]) -> str | None:
    letters = re.match(r"[a-z]+", token)
    if letters is None:
        return None
    head = letters.group(0)
    if head in families:
        return head
    if len(head) >= 4:
        best = process.extractOne(head, families, scorer=fuzz.ratio, score_cutoff=FUZZY_FAMILY)
        if best is not None:
            return str(best[0])
    return None


def _name_tokens(text: str, families: tuple[str, ...]) -> Iterator[tuple[int, int, list[str]]]:
    """Runs of name-like tokens that contain a family word: (start, end, tokens)."""
    spans = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"[a-z0-9](?:[a-z0-9]|\.(?=[a-z0-9]))*", text)]
    i = 0
    while i < len(spans):
        start = i
        run: list[tuple[int, int, str]] = []
        has_family = False
        j = i
        while j < len(spans):
            a, b, token = spans[j]
            gap = text[run[-1][1]:a] if run else ""
            if run and (a - run[-1][1] > 3 or not re.fullmatch(r"\s*[-_/]?\s*|:", gap)):
                break  # a name's parts are joined by a space, a dash or ollama's colon ("llama3.1:70b")
            token = token.rstrip(".")
            family = _family_of(token, families)
            glued = re.fullmatch(r"([a-z]+)(\d+(?:\.\d+)*)", token)
            previous = run[-1][2] if run else ""
            if family is not None and (token == family or glued or len(token) <= len(family) + 2):
                has_family = True
                ok = True
            elif token in _NOT_NAME:
                break
            elif _SIZE.fullmatch(token) or token in _VARIANTS or token in _INSTRUCT or (_DATE.fullmatch(token) and run):
                ok = bool(run) or token in _VARIANTS  # "R1-Distill-Qwen-32B" may start with a variant
            elif _VERSION.fullmatch(token) and run and (_family_of(previous, families) or previous in _VARIANTS):
                ok = True  # a bare number is a version only after the family or a variant ("Mistral Small 3.1")
            elif token == "b" and run and re.fullmatch(r"\d+(?:\.\d+)?", previous):
                ok = True
            else:
                ok = False
            if not ok:
                break
            run.append((a, b, token))
            j += 1
        if run and has_family:
            said = tokens_of(" ".join(_normal_family(t, families) for _, _, t in run), families)
            yield run[0][0], run[-1][1], said
            i = j
        else:
            i = max(j, start + 1)


def _normal_family(token: str, families: tuple[str, ...]) -> str:
    family = _family_of(token, families)
    if family is None:
        return token
    letters = re.match(r"[a-z]+", token)
    return family + token[letters.end():] if letters else token


@dataclass
class ModelReading:
    found: Found | None
    suggestions: tuple[str, ...]


def read_model(message: Message, known: tuple[str, ...] | None = None) -> ModelReading:
    index = model_index(known)
    ids = {e.id.lower(): e.id for e in index.entries}
    for m in _HUB_ID.finditer(message.original):
        org, name = m.group(1), m.group(2)
        if not re.search(r"[a-zA-Z]", org) or re.fullmatch(r"[\d.,k ]+", org):
            continue
        written = f"{org}/{name}"
        start, end = message.view_span(m.start(), m.end())
        # not claimed: the id itself may name the precision ("Qwen2.5-72B-Instruct-AWQ")
        return ModelReading(Found("model", ids.get(written.lower(), written), start, end, claim=False), ())
    suggestions: tuple[str, ...] = ()
    for start, end, said in _name_tokens(message.text, index.families):
        if message.negated(start):
            continue
        model_id, near = index.match(said)
        if model_id is not None:
            return ModelReading(Found("model", model_id, start, end), ())
        suggestions = suggestions or near
    return ModelReading(None, suggestions)


def family_of_model(model: str) -> str | None:
    """'meta-llama/Llama-3.1-70B-Instruct' -> 'llama' (the profile's model_family)."""
    index = model_index()
    for token in tokens_of(model.split("/", 1)[-1], index.families):
        family = _family_of(token, index.families)
        if family:
            return family
    return None


def find_model(message: Message) -> Iterator[Found]:
    reading = read_model(message)
    if reading.found is not None:
        yield reading.found
    elif reading.suggestions:
        yield Found(SUGGEST + "model", reading.suggestions, 0, 0, claim=False)


MODEL = Rule(
    "model-name", ("model",), find_model,
    examples=(
        ("Llama 3.1 70B Instruct en fp8", {"model": "meta-llama/Llama-3.1-70B-Instruct"}),
        ("lama 3.1 70b", {"model": "meta-llama/Llama-3.1-70B-Instruct"}),
        ("Qwen 2.5 72B instruct", {"model": "Qwen/Qwen2.5-72B-Instruct"}),
        ("deepseek-r1 distill qwen 32b", {"model": "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B"}),
        ("Llama 3.3 70B", {"model": "meta-llama/Llama-3.3-70B-Instruct"}),
        ("llama3.1:70b via Ollama", {"model": "meta-llama/Llama-3.1-70B-Instruct"}),
        ("Llama 3.2 3B", {"model": "meta-llama/Llama-3.2-3B"}),
        ("Mixtral 8x7B in AWQ", {"model": "mistralai/Mixtral-8x7B-Instruct-v0.1"}),
        ("DeepSeek R1", {"model": "deepseek-ai/DeepSeek-R1"}),
        ("une inférence de nuit sur DeepSeek V3 : 50 000 documents", {"model": "deepseek-ai/DeepSeek-V3"}),
        ("de type Llama (architecture maison, 3B)", {}),
        ("something like Mistral", {}),
        ("meta-llama/Llama-3.1-8B-Instruct", {"model": "meta-llama/Llama-3.1-8B-Instruct"}),
        ("our-org/custom-7b-chat", {"model": "our-org/custom-7b-chat"}),
    ),
    doc="a registry model named loosely, or a Hub id written in full",
)

_REVISION = re.compile(r"(?<![\w])(?:revision|rev\.?|commit|sha)\s*[:=]?\s*([0-9a-f]{7,40}|main|v?\d[\w.-]*)(?![\w])"
                       r"|@\s*([0-9a-f]{7,40})(?![\w])")


def find_revision(message: Message) -> Iterator[Found]:
    for m in _REVISION.finditer(message.text):
        group = 1 if m.group(1) else 2
        yield Found("model_revision", message.words(m.start(group), m.end(group)), m.start(), m.end())
        return


REVISION = Rule(
    "model-revision", ("model_revision",), find_revision,
    examples=(("meta-llama/Llama-3.1-8B-Instruct révision 0e9e39f", {"model_revision": "0e9e39f"}),
              ("jean@acme.fr", {})),
    doc="the model revision (commit hash, branch or tag) when pinned",
)
