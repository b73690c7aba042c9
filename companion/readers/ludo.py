"""Ludo's reader: the die in ROLL and the board in MOVE, as a :class:`companion.session.readings.LudoReading`.

The frame reader (:class:`LudoFrameReader`) reads the die (``vision.dice.read_dice``) in ROLL and the
board (``vision.board.read_board``) in MOVE; a reading is cached per still scene, so a photo held for
many frames is read once. The board reader reports pawns by ABSOLUTE track index, yard counts and home
squares per colour; the engine and the move checker want, per seat, RELATIVE positions (ludo.md B.2 /
B.2b; B.8: "the physical board must be read as relative positions per colour"):
:func:`pawns_from_board` converts one into the other.

The die is read first with the board blanked out (``vision.board.mask_board``): pawns and printed
circles look like dice to the dice reader, so the table beside the board is read on its own. Each new
scene's board is read for that (a bumped board moves its outline); when the board is not found the last
outline found is used. When nothing lies beside the board, the die may have landed on it: the board is
compared with the last settled board (the frame of the last board read with every pawn placed), and the
one die-shaped change on it, away from where the last die lay, is read with the rest blanked out
(``vision.board.landed``): a pawn or a printed circle did not change, a thrown die did. A die is taken only when exactly one is seen and it is not flagged.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping

import numpy as np

from companion.games.ludo import PAWNS, YARD, BoardGeometry, load_board
from companion.i18n import _
from companion.readers.base import ReaderSettings
from companion.session import LudoReading
from vision.board import board_outline, mask_board, read_board
from vision.board.landed import align_reference, landed_view
from vision.dice import DiceCalibration, DiceReader, load_calibration, shipped_reader

log = logging.getLogger(__name__)


class LudoFrameReader:
    """``reader(frame_bgr) -> LudoReading`` for the loop: the die and the board of one frame.

    board: geometry name; colours: the colours in play (seat order); stacks: count two pawns of one
    colour on a square (set when the variant's ``own_stacking`` is not ``forbidden``, ludo.md B.5 / B.7);
    dice_calibration: the empty table of ``companion calibrate dice``, or None; dice_reader: the
    :class:`vision.dice.DiceReader` for the die and for a die that landed on the board (default the
    shipped one, loaded at the first roll); session: the session,
    asked which part to read (``mode``: ``roll`` reads the die, ``move`` the
    board). Reader failures become a reading with ``problem`` set, never an exception.
    """

    def __init__(self, board: str, colours: tuple[str, ...], stacks: bool = False,
                 dice_calibration: DiceCalibration | None = None, dice_reader: DiceReader | None = None):
        self.geometry = load_board(board)
        self.colours = colours
        self.stacks = stacks
        self.dice_calibration = dice_calibration
        self.dice_reader = dice_reader
        self.session = None
        self._cache: dict[tuple[str, bytes], LudoReading] = {}
        self._calibration = None
        # the frame of the last settled board (pawns read, no problem) and its board's homography
        self._settled: tuple[np.ndarray, np.ndarray] | None = None
        self._last_die: tuple[int, int, int, int] | None = None  # the box of the last die taken

    def __call__(self, frame_bgr: np.ndarray) -> LudoReading:
        reads_board = self.session is not None and getattr(self.session, "reads_board", False)
        part = "move" if reads_board else "roll"
        key = (part, hashlib.sha1(np.ascontiguousarray(frame_bgr[::8, ::8]).tobytes()).digest())
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = self._read_board(frame_bgr) if part == "move" else self._read_die(frame_bgr)
        return self._cache[key]

    def _read_die(self, frame_bgr: np.ndarray) -> LudoReading:
        try:
            board = read_board(frame_bgr, self.geometry, self._calibration)
            if board.found:
                self._calibration = board
            table = frame_bgr if self._calibration is None else mask_board(frame_bgr, self._calibration, self.geometry)
            self.dice_reader = self.dice_reader or shipped_reader()
            obs = self.dice_reader.read(table, calibration=self.dice_calibration)
            dice, view = obs.dice, table
            if not dice and obs.problem is None:
                landed = self._landed_view(frame_bgr)
                if landed is not None:  # no calibration: the empty table it holds is not this blanked view
                    dice, view = self.dice_reader.read(landed).dice, landed
        except Exception as error:  # a reader failure must not stop the game: hand entry still works
            log.exception("the die reader failed on a frame")
            return LudoReading(problem=f"die reader: {error}")
        reading = _die_reading(dice, obs.problem or "", view)
        if reading.die is not None:
            self._last_die = dice[0].box
        return reading

    def _landed_view(self, frame_bgr: np.ndarray) -> np.ndarray | None:
        """The frame with all but a die that landed on the board since the last settled board blanked
        out (:func:`vision.board.landed.landed_view`); None when there is no settled board to compare
        with, or not exactly one die-shaped change on the board."""
        quad = None if self._calibration is None else board_outline(self._calibration, self.geometry)
        if quad is None or self._settled is None or self._settled[0].shape != frame_bgr.shape:
            return None
        reference = align_reference(*self._settled, self._calibration.homography_array())
        return landed_view(frame_bgr, reference, quad, self._last_die, self.dice_reader).view

    def _read_board(self, frame_bgr: np.ndarray) -> LudoReading:
        try:
            obs = read_board(frame_bgr, self.geometry, self._calibration, stacks=self.stacks)
        except Exception as error:  # a reader failure must not stop the game: hand entry still works
            log.exception("the board reader failed on a frame")
            return LudoReading(problem=f"board reader: {error}")
        if obs.found:
            self._calibration = obs
        pawns, problem = pawns_from_board(obs, self.geometry, self.colours)
        if pawns is not None and not problem and obs.found:
            self._settled = (frame_bgr.copy(), obs.homography_array())
        return LudoReading(pawns=pawns, problem=problem)


def _die_reading(dice, problem: str, view: np.ndarray) -> LudoReading:
    """The reading of ``dice`` (DieReading): the die's value when exactly one die is seen and it is not
    flagged; a leaning (cocked) die is named as the problem, unless the frame has one already."""
    die = dice[0].value if len(dice) == 1 and not dice[0].flagged else None
    if not problem and any(d.cocked for d in dice):
        problem = _("the die is leaning: roll it again")
    return LudoReading(die=die, dice_seen=len(dice), problem=problem, die_view=view)


def make_reader(camera, session, settings: ReaderSettings) -> LudoFrameReader:
    """The loop's reader for a Ludo ``session``: the session's board and colours, pawns stacked when the
    variant allows it, the dice calibration of ``settings.state_dir`` (loaded once)."""
    calibration = load_calibration(settings.state_dir) if settings.state_dir is not None else None
    reader = LudoFrameReader(session.config.board, session.state.colours,
                             stacks=session.config.own_stacking != "forbidden", dice_calibration=calibration)
    reader.session = session
    return reader


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
