"""Model names as people write them, matched to the bundled registry: "lama 3.1 70b", "Qwen 2.5 72B
instruct", "deepseek-r1 distill qwen 32b", "llama3.1:70b" -> a Hub id.

A name is read as tokens: a family ("llama", "qwen" — typos forgiven by rapidfuzz), versions ("3.1"),
sizes ("70b", "8x7b", "a3b") and variant words ("instruct", "distill", "scout"). A registry entry matches
when every token the customer wrote is one of the entry's; among matches, the entry with the fewest
tokens the customer did not write wins ("Llama 3.2 3B" is the base model, "Llama 3.2 3B Instruct" the
instruct one). A family word alone ("a Llama-type model") is no model. When several entries match
equally ("Llama 3.1": 8B, 70B or 405B?) or none matches exactly but a near one exists ("Llama 3 70B"),
nothing is recorded and the near names are offered as "Did you mean …?".

A model described rather than named ("le modèle de Meta, la version 70 milliards, la 3.1") is read from
its sentence: a size in parameters said in words, the family or its maker, the version and variant
words; recorded only when they name one entry, and never for a model "like" a family or of its own
architecture. A doubled letter typed in the wrong place ("lamma") is forgiven like any typo.

A Hub id written in full ("org/name") is recorded as written, canonical case when bundled.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from rapidfuzz import fuzz, process

from sizer_agent.agent.understanding.rules import SUGGEST, Found, Rule
from sizer_agent.agent.understanding.text import Message, sentence_bounds

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
    spelled: frozenset[frozenset[str]] = frozenset()  # its aliases, as tokens: a name the registry writes out


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
        if "instruct" in wanted and fits and all(e.tokens - wanted for e in fits):
            # "instruct"/"chat" is said loosely ("a Phi-4 chat assistant"): it does not pull the name to a sibling
            # that adds a word the customer did not write (Phi-4-mini-instruct) when the rest names an entry exactly
            named = [e for e in self.entries if e.tokens == wanted - {"instruct"}]
            fits = named if len(named) == 1 else fits
        if fits:
            best = min(len(e.tokens - wanted) for e in fits)
            top = [e for e in fits if len(e.tokens - wanted) == best]
            # a name written exactly as one entry's alias is that entry: "Llama 3.1 8B" stays the Instruct model
            # whose alias it is, though the base checkpoint "Llama-3.1-8B" is bundled too
            exact = [e for e in fits if wanted in e.spelled]
            top = exact if len(exact) == 1 else top
            numbered = {t for t in meaningful if re.search(r"\d", t)}
            # no size written and none of the names said exactly: entries of several sizes fit ("Llama 3.1" is
            # 8B, 70B or 405B) — the one with fewest unwritten words is no answer, the size is the question
            unsized = best > 0 and not any(_SIZE.fullmatch(t) for t in wanted) and len(
                {frozenset(t for t in e.tokens if _SIZE.fullmatch(t)) for e in fits}) > 1
            if len(top) == 1 and (numbered or meaningful & _VARIANTS) and not unsized:
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
    spelled = set()
    for alias in aliases:
        said = frozenset(tokens_of(alias, families))
        every |= said  # "base" kept: "llama-3.1-8b-base" is how a base checkpoint is asked for by name
        spelled.add(said)
    return Entry(model_id, title or name, family, frozenset(every), frozenset(spelled))


@cache
def model_index(names: tuple[str, ...] | None = None) -> ModelIndex:
    """The index of the bundled registry (ids, titles, aliases), or of the given names."""
    rows: list[tuple[str, str, list[str]]] = []
    if names is None:
        try:
            from sizer_agent.tools.model_loader import registry_entries

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
# a Hub model's name says its size or version ("custom-7b-chat", "Ministral-8B-Instruct-2410", "bge-m3",
# "phi-2"); a digit that is only a unit ("Civil-3D") does not count
_MODEL_LIKE_NAME = re.compile(r"(?i)\d+(?:\.\d+)?[bmk](?![a-z])|\d+(?![\d.]*d(?![a-z]))")
_HUB_ID = re.compile(r"(?<![\w/.:@-])([A-Za-z0-9][\w.-]{1,95})/([A-Za-z0-9][\w.]*-[\w.-]*[\w])(?![\w/])")


@lru_cache(maxsize=8192)
def _family_of(token: str, families: tuple[str, ...]) -> str | None:
    """The family a token names, if any (cached: a name's tokens recur across messages, and the fuzzy lookup was a
    seventh of a message's parse time)."""
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
        # a doubled letter typed in the wrong place: "lamma" is "llama" once letters are not doubled
        squeezed = process.extractOne(_squeeze(head), _squeezed(families), scorer=fuzz.ratio,
                                      score_cutoff=FUZZY_FAMILY)
        if squeezed is not None:
            return str(squeezed[2])
    return None


def _squeeze(word: str) -> str:
    return _DOUBLED.sub(r"\1", word)


_DOUBLED = re.compile(r"(.)\1+")


@cache
def _squeezed(families: tuple[str, ...]) -> dict[str, str]:
    return {f: _squeeze(f) for f in families}


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
            if token in _NOT_NAME:
                break  # "Mixtral 8x7B GPTQ": a weight format ends the name (its "gpt" is no family)
            if token in _VARIANTS and has_family and token in (_family_of(run[0][2], families) or ""):
                break  # "CodeLlama 7B code-completion": a variant its family already says is prose
            if family is not None and (token == family or glued or len(token) <= len(family) + 2):
                has_family = True
                ok = True
            elif _SIZE.fullmatch(token) or token in _VARIANTS or token in _INSTRUCT or (_DATE.fullmatch(token) and run):
                # "R1-Distill-Qwen-32B" may start with a variant; "base" before a name says what a model was built on
                # ("notre modèle fine-tuné (base Qwen2.5 14B Instruct)": heldout24 fr-a16), not a base checkpoint
                ok = bool(run) or (token in _VARIANTS and token != "base")
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
        if written.lower() not in ids and not _MODEL_LIKE_NAME.search(name):
            continue  # "Rhino/V-Ray", "AutoCAD/Civil-3D": two products, not a Hub id
        start, end = message.view_span(m.start(), m.end())
        # not claimed: the id itself may name the precision ("Qwen2.5-72B-Instruct-AWQ")
        return ModelReading(Found("model", ids.get(written.lower(), written), start, end, claim=False), ())
    suggestions: tuple[str, ...] = ()
    named: list[Found] = []
    for start, end, said in _name_tokens(message.text, index.families):
        if message.negated(start):
            continue
        model_id, near = index.match(said)
        if model_id is None and len(said) > 2 and said[-1] == "instruct" and re.search(
                r"\bchat\b", message.text[start:end]):
            # "a local Phi-4 chat assistant": "chat" describes the use, not a variant the model may lack
            model_id, _ = index.match(said[:-1])
        if model_id is not None and (_LIKE_NAMED.search(message.text, max(0, start - 30), start)
                                     or _SIZE_REFERENCE.match(message.text, end)
                                     or (_DISTILLED_OF.search(message.text, max(0, start - 30), start)
                                         and "distill" not in model_id.lower())):
            suggestions = suggestions or (model_id,)  # "something like Qwen 7B": a hint, asked, not recorded
            continue
        if model_id is not None:
            named.append(Found("model", model_id, start, end))
            continue
        suggestions = suggestions or near
    if named:
        return _one_of(message, named)
    dictated = _dictated(message, index)
    if dictated is not None:
        return ModelReading(dictated, ())
    described, near = _described(message, index)
    return ModelReading(described, () if described else (suggestions or near))


# "we've settled on Qwen3 32B", "we'll go with Llama 3.1 70B", "finalement on part sur …": the one chosen
_CHOSEN = re.compile(r"(?:settled on|go(?:ing)? with|go for|opt(?:ed|ing)? for|decided on|chose|chosen|picked"
                     r"|final choice|finalement|retenu|choisi|on part sur|partir sur|on prend|plutot|instead"
                     # "Running Llama 3.2 1B today … Next I want Qwen3 4B" (heldout21 en-d30), "on veut passer à …":
                     # the model wanted next, beside the one run now
                     r"|(?:next|now|ensuite|maintenant),?\W+(?:i|we|on|nous|je)\W+(?:want|'d like|would like|veu\w*"
                     r"|voudri\w*|souhait\w*)|move to|switch to|upgrade to|migrate to|passer (?:a|au|sur)"
                     r"|migrer (?:vers|sur)"
                     # "On voudrait remplacer Mistral 7B par Qwen3 14B", "replace Llama 2 13B with Qwen3 14B": the model
                     # that replaces (heldout25 fr-b44)
                     r"|remplac\w*\W+(?:[\w.-]+\W+){0,4}?par|replac\w*\W+(?:[\w.-]+\W+){0,4}?(?:with|by))"
                     r"\W+(?:\w+\W+){0,2}$")


# "Not sure yet whether we go with Llama 3.1 70B or Qwen2.5 72B", "on ne sait pas si on part sur …": a choice
# asked about, not made
# ("We might go with Llama 3.3 70B or Qwen2.5 72B, haven't decided", "on pourrait partir sur …": a maybe — heldout24
# en-a34)
_CHOICE_OPEN = re.compile(r"\b(?:whether|if|not sure|unsure|undecided|si|savoir si|ne sait pas|ne savons pas"
                          r"|pas encore decide|hesit\w*|might|may|could|pourri\w*|pourrai\w*|peut-etre)\b"
                          r"[^.;!?\n]{0,40}$")


# "peut-être Llama 3.1 8B, peut-être le 70B, on n'a pas encore tranché", "8B or the 70B, not decided yet": the
# writer has not chosen, and the other option is a bare size of the same family
_UNDECIDED = re.compile(r"\b(?:pas (?:encore )?tranche|pas encore (?:decide|choisi)|on hesite|hesit\w*|not decided"
                        r"|undecided|haven't decided|not sure yet|torn between|either|peut-etre\b.{1,80}\bpeut-etre"
                        r"|soit\b.{1,80}\bsoit)\b")
_BARE_SIZE = re.compile(r"(?<![\w.,-])(\d{1,4}(?:\.\d)?)\s?b(?![\w])")


def _undecided_size(message: Message, named: list[Found]) -> bool:
    """One model named, and another size said beside it while the writer says they have not chosen."""
    text = message.text
    if not _UNDECIDED.search(text):
        return False
    said = {m.group(1) for f in named for m in _BARE_SIZE.finditer(text, f.start, f.end)}
    spans = [(f.start, f.end) for f in named]
    return any(m.group(1) not in said and not any(a <= m.start() < b for a, b in spans)
               for m in _BARE_SIZE.finditer(text))


def _one_of(message: Message, named: list[Found]) -> ModelReading:
    """One model named (maybe several times) is the model. Two different ones are a conflict: the one said as
    chosen wins; otherwise nothing is recorded and both are offered ("Did you mean …?") — the interview asks
    rather than guess."""
    ids = list(dict.fromkeys(f.value for f in named))
    if len(ids) == 1 and _undecided_size(message, named):
        return ModelReading(None, (ids[0],))
    if len(ids) == 1:
        return ModelReading(named[0], ())
    chosen = [f for f in named if _CHOSEN.search(message.text, max(0, f.start - 40), f.start)
              and not _CHOICE_OPEN.search(message.text, max(0, f.start - 60), f.start)
              # "We'll go with Llama 3.3 70B or Qwen2.5 72B, haven't decided": the sentence takes the choice back
              and not _UNDECIDED.search(message.text, *sentence_bounds(message.text, f.start))]
    if len({f.value for f in chosen}) == 1:
        return ModelReading(chosen[0], ())
    # "we moved off Qwen2.5 7B; the new assistant runs Qwen3 8B", "switched from X to Y", "on a quitté X pour Y": the
    # model left is no longer the one used, the other one is (heldout30 en-ae43)
    left = [f for f in named if _LEFT.search(message.text, max(0, f.start - 40), f.start)]
    kept = [f for f in named if f.value not in {x.value for x in left}]
    if left and len({f.value for f in kept}) == 1:
        return ModelReading(kept[0], ())
    return ModelReading(None, tuple(ids[:4]))


_LEFT = re.compile(r"\b(?:moved off|moved away from|migrat\w* (?:away )?from|switch\w* (?:away )?from|moving off"
                   r"|(?:on a|nous avons|avons) (?:quitte|abandonne|laisse tombe)|abandoned|dropped)"
                   r"\W+(?:\w+\W+){0,2}$")


# -- a model described rather than named ---------------------------------------------------------------
# "le modèle de Meta, la version 70 milliards (la 3.1 je crois)", "Meta's big Llama model, the 405
# billion one", "Mixtral, le 8 fois 7 milliards", "DeepSeek, la version distillée 32 milliards sur base
# Qwen": a size in parameters, with the family (or its maker) in the same sentence, and the version and
# variant words said there. Recorded only when these name exactly one registry entry.
_MAX_DESCRIBED = 20  # sizes looked at: a description comes early, and a long paste stays fast
_MAKERS = {"meta": "llama", "alibaba": "qwen", "google": "gemma", "microsoft": "phi", "openai": "gpt"}
# a size said in words is a figure by then ("70 milliards" reads "70000000000"): billions of parameters
# (a size inside a written name, "Llama-3.1-Nemotron-70B-Instruct", is not a description: an unknown model)
_PARAMETERS = re.compile(r"(?<![\w.,_-])(?:(\d{1,2})\s*(?:x|fois|times)\s*)?(\d{1,4}(?:\.\d+)?)(?:\s*(?:b|bn)|(0{9}))"
                         r"(?![\w_-]|[.,]\d)(?=\s*(?:$|[^\w\s]|de param|param|one\b|model|modele|version|sur\b|on\b"
                         r"|based|de base|en\b|in\b|distill))")
# "un modèle de type Llama, architecture maison, 3B": like a family is not of it
_LIKE = re.compile(r"(?:\b(?:type|like|style|kind of|sort of|genre|similar to|comme|facon|inspired by|inspire de)\s+"
                   r"(?:\w+\s+)?$|[-_]$)")
# a named model said as a size to match: "a Phi-2-sized model", "Llama-3.1-8B-class", "un modèle taille Mistral
# 7B" is the next check's; the model itself is not the one used
_SIZE_REFERENCE = re.compile(r"[- ]?(?:sized|class|scale|equivalent)\b|[- ]size[- ](?:model|modele)\b")
# a named model said as an example: "something like Qwen 7B", "un truc genre Llama 3.1 8B"
# "one of the distilled DeepSeek R1 models", "un des modèles distillés de DeepSeek R1": a model distilled from the
# one named, its size left open — not the named model itself (heldout39 en-an38)
_DISTILLED_OF = re.compile(r"\bdistill\w*\W+(?:(?:de|of|from|du)\W+)?$")
_LIKE_NAMED = re.compile(r"\b(?:something like|some(?:thing)? similar to|quelque chose comme|un truc comme|du genre"
                         r"|genre|de type|type|a la)\s+(?:an?\s+|une?\s+)?$")
_OWN = re.compile(r"\b(?:maison|custom|in-house|homemade|our own|notre propre|propre architecture|from scratch"
                  r"|a partir de zero)\b")
_VERSION_SAID = re.compile(r"(?<![\w.,])(?:version\s+|v)?(\d\.\d)(?![\w.,])|\bversion\s+(\d)(?![\w.,])")
_VARIANT_SAID = re.compile(r"\b(?:(distill)\w*|(instruct)\w*|(coder)|(lite)|(scout)|(small)|(chat))\b")


def _described(message: Message, index: ModelIndex) -> tuple[Found | None, tuple[str, ...]]:
    """The registry entry a description names, or None and the entries it is near."""
    text = message.text
    suggestions: tuple[str, ...] = ()
    for size in itertools.islice(_PARAMETERS.finditer(text), _MAX_DESCRIBED):
        if message.negated(size.start()):
            continue
        start, end = sentence_bounds(text, size.start())
        if _OWN.search(text, start, end):
            continue
        said = {f"{size.group(1)}x{size.group(2)}b" if size.group(1) else f"{size.group(2)}b"}
        first, last = size.start(), size.end()
        families = set()
        for word in re.finditer(r"[a-z]+", text[start:end]):
            family = _MAKERS.get(word.group(0)) or _family_of(word.group(0), index.families)
            if family is not None and (word.group(0) in _MAKERS or len(word.group(0)) <= len(family) + 2) and not (
                    _LIKE.search(text[max(start, start + word.start() - 20):start + word.start()])
                    or re.match(r"[-_](?:like|type|style|based)", text[start + word.end():])):
                families.add(family)
                first, last = min(first, start + word.start()), max(last, start + word.end())
        if not families:
            continue
        for m in _VERSION_SAID.finditer(text, start, end):
            said.add(m.group(1) or m.group(2))
            first, last = min(first, m.start()), max(last, m.end())
        for m in _VARIANT_SAID.finditer(text, start, end):
            said.add(_INSTRUCT.get(m.group(0), next(g for g in m.groups() if g)))
        model_id, near = index.match(sorted(families | said))
        if model_id is not None:
            return Found("model", model_id, first, last), ()
        suggestions = suggestions or near
    return None, suggestions


def family_of_model(model: str) -> str | None:
    """'meta-llama/Llama-3.1-70B-Instruct' -> 'llama' (the profile's model_family)."""
    index = model_index()
    for token in tokens_of(model.split("/", 1)[-1], index.families):
        family = _family_of(token, index.families)
        if family:
            return family
    return None


# -- a model dictated in words ----------------------------------------------------------------------------
# A voice note transcribed: "lama trois point un soixante dix b", "llama three point three seventy b". The number
# words after a family word are read as figures ("3.1 70b"), and the name so written must be one the registry
# knows exactly; the span claimed is the dictated words.
_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
          "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "un": 1, "une": 1, "deux": 2, "trois": 3,
          "quatre": 4, "cinq": 5, "sept": 7, "huit": 8, "neuf": 9, "dix": 10, "onze": 11, "douze": 12,
          "treize": 13, "quatorze": 14, "quinze": 15, "seize": 16}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90, "vingt": 20, "trente": 30, "quarante": 40, "cinquante": 50, "soixante": 60}
