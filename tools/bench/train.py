"""`bench train`: the training job of a sizing plan, run for real on a model with random weights.

What runs is what the plan sizes: the model's own architecture from its config.json (bundled, local or
Hub), full fine-tuning, LoRA or QLoRA, at the plan's batch, sequence, gradient accumulation, optimizer,
activation checkpointing and dtype. Measured: step time, tokens/s, peak memory (torch allocator and NVML
on CUDA, process RSS on CPU), the bytes of the weights as built, checkpoint save and load time and size;
then resume is proven: a fresh model (full: initialised differently; LoRA: same base, adapters
initialised differently) loads the checkpoint, its optimizer state must equal the saved one bit for bit
and its losses on the following steps must equal the uninterrupted run's (batches depend only on seed,
step and micro-batch; deterministic kernels).

Library choices, each measured (transformers 5.24, peft 0.21.2, bitsandbytes 0.50.2, torch 2.13 CPU):

- Model: Hugging Face `transformers` (`AutoModelForCausalLM.from_config`), not the hand-written
  Llama-style model this module had before. Built on PyTorch's `meta` device, the parameter count equals
  the project's exact count (`load_model(...).params_total`) for Llama 3.1 8B (8,030,261,248), Qwen2.5 7B
  (7,615,616,512) and Mistral 7B v0.3 (7,248,023,552); the hand-written model matched Llama and Mistral
  but missed Qwen2's QKV biases (129,024 parameters short), had none of the real module names
  (q_proj ... down_proj, which LoRA targets by name) and no tied embeddings. transformers builds every
  architecture it supports from the config, so extending the hand-written model would be re-implementing
  a well-kept library one model family at a time.
- Weights are materialised module by module from `meta` on the target device with the model's own
  initialiser (`_init_weights`, which also fills the rotary buffers), so nothing is downloaded, and a
  QLoRA base is quantised one linear at a time: the whole model never sits in 16 bit at once.
- LoRA: `peft` (`LoraConfig`, `get_peft_model`), adapters kept in float32 (peft's default with a 16-bit
  base). Trainable parameters equal `tools.memory.training.lora_params` for the same targets.
- QLoRA: bitsandbytes NF4 (`Linear4bit`, quant_type nf4, double-quantised statistics: the QLoRA paper's
  format) under peft's LoRA layers for bitsandbytes, every decoder linear quantised, embeddings, norms
  and lm_head in --dtype. Measured against torchao's NF4Tensor: both run on CPU (bitsandbytes 0.50 has a
  CPU backend, the note that it needs CUDA is out of date); 4.13 bits/weight for both on a 3584x512
  projection (bitsandbytes 4.1317 with its two code tables, torchao 4.1270 = the estimator's NF4_BITS);
  a LoRA step of a 4-layer, 512-wide model took 0.13 s (bitsandbytes) vs 0.18 s (torchao) on 2 CPU cores.
  bitsandbytes won because it is the NF4 path of the transformers/peft stack customers run (peft has
  dedicated LoRA layers for it; torchao's tensor only works through its F.linear override), it has no
  shape constraint (torchao needs every quantised matrix to be a multiple of 64x256 values) and the same
  package gives --optimizer adamw8bit (`bnb.optim.AdamW8bit`, which also runs on CPU).
- Checkpoints use Hugging Face Trainer's layout: `model.safetensors` (full; tied weights stored once) or
  `adapter_model.safetensors` (LoRA/QLoRA: adapters only), `optimizer.pt`, `trainer_state.json`.

torch, transformers, peft and bitsandbytes are imported lazily (`pip install 'sizer-agent[train]'`).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import logging
import os
import resource
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from sizer_agent.tools.bench.metrics import latency_stats
from sizer_agent.tools.bench.nvml import GpuMemorySampler, nvml_init
from sizer_agent.tools.bench.results import LatencyStats
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.memory.training import LORA_ALIASES, LORA_TARGETS, check_lora_names, lora_params
from sizer_agent.tools.model_spec import ModelSpec

Method = Literal["full", "lora", "qlora"]
TrainOptimizer = Literal["adamw", "adamw8bit", "sgd"]
Progress = Callable[[str], None]

INSTALL_HINT = "pip install 'sizer-agent[train]'"
# Libraries that log import-time chatter on a CPU-only host (optional CUDA/Hub kernels they could not load).
_NOISY_LOGGERS = ("torchao", "torch.utils._pytree", "bitsandbytes")


class ModelShape(BaseModel):
    """A tiny Llama config from flags, for quick CPU runs (built by transformers like any other config)."""

    hidden_size: int = Field(64, ge=8)
    num_layers: int = Field(2, ge=1)
    num_heads: int = Field(4, ge=1)
    num_kv_heads: int | None = Field(None, description="None = num_heads (MHA)")
    intermediate_size: int | None = Field(None, description="None = 8/3 × hidden, rounded to 8")
    vocab_size: int = Field(512, ge=2)
    rms_norm_eps: float = 1e-5
    rope_theta: float = 10000.0

    def to_config(self) -> dict[str, Any]:
        heads = self.num_heads
        kv_heads = self.num_kv_heads or heads
        if self.hidden_size % heads or heads % kv_heads:
            raise InputError("--heads", "hidden size must divide by heads, heads by kv heads", "e.g. 64 hidden, 4")
        return {
            "model_type": "llama",
            "architectures": ["LlamaForCausalLM"],
            "hidden_size": self.hidden_size,
            "num_hidden_layers": self.num_layers,
            "num_attention_heads": heads,
            "num_key_value_heads": kv_heads,
            "intermediate_size": self.intermediate_size or 8 * ((8 * self.hidden_size // 3 + 7) // 8),
            "vocab_size": self.vocab_size,
            "rms_norm_eps": self.rms_norm_eps,
            "rope_theta": self.rope_theta,
            "max_position_embeddings": 4096,
            "hidden_act": "silu",
            "tie_word_embeddings": False,
        }


class TrainSettings(BaseModel):
    model: str | None = Field(None, description="bundled name or alias, Hub id, config.json or directory; None = shape")
    revision: str | None = None
    shape: ModelShape | None = Field(None, description="tiny Llama shape from flags, used when model is None")
    method: Method = "full"
    lora_rank: int | None = Field(16, ge=1, description="LoRA/QLoRA only (None with full)")
    lora_alpha: float | None = Field(None, gt=0, description="None = 2 × rank (LoRA/QLoRA only)")
    lora_targets: list[str] | None = Field(default_factory=lambda: ["q_proj", "v_proj"])
    batch_size: int = Field(4, ge=1, description="sequences per micro-batch")
    seq_len: int = Field(64, ge=2)
    gradient_accumulation_steps: int = Field(1, ge=1)
    steps: int = Field(8, ge=2, description="optimizer steps of the uninterrupted run")
    warmup_steps: int = Field(1, ge=0, description="first steps left out of the timing")
    checkpoint_at: int | None = Field(None, description="step after which to checkpoint (default steps // 2)")
    optimizer: TrainOptimizer = "adamw"
    learning_rate: float = 1e-3
    gradient_checkpointing: bool = False
    dtype: Literal["float32", "bfloat16", "float16"] = "float32"
    device: str = Field("auto", description="auto (cuda if available), cpu, cuda, cuda:N")
    seed: int = 0
    checkpoint_dir: Path | None = Field(None, description="None = a temporary directory, removed afterwards")

    @model_validator(mode="after")
    def _lora_fields(self) -> TrainSettings:
        if self.method == "full":
            self.lora_rank = self.lora_alpha = self.lora_targets = None
        else:
            self.lora_rank = self.lora_rank or 16
            self.lora_alpha = self.lora_alpha or 2.0 * self.lora_rank
            self.lora_targets = self.lora_targets or ["q_proj", "v_proj"]
        if self.model is None and self.shape is None:
            self.shape = ModelShape()
        return self


class CheckpointResult(BaseModel):
    at_step: int
    directory: str | None = Field(None, description="kept checkpoint (None when written to a temporary directory)")
    files: dict[str, int] = Field(description="file name -> bytes")
    save_s: float
    load_s: float
    size_bytes: int = Field(description="all files: weights (LoRA: adapters only) + optimizer state + trainer state")
    weights_bytes: int = Field(description="model.safetensors (full) or adapter_model.safetensors (LoRA/QLoRA)")
    optimizer_bytes: int = Field(description="optimizer.pt")
    optimizer_state_equal: bool = Field(description="reloaded optimizer state equals the saved one bit for bit")
    trainable_weights_equal: bool = Field(description="reloaded trainable weights equal the saved ones bit for bit")
    resumed_losses: list[float]
    uninterrupted_losses: list[float]
    next_step_loss_equal: bool
    all_following_losses_equal: bool


class TrainResult(BaseModel):
    kind: Literal["train"] = "train"
    schema_version: int = 2
    settings: TrainSettings
    # The model as built.
    model_id: str = Field(description="resolved model name (Hub id for bundled models, 'shape' for flags)")
    revision: str | None = None
    config_source: str
    architecture: str = Field(description="transformers class that was built, e.g. Qwen2ForCausalLM")
    attention_implementation: str | None = None
    total_parameters: int = Field(description="every parameter of the model as trained (LoRA: base + adapters)")
    trainable_parameters: int
    base_parameters: int = Field(description="parameters of the model without LoRA adapters (compare with the next)")
    estimator_total_parameters: int = Field(description="the project's exact count for the config (base model)")
    estimator_trainable_parameters: int = Field(description="the estimator's count (LoRA: lora_params)")
    weights_bytes: int = Field(description="bytes of parameters and buffers as built (QLoRA: NF4 + statistics)")
    # Where and with what.
    device: str
    device_name: str | None = None
    torch_version: str
    library_versions: dict[str, str]
    # Speed.
    tokens_per_step: int = Field(description="batch × seq × gradient accumulation steps")
    step_time_ms: LatencyStats = Field(description="per optimizer step, after warm-up")
    step_time_mean_ms: float | None
    step_time_p50_ms: float | None
    tokens_per_s: float = Field(description="tokens per step / mean step time (after warm-up)")
    model_flops_per_s: float = Field(description="6 × total parameters × tokens/s (dense-training rule)")
    losses: list[float]
    # Memory.
    peak_memory_bytes: int | None = Field(None, description="torch allocator peak (CUDA) or process peak RSS (CPU)")
    peak_memory_source: str
    peak_memory_by_device: dict[str, int] = Field(default_factory=dict)
    peak_memory_reserved_bytes: int | None = Field(None, description="CUDA caching allocator reserved peak")
    peak_gpu_memory_nvml_bytes: int | None = Field(None, description="NVML used-memory peak of the training GPU")
    # Checkpoint and resume.
    checkpoint_save_s: float
    checkpoint_load_s: float
    checkpoint_size_bytes: int
    resume_ok: bool
    checkpoint: CheckpointResult
    warnings: list[str] = Field(default_factory=list)


# ---------------------------------------------------------------- imports and inputs


@contextlib.contextmanager
def _quiet_libraries() -> Iterator[list[warnings.WarningMessage]]:
    """Keep stderr for our own lines: library warnings are recorded (and reported), import chatter dropped."""
    levels = {name: logging.getLogger(name).level for name in _NOISY_LOGGERS}
    for name in _NOISY_LOGGERS:
        logging.getLogger(name).setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield caught
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def _import(module: str, field: str, why: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise InputError(field, f"{why} needs {module.split('.')[0]} ({error})", INSTALL_HINT) from None


def _versions(names: list[str]) -> dict[str, str]:
    from importlib import metadata

    found = {}
    for name in names:
        with contextlib.suppress(metadata.PackageNotFoundError):
            found[name] = metadata.version(name)
    return found


def _model_error(error: InputError) -> InputError:
    field = {"model": "--model", "revision": "--revision", "config": "--model"}.get(error.field, error.field)
    return InputError(field, error.message, error.allowed)


def resolve_model(source: str, revision: str | None = None) -> tuple[dict[str, Any], ModelSpec]:
    """The config.json and the project's spec of a model: bundled name/alias, local path, or Hub id."""
    from sizer_agent.tools import model_loader
    from sizer_agent.tools.architectures import spec_from_config

    path = Path(source).expanduser()
    entry = model_loader._registry_entry(source)
    try:
        if path.exists() or entry is not None or not model_loader._HUB_ID.match(source):
            spec = model_loader.load_model(source, revision)  # local, or its one-line refusal
            if entry is not None and not path.exists():
                path = model_loader.bundled_dir() / entry["folder"]
            config = model_loader._read_json(path / "config.json" if path.is_dir() else path, "model")
        else:  # a Hub id: fetched (or read from the cache) once, the spec made from the same dict
            if revision is not None and not model_loader._REVISION.match(revision):
                raise InputError("revision", f"{revision!r} is not a valid revision", "a branch, tag or commit hash")
            config, url = model_loader._hub_config(source, revision)
            spec = spec_from_config(config, name=source, revision=revision, source=url)
    except InputError as error:
        raise _model_error(error) from None
    return config, spec


