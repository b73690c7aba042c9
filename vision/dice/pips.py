"""Count the pips on one die face and judge how clean that evidence is.

Input: the Lab work image (float32, OpenCV 8-bit scaling) and one object's box and mask from
:class:`vision.dice.reader.DiceReader`. Output: a :class:`FaceReading` (pip count, pip centres, a confidence 0-1 and
the reasons that lowered it).

Method:

1. Pip map: each pixel's Lab distance from the *local* face colour (a median over ~0.45 s, which wipes
   out every pip but follows shading). Dark pips on light dice, light pips on dark dice and coloured
   pips all stand out without a colour rule.
2. Spots of the pip map inside the object (above a threshold half-way between the face's typical value
   and its strongest) are kept as pips when their size and roundness fit a pip of a die this size.
3. The pips are fitted to the 3x3 lattice every d6 face lives on (centre, orientation, spacing; a few
   hypotheses from the face outline and the pip pairs, the cheapest kept).
4. Each lattice point is lit when a pip sits on it or the pip map there reaches most of the pips'
   level; the lit set must be one of the standard layouts (VALID_LAYOUTS), which gives the value.
5. Confidence starts at 1 and is multiplied down for each doubt: not a standard layout, a small margin
   between the weakest lit point and the strongest dark one, a faint bump on a dark point, spots on
   the face off the lattice, odd spacing, a lattice off the face's centre, pips of unequal size.

Geometry constants are in units of the die side ``s`` (square root of the object's area) or of the
lattice spacing ``a``. They come from
standard Western d6 (pip centres about 0.25-0.3 s from the face centre along each axis, pip diameters
0.12-0.25 s) with margins for perspective, rounded corners and the dice in ``../shared/data/dice``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

# Area searched for pips: the object eroded by this fraction of s, so the outline and the side faces'
# rims are not read as pips (a corner pip's edge is ~0.15 s from the die's edge).
PIP_SEARCH_ERODE = 0.09
# Window of the local face colour (fraction of s) and the blur before it (fraction of s; JPEG noise
# on small dice is pip-sized otherwise).
LOCAL_WINDOW = 0.45
PIP_BLUR = 0.02
# Pip threshold: this fraction of the way from the face's typical pip-map value to its strongest.
PIP_THRESHOLD = 0.45
# A pip differs from the face colour by at least this (Lab units, L unweighted): weaker spots are
# texture (marbled dice), dirt or JPEG noise.
PIP_MIN_CONTRAST = 25.0
# Pip area as a fraction of s^2: a pip of diameter 0.09 s .. 0.33 s (the large single pip of a 1).
PIP_MIN_AREA, PIP_MAX_AREA = 0.0065, 0.085
# Smallest pip in pixels; below that a spot is noise at any die size.
PIP_MIN_PIXELS = 3
# Roundness: minor/major axis ratio of the spot's ellipse (perspective flattens pips on tilted faces;
# pips seen on a die's side faces are flatter than this).
PIP_MIN_AXIS_RATIO = 0.45
# Fill: spot area over its ellipse's area; a ragged spot (texture, a pip merged with an edge) is lower.
PIP_MIN_FILL = 0.6
# Pip sizes on one face agree: a pip smaller than this fraction of the face's largest non-single pip
# is suspect (a 1's pip may be larger; the others are equal).
PIP_SIZE_RATIO = 0.45

# Every standard d6 face is a subset of a 3x3 lattice of pip positions (i, j in -1, 0, 1) around the
# face centre: centre c, axes u, v (unit, perpendicular) and spacing a (the corner offset). The sets
# of lattice points each value may light up, in every orientation of the die:
_CORNERS = frozenset({(-1, -1), (-1, 1), (1, -1), (1, 1)})
VALID_LAYOUTS = {
    frozenset({(0, 0)}): 1,
    frozenset({(-1, -1), (1, 1)}): 2,
    frozenset({(-1, 1), (1, -1)}): 2,
    frozenset({(-1, -1), (0, 0), (1, 1)}): 3,
    frozenset({(-1, 1), (0, 0), (1, -1)}): 3,
    _CORNERS: 4,
    _CORNERS | {(0, 0)}: 5,
    _CORNERS | {(-1, 0), (1, 0)}: 6,
    _CORNERS | {(0, -1), (0, 1)}: 6,
}
LATTICE = [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
# Corner offset a over the die side s: pip centres at 0.25-0.3 s from the face centre on standard dice.
CORNER_OFFSET = 0.27
# Lattice fit cost weights: distance of its centre from the face's centre (per s) and |log| of its
# spacing over CORNER_OFFSET * s, next to the pips' mean distance from their lattice points (per a).
FIT_CENTRE_WEIGHT, FIT_SCALE_WEIGHT = 1.0, 0.5
# ... its turn away from the face outline's orientation (per 45 degrees), and a fixed cost when the
# detected pips do not form a complete standard layout on it (a missed pip is then found by sampling).
FIT_ANGLE_WEIGHT, FIT_LAYOUT_WEIGHT = 0.3, 0.3
# A pip farther than this (per a) from every lattice point does not belong to the fitted face.
LATTICE_SNAP = 0.45
# The face reaches this far from its centre along u and v (per a): corner pips at 1, the edge at ~1.8;
# spots within it that are not on the lattice make the reading doubtful, spots beyond do not.
FACE_REACH = 1.5
# A lattice point without a detected pip still counts as a pip when the pip map there reaches ON_LEVEL
# of the detected pips' typical level; between DOUBT_LEVEL and ON_LEVEL it is an unclear point.
ON_LEVEL, DOUBT_LEVEL = 0.6, 0.35
# Margin between the weakest lit point and the strongest dark point, over the pips' level, that is
# needed for full confidence (a clean face has ~0.8).
FULL_MARGIN = 0.45
# Lattice spacing over s accepted without penalty (perspective, dice brands, a box with a shadow).
SPACING_RANGE = (0.17, 0.38)
# Distance (per s) of the fitted lattice's centre from the face's centre that costs half the confidence.
CENTRE_TOLERANCE = 0.22
# Die side (pixels) above which a candidate is scaled down before reading: pips of a 1 to 6 are then
# 5-15 px across, plenty for counting, and time no longer grows with the die's size.
CANON_SIDE = 48.0
# The face crop is padded by this fraction of s so that lattice points near the rim have context.
CROP_PAD = 0.25


@dataclass(frozen=True)
class Pip:
    """A pip: centre (x, y) in work-image pixels and area in pixels."""

    x: float
    y: float
    area: float


@dataclass
class FaceReading:
    """What :func:`read_face` found. ``value`` is the pip count (0 when none, may exceed 6).

    confidence: 0-1. doubts: short reasons that lowered it (for debugging and the overlay).
    contrast: pip-to-face Lab distance over the threshold (>1; higher is cleaner).
    """

    value: int
    pips: list[Pip]
    confidence: float
    doubts: list[str] = field(default_factory=list)
    contrast: float = 0.0
    rejected: int = 0


def _spots(pip_mask: np.ndarray):
    """Connected spots of a 0/1 mask: yields (area, cx, cy, axis_ratio, fill, x, y, w, h) in crop pixels."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats(pip_mask, connectivity=8)
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        m = cv2.moments((labels[y:y + h, x:x + w] == i).astype(np.uint8), binaryImage=True)
        mu20, mu02, mu11 = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
        root = math.sqrt(max(0.0, ((mu20 - mu02) / 2) ** 2 + mu11 ** 2))
        major = (mu20 + mu02) / 2 + root
        minor = (mu20 + mu02) / 2 - root
        # The +1/12 is a pixel's own variance, so a one-pixel-wide spot is not a line of zero width.
        major, minor = major + 1 / 12, minor + 1 / 12
        ratio = math.sqrt(minor / major)
        ellipse_area = 4 * math.pi * math.sqrt(major * minor)
        yield area, cents[i][0], cents[i][1], ratio, area / ellipse_area, x, y, w, h


