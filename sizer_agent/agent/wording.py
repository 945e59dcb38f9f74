"""How the engine says things: values with their units, confirmations, tool results, in French or English.

Every number printed here is either the user's own answer or a field of a tool result; nothing is
computed for display except unit conversion (bytes -> GB).
"""

from __future__ import annotations

from typing import Any

from sizer_agent.agent.questions import BY_ID, Lang, field_label
from sizer_agent.i18n import render


def number(value: float, lang: Lang, decimals: int = 0) -> str:
    """8192 -> '8 192' (fr) / '8,192' (en); 1.5 -> '1,5' (fr)."""
    text = f"{value:,.{decimals}f}"
    if lang == "fr":
        text = text.replace(",", " ").replace(".", ",")
    return text


def _trim(value: float, lang: Lang) -> str:
    """At most two decimals, none when they are zeros: 1.5 -> '1,5', 2.0 -> '2'."""
    rounded = round(float(value), 2 if abs(value) < 10 else 1)
    decimals = 0 if rounded.is_integer() else (1 if round(rounded, 1) == rounded else 2)
    return number(rounded, lang, decimals)


def gigabytes(n_bytes: float, lang: Lang) -> str:
    """Decimal GB with the unit named (Go in French)."""
    unit = "Go" if lang == "fr" else "GB"
    return f"{number(n_bytes / 1e9, lang, 1)} {unit}"


def data_size(n_bytes: float, lang: Lang) -> str:
    units = (("To", "TB", 1e12), ("Go", "GB", 1e9), ("Mo", "MB", 1e6), ("ko", "kB", 1e3))
    for fr, en, scale in units:
        if n_bytes >= scale:
            return f"{_trim(n_bytes / scale, lang)} {fr if lang == 'fr' else en}"
    return f"{_trim(n_bytes, lang)} {'octets' if lang == 'fr' else 'bytes'}"


def format_value(field: str, value: Any, lang: Lang) -> str:
    """A stored answer as a person reads it."""
    fr = lang == "fr"
    if value is None:
        if field == "model_revision":
            return "non fixée" if fr else "unpinned"
        return "pas de limite" if fr else "no limit"
    question = BY_ID.get(field)
    if isinstance(value, bool):
        return ("oui" if value else "non") if fr else ("yes" if value else "no")
    if question is not None and question.choice_labels and value in question.choice_labels:
        return question.choice_labels[value][lang]
    if field in ("input_len", "output_len", "context_len"):
        return f"{number(value, lang)} tokens"
    if field == "concurrency":
        return f"{number(value, lang)} " + ("requêtes" if fr else "requests")
    if field in ("ttft_ms", "tpot_ms"):
        return f"{_trim(value, lang)} ms"
    if field == "growth_factor":
        return f"x{_trim(value, lang)}"
    if field == "dataset_size_bytes":
        return data_size(value, lang)
    if field == "checkpoint_interval_min":
        minutes = float(value)
        if minutes >= 60 and (minutes / 60).is_integer():
            return (f"toutes les {_trim(minutes / 60, lang)} h" if fr else f"every {_trim(minutes / 60, lang)} h")
        return f"toutes les {_trim(minutes, lang)} min" if fr else f"every {_trim(minutes, lang)} min"
    if field == "budget_eur":
        return f"{_trim(value, lang)} €" if fr else f"€{_trim(value, lang)}"
    if field == "power_limit_w":
        return f"{_trim(value / 1000, lang)} kW" if value >= 1000 else f"{_trim(value, lang)} W"
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
        return "anonyme" if fr else "anonymous"
    if isinstance(value, float):
        return _trim(value, lang)
    return str(value)


def gpu_name(gpu_id: str) -> str:
    """'h100-sxm' -> 'NVIDIA H100 SXM5 80GB', the catalogue's name (the id itself when unknown)."""
    try:
        from tools.catalog import load_catalog

        return next((g.name for g in load_catalog().gpus if g.id == gpu_id), gpu_id)
    except Exception:  # the catalogue is optional for display: the id says it too
        return gpu_id


