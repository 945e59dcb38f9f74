"""The interview in the app and `intake` reach the same plan and the same document for the same answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sizer_agent import advice
from sizer_agent.app import AppConfig, SizerApp
from sizer_agent.app.production import production_backend_factory
from sizer_agent.app.screens.results import ResultsScreen
from sizer_agent.proposal import render_proposal
from sizer_agent.store import SessionStore
from tests.support.sessions import PINNED_CREATED, PINNED_UPDATED, sized_session
from tests.tui.helpers import say, settle

# One answer per question, as the consultant types it in the chat and as an answers file holds it.
ANSWERS = {
    "customer": "Cabinet Exemple",
    "use_case": "service en ligne",
    "model": "Llama 3.1 8B Instruct",
    "precision": "fp8",
    "input_len": "2k",
    "output_len": "512",
    "context_len": "8k",
    "concurrency": "24",
    "growth_factor": "je ne sais pas",
    "ttft_ms": "800 ms",
    "tpot_ms": "50 ms",
    "framework": "vLLM",
    "framework_version": "0.11",
    "num_gpus": "1",
    "deployment": "station de travail",
    "rendering_cad": "non",
    "ecc_required": "oui",
    "budget_eur": "60 000 €",
    "power_limit_w": "pas de limite",
}


def recommendation(session: dict[str, Any]) -> Any:
    call = [c for c in session["tool_calls"] if c["tool"] == "recommend" and c["ok"]][-1]
    return advice.load(call["result"])


def after_profile(text: str) -> str:
    return text.split("## 2.", 1)[1]  # the profile table quotes each channel's own words; the rest must agree


async def test_the_app_and_intake_give_the_same_plan_and_document(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    app = SizerApp(production_backend_factory(db), AppConfig(cursor_blink=False, output_dir=tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for _ in range(len(ANSWERS) + 2):
            if isinstance(app.screen, ResultsScreen):
                break
            assert app.session is not None
            question = app.session.engine.state.current_question  # type: ignore[attr-defined]
            await say(pilot, ANSWERS[question])
        assert isinstance(app.screen, ResultsScreen), "the interview reached the results"
    with SessionStore(db) as store:
        chatted = store.export_session(1)
    chatted["created"], chatted["updated"] = PINNED_CREATED, PINNED_UPDATED
    filed, _ = sized_session(dict(ANSWERS), lang="fr")
    from_app, from_file = recommendation(chatted), recommendation(filed)
    assert from_app is not None and from_app.plan is not None
    assert from_app == from_file  # the same plan, alternatives, verdicts and numbers
    for lang in ("fr", "en"):
        assert after_profile(render_proposal(chatted, "md", lang)) == after_profile(
            render_proposal(filed, "md", lang))


VISION_ANSWERS = {
    "customer": "Atelier Dupin", "use_case": "vision", "vision_model": "YOLOv8x", "vision_mode": "entraînement",
    "precision": "bf16", "image_resolution": "1024", "batch_size": "32", "dataset_size_bytes": "20 Go",
    "dataset_images": "118 287", "optimizer": "je ne sais pas", "checkpoint_interval_min": "je ne sais pas",
    "framework": "PyTorch", "framework_version": "je ne sais pas", "num_gpus": "1",
    "deployment": "station de travail", "rendering_cad": "non", "ecc_required": "non", "budget_eur": "pas de limite",
    "power_limit_w": "pas de limite",
}


async def test_a_vision_interview_ends_on_images_per_second_not_tokens(tmp_path: Path) -> None:
    from textual.widgets import DataTable

    from tests.tui.screen_text import screen_text

    app = SizerApp(production_backend_factory(tmp_path / "s.db"), AppConfig(cursor_blink=False, output_dir=tmp_path))
    async with app.run_test(size=(120, 60)) as pilot:
        await settle(pilot)
        for _ in range(len(VISION_ANSWERS) + 2):
            if isinstance(app.screen, ResultsScreen):
                break
            question = app.session.engine.state.current_question  # type: ignore[union-attr]
            await say(pilot, VISION_ANSWERS[question])
        assert isinstance(app.screen, ResultsScreen)
        table = app.screen.query_one(DataTable)
        labels = [str(c.label) for c in table.columns.values()]
        assert "images/s" in labels and "€/époque" in labels and "tok/s" not in labels
        text = screen_text(app)
        assert "images/s" in text and "Enterprise Max (ACD-014)" in text  # 52 GiB per GPU: the 96 GB card
        assert "tokens" not in text
