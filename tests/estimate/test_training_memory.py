"""Training memory: hand-checked terms and the published torchtune peaks."""

from __future__ import annotations

import json

import pytest

from tests.estimate._data import VALIDATION, load_cases
from sizer_agent.tools.architectures import spec_from_config
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.memory.training import lora_params
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.validation import flags_to_fields

GiB = 2**30


def test_mixed_precision_adamw_is_16_bytes_per_parameter() -> None:
    r = estimate(EstimateRequest(model="llama-3.1-8b", mode="training", batch_size=1, seq_len=512))
    p = r.model.params_total
    assert r.per_gpu.weights_bytes == pytest.approx(2 * p)
    assert r.per_gpu.gradients_bytes == pytest.approx(2 * p)
    assert r.per_gpu.optimizer_bytes == pytest.approx(12 * p)  # fp32 master + two fp32 moments


def test_pure_bf16_adamw_states_are_bf16() -> None:
    r = estimate(EstimateRequest(model="llama-3.1-8b", mode="training", master_weights="none", seq_len=512))
    assert r.per_gpu.optimizer_bytes == pytest.approx(4 * r.model.params_total)


def test_lora_trainable_parameters_match_peft() -> None:
    # PEFT prints "trainable params: 3,407,872" for Llama-3-8B, r=8 on q_proj and v_proj.
    assert lora_params(load_model("llama-3.1-8b"), 8, ["q_proj", "v_proj"]) == 3_407_872


def test_zero_and_offload_shard_or_move_states() -> None:
    base = dict(model="llama-3.1-8b", mode="training", seq_len=512, data_parallel_size=8)
    plain = estimate(EstimateRequest(**base))
    zero1 = estimate(EstimateRequest(**base, zero=1))
    zero3 = estimate(EstimateRequest(**base, zero=3))
    offload = estimate(EstimateRequest(**base, cpu_offload=True))
    assert zero1.per_gpu.optimizer_bytes == pytest.approx(plain.per_gpu.optimizer_bytes / 8)
    assert zero3.per_gpu.weights_bytes < plain.per_gpu.weights_bytes / 4
    assert offload.per_gpu.optimizer_bytes == 0 and offload.training.offloaded_bytes > 0


def test_checkpointing_reduces_activations() -> None:
    base = dict(model="llama-3.1-8b", mode="training", batch_size=4, seq_len=4096)
    none = estimate(EstimateRequest(**base)).training.saved_activations_bytes
    full = estimate(EstimateRequest(**base, gradient_checkpointing="full")).training.saved_activations_bytes
    eager = estimate(EstimateRequest(**base, flash_attention=False)).training.saved_activations_bytes
    assert full < none / 10
    assert eager > none  # s x s score matrices


def test_optimizer_in_backward_needs_no_accumulation() -> None:
    with pytest.raises(InputError, match="optimizer_in_backward"):
        estimate(EstimateRequest(model="llama-3.1-8b", mode="training", optimizer_in_backward=True,
                                 gradient_accumulation_steps=4))


@pytest.mark.parametrize("case", load_cases("training_memory_cases.json"), ids=lambda c: c["id"])
def test_torchtune_peaks(case: dict) -> None:
    config = json.loads((VALIDATION / "configs" / case["config"] / "config.json").read_text())
    spec = spec_from_config(config, case["model"])
    r = estimate(EstimateRequest(model=case["model"], **flags_to_fields(case["args"])), spec)
    allocator_peak = (r.per_gpu.total_bytes - r.per_gpu.runtime_bytes) / GiB
    # The QLoRA row's metric is dominated by allocator cache left from loading (see the case's notes).
    tolerance = 0.6 if case["id"] == "train-torchtune-20" else 0.2
    assert allocator_peak == pytest.approx(case["expect_peak_gib"], rel=tolerance)
