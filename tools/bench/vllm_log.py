"""Parse vLLM's start-up memory lines (weights, profiling, KV cache size, maximum concurrency).

Formats as printed by vLLM V1 (0.19 on GPU, committed logs of llm-d-incubation/llm-d-planner PR 205;
0.32 CPU build measured here), e.g.:
  Model loading took 12.56 GiB memory and 38.074301 seconds
  Memory profiling takes 17.55 seconds. Total non KV cache memory: 13.57GiB; torch peak memory increase:
      0.77GiB; non-torch forward increase memory: 0.25GiB; weights memory: 12.56GiB.
  Available KV cache memory: 61.66 GiB
  GPU KV cache size: 126,256 tokens
  Maximum concurrency for 8,192 tokens per request: 15.41x
  ... Actual usage is 12.56 GiB for weight, 0.77 GiB for peak activation, 0.25 GiB for non-torch memory,
      and 0.89 GiB for CUDAGraph memory ...
  (CPU) Explicitly set (0.06/7.59) GiB for KV cache on node 0.
  (CPU) CPU KV cache size: 65,536 tokens, Maximum concurrency for 512 tokens per request: 128.00x
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sizer_agent.tools.bench.results import VllmStartupMemory

_NUMBER = r"([\d.]+)"
_FLOAT_PATTERNS: dict[str, list[re.Pattern[str]]] = {
    "weights_gib": [
        re.compile(rf"Model loading took {_NUMBER} ?GiB"),
        re.compile(rf"weights memory: {_NUMBER} ?GiB"),
        re.compile(rf"{_NUMBER} ?GiB for weight"),
    ],
    "model_load_s": [re.compile(rf"Model loading took [\d.]+ ?GiB(?: memory)? and {_NUMBER} ?s")],
    "non_kv_cache_gib": [re.compile(rf"Total non KV cache memory: {_NUMBER} ?GiB")],
    "activation_peak_gib": [
        re.compile(rf"torch peak memory increase: {_NUMBER} ?GiB"),
        re.compile(rf"{_NUMBER} ?GiB for peak activation"),
    ],
    "non_torch_gib": [
        re.compile(rf"non-torch forward increase memory: {_NUMBER} ?GiB"),
        re.compile(rf"{_NUMBER} ?GiB for non-torch memory"),
    ],
    "cudagraph_gib": [re.compile(rf"{_NUMBER} ?GiB for CUDAGraph memory")],
    "kv_cache_gib": [
        re.compile(rf"Available KV cache memory: {_NUMBER} ?GiB"),
        re.compile(rf"Current kv cache memory in use is {_NUMBER} ?GiB"),
        re.compile(rf"Explicitly set \({_NUMBER}/[\d.]+\) ?GiB for KV cache"),
    ],
}
_KV_TOKENS = re.compile(r"KV cache size: ([\d,]+) tokens")
_MAX_CONCURRENCY = re.compile(r"Maximum concurrency for ([\d,]+) tokens per request: ([\d.]+)x")


def parse_startup_memory(lines: Iterable[str]) -> VllmStartupMemory:
    """The first value of each kind wins (vLLM prints the most direct line first)."""
    result = VllmStartupMemory()
    kept: list[str] = []
    for line in lines:
        matched = False
        for field, patterns in _FLOAT_PATTERNS.items():
            if getattr(result, field) is not None:
                continue
            for pattern in patterns:
                found = pattern.search(line)
                if found:
                    setattr(result, field, float(found.group(1)))
                    matched = True
                    break
        found = _KV_TOKENS.search(line)
        if found and result.kv_cache_tokens is None:
            result.kv_cache_tokens = int(found.group(1).replace(",", ""))
            matched = True
        found = _MAX_CONCURRENCY.search(line)
        if found and result.max_concurrency is None:
            result.max_concurrency_tokens_per_request = int(found.group(1).replace(",", ""))
            result.max_concurrency = float(found.group(2))
            matched = True
        if matched:
            kept.append(line.rstrip("\n"))
    result.lines = kept
    return result
