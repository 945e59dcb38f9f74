"""Names of the data keys the proposal labels: answer fields, memory terms, host items, enum values.

Their labels live in the translation catalogue (`field.*`, `term.*`, `system.*`, `value.*`, …); the
catalogue test checks every label there names one of the keys below, in both languages. A key the session
carries but that is not listed here is still shown, under its raw name.
"""

from __future__ import annotations

# Interview answers (the agent's WorkloadProfile fields), in the order the proposal lists them:
# the intake list of docs/method.md (seed 002), then the serving load, the SLA and the constraints.
FIELD_ORDER: tuple[str, ...] = (
    "customer", "use_case", "framework", "framework_version", "model", "model_family", "model_revision",
    "custom_architecture", "model_size_b", "vision_model", "vision_mode", "precision", "input_len", "output_len",
    "context_len",
    "image_resolution", "batch_size", "head_count", "concurrency", "growth_factor", "ttft_ms", "tpot_ms",
    "slo_percentile",
    "dataset_size_bytes", "dataset_tokens", "job_requests", "job_recurring", "job_runs_per_year", "deadline_hours",
    "images_per_s",
    "dataset_images",
    "epochs", "optimizer", "checkpoint_interval_min", "num_gpus", "gpu_preference", "gpus_owned", "compared_gpus",
    "rendering_cad", "ecc_required", "deployment", "cloud_excluded", "workstations", "budget_eur",
    "budget_per_workstation", "budget_eur_per_workstation",
    "budget_eur_per_month", "budget_usd", "budget_usd_per_month",
    "power_limit_w", "rack_units", "server_url",
)

# Per-GPU memory terms of EstimateResult.per_gpu (`<term>_bytes`), in stacking order.
MEMORY_TERMS: tuple[str, ...] = ("weights", "kv_cache", "activations", "gradients", "optimizer", "runtime")

# Host requirement names (tools.system_sizing.Requirement.name), in display order.
SYSTEM_ORDER: tuple[str, ...] = (
    "host_ram", "nvme_capacity", "nvme_write_bandwidth", "pcie_lanes", "cpu_class", "psu", "cooling", "ecc",
    "graphics", "licensing",
)
# Units those requirements come in (besides none).
HOST_UNITS: tuple[str, ...] = ("GB", "TB", "GB/s", "W", "lanes")

# Enumerated answer values that read better translated (unknown values are shown as they are).
KNOWN_VALUES: tuple[str, ...] = (
    "online_serving", "batch_inference", "finetune_full", "finetune_lora", "finetune_qlora", "pretraining",
    "vision", "workstation", "server", "cloud", "training", "inference", "adamw", "adamw8bit", "adamw_8bit", "sgd",
    "sgd_momentum", "adafactor",
)

# Roofline phases and limiting resources the estimate names (`perf.roofline[].phase`, `perf.bound`).
PHASES: tuple[str, ...] = ("prefill", "decode")
BOUNDS: tuple[str, ...] = ("memory", "compute", "communication", "overhead")
