"""The camera demos of Ludo and the card games: a whole game read off rendered frames of the table.

No photographs of whole Ludo or card games may be shipped, so the demo renders the table as the players
change it (each game's ``Table`` in its ``companion.demos`` module: the board of
:mod:`vision.board.render` with the die beside it, the cards of :mod:`vision.cards.render`) and the box
reads every frame with its real readers, session and screens.

:class:`RenderedTable` is the camera above the table and the two players at it, in one. The players play
a seeded game with the advisor's choices on a full-information engine state (hands included, as the
by-hand demos of :mod:`companion.app.by_hand` do). Each roll, pawn move or card is put on the table and
the box is left to read it for ``patience`` frames; a reading the box offers for checking (a card, a set
of cards) is confirmed with CONFIRM when it is right; what it does not read in time is entered with the
buttons, and what it takes wrongly is undone (UNDO) and entered with the buttons (each game's
``press_for``), as players do. :attr:`RenderedTable.counts` tells how often each happened.

Deterministic: the same seed gives the same frames, presses and winner.
"""

from __future__ import annotations

import contextlib

import copy
import logging
import random
from collections import Counter
from types import SimpleNamespace

import numpy as np

from companion.commands import Button, Command
from companion.games import CHANCE, TERMINAL
from companion.registry import GameEntry
from vision.camera import FrameSource

log = logging.getLogger(__name__)

PATIENCE = 12
"""Frames the players leave the box to read a roll, a move or a card before they enter it by hand
(four times the default ``stable_frames``)."""
MAX_CORRECTIONS = 3
"""Wrong readings of one action after which the demo gives up (a reader that keeps misreading one scene)."""


class NoStore:
    """Stands in for the store while presses are tried on a copy of a session: records nothing."""

    def append_event(self, *args, **kwargs) -> int:
        return 0

    def finish_game(self, *args, **kwargs) -> None:
        pass

    def press(self):
        """Nothing is recorded, so a press needs no transaction."""
        return contextlib.nullcontext(self)

    def game(self, game_id):
        return SimpleNamespace(finished=True)  # a copy never records a result


def trial_copy(session):
    """A deep copy of ``session`` whose store records nothing (:class:`NoStore`)."""
    return copy.deepcopy(session, {id(session.store): NoStore()})


class RenderedTable(FrameSource):
    """The camera (``read``) and the players (``poll``, an input source) of a demo game of ``entry``
    (see the module docstring). ``watch(session)`` (called by :func:`companion.app.play.run_game`) gives
    the players the box's session; ``config``: the variant's engine config; ``players``: the number of
    players; ``seed``: the game, the frames and the players' choices; ``patience``: see :data:`PATIENCE`;
    ``table``: the table to render (default the game's ``Table`` of its ``companion.demos`` module).

    counts: ``read`` (actions the box took from the camera), ``confirmed`` (readings it offered and the
    players confirmed), ``by_hand`` (entered with the buttons because nothing was read in time),
    ``corrected`` (taken wrongly, undone and entered with the buttons).
    Raises ``RuntimeError`` from ``poll`` when one action is misread :data:`MAX_CORRECTIONS` times.
    """

    live = False
    exhausted = False

    def __init__(self, entry: GameEntry, config, players: int, seed: int, patience: int = PATIENCE, table=None):
        rendered = entry.module("demos").Table
        if table is None and rendered is None:
            raise ValueError(f"no rendered table for {entry.name}")
        self.name = f"rendered {entry.name} table"
        self.table = table or rendered(config, seed)
        self.sessions, agents = entry.module("session"), entry.module("agents")
        self.chance, self.advisor = agents.chance, agents.AGENTS["advisor"]
        self.sim = entry.module("games").GAME(players, config).new_initial_state()
        self.rng = random.Random(seed)
        self.patience = patience
        self.session = None
        self.counts: Counter = Counter()
        self.step = 0
        self._pending = None
        self._how = ""
        self._frame: tuple | None = None
        self._plan: list[Command] = []
        self._waited = 0
        self._wrong = 0
        self._before = self._expected = None

    def watch(self, session) -> None:
        """The box's session, which the players look at (its screen) to know what to press."""
        self.session = session

    # -- the camera ----------------------------------------------------------------------------------

    def read(self) -> np.ndarray | None:
        pending = self._pending if type(self._pending).__name__ in self.table.camera_actions else None
        key = self.table.key(self.sim, pending, self.step)
        if self._frame is None or self._frame[0] != key:
            self._frame = key, self.table.render(self.sim, pending)
        return self._frame[1]

    # -- the players ---------------------------------------------------------------------------------

    def poll(self, script_allowed: bool = True) -> list[Command]:
        """The players' next press (at most one a tick), or none while they leave the box to read."""
        session = self.session
        if session is None:
            return []
        if session.finished:  # the game's summary: leave it
            return [Command(Button.CONFIRM)]
        if self._pending is not None:
            self._look(session)
        if self._plan:
            return [self._plan.pop(0)]
        if self._pending is None:
            if self.sim.current_player == TERMINAL:
                return [Command(Button.CONFIRM)]  # the winner's screen
            self._next_action(session)
            return []
        action = self._pending
        if type(action).__name__ in self.table.camera_actions and not self._wrong:
            if self.table.offered(session, action):
                self._how = self._how or "confirmed"
                return [Command(Button.CONFIRM)]
            if self._waited < self.patience:
                self._waited += 1
                return []
            self._how = self._how or "by_hand"
        self._plan = self.sessions.press_for(trial_copy(session), action)
        return [self._plan.pop(0)] if self._plan else []

    def _next_action(self, session) -> None:
        """The players decide what they do next (the advisor's choice, chance as the table decides it)."""
        from companion.app.by_hand import table_chance

        sim = self.sim
        action = (table_chance(session, sim, self.chance, self.rng) if sim.current_player == CHANCE
                  else self.advisor(sim, self.rng))
        self._pending, self._how, self._waited, self._wrong = action, "", 0, 0
        self._before = session.state
        trial = trial_copy(session)
        self.sessions.press_for(trial, action)
        self._expected = trial.state

    def _look(self, session) -> None:
        """Compare the box's state with the pending action: taken (the players go on), or something else
        taken (undo it, then enter the action by hand)."""
        state = session.state
        if state == self._expected:
            if type(self._pending).__name__ in self.table.camera_actions:
                self.counts[self._how or "read"] += 1
            self.sim = self.sim.apply(self._pending)
            self.step += 1
            self._pending, self._plan = None, []
        elif state != self._before and not self._plan:  # the box took something else: undo it
            self._wrong += 1
            if self._wrong > MAX_CORRECTIONS:
                raise RuntimeError(f"the box misread {self._pending!r} {self._wrong - 1} times")
            self._how = "corrected"
            log.info("the box took a wrong reading instead of %r: undo", self._pending)
            self._plan = [Command(Button.UNDO)]

    def close(self) -> None:
        self.session = None
