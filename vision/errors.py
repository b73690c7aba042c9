"""Every error vision raises for something a user can cause, under one base: :class:`VisionError`.

Vision imports nothing of the app (``tests/vision/test_layering.py``), so its errors are its own: a
camera that cannot be opened, a frame or a calibration that cannot be used, a measuring set's file that
is missing or malformed. Their messages are English and name what is wrong (the file, the camera spec,
the frame's shape). ``companion.errors`` re-exports the device kinds under their names (``CameraError``,
``NoCameraFound``, ``FrameError``, ``CalibrationError``: the same classes, so ``except CameraError`` in
the app catches what vision raises), and the command line prints any ``VisionError`` as one line with
exit status 2, as a ``CompanionError`` (``companion.errors.USER_ERRORS``).

Where an error also is a ``ValueError``, ``OSError`` or ``RuntimeError``, code that caught the built-in
kind before goes on working.
"""

from __future__ import annotations

__all__ = ["VisionError", "CameraError", "NoCameraFound", "FrameError", "CalibrationError", "MissingFileError",
           "FileFormatError"]


class VisionError(Exception):
    """Base of every error of vision whose message is meant for the user (one line, names what is wrong)."""


class CameraError(VisionError, RuntimeError):
    """A camera spec that cannot be opened (missing folder, no device, picamera2 not installed)."""


class NoCameraFound(CameraError):
    """``auto`` found no camera (no Pi camera, no OpenCV device giving frames): the box then takes the
    players' entries by hand and says so on the screen."""


class FrameError(VisionError, ValueError):
    """The input is not a frame a reader can use (None, empty, wrong dtype or shape)."""


class CalibrationError(VisionError, ValueError):
    """Frames that cannot make a calibration (none, wrong dtype, mixed sizes), or a stored calibration
    that cannot be read; the message says why."""


class MissingFileError(VisionError, FileNotFoundError):
    """A file or folder of a measuring set (labels, errata, frames) is not there, or is of the other
    kind; the message names it."""


class FileFormatError(VisionError, ValueError):
    """A measuring set's file that can be opened but not used (not UTF-8, not CSV or JSON of the expected
    shape, an image too large); the message names the file and what is wrong in it."""
