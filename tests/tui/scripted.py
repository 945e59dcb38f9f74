"""A scripted backend: fixed questions and canned tool results, kept in memory.

For tests of rendering only (snapshots, resize, palette): what the app shows must not move when the
real estimator's numbers are recalibrated. The interview tests use the production backend.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sizer_agent.agent.events import (
    AgentMessage,
    AnswerRecorded,
    Event,
    ProfileUpdated,
    QuestionAsked,
    ToolCalled,
    ToolReturned,
)
from sizer_agent.app.backend import OpenedSession, ProposalUnavailable, SessionSummary
from sizer_agent.tools.estimate import EstimateRequest
from sizer_agent.tools.recommend import RecommendRequest, recommend

QUESTIONS = [
    ("model", "Quel modèle servez-vous, et à quelle révision ?", ["Llama-3.1-70B-Instruct", "Llama-3.1-8B"]),
    ("precision", "Quelle précision ?", ["fp8", "bf16", "int4"]),
    ("concurrency", "Combien de requêtes simultanées ?", ["8", "32", "128"]),
]

ESTIMATE = {
    "per_gpu": {
        "weights_bytes": 70_600_000_000,
        "kv_cache_bytes": 10_700_000_000,
        "activations_bytes": 0,
        "gradients_bytes": 0,
        "optimizer_bytes": 0,
        "runtime_bytes": 2_100_000_000,
        "total_bytes": 83_400_000_000,
    },
    "fits": True,
    "warnings": [],
}

# A real recommendation (tools.recommend) for a fixed workload over four offers: the app shows the plan as the
# tool made it. Snapshots move when the tools are recalibrated, as they should.
RECOMMEND = recommend(RecommendRequest(
    workload=EstimateRequest(model="llama-3.1-70b", quantization="fp8", input_len=2048, output_len=512,
                             concurrency=8, max_model_len=4096),
    slo_ttft_ms=2000, slo_tpot_ms=100, budget_eur=60_000, units=["workstation", "cloud"],
    offer_ids=["ACD-006", "ACD-009", "ACD-014", "CLOUD-H100-SXM"])).model_dump(mode="json")


class ScriptedEngine:
    def __init__(self) -> None:
        self.answers: dict[str, Any] = {}

    def _next(self) -> list[Event]:
        for field, text, suggestions in QUESTIONS:
            if field not in self.answers:
                return [QuestionAsked(question_id=field, text=text, suggestions=suggestions)]
        return [
            ToolCalled(call_id="c1", tool="estimate_memory", arguments=dict(self.answers)),
            ToolReturned(call_id="c1", tool="estimate_memory", ok=True, result=ESTIMATE, duration_ms=12.0),
            ToolCalled(call_id="c2", tool="recommend", arguments=dict(self.answers)),
            ToolReturned(call_id="c2", tool="recommend", ok=True, result=RECOMMEND, duration_ms=30.0),
            AgentMessage(text="**Recommandé : ACD-014 Enterprise Max.**"),
        ]

    def start(self) -> list[Event]:
        return self._next()

    def handle(self, text: str) -> list[Event]:
        field = next(f for f, _, _ in QUESTIONS if f not in self.answers)
        value: Any = int(text) if text.isdigit() else text
        self.answers[field] = value
        events: list[Event] = [
            AnswerRecorded(field=field, value=value, raw_text=text),
            ProfileUpdated(profile=dict(self.answers)),
        ]
        return events + self._next()


class ScriptedBackend:
    """Sessions in memory; the same object may be shared between app runs to test resuming."""

    def __init__(self) -> None:
        self.sessions: dict[str, tuple[OpenedSession, list[Event]]] = {}
        self.closed = False

    def create_session(self, lang: str) -> tuple[OpenedSession, list[Event]]:
        engine = ScriptedEngine()
        session = OpenedSession(id=str(len(self.sessions) + 1), title="Acme / chatbot", engine=engine)
        opening = engine.start()
        self.sessions[session.id] = (session, list(opening))
        return session, opening

    def open_session(self, session_id: str, lang: str) -> OpenedSession:
        session, log = self.sessions[session_id]
        return OpenedSession(session.id, session.title, session.engine, list(log))

    def answer(self, session: OpenedSession, text: str, emit: Any = None) -> list[Event]:
        events = session.engine.handle(text)
        self.sessions[session.id][1].extend(events)
        return events

    def set_lang(self, session: OpenedSession, lang: str) -> None:
        self.lang = lang

    def list_sessions(self) -> list[SessionSummary]:
        return [SessionSummary(s.id, "2026-01-01T00:00", s.title) for s, _ in self.sessions.values()]

    def export_session(self, session_id: str, directory: Path) -> Path:
        path = directory / f"session-{session_id}.json"
        log = self.sessions[session_id][1]
        path.write_text(json.dumps([e.model_dump() for e in log]))
        return path

    def write_proposal(self, session_id: str, lang: str, directory: Path) -> list[Path]:
        raise ProposalUnavailable("scripted backend")

    def close(self) -> None:
        self.closed = True