def understood(items: list[tuple[str, Any, Any, bool]], lang: Lang, revision: str | None = None) -> str:
    """'Compris : modèle X (révision non fixée), fp8, ...' ; items are (field, value, previous, is_correction).

    `revision` is the model revision known so far: a model is always confirmed with it, pinned or not."""
    fr = lang == "fr"
    new = [(f, v) for f, v, prev, corr in items if not corr]
    fixed = [(f, v, prev) for f, v, prev, corr in items if corr]
    parts = []

    def shown(field: str, value: Any) -> str:
        text = format_value(field, value, lang)
        if field == "model" and not any(f == "model_revision" for f, *_ in items):
            text += f" ({field_label('model_revision', lang)} {format_value('model_revision', revision, lang)})"
        return text

    if new:
        body = ", ".join(f"{field_label(f, lang)} {shown(f, v)}" for f, v in new)
        parts.append(("Compris : " if fr else "Understood: ") + body + ".")
    if fixed:
        body = ", ".join(
            f"{field_label(f, lang)} {format_value(f, prev, lang)} → {format_value(f, v, lang)}"
            for f, v, prev in fixed
        )
        parts.append(("Corrigé : " if fr else "Corrected: ") + body + ".")
    return " ".join(parts)


def assumed_default(field: str, value: Any, lang: Lang) -> str:
    question = BY_ID[field]
    doc = question.default_doc.get(lang, "")
    shown = format_value(field, value, lang)
    shown = doc if doc.startswith(shown) else f"{shown} ({doc})"
    return render(lang, "agent.default.assumed", label=question.label[lang], value=shown)


def no_default(field: str, lang: Lang) -> str:
    question = BY_ID[field]
    if lang == "fr":
        return (f"Sans {question.label['fr']}, je ne peux rien calculer : il n'y a pas de valeur par défaut "
                f"raisonnable. Par exemple : « {question.example['fr']} ».")
    return (f"Without the {question.label['en']} I cannot compute anything: there is no sensible default. "
            f"For example: \"{question.example['en']}\".")


def not_understood(field: str | None, text: str, attempts: int, lang: Lang) -> str:
    shown = text.strip()[:60]
    if field is None:
        return ("Je n'ai rien reconnu dans « " + shown + " ». Vous pouvez corriger une réponse, par exemple "
                "« plutôt 64 utilisateurs », ou demander la proposition.") if lang == "fr" else (
                "I recognised nothing in \"" + shown + "\". You can correct an answer, e.g. \"actually 64 "
                "users\", or ask for the proposal.")
    question = BY_ID[field]
    example = question.example[lang]
    extra = ""
    if question.choices:
        labels = [question.choice_labels.get(c, {}).get(lang, c) for c in question.choices]
        extra = (" Réponses possibles : " if lang == "fr" else " Possible answers: ") + ", ".join(labels) + "."
    if attempts > 1:
        extra += (" Vous pouvez aussi répondre « je ne sais pas »." if lang == "fr"
                  else " You may also answer \"I don't know\".") if question.has_default() else ""
    if lang == "fr":
        return f"Je n'ai pas compris « {shown} » comme {question.label['fr']}. Exemple : « {example} ».{extra}"
    return f"I did not understand \"{shown}\" as the {question.label['en']}. Example: \"{example}\".{extra}"


def invalid(field: str, reason: str, lang: Lang) -> str:
    label = field_label(field, lang)
    return (f"Valeur refusée pour {label} : {reason}." if lang == "fr"
            else f"Value refused for {label}: {reason}.")


def why(field: str, lang: Lang) -> str:
    question = BY_ID[field]
    prefix = "Pourquoi cette question : " if lang == "fr" else "Why this matters: "
    default = ""
    if question.has_default():
        default = (f" Si vous ne savez pas, je prendrai {question.default_doc[lang]}." if lang == "fr"
                   else f" If you don't know, I'll use {question.default_doc[lang]}.")
    return prefix + question.why[lang] + default


def restate(findings: list[Any], missing: int, lang: Lang) -> str:
    """What a pasted brief said, field by field with the customer's words, then how much is left."""
    lines = [render(lang, "agent.brief.heading")]
    for finding in sorted(findings, key=lambda f: f.span):
        if finding.field == "model_family":
            continue
        key = "agent.brief.item_approximate" if finding.approximate else "agent.brief.item"
        lines.append(render(lang, key, label=field_label(finding.field, lang),
                            value=format_value(finding.field, finding.value, lang), words=finding.words.strip()))
    lines.append(render(lang, "agent.brief.missing", n=missing) if missing else render(lang, "agent.brief.complete"))
    return "\n".join(lines)


def did_you_mean(names: tuple[str, ...] | list[str], lang: Lang) -> str:
    """'Did you mean A, B or C?' for names the customer may have meant."""
    shown = [str(n) for n in names]
    joined = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" {render(lang, 'agent.suggest.or')} {shown[-1]}"
    return render(lang, "agent.suggest.model", names=joined)
