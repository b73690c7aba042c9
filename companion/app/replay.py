"""A finished game stepped through on its board (the menu's history), with its summary at the end.

The replay builds the game's own session (``SESSION`` of its registry entry) on the first ``shown``
events of the saved log, through :class:`LogPrefix`, a read-only view of the store, so the game's own
screen draws every step as it looked at the table (the dice confirmed, the card, the board), and the
notice band says what happened, in the game's words: the session module's ``story`` (one
:class:`companion.session.base.Told` an event; Can't Stop's "Ada busts with 1 1 2 2: the runners on 6, 8
and 11 go back").

Steps: the replay stops after each event a player made, with the events no player made that follow it
(Schotten Totten's draw after a card, the donkey race's deal): a step is one roll, pairing, move, card,
claim or pass. NEXT steps on (past the last step: the summary), BANK jumps to the end of the turn (of
the round, in the donkey race: where the turn passes, with the bust or bank that ended it), PASS to the
end of the game, UNDO steps back, CONFIRM leaves. The prompt counts steps and turns; the key chips name
only the presses that do something. It runs in the one loop (``companion.app.loop.run_loop``);
screenshots are named ``NNNN-replay.png``.
"""

from __future__ import annotations

import contextlib

import enum
import logging
import random
from dataclasses import dataclass, replace
from types import SimpleNamespace

from companion import stop
from companion.app.loop import run_loop
from companion.app.summary import show_summary
from companion.commands import Button, Command
from companion.errors import CorruptLog, ScriptEnded, StoreError
from companion.i18n import N_, _
from companion.registry import GameEntry
from companion.screens.common import key_legend, with_chrome
from companion.session.base import ButtonsOnly

log = logging.getLogger(__name__)


class LogPrefix:
    """The store as a replay sees it: the first ``shown`` events of one game, nothing can be written."""

    def __init__(self, store, game_id: int, shown: int):
        self._store, self._game_id = store, game_id
        self._events = store.events(game_id)[:shown]

    def events(self, game_id: int):
        return list(self._events)

    def event_count(self, game_id: int) -> int:
        return len(self._events)

    def game(self, game_id: int):
        return replace(self._store.game(game_id), finished=False)

    def append_event(self, *args, **kwargs):
        raise StoreError("a replay changes nothing in the store")

    drop_last_event = append_event

    def press(self):
        """Nothing is written, so a press needs no transaction."""
        return contextlib.nullcontext(self)

    def finish_game(self, game_id: int, result) -> None:
        """The game's result is stored already (a session records it again when it replays the end)."""


class Mode(enum.Enum):
    REPLAY = "replay"


@dataclass(frozen=True)
class Stop:
    """Where the replay pauses: after ``shown`` events (0: the empty board), with ``text`` (what the step's
    event did, translated, "" for none) and ``ends_turn`` (the turn, or the donkey race's round, or the
    game is over after it)."""

    shown: int
    text: str = ""
    ends_turn: bool = False


def replay_stops(events, told) -> tuple[Stop, ...]:
    """The replay's stops over the stored ``events`` given ``told`` (the game's ``story``: a
    :class:`companion.session.base.Told` per event, matched by ``seq``): the empty board, then one stop per
    event with a text, which takes in the events without one that follow it (a draw, a deal). An event
    the story does not tell (a note) joins the stop before it, or makes one of its own at the start."""
    by_seq = {t.seq: t for t in told}
    stops = [Stop(0)]
    for k, event in enumerate(events, start=1):
        told_event = by_seq.get(event.seq)
        text = told_event.text if told_event else ""
        ends = bool(told_event and told_event.ends_turn)
        if text or len(stops) == 1:
            stops.append(Stop(k, text, ends))
        else:
            last = stops[-1]
            stops[-1] = Stop(k, last.text, last.ends_turn or ends)
    return tuple(stops)


STORY_WORDS = {
    "turn": (N_("Replay: step {k} of {n}, turn {t} of {turns}"), N_("to the turn's end")),
    "round": (N_("Replay: step {k} of {n}, round {t} of {turns}"), N_("to the round's end")),
}
"""The prompt and the BANK chip of a replay by the game's unit of play (its session module's
``STORY_TURN``: "turn", or "round" in the donkey race)."""


