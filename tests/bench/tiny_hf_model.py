"""A tiny random Llama in Hugging Face layout (config.json, model.safetensors, fast tokenizer with a chat
template), written with numpy and `tokenizers` only: no transformers or torch import, well under a second.

Shape follows the measured recipe for vLLM's CPU backend: hidden 64, 2 heads (head_dim 32 — its attention
needs >= 32), 2 layers, a ~1000-token byte-level BPE vocabulary.
"""

from __future__ import annotations

import json
import random
import struct
import sys
from pathlib import Path
from typing import Any

import numpy as np

WORDS = [
    "time", "person", "year", "way", "day", "thing", "man", "world", "life", "hand", "part", "child", "eye",
    "woman", "place", "work", "week", "case", "point", "number", "group", "problem", "fact", "water",
    "room", "mother", "area", "money", "story", "month", "lot", "right", "study", "book", "job", "word",
    "business", "issue", "the", "of", "and", "to", "in", "is", "it", "on", "at", "by", "for", "with", "as",
    "be", "or", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"
]

CHAT_TEMPLATE = (
    "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}assistant:{% endif %}"
)


def _write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    """safetensors layout: u64 header size, JSON header (dtype, shape, byte offsets), raw little-endian data."""
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    offset = 0
    blobs = []
    for name, array in tensors.items():
        data = np.ascontiguousarray(array, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    encoded = json.dumps(header).encode()
    encoded += b" " * (-len(encoded) % 8)
    with path.open("wb") as handle:
        handle.write(struct.pack("<Q", len(encoded)))
        handle.write(encoded)
        for blob in blobs:
            handle.write(blob)


def train_byte_level_bpe(corpus: list[str], vocab_size: int) -> Any:
    """A byte-level BPE tokenizer (GPT-2 style, `<s>`/`</s>` specials) trained on `corpus`: a tokenizers.Tokenizer."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=["<s>", "</s>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tokenizer.train_from_iterator(corpus, trainer)
    return tokenizer


def write_tiny_hf_model(out: Path, hidden: int = 64, layers: int = 2, heads: int = 2, ffn: int = 128) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(0)
    corpus = [" ".join(rng.choice(WORDS) for _ in range(16)) for _ in range(400)]
    tokenizer = train_byte_level_bpe(corpus, vocab_size=1000)
    tokenizer.save(str(out / "tokenizer.json"))
    vocab = tokenizer.get_vocab_size()
    (out / "tokenizer_config.json").write_text(
        json.dumps(
            {
                "tokenizer_class": "PreTrainedTokenizerFast",
                "bos_token": "<s>",
                "eos_token": "</s>",
                "model_max_length": 512,
                "chat_template": CHAT_TEMPLATE,
            }
        )
    )
    config = {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "vocab_size": vocab,
        "hidden_size": hidden,
        "intermediate_size": ffn,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": heads,
        "head_dim": hidden // heads,
        "hidden_act": "silu",
        "max_position_embeddings": 512,
        "rms_norm_eps": 1e-5,
        "rope_theta": 10000.0,
        "bos_token_id": 0,
        "eos_token_id": 1,
        "tie_word_embeddings": False,
        "torch_dtype": "float32",
    }
    (out / "config.json").write_text(json.dumps(config, indent=1))
    (out / "generation_config.json").write_text(json.dumps({"bos_token_id": 0, "eos_token_id": 1}))
    gen = np.random.default_rng(0)

    def weights(*shape: int) -> np.ndarray:
        return (gen.standard_normal(shape) * 0.05).astype(np.float32)

    tensors: dict[str, np.ndarray] = {"model.embed_tokens.weight": weights(vocab, hidden)}
    for i in range(layers):
        prefix = f"model.layers.{i}."
        for name in ("q_proj", "k_proj", "v_proj", "o_proj"):
            tensors[prefix + f"self_attn.{name}.weight"] = weights(hidden, hidden)
        tensors[prefix + "mlp.gate_proj.weight"] = weights(ffn, hidden)
        tensors[prefix + "mlp.up_proj.weight"] = weights(ffn, hidden)
        tensors[prefix + "mlp.down_proj.weight"] = weights(hidden, ffn)
        tensors[prefix + "input_layernorm.weight"] = np.ones(hidden, np.float32)
        tensors[prefix + "post_attention_layernorm.weight"] = np.ones(hidden, np.float32)
    tensors["model.norm.weight"] = np.ones(hidden, np.float32)
    tensors["lm_head.weight"] = weights(vocab, hidden)
    _write_safetensors(out / "model.safetensors", tensors)
    return out


if __name__ == "__main__":
    write_tiny_hf_model(Path(sys.argv[1]))
