"""The size of a model that has no name yet: "pre-train a 7B model from scratch", "un modèle de 7 milliards de
paramètres", "a 3B-parameter decoder".

A model trained from scratch is the customer's own architecture: nothing in the registry is it, but its size
decides its memory and its speed. The interview can then assume the published shape nearest that size
(questions.reference_shape) instead of stopping at "which model?". Read only when no model was named: the "7B"
of "Mistral 7B" is the model's own name, claimed by the model rule before this one runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sizer_agent.agent.understanding import numbers
from sizer_agent.agent.understanding.numbers import NUM
from sizer_agent.agent.understanding.rules import Found, Rule
from sizer_agent.agent.understanding.text import Message

# number words are figures by now: "7 milliards de paramètres" reads "7000000000 de parametres"
_SIZE = re.compile(
    rf"(?<![\w.])({NUM})\s*(b|md|milliards?|billions?)?(?![\w])\s*-?\s*(?:(?:de |of )?(?:param\w*))?"
    # ("a 7B Llama-style model": a family said as a likeness is a word before the noun, not the model's name)
    r"(?=\s*(?:-?\s*param\w*\s*)?(?:[\w-]+\s+){0,2}?(?:models?|modeles?|decoders?|decodeurs?|llms?|transformers?"
    r"|dense|moe)\b|\s*(?:de |of )?param\w*)"
    # "un modèle de type Llama (architecture maison, 3B)": the size said beside the architecture it belongs to
    rf"|(?:(?<=architecture maison, )|(?<=own architecture, )|(?<=custom architecture, ))({NUM})"
    r"\s*(b|md|milliards?|billions?)(?![\w])")
_NOT_A_MODEL = re.compile(r"^\s*(?:de |of )?(?:tokens?|jetons|images?|rows|lignes|documents?|words|mots)\b")


def find_model_size(message: Message) -> Iterator[Found]:
    if message.found.get("model"):
        return
    for m in _SIZE.finditer(message.text):
        if message.negated(m.start()) or _NOT_A_MODEL.match(message.text, m.end()):
            continue
        figure, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        number = numbers.read_number(figure, message.lang)
        if number is None:
            continue
        billions = number if unit else number / 1e9
        if 0.05 <= billions <= 5000:  # from 50 M to 5 T parameters: a language model's size
            yield Found("model_size_b", round(billions, 3), m.start(), m.end(), claim=False)
            return


MODEL_SIZE = Rule(
    "model-size", ("model_size_b",), find_model_size,
    examples=(("We plan to pre-train a 7B model from scratch on about 1T tokens", {"model_size_b": 7.0}),
              ("pré-entraîner de zéro un modèle de 7 milliards de paramètres", {"model_size_b": 7.0}),
              ("pretrain a 3B-parameter decoder model", {"model_size_b": 3.0}),
              ("a 70B dense model from scratch on ~15T tokens", {"model_size_b": 70.0}),
              ("on ~1.2T tokens of text", {}), ("budget 400k for the run", {}),
              ("Qwen2.5 32B Instruct", {}),
              ("pre-train a 7B Llama-style model from scratch", {"model_size_b": 7.0}),
              ("un modèle de type Llama (architecture maison, 3B)", {"model_size_b": 3.0})),
    doc="the parameter count of a model not named (one trained from scratch): the shape of that size is assumed",
)