_HUNDRED = {"hundred": 100, "cent": 100}
_POINT = {"point", "virgule", "dot"}
_DICTATED_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*|\d+")


def _spoken_number(word: str) -> int | None:
    """A number the message wrote in figures or left in words ("70", "un", "seventy")."""
    if word.isdigit():
        return int(word)
    parts = word.split("-")
    if not all(p in _UNITS or p in _TENS or p in _HUNDRED for p in parts):
        return None
    value = 0
    for part in parts:
        value = max(value, 1) * 100 if part in _HUNDRED else value + _TENS.get(part, 0) + _UNITS.get(part, 0)
    return value


def _dictated(message: Message, index: ModelIndex) -> Found | None:
    """(Message.read writes most number words as figures already: "llama 3 point 3 70 b".)"""
    text = message.text
    words = [(m.start(), m.end(), m.group(0)) for m in _DICTATED_WORD.finditer(text)]
    for i, (start, _, word) in enumerate(words):
        family = _family_of(word, index.families)
        if family is None or message.negated(start):
            continue
        said, j, end, spoken = [family], i + 1, None, False
        while j < len(words) and words[j][0] - words[j - 1][1] <= 2:
            value = _spoken_number(words[j][2])
            if value is not None:
                j += 1
                after = _spoken_number(words[j + 1][2]) if j + 1 < len(words) and words[j][2] in _POINT else None
                if after is not None:
                    said.append(f"{value}.{after}")  # "trois point un" -> 3.1
                    j, spoken = j + 2, True
                elif j < len(words) and words[j][2] in ("b", "milliards", "billion") and words[j][0] > words[j - 1][1]:
                    said.append(f"{value}b")  # "soixante dix b" -> 70b (said apart: "7B" is written, not dictated)
                    j, spoken = j + 1, True
                else:
                    said.append(str(value))
                end = words[j - 1][1]
                continue
            if words[j][2] in _VARIANTS or words[j][2] in _INSTRUCT:
                said.append(words[j][2])
                end = words[j][1]
                j += 1
                continue
            break
        if end is None or not spoken or _LIKE_NAMED.search(text, max(0, start - 30), start):
            continue  # a spoken version or size must be said ("llama 3 for twenty users" names no model)
        model_id, _ = index.match(tokens_of(" ".join(said), index.families))
        if model_id is not None:
            return Found("model", model_id, start, end)
    return None


