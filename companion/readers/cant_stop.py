"""Can't Stop's reader: the four dice of each roll (``companion.readers.dice``)."""

from __future__ import annotations

from companion.readers.base import ReaderSettings
from companion.readers.dice import DiceReader, dice_reader


def make_reader(camera, session, settings: ReaderSettings) -> DiceReader:
    """The loop's reader for a Can't Stop ``session`` on ``camera``: frame -> DiceObservation."""
    return dice_reader(camera, settings)
