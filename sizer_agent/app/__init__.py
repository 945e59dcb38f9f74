"""The interactive interview (Textual). `SizerApp(backend_factory, AppConfig(...))`; see docs/app.md."""

from sizer_agent.app.app import AppConfig, SizerApp
from sizer_agent.app.backend import Backend, BackendError, OpenedSession, ProposalUnavailable, SessionSummary

__all__ = ["AppConfig", "Backend", "BackendError", "OpenedSession", "ProposalUnavailable", "SessionSummary", "SizerApp"]
