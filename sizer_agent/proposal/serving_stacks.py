"""The serving stack a TPU or Trainium plan assumes, and how its acceptance test runs there.

A plan on these chips rests on vLLM's own build for them, not on CUDA vLLM (catalogue `engines`), and the
acceptance commands must run on that build. `sizer-agent bench launch` starts `python -m
vllm.entrypoints.openai.api_server` in the interpreter given by `--vllm-python` (tools/bench/vllm_launcher.py),
so an environment with that build is all it needs; what differs is how the build counts devices, which
flags it honours, and what NVML (the benchmark's memory probe) cannot see. Facts, each with its source
(read 2026-12-01):

Google Cloud TPU, vLLM TPU (`vllm-tpu` on PyPI, the tpu-inference backend):
- install `uv pip install vllm-tpu` (or pip), Python 3.11 or newer, on a TPU VM
  (https://docs.vllm.ai/projects/tpu/en/latest/getting_started/quickstart/);
- `--tensor-parallel-size` counts JAX devices: one per chip on v5e, v5p, v6e; Ironwood (v7) shows two cores
  per chip (github:vllm-project/tpu-inference tpu_inference/worker/tpu_worker.py, PPConfig: "2-core-per-chip
  (v7) or 1-core-per-chip (v6)");
- `--gpu-memory-utilization` is the share of HBM it reserves: KV pool = HBM limit x utilization - HBM used
  (same file, determine_available_memory); `--data-parallel-size` runs replicas on disjoint chips
  (_setup_dp_chip_isolation);
- the first start compiles XLA graphs for the token shapes (minutes);
- HBM use is read with `tpu-info` (github:AI-Hypercomputer/cloud-accelerator-diagnostics, tpu_info/README.md).

AWS Trainium, vLLM Neuron (the vllm-neuron plugin on NxD Inference, Beta, Neuron SDK 2.31 or later):
- install from github.com/vllm-project/vllm-neuron with `pip install
  --extra-index-url=https://pip.repos.neuron.amazonaws.com -e .`, inside the Neuron DLAMI's environment that
  holds the Neuron compiler and torch-neuronx (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/
  vllm-neuron/docs/getting-started/setup-guide.html);
- `--tensor-parallel-size` counts logical NeuronCores: a Trainium2 chip has eight physical NeuronCores, paired
  by the default LNC=2 into four logical ones, 64 per trn2.48xlarge (https://awsdocs-neuron.readthedocs-hosted.
  com/en/latest/training/best-practices.html, modified 2026-10-16); Trainium3 also has eight cores per chip
  with the same LNC scheme (.../about-neuron/arch/neuron-hardware/trainium3.rst), LNC=2 assumed;
- `--gpu-memory-utilization` does not apply: the KV cache is what the Neuron runtime reports free, or
  max-num-seqs blocks of max-model-len (github:vllm-project/vllm-neuron vllm_neuron/worker/neuron_worker.py,
  determine_available_memory);
- the model is compiled for `--max-num-seqs` sequences (default 32, vllm_neuron/platform.py); compilation can
  exceed the default 600 s, so the quickstart sets VLLM_NEURON_COMPILATION_TIMEOUT=1200
  (.../vllm-neuron/docs/getting-started/quickstart-online-serving.html);
- a server's cores are chosen with NEURON_RT_VISIBLE_CORES (platform.py, device_control_env_var); no
  data-parallel mode of the plugin is documented, so each replica is its own server;
- device memory is read with `neuron-top` (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/tools/
  neuron-sys-tools/neuron-top-user-guide.html).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.errors import InputError


class ServingStack(BaseModel):
    """How the acceptance test of one chip family runs on its own vLLM build."""

    stack: Literal["xla", "neuron"]
    engine: str = Field(description="the build the plan's numbers assume, as its documentation names it")
    install: str = Field(description="shell lines that prepare the environment with that build")
    vllm_python: str = Field(description="the interpreter of that environment (bench launch --vllm-python)")
    devices_per_chip: int = Field(ge=1, description="units of --tensor-parallel-size per chip")
    memory_utilization: bool = Field(description="--gpu-memory-utilization applies (share of HBM reserved)")
    compiled_batch: bool = Field(description="the graph is compiled for --max-num-seqs sequences")
    data_parallel: bool = Field(description="--data-parallel-size runs the replicas in one server")
    env: list[str] = Field(default_factory=list, description="NAME=value set before the launch")
    cores_variable: str | None = Field(None, description="environment variable choosing a server's cores")
    memory_tool: str = Field(description="reads device memory where NVML sees nothing")


VLLM_TPU = ServingStack(
    stack="xla", engine="vLLM TPU (vllm-tpu, tpu-inference)",
    install="python3.12 -m venv ~/vllm-tpu && ~/vllm-tpu/bin/pip install vllm-tpu",
    vllm_python="~/vllm-tpu/bin/python", devices_per_chip=1, memory_utilization=True, compiled_batch=False,
    data_parallel=True, memory_tool="tpu-info",
)
VLLM_NEURON = ServingStack(
    stack="neuron", engine="vLLM Neuron (vllm-neuron plugin, NxD Inference)",
    install=("git clone https://github.com/vllm-project/vllm-neuron.git\n"
             "pip install --extra-index-url=https://pip.repos.neuron.amazonaws.com -e vllm-neuron"),
    vllm_python='"$VIRTUAL_ENV/bin/python"', devices_per_chip=4, memory_utilization=False, compiled_batch=True,
    data_parallel=False, env=["VLLM_NEURON_COMPILATION_TIMEOUT=1200"], cores_variable="NEURON_RT_VISIBLE_CORES",
    memory_tool="neuron-top",
)
# Ironwood exposes two TensorCores per chip as JAX devices (tpu_worker.py, module docstring)
DEVICES_PER_CHIP = {"tpu-7x": 2}


def serving_stack(gpu_id: str) -> ServingStack | None:
    """The stack of a catalogue chip that is not served by CUDA/ROCm vLLM; None for GPUs (and unknown ids)."""
    try:
        gpu = load_catalog().gpu(gpu_id)
    except InputError:
        return None  # a chip from a vendor's own catalogue file: sized as a GPU, tested as one
    base = {"xla": VLLM_TPU, "neuron": VLLM_NEURON}.get(gpu.software_stack)
    if base is None or gpu_id not in DEVICES_PER_CHIP:
        return base
    return base.model_copy(update={"devices_per_chip": DEVICES_PER_CHIP[gpu_id]})
