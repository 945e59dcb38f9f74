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
from dataclasses import dataclass
from typing import Any, Literal

from sizer_agent.agent.planning import published_precision, several_workstations, workstation_count
from sizer_agent.agent.profile import INFERENCE_USE_CASES, TRAINING_USE_CASES, WorkloadProfile
from sizer_agent.i18n import LANGS, catalogue

Lang = Literal["fr", "en"]
QuestionType = Literal[
    "text", "choice", "model", "tokens", "integer", "ratio", "duration_ms", "duration_min", "bytes",
    "boolean", "money", "power", "url",
]
NO_DEFAULT = object()  # "I don't know" is refused: the tools cannot run without this answer


def _default_context(p: WorkloadProfile) -> int:
    """A server's window: 4,096 tokens, or the stated request if longer. A training run's sequence length:
    the stated example length rounded up to a power of two, as fine-tuning configs set `max_seq_len`
    (torchtune recipes 512-8,192, packed to that length); 4,096 when no length was given."""
    stated = (p.input_len or 0) + (p.output_len or 0)
    if p.use_case in TRAINING_USE_CASES and stated:
        return max(512, 1 << (stated - 1).bit_length())
    return max(DEFAULT_WINDOW, stated)


DEFAULT_INPUT, DEFAULT_OUTPUT = 1024, 256  # the method's example request (design: the interview's defaults)
DEFAULT_WINDOW = 4096  # a server's window when none is said (`_default_context`)


def _default_input(p: WorkloadProfile) -> int:
    """1,024 tokens; a context the customer stated beyond one request of defaults ("contextes longs (32k tokens)"
    for a RAG on case files) is the prompt's length, less the answer: the method measures peak memory at the
    planned context and concurrency (seed 000, "Mesurez le pic mémoire au contexte et à la concurrence prévus"),
    and an acceptance run at 1,024-token prompts would not test the contexts the customer asked for."""
    output = p.output_len or DEFAULT_OUTPUT
    # beyond the default window only: a context of 4,096 may be the default itself (`_default_context`), assumed
    # before this question is answered, and an assumed window says nothing of the prompts
    if p.context_len and p.context_len > DEFAULT_WINDOW:
        return p.context_len - output
    return DEFAULT_INPUT


# A fine-tuning set when none is said: ~50,000 examples of ~1,000 tokens, 200 MB of text at 4 bytes per
# token. Instruction sets are of that order: Alpaca 52,002 examples (Taori et al. 2023), Dolly 15,011
# (Databricks 2023); a pretraining corpus is not, and keeps 10 GB.
FINETUNE_DATASET_BYTES = 200 * 10**6
PRETRAINING_DATASET_BYTES = 10 * 10**9


def _default_dataset_bytes(p: WorkloadProfile) -> int:
    if p.use_case in {"finetune_full", "finetune_lora", "finetune_qlora"}:
        return FINETUNE_DATASET_BYTES
    return PRETRAINING_DATASET_BYTES


def _default_precision(p: WorkloadProfile) -> str:
    """Serving keeps the precision the model is published in (gpt-oss ships MXFP4 weights, DeepSeek-V3 FP8:
    vLLM serves those checkpoints as they are); training updates bf16 weights, QLoRA an NF4 base."""
    if p.use_case == "finetune_qlora":
        return "nf4"
    if p.use_case in INFERENCE_USE_CASES:
        return published_precision(p.model) or "bf16"
    return "bf16"


