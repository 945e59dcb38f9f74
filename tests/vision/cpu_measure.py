#!/usr/bin/env python
"""Ground-truth memory / FLOPs measurements for vision models, on CPU, with real tensors.

Usage (in a venv of its own with torch, torchvision, timm and ultralytics):
    python measure.py                 # run every case (resumes from results.jsonl), write measurements.yaml
    python measure.py --fresh         # ignore the cache and re-measure everything
    python measure.py --only resnet18 # only cases whose id contains this substring (repeatable)
    python measure.py --case ID       # (internal) measure one case in this process, print JSON

Each case (model, resolution, batch) runs in its own subprocess (memory isolation, a crash or an
out-of-memory error only loses that case).  Each case yields two rows: float32 and
bfloat16-autocast.  See METHOD.md for the exact definitions.
"""
import argparse
import gc
import json
import os
import platform
import resource
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, "results.jsonl")
OUT_YAML = os.path.join(HERE, "measurements.yaml")
SEED = 0
NUM_THREADS = 2
CASE_TIMEOUT_S = 3600
MEM_LIMIT_BYTES = 22 * 1024 ** 3  # RLIMIT_AS of a case subprocess (machine has 24 GiB)

# --------------------------------------------------------------------------------------------
# Model table.  constructor: a Python expression, evaluated with torchvision, timm, ultralytics
# imported; "{R}" is replaced by the resolution.  kind selects how inputs are fed.
# --------------------------------------------------------------------------------------------
CLS_RES = [(224, [1, 4]), (384, [1, 4])]
SEG_RES = [(224, [1, 4]), (512, [1, 2])]
DET_RES = [(224, [1, 4]), (512, [1, 2])]
YOLO_RES = [(224, [1, 4]), (640, [1, 2])]
YOLO_RES_1024 = YOLO_RES + [(1024, [1])]

MODELS = [
    # ---------------- torchvision classifiers ----------------
    dict(model="resnet18", library="torchvision", kind="cls", num_classes=1000,
         constructor="torchvision.models.resnet18(weights=None, num_classes=1000)", res=CLS_RES),
    dict(model="resnet50", library="torchvision", kind="cls", num_classes=1000,
         constructor="torchvision.models.resnet50(weights=None, num_classes=1000)", res=CLS_RES),
    dict(model="mobilenet_v3_large", library="torchvision", kind="cls", num_classes=1000,
         constructor="torchvision.models.mobilenet_v3_large(weights=None, num_classes=1000)", res=CLS_RES),
    dict(model="efficientnet_b0", library="torchvision", kind="cls", num_classes=1000,
         constructor="torchvision.models.efficientnet_b0(weights=None, num_classes=1000)", res=CLS_RES),
    dict(model="vit_b_16", library="torchvision", kind="cls", num_classes=1000,
         constructor="torchvision.models.vit_b_16(weights=None, num_classes=1000, image_size={R})", res=CLS_RES),
    dict(model="convnext_tiny", library="torchvision", kind="cls", num_classes=1000,
         constructor="torchvision.models.convnext_tiny(weights=None, num_classes=1000)", res=CLS_RES),
    # ---------------- torchvision segmentation ----------------
    dict(model="deeplabv3_resnet50", library="torchvision", kind="seg", num_classes=21,
         constructor="torchvision.models.segmentation.deeplabv3_resnet50(weights=None, weights_backbone=None, num_classes=21, aux_loss=False)",
         res=[(224, [1, 2, 4]), (512, [1, 2]), (1024, [2])]),
    dict(model="fcn_resnet50", library="torchvision", kind="seg", num_classes=21,
         constructor="torchvision.models.segmentation.fcn_resnet50(weights=None, weights_backbone=None, num_classes=21, aux_loss=False)",
         res=SEG_RES + [(1024, [1])]),
    # ---------------- torchvision detection ----------------
    dict(model="fasterrcnn_resnet50_fpn", library="torchvision", kind="rcnn", num_classes=91,
         constructor="torchvision.models.detection.fasterrcnn_resnet50_fpn(weights=None, weights_backbone=None, num_classes=91, min_size={R}, max_size={R})",
         res=DET_RES),
    # ---------------- timm ----------------
    dict(model="vit_base_patch16_224", library="timm", kind="cls", num_classes=1000,
         constructor="timm.create_model('vit_base_patch16_224', pretrained=False, num_classes=1000, img_size={R})", res=CLS_RES),
    dict(model="swin_tiny_patch4_window7_224", library="timm", kind="cls", num_classes=1000,
         constructor="timm.create_model('swin_tiny_patch4_window7_224', pretrained=False, num_classes=1000, img_size={R})", res=CLS_RES),
    dict(model="convnext_tiny", library="timm", kind="cls", num_classes=1000,
         constructor="timm.create_model('convnext_tiny', pretrained=False, num_classes=1000)", res=CLS_RES),
    dict(model="efficientnet_b0", library="timm", kind="cls", num_classes=1000,
         constructor="timm.create_model('efficientnet_b0', pretrained=False, num_classes=1000)", res=CLS_RES),
    dict(model="resnet50", library="timm", kind="cls", num_classes=1000,
         constructor="timm.create_model('resnet50', pretrained=False, num_classes=1000)", res=CLS_RES),
    # ---------------- ultralytics YOLOv8 ----------------
    dict(model="yolov8n", library="ultralytics", kind="yolo", num_classes=80,
         constructor="ultralytics.nn.tasks.DetectionModel('yolov8n.yaml', nc=80, verbose=False)", res=YOLO_RES_1024),
    dict(model="yolov8s", library="ultralytics", kind="yolo", num_classes=80,
         constructor="ultralytics.nn.tasks.DetectionModel('yolov8s.yaml', nc=80, verbose=False)", res=YOLO_RES_1024),
    dict(model="yolov8m", library="ultralytics", kind="yolo", num_classes=80,
         constructor="ultralytics.nn.tasks.DetectionModel('yolov8m.yaml', nc=80, verbose=False)", res=YOLO_RES_1024),
    dict(model="yolov8x", library="ultralytics", kind="yolo", num_classes=80,
         constructor="ultralytics.nn.tasks.DetectionModel('yolov8x.yaml', nc=80, verbose=False)", res=YOLO_RES_1024),
]


