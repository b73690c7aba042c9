"""Places of the board a hand covers: unknown, not empty (issue 4: the session waits until they are seen).

``covered_places(frame_bgr, labels, fit, layout, occupied) -> tuple of places``. A hand over the board is
a large patch of warm, moderately saturated pixels (skin: hue 0-20 or 172-179 on OpenCV's 0-179 scale,
saturation 35-170) where the print expects something else, and that no pawn colour class claims (pawns
are more saturated: 190-250 on the real photos, 200+ on the renders). Shadows are bluish and stay out;
red print and red pawns are classified red where red is printed or read. Patches smaller than
:data:`MIN_PATCH_CELLS` grid cells are dropped (a finger tip over one square still counts, a speck of
wood grain does not). A track or home square whose foot disc (radius :data:`FOOT` cells) lies at least
:data:`COVERED` under such a patch, with no pawn read on it, is covered.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.colour import NONE, bright_level
from vision.board.find import BoardFit
from vision.board.layouts import PrintLayout
from vision.board.pieces import expected_classes, places

# Skin colour (OpenCV HSV): warm hues, moderate saturation, not dark (fraction of the frame's bright level).
SKIN_HUE_LOW, SKIN_HUE_HIGH = 20, 172
SKIN_SAT = (35, 170)
SKIN_VALUE = 0.35
# Least area of a skin patch, in grid cells (a fingertip over a square is ~0.5 x 1 cell; a palm 3 x 3).
MIN_PATCH_CELLS = 1.5
# Foot disc radius (cells) and the share of it under skin for a square to count as covered.
FOOT, COVERED = 0.3, 0.4


def skin_mask(frame_bgr: np.ndarray, labels: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """(h, w) bool: skin-coloured pixels over the board where the print expects another class."""
    hsv = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    bright = bright_level(val)
    skin = (((hue <= SKIN_HUE_LOW) | (hue >= SKIN_HUE_HIGH)) & (sat >= SKIN_SAT[0]) & (sat <= SKIN_SAT[1])
            & (val >= SKIN_VALUE * bright) & (expected != NONE) & (labels != expected))
    return cv2.morphologyEx(skin.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)).astype(bool)


def _cell_area(hom: np.ndarray, grid_size: int) -> float:
    """Pixels per grid cell at the board's centre."""
    c = (grid_size - 1) / 2.0
    pts = cv2.perspectiveTransform(np.array([[[c, c], [c + 1, c], [c, c + 1]]], np.float64), hom)[0]
    a, b = pts[1] - pts[0], pts[2] - pts[0]
    return float(abs(a[0] * b[1] - a[1] * b[0]))


def covered_places(frame_bgr: np.ndarray, labels: np.ndarray, fit: BoardFit, layout: PrintLayout,
                   occupied: set[tuple]) -> tuple[tuple, ...]:
    """Track and home places (``("track", i)``, ``("home", colour, k)``) under a hand, pawns read there
    (``occupied``) excepted; see the module docstring. ``fit`` must be found; frame and labels (h, w)."""
    h, w = labels.shape
    n = layout.geometry.grid_size
    board = np.zeros((h, w), np.uint8)
    corners = cv2.perspectiveTransform(np.array([[[-0.5, -0.5], [n - 0.5, -0.5], [n - 0.5, n - 0.5], [-0.5, n - 0.5]]],
                                                np.float64), fit.homography)[0]
    cv2.fillConvexPoly(board, np.rint(corners).astype(np.int32), 1)
    least = MIN_PATCH_CELLS * _cell_area(fit.homography, n)
    if np.count_nonzero(skin_mask(frame_bgr, labels, board.astype(np.int8) * 100)) < least:
        return ()  # no skin-coloured patch that big on the board at all: skip the print comparison
    skin = skin_mask(frame_bgr, labels, np.where(board > 0, expected_classes(layout, fit, (h, w)), NONE))
    count, comp, stats, _ = cv2.connectedComponentsWithStats(skin.astype(np.uint8), connectivity=8)
    keep = np.zeros(count, bool)
    keep[1:] = stats[1:, cv2.CC_STAT_AREA] >= least
    if not keep.any():
        return ()
    hand = keep[comp]
    ring = [(0.0, 0.0)] + [(FOOT * np.cos(a), FOOT * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)]
    out = []
    for place, (col, row) in places(layout, yards=False):
        if place in occupied:
            continue
        pts = np.array([[[col + dc, row + dr] for dc, dr in ring]], np.float64)
        px = np.rint(cv2.perspectiveTransform(pts, fit.homography)[0]).astype(int)
        ok = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < w) & (px[:, 1] < h)
        if ok.any() and np.count_nonzero(hand[px[ok, 1], px[ok, 0]]) >= COVERED * len(ring):
            out.append(place)
    return tuple(out)
