"""Google TPU and AWS Trainium (issue #13): catalogue rows with sources, the co-design penalty of a model's
shapes against the chip's matrix unit (seed 003, gpt-oss-120B against a 256-wide MXU), the recommender's
scope (rented only, own engines: never offered to a CUDA/ROCm team silently), and per-chip comparison."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sizer_agent.i18n import render
from sizer_agent.tools.catalog import load_catalog
from sizer_agent.tools.compare_chips import chip_row
from sizer_agent.tools.estimate import EstimateRequest, estimate
from sizer_agent.tools.model_loader import load_model
from sizer_agent.tools.perf.codesign import codesign
from sizer_agent.tools.perf.estimate import serving_setup
from sizer_agent.tools.perf.serving import step_cost
from sizer_agent.tools.perf.shape import ModelShape
from sizer_agent.tools.perf.training import TrainingSetup, estimate_training
from sizer_agent.tools.recommend import RecommendRequest, recommend

ROOT = Path(__file__).resolve().parents[2]
GPT_OSS = load_model("gpt-oss-120b")
GEMMA_2_9B = load_model("gemma-2-9b")  # head_dim 256 (config.json)
CATALOG = load_catalog()


def test_tpu_and_trainium_rows_carry_published_figures_and_sources() -> None:
    # Google Cloud TPU docs and AWS Neuron docs (catalogue [sources]): per-chip HBM, dense bf16, pod size, tile
    expected = {  # id: (memory GB, bf16 TFLOP/s, pod/UltraServer chips, matrix tile, stack)
        "tpu-v5e": (16, 197, 256, 128, "xla"),
        "tpu-v5p": (95, 459, 8960, 128, "xla"),
        "tpu-v6e": (32, 918, 256, 256, "xla"),
        "tpu-7x": (192, 2307, 9216, 256, "xla"),
        "trn2": (96, 667, 64, 128, "neuron"),
        "trn3": (144, 671, 144, 128, "neuron"),
    }
    for gpu_id, (memory, bf16, pod, tile, stack) in expected.items():
        gpu = CATALOG.gpu(gpu_id)
        assert gpu.memory_gb.value == memory and gpu.peak_tflops["bf16"].value == bf16, gpu_id
        assert gpu.pod_size is not None and gpu.pod_size.value == pod, gpu_id
        assert gpu.matrix_tile is not None and gpu.matrix_tile.value == tile, gpu_id
        assert gpu.software_stack == stack and gpu.form_factor == "cloud-only", gpu_id
        assert gpu.engines is not None and gpu.engines.src, gpu_id  # engines are facts with a source
        for figure in (gpu.memory_gb, gpu.bandwidth_gbs, gpu.matrix_tile, gpu.pod_size, *gpu.peak_tflops.values()):
            assert all(CATALOG.sources[key] for key in figure.src), gpu_id
        assert gpu.tdp_w is None  # no vendor publishes one: never invented
    assert CATALOG.gpu("trn2").peak_tflops["fp8"].value == 1299  # Neuron docs: 1,299 FP8 TFLOPS dense
    assert CATALOG.gpu("h100-sxm").software_stack == "cuda" and CATALOG.gpu("mi300x").software_stack == "rocm"
    for offer_id in ("CLOUD-TPU-V5E", "CLOUD-TPU-V5P", "CLOUD-TPU-V6E", "CLOUD-TRN2"):
        offer = CATALOG.offer(offer_id)
        assert offer.kind == "cloud" and offer.price_date and offer.price_sources  # rented, dated, sourced


def test_gpt_oss_head_dim_64_fills_a_quarter_of_a_256_wide_mxu() -> None:
    # seed 003: head dimension 64 on Trillium/Ironwood MXUs built for 256 x 256 -> 64/256 = 25 %;
    # hidden 2,880 pads to 3,072 (12 x 256): 93.75 %
    fit = codesign(ModelShape.from_spec(GPT_OSS), CATALOG.gpu("tpu-v6e"))
    assert fit is not None
    dims = {d.name: d for d in fit.dimensions}
    assert dims["head_dim"].fill == pytest.approx(0.25) and dims["head_dim"].padded == 256
    assert dims["hidden_size"].fill == pytest.approx(2880 / 3072)
    assert fit.attention_fill == pytest.approx(0.25)
    assert fit.linear_fill == pytest.approx((2880 / 3072) ** 2)  # hidden x expert width, both 2,880
    text = render("en", fit.messages()[0]).replace("\xa0", " ")  # the catalogue keeps "25 %" on one line
    assert "head_dim 64 fills 25 %" in text and "256-wide" in text
    assert "25" in render("fr", fit.messages()[0])
    # vLLM on TPU stores each KV head in 128 lanes: a 64-wide head stores and reads twice its bytes
    assert fit.kv_alignment == 128 and fit.kv_fill == pytest.approx(0.5)
    assert any(m.id == "codesign.kv" for m in fit.messages())
    # the 128-wide MXU of v5e and Trainium's 128 x 128 Tensor Engine: half
    for gpu_id in ("tpu-v5e", "trn2"):
        half = codesign(ModelShape.from_spec(GPT_OSS), CATALOG.gpu(gpu_id))
        assert half is not None and half.attention_fill == pytest.approx(0.5)


def test_gemma_built_for_the_mxu_has_no_penalty_and_gpus_have_none() -> None:
    for gpu_id in ("tpu-v5e", "tpu-v6e", "tpu-7x", "trn2"):
        fit = codesign(ModelShape.from_spec(GEMMA_2_9B), CATALOG.gpu(gpu_id))
        assert fit is not None and not fit.penalised and fit.messages() == [], gpu_id
        assert fit.attention_fill == 1.0 and fit.linear_fill == 1.0 and fit.kv_fill == 1.0
    # Gemma 3 27B: head_dim 128 fills a 128-wide MXU, half of a 256-wide one (stated, not hidden)
    gemma3 = ModelShape.from_spec(load_model("gemma-3-27b"))
    v5e, v6e = codesign(gemma3, CATALOG.gpu("tpu-v5e")), codesign(gemma3, CATALOG.gpu("tpu-v6e"))
    assert v5e is not None and not v5e.penalised
    assert v6e is not None and [d.name for d in v6e.penalised] == ["head_dim"] and v6e.attention_fill == 0.5
    assert codesign(ModelShape.from_spec(GPT_OSS), CATALOG.gpu("h100-sxm")) is None


def test_the_penalty_slows_compute_bound_work_and_nothing_else() -> None:
    gpu = CATALOG.gpu("tpu-v6e")
    result = estimate(EstimateRequest(model="gpt-oss-120b", tensor_parallel_size=4, input_len=2048,
                                      output_len=128, concurrency=8, gpu_memory_gib=32), GPT_OSS)
    setup = serving_setup(result, gpu, GPT_OSS)
    assert (setup.attention_fill, setup.linear_fill) == (0.25, pytest.approx((2880 / 3072) ** 2))
    shaped = setup.model_copy(update={"attention_fill": 1.0, "linear_fill": 1.0})
    prefill, prefill_shaped = step_cost(setup, 0, 0, 8192, 2048), step_cost(shaped, 0, 0, 8192, 2048)
    ratio = prefill.compute_s / prefill_shaped.compute_s
    assert 1 / setup.linear_fill < ratio < 1 / setup.attention_fill  # between the two fills, by FLOP share
    assert prefill.memory_s == prefill_shaped.memory_s  # bytes do not change with the tile
    # the padded KV heads: twice the bytes per cached token, half the tokens in the same memory
    unpadded = serving_setup(result, CATALOG.gpu("tpu-v5p").model_copy(update={"kv_head_alignment": None}),
                             GPT_OSS)
    padded = serving_setup(result, CATALOG.gpu("tpu-v5p"), GPT_OSS)
    assert padded.kv_bytes_per_token == 2 * unpadded.kv_bytes_per_token
    assert padded.kv_capacity_tokens == pytest.approx(unpadded.kv_capacity_tokens / 2, abs=1)
    assert step_cost(padded, 64, 2100, 0, 2048).memory_s > step_cost(unpadded, 64, 2100, 0, 2048).memory_s
    # training: the projections' fill divides the achieved FLOP/s
    base = TrainingSetup(gpu=gpu, params_active=5_000_000_000, trainable_params=5_000_000_000,
                         tokens_per_step=1_000_000)
    slow = estimate_training(base.model_copy(update={"compute_fill": 0.5}))
    assert slow.compute_time_s == pytest.approx(2 * estimate_training(base).compute_time_s)


def _request(model: str, **kw: object) -> RecommendRequest:
    workload = EstimateRequest(model=model, input_len=1024, output_len=256, concurrency=16)
    return RecommendRequest(workload=workload, slo_ttft_ms=2000, slo_tpot_ms=100, search=False, **kw)  # type: ignore[arg-type]


def test_a_gpu_team_is_never_sent_to_a_tpu_or_trainium_silently() -> None:
    result = recommend(_request("gpt-oss-120b", units=["cloud"]), GPT_OSS)
    stacks = {CATALOG.gpu(o.gpu_id).software_stack for o in result.options}
    assert stacks <= {"cuda", "rocm"} and result.scope.stacks == ["cuda", "rocm"]


def test_asked_for_tpus_the_plan_names_engine_and_penalty() -> None:
    result = recommend(_request("gpt-oss-120b", stacks=["xla"]), GPT_OSS)
    assert {o.gpu_id for o in result.options} <= {"tpu-v5e", "tpu-v5p", "tpu-v6e"}  # the TPUs rented
    assert result.plan is not None and result.plan.fits
    notes = {n.id for n in result.plan.notes}
    assert {"note.platform_engine", "codesign.dimension", "codesign.applied"} <= notes
    assert result.plan.memory is not None and result.plan.memory.engine == "generic"  # not vLLM CUDA's profile
    assert all(k.code != "engine_vllm" for k in result.plan.knobs)
    # a GPU preference for a TPU brings its stack into scope; a server buyer still never rents one
    preferred = recommend(_request("gemma-2-9b", gpu_preference="tpu-v6e"), GEMMA_2_9B)
    assert "xla" in preferred.scope.stacks and any(o.gpu_id == "tpu-v6e" for o in preferred.options)
    gemma_v6e = next(o for o in preferred.options if o.gpu_id == "tpu-v6e")
    assert not any(n.id.startswith("codesign.") for n in gemma_v6e.notes)  # Gemma fills the MXU
    servers = recommend(_request("gemma-2-9b", stacks=["cuda", "xla", "neuron"], units=["server", "node"]),
                        GEMMA_2_9B)
    assert servers.plan is None or servers.plan.purchase.unit in ("server", "node")


def test_per_chip_normalisation_is_consistent() -> None:
    result = recommend(_request("gemma-2-9b", stacks=["cuda", "xla"],
                                offer_ids=["CLOUD-H100-SXM", "CLOUD-TPU-V6E"]), GEMMA_2_9B)
    shape = ModelShape.from_spec(GEMMA_2_9B)
    for plan in (p for p in result.options if p.fits):
        row = chip_row(plan, CATALOG, shape, result.model)
        assert row.tokens_per_s_per_chip == pytest.approx(row.tokens_per_s / row.chips)
        assert row.tokens_per_eur == pytest.approx(row.tokens_per_s_per_chip * 3600 / row.eur_per_chip_hour)
        if row.gpu_id == "h100-sxm":  # Lambda 4.29 USD per GPU-hour at 0.86 EUR/USD; TDP 700 W
            assert row.eur_per_chip_hour == pytest.approx(4.29 * 0.86)
            assert row.tokens_per_s_per_watt == pytest.approx(row.tokens_per_s_per_chip / 700)
        else:  # no TDP published for a TPU: no per-watt figure rather than an invented one
            assert row.tokens_per_s_per_watt is None and row.eur_per_chip_hour == pytest.approx(2.70 * 0.86)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sizer_agent", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)


def test_compare_chips_command() -> None:
    out = _cli("compare-chips", "--models", "gpt-oss-120b,gemma-2-9b", "--offers", "CLOUD-TPU-V6E,CLOUD-MI300X",
               "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    rows = {(c["model"], r["gpu_id"]): r for c in data["comparisons"] for r in c["rows"]}
    assert rows[("openai/gpt-oss-120b", "tpu-v6e")]["attention_fill"] == 0.25
    assert rows[("google/gemma-2-9b-it", "tpu-v6e")]["attention_fill"] == 1.0
    assert rows[("openai/gpt-oss-120b", "mi300x")]["attention_fill"] is None
    text = _cli("compare-chips", "--models", "gpt-oss-120b", "--offers", "CLOUD-TPU-V6E")
    assert text.returncode == 0 and "25% / 88%" in text.stdout and "Mtok/EUR" in text.stdout
    bad = _cli("compare-chips", "--stacks", "cuda,opencl")
    assert bad.returncode == 2 and "--stacks" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_a_proposal_on_a_tpu_states_the_penalty_and_the_engine() -> None:
    from sizer_agent.proposal import render_proposal
    from tests.support.sessions import sized_session

    unknown = "I don't know"
    answers = {"customer": "x", "use_case": "chatbot", "framework": "vLLM", "framework_version": unknown,
               "model": "gpt-oss-120b", "precision": unknown, "context_len": unknown, "growth_factor": unknown,
               "num_gpus": unknown, "ecc_required": "no", "input_len": "1024", "output_len": "256",
               "concurrency": "32", "ttft_ms": "2000", "tpot_ms": "100", "deployment": "cloud",
               "gpu_preference": "tpu-v6e", "budget_eur": unknown, "rendering_cad": "no", "power_limit_w": unknown}
    session, _ = sized_session(answers, lang="en")
    for lang, fills in (("en", "head_dim 64 fills 25 %"), ("fr", "head_dim 64 remplit 25 %")):
        text = render_proposal(session, "md", lang).replace("\xa0", " ").replace("head\\_dim", "head_dim")
        assert fills in text and "TPU v6e" in text
        assert "vLLM TPU" in text  # the engine it needs, named
        assert "25 % / 88 %" in text  # the per-chip table's fill column (attention / projections)


def test_trainium2_engine_refuses_mxfp4_and_is_compared_in_bf16() -> None:
    # vLLM Neuron: "quantization='mxfp4' is not supported on TRN2"; Trainium3 (NeuronCore-v4) has MX units
    refused = recommend(_request("gpt-oss-120b", offer_ids=["CLOUD-TRN2"]), GPT_OSS)
    assert refused.plan is None
    assert [r.id for r in refused.options[0].reasons] == ["reason.weight_format"]
    assert CATALOG.gpu("trn3").serves_weight_format("mxfp4") and CATALOG.gpu("h100-sxm").serves_weight_format("mxfp4")
    from sizer_agent.tools.compare_chips import CompareRequest, compare_chips

    result = compare_chips(CompareRequest(models=["gpt-oss-120b"], offer_ids=["CLOUD-TRN2", "CLOUD-H200"]))
    rows = {r.gpu_id: r for r in result.comparisons[0].rows}
    assert rows["trn2"].fits and rows["trn2"].weight_precision.startswith("bf")  # the format its engine runs
    assert rows["h200-sxm"].weight_precision == "mxfp4"  # the checkpoint's own where it runs


def test_estimate_on_a_tpu_names_the_penalty_and_the_engine() -> None:
    out = _cli("estimate", "--model", "gpt-oss-120b", "--gpu", "tpu-v6e", "--tensor-parallel-size", "4",
               "--engine", "vllm")
    assert out.returncode == 0, out.stderr
    text = out.stdout.replace("\xa0", " ")
    assert "head_dim 64 fills 25 % of its 256-wide matrix unit" in text
    assert "--engine vllm reproduces vLLM's CUDA start-up accounting" in text  # another engine runs there
    gpu = _cli("estimate", "--model", "gpt-oss-120b", "--gpu", "h100-sxm", "--tensor-parallel-size", "2")
    assert gpu.returncode == 0 and "matrix unit" not in gpu.stdout and "CUDA start-up" not in gpu.stdout


def test_a_jax_team_gets_tpus_compared_a_vllm_team_does_not() -> None:
    from sizer_agent.agent.planning import recommend_arguments
    from sizer_agent.agent.profile import WorkloadProfile

    fields = set(RecommendRequest.model_fields)
    jax = WorkloadProfile(use_case="online_serving", framework="jax", model="gemma-2-9b")
    assert recommend_arguments(jax, fields)["stacks"] == ["cuda", "rocm", "xla"]  # JAX runs on both
    assert "stacks" not in recommend_arguments(jax, fields, assumed={"framework"})  # a default is no choice
    vllm = WorkloadProfile(use_case="online_serving", framework="vllm", model="gemma-2-9b")
    assert "stacks" not in recommend_arguments(vllm, fields)  # CUDA/ROCm only, the default
