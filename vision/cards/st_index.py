"""The index boxes of our reference Schotten Totten deck (vision.cards.reference_deck): each card's white
rectangle about 2:1 with the black value in its left half, ringed by the card's saturated colour.
Used by :mod:`vision.cards.schotten_totten`, which turns the boxes into cards, stones and sides.

Public API: :class:`IndexBox`, :func:`find_index_boxes`, :func:`white_patch`, :func:`lab_of`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.digits import glyph_scores
from vision.cards.find import rectify

WHITE_SAT = 70  # HSV saturation below this (0-255) is white paper


def lab_of(bgr) -> np.ndarray:
    """OpenCV Lab (L 0-100, a and b about -127..127) of one BGR colour given as three 0-255 numbers."""
    pixel = np.clip(np.array(bgr, np.float32).reshape(1, 1, 3) / 255.0, 0, 1)
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2Lab).reshape(3)


WORK_SIDE = 1280  # frames are read at most this many pixels on their long side
BOX_ASPECT = (1.45, 2.8)   # long/short of an index box seen from above (printed 34 x 17 mm = 2.0)
BOX_RECT = 0.88            # convex hull area / minimum-area rectangle's area at least (a rectangle)
BOX_RECT_COVERED = 0.8     # down to this a box counts as one with a corner covered (read, but flagged); a
#                            disc or oval of the card, whole or cut by a straight edge, stays below pi/4
SLIVER = 0.5  # an ink part of the value thinner than this share of its main stroke's width is a seam
INK_DARK, INK_CHROMA = 0.5, 0.3  # ink: darker than this share of the local white, chroma below this share
BOX_RING_COLOUR = 0.6      # at least this share of a ring round the box is saturated (the card's body)
BOX_SIDE = (7, 200)        # short side of a box in work pixels


@dataclass(frozen=True)
class IndexBox:
    """One reference-card index box found in the frame.

    corners: (4, 2) frame pixels TL, TR, BR, BL as the card's player sees the box (top toward the stone
    line). value: 1-9 or None, value_conf 0-1. lab: white-balanced Lab of the card's body round the box.
    covered: the box is no whole rectangle (a corner under the next card, :data:`BOX_RECT_COVERED` ..
    :data:`BOX_RECT`), so the card is read but must be confirmed.
    """

    corners: np.ndarray
    value: int | None
    value_conf: float
    lab: np.ndarray | None
    covered: bool = False


def white_patch(frame_bgr: np.ndarray) -> np.ndarray:
    """Scale each channel so that its 99.5th percentile becomes 250 (white-patch white balance: a colour
    cast of the light would otherwise make the white index boxes look coloured)."""
    levels = np.percentile(frame_bgr.reshape(-1, 3)[::7], 99.5, axis=0)
    gains = 250.0 / np.maximum(levels, 20.0)
    return np.clip(frame_bgr.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def _saturated(hsv: np.ndarray) -> np.ndarray:
    return (hsv[:, :, 1] >= 90) & (hsv[:, :, 2] >= 50)


def _ink(work_bgr: np.ndarray, local_value: np.ndarray) -> np.ndarray:
    """Black print (bool, work size): dark against the brightest pixel nearby and with little chroma
    (max - min channel), so a dark card body (blue, purple) or its shadow is not ink."""
    value = work_bgr.max(axis=2).astype(np.float32)
    chroma = value - work_bgr.min(axis=2)
    local = local_value.astype(np.float32)
    return (value < INK_DARK * local) & (chroma < INK_CHROMA * local)


def _printed_outline(paper: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """The outer contour (int32, ROI pixels) of one white component ``paper`` (uint8 0/1) with the ink
    inside its bounding box that touches it: a digit printed up to the box's edge (a 7's stem) bites the
    white's outline, but not the printed box's."""
    both = ((paper > 0) | ink).astype(np.uint8)
    _, labels = cv2.connectedComponents(both, connectivity=4)
    keep = np.isin(labels, np.unique(labels[paper > 0])).astype(np.uint8)
    return max(cv2.findContours(keep, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0], key=cv2.contourArea)


def _box_corners(rect, top_distance) -> np.ndarray:
    """Corners of a minAreaRect box ordered TL, TR, BR, BL with its long side as the top (toward the line)."""
    pts = cv2.boxPoints(rect).astype(np.float32)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - pts[:, 1].mean(), pts[:, 0] - pts[:, 0].mean()))]
    best, best_d = 0, None
    for i in range(4):
        a, b = pts[i], pts[(i + 1) % 4]
        c, d = pts[(i + 2) % 4], pts[(i + 3) % 4]
        if np.linalg.norm(b - a) < np.linalg.norm(c - b):
            continue  # a short side: the box's top is one of its long sides
        mid = (a + b) / 2
        dist = float(top_distance(float(mid[0]), float(mid[1])))
        if best_d is None or dist < best_d:
            best, best_d = i, dist
    return np.roll(pts, -best, axis=0)


def find_index_boxes(frame_bgr: np.ndarray, top_distance) -> list[IndexBox]:
    """Every reference-card index box in a BGR frame: white rectangles about 2:1 ringed by saturated
    colour. ``top_distance(x, y)`` (frame pixels) is smallest toward each card's top (the stone line).
    Returns boxes with corners in frame pixels, the value read and the body colour measured."""
    h, w = frame_bgr.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    work = cv2.resize(frame_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame_bgr
    work = white_patch(work)
    hsv = cv2.cvtColor(work, cv2.COLOR_BGR2HSV)
    sat = _saturated(hsv)
    # white: unsaturated, and not far below the brightest pixel nearby (a shadow dims the box and its ring)
    local = cv2.dilate(hsv[:, :, 2], np.ones((25, 25), np.uint8))
    white = (hsv[:, :, 1] < WHITE_SAT) & (hsv[:, :, 2].astype(np.float32) > 0.6 * local)
    white = white.astype(np.uint8) * 255
    ink = _ink(work, local)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(white, connectivity=4)
    boxes = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < BOX_SIDE[0] ** 2 * 1.4:
            continue
        roi = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        outline = _printed_outline(roi, ink[y:y + bh, x:x + bw])
        rect = cv2.minAreaRect(outline + np.array([x, y], np.int32))
        (cx, cy), (a, b), _ = rect
        short, long = min(a, b), max(a, b)
        if not BOX_SIDE[0] <= short <= BOX_SIDE[1] or not BOX_ASPECT[0] <= long / max(short, 1) <= BOX_ASPECT[1]:
            continue
        fill = cv2.contourArea(cv2.convexHull(outline)) / max(a * b, 1e-6)
        if fill < BOX_RECT_COVERED:
            continue  # not a rectangle (the digit and symbol may bite into the outline: the hull counts)
        # the ring round the box must be the card's colour
        pad = max(2, int(0.18 * short))
        ring_rect = ((cx, cy), (a + 2 * pad, b + 2 * pad), rect[2])
        outer = cv2.boxPoints(ring_rect)
        rx0, ry0 = np.maximum(np.floor(outer.min(axis=0)).astype(int), 0)
        rx1, ry1 = np.minimum(np.ceil(outer.max(axis=0)).astype(int) + 1, [white.shape[1], white.shape[0]])
        ring = np.zeros((ry1 - ry0, rx1 - rx0), np.uint8)
        offset = np.array([rx0, ry0], np.float32)
        cv2.fillPoly(ring, [(outer - offset).astype(np.int32)], 255)
        cv2.fillPoly(ring, [(cv2.boxPoints(((cx, cy), (a + pad, b + pad), rect[2])) - offset).astype(np.int32)], 0)
        ring_px = ring > 0
        ring_sat = sat[ry0:ry1, rx0:rx1][ring_px]
        if ring_sat.size == 0 or ring_sat.mean() < BOX_RING_COLOUR:
            continue
        corners = _box_corners(rect, lambda px, py: top_distance(px / scale, py / scale))
        centre = corners.mean(axis=0)
        box_img = rectify(work, centre + (corners - centre) * 1.12, 96)
        value, conf = _read_digit(box_img)
        if fill < BOX_RECT and value is None:
            continue  # no whole rectangle and no value in it: a cut disc or oval, a scrap of white
        paper = np.array(cv2.mean(work[y:y + bh, x:x + bw], mask=roi)[:3])
        body = work[ry0:ry1, rx0:rx1][ring_px & sat[ry0:ry1, rx0:rx1]]
        lab = None
        if len(body):
            lab = lab_of(np.median(body, axis=0) / np.maximum(paper, 1.0) * 255.0)
        boxes.append(IndexBox(corners=corners / scale, value=value, value_conf=conf, lab=lab,
                              covered=fill < BOX_RECT))
    return boxes


def _touches_edge(stat, w: int, h: int) -> bool:
    """Whether a connected component's (x, y, w, h, area) box reaches the crop's edge: the crop holds the
    index box with a border round it, so the value never does, but the dark seam between the box's white
    and the card's colour can."""
    x, y, bw, bh = stat[:4]
    return x == 0 or y == 0 or x + bw >= w or y + bh >= h


