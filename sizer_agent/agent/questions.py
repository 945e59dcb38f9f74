"""The question catalogue: what the interview asks, in which order, why, and what "I don't know" means.

One `Question` per `WorkloadProfile` field that the interview asks. A question is *required* for a
profile when its `applies` predicate holds (the optimizer only for training, the latency SLA only for
online serving...). The engine asks required questions in catalogue order and runs the tools once none is
left. Questions that do not apply are never asked, but an answer given in passing is still recorded.

Defaults are documented here, once: the engine states the default it used and marks the answer
"assumed", and the proposal lists assumptions separately from answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from sizer_agent.agent.profile import INFERENCE_USE_CASES, TRAINING_USE_CASES, WorkloadProfile

Lang = Literal["fr", "en"]
QuestionType = Literal[
    "text", "choice", "model", "tokens", "integer", "ratio", "duration_ms", "duration_min", "bytes",
    "boolean", "money", "power", "url",
]
NO_DEFAULT = object()  # "I don't know" is refused: the tools cannot run without this answer


@dataclass(frozen=True)
class Question:
    id: str  # the WorkloadProfile field it fills
    type: QuestionType
    text: dict[str, str]  # lang -> question
    why: dict[str, str]  # lang -> why it matters (shown on "why?")
    example: dict[str, str]  # lang -> a valid answer, shown as the hint after a misunderstanding
    label: dict[str, str]  # lang -> short name for summaries
    applies: Callable[[WorkloadProfile], bool] = lambda _p: True
    applies_doc: str = "always"
    default: Any = NO_DEFAULT  # value used on "I don't know"; a callable gets the profile
    default_doc: dict[str, str] = field(default_factory=dict)  # lang -> how the default is chosen
    choices: tuple[str, ...] = ()  # allowed values for "choice"
    choice_labels: dict[str, dict[str, str]] = field(default_factory=dict)  # value -> lang -> label
    suggestions: dict[str, tuple[str, ...]] = field(default_factory=dict)  # lang -> quick answers

    def has_default(self) -> bool:
        return self.default is not NO_DEFAULT

    def default_for(self, profile: WorkloadProfile) -> Any:
        if not self.has_default():
            raise LookupError(f"{self.id} has no default")
        return self.default(profile) if callable(self.default) else self.default

    def required(self, profile: WorkloadProfile) -> bool:
        return self.applies(profile)


def _inference(p: WorkloadProfile) -> bool:
    return p.use_case in INFERENCE_USE_CASES


def _training(p: WorkloadProfile) -> bool:
    return p.use_case in TRAINING_USE_CASES


def _language_model(p: WorkloadProfile) -> bool:
    return p.use_case != "vision"


def _uses_batch(p: WorkloadProfile) -> bool:
    return p.use_case in TRAINING_USE_CASES | {"batch_inference", "vision"}


def _fr_en(fr: str, en: str) -> dict[str, str]:
    return {"fr": fr, "en": en}


USE_CASE_LABELS = {
    "online_serving": _fr_en("service en ligne (inférence interactive)", "online serving (interactive inference)"),
    "batch_inference": _fr_en("inférence par lots", "batch inference"),
    "finetune_full": _fr_en("affinage complet", "full fine-tuning"),
    "finetune_lora": _fr_en("affinage LoRA", "LoRA fine-tuning"),
    "finetune_qlora": _fr_en("affinage QLoRA", "QLoRA fine-tuning"),
    "pretraining": _fr_en("entraînement à partir de zéro", "training from scratch"),
    "vision": _fr_en("vision par ordinateur", "computer vision"),
}

QUESTIONS: tuple[Question, ...] = (
    Question(
        id="customer", type="text",
        label=_fr_en("client", "customer"),
        text=_fr_en("Pour quel client ou projet faisons-nous ce dimensionnement ?",
                    "Which customer or project is this sizing for?"),
        why=_fr_en("Le nom sert uniquement à retrouver la session et à titrer la proposition.",
                   "The name only identifies the session and titles the proposal."),
        example=_fr_en("Acme, chatbot interne", "Acme, internal chatbot"),
        default="", default_doc=_fr_en("aucun nom (session anonyme)", "no name (anonymous session)"),
    ),
    Question(
        id="use_case", type="choice",
        label=_fr_en("usage", "use case"),
        text=_fr_en(
            "Que ferez-vous avec le modèle : service en ligne, inférence par lots, affinage (complet, LoRA, "
            "QLoRA), entraînement à partir de zéro, ou vision ?",
            "What will you do with the model: online serving, batch inference, fine-tuning (full, LoRA, "
            "QLoRA), training from scratch, or vision?"),
        why=_fr_en(
            "L'inférence ne garde que les poids et le cache KV ; l'affinage et l'entraînement ajoutent "
            "gradients, états de l'optimiseur et activations — souvent 4 à 8 fois plus de mémoire.",
            "Inference keeps only weights and the KV cache; fine-tuning and training add gradients, optimizer "
            "states and activations — often 4 to 8 times more memory."),
        example=_fr_en("service en ligne", "online serving"),
        choices=tuple(USE_CASE_LABELS),
        choice_labels=USE_CASE_LABELS,
        suggestions={"fr": ("service en ligne", "inférence par lots", "affinage LoRA", "affinage QLoRA",
                            "affinage complet", "entraînement", "vision"),
                     "en": ("online serving", "batch inference", "LoRA fine-tuning", "QLoRA fine-tuning",
                            "full fine-tuning", "training from scratch", "vision")},
    ),
    Question(
        id="model", type="model",
        label=_fr_en("modèle", "model"),
        text=_fr_en("Quel modèle utilisez-vous, et à quelle révision ? (identifiant Hugging Face ou nom)",
                    "Which model do you use, and at which revision? (Hugging Face id or name)"),
        why=_fr_en(
            "Le nombre de paramètres et l'architecture (têtes KV, couches, experts) fixent la mémoire des "
            "poids et du cache : 70 milliards de paramètres × 2 octets = 140 Go avant tout le reste.",
            "The parameter count and architecture (KV heads, layers, experts) fix weight and cache memory: "
            "70 billion parameters × 2 bytes = 140 GB before anything else."),
        example=_fr_en("Llama 3.1 70B Instruct", "Llama 3.1 70B Instruct"),
        suggestions={"fr": ("Llama 3.1 8B", "Llama 3.1 70B", "Qwen2.5 7B", "Mistral 7B"),
                     "en": ("Llama 3.1 8B", "Llama 3.1 70B", "Qwen2.5 7B", "Mistral 7B")},
    ),
    Question(
        id="precision", type="choice",
        label=_fr_en("précision", "precision"),
        text=_fr_en("En quelle précision ? (bf16, fp16, fp8, int8, int4/AWQ/GPTQ, nf4...)",
                    "In which precision? (bf16, fp16, fp8, int8, int4/AWQ/GPTQ, nf4...)"),
        why=_fr_en(
            "Octets par paramètre : 2 en bf16, 1 en fp8/int8, environ 0,5 en 4 bits (plus les échelles). "
            "C'est le premier facteur de la mémoire des poids.",
            "Bytes per parameter: 2 in bf16, 1 in fp8/int8, about 0.5 in 4 bit (plus scales). It is the "
            "first factor of weight memory."),
        example=_fr_en("bf16", "bf16"),
        choices=("fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4", "mxfp4", "nvfp4"),
        default=lambda p: "nf4" if p.use_case == "finetune_qlora" else "bf16",
        default_doc=_fr_en("bf16 (nf4 pour QLoRA), la précision de publication de la plupart des modèles",
                           "bf16 (nf4 for QLoRA), the precision most models are published in"),
        suggestions={"fr": ("bf16", "fp8", "int4"), "en": ("bf16", "fp8", "int4")},
    ),
    Question(
        id="input_len", type="tokens",
        label=_fr_en("entrée moyenne", "mean input"),
        applies=_inference, applies_doc="inference",
        text=_fr_en("Combien de tokens en entrée par requête, en moyenne ? (vous pouvez donner « 2k / 512 » "
                    "pour entrée / sortie)",
                    "How many input tokens per request, on average? (you may give \"2k / 512\" for input / "
                    "output)"),
        why=_fr_en("La longueur d'entrée fixe le temps de préremplissage (TTFT) et la part du cache KV.",
                   "The input length sets the prefill time (TTFT) and part of the KV cache."),
        example=_fr_en("2k", "2k"),
        default=1024, default_doc=_fr_en("1 024 tokens", "1,024 tokens"),
    ),
    Question(
        id="output_len", type="tokens",
        label=_fr_en("sortie moyenne", "mean output"),
        applies=_inference, applies_doc="inference",
        text=_fr_en("Combien de tokens générés par requête, en moyenne ?",
                    "How many tokens generated per request, on average?"),
        why=_fr_en("Chaque token généré est une étape de décodage, limitée par la bande passante mémoire.",
                   "Each generated token is one decode step, bound by memory bandwidth."),
        example=_fr_en("512", "512"),
        default=256, default_doc=_fr_en("256 tokens", "256 tokens"),
    ),
    Question(
        id="context_len", type="tokens",
        label=_fr_en("contexte", "context"),
        applies=_language_model, applies_doc="language models (not vision)",
        text=_fr_en("Quelle longueur de contexte maximale par séquence (entrée + sortie, ou longueur de "
                    "séquence à l'entraînement) ?",
                    "What maximum context length per sequence (input + output, or sequence length in "
                    "training)?"),
        why=_fr_en("Le cache KV et les activations grandissent avec le contexte : à 32 requêtes, passer de "
                   "8k à 32k multiplie le cache par quatre.",
                   "The KV cache and activations grow with context: at 32 requests, going from 8k to 32k "
                   "multiplies the cache by four."),
        example=_fr_en("8k", "8k"),
        default=lambda p: max(4096, (p.input_len or 0) + (p.output_len or 0)),
        default_doc=_fr_en("4 096 tokens, ou entrée + sortie si c'est plus", "4,096 tokens, or input + output "
                           "if larger"),
        suggestions={"fr": ("4k", "8k", "32k", "128k"), "en": ("4k", "8k", "32k", "128k")},
    ),
    Question(
        id="image_resolution", type="integer",
        label=_fr_en("résolution", "resolution"),
        applies=lambda p: p.use_case == "vision", applies_doc="vision",
        text=_fr_en("Quelle résolution d'image (pixels par côté) ?", "What image resolution (pixels per side)?"),
        why=_fr_en("En vision, la résolution et le batch comptent autant que le modèle pour les activations.",
                   "In vision, resolution and batch size weigh as much as the model in activation memory."),
        example=_fr_en("1024", "1024"),
        default=224, default_doc=_fr_en("224 pixels (ImageNet)", "224 pixels (ImageNet)"),
    ),
    Question(
        id="batch_size", type="integer",
        label=_fr_en("batch", "batch"),
        applies=_uses_batch, applies_doc="training, batch inference, vision",
        text=_fr_en("Quelle taille de batch (par GPU) ?", "What batch size (per GPU)?"),
        why=_fr_en("Les activations croissent linéairement avec le batch.",
                   "Activation memory grows linearly with the batch size."),
        example=_fr_en("8", "8"),
        default=lambda p: 32 if p.use_case in {"batch_inference", "vision"} else 8,
        default_doc=_fr_en("8 à l'entraînement, 32 en inférence par lots et en vision",
                           "8 for training, 32 for batch inference and vision"),
    ),
    Question(
        id="concurrency", type="integer",
        label=_fr_en("simultanéité", "concurrency"),
        applies=lambda p: p.use_case == "online_serving", applies_doc="online serving",
        text=_fr_en("Combien de requêtes ou d'utilisateurs simultanés au pic ?",
                    "How many concurrent requests or users at peak?"),
        why=_fr_en("Chaque requête en cours garde son propre cache KV ; la simultanéité fixe aussi le débit "
                   "à tenir sous le SLA.",
                   "Each running request keeps its own KV cache; concurrency also sets the throughput to "
                   "sustain under the SLA."),
        example=_fr_en("32 utilisateurs", "32 users"),
        default=8, default_doc=_fr_en("8 requêtes simultanées", "8 concurrent requests"),
    ),
    Question(
        id="growth_factor", type="ratio",
        label=_fr_en("croissance", "growth"),
        applies=lambda p: p.use_case == "online_serving", applies_doc="online serving",
        text=_fr_en("Quelle croissance de charge attendez-vous (ex. « x2 », « +50 % ») ?",
                    "What load growth do you expect (e.g. \"x2\", \"+50%\")?"),
        why=_fr_en("Une machine de production doit tenir la charge future, pas seulement celle du jour.",
                   "A production machine must hold tomorrow's load, not only today's."),
        example=_fr_en("x2", "x2"),
        default=1.0, default_doc=_fr_en("pas de croissance (x1)", "no growth (x1)"),
    ),
    Question(
        id="ttft_ms", type="duration_ms",
        label=_fr_en("TTFT cible", "TTFT target"),
        applies=lambda p: p.use_case == "online_serving", applies_doc="online serving",
        text=_fr_en("Quel délai maximal avant le premier token (TTFT, P99) ?",
                    "What maximum time to first token (TTFT, P99)?"),
        why=_fr_en("Le SLA de latence fixe la simultanéité maximale qu'un GPU tient ; sans SLA, le débit "
                   "n'a pas de sens.",
                   "The latency SLA sets the highest concurrency one GPU sustains; without an SLA, throughput "
                   "means nothing."),
        example=_fr_en("500 ms", "500 ms"),
        default=500.0, default_doc=_fr_en("500 ms (exemple de SLA de la méthode)", "500 ms (the method's "
                                          "example SLA)"),
    ),
    Question(
        id="tpot_ms", type="duration_ms",
        label=_fr_en("TPOT cible", "TPOT target"),
        applies=lambda p: p.use_case == "online_serving", applies_doc="online serving",
        text=_fr_en("Quel temps maximal par token généré (TPOT, P99) ?",
                    "What maximum time per output token (TPOT, P99)?"),
        why=_fr_en("Le TPOT fixe la vitesse de lecture perçue : 50 ms = 20 tokens/s par utilisateur.",
                   "TPOT sets the perceived reading speed: 50 ms = 20 tokens/s per user."),
        example=_fr_en("50 ms", "50 ms"),
        default=50.0, default_doc=_fr_en("50 ms (20 tokens/s par utilisateur)", "50 ms (20 tokens/s per user)"),
    ),
    Question(
        id="dataset_size_bytes", type="bytes",
        label=_fr_en("jeu de données", "dataset"),
        applies=lambda p: _training(p) or p.use_case == "vision", applies_doc="training, vision",
        text=_fr_en("Quelle taille fait le jeu de données ?", "How large is the dataset?"),
        why=_fr_en("Il décide de la RAM système, du stockage NVMe et du temps par époque.",
                   "It sets system RAM, NVMe storage and time per epoch."),
        example=_fr_en("1,5 To", "1.5 TB"),
        default=10 * 10**9, default_doc=_fr_en("10 Go", "10 GB"),
    ),
    Question(
        id="optimizer", type="choice",
        label=_fr_en("optimiseur", "optimizer"),
        applies=_training, applies_doc="training and fine-tuning",
        text=_fr_en("Quel optimiseur ? (AdamW, AdamW 8 bits, SGD, Adafactor)",
                    "Which optimizer? (AdamW, 8-bit AdamW, SGD, Adafactor)"),
        why=_fr_en("AdamW en précision mixte garde 12 octets par paramètre entraînable (copie fp32 + deux "
                   "moments) ; 8 bits ou SGD en gardent bien moins.",
                   "Mixed-precision AdamW keeps 12 bytes per trainable parameter (fp32 master + two "
                   "moments); 8-bit or SGD keep far less."),
        example=_fr_en("AdamW", "AdamW"),
        choices=("adamw", "adamw_8bit", "sgd", "sgd_momentum", "adafactor"),
        default="adamw", default_doc=_fr_en("AdamW", "AdamW"),
        suggestions={"fr": ("AdamW", "AdamW 8 bits", "SGD"), "en": ("AdamW", "8-bit AdamW", "SGD")},
    ),
    Question(
        id="checkpoint_interval_min", type="duration_min",
        label=_fr_en("checkpoints", "checkpoints"),
        applies=_training, applies_doc="training and fine-tuning",
        text=_fr_en("Tous les combien sauvegardez-vous un checkpoint ?", "How often do you save a checkpoint?"),
        why=_fr_en("L'écriture des checkpoints coûte du temps et du stockage ; elle borne le travail perdu "
                   "après une panne (goodput).",
                   "Writing checkpoints costs time and storage; it bounds the work lost after a failure "
                   "(goodput)."),
        example=_fr_en("toutes les 30 min", "every 30 min"),
        default=60.0, default_doc=_fr_en("toutes les 60 minutes", "every 60 minutes"),
    ),
    Question(
        id="framework", type="choice",
        label=_fr_en("framework", "framework"),
        text=_fr_en("Avec quel framework (et quelle version) ? (vLLM, SGLang, TensorRT-LLM, llama.cpp, "
                    "Transformers, PyTorch...)",
                    "With which framework (and version)? (vLLM, SGLang, TensorRT-LLM, llama.cpp, "
                    "Transformers, PyTorch...)"),
        why=_fr_en("Chaque moteur réserve la mémoire à sa façon (vLLM pré-alloue 90 % du GPU) et ne "
                   "supporte pas toutes les précisions.",
                   "Each engine reserves memory its own way (vLLM pre-allocates 90% of the GPU) and does "
                   "not support every precision."),
        example=_fr_en("vLLM 0.11", "vLLM 0.11"),
        choices=("vllm", "sglang", "tensorrt-llm", "llama.cpp", "ollama", "transformers", "pytorch", "jax",
                 "tensorflow", "other"),
        default=lambda p: "vllm" if p.use_case in INFERENCE_USE_CASES else "pytorch",
        default_doc=_fr_en("vLLM pour l'inférence, PyTorch pour l'entraînement et la vision",
                           "vLLM for inference, PyTorch for training and vision"),
    ),
    Question(
        id="framework_version", type="text",
        label=_fr_en("version", "version"),
        text=_fr_en("Quelle version du framework ?", "Which framework version?"),
        why=_fr_en("Les comparaisons ne valent qu'à version logicielle égale ; les versions changent la "
                   "gestion mémoire.",
                   "Comparisons only hold at equal software versions; versions change memory management."),
        example=_fr_en("0.11.0", "0.11.0"),
        default="latest", default_doc=_fr_en("la dernière version (non fixée)", "the latest release (unpinned)"),
    ),
    Question(
        id="num_gpus", type="integer",
        label=_fr_en("GPU prévus", "planned GPUs"),
        text=_fr_en("Combien de GPU prévoyez-vous (dans une machine) ?", "How many GPUs do you plan (in one "
                    "machine)?"),
        why=_fr_en("La VRAM ne s'additionne pas entre GPU : plusieurs cartes demandent un parallélisme "
                   "compatible (tenseur, pipeline, données).",
                   "VRAM does not add up across GPUs: several cards need a compatible parallelism (tensor, "
                   "pipeline, data)."),
        example=_fr_en("2", "2"),
        default=1, default_doc=_fr_en("1 GPU", "1 GPU"),
    ),
    Question(
        id="deployment", type="choice",
        label=_fr_en("déploiement", "deployment"),
        text=_fr_en("Où tournera-t-il : station de travail, serveur en baie, ou cloud ?",
                    "Where will it run: workstation, rack server, or cloud?"),
        why=_fr_en("Le format décide de l'alimentation, du refroidissement et du catalogue proposé.",
                   "The form factor decides power, cooling and which catalogue applies."),
        example=_fr_en("station de travail", "workstation"),
        choices=("workstation", "server", "cloud"),
        choice_labels={"workstation": _fr_en("station de travail", "workstation"),
                       "server": _fr_en("serveur", "server"), "cloud": _fr_en("cloud", "cloud")},
        default="workstation", default_doc=_fr_en("station de travail", "workstation"),
        suggestions={"fr": ("station de travail", "serveur", "cloud"), "en": ("workstation", "server", "cloud")},
    ),
    Question(
        id="rendering_cad", type="boolean",
        label=_fr_en("rendu / CAO", "rendering / CAD"),
        applies=lambda p: p.deployment in (None, "workstation"), applies_doc="workstation",
        text=_fr_en("La station fera-t-elle aussi du rendu ou de la CAO ?",
                    "Will the workstation also do rendering or CAD?"),
        why=_fr_en("Le rendu et la CAO demandent des pilotes et fonctions graphiques que certaines cartes "
                   "de calcul n'ont pas, et partagent la VRAM.",
                   "Rendering and CAD need graphics drivers and features some compute cards lack, and they "
                   "share the VRAM."),
        example=_fr_en("non", "no"),
        default=False, default_doc=_fr_en("non", "no"),
        suggestions={"fr": ("oui", "non"), "en": ("yes", "no")},
    ),
    Question(
        id="ecc_required", type="boolean",
        label=_fr_en("ECC", "ECC"),
        text=_fr_en("La mémoire ECC est-elle exigée ?", "Is ECC memory required?"),
        why=_fr_en("L'ECC compte pour les longues charges et la continuité ; elle restreint le choix aux "
                   "cartes professionnelles.",
                   "ECC matters for long jobs and continuity; it restricts the choice to professional cards."),
        example=_fr_en("oui", "yes"),
        default=False, default_doc=_fr_en("non exigée", "not required"),
        suggestions={"fr": ("oui", "non"), "en": ("yes", "no")},
    ),
    Question(
        id="budget_eur", type="money",
        label=_fr_en("budget", "budget"),
        text=_fr_en("Quel budget maximal, en euros hors taxes ?", "What maximum budget, in euros excl. tax?"),
        why=_fr_en("On compare la performance par euro ; le budget écarte les configurations hors de portée.",
                   "We compare performance per euro; the budget rules out configurations out of reach."),
        example=_fr_en("25 000 €", "€25,000"),
        default=None, default_doc=_fr_en("pas de limite", "no limit"),
    ),
    Question(
        id="power_limit_w", type="power",
        label=_fr_en("puissance max", "power limit"),
        applies=lambda p: p.deployment in ("workstation", "server"), applies_doc="workstation, server",
        text=_fr_en("Y a-t-il une limite de puissance électrique (W ou kW) ?",
                    "Is there an electrical power limit (W or kW)?"),
        why=_fr_en("Plusieurs GPU demandent alimentation et refroidissement soutenus ; une prise de bureau "
                   "tient environ 3,6 kW.",
                   "Several GPUs need sustained power and cooling; an office socket holds about 3.6 kW."),
        example=_fr_en("1,6 kW", "1.6 kW"),
        default=None, default_doc=_fr_en("pas de limite", "no limit"),
    ),
    Question(
        id="rack_units", type="integer",
        label=_fr_en("place en baie", "rack space"),
        applies=lambda p: p.deployment == "server", applies_doc="server",
        text=_fr_en("Combien d'unités de baie (U) sont disponibles ?", "How many rack units (U) are available?"),
        why=_fr_en("Un serveur 8 GPU occupe 8 à 10 U ; la place décide du format.",
                   "An 8-GPU server takes 8 to 10 U; space decides the form factor."),
        example=_fr_en("4U", "4U"),
        default=None, default_doc=_fr_en("pas de limite", "no limit"),
    ),
)

# Asked only when the user offers them (free text or answers file); never required.
OPTIONAL_FIELDS: tuple[str, ...] = (
    "model_revision", "model_family", "custom_architecture", "server_url", "head_count", "gpu_preference",
)
# Optional fields whose label lives in the product catalogue (sizer_agent/i18n, section agent.label).
_CATALOGUE_LABELS = frozenset({"head_count", "gpu_preference"})

BY_ID: dict[str, Question] = {q.id: q for q in QUESTIONS}


def question(question_id: str) -> Question:
    return BY_ID[question_id]


def required_questions(profile: WorkloadProfile) -> list[Question]:
    """Questions that apply to this profile, in interview order."""
    return [q for q in QUESTIONS if q.required(profile)]


def missing_questions(profile: WorkloadProfile, answered: set[str] | frozenset[str]) -> list[Question]:
    """Required questions without an answer (an assumed default counts as an answer)."""
    return [q for q in required_questions(profile) if q.id not in answered]


def field_label(field_id: str, lang: Lang) -> str:
    q = BY_ID.get(field_id)
    if q is not None:
        return q.label[lang]
    if field_id in _CATALOGUE_LABELS:
        from sizer_agent.i18n import render

        return render(lang, f"agent.label.{field_id}")
    extra = {"model_revision": _fr_en("révision", "revision"), "model_family": _fr_en("famille", "family"),
             "custom_architecture": _fr_en("architecture", "architecture"),
             "server_url": _fr_en("serveur à mesurer", "server to measure")}
    return extra.get(field_id, _fr_en(field_id, field_id))[lang]
