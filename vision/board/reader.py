"""The Ludo board reader: one photo in, the pawns on each track square, in each yard and home out.

``read_board(frame_bgr, geometry, calibration=None) -> BoardObservation``:

1. Check the frame (:class:`FrameError` for input that is not an image; an observation with
   ``problem`` set for a black, uniform or tiny one).
2. Scale it so the long side is at most :data:`WORK_MAX_SIDE` pixels, classify pixel colours
   (:mod:`vision.board.colour`).
3. Find the board and its orientation with no markers (:mod:`vision.board.find`); when that fails,
   from ArUco corner stickers if at least two are in view (an optional aid, :mod:`vision.board.aruco`),
   else reuse ``calibration`` (a previous observation's homography, e.g. from the empty board).
4. Read the pawns (:mod:`vision.board.pieces`) and the places a hand covers (:mod:`vision.board.hand`).

Places follow the geometry (ludo.md B.2 / B.2b): ``squares`` by ABSOLUTE track index (0 = red's start
square), ``homes`` by colour and home-square number (0 = first after the track), ``yards`` as counts.
The colours are the colours seen: on a board printed in another colour order than the geometry's
(``clockwise`` differs from the geometry's start-offset order), each colour's yard, start and home are
where that colour is printed, and ``clockwise`` says which.
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from vision.board.geometry import BoardGeometry
from vision.board.aruco import marker_fit
from vision.board.colour import classify
from vision.board.find import BoardFit, find_board
from vision.board.hand import covered_places
from vision.board.layouts import layout_for
from vision.board.pieces import hidden_yards, read_pieces
from vision.board.printed import printed_colours
from vision.frames import frame_problem_bgr
from vision.observation import BoardObservation, PawnReading

# Work image long side (pixels): a 15-cell board filling a third of a 960 px frame still has ~20 px
# cells. Larger frames are scaled down (time grows with area).
WORK_MAX_SIDE = 960
MIN_FRAME_SIDE = 48
MIN_CONTRAST = 4.0


def read_board(frame_bgr: np.ndarray, geometry: BoardGeometry,
               calibration: BoardObservation | None = None, stacks: bool = False) -> BoardObservation:
    """Read the pawns of a Ludo board in a BGR uint8 frame (h, w, 3); see the module docstring.

    geometry: the board, handed in (:mod:`vision.board.geometry`; the app's ``load_board("mensch40")``, ...).
    calibration: an earlier observation of the same board from the same camera; its homography is reused
    when this frame's board is not found on its own (a hand over a yard). stacks: count two pawns of
    one colour side by side on a track square (``own_stacking`` allowed / block; see
    :func:`vision.board.pieces.read_pieces`); ``squares`` then lists that colour twice.
    Raises FrameError for input that is not an image; never for what the image shows.
    """
    start = time.perf_counter()
    problem = frame_problem_bgr(frame_bgr, min_side=MIN_FRAME_SIDE, min_contrast=MIN_CONTRAST)
    h, w = frame_bgr.shape[:2]
    if problem:
        return BoardObservation(geometry.name, False, frame_shape=(h, w), problem=problem,
                                ms=(time.perf_counter() - start) * 1000.0)
    scale = min(1.0, WORK_MAX_SIDE / max(h, w))
    work = frame_bgr if scale == 1.0 else cv2.resize(frame_bgr, (round(w * scale), round(h * scale)),
                                                     interpolation=cv2.INTER_AREA)
    layout = layout_for(geometry)
    labels = classify(work)
    fit = find_board(work, layout, labels)
    if not fit.found:
        fit = marker_fit(work, labels, layout) or fit
    if not fit.found and calibration is not None and calibration.homography is not None:
        to_work = np.diag([scale, scale, 1.0])
        fit = BoardFit(to_work @ calibration.homography_array(), calibration.clockwise, 0, 0, 0, 0.5,
                       None)
    if not fit.found:
        return BoardObservation(geometry.name, False, frame_shape=(h, w), problem=fit.problem,
                                ms=(time.perf_counter() - start) * 1000.0)
    pawns = read_pieces(work, labels, fit, layout, stacks=stacks)
    printed = printed_colours(layout, fit.clockwise)
    squares: dict[int, tuple[str, ...]] = {}
    covered = hidden_yards(labels, fit, layout)
    yards = {c: 0 for c in fit.clockwise}
    homes: dict[str, list[int]] = {c: [] for c in layout.clockwise}
    back = 1.0 / scale
    out_pawns = []
    for p in pawns:
        kind = p.place[0]
        if kind == "track":
            squares[p.place[1]] = squares.get(p.place[1], ()) + (p.colour,)
        elif kind == "yard":
            if printed[p.place[1]] in covered:
                continue
            yards[printed[p.place[1]]] += 1
        else:
            homes[printed[p.place[1]]].append(p.place[2])
        out_pawns.append(PawnReading(p.place, p.colour, p.score, p.confidence, (p.pixel[0] * back, p.pixel[1] * back)))
    unknown = tuple(("home", printed[q[1]], q[2]) if q[0] == "home" else q
                    for q in covered_places(work, labels, fit, layout, {p.place for p in pawns}))
    hom = np.diag([back, back, 1.0]) @ fit.homography
    hom = hom / hom[2, 2]
    weakest = min((p.confidence for p in pawns), default=1.0)
    return BoardObservation(
        board=geometry.name, found=True, squares=squares, yards=yards,
        covered_yards=tuple(c for c in fit.clockwise if c in covered), unknown=unknown,
        homes={c: tuple(sorted(v)) for c, v in homes.items()}, pawns=tuple(out_pawns),
        confidence=float(fit.confidence * weakest), homography=tuple(tuple(float(v) for v in row) for row in hom),
        clockwise=fit.clockwise, frame_shape=(h, w), ms=(time.perf_counter() - start) * 1000.0)


def board_outline(observation: BoardObservation, geometry: BoardGeometry, margin: float = 1.5) -> np.ndarray | None:
    """The board's corners in frame pixels, ``margin`` grid cells beyond the grid (the print's margin is
    about 1 cell; a standing pawn leans a little further): (4, 2) float64, None when not found."""
    hom = observation.homography_array()
    if hom is None:
        return None
    lo, hi = -0.5 - margin, geometry.grid_size - 0.5 + margin
    grid = np.array([[[lo, lo], [hi, lo], [hi, hi], [lo, hi]]], np.float64)
    return cv2.perspectiveTransform(grid, hom)[0]


def mask_board(frame_bgr: np.ndarray, observation: BoardObservation, geometry: BoardGeometry,
               margin: float = 1.5) -> np.ndarray:
    """A copy of the frame with the board (see :func:`board_outline`) filled with the table's median
    colour, so that a reader of things on the table (the die) does not take pawns or printed circles for
    dice. The frame itself when the board was not found."""
    quad = board_outline(observation, geometry, margin)
    if quad is None:
        return frame_bgr
    mask = np.zeros(frame_bgr.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.rint(quad).astype(np.int32), 255)
    outside = frame_bgr[mask == 0]
    fill = np.median(outside, axis=0) if len(outside) else np.array([128, 128, 128])
    out = frame_bgr.copy()
    out[mask > 0] = fill.astype(np.uint8)
    return out

