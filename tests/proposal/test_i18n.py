"""The translation catalogue: both languages complete, every key used, placeholders the same."""

from __future__ import annotations

import re
import string
from importlib import resources
from pathlib import Path
from typing import Any, get_args

import pytest

from sizer_agent.proposal import fields
from sizer_agent.proposal import models as context
from sizer_agent.proposal.i18n import LANGS, Translator, catalogue, format_eur, format_number
from sizer_agent.proposal.render import render_proposal

APP_SECTIONS = ("app", "chat", "cmd", "help", "key", "mem", "notice", "results", "sessions", "side", "tool")
AGENT_SECTIONS = ("agent", "intake")  # the interview's sentences: tests/agent/test_catalogue_keys.py checks them
SOURCES = Path(__file__).resolve().parents[2] / "sizer_agent" / "proposal"
# Catalogue sections that label data keys; each key must name a key the code knows.
LABEL_SECTIONS = {
    "field": fields.FIELD_ORDER,
    "term": fields.MEMORY_TERMS,
    "system": fields.SYSTEM_ORDER,
    "value": fields.KNOWN_VALUES,
    "phase": fields.PHASES,
    "bound": fields.BOUNDS,
    "hostunit": fields.HOST_UNITS,
}


def _literal(model: Any, name: str) -> tuple[str, ...]:
    return tuple(get_args(model.model_fields[name].annotation))


def used_keys() -> set[str]:
    """Keys the templates and the renderer ask for: literal t('…')/tr("…") calls plus the dynamic families."""
    texts = [
        resources.files("templates").joinpath(n).read_text(encoding="utf-8")
        for n in ("proposal.md.j2", "proposal.html.j2")
    ]
    python = [(SOURCES / n).read_text(encoding="utf-8") for n in ("render.py", "charts.py")]
    keys: set[str] = set()
    for text in texts + python:
        # A key followed by `~` is a prefix completed at run time: counted below, from the code's literals.
        keys |= set(re.findall(r"""\b(?:t|tr)\(\s*['"]([a-z_]+\.[a-z0-9_]+)['"](?!\s*~)""", text))
        keys |= {f"unit.{u}" for u in re.findall(r"""unit\([^()]*?['"]([a-z_]+)['"]""", text)}
    dynamic = {
        "perf.basis_": _literal(context.Performance, "basis"),
        "metric.": _literal(context.Comparison, "metric"),
        "risk.": tuple(c for c in get_args(context.RiskCode) if c != "tool"),
        "limit.": _literal(context.AcceptanceLimit, "code"),
        "common.": _literal(context.AcceptanceLimit, "status"),
        "software.": get_args(context.SoftwareKey),
        "acceptance.verify_": _literal(context.Command, "kind"),
        "term.": fields.MEMORY_TERMS,
    }
    for prefix, names in dynamic.items():
        keys |= {prefix + name for name in names}
    for section, names in LABEL_SECTIONS.items():
        keys |= {f"{section}.{name}" for name in names}
    return keys


def test_both_languages_have_the_same_keys() -> None:
    fr, en = set(catalogue("fr")), set(catalogue("en"))
    assert sorted(fr - en) == [], "keys missing in en.toml"
    assert sorted(en - fr) == [], "keys missing in fr.toml"


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_is_used_and_every_used_key_exists(lang: str) -> None:
    keys = {k for k in catalogue(lang) if k.split(".")[0] not in (*APP_SECTIONS, *AGENT_SECTIONS)}  # type: ignore[arg-type]
    used = used_keys()
    assert sorted(used - keys) == [], f"used but missing in {lang}.toml"
    assert sorted(keys - used) == [], f"unused keys in {lang}.toml"


def test_placeholders_match_between_languages() -> None:
    fr, en = catalogue("fr"), catalogue("en")
    for key in fr:
        names_fr = {f for _, f, _, _ in string.Formatter().parse(fr[key]) if f}
        names_en = {f for _, f, _, _ in string.Formatter().parse(en[key]) if f}
        assert names_fr == names_en, key
        assert fr[key].strip() and en[key].strip(), key


def test_missing_key_is_an_error_not_a_fallback() -> None:
    with pytest.raises(KeyError, match="no translation"):
        Translator("fr")("doc.no_such_key")


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_french_document_carries_no_english_catalogue_text(session: dict[str, Any], fmt: str) -> None:
    """Every text of the template comes from the catalogue: no English sentence leaks into French."""
    document = french = render_proposal(session, fmt, "fr")  # type: ignore[arg-type]
    for data in sorted(_strings(session), key=len, reverse=True):  # tool results speak their own language
        if len(data) > 15:
            french = french.replace(data, "")
    fr, en = catalogue("fr"), catalogue("en")
    leaks = [en[k] for k in en if en[k] != fr[k] and len(en[k]) > 12 and "{" not in en[k] and en[k] in french]
    assert leaks == []
    for heading in ("Synthèse", "Profil de la charge", "Limites de recette", "Sources"):
        assert heading in document


def _strings(node: Any) -> set[str]:
    if isinstance(node, str):
        return {node}
    if isinstance(node, dict):
        return set().union(*(_strings(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(_strings(v) for v in node)) if node else set()
    return set()


def test_number_formats() -> None:
    assert format_number(1234567.891, 2, "fr") == "1\u202f234\u202f567,89"
    assert format_number(1234567.891, 2, "en") == "1,234,567.89"
    assert format_number(-161.26, 1, "fr") == "\u2212161,3"
    assert format_number(None, 1, "en") == "—"
    assert format_eur(55480, "fr") == "55\u202f480\u00a0€"
    assert format_eur(55480, "en") == "€55,480"
