#!/usr/bin/env bash
# Every GPU path of `sizer-agent bench` in one command on a GPU host, one JSON report (about 10 minutes):
# probe, micro (GEMM per precision, HBM read/write/copy, H2D/D2H), collectives (2+ GPUs), a short sustained
# GEMM run with NVML, LoRA training in one process and through torchrun (FSDP2), and a vLLM launch.
# It prints measured/spec for every row of seed 003's microbenchmark table and exits 1 if a step failed.
#   benchmarks/gpu_check.sh                          # report in bench-results/gpu-check-<time>.json
#   benchmarks/gpu_check.sh --skip vllm --out r.json # any `sizer-agent bench all` option
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="${PWD}${PYTHONPATH:+:$PYTHONPATH}"
exec timeout --signal=INT 900 python -m sizer_agent bench all "$@"
