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


def plan_of(session: dict[str, Any], tool_result: Any) -> Any:
    from sizer_agent import advice

    return advice.load(tool_result(session, "recommend"))


def test_every_configuration_appears_with_its_price(
    page: Page, session: dict[str, Any], lang: str, tool_result: Any
) -> None:
    result = plan_of(session, tool_result)
    shown = [p for p in (result.plan, *result.alternatives) if p is not None]
    rows = {e[1]["data-offer"]: e for e in page.with_attr("data-offer") if e[0] == "tr"}
    assert set(rows) == {p.offer_id for p in shown}
    for plan in shown:
        _, attrs, text = rows[plan.offer_id]
        assert plan.offer_id in text and plan.offer_name in text
        if plan.purchase.price_eur is not None:
            assert float(attrs["data-price"]) == plan.purchase.price_eur
            assert format_eur(plan.purchase.price_eur, lang) in text  # type: ignore[arg-type]
        assert int(attrs["data-gpus"]) == plan.parallelism.num_gpus
    verdicts = "".join(page.text)
    for offer in result.offers:
        assert offer.offer_id in verdicts  # every offer of the catalogue gets its verdict


def test_performance_numbers_equal_the_plan(page: Page, session: dict[str, Any], lang: str, tool_result: Any) -> None:
    serving = plan_of(session, tool_result).plan.serving
    cells = {e[1]["data-metric"]: e for e in page.with_attr("data-metric") if e[0] == "tr"}
    for metric in ("ttft_ms", "ttft_mean_ms", "tpot_ms", "output_tokens_per_s", "max_concurrency_memory",
                   "sustained_output_tokens_per_s"):
        assert float(cells[metric][1]["data-value"]) == getattr(serving, metric), metric
    assert cells["ttft_ms"][2].endswith(f"{format_number(serving.ttft_ms, 0, lang)}\u00a0ms")  # type: ignore[arg-type]


def test_memory_terms_are_the_plans_split(page: Page, session: dict[str, Any], tool_result: Any) -> None:
    plan = plan_of(session, tool_result).plan
    cells = {e[1]["data-term"]: int(e[1]["data-bytes"]) for e in page.with_attr("data-term")}
    total = cells.pop("total")
    assert cells["weights"] == plan.memory.weights_bytes  # one GPU's share under the plan's TP x PP
    assert total == sum(cells.values()) == plan.memory.load_bytes
    assert total <= plan.memory.gpu_memory_bytes


def test_acceptance_limits_and_their_command(page: Page, session: dict[str, Any], tool_result: Any) -> None:
    plan = plan_of(session, tool_result).plan
    limits = {e[1]["data-limit"]: e[1] for e in page.with_attr("data-limit")}
    assert set(limits) == {"ttft", "tpot", "throughput", "peak_memory", "kv_tokens", "failed_requests"}
    assert float(limits["ttft"]["data-value"]) == 500
    assert float(limits["tpot"]["data-value"]) == 50
    # what vLLM holds on each GPU of the recommended split: its reservation of the recommended card
    assert float(limits["peak_memory"]["data-value"]) == plan.memory.engine_reserved_bytes
    assert plan.memory.engine_reserved_bytes <= plan.memory.gpu_memory_bytes
    # 64 clients (32 today x growth 2) x 512 tokens / (0.5 s + 511 x 0.05 s): the throughput the SLA implies
    assert float(limits["throughput"]["data-value"]) == pytest.approx(64 * 512 / (0.5 + 511 * 0.05))
    commands = {e[1]["data-command"]: e[2] for e in page.with_attr("data-command") if e[0] == "pre"}
    for limit in limits.values():
        assert limit["data-command"] in commands
    p = plan.parallelism
    assert commands["1"].startswith(
        f"sizer-agent bench launch --model meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size "
        f"{p.tensor_parallel} --max-model-len {plan.serving.max_model_len} --gpu-memory-utilization 0.9")
    assert "--input-len 2048 --output-len 512 --concurrency 64 --num-prompts 512" in commands["1"]
    assert commands["2"].startswith("sizer-agent bench serve --base-url http://SERVER:8000 --model ")


def test_assumed_answers_are_marked(page: Page, session: dict[str, Any], lang: str) -> None:
    word = {"fr": "supposé", "en": "assumed"}[lang]
    rows = {e[1]["data-field"]: e[2] for e in page.with_attr("data-field")}
    assert set(rows) == set(session["answers"]), "every answer is listed"
    for field, answer in session["answers"].items():
        assert (word in rows[field]) == answer["assumed"], field


def test_charts_are_inline_svg(page: Page) -> None:
    assert [t for t, _ in page.tags].count("svg") == 2  # memory and roofline