def _settings_config(settings: TrainSettings) -> tuple[dict[str, Any], ModelSpec, str]:
    from sizer_agent.tools.architectures import spec_from_config

    if settings.model is not None:
        config, spec = resolve_model(settings.model, settings.revision)
        return config, spec, spec.source
    assert settings.shape is not None
    config = settings.shape.to_config()
    try:
        spec = spec_from_config(config, name="shape")
    except InputError as error:
        raise InputError("--hidden-size", error.message, error.allowed) from None
    return config, spec, "flags (--hidden-size, --layers, ...)"


def transformers_config(raw: dict[str, Any]) -> Any:
    """A transformers config object for a config.json dict (the text model of a multimodal config)."""
    transformers = _import("transformers", "--model", "building the model")
    data = {k: v for k, v in raw.items() if k not in ("quantization_config", "_name_or_path")}
    model_type = data.pop("model_type", None)
    if not model_type:
        raise InputError("--model", "the config has no model_type", "a Hugging Face config.json")
    try:
        config = transformers.AutoConfig.for_model(model_type, **data)
    except (ValueError, KeyError, TypeError) as error:
        raise InputError(
            "--model",
            f"transformers {transformers.__version__} cannot build model_type {model_type!r} ({error})",
            "an architecture transformers supports (Llama, Qwen2, Mistral, Gemma, ...)",
        ) from None
    if getattr(config, "text_config", None) is not None and config.get_text_config() is not config:
        config = config.get_text_config()
    config.use_cache = False
    return config


