"""The MCP prompt `intake`: the sizing interview, started from a customer's brief.

The brief is read by the same deterministic reader as `sizer-agent intake --brief` (what it states, with the
customer's own words), and the prompt lists the interview's questions still open with the default "I don't
know" would record, then the tool order. The assistant asks; the tools compute.
"""

from __future__ import annotations

from typing import Any, get_args

import mcp_types as types

from sizer_agent.i18n import Lang

MAX_BRIEF_CHARS = 20_000  # the interview reads a brief up to here (sizer_agent.agent.understanding)

PROMPTS = [types.Prompt(
    name="intake",
    title="Sizing interview",
    description="Start a GPU sizing interview from a customer's brief (an e-mail, French or English): what it "
                "states, the questions still open, and the order in which to call the tools.",
    arguments=[
        types.PromptArgument(name="brief", description="the customer's text (optional)", required=False),
        types.PromptArgument(name="lang", description="fr or en (default: the brief's language)", required=False),
    ],
)]

_TEXT = {
    "en": {
        "quote": "“{}”",
        "intro": "You are sizing GPUs for a customer's AI workload with the sizer-agent tools.",
        "brief": "The customer's brief states (field = value, from their words):",
        "nothing": "The brief states nothing the interview asks yet.",
        "open": "Ask these questions, one or two at a time, in English (the default is what \"I don't know\" "
                "records):",
        "required": "an answer is needed",
        "default": "default:",
        "suggest": "The brief names a model loosely; ask which one it is:",
        "then": "Then call estimate_memory (estimate_vision for a vision job) with the answers, recommend for the "
                "ranked catalogue configurations, and size_system for the machine around the GPUs. Quote only "
                "numbers, offers and prices that the tools returned, and say which answers were assumed.",
    },
    "fr": {
        "quote": "« {} »",
        "intro": "Vous dimensionnez les GPU de la charge d'IA d'un client avec les outils sizer-agent.",
        "brief": "Le brief du client indique (champ = valeur, d'après ses mots) :",
        "nothing": "Le brief n'indique encore rien de ce que l'entretien demande.",
        "open": "Posez ces questions, une ou deux à la fois, en français (la valeur par défaut est ce que "
                "« je ne sais pas » enregistre) :",
        "required": "réponse nécessaire",
        "default": "par défaut :",
        "suggest": "Le brief nomme un modèle de façon approximative ; demandez lequel :",
        "then": "Appelez ensuite estimate_memory (estimate_vision pour la vision) avec les réponses, recommend pour "
                "les configurations classées du catalogue, et size_system pour la machine autour des GPU. Ne citez "
                "que des chiffres, offres et prix rendus par les outils, et dites quelles réponses sont supposées.",
    },
}


def get_prompt(name: str, arguments: dict[str, Any]) -> types.GetPromptResult | str:
    """The prompt's messages, or a message saying what is wrong with the request."""
    from sizer_agent.agent.engine import bundled_model_names
    from sizer_agent.agent.intake import read_brief

    if name != "intake":
        return f"unknown prompt {name!r}; prompts: intake"
    lang = arguments.get("lang") or None
    if lang is not None and lang not in get_args(Lang):
        return f"lang: {lang!r} is not a language of the interview; allowed: {', '.join(get_args(Lang))}"
    brief = str(arguments.get("brief") or "")[:MAX_BRIEF_CHARS]
    reading = read_brief(brief, lang, bundled_model_names())
    text = _TEXT[reading.lang]
    lines = [text["intro"], ""]
    if reading.understood:
        lines.append(text["brief"])
        lines += [f"- {f.field} = {f.value} ({text['quote'].format(f.words)})" for f in reading.understood]
    elif brief:
        lines.append(text["nothing"])
    for values in reading.suggestions.values():
        lines += ["", f"{text['suggest']} {', '.join(values)}"]
    lines += ["", text["open"]]
    for question in reading.open:
        default = f"{text['default']} {question.default}" if question.default else text["required"]
        lines.append(f"- [{question.field}] {question.question} ({default})")
    lines += ["", text["then"]]
    if brief:
        lines += ["", "---", brief]
    message = types.PromptMessage(role="user", content=types.TextContent(type="text", text="\n".join(lines)))
    return types.GetPromptResult(description=PROMPTS[0].description, messages=[message])
