"""Print layouts of Ludo boards for the board reader: where the printed features sit on the geometry's grid.

The geometry (ludo.md B.2 / B.2b, handed in: :mod:`vision.board.geometry`) says which grid
cells are track, home and yard squares. The reader also needs what is *printed* there, to find the board
and to tell a pawn from the print under it: the big coloured yard disks, the yard spots (where yard
pawns stand; on many boards not on grid cells), the coloured start and home squares.

Grid coordinates are floats ``(row, col)`` in cells: the centre of cell ``(r, c)`` is at ``(r, c)``, the
board's grid covers ``-0.5 .. grid_size - 0.5`` on both axes.

Besides ``ludo52`` and ``mensch40``, whose print follows from their yard cells, this module knows the
print of ``dga56`` (``load_board("dga56")``, ludo.md B.2c), the board of the real photos in
``../shared/data/ludo/board_frames`` (measured from those photos): a 15x15 cross with a **56-square**
track (each inner corner of the cross has three track squares, not the one diagonal step of ``ludo52``:
per quarter the upper row of the left arm ``(6, 0..5)``, the inner corner ``(5, 5)``, the left column of
the top arm ``(5..0, 6)``, the end square ``(0, 7)``), red's start square at the outer end of the left
arm's upper row, 5 home squares and a finish triangle per colour, and the colours clockwise red, BLUE,
yellow, GREEN (start offsets 0, 14, 28, 42; the other boards have green and blue the other way round).
Neither ``ludo52`` nor ``mensch40`` matches that board.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.board.geometry import BoardGeometry

Point = tuple[float, float]


@dataclass(frozen=True)
class PrintLayout:
    """What is printed where, in grid coordinates ``(row, col)`` (see the module docstring).

    geometry: the board's geometry. yard_centre: colour -> centre of its yard disk; yard_radius: the disk's
    radius in cells. yard_spots: colour -> the 4 spots where yard pawns stand. cell_radius: radius of a
    printed square's circle in cells (0.45: circles nearly touch). clockwise: the colours clockwise from
    red as printed (red's yard is at the top-left in grid coordinates).
    """

    geometry: BoardGeometry
    yard_centre: dict[str, Point]
    yard_radius: float
    yard_spots: dict[str, tuple[Point, ...]]
    cell_radius: float = 0.45

    @property
    def clockwise(self) -> tuple[str, ...]:
        """Colours in clockwise order of their start offsets, red first."""
        return self.geometry.clockwise

    @property
    def name(self) -> str:
        return self.geometry.name


# Measured on the real photos (homography fitted to the track circles): yard disk centre and radius,
# and the 4 spots, of red's yard on dga56 in grid coordinates.
_DGA_YARD_CENTRE = (2.5, 2.5)
_DGA_YARD_RADIUS = 2.33
_DGA_SPOT_OFFSET = 0.88


def layout_for(geometry: BoardGeometry) -> PrintLayout:
    """The print layout of a geometry: measured for ``dga56``, derived from the yard cells otherwise.

    For a shipped geometry the yard disk is centred on the mean of the 4 yard cells with a radius that
    covers them (cell distance from the centre + 0.75), and the spots are the yard cells.
    """
    n = geometry.grid_size
    centres: dict[str, Point] = {}
    spots: dict[str, tuple[Point, ...]] = {}
    if geometry.name == "dga56":
        for colour, geo in geometry.colours.items():
            k = geo.start_offset // 14
            centres[colour] = _turn_point(_DGA_YARD_CENTRE, n, k)
            cr, cc = centres[colour]
            d = _DGA_SPOT_OFFSET
            spots[colour] = ((cr - d, cc - d), (cr - d, cc + d), (cr + d, cc - d), (cr + d, cc + d))
        return PrintLayout(geometry, centres, _DGA_YARD_RADIUS, spots)
    radius = 0.0
    for colour, geo in geometry.colours.items():
        rows = [r for r, _ in geo.yard]
        cols = [c for _, c in geo.yard]
        centre = (sum(rows) / len(rows), sum(cols) / len(cols))
        centres[colour] = centre
        spots[colour] = tuple((float(r), float(c)) for r, c in geo.yard)
        radius = max(radius, max(((r - centre[0]) ** 2 + (c - centre[1]) ** 2) ** 0.5 for r, c in geo.yard))
    return PrintLayout(geometry, centres, radius + 0.75, spots)


def _turn_point(p: Point, n: int, times: int) -> Point:
    """Turn a grid point by 90 degrees clockwise ``times`` times on an ``n`` x ``n`` grid: (r, c) -> (c, n-1-r)."""
    r, c = p
    for _ in range(times % 4):
        r, c = c, n - 1 - r
    return r, c
