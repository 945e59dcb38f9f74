"""`bench train` for real on CPU: tiny configs with the real key names of Qwen2, Llama and Mistral, built by
transformers, trained full / LoRA / QLoRA, checkpointed and resumed bit for bit; parameter counts of the
real configs against the project's exact counts (meta device); bad input is one line and exit 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from sizer_agent.cli import main
from sizer_agent.tools.bench.train import (
    ModelShape,
    TrainSettings,
    _Trainer,
    build_model,
    meta_parameter_count,
    resolve_model,
    run_train,
    state_digest,
    transformers_config,
)
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.memory.training import LORA_TARGETS, lora_params
from sizer_agent.tools.model_loader import load_model
from tests.bench.conftest import run_cli

torch = pytest.importorskip("torch")

# Every quantised matrix of these shapes is a whole number of NF4 blocks; 2 layers keep a run well under 1 s.
TINY: dict[str, dict[str, Any]] = {
    "qwen2": {  # Qwen2.5 keys: QKV bias, tied embeddings (as Qwen2.5 0.5B/1.5B/3B), GQA
        "architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 128,
        "intermediate_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
        "vocab_size": 320, "max_position_embeddings": 512, "rms_norm_eps": 1e-6, "rope_theta": 1000000.0,
        "tie_word_embeddings": True, "hidden_act": "silu", "torch_dtype": "bfloat16", "use_sliding_window": False,
        "sliding_window": 512, "max_window_layers": 2, "attention_dropout": 0.0, "initializer_range": 0.02,
    },
    "llama": {  # Llama 3.1 keys, llama3 rope scaling
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 128,
        "intermediate_size": 384, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 1,
        "vocab_size": 256, "max_position_embeddings": 1024, "rms_norm_eps": 1e-5, "rope_theta": 500000.0,
        "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                         "original_max_position_embeddings": 256, "rope_type": "llama3"},
        "tie_word_embeddings": False, "hidden_act": "silu", "attention_bias": False, "mlp_bias": False,
        "head_dim": 32, "bos_token_id": 1, "eos_token_id": 2, "torch_dtype": "bfloat16",
    },
    "mistral": {  # Mistral 7B v0.3 keys
        "architectures": ["MistralForCausalLM"], "model_type": "mistral", "hidden_size": 128,
        "intermediate_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
        "vocab_size": 288, "max_position_embeddings": 2048, "rms_norm_eps": 1e-5, "rope_theta": 1000000.0,
        "sliding_window": None, "tie_word_embeddings": False, "hidden_act": "silu", "torch_dtype": "bfloat16",
    },
}


def write_config(directory: Path, family: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "config.json"
    path.write_text(json.dumps(TINY[family]))
    return path


def settings_for(path: Path, **overrides: Any) -> TrainSettings:
    fields: dict[str, Any] = {"model": str(path), "batch_size": 2, "seq_len": 16, "steps": 4, **overrides}
    return TrainSettings(**fields)


@pytest.mark.parametrize(
    ("family", "method", "extra"),
    [
        ("qwen2", "full", {}),
        ("qwen2", "lora", {"lora_rank": 8}),
        ("qwen2", "qlora", {"lora_rank": 8}),
        # every linear a dense Llama has (no router), lm_head included: PEFT's count checks the estimator's
        ("llama", "lora", {"lora_targets": [t for t in LORA_TARGETS if t != "router"],
                           "gradient_accumulation_steps": 2, "optimizer": "sgd"}),
        ("mistral", "qlora", {"lora_targets": ["q_proj", "down_proj"], "optimizer": "adamw8bit",
                              "gradient_checkpointing": True, "dtype": "bfloat16"}),
    ],
)
def test_trains_checkpoints_and_resumes_bit_identically(
    tmp_path: Path, family: str, method: str, extra: dict[str, Any]
) -> None:
    path = write_config(tmp_path / family, family)
    lines: list[str] = []
    settings = settings_for(path, method=method, checkpoint_dir=tmp_path / "ckpt", **extra)
    result = run_train(settings, progress=lines.append)

    spec = load_model(str(path))
    assert result.device == "cpu" and len(result.losses) == 4 and result.step_time_ms.count == 3
    assert result.architecture == TINY[family]["architectures"][0]
    assert result.base_parameters == spec.params_total == result.estimator_total_parameters
    if method == "full":
        assert result.trainable_parameters == result.total_parameters == spec.params_total
    else:
        expected = lora_params(spec, settings.lora_rank or 0, settings.lora_targets or [])
        assert result.trainable_parameters == expected == result.estimator_trainable_parameters
        assert result.total_parameters == spec.params_total + expected
    assert result.tokens_per_step == 2 * 16 * settings.gradient_accumulation_steps and result.tokens_per_s > 0
    assert result.step_time_mean_ms == result.step_time_ms.mean and result.step_time_p50_ms == result.step_time_ms.p50
    assert result.peak_memory_bytes and result.peak_memory_by_device == {"cpu": result.peak_memory_bytes}

    ckpt = result.checkpoint
    weights_file = "model.safetensors" if method == "full" else "adapter_model.safetensors"
    assert set(ckpt.files) == {weights_file, "optimizer.pt", "trainer_state.json"}
    assert ckpt.directory == str(tmp_path / "ckpt" / "checkpoint-2")
    assert (tmp_path / "ckpt" / "checkpoint-2" / weights_file).stat().st_size == ckpt.weights_bytes
    assert result.checkpoint_size_bytes == ckpt.size_bytes == sum(ckpt.files.values())
    assert result.checkpoint_save_s == ckpt.save_s > 0 and result.checkpoint_load_s == ckpt.load_s > 0
    if method != "full":  # adapters only: fp32 LoRA weights, far below the model
        # ... except that PEFT (save_embedding_layers="auto") also saves the output projection it adapted
        saved_head = spec.vocab_size * spec.hidden_size if "lm_head" in (settings.lora_targets or []) else 0
        assert ckpt.weights_bytes < 4 * (result.trainable_parameters + saved_head) + 4096
    assert ckpt.optimizer_state_equal and ckpt.trainable_weights_equal
    assert ckpt.resumed_losses == result.losses[2:] == ckpt.uninterrupted_losses
    assert result.resume_ok

    assert sum(line.startswith("step ") for line in lines) == 4
    assert sum(line.startswith("resumed step ") and line.endswith("(equal)") for line in lines) == 2


def test_qlora_base_is_nf4(tmp_path: Path) -> None:
    """The base decoder linears are bitsandbytes NF4 (4.13 bits a weight); embeddings stay in --dtype."""
    import bitsandbytes as bnb

    path = write_config(tmp_path, "mistral")
    config = transformers_config(json.loads(path.read_text()))
    nf4 = build_model(config, torch.bfloat16, "cpu", quantize_nf4=True)
    plain = build_model(config, torch.bfloat16, "cpu")
    quantised = {n for n, m in nf4.named_modules() if isinstance(m, bnb.nn.Linear4bit)}
    linears = {n for n, m in plain.named_modules() if isinstance(m, torch.nn.Linear) and n.startswith("model.layers.")}
    assert quantised == linears and len(quantised) == 2 * 7
    weight = nf4.get_submodule("model.layers.0.mlp.down_proj").weight
    assert weight.quant_state.quant_type == "nf4" and weight.dtype == torch.uint8
    assert weight.numel() * 2 == 256 * 128  # two 4-bit values a byte
    assert nf4.get_submodule("lm_head").weight.dtype == torch.bfloat16


@pytest.mark.parametrize(
    ("name", "tied", "qkv_bias"),
    [
        ("meta-llama/Llama-3.1-8B-Instruct", False, False),
        ("Qwen/Qwen2.5-7B-Instruct", False, True),
        ("mistralai/Mistral-7B-Instruct-v0.3", False, False),
        ("meta-llama/Llama-3.2-3B-Instruct", True, False),
    ],
)
def test_real_configs_have_the_projects_exact_parameter_count(name: str, tied: bool, qkv_bias: bool) -> None:
    """Built on the meta device (nothing allocated): same count as the estimator, real structure."""
    assert meta_parameter_count(name) == load_model(name).params_total
    config, _ = resolve_model(name)
    model = build_model(transformers_config(config), torch.bfloat16, "meta")
    attention = model.get_submodule("model.layers.0.self_attn")
    assert {"q_proj", "k_proj", "v_proj", "o_proj"} <= {n for n, _ in attention.named_children()}
    assert (attention.q_proj.bias is not None) == qkv_bias
    assert attention.k_proj.out_features == config["num_key_value_heads"] * attention.head_dim  # GQA
    assert (model.lm_head.weight is model.model.embed_tokens.weight) == tied


def test_materialised_model_is_transformers_own(tmp_path: Path) -> None:
    """Module-by-module materialisation gives what from_config builds: same buffers (rotary), same logits."""
    from transformers import AutoModelForCausalLM

    config = transformers_config(TINY["llama"])  # llama3 rope scaling: the buffer must be the scaled one
    torch.manual_seed(0)
    ours = build_model(config, torch.float32, "cpu")
    reference = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    reference.load_state_dict(ours.state_dict())
    for (name, buffer), (_, expected) in zip(ours.named_buffers(), reference.named_buffers(), strict=True):
        assert torch.equal(buffer, expected), name
    tokens = torch.randint(0, 256, (1, 12))
    assert torch.equal(ours(input_ids=tokens).logits, reference(input_ids=tokens).logits)
    assert ours.model.embed_tokens.weight.std() > 0.01  # initialised, not left empty


@pytest.mark.filterwarnings("ignore:`is_gradient_checkpointing` is deprecated:FutureWarning")  # peft's call
def test_gradient_checkpointing_keeps_fewer_activations(tmp_path: Path) -> None:
    path = write_config(tmp_path, "qwen2")
    config = transformers_config(TINY["qwen2"])

    def saved_bytes(checkpointing: bool) -> int:
        settings = settings_for(path, method="lora", gradient_checkpointing=checkpointing, seq_len=64)
        trainer = _Trainer(settings, config, torch.device("cpu"), torch.float32, adapter_seed=0)
        total = 0

        def pack(tensor: Any) -> Any:
            nonlocal total
            total += tensor.numel() * tensor.element_size()
            return tensor

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            trainer.model(input_ids=torch.randint(0, 320, (2, 64))).logits.sum().backward()
        return total

    assert saved_bytes(True) < 0.6 * saved_bytes(False)


def test_the_resume_comparison_can_fail() -> None:
    """Guard against a comparison that always says equal: a 1-ulp change of an optimizer state is told apart."""
    model = torch.nn.Linear(4, 4)
    optimizer = torch.optim.AdamW(model.parameters())
    model(torch.ones(1, 4)).sum().backward()
    optimizer.step()
    before = state_digest(optimizer.state_dict(), torch)
    assert before == state_digest(optimizer.state_dict(), torch)
    exp_avg = optimizer.state[model.weight]["exp_avg"]
    exp_avg[0, 0] = torch.nextafter(exp_avg[0, 0], torch.tensor(1.0))
    assert before != state_digest(optimizer.state_dict(), torch)


def test_a_resume_that_differs_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """The verdict is real: a checkpoint whose optimizer state is nudged on load fails the run."""
    path = write_config(tmp_path, "qwen2")
    load = _Trainer.load

    def nudged_load(self: _Trainer, directory: Path) -> int:
        step = load(self, directory)
        for state in self.optimizer.state.values():
            state["exp_avg"].mul_(1.001)
        return step

    monkeypatch.setattr(_Trainer, "load", nudged_load)
    code = main(["bench", "train", "--config", str(path), "--method", "lora", "--steps", "4", "--seq-len", "8",
                 "--quiet"])
    out = capsys.readouterr().out
    assert code == 1 and "resume MISMATCH" in out and "optimizer state equal: False" in out


def test_cli_json_names_what_the_proposal_reads(tmp_path: Path) -> None:
    """The acceptance command's shape, on CPU: top-level fields, exit 0, nothing on stderr but errors."""
    path = write_config(tmp_path / "m", "qwen2")
    done = run_cli("bench", "train", "--model", str(path.parent), "--method", "qlora", "--lora-rank", "8",
                   "--lora-targets", "q_proj,v_proj", "--batch-size", "2", "--seq-len", "16",
                   "--gradient-accumulation-steps", "2", "--optimizer", "adamw", "--gradient-checkpointing",
                   "--dtype", "float32", "--device", "cpu", "--steps", "4", "--json", "--out", str(tmp_path / "t.json"))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    data = json.loads(done.stdout)
    assert json.loads((tmp_path / "t.json").read_text())["losses"] == data["losses"]
    for field in ("peak_memory_bytes", "peak_memory_by_device", "step_time_mean_ms", "step_time_p50_ms",
                  "checkpoint_save_s", "checkpoint_load_s", "checkpoint_size_bytes", "tokens_per_s",
                  "trainable_parameters", "total_parameters"):
        assert data[field], field
    assert data["resume_ok"] is True and data["schema_version"] == 2
    echo = data["settings"]
    assert (echo["method"], echo["lora_rank"], echo["lora_targets"], echo["batch_size"], echo["seq_len"],
            echo["gradient_accumulation_steps"], echo["optimizer"], echo["gradient_checkpointing"],
            echo["dtype"], echo["device"]) == ("qlora", 8, ["q_proj", "v_proj"], 2, 16, 2, "adamw", True,
                                               "float32", "cpu")
    assert data["model_id"] == "m" and data["device"] == "cpu"