def all_cases():
    cases = []
    for m in MODELS:
        for R, batches in m["res"]:
            for B in batches:
                cid = f"{m['library']}/{m['model']}/r{R}/b{B}"
                cases.append(dict(id=cid, spec=m, R=R, B=B))
    return cases


# --------------------------------------------------------------------------------------------
# Measurement helpers (imported lazily so the driver process stays light)
# --------------------------------------------------------------------------------------------

def _setup_torch():
    import torch
    torch.set_num_threads(NUM_THREADS)
    # nn.MultiheadAttention's eval fast path calls the fused op aten._native_multi_head_attention,
    # whose internal matmuls are invisible to FlopCounterMode / dispatch modes.  Disable it so that
    # torchvision vit_b_16 eval runs the same decomposed path (linear + SDPA + linear) as training.
    torch.backends.mha.set_fastpath_enabled(False)
    return torch


def build_model(spec, R):
    import torch
    import torchvision  # noqa: F401
    import timm  # noqa: F401
    import ultralytics  # noqa: F401
    import ultralytics.nn.tasks  # noqa: F401
    ctor = spec["constructor"].replace("{R}", str(R))
    torch.manual_seed(SEED)
    model = eval(ctor, {"torchvision": torchvision, "timm": timm, "ultralytics": ultralytics})
    return model, ctor


def make_inputs(kind, R, B):
    """Return (args, kwargs_train_extra) where args are positional inputs to model(...)."""
    import torch
    g = torch.Generator().manual_seed(SEED)
    if kind == "rcnn":
        # GeneralizedRCNN takes a list of 3xHxW images in [0,1]; training also needs targets.
        imgs = [torch.rand(3, R, R, generator=g) for _ in range(B)]
        return imgs
    return torch.randn(B, 3, R, R, generator=g)


def make_rcnn_targets(R, B):
    import torch
    targets = []
    for i in range(B):
        # one box per image, fixed, label 1
        x0, y0 = 0.2 * R, 0.25 * R
        x1, y1 = 0.7 * R, 0.8 * R
        targets.append({"boxes": torch.tensor([[x0, y0, x1, y1]], dtype=torch.float32),
                        "labels": torch.tensor([1], dtype=torch.int64)})
    return targets


def run_forward(model, kind, inputs, train, R, B):
    if kind == "rcnn":
        if train:
            return model(inputs, make_rcnn_targets(R, B))
        return model(inputs)
    return model(inputs)


