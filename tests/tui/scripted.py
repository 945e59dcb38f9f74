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

# Shaped like tools.recommend.RecommendResult (fields the app reads); figures are illustrative.
RECOMMEND = {
    "mode": "inference",
    "options": [
        {"offer_id": "ACD-014", "name": "Enterprise Max", "gpu": "rtx-pro-6000-ws",
         "gpu_name": "RTX PRO 6000 Blackwell", "num_gpus": 1, "precision": "fp8", "price_eur": 55480,
         "fits": True, "reasons": [], "per_gpu_total_bytes": 83_400_000_000, "headroom_pct": 13.0,
         "perf": {"output_tokens_per_s": 610.0, "ttft_ms": 420.0, "tpot_ms": 52.0},
         "eur_per_million_tokens": 0.95},
        {"offer_id": "CLOUD-H100-SXM", "name": "Cloud H100 SXM (per GPU-hour)", "gpu": "h100-sxm",
         "gpu_name": "NVIDIA H100 SXM5 80GB", "num_gpus": 2, "precision": "fp8", "hourly_eur": 5.58,
         "fits": True, "reasons": [], "per_gpu_total_bytes": 45_100_000_000, "headroom_pct": 47.0,
         "perf": {"output_tokens_per_s": 1490.0}, "eur_per_million_tokens": 1.04},
        {"offer_id": "ACD-009", "name": "Advanced Pro", "gpu": "rtx-5090", "gpu_name": "RTX 5090",
         "num_gpus": 1, "precision": "fp8", "price_eur": 22670, "fits": False,
         "reasons": ["memory: 83.4 GB needed per GPU > 30.7 GB usable"],
         "per_gpu_total_bytes": 83_400_000_000, "headroom_pct": None, "perf": {},
         "eur_per_million_tokens": None},
    ],
    "offers": [
        {"offer_id": "ACD-006", "name": "Pro", "fits": False,
         "summary": "cannot serve it: memory: 83.4 GB needed per GPU > 15.4 GB usable"},
        {"offer_id": "ACD-009", "name": "Advanced Pro", "fits": False,
         "summary": "cannot serve it: memory: 83.4 GB needed per GPU > 30.7 GB usable"},
        {"offer_id": "ACD-014", "name": "Enterprise Max", "fits": True, "summary": "serves it with fp8"},
    ],
    "recommended": "ACD-014",
    "recommended_reason": "cheapest fitting option: 0.95 EUR per million output tokens",
    "assumptions": ["10% of each GPU's memory kept free"],
}


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