def _pip_mask(lab: np.ndarray, box: tuple[int, int, int, int], mask: np.ndarray, side: float | None):
    """The thresholded pip map of one object (method steps 1-2, before the spots are judged): (pip_mask
    uint8 0/1, dist float32, the face mask in the crop, side px, scale, crop origin (X0, Y0)), all in the
    crop's pixels at ``scale`` (<= 1: big dice are read at CANON_SIDE); None when the face is too small
    to read (fewer than 9 search pixels)."""
    x0, y0, x1, y1 = box
    H, W = lab.shape[:2]
    if side is None:
        side = math.sqrt(int(mask.sum()))
    pad = int(math.ceil(CROP_PAD * side))
    X0, Y0, X1, Y1 = max(0, x0 - pad), max(0, y0 - pad), min(W, x1 + pad), min(H, y1 + pad)
    fmask = np.zeros((Y1 - Y0, X1 - X0), np.uint8)
    fmask[y0 - Y0:y1 - Y0, x0 - X0:x1 - X0] = mask
    crop = lab[Y0:Y1, X0:X1]
    # Big dice are read at CANON_SIDE: pips stay >= 6 px wide and the work no longer grows with size.
    scale = min(1.0, CANON_SIDE / side)
    if scale < 1.0:
        size = (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale)))
        crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
        fmask = cv2.resize(fmask, size, interpolation=cv2.INTER_NEAREST)
        side *= scale
    dist = _pip_map(crop, side)
    search = _erode(fmask, PIP_SEARCH_ERODE * side)
    values = dist[search > 0]
    if values.size < 9:
        return None
    typical = float(np.median(values))
    strongest = float(np.percentile(values, 99.5))
    threshold = max(PIP_MIN_CONTRAST, typical + PIP_THRESHOLD * (strongest - typical))
    pip_mask = ((dist > threshold) & (search > 0)).astype(np.uint8)
    return pip_mask, dist, fmask, side, scale, (X0, Y0), threshold