def build_model(config: Any, dtype: Any, device: Any, *, quantize_nf4: bool = False) -> Any:
    """A causal LM of `config` with random weights, materialised on `device` module by module.

    On `device="meta"` nothing is allocated (parameter counts of real configs). With `quantize_nf4` every
    linear of the decoder layers becomes a bitsandbytes NF4 `Linear4bit` right after it is initialised.
    """
    import torch

    transformers = _import("transformers", "--model", "building the model")
    try:
        with torch.device("meta"):
            model = transformers.AutoModelForCausalLM.from_config(config, dtype=dtype)
    except (ValueError, KeyError, TypeError) as error:
        raise InputError(
            "--model", f"transformers cannot build a causal LM from this config ({error})",
            "an architecture with an AutoModelForCausalLM class",
        ) from None
    if torch.device(device).type == "meta":
        return model
    bnb = _import("bitsandbytes", "--method", "qlora (NF4 base weights)") if quantize_nf4 else None
    layers = _decoder_layers_prefix(model)
    with torch.no_grad():
        for name, module in list(model.named_modules()):
            own = [*module.parameters(recurse=False), *module.buffers(recurse=False)]
            if not any(t.is_meta for t in own):
                continue
            module.to_empty(device=device, recurse=False)
            model._init_weights(module)
            if bnb is not None and isinstance(module, torch.nn.Linear) and name.startswith(layers):
                _replace(model, name, _nf4_linear(module, bnb, dtype, device))
        model.tie_weights()
    leftover = [n for n, t in [*model.named_parameters(), *model.named_buffers()] if t.is_meta]
    if leftover:
        raise InputError("--model", f"could not materialise {', '.join(leftover[:3])}", "a standard causal LM")
    return model


