"""The HTML proposal, parsed with html.parser and checked against the session's tool results."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from sizer_agent.proposal import render_proposal
from sizer_agent.proposal.i18n import format_eur, format_number

GIB = 2**30
# Attributes through which a browser or a PDF printer would fetch something.
RESOURCE_ATTRS = {
    "src",
    "href",
    "xlink:href",
    "srcset",
    "poster",
    "action",
    "formaction",
    "data",
    "background",
    "manifest",
    "ping",
    "cite",
    "longdesc",
    "codebase",
}


class Page(HTMLParser):
    """Collects tags, attributes, style text and the text of every element carrying a data- attribute."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.styles: list[str] = []
        self.text: list[str] = []
        self._stack: list[tuple[str, dict[str, str], list[str]]] = []
        self.elements: list[tuple[str, dict[str, str], str]] = []  # (tag, attrs, text inside)
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        self.tags.append((tag, attributes))
        self._in_style = tag == "style"
        if "style" in attributes:
            self.styles.append(attributes["style"])
        if tag not in ("meta", "br", "hr", "img", "link", "input", "circle", "line", "rect", "polyline"):
            self._stack.append((tag, attributes, []))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        self.tags.append((tag, attributes))

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False
        while self._stack:
            open_tag, attributes, parts = self._stack.pop()
            text = "".join(parts)
            self.elements.append((open_tag, attributes, text))
            if self._stack:
                self._stack[-1][2].append(text)
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)
        self.text.append(data)
        if self._stack:
            self._stack[-1][2].append(data)

    def with_attr(self, name: str, value: str | None = None) -> list[tuple[str, dict[str, str], str]]:
        return [e for e in self.elements if name in e[1] and (value is None or e[1][name] == value)]


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    return page


@pytest.fixture(params=["fr", "en"])
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def page(session: dict[str, Any], lang: str) -> Page:
    return parse(render_proposal(session, "html", lang))  # type: ignore[arg-type]


def test_no_external_resources(page: Page) -> None:
    for tag, attrs in page.tags:
        assert tag not in ("script", "link", "iframe", "object", "embed", "img", "base"), f"<{tag}> in the page"
        for name, value in attrs.items():
            if name in RESOURCE_ATTRS:
                assert value.startswith("#"), f"<{tag} {name}={value!r}> points outside the document"
            assert not name.startswith("on"), f"event handler {name} on <{tag}>"
    css = "\n".join(page.styles)
    assert css.strip(), "the stylesheet is inline"
    assert "@import" not in css
    assert not re.search(r"url\s*\(", css), "no url() at all: nothing to fetch, not even locally"
    assert "@font-face" not in css


def test_every_cited_offer_appears_with_its_price(
    page: Page, session: dict[str, Any], lang: str, tool_result: Any
) -> None:
    options = tool_result(session, "recommend")["options"]
    assert {o["offer_id"] for o in options} == {"ACD-006", "ACD-009", "ACD-014"}
    verdicts = {e[1]["data-verdict"] for e in page.with_attr("data-verdict")}
    assert verdicts == {"ACD-006", "ACD-009", "ACD-014"}
    for option in options:
        rows = [e for e in page.with_attr("data-offer", option["offer_id"]) if e[0] == "tr"]
        assert len(rows) == 1, option["offer_id"]
        _, _, text = rows[0]
        assert option["offer_id"] in text and option["name"] in text
        price_cells = [e for e in page.with_attr("data-price") if e[2] == format_eur(option["price_eur"], lang)]  # type: ignore[arg-type]
        assert price_cells, f"{option['offer_id']}: price {option['price_eur']} not printed"
        assert format_eur(option["price_eur"], lang) in text  # type: ignore[arg-type]
        assert float(price_cells[0][1]["data-price"]) == option["price_eur"]
    # The seed catalogue's prices, as a customer reads them.
    body = "".join(page.text)
    expected = {
        "fr": ["7\u202f160\u00a0€", "22\u202f670\u00a0€", "55\u202f480\u00a0€"],
        "en": ["€7,160", "€22,670", "€55,480"],
    }[lang]
    for price in expected:
        assert price in body


def test_performance_numbers_equal_the_tool_results(
    page: Page, session: dict[str, Any], lang: str, tool_result: Any
) -> None:
    recommend = tool_result(session, "recommend")
    chosen = next(o for o in recommend["options"] if o["offer_id"] == recommend["recommended"])
    shown = ("ttft_ms", "tpot_ms", "output_tokens_per_s", "max_concurrency_under_slo", "sustained_output_tokens_per_s")
    expected = {k: chosen["perf"][k] for k in shown} | {"eur_per_million_tokens": chosen["eur_per_million_tokens"]}
    cells = {e[1]["data-metric"]: e for e in page.with_attr("data-metric") if e[0] == "td"}
    for metric, value in expected.items():
        assert float(cells[metric][1]["data-value"]) == value, metric
    assert cells["ttft_ms"][2] == f"{format_number(chosen['perf']['ttft_ms'], 0, lang)}\u00a0ms"  # type: ignore[arg-type]
    assert cells["tpot_ms"][2] == f"{format_number(chosen['perf']['tpot_ms'], 1, lang)}\u00a0ms"  # type: ignore[arg-type]
    # perf per 1 000 € of purchase price: the output tokens/s at the stated load divided by the price
    per_keur = chosen["perf"]["output_tokens_per_s"] / chosen["price_eur"] * 1000
    assert float(cells["tokens_per_s_per_keur"][1]["data-value"]) == pytest.approx(per_keur)
    estimate = tool_result(session, "estimate_memory")
    assert float(cells["ttft_mean_ms"][1]["data-value"]) == estimate["perf"]["ttft_mean_ms"]


