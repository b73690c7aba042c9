"""A finished game stepped through on its board (the menu's history), with its summary at the end.

The replay builds the game's own session (``SESSION`` of its registry entry) on the first ``shown``
events of the saved log, through :class:`LogPrefix`, a read-only view of the store, so the game's own
screen draws every step as it looked at the table. NEXT steps on (past the last event: the summary),
UNDO steps back, CONFIRM leaves. It runs in the one loop (``companion.app.loop.run_loop``); screenshots
are named ``NNNN-replay.png``.
"""

from __future__ import annotations

import enum
import random
from dataclasses import fields, replace
from types import SimpleNamespace

from companion.app.loop import run_loop
from companion.app.summary import show_summary
from companion.commands import Button, Command
from companion.errors import ScriptEnded, StoreError
from companion.i18n import N_, _
from companion.registry import GameEntry
from companion.screens.common import key_legend
from companion.session.base import ButtonsOnly


class LogPrefix:
    """The store as a replay sees it: the first ``shown`` events of one game, nothing can be written."""

    def __init__(self, store, game_id: int, shown: int):
        self._store, self._game_id = store, game_id
        self._events = store.events(game_id)[:shown]

    def events(self, game_id: int):
        return list(self._events)

    def game(self, game_id: int):
        return replace(self._store.game(game_id), finished=False)

    def append_event(self, *args, **kwargs):
        raise StoreError("a replay changes nothing in the store")

    drop_last_event = append_event

    def finish_game(self, game_id: int, result) -> None:
        """The game's result is stored already (a session records it again when it replays the end)."""


class Mode(enum.Enum):
    REPLAY = "replay"


class ReplaySession(ButtonsOnly):
    """The loop's session of a replay (module docstring). ``shown``: events replayed (0..``total``);
    ``to_summary``: the players stepped past the last event (the summary follows)."""

    mode = Mode.REPLAY

    def __init__(self, store, entry: GameEntry, game_id: int):
        self.store, self.entry, self.game_id = store, entry, game_id
        record = store.game(game_id)
        self.players, self.config = list(record.players), entry.config(record.variant)
        self.total = len(store.events(game_id))
        self.shown = 0
        self.finished = False
        self.to_summary = False
        self.message = ""
        self.inner = self._session()

    def _session(self):
        return self.entry.module("session").SESSION(LogPrefix(self.store, self.game_id, self.shown), self.game_id,
                                                    self.players, self.config, rng=random.Random(0))

    @property
    def active_seat(self):
        return self.inner.active_seat

    def on_command(self, command: Command) -> None:
        if command.button is Button.CONFIRM:
            self.finished = True
        elif command.button is Button.NEXT:
            if self.shown >= self.total:
                self.finished = self.to_summary = True
                return
            self.shown += 1
            self.inner = self._session()
        elif command.button is Button.UNDO and self.shown > 0:
            self.shown -= 1
            self.inner = self._session()


def _screen(entry: GameEntry):
    """The game's screen module with the replay's prompt in its views."""
    screens = entry.module("screens")

    def build_view(session: ReplaySession, wins=None):
        view = screens.build_view(session.inner, wins)
        prompt = _("Replay: step {k} of {n}. NEXT: on, UNDO: back, CONFIRM: leave").format(k=session.shown,
                                                                                          n=session.total)
        changes = {"prompt": prompt, "message": ""}
        if "keys" in {f.name for f in fields(view)}:
            changes["keys"] = key_legend(((Button.NEXT, N_("step on")), (Button.UNDO, N_("step back")),
                                          (Button.CONFIRM, N_("leave"))))
        return replace(view, **changes)

    return SimpleNamespace(build_view=build_view, final_line=lambda session: "")


def replay_game(store, entry: GameEntry, game_id: int, inputs, display, *, screenshots=None,
                headless: bool = False, fps: float = 10.0, leds=None) -> None:
    """Step through the finished game ``game_id`` until the players leave; after its last event, its
    summary (:func:`companion.app.summary.show_summary`). A script that ends during it only ends it."""
    session = ReplaySession(store, entry, game_id)
    try:
        result = run_loop(session, store, None, lambda frame: None, inputs, display, screen=_screen(entry),
                          draw=entry.module("display").draw, game=entry.name, screenshots=screenshots,
                          headless=headless, fps=fps, leds=leds)
    except ScriptEnded:
        return
    if session.to_summary:
        show_summary(store, game_id, inputs, display, screenshots=screenshots, headless=headless, fps=fps, leds=leds,
                     shots_before=result.screenshots)
