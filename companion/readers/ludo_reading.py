"""The one adapter between the board reader and the Ludo session: readings as relative pawn positions.

The board reader (``vision.board.reader.read_board``, another module's work) reports pawns by ABSOLUTE
track index, yard counts and home squares per colour (:class:`vision.board.reader.BoardObservation`); the
engine and the move checker want, per seat, RELATIVE positions (ludo.md B.2 / B.2b; B.8: "the physical
board must be read as relative positions per colour"). :func:`reading_from_board` converts one into the
other; anything with the attributes ``found``, ``squares``, ``yards``, ``homes`` (and optionally
``problem``) will do, so the session never depends on the reader's internals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from companion.games.ludo.board import BoardGeometry
from companion.games.ludo.rules import PAWNS, YARD


@dataclass(frozen=True)
class LudoReading:
    """What the session gets from one frame.

    pawns: per seat (the game's colour order), the relative positions read (YARD = -1), sorted; None when
    the board was not read. die: the value of the one die seen, None unless exactly one. dice_seen: dice
    in view (0-n). problem: why nothing could be read ("" when fine). die_view: the frame as the die
    reader saw it (the board blanked out, (h, w, 3) uint8), used to tell a newly rolled die from the
    one still lying there; None to use the whole frame.
    """

    pawns: tuple[tuple[int, ...], ...] | None = None
    die: int | None = None
    dice_seen: int = 0
    problem: str = ""
    die_view: np.ndarray | None = field(default=None, compare=False, repr=False)


def pawns_from_board(observation, geometry: BoardGeometry, colours: tuple[str, ...]) -> tuple[
        tuple[tuple[int, ...], ...] | None, str]:
    """(per-seat relative pawns, problem) from a board observation; (None, reason) when not usable.

    squares: absolute index -> colours there; yards: colour -> count; homes: colour -> home indices
    (0-based after the track; on ludo52 index ``home_length`` is the finish). A pawn of a colour not in
    play, or one on the square its colour never visits (ludo52: the square before its start), makes the
    reading unusable (returned as a problem, never guessed); so does a yard the reader saw covered
    (``covered_yards``, a hand over it: its count is unknown, not zero) or an ``unknown`` place (places
    the reader could not see). On a board with a finish (ludo52) a finished pawn is taken off the board
    (it has no square to stand on): a colour's pawns seen nowhere (up to 4 a colour, ludo.md B.1) count
    as finished, relative ``track_positions + home_length``; the move checker still refuses a finish
    that no legal move explains.
    """
    if observation is None or not getattr(observation, "found", False):
        return None, str(getattr(observation, "problem", "") or "board not found")
    covered = [c for c in getattr(observation, "covered_yards", ()) if c in colours]
    if covered:
        return None, f"the {', '.join(covered)} yard is covered"
    unknown = getattr(observation, "unknown", ())
    if unknown:
        return None, f"{len(unknown)} place(s) covered"
    n, tp = geometry.track_length, geometry.track_positions
    seats = {c: i for i, c in enumerate(colours)}
    pawns: list[list[int]] = [[] for _ in colours]
    squares: Mapping[int, tuple[str, ...]] = observation.squares
    for a, here in squares.items():
        for colour in here:
            if colour not in seats:
                return None, f"a {colour} pawn on square {a}, but {colour} does not play"
            rel = (int(a) - geometry.colours[colour].start_offset) % n
            if rel >= tp:
                return None, f"a {colour} pawn on square {a}, which {colour} never visits"
            pawns[seats[colour]].append(rel)
    for colour, count in observation.yards.items():
        if count and colour not in seats:
            return None, f"{count} pawn(s) in the {colour} yard, but {colour} does not play"
        if colour in seats:
            pawns[seats[colour]].extend([YARD] * int(count))
    for colour, homes in observation.homes.items():
        if homes and colour not in seats:
            return None, f"pawns in the {colour} home, but {colour} does not play"
        if colour in seats:
            pawns[seats[colour]].extend(tp + int(k) for k in homes)
    if geometry.has_finish:
        finish = tp + geometry.home_length
        for mine in pawns:
            mine.extend([finish] * max(0, PAWNS - len(mine)))
    return tuple(tuple(sorted(p)) for p in pawns), ""
