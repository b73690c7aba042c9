"""Settle detection: say whether the dice are ``moving``, ``still`` or the play area is ``empty``, and
offer a reading only once the dice have been still for a configurable time.

The tracker works on consecutive camera frames and is cheap (a few hundred microseconds a frame): each
frame is shrunk to :data:`MOTION_SIDE` pixels on its long side, converted to grey and blurred; the
*motion* of a frame is the fraction of its pixels whose grey level changed by more than
:data:`CHANGE_LEVEL` since the previous frame, after removing a global brightness shift (auto exposure).
A frame moves when that fraction exceeds :data:`MOTION_FRACTION`. The reader (the expensive part) runs
once per settle: the first frame at which the scene has been still for ``still_s`` seconds; its reading
is kept while the scene stays still, and dropped at the next movement.

``empty`` comes from one of two cues: with a calibrated empty-table grey image (see
:mod:`vision.dice.calibration`), a still frame that differs from it in less than :data:`EMPTY_FRACTION`
of its pixels is empty without reading it; otherwise a settled reading with no dice is empty.

Bad frames (None, wrong dtype or shape, empty arrays) never raise: the status says ``moving`` with
``problem`` naming the problem, and the stillness clock restarts (a glitching camera is not a settled
table). Frames the reader finds unusable (black, saturated) give ``empty`` with the reader's problem.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice.reader import read_dice
from vision.frames import check_frame
from vision.observation import DiceObservation

MOVING, STILL, EMPTY = "moving", "still", "empty"
# Long side (pixels) of the image compared between frames: a die of 1/30 of the frame is still ~5 px.
MOTION_SIDE = 160
# Blur (Gaussian sigma, pixels of that image) against sensor noise and JPEG blocks.
MOTION_BLUR = 1.0
# Grey-level change (0-255) that counts as a changed pixel: above sensor noise after the blur (~2-4
# levels on a Pi camera in room light), below a die's contrast with any table (20+ levels).
CHANGE_LEVEL = 14
# Fraction of pixels that must change for the frame to be moving: a die of 1/30 of the long side covers
# ~0.15 % of a 4:3 frame; a rolling die changes about twice its area, so 0.05 % catches one die.
MOTION_FRACTION = 0.0005
# Fraction of pixels that may differ from the calibrated empty table in an empty scene (a die covers
# ~0.15 %; lighting drift and a hand's shadow at the rim stay under this after the brightness match).
EMPTY_FRACTION = 0.0008
# Default seconds of stillness before a reading is offered (dice wobble ~0.3 s after they stop).
STILL_SECONDS = 0.6


@dataclass(frozen=True)
class SettleStatus:
    """What the tracker says about the latest frame.

    state: ``moving``, ``still`` or ``empty``. still_s: seconds the scene has been still (0 while
    moving). motion: fraction (0-1) of pixels changed since the previous frame. reading: the dice
    reading once the scene has been still for ``still_s`` (the same object on every following still
    frame), else None. problem: why the frame could not be used, else None.
    """

    state: str
    still_s: float
    motion: float
    reading: DiceObservation | None = None
    problem: str | None = None

    @property
    def ready(self) -> bool:
        """True when a settled reading is offered."""
        return self.reading is not None


def motion_image(frame_bgr: np.ndarray) -> np.ndarray:
    """The small blurred grey float32 image compared between frames (long side MOTION_SIDE or less).

    Raises :class:`~vision.errors.FrameError` naming the problem for input that is not a non-empty
    (h, w, 3) or (h, w) uint8 array.
    """
    check_frame(frame_bgr, grey_ok=True)
    grey = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    scale = min(1.0, MOTION_SIDE / max(h, w))
    if scale < 1.0:
        grey = cv2.resize(grey, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(grey.astype(np.float32), (0, 0), MOTION_BLUR)


def changed_fraction(a: np.ndarray, b: np.ndarray) -> float:
    """Fraction (0-1) of pixels whose level differs by more than CHANGE_LEVEL between two motion images,
    after removing the median difference (a global brightness shift). Different shapes give 1.0."""
    if a.shape != b.shape:
        return 1.0
    diff = a - b
    diff -= float(np.median(diff))
    return float(np.count_nonzero(np.abs(diff) > CHANGE_LEVEL)) / diff.size


class SettleTracker:
    """Follows consecutive frames; see the module docstring.

    still_s: seconds (>= 0) of stillness before a reading is offered. reader: called with the frame
    once per settle, returns a DiceObservation (default :func:`vision.dice.reader.read_dice`); an exception it
    raises becomes the status's ``problem``. empty_table: optional grey uint8 image of the empty play
    area (any size; see :func:`vision.dice.calibration.load_calibration`). Raises ValueError for a
    negative ``still_s``.
    """

    def __init__(self, still_s: float = STILL_SECONDS,
                 reader: Callable[[np.ndarray], DiceObservation] | None = None,
                 empty_table: np.ndarray | None = None) -> None:
        if still_s < 0:
            raise ValueError(f"still_s must be >= 0 seconds, got {still_s}")
        self.still_s = float(still_s)
        self._reader = reader
        self._empty = motion_image(empty_table) if empty_table is not None else None
        self.reset()

    def reset(self) -> None:
        """Forget the previous frame and any reading (e.g. after a turn ends)."""
        self._previous: np.ndarray | None = None
        self._still_since: float | None = None
        self._reading: DiceObservation | None = None

    def _read(self, frame_bgr: np.ndarray) -> DiceObservation:
        return (self._reader or read_dice)(frame_bgr)

    def update(self, frame_bgr, t: float | None = None) -> SettleStatus:
        """Take the next frame (BGR uint8) seen at time ``t`` (seconds, default time.monotonic()).

        Returns the SettleStatus of this frame; never raises for a bad frame or a failing reader.
        """
        now = time.monotonic() if t is None else float(t)
        try:
            small = motion_image(frame_bgr)
        except ValueError as error:
            self.reset()
            return SettleStatus(MOVING, 0.0, 1.0, problem=str(error))
        motion = 1.0 if self._previous is None else changed_fraction(small, self._previous)
        self._previous = small
        if motion > MOTION_FRACTION:
            self._still_since, self._reading = None, None
            return SettleStatus(MOVING, 0.0, motion)
        if self._still_since is None:
            self._still_since = now
        still_for = max(0.0, now - self._still_since)
        if self._empty is not None and changed_fraction(small, self._empty) <= EMPTY_FRACTION:
            return SettleStatus(EMPTY, still_for, motion)
        if still_for < self.still_s:
            return SettleStatus(STILL, still_for, motion)
        problem = None
        if self._reading is None:
            try:
                self._reading = self._read(frame_bgr)
            except Exception as error:  # noqa: BLE001 - a reader failure must not stop the loop
                problem = f"reader failed: {error}"
                self._still_since = None
                return SettleStatus(STILL, still_for, motion, problem=problem)
        reading = self._reading
        state = EMPTY if not reading.dice else STILL
        return SettleStatus(state, still_for, motion, reading=reading, problem=reading.problem)
