"""Which pawn stands where, once the board is found: per place (track square, home square, yard spot).

``read_pieces(frame_bgr, labels, fit, layout) -> list[PawnReading]``. Steps:

1. The camera (:mod:`vision.board.pinhole`) tells where a pawn standing on a place appears: a column of
   sample points from its base up to :data:`PAWN_HEIGHT`, :data:`PAWN_RADIUS` wide.
2. Pawn evidence per pixel and colour: the pixel shows that colour (:mod:`vision.board.colour`) where
   the print under it (:mod:`vision.board.printed`, seen through the homography) is another colour; or,
   over print of the same colour (yard disks, home and start squares), the pixel is more saturated than
   that print is in this frame (pawns are glossier than the print).
3. Score of a colour at a place: the fraction of its column's samples with evidence.
4. Per colour, places are taken greedily by score; the samples of a taken pawn are claimed, so a leaning
   pawn that also covers the next square is not counted twice; at most 4 pawns a colour (ludo.md B.1).

A pawn's confidence grows from 0.5 at the acceptance score to 1 at twice that.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.colour import COLOUR_CLASS, LIGHT, NONE
from vision.board.find import BoardFit
from vision.board.geometry import PAWNS
from vision.board.layouts import PrintLayout
from vision.board.pinhole import camera_matrix, project
from vision.board.printed import print_image, printed_colours, to_top
from vision.observation import PawnReading

# Pawn size in grid cells (the real board's pawns: about 1.5 cells tall, 0.6 wide).
PAWN_HEIGHT, PAWN_RADIUS = 1.5, 0.26
# Least score (fraction of a pawn column's samples with evidence) to report a pawn.
ACCEPT = 0.3
# Top-view scale of the print expectation (pixels per cell).
PRINT_SCALE = 12
# A pixel over print of its own colour counts as a pawn when its saturation exceeds this percentile of
# that print's saturation in the frame, plus SAT_MARGIN.
SAT_PERCENTILE, SAT_MARGIN = 85, 12
# The print's saturation is measured away from where pawns stand (outside a disc of SPOT_CLEAR cells
# round every place): where pawns cover most of a colour's print (three pawns on mensch40's four small
# home squares, an empty yard) the percentile would otherwise be the pawns' own saturation.
SPOT_CLEAR = 0.42
# (and nowhere under a pawn already read in a yard: its whole column is left out)
# Stacks (read_pieces(stacks=True)): a second pawn of a colour is looked for this far (cells) from the
# square's centre, beside the one read there, and taken at this unclaimed-evidence score.
STACK_OFFSET, STACK_ACCEPT = 0.4, 0.3
# Yard spots: radius (cells) of the foot disc looked at, and the least fraction of it in the yard's colour.
YARD_FOOT, YARD_ACCEPT = 0.3, 0.33
# A yard is seen when at least this fraction of its disk shows the disk's colour (else it is covered).
YARD_SEEN = 0.3


def places(layout: PrintLayout, yards: bool = True) -> list[tuple[tuple, tuple[float, float]]]:
    """Places a pawn can stand, with grid point ``(col, row)``: track, home squares (and yard spots)."""
    geo = layout.geometry
    out: list[tuple[tuple, tuple[float, float]]] = [(("track", i), (float(c), float(r)))
                                                     for i, (r, c) in enumerate(geo.track)]
    for colour in layout.clockwise:
        out += [(("home", colour, k), (float(c), float(r))) for k, (r, c) in enumerate(geo.colours[colour].home_column)]
        if yards:
            out += [(("yard", colour, k), (float(c), float(r))) for k, (r, c) in enumerate(layout.yard_spots[colour])]
    return out


def _column_offsets() -> np.ndarray:
    """Sample points of a pawn column relative to its base point: (k, 3) ``(dcol, drow, z)`` in cells."""
    ring = [(0.0, 0.0)] + [(PAWN_RADIUS * np.cos(a), PAWN_RADIUS * np.sin(a))
                           for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)]
    heights = np.linspace(0.1, 0.85 * PAWN_HEIGHT, 5)
    return np.array([(dx, dy, z) for z in heights for dx, dy in ring])


def expected_classes(layout: PrintLayout, fit: BoardFit, shape: tuple[int, int],
                     open_print: bool = False) -> np.ndarray:
    """The print's class at every frame pixel (NONE off the board): (h, w) uint8. ``open_print``: NONE
    also within :data:`SPOT_CLEAR` cells of every place a pawn stands on (the print pawns rarely hide)."""
    _, cls = print_image(layout, fit.clockwise, PRINT_SCALE)
    if open_print:
        cls = cls.copy()
        top = to_top(PRINT_SCALE)
        for _, (col, row) in places(layout):
            x, y, _w = top @ np.array([col, row, 1.0])
            cv2.circle(cls, (int(round(x)), int(round(y))), int(round(SPOT_CLEAR * PRINT_SCALE)), NONE, -1)
    warp = fit.homography @ np.linalg.inv(to_top(PRINT_SCALE))
    return cv2.warpPerspective(cls, warp, (shape[1], shape[0]), flags=cv2.INTER_NEAREST,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=NONE)


def evidence_maps(frame_bgr: np.ndarray, labels: np.ndarray, expected: np.ndarray,
                  reference: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Colour -> bool (h, w) map of pixels that look like a pawn of that colour (step 2 of the module).

    reference: the print classes where the print's own saturation is measured (default ``expected``;
    :func:`read_pieces` gives ``expected_classes(..., open_print=True)``)."""
    sat = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2HSV)[..., 1]
    reference = expected if reference is None else reference
    out = {}
    for colour, cls in COLOUR_CLASS.items():
        seen = labels == cls
        over_print = expected == cls
        ev = seen & ~over_print
        print_sat = sat[seen & (reference == cls)]
        if print_sat.size > 50:
            limit = float(np.percentile(print_sat, SAT_PERCENTILE)) + SAT_MARGIN
            ev |= seen & over_print & (sat > limit)
        out[colour] = cv2.morphologyEx(ev.astype(np.uint8), cv2.MORPH_OPEN, _OPEN).astype(bool)
    return out


