"""Issue #15 items 1 and 2: offload of optimizer states, parameters and activations (host RAM, host-link bytes)
and LoRA on every linear. Expectations are the frameworks' arithmetic, written from their documentation:
FSDP2 CPUOffloadPolicy keeps the sharded parameters, gradients and optimizer states on the host and copies
each unit up for forward and again for backward; PEFT adds rank x (in + out) per adapted matrix and its suffix
match adapts every expert of a MoE layer."""

from __future__ import annotations

import pytest

from sizer_agent.tools.errors import InputError
from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.memory.training import TrainingSettings, lora_params, training_memory
from sizer_agent.tools.model_loader import load_model
from tests.estimate.test_cli_estimate import cli

GiB = 2**30


def _train(model: str, **fields: object):
    return estimate(EstimateRequest(model=model, mode="training", dtype="bfloat16", **fields))


def test_optimizer_offload_moves_states_and_master_weights_to_the_host() -> None:
    # AdamW with an fp32 master copy: 4 (m) + 4 (v) + 4 (master) bytes per parameter leave the GPU.
    base = _train("llama-3.1-8b", gradient_checkpointing="full")
    off = _train("llama-3.1-8b", gradient_checkpointing="full", offload=["optimizer"])
    params = base.model.params_total
    assert base.per_gpu.optimizer_bytes == params * 12
    assert off.per_gpu.optimizer_bytes == 0 and off.training is not None
    assert off.training.offloaded_optimizer_bytes == params * 12
    # a bf16 gradient goes down and a bf16 parameter comes back, once per step
    assert off.training.host_link_bytes_per_step == params * 2 + params * 2
    assert off.per_gpu.total_bytes == base.per_gpu.total_bytes - params * 12
    # the pre-#15 flag means the same thing
    legacy = _train("llama-3.1-8b", gradient_checkpointing="full", cpu_offload=True)
    assert legacy.per_gpu.total_bytes == off.per_gpu.total_bytes


def test_parameter_offload_keeps_about_two_fsdp_units_on_the_gpu() -> None:
    # Llama 3.1 70B over 8 GPUs with FSDP CPUOffloadPolicy (torchtune fsdp_cpu_offload): the largest unit is the
    # output projection (128,256 x 8,192 = 1.05 B parameters); two of them in bf16 are ~3.9 GiB.
    r = _train("llama-3.1-70b", gradient_checkpointing="full", master_weights="none", zero=3,
               data_parallel_size=8, offload=["parameters"])
    t = r.training
    assert t is not None and set(t.offload) == {"optimizer", "parameters"}
    assert r.per_gpu.weights_bytes == 2 * 128_256 * 8_192 * 2
    shard = r.model.params_total * 2 / 8
    assert t.offloaded_parameters_bytes == pytest.approx(shard, rel=1e-6)
    assert t.offloaded_gradients_bytes == pytest.approx(shard, rel=1e-6)
    assert t.offloaded_optimizer_bytes == pytest.approx(shard * 2, rel=1e-6)  # bf16 m and v
    # every unit comes up for forward and again for backward; its gradient shard goes down
    assert t.host_link_bytes_per_step == pytest.approx(3 * shard, rel=1e-6)
    assert r.per_gpu.optimizer_bytes == 0
    assert r.per_gpu.total_bytes < 16 * GiB  # it is what makes a 70B full fine-tune fit 8 A100 40GB


def test_parameter_offload_needs_sharding_over_data_parallel_ranks() -> None:
    with pytest.raises(InputError, match="zero 3"):
        _train("llama-3.1-8b", data_parallel_size=2, zero=2, offload=["parameters"])


def test_activation_offload_keeps_two_layers_and_sends_the_rest_to_the_host() -> None:
    # Llama 3.2 3B, 28 layers, full checkpointing keeps each layer's input: 2 x 4096 tokens x 3072 x 2 bytes.
    kwargs = dict(seq_len=4096, batch_size=2, gradient_checkpointing="full", master_weights="none", fused_loss=True)
    base = _train("meta-llama/Llama-3.2-3B-Instruct", **kwargs)
    off = _train("meta-llama/Llama-3.2-3B-Instruct", offload=["activations"], **kwargs)
    layer_input = 2 * 4096 * 3072 * 2
    assert off.training is not None and base.training is not None
    assert off.training.offloaded_activations_bytes == 26 * layer_input
    assert base.training.saved_activations_bytes - off.training.saved_activations_bytes == 26 * layer_input
    assert off.training.host_link_bytes_per_step == 2 * 26 * layer_input  # down in forward, up in backward


def test_lora_on_the_output_projection_adds_rank_times_hidden_plus_vocab() -> None:
    spec = load_model("meta-llama/Llama-2-7b-hf")
    qv = lora_params(spec, 8, ["q_proj", "v_proj"])
    assert qv == 32 * 2 * 8 * (4096 + 4096)
    assert lora_params(spec, 8, ["q_proj", "v_proj", "lm_head"]) - qv == 8 * (4096 + 32_000)
    # torchtune's names are accepted: output_proj is o_proj, output is lm_head
    assert lora_params(spec, 8, ["output_proj", "output"]) == lora_params(spec, 8, ["o_proj", "lm_head"])


def test_lora_on_moe_adapts_every_expert_and_the_router() -> None:
    spec = load_model("mistralai/Mixtral-8x7B-Instruct-v0.1")  # 32 layers, 8 experts of width 14,336
    assert lora_params(spec, 8, ["gate_proj"]) == 32 * 8 * 8 * (4096 + 14_336)
    assert lora_params(spec, 8, ["w1"]) == lora_params(spec, 8, ["gate_proj"])  # Mixtral's own name
    assert lora_params(spec, 8, ["router"]) == 32 * 8 * (4096 + 8)
    assert lora_params(spec, 8, ["gate"]) == lora_params(spec, 8, ["router"])


def test_lora_on_a_tied_output_projection_is_sized_and_flagged() -> None:
    r = _train("meta-llama/Llama-3.2-3B-Instruct", method="lora", lora_targets=["q_proj", "lm_head"])
    assert any(w.id == "train.lora_tied_output" for w in r.warnings)
    spec = load_model("meta-llama/Llama-3.2-3B-Instruct")
    settings = TrainingSettings(method="lora", lora_targets=["q_proj", "lm_head"])
    without = TrainingSettings(method="lora", lora_targets=["q_proj"])
    # the adapter keeps the output projection's input: more saved bytes at the end of forward
    assert training_memory(spec, settings, 2).loss_buffers_bytes > training_memory(spec, without, 2).loss_buffers_bytes


def test_cli_refuses_unknown_offload_and_lora_names_with_exit_2() -> None:
    out = cli("estimate", "--model", "llama-3.1-8b", "--mode", "training", "--offload", "disk")
    assert out.returncode == 2 and "--offload" in out.stderr and "activations" in out.stderr
    out = cli("estimate", "--model", "llama-3.1-8b", "--mode", "training", "--method", "lora",
              "--lora-targets", "q_proj,embed")
    assert out.returncode == 2 and "--lora-targets" in out.stderr and "lm_head" in out.stderr
    out = cli("estimate", "--model", "llama-3.1-8b", "--mode", "training", "--method", "lora",
              "--lora-targets", "q_proj,lm_head", "--offload", "activations,optimizer", "--json")
    assert out.returncode == 0, out.stderr