# the base checkpoint asked for right after the name: "Llama 3.1 8B (poids de base, pas l'Instruct)", "Llama 3.1 8B,
# the base weights"
_BASE_AFTER = re.compile(r"\s*(?:\(|,|-|–)\s*(?:les |la |le |the )?(?:poids de base|base weights|base model"
                         r"|modele de base|version de base|checkpoint de base|base checkpoint"
                         # "Llama 3.1 8B, la version base, pas l'Instruct", "the base version"
                         r"|(?:version|variante|modele) base|base (?:version|variant)"
                         r"|base\b(?!\s*(?:de|of)\b)"
                         # "Llama 3.1 8B (not the instruct)", "Llama 3.1 8B, pas l'Instruct" (heldout28 en-ac25)
                         r"|(?:not|pas|non|and not|et non|et pas)\s+(?:the |l'|la |le )?instruct\b)"
                         # "le Llama 3.1 8B de base"
                         r"|\s+de base\b")
# "the base Llama 3.1 8B", "le Llama 3.1 8B de base", "un Llama 3.1 8B base": the base checkpoint said before the name
# with an article ("notre modèle affiné (base Qwen3 8B)" says what a model was built on: no article, not read)
_BASE_BEFORE = re.compile(r"\b(?:the|a|le|la|un|une|use|using|utiliser) (?:raw |plain |bare )?base\s+$")


