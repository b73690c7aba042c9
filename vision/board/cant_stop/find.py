"""Where a Can't Stop board is in a frame: ``find_cant_stop_board(frame_bgr, layout) -> (homography, how)``.

1. **Stickers** (:data:`vision.board.cant_stop.layouts.STICKER_IDS`): two or more seen give the board ->
   frame homography from their corners (8 points or more); ``how = "stickers"``.
2. **Outline**: the board is the largest four-cornered shape in the frame's edges whose top view, in one
   of its four turns, looks like the print (normalised correlation of the grey top view with the print's,
   at least :data:`MIN_MATCH`, and :data:`MIN_MARGIN` better than the next turn: a board turned half round
   looks alike, but its numbers do not; the correlation is of the gradient magnitude, the rims and
   numbers, so the face's colour and the light do not matter); ``how = "outline"``.

The homography maps board points ``(x, y, 1)`` in pitches to frame pixels. ``(None, None)`` when neither
finds the board.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.aruco import homography_from_markers
from vision.board.cant_stop.layouts import COLUMNS, STICKER_SIDE, CantStopLayout
from vision.board.cant_stop.printed import print_image, to_top, top_size

# The outline's least share of the frame.
MIN_AREA = 0.04
# Edge correlations with the print: a turn worth refining starts at MIN_START; the fit must reach
# MIN_MATCH over the whole board and MIN_LABELS round the column numbers, MIN_MARGIN above the next turn.
MIN_START, MIN_MATCH, MIN_LABELS, MIN_MARGIN = 0.15, 0.6, 0.5, 0.1
# Top view scale for the outline's check (pixels a pitch).
CHECK_SCALE = 10


def sticker_corners(layout: CantStopLayout) -> dict[int, np.ndarray]:
    """Sticker id -> its black square's 4 corners in board pitches, in OpenCV's order (top-left,
    top-right, bottom-right, bottom-left of the upright sticker)."""
    half = STICKER_SIDE / 2
    box = np.array([[-half, -half], [half, -half], [half, half], [-half, half]], np.float64)
    return {k: box + np.array(c) for k, c in layout.stickers.items()}


def from_stickers(frame_bgr: np.ndarray, layout: CantStopLayout) -> np.ndarray | None:
    """The board -> frame homography from the stickers seen, or None when fewer than two
    (:func:`vision.board.aruco.homography_from_markers`)."""
    return homography_from_markers(frame_bgr, sticker_corners(layout))[0]


_GREY: dict[str, np.ndarray] = {}


def edges(grey: np.ndarray) -> np.ndarray:
    """Blurred gradient magnitude of a grey top view (float32): the print's rims and numbers, whatever
    the face's colour and the light."""
    g = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 1.0)
    mag = cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    return cv2.GaussianBlur(mag, (0, 0), 1.5)


def _print_edges(layout: CantStopLayout, scale: float) -> np.ndarray:
    key = f"{layout.name}@{scale}"
    if key not in _GREY:
        _GREY[key] = edges(cv2.cvtColor(print_image(layout, scale), cv2.COLOR_BGR2GRAY))
    return _GREY[key]


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / den) if den > 0 else 0.0


def _quads(frame_bgr: np.ndarray) -> list[np.ndarray]:
    """Four-cornered outlines in the frame, largest first, as (4, 2) float corners clockwise in the image."""
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    grey = cv2.GaussianBlur(grey, (5, 5), 0)
    edges = cv2.Canny(grey, 30, 90)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    least = MIN_AREA * grey.shape[0] * grey.shape[1]
    out = []
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:5]:
        if cv2.contourArea(contour) < least:
            break
        hull = cv2.convexHull(contour)
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            centre = quad.mean(axis=0)
            order = np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))
            out.append(quad[order])
    return out


def _top_edges(frame_grey: np.ndarray, hom: np.ndarray, layout: CantStopLayout, scale: float) -> np.ndarray:
    w, h = top_size(layout, scale)
    warp = hom @ np.linalg.inv(to_top(layout, scale))
    return edges(cv2.warpPerspective(frame_grey, warp, (w, h), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP))


def refine(frame_grey: np.ndarray, hom: np.ndarray, layout: CantStopLayout) -> np.ndarray:
    """``hom`` aligned to the print: OpenCV's ECC alignment (``findTransformECC``, a homography) of the
    top view's edges to the print's, at :data:`CHECK_SCALE` and then twice as fine. Where ECC does not
    converge, the homography so far."""
    for scale in (CHECK_SCALE, 2 * CHECK_SCALE):
        expected = _print_edges(layout, scale)
        top = _top_edges(frame_grey, hom, layout, scale)
        to = to_top(layout, scale)
        try:
            _, warp = cv2.findTransformECC(expected, top, np.eye(3, dtype=np.float32), cv2.MOTION_HOMOGRAPHY,
                                           (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 80, 1e-5), None, 1)
        except cv2.error:
            return hom
        hom = hom @ np.linalg.inv(to) @ warp.astype(np.float64) @ to  # warp: print top view -> frame top view
        hom = hom / hom[2, 2]
    return hom


def label_match(frame_grey: np.ndarray, hom: np.ndarray, layout: CantStopLayout) -> float:
    """Correlation of the edges round the column numbers with the print's: what tells a board from the
    same board turned half round."""
    expected = _print_edges(layout, CHECK_SCALE)
    top = _top_edges(frame_grey, hom, layout, CHECK_SCALE)
    mask = np.zeros(expected.shape, bool)
    for column in COLUMNS:
        x, y = layout.label(column)
        cx, cy = (to_top(layout, CHECK_SCALE) @ np.array([x, y, 1.0]))[:2]
        r = int(CHECK_SCALE * 0.6)
        mask[max(0, int(cy) - r):int(cy) + r, max(0, int(cx) - r):int(cx) + r] = True
    return _ncc(top[mask], expected[mask])


def from_outline(frame_bgr: np.ndarray, layout: CantStopLayout) -> np.ndarray | None:
    """The board -> frame homography from the board's outline (module docstring), or None."""
    x0, y0, x1, y1 = layout.outline
    board = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    expected = _print_edges(layout, CHECK_SCALE)
    for quad in _quads(frame_bgr):
        fits = []
        for turn in range(4):
            hom = cv2.getPerspectiveTransform(board, np.roll(quad, -turn, axis=0).astype(np.float32)).astype(np.float64)
            if _ncc(_top_edges(grey, hom, layout, CHECK_SCALE), expected) < MIN_START:
                continue
            hom = refine(grey, hom, layout)
            whole = _ncc(_top_edges(grey, hom, layout, CHECK_SCALE), expected)
            fits.append((label_match(grey, hom, layout), whole, hom))
        fits.sort(key=lambda f: -f[0])
        if fits and fits[0][1] >= MIN_MATCH and fits[0][0] >= MIN_LABELS and (
                len(fits) == 1 or fits[0][0] - fits[1][0] >= MIN_MARGIN):
            return fits[0][2]
    return None


def find_cant_stop_board(frame_bgr: np.ndarray, layout: CantStopLayout) -> tuple[np.ndarray | None, str | None]:
    """(board -> frame homography 3x3 float64, ``"stickers"`` or ``"outline"``), or ``(None, None)``."""
    hom = from_stickers(frame_bgr, layout)
    if hom is not None:
        return refine(cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY), hom, layout), "stickers"
    hom = from_outline(frame_bgr, layout)
    if hom is not None:
        return hom, "outline"
    return None, None
