"""Find cards lying face up on a table and rectify them: shared by the Schotten Totten and donkey race readers.

A card (or an overlapping column of cards) is a convex outline with straight edges: Canny edges of the
work-size grey frame, closed by a small dilation, give external contours; each contour whose minimum-area
rectangle is filled by its convex hull (>= MIN_FILL), whose short side lies between MIN_SIDE_FRACTION of
the frame's long side and MAX_SIDE_FRACTION of its short side, and whose long/short ratio is between
MIN_ASPECT and MAX_ASPECT, is a card quad. A square object (a dealer token, a die) is not a card; a
ratio above ~1.8 is an overlapping column of cards (the caller reads it as such).

Corners are ordered for reading: :func:`orient_corners` puts the card's top edge (the short edge whose
midpoint lies nearest a reference point, e.g. the table centre or the stone line) first and goes
clockwise as the reader sees it: top-left, top-right, bottom-right, bottom-left.

Public API: :class:`CardQuad`, :func:`find_card_quads`, :func:`orient_corners`, :func:`rectify`,
:func:`rectify_with_homography`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WORK_SIDE = 800            # the frame's long side is scaled to this many pixels for finding
MIN_SIDE_FRACTION = 1 / 40  # a card's short side is at least this fraction of the frame's long side
MAX_SIDE_FRACTION = 0.6     # ... and at most this fraction of the frame's short side
MIN_ASPECT, MAX_ASPECT = 1.15, 6.0
MIN_FILL = 0.85
SINGLE_ASPECT = 1.75  # long/short of one card seen whole (63 x 88 mm is 1.40; 1.46 in the test photos)
CANNY = (30, 90)


@dataclass(frozen=True)
class CardQuad:
    """One card outline (or an overlapping column) in frame pixels.

    corners: (4, 2) float32, a closed convex quadrilateral in frame pixels (order: see orient_corners).
    short, long: side lengths in frame pixels (short <= long). fill: hull area / rectangle area, 0-1.
    """

    corners: np.ndarray
    short: float
    long: float
    fill: float

    @property
    def aspect(self) -> float:
        """long / short, >= 1."""
        return self.long / max(self.short, 1e-6)

    @property
    def box(self) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) integer bounding box in frame pixels, x1/y1 exclusive."""
        x0, y0 = np.floor(self.corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(self.corners.max(axis=0)).astype(int) + 1
        return int(x0), int(y0), int(x1), int(y1)


def _quad_of(contour: np.ndarray) -> np.ndarray:
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.045):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)


def edge_mask(grey: np.ndarray) -> np.ndarray:
    """Closed Canny edges (uint8 0/255) of a work-size grey frame."""
    edges = cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), *CANNY)
    return cv2.dilate(edges, np.ones((3, 3), np.uint8))


