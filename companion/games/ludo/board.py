"""Ludo board geometry as data (ludo.md B.2, B.2b), shared by the engine, the board reader and the display.

The board reader (``vision.board``) imports nothing of companion: the app hands it these geometries
(:func:`load_board`, :func:`load_boards`), and ``vision.board.geometry`` says what it reads of them.

The geometry lives in ``assets/ludo/<name>.json`` (``ludo52``: the 52-square 15x15 cross; ``mensch40``:
the 40-square 11x11 "Mensch ärgere Dich nicht" board; ``dga56``: the 56-square 15x15 cross of the real
photos, B.2c, whose colours sit clockwise red, blue, yellow, green and whose pawns pass all 56 squares,
relative 0..55, before the home column 56..60 and the finish 61) and is loaded with :func:`load_board`.

Cell conventions (``ludo52`` and ``mensch40``; ``dga56`` as described in ``vision.board.layouts``):

- A cell is ``(row, col)`` on the square ``grid_size`` x ``grid_size`` grid of equal cells; row 0 is the
  TOP row of the board as drawn, col 0 the LEFT column (image convention: row = y downwards, col = x).
- Red's yard is the TOP-LEFT corner. The colours sit clockwise red (top-left), green (top-right),
  yellow (bottom-right), blue (bottom-left); each colour's cells are red's cells turned by 90 degrees
  clockwise once (green), twice (yellow) or three times (blue): ``(r, c) -> (c, grid_size - 1 - r)``.
- ``track[i]`` is the cell of ABSOLUTE track index ``i``; index 0 is red's start square
  (``ludo52``: ``(6, 1)``, just right of red's yard on the left arm; ``mensch40``: ``(4, 0)``, the outer end of
  the left arm's upper row). Consecutive track cells (and the last and the first) are neighbours: edge
  neighbours, except on ``ludo52`` the 4 diagonal steps where the track turns round an inner corner of the
  cross (e.g. ``(6, 5) -> (5, 6)``); the track runs clockwise around the centre.
- A colour's relative track position ``rel`` is on absolute index ``(start_offset + rel) % track_length``
  (B.2) for ``rel`` in ``0..track_positions - 1``: 0..50 on ``ludo52`` (a pawn never re-enters its own start
  square's predecessor, absolute ``start - 1``), 0..39 on ``mensch40`` (the whole loop). Relative positions
  ``track_positions + k`` (k = 0..home_length-1) are ``home_column[k]``; on
  ``ludo52`` the finish (relative 56) is the colour's ``finish`` triangle cell next to the centre;
  ``mensch40`` has no finish square (its journey ends on a home square, B.2b).
- ``yard`` lists the 4 yard circles of a colour (cell centres), ``safe`` the colour's safe track indices
  (its start square, and on ``ludo52`` the star square 8 steps after it, B.2).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from companion.i18n import N_

COLOURS: tuple[str, ...] = (N_("red"), N_("green"), N_("yellow"), N_("blue"))
"""The four colours in clockwise seating order (B.2, B.7 seating); seat ``i`` plays ``COLOURS[i]``."""

BOARD_NAMES: tuple[str, ...] = ("ludo52", "mensch40", "dga56")
"""The boards shipped in ``assets/ludo`` (ludo.md B.2b, B.2c, CONFIG ``board``)."""

Cell = tuple[int, int]


@dataclass(frozen=True)
class ColourGeometry:
    """One colour's places on a board.

    start_offset: absolute track index of its start square (0, 13, 26, 39 or 0, 10, 20, 30).
    yard: the 4 yard cells. home_column: the home cells in movement order (5 on ludo52, 4 on mensch40).
    finish: the finish-triangle cell (ludo52) or None (mensch40). safe: its safe track indices.
    """

    start_offset: int
    yard: tuple[Cell, ...]
    home_column: tuple[Cell, ...]
    finish: Cell | None
    safe: tuple[int, ...]


@dataclass(frozen=True)
class BoardGeometry:
    """A Ludo board as data (see the module docstring for the cell conventions).

    name: ``"ludo52"`` or ``"mensch40"``. grid_size: 15 or 11 cells a side. track: ``track_length`` cells,
    absolute index order. track_positions: relative track positions a pawn uses (51 = 0..50 on ludo52,
    40 = 0..39 on mensch40, B.2 / B.2b). home_length: home squares per colour (5 or 4). has_finish: whether a separate
    finish exists after the home column (ludo52 yes, relative 56). colours: colour name -> ColourGeometry.
    safe_squares: ``safe_squares`` CONFIG value (``"none"``, ``"starts"``, ``"starts_and_stars"``) -> the
    absolute safe track indices (B.7). centre: the cells of the central area (drawn, not played on).
    """

    name: str
    grid_size: int
    track: tuple[Cell, ...]
    track_positions: int
    home_length: int
    has_finish: bool
    colours: dict[str, ColourGeometry]
    safe_squares: dict[str, tuple[int, ...]]
    centre: tuple[Cell, ...]

    @property
    def clockwise(self) -> tuple[str, ...]:
        """The colours in clockwise order from red, as printed (the seating and turn order, B.3): red,
        green, yellow, blue on ``ludo52`` and ``mensch40``; red, blue, yellow, green on ``dga56`` (B.2c)."""
        return tuple(sorted(self.colours, key=lambda c: self.colours[c].start_offset))

    @property
    def track_length(self) -> int:
        """Number of shared track squares (52 or 40, B.2b)."""
        return len(self.track)

    @property
    def last_relative(self) -> int:
        """The last relative position of a pawn's journey: 56 on ludo52 (finish), 43 on mensch40 (B.2b)."""
        return self.track_positions - 1 + self.home_length + (1 if self.has_finish else 0)

    def cell_of(self, colour: str, rel: int) -> Cell:
        """The grid cell of ``colour``'s pawn at relative position ``rel`` (0..last_relative).

        Raises ValueError for a relative position outside 0..last_relative.
        """
        geo = self.colours[colour]
        n = self.track_length
        if 0 <= rel < self.track_positions:
            return self.track[(geo.start_offset + rel) % n]
        k = rel - self.track_positions  # 0-based home index
        if 0 <= k < self.home_length:
            return geo.home_column[k]
        if self.has_finish and rel == self.last_relative and geo.finish is not None:
            return geo.finish
        raise ValueError(f"relative position {rel} is not on the {self.name} board")

    def absolute(self, colour: str, rel: int) -> int | None:
        """Absolute track index of a relative track position, or None for home/finish positions (B.2)."""
        n = self.track_length
        if 0 <= rel < self.track_positions:
            return (self.colours[colour].start_offset + rel) % n
        return None