def read_face(lab: np.ndarray, box: tuple[int, int, int, int], mask: np.ndarray,
              side: float | None = None) -> FaceReading:
    """Read the pips of one object.

    lab: the Lab work image (H, W, 3) float32. box: (x0, y0, x1, y1) of the object in it. mask: uint8
    0/1 of shape (y1 - y0, x1 - x0), the object's pixels (holes filled). side: the die side in pixels
    when known from elsewhere (an object holding several dice), else the square root of the mask's
    area. Returns a FaceReading whose pip coordinates are in work-image pixels.
    """
    found = _pip_mask(lab, box, mask, side)
    if found is None:
        return FaceReading(0, [], 0.0, ["too small"])
    pip_mask, dist, fmask, side, scale, (X0, Y0), threshold = found
    pips: list[Pip] = []
    rejected_at: list[tuple[float, float]] = []
    s2 = side * side
    min_area = max(PIP_MIN_PIXELS, PIP_MIN_AREA * s2)
    max_area = PIP_MAX_AREA * s2
    for spot_area, cx, cy, ratio, fill, *_ in _spots(pip_mask):
        if min_area <= spot_area <= max_area and ratio >= PIP_MIN_AXIS_RATIO and fill >= PIP_MIN_FILL:
            pips.append(Pip(cx, cy, spot_area))
        elif spot_area >= min_area * 0.5:
            rejected_at.append((cx, cy))
    if not pips:
        return FaceReading(0, [], 0.0, ["no pips"])
    reading = _read_lattice(dist, fmask, pips, side, threshold, rejected_at)
    reading.pips = [Pip(p.x / scale + X0, p.y / scale + Y0, p.area / scale ** 2) for p in reading.pips]
    return reading


def _pip_map(crop: np.ndarray, side: float) -> np.ndarray:
    """Each pixel's Lab distance from the local face colour (a median over LOCAL_WINDOW * side, which
    wipes out every pip but follows shading); float32 of the crop's (h, w)."""
    k = max(5, int(LOCAL_WINDOW * side) | 1)
    crop8 = np.clip(crop, 0, 255).astype(np.uint8)
    if PIP_BLUR * side >= 0.5:
        crop8 = cv2.GaussianBlur(crop8, (0, 0), PIP_BLUR * side)
    local = cv2.medianBlur(crop8, min(k, 255))
    diff = crop8.astype(np.float32) - local.astype(np.float32)
    return np.sqrt((diff ** 2).sum(-1))