_OPEN = np.ones((3, 3), np.uint8)


def read_pieces(frame_bgr: np.ndarray, labels: np.ndarray, fit: BoardFit, layout: PrintLayout,
                stacks: bool = False) -> list[PawnReading]:
    """The pawns on a found board (``fit.found``); see the module docstring. Empty when none is seen.

    stacks: also look for a second pawn of the same colour standing beside one read on a track square
    (ludo.md B.5 / B.7 ``own_stacking`` allowed or ``block``: two pawns share the square side by side);
    it is reported as a second reading of that place. Off by default: where stacks are forbidden a
    second pawn would only be a misreading.
    """
    h, w = labels.shape
    cam = camera_matrix(fit.homography, frame_bgr.shape)
    printed = printed_colours(layout, fit.clockwise)
    yard_pawns = _read_yards(labels, cam, layout, printed, {})
    offsets = _column_offsets()
    expected = expected_classes(layout, fit, (h, w))
    reference = expected_classes(layout, fit, (h, w), open_print=True)
    for pawn in yard_pawns:  # yard pawns (found by their feet) cover much of a small yard disk's print
        row, col = layout.yard_spots[pawn.place[1]][pawn.place[2]]
        hull = cv2.convexHull(np.rint(project(cam, offsets + np.array([col, row, 0.0]))).astype(np.int32))
        cv2.fillConvexPoly(reference, hull.reshape(-1, 2), int(NONE))
    evidence = evidence_maps(frame_bgr, labels, expected, reference)
    where = places(layout, yards=False)
    samples = []  # per place: flat pixel indices of its column's samples (in frame; -1 outside)
    hulls = []  # per place: its column's projected samples, whose outline a pawn read there claims
    centres = []
    for _, (col, row) in where:
        pts = offsets + np.array([col, row, 0.0])
        px = project(cam, pts)
        centre = project(cam, np.array([[col, row, 0.0]]))[0]
        centres.append((float(centre[0]), float(centre[1])))
        x = np.rint(px[:, 0]).astype(int)
        y = np.rint(px[:, 1]).astype(int)
        ok = (x >= 0) & (y >= 0) & (x < w) & (y < h)
        samples.append(np.where(ok, y * w + x, -1))
        hulls.append(px)
    in_yard = taken_by_colour(yard_pawns)
    readings: list[PawnReading] = []
    for colour, ev in evidence.items():
        flat = ev.ravel()
        claimed = np.zeros(h * w, bool)
        # a yard spot or home square only holds pawns of its own colour (ludo.md B.2, B.5)
        scores = np.array([_score(flat, claimed, s) if p[0] == "track" or printed[p[1]] == colour else 0.0
                           for (p, _), s in zip(where, samples, strict=True)])
        taken = in_yard.get(colour, 0)
        for i in np.argsort(-scores):
            if taken >= PAWNS or scores[i] < ACCEPT:
                break
            score = _score(flat, claimed, samples[i])  # again: an earlier pawn may have claimed its pixels
            if score < ACCEPT:
                continue
            place = where[i][0]
            confidence = float(min(1.0, 0.5 + 0.5 * (score - ACCEPT) / ACCEPT))
            readings.append(PawnReading(place, colour, float(score), confidence, centres[i]))
            _claim(claimed, hulls[i], (h, w))
            taken += 1
        if stacks:
            for r in [r for r in readings if r.colour == colour and r.place[0] == "track"]:
                if taken >= PAWNS:
                    break
                second = _second_pawn(flat, claimed, cam, offsets, layout, r, (h, w))
                if second is not None:
                    readings.append(second)
                    taken += 1
    return yard_pawns + readings


