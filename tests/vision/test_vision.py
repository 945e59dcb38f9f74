"""Vision sizing: exact counts on the traced graph, the affine batch model, memory arithmetic, CLI and bench.

Real torch on CPU, tiny models and resolutions. Oracles: published YOLOv8 parameter counts, and the same
quantities measured on real CPU tensors in the test (saved-tensor hooks on a real training forward).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from sizer_agent.cli import main
from sizer_agent.tools.errors import InputError
from sizer_agent.tools.vision.estimate import VisionRequest, adam8bit_state_bytes, compose, estimate_vision
from sizer_agent.tools.vision.trace import TRACE_BATCHES, trace
from sizer_agent.tools.vision.yolo import YOLOV8_PUBLISHED_PARAMS

torch = pytest.importorskip("torch", reason="the vision extra is part of the dev extra: CI must have it")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIZER_AGENT_CACHE", str(tmp_path_factory.getbasetemp() / "vision-cache"))


def _real_saved_bytes(model_name: str, resolution: int, batch: int, dtype: torch.dtype | None) -> int:
    """What autograd keeps on real CPU tensors: the measurement the trace must reproduce."""
    from sizer_agent.tools.vision.models import build, resolve

    library, name = resolve(model_name)
    model = build(library, name, None, resolution)
    model.to_empty(device="cpu")
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0, 0.02)
        for n, b in model.named_buffers():
            b.fill_(1.0 if n.endswith("running_var") else 0.0) if b.is_floating_point() else b.zero_()
    model.train()
    excluded = {t.untyped_storage().data_ptr() for t in [*model.parameters(), *model.buffers()]}
    seen: dict[int, int] = {}

    def pack(t: torch.Tensor) -> torch.Tensor:
        s = t.untyped_storage()
        if s.data_ptr() not in excluded:
            seen.setdefault(s.data_ptr(), s.nbytes())
        return t

    x = torch.randn(batch, 3, resolution, resolution)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t), \
            torch.autocast("cpu", dtype=dtype or torch.bfloat16, enabled=dtype is not None):
        out = model(x)
    del out
    return sum(seen.values())


@pytest.mark.parametrize("size", ["n", "s"])
def test_yolov8_parameters_equal_the_published_counts(size: str) -> None:
    traced = trace(f"yolov8{size}", None, 64, "float32")
    assert traced.params_total == YOLOV8_PUBLISHED_PARAMS[size]
    assert traced.params_trainable == YOLOV8_PUBLISHED_PARAMS[size] - 16  # the DFL conv is frozen


@pytest.mark.parametrize(("model", "resolution", "dtype"), [
    ("resnet18", 64, None), ("resnet18", 64, torch.bfloat16), ("efficientnet_b0", 64, None),
    ("vit_tiny_patch16_224", 224, torch.bfloat16), ("yolov8n", 64, None),
])
def test_saved_activations_equal_a_real_cpu_measurement_at_a_batch_not_traced(
        model: str, resolution: int, dtype: torch.dtype | None) -> None:
    batch = 3  # not one of TRACE_BATCHES: checks the affine model too
    assert batch not in TRACE_BATCHES
    name = {None: "float32", torch.bfloat16: "bfloat16"}[dtype]
    traced = trace(model, None, resolution, name)  # type: ignore[arg-type]
    real = _real_saved_bytes(model, resolution, batch, dtype)
    assert traced.saved_bytes.at(batch) == pytest.approx(real, rel=0.01)


def test_forward_flops_equal_flop_counter_mode_on_real_tensors() -> None:
    import torchvision
    from torch.utils.flop_counter import FlopCounterMode
    model = torchvision.models.resnet18()
    with FlopCounterMode(display=False) as counter:
        model(torch.randn(2, 3, 64, 64))
    traced = trace("resnet18", None, 64, "float32")
    assert traced.forward_flops.at(2) == pytest.approx(counter.get_total_flops(), rel=1e-9)


def test_unknown_model_lists_close_names_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["estimate", "--task", "vision", "--model", "resnet5O", "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "resnet50" in err and "--model" in err


def test_estimate_json_keeps_the_language_model_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["estimate", "--task", "vision", "--model", "resnet18", "--resolution", "64", "--batch-size", "4",
                 "--mode", "training", "--dtype", "bfloat16", "--gpu", "h100-sxm", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["model"]["params_total"] == 11_689_512
    assert {"weights_bytes", "activations_bytes", "total_bytes"} <= set(data["per_gpu"])
    for field in ("forward_flops_per_image", "saved_activation_bytes", "inference_peak_activation_bytes"):
        assert data["vision"][field] > 0
    assert data["perf"]["training"]["images_per_s"] > 0
    assert "trace" not in data
    assert any(w["id"] == "vision.batchnorm_small_batch" for w in data["warnings"])


def test_yolov8x_1024_batch32_training_fits_no_16_or_32_gb_card() -> None:
    traced = trace("yolov8x", None, 64, "float32")  # structure only; memory at 1024 px from a 1024 trace below
    assert traced.batchnorm_layers > 0
    estimate = estimate_vision("yolov8x", resolution=1024, batch_size=32, mode="training", dtype="bfloat16",
                               gpu="rtx-5090")
    assert estimate.fits is False
    assert estimate.per_gpu.total_bytes > 32 * 2**30


def test_memory_arithmetic_optimizers_and_checkpointing() -> None:
    traced = trace("resnet18", None, 64, "float32")
    base = dict(model="resnet18", resolution=64, batch_size=16, mode="training")
    sgd = compose(VisionRequest(**base, optimizer="sgd"), traced)
    momentum = compose(VisionRequest(**base, optimizer="sgd_momentum"), traced)
    adamw = compose(VisionRequest(**base, optimizer="adamw"), traced)
    assert sgd.per_gpu.optimizer_bytes == 0
    assert momentum.per_gpu.optimizer_bytes == 4 * traced.params_trainable
    assert adamw.per_gpu.optimizer_bytes == 8 * traced.params_trainable
    assert adamw.per_gpu.gradients_bytes == 4 * traced.params_trainable
    ckpt = compose(VisionRequest(**base, checkpointing=True), traced)
    assert ckpt.per_gpu.activations_bytes < momentum.per_gpu.activations_bytes
    inference = compose(VisionRequest(**{**base, "mode": "inference"}, dtype="float32"), traced)
    assert inference.per_gpu.gradients_bytes == 0
    assert inference.per_gpu.activations_bytes == int(traced.inference_peak_bytes.at(16))
    two = compose(VisionRequest(**base, gpus=2), traced)
    assert two.per_gpu.runtime_bytes == momentum.per_gpu.runtime_bytes + momentum.per_gpu.gradients_bytes


def test_adam8bit_states_follow_bitsandbytes_layout() -> None:
    # 4096 values: two uint8 states + 16 fp32 absmax each; 100 values: two fp32 states.
    assert adam8bit_state_bytes([4096]) == 2 * (4096 + 4 * 16)
    assert adam8bit_state_bytes([100]) == 800


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["--resolution", "--batch-size", "--gpus", "--num-classes"]), min_size=1, max_size=3),
       st.text(alphabet="-0123456789abcx.k", min_size=1, max_size=6))
def test_bad_numbers_are_one_line_and_exit_2(flags: list[str], value: str) -> None:
    args = ["estimate", "--task", "vision", "--model", "resnet18"]
    for flag in flags:
        args += [flag, value]
    import argparse

    from sizer_agent.cli.estimate_args import _positive_int

    try:
        _positive_int(value)  # the CLI's own reading: "8192", "8k" (= 8192) are whole numbers
    except argparse.ArgumentTypeError:
        pass
    else:
        return  # a valid number: not this test's subject
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2


def test_published_rows_split_before_fit_and_test_errors_reported() -> None:
    rows = yaml.safe_load((ROOT / "tests/vision/published.yaml").read_text())
    ids = [r["id"] for r in rows["rows"]]
    assert len(ids) == len(set(ids))
    assert {r["split"] for r in rows["rows"]} == {"calibration", "test"}
    assert all(r["source"] in rows["sources"] for r in rows["rows"])
    result = json.loads((ROOT / "tools/vision/data/calibration.json").read_text())
    assert set(result["calibration"]["rows"]) == {r["id"] for r in rows["rows"] if r["split"] == "calibration"}
    assert set(result["test"]["rows"]) == {r["id"] for r in rows["rows"] if r["split"] == "test"}
    # The target, on rows the fit never saw (stated, not tuned: see docs/vision.md).
    assert result["test"]["images_per_s_median_abs_error"] <= 0.25


def test_bench_vision_runs_a_tiny_model_on_cpu(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "vision", "--model", "resnet18", "--resolution", "32", "--batch-size", "2", "--steps", "2",
                 "--warmup-steps", "1", "--device", "cpu", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["images_per_s"] > 0 and data["steps_timed"] == 2
    assert data["step_time_p50_ms"] > 0 and data["peak_memory_bytes"] > 0


def test_core_install_without_torch_says_how_to_add_vision(tmp_path: Path) -> None:
    """A fake `torch` that fails to import stands for the core install."""
    (tmp_path / "torch.py").write_text("raise ImportError('No module named torch')\n")
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); from sizer_agent.cli import main; "
            "sys.exit(main(['estimate', '--task', 'vision', '--model', 'resnet50']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={"SIZER_AGENT_CACHE": str(tmp_path / "empty"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert "pip install 'sizer-agent[vision]'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_input_error_for_a_resolution_the_architecture_refuses() -> None:
    with pytest.raises(InputError, match="--resolution"):
        estimate_vision("yolov8n", resolution=100, batch_size=2)


def test_real_time_inference_buys_enough_gpus_for_the_frame_rate() -> None:
    # 24 cameras at 15 fps = 360 images/s of YOLOv8x at 1280 px (about 1 TFLOP per image forward: 371 TFLOP/s
    # to sustain), far beyond one card: every fitting plan keeps up with the rate, the others say by how much
    from sizer_agent.tools.recommend import RecommendRequest, recommend

    request = VisionRequest(model="yolov8x", resolution=1280, batch_size=32, mode="inference", dtype="bfloat16")
    result = recommend(RecommendRequest(vision=request, vision_images_per_s=360))
    assert result.plan is not None and result.plan.vision is not None
    assert result.plan.vision.images_per_s >= 360 and result.plan.parallelism.num_gpus > 1
    fitting = [o for o in result.options if o.fits]
    assert fitting and all(o.vision is not None and o.vision.images_per_s >= 360 for o in fitting)
    slow = [o for o in result.options if any(r.id == "reason.vision_rate" for r in o.reasons)]
    assert all(o.vision is not None and o.vision.images_per_s < 360 for o in slow)
    # without a rate, the smallest configuration of each offer is the plan, as before
    alone = recommend(RecommendRequest(vision=request))
    assert alone.plan is not None and alone.plan.parallelism.num_gpus == 1


def test_a_batch_nobody_gave_is_fitted_to_each_card_before_anything_is_called_over_budget() -> None:
    # YOLOv8x training at 1280 px, budget 40 k EUR, batch not given (the 32 default): 32 images need about
    # 80 GiB (more than any workstation card), so every workstation was "over budget by changing the load".
    # Ultralytics users let AutoBatch pick the batch that fits (batch=-1): the RTX 5090 workstation (22,670 EUR)
    # trains at a smaller batch within the budget, said as an assumption, not a change. Stated by the customer,
    # the same 32 stays the load, and a smaller batch is a change to agree on.
    from sizer_agent.tools.recommend import RecommendRequest, recommend

    request = VisionRequest(model="yolov8x", resolution=1280, batch_size=32, mode="training", dtype="bfloat16")
    assumed = recommend(RecommendRequest(vision=request, budget_eur=40_000, units=["workstation"],
                                         batch_assumed=True))
    plan = assumed.plan
    assert assumed.status == "recommended" and plan is not None and plan.vision is not None
    assert plan.vision.request.batch_size < 32 and (plan.purchase.price_eur or 0) <= 40_000
    assert [k.code for k in plan.knobs if k.code.startswith("vision_batch")] == ["vision_batch_fit"]
    assert not assumed.changes
    stated = recommend(RecommendRequest(vision=request, budget_eur=40_000, units=["workstation"]))
    assert stated.status != "recommended"
    assert stated.changes and stated.changes[0].knobs[-1].code == "vision_batch"
    # "300 époques" on 200k images: the answer gives the whole training, 300 times one epoch
    from sizer_agent import advice

    counted = request.model_copy(update={"dataset_images": 200_000})
    long_run = recommend(RecommendRequest(vision=counted, budget_eur=40_000, units=["workstation"],
                                          batch_assumed=True, epochs=300))
    assert long_run.plan is not None and long_run.plan.vision is not None
    hours = (long_run.plan.vision.epoch_hours or 0.0) * 300
    assert hours > 0 and long_run.plan.vision.epochs == 300
    assert any("The 300 epochs asked for: about" in line for line in advice.summary(long_run, "en"))


def test_cards_the_customer_owns_are_checked_for_a_vision_training_first() -> None:
    # "On a déjà 4 RTX 6000 Ada. Est-ce que ça suffit ?" for ViT-B/16 on ImageNet-1k (1,281,167 images), 90
    # epochs: ViT-B/16 training takes 3 × 35.1 GFLOP an image (timm: 17.6 GMACs forward); four 48 GB Ada cards
    # hold 32 images each with room to spare, so the answer is those cards and the job's time on them — nothing
    # to buy — and the card asked for is no wish to honour at a price
    from sizer_agent import advice
    from sizer_agent.tools.recommend import RecommendRequest, recommend

    request = VisionRequest(model="vit_base_patch16_224", resolution=224, batch_size=32, mode="training",
                            dtype="bfloat16", dataset_images=1_281_167)
    result = recommend(RecommendRequest(vision=request, gpu_preference="rtx-6000-ada", planned_gpus=4,
                                        owned_gpus=True, epochs=90))
    owned = result.owned
    assert owned is not None and owned.fits and owned.gpu_id == "rtx-6000-ada" and owned.parallelism.num_gpus == 4
    assert owned.vision is not None and owned.vision.epochs == 90 and owned.vision.epoch_hours
    assert result.preference is None
    first = advice.summary(result, "fr")[0]
    assert first.startswith("Vos 4 × NVIDIA RTX 6000 Ada Generation déjà en place tiennent la charge")
    assert "les 90 époques demandées en environ" in first
    english = advice.summary(result, "en")[0]
    assert "the 90 epochs asked for in about" in english and "nothing needs buying" in english
    # not owned: nothing is checked on the side
    assert recommend(RecommendRequest(vision=request, gpu_preference="rtx-6000-ada", planned_gpus=4)).owned is None


def test_a_detector_training_with_a_deadline_is_sized_to_end_in_time_and_owned_cards_get_the_fitted_batch() -> None:
    # "YOLO-style detector on 200,000 images at 1280 px, about 300 epochs, finished within two weeks. We already
    # own a workstation with 2x RTX 4090." YOLOv8m at 1280 px is 4 x 78.9 GFLOPs forward (Ultralytics, 640 px),
    # about 0.95 TFLOP an image trained (forward + twice that backward): 6e7 images are 5.7e19 FLOP, 47 TFLOP/s
    # sustained for 336 h — more than one workstation card delivers. No batch was given: at the default 32, 1280 px
    # activations outgrow a 24 GB card, so the batch is fitted to each card (AutoBatch), the customer's own cards
    # included, before anyone is told they do not hold the job
    from sizer_agent.tools.recommend import RecommendRequest, recommend

    request = VisionRequest(model="yolov8m", resolution=1280, batch_size=32, mode="training", dtype="bfloat16",
                            dataset_images=200_000)
    result = recommend(RecommendRequest(vision=request, epochs=300, deadline_hours=336, batch_assumed=True,
                                        units=["workstation"]))
    plan = result.plan
    assert plan is not None and plan.vision is not None and plan.vision.epoch_hours is not None
    assert plan.vision.epoch_hours * 300 <= 336
    late = [o for o in result.options if any(r.id == "reason.deadline" for r in o.reasons)]
    assert late and all(o.offer_id != plan.offer_id or o.parallelism.num_gpus != plan.parallelism.num_gpus
                        for o in late)
    owned = recommend(RecommendRequest(vision=request, epochs=300, deadline_hours=336, batch_assumed=True,
                                       gpu_preference="rtx-4090", planned_gpus=2, owned_gpus=True)).owned
    assert owned is not None and owned.vision is not None and owned.vision.request.batch_size < 32
    assert [k.code for k in owned.knobs] == ["vision_batch_fit"]
    assert not any(r.id == "reason.vision_memory" for r in owned.reasons)


def test_the_closest_configuration_to_a_power_limit_is_the_one_least_over_it() -> None:
    # YOLOv8m at 1280 px for 16 cameras at 30 fps (480 images/s), in rack servers with 1 kW: every server with
    # GPUs draws more (two 350 W L40S and a host already pass it). The closest named is the one least over the
    # limit — a 2-card server at about 1.4 kW — not an 8-GPU node at 6 kW whose memory happens to be emptiest
    from sizer_agent.tools.recommend import RecommendRequest, recommend

    request = VisionRequest(model="yolov8m", resolution=1280, batch_size=32, mode="inference", dtype="bfloat16")
    result = recommend(RecommendRequest(vision=request, vision_images_per_s=480, units=["server", "node", "rack"],
                                        power_limit_w=1000))
    assert result.plan is None and result.headline.params.get("why")
    over = [float(r.params["need"]) for o in result.options if o.purchase.unit in ("server", "node", "rack")
            for r in o.reasons if r.id == "reason.power"]
    said = result.headline.params["why"]
    assert said.params["need"] == min(over) and float(said.params["need"]) < 2000


def test_a_vision_desk_that_also_renders_keeps_the_rendering_software_s_vram() -> None:
    # YOLOv8m at 640 px, 24 images a step: ~16 GiB, which the 24 GB RTX PRO 4000 holds alone (21.5 GiB usable)
    # but not beside the 8 GB (7.5 GiB) the rendering software keeps (14 GiB left); 16 images (~11 GiB) fit beside it
    from sizer_agent.tools.plan import Plan
    from sizer_agent.tools.recommend import RecommendRequest, recommend

    def plan(batch: int, graphics: bool) -> Plan:
        request = VisionRequest(model="yolov8m", resolution=640, mode="training", dataset_images=50_000,
                                batch_size=batch)
        result = recommend(RecommendRequest(vision=request, units=["workstation"], needs_graphics=graphics,
                                            offer_ids=["ACD-006-PRO4000"]))
        return result.plan or result.options[0]

    assert plan(24, graphics=False).fits
    blocked = plan(24, graphics=True)
    assert not blocked.fits and [r.id for r in blocked.reasons][:1] == ["reason.graphics_memory"]
    beside = plan(16, graphics=True)
    assert beside.fits and "note.graphics_reserve" in [n.id for n in beside.notes]


def test_a_weekly_detector_training_with_no_epochs_given_says_what_the_usual_count_takes() -> None:
    # "réentraîné chaque semaine" on 500,000 images at 2,048 px, epochs not given: one epoch is counted, and a
    # buyer reading "11.9 h a run" would think a weekly retrain is easy. Ultralytics trains 100 epochs by default
    # (docs.ultralytics.com/modes/train): the plan says what 100 take, and how many fit in the 168 h of a week.
    from sizer_agent import advice
    from sizer_agent.tools.recommend import RecommendRequest, recommend

    request = VisionRequest(model="yolov8x", resolution=2048, batch_size=32, mode="training", dtype="bfloat16",
                            dataset_images=500_000)
    result = recommend(RecommendRequest(vision=request, units=["workstation"], batch_assumed=True,
                                        epochs_assumed=True, job_recurring=True, job_runs_per_year=52))
    plan = result.plan
    assert plan is not None and plan.vision is not None and plan.vision.epoch_hours
    said = [k for k in plan.knobs if k.code == "vision_epochs"]
    assert len(said) == 1 and said[0].text.id == "knob.vision_epochs_window"
    params = said[0].text.params
    assert params["usual"] == 100 and params["window"] == 168.0
    assert params["fit"] == int(168 // plan.vision.epoch_hours)
    assert params["total"] == pytest.approx(100 * plan.vision.epoch_hours)
    assert any("Ultralytics trains 100 by default" in line for line in advice.summary(result, "en"))
    # epochs given, nothing to say
    given_ = recommend(RecommendRequest(vision=request, units=["workstation"], batch_assumed=True, epochs=30))
    assert given_.plan is not None and not any(k.code == "vision_epochs" for k in given_.plan.knobs)
