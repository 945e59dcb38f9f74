"""Names of the data keys the proposal labels: answer fields, memory terms, host items, enum values.

Their labels live in the translation catalogue (`field.*`, `term.*`, `system.*`, `value.*`); the test of
the catalogue checks every label there names one of the keys below, in both languages. A key the session
carries but that is not listed here is still shown, under its raw name.
"""

from __future__ import annotations

# Interview answers, in the order the proposal lists them (seed 002 intake list, then the serving load).
FIELD_ORDER: tuple[str, ...] = (
    "use_case",
    "framework",
    "framework_version",
    "model",
    "model_family",
    "revision",
    "precision",
    "kv_cache_dtype",
    "input_len",
    "output_len",
    "max_model_len",
    "context_len",
    "concurrency",
    "growth",
    "slo_ttft_ms",
    "slo_tpot_ms",
    "percentile",
    "batch_size",
    "seq_len",
    "dataset",
    "dataset_size",
    "optimizer",
    "method",
    "checkpoint_interval",
    "num_gpus_planned",
    "rendering_cad",
    "ecc",
    "deployment",
    "budget_eur",
    "power_limit_w",
    "rack_limit",
    "resolution",
    "architecture",
)

# Per-GPU memory terms of EstimateResult.per_gpu (`<term>_bytes`), in stacking order.
MEMORY_TERMS: tuple[str, ...] = (
    "weights",
    "kv_cache",
    "activations",
    "gradients",
    "optimizer",
    "runtime",
)

# Host requirement items of the recommendation's `system` object, in display order.
SYSTEM_ORDER: tuple[str, ...] = (
    "host_ram",
    "nvme",
    "nvme_write",
    "power",
    "cpu",
    "pcie",
    "cooling",
    "ecc",
    "graphics",
    "licensing",
)

# Enumerated answer values that read better translated (unknown values are shown as they are).
KNOWN_VALUES: tuple[str, ...] = (
    "online_serving",
    "batch_inference",
    "fine_tuning",
    "training",
    "vision",
    "inference",
    "workstation",
    "server",
    "cloud",
    "full",
    "lora",
    "qlora",
)

# Roofline phases and limiting resources the estimate names (`perf.roofline.points[].phase`, `perf.bound`).
PHASES: tuple[str, ...] = ("prefill", "decode")
BOUNDS: tuple[str, ...] = ("memory", "compute", "communication")
