"""Find die-sized objects in a frame: a background model, a foreground map and candidate regions.

The classical dice reader (:mod:`vision.training.dice_classical`, development only) calls
:func:`foreground_distance`, then :func:`object_regions` (whole objects) and :func:`face_regions` (objects
cut along colour edges into flat face pieces). Everything here works on the *work image*: the frame scaled
down so that its long side is at most 640 pixels (:func:`vision.dice.reader.work_image`), in CIE Lab as
``float32`` (OpenCV's 8-bit scaling: L, a, b each in 0-255). Regions are returned in work-image pixels.

Why a background model: dice come in any colour and lie on light or dark tables, so no fixed colour
threshold works. What every photo has is a table surface that varies slowly (lighting, vignetting, a
tray) and dice that are small against it. :func:`background_lab` finds the table as the large flat
regions of the frame that agree with a coarse median background, and fills in everything else from the
surrounding table (inpainting), so each object is compared with the table right around it, a pile of
dice does not pull the estimate towards dice colours and a tray's wall does not bleed into its floor.
The foreground map is the Lab distance of each pixel from that background.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Long side of the image the background is modelled on (pixels): 320 px keeps a tray's edge sharp to
# ~2 work pixels and the inpainting at a few milliseconds.
BG_WORK_SIDE = 320
# Long side for the coarse median (pixels): a die (>= 1/40 of the frame in every photo we have) is
# still >= 4 px there, and the median and blurs stay under a millisecond.
BG_SIDE = 160
# A flat region is part of the table when it covers at least this fraction of the frame (a die face
# in a table view covers < 1 %) ...
BG_REGION_FRACTION = 0.01
# ... and either reaches the frame's edge, is the largest flat region, or covers at least
# BG_ENCLOSED_FRACTION (a tray's floor inside its walls). A close-up die's face (up to ~20 % of the
# frame in the single-die photos) is none of these.
BG_ENCLOSED_FRACTION = 0.25
# Flat meaning a colour gradient (Lab units per pixel, after a 1-pixel blur) below FLAT_NOISE times
# the frame's median gradient, and never below FLAT_MIN (JPEG noise on a smooth sheet).
FLAT_NOISE, FLAT_MIN = 3.0, 2.0
# Blur before that gradient (pixels of the 320 px image): hides cloth grain and JPEG blocks, keeps the
# edge of anything 4 px or wider there.
FLAT_BLUR = 2.0
# Median window as a fraction of the short side: large enough that a die, or a small group of them,
# is a minority of the window, small enough to follow a tray's edge or a lighting gradient.
BG_WINDOW_FRACTION = 0.25
# Refinement rounds of the normalised convolution (two are enough: a third changes < 1 Lab unit).
BG_ROUNDS = 2
# Weight of the L channel in the Lab distance. Shading and shadows change mostly L; halving it keeps
# shadows weaker than coloured dice while a black or white die still stands out (dL of 100+).
L_WEIGHT = 0.5
# Foreground thresholds, in Lab distance units, as multiples of the frame's noise level (the median
# distance, since most of a frame is table) with absolute floors for clean, flat tables. The low
# threshold decides the extent of an object, the high one that it is an object at all (hysteresis).
FG_LOW_NOISE, FG_LOW_MIN = 3.0, 12.0
FG_HIGH_NOISE, FG_HIGH_MIN = 6.0, 30.0
# An object keeps its pixels above this fraction of its own 75th-percentile foreground distance (see
# object_regions): a shadow reaches ~0.2-0.3 of a die's distance, a die's own shading stays above 0.5.
OBJECT_LEVEL = 0.4


def to_lab(image_bgr: np.ndarray) -> np.ndarray:
    """BGR uint8 (h, w, 3) -> Lab float32 (h, w, 3), OpenCV's 8-bit Lab scaling."""
    return cv2.cvtColor(image_bgr, cv2.COLOR_BGR2Lab).astype(np.float32)


