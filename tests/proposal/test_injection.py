"""Text a customer typed is data: HTML and Jinja syntax in it come out inert in both formats."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from markdown_it import MarkdownIt
from markupsafe import escape

from sizer_agent.proposal import render_proposal

HOSTILE = "<script>alert(1)</script>{{ 7*7 }}"


def poison(session: dict[str, Any]) -> dict[str, Any]:
    """The hostile string everywhere a person, a vendor catalogue or a tool writes free text."""
    session["customer"] = HOSTILE
    session["title"] = HOSTILE
    session["answers"]["growth_factor"]["raw_text"] = HOSTILE
    session["answers"]["framework_version"]["value"] = HOSTILE
    session["answers"][HOSTILE] = {"value": HOSTILE, "assumed": True, "raw_text": HOSTILE, "history": []}
    recommend = next(c for c in session["tool_calls"] if c["tool"] == "recommend")["result"]
    recommend["plan"]["offer_name"] = HOSTILE  # a vendor's own catalogue names its offers
    recommend["plan"]["notes"].append({"id": "sys.graphics_none", "params": {"gpu": HOSTILE}})
    recommend["alternatives"][0]["gpu_name"] = HOSTILE
    recommend["offers"][0]["name"] = HOSTILE
    return session


class Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_html_renders_hostile_text_as_text(session: dict[str, Any], lang: str) -> None:
    html = render_proposal(poison(session), "html", lang)  # type: ignore[arg-type]
    parsed = Collector()
    parsed.feed(html)
    assert "script" not in parsed.tags
    assert "<script>" not in html
    text = "".join(parsed.text)
    assert text.count(HOSTILE) >= 6, "shown literally, as the customer typed it"
    # The customer's name sits escaped in the heading, and the Jinja expression was never evaluated.
    assert f"<h1>{escape(' — ')}" not in html and escape(HOSTILE) in html.split("</h1>")[0]
    assert "</script>49" not in text


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_markdown_renders_hostile_text_as_text(session: dict[str, Any], lang: str) -> None:
    md = render_proposal(poison(session), "md", lang)  # type: ignore[arg-type]
    assert "<script>" not in md
    assert "{{ 7\\*7 }}" in md, "Jinja syntax kept literally (Markdown-escaped), not evaluated"
    # Even a renderer that passes raw HTML through produces no script element.
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(md)
    parsed = Collector()
    parsed.feed(html)
    assert "script" not in parsed.tags
    assert "".join(parsed.text).count(HOSTILE) >= 6
    assert "</script>49" not in "".join(parsed.text)


CONTROL = "Acme\x1b]0;pwned\x07\x00\r\x9b2J Corp"


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_control_bytes_typed_by_a_customer_are_shown_not_kept(session: dict[str, Any], fmt: str) -> None:
    session["customer"] = session["title"] = CONTROL
    session["answers"]["customer"]["value"] = CONTROL
    session["answers"]["growth_factor"]["raw_text"] = CONTROL
    document = render_proposal(session, fmt, "en")  # type: ignore[arg-type]
    assert not any((ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f for c in document)
    for shown in ("x1b", "x07", "x00", "x0d", "x9b2J"):  # visible, so a reader sees the name was odd
        assert shown in document


def test_acceptance_commands_quote_what_came_from_outside(session: dict[str, Any]) -> None:
    """A model name from a session or a server's /v1/models is pasted into a shell: quoted, never run."""
    recommend = next(c for c in session["tool_calls"] if c["tool"] == "recommend")["result"]
    recommend["model"] = "m$(touch pwned)"
    md = render_proposal(session, "md", "en")
    commands = [line for line in md.splitlines() if line.startswith("sizer-agent bench")]
    assert commands and all("--model 'm$(touch pwned)'" in line for line in commands)