def find_card_quads(frame_bgr: np.ndarray, mask: np.ndarray | None = None) -> list[CardQuad]:
    """Card outlines in a BGR uint8 frame (h, w, 3), sorted by the top-left of their box (rows, then x).

    mask: an optional uint8 work-size or frame-size foreground mask (0/255) to use instead of the edges
    (e.g. the saturated bodies of the reference deck). Returns an empty list when nothing card-shaped
    is found. Two cards lying so close that their outlines touch are still found one by one (the inside of
    each is a hole of the edge mask). The input is assumed valid (see vision.dice.reader.check_frame).
    """
    h, w = frame_bgr.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    work = cv2.resize(frame_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame_bgr
    wh, ww = work.shape[:2]
    if mask is None:
        fg = edge_mask(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY))
    else:
        fg = cv2.resize(mask, (ww, wh), interpolation=cv2.INTER_NEAREST) if mask.shape[:2] != (wh, ww) else mask
    contours, hierarchy = cv2.findContours(fg, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    min_side = MIN_SIDE_FRACTION * max(wh, ww)
    max_side = MAX_SIDE_FRACTION * min(wh, ww)

    def candidate(contour):
        (_, _), (a, b), _ = cv2.minAreaRect(contour)
        short, long = min(a, b), max(a, b)
        if short < min_side or short > max_side or long / max(short, 1e-6) < MIN_ASPECT \
                or long / max(short, 1e-6) > MAX_ASPECT:
            return None
        fill = cv2.contourArea(cv2.convexHull(contour)) / max(a * b, 1e-6)
        if fill < MIN_FILL:
            return None
        return _quad_of(contour), short, long, float(fill)

    found = []
    for i, contour in enumerate(contours):
        if hierarchy[0][i][3] != -1:
            continue  # only outermost outlines, and their holes just below
        outer = candidate(contour)
        holes = []
        child = hierarchy[0][i][2]
        while child != -1:
            hole = candidate(contours[child])
            if hole is not None and hole[2] / max(hole[1], 1e-6) <= SINGLE_ASPECT:
                holes.append(hole)
            child = hierarchy[0][child][0]
        holes = _distinct(holes)
        if len(holes) >= 2 or (outer is None and len(holes) == 1):
            found.extend(holes)  # cards close enough to touch, or a card touching a token
        elif outer is not None:
            found.append(outer)
    quads = [CardQuad(corners=c / scale, short=sh / scale, long=lo / scale, fill=f) for c, sh, lo, f in found]
    quads.sort(key=lambda q: (q.box[1] // max(1, int(q.short)), q.box[0]))
    return quads


def _distinct(quads: list) -> list:
    """Drop outlines whose centre lies inside a larger one (a card's border band and its inside)."""
    quads = sorted(quads, key=lambda q: -cv2.contourArea(q[0]))
    kept = []
    for q in quads:
        centre = q[0].mean(axis=0)
        if not any(cv2.pointPolygonTest(k[0].reshape(-1, 1, 2), (float(centre[0]), float(centre[1])), False) >= 0
                   for k in kept):
            kept.append(q)
    return kept


def _clockwise(corners: np.ndarray) -> np.ndarray:
    c = np.asarray(corners, np.float32).reshape(4, 2)
    centre = c.mean(axis=0)
    angles = np.arctan2(c[:, 1] - centre[1], c[:, 0] - centre[0])
    return c[np.argsort(angles)]  # increasing angle in y-down image coordinates = clockwise on screen


def orient_corners(corners: np.ndarray, top_distance) -> np.ndarray:
    """Order a quad's corners TL, TR, BR, BL as seen by the player the card faces.

    corners: (4, 2) in any order. top_distance: a function (x, y) -> float; the short edge whose midpoint
    gives the smallest value is the card's top (the card's reader sits beyond the opposite edge). Returns
    a new (4, 2) float32 array, clockwise on screen starting at the top-left corner.
    """
    c = _clockwise(corners)
    best, best_d = 0, None
    lengths = [float(np.linalg.norm(c[(i + 1) % 4] - c[i])) for i in range(4)]
    shortest = min(lengths[0] + lengths[2], lengths[1] + lengths[3])
    for i in range(4):
        pair = lengths[i % 2] + lengths[i % 2 + 2]
        if pair > shortest + 1e-6:
            continue  # a long edge
        mid = (c[i] + c[(i + 1) % 4]) / 2
        d = float(top_distance(float(mid[0]), float(mid[1])))
        if best_d is None or d < best_d:
            best, best_d = i, d
    return np.roll(c, -best, axis=0).astype(np.float32)


def rectify(frame_bgr: np.ndarray, corners: np.ndarray, width: int) -> np.ndarray:
    """Warp the quad (TL, TR, BR, BL in frame pixels) to an upright image ``width`` pixels wide.

    The height keeps the quad's measured length/width ratio (a single card ~1.4, a column more).
    Returns a (height, width, 3) uint8 image.
    """
    return rectify_with_homography(frame_bgr, corners, width)[0]


def rectify_with_homography(frame_bgr: np.ndarray, corners: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`rectify`, and the 3x3 homography (float64) that maps frame pixels to the upright image."""
    c = np.asarray(corners, np.float32)
    top = np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])
    side = np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])
    height = max(1, int(round(width * side / max(top, 1e-6))))
    dst = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float32)
    m = cv2.getPerspectiveTransform(c, dst)
    return cv2.warpPerspective(frame_bgr, m, (width, height), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE), m
