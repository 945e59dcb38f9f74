"""Computer-vision sizing: architectures without weights, memory, speed (see docs/vision.md).

torch, torchvision and timm (the `vision` extra) are imported lazily by the functions that trace a model;
a cached trace needs none of them.
"""