def _erode(mask: np.ndarray, radius: float) -> np.ndarray:
    r = int(round(radius))
    if r < 1:
        return mask
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    return cv2.erode(mask, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0)


def _penalise(reading: FaceReading, factor: float, why: str) -> None:
    factor = max(0.0, min(1.0, float(factor)))
    reading.confidence *= factor
    if factor < 0.95:
        reading.doubts.append(why)


_VALID_BITS = np.array(sorted({sum(1 << ((i + 1) * 3 + j + 1) for i, j in layout)
                                for layout in VALID_LAYOUTS}))


def _fit_lattice(pts: np.ndarray, centre: np.ndarray, angle: float, side: float):
    """Best (cost, c, theta, a) lattice for the pips among a few hypotheses (module constants).

    Hypotheses: centre at the face outline's centre or at the pips' centroid; orientation from the
    outline, from every pair of pips, or 45 degrees off a pair (diagonal neighbours). For each, the
    spacing comes from the pips' coordinates and the centre is moved onto the lattice they snap to.
    """
    a0 = CORNER_OFFSET * side
    angles = [angle]
    for i in range(len(pts)):
        for j in range(i + 1, len(pts)):
            d = pts[j] - pts[i]
            t = math.atan2(d[1], d[0])
            angles += [t, t + math.pi / 4]
    quarter = math.pi / 2
    t = np.unique(np.round(np.mod(angles, quarter) / 0.035)) * 0.035  # 2-degree steps
    t = np.concatenate([t, t])
    centres = np.repeat(np.stack([centre, pts.mean(0)]), len(t) // 2, axis=0)  # (T, 2)
    cos, sin = np.cos(t), np.sin(t)
    rel = pts[None, :, :] - centres[:, None, :]  # (T, n, 2)
    q = np.stack([rel[..., 0] * cos[:, None] + rel[..., 1] * sin[:, None],
                  -rel[..., 0] * sin[:, None] + rel[..., 1] * cos[:, None]], axis=-1)
    big = np.abs(q) > 0.5 * a0
    counts = big.sum((1, 2))
    mean_big = np.where(counts > 0, (np.abs(q) * big).sum((1, 2)) / np.maximum(counts, 1), a0)
    a = np.clip(mean_big, 0.6 * a0, 1.6 * a0)[:, None, None]
    shift = np.zeros((len(t), 1, 2))
    for _ in range(2):  # re-centre on the lattice points the pips snap to
        idx = np.clip(np.round((q - shift) / a), -1, 1)
        shift = shift + ((q - shift) - idx * a).mean(1, keepdims=True)
    q = q - shift
    idx = np.clip(np.round(q / a), -1, 1)
    resid = np.sqrt(((q / a - idx) ** 2).sum(-1))  # (T, n)
    bits = (1 << ((idx[..., 0] + 1) * 3 + idx[..., 1] + 1).astype(np.int64))
    mask = np.bitwise_or.reduce(bits, axis=1)
    distinct = np.array([bin(int(m)).count("1") for m in mask])
    clash = len(pts) - distinct
    valid = np.isin(mask, _VALID_BITS)
    # Centre in image coordinates: shift back from lattice to image axes.
    sx, sy = shift[:, 0, 0], shift[:, 0, 1]
    c2 = centres + np.stack([sx * cos - sy * sin, sx * sin + sy * cos], axis=-1)
    turn = np.abs(np.mod((t - angle) + math.pi / 4, quarter) - math.pi / 4) / (math.pi / 4)
    cost = (resid.mean(1) + 0.5 * (resid > LATTICE_SNAP).sum(1) + 0.5 * clash
            + FIT_CENTRE_WEIGHT * np.hypot(*(c2 - centre).T) / side
            + FIT_SCALE_WEIGHT * np.abs(np.log(a[:, 0, 0] / a0))
            + FIT_ANGLE_WEIGHT * turn
            + np.where(valid, 0.0, FIT_LAYOUT_WEIGHT))
    k = int(np.argmin(cost))
    return float(cost[k]), c2[k], float(t[k]), float(a[k, 0, 0])


def _sample_points(dist: np.ndarray, points: np.ndarray, r: float) -> np.ndarray:
    """Largest pip-map value within radius r of each (x, y) point; 0 outside the map."""
    ri = max(1, int(round(r)))
    peak = cv2.dilate(dist, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ri + 1, 2 * ri + 1)))
    h, w = dist.shape
    xi = np.round(points[:, 0]).astype(int)
    yi = np.round(points[:, 1]).astype(int)
    inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    out = np.zeros(len(points), np.float32)
    out[inside] = peak[yi[inside], xi[inside]]
    return out