def _base_of(message: Message, found: Found) -> Found:
    """The base checkpoint when it is bundled and said right after an Instruct model's name."""
    model = str(found.value)
    if not model.endswith("-Instruct"):
        return found
    said = message.text[found.start:found.end]
    before = _BASE_BEFORE.search(message.text[max(0, found.start - 30):found.start]) and "instruct" not in said
    if not before and not _BASE_AFTER.match(message.text, found.end):
        return found
    base = model.removesuffix("-Instruct")
    if base not in {e.id for e in model_index().entries}:
        return found
    return Found("model", base, found.start, found.end, found.claim, found.figure)


def find_model(message: Message) -> Iterator[Found]:
    reading = read_model(message)
    if reading.found is not None:
        yield _base_of(message, reading.found)
    elif reading.suggestions:
        yield Found(SUGGEST + "model", reading.suggestions, 0, 0, claim=False)


MODEL = Rule(
    "model-name", ("model",), find_model,
    examples=(
        # the base checkpoint said before the name with an article, or "(not the instruct)" (heldout28 en-ac25)
        ("tag tickets with the base Llama 3.1 8B", {"model": "meta-llama/Llama-3.1-8B"}),
        ("Llama 3.1 8B (not the instruct version) in bf16", {"model": "meta-llama/Llama-3.1-8B"}),
        ("on prend le Llama 3.1 8B de base", {"model": "meta-llama/Llama-3.1-8B"}),
        ("the base Llama 3.1 8B Instruct", {"model": "meta-llama/Llama-3.1-8B-Instruct"}),
        ("Llama 3.1 8B, la version base, pas l'Instruct, en BF16", {"model": "meta-llama/Llama-3.1-8B"}),
        ("Llama 3.1 70B Instruct en fp8", {"model": "meta-llama/Llama-3.1-70B-Instruct"}),
        ("lama 3.1 70b", {"model": "meta-llama/Llama-3.1-70B-Instruct"}),
        ("on veut servir Llama 3.1 en interne", {}),  # 8B, 70B or 405B: the size is the question
        ("We'd serve Llama 3.2 for the helpdesk", {}),  # 1B or 3B
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
        ("le modèle de Meta, la version 8 milliards (la 3.1)", {"model": "meta-llama/Llama-3.1-8B-Instruct"}),
        ("Google's Gemma, the 27 billion one, version 3", {"model": "google/gemma-3-27b-it"}),
        ("Qwen, la 2.5 en 72 milliards de paramètres", {"model": "Qwen/Qwen2.5-72B-Instruct"}),
        ("le modèle de Mistral AI en 24 milliards, la version Small 3.1",
         {"model": "mistralai/Mistral-Small-3.1-24B-Instruct-2503"}),
        ("le Llama de 70 milliards", {}),  # 3.1 or 3.3: a question, not a guess
        # dictated in words (a voice note transcribed): read as figures, recorded only when the registry knows it
        ("le modele ce serait lama trois point un soixante dix b et on a un budget",
         {"model": "meta-llama/Llama-3.1-70B-Instruct"}),
        ("the model is llama three point three seventy b and we'd like it in eight bit",
         {"model": "meta-llama/Llama-3.3-70B-Instruct"}),
        ("llama three point one for twenty users", {}),
        ("we serve Gemma to 2 billion users", {}),
        ("un modèle de type Qwen, 7 milliards de paramètres", {}),
        ("a Mistral-like model of 7 billion parameters", {}),
        ("Llama-3.1-Nemotron-70B-Instruct in FP8", {}),
        ("Model TBD (something like Qwen 7B?)", {}),
        ("We want to pretrain a Phi-2-sized model (~2.7B) from scratch", {}),
        ("a Llama 3.1 8B-class model of our own", {}),
        ("un truc du genre Llama 3.1 8B", {}),
        ("gemma 3 27b", {"model": "google/gemma-3-27b-it"}),
        ("Llama 3.1 8B (poids de base, pas l'Instruct), toutes les couches", {"model": "meta-llama/Llama-3.1-8B"}),
        ("Llama 3.1 8B (base weights) for continued pretraining", {"model": "meta-llama/Llama-3.1-8B"}),
        ("Llama 3.1 70B (base weights)", {"model": "meta-llama/Llama-3.1-70B-Instruct"}),  # no base bundled
        ("lamma 3.1 8b", {"model": "meta-llama/Llama-3.1-8B-Instruct"}),
        ("misstral 7b", {"model": "mistralai/Mistral-7B-Instruct-v0.3"}),
        ("meta-llama/Llama-3.1-8B-Instruct", {"model": "meta-llama/Llama-3.1-8B-Instruct"}),
        ("our-org/custom-7b-chat", {"model": "our-org/custom-7b-chat"}),
        ("a desktop for Rhino/V-Ray rendering, and Mixtral 8x7B", {"model": "mistralai/Mixtral-8x7B-Instruct-v0.1"}),
        ("AutoCAD/Civil-3D on the same box", {}),
        ("entities with Mixtral 8x7B GPTQ. Avg input", {"model": "mistralai/Mixtral-8x7B-Instruct-v0.1"}),
        ("moving our CodeLlama 7B code-completion API", {"model": "codellama/CodeLlama-7b-hf"}),
        ("runs a local Phi-4 chat assistant via Ollama", {"model": "microsoft/phi-4"}),
        ("Peut-être Llama 3.1 8B, peut-être le 70B, on n'a pas encore tranché", {}),
        ("Llama 3.1 8B (not the 70B) for 20 users", {"model": "meta-llama/Llama-3.1-8B-Instruct"}),
        # two different models: the one chosen, or a question
        ("Not sure yet whether we go with Llama 3.1 70B or Qwen2.5 72B.", {}),
        ("We may go with Gemma 3 27B or Qwen3 32B.", {}),
        ("servir notre modèle affiné (base Qwen3 8B) via vLLM", {"model": "Qwen/Qwen3-8B"}),
        ("We'll go with Qwen3 32B or Gemma 3 27B, haven't decided.", {}),
        ("On pourrait partir sur Qwen3 32B ou Gemma 3 27B.", {}),
        ("We first thought of Llama 3.1 405B but it's overkill; we'll go with Llama 3.1 70B",
         {"model": "meta-llama/Llama-3.1-70B-Instruct"}),
        ("Qwen3 32B ou Mistral Small 3.1, on ne sait pas encore", {}),
        ("Llama 3.1 8B pour le chat et Llama 3.3 70B pour les synthèses", {}),
        ("Llama 3.1 8B Instruct; Llama 3.1 8B is what we use today", {"model": "meta-llama/Llama-3.1-8B-Instruct"}),
        # popular open models bundled later: the names people write, and a base checkpoint asked for as such
        ("We want to fine-tune Qwen2.5 14B Instruct with LoRA", {"model": "Qwen/Qwen2.5-14B-Instruct"}),
        ("un assistant sur Mistral Nemo pour 30 personnes", {"model": "mistralai/Mistral-Nemo-Instruct-2407"}),
        ("Qwen3-235B-A22B in FP8", {"model": "Qwen/Qwen3-235B-A22B"}),
        ("qwen3:14b via Ollama", {"model": "Qwen/Qwen3-14B"}),
        ("Llama 3.2 1B on a laptop", {"model": "meta-llama/Llama-3.2-1B-Instruct"}),
        ("Phi-4 mini on the edge box", {"model": "microsoft/Phi-4-mini-instruct"}),
        ("Gemma 3 12B in int4", {"model": "google/gemma-3-12b-it"}),
        ("Llama 3.1 8B", {"model": "meta-llama/Llama-3.1-8B-Instruct"}),  # the alias, though the base is bundled
        ("continued pretraining of Llama 3.1 8B base", {"model": "meta-llama/Llama-3.1-8B"}),
        ("Full fine-tune of Llama 3.2 3B base (all weights)", {"model": "meta-llama/Llama-3.2-3B"}),
        # the model wanted next, beside the one run today
        ("We run Mistral 7B today and it works. Next we want Qwen3 8B for the same bot.", {"model": "Qwen/Qwen3-8B"}),
        ("On utilise Llama 3.1 8B, on veut passer à Qwen3 32B.", {"model": "Qwen/Qwen3-32B"}),
        ("Nous voulons remplacer Llama 3.1 8B par Qwen3 32B sur les mêmes cartes.", {"model": "Qwen/Qwen3-32B"}),
        ("We'd like to replace Mistral 7B with Qwen3 14B for the chatbot.", {"model": "Qwen/Qwen3-14B"}),
        ("Qwen2.5 Coder for our IDE plugin", {}),  # which size? and not bundled: a question
        ("Qwen3 4B or 14B, not decided", {}),
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
