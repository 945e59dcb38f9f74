"""The workload profile: everything the interview learns about a customer's AI workload.

Every field is optional: `None` means "not answered yet". The question catalogue
(`sizer_agent.agent.questions`) says which fields are required for which use case and what default
"I don't know" stands for. Units are fixed per field and named in the field name (`_ms`, `_bytes`,
`_eur`, `_w`, `_min`), so no number is ambiguous once stored.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

UseCase = Literal[
    "online_serving",  # interactive inference behind an API (chatbot, assistant)
    "batch_inference",  # offline generation over a dataset, throughput matters, latency does not
    "finetune_full",  # fine-tuning every weight
    "finetune_lora",  # fine-tuning low-rank adapters, base weights frozen in 16 bit
    "finetune_qlora",  # LoRA on a 4-bit quantized base model
    "pretraining",  # training from scratch
    "vision",  # computer vision (classification, detection, segmentation)
]
INFERENCE_USE_CASES: frozenset[str] = frozenset({"online_serving", "batch_inference"})
TRAINING_USE_CASES: frozenset[str] = frozenset(
    {"finetune_full", "finetune_lora", "finetune_qlora", "pretraining"}
)

Precision = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4", "mxfp4", "nvfp4"]
Optimizer = Literal["adamw", "adamw_8bit", "sgd", "sgd_momentum", "adafactor"]
Deployment = Literal["workstation", "server", "cloud"]
Framework = Literal[
    "vllm", "sglang", "tensorrt-llm", "llama.cpp", "ollama", "transformers", "pytorch", "jax", "tensorflow",
    "other",
]


class CustomArchitecture(BaseModel):
    """A model that is not published: the numbers that decide its memory (Hugging Face config names)."""

    model_config = ConfigDict(extra="forbid")

    hidden_size: int = Field(gt=0, le=1_000_000)
    num_layers: int = Field(gt=0, le=10_000)
    num_attention_heads: int = Field(gt=0, le=10_000)
    num_kv_heads: int | None = Field(default=None, gt=0, le=10_000)  # None = same as attention heads (MHA)
    intermediate_size: int = Field(gt=0, le=10_000_000)
    vocab_size: int = Field(gt=0, le=10_000_000)
    max_position_embeddings: int = Field(default=8192, gt=0, le=100_000_000)
    tie_word_embeddings: bool = False

    def to_hf_config(self) -> dict[str, Any]:
        """A minimal Llama-style config.json that the model loader reads like any published one."""
        return {
            "architectures": ["LlamaForCausalLM"],
            "model_type": "llama",
            "hidden_size": self.hidden_size,
            "num_hidden_layers": self.num_layers,
            "num_attention_heads": self.num_attention_heads,
            "num_key_value_heads": self.num_kv_heads or self.num_attention_heads,
            "head_dim": self.hidden_size // self.num_attention_heads,
            "intermediate_size": self.intermediate_size,
            "vocab_size": self.vocab_size,
            "max_position_embeddings": self.max_position_embeddings,
            "tie_word_embeddings": self.tie_word_embeddings,
            "torch_dtype": "bfloat16",
        }


class WorkloadProfile(BaseModel):
    """What decides the size of an AI workload (docs/method.md: intake list, SLA, training settings)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    customer: str | None = Field(default=None, max_length=200)
    use_case: UseCase | None = None
    framework: Framework | None = None
    framework_version: str | None = Field(default=None, max_length=40)
    model: str | None = Field(default=None, min_length=1, max_length=300)  # registry name, Hub id or path
    model_family: str | None = Field(default=None, max_length=80)  # e.g. "llama", derived from the model
    model_revision: str | None = Field(default=None, max_length=100)  # None = unpinned
    model_size_b: float | None = Field(default=None, gt=0, le=10_000)  # billions of parameters of an unnamed model
    custom_architecture: CustomArchitecture | None = None
    vision_model: str | None = Field(default=None, min_length=2, max_length=120)  # timm/torchvision name, yolov8x
    vision_family: Literal["yolov8"] | None = None  # "YOLOv8", "a YOLO detector": the family, its size unsaid
    vision_mode: Literal["training", "inference"] | None = None  # a vision job trains or serves the network
    dataset_images: int | None = Field(default=None, ge=1, le=10**12)  # vision training: images per epoch
    images_per_s: float | None = Field(default=None, gt=0, le=10**7)  # vision inference: the rate to keep up with
    precision: Precision | None = None
    input_len: int | None = Field(default=None, ge=1, le=10_000_000)  # mean prompt tokens
    output_len: int | None = Field(default=None, ge=1, le=10_000_000)  # mean generated tokens
    context_len: int | None = Field(default=None, ge=16, le=10_000_000)  # max tokens per sequence
    image_resolution: int | None = Field(default=None, ge=8, le=65_536)  # vision: pixels per side
    batch_size: int | None = Field(default=None, ge=1, le=1_000_000)
    # simultaneous requests/users at peak; the tools size up to 100,000, so a larger reading is refused by name
    concurrency: int | None = Field(default=None, ge=1, le=100_000)
    head_count: int | None = Field(default=None, ge=1, le=100_000_000)  # everyone who will use it, not at once
    growth_factor: float | None = Field(default=None, ge=1.0, le=1000.0)  # expected load multiplier
    ttft_ms: float | None = Field(default=None, gt=0, le=600_000)  # P99 time to first token target
    # the percentile the latency targets are said at ("P95 TTFT under 2 s"); P99 when none is said
    slo_percentile: float | None = Field(default=None, ge=50, lt=100)
    tpot_ms: float | None = Field(default=None, gt=0, le=60_000)  # P99 time per output token target
    dataset_size_bytes: int | None = Field(default=None, ge=0, le=10**18)
    dataset_tokens: int | None = Field(default=None, ge=1, le=10**15)  # training set said in tokens ("40M tokens")
    job_requests: int | None = Field(default=None, ge=1, le=10**12)  # a batch job's documents, per run
    job_recurring: bool | None = None  # the job runs every night/month: paid over the period, not per run
    job_runs_per_year: int | None = Field(default=None, ge=1, le=8760)  # "par jour" 365, "monthly" 12
    deadline_hours: float | None = Field(default=None, gt=0, le=10**5)  # a batch or training job must end within
    optimizer: Optimizer | None = None
    checkpoint_interval_min: float | None = Field(default=None, gt=0, le=100_000)
    num_gpus: int | None = Field(default=None, ge=1, le=100_000)  # planned; 0 is not a plan
    gpu_preference: str | None = Field(default=None, max_length=60)  # a catalogue GPU id the customer named
    gpus_owned: bool | None = None  # the GPUs named (gpu_preference x num_gpus) are already the customer's
    compared_gpus: list[str] | None = Field(default=None, max_length=3)  # options weighed: "2:h100-sxm", "tpu-v6e"

    @field_validator("compared_gpus")
    @classmethod
    def _options(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return value
        known = catalogue_gpu_ids()
        for item in value:
            count, _, gpu = item.rpartition(":")  # "tpu-v6e": a card weighed with no count, sized by the tools
            if (count and (not count.isdigit() or not 1 <= int(count) <= 4096)) or (known and gpu not in known):
                raise ValueError(f"{item!r}: write each option as COUNT:GPU or GPU, with a catalogue GPU id")
        return value
    rendering_cad: bool | None = None  # the workstation also does rendering or CAD
    budget_eur: float | None = Field(default=None, gt=0, le=10**10)  # None after "no limit"
    budget_eur_per_month: float | None = Field(default=None, gt=0, le=10**9)  # "€15k per month" (a year: / 12)
    # a budget said in US dollars ("$60k", "$20k per month"): converted at the catalogue's rate when planning
    budget_usd: float | None = Field(default=None, gt=0, le=10**10)
    epochs: int | None = Field(default=None, ge=1, le=1000)  # training: "3 époques", "for 2 epochs"
    workstations: int | None = Field(default=None, ge=1, le=50)  # "3 postes pour SolidWorks": identical machines
    budget_per_workstation: bool | None = None  # "12 000 € par poste": the budget is each machine's
    # a budget said for each machine and no total ("Budget : 2 500 € par poste"): each one's budget, not the purchase's
    budget_eur_per_workstation: float | None = Field(default=None, gt=0, le=10**9)
    budget_usd_per_month: float | None = Field(default=None, gt=0, le=10**9)
    power_limit_w: float | None = Field(default=None, gt=0, le=10**8)  # None after "no limit"
    rack_units: int | None = Field(default=None, ge=1, le=1000)  # rack space available, None = no limit
    ecc_required: bool | None = None
    deployment: Deployment | None = None
    cloud_excluded: bool | None = None  # "pas de cloud": every way of buying but renting stays in scope
    server_url: str | None = Field(default=None, max_length=500)  # a running OpenAI-compatible server

    @field_validator("server_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value

    @field_validator("vision_model")
    @classmethod
    def _vision_name(cls, value: str | None) -> str | None:
        # the spelling people write ("YOLOv8x", "ResNet-50", "ViT-B/16") -> the library's name; whether
        # it exists is checked by the vision tool, which needs the optional extra (torch, timm)
        if value is None:
            return value
        from sizer_agent.tools.vision.models import normalize

        return normalize(value)

    @field_validator("gpu_preference")
    @classmethod
    def _catalogue_gpu(cls, value: str | None) -> str | None:
        if value is None:
            return value
        known = catalogue_gpu_ids()
        if known and value not in known:  # an empty catalogue (broken data) checks nothing
            raise ValueError(f"{value!r} is not a GPU of the catalogue; allowed: {', '.join(known)}")
        return value

    @property
    def is_training(self) -> bool:
        return self.use_case in TRAINING_USE_CASES

    @property
    def is_inference(self) -> bool:
        return self.use_case in INFERENCE_USE_CASES

    @property
    def is_serving(self) -> bool:
        return self.use_case == "online_serving"


PROFILE_FIELDS: tuple[str, ...] = tuple(WorkloadProfile.model_fields)


@cache
def catalogue_gpu_ids() -> tuple[str, ...]:
    """The GPU ids of the catalogue (tools/catalog/data/gpus.toml), read once."""
    try:
        from sizer_agent.tools.catalog import load_catalog

        return tuple(gpu.id for gpu in load_catalog().gpus)
    except Exception:  # the catalogue is the recommendation's business; a broken one must not stop the interview
        return ()


def validate_field(field: str, value: Any, base: WorkloadProfile | None = None) -> Any:
    """Validate one value for one field; return the coerced value or raise pydantic's ValidationError."""
    data = (base or WorkloadProfile()).model_dump()
    data[field] = value
    coerced = getattr(WorkloadProfile.model_validate(data), field)
    return coerced.model_dump() if isinstance(coerced, BaseModel) else coerced
