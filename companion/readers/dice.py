"""The dice reader of the play loop: every frame read safely, and a live camera's dice read only once
they have settled.

A live camera (Pi camera, USB device, video file) sees the dice roll, bounce and stop. Reading every
frame would waste the Pi's time (the reader takes ~50 ms a frame here, ~200 ms on a Pi 4) and offer
readings of dice still wobbling. :class:`SettledDiceReader` puts :class:`vision.dice.settle.SettleTracker`
in front of the reader (issue 3, settle detection): while the scene moves, or has been still for less
than ``[session] still_seconds``, each frame gives an observation with no dice and a ``problem`` the
players read ("Waiting for the dice to settle…"); once settled, the reader runs once and its reading is
given for every following still frame, so the session's ``stable_frames`` check passes at once.

Photo folders are a still scene per photo with no motion between repeats of one photo: they keep the
plain per-frame reader (:func:`dice_reader_for`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import numpy as np

from companion.i18n import _
from companion.readers.base import ReaderSettings, read_safely
from vision.dice import EMPTY, MOVING, DiceCalibration, SettleTracker, load_calibration, read_dice, warm_up
from vision.observation import DiceObservation

DiceReader = Callable[[np.ndarray], DiceObservation]


def _shape(frame_bgr) -> tuple[int, int]:
    return tuple(frame_bgr.shape[:2]) if isinstance(frame_bgr, np.ndarray) and frame_bgr.ndim >= 2 else (0, 0)


def read_dice_frame(frame_bgr, calibration: DiceCalibration | None = None) -> DiceObservation:
    """:func:`vision.dice.read_dice` as a loop ``reader``: a frame it cannot take becomes an observation
    with a problem (``companion.readers.base.read_safely``)."""
    return read_safely(partial(read_dice, calibration=calibration), frame_bgr,
                       lambda reason: DiceObservation((), _shape(frame_bgr), problem=reason))


class SettledDiceReader:
    """A loop ``reader`` (frame -> DiceObservation) that reads only settled frames.

    reader: the per-frame dice reader (it must not raise for a bad frame; see :func:`read_dice_frame`).
    still_seconds: seconds (>= 0) the scene must be still before a reading (config ``[session]
    still_seconds``). empty_table: optional grey uint8 image of the empty play area (from ``companion
    calibrate dice``); a still frame that matches it gives "no dice" without reading. clock: seconds,
    monotonic (tests pass a fake). Raises ValueError for a negative ``still_seconds``.
    """

    def __init__(self, reader: DiceReader, still_seconds: float, empty_table: np.ndarray | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.tracker = SettleTracker(still_seconds, reader=reader, empty_table=empty_table)
        self._clock = clock
        self.reads = 0
        """How many frames the tracker let through to the reader (once per settle)."""
        self._last_reading: DiceObservation | None = None

    def __call__(self, frame_bgr) -> DiceObservation:
        status = self.tracker.update(frame_bgr, self._clock())
        shape = _shape(frame_bgr)
        if status.reading is not None:
            if status.reading is not self._last_reading:
                self.reads += 1
                self._last_reading = status.reading
            return status.reading
        if status.problem:  # a bad frame, or the reader failed
            return DiceObservation((), shape, problem=status.problem)
        if status.state == MOVING:
            return DiceObservation((), shape, problem=_("Waiting for the dice to settle…"))
        if status.state == EMPTY:
            return DiceObservation((), shape)
        return DiceObservation((), shape, problem=_("Hold still…"))


def dice_reader_for(camera, reader: DiceReader, still_seconds: float,
                    empty_table: np.ndarray | None = None) -> DiceReader:
    """The loop's dice reader for ``camera`` (a ``vision.camera.FrameSource`` or None).

    A live source (``camera.live``) gets a :class:`SettledDiceReader`; a photo folder or no camera
    gets ``reader`` itself.
    """
    if camera is None or not getattr(camera, "live", False):
        return reader
    return SettledDiceReader(reader, still_seconds, empty_table=empty_table)


def dice_reader(camera, settings: ReaderSettings) -> DiceReader:
    """The dice reader for ``camera``: :func:`read_dice_frame` with the empty table of ``companion
    calibrate dice`` stored in ``settings.state_dir`` (loaded once, here; the reader uses it only for
    frames of the size it was made for), behind the settle tracker for a live camera. Pays the reader's
    start-up now (``vision.dice.warm_up``), not at the players' first roll."""
    calibration = load_calibration(settings.state_dir) if settings.state_dir is not None else None
    warm_up()
    reader = partial(read_dice_frame, calibration=calibration)
    empty = calibration.empty_grey if calibration is not None else None
    return dice_reader_for(camera, reader, settings.still_seconds, empty_table=empty)
