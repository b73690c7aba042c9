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

import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path

import numpy as np

from companion.i18n import _, ngettext
from companion.readers.base import ReaderSettings, read_safely
from vision.dice import (EMPTY, MOVING, DiceCalibration, SettleTracker, examples_from_roll, examples_in, learn_kept,
                         load_calibration, load_learned, shipped_reader, warm_up)
from vision.dice import DiceReader as Recognizer
from vision.errors import VisionError
from vision.observation import DiceObservation, DieReading

log = logging.getLogger(__name__)

DiceReader = Callable[[np.ndarray], DiceObservation]


def _shape(frame_bgr) -> tuple[int, int]:
    return tuple(frame_bgr.shape[:2]) if isinstance(frame_bgr, np.ndarray) and frame_bgr.ndim >= 2 else (0, 0)


def read_dice_frame(frame_bgr, calibration: DiceCalibration | None = None,
                    recognizer: Recognizer | None = None) -> DiceObservation:
    """``recognizer.read`` (default the shipped reader, :func:`vision.dice.shipped_reader`) as a loop
    ``reader``: a frame it cannot take becomes an observation with a problem
    (``companion.readers.base.read_safely``)."""
    read = (recognizer or shipped_reader()).read
    return read_safely(partial(read, calibration=calibration), frame_bgr,
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


def dice_reader(camera, settings: ReaderSettings, recognizer: Recognizer | None = None) -> DiceReader:
    """The dice reader for ``camera``: :func:`read_dice_frame` with ``recognizer`` (default
    :func:`box_recognizer` of ``settings.state_dir``) and the empty table of ``companion calibrate dice``
    stored in ``settings.state_dir`` (loaded once, here; the reader uses it only for frames of the size it
    was made for), behind the settle tracker for a live camera. Pays the reader's start-up now
    (``vision.dice.warm_up``), not at the players' first roll."""
    calibration = load_calibration(settings.state_dir) if settings.state_dir is not None else None
    warm_up()
    recognizer = recognizer or box_recognizer(settings.state_dir)[0]
    reader = partial(read_dice_frame, calibration=calibration, recognizer=recognizer)
    empty = calibration.empty_grey if calibration is not None else None
    return dice_reader_for(camera, reader, settings.still_seconds, empty_table=empty)


def box_recognizer(state_dir: Path | None, learn: bool = False) -> tuple[Recognizer, str]:
    """The box's dice recognizer: the shipped reader with the players' dice learned in ``state_dir``
    (:func:`vision.dice.load_learned`; none, damaged or not to be used: the shipped reader alone, logged),
    and a line for the players ("" when nothing new was learned). ``learn``: first learn from the rolls
    kept since the stored state was learned (between games: :func:`vision.dice.learn_kept`), logged in one
    line; a state directory that cannot be written is logged and the box reads on as it did."""
    shipped = shipped_reader()
    if state_dir is None:
        return shipped, ""
    said = ""
    if learn:
        try:
            learned, line = learn_kept(shipped, state_dir, when_new=True)
        except (OSError, VisionError) as error:
            log.warning("the dice were not learned: %s", error)
            learned, line = None, ""
        if line:
            log.info("%s", line)
        if learned is not None and learned.report.get("use"):
            rolls = int(learned.report["rolls"])
            said = ngettext("Learned your dice from {n} roll", "Learned your dice from {n} rolls", rolls).format(n=rolls)
    state, why = load_learned(state_dir, shipped.networks.heads_id)
    if why:  # a state returned with a line: its faces are not used yet, which is no fault
        (log.info if state is not None else log.warning)("%s", why)
    return shipped.with_learned(state), said


class RollKeeper:
    """Keeps each roll the players confirm in the state directory (issue 39): each read die's crop with
    the value read, its flag and the value confirmed (:class:`vision.dice.ExampleStore`), written by one
    worker thread so that a press never waits for the disk. ``recognizer`` cuts the crops as it reads."""

    def __init__(self, state_dir: Path, recognizer: Recognizer) -> None:
        self.store = examples_in(state_dir)
        self.recognizer = recognizer
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dice-keeper")
        self._last: Future | None = None
        self._count = 0

    def keep(self, frame_bgr: np.ndarray, dice: Sequence[DieReading], values: Sequence[int]) -> None:
        """Keep ``dice`` (read from ``frame_bgr``, frame pixels) with the ``values`` confirmed (1-6, one a
        die, same order), in the background."""
        if not dice:
            return
        self._count += 1
        roll = f"roll-{time.time_ns()}-{self._count}"
        observation = DiceObservation(tuple(dice), tuple(frame_bgr.shape[:2]))
        self._last = self._worker.submit(self._write, frame_bgr, observation, list(values), roll)

    def _write(self, frame_bgr, observation, values, roll) -> Path | None:
        try:
            return self.store.add(examples_from_roll(self.recognizer, frame_bgr, observation, values, roll))
        except (OSError, VisionError) as error:  # the game goes on: a roll not kept is only a lost example
            log.warning("a confirmed roll was not kept in %s: %s", self.store.folder, error)
            return None

    def take_back(self) -> None:
        """Remove the roll kept last (the players undid it: its values may have been wrong)."""
        if self._last is None:
            return
        path = self._last.result()
        self._last = None
        if path is not None:
            path.unlink(missing_ok=True)

    def flush(self) -> None:
        """Wait until every roll handed in is written."""
        if self._last is not None:
            self._last.result()

    def close(self) -> None:
        """Write what is left and stop the worker."""
        self._worker.shutdown(wait=True)