def _decoder_layers_prefix(model: Any) -> str:
    """Name prefix of the decoder layers (`model.layers.`), the linears QLoRA quantises."""
    import torch

    for name, module in model.named_modules():
        if isinstance(module, torch.nn.ModuleList) and len(module) == model.config.num_hidden_layers:
            return f"{name}."
    raise InputError("--method", "cannot find the decoder layers of this model for NF4", "full, lora")


def _replace(model: Any, name: str, module: Any) -> None:
    parent, _, child = name.rpartition(".")
    setattr(model.get_submodule(parent), child, module)


def _nf4_linear(linear: Any, bnb: Any, dtype: Any, device: Any) -> Any:
    import torch

    layer = bnb.nn.Linear4bit(
        linear.in_features, linear.out_features, bias=linear.bias is not None, compute_dtype=dtype,
        compress_statistics=True, quant_type="nf4", quant_storage=torch.uint8, device="meta",
    )
    layer.weight = bnb.nn.Params4bit(
        linear.weight.data, requires_grad=False, compress_statistics=True, quant_type="nf4",
        quant_storage=torch.uint8, module=layer,
    )
    if linear.bias is not None:
        layer.bias = torch.nn.Parameter(linear.bias.data, requires_grad=False)
    try:
        return layer.to(device)  # Params4bit quantises on its first move to a device
    except (RuntimeError, NotImplementedError) as error:
        raise InputError(
            "--method", f"qlora: bitsandbytes cannot quantise to NF4 on {device} ({error})",
            "full, lora, or a host where bitsandbytes runs (CUDA, or CPU with bitsandbytes >= 0.50)",
        ) from None


def meta_parameter_count(source: str, revision: str | None = None) -> int:
    """Parameters of the model transformers builds from a config, on the meta device (nothing allocated)."""
    import torch

    config, _ = resolve_model(source, revision)
    model = build_model(transformers_config(config), torch.bfloat16, "meta")
    return sum(p.numel() for p in model.parameters())


# ---------------------------------------------------------------- the trainer


def _batch(settings: TrainSettings, vocab: int, step: int, micro: int, torch: Any, device: Any) -> Any:
    """The tokens of a micro-batch depend only on (seed, step, micro): the resumed run sees the same data."""
    generator = torch.Generator().manual_seed(settings.seed * 1_000_003 + step * 1_009 + micro)
    tokens = torch.randint(0, vocab, (settings.batch_size, settings.seq_len + 1), generator=generator)
    return tokens.to(device)


