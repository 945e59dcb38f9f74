"""Parameter counts must be exact: they are checked against safetensors totals and model cards."""

from __future__ import annotations

import json

import pytest

from sizer_agent.tools.architectures import spec_from_config
from sizer_agent.tools.model_loader import bundled_dir, list_models, load_model
from tests.estimate._data import VALIDATION, load_cases

# Exact counts from tools/data/models/INDEX.md (safetensors index total_size / 2, or the exact count
# computed from the config and cross-checked there), for bundled models outside the validation set.
REFERENCE_COUNTS = {
    "Qwen/Qwen2.5-7B-Instruct": 7_615_616_512,
    "Qwen/Qwen2.5-72B-Instruct": 72_706_203_648,
    "Qwen/Qwen3-8B": 8_190_735_360,
    "Qwen/Qwen3-30B-A3B": 30_532_122_624,
    "deepseek-ai/DeepSeek-V2-Lite-Chat": 15_706_484_224,
    "google/gemma-2-2b-it": 2_614_341_888,
    "google/gemma-2-9b-it": 9_241_705_984,
    "google/gemma-2-27b-it": 27_227_128_320,
    "google/gemma-3-4b-it": 4_300_079_472,  # text 3,880,263,168 + SigLIP 416,866,032 + projector
    "google/gemma-3-27b-it": 27_432_406_640,
    "microsoft/phi-2": 2_779_683_840,
    "microsoft/phi-4": 14_659_507_200,
    "mistralai/Mistral-Small-3.1-24B-Instruct-2503": 24_011_361_280,  # with Pixtral tower + projector
    "openai/gpt-oss-20b": 20_914_757_184,
    "meta-llama/Llama-3.1-405B-Instruct": 405_853_388_800,
    "codellama/CodeLlama-7b-hf": 6_738_546_688,
    # Models added for free-text briefs. Llama 3.3 70B and R1-Distill-Llama-70B: the INDEX's count for
    # Llama 3.3 70B (same as Llama 3.1 70B); R1-Distill-Llama-8B: Llama 3.1 8B's safetensors total / 2;
    # Qwen2.5-32B and R1-Distill-Qwen-32B: the Hub's safetensors metadata of R1-Distill-Qwen-32B
    # (BF16 32,763,876,352), which Qwen2.5-32B's model card rounds to 32.5B.
    "meta-llama/Llama-3.3-70B-Instruct": 70_553_706_496,
    "deepseek-ai/DeepSeek-R1-Distill-Llama-70B": 70_553_706_496,
    "deepseek-ai/DeepSeek-R1-Distill-Llama-8B": 8_030_261_248,
    "Qwen/Qwen2.5-32B-Instruct": 32_763_876_352,
    "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B": 32_763_876_352,
    # Popular open models (INDEX.md, "Added for popular open models"): exact counts computed from the config and
    # checked against each model card's rounded figure, given beside it. Llama 3.1 8B base: the Llama-3.1-8B
    # index.json total_size / 2, as the Instruct model (same architecture).
    "meta-llama/Llama-3.1-8B": 8_030_261_248,
    "meta-llama/Llama-3.2-1B-Instruct": 1_235_814_400,  # card: "1B (1.23B)"
    "Qwen/Qwen2.5-14B-Instruct": 14_770_033_664,  # card: 14.7B (truncated, as 32.5B for Qwen2.5-32B's 32.76B)
    "Qwen/Qwen2.5-3B-Instruct": 3_085_938_688,  # card: 3.09B, 2.77B non-embedding
    "Qwen/Qwen3-14B": 14_768_307_200,  # card: 14.8B, 13.2B non-embedding
    "Qwen/Qwen3-4B": 4_022_468_096,  # card: 4.0B, 3.6B non-embedding
    "Qwen/Qwen3-235B-A22B": 235_093_634_560,  # card: 235B total
    "mistralai/Mistral-Nemo-Instruct-2407": 12_247_782_400,  # card: 12B; 12.2 billion in vendor docs
    "microsoft/Phi-4-mini-instruct": 3_836_021_760,  # safetensors headers at a pinned revision; card: 3.8B
    # Gemma 3 12B: text 11,766,034,176 (keras-hub's gemma3_instruct_12b_text preset: 11,765,788,416 with a
    # 262,144-token vocabulary, i.e. 64 x 3840 fewer) + SigLIP 416,866,032 + projector 4,424,832
    "google/gemma-3-12b-it": 12_187_325_040,
}


@pytest.mark.parametrize("case", load_cases("param_counts.json"), ids=lambda c: c["config"])
def test_validation_counts_are_exact(case: dict) -> None:
    config = json.loads((VALIDATION / "configs" / case["config"] / "config.json").read_text())
    assert spec_from_config(config, case["config"]).params_total == case["params"]


@pytest.mark.parametrize("folder", sorted(p.name for p in (VALIDATION / "configs").iterdir()))
def test_validation_configs_are_the_bundled_ones(folder: str) -> None:
    # what `validate` checks is what the product sizes with: the same config.json, byte for byte
    validated = (VALIDATION / "configs" / folder / "config.json").read_bytes()
    assert validated == (bundled_dir() / folder / "config.json").read_bytes()


@pytest.mark.parametrize(("model", "params"), REFERENCE_COUNTS.items())
def test_bundled_counts_are_exact(model: str, params: int) -> None:
    assert load_model(model).params_total == params


def test_moe_active_parameters_follow_model_cards() -> None:
    # Model cards: gpt-oss-120b "5.1B active", DeepSeek-V3 "37B activated", Mixtral "12.9B active".
    assert load_model("gpt-oss-120b").params_active == pytest.approx(5.1e9, rel=0.02)
    assert load_model("deepseek-v3").params_active == pytest.approx(37e9, rel=0.02)
    # DeepSeek-R1 model card: "671B total, 37B activated" (the DeepSeek-V3 architecture).
    assert load_model("deepseek-r1").params_total == load_model("deepseek-v3").params_total
    assert load_model("deepseek-r1").params_active == pytest.approx(37e9, rel=0.02)
    assert load_model("mixtral-8x7b").params_active == pytest.approx(12.9e9, rel=0.03)
    # Qwen3-235B-A22B model card: "235B in total and 22B activated" (activated counts the input embedding too)
    qwen3_235b = load_model("Qwen/Qwen3-235B-A22B")
    assert qwen3_235b.params_active + qwen3_235b.embedding_params == pytest.approx(22e9, rel=0.03)


def test_dense_active_equals_total_minus_input_embedding() -> None:
    spec = load_model("llama-3.1-8b")
    assert spec.params_active == spec.params_total - spec.embedding_params


def test_every_bundled_model_loads_without_unknown_architecture_warning() -> None:
    models = list_models()
    assert len(models) >= 25
    for spec in models:
        assert not any(w.id == "model.unknown_architecture" for w in spec.warnings), spec.name


def test_attention_layouts() -> None:
    assert set(load_model("gemma-2-9b").layer_attention) == {"sliding", "full"}
    gemma3 = load_model("gemma-3-27b").layer_attention
    assert gemma3.count("full") == 62 // 6 and gemma3[5] == "full"
    assert set(load_model("deepseek-v3").layer_attention) == {"mla"}
    assert load_model("gpt-oss-120b").layer_attention[:2] == ["sliding", "full"]
    assert load_model("llama-4-scout").layer_attention[:4] == ["chunked", "chunked", "chunked", "full"]