def test_cli_tiny_shape_prints_a_summary(capsys: Any) -> None:
    code = main(["bench", "train", "--hidden-size", "32", "--layers", "1", "--heads", "2", "--kv-heads", "1",
                 "--vocab-size", "64", "--batch-size", "1", "--seq-len", "8", "--steps", "3"])
    captured = capsys.readouterr()
    assert code == 0
    assert "resume OK" in captured.out and "LlamaForCausalLM" in captured.out
    assert [line for line in captured.err.splitlines() if line.startswith("step ")] == [
        line for line in captured.err.splitlines() if line.startswith("step ") and "tokens/s" in line
    ] and captured.err.count("\nstep ") + captured.err.startswith("step ") == 3


def _fails(argv: list[str], capsys: Any) -> str:
    try:
        code = main(["bench", "train", *argv])
    except SystemExit as exit_:  # argparse
        code = int(exit_.code or 0)
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["--model", "no-such-model"], "--model"),
        (["--method", "dora"], "--method"),
        (["--method", "lora", "--lora-rank", "0"], "--lora-rank"),
        (["--method", "lora", "--lora-targets", "q_proj,fc1"], "--lora-targets"),
        (["--method", "lora", "--lora-targets", ""], "--lora-targets"),
        (["--config", "/nonexistent/config.json"], "--config"),
        (["--steps", "1"], "--steps"),
        (["--steps", "4", "--checkpoint-at", "9"], "--checkpoint-at"),
        (["--device", "cuda"], "--device"),
        (["--batch-size", "0"], "--batch-size"),
    ],
)
def test_bad_input_is_one_line_naming_the_flag(argv: list[str], flag: str, capsys: Any) -> None:
    assert flag in _fails(argv, capsys)


