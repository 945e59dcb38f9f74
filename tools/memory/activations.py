"""Activation memory of inference: the peak of one forward step and of the sampler.

Forward step over M tokens (one prefill chunk or a batch of decode tokens), widest point of a layer:
  gated MLP: gate_up output (2 x I) and its SiLU-and-mul output (I) are live together -> 3 x I per token;
  plain MLP (Phi-2): fc1 output and GELU output -> 2 x I; MoE (fused kernel caches): top_k x 3 x I_expert
  plus top_k x hidden for the expert outputs. The matrices are split by tensor parallelism.
  Residual stream, normed input and attention output: 4 x hidden per token.
Sampler over S sequences and the vocabulary V: fp32 logits (4 B) + sorted values for top-k/top-p (4 B)
  + int64 sort indices (8 B) = 16 bytes per (sequence, vocabulary entry), vLLM V1 sampler.
The peak is the larger of the two (they do not overlap in time); only the last pipeline stage samples.
Checked against vLLM 0.19's "torch peak memory increase" in tests/estimate/test_vllm_profile.py.
"""

from __future__ import annotations

from sizer_agent.tools.model_spec import ModelSpec

SAMPLER_BYTES_PER_LOGIT = 16  # fp32 logits + fp32 sorted values + int64 indices (see module docstring)
RESIDUAL_STREAM_COPIES = 4


def mlp_live_width(model: ModelSpec, tp: int) -> float:
    if model.moe is not None and any(layer.experts for layer in model.layers):
        k, width = model.moe.experts_per_token, model.moe.expert_intermediate_size
        return k * 3 * width / tp + k * model.hidden_size
    return (3 if model.gated_mlp else 2) * model.intermediate_size / tp


def forward_peak_bytes(model: ModelSpec, tokens: int, act_bytes: float, tp: int = 1) -> int:
    per_token = mlp_live_width(model, tp) + RESIDUAL_STREAM_COPIES * model.hidden_size
    return round(tokens * per_token * act_bytes)


def sampler_peak_bytes(model: ModelSpec, sequences: int) -> int:
    return sequences * model.vocab_size * SAMPLER_BYTES_PER_LOGIT


def inference_activation_bytes(
    model: ModelSpec, tokens: int, sequences: int, act_bytes: float, tp: int = 1, last_stage: bool = True
) -> int:
    forward = forward_peak_bytes(model, tokens, act_bytes, tp)
    return max(forward, sampler_peak_bytes(model, sequences)) if last_stage else forward
