"""Dice calibration: the empty play area (and optionally one die) as the camera sees it, kept in the
state directory so the dice reader can compare each frame with the real table instead of estimating it.

``calibrate_dice(frames, state_dir, face_frames=()) -> Path`` takes a few frames (BGR uint8, all of one
size) of the empty play area, and optionally frames each showing dice on that area (e.g. one die of each
face), and stores :data:`CALIBRATION_FILE` atomically (written to a temporary file in the same folder,
then renamed), so a reader never sees half a file. ``load_calibration(state_dir)`` reads it back (None
when there is none or it is unreadable). The reader (:func:`vision.dice.reader.read_dice`) uses the calibration
it is given (the app loads the state directory's once, ``companion.readers.dice``) when it was made for
the frame's size, and works as before without.

What is stored (``numpy .npz``, no pickles):

- ``background``: (h, w, 3) uint8 Lab (OpenCV 8-bit scaling) per-pixel median of the empty frames, at
  the reader's work size (long side :data:`WORK_SIDE` or less);
- ``empty_grey``: the same median as grey uint8 at frame size / 4 (for :class:`vision.dice.settle.SettleTracker`);
- ``frame_shape``: (height, width) of the frames in pixels;
- ``noise``: median Lab distance (units of :func:`vision.dice.pips.lab_distance`) between each empty
  frame and the median: the camera's noise level;
- ``die_side``: median side (work pixels) of the dice in the face frames, 0 when none were given.
"""

from __future__ import annotations

import io
import math
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.errors import CalibrationError, FrameError
from vision.files import write_atomic
from vision.dice.pips import lab_distance
from vision.dice.reader import read_dice, work_image
from vision.frames import check_frame

CALIBRATION_FILE = "dice_calibration.npz"
FORMAT_VERSION = 1
# Fewest and most empty frames used (a median of 3 already removes a passing hand; more adds little).
MIN_FRAMES, MAX_FRAMES = 1, 15
WORK_SIDE = 640
"""Long side (px) of the stored background: the shipped reader's work size (its settings' work_max_side);
:meth:`DiceCalibration.background_lab` resizes it to another."""
# A pixel of a face frame is part of a die when its Lab distance from the calibrated table exceeds this
# many times the camera noise, and at least DIE_MIN_DISTANCE.
DIE_NOISE, DIE_MIN_DISTANCE = 6.0, 25.0


@dataclass(frozen=True)
class DiceCalibration:
    """A stored calibration (see the module docstring for the fields' shapes and units)."""

    background: np.ndarray
    empty_grey: np.ndarray
    frame_shape: tuple[int, int]
    noise: float
    die_side: float = 0.0

    @property
    def die_threshold(self) -> float:
        """Lab distance (units of :func:`vision.dice.pips.lab_distance`) from the empty table above which
        a pixel belongs to something new on it: DIE_NOISE times the camera noise, at least DIE_MIN_DISTANCE."""
        return max(DIE_MIN_DISTANCE, DIE_NOISE * self.noise)

    def fits(self, frame_shape: tuple[int, ...]) -> bool:
        """True when this calibration was made for frames of ``frame_shape`` ((h, w) or (h, w, 3))."""
        return tuple(frame_shape[:2]) == tuple(self.frame_shape)

    def background_lab(self, work_shape: tuple[int, int]) -> np.ndarray:
        """The background as float32 Lab resized to ``work_shape`` (h, w)."""
        bg = self.background
        if bg.shape[:2] != tuple(work_shape):
            bg = cv2.resize(bg, (work_shape[1], work_shape[0]), interpolation=cv2.INTER_AREA)
        return bg.astype(np.float32)


def _check_frames(frames, what: str) -> list[np.ndarray]:
    frames = list(frames)
    for i, frame in enumerate(frames):
        try:
            check_frame(frame)
        except FrameError as error:
            raise CalibrationError(f"{what} frame {i}: {error}") from error
    if frames and len({f.shape for f in frames}) != 1:
        raise CalibrationError(f"{what} frames differ in size: {sorted({f.shape for f in frames})}")
    return frames


