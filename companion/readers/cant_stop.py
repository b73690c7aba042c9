"""Can't Stop's reader: the four dice of each roll (``companion.readers.dice``), read with the players'
dice learned between games, and each roll they confirm kept to learn from (issue 39); where the game's
``board_layout`` is set, the board too while the session compares it with the record (issue 50)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.readers.base import ReaderSettings
from companion.readers.dice import DiceReader, RollKeeper, box_recognizer, dice_reader
from companion.session.readings import CantStopReading
from vision.board.cant_stop import layout_named, read_cant_stop_board


def make_reader(camera, session, settings: ReaderSettings) -> Callable[[Any], Any]:
    """The loop's reader for a Can't Stop ``session`` on ``camera``: frame -> DiceObservation, or, with a
    ``board_layout`` set, frame -> :class:`CantStopReading` (the board read only while
    ``session.wants_board``). With a camera and a state directory, first learns from the rolls kept
    since the last game (its line, when something new was learned, becomes the first notice unless one is
    there) and gives the session a :class:`companion.readers.dice.RollKeeper` (``session.keeper``)."""
    live = camera is not None and settings.state_dir is not None
    recognizer, said = box_recognizer(settings.state_dir, learn=live)
    if said and not session.message:
        session.message = said
    if live:
        session.keeper = RollKeeper(settings.state_dir, recognizer)
    dice = dice_reader(camera, settings, recognizer)
    if session.config.board_layout == "none":
        return dice
    return BoardAndDice(dice, session)


class BoardAndDice:
    """Frame -> :class:`CantStopReading`: the dice, and the board while ``session.wants_board`` (its
    reader takes some 90 ms a frame here: it runs only while the session compares the board). The
    board's markers are given by seat (the session's ``config.seat_colours``)."""

    def __init__(self, dice: DiceReader, session: Any):
        self.dice = dice
        self.session = session
        self.layout = layout_named(session.config.board_layout)
        self.colours = session.config.seat_colours[:len(session.players)]

    def __call__(self, frame_bgr) -> CantStopReading:
        observation = self.dice(frame_bgr)
        if not self.session.wants_board:
            return CantStopReading(observation)
        seen = read_cant_stop_board(frame_bgr, self.layout, self.colours)
        if not seen.ok:
            return CantStopReading(observation, board_problem=seen.problem or "")
        markers = {seat: dict(seen.markers.get(colour, {})) for seat, colour in enumerate(self.colours)}
        return CantStopReading(observation, markers, dict(seen.runners))
