"""Plain-words explanations of tool results. Every number shown is read from the result dict.

The functions read results defensively (`.get`) so that an added or renamed field in a tool's output
degrades to a shorter sentence, never to an exception in the middle of an interview.
"""

from __future__ import annotations

from typing import Any

from sizer_agent.agent.planning import sized_concurrency
from sizer_agent.agent.profile import WorkloadProfile
from sizer_agent.agent.questions import Lang
from sizer_agent.agent.wording import gigabytes, number
from tools.registry import ToolOutcome, ToolRegistry

_PARTS = (
    ("weights_bytes", "poids", "weights"),
    ("kv_cache_bytes", "cache KV", "KV cache"),
    ("activations_bytes", "activations", "activations"),
    ("gradients_bytes", "gradients", "gradients"),
    ("optimizer_bytes", "états de l'optimiseur", "optimizer states"),
    ("runtime_bytes", "runtime", "runtime"),
)


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def estimate(result: dict[str, Any], profile: WorkloadProfile, lang: Lang) -> str:
    fr = lang == "fr"
    per_gpu = result.get("per_gpu") or {}
    lines = []
    total = _num(per_gpu.get("total_bytes"))
    parts = [
        f"{(fr_name if fr else en_name)} {gigabytes(v, lang)}"
        for key, fr_name, en_name in _PARTS
        if (v := _num(per_gpu.get(key))) is not None and v >= 5e7  # below 0.05 GB it would print as 0.0
    ]
    if total is not None:
        head = (f"**Mémoire par GPU : {gigabytes(total, lang)}**" if fr
                else f"**Memory per GPU: {gigabytes(total, lang)}**")
        lines.append(head + (" — " + " · ".join(parts) if parts else "") + ".")
    plan = result.get("parallelism") or {}
    gpus = plan.get("num_gpus")
    if isinstance(gpus, int):
        tp = plan.get("tensor_parallel_size", plan.get("tp"))
        pp = plan.get("pipeline_parallel_size", plan.get("pp"))
        dp = plan.get("data_parallel_size", plan.get("dp"))
        detail = ", ".join(f"{name} {v}" for name, v in (("TP", tp), ("PP", pp), ("DP", dp)) if v)
        lines.append((f"Plan : {gpus} GPU" if fr else f"Plan: {gpus} GPU") + (f" ({detail})." if detail else "."))
    weights_total = _num(result.get("weight_bytes_total"))
    if weights_total is not None and gpus and gpus > 1:
        lines.append((f"Poids du modèle entier : {gigabytes(weights_total, lang)}, répartis entre les GPU — la "
                      "VRAM ne s'additionne pas, il faut ce parallélisme pour que cela tienne.") if fr else
                     (f"Whole-model weights: {gigabytes(weights_total, lang)}, split across the GPUs — VRAM "
                      "does not add up, this parallelism is what makes it fit."))
    kv_token = _num(result.get("kv_cache_bytes_per_token"))
    if kv_token:
        kib = number(kv_token / 1024, lang, 0)
        lines.append(f"Cache KV : {kib} Kio par token et par GPU." if fr else f"KV cache: {kib} KiB per token per GPU.")
    engine = result.get("engine") or {}
    if isinstance(engine, dict) and engine.get("max_concurrency") is not None:
        lines.append((f"Profil vLLM : {engine['max_concurrency']} séquences de contexte maximal tiennent dans le "
                      "pool de cache KV.") if fr else
                     (f"vLLM profile: {engine['max_concurrency']} sequences at full context fit in the KV-cache "
                      "pool."))
    fits = result.get("fits")
    gpu_bytes = _num(result.get("gpu_memory_bytes"))
    if fits is not None and gpu_bytes:
        verdict = ("tient" if fits else "ne tient pas") if fr else ("fits" if fits else "does not fit")
        lines.append(f"Sur un GPU de {gigabytes(gpu_bytes, lang)} : {verdict}." if fr
                     else f"On a {gigabytes(gpu_bytes, lang)} GPU: {verdict}.")
    if profile.use_case == "online_serving" and (profile.growth_factor or 1.0) > 1.0:
        n = sized_concurrency(profile)
        lines.append(f"Dimensionné pour {n} requêtes simultanées (pic actuel × croissance attendue)." if fr
                     else f"Sized for {n} concurrent requests (today's peak × expected growth).")
    for warning in result.get("warnings") or []:
        lines.append(f"⚠ {warning}")
    if not lines:
        return ("Estimation reçue (détails dans la carte de l'outil)." if fr
                else "Estimate received (details in the tool card).")
    return "\n".join(lines)


