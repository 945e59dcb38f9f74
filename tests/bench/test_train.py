"""The training benchmark runs for real on CPU with a tiny model, including the resume check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bench.conftest import run_cli
from tools.bench.train import ModelShape, TrainSettings, run_train
from tools.errors import InputError

TINY = ModelShape(hidden_size=32, num_layers=2, num_heads=4, num_kv_heads=2, vocab_size=128)


def test_training_measures_and_resumes_bit_identically(tmp_path: Path) -> None:
    settings = TrainSettings(shape=TINY, batch_size=2, seq_len=16, steps=6, checkpoint_dir=tmp_path)
    result = run_train(settings)
    assert result.device == "cpu" and len(result.losses) == 6
    assert result.step_time_ms.count == 5  # one warm-up step left out
    assert result.tokens_per_step == 32 and result.tokens_per_s > 0
    assert result.parameters > 0
    assert result.model_flops_per_s == pytest.approx(6 * result.parameters * result.tokens_per_s)
    assert result.peak_memory_bytes and result.peak_memory_bytes > 10 * 2**20
    ckpt = result.checkpoint
    assert ckpt.at_step == 3 and ckpt.size_bytes > 0 and ckpt.save_s > 0
    assert ckpt.optimizer_state_equal and ckpt.next_step_loss_equal and ckpt.all_following_losses_equal
    assert ckpt.resumed_losses == result.losses[3:]
    assert result.resume_ok
    assert (tmp_path / "checkpoint.pt").exists()


def test_the_resume_comparison_can_fail() -> None:
    """Guard against a comparison that always says equal: a tampered optimizer state is told apart."""
    import torch

    from tools.bench.train import _clone_state, _states_equal

    model = torch.nn.Linear(4, 4)
    optimizer = torch.optim.AdamW(model.parameters())
    model(torch.ones(1, 4)).sum().backward()
    optimizer.step()
    state = optimizer.state_dict()
    copy = _clone_state(state, torch)
    assert _states_equal(state, copy, torch)
    copy["state"][0]["exp_avg"][0, 0] += 1e-7
    assert not _states_equal(state, copy, torch)


def test_cli_train_with_hf_config(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({
        "hidden_size": 32, "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1,
        "intermediate_size": 64, "vocab_size": 100,
    }))
    done = run_cli("bench", "train", "--config", str(config), "--batch-size", "2", "--seq-len", "8", "--steps",
                   "4", "--json", "--out", str(tmp_path / "t.json"))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["resume_ok"] is True and data["settings"]["shape"]["num_kv_heads"] == 1
    assert json.loads((tmp_path / "t.json").read_text())["parameters"] == data["parameters"]


def test_bad_shapes_are_input_errors() -> None:
    with pytest.raises(InputError):
        run_train(TrainSettings(shape=ModelShape(hidden_size=30, num_heads=4), steps=2))
    done = run_cli("bench", "train", "--steps", "4", "--checkpoint-at", "9")
    assert done.returncode == 2 and "--checkpoint-at" in done.stderr
