"""Read Schotten Totten / Battle Line cards of any design from their corner index, after a short
calibration: one card of each colour shown once (the issue's "real deck after a short calibration").

Calibration (:func:`learn_design`): a frame with one card of each colour (red, orange, yellow, green,
blue, purple) lying whole at stones 0-5 (any side). For each card the reader finds the outline
(:func:`find_outlines`), turns it so that its top faces the stone line, and looks in both top corners,
for dark ink on light, light ink on dark and black ink on white, for the glyph the digit network
(vision.cards.digit_net) reads most confidently: the corner index. The six cards give the index's place on the card (card fractions),
its polarity and the card's aspect; each colour's appearance is a hue/saturation histogram of its card's
top strip (border, background and index: the part a column leaves visible); the table's median colour
round the cards is kept too, and later frames are colour-balanced so that their table matches it (a
change in the light's colour or brightness cancels; the table itself must stay the same). The result is
a :class:`CornerDesign`, stored in the Schotten Totten calibration JSON (``"design"``,
vision.cards.schotten_totten.StCalibration).

Reading (:func:`read_corner_cards`): every card outline or overlapping column (:func:`find_outlines`:
outer outlines of colour and lightness edges, so a column's inner edges and artwork do not split it) is
rectified with its top toward the stone line; the band of the column where the index lies is scanned
for glyphs of the index's height; each confidently read glyph is one card, whose top lies the index's
offset above it. The card's colour is the calibrated histogram nearest (Bhattacharyya distance) to the
histogram of its visible strip. Values 1-9, or 1-10 (Battle Line: two digits side by side).

Colour histograms and the table's colour balance live in vision.cards.colour_model.

Public API: :class:`CornerDesign`, :class:`CornerCard`, :func:`learn_design`, :func:`read_corner_cards`,
:func:`find_outlines`, :func:`stone_cuts`, :func:`read_index`, :func:`glyph_candidates`,
:func:`remove_lines`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import CalibrationError
from vision.cards.colour_model import HUE_BINS, balance_gains, balanced, nearest_colour, strip_histogram, table_colour
from vision.cards.digits import glyph_scores
from vision.cards.find import _quad_of, orient_corners, rectify_with_homography
from vision.cards.value import split_digits

WIDTH = 160            # pixels of a rectified card's width
STRIP = 0.26           # top strip of a card (fraction of its height) whose colours describe it
GLYPH_HEIGHT = (0.07, 0.30)  # a corner index's height, fraction of the card's height (calibration search)
HEIGHT_TOLERANCE = (0.65, 1.4)  # a glyph read in a column: its height / the calibrated index height
MIN_CONFIDENCE = 0.35  # glyphs read less confidently than this are not cards (calibration: not an index)
OUTLINE_SIDE = 1280  # outlines are found at most this many pixels on the frame's long side
OUTLINE_CANNY = (20, 60)
MERGED = 1.45  # a blob wider than this many card widths is cut between the stones
INK_RATIO = 0.7      # ink is darker than this share of the local background
POLARITIES = ("dark", "light", "black")  # ink kinds tried at calibration (see _ink)
MIN_PITCH = 0.12       # two cards of a column lie at least this fraction of a card's height apart


@dataclass(frozen=True)
class CornerDesign:
    """What one deck's cards look like.

    index: (x0, y0, x1, y1) card fractions (0-1, card upright) round the corner value. polarity: "dark"
    (ink darker than the card), "light" (lighter) or "black" (black ink on white, e.g. in an index box). aspect: card height / width (about 1.4). colours: {colour:
    hue/saturation histogram (vision.cards.colour_model.strip_histogram: HUE_BINS x 3 + 1 floats summing
    to 1, the last bin the unsaturated share)}. table_bgr: the median colour of the table round the cards
    in the calibration frame (B, G, R 0-255): later frames are colour-balanced to it (the same table
    under another light). card_px: a card's width in the calibration frame, pixels (0: unknown).
    """

    index: tuple[float, float, float, float]
    polarity: str
    aspect: float
    colours: dict
    table_bgr: tuple[float, float, float] = (128.0, 128.0, 128.0)
    card_px: float = 0.0

    def to_dict(self) -> dict:
        return {"index": [round(v, 4) for v in self.index], "polarity": self.polarity,
                "aspect": round(self.aspect, 4),
                "colours": {c: [round(float(v), 5) for v in h] for c, h in self.colours.items()},
                "table_bgr": [round(float(v), 2) for v in self.table_bgr], "card_px": round(self.card_px, 1)}

    @classmethod
    def from_dict(cls, data: dict) -> "CornerDesign":
        """Inverse of to_dict; raises ValueError naming what is wrong on a malformed dict (every value
        checked: index four fractions 0-1 in order, a known polarity, aspect > 0, each colour's histogram
        of HUE_BINS x 3 + 1 numbers >= 0, table_bgr three levels 0-255, card_px >= 0)."""
        if not isinstance(data, dict):
            raise ValueError("corner design: a JSON object expected")
        index = _numbers(data.get("index"), 4, "design index")
        if not (0 <= index[0] < index[2] <= 1 and 0 <= index[1] < index[3] <= 1):
            raise ValueError("design index: x0, y0, x1, y1 card fractions 0-1 with x0 < x1 and y0 < y1")
        if data.get("polarity") not in POLARITIES:
            raise ValueError(f"design polarity: one of {', '.join(POLARITIES)}")
        aspect = _numbers([data.get("aspect")], 1, "design aspect")[0]
        if aspect <= 0:
            raise ValueError("design aspect: a card's height / width, above 0")
        colours = data.get("colours")
        if not isinstance(colours, dict):
            raise ValueError("design colours: a JSON object of colour -> histogram")
        bins = HISTOGRAM_BINS
        histograms = {str(c): np.asarray(_numbers(h, bins, f"design colour {c}"), np.float32) for c, h in colours.items()}
        if any((h < 0).any() for h in histograms.values()):
            raise ValueError("design colours: histogram shares are 0 or more")
        table = _numbers(data.get("table_bgr", [128.0, 128.0, 128.0]), 3, "design table_bgr")
        if not all(0 <= v <= 255 for v in table):
            raise ValueError("design table_bgr: three levels 0-255")
        card_px = _numbers([data.get("card_px", 0.0)], 1, "design card_px")[0]
        if card_px < 0:
            raise ValueError("design card_px: a card's width in pixels, 0 or more")
        return cls(index=tuple(index), polarity=data["polarity"], aspect=aspect, colours=histograms,
                   table_bgr=tuple(table), card_px=card_px)


HISTOGRAM_BINS = HUE_BINS * 3 + 1
"""The numbers of one colour's histogram (vision.cards.colour_model.strip_histogram)."""