def lab_distance(lab: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Weighted Euclidean Lab distance (h, w) float32 between ``lab`` and ``reference`` (broadcastable)."""
    diff = lab - reference
    return np.sqrt(L_WEIGHT * L_WEIGHT * diff[..., 0] ** 2 + diff[..., 1] ** 2 + diff[..., 2] ** 2)


def _smooth(image: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian-like blur of width sigma at constant cost (two box filters of width ~1.7 sigma)."""
    k = max(3, int(1.7 * sigma) | 1)
    return cv2.blur(cv2.blur(image, (k, k)), (k, k))


def _median_background(small: np.ndarray) -> np.ndarray:
    """First background guess on the small Lab image: a median over a quarter of the frame, refined
    by averaging only pixels that look like background (normalised convolution)."""
    sh, sw = small.shape[:2]
    window = int(min(sw, sh) * BG_WINDOW_FRACTION) | 1
    window = max(3, min(window, 255))
    tiny = small
    factor = 1
    # The median runs at about BG_SIDE pixels: it only has to be coarse, and large windows are slow.
    while max(tiny.shape[:2]) > BG_SIDE:
        tiny = cv2.resize(tiny, (tiny.shape[1] // 2, tiny.shape[0] // 2), interpolation=cv2.INTER_AREA)
        factor *= 2
    twin = max(3, (window // factor) | 1)
    bg = cv2.medianBlur(np.clip(tiny, 0, 255).astype(np.uint8), min(twin, 255)).astype(np.float32)
    sigma = twin / 3.0
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(BG_ROUNDS):
        dist = lab_distance(tiny, bg)
        like_bg = (dist < max(FG_LOW_MIN, FG_LOW_NOISE * float(np.median(dist)))).astype(np.uint8)
        like_bg = cv2.erode(like_bg, kernel).astype(np.float32)
        num = _smooth(tiny * like_bg[..., None], sigma)
        den = _smooth(like_bg, sigma)
        bg = np.where((den > 1e-3)[..., None], num / np.maximum(den, 1e-3)[..., None], bg)
    return cv2.resize(bg, (sw, sh), interpolation=cv2.INTER_LINEAR)


def _flat_regions(small: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Connected regions of the small Lab image where the colour barely changes (table, walls, faces).

    Returns (labels int32, stats, flat threshold). The threshold adapts to the frame's texture: a
    multiple of the median gradient, so a grainy cloth and a smooth sheet both come out flat.
    """
    blurred = cv2.GaussianBlur(small, (0, 0), FLAT_BLUR)
    grad = np.zeros(small.shape[:2], np.float32)
    for c in range(3):
        gx = cv2.Sobel(blurred[..., c], cv2.CV_32F, 1, 0, ksize=3, scale=1 / 8)
        gy = cv2.Sobel(blurred[..., c], cv2.CV_32F, 0, 1, ksize=3, scale=1 / 8)
        grad = np.maximum(grad, cv2.magnitude(gx, gy))
    flat_below = max(FLAT_MIN, FLAT_NOISE * float(np.median(grad)))
    flat = cv2.erode((grad < flat_below).astype(np.uint8), np.ones((3, 3), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(flat, connectivity=4)
    return labels, stats, flat_below


def background_lab(lab: np.ndarray, coarse_only: bool = False) -> np.ndarray:
    """Estimate the table's Lab colour under every pixel; returns float32 of ``lab``'s shape.

    ``coarse_only`` returns the coarse median background alone (the reader's second try when the full
    model finds no die: a close-up die whose blurred face the flat-region test took for table).

    Two cues are combined so that neither a pile of dice nor a tray wall fools it: the table is made of
    large flat regions (:func:`_flat_regions`, each at least BG_REGION_FRACTION of the frame) whose
    colour also agrees with a coarse median background (:func:`_median_background`; this keeps a
    close-up die's big flat face out). Everything else is filled in from the surrounding table
    (OpenCV's Telea inpainting), so each object is compared with the table right around it.
    """
    h, w = lab.shape[:2]
    factor = max(1.0, max(h, w) / BG_WORK_SIDE)
    sw, sh = max(8, int(round(w / factor))), max(8, int(round(h / factor)))
    small = cv2.resize(lab, (sw, sh), interpolation=cv2.INTER_AREA)
    coarse = _median_background(small)
    if coarse_only:
        return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    dist = lab_distance(small, coarse)
    low = max(FG_LOW_MIN, FG_LOW_NOISE * float(np.median(dist)))
    labels, stats, _ = _flat_regions(small)
    table = np.zeros(len(stats), bool)
    big = np.nonzero(stats[:, cv2.CC_STAT_AREA] >= BG_REGION_FRACTION * sw * sh)[0]
    largest = big[np.argmax(stats[big, cv2.CC_STAT_AREA])] if big.size else -1
    # A region's median distance is below `low` exactly when most of its pixels are.
    near = np.bincount(labels[dist < low], minlength=len(stats))
    for i in big:
        x, y, rw, rh, area = stats[i]
        at_border = x == 0 or y == 0 or x + rw == sw or y + rh == sh
        if i and (at_border or area >= BG_ENCLOSED_FRACTION * sw * sh or i == largest) \
                and near[i] > area / 2:
            table[i] = True
    high = max(FG_HIGH_MIN, FG_HIGH_NOISE * float(np.median(dist)))
    # A blurred die edge can let a close-up die's face leak into the table region: pixels far from the
    # coarse background stay out of the table whatever region they joined.
    table_mask = table[labels] & (dist < high)
    if table_mask.sum() < BG_REGION_FRACTION * sw * sh:
        return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    # Inpainting costs grow with the area filled: it runs at half this resolution (the table under an
    # object varies slowly), while table pixels keep their own (blurred) colour.
    half = (max(4, sw // 2), max(4, sh // 2))
    small8 = cv2.resize(np.clip(small, 0, 255).astype(np.uint8), half, interpolation=cv2.INTER_AREA)
    hole = cv2.resize((~table_mask).astype(np.uint8), half, interpolation=cv2.INTER_NEAREST)
    hole = cv2.dilate(hole, np.ones((3, 3), np.uint8))
    filled = cv2.inpaint(small8, hole, 1, cv2.INPAINT_TELEA)
    bg = cv2.resize(filled, (sw, sh), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    bg[table_mask] = cv2.GaussianBlur(small, (0, 0), 1.0)[table_mask]
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


# Canny thresholds (low, high) for the L channel and for a and b, on 8-bit Lab after a Gaussian blur of
# EDGE_BLUR pixels. A die's outline, a seam between touching dice or a top face against a side face
# changes L by 20+ units over 1-2 pixels; JPEG blocks and marbled plastic mostly stay under these.
EDGE_BLUR = 1.0
EDGE_L = (40, 80)
EDGE_AB = (20, 40)
# A face piece's convex hull fills at least this fraction of its rotated bounding box (a square 1.0,
# a round-cornered face ~0.9, a circle 0.79) and is at most FACE_MAX_ASPECT elongated; the piece itself
# covers at least FACE_MIN_SOLIDITY of its hull (pips and bays cut by edges take the rest).
FACE_MIN_FILL = 0.75
FACE_MIN_SOLIDITY = 0.4
FACE_MAX_ASPECT = 1.8


@dataclass(frozen=True)
class Foreground:
    """The foreground map of a work image.

    distance: (h, w) float32 Lab distance from the background. noise: its median (the table's noise).
    low, high: the hysteresis thresholds used. mask: (h, w) uint8 0/1, objects (hysteresis, holes kept).
    """

    distance: np.ndarray
    noise: float
    low: float
    high: float
    mask: np.ndarray


def foreground_distance(lab: np.ndarray, coarse_only: bool = False,
                        background: np.ndarray | None = None) -> Foreground:
    """Foreground map of a Lab work image (see :class:`Foreground`; ``coarse_only``: background_lab).

    ``background``: a float32 Lab image of ``lab``'s shape to compare with instead of the estimated
    one (the calibrated empty table, :mod:`vision.dice.calibration`).
    """
    if background is None:
        background = background_lab(lab, coarse_only)
    dist = lab_distance(lab, background)
    noise = float(np.median(dist))
    low = max(FG_LOW_MIN, FG_LOW_NOISE * noise)
    high = max(FG_HIGH_MIN, FG_HIGH_NOISE * noise)
    weak = (dist > low).astype(np.uint8)
    n, labels = cv2.connectedComponents(weak, connectivity=8)
    keep = (np.bincount(labels[dist > high], minlength=n) > 0).astype(np.uint8)
    keep[0] = 0
    return Foreground(dist, noise, low, high, keep[labels])


@dataclass(frozen=True)
class Region:
    """One connected foreground object (maybe a die, maybe several, maybe not a die).

    box: (x0, y0, x1, y1) in work-image pixels, x1/y1 exclusive. mask: uint8 0/1 of the box's shape,
    holes filled. area: pixels in mask.
    """

    box: tuple[int, int, int, int]
    mask: np.ndarray
    area: int


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill the holes of every object of a uint8 0/1 mask (outer contours drawn filled)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled


def _regions(labels: np.ndarray, stats: np.ndarray, min_area: int, max_area: int,
             convex: bool, min_fill: float = 0.0) -> list[Region]:
    regions = []
    for i in range(1, len(stats)):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area > max_area or w * h < min_area:
            continue
        sub = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
        if convex:
            # A face is convex: pips cut off by edges near the rim, or a pip touching the outline,
            # leave bays in the piece; the hull restores them.
            contours, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            piece = max(contours, key=cv2.contourArea)
            hull = cv2.convexHull(piece)
            sub = np.zeros_like(sub)
            cv2.drawContours(sub, [hull], -1, 1, thickness=cv2.FILLED)
            filled = int(sub.sum())
            (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
            if not min_area <= filled <= max_area:
                continue
            if area < min_fill * filled or filled < FACE_MIN_FILL * max(rw * rh, 1.0) \
                    or max(rw, rh) > FACE_MAX_ASPECT * max(min(rw, rh), 1.0):
                continue
        else:
            sub = fill_holes(sub)
            filled = int(sub.sum())
            if not min_area <= filled <= max_area:
                continue
        regions.append(Region((x, y, x + w, y + h), sub, filled))
    return regions


def object_regions(fg: Foreground, min_area: int, max_area: int, open_radius: float = 0.0) -> list[Region]:
    """Objects of the foreground with ``min_area <= area <= max_area`` (holes filled).

    Each connected piece of the foreground mask is cut back to its pixels above OBJECT_LEVEL times its
    own 75th-percentile distance: a die stands out from the table far more than its soft shadow does,
    so this drops the shadow without a fixed threshold. An object may still be one die (with side
    faces), several touching dice, or not a die. With ``open_radius`` (pixels) the mask is first opened
    with a disc of that radius, which breaks the narrow contacts that join a die to a tray wall or to a
    neighbour (the caller sets it from the dice's typical size).
    """
    mask = fg.mask
    if open_radius >= 1:
        r = int(round(open_radius))
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    cut = np.zeros_like(fg.mask)
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < min_area // 4 or area > max_area * 4:
            continue
        sub = labels[y:y + h, x:x + w] == i
        d = fg.distance[y:y + h, x:x + w]
        level = max(fg.low, OBJECT_LEVEL * float(np.percentile(d[sub], 75)))
        cut[y:y + h, x:x + w][sub & (d > level)] = 1
    cut = cv2.morphologyEx(cut, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(cut, connectivity=8)
    return _regions(labels, stats, min_area, max_area, convex=False)


def face_regions(image_bgr: np.ndarray, mask: np.ndarray, min_area: int, max_area: int,
                 erode: bool = False) -> list[Region]:
    """Flat patches of the foreground bounded by colour edges: candidate top faces.

    Touching dice, a die against a tray wall, and a die's top face against its darker side faces are
    separated by an edge in at least one Lab channel, so removing edge pixels (Canny on each channel
    after a 1-pixel blur) from the foreground and taking 4-connected pieces gives one piece per face;
    pips are holes in it, filled here. ``erode`` takes one pixel off each piece first (for dice big
    enough to spare it). Pieces must be square-ish (fill of their rotated bounding box at
    least FACE_MIN_FILL, aspect at most FACE_MAX_ASPECT).
    """
    lab8 = cv2.cvtColor(cv2.GaussianBlur(image_bgr, (0, 0), EDGE_BLUR), cv2.COLOR_BGR2Lab)
    edges = cv2.Canny(lab8[..., 0], *EDGE_L, L2gradient=True)
    for c in (1, 2):
        edges |= cv2.Canny(lab8[..., c], *EDGE_AB, L2gradient=True)
    pieces = mask.copy()
    pieces[edges > 0] = 0
    if erode:
        # One pixel off every piece closes the gaps a broken edge leaves (a corner where Canny skipped
        # a pixel would otherwise join a die to the wall it touches); the convex hull gives it back.
        pieces = cv2.erode(pieces, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(pieces, connectivity=4)
    return _regions(labels, stats, min_area, max_area, convex=True, min_fill=FACE_MIN_SOLIDITY)