def _pick(item: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if item.get(key) is not None:
            return item[key]
    return None


def _option_line(rank: int, option: dict[str, Any], lang: Lang) -> str:
    fr = lang == "fr"
    name = _pick(option, "name", "offer_id") or "?"
    gpus, gpu_name = option.get("num_gpus"), option.get("gpu_name") or option.get("gpu")
    text = f"{rank}. **{name}**"
    if gpus and gpu_name:
        text += f" — {gpus} × {gpu_name}"
    price = _num(option.get("price_eur"))
    hourly = _num(option.get("hourly_eur"))
    if price is not None:
        text += f", {number(price, lang)} €"
    elif hourly is not None:
        text += f", {number(hourly, lang, 2)} €/h"
    perf = option.get("perf") or {}
    tokens = _num(perf.get("sustained_output_tokens_per_s") or perf.get("output_tokens_per_s"))
    if tokens is not None:
        text += f", {number(tokens, lang)} tokens/s"
    per_million = _num(option.get("eur_per_million_tokens"))
    if per_million is not None:
        text += f", {number(per_million, lang, 2)} € " + ("par million de tokens" if fr else "per million tokens")
    headroom = _num(option.get("headroom_pct"))
    if headroom is not None:
        text += f", {number(headroom, lang, 0)} % " + ("de mémoire libre" if fr else "memory free")
    return text


def recommendation(result: dict[str, Any], lang: Lang, power_limit_w: float | None = None) -> str:
    """tools.recommend.RecommendResult: the pick and its reason, the best fitting options, the rejections."""
    fr = lang == "fr"
    lines = []
    if result.get("recommended"):
        lines.append((f"**Recommandation : {result['recommended']}**" if fr
                      else f"**Recommendation: {result['recommended']}**")
                     + (f" — {result['recommended_reason']}" if result.get("recommended_reason") else ""))
    elif result.get("recommended_reason"):
        lines.append(("Aucune configuration retenue : " if fr else "No configuration fits: ")
                     + str(result["recommended_reason"]))
    options = [o for o in result.get("options") or [] if isinstance(o, dict)]
    fitting = [o for o in options if o.get("fits")]
    if fitting:
        lines.append("Options qui tiennent (les moins chères par token d'abord) :" if fr
                     else "Options that fit (cheapest per token first):")
        lines += [_option_line(rank, option, lang) for rank, option in enumerate(fitting[:3], 1)]
        if power_limit_w:  # the recommendation does not know the site's limit: flag options above it
            for option in fitting[:3]:
                power = _num(option.get("power_w"))
                if power is not None and power > power_limit_w:
                    name = option.get("name") or option.get("offer_id")
                    lines.append(f"⚠ {name} : {number(power, lang)} W > {number(power_limit_w, lang)} W" if fr
                                 else f"⚠ {name}: {number(power, lang)} W > {number(power_limit_w, lang)} W")
    rejected = [v for v in result.get("offers") or [] if isinstance(v, dict) and not v.get("fits")]
    if rejected:
        lines.append("Écartées :" if fr else "Rejected:")
        lines += [f"- {v.get('name') or v.get('offer_id')}: {v.get('summary', '')}" for v in rejected[:8]]
    if not lines:
        return ("Recommandation reçue (détails dans la carte de l'outil)." if fr
                else "Recommendation received (details in the tool card).")
    return "\n".join(lines)


def offer_scope(profile: WorkloadProfile, offer_ids: list[str], supported: bool, lang: Lang) -> str:
    """Which catalogue offers the recommendation compared, and why (deployment, ECC)."""
    fr = lang == "fr"
    reasons = []
    if profile.deployment:
        labels = {"workstation": ("station de travail", "workstation"), "server": ("serveur", "server"),
                  "cloud": ("cloud", "cloud")}[profile.deployment]
        reasons.append(("déploiement " + labels[0]) if fr else ("deployment " + labels[1]))
    if profile.ecc_required:
        reasons.append("ECC exigée" if fr else "ECC required")
    if not reasons or not supported:
        return ""
    why = ", ".join(reasons)
    if offer_ids:
        return (f"Offres comparées ({why}) : {', '.join(offer_ids)}." if fr
                else f"Offers compared ({why}): {', '.join(offer_ids)}.")
    return (f"Aucune offre du catalogue ne correspond ({why}) : toutes les offres ont été comparées." if fr
            else f"No catalogue offer matches ({why}): every offer was compared.")


def has_fitting_option(result: dict[str, Any]) -> bool:
    return any(isinstance(o, dict) and o.get("fits") for o in result.get("options") or [])


def outside_scope(lang: Lang) -> str:
    return ("**Aucune offre de ce périmètre ne tient.** Hors périmètre (autre déploiement ou sans ECC), "
            "voici ce qui tiendrait :" if lang == "fr" else
            "**No offer within that scope fits.** Outside it (another deployment, or without ECC), this "
            "would fit:")


def bench(result: dict[str, Any], lang: Lang) -> str:
    """tools.bench ServeResult: per level, latencies and throughput measured in the same trial."""
    fr = lang == "fr"
    lines = []
    for level in result.get("levels") or []:
        if not isinstance(level, dict):
            continue
        ttft = (level.get("ttft_ms") or {}).get("at_percentile")
        tpot = (level.get("tpot_ms") or {}).get("at_percentile")
        tokens = _num(level.get("output_tokens_per_s"))
        parts = [f"{'concurrence' if fr else 'concurrency'} {level.get('concurrency')}"]
        if ttft is not None:
            parts.append(f"TTFT {number(ttft, lang, 0)} ms")
        if tpot is not None:
            parts.append(f"TPOT {number(tpot, lang, 1)} ms")
        if tokens is not None:
            parts.append(f"{number(tokens, lang, 0)} tokens/s")
        if level.get("sla_passed") is not None:
            parts.append(("SLA tenu" if level["sla_passed"] else "SLA non tenu") if fr
                         else ("SLA met" if level["sla_passed"] else "SLA missed"))
        lines.append("- " + ", ".join(parts))
    if not lines:
        return "Mesure reçue (détails dans la carte de l'outil)." if fr else "Measurement received (see the tool card)."
    head = ("Mesuré sur le serveur (percentile du SLA) :" if fr else "Measured on the server (SLA percentile):")
    return "\n".join([head, *lines])


def tool_failed(tool: str, outcome: ToolOutcome, lang: Lang) -> str:
    error = (outcome.error or "").strip()
    if lang == "fr":
        return f"L'outil `{tool}` a refusé : {error}"
    return f"Tool `{tool}` refused: {error}"


def tool_missing(tool: str, registry: ToolRegistry, lang: Lang) -> str:
    why = registry.unavailable.get(tool, "")
    if lang == "fr":
        return f"L'outil `{tool}` n'est pas disponible dans cette installation ({why}) ; le profil est enregistré."
    return f"Tool `{tool}` is not available in this installation ({why}); the profile is saved."