def input_storages(inputs):
    import torch
    ts = inputs if isinstance(inputs, (list, tuple)) else [inputs]
    return [t.untyped_storage() for t in ts if isinstance(t, torch.Tensor)]


def input_bytes(inputs):
    return sum(s.nbytes() for s in input_storages(inputs))


def weight_storage_ptrs(model):
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    bufs = {b.untyped_storage().data_ptr() for b in model.buffers()}
    params.discard(0)
    bufs.discard(0)
    return params, bufs


def flop_counter():
    import torch
    from torch.utils.flop_counter import FlopCounterMode, flop_registry
    aten = torch.ops.aten
    # CPU SDPA dispatches to aten._scaled_dot_product_flash_attention_for_cpu, which is not in
    # FlopCounterMode's registry in this torch version; count it with the registry's own SDPA formula
    # (2*b*h*s_q*s_k*d_q + 2*b*h*s_q*s_k*d_v, i.e. QK^T and PV).
    custom = {}
    if hasattr(aten, "_scaled_dot_product_flash_attention_for_cpu"):
        _f = flop_registry[aten._scaled_dot_product_flash_attention]  # already shape-wrapped

        def _cpu_sdpa_flop(*args, **kwargs):
            return _f(*args, **kwargs)
        _cpu_sdpa_flop._get_raw = True  # do not shape-wrap a second time
        custom[aten._scaled_dot_product_flash_attention_for_cpu] = _cpu_sdpa_flop
    return FlopCounterMode(display=False, custom_mapping=custom)


def count_flops(model, kind, inputs, train, R, B, autocast):
    import torch
    model.train(train)
    torch.manual_seed(SEED)
    fc = flop_counter()
    ctx_grad = torch.enable_grad() if train else torch.no_grad()
    with ctx_grad, _autocast(autocast), fc:
        out = run_forward(model, kind, inputs, train, R, B)
    del out
    total = fc.get_total_flops()
    by_op = {}
    for op, n in fc.get_flop_counts().get("Global", {}).items():
        by_op[str(op)] = int(n)
    return int(total), by_op


class _autocast:
    def __init__(self, on):
        self.on = on
        self.ctx = None

    def __enter__(self):
        import torch
        if self.on:
            self.ctx = torch.autocast("cpu", dtype=torch.bfloat16)
            self.ctx.__enter__()
        return self

    def __exit__(self, *a):
        if self.ctx is not None:
            return self.ctx.__exit__(*a)
        return False


_VIEWLIKE = {"TBackward0", "ViewBackward0", "PermuteBackward0", "TransposeBackward0", "ExpandBackward0",
             "UnsqueezeBackward0", "SqueezeBackward0", "SqueezeBackward1", "UnsqueezeBackward1",
             "ReshapeAliasBackward0", "AsStridedBackward0", "SelectBackward0", "SliceBackward0",
             "UnbindBackward0", "SplitBackward0", "AliasBackward0"}


def _is_weight_cast(t, param_ptrs):
    """True if t is (a view of) an autocast copy of a parameter: grad_fn chain
    [view-like]* -> ToCopyBackward0 -> AccumulateGrad(param)."""
    node = getattr(t, "grad_fn", None)
    for _ in range(6):
        if node is None:
            return False
        name = node.name()
        if name == "ToCopyBackward0":
            nxt = [n for n, _ in node.next_functions if n is not None]
            if len(nxt) == 1 and hasattr(nxt[0], "variable"):
                return nxt[0].variable.untyped_storage().data_ptr() in param_ptrs
            return False
        if name in _VIEWLIKE:
            nxt = [n for n, _ in node.next_functions if n is not None]
            if not nxt:
                return False
            node = nxt[0]
            continue
        return False
    return False


