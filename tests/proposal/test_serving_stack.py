"""A proposal whose plan is a TPU or a Trainium chip names the vLLM build its numbers assume and gives
acceptance commands that run on it (sizer_agent/proposal/serving_stacks.py, sources there):

- vLLM TPU (`pip install vllm-tpu`): --tensor-parallel-size counts one JAX device per v6e chip, and
  --gpu-memory-utilization is its share of HBM;
- vLLM Neuron (the vllm-neuron plugin): --tensor-parallel-size counts logical NeuronCores, four per Trainium2
  chip at LNC=2; --gpu-memory-utilization does not apply; the graph is compiled for --max-num-seqs; no
  data-parallel mode, so one replica runs on its own cores at its share of the load.
GPU proposals are unchanged (tests/proposal/test_golden.py holds them byte for byte).
"""

from __future__ import annotations

import math
import re
import shlex
from functools import cache
from typing import Any

import pytest

from sizer_agent.proposal import render_proposal
from sizer_agent.proposal.context import build_context
from tests.support.sessions import sized_session

DONT_KNOW = {"fr": "je ne sais pas", "en": "I don't know"}


def _answers(model: str, chip: str, lang: str) -> dict[str, Any]:
    unknown = DONT_KNOW[lang]
    return {
        "lang": lang, "title": f"{chip} serving", "customer": "Acme", "use_case": "online_serving",
        "model": model, "precision": unknown, "input_len": 2048, "output_len": 512, "context_len": unknown,
        "concurrency": 32, "growth_factor": unknown, "ttft_ms": "1000 ms", "tpot_ms": "50 ms",
        "framework": unknown, "framework_version": unknown, "num_gpus": unknown, "ecc_required": unknown,
        "deployment": "cloud", "budget_eur": unknown, "gpu_preference": chip,
    }


@cache
def _session(model: str, chip: str) -> dict[str, Any]:
    return sized_session(_answers(model, chip, "en"))[0]


def _block_after(text: str, marker: str) -> str:
    """The shell block of the command whose paragraph starts with `marker` ([1], [2])."""
    found = re.search("^" + re.escape(marker) + r"[^\n]*\n\n```sh\n(.*?)\n```", text, re.S | re.M)
    assert found, f"no command {marker}"
    return found.group(1)


def test_tpu_plan_launches_vllm_tpu_with_its_own_device_count() -> None:
    session = _session("gpt-oss-20b", "tpu-v6e")
    plan = build_context(session).result.plan
    assert plan is not None and plan.gpu_id == "tpu-v6e" and plan.serving is not None
    p = plan.parallelism
    en, fr = render_proposal(session, "md", "en"), render_proposal(session, "md", "fr")
    assert "This plan assumes vLLM TPU" in en and "not CUDA vLLM" in en and "tpu-info" in en
    assert "Ce plan suppose vLLM TPU" in fr and "et non vLLM pour CUDA" in fr
    for text in (en, fr):
        assert "pip install vllm-tpu" in text
        launch = _block_after(text, "\\[1\\]")
        assert launch.startswith("sizer-agent bench launch --vllm-python ~/vllm-tpu/bin/python ")
        assert f"--tensor-parallel-size {p.tensor_parallel} " in launch  # one JAX device per v6e chip
        assert "--gpu-memory-utilization 0.9" in launch  # vLLM TPU reserves that share of HBM
        assert f"--concurrency {plan.serving.concurrency} " in launch
        serve = _block_after(text, "\\[2\\]")
        assert serve.startswith("sizer-agent bench serve --base-url http://SERVER:8000 ")
    html = render_proposal(session, "html", "en")
    assert "~/vllm-tpu/bin/python" in html and "This plan assumes vLLM TPU" in html


def test_trainium_plan_counts_neuron_cores_and_runs_one_replica() -> None:
    session = _session("llama-3.1-70b", "trn2")
    plan = build_context(session).result.plan
    assert plan is not None and plan.gpu_id == "trn2" and plan.serving is not None
    p = plan.parallelism
    cores = 4 * p.tensor_parallel * p.pipeline_parallel  # four logical NeuronCores per Trainium2 chip (LNC=2)
    per_replica = math.ceil(plan.serving.concurrency / p.data_parallel)
    en, fr = render_proposal(session, "md", "en"), render_proposal(session, "md", "fr")
    assert "This plan assumes vLLM Neuron" in en and "logical NeuronCores" in en and "neuron-top" in en
    assert "Ce plan suppose vLLM Neuron" in fr and "NeuronCores logiques" in fr
    for text in (en, fr):
        assert "pip install --extra-index-url=https://pip.repos.neuron.amazonaws.com -e vllm-neuron" in text
        launch = _block_after(text, "\\[1\\]")
        assert "sizer-agent bench launch --vllm-python \"$VIRTUAL_ENV/bin/python\"" in launch
        assert f"--tensor-parallel-size {4 * p.tensor_parallel} " in launch
        assert "--gpu-memory-utilization" not in launch  # vLLM Neuron sizes its KV cache without it
        assert f"--vllm-arg=--max-num-seqs={per_replica}" in launch
        assert "export VLLM_NEURON_COMPILATION_TIMEOUT=1200" in text  # compilation exceeds the 600 s default
        if p.data_parallel > 1:  # one replica on its own cores, at its share of the load
            assert f"export NEURON_RT_VISIBLE_CORES=0-{cores - 1}\n" in text
            assert f"--concurrency {per_replica} " in launch and "--data-parallel-size" not in launch
        serve = _block_after(text, "\\[2\\]")
        assert f"--concurrency {plan.serving.concurrency} " in serve  # the whole configuration
    if p.data_parallel > 1:
        assert f"each of the {p.data_parallel} replicas is its own server" in en
        assert f"chacune des {p.data_parallel} répliques" in fr


