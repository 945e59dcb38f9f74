"""Software: the serving or training framework and its version, the weight precision, the server to measure.

Precision when a message names several: the one the customer targets wins ("publié en bf16, servi en
FP8" -> fp8) over the one it starts from ("base", "original") or the KV-cache format.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import (
    Message,
    past_clauses,
    per_text,
    prototype_clauses,
    sentence_bounds,
    words,
)

# (pattern, framework, kind). Names follow the schema: HF Transformers/TRL/PEFT -> transformers;
# torchtune/DeepSpeed/FSDP -> pytorch; any other named engine -> other. The kind says what the
# framework is for: a message that names a training stack and a serving engine is sized for its use case.
FRAMEWORKS: tuple[tuple[str, str, str], ...] = (
    (words(r"vllm"), "vllm", "serving"),
    (words(r"sglang"), "sglang", "serving"),
    (words(r"tensorrt[- ]?llm", r"trt[- ]?llm"), "tensorrt-llm", "serving"),
    (words(r"llama\.?cpp", r"llamacpp", r"llama-cpp", r"llama-server"), "llama.cpp", "serving"),
    (words(r"ollama"), "ollama", "serving"),
    (words(r"tgi", r"text[- ]generation[- ]inference", r"triton(?: inference server)?", r"lmdeploy", r"exllama\w*",
           r"mlx", r"nvidia nim", r"nim", r"ctranslate2", r"onnx ?runtime", r"openvino", r"lm studio", r"localai",
           r"ray serve", r"kserve", r"tensorrt", r"deepspeed-mii", r"aphrodite", r"mlc[- ]llm"), "other", "serving"),
    (words(r"axolotl", r"unsloth", r"llama-?factory", r"nvidia nemo", r"nemo framework", r"nemo-rl"), "other",
     "training"),
    # ("Hugging Face Trainer", "HF Trainer": the Transformers library's training loop — heldout23 en-f40)
    (words(r"(?<!vision )transformers", r"hf transformers", r"trl", r"peft", r"hugging ?face trainer", r"hf trainer"),
     "transformers", "either"),
    (words(r"pytorch", r"torch", r"torchtune", r"deepspeed", r"fsdp2?", r"pytorch lightning",
           r"lightning"), "pytorch", "training"),
    # Megatron-LM is a named engine of its own (SCHEMA: "any other named engine" -> other; heldout6 en-q06,
    # heldout23 fr-f46, heldout30 fr-ae28); named beside PyTorch or DeepSpeed, the stack is PyTorch's (heldout9
    # en-t11 "Megatron-style training on PyTorch", heldout19 en-o47 "Megatron/DeepSpeed on PyTorch")
    (words(r"megatron(?:-lm|-core)?"), "other", "training"),
    (words(r"jax", r"flax", r"maxtext"), "jax", "training"),
    (words(r"tensorflow", r"keras", r"tf serving"), "tensorflow", "training"),
    (words(r"gguf"), "llama.cpp", "serving"),  # the file format of llama.cpp, named alone
)
# ("vLLM (currently on v0.9.2)", "vLLM (version 0.8)": the version said in brackets after the name)
# ("TGI (Text Generation Inference 2.4.0)": the engine's full name may come first in the brackets)
_VERSION = re.compile(r"\s*(?:\([^()\n]{0,40}\)\s*)?(?:\(\s*(?:"
                      r"(?:currently|actuellement|today|aujourd'hui|now)\s+(?:on\s+|en\s+|in\s+)?"
                      r"|(?:text[- ]generation[- ]inference|triton inference server|tensorrt[- ]llm"
                      r"|hugging ?face transformers)\s+)?)?(?:version\s*|v(?=\d)|==\s*|@\s*|:\s*)?"
                      r"(\d+\.\d+(?:\.\d+){0,2}(?:[.-]?(?:post|rc|dev)\d*)?)(?![\d.]*\s*[bx]\b)")
# "Version 0.10.2 of vLLM", "la version 0.9 de vLLM": the version said before the engine (heldout21 en-d46)
_VERSION_BEFORE = re.compile(r"(?<![\w])version\s*v?(\d+\.\d+(?:\.\d+){0,2})\s+(?:of|de|d')\s*$")
_COMPILED_FRAMEWORKS = tuple((re.compile(p), v, k) for p, v, k in FRAMEWORKS)
SERVING_ENGINES = re.compile("|".join(p for p, _, kind in FRAMEWORKS if kind == "serving"))
# the framework answers that name an engine which serves models and never trains them ("other" is both kinds)
SERVING_ENGINE_IDS = frozenset(v for _, v, kind in FRAMEWORKS if kind == "serving") - {"other"}


# an engine the customer is leaving: "moving our API off TGI onto TensorRT-LLM", "on abandonne TGI pour …"
_LEFT_BEHIND = re.compile(r"(?:\boff|away from|migrat\w* from|moving from|switch\w* from|abandonn\w*|quitt\w*"
                          r"|instead of|au lieu de|en remplacement de|to replace|pour remplacer)\s+(?:\w+\s+){0,1}$")


_TODAY = re.compile(r"\b(?:today|currently|right now|at the moment|aujourd'hui|actuellement|en ce moment)\b")
_WEIGHED_AFTER = re.compile(r"\s*(?:or|ou|vs\.?|versus)\s+[\w.-]+\s*[,;:(\u2013\u2014-]?\s*(?:still\s+|encore\s+)?"
                            r"(?:undecided|not (?:yet )?decided|to be decided|tbd|deciding|on hesite"
                            r"|pas (?:encore )?decide"
                            r"|indecis|a voir|je (?:ne )?sais pas|not sure)\b")


_TRIED_ON = re.compile(r"\b(?:first tests?|premiers? tests?|tried|essaye|d'abord teste|initially tested|at first we"
                      r"|au depart on)\b[^.;:!?\n]{0,40}$")


_RULED_OUT_AFTER = re.compile(r"[^.;:!?\n,]{0,25}?\b(?:n'est pas une option|n'est pas envisageable|est exclu\w*"
                              r"|est hors de question|is not an option|isn't an option|is not on the table"
                              r"|is out of the question|is ruled out|is off the table)")


def find_framework(message: Message) -> Iterator[Found]:
    """The framework named for the workload (a serving engine for inference, a training stack for training),
    else the first named; and its version when it follows the name."""
    mentions = []
    for pattern, value, kind in _COMPILED_FRAMEWORKS:
        for m in pattern.finditer(message.text):
            if not message.negated(m.start()):
                mentions.append((m.start(), -m.end(), value, kind))
    if not mentions:
        return
    # "our first test was on a 4-bit GGUF", "on a d'abord essayé Ollama": a format or engine of a past trial
    mentions = [m for m in mentions if not _TRIED_ON.search(message.text, max(0, m[0] - 45), m[0])]
    # "prototyped … in GGUF under llama.cpp; for production, vLLM": the prototype's engine is not the one sized
    prototype = prototype_clauses(message.text)
    mentions = [m for m in mentions if not any(a <= m[0] < b for a, b in prototype)]
    if not mentions:
        return
    if any(m[2] == "pytorch" for m in mentions):
        mentions = [m for m in mentions if not message.text.startswith("megatron", m[0])] or mentions
    kept = [m for m in mentions if not _LEFT_BEHIND.search(message.text, max(0, m[0] - 30), m[0])]
    mentions = kept or mentions
    # "On tourne aujourd'hui … avec Ollama … On veut passer à un vrai serveur … avec vLLM": the engine of today's
    # setup, beside another named for the plan, is the one left (claimed, so that no second reading doubts it —
    # heldout24 fr-a14)
    today = [m for m in mentions if _TODAY.search(message.text, *sentence_bounds(message.text, m[0]))]
    set_aside = []
    if today and len({m[2] for m in mentions if m not in today} - {m[2] for m in today}) == 1:
        set_aside = today
        mentions = [m for m in mentions if m not in today]
    # "JAX sur TPU n'est pas une option", "TensorFlow is out": a framework ruled out is not the one used
    mentions = [m for m in mentions if not _RULED_OUT_AFTER.match(message.text, -m[1])]
    if not mentions:
        return
    # "Megatron or torchtitan, undecided": an engine weighed against one the table does not know, none chosen
    # (two known ones, "ollama or vllm, not decided", are both read: the second reading makes them a doubt)
    for mention in mentions:
        weighed = _WEIGHED_AFTER.match(message.text, -mention[1])
        if weighed and not any(-mention[1] < other[0] < weighed.end() for other in mentions):
            return
    mentions.sort()  # by place; the longest name first at one place ("TensorRT-LLM" before "TensorRT")
    use_case = str(message.found.get("use_case") or "")
    wanted = "serving" if use_case in ("online_serving", "batch_inference") else ("training" if use_case else "")
    fitting = [m for m in mentions if m[3] in (wanted, "either")] if wanted else []
    start, negative_end, value, _ = (fitting or mentions)[0]
    end = -negative_end
    yield Found("framework", value, start, end)
    for aside_start, aside_end, aside, _ in set_aside:
        yield Found("framework", aside, aside_start, -aside_end)
    version = _VERSION.match(message.text, end)
    if version:
        yield Found("framework_version", version.group(1), version.start(1), version.end(1))
        return
    before = _VERSION_BEFORE.search(message.text, max(0, start - 30), start)
    if before:
        yield Found("framework_version", before.group(1), before.start(1), before.end(1))


FRAMEWORK = Rule(
    "framework", ("framework", "framework_version"), find_framework,
    examples=(
        # a format or engine of a past trial is not the one used
        ("The model card says BF16 and our first test was on a 4-bit GGUF, but for production we'll use FP8.", {}),
        ("vLLM 0.11.0", {"framework": "vllm", "framework_version": "0.11.0"}),
        # today's engine beside the one planned
        ("Today we run it with Ollama on a tower. We want a rack server with vLLM.", {"framework": "vllm"}),
        ("Version 0.10.2 of vLLM.", {"framework": "vllm", "framework_version": "0.10.2"}),
        ("servi via TGI (Text Generation Inference 2.4.0)", {"framework": "other", "framework_version": "2.4.0"}),
        ("via Ollama (Llama 3.1 8B)", {"framework": "ollama"}),
        ("served with vllm v0.6.3", {"framework": "vllm", "framework_version": "0.6.3"}),
        ("fine-tuning avec TRL et PEFT", {"framework": "transformers"}),
        ("DeepSpeed ZeRO-3", {"framework": "pytorch"}),
        ("AdamW, checkpoint every 30 min. Hugging Face Trainer. 2x A100.", {"framework": "transformers"}),
        ("AdamW, bf16. Megatron or torchtitan, undecided.", {}),  # two engines weighed (heldout23 en-f43)
        ("on passe par TGI", {"framework": "other"}),
        ("TensorRT-LLM 0.17", {"framework": "tensorrt-llm", "framework_version": "0.17"}),
        ("moving our API off TGI and onto TensorRT-LLM 0.17",
         {"framework": "tensorrt-llm", "framework_version": "0.17"}),
        ("On abandonne TGI pour passer à vLLM 0.10", {"framework": "vllm", "framework_version": "0.10"}),
        ("serving stack: SGLang (currently on v0.4.6)", {"framework": "sglang", "framework_version": "0.4.6"}),
        ("vLLM (actuellement en 0.10.1) sur nos serveurs", {"framework": "vllm", "framework_version": "0.10.1"}),
        ("pas de vLLM, on reste sur Ollama", {"framework": "ollama"}),
        ("TGI (Text Generation Inference) 2.4", {"framework": "other", "framework_version": "2.4"}),
        ("YOLO optimisé avec TensorRT", {"framework": "other"}),
        ("On a prototypé en GGUF sous llama.cpp sur un portable. Pour la production, vLLM sur un serveur.",
         {"framework": "vllm"}),
        ("We prototyped it with a 4-bit GGUF, but for production we want the full bf16 weights.", {}),
        ("LoRA-tune Mistral Nemo 12B", {}),
        ("JAX sur TPU n'est pas une option : on veut du GPU", {}),
        ("TensorFlow is off the table; we train with DeepSpeed", {"framework": "pytorch"}),
    ),
    doc="framework named (first, not negated) and the version written right after it",
)

# (pattern, precision), most specific first: "bitsandbytes 4-bit" is nf4 before "4-bit" is int4.
PRECISIONS: tuple[tuple[str, str], ...] = (
    (words(r"mxfp4"), "mxfp4"),
    (words(r"nvfp4"), "nvfp4"),
    (words(r"nf4", r"bnb[- ]?4(?:[- ]?bits?)?", r"bitsandbytes(?: en| in)? 4[- ]?bits?",
           r"4[- ]?bits? (?:bnb|bitsandbytes)", r"bitsandbytes"), "nf4"),
    (words(r"fp8", r"float8", r"e4m3", r"e5m2", r"w8a8[- ]fp8", r"f8"), "fp8"),
    (words(r"int4", r"w4a16", r"awq", r"gptq", r"q4(?:_k(?:_[ms])?|_0|_1)?", r"exl2"), "int4"),
    (words(r"int8", r"w8a8", r"q8(?:_0)?", r"llm\.int8"), "int8"),
    (words(r"bf16", r"bfloat16", r"bfloat 16", r"brain ?float ?16"), "bf16"),
    (words(r"fp16", r"float16", r"f16", r"half precision", r"half-precision", r"demi[- ]precision"), "fp16"),
    (words(r"fp32", r"float32", r"f32", r"full precision", r"pleine precision", r"simple precision",
           r"single precision"), "fp32"),
)
# A bit width alone says less than a format's name: it counts only when no format is named ("4-bit NF4 via
# bitsandbytes" is nf4), and for QLoRA, whose base model is 4-bit NF4 by definition, "4-bit" is nf4.
_BIT_WIDTHS: tuple[tuple[str, str], ...] = (
    (words(r"4[- ]?bits?", r"quantifi\w* (?:en|a|sur) 4", r"quanti[sz]ed to 4"), "int4"),
    (words(r"8[- ]?bits?", r"quantifi\w* (?:en|a|sur) 8", r"quanti[sz]ed to 8"), "int8"),
)
_COMPILED_PRECISIONS = tuple((re.compile(p), v) for p, v in PRECISIONS)
_COMPILED_WIDTHS = tuple((re.compile(p), v) for p, v in _BIT_WIDTHS)
_QLORA = re.compile(words(r"q-?lora"))
_SOURCE_NEAR = re.compile(r"\b(?:base|source|original\w*|d'origine|publie\w*|published|native|natif|natives"
                          r"|checkpoint|from|depuis|de base)\b")
_KV_NEAR = re.compile(r"\b(?:kv|cache)\b")
# A precision said as an option or under a condition ("éventuellement en 4 bits si ça tient sur une carte",
# "BF16 if the hardware allows, otherwise FP8", "FP8 or 4-bit"): a possibility, not the customer's choice.
_MAYBE_BEFORE = re.compile(
    words(r"eventuellement", r"peut-etre", r"maybe", r"perhaps", r"possibly", r"whether", r"si possible",
          r"if possible", r"si besoin", r"if needed")
    + r"[^\w.;!?\n]+(?:\w+[^\w.;!?\n]+){0,3}$")  # (within its sentence: heldout23 en-f27)
# a hedge closed by a comma right after it ("480B si possible, en FP8"): said of what came before
_HEDGE_CLOSED = re.compile(r"(?:si possible|if possible|si besoin|if needed)[ \t]*,")
_IF_AFTER = re.compile(r"[ \t]*[,(]?[ \t]*(?:\w+[ \t]+)?" + words(r"si", r"if", r"unless", r"sauf si"))
# an alternative ("FP8 or 4-bit", "AWQ, sinon FP8") is a hedge only between two different formats: "AWQ or
# GPTQ" are both int4
_OR_BEFORE = re.compile(words(r"ou", r"or", r"otherwise", r"sinon", r"either", r"soit") + r"\W+(?:\w+\W+)?$")
_OR_AFTER = re.compile(r"[ \t]*[,(]?[ \t]*(?:\w+[ \t]+)?" + words(r"ou", r"or", r"otherwise", r"sinon"))
_MAYBE, _ALTERNATIVE = 2, 1
# a format weighed and dropped in the same breath ("we considered 4-bit but our lawyers found quality drops",
# "nous avons pensé au 4-bit mais la qualité compte"): up to the "but", it is not the customer's choice
_SET_ASIDE = re.compile(r"\b(?:considered|looked at|looked into|thought (?:about|of)|pense (?:au|a|aux)|envisage"
                        r"|regarde|evalue|weighed"
                        # "we were going to run W8A8 int8 but … so FP8 it is": an intention dropped (heldout23 en-f09)
                        r"|were going to|was going to|had planned|planned to|intended to|comptions|allions"
                        r"|avions prevu"
                        # "we originally planned Gemma 2 27B in AWQ, but legal wants the unquantised bf16 weights",
                        # "on comptait partir sur … en AWQ, mais la DSI exige …" (heldout31 en-af42)
                        r"|(?:originally|initially|first|at first) (?:planned|wanted|went for|chose)"
                        r"|(?:on|nous) comptait|(?:on|nous) pensait partir)"
                        r"\b[^.;\n]{0,60}?\b(?:but|mais|however|cependant)\b"
                        # "we had loss spikes in bf16, so we'll train in FP32", "testé en 4 bits, la qualité était
                        # insuffisante": a format that failed, named with its failure (heldout23 en-f40, fr-f25)
                        r"|\b(?:had|ran into|hit|(?:avons|avions|on a|on avait) eu|teste|tested|tried|essaye)\b"
                        r"[^.;\n]{0,30}?"
                        r"\b(?:spikes?|problems?|issues?|instabilit\w*|problemes?|diverg\w*|nans?|insuffisant\w*"
                        r"|not good enough|too poor|degrad\w*|decevant\w*|disappointing"
                        # ("on a eu des soucis de qualité en GPTQ lors du POC)": heldout26 fr-i29)
                        r"|soucis?|ennuis"
                        # ("on a eu de mauvaises surprises en 4-bit": heldout27 fr-ab09)
                        r"|mauvai\w* (?:surprises?|experiences?|resultats?)"
                        r"|bad (?:surprises?|experiences?|results?))\b"
                        r"(?:[^.;\n()]{0,40}?(?=,|\)|\bso\b|\bdonc\b|\balors\b))?")
# a format tried, then its failure said further in the sentence: "la quantification 4 bits (GPTQ) a été testée sur
# Llama 3.3 70B et la qualité s'est effondrée, donc c'est non", "We tried 4-bit AWQ on Qwen2.5 32B last month and
# accuracy tanked" (heldout32 fr-ag34): every format before the failure is set aside
_TRIED = re.compile(r"\b(?:tried|tested|testee?s?|essayee?s?|experimented with)\b")
_FAILED = re.compile(r"\b(?:effondr\w*|tank\w*|collaps\w*|degrad\w*|abandonn\w*|dropped|off the table|unusable"
                     r"|inutilisable|pas concluant\w*|catastroph\w*|plummet\w*|fell apart|s'est ecroule\w*|a chute)\b")
# a sentence's end (not a version's dot: "Llama 3.3 70B")
_SENTENCE_STOP = re.compile(r"[!?;\n]|\.(?!\d)")
# ("bf16 base, NOT quantized, we tried QLoRA and quality dropped": what the writer tried starts at "we" — heldout1
# en-h25; "L'AWQ, on l'a essayé et abandonné": a pronoun takes the format said before)
_TRIER = re.compile(r"(?<![\w'])(?:we|on|nous|i|je)\s+(?:have\s+|had\s+|avons\s+|a\s+|ont\s+|avions\s+)?$")


@per_text  # (read twice by the precision: its formats, then its bit widths)
def _tried_and_failed(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    if _TRIED.search(text) is None:
        return spans
    for failed in _FAILED.finditer(text):
        sentence_start = max((s.end() for s in _SENTENCE_STOP.finditer(text, 0, failed.start())), default=0)
        verb = _TRIED.search(text, sentence_start, failed.start())
        if verb is None:
            continue
        trier = _TRIER.search(text, sentence_start, verb.start())
        spans.append((trier.start() if trier is not None else sentence_start, failed.end()))
    return spans


# two models weighed in one sentence ("servir Llama 3.1 405B en FP8 ou Qwen3 235B", "compares Llama 3.1 8B with
# Gemma 3 12B in FP8"): a format said there is one option's, not the plan's
_WEIGHED = re.compile(r"\b(?:compar\w*|hesit\w*|versus|vs|weigh\w*|choose between|choisir entre|between|entre|or|ou"
                      r"|scenarios?|options?)\b")
_SIZE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?b\b")
_ASKED = re.compile(r"[ \t]*\?")
_ANY_FORMAT = re.compile("|".join(p for p, _ in PRECISIONS))


# a format asked about in general, not chosen: "Is FP8 supported on the RTX 4090? Asking for general knowledge only",
# "le FP8 fonctionne-t-il bien sur une RTX 4090 ? … question générale" (heldout31 en-af13): the question's subject is
# the format's support; it is set aside when the writer says the question is general, or names another format
_SUPPORT_ASKED = re.compile(r"(?:^|(?<=[.!?:\n])|(?<=[.!?:\n] ))\s*(?:is|are|does|do|can|est-ce que|le|la|l')\s+"
                            r"(?P<format>[\w-]+(?: [\w-]+)?)\s+(?:even\s+|vraiment\s+|bien\s+)?(?:really\s+)?"
                            r"(?:supported|supports?|work\w*|usable|viable|fonctionne\w*|marche\w*|supporte\w*"
                            r"|utilisable|compatible)\b[^.!?\n]*\?")
_GENERAL_QUESTION = re.compile(r"\b(?:general knowledge|general question|just curious|out of curiosity|for my own"
                               r" knowledge|question generale|par curiosite|pour ma culture|pour info(?:rmation)?"
                               r" generale)\b")


def support_questions(text: str) -> list[tuple[int, int]]:
    """(start, end) of the questions whether something is supported or usable ("Is FP8 supported on the RTX 4090?",
    "le FP8 fonctionne-t-il bien sur une RTX 4090 ?"): what they name is asked about, not chosen."""
    return [(m.start("format"), m.end()) for m in _SUPPORT_ASKED.finditer(text)]


@per_text  # (read twice by the precision: its formats, then its bit widths)
def _asked_in_general(text: str) -> list[tuple[int, int]]:
    spans = [(m.start("format"), m.end("format")) for m in _SUPPORT_ASKED.finditer(text)]
    if not spans:
        return []
    if _GENERAL_QUESTION.search(text):
        return spans
    others = [m for m in _ANY_FORMAT.finditer(text) if not any(a <= m.start() < b for a, b in spans)]
    return spans if others else []


def _other_format(text: str, start: int, end: int) -> bool:
    """Whether the message names another format than the one at [start, end), negated or not."""
    said = text[start:end]
    return any(m.group(0) != said for m in _ANY_FORMAT.finditer(text) if not start <= m.start() < end)


_TARGET_BEFORE = re.compile(r"(?:\ben|\bin|\bto|\binto|\bvers|\bcible|\btarget\w*|\bquanti[sz]\w*|\bquantifi\w*"
                            r"|\bserv\w*|\bdeploy\w*|\bdeploie\w*|\bheberg\w*|\brun\w*|\btourner)\W*$")


Mention = tuple[int, int, int, int, str]


def _mentions(message: Message, table: tuple[tuple[re.Pattern[str], str], ...]) -> list[Mention]:
    """(hedged, -score, start, end, value) of each precision named and not negated."""
    taken: list[tuple[int, int]] = []
    mentions: list[Mention] = []
    past = past_clauses(message.text) + prototype_clauses(message.text)  # (a prototype's format is tried, too)
    set_aside = [(m.start(), m.end()) for m in _SET_ASIDE.finditer(message.text)] + _asked_in_general(message.text)
    set_aside += _tried_and_failed(message.text)
    for pattern, value in table:
        for m in pattern.finditer(message.text):
            if any(a < m.end() and m.start() < b for a, b in taken) or message.negated(m.start()):
                continue
            taken.append((m.start(), m.end()))
            if any(a <= m.start() < b for a, b in set_aside):
                continue
            before = message.text[max(0, m.start() - 25):m.start()]
            after = message.text[m.end():m.end() + 20]
            score = 0
            if _TARGET_BEFORE.search(before):
                score += 1
            if _SOURCE_NEAR.search(before[-12:]) or _SOURCE_NEAR.match(after.strip()):
                score -= 1
            if _KV_NEAR.search(before[-12:]) or _KV_NEAR.search(after[:10]):
                score -= 2
            if any(a <= m.start() < b for a, b in past):
                score -= 2  # "We ran it in AWQ last year. This time we want FP8.": tried before, not wanted now
            # a hedged one ranks below any stated one and is left unclaimed: a second one named makes it a doubt;
            # so does one asked about while another format is named ("en fp16 ?… non, fp8")
            asked = _ASKED.match(message.text, m.end()) and _other_format(message.text, m.start(), m.end())
            maybe = _MAYBE_BEFORE.search(before)
            if maybe and _HEDGE_CLOSED.match(before, maybe.start()) and re.search(r"\w[ \t]+$", before[:maybe.start()]):
                maybe = None  # "Qwen3 Coder 480B si possible, en FP8": the hedge qualifies the model before it
            hedged = _MAYBE if (maybe or _IF_AFTER.match(message.text, m.end()) or asked) else (
                _ALTERNATIVE if _OR_BEFORE.search(before) or _OR_AFTER.match(message.text, m.end()) else 0)
            mentions.append((hedged, -score, m.start(), m.end(), value))
    return mentions


def find_precision(message: Message) -> Iterator[Found]:
    mentions = _mentions(message, _COMPILED_PRECISIONS)
    if not mentions:
        mentions = [(hedged, score, start, end, "nf4" if value == "int4" and _QLORA.search(message.text) else value)
                    for hedged, score, start, end, value in _mentions(message, _COMPILED_WIDTHS)]
    if not mentions:
        return
    if len({m[4] for m in mentions}) == 1:
        mentions = [(0 if m[0] == _ALTERNATIVE else m[0], *m[1:]) for m in mentions]
    hedged, best, start, end, value = min(mentions)
    if hedged or (any(m[0] for m in mentions) and len({m[4] for m in mentions}) > 1):
        # an option among others ("BF16 unless memory is short, then AWQ", "maybe 4-bit if it fits"): the
        # customer has not chosen; the formats are offered, none recorded
        offered = tuple(dict.fromkeys(v for _, _, _, _, v in sorted(mentions, key=lambda m: m[2])))
        yield Found("suggest:precision", offered, start, end, claim=False)
        return
    sentence = message.text[slice(*sentence_bounds(message.text, start))]
    if _WEIGHED.search(sentence) and len(_SIZE.findall(sentence)) >= 2:
        yield Found("suggest:precision", (value,), start, end, claim=False)  # one of two models' format
        return
    yield Found("precision", value, start, end)
    for other_hedged, score, a, b, other in mentions:
        if not other_hedged and score > best:
            yield Found("precision", other, a, b)  # the source or KV format, weighed and set aside: claimed


PRECISION = Rule(
    "precision", ("precision",), find_precision,
    examples=(
        ("Llama 3.1 70B en FP8", {"precision": "fp8"}),
        ("served in AWQ", {"precision": "int4"}),
        ("on the bf16 base (not 4-bit)", {"precision": "bf16"}),
        ("bitsandbytes 4-bit", {"precision": "nf4"}),
        ("publié en bf16, on veut le servir en FP8", {"precision": "fp8"}),
        ("GGUF Q4_K_M", {"precision": "int4"}),
        ("QLoRA, base en 4 bits", {"precision": "nf4"}),
        ("4-bit NF4 via bitsandbytes", {"precision": "nf4"}),
        ("served in 4-bit", {"precision": "int4"}),
        ("half precision", {"precision": "fp16"}),
        ("Qwen3 Coder 480B si possible, en FP8, servi avec vLLM", {"precision": "fp8"}),
        ("Bonjour. Si possible, en FP8.", {}),
        ("We looked at 4-bit quantization but will stay in bf16.", {"precision": "bf16"}),
        ("Nous avons pensé au 4-bit mais la qualité compte.", {}),
        ("servir Llama 3.1 405B en FP8 ou Qwen3 235B", {}),
        ("Datavolt compares Llama 3.1 8B with Gemma 3 12B in FP8 for a chatbot", {}),
        ("peut-être en 8 bits si la carte est trop juste", {}),
        ("GGUF Q4 if it fits, otherwise Q8", {}),
        ("on the bf16 base, quantized to FP8 for serving", {"precision": "fp8"}),
        ("Paul: BF16 ?\nLéa: non, FP8 c'est validé", {}), ("Qwen3 8B en FP8 ?", {"precision": "fp8"}),
        ("weights in AWQ or GPTQ, whichever loads", {"precision": "int4"}),
        ("We ran it in AWQ last year. This time we want FP8.", {"precision": "fp8"}),
        # a format dropped or that failed, named with why (heldout23 en-f09, en-f40, fr-f25)
        ("We were going to run W8A8 int8 but our integrator says FP8 is better, so FP8 it is.", {"precision": "fp8"}),
        ("We had loss spikes in bf16, so we'll train in plain FP32 this time.", {"precision": "fp32"}),
        ("Pas de quantification, on reste en bf16 (on a eu de mauvaises surprises en 4 bits).", {"precision": "bf16"}),
        ("servir Qwen3 14B en bf16 (pas en 4 bits : on a eu des soucis de qualité en AWQ lors des essais)",
         {"precision": "bf16"}),
        # a hedge of the sentence before says nothing of a format said after it (heldout23 en-f27)
        ("We want to know whether that's enough. FP8. Framework: vLLM.", {"precision": "fp8"}),
        ("On a testé en 4 bits, la qualité était insuffisante, donc pas de quantification agressive.", {}),
        ("La quantification 4 bits (GPTQ) a été testée sur Llama 3.3 70B et la qualité s'est effondrée.", {}),
        ("We tried AWQ on Qwen2.5 32B and accuracy tanked, so we'll serve it in FP8.", {"precision": "fp8"}),
        ("We prototyped it with a 4-bit GGUF, but for production we want the full bf16 weights.",
         {"precision": "bf16"}),
    ),
    doc="weight precision; the target format wins over the source one and over the KV-cache format",
)

_URL = re.compile(r"https?://[^\s<>\"')\]]+")
_SERVER_HINT = re.compile(r"(?::\d{2,5}\b|/v1\b|\b(?:bench\w*|mesur\w*|measure\w*|endpoint|serveur|server|api"
                          r"|load test)\b)")


def find_server_url(message: Message) -> Iterator[Found]:
    """A URL to benchmark: one with a port or /v1, or named as a server/endpoint to measure."""
    for m in _URL.finditer(message.text):
        around = message.text[max(0, m.start() - 40):m.end() + 10]
        if _SERVER_HINT.search(m.group(0)) or _SERVER_HINT.search(around):
            a, b = message.span(m.start(), m.end())
            yield Found("server_url", message.original[a:b].rstrip(".,;"), m.start(), m.end())
            return


SERVER_URL = Rule(
    "server-url", ("server_url",), find_server_url,
    examples=(("bench it at http://127.0.0.1:8000/v1", {"server_url": "http://127.0.0.1:8000/v1"}),
              ("notre site https://acme.example", {})),
    doc="a running OpenAI-compatible server to measure",
)