def test_a_hub_id_that_is_not_reachable_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: Any) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("SIZER_AGENT_CACHE", str(tmp_path))
    err = _fails(["--model", "some-org/not-bundled-7b", "--method", "lora"], capsys)
    assert "--model" in err and "not-bundled-7b" in err and "bundled model" in err


def test_a_target_the_model_lacks_is_refused(tmp_path: Path, capsys: Any) -> None:
    config = {**TINY["llama"], "model_type": "phi", "architectures": ["PhiForCausalLM"], "num_key_value_heads": 4}
    (tmp_path / "config.json").write_text(json.dumps(config))
    err = _fails(["--model", str(tmp_path), "--method", "lora", "--lora-targets", "q_proj,gate_proj"], capsys)
    assert "--lora-targets" in err and "gate_proj" in err


def test_the_moe_router_is_refused_with_what_it_is(tmp_path: Path, capsys: Any) -> None:
    # transformers 5 holds Mixtral's router ("gate", our "router") in a TopKRouter, not an nn.Linear: PEFT's
    # target_modules cannot wrap it, so the refusal says what the module is, whichever spelling was asked
    config = {"architectures": ["MixtralForCausalLM"], "model_type": "mixtral", "hidden_size": 64,
              "intermediate_size": 128, "num_hidden_layers": 1, "num_attention_heads": 4, "num_key_value_heads": 2,
              "num_local_experts": 4, "num_experts_per_tok": 2, "vocab_size": 256}
    (tmp_path / "config.json").write_text(json.dumps(config))
    for spelling in ("router", "gate"):
        err = _fails(["--model", str(tmp_path), "--method", "lora", "--lora-targets", f"q_proj,{spelling}"], capsys)
        assert "--lora-targets" in err and "not a linear layer" in err and "'gate'" in err, err


