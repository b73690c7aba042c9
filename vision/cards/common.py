"""What a card reader saw in one frame: shared by the Schotten Totten and donkey race readers.

Public API: :class:`CardReading`, :class:`CardsObservation`, :func:`frame_problem_bgr`, :func:`draw_overlay`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.errors import FrameError
from vision.dice.reader import check_frame, frame_problem

# Flag a card read with less confidence than this (the players confirm it on the screen).
FLAG_BELOW = 0.5


@dataclass(frozen=True)
class CardReading:
    """One card found face up in a frame.

    code: the card as the game writes it: Schotten Totten ``"R5"`` (colour letter R O Y G B P and value
    1-9, schotten-totten.md C.2; None when the colour or value is unknown), donkey race the value as text
    (``"7"``, ``"0"``; ``"J"``/``"Q"``/``"K"`` for a picture). value: 0-13 or None (a picture, or unread).
    colour: Schotten Totten colour name (``"red"`` ...) or None. box: ``(x0, y0, x1, y1)`` in frame
    pixels, x1/y1 exclusive. corners: four ``(x, y)`` frame pixels, the card's top-left, top-right,
    bottom-right, bottom-left as its player sees it (Schotten Totten: the whole card extrapolated from its
    index box, partly covered in a column). confidence: 0-1. flagged: True when the players should confirm this card.
    stone: 0-8 and side ``"a"``/``"b"`` (Schotten Totten) or None. sector: the seat's sector name
    (donkey race) or None. donkey: True for the donkey card (donkey race, donkey-race.md D.5).
    """

    code: str | None
    value: int | None
    colour: str | None
    box: tuple[int, int, int, int]
    corners: tuple[tuple[float, float], ...]
    confidence: float
    flagged: bool = False
    stone: int | None = None
    side: str | None = None
    sector: str | None = None
    donkey: bool = False

    def to_dict(self) -> dict:
        """A JSON-ready dict; keys that do not apply to the game (stone/side or sector) are left out."""
        out = {"code": self.code, "value": self.value}
        if self.colour is not None or self.stone is not None:
            out["colour"] = self.colour
        out.update({"box": list(self.box), "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
                    "confidence": round(self.confidence, 3), "flagged": self.flagged})
        if self.stone is not None or self.side is not None:
            out.update({"stone": self.stone, "side": self.side})
        if self.sector is not None:
            out.update({"sector": self.sector, "donkey": self.donkey})
        return out


@dataclass(frozen=True)
class CardsObservation:
    """All cards read in one frame.

    game: ``"schotten-totten"`` or ``"donkey-race"``. cards: in reading order (per game: by stone and side,
    or by sector). frame_shape: ``(height, width)``. ms: the reader's wall time in milliseconds.
    problem: a short reason when the frame itself could not be read (black, tiny, uniform), else None.
    """

    game: str
    cards: tuple[CardReading, ...]
    frame_shape: tuple[int, int]
    ms: float = 0.0
    problem: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def any_flagged(self) -> bool:
        return any(c.flagged for c in self.cards)

    def to_dict(self) -> dict:
        """The JSON object of ``companion cards read`` (without ``file`` and ``ms``)."""
        return {"game": self.game, "problem": self.problem, "n_cards": len(self.cards),
                "cards": [c.to_dict() for c in self.cards], **self.extra}


def frame_problem_bgr(frame_bgr) -> str | None:
    """Check a frame: raises FrameError (a ValueError) for input that is not a non-empty (h, w, 3) uint8
    array; returns a short reason for a black, saturated, uniform or too small frame, else None."""
    check_frame(frame_bgr)
    return frame_problem(cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY))


def draw_overlay(frame_bgr: np.ndarray, observation: CardsObservation, path: Path,
                 extra_points: list[tuple[float, float]] = ()) -> Path:
    """Write a PNG of the frame with each card's outline and code (red when flagged); returns the path."""
    out = frame_bgr.copy()
    scale = max(1, round(max(out.shape[:2]) / 800))
    for x, y in extra_points:
        cv2.circle(out, (int(x), int(y)), 6 * scale, (255, 0, 255), 2 * scale)
    for card in observation.cards:
        colour = (0, 0, 255) if card.flagged else (0, 200, 0)
        pts = np.array(card.corners, np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, colour, 2 * scale)
        cv2.circle(out, tuple(int(v) for v in card.corners[0]), 4 * scale, (255, 0, 0), -1)
        label = card.code or "?"
        if card.stone is not None:
            label += f" {card.stone}{card.side}"
        x0, y0 = card.box[:2]
        cv2.putText(out, label, (x0, max(12, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, colour, 2 * scale)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), out)
    return path


__all__ = ["CardReading", "CardsObservation", "FrameError", "frame_problem_bgr", "draw_overlay", "FLAG_BELOW"]
