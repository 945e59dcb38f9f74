"""YOLOv8 n/s/m/l/x detectors, written here from the published layer table (no ultralytics code).

Ultralytics publishes the architecture as data, `yolov8.yaml`: a backbone and head of `[from, repeats,
module, args]` rows plus, per size, `[depth, width, max_channels]` multipliers. This module rebuilds that
table with our own modules — Conv (conv + BatchNorm + SiLU), C2f, SPPF, Detect (decoupled box/class branches
with a distribution-focal-loss head) — following the published definitions, so the parameter count, FLOPs and
activations can be traced without the AGPL package. The published summaries in the yaml's comments (e.g.
"YOLOv8n summary: 225 layers, 3157200 parameters, ... 8.9 GFLOPs") are what tests check against.

Only `torch` is needed; it is imported by the caller (`tools.vision.models`) so that this module's import is lazy.
"""

from __future__ import annotations

import math
from typing import Any

# Per size: (depth multiple, width multiple, max channels). Source: ultralytics/cfg/models/v8/yolov8.yaml
# `scales`, https://github.com/ultralytics/ultralytics (read 2025; values unchanged since YOLOv8's release).
YOLOV8_SCALES: dict[str, tuple[float, float, int]] = {
    "n": (0.33, 0.25, 1024),
    "s": (0.33, 0.50, 1024),
    "m": (0.67, 0.75, 768),
    "l": (1.00, 1.00, 512),
    "x": (1.00, 1.25, 512),
}
# Published parameter counts for 80 classes (same file, `scales` comments): the test oracle.
YOLOV8_PUBLISHED_PARAMS: dict[str, int] = {
    "n": 3_157_200, "s": 11_166_560, "m": 25_902_640, "l": 43_691_520, "x": 68_229_648,
}
# Published GFLOPs at 640 px (same comments; ultralytics counts 2 x multiply-adds with thop).
YOLOV8_PUBLISHED_GFLOPS_640: dict[str, float] = {"n": 8.9, "s": 28.8, "m": 79.3, "l": 165.7, "x": 258.5}

# The layer table of yolov8.yaml: (from, repeats, module, args). Channels are before width scaling.
_BACKBONE: list[tuple[int | list[int], int, str, list[Any]]] = [
    (-1, 1, "Conv", [64, 3, 2]),
    (-1, 1, "Conv", [128, 3, 2]),
    (-1, 3, "C2f", [128, True]),
    (-1, 1, "Conv", [256, 3, 2]),
    (-1, 6, "C2f", [256, True]),
    (-1, 1, "Conv", [512, 3, 2]),
    (-1, 6, "C2f", [512, True]),
    (-1, 1, "Conv", [1024, 3, 2]),
    (-1, 3, "C2f", [1024, True]),
    (-1, 1, "SPPF", [1024, 5]),
]
_HEAD: list[tuple[int | list[int], int, str, list[Any]]] = [
    (-1, 1, "Upsample", []),
    ([-1, 6], 1, "Concat", []),
    (-1, 3, "C2f", [512]),
    (-1, 1, "Upsample", []),
    ([-1, 4], 1, "Concat", []),
    (-1, 3, "C2f", [256]),
    (-1, 1, "Conv", [256, 3, 2]),
    ([-1, 12], 1, "Concat", []),
    (-1, 3, "C2f", [512]),
    (-1, 1, "Conv", [512, 3, 2]),
    ([-1, 9], 1, "Concat", []),
    (-1, 3, "C2f", [1024]),
    ([15, 18, 21], 1, "Detect", []),
]
REG_MAX = 16  # DFL bins per box side (Detect.reg_max in the published head)


def _divisible(value: float, divisor: int = 8) -> int:
    return math.ceil(value / divisor) * divisor