def make_calibration(frames, face_frames=()) -> DiceCalibration:
    """Build a calibration from empty-area frames (and optional frames with dice); see calibrate_dice."""
    frames = _check_frames(frames, "empty")
    if len(frames) < MIN_FRAMES:
        raise CalibrationError("no frames of the empty play area were given")
    frames = frames[:MAX_FRAMES]
    h, w = frames[0].shape[:2]
    labs = [cv2.cvtColor(work_image(f, WORK_SIDE)[0], cv2.COLOR_BGR2Lab) for f in frames]
    median = np.median(np.stack(labs), axis=0).astype(np.uint8)
    bg = median.astype(np.float32)
    noise = float(np.median([np.median(lab_distance(lab.astype(np.float32), bg)) for lab in labs])) \
        if len(labs) > 1 else 0.0
    grey = cv2.cvtColor(cv2.cvtColor(median, cv2.COLOR_Lab2BGR), cv2.COLOR_BGR2GRAY)
    grey = cv2.resize(grey, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    faces = _check_frames(face_frames, "face")
    if faces and faces[0].shape[:2] != (h, w):
        raise CalibrationError(f"face frames are {faces[0].shape[1]}x{faces[0].shape[0]}, "
                               f"the empty frames {w}x{h}")
    calibration = DiceCalibration(median, grey, (h, w), noise)
    sides = []
    for frame in faces:
        lab = cv2.cvtColor(work_image(frame, WORK_SIDE)[0], cv2.COLOR_BGR2Lab)
        mask = (lab_distance(lab.astype(np.float32), bg) > calibration.die_threshold).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        for i in range(1, n):
            area = int(stats[i, cv2.CC_STAT_AREA])
            if area >= 36:  # a die of 6 px a side or more
                sides.append(math.sqrt(area))
    return replace(calibration, die_side=float(np.median(sides)) if sides else 0.0)


def dice_left_on(frame_bgr: np.ndarray) -> list[int]:
    """Values (1-6) of the dice the reader (:func:`vision.dice.reader.read_dice`, no calibration) is sure it sees
    on a frame (h, w, 3 BGR uint8) that should show the empty play area: a die left there during a
    calibration would be taken for the table and never read there. Raises FrameError as read_dice."""
    return [d.value for d in read_dice(frame_bgr, calibration=None).dice if not d.flagged]


def calibrate_dice(frames, state_dir, face_frames=()) -> Path:
    """Calibrate from ``frames`` (>= 1 BGR uint8 frames of the empty play area, one size) and optional
    ``face_frames`` (frames of the same size with dice on the area) and store the result atomically as
    ``state_dir / CALIBRATION_FILE`` (the folder is created). Returns that path.

    Raises CalibrationError naming the problem for missing, malformed or mixed-size frames, and OSError
    when the state directory cannot be written.
    """
    calibration = make_calibration(frames, face_frames)
    state_dir = Path(state_dir)
    state_dir.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, version=np.int32(FORMAT_VERSION), background=calibration.background,
                        empty_grey=calibration.empty_grey, frame_shape=np.int32(calibration.frame_shape),
                        noise=np.float64(calibration.noise), die_side=np.float64(calibration.die_side))
    return write_atomic(state_dir / CALIBRATION_FILE, buffer.getvalue())


def load_calibration(state_dir) -> DiceCalibration | None:
    """The calibration stored in ``state_dir``, or None when there is none, or it is unreadable or of
    another format version (the reader then works uncalibrated)."""
    path = Path(state_dir) / CALIBRATION_FILE
    try:
        with np.load(path, allow_pickle=False) as data:
            if int(data["version"]) != FORMAT_VERSION:
                return None
            shape = tuple(int(v) for v in data["frame_shape"])
            return DiceCalibration(data["background"].copy(), data["empty_grey"].copy(), shape,
                                   float(data["noise"]), float(data["die_side"]))
    except (OSError, KeyError, ValueError, EOFError, TypeError, IndexError, zipfile.BadZipFile):
        return None