@dataclass(frozen=True)
class Question:
    """One question; its words (label, question, why, example, default, choices) are in the i18n catalogues,
    section `question.<id>`, so that the interview speaks from the same catalogue as the proposal."""

    id: str  # the WorkloadProfile field it fills
    type: QuestionType
    applies: Callable[[WorkloadProfile], bool] = lambda _p: True
    applies_doc: str = "always"
    default: Any = NO_DEFAULT  # value used on "I don't know"; a callable gets the profile
    default_if: Callable[[WorkloadProfile], bool] | None = None  # the default holds only for such profiles
    choices: tuple[str, ...] = ()  # allowed values for "choice"

    def _words(self, part: str) -> dict[str, str]:
        return {lang: catalogue(lang)[f"question.{self.id}.{part}"] for lang in LANGS}

    @property
    def label(self) -> dict[str, str]:  # lang -> short name for summaries
        return self._words("label")

    @property
    def text(self) -> dict[str, str]:  # lang -> the question
        return self._words("text")

    @property
    def why(self) -> dict[str, str]:  # lang -> why it matters (shown on "why?")
        return self._words("why")

    @property
    def example(self) -> dict[str, str]:  # lang -> a valid answer, shown after a misunderstanding
        return self._words("example")

    @property
    def default_doc(self) -> dict[str, str]:  # lang -> how the default is chosen ({} without a default)
        return self._words("default") if self.default is not NO_DEFAULT else {}

    @property
    def choice_labels(self) -> dict[str, dict[str, str]]:  # value -> lang -> label
        prefix = f"question.{self.id}.choice."
        return {value: {lang: catalogue(lang)[prefix + value] for lang in LANGS} for value in self.choices
                if prefix + value in catalogue("en")}

    @property
    def suggestions(self) -> dict[str, tuple[str, ...]]:  # lang -> quick answers
        key = f"question.{self.id}.suggest"
        if key not in catalogue("en"):
            return {}
        return {lang: tuple(s.strip() for s in catalogue(lang)[key].split("|")) for lang in LANGS}

    def has_default(self, profile: WorkloadProfile | None = None) -> bool:
        """Whether "I don't know" has an answer; a conditional default needs the profile to say."""
        if self.default is NO_DEFAULT:
            return False
        return self.default_if is None or (profile is not None and self.default_if(profile))

    def default_for(self, profile: WorkloadProfile) -> Any:
        if not self.has_default(profile):
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


def _vision(p: WorkloadProfile) -> bool:
    return p.use_case == "vision"


def _vision_training(p: WorkloadProfile) -> bool:
    return p.use_case == "vision" and p.vision_mode != "inference"


def _trains(p: WorkloadProfile) -> bool:
    """Anything that updates weights: LLM training and fine-tuning, vision training."""
    return _training(p) or _vision_training(p)


DEFAULT_CONCURRENCY = 8  # the method's example load when nothing is said

# A service for a whole organisation runs around the clock, and an expert puts it on cards with ECC: seed 002 ("Ai-je
# besoin d'ECC pour l'IA ?" — it counts "quand la capacité, la continuité et les charges de longue durée sont
# prioritaires") and the expert notes (GeForce cards have no ECC and no certified drivers). Where a team's tool ends
# and an organisation's service begins is our product line, not an outside figure: 100 people or 50 requests at once.
SERVICE_HEAD_COUNT = 100
SERVICE_CONCURRENCY = 50


def _default_ecc(p: WorkloadProfile) -> bool:
    # the peak it is sized for: today's times the growth expected ("30 users today, 4x within 18 months" is 120)
    peak = (p.concurrency or 0) * (p.growth_factor or 1.0)
    return p.use_case == "online_serving" and (
        (p.head_count or 0) >= SERVICE_HEAD_COUNT or peak >= SERVICE_CONCURRENCY)


# A model trained from scratch or fine-tuned with only its size said ("a 7B model", "7B–8B models") is sized
# on the published dense decoder of that size (Llama: the shape most in-house training starts from), when one
# is within 30 % of it; further off, the shape would misstate the memory and the customer is asked. Registry
# ids, parameters counted from their config (tools/data/models).
REFERENCE_SHAPES: tuple[tuple[str, float], ...] = (
    ("meta-llama/Llama-3.2-1B-Instruct", 1.24), ("meta-llama/Llama-3.2-3B", 3.21), ("meta-llama/Llama-2-7b-hf", 6.74),
    ("meta-llama/Llama-3.1-8B", 8.03), ("meta-llama/Llama-3.1-70B-Instruct", 70.55),
    ("meta-llama/Llama-3.1-405B-Instruct", 405.85),
)
REFERENCE_TOLERANCE = 0.30


def reference_shape(p: WorkloadProfile) -> str | None:
    """The published shape nearest the size said, within the tolerance; None when none is that close."""
    if not p.model_size_b:
        return None
    name, size = min(REFERENCE_SHAPES, key=lambda item: abs(item[1] / p.model_size_b - 1))  # type: ignore[operator]
    return name if abs(size / p.model_size_b - 1) <= REFERENCE_TOLERANCE else None


