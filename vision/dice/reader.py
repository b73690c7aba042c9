"""Dice reader: ``method`` (:data:`METHODS`) chooses v3 (``"learned"``, the product's
:data:`DEFAULT_METHOD`: a learned die detector finds the dice, see :mod:`vision.dice.learned`), v2
(``"classical"``, below) or ``"hybrid"`` (v2 plus the dice only the detector finds). All share the frame checks, the scaling to the work image and the
reading order of :func:`read_dice`.

The classical reader v2 is :mod:`vision.dice.classical`, v3 :mod:`vision.dice.learned`; this module
checks the frame, makes the work image, dispatches to the reader of ``method`` and puts the dice in
reading order.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace

import cv2
import numpy as np

from vision.dice.classical import read_work_classical
from vision.dice.cocked import COCKED_AT, cocked_probabilities
from vision.dice.gate import DIE_BELOW, die_probabilities
from vision.dice.learned import read_work_hybrid, read_work_learned
from vision.frames import MIN_FRAME_SIDE, check_frame, frame_problem
from vision.observation import DiceObservation, DieReading

# Work image long side (pixels). Dice in our photos are 1/30 - 1/8 of the long side; at 640 px the
# smallest is ~20 px with ~4 px pips, the least that pip counting needs. Larger frames are scaled down
# (time grows with area), smaller ones are used as they are.
WORK_MAX_SIDE = 640
OVERSIZED = 0.2
"""Longest die side, as a fraction of the frame's long side, that a die among others may have unflagged.
The box's camera looks down on the table from 40-60 cm: a die among others is at most 0.138 of the long
side in every real set (pi_cam_tray's close tray; byler_d6 0.089, ivory_grid's grids 0.098); a printed
Ludo yard with its four circles reads as a 4 at 0.24-0.25 (dga_easy.jpg), card prints up to 0.45 on the
rendered game tables. A frame with one die only may be a close-up (ivory_grid's fill 0.62) and is left
alone."""
METHODS = ("learned", "hybrid", "classical")
"""The readers :func:`read_dice` can use: ``"learned"`` (v3, vision.dice.learned.read_work_learned: die
detector + face classifier + pips), ``"hybrid"`` (v2 plus the dice only the detector finds,
read_work_hybrid) or ``"classical"`` (v2 alone, below; also the fallback when the detector's model file
is absent)."""

DEFAULT_METHOD = "learned"
"""The product's reader, v3, since the seventh round (detector and classifier trained on synthetic tables
too): on byler_d6's 37 held-out photos, pi_cam_tray and ivory_grid it reads as many images exactly as v2
or more, finds as many dice or more and shows no more wrong dice unflagged (byler held-out with its
label errors corrected), flags a third as many and takes about half the time. The hybrid runs both
readers (about 80 ms a photo: a 200-photo eval no longer fits 18 s). Figures: assets/dice_model/README.md."""


def check_method(method: str) -> str:
    """``method`` when it is one of :data:`METHODS`; ``ValueError`` naming the choices otherwise."""
    if method not in METHODS:
        raise ValueError(f"dice reader {method!r} is not one of {', '.join(METHODS)}")
    return method


def warm_up(method: str = DEFAULT_METHOD) -> None:
    """Pay the reader's one-time costs now, not in the first photo's time: one read of a drawn table of
    three dice (80 ms or so on this machine) loads the model files of ``method`` and the modules
    the reader imports on first use, runs the networks' first forward passes and has OpenCV build its Lab
    conversion tables (about 70 ms alone). A bundled byler_d6 photo then reads in ~32 ms the first time
    instead of ~50 (~24 ms when read again: the networks still set up once for a new frame size).
    Safe to call again."""
    frame = np.full((480, 640, 3), (60, 110, 40), np.uint8)
    for x0 in (140, 290, 440):
        cv2.rectangle(frame, (x0, 200), (x0 + 60, 260), (235, 240, 240), -1)
        for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):
            cv2.circle(frame, (x0 + 30 + 15 * dx, 230 + 15 * dy), 6, (20, 20, 20), -1)
    read_dice(frame, method=method)


def work_image(frame_bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """The work image of a (h, w[, c]) uint8 frame and its scale (work pixels per frame pixel, 0-1]: the
    frame itself when its long side is at most WORK_MAX_SIDE, else the frame scaled down by area
    averaging (cv2.INTER_AREA) to that long side. When the long side is a whole multiple k of
    WORK_MAX_SIDE (1280 or 1920 px frames), the frame's last h % k rows and w % k columns are left out,
    so that OpenCV averages whole k x k blocks: about ten times faster (1280x961: 2.9 -> 0.25 ms) and the
    same pixels but for the cut edge (under k pixels)."""
    h, w = frame_bgr.shape[:2]
    if max(h, w) <= WORK_MAX_SIDE:
        return frame_bgr, 1.0
    scale = WORK_MAX_SIDE / max(h, w)
    k = max(h, w) // WORK_MAX_SIDE
    if k * WORK_MAX_SIDE == max(h, w):
        crop = frame_bgr[:h - h % k, :w - w % k]
        return cv2.resize(crop, (crop.shape[1] // k, crop.shape[0] // k), interpolation=cv2.INTER_AREA), scale
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(frame_bgr, size, interpolation=cv2.INTER_AREA), scale


def read_dice(frame_bgr: np.ndarray, calibration=None, method: str = DEFAULT_METHOD) -> DiceObservation:
    """Find the dice in a BGR uint8 frame (h, w, 3) and read their values.

    Returns a DiceObservation: dice in reading order (rows top to bottom, left to right within a row),
    boxes in frame pixels, ``ms`` the wall time of this call in milliseconds. A black, saturated or
    uniform frame, or one smaller than MIN_FRAME_SIDE pixels a side, gives no dice and ``problem`` set.
    A die that leans on an edge or on another die is flagged and marked ``cocked``
    (:mod:`vision.dice.cocked`, with every method), and so is (flagged) a die too big to lie among the
    others on a table (:data:`OVERSIZED`) and one the gate classifier doubts is a die at all
    (:mod:`vision.dice.gate`: a board's circle, a pawn, a card's print).
    ``calibration``: a :class:`vision.dice.calibration.DiceCalibration` (the caller loads it once, e.g.
    from the app's state directory) or None; it is used only when it was made for frames of this size: v2 compares the table with the calibrated empty table; v3 (which needs
    none) drops detections on the part of the table nothing was put on (a board's or a card's print).
    ``method``: one of :data:`METHODS`. Raises FrameError for input that is not a non-empty (h, w, 3)
    uint8 numpy array, ValueError for an unknown ``method``.
    """
    check_method(method)
    start = time.perf_counter()
    check_frame(frame_bgr)
    h, w = frame_bgr.shape[:2]
    if min(h, w) < MIN_FRAME_SIDE:  # checked before scaling: a thin frame would scale to 0 px
        return DiceObservation(dice=(), frame_shape=(h, w), ms=(time.perf_counter() - start) * 1000.0,
                               problem=frame_problem(cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)))
    work, scale = work_image(frame_bgr)
    problem = frame_problem(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY))
    dice: list[DieReading] = []
    if problem is None:
        if calibration is not None and not calibration.fits((h, w)):
            calibration = None
        found = None
        if method == "learned":
            found = read_work_learned(work, calibration=calibration)
        elif method == "hybrid":
            found = read_work_hybrid(work, calibration)
        if found is None:
            found = read_work_classical(work, calibration)
        found = _flag_oversized(_flag_doubted(work, _mark_cocked(work, found)), work.shape[:2])
        dice = [_to_frame(d, scale, (w, h)) for d in found]
        dice.sort(key=lambda d: (d.box[1] + d.box[3]) / 2)
        dice = _reading_order(dice)
    ms = (time.perf_counter() - start) * 1000.0
    return DiceObservation(dice=tuple(dice), frame_shape=(h, w), ms=ms, problem=problem)


def _to_frame(die: DieReading, scale: float, size: tuple[int, int]) -> DieReading:
    if scale == 1.0:
        return die
    w, h = size
    x0, y0, x1, y1 = die.box
    box = (max(0, math.floor(x0 / scale)), max(0, math.floor(y0 / scale)),
           min(w, math.ceil(x1 / scale)), min(h, math.ceil(y1 / scale)))
    return DieReading(die.value, box, die.confidence, die.flagged, die.cocked)


def _flag_oversized(dice: list[DieReading], shape: tuple[int, int]) -> list[DieReading]:
    """``dice`` with each die longer than OVERSIZED of the image's long side flagged, when the image
    shows two dice or more (a close-up of one die may fill the frame)."""
    if len(dice) < 2:
        return dice
    limit = OVERSIZED * max(shape)
    return [replace(d, flagged=True) if max(d.box[2] - d.box[0], d.box[3] - d.box[1]) > limit else d
            for d in dice]


def _mark_cocked(work: np.ndarray, dice: list[DieReading]) -> list[DieReading]:
    """``dice`` (boxes in work pixels) with each die that :mod:`vision.dice.cocked` finds leaning
    (P(cocked) >= COCKED_AT) marked cocked and flagged."""
    p = cocked_probabilities(work, [d.box for d in dice])
    return [replace(d, cocked=True, flagged=True) if q >= COCKED_AT else d for d, q in zip(dice, p)]


def _flag_doubted(work: np.ndarray, dice: list[DieReading]) -> list[DieReading]:
    """``dice`` (boxes in work pixels) with each one that :mod:`vision.dice.gate` doubts is a die
    (P(a die) < DIE_BELOW: a board's circle, a pawn, a card's print) flagged, value kept."""
    p = die_probabilities(work, [d.box for d in dice])
    return [replace(d, flagged=True) if q < DIE_BELOW else d for d, q in zip(dice, p)]


def _reading_order(dice: list[DieReading]) -> list[DieReading]:
    """Group dice (sorted by centre y) into rows: a die starts a new row when its centre is more than
    half the median die height below the row's first die; rows are then sorted left to right."""
    if not dice:
        return dice
    half = float(np.median([d.box[3] - d.box[1] for d in dice])) / 2
    rows: list[list[DieReading]] = []
    for d in dice:
        cy = (d.box[1] + d.box[3]) / 2
        if rows and cy - (rows[-1][0].box[1] + rows[-1][0].box[3]) / 2 <= half:
            rows[-1].append(d)
        else:
            rows.append([d])
    return [d for row in rows for d in sorted(row, key=lambda d: d.box[0])]
