"""Memory estimators: weights, KV cache, activations, runtime, vLLM start-up accounting, training."""

from sizer_agent.tools.memory.kv_cache import kv_cache_bytes, kv_cache_bytes_per_token
from sizer_agent.tools.memory.weights import weight_bytes, weight_bytes_per_stage

__all__ = ["kv_cache_bytes", "kv_cache_bytes_per_token", "weight_bytes", "weight_bytes_per_stage"]