def _read_digit(box_bgr: np.ndarray) -> tuple[int | None, float]:
    """The black value in the left part of an upright index box crop (the box with a 1/16 border round
    it): (1-9 or None, confidence 0-1). Black is dark with little chroma (max - min channel), so the
    card's coloured body, however dark, is not ink."""
    value = box_bgr.max(axis=2).astype(np.float32)
    chroma = value - box_bgr.min(axis=2)
    paper = float(np.percentile(value, 90))
    black = ((value < INK_DARK * paper) & (chroma < INK_CHROMA * paper)).astype(np.uint8) * 255
    h, w = black.shape
    n, labels, stats, cents = cv2.connectedComponentsWithStats(black, connectivity=8)
    parts = [i for i in range(1, n) if cents[i][0] < 0.45 * w and stats[i][3] > 0.4 * h
             and not _touches_edge(stats[i], w, h)]
    if not parts:
        return None, 0.0
    if len(parts) > 1:  # a sliver of the seam between the box and the card's colour is no stroke
        radius = cv2.distanceTransform(black, cv2.DIST_L2, 3)
        width = {i: float(radius[labels == i].max()) for i in parts}
        main = max(parts, key=lambda i: stats[i][4])
        parts = [i for i in parts if width[i] >= SLIVER * width[main]]
    mask = np.isin(labels, parts).astype(np.uint8) * 255
    scores = glyph_scores(mask)
    scores[0] = 0.0  # no 0 in this deck (values 1-9)
    best = int(scores.argmax())
    return best, float(scores[best] / max(scores.sum(), 1e-9))
