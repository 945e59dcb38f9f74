"""Parsers never crash on hostile input: they return a result or raise InputError naming a field."""

from __future__ import annotations

import argparse

from hypothesis import given, settings
from hypothesis import strategies as st

from sizer_agent.cli.estimate_args import _positive_int
from sizer_agent.tools.architectures import spec_from_config
from sizer_agent.tools.errors import InputError

KEYS = ["hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "vocab_size",
        "intermediate_size", "head_dim", "max_position_embeddings", "num_local_experts", "num_experts_per_tok",
        "kv_lora_rank", "sliding_window", "model_type", "text_config", "layer_types", "tie_word_embeddings"]
values = st.one_of(st.integers(-5, 5000), st.none(), st.text(max_size=5), st.booleans(),
                   st.lists(st.text(max_size=8), max_size=3), st.floats(allow_nan=True))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), values, max_size=12))
def test_spec_from_config_never_crashes(config: dict) -> None:
    try:
        spec = spec_from_config(config, "fuzz")
    except InputError as error:
        assert error.field.startswith("config")
    else:
        assert spec.params_total >= 0


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_token_count_parser(text: str) -> None:
    try:
        value = _positive_int(text)
    except argparse.ArgumentTypeError as error:
        assert str(error)
    else:
        assert value >= 1


BASE = {"model_type": "llama", "hidden_size": 256, "num_hidden_layers": 4, "num_attention_heads": 8,
        "num_key_value_heads": 4, "vocab_size": 1000, "intermediate_size": 512, "max_position_embeddings": 2048}


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), values, max_size=4),
       st.sampled_from(["llama", "qwen3_moe", "deepseek_v3", "gemma2", "gpt_oss", "phi", "mystery"]))
def test_mutated_valid_configs_never_crash(mutation: dict, model_type: str) -> None:
    config = {**BASE, "model_type": model_type, **mutation}
    try:
        spec = spec_from_config(config, "fuzz")
    except InputError as error:
        assert error.field.startswith("config")
    else:
        assert spec.params_total > 0