def _cells(raw) -> tuple[Cell, ...]:
    return tuple((int(r), int(c)) for r, c in raw)


@lru_cache(maxsize=None)
def load_board(name: str) -> BoardGeometry:
    """Load ``assets/ludo/<name>.json`` as a :class:`BoardGeometry` (cached; the result is shared, immutable).

    name: one of :data:`BOARD_NAMES`. Raises ValueError for an unknown board name.
    """
    if name not in BOARD_NAMES:
        raise ValueError(f"unknown Ludo board {name!r}; choose one of {', '.join(BOARD_NAMES)}")
    text = (resources.files("assets") / "ludo" / f"{name}.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    colours = {
        colour: ColourGeometry(
            start_offset=int(c["start_offset"]),
            yard=_cells(c["yard"]),
            home_column=_cells(c["home_column"]),
            finish=None if c["finish"] is None else (int(c["finish"][0]), int(c["finish"][1])),
            safe=tuple(int(i) for i in c["safe"]),
        )
        for colour, c in ((col, raw["colours"][col]) for col in COLOURS)
    }
    return BoardGeometry(
        name=raw["name"],
        grid_size=int(raw["grid_size"]),
        track=_cells(raw["track"]),
        track_positions=int(raw["track_positions"]),
        home_length=int(raw["home_length"]),
        has_finish=bool(raw["has_finish"]),
        colours=colours,
        safe_squares={k: tuple(int(i) for i in v) for k, v in raw["safe_squares"].items()},
        centre=_cells(raw["centre"]),
    )


def load_boards() -> dict[str, BoardGeometry]:
    """Every shipped board by name (:data:`BOARD_NAMES`): what the board recogniser tells apart
    (``vision.board.recognise``, handed these since vision imports nothing of companion)."""
    return {name: load_board(name) for name in BOARD_NAMES}