@pytest.mark.parametrize(("model", "chip"), [("gpt-oss-20b", "tpu-v6e"), ("llama-3.1-70b", "trn2")])
def test_every_command_parses_with_the_cli_parser(model: str, chip: str) -> None:
    from sizer_agent.cli import build_parser

    parser, _ = build_parser()
    commands = build_context(_session(model, chip)).commands
    assert [c.kind for c in commands] == ["launch", "serve"]
    for command in commands:
        words = shlex.split(command.text)
        assert words[0] == "sizer-agent"
        parser.parse_args(words[1:])  # exits (SystemExit) on a flag the CLI does not know


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_gpu_plan_has_no_stack_sentence(session: dict[str, Any], lang: str) -> None:
    context = build_context(session)
    assert context.stack is None
    text = render_proposal(session, "md", lang)
    assert "--vllm-python" not in text and "vllm-tpu" not in text and "NeuronCore" not in text


@pytest.mark.parametrize(("model", "chip"), [("gpt-oss-20b", "tpu-v6e"), ("llama-3.1-70b", "trn2")])
def test_a_chip_plan_is_described_in_chips_and_the_gpu_offers_beside_it_in_gpus(model: str, chip: str) -> None:
    """A TPU or a Trainium is a chip with HBM, not a GPU card: the sentences about the plan say so, in both
    languages, while a GPU offer listed in the same document keeps its own words."""
    session = _session(model, chip)
    plan = build_context(session).result.plan
    assert plan is not None and plan.gpu_id == chip
    n = plan.parallelism.num_gpus
    en, fr = render_proposal(session, "md", "en"), render_proposal(session, "md", "fr")
    chips_en, chips_fr = ("chip" if n == 1 else "chips"), ("puce" if n == 1 else "puces")
    assert f"Split: {n} {chips_en}: tensor parallel" in en and f"Découpage : {n} {chips_fr} : parallélisme" in fr
    assert "Memory per chip: " in en and "Mémoire par puce : " in fr
    assert "| Term | Per chip | Share |" in en and "| Terme | Par puce | Part |" in fr
    assert "## 8. Multi-chip strategy and caveats" in en and "## 8. Stratégie multi-puces" in fr
    assert "HBM does not add up across chips" in en and "La HBM ne s’additionne pas entre puces" in fr
    assert "Peak memory per chip" in en and "Pic mémoire par puce" in fr
    for text in (en, fr):
        assert "CUDA context" not in text and "contexte CUDA" not in text  # a TPU/Trainium has no CUDA runtime
        assert "chip(s)" not in text and "puce(s)" not in text
    # the verdict list names every offer in its own accelerator's words
    gpu_lines = [line for line in en.splitlines() if line.startswith("- CLOUD-H100")]
    chip_lines = [line for line in en.splitlines() if line.startswith(("- CLOUD-TPU", "- CLOUD-TRN"))]
    assert gpu_lines and chip_lines
    assert all(" chip" not in line and "GPU" in line for line in gpu_lines if "serves the load" in line)
    assert all("GPU" not in line.split(": ", 1)[1] for line in chip_lines)


def test_a_gpu_plan_keeps_gpu_words() -> None:
    session = sized_session(_answers("llama-3.1-8b", "h100-sxm", "en"))[0]
    en = render_proposal(session, "md", "en")
    assert "Memory per GPU: " in en and "## 8. Multi-GPU strategy and caveats" in en and "Memory per chip" not in en


def test_the_first_estimate_and_the_plan_state_the_same_memory_for_a_named_chip() -> None:
    """The chat's first estimate names a TPU the customer asked for (its KV padding); the plan sized on that
    TPU must then say the same memory per chip, not a second figure from another prefill chunk."""
    session = _session("gpt-oss-20b", "tpu-v6e")
    calls = {c["tool"]: c for c in session["tool_calls"]}
    first = calls["estimate_memory"]["result"]
    plan = build_context(session).result.plan
    assert plan is not None and plan.memory is not None and plan.parallelism.num_gpus == 1
    assert first["request"]["gpu"] == "tpu-v6e"
    assert first["per_gpu"]["activations_bytes"] == plan.memory.activations_bytes
    assert first["per_gpu"]["total_bytes"] == plan.memory.total_bytes


def test_a_rented_chip_without_a_published_tdp_states_no_tokens_per_kw() -> None:
    """Google and AWS publish no TDP for a TPU v6e or a Trainium2 (the power is in the hourly price): the
    costs table names the host's power as such and states no tokens per kW, which would count the host alone."""
    session = _session("gpt-oss-20b", "tpu-v6e")
    plan = build_context(session).result.plan
    assert plan is not None and plan.costs.accelerator_power_published is False
    assert plan.costs.tokens_per_s_per_kw is None
    en, fr = render_proposal(session, "md", "en"), render_proposal(session, "md", "fr")
    assert "| Power of the host at full load (the chip's own power is not published" in en
    assert "| Puissance de l'hôte à pleine charge" in fr
    assert "Tokens/s per kW" not in en and "GPUs at TDP" not in en
