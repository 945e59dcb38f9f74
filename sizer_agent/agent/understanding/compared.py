"""Configurations the customer weighs against each other: "on hésite entre 2 H100 et 4 L40S", "4x L40S vs
2x H100 NVL?", "two RTX 6000 Ada or one RTX PRO 6000".

The GPU rule records no preference when cards are compared (the schema: a comparison is no choice). The
question asked is still the comparison, and an expert answers it: each option is checked at the stated load
and said beside the recommendation. `compared_gpus` keeps the options as "count:gpu-id", in the order said.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding.gpus import _DGX_GPUS, card_index, identify
from sizer_agent.agent.understanding.numbers import NUM, read_number
from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Lang, Message, plain, sentence_bounds

_WEIGHED = re.compile(r"\b(?:hesit\w*|entre|between|vs\.?|versus|compar\w*|ou bien|or rather|plutot|which is better"
                      r"|against|contre|weigh\w*"
                      r"|lequel|laquelle|which one|option [ab12])\b|\bor\b|\bou\b")
_SWITCH = re.compile(r"\b(?:hesit\w*|ou passer|passer a|or move|or switch|or upgrade|or go (?:to|for)|ou bien"
                     r"|ou plutot|or rather|instead|a la place|keep (?:them|it)|les garder|la garder)\b")
_WORD_COUNTS = {"one": 1, "a single": 1, "un": 1, "une": 1, "two": 2, "deux": 2, "three": 3, "trois": 3, "four": 4,
                "quatre": 4, "six": 6, "eight": 8, "huit": 8}
# (a word count ends at a word boundary: "une L40S" is one, not "un" before "e L40S")
_COUNT = (rf"(?<![\w.,])({NUM}|(?:one|a single|une|un|two|deux|three|trois|four|quatre|six|eight|huit)\b)"
          r"\s*(?:x\s*|×\s*)?")


# whole systems weighed: "GB300 NVL72 or several HGX B300 nodes?" (found using the product). A rack named by its
# NVLink domain holds the number in its name ("NVL72": 72 GPUs); an HGX or DGX node holds 8, the figure the GPU rule
# already uses with its source (gpus._DGX_GPUS). Nodes counted by a number give that many times 8; "several"/"a few"
# nodes, the count unsaid, are weighed as one node's 8 GPUs, the unit the option is made of.
_GPUS_PER_NODE = _DGX_GPUS
_RACK = re.compile(rf"(?:{_COUNT})?(?P<model>gb[23]00)\s*nvl\s*?(?P<per>\d{{2}})(?![\w])")
_NODES = re.compile(rf"(?:{_COUNT}|(?:several|a few|multiple|plusieurs|quelques)\s+)?(?:nvidia\s+)?(?:hgx|dgx)\s*"
                    r"(?P<model>[bh][123]00)(?:\s+(?:nodes?|servers?|systems?|boxe?s?|noeuds?|serveurs?|systemes?))?"
                    r"(?![\w])")


def _systems(original: str, lang: Lang) -> list[tuple[int, str, int, int]]:
    """Options said as whole systems: a rack by its NVLink domain, HGX/DGX nodes."""
    found = []
    for pattern in (_RACK, _NODES):
        for m in pattern.finditer(original):
            gpu = identify(m.group("model"), "")
            said = m.group(1)
            systems = (_WORD_COUNTS.get(said) or read_number(said, lang, whole=True)) if said else 1
            if gpu is None or not systems:
                continue
            per = int(m.group("per")) if pattern is _RACK else _GPUS_PER_NODE
            found.append((int(systems) * per, gpu, m.start(), m.end()))
    return found


def find_compared(message: Message) -> Iterator[Found]:
    original = plain(message.original)
    pattern = card_index().pattern
    options: list[tuple[int, str, int, int]] = []
    for m in re.finditer(_COUNT + r"(?:(?:cartes?|cards?|gpus?)\s+)?(?:de\s+|d')?", original):
        card = pattern.match(original, m.end())
        if card is None:
            continue
        said = m.group(1)
        count = _WORD_COUNTS.get(said) or read_number(said, message.lang, whole=True)
        gpu = identify(card.group("model"), card.group("qualifiers"))
        if not count or gpu is None or not 1 <= int(count) <= 64:
            continue
        options.append((int(count), gpu, m.start(), card.end()))
    covered = [(a, b) for _, _, a, b in options]
    options.extend(o for o in _systems(original, message.lang)
                   if not any(a < o[3] and o[2] < b for a, b in covered))
    # a card weighed with no count ("Google TPU v6e against 8x H100", "L40S ou H100 ?"): count 0, the tools size
    # how many of it hold the load
    covered = [(a, b) for _, _, a, b in options]
    for card in pattern.finditer(original):
        gpu = identify(card.group("model"), card.group("qualifiers"))
        if gpu is not None and not any(a < card.end() and card.start() < b for a, b in covered):
            options.append((0, gpu, card.start(), card.end()))
    options.sort(key=lambda o: o[2])
    for i, first in enumerate(options):
        start, end = sentence_bounds(original, first[2])
        # "nous avons déjà 2 L40S. On hésite : les garder, ou passer à 2 H200 NVL ?": the next sentence may weigh
        # the cards of this one against others
        _, after = sentence_bounds(original, end) if end < len(original) else (end, end)
        if not _SWITCH.search(original, end, after):
            after = end
        together = [o for o in options[i:] if start <= o[2] < after]
        counted = {g for c, g, _, _ in together if c}
        together = [o for o in together if o[0] or o[1] not in counted]  # "2 H100 … the H100": one option
        if len(together) < 2 or len({(c, g) for c, g, _, _ in together}) < 2:
            continue
        between = original[together[0][3]:together[1][2]]
        if not _WEIGHED.search(between) and not _WEIGHED.search(original[start:together[0][2]]):
            continue
        value = [f"{c}:{g}" if c else g for c, g, _, _ in together[:3]]
        a, b = together[0][2], together[min(2, len(together)) - 1][3]
        view_a, view_b = message.view_span(a, b)
        yield Found("compared_gpus", value, view_a, view_b, claim=False)
        return


COMPARED_GPUS = Rule(
    "compared-gpus", ("compared_gpus",), find_compared,
    examples=(("On hésite entre 2 H100 et 4 L40S pour servir Llama 3.3 70B.",
               {"compared_gpus": ["2:h100-sxm", "4:l40s"]}),
              ("4x L40S vs 2x H100 NVL — which is better for 50 users?",
               {"compared_gpus": ["4:l40s", "2:h100-nvl"]}),
              ("GB300 NVL72 or several HGX B300 nodes?", {"compared_gpus": ["72:gb300", "8:b300"]}),
              ("two RTX 6000 Ada or one RTX PRO 6000?", {"compared_gpus": ["2:rtx-6000-ada", "1:rtx-pro-6000-ws"]}),
              ("Nous avons déjà 2 L40S dans un serveur. On hésite : les garder, ou passer à 2 H200 NVL ?",
               {"compared_gpus": ["2:l40s", "2:h200-nvl"]}),
              ("We are weighing Google TPU v6e against 8x H100 on-demand in the cloud.",
               {"compared_gpus": ["tpu-v6e", "8:h100-sxm"]}),
              ("L40S ou H100 pour servir Mistral Small à 30 utilisateurs ?", {"compared_gpus": ["l40s", "h100-sxm"]}),
              ("Budget 40k, une L40S ou une H100 ?", {"compared_gpus": ["1:l40s", "1:h100-sxm"]}),
              ("We want 2 H100 and 4 L40S for two different sites.", {}),
              ("We have 2 L40S in the lab. We also plan 4 H100 for the new cluster.", {}),
              ("Nous voulons 4 L40S.", {})),
    doc="configurations weighed against each other: each is checked at the load and said beside the plan",
)
