"""A tiny random Llama model in GGUF (llama.cpp's format), written in well under a second, no torch."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tests.bench.tiny_hf_model import train_byte_level_bpe

WORDS = [
    "the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "while", "seven", "wizards",
    "quietly", "hum", "jazz", "near", "big", "fjords"
]


def write_tiny_gguf(path: Path, hidden: int = 64, layers: int = 2, heads: int = 2, ffn: int = 128) -> Path:
    import gguf

    rng = np.random.default_rng(0)
    corpus = [" ".join(rng.choice(WORDS, 12)) for _ in range(300)]
    tokenizer = train_byte_level_bpe(corpus, vocab_size=400)
    vocab = tokenizer.get_vocab()
    tokens = [""] * len(vocab)
    for token, index in vocab.items():
        tokens[index] = token
    merges = json.loads(tokenizer.to_str())["model"]["merges"]
    merges = [m if isinstance(m, str) else " ".join(m) for m in merges]

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_context_length(512)
    writer.add_embedding_length(hidden)
    writer.add_block_count(layers)
    writer.add_feed_forward_length(ffn)
    writer.add_head_count(heads)
    writer.add_head_count_kv(heads)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_rope_dimension_count(hidden // heads)
    writer.add_vocab_size(len(tokens))
    writer.add_file_type(0)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types([3 if t in ("<s>", "</s>") else 1 for t in tokens])
    writer.add_token_merges(merges)
    writer.add_bos_token_id(0)
    writer.add_eos_token_id(1)
    writer.add_add_bos_token(False)
    writer.add_chat_template("{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}assistant:")

    def weights(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.05).astype(np.float32)

    writer.add_tensor("token_embd.weight", weights(len(tokens), hidden))
    writer.add_tensor("output_norm.weight", np.ones(hidden, np.float32))
    writer.add_tensor("output.weight", weights(len(tokens), hidden))
    for i in range(layers):
        prefix = f"blk.{i}."
        writer.add_tensor(prefix + "attn_norm.weight", np.ones(hidden, np.float32))
        writer.add_tensor(prefix + "ffn_norm.weight", np.ones(hidden, np.float32))
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            writer.add_tensor(prefix + name + ".weight", weights(hidden, hidden))
        writer.add_tensor(prefix + "ffn_gate.weight", weights(ffn, hidden))
        writer.add_tensor(prefix + "ffn_up.weight", weights(ffn, hidden))
        writer.add_tensor(prefix + "ffn_down.weight", weights(hidden, ffn))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path
