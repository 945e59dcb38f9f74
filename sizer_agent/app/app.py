"""The Textual app: wires screens to a `Backend` (engine + session store).

The app is the only place that talks to the backend. Every backend call runs on one dedicated engine
thread (SQLite connections stay on the thread that opened them; calls are served in order), awaited by an
async worker, so the UI loop never blocks. Widgets only display what they are given and post messages.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict
from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from sizer_agent.agent.events import Event, LanguageChanged, ToolReturned
from sizer_agent.app.backend import Backend, BackendError, OpenedSession, ProposalUnavailable
from sizer_agent.app.i18n import Lang, t
from sizer_agent.app.present import RecommendationView, is_recommendation_result, recommendation_view
from sizer_agent.app.screens.chat import ChatScreen
from sizer_agent.app.widgets.prompt import AnswerBox
from sizer_agent.safe_text import printable

if TYPE_CHECKING:
    pass

T = TypeVar("T")


class AppConfig(BaseModel):
    """How the app starts. Tests pass `cursor_blink=False` so that screenshots are deterministic."""

    model_config = ConfigDict(frozen=True)

    lang: Lang = "fr"
    resume: str | None = None  # a session id to reopen at start; a new session otherwise
    output_dir: Path = Path(".")  # where exports and proposals are written
    cursor_blink: bool = True
    self_service: bool = False  # a customer in a browser: no listing or resuming of other sessions


class SizerApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "sizer-agent"
    # ctrl+p writes the proposal (the product's key), so the palette moves to ctrl+k.
    COMMAND_PALETTE_BINDING = "ctrl+k"
    BINDINGS: ClassVar = [
        Binding("ctrl+n", "new_session", show=False, priority=True),
        Binding("ctrl+r", "resume_session", show=False, priority=True),
        Binding("ctrl+s", "export_session", show=False, priority=True),
        Binding("ctrl+p", "write_proposal", show=False, priority=True),
        Binding("f1", "help", show=False),
        Binding("f2", "toggle_lang", show=False, priority=True),
        Binding("f3", "show_results", show=False, priority=True),
    ]

    lang: reactive[Lang] = reactive("fr", init=False)

    def __init__(self, backend_factory: Callable[[], Backend], config: AppConfig | None = None) -> None:
        self.config = config or AppConfig()
        super().__init__()
        self.set_reactive(SizerApp.lang, self.config.lang)
        self._backend_factory = backend_factory
        self._backend: Backend | None = None
        self._first_opening: asyncio.Future[tuple[OpenedSession, list[Event]]] | None = None
        self._engine_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sizer-engine")
        self.session: OpenedSession | None = None
        self._recommendation: dict[str, Any] | None = None  # the latest recommendation tool result
        self.notices: list[str] = []  # every notice shown, newest last (also read by tests)

    # ---- screens -------------------------------------------------------------------------------
    def get_default_screen(self) -> Screen[Any]:
        return ChatScreen(self.lang, cursor_blink=self.config.cursor_blink)

    @property
    def chat_screen(self) -> ChatScreen:
        screen = self.screen_stack[0]
        assert isinstance(screen, ChatScreen)
        return screen

    def on_mount(self) -> None:
        self._update_subtitle()

    @on(ChatScreen.Composed)
    def _chat_composed(self) -> None:
        self.open_session(self.config.resume, self._first_opening)

    @property
    def recommendation(self) -> RecommendationView | None:
        """The latest recommendation tool result, formatted for the interface language."""
        if self._recommendation is None:
            return None
        return recommendation_view(self._recommendation, self.lang)

    def watch_lang(self, lang: Lang) -> None:
        from sizer_agent.app.screens.results import ResultsScreen

        for screen in self.screen_stack:
            if isinstance(screen, ChatScreen | ResultsScreen):
                screen.lang = lang
            if isinstance(screen, ResultsScreen) and self.recommendation is not None:
                screen.view = self.recommendation
        self._update_subtitle()
        if self.session is not None:
            self._tell_engine_lang(self.session, lang)

    @work(group="engine", exit_on_error=False)
    async def _tell_engine_lang(self, session: OpenedSession, lang: Lang) -> None:
        await self._call(lambda b: b.set_lang(session, lang))

    def _update_subtitle(self) -> None:
        if self.session is None:
            self.sub_title = t("app.no_session", self.lang)
        elif not self.session.id:  # stored with its first answer
            self.sub_title = t("app.new_session", self.lang)
        else:
            self.sub_title = t("app.session", self.lang, id=self.session.id,
                               title=printable(self.session.title, one_line=True))  # the terminal's title too
        self.sub_title += " · fr|en".replace(self.lang, self.lang.upper())

    def notice(self, message: str, *, severity: str = "information") -> None:
        self.notices.append(message)
        self.notify(message, severity=severity)  # type: ignore[arg-type]

    # ---- the engine thread ---------------------------------------------------------------------
    async def _call(self, function: Callable[..., T], *args: Any) -> T:
        """Run `function(backend, *args)` on the engine thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._engine_thread, partial(self._with_backend, function, *args))

    def _with_backend(self, function: Callable[..., T], *args: Any) -> T:
        if self._backend is None:  # opened on the engine thread, the only one that uses it
            self._backend = self._backend_factory()
        return function(self._backend, *args)

    def on_unmount(self) -> None:
        if self._backend is not None:
            self._engine_thread.submit(self._backend.close)
        self._engine_thread.shutdown(wait=True)

    # ---- sessions ------------------------------------------------------------------------------
    def _open_on_engine_thread(self, session_id: str | None) -> asyncio.Future[tuple[OpenedSession, list[Event]]]:
        """Start opening (or creating) a session on the engine thread; returns (session, new events)."""

        def open_(backend: Backend) -> tuple[OpenedSession, list[Event]]:
            if session_id is None:
                return backend.create_session(self.lang)
            return backend.open_session(session_id, self.lang), []

        loop = asyncio.get_running_loop()
        return loop.run_in_executor(self._engine_thread, partial(self._with_backend, open_))

    def on_load(self) -> None:
        # The first session opens (database, engine, first question) while Textual builds the screen.
        self._first_opening = self._open_on_engine_thread(self.config.resume)

    @work(group="engine", exit_on_error=False)
    async def open_session(
        self, session_id: str | None, started: asyncio.Future[tuple[OpenedSession, list[Event]]] | None = None
    ) -> None:
        """Open a stored session (replaying its events) or create a new one."""
        chat = self.chat_screen
        session, fresh = await (started or self._open_on_engine_thread(session_id))
        history = session.history
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.session = session
        self._recommendation = None
        self._update_subtitle()
        chat.reset()
        self._render(history, replay=True)
        self._render(fresh)
        chat.query_one("#answer").focus()

    @on(AnswerBox.AnswerSubmitted)
    def _answer_submitted(self, message: AnswerBox.AnswerSubmitted) -> None:
        if self.session is None:
            self.notice(t("notice.no_session", self.lang), severity="warning")
            return
        self.chat_screen.chat.say_user(message.text)
        self.send_answer(self.session, message.text)

    @work(group="engine", exit_on_error=False)
    async def send_answer(self, session: OpenedSession, text: str) -> None:
        """The engine handles the answer; each event is shown as soon as the backend has stored it."""
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()  # Textual's (the active app): widgets need it to lay out
        shown: list[Event] = []

        def emit(event: Event) -> None:  # on the engine thread
            loop.call_soon_threadsafe(self._render_live, session, event, shown, context=context)

        events = await self._call(lambda b: b.answer(session, text, emit))
        # Every emitted event was rendered before this line runs (same loop queue, earlier in it).
        rest = [e for e in events if not any(e is s for s in shown)]
        if session is self.session:  # the user may have switched session meanwhile
            self._render(rest)
            self._update_subtitle()  # the first answer (the customer) titles the session

    def _render_live(self, session: OpenedSession, event: Event, shown: list[Event]) -> None:
        shown.append(event)
        if session is self.session:
            self._render([event])

    def _render(self, events: list[Event], *, replay: bool = False) -> None:
        for event in events:
            if isinstance(event, LanguageChanged) and not replay and event.lang != self.lang:
                # the customer writes in the other language: the interface follows the engine, and the
                # engine is told nothing new (same language), so the consultant's F2 still decides
                self.lang = event.lang
        self.chat_screen.show(events, replay=replay)
        for event in events:
            if isinstance(event, ToolReturned) and event.ok and is_recommendation_result(event.result):
                self._recommendation = event.result
                if not replay:  # after the conversation has painted: the tool cards show first
                    self.call_after_refresh(self.action_show_results)

    # ---- one handler for every worker failure ----------------------------------------------------
    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state != WorkerState.ERROR:
            return
        error = event.worker.error
        self.log.error("worker failed", worker=event.worker.name, error=repr(error))
        if isinstance(error, BackendError):  # the user can act on it: say it as it is
            message = str(error)
        else:
            message = t("chat.error", self.lang, error=f"{type(error).__name__}: {error}")
        self.chat_screen.chat.say_error(message)
        self.notice(message, severity="error")

    # ---- actions -------------------------------------------------------------------------------
    def action_new_session(self) -> None:
        self.open_session(None)

    @work(group="dialogs", exit_on_error=False)
    async def action_resume_session(self) -> None:
        if self.config.self_service:
            self.notice(t("notice.self_service", self.lang), severity="warning")
            return
        from sizer_agent.app.screens.sessions import SessionPicker

        sessions = await self._call(lambda b: b.list_sessions())
        # A callback rather than push_screen_wait: no worker stays alive while the user is choosing.
        self.push_screen(SessionPicker(sessions, self.lang), callback=self._resume_chosen)

    def _resume_chosen(self, session_id: str | None) -> None:
        if session_id is not None:
            self.open_session(session_id)

    @work(group="files", exit_on_error=False)
    async def action_export_session(self) -> None:
        if self.session is None:
            self.notice(t("notice.no_session", self.lang), severity="warning")
            return
        if not self.session.id:
            self.notice(t("notice.not_stored", self.lang), severity="warning")
            return
        session_id, directory = self.session.id, self.config.output_dir
        path = await self._call(lambda b: b.export_session(session_id, directory))
        self.notice(t("notice.exported", self.lang, path=path))
        self._hand_over([path])

    @work(group="files", exit_on_error=False)
    async def action_write_proposal(self) -> None:
        if self.session is None:
            self.notice(t("notice.no_session", self.lang), severity="warning")
            return
        if not self.session.id:
            self.notice(t("notice.not_stored", self.lang), severity="warning")
            return
        session_id, lang, directory = self.session.id, self.lang, self.config.output_dir
        try:
            paths = await self._call(lambda b: b.write_proposal(session_id, lang, directory))
        except ProposalUnavailable:
            self.notice(t("notice.proposal_missing", self.lang), severity="warning")
            return
        self.notice(t("notice.proposal_written", self.lang, paths=", ".join(str(p) for p in paths)))
        self._hand_over(paths)

    def _hand_over(self, paths: list[Path]) -> None:
        """In self-service (a browser), the files written on the server are also downloaded by the user."""
        if self.config.self_service:
            for path in paths:
                self.deliver_binary(path)

    def action_show_results(self) -> None:
        # Screens other than the conversation load on first use: start-up time goes to the first question.
        from sizer_agent.app.screens.results import ResultsScreen

        if self.recommendation is None:
            self.notice(t("notice.no_results", self.lang), severity="warning")
            return
        if isinstance(self.screen, ResultsScreen):
            self.screen.view = self.recommendation
            return
        self.push_screen(ResultsScreen(self.recommendation, self.lang))

    def action_help(self) -> None:
        from sizer_agent.app.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.lang))

    def action_toggle_lang(self) -> None:
        self.lang = "en" if self.lang == "fr" else "fr"

    def action_command_palette(self) -> None:
        """Textual's palette, with its search prompt in the interface language."""
        from textual.command import CommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(CommandPalette(placeholder=t("cmd.search", self.lang), id="--command-palette"))

    def get_system_commands(self, screen: Screen[Any]) -> Any:
        lang = self.lang
        yield SystemCommand(t("cmd.new", lang), t("cmd.new_help", lang), self.action_new_session)
        yield SystemCommand(t("cmd.resume", lang), t("cmd.resume_help", lang), self.action_resume_session)
        yield SystemCommand(t("cmd.save", lang), t("cmd.save_help", lang), self.action_export_session)
        yield SystemCommand(t("cmd.proposal", lang), t("cmd.proposal_help", lang), self.action_write_proposal)
        yield SystemCommand(t("cmd.results", lang), t("cmd.results_help", lang), self.action_show_results)
        yield SystemCommand(t("cmd.lang", lang), t("cmd.lang_help", lang), self.action_toggle_lang)
        yield SystemCommand(t("cmd.help", lang), t("cmd.help_help", lang), self.action_help)
        yield SystemCommand(t("cmd.quit", lang), t("cmd.quit_help", lang), self.action_quit)