def _numbers(value: object, count: int, what: str) -> list[float]:
    """``value`` as ``count`` finite floats of size at most 1e9 (JSON numbers, not true/false); ValueError
    naming ``what``."""
    if (not isinstance(value, list) or len(value) != count
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= 1e9 for v in value)
            or not all(np.isfinite(float(v)) for v in value)):
        raise ValueError(f"{what}: {count} finite number{'s' if count > 1 else ''} expected")
    return [float(v) for v in value]


@dataclass(frozen=True)
class CornerCard:
    """One card read from its corner index: corners (4, 2) frame pixels TL TR BR BL of the whole card
    (extrapolated under a covering card), value 1-10, value_conf 0-1, colour name or None, colour_distance
    (Bhattacharyya 0-1, smaller is closer)."""

    corners: np.ndarray
    value: int
    value_conf: float
    colour: str | None
    colour_distance: float


def _ink(region_bgr: np.ndarray, polarity: str, window: int) -> np.ndarray:
    """uint8 0/255 ink of a region. "dark": pixels at most INK_RATIO of the brightest grey level within
    ``window`` pixels, so a shadow or a darker card does not count; "light": the same on the inverted
    grey; "black": at most half the brightest level and nearly grey (max - min channel under 0.3 of it),
    so a coloured card body round a white index box is not ink."""
    window = max(3, window | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (window, window))
    if polarity == "black":
        value = region_bgr.max(axis=2)
        chroma = (value - region_bgr.min(axis=2)).astype(np.float32)
        background = cv2.dilate(value, kernel).astype(np.float32)
        return ((value < 0.5 * background) & (chroma < 0.3 * background)).astype(np.uint8) * 255
    grey = cv2.cvtColor(region_bgr, cv2.COLOR_BGR2GRAY)
    if polarity == "light":
        grey = 255 - grey
    background = cv2.dilate(grey, kernel)
    return ((grey.astype(np.float32) < INK_RATIO * background.astype(np.float32)).astype(np.uint8)) * 255


