"""What a reader saw in one frame: items with values, pixel boxes and confidences."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DieReading:
    """One die found in a frame.

    value: the pip count read, 1-6 (the best guess).
    box: ``(x0, y0, x1, y1)`` in pixels of the frame, x1/y1 exclusive.
    confidence: 0-1, how sure the reader is of ``value``.
    flagged: True when the players should confirm this die before it is used.
    """

    value: int
    box: tuple[int, int, int, int]
    confidence: float
    flagged: bool = False

    def to_dict(self) -> dict:
        return {"value": self.value, "box": list(self.box), "confidence": round(self.confidence, 4),
                "flagged": self.flagged}


@dataclass(frozen=True)
class DiceObservation:
    """All dice read in one frame, in reading order (left to right, then top to bottom).

    frame_shape: ``(height, width)`` of the frame in pixels. ms: the reader's wall time.
    problem: a short reason when the frame itself could not be read (black, blurred, wrong dtype), else None.
    """

    dice: tuple[DieReading, ...]
    frame_shape: tuple[int, int]
    ms: float = 0.0
    problem: str | None = None

    @property
    def values(self) -> tuple[int, ...]:
        """The values in reading order."""
        return tuple(d.value for d in self.dice)

    @property
    def any_flagged(self) -> bool:
        return any(d.flagged for d in self.dice)