def _second_pawn(flat: np.ndarray, claimed: np.ndarray, cam: np.ndarray, offsets: np.ndarray, layout: PrintLayout,
                 first: PawnReading, shape: tuple[int, int]) -> PawnReading | None:
    """A pawn of ``first``'s colour beside it on the same track square: a pawn column :data:`STACK_OFFSET`
    cells off the square's centre (four directions) with unclaimed evidence of :data:`STACK_ACCEPT`."""
    h, w = shape
    row, col = layout.geometry.track[first.place[1]]
    best, best_px = 0.0, None
    for dc, dr in ((STACK_OFFSET, 0.0), (-STACK_OFFSET, 0.0), (0.0, STACK_OFFSET), (0.0, -STACK_OFFSET)):
        px = project(cam, offsets + np.array([col + dc, row + dr, 0.0]))
        x, y = np.rint(px[:, 0]).astype(int), np.rint(px[:, 1]).astype(int)
        ok = (x >= 0) & (y >= 0) & (x < w) & (y < h)
        score = _score(flat, claimed, np.where(ok, y * w + x, -1))
        if score > best:
            best, best_px = score, px
    if best < STACK_ACCEPT or best_px is None:
        return None
    _claim(claimed, best_px, shape)
    confidence = float(min(1.0, 0.5 + 0.5 * (best - STACK_ACCEPT) / STACK_ACCEPT))
    return PawnReading(first.place, first.colour, best, confidence, first.pixel)


