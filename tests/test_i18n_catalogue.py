"""The product's one catalogue per language: same keys, same placeholders, every spec known, renders."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest

from sizer_agent.i18n import LANGS, TERMS, MissingTranslation, catalogue, device_terms, long_date, number, render
from sizer_agent.tools.messages import Msg


def _fields(text: str) -> set[tuple[str, str]]:
    """(name, spec) of every placeholder; a plural's words are the language's own, only `pl` must match."""
    return {(name, "pl" if (spec or "").startswith("pl:") else spec or "")
            for _, name, spec, _ in string.Formatter().parse(text) if name is not None}


def test_both_languages_have_the_same_keys() -> None:
    fr, en = set(catalogue("fr")), set(catalogue("en"))
    assert sorted(fr - en) == [], "keys missing in en.toml"
    assert sorted(en - fr) == [], "keys missing in fr.toml"


def test_placeholders_and_their_formats_match_between_languages() -> None:
    fr, en = catalogue("fr"), catalogue("en")

    def values(text: str) -> set[tuple[str, str]]:  # a plural is grammar: one language may need it alone
        return {f for f in _fields(text) if f[1] != "pl"}

    different = [k for k in fr if values(fr[k]) != values(en[k])]
    assert different == []
    empty = [k for k in fr if not fr[k].strip() or not en[k].strip()]
    assert empty == []


def _sample(spec: str) -> Any:
    if spec == "list":
        return ["a", "b"]
    if spec == "date":
        return "2026-12-01"
    if spec == "" or spec == "pl":
        return "x" if spec == "" else 2
    return 1234.5


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_renders_with_values_of_its_specs(lang: str) -> None:
    for key, text in catalogue(lang).items():  # type: ignore[arg-type]
        params: dict[str, Any] = {}
        for name, spec in sorted(_fields(text), key=lambda f: f[1] == "pl"):
            params.setdefault(name, _sample(spec))
        render(lang, key, **params)  # type: ignore[arg-type]


def test_missing_key_or_parameter_is_an_error() -> None:
    with pytest.raises(MissingTranslation):
        render("fr", "no.such_key")
    with pytest.raises(MissingTranslation, match="parameter"):
        render("fr", "notice.exported")


def test_locale_numbers_units_and_dates() -> None:
    assert number(1234567.891, "fr", 2) == "1\u202f234\u202f567,89"
    assert number(1234567.891, "en", 2) == "1,234,567.89"
    assert number(float("nan"), "en") == "—"
    assert number(1e28, "en") == "10,000,000,000,000,000,000,000,000,000"  # past Babel's default 28 digits
    assert long_date("2026-12-01", "fr") == "1er décembre 2026"
    assert long_date("2026-12-02", "en") == "2 December 2026"


def test_a_tool_message_renders_with_nested_messages() -> None:
    inner = Msg("sla.largest", concurrency=1200, why=Msg("sla.memory_limit"))
    assert render("en", Msg("notice.exported", path=inner)) == (
        "Session exported: largest passing concurrency 1,200 (memory limit reached)")
    assert render("fr", Msg("notice.exported", path=inner)) == (
        "Session exportée : plus grande simultanéité qui passe : 1\u202f200 (limite mémoire atteinte)")


ROOT = Path(__file__).resolve().parents[1]
SOURCES = [*ROOT.joinpath("sizer_agent").rglob("*.py"), *ROOT.joinpath("tools").rglob("*.py"),
           *ROOT.joinpath("templates").glob("*.j2")]
# A key asked for by name: render(lang, "k"), Msg("k"), t("k"), h.t("k") (Python and templates).
KEY = r"[a-z_]+(?:\.[a-z0-9_]+)+"  # section.key, or section.sub.key
ASKED = re.compile(r"""(?:render\(\s*[\w.]+,\s*|Msg\(\s*|\bt\(\s*|h\.t\(\s*)["'](""" + KEY + r""")["'](?!\s*~)""")
LITERAL = re.compile(r"""["'](""" + KEY + r""")["']""")
# A family of keys completed at run time: f"knob.{code}", 'budget.' ~ status, label("field", name).
STEM = r"[a-z_]+(?:\.[a-z0-9_]*)+"
PREFIX = (re.compile(r"""f["'](""" + STEM + r""")\{"""), re.compile(r"""["'](""" + STEM + r""")["']\s*~"""))
LABEL = re.compile(r"""label\(\s*["']([a-z_]+)["']""")


def _scan() -> tuple[set[str], set[str], set[str]]:
    asked: set[str] = set()
    literal: set[str] = set()
    prefixes: set[str] = set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        asked |= set(ASKED.findall(text))
        literal |= set(LITERAL.findall(text))
        for pattern in PREFIX:
            prefixes |= set(pattern.findall(text))
        prefixes |= {f"{section}." for section in LABEL.findall(text)}
    return asked, literal, prefixes


def test_every_key_asked_for_exists() -> None:
    asked, _, _ = _scan()
    assert sorted(asked - set(catalogue("en"))) == []


def test_every_key_is_used() -> None:
    """A sentence nobody shows is a translation nobody checks: the catalogue holds only live keys."""
    _, literal, prefixes = _scan()
    variants = tuple(f"{terms}." for terms in TERMS)

    def live(key: str) -> bool:
        return key in literal or any(key.startswith(p) for p in prefixes)

    # a `chip.` key replaces its base key inside device_terms("chip"): it lives while its base does
    unused = [k for k in catalogue("en") if not live(k) and not (k.startswith(variants) and live(k.split(".", 1)[1]))]
    assert unused == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_accelerator_variant_replaces_a_key_with_the_same_placeholders(lang: str) -> None:
    texts = catalogue(lang)  # type: ignore[arg-type]
    for terms in TERMS:
        variants = {k: v for k, v in texts.items() if k.startswith(f"{terms}.")}
        assert variants, terms
        for key, text in variants.items():
            base = key.split(".", 1)[1]
            assert base in texts, f"{key} replaces no key"
            assert _fields(text) - {(n, "pl") for n, _ in _fields(text)} <= _fields(texts[base]), key


def test_accelerator_words_apply_inside_the_block_only_and_reach_nested_messages() -> None:
    why = Msg("reason.memory", need=200 * 2**30, gpus=2, tp=2, pp=1, usable=90 * 2**30, gpu=95 * 2**30,
              headroom=0.1)
    cannot = Msg("verdict.cannot", gpus=2, why=why)
    gpu_words = render("en", cannot)
    assert "2 GPUs tried" in gpu_words and "per GPU" in gpu_words
    with device_terms("chip"):
        chip = render("en", cannot)
        assert "2 puces essayées" in render("fr", cannot) and "par puce" in render("fr", cannot)
        with device_terms(None):  # a GPU offer listed inside a TPU document keeps its own words
            assert render("en", cannot) == gpu_words
    assert "2 chips tried" in chip and "per chip" in chip and "GPU" not in chip
    assert render("en", cannot) == gpu_words  # the block ended


def test_every_question_has_its_words_in_both_languages() -> None:
    from sizer_agent.agent.questions import QUESTIONS

    for question in QUESTIONS:
        for lang in ("fr", "en"):
            assert question.label[lang] and question.text[lang] and question.why[lang] and question.example[lang]
            # a conditional default (the model's, for a pre-training said by its size) is documented too
            conditional = question.default_if is not None
            assert bool(question.default_doc.get(lang)) == (question.has_default() or conditional), question.id
        if question.type == "choice" and question.id == "use_case":
            assert set(question.choice_labels) == set(question.choices)  # every use case has its words