def test_a_target_is_found_under_the_model_own_spelling() -> None:
    import torch

    from sizer_agent.tools.bench.train import check_targets

    class TorchtuneStyle(torch.nn.Module):  # torchtune names: w1/w3/w2, output_proj
        def __init__(self) -> None:
            super().__init__()
            self.w1, self.w3, self.w2 = torch.nn.Linear(4, 8), torch.nn.Linear(4, 8), torch.nn.Linear(8, 4)
            self.output_proj = torch.nn.Linear(4, 4)

    assert check_targets(TorchtuneStyle(), ["gate_proj", "o_proj", "w2"]) == ["w1", "output_proj", "w2"]
    with pytest.raises(InputError, match="no linear named q_proj"):
        check_targets(TorchtuneStyle(), ["q_proj"])


def test_qlora_without_bitsandbytes_is_a_clear_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: Any) -> None:
    monkeypatch.setitem(sys.modules, "bitsandbytes", None)  # import fails as if not installed
    path = write_config(tmp_path, "qwen2")
    err = _fails(["--model", str(path), "--method", "qlora"], capsys)
    assert "--method" in err and "bitsandbytes" in err and "sizer-agent[train]" in err
    err = _fails(["--model", str(path), "--optimizer", "adamw8bit"], capsys)
    assert "--optimizer" in err and "bitsandbytes" in err


