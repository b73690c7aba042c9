"""What each game's session takes from the camera: one reading type per game, made by the game's reader
(``companion.readers.<game>``) from the vision readers' observations (``vision.observation``).

Readings are plain frozen values with a ``problem`` ("" or None when fine), so a session never depends
on a reader's internals, and tests and hand entry can build them directly. Can't Stop takes the dice
reader's :class:`vision.observation.DiceObservation` as it is, or, where its board is read, a
:class:`CantStopReading` holding it and the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # the type only: a Can't Stop game does not load the Schotten Totten engine
    from companion.games.schotten_totten import Card


@dataclass(frozen=True)
class CantStopReading:
    """What the Can't Stop session gets from one frame where the board is read too.

    dice: the dice reader's observation (``vision.observation.DiceObservation``). markers: seat ->
    {column: space} of the players' markers seen (spaces 1-based from the column's bottom), runners:
    {column: space}; both None when the board was not read (not asked for, or no reading: then
    ``board_problem`` says why in plain words, "" when it was not asked for).
    """

    dice: object
    markers: dict[int, dict[int, int]] | None = None
    runners: dict[int, int] | None = None
    board_problem: str = ""


@dataclass(frozen=True)
class LudoReading:
    """What the Ludo session gets from one frame.

    pawns: per seat (the game's colour order), the relative positions read (YARD = -1), sorted; None when
    the board was not read. die: the value of the one die seen, None unless exactly one. dice_seen: dice
    in view (0-n). problem: why nothing could be read ("" when fine). die_view: the frame as the die
    reader saw it (the board blanked out, or all but a die that landed on it; (h, w, 3) uint8), used
    to tell a newly rolled die from the one still lying there; None to use the whole frame.
    """

    pawns: tuple[tuple[int, ...], ...] | None = None
    die: int | None = None
    dice_seen: int = 0
    problem: str = ""
    die_view: np.ndarray | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class SeenCard:
    """One Schotten Totten card read at the table: stone 0-8, seat 0 (side a) or 1 (side b), the card
    (None: unread), flagged when the reader is unsure."""

    stone: int
    seat: int
    card: Card | None
    flagged: bool = False


@dataclass(frozen=True)
class SchottenTottenReading:
    """Every Schotten Totten card read in one frame; ``problem``: why the frame could not be read, else None."""

    cards: tuple[SeenCard, ...]
    problem: str | None = None


@dataclass(frozen=True)
class DonkeyRaceReading:
    """What the card reader saw at a donkey race table: ``sectors[seat]`` the card codes face up in that
    seat's sector (``UNKNOWN`` for a card it could not read), ``flagged`` when a card should be confirmed,
    ``donkey_seat`` the seat whose sector shows the donkey card (or None), ``problem`` a reason when the
    frame could not be read."""

    sectors: tuple[tuple[int, ...], ...]
    flagged: bool = False
    donkey_seat: int | None = None
    problem: str | None = None
