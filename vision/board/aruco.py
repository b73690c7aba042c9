"""Optional aid for finding the board: four printed ArUco stickers at the board's corners.

The reader needs no markers (:mod:`vision.board.find` finds the board by its yard disks and printed
circles), but a hand over two yards, a board mostly out of view or a print the finder does not know can
defeat it. Players who want a sure fit print :func:`marker_sheet` and put sticker ``k`` on the table
beside corner ``k`` of the board: 0 at red's yard, then clockwise (1 at the next yard clockwise, ...),
each sticker upright in the board's own frame (its top edge parallel to the side of the board along
red's yard, facing away from the board's centre on that side).

Grid placement: marker ``k`` is a square :data:`MARKER_CELLS` cells a side centred
:data:`MARKER_OFFSET` cells outside the grid's corner along both axes (on the table beyond the print's
1-cell margin). :func:`find_markers` returns the grid-to-image homography from every corner of the
stickers seen (two stickers, 8 points, are enough); :func:`marker_fit` turns it into a
:class:`vision.board.find.BoardFit`, reading the printed colour order from the yard disks.
Dictionary: OpenCV's ``DICT_4X4_50``, ids 0-3.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.colour import CLASSES, COLOUR_CLASS
from vision.board.find import BoardFit
from vision.board.layouts import PrintLayout

DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
# Sticker side (black square, without its white border) in grid cells, and how far its centre lies
# outside the grid's corner cell centre, along both axes, in cells.
MARKER_CELLS, MARKER_OFFSET = 2.0, 2.6
# Least stickers seen to trust the fit.
MIN_MARKERS = 2


def marker_centres(grid_size: int) -> dict[int, tuple[float, float]]:
    """Sticker id -> its centre ``(col, row)`` in grid cells (clockwise from the (0, 0) corner)."""
    lo, hi = -MARKER_OFFSET, grid_size - 1 + MARKER_OFFSET
    return {0: (lo, lo), 1: (hi, lo), 2: (hi, hi), 3: (lo, hi)}


def marker_corners(grid_size: int) -> dict[int, np.ndarray]:
    """Sticker id -> its 4 corners ``(col, row)`` in OpenCV's order (top-left, top-right, bottom-right,
    bottom-left of the upright marker): (4, 2) float64."""
    half = MARKER_CELLS / 2
    box = np.array([[-half, -half], [half, -half], [half, half], [-half, half]], np.float64)
    return {k: box + np.array(c) for k, c in marker_centres(grid_size).items()}


def marker_image(marker_id: int, pixels: int) -> np.ndarray:
    """The sticker ``marker_id`` as a grey uint8 (pixels, pixels) image with a white border of 1/6 its side
    (the black square is 2/3 of ``pixels``)."""
    inner = int(round(pixels * 2 / 3))
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    if hasattr(cv2.aruco, "generateImageMarker"):
        code = cv2.aruco.generateImageMarker(dictionary, marker_id, inner)
    else:  # OpenCV before 4.7 (Debian Bookworm's 4.6)
        code = cv2.aruco.drawMarker(dictionary, marker_id, inner)
    out = np.full((pixels, pixels), 255, np.uint8)
    o = (pixels - inner) // 2
    out[o:o + inner, o:o + inner] = code
    return out


def marker_sheet(pixels: int = 300) -> np.ndarray:
    """A printable sheet of the four stickers in a row (grey uint8, ``pixels`` high), ids 0-3 left to right.
    Print it so each black square is :data:`MARKER_CELLS` board cells wide."""
    return np.hstack([marker_image(k, pixels) for k in MARKER_IDS])


def _detect(gray: np.ndarray) -> tuple[tuple, np.ndarray | None]:
    """(the corners of each marker found, their ids (n, 1) or None) in a grey image, with sub-pixel
    corners. OpenCV 4.7 made the detector a class; before it (Debian Bookworm's 4.6) it is a function
    whose parameters come from ``DetectorParameters_create`` (there, ``DetectorParameters()`` builds an
    object the detector crashes on)."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    if hasattr(cv2.aruco, "ArucoDetector"):
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        corners, ids, _ = cv2.aruco.ArucoDetector(dictionary, params).detectMarkers(gray)
    else:
        params = cv2.aruco.DetectorParameters_create()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        corners, ids, _ = cv2.aruco.detectMarkers(gray, dictionary, parameters=params)
    return corners, ids


def homography_from_markers(frame_bgr: np.ndarray, known: dict[int, np.ndarray]) -> tuple[np.ndarray | None, int]:
    """(board -> image homography 3x3 from the corners of every known sticker seen, or None when fewer
    than :data:`MIN_MARKERS`; the stickers seen) in a BGR frame. ``known``: sticker id -> its 4 corners in
    board coordinates in OpenCV's order (:func:`marker_corners`); a sticker seen twice counts once."""
    gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    corners, ids = _detect(gray)
    if ids is None:
        return None, 0
    src, dst, seen = [], [], set()
    for quad, marker_id in zip(corners, ids.ravel()):
        k = int(marker_id)
        if k in known and k not in seen:
            seen.add(k)
            src.append(known[k])
            dst.append(quad.reshape(4, 2))
    if len(seen) < MIN_MARKERS:
        return None, len(seen)
    hom, _ = cv2.findHomography(np.vstack(src), np.vstack(dst).astype(np.float64), 0)
    return hom, len(seen)


def find_markers(frame_bgr: np.ndarray, grid_size: int) -> tuple[np.ndarray | None, int]:
    """(grid -> image homography 3x3 or None, stickers seen) from the Ludo board's ArUco stickers in a BGR frame."""
    return homography_from_markers(frame_bgr, marker_corners(grid_size))


def marker_fit(frame_bgr: np.ndarray, labels: np.ndarray, layout: PrintLayout) -> BoardFit | None:
    """The board fit from the stickers, or None when fewer than :data:`MIN_MARKERS` are seen.

    The printed colour order comes from the yard disks (the colour class most of each disk shows); a
    covered yard takes the one colour left; with two yards unknown the geometry's own order is used.
    """
    hom, count = find_markers(frame_bgr, layout.geometry.grid_size)
    if hom is None:
        return None
    h, w = labels.shape
    printed: list[str | None] = []
    for colour in layout.clockwise:
        r, c = layout.yard_centre[colour]
        a = np.linspace(0, 2 * np.pi, 16, endpoint=False)
        pts = np.column_stack([c + 0.6 * layout.yard_radius * np.cos(a), r + 0.6 * layout.yard_radius * np.sin(a)])
        px = np.rint(cv2.perspectiveTransform(pts.reshape(-1, 1, 2), hom).reshape(-1, 2)).astype(int)
        ok = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < w) & (px[:, 1] < h)
        votes = np.bincount(labels[px[ok, 1], px[ok, 0]], minlength=len(CLASSES)) if ok.any() else np.zeros(
            len(CLASSES), int)
        best = int(np.argmax(votes))
        name = CLASSES[best]
        printed.append(name if name in COLOUR_CLASS and votes[best] >= 0.5 * len(a) else None)
    known = [p for p in printed if p]
    if len(set(known)) != len(known):
        printed = list(layout.clockwise)
    elif len(known) == 3:
        left = (set(layout.clockwise) - set(known)).pop()
        printed = [p or left for p in printed]
    elif len(known) < 3:
        printed = list(layout.clockwise)
    confidence = 0.9 if count >= 3 else 0.7
    return BoardFit(hom, tuple(printed), sum(1 for p in known), 0, 0, confidence)