def check_targets(model: Any, targets: list[str]) -> list[str]:
    """Each LoRA target as this model spells it (`router` is Mixtral's `gate`, `gate_proj` torchtune's `w1`):
    it must name a linear of the model (a meta-device model will do)."""
    import torch

    modules = {name.rsplit(".", 1)[-1]: m for name, m in model.named_modules()}
    linear = {name for name, m in modules.items() if isinstance(m, torch.nn.Linear)}
    found, missing = [], []
    for target in targets:
        canonical = LORA_ALIASES.get(target, target)
        spellings = [target, canonical, *(a for a, c in LORA_ALIASES.items() if c == canonical)]
        name = next((s for s in spellings if s in linear), None)
        if name is not None:
            found.append(name)
            continue
        other = next((s for s in spellings if s in modules), None)
        if other is not None:  # e.g. transformers 5's MoE router is a TopKRouter, not a linear PEFT can wrap
            raise InputError("--lora-targets", f"{target}: {type(model).__name__}'s {other!r} is a "
                             f"{type(modules[other]).__name__}, not a linear layer LoRA can wrap",
                             ",".join(t for t in LORA_TARGETS if t in linear or t in _aliased(linear)))
        missing.append(target)
    if missing:
        raise InputError(
            "--lora-targets", f"{type(model).__name__} has no linear named {', '.join(missing)}",
            ",".join(t for t in LORA_TARGETS if t in linear or t in _aliased(linear)),
        )
    return list(dict.fromkeys(found))


def _aliased(names: set[str]) -> set[str]:
    """The canonical names of the model's linears spelled another way (w1 -> gate_proj)."""
    return {LORA_ALIASES[n] for n in names if n in LORA_ALIASES}


class _Trainer:
    def __init__(self, settings: TrainSettings, config: Any, device: Any, dtype: Any, adapter_seed: int) -> None:
        import torch

        self.torch = torch
        self.settings = settings
        self.device = device
        lora = settings.method != "full"
        # The base is the same "pretrained" model in every run; a full fine-tune starts from other weights.
        torch.manual_seed(settings.seed if lora else adapter_seed)
        model = build_model(config, dtype, device, quantize_nf4=settings.method == "qlora")
        if settings.gradient_checkpointing:
            if hasattr(model, "activation_checkpointing_enable"):
                model.activation_checkpointing_enable(activation_checkpointing_kwargs={"use_reentrant": False})
            else:  # transformers before activation_checkpointing_enable
                model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        if lora:
            peft = _import("peft", "--method", "LoRA")
            assert settings.lora_targets is not None and settings.lora_rank is not None
            targets = check_targets(model, settings.lora_targets)
            torch.manual_seed(adapter_seed)
            lora_config = peft.LoraConfig(
                r=settings.lora_rank, lora_alpha=settings.lora_alpha, lora_dropout=0.0,
                target_modules=targets, task_type="CAUSAL_LM",
            )
            model = peft.get_peft_model(model, lora_config)
        model.train()
        self.model = model
        self.vocab = int(config.vocab_size)
        self.trainable = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = _optimizer(settings, self.trainable)

    def step(self, step: int) -> float:
        torch = self.torch
        accumulation = self.settings.gradient_accumulation_steps
        self.optimizer.zero_grad(set_to_none=True)
        total = torch.zeros((), device=self.device)
        for micro in range(accumulation):
            batch = _batch(self.settings, self.vocab, step, micro, torch, self.device)
            logits = self.model(input_ids=batch[:, :-1]).logits
            loss = torch.nn.functional.cross_entropy(logits.float().reshape(-1, self.vocab), batch[:, 1:].reshape(-1))
            (loss / accumulation).backward()
            total += loss.detach() / accumulation
            del logits, loss
        self.optimizer.step()
        return float(total.cpu())

    def trainable_state(self) -> dict[str, Any]:
        if self.settings.method == "full":
            return dict(self.model.state_dict())
        from peft import get_peft_model_state_dict

        return dict(get_peft_model_state_dict(self.model))

    def save(self, directory: Path, step: int) -> dict[str, int]:
        from safetensors.torch import save_file, save_model

        directory.mkdir(parents=True, exist_ok=True)
        if self.settings.method == "full":
            weights = directory / "model.safetensors"
            save_model(self.model, str(weights))  # tied weights stored once
        else:
            weights = directory / "adapter_model.safetensors"
            save_file({k: v.contiguous() for k, v in self.trainable_state().items()}, str(weights))
        self.torch.save(self.optimizer.state_dict(), directory / "optimizer.pt")
        (directory / "trainer_state.json").write_text(json.dumps({"global_step": step}))
        return {path.name: path.stat().st_size for path in sorted(directory.iterdir())}

    def load(self, directory: Path) -> int:
        from safetensors.torch import load_file, load_model

        device = str(self.device)
        if self.settings.method == "full":
            load_model(self.model, str(directory / "model.safetensors"), device=device)
        else:
            from peft import set_peft_model_state_dict

            set_peft_model_state_dict(self.model, load_file(str(directory / "adapter_model.safetensors"), device))
        state = self.torch.load(directory / "optimizer.pt", map_location=self.device, weights_only=True)
        self.optimizer.load_state_dict(state)
        return int(json.loads((directory / "trainer_state.json").read_text())["global_step"])


