"""Frame sources behind one interface: a folder of photos, a video file, an OpenCV device, picamera2.

Every source is a :class:`FrameSource`: ``read()`` returns the next frame as a BGR ``uint8`` array of
shape (height, width, 3), or None when the source is exhausted or has no frame now; ``name`` says what
it is; ``close()`` releases it; sources are context managers.

``vision.camera.open_camera`` turns a camera spec (the ``--camera`` flag) into one of them.
"""

from __future__ import annotations

import importlib.resources
import logging
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from vision.errors import CameraError
from vision.frames import decode_file

log = logging.getLogger(__name__)

# File name endings read by PhotoFolderSource (what cv2.imread decodes on every platform).
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
# Default number of reads each photo is held for: a still scene long enough for the session's
# stability check (same values over a few frames).
DEFAULT_FRAMES_PER_PHOTO = 5


class FrameSource:
    """Base of every source: ``read()``, ``name``, ``live``, ``close()`` and the context-manager protocol.

    ``live``: the frames show the table as it moves (camera, video), so the play loop waits for the dice
    to settle between them (``companion.readers.settle``); False for photos, each a still scene.
    """

    name: str = "frame source"
    live: bool = True

    def read(self) -> np.ndarray | None:
        """The next BGR uint8 frame (h, w, 3), or None when exhausted or not available."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the source; later reads return None."""

    def __enter__(self) -> "FrameSource":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _as_bgr(frame: np.ndarray | None) -> np.ndarray | None:
    """Normalise a decoded frame to BGR uint8 (h, w, 3): grey and BGRA are converted, others dropped."""
    if frame is None or frame.dtype != np.uint8 or frame.size == 0:
        return None
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    return None


class PhotoListSource(FrameSource):
    """Photos in the given order (repeats allowed), each held as a still scene for ``frames_per_photo``
    consecutive reads; then None. A file that cannot be read, is cut short or cannot be decoded
    (:func:`vision.frames.decode_file`) is skipped with a logged warning.
    Raises CameraError when the list is empty, ValueError when frames_per_photo < 1.
    """

    live = False

    def __init__(self, paths: list[Path], frames_per_photo: int = DEFAULT_FRAMES_PER_PHOTO,
                 name: str = "photo list"):
        if frames_per_photo < 1:
            raise ValueError(f"frames_per_photo must be at least 1, got {frames_per_photo}")
        self.paths = [Path(p) for p in paths]
        if not self.paths:
            raise CameraError(f"{name}: no photos to show")
        self.frames_per_photo = frames_per_photo
        self.name = name
        self._next = 0
        self._frame: np.ndarray | None = None
        self._left = 0
        self._closed = False

    @property
    def photos_used(self) -> int:
        """How many photos of the list have been started."""
        return self._next

    @property
    def current_path(self) -> Path | None:
        """The photo the last frame came from (None before the first read)."""
        return self.paths[self._next - 1] if self._next else None

    def read(self) -> np.ndarray | None:
        if self._closed:
            return None
        while self._left == 0:
            if self._next >= len(self.paths):
                return None
            path = self.paths[self._next]
            self._next += 1
            frame, why = decode_file(path)
            frame = _as_bgr(frame)
            if frame is None:
                log.warning("skipping %s: %s", path, why or "not a readable image")
                continue
            self._frame, self._left = frame, self.frames_per_photo
        self._left -= 1
        return self._frame.copy()

    def close(self) -> None:
        self._closed = True
        self._frame = None


class PhotoFolderSource(PhotoListSource):
    """The photos of a folder, sorted by file name, each held as a still scene for
    ``frames_per_photo`` consecutive reads; then None. A file that cannot be decoded is skipped with a
    logged warning. Raises CameraError when the folder does not exist or holds no photo files.
    """

    def __init__(self, directory: str | Path, frames_per_photo: int = DEFAULT_FRAMES_PER_PHOTO):
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise CameraError(f"photo folder {self.directory} does not exist")
        paths = sorted(p for p in self.directory.iterdir() if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES)
        if not paths:
            raise CameraError(f"photo folder {self.directory} holds no photos ({', '.join(PHOTO_SUFFIXES)})")
        super().__init__(paths, frames_per_photo, name=f"folder:{self.directory}")


class _CaptureSource(FrameSource):
    """A cv2.VideoCapture (file or device)."""

    def __init__(self, capture: cv2.VideoCapture, name: str):
        self._capture = capture
        self.name = name

    def read(self) -> np.ndarray | None:
        if self._capture is None:
            return None
        ok, frame = self._capture.read()
        return _as_bgr(frame) if ok else None

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class VideoSource(_CaptureSource):
    """Frames of a video file in order, then None. Raises CameraError when the file cannot be opened."""

    def __init__(self, path: str | Path):
        path = Path(path)
        if not path.is_file():
            raise CameraError(f"video file {path} does not exist")
        capture = cv2.VideoCapture(str(path))
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"video file {path} cannot be opened (not a video OpenCV can decode)")
        super().__init__(capture, f"video:{path}")


@contextmanager
def _quiet_opencv():
    """OpenCV's log limited to errors for the duration (its warnings go straight to stderr)."""
    log_api = getattr(getattr(cv2, "utils", None), "logging", None)
    if log_api is None:
        yield
        return
    before = log_api.getLogLevel()
    log_api.setLogLevel(log_api.LOG_LEVEL_ERROR)
    try:
        yield
    finally:
        log_api.setLogLevel(before)


class DeviceSource(_CaptureSource):
    """A camera through OpenCV (``/dev/videoN`` on Linux). Raises CameraError when it cannot be opened."""

    def __init__(self, index: int):
        if not 0 <= index <= 99:  # vision.camera.MAX_DEVICE: -1 crashes OpenCV, 100 on names a backend
            raise CameraError(f"camera device {index}: device numbers are 0-99")
        with _quiet_opencv():  # its own "can't open camera by index" lines say less than our message
            capture = cv2.VideoCapture(index)
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"camera device {index} cannot be opened")
        super().__init__(capture, f"device:{index}")


class FirstFrameSource(FrameSource):
    """Wraps a source whose first frame was already read (``auto`` checks a device really delivers)."""

    def __init__(self, source: FrameSource, first: np.ndarray):
        self._source, self._first = source, first
        self.name = source.name
        self.live = source.live

    def read(self) -> np.ndarray | None:
        if self._first is not None:
            frame, self._first = self._first, None
            return frame
        return self._source.read()

    def close(self) -> None:
        self._first = None
        self._source.close()


def bundled_photos_dir() -> Path:
    """The folder of real dice photos shipped in the package (``assets/dice_photos``)."""
    return Path(str(importlib.resources.files("assets") / "dice_photos"))
