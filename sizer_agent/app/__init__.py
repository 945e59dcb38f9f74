"""The interactive interview (Textual). `SizerApp(backend_factory, AppConfig(...))`; see docs/app.md."""

from sizer_agent.app.app import AppConfig, SizerApp
from sizer_agent.app.backend import Backend, OpenedSession, ProposalUnavailable, SessionSummary

__all__ = ["AppConfig", "Backend", "OpenedSession", "ProposalUnavailable", "SessionSummary", "SizerApp"]