def _optimizer(settings: TrainSettings, params: list[Any]) -> Any:
    import torch

    if settings.optimizer == "adamw":
        return torch.optim.AdamW(params, lr=settings.learning_rate)
    if settings.optimizer == "sgd":
        return torch.optim.SGD(params, lr=settings.learning_rate, momentum=0.9)
    bnb = _import("bitsandbytes", "--optimizer", "adamw8bit")
    try:
        return bnb.optim.AdamW8bit(params, lr=settings.learning_rate)
    except (RuntimeError, NotImplementedError) as error:
        raise InputError("--optimizer", f"bitsandbytes AdamW8bit is not usable here ({error})", "adamw, sgd") from None


# ---------------------------------------------------------------- exact comparison


def state_digest(state: Any, torch: Any) -> Any:
    """The structure of a (optimizer or model) state with every tensor replaced by (dtype, shape, sha256).

    Two states with equal digests are equal bit for bit; only one tensor at a time is copied to the host.
    """
    if isinstance(state, dict):
        return {str(k): state_digest(v, torch) for k, v in state.items()}
    if isinstance(state, list | tuple):
        return [state_digest(v, torch) for v in state]
    if isinstance(state, torch.Tensor):
        flat = state.detach().contiguous().reshape(-1).cpu()
        raw = flat.view(torch.uint8) if flat.numel() else flat
        return [str(state.dtype), list(state.shape), hashlib.sha256(raw.numpy().tobytes()).hexdigest()]
    return state


# ---------------------------------------------------------------- memory


def _numel(param: Any) -> int:
    """Values a parameter stands for: an NF4 weight is stored packed (two per byte), its quant state knows."""
    quant_state = getattr(param, "quant_state", None)
    shape = getattr(quant_state, "shape", None)
    return int(shape.numel()) if shape is not None else int(param.numel())


def _weights_bytes(model: Any, torch: Any) -> int:
    """Bytes of every parameter and buffer as stored, counting a tied tensor once and NF4 statistics too."""
    seen: set[int] = set()
    total = 0

    def add(tensor: Any) -> None:
        nonlocal total
        if isinstance(tensor, torch.Tensor) and id(tensor) not in seen:
            seen.add(id(tensor))
            total += tensor.numel() * tensor.element_size()

    for tensor in [*model.parameters(), *model.buffers()]:
        add(tensor)
        quant_state = getattr(tensor, "quant_state", None)
        while quant_state is not None:
            add(getattr(quant_state, "absmax", None))
            add(getattr(quant_state, "code", None))
            quant_state = getattr(quant_state, "state2", None)
    return total


def _nvml_index(torch: Any, device: Any) -> int | None:
    """NVML's index of a CUDA device (CUDA_VISIBLE_DEVICES renumbers them), matched by UUID."""
    uuid = getattr(torch.cuda.get_device_properties(device), "uuid", None)
    nvml, _ = nvml_init()
    if uuid is None or nvml is None:
        return None
    wanted = str(uuid).removeprefix("GPU-")
    try:
        for index in range(nvml.nvmlDeviceGetCount()):
            found = nvml.nvmlDeviceGetUUID(nvml.nvmlDeviceGetHandleByIndex(index))
            found = found.decode() if isinstance(found, bytes) else str(found)
            if found.removeprefix("GPU-") == wanted:
                return index
    except Exception:  # NVML errors: no per-device match, the caller falls back
        return None
    return None


# ---------------------------------------------------------------- the run


def _device(settings: TrainSettings, torch: Any) -> Any:
    return resolve_device(settings.device, torch)


def resolve_device(requested: str, torch: Any, no_gpu: str = "auto, cpu") -> Any:
    """`--device auto|cpu|cuda|cuda:N` as a torch device, or exit 2 naming the flag (`no_gpu`: what to use
    when CUDA is asked for on a machine without a GPU)."""
    name = ("cuda" if torch.cuda.is_available() else "cpu") if requested == "auto" else requested
    try:
        device = torch.device(name)
    except RuntimeError:
        raise InputError("--device", f"{name!r} is not a device", "auto, cpu, cuda, cuda:N") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise InputError("--device", "CUDA requested but torch sees no GPU", no_gpu)
    if device.type not in ("cpu", "cuda"):
        raise InputError("--device", f"{device.type!r} is not supported", "auto, cpu, cuda, cuda:N")
    return device


def _check(settings: TrainSettings) -> int:
    checkpoint_at = settings.checkpoint_at or settings.steps // 2
    if not 1 <= checkpoint_at < settings.steps:
        raise InputError("--checkpoint-at", f"must be in [1, {settings.steps - 1}]", "a step before the last")
    if settings.warmup_steps >= settings.steps:
        raise InputError("--warmup-steps", "must be below --steps", f"0..{settings.steps - 1}")
    check_lora_names(settings.lora_targets or [], "--lora-targets")
    return checkpoint_at


