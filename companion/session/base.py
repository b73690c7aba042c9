"""Turning what happens at the table into rule actions: the parts every game's session shares.

ARCHITECTURE.md, Session: a reading is acted on only when it is stable (the same over N frames) and the
players have confirmed it; every accepted event is appended to the SQLite event log before the screen
changes; the current state is the replay of the log, so a restart resumes the same game and undo drops
the last event. Game sessions (``companion.session.cant_stop``) build on the pieces here.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np

from companion.commands import Button, Command
from companion.i18n import N_, _

NO_CAMERA = N_("No camera")
"""The camera problem the play loop reports when there is no camera at all (translated with ``_``):
screens then ask for entries by hand without naming a camera problem."""


def without_camera(session: Any) -> bool:
    """Whether ``session`` plays with no camera at all (the loop reported :data:`NO_CAMERA`), as opposed
    to a camera that gave no usable picture this time."""
    return getattr(session, "camera_problem", "") == _(NO_CAMERA)


@dataclass(frozen=True)
class Told:
    """One stored event of a game told for the players (each game's session module's ``story(events,
    players, config)`` gives one a replayed event, in order; the History replay shows them).

    seq: the event's ``seq`` in the store. text: what happened in the game's words (translated), "" for an
    event no player made (a card drawn, a deal). ends_turn: the turn (the round, in the donkey race) or the
    game is over after this event.
    """

    seq: int
    text: str
    ends_turn: bool


def told_ending(session: Any, story: Any) -> str:
    """How ``session``'s game (or match) ended, in the words History's replay uses: the text its module's
    ``story(events, players, config)`` tells for the last event that says something ("Ada banks, claims
    column 2 and wins!"); "" while nothing is stored. Worked out once for a given number of events (the
    session keeps it)."""
    count = session.store.event_count(session.game_id)
    cached = getattr(session, "_ending", None)
    if cached is not None and cached[0] == count:
        return cached[1]
    told = story(session.store.events(session.game_id), session.players, session.config) if count else ()
    text = next((t.text for t in reversed(told) if t.text), "")
    session._ending = (count, text)
    return text


class Waiting(enum.Enum):
    """What the box waits for; drives the status LED (slow blink: camera; steady: players)."""

    CAMERA = "camera"  # still dice under the camera
    PLAYERS = "players"  # a button press
    NOTHING = "nothing"  # the game is over


class GameSession(Protocol):
    """What the loop (``companion.app.loop.run_loop``) needs of a game's session.

    ``mode.value`` names the screen (used in screenshot file names); the game's screen module
    (``companion.screens.<game>.build_view(session, wins)``) makes the view the loop draws, which has a
    ``prompt`` and a ``message``; ``winner_name`` is None until someone has won. A session that gives
    the long presses of BANK or PASS a meaning of its own lists them in a ``takes_held`` frozenset (the
    donkey race); every other session gets them as the plain press (:func:`companion.commands.as_taken`).
    """

    game_id: int
    finished: bool

    @property
    def mode(self) -> enum.Enum: ...

    @property
    def waiting(self) -> Waiting: ...

    @property
    def wants_frame(self) -> bool: ...

    @property
    def winner_name(self) -> str | None: ...

    @property
    def active_seat(self) -> int | None:
        """The seat whose turn it is (lights its LED), or None."""
        ...

    @property
    def attention(self) -> bool:
        """True when the players must look at the screen: a reading or a command was not accepted."""
        ...

    def on_frame(self, frame_bgr: np.ndarray, observation: Any) -> None: ...

    def on_camera_problem(self, reason: str) -> None: ...

    def on_command(self, command: Any) -> None: ...


class ButtonsOnly:
    """What the loop's screens that are no game share (a summary, a replay, the rules): they wait for
    the players' buttons and look at no camera. Subclasses give ``mode``, ``active_seat``, ``finished``
    and ``on_command``."""

    wants_frame = False
    winner_name = None
    attention = False
    waiting = Waiting.PLAYERS
    message = ""

    def on_frame(self, frame_bgr, observation) -> None:
        """Nothing to read on the table."""

    def on_camera_problem(self, reason: str) -> None:
        """No camera is needed: a camera problem changes nothing."""


class Paged(ButtonsOnly):
    """A :class:`ButtonsOnly` screen of ``pages`` pages: NEXT pages on, UNDO back (both wrap round),
    CONFIRM leaves (``finished``). Subclasses set ``pages`` and may handle more in :meth:`on_other`."""

    pages = 1

    def __init__(self) -> None:
        self.page = 0
        self.finished = False

    def on_command(self, command: Command) -> None:
        if command.button is Button.CONFIRM:
            self.finished = True
        elif command.button is Button.NEXT:
            self.page = (self.page + 1) % self.pages
        elif command.button is Button.UNDO:
            self.page = (self.page - 1) % self.pages
        else:
            self.on_other(command)

    def on_other(self, command: Command) -> None:
        """Any other button: nothing by default."""


class SceneChange:
    """Tells whether the table changed since a reading was accepted, so the same dice are not read twice.

    Compares a 96x96 grey thumbnail of each frame with the one at acceptance. The scene counts as changed
    once more than ``min_fraction`` of the thumbnail's pixels differ by more than ``min_diff`` grey
    levels (0-255): the dice were picked up, rolled or moved, or a hand passed. Defaults: 30 levels is
    far above sensor noise after averaging; 0.5 % of the area is less than one small die (a 40 px die
    in a 640 px photo covers about 0.4 % of it) moving to a new place, which changes twice its area.
    """

    THUMB = (96, 96)

    def __init__(self, min_diff: int = 30, min_fraction: float = 0.005):
        self.min_diff = min_diff
        self.min_fraction = min_fraction
        self._reference: np.ndarray | None = None

    @classmethod
    def _thumb(cls, frame_bgr: np.ndarray) -> np.ndarray:
        grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY) if frame_bgr.ndim == 3 else frame_bgr
        return cv2.resize(grey, cls.THUMB, interpolation=cv2.INTER_AREA).astype(np.int16)

    def remember(self, frame_bgr: np.ndarray | None) -> None:
        """Take ``frame_bgr`` as the accepted scene (None forgets it: any frame counts as new)."""
        self._reference = None if frame_bgr is None else self._thumb(frame_bgr)

    def changed(self, frame_bgr: np.ndarray) -> bool:
        """True when ``frame_bgr`` differs from the remembered scene (and then forgets it)."""
        if self._reference is None:
            return True
        moved = np.abs(self._thumb(frame_bgr) - self._reference) > self.min_diff
        if float(np.mean(moved)) > self.min_fraction:
            self._reference = None
            return True
        return False


def seat_to_act(state: Any, start_seat: int, starting: bool) -> int | None:
    """The seat whose LED is lit: ``start_seat`` (the proposed first player) while the game ``starting``,
    else the state's ``active`` seat; None once the game is over or nobody is to act."""
    if starting:
        return start_seat
    return None if state.outcome() is not None or state.active < 0 else state.active


class Presses(list):
    """The button presses a by-hand demo makes on ``session`` (each game's ``press_for``), applied to it
    as they are recorded: a list of :class:`Command`."""

    def __init__(self, session: Any):
        super().__init__()
        self.session = session

    def press(self, button: Button) -> None:
        """Record ``button`` and apply it to the session."""
        command = Command(button)
        self.append(command)
        self.session.on_command(command)

    def start_with(self, seat: int) -> None:
        """NEXT until the session proposes ``seat`` to start, then CONFIRM."""
        while self.session.start_seat != seat and len(self) < len(self.session.players):
            self.press(Button.NEXT)
        self.press(Button.CONFIRM)

    def made(self, action: Any) -> list[Command]:
        """The presses, once the session took them; ``ValueError`` naming ``action`` when it refused one."""
        if self.session.refused:
            raise ValueError(f"the presses for {action!r} were refused: {self.session.message}")
        return list(self)
