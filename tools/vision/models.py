"""Vision architectures by name: timm, torchvision and our YOLOv8, built without weights.

A name resolves, in this order, to: a YOLOv8 size (`yolov8n` ... `yolov8x`, our own code in `yolo.py`), a
torchvision model (`torchvision.models.list_models()`: classification, segmentation, dense detectors), then
a timm model (`timm.list_models()`). `timm/NAME` or `torchvision/NAME` picks a library explicitly (resnet50
exists in both; the architectures are the same, 25,557,032 parameters). Names are matched case-insensitively
and a few spellings people write are mapped (ResNet-50, ViT-B/16, ConvNeXt-T, YOLOv8x).

Nothing is downloaded: `pretrained=False` / `weights=None`, built under `torch.device("meta")`.
torch, torchvision and timm are imported here, lazily, by the functions that need them.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Literal

from sizer_agent.tools.errors import InputError
from sizer_agent.tools.vision.yolo import YOLOV8_SCALES

Library = Literal["yolo", "torchvision", "timm"]
INSTALL_HINT = "pip install 'sizer-agent[vision]'"

# Spellings from papers and model cards -> the library name (the interview adds its own on top).
ALIASES: dict[str, str] = {
    "resnet-18": "resnet18", "resnet-34": "resnet34", "resnet-50": "resnet50", "resnet-101": "resnet101",
    "resnet-152": "resnet152", "vit-b/16": "vit_base_patch16_224", "vit-b16": "vit_base_patch16_224",
    "vit-l/16": "vit_large_patch16_224", "vit-s/16": "vit_small_patch16_224", "vit-h/14": "vit_huge_patch14_224",
    "vit-b/32": "vit_base_patch32_224", "google/vit-base-patch16-224": "vit_base_patch16_224",
    "convnext-t": "convnext_tiny", "convnext-s": "convnext_small", "convnext-b": "convnext_base",
    "convnext-l": "convnext_large", "swin-t": "swin_tiny_patch4_window7_224", "swin-s": "swin_small_patch4_window7_224",
    "swin-b": "swin_base_patch4_window7_224", "efficientnet-b0": "efficientnet_b0", "deeplabv3": "deeplabv3_resnet50",
    "deeplabv3-resnet50": "deeplabv3_resnet50", "fcn-resnet50": "fcn_resnet50", "mobilenetv3": "mobilenetv3_large_100",
}
# torchvision detectors whose second stage samples region proposals from the image content: the graph depends
# on data, so it cannot be traced without weights and images.
_TWO_STAGE = ("fasterrcnn", "maskrcnn", "keypointrcnn")


def require_vision() -> None:
    """Raise a one-line InputError naming the extra when torch/torchvision/timm are missing."""
    missing = []
    for module in ("torch", "torchvision", "timm"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
        except Exception as error:  # e.g. a torchvision built for another torch
            raise InputError("--task vision", f"{module} does not import ({error})", INSTALL_HINT) from None
    if missing:
        raise InputError("--task vision", f"needs {', '.join(missing)}, not installed", INSTALL_HINT)


def normalize(name: str) -> str:
    text = name.strip().lower()
    text = ALIASES.get(text, text)
    if re.fullmatch(r"yolo-?v?8[-_]?[nsmlx]", text):
        return "yolov8" + text[-1]
    return text


@functools.cache
def _library_names() -> tuple[frozenset[str], frozenset[str]]:
    import timm
    import torchvision

    return frozenset(torchvision.models.list_models()), frozenset(timm.list_models())


def resolve(name: str) -> tuple[Library, str]:
    """(library, canonical name), or InputError listing close names."""
    text = normalize(name)
    if text.startswith("yolov8") and text[6:] in YOLOV8_SCALES and len(text) == 7:
        return "yolo", text
    require_vision()
    tv, tm = _library_names()
    library, _, rest = text.partition("/")
    if rest and library in ("timm", "torchvision"):
        if library == "timm" and rest in tm:
            return "timm", rest
        if library == "torchvision" and rest in tv and not rest.startswith(_TWO_STAGE):
            return "torchvision", rest
        text = rest
    if text in tv:
        if text.startswith(_TWO_STAGE):
            raise InputError("--model", f"{name!r} is a two-stage detector: its second stage depends on the "
                             "image content, so it cannot be sized without images",
                             "one-stage detectors: retinanet_resnet50_fpn, fcos_resnet50_fpn, ssd300_vgg16, yolov8n..x")
        return "torchvision", text
    elif text in tm:
        return "timm", text
    raise InputError("--model", f"unknown vision model {name!r}", "close names: " + ", ".join(close_names(text)))


def close_names(text: str, limit: int = 6) -> list[str]:
    from rapidfuzz import fuzz, process

    tv, tm = _library_names()
    choices = sorted(tv | tm | {f"yolov8{s}" for s in YOLOV8_SCALES})
    found = process.extract(text, choices, scorer=fuzz.WRatio, limit=limit)
    return [match for match, _, _ in found]


def build(library: Library, name: str, num_classes: int | None, resolution: int) -> Any:
    """The architecture on the meta device (no memory, no weights)."""
    import torch

    with torch.device("meta"):
        if library == "yolo":
            from sizer_agent.tools.vision.yolo import build_yolov8

            return build_yolov8(name[-1], num_classes or 80)
        if library == "torchvision":
            return _torchvision(name, num_classes, resolution)
        return _timm(name, num_classes, resolution)


def _torchvision(name: str, num_classes: int | None, resolution: int) -> Any:
    import torchvision

    kwargs: dict[str, Any] = {"weights": None}
    if num_classes is not None:
        kwargs["num_classes"] = num_classes
    if name.startswith("vit_"):
        kwargs["image_size"] = resolution  # torchvision's ViT checks the input size against it
    if name in torchvision.models.list_models(module=torchvision.models.segmentation):
        kwargs["weights_backbone"] = None
        kwargs.setdefault("aux_loss", None)
    if name in torchvision.models.list_models(module=torchvision.models.detection):
        kwargs["weights_backbone"] = None
        return _dense_detector(torchvision.models.get_model(name, **kwargs))
    return torchvision.models.get_model(name, **kwargs)


def _timm(name: str, num_classes: int | None, resolution: int) -> Any:
    import timm

    kwargs: dict[str, Any] = {"pretrained": False}
    if num_classes is not None:
        kwargs["num_classes"] = num_classes
    try:  # ViT, Swin and friends fix their patch grid from img_size
        return timm.create_model(name, img_size=resolution, **kwargs)
    except TypeError:
        return timm.create_model(name, **kwargs)


def _dense_detector(detector: Any) -> Any:
    """The trainable graph of a one-stage torchvision detector: backbone (+FPN) and head on a batch tensor.

    Left out, because they depend on the image content or are not part of the network: the resizing
    transform (we trace at the given resolution), anchor matching, the loss and post-processing (NMS).
    """
    from torch import nn

    class DenseDetector(nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.backbone = inner.backbone
            self.head = inner.head

        def forward(self, x: Any) -> Any:
            features = self.backbone(x)
            values = list(features.values()) if isinstance(features, dict) else list(features)
            return self.head(values)

    return DenseDetector(detector)