def _people_per_machine(p: WorkloadProfile) -> int:
    """The people one machine serves: all of them, or their share when each has an identical workstation."""
    if several_workstations(p):
        return max(1, -(-(p.head_count or 0) // workstation_count(p)))
    return p.head_count or 0


def _uses_batch(p: WorkloadProfile) -> bool:
    return p.use_case in TRAINING_USE_CASES | {"batch_inference", "vision"}


USE_CASES: tuple[str, ...] = (
    "online_serving", "batch_inference", "finetune_full", "finetune_lora", "finetune_qlora", "pretraining", "vision",
)

QUESTIONS: tuple[Question, ...] = (
    Question(
        id="customer", type="text",
        default="",
    ),
    Question(
        id="use_case", type="choice",
        choices=USE_CASES,
        # a language model named with nothing said of training or batches is run for people: "un petit LLM type
        # Llama 3.1 8B" beside CAD work, "Qwen2.5 14B en interne pour 4 personnes"; with documents counted
        # ("nous traduisons 10 000 documents par mois") it is a batch job; unnamed, the question stays
        default=lambda p: "batch_inference" if p.job_requests else "online_serving",
        default_if=lambda p: p.model is not None,
    ),
    Question(
        id="model", type="model",
        applies=_language_model, applies_doc="language models (not vision)",
        # only for a model trained or fine-tuned whose size alone is said ("fine-tune 7B–8B models with QLoRA"): the
        # memory of a training job follows the size and the layer shape, which the reference shape stands for
        default=reference_shape,
        default_if=lambda p: p.use_case in TRAINING_USE_CASES and reference_shape(p) is not None,
    ),
    Question(
        id="vision_model", type="text",
        applies=_vision, applies_doc="vision",
        # asked first: YOLOv8 n to x is 3 to 68 M parameters (Ultralytics); on "I don't know", or a brief sized with
        # defaults, the middle size stands for the family, said as an assumption
        default=lambda p: "yolov8m",
        default_if=lambda p: p.vision_family == "yolov8",
    ),
    Question(
        id="vision_mode", type="choice",
        applies=_vision, applies_doc="vision",
        choices=("training", "inference"),
        default="training",
    ),
    Question(
        id="precision", type="choice",
        choices=("fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4", "mxfp4", "nvfp4"),
        default=_default_precision,
    ),
    Question(
        id="input_len", type="tokens",
        applies=_inference, applies_doc="inference",
        default=_default_input,
    ),
    Question(
        id="output_len", type="tokens",
        applies=_inference, applies_doc="inference",
        default=DEFAULT_OUTPUT,
    ),
    Question(
        id="context_len", type="tokens",
        applies=_language_model, applies_doc="language models (not vision)",
        default=_default_context,
    ),
    Question(
        id="image_resolution", type="integer",
        applies=lambda p: p.use_case == "vision", applies_doc="vision",
        # YOLOv8 runs at 640 px unless told otherwise (Ultralytics `imgsz=640` for predict and train,
        # docs.ultralytics.com/usage/cfg); classifiers at ImageNet's 224
        default=lambda p: 640 if (p.vision_model or "").startswith("yolov8") else 224,
    ),
    Question(
        id="batch_size", type="integer",
        applies=_uses_batch, applies_doc="training, batch inference, vision",
        default=lambda p: 32 if p.use_case in {"batch_inference", "vision"} else 8,
    ),
    Question(
        id="concurrency", type="integer",
        applies=lambda p: p.use_case == "online_serving", applies_doc="online serving",
        # a person in a chat waits for one answer at a time: 4 people are at most 4 requests at once; with a
        # workstation each ("12 ingénieurs, chaque poste autonome") a machine serves its own people only
        default=lambda p: min(DEFAULT_CONCURRENCY, _people_per_machine(p)) if p.head_count else DEFAULT_CONCURRENCY, ),
    Question(
        id="growth_factor", type="ratio",
        applies=lambda p: p.use_case == "online_serving", applies_doc="online serving",
        default=1.0,
    ),
    Question(
        id="ttft_ms", type="duration_ms",
        applies=lambda p: p.use_case == "online_serving", applies_doc="online serving",
        default=500.0,
    ),
    Question(
        id="tpot_ms", type="duration_ms",
        applies=lambda p: p.use_case == "online_serving", applies_doc="online serving",
        default=50.0,
    ),
    Question(
        id="dataset_size_bytes", type="bytes",
        # a training set said in tokens answers it: the epoch is timed on those tokens
        applies=lambda p: (_training(p) and p.dataset_tokens is None) or p.use_case == "vision",
        applies_doc="training (no token count given), vision",
        default=_default_dataset_bytes,
    ),
    Question(
        id="dataset_images", type="integer",
        applies=_vision_training, applies_doc="vision training",
        default=1_281_167,  # ImageNet-1k training split (Russakovsky et al. 2015): the reference epoch
    ),
    Question(
        id="optimizer", type="choice",
        applies=_trains, applies_doc="training and fine-tuning, vision training",
        choices=("adamw", "adamw_8bit", "sgd", "sgd_momentum", "adafactor"),
        # SGD with momentum trains CNNs and YOLO by default (torchvision references, ultralytics); AdamW
        # is the LLM practice
        default=lambda p: "sgd_momentum" if p.use_case == "vision" else "adamw",
    ),
    Question(
        id="checkpoint_interval_min", type="duration_min",
        applies=_trains, applies_doc="training and fine-tuning, vision training",
        default=60.0,
    ),
    Question(
        id="framework", type="choice",
        choices=("vllm", "sglang", "tensorrt-llm", "llama.cpp", "ollama", "transformers", "pytorch", "jax",
                 "tensorflow", "other"),
        default=lambda p: "vllm" if p.use_case in INFERENCE_USE_CASES else "pytorch",
    ),
    Question(
        id="framework_version", type="text",
        default="latest", ),
    Question(
        id="num_gpus", type="integer",
        default=1,
    ),
    Question(
        id="deployment", type="choice",
        choices=("workstation", "server", "cloud"),
        default="workstation",
    ),
    Question(
        id="rendering_cad", type="boolean",
        applies=lambda p: p.deployment in (None, "workstation"), applies_doc="workstation",
        default=False,
    ),
    Question(
        id="ecc_required", type="boolean",
        default=_default_ecc,
    ),
    Question(
        id="budget_eur", type="money",
        # a budget said per month ("€15k per month") answers it: no total is asked for on top
        # (nor one said per workstation: "2 500 € par poste")
        applies=lambda p: p.budget_eur_per_month is None and p.budget_usd is None and p.budget_usd_per_month is None
        and p.budget_eur_per_workstation is None,
        applies_doc="no budget per month, per workstation or in dollars given",
        default=None,
    ),
    Question(
        id="power_limit_w", type="power",
        applies=lambda p: p.deployment in ("workstation", "server"), applies_doc="workstation, server",
        default=None,
    ),
    Question(
        id="rack_units", type="integer",
        applies=lambda p: p.deployment == "server", applies_doc="server",
        default=None,
    ),
)

# Asked only when the user offers them (free text or answers file); never required.
OPTIONAL_FIELDS: tuple[str, ...] = (
    "model_revision", "model_family", "custom_architecture", "server_url", "head_count", "gpu_preference",
    "cloud_excluded", "budget_eur_per_month", "budget_usd", "budget_usd_per_month", "epochs", "workstations",
    "budget_per_workstation", "budget_eur_per_workstation", "job_requests",
    "job_recurring",
    "deadline_hours", "images_per_s",
    "gpus_owned", "compared_gpus", "dataset_tokens", "model_size_b", "job_runs_per_year", "vision_family",
    "slo_percentile",
)
# Optional fields whose label lives in the product catalogue (sizer_agent/i18n, section agent.label).
_CATALOGUE_LABELS = frozenset({"head_count", "gpu_preference", "cloud_excluded", "budget_eur_per_month",
                               "budget_usd", "budget_usd_per_month", "epochs", "workstations",
                               "budget_per_workstation", "budget_eur_per_workstation",
                               "job_requests", "job_recurring", "deadline_hours", "images_per_s", "gpus_owned",
                               "compared_gpus", "dataset_tokens", "model_size_b", "job_runs_per_year",
                               "vision_family", "slo_percentile"})

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
        return catalogue(lang)[f"agent.label.{field_id}"]
    return catalogue(lang).get(f"question.optional.{field_id}", field_id)
