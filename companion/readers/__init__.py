"""Readers: a camera frame turned into the reading a game's session takes, one module per game.

``companion.readers.<game>.make_reader(camera, session, settings)`` (found through
``companion.registry``) builds the loop's reader from the vision readers (``vision.dice``,
``vision.board``, ``vision.cards``), with the calibrations of :class:`ReaderSettings` loaded once. A
frame a reader cannot take becomes a reading with a ``problem`` (:func:`read_safely`), never an
exception in the loop. :mod:`.dice` is the dice reader both dice games share (settle detection
included).
"""

from companion.readers.base import ReaderSettings, read_safely

__all__ = ["ReaderSettings", "read_safely"]