def _claim(claimed: np.ndarray, px: np.ndarray, shape: tuple[int, int]) -> None:
    """Mark the convex outline of a pawn column's projected samples ``px`` (k, 2) in the flat ``claimed``."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(np.rint(px).astype(np.int32).reshape(-1, 1, 2)), 1)
    claimed |= mask.ravel().astype(bool)


def hidden_yards(labels: np.ndarray, fit: BoardFit, layout: PrintLayout) -> set[str]:
    """Printed colours whose yard disk is covered (a hand over it): under :data:`YARD_SEEN` of the points on
    two rings inside the disk (away from the spots) show the disk's colour. The real photos: 0.0 for the
    yard under the hand, 0.48-0.98 for the others."""
    printed = printed_colours(layout, fit.clockwise)
    h, w = labels.shape
    out = set()
    angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    for colour in layout.clockwise:
        cr, cc = layout.yard_centre[colour]
        pts = np.array([(cc + f * layout.yard_radius * np.cos(a), cr + f * layout.yard_radius * np.sin(a))
                        for f in (0.35, 0.9) for a in angles], np.float64)
        img = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), fit.homography).reshape(-1, 2)
        x = np.rint(img[:, 0]).astype(int)
        y = np.rint(img[:, 1]).astype(int)
        ok = (x >= 0) & (y >= 0) & (x < w) & (y < h)
        seen = np.count_nonzero(labels[y[ok], x[ok]] == COLOUR_CLASS[printed[colour]]) / len(pts)
        if seen < YARD_SEEN:
            out.add(printed[colour])
    return out


def taken_by_colour(readings: list[PawnReading]) -> dict[str, int]:
    """Pawns read per colour."""
    out: dict[str, int] = {}
    for r in readings:
        out[r.colour] = out.get(r.colour, 0) + 1
    return out


def _read_yards(labels: np.ndarray, cam: np.ndarray, layout: PrintLayout, printed: dict[str, str],
                taken: dict[str, int]) -> list[PawnReading]:
    """Pawns on the yard spots: a spot is taken when the disc at its foot shows the yard's colour.

    A pawn covers the light spot it stands on from any view from above; score = fraction of the foot
    disc (radius :data:`YARD_FOOT` cells) in the yard's colour, accepted from :data:`YARD_ACCEPT` while at
    most half the disc is light. At most 4 pawns a colour in all (ludo.md B.1).
    """
    h, w = labels.shape
    disc = np.array([(dx, dy, 0.0) for dx in np.linspace(-YARD_FOOT, YARD_FOOT, 7)
                     for dy in np.linspace(-YARD_FOOT, YARD_FOOT, 7) if dx * dx + dy * dy <= YARD_FOOT ** 2 + 1e-9])
    out = []
    for colour in layout.clockwise:
        shown = printed[colour]
        found = []
        for k, (row, col) in enumerate(layout.yard_spots[colour]):
            px = np.rint(project(cam, disc + np.array([col, row, 0.0]))).astype(int)
            ok = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < w) & (px[:, 1] < h)
            if not ok.any():
                continue
            vals = labels[px[ok, 1], px[ok, 0]]
            score = float(np.count_nonzero(vals == COLOUR_CLASS[shown])) / len(disc)
            light = float(np.count_nonzero(vals == LIGHT)) / len(disc)
            if score >= YARD_ACCEPT and light <= 0.5:
                centre = project(cam, np.array([[col, row, 0.0]]))[0]
                conf = float(min(1.0, 0.5 + 0.5 * (score - YARD_ACCEPT) / (1 - YARD_ACCEPT)))
                found.append(PawnReading(("yard", colour, k), shown, score, conf, (float(centre[0]), float(centre[1]))))
        found.sort(key=lambda r: -r.score)
        out += found[: max(0, PAWNS - taken.get(shown, 0))]
    return out


def _score(flat: np.ndarray, claimed: np.ndarray, s: np.ndarray) -> float:
    """Fraction of a column's samples with unclaimed evidence (samples outside the frame count as none)."""
    inside = s[s >= 0]
    if inside.size == 0:
        return 0.0
    return float(np.count_nonzero(flat[inside] & ~claimed[inside])) / len(s)


__all__ = ["PawnReading", "places", "read_pieces", "evidence_maps", "expected_classes"]
