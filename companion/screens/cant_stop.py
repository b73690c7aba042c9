"""What the screen shows, as plain data: the session builds a view, the display draws it.

Keeping this a pure value means the display never touches game state or the session, and render tests
can build views by hand. All strings in a view are already translated (``companion.i18n._``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class PlayerView:
    """One seat: name, palette index (0-3, see ``companion.display.palette``), and scoreboard figures."""

    name: str
    colour: int
    claimed: int = 0  # columns claimed in this game
    wins: int = 0  # games won before (scoreboard)


@dataclass(frozen=True)
class DieView:
    """One die as read: value 1-6 (0 = not yet known), pixel box in the photo, flags for drawing."""

    value: int
    box: tuple[int, int, int, int] | None  # None for a die entered by hand
    flagged: bool = False
    selected: bool = False


@dataclass(frozen=True)
class OptionView:
    """One legal choice: a label ("6 + 8") and what it does on the board ("runner 6 to 3, 8 to 1")."""

    label: str
    effect: str
    selected: bool = False


@dataclass(frozen=True)
class CantStopBoardView:
    """The Can't Stop board (cant-stop.md A.2).

    heights: column -> number of spaces (2..12).
    markers: seat -> {column: height of that seat's marker, 1 = bottom space}.
    runners: column -> height of the active player's runner this turn.
    claimed: column -> seat that claimed it.
    """

    heights: dict[int, int]
    markers: dict[int, dict[int, int]]
    runners: dict[int, int]
    claimed: dict[int, int]


@dataclass(frozen=True)
class ScreenView:
    """Everything on one screen.

    prompt: the one line saying what the box waits for. status: a short line such as "3 dice seen".
    frame_bgr: the photo of the roll (H x W x 3 uint8) or None; dice: the dice drawn on it.
    bust_probability: the exact chance (0-1) that the next roll busts, or None when not relevant.
    hint: the advisor's recommendation in one line, or "". keys: (key, meaning) pairs for the legend.
    winner: the winner's seat when the game is over.
    """

    title: str
    players: tuple[PlayerView, ...]
    active: int | None
    board: CantStopBoardView
    prompt: str
    status: str = ""
    frame_bgr: np.ndarray | None = None
    dice: tuple[DieView, ...] = ()
    options: tuple[OptionView, ...] = ()
    bust_probability: float | None = None
    hint: str = ""
    keys: tuple[tuple[str, str], ...] = ()
    winner: int | None = None
    message: str = ""  # an event just accepted ("Anna busts", "Ben claims column 7")
    extra: dict = field(default_factory=dict)