class ReplaySession(ButtonsOnly):
    """The loop's session of a replay (module docstring). ``stops``: the :class:`Stop` s, ``at`` the one
    shown, ``shown`` the events replayed there (0..``total``); ``to_summary``: the players stepped past
    the last stop (the summary follows). ``inner``: the game's own session on the events shown."""

    steps_history = True  # the play loop keeps no event past its turn: each step shows its own

    mode = Mode.REPLAY

    def __init__(self, store, entry: GameEntry, game_id: int):
        self.store, self.entry, self.game_id = store, entry, game_id
        record = store.game(game_id)
        self.players, self.config = list(record.players), entry.config(record.variant)
        events = store.events(game_id)
        self.total = len(events)
        module = entry.module("session")
        self.unit = getattr(module, "STORY_TURN", "turn")
        self.corner_turn = getattr(module, "CORNER_TURN", False)
        """The game's own corner shows its turn (round) as the board has it: the prompt then names none, so
        that two numbers never disagree (after "Ada banks" the board is at Ben's turn 2)."""
        story = getattr(module, "story", None)
        try:
            told = story(events, self.players, self.config) if story else ()
        except CorruptLog as error:  # the board steps on event by event, untold
            log.warning("the story of game %s cannot be told: %s", game_id, error)
            told = ()
        self.stops = replay_stops(events, told) if told else tuple(Stop(k) for k in range(self.total + 1))
        self.at = 0
        self.finished = False
        self.to_summary = False
        self.message = ""
        self.inner = self._session()

    @property
    def shown(self) -> int:
        """The events replayed at the stop shown."""
        return self.stops[self.at].shown

    @property
    def last(self) -> int:
        """The index of the last stop (the game's end)."""
        return len(self.stops) - 1

    @property
    def turns(self) -> int:
        """The turns (rounds) of the game: the stops that end one, at least 1."""
        return max(1, sum(1 for stop in self.stops if stop.ends_turn))

    @property
    def turn(self) -> int:
        """The turn (round) the stop shown belongs to, 1..:attr:`turns`: the turns ended before it, plus one."""
        return min(self.turns, 1 + sum(1 for stop in self.stops[1:self.at] if stop.ends_turn))

    def _session(self):
        return self.entry.module("session").SESSION(LogPrefix(self.store, self.game_id, self.shown), self.game_id,
                                                    self.players, self.config, rng=random.Random(0),
                                                    hint_budget=self.entry.hint_budget())  # the live game's

    @property
    def active_seat(self):
        return self.inner.active_seat

    def _go(self, at: int) -> None:
        if at != self.at:
            self.at = at
            self.inner = self._session()

    def next_turn_end(self) -> int:
        """The next stop after the one shown that ends a turn (a round), else the last."""
        return next((k for k in range(self.at + 1, len(self.stops)) if self.stops[k].ends_turn), self.last)

    def on_command(self, command: Command) -> None:
        button = command.button
        if button is Button.CONFIRM:
            self.finished = True
        elif button is Button.NEXT:
            if self.at >= self.last:
                self.finished = self.to_summary = True
                return
            self._go(self.at + 1)
        elif button is Button.BANK and self.at < self.last:
            self._go(self.next_turn_end())
        elif button is Button.PASS:
            self._go(self.last)
        elif button is Button.UNDO and self.at > 0:
            self._go(self.at - 1)

    def keys(self) -> tuple[tuple[str, str], ...]:
        """The key chips: only the presses that do something at the stop shown (translated)."""
        keys = [(Button.NEXT, N_("next step") if self.at < self.last else N_("summary"))]
        if self.at < self.last:
            keys += [(Button.BANK, STORY_WORDS.get(self.unit, STORY_WORDS["turn"])[1]), (Button.PASS, N_("to the end"))]
        if self.at > 0:
            keys.append((Button.UNDO, N_("step back")))
        keys.append((Button.CONFIRM, N_("leave")))
        return key_legend(keys)

    def prompt(self) -> str:
        """"Replay: step 12 of 80, turn 3 of 21", or "Replay: step 12 of 80" where the game's corner shows
        the turn (translated)."""
        if self.corner_turn:
            return _("Replay: step {k} of {n}").format(k=self.at, n=self.last)
        words = STORY_WORDS.get(self.unit, STORY_WORDS["turn"])[0]
        return _(words).format(k=self.at, n=self.last, t=self.turn, turns=self.turns)


def _screen(entry: GameEntry):
    """The game's screen module with the replay's prompt, notice and keys in its views."""
    screens = entry.module("screens")

    def build_view(session: ReplaySession, wins=None):
        view = screens.build_view(session.inner, wins)
        if "browse" in getattr(view, "__dataclass_fields__", {}):
            view = replace(view, browse=False)  # NEXT steps the replay on: it shows no hidden option
        # the scoreboard's stars count this game's win already: a replay shows none, nor its winner before the end
        seats = tuple(replace(seat, wins=None) for seat in view.chrome.seats)
        return with_chrome(view, prompt=session.prompt(), notice=session.stops[session.at].text, keys=session.keys(),
                           seats=seats)

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
    if session.to_summary and not stop.requested():
        show_summary(store, game_id, inputs, display, screenshots=screenshots, headless=headless, fps=fps, leds=leds,
                     shots_before=result.screenshots)