def measure_saved(model, kind, inputs, R, B, autocast):
    """One training forward (model.train(), params requires_grad) under saved_tensors_hooks."""
    import torch
    model.train(True)
    for p in model.parameters():
        p.requires_grad_(True)
    param_ptrs, buf_ptrs = weight_storage_ptrs(model)
    in_ptrs = {s.data_ptr() for s in input_storages(inputs)}
    seen = {}  # data_ptr -> dict(storage=..., nbytes=..., cat=...)
    stats = dict(pack_calls=0, param_pack_calls=0, nondedup_bytes=0, view_bytes=0)

    def pack(t):
        stats["pack_calls"] += 1
        try:
            s = t.untyped_storage()
        except Exception:
            return t
        ptr = s.data_ptr()
        if ptr in param_ptrs:
            stats["param_pack_calls"] += 1
            return t
        nb = s.nbytes()
        stats["nondedup_bytes"] += nb
        stats["view_bytes"] += t.numel() * t.element_size()
        if ptr not in seen:
            if ptr in buf_ptrs:
                cat = "buffer"
            elif ptr in in_ptrs:
                cat = "input"
            elif _is_weight_cast(t, param_ptrs):
                cat = "weight_cast"
            else:
                cat = "activation"
            # hold a strong ref to the storage so its address cannot be reused while measuring
            seen[ptr] = dict(storage=s, nbytes=nb, cat=cat, dtype=str(t.dtype))
        else:
            # a storage can only grow (resize_); keep the largest size observed
            seen[ptr]["nbytes"] = max(seen[ptr]["nbytes"], nb)
        return t

    def unpack(t):
        return t

    torch.manual_seed(SEED)
    with torch.enable_grad(), _autocast(autocast), torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        out = run_forward(model, kind, inputs, True, R, B)
    total = sum(v["nbytes"] for v in seen.values())
    by_cat = {}
    by_dtype = {}
    for v in seen.values():
        by_cat[v["cat"]] = by_cat.get(v["cat"], 0) + v["nbytes"]
        by_dtype[v["dtype"]] = by_dtype.get(v["dtype"], 0) + v["nbytes"]
    res = dict(saved_activation_bytes=int(total),
               saved_by_category=by_cat,
               saved_by_dtype=by_dtype,
               saved_unique_storages=len(seen),
               saved_pack_calls=stats["pack_calls"],
               saved_param_pack_calls=stats["param_pack_calls"],
               saved_bytes_without_dedupe=int(stats["nondedup_bytes"]),
               saved_view_bytes_without_dedupe=int(stats["view_bytes"]))
    del out, seen
    gc.collect()
    return res


