"""Proposal documents: the session's answers, tool results and measurements through Jinja templates.

Public API (the CLI `sizer-agent propose` and the app call these):

    build_context(session: dict) -> ProposalContext
    render_proposal(session: dict, fmt: "md" | "html", lang: "fr" | "en") -> str
    render_context(ctx: ProposalContext, fmt, lang) -> str
    render_pdf(session: dict, lang) -> bytes          # needs the `pdf` extra (WeasyPrint)
    load_session(source: str, db: str | None = None) -> dict   # an export file or a session id in the store
"""

from sizer_agent.proposal.context import build_context
from sizer_agent.proposal.models import ProposalContext
from sizer_agent.proposal.render import render_context, render_pdf, render_proposal
from sizer_agent.proposal.session import load_session

__all__ = [
    "ProposalContext",
    "build_context",
    "load_session",
    "render_context",
    "render_pdf",
    "render_proposal",
]
