"""Where a Can't Stop board is in a frame: ``find_cant_stop_board(frame_bgr, layout) -> (homography, how)``.

1. **Stickers** (:data:`vision.board.cant_stop.layouts.STICKER_IDS`): two or more seen give the board ->
   frame homography from their corners (8 points or more); ``how = "stickers"``.
2. **Outline**: the board is the largest four-cornered shape in the frame's edges (each colour's edges
   as well as the brightness's: a face and a table of one brightness differ in colour; and, where the
   edge is too faint to be one line, the hull of all the edges) whose top view, in one of its four
   turns, looks like the print: normalised correlation of the top view's edges with the print's, over
   the whole board at least :data:`MIN_MATCH` and round the numbers at least :data:`MIN_LABELS`, the
   two together :data:`MIN_MARGIN` better than the next turn (a board turned half round looks alike,
   but its numbers do not; the correlation is of the gradient magnitude, the rims and numbers, so the
   face's colour and the light do not matter); ``how = "outline"``.

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
# MIN_MATCH over the whole board and MIN_LABELS round the column numbers, and the two together
# MIN_MARGIN above the next turn's (the whole tells a mountain's peak from its base, the numbers a
# diamond from itself turned half round).
MIN_START, MIN_MATCH, MIN_LABELS, MIN_MARGIN = 0.15, 0.6, 0.5, 0.1
# An outline's hull is simplified to four corners with a tolerance of these shares of its length in
# turn: where the board's edge is faint against the table a corner is cut or an edge bent by a piece or
# the print, and a coarser four-cornered outline is still near enough for ECC to align.
SIMPLIFY = (0.02, 0.035, 0.05, 0.07)
# Edge pieces of fewer points than this are the table's grain, not a dash of the board's edge.
EDGE_BITS = 20
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
    blurred = cv2.GaussianBlur(frame_bgr, (5, 5), 0)
    grey = cv2.cvtColor(blurred, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(grey, 30, 90)
    for channel in cv2.split(blurred):  # a face and a table of one brightness differ in colour
        edges |= cv2.Canny(channel, 30, 90)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    least = MIN_AREA * grey.shape[0] * grey.shape[1]
    largest = [c for c in sorted(contours, key=cv2.contourArea, reverse=True)[:5] if cv2.contourArea(c) >= least]
    hulls = [cv2.convexHull(c) for c in largest]
    # where the board's edge is too faint to be one line it is dashes round the print: all edges together
    pieces = [c for c in contours if len(c) >= EDGE_BITS]
    if largest and len(pieces) > 1:
        hulls.append(cv2.convexHull(np.vstack(pieces)))
    out = []
    for hull in hulls:
        for share in SIMPLIFY:
            approx = cv2.approxPolyDP(hull, share * cv2.arcLength(hull, True), True)
            if len(approx) <= 4:
                break
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
    top view's edges to the print's, at :data:`CHECK_SCALE` and then twice as fine. The alignment is
    kept only when the top view's edges then match the print's better at the finer scale: the spaces
    repeat every pitch, and ECC started from a fit it cannot improve (the stickers' corners are already
    that good) may slide a pitch away, which the coarse scale does not see. Where ECC does not
    converge, the homography so far."""
    start = hom
    for scale in (CHECK_SCALE, 2 * CHECK_SCALE):
        expected = _print_edges(layout, scale)
        top = _top_edges(frame_grey, hom, layout, scale)
        to = to_top(layout, scale)
        try:
            _, warp = cv2.findTransformECC(expected, top, np.eye(3, dtype=np.float32), cv2.MOTION_HOMOGRAPHY,
                                           (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 80, 1e-5), None, 1)
        except cv2.error:
            break
        hom = hom @ np.linalg.inv(to) @ warp.astype(np.float64) @ to  # warp: print top view -> frame top view
        hom = hom / hom[2, 2]
    fine = _print_edges(layout, 2 * CHECK_SCALE)
    if _ncc(_top_edges(frame_grey, hom, layout, 2 * CHECK_SCALE), fine) <= _ncc(
            _top_edges(frame_grey, start, layout, 2 * CHECK_SCALE), fine):
        return start
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
        starts = []
        for turn in range(4):
            hom = cv2.getPerspectiveTransform(board, np.roll(quad, -turn, axis=0).astype(np.float32)).astype(np.float64)
            starts.append((_ncc(_top_edges(grey, hom, layout, CHECK_SCALE), expected), hom))
        fits = []  # the two turns that start best are refined (ECC is the cost): the fit and its rival
        for start, hom in sorted(starts, key=lambda f: -f[0])[:2]:
            if start < MIN_START:
                continue
            refined = refine(grey, hom, layout)
            whole = _ncc(_top_edges(grey, refined, layout, CHECK_SCALE), expected)
            if whole < start:  # ECC went astray from a rough outline: the outline's own fit is nearer
                refined, whole = hom, start
            fits.append((label_match(grey, refined, layout) + whole, whole, refined))
        fits.sort(key=lambda f: -f[0])
        if fits and fits[0][1] >= MIN_MATCH and fits[0][0] - fits[0][1] >= MIN_LABELS and (
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
