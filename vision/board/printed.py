"""The printed face of a Ludo board as an image: the reader's expectation and the renderer's artwork.

``print_image(layout, clockwise, scale) -> (bgr, classes)`` draws the board's top view at ``scale``
pixels per grid cell with one cell of margin all round (grid point ``(col, row)`` at top-view pixel
``((col + 1.5) * scale, (row + 1.5) * scale)``, as in :mod:`vision.board.find`): light wooden face,
yard disks with their light spots, track circles (outlined; the start squares filled with their
colour), home squares filled, and the centre split into four wedges. ``classes`` holds the
:mod:`vision.board.colour` class each pixel should read as when nothing stands on it.

``clockwise`` is the printed colour order from red (``BoardFit.clockwise``): the layout's i-th colour
corner is printed in ``clockwise[i]``.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.board.colour import COLOUR_CLASS, LIGHT, NONE
from vision.board.layouts import PrintLayout

MARGIN = 1.0
# Artwork colours (BGR), close to the real board's print.
BOARD_BGR = (172, 208, 222)
EDGE_BGR = (60, 55, 50)
PRINT_BGR = {"red": (110, 95, 225), "green": (120, 160, 30), "yellow": (90, 185, 240), "blue": (210, 160, 40)}
DARK_BGR = (80, 70, 60)


def to_top(scale: float) -> np.ndarray:
    """3x3 matrix: grid ``(col, row, 1)`` -> top-view pixel at ``scale`` pixels per cell."""
    off = (0.5 + MARGIN) * scale
    return np.array([[scale, 0, off], [0, scale, off], [0, 0, 1]], np.float64)


def top_side(layout: PrintLayout, scale: float) -> int:
    """Side of the top view in pixels."""
    return int(round((layout.geometry.grid_size + 2 * MARGIN) * scale))


def printed_colours(layout: PrintLayout, clockwise: tuple[str, ...] | None = None) -> dict[str, str]:
    """Layout colour -> the colour printed at its places (identity unless ``clockwise`` says otherwise)."""
    if not clockwise:
        return {c: c for c in layout.clockwise}
    return {layout.clockwise[i]: clockwise[i] for i in range(4)}


def print_image(layout: PrintLayout, clockwise: tuple[str, ...] | None, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Top view of the printed board: (bgr uint8 (s, s, 3), classes uint8 (s, s)); s = :func:`top_side`."""
    geo = layout.geometry
    side = top_side(layout, scale)
    bgr = np.full((side, side, 3), BOARD_BGR, np.uint8)
    cls = np.full((side, side), LIGHT, np.uint8)
    printed = printed_colours(layout, clockwise)

    def pt(row: float, col: float) -> tuple[int, int]:
        return int(round((col + 0.5 + MARGIN) * scale)), int(round((row + 0.5 + MARGIN) * scale))

    def disk(row: float, col: float, radius: float, colour_bgr, colour_cls, outline: bool = False) -> None:
        r = max(1, int(round(radius * scale)))
        cv2.circle(bgr, pt(row, col), r, colour_bgr, -1, cv2.LINE_AA)
        cv2.circle(cls, pt(row, col), r, int(colour_cls), -1)
        if outline:
            cv2.circle(bgr, pt(row, col), r, EDGE_BGR, max(1, int(scale / 14)), cv2.LINE_AA)

    n = geo.grid_size
    # board edge (a dark frame half a cell wide outside the grid)
    cv2.rectangle(bgr, (0, 0), (side - 1, side - 1), EDGE_BGR, max(1, int(0.45 * scale)))
    cv2.rectangle(cls, (0, 0), (side - 1, side - 1), NONE, max(1, int(0.45 * scale)))
    for colour in layout.clockwise:
        shown = printed[colour]
        cr, cc = layout.yard_centre[colour]
        disk(cr, cc, layout.yard_radius, PRINT_BGR[shown], COLOUR_CLASS[shown], outline=True)
        for sr, sc in layout.yard_spots[colour]:
            disk(sr, sc, 0.4, BOARD_BGR, LIGHT, outline=True)
    start_of = {geo.colours[c].start_offset: c for c in layout.clockwise}
    for i, (r, c) in enumerate(geo.track):
        if i in start_of:
            shown = printed[start_of[i]]
            disk(r, c, layout.cell_radius, PRINT_BGR[shown], COLOUR_CLASS[shown], outline=True)
            _arrow(bgr, cls, pt(r, c), scale)
        else:
            disk(r, c, layout.cell_radius, BOARD_BGR, LIGHT, outline=True)
    for colour in layout.clockwise:
        shown = printed[colour]
        for r, c in geo.colours[colour].home_column:
            disk(r, c, layout.cell_radius, PRINT_BGR[shown], COLOUR_CLASS[shown], outline=True)
    _centre(bgr, cls, layout, printed, pt, scale, n)
    return bgr, cls


def _arrow(bgr: np.ndarray, cls: np.ndarray, centre: tuple[int, int], scale: float) -> None:
    """A light bar in a start square (the real board prints a white arrow there)."""
    x, y = centre
    w, h = int(0.25 * scale), int(0.1 * scale) + 1
    cv2.rectangle(bgr, (x - w, y - h), (x + w, y + h), (235, 240, 240), -1)
    cv2.rectangle(cls, (x - w, y - h), (x + w, y + h), LIGHT, -1)


def _centre(bgr, cls, layout: PrintLayout, printed: dict[str, str], pt, scale: float, n: int) -> None:
    """The centre: a disk split into four wedges, each towards its colour's home column."""
    geo = layout.geometry
    mid = (n - 1) / 2.0
    cx, cy = pt(mid, mid)
    cells = geo.centre
    radius = (0.5 if len(cells) == 1 else 1.45) * scale
    for colour in layout.clockwise:
        hr, hc = geo.colours[colour].home_column[-1]
        ang = math.degrees(math.atan2(hr - mid, hc - mid))
        shown = printed[colour]
        axes = (int(radius), int(radius))
        cv2.ellipse(bgr, (cx, cy), axes, 0, ang - 45, ang + 45, PRINT_BGR[shown], -1, cv2.LINE_AA)
        cv2.ellipse(cls, (cx, cy), axes, 0, ang - 45, ang + 45, int(COLOUR_CLASS[shown]), -1)
    cv2.circle(bgr, (cx, cy), int(radius), EDGE_BGR, max(1, int(scale / 14)), cv2.LINE_AA)

