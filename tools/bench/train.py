"""`bench train`: a real training loop on a Llama-style causal LM built from a config with random weights.

Measures step time, tokens/s, peak memory (torch allocator + NVML on CUDA, process RSS on CPU), checkpoint
save time and size, and proves resume: a fresh model loaded from the checkpoint must hold the same
optimizer state and produce bit-identical losses on the following steps as the uninterrupted run
(same seeded batches, deterministic kernels).

torch is imported lazily; the model is written here (RMSNorm, rotary attention with grouped KV heads,
SwiGLU MLP), so no download and no transformers are needed.
"""

from __future__ import annotations

import json
import os
import resource
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from tools.bench.metrics import latency_stats
from tools.bench.nvml import GpuMemorySampler
from tools.bench.results import LatencyStats
from tools.errors import InputError


class ModelShape(BaseModel):
    hidden_size: int = Field(64, ge=8)
    num_layers: int = Field(2, ge=1)
    num_heads: int = Field(4, ge=1)
    num_kv_heads: int | None = Field(None, description="None = num_heads (MHA)")
    intermediate_size: int | None = Field(None, description="None = 8/3 × hidden, rounded to 8")
    vocab_size: int = Field(512, ge=2)
    rms_norm_eps: float = 1e-5
    rope_theta: float = 10000.0

    @classmethod
    def from_hf_config(cls, path: Path) -> ModelShape:
        """Dimensions from a Hugging Face config.json (weights stay random)."""
        try:
            config = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise InputError("--config", f"cannot read {path}: {error}", "a Hugging Face config.json") from None
        config = config.get("text_config", config)
        try:
            return cls(
                hidden_size=config["hidden_size"],
                num_layers=config["num_hidden_layers"],
                num_heads=config["num_attention_heads"],
                num_kv_heads=config.get("num_key_value_heads"),
                intermediate_size=config.get("intermediate_size"),
                vocab_size=config["vocab_size"],
                rms_norm_eps=config.get("rms_norm_eps", 1e-5),
                rope_theta=config.get("rope_theta", 10000.0),
            )
        except KeyError as error:
            raise InputError("--config", f"missing {error} in {path}", "a Llama-style config.json") from None


class TrainSettings(BaseModel):
    shape: ModelShape = Field(default_factory=ModelShape)
    batch_size: int = Field(4, ge=1)
    seq_len: int = Field(64, ge=2)
    steps: int = Field(8, ge=2, description="steps of the uninterrupted run")
    warmup_steps: int = Field(1, ge=0, description="first steps left out of the timing")
    checkpoint_at: int | None = Field(None, description="step after which to checkpoint (default steps // 2)")
    optimizer: Literal["adamw", "sgd"] = "adamw"
    learning_rate: float = 1e-3
    dtype: Literal["float32", "bfloat16", "float16"] = "float32"
    device: str = Field("auto", description="auto (cuda if available), cpu, cuda, cuda:N")
    seed: int = 0
    checkpoint_dir: Path | None = Field(None, description="None = a temporary directory, removed afterwards")


class CheckpointResult(BaseModel):
    at_step: int
    save_s: float
    load_s: float
    size_bytes: int
    optimizer_state_equal: bool = Field(description="reloaded optimizer state equals the saved one exactly")
    resumed_losses: list[float]
    uninterrupted_losses: list[float]
    next_step_loss_equal: bool
    all_following_losses_equal: bool


class TrainResult(BaseModel):
    kind: Literal["train"] = "train"
    schema_version: int = 1
    settings: TrainSettings
    device: str
    device_name: str | None = None
    torch_version: str
    parameters: int
    tokens_per_step: int
    step_time_ms: LatencyStats
    tokens_per_s: float = Field(description="tokens per step / mean step time (after warm-up)")
    model_flops_per_s: float = Field(description="6 × parameters × tokens/s (dense-transformer rule, no attention)")
    losses: list[float]
    peak_memory_bytes: int | None = Field(None, description="torch allocator peak (CUDA) or process peak RSS (CPU)")
    peak_memory_source: str
    peak_gpu_memory_nvml_bytes: int | None = None
    checkpoint: CheckpointResult
    resume_ok: bool


