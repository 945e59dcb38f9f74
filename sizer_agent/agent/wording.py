"""How the engine says things: values with their units, confirmations, tool results, in French or English.

Every number printed here is either the user's own answer or a field of a tool result; nothing is
computed for display except unit conversion (bytes -> GB).
"""

from __future__ import annotations

from typing import Any

from sizer_agent.agent.questions import BY_ID, Lang, field_label
from sizer_agent.agent.understanding.text import plain
from sizer_agent.i18n import render, trimmed

# Fields said with one figure in a catalogue phrase: field -> (catalogue key, the figure's placeholder)
_ONE_FIGURE: dict[str, tuple[str, str]] = {
    "input_len": ("agent.value.tokens", "n"), "output_len": ("agent.value.tokens", "n"),
    "context_len": ("agent.value.tokens", "n"), "concurrency": ("agent.value.requests", "n"),
    "ttft_ms": ("agent.value.ms", "v"), "tpot_ms": ("agent.value.ms", "v"),
    "growth_factor": ("agent.value.growth", "v"), "dataset_size_bytes": ("agent.value.size", "b"),
    "budget_eur": ("agent.value.budget", "v"), "deadline_hours": ("agent.value.deadline", "h"),
    "images_per_s": ("agent.value.images_per_s", "v"), "job_runs_per_year": ("agent.value.job_runs_per_year", "n"),
    "model_size_b": ("agent.value.model_size_b", "b"), "dataset_tokens": ("agent.value.dataset_tokens", "n"),
    "job_requests": ("agent.value.job_requests", "n"), "budget_eur_per_month": ("agent.value.budget_per_month", "v"),
    "budget_usd": ("agent.value.budget_usd", "v"), "epochs": ("agent.value.epochs", "n"),
    "workstations": ("agent.value.workstations", "n"),
    "budget_eur_per_workstation": ("agent.value.budget_per_workstation", "v"),
    "budget_usd_per_month": ("agent.value.budget_usd_per_month", "v"),
    "dataset_images": ("agent.value.images", "n"), "slo_percentile": ("agent.value.percentile", "v"),
}


def format_value(field: str, value: Any, lang: Lang) -> str:
    """A stored answer as a person reads it, in the catalogue's words and the locale's numbers."""
    if value is None:
        return render(lang, "common.unpinned" if field == "model_revision" else "common.no_limit")
    question = BY_ID.get(field)
    if isinstance(value, bool):
        return render(lang, "common.yes" if value else "common.no")
    if question is not None and question.choice_labels and value in question.choice_labels:
        return question.choice_labels[value][lang]
    if field in _ONE_FIGURE:
        key, name = _ONE_FIGURE[field]
        return render(lang, key, **{name: value})
    if field == "checkpoint_interval_min":
        minutes = float(value)
        if minutes >= 60 and (minutes / 60).is_integer():
            return render(lang, "agent.value.every_h", h=minutes / 60)
        return render(lang, "agent.value.every_min", m=minutes)
    if field == "compared_gpus" and isinstance(value, list):
        return " / ".join(_weighed(item) for item in value)
    if field == "power_limit_w":
        return render(lang, "agent.value.power_kw" if value >= 1000 else "agent.value.power", w=value)
    if field == "framework_version" and value == "latest":
        return render(lang, "agent.value.latest")
    if field == "rack_units":
        return f"{value}U"
    if field == "image_resolution":
        return f"{value}×{value} px"
    if field == "num_gpus":
        return f"{value} GPU"
    if field == "head_count" and isinstance(value, int):
        return render(lang, "agent.value.head_count_one" if value == 1 else "agent.value.head_count", n=value)
    if field == "gpu_preference" and isinstance(value, str):
        return gpu_name(value)
    if field == "custom_architecture" and isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if field == "customer" and value == "":
        return render(lang, "agent.value.anonymous")
    if isinstance(value, float):
        return trimmed(value, lang)
    return str(value)


def _weighed(item: str) -> str:
    """"1:h100-sxm" as the configuration weighed: an SXM chip bought alone or in pairs is its PCIe card (the
    recommendation weighs that one: tools.recommend.SXM_SOLD_AS_PCIE), so the name says the same."""
    from sizer_agent.tools.recommend import SXM_SOLD_AS_PCIE, on_baseboards

    count, _, gpu_id = item.rpartition(":")
    if not count:  # a card weighed with no count: the tools size how many it takes
        return gpu_name(gpu_id)
    if count.isdigit() and not on_baseboards(int(count)):
        gpu_id = SXM_SOLD_AS_PCIE.get(gpu_id, gpu_id)
    return f"{count} × {gpu_name(gpu_id)}"


def gpu_name(gpu_id: str) -> str:
    """'h100-sxm' -> 'NVIDIA H100 SXM5 80GB', the catalogue's name (the id itself when unknown)."""
    try:
        from sizer_agent.tools.catalog import load_catalog

        return next((g.name for g in load_catalog().gpus if g.id == gpu_id), gpu_id)
    except Exception:  # the catalogue is optional for display: the id says it too
        return gpu_id


