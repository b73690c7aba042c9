"""Can't Stop boards as the reader sees them: where each column's spaces are printed.

Board coordinates ``(x, y)`` are in **pitches** (the distance between two spaces' centres in a column,
which is also the distance between two columns): column ``c`` (2-12) stands at ``x = c - 2``; ``y`` grows
towards the players' edge of the board (downwards on the print). Space ``k`` (1 = the first space a
runner enters, ``height`` = the top space that claims the column; cant-stop.md A.2, A.7) has its centre
at :meth:`CantStopLayout.space`.

The layouts players have (``board read --game cant-stop --variant board_layout=NAME``):

- ``companion``: the box's own printable board (:mod:`.printed`, ``companion board print --game
  cant-stop``): columns standing on one base line, the top spaces forming a peak at 7, a mid-grey face
  that white runners and coloured markers stand out on, and four ArUco stickers printed in its corners.
- ``mountain``: the geometry of the published boards whose columns stand on one base line.
- ``diamond``: the geometry of the published boards whose columns are centred on the board's middle
  (the first and top spaces of the short columns near the middle row).

A published board is found by its outline, or by the stickers put on the table beside its corners
(:data:`STICKER_IDS`; the sheet is ``companion board print --game cant-stop --stickers``).
"""

from __future__ import annotations

from dataclasses import dataclass

COLUMNS = tuple(range(2, 13))
"""The column numbers, the totals of two dice (cant-stop.md A.2)."""
HEIGHTS = (3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3)
"""Spaces per column 2..12 (cant-stop.md A.2, ``column_heights``' default)."""
STICKER_IDS = (4, 5, 6, 7)
"""ArUco ids (``DICT_4X4_50``) of the Can't Stop board's corner stickers: top left, top right, bottom
right, bottom left. Ludo's stickers are ids 0-3 (:mod:`vision.board.aruco`), so the two never mix."""
STICKER_SIDE = 1.2
"""A sticker's black square, in pitches."""


@dataclass(frozen=True)
class CantStopLayout:
    """One board's print, in board coordinates (pitches; see the module docstring).

    name: the layout's key. centred: columns centred on the board's middle (``diamond``), else standing
    on one base line. outline: the board's edge ``(x0, y0, x1, y1)``. space_radius: a printed space's
    radius. stickers: sticker id -> its centre (printed on the board, or on the table beside it).
    printed_stickers: the stickers are part of the print (``companion``).
    """

    name: str
    centred: bool
    outline: tuple[float, float, float, float]
    space_radius: float
    stickers: dict[int, tuple[float, float]]
    printed_stickers: bool = False

    def height(self, column: int) -> int:
        """Spaces in ``column`` (2-12). Raises KeyError for another number."""
        return dict(zip(COLUMNS, HEIGHTS))[column]

    def space(self, column: int, k: int) -> tuple[float, float]:
        """Centre ``(x, y)`` of space ``k`` (1..height) of ``column``. Raises ValueError outside the column."""
        h = self.height(column)
        if not 1 <= k <= h:
            raise ValueError(f"column {column} has spaces 1-{h}, not {k}")
        x = float(column - 2)
        if self.centred:
            return x, 6.0 + (h + 1) / 2.0 - k
        return x, 13.0 - k

    def spaces(self) -> list[tuple[int, int, tuple[float, float]]]:
        """Every space: ``(column, k, centre)``, column by column, bottom up."""
        return [(c, k, self.space(c, k)) for c in COLUMNS for k in range(1, self.height(c) + 1)]

    def label(self, column: int) -> tuple[float, float]:
        """Where the column's number is printed: one pitch below its first space."""
        x, y = self.space(column, 1)
        return x, y + 1.0

    @property
    def size(self) -> tuple[float, float]:
        """(width, height) of the outline in pitches."""
        x0, y0, x1, y1 = self.outline
        return x1 - x0, y1 - y0


def _corners(x0: float, y0: float, x1: float, y1: float, inset: float) -> dict[int, tuple[float, float]]:
    return dict(zip(STICKER_IDS, ((x0 + inset, y0 + inset), (x1 - inset, y0 + inset), (x1 - inset, y1 - inset),
                                  (x0 + inset, y1 - inset))))


# The box's print: 13 x 17 pitches (A4 portrait: a pitch of 16 mm; A3: 23 mm), stickers inside its corners.
_COMPANION = (-1.5, -1.5, 11.5, 15.5)
# Published boards: the columns and their numbers with about a pitch of margin; stickers beside the corners.
_PUBLISHED = (-1.0, -1.0, 11.0, 14.5)
_DIAMOND = (-1.0, -0.5, 11.0, 14.0)

LAYOUTS: dict[str, CantStopLayout] = {
    "companion": CantStopLayout("companion", False, _COMPANION, 0.4, _corners(*_COMPANION, inset=1.0), True),
    "mountain": CantStopLayout("mountain", False, _PUBLISHED, 0.4, _corners(*_PUBLISHED, inset=-1.0)),
    "diamond": CantStopLayout("diamond", True, _DIAMOND, 0.4, _corners(*_DIAMOND, inset=-1.0)),
}
"""Every layout the reader knows, by key (the module docstring says which is which)."""


def layout_named(name: str) -> CantStopLayout:
    """The layout ``name``. Raises ValueError naming the known layouts for another name."""
    try:
        return LAYOUTS[name]
    except KeyError:
        raise ValueError(f"unknown Can't Stop board layout {name!r}: one of {', '.join(LAYOUTS)}") from None
