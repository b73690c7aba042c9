"""Find a Ludo board in a photo with no markers: the homography from the geometry's grid to the image.

``find_board(frame_bgr, layout) -> BoardFit``. Steps:

1. The four yard disks are the largest coloured areas of the board: per colour, the connected area of
   that colour (:mod:`vision.board_colour`) with the largest inscribed circle (a distance transform, so
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
:mod:`vision.board_layouts`) to frame pixels ``(x, y, 1)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.board_colour import COLOUR_CLASS, LIGHT, classify
from vision.board_layouts import PrintLayout

# Top-view scale of the refinement (pixels per grid cell) and its search window (cells either side).
REFINE_SCALE = (14, 14, 22)
REFINE_WINDOW = (0.42, 0.3, 0.2)
# RANSAC reprojection threshold in cells (converted to pixels with the local scale).
RANSAC_CELLS = 0.2
# Least ring correlation (TM_CCOEFF_NORMED of the edge map) for a printed circle to count as seen.
MIN_RING_SCORE = 0.12
# Yard disks are looked for on the colour classes shrunk to this short side (pixels): plenty for disks
# a tenth of the board, and the large morphology stays cheap.
DISK_SIDE = 320
# A yard disk's inscribed circle must be at least this fraction of the frame's short side.
MIN_DISK_FRACTION = 0.025
# A whole-cell move of the fit is taken when it raises the printed-colour agreement by this much.
SNAP_GAIN = 0.04
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

    labels: the frame's :func:`vision.board_colour.classify` result when the caller has it already.
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
    cells = _circle_cells(layout)
    inliers = 0
    blank = _blank_cells(layout)
    for i, (scale, window) in enumerate(zip(REFINE_SCALE, REFINE_WINDOW, strict=True)):
        refined = _refine(gray, hom, cells, blank, layout.geometry.grid_size, scale, window, search=i == 0)
        if refined is None:
            break
        hom, inliers = refined
    snapped = _snap(labels, hom, layout, clockwise)
    if snapped is not None:
        hom = snapped
        refined = _refine(gray, hom, cells, blank, layout.geometry.grid_size, REFINE_SCALE[-1], REFINE_WINDOW[-1],
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

    Per colour: the filled area with the largest inscribed circle; opened with a kernel half that circle's
    radius (cuts shadow streaks and thin touching shapes off), its convex hull (fills notches that pawns and
    shadows cut) fitted with an ellipse. A disk much smaller than the largest one (a home square found
    because the yard is covered) is dropped.
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
        k = max(3, int(r) | 1)
        opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        n, comp = cv2.connectedComponents(opened)
        label = comp[loc[1], loc[0]]
        if label == 0:
            continue
        pts = cv2.findNonZero((comp == label).astype(np.uint8))
        hull = cv2.convexHull(pts)
        if len(hull) >= 5:
            (x, y), (a, b), _ = cv2.fitEllipse(hull)
            x, y, r = x, y, min(a, b) / 2
        else:
            x, y = loc
        out[colour] = (float(x) / shrink, float(y) / shrink, float(r) / shrink)
    if out:
        largest = max(d[2] for d in out.values())
        out = {c: d for c, d in out.items() if d[2] >= 0.45 * largest}
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


def _circle_cells(layout: PrintLayout) -> np.ndarray:
    """Grid points (col, row) of every printed square circle: track and home squares; shape (n, 2)."""
    geo = layout.geometry
    cells = list(geo.track) + [cell for c in geo.colours.values() for cell in c.home_column]
    return np.array([[c, r] for r, c in cells], np.float64)


def _print_cells(layout: PrintLayout, clockwise: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Grid points (col, row) of every track and home square and the class printed there
    (a colour class for home and start squares, LIGHT for the rest)."""
    geo = layout.geometry
    printed = {layout.clockwise[i]: clockwise[i] for i in range(4)}
    starts = {geo.colours[c].start_offset: printed[c] for c in layout.clockwise}
    pts, cls = [], []
    for i, (r, c) in enumerate(geo.track):
        pts.append((c, r))
        cls.append(COLOUR_CLASS[starts[i]] if i in starts else LIGHT)
    for colour in layout.clockwise:
        for r, c in geo.colours[colour].home_column:
            pts.append((c, r))
            cls.append(COLOUR_CLASS[printed[colour]])
    return np.array(pts, np.float64), np.array(cls)