def understood(items: list[tuple[str, Any, Any, bool]], lang: Lang, revision: str | None = None) -> str:
    """'Compris : modèle X (révision non fixée), fp8, ...' ; items are (field, value, previous, is_correction).

    `revision` is the model revision known so far: a model is always confirmed with it, pinned or not."""
    new = [(f, v) for f, v, prev, corr in items if not corr]
    fixed = [(f, v, prev) for f, v, prev, corr in items if corr]
    parts = []

    def shown(field: str, value: Any) -> str:
        text = format_value(field, value, lang)
        if field == "model" and not any(f == "model_revision" for f, *_ in items):
            text = render(lang, "agent.value.with_revision", model=text, label=field_label("model_revision", lang),
                          revision=format_value("model_revision", revision, lang))
        return text

    if new:
        body = ", ".join(f"{field_label(f, lang)} {shown(f, v)}" for f, v in new)
        parts.append(render(lang, "agent.say.understood", body=body))
    if fixed:
        body = ", ".join(
            f"{field_label(f, lang)} {format_value(f, prev, lang)} → {format_value(f, v, lang)}"
            for f, v, prev in fixed
        )
        parts.append(render(lang, "agent.say.corrected", body=body))
    return " ".join(parts)


def format_answer(field: str, value: Any, lang: Lang, *, assumed: bool, cloud_excluded: bool = False) -> str:
    """`format_value`, except that an assumed deployment reads as what the recommendation compares: the
    planner does not narrow the search to the stored default (agent.planning.recommend_arguments)."""
    if field == "deployment" and assumed:
        return render(lang, "profile.deployment_on_premises" if cloud_excluded else "profile.deployment_open")
    return format_value(field, value, lang)


def assumed_default(field: str, value: Any, lang: Lang, *, cloud_excluded: bool = False) -> str:
    question = BY_ID[field]
    if field == "deployment":
        shown = format_answer(field, value, lang, assumed=True, cloud_excluded=cloud_excluded)
        return render(lang, "agent.default.assumed", label=question.label[lang], value=shown)
    doc = question.default_doc.get(lang, "")
    shown = format_value(field, value, lang)
    # "1 024 tokens (1 024 tokens)" said once: the locale's narrow spaces do not make two figures differ
    shown = doc if plain(doc).startswith(plain(shown)) else f"{shown} ({doc})"
    return render(lang, "agent.default.assumed", label=question.label[lang], value=shown)


def no_default(field: str, lang: Lang) -> str:
    question = BY_ID[field]
    return render(lang, "agent.say.no_default", label=question.label[lang], example=question.example[lang])


QUOTE_MAX = 60


def quoted(text: str) -> str:
    """A long answer quoted back: cut at a word boundary with an ellipsis ("… fini en 3" read as 3 days)."""
    said = " ".join(text.split())
    if len(said) <= QUOTE_MAX:
        return said
    cut = said[:QUOTE_MAX].rsplit(" ", 1)[0].rstrip(" ,;:")
    return f"{cut} …"


def not_understood(field: str | None, text: str, attempts: int, lang: Lang) -> str:
    shown = quoted(text)
    if field is None:
        return render(lang, "agent.say.nothing_recognised", text=shown)
    question = BY_ID[field]
    extra = ""
    if question.choices:
        labels = [question.choice_labels.get(c, {}).get(lang, c) for c in question.choices]
        extra = render(lang, "agent.say.choices", labels=", ".join(labels))
    if attempts > 1 and question.has_default():
        extra += render(lang, "agent.say.may_not_know")
    return render(lang, "agent.say.not_understood", text=shown, label=question.label[lang],
                  example=question.example[lang], extra=extra)


def invalid(field: str, reason: str, lang: Lang) -> str:
    return render(lang, "agent.say.invalid", label=field_label(field, lang), reason=reason)


def why(field: str, lang: Lang) -> str:
    question = BY_ID[field]
    default = ""
    if question.has_default():
        default = render(lang, "agent.say.why_default", default=question.default_doc[lang])
    return render(lang, "agent.say.why", why=question.why[lang], default=default)


def restate(findings: list[Any], missing: int, lang: Lang) -> str:
    """What a pasted brief said, field by field with the customer's words, then how much is left."""
    lines = [render(lang, "agent.brief.heading")]
    for finding in sorted(findings, key=lambda f: f.span):
        if finding.field == "model_family":
            continue
        key = "agent.brief.item_approximate" if finding.approximate else "agent.brief.item"
        lines.append(render(lang, key, label=field_label(finding.field, lang),
                            value=format_value(finding.field, finding.value, lang), words=finding.words.strip()))
    lines.append("")  # the count of questions left is a sentence of its own, not the list's last item
    lines.append(render(lang, "agent.brief.missing", n=missing) if missing else render(lang, "agent.brief.complete"))
    return "\n".join(lines)


def _either(shown: list[str], lang: Lang) -> str:
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" {render(lang, 'agent.suggest.or')} {shown[-1]}"


def did_you_mean(names: tuple[str, ...] | list[str], lang: Lang) -> str:
    """'Did you mean A, B or C?' for names the customer may have meant."""
    return render(lang, "agent.suggest.model", names=_either([str(n) for n in names], lang))


def to_confirm(field: str, candidates: tuple[str, ...] | list[str], lang: Lang) -> str:
    """A field the message named several values for (or a year as a budget): nothing recorded, asked later."""
    several = len(candidates) > 1
    if field == "vision_model" and several:  # "YOLOv8" said without its size
        return render(lang, "agent.suggest.sizes", names=_either(list(candidates), lang))
    if field in BY_ID:
        key = "agent.suggest.several" if several else "agent.suggest.one"
    else:  # no question of its own (a preferred card): the customer may say it again
        key = "agent.suggest.several_unasked" if several else "agent.suggest.one_unasked"
    return render(lang, key, field=field_label(field, lang), names=_either(list(candidates), lang))


def unsupported_said(kind: str, words: str, lang: Lang) -> str:
    """"Stable Diffusion XL (image generation) is not a workload this version sizes: …" — said once, plainly."""
    return render(lang, "unsupported.said", name=words, what=render(lang, f"unsupported.{kind}"))