def _build_model(shape: ModelShape, torch: Any) -> Any:
    nn = torch.nn
    functional = torch.nn.functional
    heads = shape.num_heads
    kv_heads = shape.num_kv_heads or heads
    if shape.hidden_size % heads or heads % kv_heads:
        raise InputError("--heads", "hidden size must divide by heads, heads by kv heads", "e.g. 64 hidden, 4 heads")
    head_dim = shape.hidden_size // heads
    ffn = shape.intermediate_size or 8 * ((8 * shape.hidden_size // 3 + 7) // 8)

    class RMSNorm(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.weight = nn.Parameter(torch.ones(shape.hidden_size))

        def forward(self, x: Any) -> Any:
            scale = torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + shape.rms_norm_eps)
            return (x.float() * scale).to(x.dtype) * self.weight

    def rotate(x: Any, cos: Any, sin: Any) -> Any:
        half = x.shape[-1] // 2
        x1, x2 = x[..., :half], x[..., half:]
        return x * cos + torch.cat((-x2, x1), dim=-1) * sin

    class Block(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.attn_norm = RMSNorm()
            self.q = nn.Linear(shape.hidden_size, heads * head_dim, bias=False)
            self.k = nn.Linear(shape.hidden_size, kv_heads * head_dim, bias=False)
            self.v = nn.Linear(shape.hidden_size, kv_heads * head_dim, bias=False)
            self.o = nn.Linear(heads * head_dim, shape.hidden_size, bias=False)
            self.mlp_norm = RMSNorm()
            self.gate = nn.Linear(shape.hidden_size, ffn, bias=False)
            self.up = nn.Linear(shape.hidden_size, ffn, bias=False)
            self.down = nn.Linear(ffn, shape.hidden_size, bias=False)

        def forward(self, x: Any, cos: Any, sin: Any) -> Any:
            batch, seq, _ = x.shape
            h = self.attn_norm(x)
            q = self.q(h).view(batch, seq, heads, head_dim).transpose(1, 2)
            k = self.k(h).view(batch, seq, kv_heads, head_dim).transpose(1, 2)
            v = self.v(h).view(batch, seq, kv_heads, head_dim).transpose(1, 2)
            q, k = rotate(q, cos, sin), rotate(k, cos, sin)
            if kv_heads != heads:
                k = k.repeat_interleave(heads // kv_heads, dim=1)
                v = v.repeat_interleave(heads // kv_heads, dim=1)
            attn = functional.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.o(attn.transpose(1, 2).reshape(batch, seq, heads * head_dim))
            h = self.mlp_norm(x)
            return x + self.down(functional.silu(self.gate(h)) * self.up(h))

    class CausalLM(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(shape.vocab_size, shape.hidden_size)
            self.blocks = nn.ModuleList(Block() for _ in range(shape.num_layers))
            self.norm = RMSNorm()
            self.lm_head = nn.Linear(shape.hidden_size, shape.vocab_size, bias=False)

        def forward(self, tokens: Any) -> Any:
            seq = tokens.shape[1]
            inv = 1.0 / (shape.rope_theta ** (torch.arange(0, head_dim, 2, device=tokens.device).float() / head_dim))
            angles = torch.outer(torch.arange(seq, device=tokens.device).float(), inv)
            angles = torch.cat((angles, angles), dim=-1)
            x = self.embed(tokens)
            cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
            for block in self.blocks:
                x = block(x, cos, sin)
            return self.lm_head(self.norm(x))

    return CausalLM()


def _import_torch() -> Any:
    try:
        import torch
    except ImportError as error:
        raise InputError("bench train", "needs PyTorch", "pip install 'sizer-agent[train]' (torch)") from error
    return torch


def _batch(settings: TrainSettings, step: int, torch: Any, device: Any) -> Any:
    """The batch of a step depends only on (seed, step): the resumed run sees the same data."""
    generator = torch.Generator().manual_seed(settings.seed * 1_000_003 + step)
    shape = (settings.batch_size, settings.seq_len + 1)
    tokens = torch.randint(0, settings.shape.vocab_size, shape, generator=generator)
    return tokens.to(device)


class _Trainer:
    def __init__(self, settings: TrainSettings, torch: Any, device: Any, dtype: Any, init_seed: int) -> None:
        torch.manual_seed(init_seed)
        self.torch = torch
        self.settings = settings
        self.device = device
        self.model = _build_model(settings.shape, torch).to(device=device, dtype=dtype)
        if settings.optimizer == "adamw":
            self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=settings.learning_rate, foreach=False)
        else:
            self.optimizer = torch.optim.SGD(
                self.model.parameters(), lr=settings.learning_rate, momentum=0.9, foreach=False
            )

    def step(self, step: int) -> float:
        torch = self.torch
        batch = _batch(self.settings, step, torch, self.device)
        logits = self.model(batch[:, :-1])
        loss = torch.nn.functional.cross_entropy(
            logits.float().reshape(-1, logits.shape[-1]), batch[:, 1:].reshape(-1)
        )
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        return float(loss.detach().cpu())

    def save(self, path: Path, step: int) -> None:
        self.torch.save(
            {"step": step, "model": self.model.state_dict(), "optimizer": self.optimizer.state_dict()}, path
        )

    def load(self, path: Path) -> int:
        checkpoint = self.torch.load(path, map_location=self.device, weights_only=True)
        self.model.load_state_dict(checkpoint["model"])
        self.optimizer.load_state_dict(checkpoint["optimizer"])
        return int(checkpoint["step"])


def _states_equal(a: Any, b: Any, torch: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_states_equal(a[k], b[k], torch) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_states_equal(x, y, torch) for x, y in zip(a, b, strict=True))
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.dtype == b.dtype and a.shape == b.shape and bool(torch.equal(a.cpu(), b.cpu()))
    return bool(a == b)


def _clone_state(state: Any, torch: Any) -> Any:
    if isinstance(state, dict):
        return {k: _clone_state(v, torch) for k, v in state.items()}
    if isinstance(state, list):
        return [_clone_state(v, torch) for v in state]
    if isinstance(state, torch.Tensor):
        return state.detach().clone()
    return state


def run_train(settings: TrainSettings) -> TrainResult:
    torch = _import_torch()
    device_name = ("cuda" if torch.cuda.is_available() else "cpu") if settings.device == "auto" else settings.device
    if device_name.startswith("cuda") and not torch.cuda.is_available():
        raise InputError("--device", "CUDA requested but torch sees no GPU", "auto, cpu")
    device = torch.device(device_name)
    dtype = getattr(torch, settings.dtype)
    checkpoint_at = settings.checkpoint_at or settings.steps // 2
    if not 1 <= checkpoint_at < settings.steps:
        raise InputError("--checkpoint-at", f"must be in [1, {settings.steps - 1}]", "a step before the last")
    if settings.warmup_steps >= settings.steps:
        raise InputError("--warmup-steps", "must be below --steps", f"0..{settings.steps - 1}")
    is_cuda = device.type == "cuda"
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    if is_cuda:
        # Bit-identical resume needs deterministic CUDA kernels (cuBLAS needs this workspace setting).
        # CPU kernels used here are deterministic already; forcing the flag there only slows them down.
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.use_deterministic_algorithms(True)
    sampler = GpuMemorySampler() if is_cuda else None
    if is_cuda:
        torch.cuda.reset_peak_memory_stats(device)
    if sampler is not None:
        sampler.start()

    temporary = None
    directory = settings.checkpoint_dir
    if directory is None:
        temporary = tempfile.TemporaryDirectory(prefix="sizer-train-")
        directory = Path(temporary.name)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "checkpoint.pt"
    try:
        trainer = _Trainer(settings, torch, device, dtype, init_seed=settings.seed)
        parameters = sum(p.numel() for p in trainer.model.parameters())
        losses: list[float] = []
        times_ms: list[float] = []
        saved_optimizer: Any = None
        save_s = 0.0
        for step in range(1, settings.steps + 1):
            if is_cuda:
                torch.cuda.synchronize(device)
            start = time.perf_counter()
            losses.append(trainer.step(step))
            if is_cuda:
                torch.cuda.synchronize(device)
            if step > settings.warmup_steps:
                times_ms.append((time.perf_counter() - start) * 1e3)
            if step == checkpoint_at:
                start = time.perf_counter()
                trainer.save(path, step)
                save_s = time.perf_counter() - start
                saved_optimizer = _clone_state(trainer.optimizer.state_dict(), torch)
        peak_nvml = None
        if is_cuda:
            peak = int(torch.cuda.max_memory_allocated(device))
            source = "torch.cuda.max_memory_allocated"
            peaks = sampler.stop() if sampler is not None else None
            peak_nvml = max(peaks) if peaks else None
        else:
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB
            source = "process peak RSS (getrusage ru_maxrss)"

        # Resume: a model initialised differently, then loaded, must continue exactly like the first run.
        resumed = _Trainer(settings, torch, device, dtype, init_seed=settings.seed + 1)
        start = time.perf_counter()
        loaded_step = resumed.load(path)
        load_s = time.perf_counter() - start
        optimizer_equal = _states_equal(resumed.optimizer.state_dict(), saved_optimizer, torch)
        resumed_losses = [resumed.step(step) for step in range(loaded_step + 1, settings.steps + 1)]
        expected = losses[loaded_step:]
        checkpoint = CheckpointResult(
            at_step=loaded_step,
            save_s=save_s,
            load_s=load_s,
            size_bytes=path.stat().st_size,
            optimizer_state_equal=optimizer_equal,
            resumed_losses=resumed_losses,
            uninterrupted_losses=expected,
            next_step_loss_equal=bool(resumed_losses) and resumed_losses[0] == expected[0],
            all_following_losses_equal=resumed_losses == expected,
        )
    finally:
        torch.use_deterministic_algorithms(was_deterministic)
        if sampler is not None:
            sampler.close()
        if temporary is not None:
            temporary.cleanup()
    stats = latency_stats(times_ms)
    tokens_per_step = settings.batch_size * settings.seq_len
    tokens_per_s = tokens_per_step / (stats.mean / 1e3) if stats.mean else 0.0
    return TrainResult(
        settings=settings,
        device=str(device),
        device_name=torch.cuda.get_device_name(device) if is_cuda else None,
        torch_version=str(torch.__version__),
        parameters=int(parameters),
        tokens_per_step=tokens_per_step,
        step_time_ms=stats,
        tokens_per_s=tokens_per_s,
        model_flops_per_s=6.0 * parameters * tokens_per_s,  # Kaplan et al. 2020 training-FLOPs rule
        losses=losses,
        peak_memory_bytes=peak,
        peak_memory_source=source,
        peak_gpu_memory_nvml_bytes=peak_nvml,
        checkpoint=checkpoint,
        resume_ok=checkpoint.optimizer_state_equal and checkpoint.all_following_losses_equal,
    )
