"""What a reader saw in one frame: items with values, pixel boxes and confidences.

The one module of observations: the dice reader's :class:`DiceObservation`, the card readers'
:class:`CardsObservation` and the board reader's :class:`BoardObservation`. Each has a ``problem``
(None when the frame could be read) and its JSON form (``to_dict``) as the ``read`` commands print it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class DieReading:
    """One die found in a frame.

    value: the pip count read, 1-6 (the best guess).
    box: ``(x0, y0, x1, y1)`` in pixels of the frame, x1/y1 exclusive.
    confidence: 0-1, how sure the reader is of ``value``.
    flagged: True when the players should confirm this die before it is used.
    cocked: True when the die leans on an edge or on another die instead of lying flat
    (the reader's cocked-die classifier, :mod:`vision.dice.networks`); a cocked die is always flagged.
    """

    value: int
    box: tuple[int, int, int, int]
    confidence: float
    flagged: bool = False
    cocked: bool = False

    def to_dict(self) -> dict:
        return {"value": self.value, "box": list(self.box), "confidence": round(self.confidence, 4),
                "flagged": self.flagged, "cocked": self.cocked}


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


@dataclass(frozen=True)
class PawnReading:
    """One pawn read on the board.

    place: ``("track", index)`` (absolute track index, ludo.md B.2), ``("home", colour, k)`` (k-th home
    square of that colour's home column, 0 = the first after the track) or ``("yard", colour, k)``.
    colour: the pawn's colour. score: its evidence score (0-1). confidence: 0-1.
    pixel: ``(x, y)`` of the place's centre in the frame.
    """

    place: tuple
    colour: str
    score: float
    confidence: float
    pixel: tuple[float, float]


@dataclass(frozen=True)
class BoardObservation:
    """What the board reader saw in one frame.

    board: geometry name. found: whether the board was found. squares: absolute track index -> colours
    of the pawns on it (a tuple, usually of one). yards: colour -> pawns seen in that colour's yard (0-4).
    covered_yards: yards that could not be counted (a hand over them; their count is 0 and means nothing).
    unknown: track and home places a hand covers (``("track", i)``, ``("home", colour, k)``,
    :mod:`vision.board.hand`): nothing is known of them, they are not empty (not in the JSON form).
    homes: colour -> its occupied home squares (0-based, relative position ``track_positions + k``).
    pawns: every pawn read, with place, score and confidence. confidence: 0-1 for the whole reading
    (board fit x the weakest pawn's confidence). homography: 3x3 grid ``(col, row, 1)`` -> frame pixels
    as nested tuples, None when not found. clockwise: printed colour order from red. frame_shape:
    (h, w). ms: wall time. problem: why nothing could be read, else None. finished: colour -> pawns
    that reached the finish or left the board (filled in by :func:`vision.board.recognise.read_known_board`).
    recognised: the board the photo shows (:func:`vision.board.recognise.recognise_board`), None when not
    known or not looked at.
    """

    board: str | None
    found: bool
    squares: dict[int, tuple[str, ...]] = field(default_factory=dict)
    yards: dict[str, int] = field(default_factory=dict)
    covered_yards: tuple[str, ...] = ()
    unknown: tuple[tuple, ...] = ()
    homes: dict[str, tuple[int, ...]] = field(default_factory=dict)
    pawns: tuple[PawnReading, ...] = ()
    confidence: float = 0.0
    homography: tuple[tuple[float, ...], ...] | None = None
    clockwise: tuple[str, ...] = ()
    frame_shape: tuple[int, int] = (0, 0)
    ms: float = 0.0
    problem: str | None = None
    finished: dict[str, int] = field(default_factory=dict)
    recognised: str | None = None

    def homography_array(self) -> np.ndarray | None:
        """The homography as a 3x3 float64 array (None when not found)."""
        return None if self.homography is None else np.array(self.homography, np.float64)

    def to_dict(self) -> dict:
        """The JSON form (see :mod:`companion.cli.board`)."""
        out = {
            "board": self.board,
            "found": self.found,
            "squares": {str(k): (list(v) if len(v) > 1 else v[0]) for k, v in sorted(self.squares.items())},
            "yards": dict(self.yards),
            "covered_yards": list(self.covered_yards),
            "homes": {c: list(v) for c, v in self.homes.items()},
            "finished": dict(self.finished),
            "recognised": self.recognised,
            "confidence": round(self.confidence, 4),
            "clockwise": list(self.clockwise),
            "pawns": [{"place": list(p.place), "colour": p.colour, "confidence": round(p.confidence, 3),
                       "pixel": [round(p.pixel[0], 1), round(p.pixel[1], 1)]} for p in self.pawns],
            "homography": None if self.homography is None else [[round(v, 6) for v in row] for row in self.homography],
            "ms": round(self.ms, 3),
        }
        if self.problem:
            out["problem"] = self.problem
        return out