def _read_lattice(dist: np.ndarray, fmask: np.ndarray, pips: list[Pip], side: float, threshold: float,
                  rejected_at: list[tuple[float, float]]) -> FaceReading:
    """Fit the 3x3 pip lattice, light its points from the pip map, and judge the result."""
    pts = np.array([(p.x, p.y) for p in pips])
    areas = np.array([p.area for p in pips])
    contours, _ = cv2.findContours(fmask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (rcx, rcy), _, rang = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    centre = np.array([rcx, rcy])
    _, c, t, a = _fit_lattice(pts, centre, math.radians(rang), side)
    u = np.array([math.cos(t), math.sin(t)])
    v = np.array([-math.sin(t), math.cos(t)])
    pip_r = math.sqrt(float(np.median(areas)) / math.pi)
    # Which lattice point each detected pip lands on (None when it lands on none).
    snapped: dict[tuple[int, int], int] = {}
    stray = 0
    for k, p in enumerate(pts):
        q = np.array([(p - c) @ u, (p - c) @ v]) / a
        idx = tuple(int(i) for i in np.clip(np.round(q), -1, 1))
        if np.hypot(*(q - idx)) <= LATTICE_SNAP and idx not in snapped:
            snapped[idx] = k
        elif np.abs(q).max() <= FACE_REACH:
            stray += 1  # on the face but off the lattice; beyond it: a side face's pip or a neighbour
    lattice_xy = np.array([c + a * (i * u + j * v) for i, j in LATTICE])
    sampled = _sample_points(dist, np.vstack([lattice_xy, pts]), max(1.0, 0.6 * pip_r))
    response = dict(zip(LATTICE, sampled[:len(LATTICE)].tolist()))
    level = float(np.median([sampled[len(LATTICE) + k] for k in snapped.values()])) if snapped \
        else threshold
    lit = {ij for ij in LATTICE if ij in snapped or response[ij] >= ON_LEVEL * level}
    if not lit:  # every spot lies off the fitted lattice and no lattice point is bright: no face to read
        return FaceReading(0, [], 0.0, ["no pips on the lattice"])
    dark = [response[ij] for ij in LATTICE if ij not in lit]
    layout = frozenset(lit)
    value = VALID_LAYOUTS.get(layout, len(lit))
    kept = [pips[k] for k in snapped.values()]
    # Spots that failed the pip tests but lie on the face (within the lattice plus half a step) may
    # be pips seen badly; spots beyond it are side faces, shadows or a neighbour.
    rejected = sum(1 for x, y in rejected_at
                   if max(abs((x - c[0]) * u[0] + (y - c[1]) * u[1]),
                          abs((x - c[0]) * v[0] + (y - c[1]) * v[1])) <= FACE_REACH * a)
    reading = FaceReading(value, kept or pips, 1.0, rejected=rejected)
    if layout not in VALID_LAYOUTS:
        _penalise(reading, 0.15, "not a d6 layout")
    weakest = min(response[ij] if ij not in snapped else max(response[ij], level * ON_LEVEL) for ij in lit)
    strongest_dark = max(dark) if dark else 0.0
    margin = (min(weakest, level) - strongest_dark) / max(level, 1e-6)
    reading.contrast = level / max(threshold, 1e-6)
    _penalise(reading, margin / FULL_MARGIN, "unclear pip")
    if any(r >= DOUBT_LEVEL * level for r in dark):  # a dark lattice point with a pip-like bump
        _penalise(reading, 0.6, "faint spot")
    if stray:
        _penalise(reading, 0.3 ** stray, "stray spots")
    spacing = a / side
    lo, hi = SPACING_RANGE
    if not lo <= spacing <= hi:
        _penalise(reading, (min(spacing / lo, hi / spacing)) ** 3, "pip spacing")
    off = float(np.hypot(*(c - centre))) / side
    _penalise(reading, 0.5 ** ((off / CENTRE_TOLERANCE) ** 2), "pips off centre")
    if len(kept) >= 2 and value != 1:
        ka = np.array([p.area for p in kept])
        ratio = ka.min() / ka.max()
        _penalise(reading, ratio / PIP_SIZE_RATIO if ratio < PIP_SIZE_RATIO else 1.0, "pip sizes differ")
    if rejected:
        _penalise(reading, 0.85 ** rejected, "unclear spots")
    return reading


# Weight of L (lightness) against a and b in Lab distances: shading changes L most, so it counts half.
L_WEIGHT = 0.5


def to_lab(image_bgr: np.ndarray) -> np.ndarray:
    """BGR uint8 (h, w, 3) -> Lab float32 (h, w, 3), OpenCV's 8-bit Lab scaling."""
    return cv2.cvtColor(image_bgr, cv2.COLOR_BGR2Lab).astype(np.float32)


LAB_TILE = 64
"""px: the side of the tiles :class:`LabImage` converts at a time."""
LAB_MARGIN = CROP_PAD + 0.05
"""Fraction of a box's longer side around it that the pip count and the object mask may read (CROP_PAD;
the object's ring, ``object_ring`` 0.15, lies inside it), with some to spare."""


class LabImage:
    """The Lab image (:func:`to_lab`) of a BGR uint8 work image (h, w, 3), converted only where boxes ask:
    :meth:`around` converts the tiles (:data:`LAB_TILE` px) around a box not yet converted and returns the
    whole (h, w, 3) float32 array, right around every box asked for so far (elsewhere unset). The
    conversion is pixel by pixel, so each pixel is what :func:`to_lab` of the whole image gives; a large
    work image with a few dice converts a few tiles instead of all of it."""

    def __init__(self, image_bgr: np.ndarray) -> None:
        self.image = image_bgr
        h, w = image_bgr.shape[:2]
        self.array = np.empty((h, w, 3), np.float32)
        self.done = np.zeros((-(-h // LAB_TILE), -(-w // LAB_TILE)), bool)

    def around(self, box, margin: float = LAB_MARGIN) -> np.ndarray:
        """The Lab array, converted at least over ``box`` (x0, y0, x1, y1) px widened by ``margin`` of its
        longer side (and 2 px) on each side, clipped to the image."""
        h, w = self.array.shape[:2]
        x0, y0, x1, y1 = box
        pad = math.ceil(margin * max(x1 - x0, y1 - y0)) + 2
        c0, r0 = max(0, int(x0) - pad) // LAB_TILE, max(0, int(y0) - pad) // LAB_TILE
        c1, r1 = min(w - 1, int(math.ceil(x1)) + pad) // LAB_TILE, min(h - 1, int(math.ceil(y1)) + pad) // LAB_TILE
        if r1 < r0 or c1 < c0 or self.done[r0:r1 + 1, c0:c1 + 1].all():
            return self.array
        rows = slice(r0 * LAB_TILE, min(h, (r1 + 1) * LAB_TILE))
        cols = slice(c0 * LAB_TILE, min(w, (c1 + 1) * LAB_TILE))
        self.array[rows, cols] = to_lab(self.image[rows, cols])  # tiles done before are the same again
        self.done[r0:r1 + 1, c0:c1 + 1] = True
        return self.array


def lab_distance(lab: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Weighted Euclidean Lab distance (h, w) float32 between ``lab`` and ``reference`` (broadcastable),
    L weighted by L_WEIGHT."""
    diff = lab - reference
    return np.sqrt(L_WEIGHT * L_WEIGHT * diff[..., 0] ** 2 + diff[..., 1] ** 2 + diff[..., 2] ** 2)


def face_mask(w: int, h: int, inset: float, radius: float) -> np.ndarray:
    """A (h, w) uint8 0/1 rounded square ``inset`` (fraction of the side) inside a box's edges, corners of
    ``radius`` (fraction of the side): the die's top face."""
    m = np.zeros((h, w), np.uint8)
    r = int(min(w, h) * radius)
    i = int(min(w, h) * inset)
    cv2.rectangle(m, (i + r, i), (w - 1 - i - r, h - 1 - i), 1, -1)
    cv2.rectangle(m, (i, i + r), (w - 1 - i, h - 1 - i - r), 1, -1)
    for cx, cy in ((i + r, i + r), (w - 1 - i - r, i + r), (i + r, h - 1 - i - r), (w - 1 - i - r, h - 1 - i - r)):
        cv2.circle(m, (cx, cy), r, 1, -1)
    return m


def object_mask(lab: np.ndarray, box: tuple[int, int, int, int], ring: float, level: float,
                min_dist: float) -> np.ndarray | None:
    """(h, w) uint8 0/1 mask of the object at the centre of ``box`` (x0, y0, x1, y1) in a Lab work image,
    or None when nothing there stands out: pixels whose Lab distance (L halved) from the median colour
    of a ring ``ring`` of the side around the box exceeds max(``min_dist``, ``level`` times its 90th
    percentile), opened, the component covering most of the box's central third, holes filled."""
    x0, y0, x1, y1 = box
    H, W = lab.shape[:2]
    side = max(x1 - x0, y1 - y0)
    p = int(math.ceil(ring * side))
    X0, Y0, X1, Y1 = max(0, x0 - p), max(0, y0 - p), min(W, x1 + p), min(H, y1 + p)
    crop = lab[Y0:Y1, X0:X1]
    edge = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    d = crop - np.median(edge, axis=0)
    d[..., 0] *= 0.5
    dist = np.sqrt((d * d).sum(-1))
    cut = max(min_dist, level * float(np.percentile(dist, 90)))
    m = cv2.morphologyEx((dist > cut).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents(m)
    cy, cx = (y0 + y1) // 2 - Y0, (x0 + x1) // 2 - X0
    centre = labels[max(0, cy - side // 6):cy + side // 6 + 1, max(0, cx - side // 6):cx + side // 6 + 1]
    counts = np.bincount(centre.ravel(), minlength=n)
    counts[0] = 0
    if counts.max() == 0:
        return None
    obj = (labels == int(np.argmax(counts))).astype(np.uint8)
    contours, _ = cv2.findContours(obj, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(obj)
    cv2.drawContours(filled, contours, -1, 1, cv2.FILLED)
    out = filled[y0 - Y0:y1 - Y0, x0 - X0:x1 - X0]
    return out if int(out.sum()) > 16 else None


def read_pips(lab: np.ndarray, box: tuple[int, int, int, int], params) -> FaceReading:
    """The pip count of a detected die (``box`` in work pixels, inside the Lab image ``lab``):
    :func:`read_face` with the rounded square inside the box (:func:`face_mask`; right on white dice on
    white paper) and, unless that reading is at least ``params.pips_clean`` sure, with the object's own
    mask (:func:`object_mask`; right on dice that stand out from the table); the more confident wins.
    ``params``: :class:`vision.dice.params.DiceParams`."""
    best = read_face(lab, box, face_mask(box[2] - box[0], box[3] - box[1], params.mask_inset, params.mask_radius))
    if best.confidence >= params.pips_clean and 1 <= best.value <= 6:
        return best
    mask = object_mask(lab, box, params.object_ring, params.object_level, params.object_min_dist)
    if mask is not None:
        other = read_face(lab, box, mask)
        if other.confidence > best.confidence:
            best = other
    return best