def test_shape_errors_are_input_errors() -> None:
    with pytest.raises(InputError, match="--heads"):
        run_train(TrainSettings(shape=ModelShape(hidden_size=30, num_heads=4), steps=2))


def test_compare_refuses_train_results_of_another_method() -> None:
    from sizer_agent.tools.bench.compare import compare_results

    shape = ModelShape(hidden_size=32, num_layers=1, num_heads=2, vocab_size=64)
    a = run_train(TrainSettings(shape=shape, method="lora", batch_size=1, seq_len=8, steps=2, warmup_steps=0))
    data = a.model_dump(mode="json")
    same = compare_results(data, json.loads(json.dumps(data)))
    assert same.comparable and {row.label for row in same.rows} >= {"checkpoint save (s)", "checkpoint load (s)"}
    other = json.loads(json.dumps(data))
    other["settings"]["method"] = "qlora"
    refused = compare_results(data, other)
    assert not refused.comparable and [d.field for d in refused.differences] == ["settings.method"]


def test_a_hub_id_is_fetched_once_and_trained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Hub id that is not bundled: its config.json comes from the (here local) Hub endpoint and is cached."""
    import http.server
    import threading

    requests: list[str] = []

    class Hub(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requests.append(self.path)
            body = json.dumps(TINY["qwen2"]).encode()
            found = self.path == "/acme/tiny-qwen/resolve/main/config.json"
            self.send_response(200 if found else 404)
            self.send_header("Content-Length", str(len(body) if found else 0))
            self.end_headers()
            if found:
                self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{server.server_address[1]}")
        monkeypatch.setenv("SIZER_AGENT_CACHE", str(tmp_path))
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        result = run_train(TrainSettings(model="acme/tiny-qwen", method="lora", batch_size=1, seq_len=8, steps=2,
                                         warmup_steps=0))
    finally:
        server.shutdown()
        server.server_close()
    assert result.model_id == "acme/tiny-qwen" and result.architecture == "Qwen2ForCausalLM" and result.resume_ok
    assert result.config_source.endswith("/acme/tiny-qwen/resolve/main/config.json")
    assert requests == ["/acme/tiny-qwen/resolve/main/config.json"]
    assert (tmp_path / "acme__tiny-qwen" / "main" / "config.json").exists()