def build_yolov8(size: str, num_classes: int = 80) -> Any:
    """A YOLOv8 detector (training-mode outputs: one map per level) as a `torch.nn.Module`."""
    import torch
    from torch import nn

    depth, width, max_channels = YOLOV8_SCALES[size]

    class Conv(nn.Module):
        def __init__(self, c1: int, c2: int, k: int = 1, s: int = 1, g: int = 1) -> None:
            super().__init__()
            self.conv = nn.Conv2d(c1, c2, k, s, k // 2, groups=g, bias=False)
            self.bn = nn.BatchNorm2d(c2, eps=0.001, momentum=0.03)  # the published detector's BN settings
            self.act = nn.SiLU(inplace=True)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.act(self.bn(self.conv(x)))  # type: ignore[no-any-return]

    class Bottleneck(nn.Module):
        def __init__(self, c1: int, c2: int, shortcut: bool) -> None:
            super().__init__()
            self.cv1 = Conv(c1, c2, 3)
            self.cv2 = Conv(c2, c2, 3)
            self.add = shortcut and c1 == c2

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = self.cv2(self.cv1(x))
            return x + y if self.add else y  # type: ignore[no-any-return]

    class C2f(nn.Module):
        """Split in two, run n bottlenecks on the second half, concatenate every intermediate, fuse."""

        def __init__(self, c1: int, c2: int, n: int, shortcut: bool = False) -> None:
            super().__init__()
            self.c = c2 // 2
            self.cv1 = Conv(c1, 2 * self.c, 1)
            self.cv2 = Conv((2 + n) * self.c, c2, 1)
            self.m = nn.ModuleList(Bottleneck(self.c, self.c, shortcut) for _ in range(n))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = list(self.cv1(x).chunk(2, 1))
            y.extend(m(y[-1]) for m in self.m)
            return self.cv2(torch.cat(y, 1))  # type: ignore[no-any-return]

    class SPPF(nn.Module):
        def __init__(self, c1: int, c2: int, k: int = 5) -> None:
            super().__init__()
            hidden = c1 // 2
            self.cv1 = Conv(c1, hidden, 1)
            self.cv2 = Conv(hidden * 4, c2, 1)
            self.m = nn.MaxPool2d(k, 1, k // 2)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = [self.cv1(x)]
            y.extend(self.m(y[-1]) for _ in range(3))
            return self.cv2(torch.cat(y, 1))  # type: ignore[no-any-return]

    class Detect(nn.Module):
        def __init__(self, nc: int, ch: list[int]) -> None:
            super().__init__()
            c2 = max(16, ch[0] // 4, REG_MAX * 4)
            c3 = max(ch[0], min(nc, 100))
            self.cv2 = nn.ModuleList(nn.Sequential(Conv(x, c2, 3), Conv(c2, c2, 3), nn.Conv2d(c2, 4 * REG_MAX, 1))
                                     for x in ch)
            self.cv3 = nn.ModuleList(nn.Sequential(Conv(x, c3, 3), Conv(c3, c3, 3), nn.Conv2d(c3, nc, 1))
                                     for x in ch)
            # Distribution focal loss integral: a fixed 1x1 conv (counted as parameters, never trained).
            self.dfl = nn.Conv2d(REG_MAX, 1, 1, bias=False).requires_grad_(False)

        def forward(self, xs: list[torch.Tensor]) -> list[torch.Tensor]:
            return [torch.cat((b(x), c(x)), 1) for x, b, c in zip(xs, self.cv2, self.cv3, strict=True)]

    class Concat(nn.Module):
        def forward(self, xs: list[torch.Tensor]) -> torch.Tensor:
            return torch.cat(xs, 1)

    class YOLOv8(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            channels = [3]  # output channels per layer index; the image's 3 until the first layer exists
            layers: list[nn.Module] = []
            self.sources: list[int | list[int]] = []
            for index, (source, repeats, kind, args) in enumerate(_BACKBONE + _HEAD):
                n = max(round(repeats * depth), 1) if repeats > 1 else repeats
                c1 = channels[source] if isinstance(source, int) else 0
                module: nn.Module
                if kind in ("Conv", "C2f", "SPPF"):
                    c2 = _divisible(min(args[0], max_channels) * width)
                    if kind == "Conv":
                        module = Conv(c1, c2, args[1], args[2])
                    elif kind == "C2f":
                        module = C2f(c1, c2, n, bool(args[1]) if len(args) > 1 else False)
                    else:
                        module = SPPF(c1, c2, args[1])
                elif kind == "Upsample":
                    module, c2 = nn.Upsample(scale_factor=2.0, mode="nearest"), c1
                elif kind == "Concat":
                    assert isinstance(source, list)
                    module, c2 = Concat(), sum(channels[i] for i in source)
                else:
                    assert isinstance(source, list)
                    module, c2 = Detect(num_classes, [channels[i] for i in source]), 0
                layers.append(module)
                self.sources.append(source)
                channels = [c2] if index == 0 else [*channels, c2]
            self.model = nn.Sequential(*layers)

        def forward(self, x: torch.Tensor) -> list[torch.Tensor]:
            # Only the outputs a later layer reads are kept (the FPN's skip connections), as ultralytics'
            # `save` list does: keeping every layer's output would double a no-grad forward's live memory.
            kept = {i for source in self.sources if isinstance(source, list) for i in source if i != -1}
            outputs: list[Any] = []
            for index, (layer, source) in enumerate(zip(self.model, self.sources, strict=True)):
                x = layer([x if i == -1 else outputs[i] for i in source] if isinstance(source, list) else x)
                outputs.append(x if index in kept else None)
            return x  # type: ignore[return-value]

    return YOLOv8()