def run_train(settings: TrainSettings, progress: Progress | None = None) -> TrainResult:
    """Train, checkpoint, resume; raise InputError for bad input or a host that cannot run the method."""
    checkpoint_at = _check(settings)
    with _quiet_libraries() as caught:
        torch = _import("torch", "bench train", "training")
        _import("transformers", "bench train", "building the model")
        if settings.method != "full":
            _import("peft", "--method", settings.method)
        if settings.method == "qlora" or settings.optimizer == "adamw8bit":
            field = "--method" if settings.method == "qlora" else "--optimizer"
            _import("bitsandbytes", field, "qlora (NF4)" if settings.method == "qlora" else "adamw8bit")
        result = _run(settings, checkpoint_at, torch, progress or (lambda _: None))
    notes = list(dict.fromkeys(str(w.message).splitlines()[0] for w in caught if _worth_reporting(w)))
    return result.model_copy(update={"warnings": result.warnings + notes})


def _worth_reporting(warning: warnings.WarningMessage) -> bool:
    text = str(warning.message)
    return "determinis" in text or issubclass(warning.category, RuntimeWarning)


def _run(settings: TrainSettings, checkpoint_at: int, torch: Any, progress: Progress) -> TrainResult:
    raw, spec, source = _settings_config(settings)
    config = transformers_config(raw)
    device = _device(settings, torch)
    dtype = getattr(torch, settings.dtype)
    if settings.lora_targets is not None:  # refuse before anything is printed or allocated
        check_targets(build_model(config, dtype, "meta"), settings.lora_targets)
    is_cuda = device.type == "cuda"
    # the model loader's warnings are catalogue message ids; the bench result keeps them as id + parameters
    notes: list[str] = [f"{w.id} {w.params}" if w.params else w.id for w in spec.warnings]
    if settings.seq_len > spec.max_position_embeddings:
        notes.append(f"--seq-len {settings.seq_len} exceeds the model's {spec.max_position_embeddings} positions")
    temporary = None
    directory = settings.checkpoint_dir
    if directory is None:
        temporary = tempfile.TemporaryDirectory(prefix="sizer-train-")
        directory = Path(temporary.name)
    else:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError("--checkpoint-dir", f"cannot create {directory}: {error.strerror}") from None
    checkpoint_path = directory / f"checkpoint-{checkpoint_at}"
    accumulation = settings.gradient_accumulation_steps
    tokens_per_step = settings.batch_size * settings.seq_len * accumulation
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    sampler = None
    step = 0
    try:
        if is_cuda:
            # Bit-identical resume needs deterministic CUDA kernels (cuBLAS needs this workspace setting). An op
            # without a deterministic kernel warns (reported in `warnings`); the resume check says if it mattered.
            os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
            torch.use_deterministic_algorithms(True, warn_only=True)
            sampler = GpuMemorySampler()
        progress(f"building {spec.name} ({settings.method}) on {device} in {settings.dtype} ...")
        trainer = _Trainer(settings, config, device, dtype, adapter_seed=settings.seed)
        architecture = type(trainer.model.get_base_model() if settings.method != "full" else trainer.model).__name__
        total_params = sum(_numel(p) for p in trainer.model.parameters())
        trainable_params = sum(_numel(p) for p in trainer.trainable)
        weights_bytes = _weights_bytes(trainer.model, torch)
        if is_cuda:
            torch.cuda.synchronize(device)
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats(device)
        if sampler is not None:
            sampler.start()
        losses: list[float] = []
        times_ms: list[float] = []
        saved: Any = None
        files: dict[str, int] = {}
        save_s = 0.0
        for step in range(1, settings.steps + 1):
            if is_cuda:
                torch.cuda.synchronize(device)
            start = time.perf_counter()
            losses.append(trainer.step(step))
            if is_cuda:
                torch.cuda.synchronize(device)
            elapsed_ms = (time.perf_counter() - start) * 1e3
            if step > settings.warmup_steps:
                times_ms.append(elapsed_ms)
            warm = " (warm-up)" if step <= settings.warmup_steps else ""
            progress(f"step {step}/{settings.steps}: loss {losses[-1]:.4f}, {elapsed_ms:.0f} ms{warm}, "
                     f"{tokens_per_step / elapsed_ms * 1e3:,.0f} tokens/s")
            if step == checkpoint_at:
                start = time.perf_counter()
                files = trainer.save(checkpoint_path, step)
                save_s = time.perf_counter() - start
                saved = (state_digest(trainer.optimizer.state_dict(), torch),
                         state_digest(trainer.trainable_state(), torch))
                progress(f"checkpoint at step {step}: {sum(files.values()) / 2**20:.1f} MiB in {save_s:.2f} s")
        peak_by_device: dict[str, int] = {}
        peak_reserved = peak_nvml = None
        if is_cuda:
            peak = int(torch.cuda.max_memory_allocated(device))
            peak_reserved = int(torch.cuda.max_memory_reserved(device))
            source_name = "torch.cuda.max_memory_allocated"
            peaks = sampler.stop() if sampler is not None else None
            index = _nvml_index(torch, device) if peaks else None
            if peaks:
                peak_nvml = peaks[index] if index is not None and index < len(peaks) else max(peaks)
        else:
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB
            source_name = "process peak RSS (getrusage ru_maxrss)"
        peak_by_device[str(device)] = peak

        # Resume: free the first run, build a fresh model (other initial weights or adapters), load, go on.
        del trainer
        gc.collect()
        if is_cuda:
            torch.cuda.empty_cache()
        progress("resume: a fresh model loads the checkpoint ...")
        resumed = _Trainer(settings, config, device, dtype, adapter_seed=settings.seed + 1)
        if is_cuda:
            torch.cuda.synchronize(device)
        start = time.perf_counter()
        loaded_step = resumed.load(checkpoint_path)
        if is_cuda:
            torch.cuda.synchronize(device)
        load_s = time.perf_counter() - start
        optimizer_equal = state_digest(resumed.optimizer.state_dict(), torch) == saved[0]
        weights_equal = state_digest(resumed.trainable_state(), torch) == saved[1]
        resumed_losses = []
        for step in range(loaded_step + 1, settings.steps + 1):
            resumed_losses.append(resumed.step(step))
            same = "equal" if resumed_losses[-1] == losses[step - 1] else f"DIFFERS from {losses[step - 1]:.6f}"
            progress(f"resumed step {step}/{settings.steps}: loss {resumed_losses[-1]:.4f} ({same})")
        del resumed
        expected = losses[loaded_step:]
        checkpoint = CheckpointResult(
            at_step=loaded_step,
            directory=None if temporary is not None else str(checkpoint_path),
            files=files,
            save_s=save_s,
            load_s=load_s,
            size_bytes=sum(files.values()),
            weights_bytes=files.get("model.safetensors", files.get("adapter_model.safetensors", 0)),
            optimizer_bytes=files.get("optimizer.pt", 0),
            optimizer_state_equal=optimizer_equal,
            trainable_weights_equal=weights_equal,
            resumed_losses=resumed_losses,
            uninterrupted_losses=expected,
            next_step_loss_equal=bool(resumed_losses) and resumed_losses[0] == expected[0],
            all_following_losses_equal=resumed_losses == expected,
        )
    except torch.cuda.OutOfMemoryError as error:
        where = f"at step {step}" if step else "while building the model"
        raise InputError(
            "--batch-size", f"out of memory on {device} {where} ({str(error).splitlines()[0]})",
            "a smaller --batch-size or --seq-len, --gradient-checkpointing, --method lora/qlora, a bigger GPU",
        ) from None
    finally:
        torch.use_deterministic_algorithms(was_deterministic)
        if sampler is not None:
            sampler.close()
        if temporary is not None:
            temporary.cleanup()
    stats = latency_stats(times_ms)
    tokens_per_s = tokens_per_step / (stats.mean / 1e3) if stats.mean else 0.0
    expected_trainable = spec.params_total
    if settings.method != "full":
        assert settings.lora_rank is not None and settings.lora_targets is not None
        expected_trainable = lora_params(spec, settings.lora_rank, settings.lora_targets)
    return TrainResult(
        settings=settings,
        model_id=spec.name,
        revision=spec.revision,
        config_source=source,
        architecture=architecture,
        attention_implementation=getattr(config, "_attn_implementation", None),
        total_parameters=int(total_params),
        trainable_parameters=int(trainable_params),
        base_parameters=int(total_params - (trainable_params if settings.method != "full" else 0)),
        estimator_total_parameters=spec.params_total,
        estimator_trainable_parameters=expected_trainable,
        weights_bytes=weights_bytes,
        device=str(device),
        device_name=torch.cuda.get_device_name(device) if is_cuda else None,
        torch_version=str(torch.__version__),
        library_versions=_versions(["transformers", "peft", "bitsandbytes", "safetensors"]),
        tokens_per_step=tokens_per_step,
        step_time_ms=stats,
        step_time_mean_ms=stats.mean,
        step_time_p50_ms=stats.p50,
        tokens_per_s=tokens_per_s,
        model_flops_per_s=6.0 * total_params * tokens_per_s,  # Kaplan et al. 2020 training-FLOPs rule
        losses=losses,
        peak_memory_bytes=peak,
        peak_memory_source=source_name,
        peak_memory_by_device=peak_by_device,
        peak_memory_reserved_bytes=peak_reserved,
        peak_gpu_memory_nvml_bytes=peak_nvml,
        checkpoint_save_s=save_s,
        checkpoint_load_s=load_s,
        checkpoint_size_bytes=checkpoint.size_bytes,
        resume_ok=checkpoint.optimizer_state_equal and checkpoint.trainable_weights_equal
        and checkpoint.all_following_losses_equal,
        checkpoint=checkpoint,
        warnings=notes,
    )
