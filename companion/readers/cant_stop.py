"""Can't Stop's reader: the four dice of each roll (``companion.readers.dice``), read with the players'
dice learned between games, and each roll they confirm kept to learn from (issue 39)."""

from __future__ import annotations

from companion.readers.base import ReaderSettings
from companion.readers.dice import DiceReader, RollKeeper, box_recognizer, dice_reader


def make_reader(camera, session, settings: ReaderSettings) -> DiceReader:
    """The loop's reader for a Can't Stop ``session`` on ``camera``: frame -> DiceObservation. With a
    camera and a state directory, first learns from the rolls kept since the last game (its line, when
    something new was learned, becomes the first notice unless one is there) and gives the session a
    :class:`companion.readers.dice.RollKeeper` (``session.keeper``)."""
    live = camera is not None and settings.state_dir is not None
    recognizer, said = box_recognizer(settings.state_dir, learn=live)
    if said and not session.message:
        session.message = said
    if live:
        session.keeper = RollKeeper(settings.state_dir, recognizer)
    return dice_reader(camera, settings, recognizer)
