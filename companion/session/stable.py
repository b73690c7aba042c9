"""The one stabiliser: a reading is acted on only once it has held still for a number of frames.

ARCHITECTURE.md, Session: a reading is acted on only when it is stable, the same values over N frames
(config ``[session] stable_frames``). Every session counts with :class:`Stable`; what a key is (sorted
dice values, a die, a board, a card and its stone) is the session's own.
"""

from __future__ import annotations

from typing import Any


class Stable:
    """True once the same key was fed ``frames`` times in a row (``frames`` >= 1; ``ValueError`` otherwise).

    Keys are compared with ``==``; a new key starts the count again at one, :meth:`reset` at zero.
    """

    def __init__(self, frames: int):
        if frames < 1:
            raise ValueError(f"stable_frames must be at least 1, not {frames}")
        self.frames = frames
        self._key: Any = None
        self.held = 0
        """How many frames in a row the last key has been fed (0 after :meth:`reset`)."""

    def feed(self, key: Any) -> bool:
        """Count ``key`` (a reading's values); True when it is the same as the last ``frames`` ones."""
        if self.held and key == self._key:
            self.held += 1
        else:
            self._key, self.held = key, 1
        return self.held >= self.frames

    def reset(self) -> None:
        """Forget the keys seen (a reading was taken, or the frames stopped making sense)."""
        self._key, self.held = None, 0
