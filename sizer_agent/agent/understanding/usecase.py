"""What the customer will do with the model, from the verbs people use.

Serving ("serve", "host", "héberger", "deploy", "mettre en production", "chatbot", "API", "inference only"),
batch inference ("nightly job over our archive", "offline", "par lots"), fine-tuning (LoRA, QLoRA, full),
training from scratch, computer vision. A past participle describes a model, it is not a plan: "serve a
fine-tuned Llama" is serving. Negated cues are dropped ("no fine-tuning", "pas d'entraînement"). Between
families, the first cue in the message wins; within fine-tuning, the method said anywhere decides
(QLoRA, LoRA, full), and fine-tuning with no method stated is full fine-tuning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message, words

_FINETUNE_VERB = r"(?:fine[- ]?tun(?:e|es|ing|er|ons|ez)|finetun(?:e|es|ing|er)|affin(?:er|age|ons|ez)|sft" \
                 r"|re-?entrain\w*|ajustement fin|instruction[- ]tuning|specialis\w+ le modele)"
CUES: tuple[tuple[str, str], ...] = (
    (words(r"q-?lora"), "finetune_qlora"),
    (words(r"lora", r"dora", r"adapters?", r"adaptateurs?", r"peft"), "finetune_lora"),
    (words(r"full fine[- ]?tun\w*", r"full[- ]parameter\w*", r"all (?:the )?weights", r"tous les poids",
           r"fine[- ]?tun\w* (?:complet|full|total)", r"affinage complet", r"full sft", r"sft complet")
     + r"|" + _FINETUNE_VERB + r"\s*\(\s*full\s*\)", "finetune_full"),
    (words(r"from scratch", r"a partir de zero", r"de zero", r"pre-?train\w*", r"pretrain\w*", r"pre-?entrain\w*",
           r"preentrain\w*", r"foundation model training", r"train (?:our|a|an) own (?:\w+ )?model",
           r"entrainer (?:notre|un|nos) propre\w* modele\w*", r"continued pre-?training"), "pretraining"),
    (words(_FINETUNE_VERB), "finetune"),
    (words(r"batch inference", r"inference (?:par|en) lots?", r"inference batch", r"batch processing",
           r"traitements? (?:par|en) lots?", r"par lots", r"offline", r"hors[- ]ligne", r"nightly", r"chaque nuit",
           r"toutes les nuits", r"overnight", r"each night", r"every night", r"batch jobs?", r"jobs? batch",
           r"batch(?![ _-]?size)(?!\s*(?:de|of|:|=)?\s*\d)", r"traitement de masse", r"en masse", r"bulk",
           r"asynchrone", r"asynchronous",
           r"pas (?:besoin )?de temps reel", r"not real[- ]time", r"no real[- ]time", r"la nuit", r"de nuit",
           r"throughput (?:only|matters)", r"latency (?:does not|doesn't) matter"), "batch_inference"),
    (words(r"vision par ordinateur", r"computer vision", r"classification d'images?", r"image classification",
           r"classifier (?:des|les) images", r"classify images", r"detection d'objets", r"object detection",
           r"detection (?:de|des) defauts", r"defect detection", r"segmentation\w*", r"yolo\w*", r"resnet\w*",
           r"vit", r"efficientnet\w*", r"detr", r"mask r-?cnn", r"inspection visuelle", r"visual inspection"),
     "vision"),
    (words(r"serv(?:e|es|ed|ing)", r"servir", r"host(?:ed|ing)?", r"heberg\w+", r"deploy\w*", r"deploie\w*",
           r"deploiement", r"mettre en production", r"mise en production", r"en production", r"in production",
           r"production", r"chat ?bots?", r"assistants?", r"copilot\w*", r"apis?", r"endpoints?", r"rag",
           r"inference only", r"inference seule(?:ment)?", r"uniquement (?:de l')?inference", r"only inference",
           r"juste de l'inference", r"real[- ]time", r"temps reel", r"interacti\w+", r"online", r"en ligne",
           r"support client", r"customer support", r"helpdesk", r"agent conversationnel", r"conversationnel\w*",
           r"questions?[- ]reponses?", r"q&a", r"chat", r"live"), "online_serving"),
)
_COMPILED = tuple((re.compile(p), v) for p, v in CUES)
_INFERENCE = re.compile(words(r"inference", r"inferences", r"infer", r"inferer"))
_TRAINING = ("finetune_qlora", "finetune_lora", "finetune_full", "pretraining", "finetune")


def _participle(message: Message, start: int, end: int) -> bool:
    """'fine-tuned', 'finetuned', 'fine-tuné', 'affiné', 'réentraîné': a model's description, not a plan."""
    words_said = message.words(start, end).lower()
    after = message.text[end:end + 2]
    return bool(re.search(r"(?:ed|ée?s?)$", words_said) or after.startswith(("d ", "d,", "d.")))


def find_use_case(message: Message) -> Iterator[Found]:
    cues: list[tuple[int, int, str]] = []
    for pattern, value in _COMPILED:
        for m in pattern.finditer(message.text):
            if message.negated(m.start()):
                continue
            if value in _TRAINING and _participle(message, m.start(), m.end()):
                continue
            cues.append((m.start(), m.end(), value))
    if not cues:
        inference = next((m for m in _INFERENCE.finditer(message.text) if not message.negated(m.start())), None)
        if inference is not None:  # "for inference", with no sign of batch work: interactive serving
            yield Found("use_case", "online_serving", inference.start(), inference.end())
        return
    cues.sort()
    start, end, value = cues[0]
    if value in _TRAINING:
        methods = [c for c in cues if c[2] in ("finetune_qlora", "finetune_lora", "finetune_full", "pretraining")]
        if methods:
            start, end, value = min(methods, key=lambda c: _TRAINING.index(c[2]))
        elif value == "finetune":
            value = "finetune_full"
    yield Found("use_case", value, start, end, claim=False)


USE_CASE = Rule(
    "use-case", ("use_case",), find_use_case,
    examples=(
        ("We want to serve Llama 3.1 70B Instruct, inference only", {"use_case": "online_serving"}),
        ("on veut héberger un chatbot interne", {"use_case": "online_serving"}),
        ("serve a fine-tuned Llama-3.1-8B", {"use_case": "online_serving"}),
        ("fine tuner (full) Mistral 7B", {"use_case": "finetune_full"}),
        ("QLoRA fine-tuning of Mistral 7B", {"use_case": "finetune_qlora"}),
        ("affinage LoRA sur nos tickets", {"use_case": "finetune_lora"}),
        ("pré-entraîner un modèle à partir de zéro", {"use_case": "pretraining"}),
        ("un job de nuit qui résume nos archives, hors ligne", {"use_case": "batch_inference"}),
        ("détection de défauts par YOLO", {"use_case": "vision"}),
        ("inference only, no fine-tuning", {"use_case": "online_serving"}),
        ("budget autour de 25k€", {}),
    ),
    doc="the workload, from verbs and nouns, negations dropped",
)