def _snap(labels: np.ndarray, hom: np.ndarray, layout: PrintLayout, clockwise: tuple[str, ...]) -> np.ndarray | None:
    """The homography moved by a whole cell when that makes the printed colours agree better, else None.

    The track is periodic, so the circles alone can be matched one cell off along an arm; the coloured
    home and start squares are not. Agreement: the fraction of squares whose centre shows the printed
    colour class (coloured squares) or no colour (plain squares).
    """
    pts, cls = _print_cells(layout, clockwise)
    coloured = cls != LIGHT
    h, w = labels.shape
    ring = np.array([(0, 0), (0.15, 0), (-0.15, 0), (0, 0.15), (0, -0.15)])

    def agreement(dx: float, dy: float) -> float:
        sample = (pts[:, None, :] + ring[None] + np.array([dx, dy])).reshape(-1, 1, 2)
        img = cv2.perspectiveTransform(sample, hom).reshape(len(pts), len(ring), 2)
        x = np.rint(img[..., 0]).astype(int).clip(0, w - 1)
        y = np.rint(img[..., 1]).astype(int).clip(0, h - 1)
        seen = labels[y, x]
        is_colour = np.isin(seen, list(COLOUR_CLASS.values()))
        ok = np.where(coloured[:, None], seen == cls[:, None], ~is_colour)
        return float(ok.mean())

    here = agreement(0.0, 0.0)
    best, shift = here, (0.0, 0.0)
    for dx in (-1.0, 0.0, 1.0):
        for dy in (-1.0, 0.0, 1.0):
            a = agreement(dx, dy)
            if a > best:
                best, shift = a, (dx, dy)
    if best < here + SNAP_GAIN:
        return None
    move = np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]], np.float64)
    return hom @ move


def _blank_cells(layout: PrintLayout) -> np.ndarray:
    """Grid points (col, row) where nothing round is printed: the centre and every cell that is not a
    track or home square, not in a yard disk and not on the grid's edge; shape (n, 2)."""
    geo = layout.geometry
    used = set(geo.track) | {cell for c in geo.colours.values() for cell in c.home_column}
    out = [(c, r) for r, c in geo.centre]
    n = geo.grid_size
    for r in range(1, n - 1):
        for c in range(1, n - 1):
            if (r, c) in used or (r, c) in geo.centre:
                continue
            near_yard = any(math.hypot(r - yr, c - yc) < layout.yard_radius + 0.6
                            for yr, yc in layout.yard_centre.values())
            near_track = any(abs(r - tr) + abs(c - tc) <= 1 for tr, tc in used)
            if not near_yard and not near_track:
                out.append((c, r))
    return np.array(out, np.float64)


