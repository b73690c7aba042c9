"""Find a Ludo board in a photo with no markers: the homography from the geometry's grid to the image.

``find_board(frame_bgr, layout) -> BoardFit``. Steps:

1. The four yard disks are the largest coloured areas of the board: per colour, the connected area of
   that colour (:mod:`vision.board.colour`) with the largest inscribed circle (a distance transform, so
   shadow streaks and pawns touching the disk do not move it) gives the disk's centre.
2. Orientation: the disks, taken clockwise round their mean, are put on the layout's yard corners with
   red's disk on red's corner (so the track index 0 is red's start square, ludo.md B.2), whatever way the
   board is turned in the picture. The order of the colours as printed is kept (``clockwise``): a board
   whose colours sit in another order than the geometry's is still read, each colour by its own yard.
   Three disks are enough (a hand over the fourth): the corner of each follows from its angle.
3. First homography from the disk centres to the layout's yard centres (4 points: perspective; 3: affine).
4. Refinement: the image is warped to a top view of the grid, every track and home square's printed
   circle is looked for near where it should be (edge map correlated with a ring), and the homography is
   fitted again to the circles found (RANSAC); twice.

Coordinates: the homography maps grid points ``(col, row, 1)`` (cell centres at integers, see
:mod:`vision.board.layouts`) to frame pixels ``(x, y, 1)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.board.colour import COLOUR_CLASS, classify
from vision.board.layouts import PrintLayout
from vision.board.refine import REFINE_SCALE, REFINE_WINDOW, blank_cells, circle_cells, pixels_per_cell, refine, snap

# Yard disks are looked for on the colour classes shrunk to this short side (pixels): plenty for disks
# a tenth of the board, and the large morphology stays cheap.
DISK_SIDE = 320
# A yard disk's inscribed circle must be at least this fraction of the frame's short side.
MIN_DISK_FRACTION = 0.025
# The disk's area is opened with a kernel this fraction of its inscribed radius (cuts streaks off;
# smaller kernels are faster but let the long shadows of the real photos pull the disk off centre).
OPEN_FRACTION = 1.0
# A yard disk must fill this fraction of the ellipse fitted to it (pawns and shadows cut notches).
MIN_DISK_FILL = 0.7
# Yard disks kept: radius within these multiples of the median disk radius.
DISK_RATIO = (0.45, 1.7)
# A fit with fewer inlier circles than this fraction of the track and home squares is "not found".
MIN_INLIER_FRACTION = 0.35


@dataclass(frozen=True)
class BoardFit:
    """Where the board is in a frame.

    homography: 3x3 float64, grid ``(col, row, 1)`` -> frame pixels; None when not found.
    clockwise: the colours clockwise from red as printed on the board in the photo (e.g. red, blue,
    yellow, green on the real photos' board); empty when not found.
    yards_found: yard disks seen (0-4). inliers / squares: printed circles matched / looked for.
    confidence: 0-1 (inlier fraction, less when a yard disk was missing). problem: why not found, or None.
    """

    homography: np.ndarray | None
    clockwise: tuple[str, ...]
    yards_found: int
    inliers: int
    squares: int
    confidence: float
    problem: str | None = None

    @property
    def found(self) -> bool:
        return self.homography is not None


def find_board(frame_bgr: np.ndarray, layout: PrintLayout, labels: np.ndarray | None = None) -> BoardFit:
    """Fit the layout's grid to a BGR uint8 frame (h, w, 3); see the module docstring.

    labels: the frame's :func:`vision.board.colour.classify` result when the caller has it already.
    Never raises for image content; a board not seen gives ``homography=None`` and ``problem`` set.
    """
    if labels is None:
        labels = classify(frame_bgr)
    disks = _yard_disks(labels)
    if len(disks) < 3:
        return BoardFit(None, (), len(disks), 0, 0, 0.0, f"only {len(disks)} yard disk(s) seen, need 3")
    corners = _corner_order(disks, layout)
    if corners is None:
        return BoardFit(None, (), len(disks), 0, 0, 0.0, "yard disks not in a square")
    clockwise = _printed_order(corners, layout)
    src = np.array([[layout.yard_centre[layout.clockwise[i]][1], layout.yard_centre[layout.clockwise[i]][0]]
                    for i in sorted(corners)], np.float64)
    dst = np.array([disks[corners[i]][:2] for i in sorted(corners)], np.float64)
    if len(src) == 4:
        hom = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)).astype(np.float64)
    else:
        aff = cv2.getAffineTransform(src.astype(np.float32), dst.astype(np.float32)).astype(np.float64)
        hom = np.vstack([aff, [0.0, 0.0, 1.0]])
    gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    cells = circle_cells(layout)
    inliers = 0
    blank = blank_cells(layout)
    for i, (scale, window) in enumerate(zip(REFINE_SCALE, REFINE_WINDOW, strict=True)):
        refined = refine(gray, hom, cells, blank, layout.geometry.grid_size, scale, window, search=i == 0)
        if refined is None:
            break
        hom, inliers = refined
    snapped = snap(labels, hom, layout, clockwise)
    if snapped is not None:
        hom = snapped
        refined = refine(gray, hom, cells, blank, layout.geometry.grid_size, REFINE_SCALE[-1], REFINE_WINDOW[-1],
                          search=False)
        if refined is not None:
            hom, inliers = refined
    if not _plausible(hom, frame_bgr.shape, layout.geometry.grid_size):
        return BoardFit(None, (), len(disks), inliers, len(cells), 0.0, "board fit is implausible")
    confidence = min(1.0, inliers / (0.8 * len(cells))) * (1.0 if len(disks) == 4 else 0.8)
    if inliers < MIN_INLIER_FRACTION * len(cells):
        return BoardFit(None, clockwise, len(disks), inliers, len(cells), confidence,
                        f"only {inliers} of {len(cells)} printed squares matched")
    return BoardFit(hom, clockwise, len(disks), inliers, len(cells), confidence)


def _yard_disks(labels: np.ndarray) -> dict[str, tuple[float, float, float]]:
    """Colour -> (x, y, radius) of that colour's yard disk (frame pixels), where one is seen.

    Per colour (on the classes shrunk to DISK_SIDE): the filled area with the largest inscribed circle,
    opened with a kernel OPEN_FRACTION of that circle's radius (cuts shadow streaks and thin touching
    shapes off); its convex hull (fills notches that pawns and shadows cut) fitted with an ellipse, which
    it must fill (MIN_DISK_FILL). A disk much smaller (a home square found because the yard is covered)
    or much larger (a table of that colour) than the median disk is dropped (DISK_RATIO).
    """
    shrink = min(1.0, DISK_SIDE / min(labels.shape))
    if shrink < 1.0:
        labels = cv2.resize(labels, (round(labels.shape[1] * shrink), round(labels.shape[0] * shrink)),
                            interpolation=cv2.INTER_NEAREST)
    min_r = MIN_DISK_FRACTION * min(labels.shape)
    kernel = np.ones((3, 3), np.uint8)
    out: dict[str, tuple[float, float, float]] = {}
    for colour, cls in COLOUR_CLASS.items():
        mask = (labels == cls).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        big = [c for c in contours if cv2.contourArea(c) >= math.pi * min_r * min_r]
        if not big:
            continue
        filled = np.zeros_like(mask)
        cv2.drawContours(filled, big, -1, 1, thickness=cv2.FILLED)
        dist = cv2.distanceTransform(filled, cv2.DIST_L2, 5)
        _, r, _, loc = cv2.minMaxLoc(dist)
        if r < min_r:
            continue
        k = max(3, int(OPEN_FRACTION * r) | 1)
        opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        n, comp = cv2.connectedComponents(opened)
        label = comp[loc[1], loc[0]]
        if label == 0:
            continue
        pts = cv2.findNonZero((comp == label).astype(np.uint8))
        hull = cv2.convexHull(pts)
        if len(hull) >= 5:
            (x, y), (a, b), _ = cv2.fitEllipse(hull)
            # a disk seen in perspective is an ellipse it fills; a patch of table or shadow is not
            if min(a, b) < 0.4 * max(a, b) or len(pts) < MIN_DISK_FILL * math.pi * a * b / 4:
                continue
            x, y, r = x, y, min(a, b) / 2
        else:
            x, y = loc
        out[colour] = (float(x) / shrink, float(y) / shrink, float(r) / shrink)
    if len(out) >= 3:
        typical = float(np.median([d[2] for d in out.values()]))
        out = {c: d for c, d in out.items() if DISK_RATIO[0] * typical <= d[2] <= DISK_RATIO[1] * typical}
    return out


def _corner_order(disks: dict[str, tuple[float, float, float]], layout: PrintLayout) -> dict[int, str] | None:
    """Corner index (0 = red's corner, then clockwise as in ``layout.clockwise``) -> colour of the disk there.

    The disks' angles round their mean (clockwise on screen, y down) are rounded to quarter turns from
    the anchor disk (red, or the first colour of the layout's order that was seen). None when two disks
    land on one corner or the angles are far from quarter turns.
    """
    order = layout.clockwise
    anchor = next(c for c in order if c in disks)
    mx = np.mean([d[0] for d in disks.values()])
    my = np.mean([d[1] for d in disks.values()])
    if len(disks) == 3:
        # The mean of three corners is off the centre; the centre is the midpoint of the two far apart.
        pts = list(disks.values())
        pairs = [(i, j) for i in range(3) for j in range(i + 1, 3)]
        i, j = max(pairs, key=lambda p: math.dist(pts[p[0]][:2], pts[p[1]][:2]))
        mx, my = (pts[i][0] + pts[j][0]) / 2, (pts[i][1] + pts[j][1]) / 2
    base = math.atan2(disks[anchor][1] - my, disks[anchor][0] - mx)
    corners: dict[int, str] = {}
    for colour, (x, y, _) in disks.items():
        turn = (math.atan2(y - my, x - mx) - base) / (math.pi / 2)
        k = round(turn)
        if abs(turn - k) > 0.4:
            return None
        idx = (order.index(anchor) + k) % 4
        if idx in corners:
            return None
        corners[idx] = colour
    return corners


def _printed_order(corners: dict[int, str], layout: PrintLayout) -> tuple[str, ...]:
    """The colours clockwise from red as printed, where seen; a missing corner keeps the layout's colour."""
    seen = [corners.get(i, layout.clockwise[i]) for i in range(4)]
    if len(set(seen)) < 4:  # a missing colour was seen elsewhere: fill the gap with the one not seen
        missing = [c for c in layout.clockwise if c not in corners.values()]
        seen = [corners.get(i) or missing.pop() for i in range(4)]
    start = seen.index("red")
    return tuple(seen[start:] + seen[:start])


def _plausible(hom: np.ndarray, shape: tuple[int, ...], n: int) -> bool:
    """The grid maps to a convex quadrilateral of sensible size that keeps its orientation."""
    pts = np.array([[[0, 0]], [[n - 1, 0]], [[n - 1, n - 1]], [[0, n - 1]]], np.float64)
    img = cv2.perspectiveTransform(pts, hom).reshape(-1, 2).astype(np.float32)
    if not cv2.isContourConvex(img):
        return False
    area = cv2.contourArea(img, oriented=True)
    return bool(area > 0 and area > 0.002 * shape[0] * shape[1] and pixels_per_cell(hom, n) > 3)
