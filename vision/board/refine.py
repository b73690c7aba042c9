"""Refining a rough board fit on the printed squares (steps 4-5 of :mod:`vision.board.find`).

The image is warped to a top view of the grid (``scale`` pixels a cell, one cell of margin: grid point
``(col, row)`` at top pixel ``((col + 1.5) * scale, (row + 1.5) * scale)``); an edge map correlated with
a ring of the printed circle's radius scores where circles are. :func:`refine` moves the whole grid to
the circles (optionally), then finds each circle near where it should be and refits the homography
(RANSAC). :func:`snap` corrects a fit one whole cell off by the printed colours.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.board.colour import COLOUR_CLASS, LIGHT
from vision.board.layouts import PrintLayout

# Top-view scale of the refinement (pixels per grid cell) and its search window (cells either side).
REFINE_SCALE = (14, 14, 22)
REFINE_WINDOW = (0.42, 0.3, 0.2)
# RANSAC reprojection threshold in cells (converted to pixels with the local scale).
RANSAC_CELLS = 0.2
# Least ring correlation (TM_CCOEFF_NORMED of the edge map) for a printed circle to count as seen.
MIN_RING_SCORE = 0.12
# A whole-cell move of the fit is taken when it raises the printed-colour agreement by this much.
SNAP_GAIN = 0.04


def circle_cells(layout: PrintLayout) -> np.ndarray:
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


def snap(labels: np.ndarray, hom: np.ndarray, layout: PrintLayout, clockwise: tuple[str, ...]) -> np.ndarray | None:
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


def blank_cells(layout: PrintLayout) -> np.ndarray:
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


def refine(gray: np.ndarray, hom: np.ndarray, cells: np.ndarray, blank: np.ndarray, n: int, scale: int,
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
    px_per_cell = pixels_per_cell(hom, n)
    new, mask = cv2.findHomography(grid_pts, img_pts, cv2.RANSAC, max(1.0, RANSAC_CELLS * px_per_cell))
    if new is None:
        return None
    return new, int(mask.sum())


def pixels_per_cell(hom: np.ndarray, n: int) -> float:
    """Mean image size of one grid cell (pixels) under a homography."""
    pts = np.array([[[0, 0]], [[n - 1, 0]], [[n - 1, n - 1]], [[0, n - 1]]], np.float64)
    img = cv2.perspectiveTransform(pts, hom).reshape(-1, 2)
    return float(np.mean([math.dist(img[i], img[(i + 1) % 4]) for i in range(4)]) / (n - 1))