def _ring(scale: int, radius_cells: float) -> np.ndarray:
    """A ring template (float32, zero mean) of the printed circle's edge at ``scale`` pixels per cell."""
    size = int(round(scale * 1.3)) | 1
    t = np.zeros((size, size), np.float32)
    c = size // 2
    cv2.circle(t, (c, c), int(round(radius_cells * scale)), 1.0, max(2, scale // 6), lineType=cv2.LINE_AA)
    return t - t.mean()


def _top_response(gray: np.ndarray, hom: np.ndarray, n: int, scale: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Ring response of a top view of the grid: (response map, warp frame -> top view, template half size).

    The top view has ``scale`` pixels per cell and one cell of margin: grid point (col, row) sits at top
    pixel ``((col + 1.5) * scale, (row + 1.5) * scale)``; ``response[v - half, u - half]`` scores a printed
    circle centred on top pixel (u, v), -1..1.
    """
    margin = 1.0
    side = int(round((n + 2 * margin) * scale))
    to_canon = np.array([[scale, 0, (0.5 + margin) * scale], [0, scale, (0.5 + margin) * scale], [0, 0, 1]],
                        np.float64)
    warp = to_canon @ np.linalg.inv(hom)
    top = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    top = top.astype(np.float32)
    gx = cv2.Sobel(top, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(top, cv2.CV_32F, 0, 1, ksize=3)
    edges = cv2.GaussianBlur(cv2.magnitude(gx, gy), (3, 3), 0)
    tmpl = _ring(scale, 0.45)
    resp = cv2.matchTemplate(edges, tmpl, cv2.TM_CCOEFF_NORMED)
    return resp, warp, tmpl.shape[0] // 2


def _sample(dil: np.ndarray, pts: np.ndarray, scale: int, half: int) -> np.ndarray:
    """Response ``dil`` (the ring response dilated 3x3) at grid points ``pts`` (..., 2) (col, row); -1 outside."""
    u = np.rint((pts[..., 0] + 1.5) * scale - half).astype(int)
    v = np.rint((pts[..., 1] + 1.5) * scale - half).astype(int)
    h, w = dil.shape
    ok = (u >= 0) & (v >= 0) & (u < w) & (v < h)
    return np.where(ok, dil[v.clip(0, h - 1), u.clip(0, w - 1)], -1.0)


def _search(resp: np.ndarray, cells: np.ndarray, blank: np.ndarray, n: int, scale: int,
            half: int) -> np.ndarray:
    """The grid-to-grid similarity (3x3) that best puts ring responses on the circles and off ``blank``.

    Tries shifts up to one cell, scales 0.92-1.08 and turns of up to 6 degrees about the grid centre.
    Score: mean response on the circles minus mean response on the blank cells (the centre area).
    """
    c = (n - 1) / 2.0
    dil = cv2.dilate(resp, np.ones((3, 3), np.uint8))
    best, best_a = -np.inf, np.eye(3)
    shifts = np.arange(-1.0, 1.01, 0.25)
    dxy = np.array([(dx, dy) for dx in shifts for dy in shifts])  # (s, 2)
    for ang in np.radians([-6, -3, 0, 3, 6]):
        for sc in (0.92, 0.96, 1.0, 1.04, 1.08):
            ca, sa = sc * math.cos(ang), sc * math.sin(ang)
            lin = np.array([[ca, -sa], [sa, ca]])
            rc = (cells - c) @ lin.T + c
            rb = (blank - c) @ lin.T + c
            on = _sample(dil, rc[None] + dxy[:, None], scale, half).mean(axis=1)
            off = _sample(dil, rb[None] + dxy[:, None], scale, half).mean(axis=1) if len(rb) else 0.0
            score = on - off
            k = int(np.argmax(score))
            if score[k] > best:
                best = float(score[k])
                dx, dy = dxy[k]
                best_a = np.array([[ca, -sa, c - ca * c + sa * c + dx],
                                   [sa, ca, c - sa * c - ca * c + dy], [0, 0, 1]])
    return best_a


def _refine(gray: np.ndarray, hom: np.ndarray, cells: np.ndarray, blank: np.ndarray, n: int, scale: int,
            window: float, search: bool) -> tuple[np.ndarray, int] | None:
    """One refinement round: look for each circle in a top view, refit; (homography, inliers) or None.

    search: first move the whole grid to where the circles are (:func:`_search`), for a start that may be
    off by up to a cell.
    """
    if search:
        resp, warp, half = _top_response(gray, hom, n, scale)
        hom = hom @ _search(resp, cells, blank, n, scale, half)
    resp, warp, half = _top_response(gray, hom, n, scale)
    w = max(1, int(round(window * scale)))
    found_grid, found_img = [], []
    for col, row in cells:
        u = (col + 1.5) * scale - half
        v = (row + 1.5) * scale - half
        x0, y0 = int(round(u)) - w, int(round(v)) - w
        x1, y1 = x0 + 2 * w + 1, y0 + 2 * w + 1
        if x0 < 0 or y0 < 0 or x1 > resp.shape[1] or y1 > resp.shape[0]:
            continue
        _, best, _, loc = cv2.minMaxLoc(resp[y0:y1, x0:x1])
        if best < MIN_RING_SCORE:
            continue
        found_grid.append((col, row))
        found_img.append((x0 + loc[0] + half, y0 + loc[1] + half))
    if len(found_grid) < 8:
        return None
    canon = np.array(found_img, np.float64).reshape(-1, 1, 2)
    img_pts = cv2.perspectiveTransform(canon, np.linalg.inv(warp)).reshape(-1, 2)
    grid_pts = np.array(found_grid, np.float64)
    px_per_cell = _pixels_per_cell(hom, n)
    new, mask = cv2.findHomography(grid_pts, img_pts, cv2.RANSAC, max(1.0, RANSAC_CELLS * px_per_cell))
    if new is None:
        return None
    return new, int(mask.sum())


def _pixels_per_cell(hom: np.ndarray, n: int) -> float:
    """Mean image size of one grid cell (pixels) under a homography."""
    pts = np.array([[[0, 0]], [[n - 1, 0]], [[n - 1, n - 1]], [[0, n - 1]]], np.float64)
    img = cv2.perspectiveTransform(pts, hom).reshape(-1, 2)
    return float(np.mean([math.dist(img[i], img[(i + 1) % 4]) for i in range(4)]) / (n - 1))


def _plausible(hom: np.ndarray, shape: tuple[int, ...], n: int) -> bool:
    """The grid maps to a convex quadrilateral of sensible size that keeps its orientation."""
    pts = np.array([[[0, 0]], [[n - 1, 0]], [[n - 1, n - 1]], [[0, n - 1]]], np.float64)
    img = cv2.perspectiveTransform(pts, hom).reshape(-1, 2).astype(np.float32)
    if not cv2.isContourConvex(img):
        return False
    area = cv2.contourArea(img, oriented=True)
    return bool(area > 0 and area > 0.002 * shape[0] * shape[1] and _pixels_per_cell(hom, n) > 3)