def remove_lines(ink: np.ndarray, glyph_h: float) -> np.ndarray:
    """The ink without straight lines: horizontal runs at least 1.2 ``glyph_h`` long and vertical ones at
    least 1.5 ``glyph_h`` (card edges and border bands, longer than any stroke of a digit ``glyph_h`` tall)."""
    horizontal = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, max(3, int(1.2 * glyph_h))), np.uint8))
    vertical = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((max(3, int(1.5 * glyph_h)), 1), np.uint8))
    lines = cv2.dilate(horizontal | vertical, np.ones((3, 3), np.uint8))
    return cv2.bitwise_and(ink, cv2.bitwise_not(lines))


def glyph_candidates(ink: np.ndarray, min_h: float, max_h: float, min_x: float = 0, max_x: float = 1e9,
                     thin_x: tuple[float, float] = (0, 1e9)):
    """Glyphs in a binary ink image: connected pieces min_h..max_h pixels tall, 0.1-1.6 times as wide as
    tall, not touching the image's left or right edge, merged with pieces side by side at the same height
    (a two-digit 10), whose centre x lies in [min_x, max_x]; a thin glyph (narrower than 0.22 of its
    height: a 1 in a narrow font, or a sliver of a card's edge) only with its centre in ``thin_x``.
    Returns a list of (x0, y0, x1, y1, mask) with mask cut to the box."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats((ink > 0).astype(np.uint8), connectivity=8)
    h, w = ink.shape
    parts = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if not min_h <= bh <= max_h or x <= 0 or x + bw >= w or not 0.1 * bh <= bw <= 1.6 * bh \
                or area < 0.08 * bw * bh:
            continue
        if bw < 0.22 * bh and not thin_x[0] <= x + bw / 2 <= thin_x[1]:
            continue
        parts.append(i)
    groups: list[list[int]] = []
    for i in sorted(parts, key=lambda k: stats[k][0]):
        x, y, bw, bh, _ = stats[i]
        for g in groups:
            gx1 = max(stats[k][0] + stats[k][2] for k in g)
            gy0 = min(stats[k][1] for k in g)
            gy1 = max(stats[k][1] + stats[k][3] for k in g)
            overlap = min(gy1, y + bh) - max(gy0, y)
            if overlap > 0.6 * min(bh, gy1 - gy0) and x - gx1 < 0.5 * bh:
                g.append(i)
                break
        else:
            groups.append([i])
    out = []
    for g in groups:
        x0 = min(stats[k][0] for k in g)
        y0 = min(stats[k][1] for k in g)
        x1 = max(stats[k][0] + stats[k][2] for k in g)
        y1 = max(stats[k][1] + stats[k][3] for k in g)
        if not min_x <= (x0 + x1) / 2 <= max_x:
            continue
        mask = np.isin(labels[y0:y1, x0:x1], g).astype(np.uint8) * 255
        out.append((x0, y0, x1, y1, mask))
    return out


def read_index(mask: np.ndarray, max_value: int = 10) -> tuple[int | None, float]:
    """(value 1..max_value or None, confidence 0-1) of an upright corner-index glyph mask: one digit, or
    two digits side by side (10). Scores from vision.cards.digits.glyph_scores (the digit network when
    shipped); a 0 alone is no card value."""
    parts = split_digits(mask)
    if len(parts) == 2:
        a, b = (glyph_scores(p) for p in parts)
        value = 10 * int(a.argmax()) + int(b.argmax())
        if not 10 <= value <= max_value:
            return None, 0.0
        return value, float(min(a.max(), b.max()))
    scores = glyph_scores(mask)
    scores[0] = 0.0
    value = int(scores.argmax())
    if value > max_value:
        return None, 0.0
    return value, float(scores[value])



def _aspect(quad: np.ndarray) -> float:
    (_, _), (a, b), _ = cv2.minAreaRect(np.asarray(quad, np.float32))
    return max(a, b) / max(min(a, b), 1e-6)


def _corner_glyphs(card: np.ndarray, max_value: int) -> dict:
    """The most confident glyph of each (polarity, corner) of an upright card image:
    {(polarity, "left"|"right"): (confidence, value, box fractions (x0, y0, x1, y1))}."""
    h, w = card.shape[:2]
    best = {}
    for polarity in POLARITIES:
        for corner, (x0, x1) in (("left", (0, w // 2)), ("right", (w // 2, w))):
            region = card[: int(0.35 * h), x0:x1]
            ink = remove_lines(_ink(region, polarity, int(0.12 * h)), 0.22 * h)
            for gx0, gy0, gx1, gy1, mask in glyph_candidates(ink, GLYPH_HEIGHT[0] * h, GLYPH_HEIGHT[1] * h):
                value, conf = read_index(mask, max_value)
                if value is None:
                    continue
                box = ((gx0 + x0) / w, gy0 / h, (gx1 + x0) / w, gy1 / h)
                if conf > best.get((polarity, corner), (-1.0,))[0]:
                    best[(polarity, corner)] = (conf, value, box)
    return best


def learn_design(frame_bgr: np.ndarray, calibration, colours: tuple[str, ...], max_value: int = 10) -> CornerDesign:
    """Learn a deck's CornerDesign from a frame with one whole card of each colour in ``colours`` at
    stones 0.. in that order (calibration: a vision.cards.schotten_totten.StCalibration for the stones).

    Raises ValueError unless exactly len(colours) single cards are found, each with a readable corner
    index, and the indices agree on polarity.
    """
    quads = [q for q in find_outlines(frame_bgr, stone_cuts(calibration.stones)) if 1.15 <= _aspect(q) <= 1.9]
    if len(quads) != len(colours):
        raise CalibrationError(f"deck calibration: expected {len(colours)} single cards, found {len(quads)}")
    found = []
    for quad in quads:
        corners = orient_corners(quad, calibration.line_distance)
        card, _ = rectify_with_homography(frame_bgr, corners, WIDTH)
        hist = strip_histogram(card[: int(STRIP * card.shape[0])])
        mid = corners.mean(axis=0)
        found.append((calibration.locate(float(mid[0]), float(mid[1])), _corner_glyphs(card, max_value), hist,
                      card.shape[0] / WIDTH))
    found.sort(key=lambda f: f[0])
    # the polarity and corner where all cards read best together
    kinds = {kind for f in found for kind in f[1]}
    if not kinds:
        raise CalibrationError("deck calibration: no corner value found")
    kind = max(sorted(kinds), key=lambda k: sum(f[1].get(k, (0.0,))[0] for f in found))
    if any(f[1].get(kind, (0.0,))[0] < MIN_CONFIDENCE for f in found):
        raise CalibrationError("deck calibration: a card without a readable corner value")
    boxes = np.array([f[1][kind][2] for f in found])
    index = (float(boxes[:, 0].min()), float(np.median(boxes[:, 1])), float(boxes[:, 2].max()),
             float(np.median(boxes[:, 3])))
    table = table_colour(frame_bgr, quads)
    return CornerDesign(index=index, polarity=kind[0], aspect=float(np.median([f[3] for f in found])),
                        colours={c: f[2] for c, f in zip(colours, found)},
                        table_bgr=tuple(float(v) for v in table),
                        card_px=float(np.median([min(cv2.minAreaRect(q)[1]) for q in quads])))


def find_outlines(frame_bgr: np.ndarray, cuts=(), card_px: float = 0.0) -> list[np.ndarray]:
    """Outer outlines of cards and overlapping columns (each a (4, 2) float32 quad in frame pixels):
    closed edges filled from outside, so a column's inner card edges and artwork do not split it.
    cuts: lines ((x, y), (dx, dy)) in frame pixels drawn through the filled blobs wider than MERGED card
    widths (``card_px``, frame pixels; 0: every blob) before they are outlined (:func:`stone_cuts`:
    columns at neighbouring stones that touch come apart; a column leaning in perspective is not cut).
    Blobs smaller than a card's width (1/40 of the frame's long side) or not roughly rectangular
    (filling less than 0.8 of their quad) are left out."""
    h, w = frame_bgr.shape[:2]
    scale = min(1.0, OUTLINE_SIDE / max(h, w))
    work = cv2.resize(frame_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame_bgr
    work = cv2.GaussianBlur(work, (5, 5), 0)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2Lab)
    edges = np.zeros(work.shape[:2], np.uint8)
    for channel in cv2.split(lab):  # lightness and both colour axes: a yellow border on a beige table
        edges |= cv2.Canny(channel, *OUTLINE_CANNY)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if len(cuts):
        wide = [c for c in contours if card_px <= 0 or min(cv2.minAreaRect(c)[1]) > MERGED * card_px * scale]
        if not wide:
            cuts = ()
        contours = [c for c in contours if not any(c is w for w in wide)]
    if len(cuts):
        filled = np.zeros(work.shape[:2], np.uint8)
        cv2.drawContours(filled, wide, -1, 255, cv2.FILLED)
        reach = 2.0 * max(work.shape[:2])
        for (x, y), (dx, dy) in cuts:
            norm = max(float(np.hypot(dx, dy)), 1e-9)
            ux, uy = dx / norm, dy / norm
            p0 = (int(round((x - reach * ux) * scale)), int(round((y - reach * uy) * scale)))
            p1 = (int(round((x + reach * ux) * scale)), int(round((y + reach * uy) * scale)))
            cv2.line(filled, p0, p1, 0, 3)
        contours = list(contours) + list(cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])
    min_side = max(work.shape[:2]) / 40
    quads = []
    for contour in contours:
        (_, _), (a, b), _ = cv2.minAreaRect(contour)
        if min(a, b) < min_side or max(a, b) / max(min(a, b), 1e-6) > 6.0:
            continue
        quad = _quad_of(contour)
        if cv2.contourArea(contour) < 0.8 * cv2.contourArea(quad):
            continue
        quads.append(quad / scale)
    return quads


def stone_cuts(stones) -> list:
    """Lines between neighbouring stones, across the stone line: ((x, y) the midpoint between two
    stones, (dx, dy) the line's normal) in frame pixels, for :func:`find_outlines`."""
    pts = np.asarray(stones, np.float64)
    cuts = []
    for a, b in zip(pts[:-1], pts[1:]):
        d = b - a
        cuts.append((tuple((a + b) / 2), (-d[1], d[0])))
    return cuts


def read_corner_cards(frame_bgr: np.ndarray, design: CornerDesign, top_distance,
                      max_value: int = 10, cuts=()) -> list[CornerCard]:
    """Every card of ``design`` face up in a BGR frame, single or in overlapping columns (each covered
    card showing at least its corner index). top_distance(x, y): smallest toward each card's top (the
    stone line). cuts: as in :func:`find_outlines`. Returns CornerCards in no particular order."""
    outlines = find_outlines(frame_bgr, cuts, design.card_px)
    gains = balance_gains(frame_bgr, outlines, design.table_bgr)
    ix0, iy0, ix1, iy1 = design.index
    index_h = (iy1 - iy0) * design.aspect * WIDTH
    cards = []
    for quad in outlines:
        corners = orient_corners(quad, top_distance)
        column, m = rectify_with_homography(frame_bgr, corners, WIDTH)
        card_h = design.aspect * WIDTH
        if column.shape[0] < 0.8 * card_h:
            continue
        # the band round the index, wide enough for a card shifted or turned a little in its column
        bx0 = max(1, int((ix0 - 0.1) * WIDTH))
        bx1 = min(WIDTH - 1, int((ix1 + 0.2) * WIDTH))
        ink = remove_lines(_ink(column[:, bx0:bx1], design.polarity, int(0.45 * index_h)), index_h)
        glyphs = glyph_candidates(ink, HEIGHT_TOLERANCE[0] * index_h, HEIGHT_TOLERANCE[1] * index_h,
                                  (ix0 - 0.1) * WIDTH - bx0, (ix1 + 0.1) * WIDTH - bx0,
                                  (ix0 * WIDTH - bx0, ix1 * WIDTH - bx0))
        reads = []
        for gx0, gy0, gx1, gy1, mask in glyphs:
            top = gy0 - iy0 * card_h
            if top < -0.12 * card_h or top > column.shape[0] - 0.85 * card_h:
                continue  # an index lies this far below its card's top: not a card index here
            value, conf = read_index(mask, max_value)
            if value is not None and conf >= MIN_CONFIDENCE:
                reads.append((top, value, conf))
        reads.sort()
        kept = []
        for read in reads:  # one card per index place: keep the more confident of two too close
            if kept and read[0] - kept[-1][0] < MIN_PITCH * card_h:
                if read[2] > kept[-1][2]:
                    kept[-1] = read
                continue
            kept.append(read)
        if not kept:
            continue
        inverse = np.linalg.inv(m)
        balanced_column = balanced(column, gains)
        for k, (top, value, conf) in enumerate(kept):
            bottom = kept[k + 1][0] if k + 1 < len(kept) else top + card_h
            y0 = int(max(0, top + 0.02 * card_h))
            y1 = int(min(column.shape[0], top + STRIP * card_h, max(y0 + 2, bottom)))
            strip = balanced_column[y0:y1]
            colour, dist = nearest_colour(strip_histogram(strip), design.colours)
            rect = np.array([[[0, top], [WIDTH - 1, top], [WIDTH - 1, top + card_h], [0, top + card_h]]],
                            np.float32)
            card_corners = cv2.perspectiveTransform(rect, inverse)[0]
            cards.append(CornerCard(card_corners, value, conf, colour, dist))
    return cards