def test_memory_terms_equal_the_estimate(page: Page, session: dict[str, Any], tool_result: Any) -> None:
    per_gpu = tool_result(session, "estimate_memory")["per_gpu"]
    cells = {e[1]["data-term"]: int(e[1]["data-bytes"]) for e in page.with_attr("data-term")}
    assert cells == {k[: -len("_bytes")]: v for k, v in per_gpu.items() if k != "total_bytes" and v > 0}
    assert sum(cells.values()) == per_gpu["total_bytes"]


def test_measured_beside_estimate(page: Page, session: dict[str, Any], tool_result: Any) -> None:
    level = next(lv for lv in session["benchmarks"][-1]["levels"] if lv["concurrency"] == 32)
    estimate = tool_result(session, "estimate_memory")
    perf = tool_result(session, "recommend")["options"][0]["perf"]
    rows = {e[1]["data-metric"]: e[1] for e in page.with_attr("data-metric") if e[0] == "tr"}
    # same statistic on both sides: P99 with P99, mean with mean
    assert float(rows["ttft_p"]["data-estimate"]) == perf["ttft_ms"]
    assert float(rows["ttft_p"]["data-measured"]) == level["ttft_ms"]["p99"]
    assert float(rows["ttft_mean"]["data-estimate"]) == estimate["perf"]["ttft_mean_ms"]
    assert float(rows["ttft_mean"]["data-measured"]) == level["ttft_ms"]["mean"]
    assert float(rows["tpot_mean"]["data-estimate"]) == perf["tpot_ms"]
    assert float(rows["tpot_mean"]["data-measured"]) == level["tpot_ms"]["mean"]
    total_used = estimate["engine"]["total_used_bytes"] / GIB
    assert float(rows["peak_memory_gib"]["data-estimate"]) == pytest.approx(total_used)
    assert float(rows["output_tokens_per_s"]["data-measured"]) == level["output_tokens_per_s"]
    assert float(rows["peak_memory_gib"]["data-measured"]) == pytest.approx(level["peak_gpu_memory_bytes"] / GIB)
    assert [t for t, _ in page.tags].count("svg") == 3  # memory, roofline, latency–throughput


def test_acceptance_limits_and_their_command(page: Page, session: dict[str, Any], tool_result: Any) -> None:
    estimate = tool_result(session, "estimate_memory")
    limits = {e[1]["data-limit"]: e[1] for e in page.with_attr("data-limit")}
    assert set(limits) == {"ttft", "tpot", "throughput", "peak_memory", "failed_requests"}
    assert float(limits["ttft"]["data-value"]) == 500
    assert float(limits["tpot"]["data-value"]) == 50
    # all the engine holds on the GPU (budget + CUDA graphs + context): the memory the sizing rests on
    total_used = estimate["engine"]["total_used_bytes"] / GIB
    assert float(limits["peak_memory"]["data-value"]) == pytest.approx(total_used)
    # 32 clients × 512 tokens ÷ (0.5 s + 511 × 0.05 s): the throughput the SLA itself implies.
    assert float(limits["throughput"]["data-value"]) == pytest.approx(32 * 512 / (0.5 + 511 * 0.05))
    commands = {e[1]["data-command"]: e[2] for e in page.with_attr("data-command") if e[0] == "pre"}
    for limit in limits.values():
        assert limit["data-command"] in commands
    command = commands["1"]
    assert command == (
        "sizer-agent bench serve --base-url http://SERVER:8000 --model meta-llama/Llama-3.1-70B-Instruct "
        "--input-len 2048 --output-len 512 --concurrency 32 --num-prompts 256 --slo-ttft-ms 500 "
        "--slo-tpot-ms 50 --percentile 99 --json"
    )


def test_assumed_answers_are_marked(page: Page, session: dict[str, Any], lang: str) -> None:
    word = {"fr": "supposé", "en": "assumed"}[lang]
    rows = {e[1]["data-field"]: e[2] for e in page.with_attr("data-field")}
    assert set(rows) == set(session["answers"]), "every answer is listed"
    for field, answer in session["answers"].items():
        assert (word in rows[field]) == answer["assumed"], field
