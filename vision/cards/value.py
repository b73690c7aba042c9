"""Read the large value printed or written in the middle of a rectified card (white-ish paper, dark or
coloured ink): the value glyph's ink mask, a digit 0-9 with a confidence, or a picture (a solid drawing
such as the J/Q/K pictures of the handwritten deck).

Public API: :func:`centre_glyph`, :func:`read_centre_value`, :class:`ValueRead`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.digits import classify_glyph, nearest_distance

MARGIN = 0.07        # fraction of the card's width/height skipped at each edge (border, frame)
CORNER = (0.27, 0.2)  # (x, y) fractions: components centred this close to a corner are corner indices
MIN_PART = 0.12      # glyph pieces smaller than this fraction of the largest piece are noise
PICTURE_SOLIDITY = (0.70, 0.9)  # ink / convex hull area of a solid picture (J/Q/K drawings)
PICTURE_MIN_DISTANCE = 3.0  # a picture lies further than this from every training digit (card_digits)
PICTURE_STROKE = 0.31  # widest stroke (2 x max distance to the background) / glyph's long side
OFF_CENTRE = 0.1  # a value glyph whose middle lies further than this (card widths) from the card's middle
OFF_CENTRE_FACTOR = 0.4  # ... has its confidence multiplied by this: a digit of it may have been lost


@dataclass(frozen=True)
class ValueRead:
    """What the centre of one card shows.

    value: 0-9 or None (a picture or nothing). picture: True for a solid picture (e.g. J/Q/K).
    confidence: 0-1. rotated: True when the glyph reads better turned by 180 degrees (the card's
    top was taken at the wrong end). ink_bgr: the mean colour of the glyph's pixels (B, G, R) 0-255.
    """

    value: int | None
    picture: bool
    confidence: float
    rotated: bool
    ink_bgr: tuple[float, float, float] | None


def ink_mask(card_bgr: np.ndarray) -> np.ndarray:
    """uint8 0/255 mask of ink (dark or saturated pixels against the card's paper) in a rectified card."""
    grey = cv2.cvtColor(card_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    sat = cv2.cvtColor(card_bgr, cv2.COLOR_BGR2HSV)[:, :, 1].astype(np.float32)
    paper = float(np.percentile(grey, 80))
    paper_sat = float(np.percentile(sat, 30))
    ink = (grey < paper * 0.68) | (sat > paper_sat + 70)
    return ink.astype(np.uint8) * 255


def centre_glyph(card_bgr: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """The value glyph in the middle of a rectified card (h, w, 3).

    Returns (mask, ink) where mask is a uint8 0/255 image the size of the card holding only the glyph's
    pieces (None when there is no ink in the middle) and ink the whole ink mask.
    """
    h, w = card_bgr.shape[:2]
    mx, my = int(MARGIN * w), int(MARGIN * h)
    ink = np.zeros((h, w), np.uint8)
    ink[my:h - my, mx:w - mx] = ink_mask(card_bgr[my:h - my, mx:w - mx])
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    keep = []
    for i in range(1, n):
        cx, cy = cents[i]
        fx, fy = cx / w, cy / h
        if (fx < CORNER[0] or fx > 1 - CORNER[0]) and (fy < CORNER[1] or fy > 1 - CORNER[1]):
            continue
        x, y, bw, bh, area = stats[i]
        if area < 0.002 * w * h:
            continue
        if x <= mx or y <= my or x + bw >= w - mx or y + bh >= h - my:
            continue  # touches the margin: the card's border or frame, a neighbour's edge
        keep.append(i)
    if not keep:
        return None, ink
    biggest = max(stats[i][4] for i in keep)
    keep = [i for i in keep if stats[i][4] >= MIN_PART * biggest]
    mask = np.isin(labels, keep).astype(np.uint8) * 255
    return mask, ink


def is_picture(mask: np.ndarray) -> bool:
    """True when a glyph mask is a solid drawing (a J/Q/K picture), not a written digit: no enclosed hole,
    mostly convex (solidity PICTURE_SOLIDITY), and strokes wider than PICTURE_STROKE of its long side.
    (A written 1 is a convex bar: solidity above 0.9 keeps it a digit; a bold printed 5 or 7 has
    solidity below 0.8 and strokes below 0.38 of its size, or lies near a printed training digit:
    nearest_distance at most PICTURE_MIN_DISTANCE.) Tuned on the handwritten deck's J/Q/K."""
    fill, stroke, solidity, holes = glyph_stats(mask)
    return (holes == 0 and PICTURE_SOLIDITY[0] <= solidity < PICTURE_SOLIDITY[1] and stroke >= PICTURE_STROKE
            and (solidity >= 0.8 or stroke >= 0.38) and nearest_distance(mask) > PICTURE_MIN_DISTANCE)


def picture_rank(mask: np.ndarray) -> str:
    """A guess at J, Q or K for a picture, from the widest stroke alone (the sword of the handwritten
    deck is slim, its crowns wider): deck-specific, so readers flag it."""
    stroke = glyph_stats(mask)[1]
    return "J" if stroke < 0.36 else "K" if stroke < 0.48 else "Q"


def glyph_stats(mask: np.ndarray) -> tuple[float, float, float, int]:
    """(fill, stroke, solidity, holes) of a glyph mask: ink/box area, widest stroke / glyph's long side,
    ink / convex hull area, and the number of enclosed holes."""
    ys, xs = np.nonzero(mask)
    crop = (mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1] > 0).astype(np.uint8)
    dist = cv2.distanceTransform(crop, cv2.DIST_L2, 3)
    pts = cv2.findNonZero(crop)
    hull = cv2.contourArea(cv2.convexHull(pts))
    contours, hier = cv2.findContours(crop, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    holes = sum(1 for i, c in enumerate(contours) if hier[0][i][3] >= 0 and cv2.contourArea(c) > 0.01 * crop.size)
    return float(crop.mean()), 2 * float(dist.max()) / max(crop.shape), float(crop.sum()) / max(hull, 1.0), holes


def read_centre_value(card_bgr: np.ndarray, upright_bonus: float = 0.4, method: str = "auto") -> ValueRead:
    """Read the value in the middle of a rectified card, trying it upright and turned by 180 degrees.

    upright_bonus: added to the upright reading's score (the caller's orientation prior: e.g. the card's
    top faces the table centre). Only a clearly better 180-degree reading wins; a 6 read upside down as a
    9 ties and the prior decides. Returns a ValueRead (value None when there is no glyph or a picture).
    """
    mask, _ = centre_glyph(card_bgr)
    if mask is None:
        return ValueRead(None, False, 0.0, False, None)
    ink_bgr = tuple(float(v) for v in cv2.mean(card_bgr, mask=mask)[:3])
    if is_picture(mask):
        return ValueRead(None, True, 0.8, False, ink_bgr)
    up_value, up_conf = read_number(mask, method)
    down_value, down_conf = read_number(cv2.rotate(mask, cv2.ROTATE_180), method)
    # The value is printed in the card's middle: a glyph off to one side is what is left of a number
    # whose other digit merged into a shadow or the border (a 13 read as 3), so it is not trusted.
    xs = np.nonzero(mask)[1]
    centred = abs((xs.min() + xs.max()) / 2 / mask.shape[1] - 0.5) <= OFF_CENTRE
    factor = 1.0 if centred else OFF_CENTRE_FACTOR
    if down_conf > up_conf + upright_bonus:
        return ValueRead(down_value, False, down_conf * factor, True, ink_bgr)
    return ValueRead(up_value, False, up_conf * factor, False, ink_bgr)


def split_digits(mask: np.ndarray) -> list[np.ndarray]:
    """Split an upright glyph mask into digits side by side: pieces whose x ranges do not overlap and that
    are each at least 0.6 of the tallest piece's height; one mask when it does not split in two."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats((mask > 0).astype(np.uint8), connectivity=8)
    if n <= 2:
        return [mask]
    groups: list[list[int]] = []
    for i in sorted(range(1, n), key=lambda k: stats[k][0]):
        x, w = stats[i][0], stats[i][2]
        if groups:
            gx0 = min(stats[k][0] for k in groups[-1])
            gx1 = max(stats[k][0] + stats[k][2] for k in groups[-1])
            if x < gx1 - 0.25 * min(w, gx1 - gx0):
                groups[-1].append(i)
                continue
        groups.append([i])
    if len(groups) != 2:
        return [mask]
    heights = [max(stats[k][1] + stats[k][3] for k in g) - min(stats[k][1] for k in g) for g in groups]
    if min(heights) < 0.6 * max(heights):
        return [mask]
    return [np.isin(labels, g).astype(np.uint8) * 255 for g in groups]


def read_number(mask: np.ndarray, method: str = "auto") -> tuple[int, float]:
    """(value, confidence) of an upright glyph mask: one digit 0-9, or two digits side by side read as
    a number 10-99 (confidence: the lower digit's; 0 for a leading zero). method: as in read_centre_value."""
    parts = split_digits(mask)
    if len(parts) == 2:
        (a, ca), (b, cb) = (classify_glyph(p, method) for p in parts)
        return 10 * a + b, (min(ca, cb) if a != 0 else 0.0)  # a leading 0 is a number read upside down
    return classify_glyph(mask, method)