def measure_inference_peak(model, kind, inputs, R, B):
    """Tensor-level peak of live non-weight storages during a no_grad eval fp32 forward."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_flatten
    from torch.multiprocessing.reductions import StorageWeakRef

    model.eval()
    param_ptrs, buf_ptrs = weight_storage_ptrs(model)
    excluded = param_ptrs | buf_ptrs

    class LiveStorageTracker(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.live = {}  # StorageWeakRef -> nbytes
            self.cur = 0
            self.peak = 0
            self.ops = 0

        def add(self, s):
            if s.data_ptr() in excluded or s.nbytes() == 0:
                return
            k = StorageWeakRef(s)
            old = self.live.get(k)
            if old is None:
                self.live[k] = s.nbytes()
                self.cur += s.nbytes()
            elif s.nbytes() > old:  # resized in place
                self.live[k] = s.nbytes()
                self.cur += s.nbytes() - old

        def sweep(self):
            dead = [k for k in self.live if k.expired()]
            for k in dead:
                self.cur -= self.live.pop(k)

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.sweep()
            out = func(*args, **(kwargs or {}))
            self.ops += 1
            for t in tree_flatten(out)[0]:
                if isinstance(t, torch.Tensor):
                    try:
                        self.add(t.untyped_storage())
                    except Exception:
                        pass
            if self.cur > self.peak:
                self.peak = self.cur
            return out

    tracker = LiveStorageTracker()
    for s in input_storages(inputs):
        tracker.add(s)  # the input batch is live for the whole forward
    tracker.peak = tracker.cur
    torch.manual_seed(SEED)
    with torch.no_grad(), tracker:
        out = run_forward(model, kind, inputs, False, R, B)
    tracker.sweep()
    res = dict(inference_peak_activation_bytes=int(tracker.peak),
               inference_live_bytes_at_end=int(tracker.cur),
               inference_dispatched_ops=tracker.ops)
    del out
    gc.collect()
    return res


def measure_inference_allocator_peak(model, kind, inputs, R, B):
    """Cross-check: peak of CPU-allocator bytes (c10 allocator, via torch.profiler memory events)
    above the pre-forward baseline, during a no_grad eval fp32 forward; input bytes added."""
    import torch
    from torch.profiler import profile, ProfilerActivity
    model.eval()
    torch.manual_seed(SEED)
    with torch.no_grad(), profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        out = run_forward(model, kind, inputs, False, R, B)
    evs = [e for e in prof.profiler.kineto_results.events() if e.name() == "[memory]" and e.device_type() == torch._C._autograd.DeviceType.CPU]
    evs.sort(key=lambda e: e.start_ns())
    cur = peak = 0
    for e in evs:
        cur += e.nbytes()
        peak = max(peak, cur)
    del out
    gc.collect()
    return int(peak + input_bytes(inputs))


RCNN_LOG = {}


def install_rcnn_probe(model):
    """Forward hooks recording how many proposals the RPN returns and how many RoIs the box head sees."""
    def rpn_hook(mod, inp, out):
        boxes = out[0]
        RCNN_LOG.setdefault("rpn_proposals_per_image", []).extend(int(b.shape[0]) for b in boxes)

    def head_hook(mod, inp, out):
        RCNN_LOG["box_head_rois_total"] = RCNN_LOG.get("box_head_rois_total", 0) + int(inp[0].shape[0])

    def post_hook(mod, inp, out):
        res = out[0] if isinstance(out, tuple) else out
        if isinstance(res, list) and res and isinstance(res[0], dict) and "boxes" in res[0]:
            RCNN_LOG["detections_per_image"] = [int(r["boxes"].shape[0]) for r in res]

    model.rpn.register_forward_hook(rpn_hook)
    model.roi_heads.box_head.register_forward_hook(head_hook)
    model.roi_heads.register_forward_hook(post_hook)


def take_rcnn_log():
    d = dict(RCNN_LOG)
    RCNN_LOG.clear()
    return d


def measure_case(case):
    torch = _setup_torch()
    import torchvision
    import timm
    import ultralytics
    spec, R, B = case["spec"], case["R"], case["B"]
    kind = spec["kind"]
    t0 = time.time()
    model, ctor = build_model(spec, R)
    params_total = int(sum(p.numel() for p in model.parameters()))
    param_bytes = int(sum(p.numel() * p.element_size() for p in model.parameters()))
    buffer_bytes = int(sum(b.numel() * b.element_size() for b in model.buffers()))
    inputs = make_inputs(kind, R, B)
    in_bytes = input_bytes(inputs)
    if kind == "rcnn":
        install_rcnn_probe(model)
    # Train-mode passes update BatchNorm running stats; restore the freshly-constructed state before
    # every pass so that each pass sees the same model (matters for data-dependent detection heads).
    import copy
    init_state = copy.deepcopy(model.state_dict())

    def reset():
        model.load_state_dict(init_state)
    common = dict(model=spec["model"], library=spec["library"], constructor=ctor,
                  num_classes=spec["num_classes"], resolution=R, batch=B, params_total=params_total)
    versions = dict(torch=torch.__version__, torchvision=torchvision.__version__, timm=timm.__version__,
                    ultralytics=ultralytics.__version__, python=platform.python_version())
    rows = []
    for dtype, ac in (("float32", False), ("bfloat16-autocast", True)):
        notes = []
        extra = dict(input_bytes=in_bytes, param_bytes_fp32=param_bytes, buffer_bytes=buffer_bytes,
                     bn_mode=dict(forward_flops="eval", inference_peak="eval", saved_activations="train"))
        row = dict(common)
        row["dtype"] = dtype
        # forward FLOPs (eval, no_grad)
        try:
            reset()
            take_rcnn_log()
            f, by_op = count_flops(model, kind, inputs, False, R, B, ac)
            row["forward_flops_per_image"] = f / B if f % B else f // B
            extra["forward_flops_by_op_per_image"] = {k: (v / B if v % B else v // B) for k, v in by_op.items()}
            if kind == "rcnn":
                extra["rcnn_eval_flops_pass"] = take_rcnn_log()
            sdpa = [k for k in by_op if "scaled_dot_product" in k]
            if sdpa:
                notes.append(f"attention ran {', '.join(sdpa)}; FLOPs counted with FlopCounterMode's SDPA formula "
                             "(custom_mapping for the CPU flash op)")
            elif "aten.bmm" in by_op and spec["kind"] == "cls":
                notes.append("attention ran as explicit matmuls (aten.bmm), no SDPA kernel")
        except Exception as e:
            row["forward_flops_per_image"] = None
            notes.append(f"eval flop count failed: {type(e).__name__}: {e}")
        # train-mode forward FLOPs (grad enabled, forward only)
        try:
            reset()
            take_rcnn_log()
            f, _ = count_flops(model, kind, inputs, True, R, B, ac)
            extra["train_forward_flops_per_image"] = f / B if f % B else f // B
            if kind == "rcnn":
                extra["rcnn_train_flops_pass"] = take_rcnn_log()
        except Exception as e:
            extra["train_forward_flops_per_image"] = None
            notes.append(f"train-mode flop count failed: {type(e).__name__}: {str(e)[:200]}")
        # saved activations
        try:
            reset()
            take_rcnn_log()
            s = measure_saved(model, kind, inputs, R, B, ac)
            row["saved_activation_bytes"] = s.pop("saved_activation_bytes")
            extra.update(s)
            if kind == "rcnn":
                extra["rcnn_saved_pass"] = take_rcnn_log()
        except Exception as e:
            row["saved_activation_bytes"] = None
            notes.append(f"training forward failed: {type(e).__name__}: {str(e)[:300]}")
        gc.collect()
        # inference peak (fp32 only)
        if not ac:
            try:
                reset()
                take_rcnn_log()
                r = measure_inference_peak(model, kind, inputs, R, B)
                row["inference_peak_activation_bytes"] = r.pop("inference_peak_activation_bytes")
                extra.update(r)
                if kind == "rcnn":
                    extra["rcnn_inference_peak_pass"] = take_rcnn_log()
            except Exception as e:
                row["inference_peak_activation_bytes"] = None
                notes.append(f"inference peak failed: {type(e).__name__}: {str(e)[:300]}")
            try:
                reset()
                extra["inference_peak_allocator_bytes"] = measure_inference_allocator_peak(model, kind, inputs, R, B)
            except Exception as e:
                extra["inference_peak_allocator_bytes"] = None
                notes.append(f"allocator peak failed: {type(e).__name__}: {str(e)[:200]}")
        else:
            row["inference_peak_activation_bytes"] = None
        gc.collect()
        notes.extend(case_notes(spec, R, B, ac))
        row["notes"] = "; ".join(notes)
        row["extra"] = extra
        row["versions"] = versions
        rows.append(row)
    for r in rows:
        r["extra"]["case_wall_s"] = round(time.time() - t0, 1)
    return rows


def case_notes(spec, R, B, ac):
    n = []
    kind = spec["kind"]
    lib, name = spec["library"], spec["model"]
    if kind == "cls":
        n.append("input: randn(B,3,R,R)")
    if kind == "seg":
        n.append("input: randn(B,3,R,R); output dict {'out'} at input resolution; no aux head")
    if kind == "rcnn":
        n.append("input: list of B rand(3,R,R) images in [0,1]; min_size=max_size=R so the internal "
                 "transform keeps RxR (resize with scale 1, normalize, pad to /32); eval forward returns "
                 "detections (proposal/detection counts depend on random-init scores, so FLOPs of the heads "
                 "are data dependent, see extra.rcnn_*_pass for RPN proposals / box-head RoIs actually seen per pass); training forward given targets=[{boxes:[[0.2R,0.25R,0.7R,0.8R]], labels:[1]}] "
                 "per image and includes RPN/ROI sampling + loss computation; torch.manual_seed(0) before each pass; "
                 "weights_backbone=None => plain BatchNorm2d (not Frozen) and all 5 backbone stages trainable; "
                 "torchvision::roi_align / nms are not counted by FlopCounterMode")
    if kind == "yolo":
        n.append("input: randn(B,3,R,R); DetectionModel train mode forward returns the 3 raw head maps "
                 "(no loss); eval forward includes Detect decoding (DFL 1x1 conv, anchors, concat) and returns (y, x)")
    if name in ("vit_b_16",) and lib == "torchvision":
        n.append("torch.backends.mha.set_fastpath_enabled(False): eval uses linear+SDPA path, not aten._native_multi_head_attention")
    if name == "swin_tiny_patch4_window7_224" and R % 224 != 0:
        n.append(f"img_size={R} with window 7: timm pads feature maps up to a multiple of the window inside each block")
    if name == "deeplabv3_resnet50" and B == 1:
        n.append("ASPP pooling branch has BatchNorm on a 1x1 map: train-mode forward with batch 1 raises "
                 "'Expected more than 1 value per channel when training'")
    if kind == "cls" and lib == "torchvision" and name in ("efficientnet_b0", "convnext_tiny"):
        n.append("train mode includes StochasticDepth (torchvision default probs) and dropout")
    if lib == "timm" and name == "swin_tiny_patch4_window7_224":
        n.append("timm default drop_path_rate=0.1 active in train mode")
    if ac:
        n.append("saved_activation_bytes includes the bf16 autocast copies of weights that autograd saves "
                 "(extra.saved_by_category.weight_cast)")
    return n


# --------------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------------

def load_cache():
    done = {}
    if os.path.exists(CACHE):
        with open(CACHE) as f:
            for line in f:
                line = line.strip()
                if line:
                    rec = json.loads(line)
                    done[rec["id"]] = rec
    return done


def run_case_subprocess(case):
    env = dict(os.environ, YOLO_OFFLINE="1", PYTHONUNBUFFERED="1", OMP_NUM_THREADS=str(NUM_THREADS))

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT_BYTES, MEM_LIMIT_BYTES))

    t0 = time.time()
    try:
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--case", case["id"]],
                           capture_output=True, text=True, timeout=CASE_TIMEOUT_S, env=env, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return dict(id=case["id"], ok=False, error=f"timeout after {CASE_TIMEOUT_S}s")
    marker = "@@RESULT@@"
    for line in p.stdout.splitlines():
        if line.startswith(marker):
            return dict(id=case["id"], ok=True, rows=json.loads(line[len(marker):]), wall_s=round(time.time() - t0, 1))
    tail = (p.stderr or "")[-1500:]
    return dict(id=case["id"], ok=False, error=f"exit {p.returncode}: {tail}")


def failed_rows(case, error):
    spec = case["spec"]
    rows = []
    for dtype in ("float32", "bfloat16-autocast"):
        rows.append(dict(model=spec["model"], library=spec["library"],
                         constructor=spec["constructor"].replace("{R}", str(case["R"])),
                         num_classes=spec["num_classes"], resolution=case["R"], batch=case["B"], dtype=dtype,
                         params_total=None, forward_flops_per_image=None, saved_activation_bytes=None,
                         inference_peak_activation_bytes=None,
                         notes=f"case failed, nothing measured: {error[-600:]}"))
    return rows


ROW_KEYS = ["model", "library", "constructor", "num_classes", "resolution", "batch", "dtype", "params_total",
            "forward_flops_per_image", "saved_activation_bytes", "inference_peak_activation_bytes", "notes",
            "extra", "versions"]


def write_yaml(cases, done):
    import yaml
    rows = []
    for c in cases:
        rec = done.get(c["id"])
        if rec is None:
            continue
        rs = rec["rows"] if rec.get("ok") else failed_rows(c, rec.get("error", "unknown"))
        for r in rs:
            rows.append({k: r[k] for k in ROW_KEYS if k in r})
    with open(OUT_YAML, "w") as f:
        yaml.safe_dump(rows, f, sort_keys=False, width=200, allow_unicode=False)
    return len(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case")
    ap.add_argument("--only", action="append")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--retry-failed", action="store_true")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    cases = all_cases()
    if a.list:
        for c in cases:
            print(c["id"])
        return
    if a.case:
        case = next(c for c in cases if c["id"] == a.case)
        rows = measure_case(case)
        print("@@RESULT@@" + json.dumps(rows))
        return
    if a.fresh and os.path.exists(CACHE):
        os.remove(CACHE)
    done = load_cache()
    sel = [c for c in cases if not a.only or any(o in c["id"] for o in a.only)]
    for c in sel:
        if c["id"] in done and (done[c["id"]].get("ok") or not a.retry_failed):
            continue
        print(f"[{time.strftime('%H:%M:%S')}] {c['id']} ...", flush=True)
        rec = run_case_subprocess(c)
        done[c["id"]] = rec
        with open(CACHE, "a") as f:
            f.write(json.dumps(rec) + "\n")
        print(f"    ok={rec['ok']} wall={rec.get('wall_s')} {'' if rec['ok'] else rec['error'][-300:]}", flush=True)
    n = write_yaml(cases, done)
    print(f"wrote {OUT_YAML} with {n} rows")


if __name__ == "__main__":
    main()
