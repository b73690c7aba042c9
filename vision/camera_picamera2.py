"""The Raspberry Pi camera through picamera2, as a :class:`vision.camera.FrameSource`.

picamera2 exists only on the Pi (it needs libcamera), so it is imported inside
:class:`Picamera2Source`, never at module level: development and CI machines import this module safely.

Colour order (STYLE.md part 2.1): libcamera names formats after the little-endian DRM convention, so a
``RGB888`` stream arrives in numpy as B, G, R (what OpenCV wants) and ``BGR888`` as R, G, B;
``XRGB8888`` arrives as B, G, R, X and ``XBGR8888`` as R, G, B, X. We ask for ``RGB888`` and
:func:`to_bgr` converts whatever format the stream really has, so frames leave here as BGR and are
never converted again inside ``vision/``.
"""

from __future__ import annotations

import logging

import cv2
import numpy as np

from vision.camera import CameraError, FrameSource

log = logging.getLogger(__name__)

# Main stream size (pixels): enough for dice of ~60 px from a table-height camera; the reader scales
# frames down to 800 px anyway.
DEFAULT_SIZE = (1280, 960)
# The format requested: arrives as B, G, R bytes (see the module docstring).
DEFAULT_FORMAT = "RGB888"

# For each libcamera format, how its numpy array is turned into BGR.
_FORMATS = {
    "RGB888": None,  # already B, G, R
    "BGR888": cv2.COLOR_RGB2BGR,  # R, G, B in memory
    "XRGB8888": cv2.COLOR_BGRA2BGR,  # B, G, R, X
    "XBGR8888": cv2.COLOR_RGBA2BGR,  # R, G, B, X
}


def to_bgr(array: np.ndarray, fmt: str) -> np.ndarray:
    """Convert a picamera2 array of libcamera format ``fmt`` to BGR uint8 (h, w, 3).

    Raises CameraError for a format this module does not handle (YUV, raw).
    """
    if fmt not in _FORMATS:
        raise CameraError(f"picamera2 stream format {fmt} is not supported (use RGB888)")
    code = _FORMATS[fmt]
    out = array if code is None else cv2.cvtColor(array, code)
    return np.ascontiguousarray(out[..., :3]) if out.ndim == 3 and out.shape[2] > 3 else out


class Picamera2Source(FrameSource):
    """Frames from the Pi camera's main stream, BGR uint8 of ``size`` (width, height).

    Raises CameraError when picamera2 is not installed or no camera can be started.
    """

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, fmt: str = DEFAULT_FORMAT):
        try:
            from picamera2 import Picamera2  # only on the Pi
        except ImportError as error:
            raise CameraError(f"picamera2 is not installed ({error})") from None
        try:
            self._camera = Picamera2()
            config = self._camera.create_preview_configuration(main={"size": tuple(size), "format": fmt})
            self._camera.configure(config)
            self._camera.start()
        except Exception as error:  # libcamera raises RuntimeError, IndexError (no camera), ...
            raise CameraError(f"Pi camera cannot be started ({error})") from None
        self._format = self._camera.camera_config["main"].get("format", fmt)
        self.name = f"picamera:{size[0]}x{size[1]}"
        log.info("picamera2 started: %s, format %s", size, self._format)

    def read(self) -> np.ndarray | None:
        if self._camera is None:
            return None
        try:
            array = self._camera.capture_array("main")
        except Exception as error:  # a camera unplugged mid-session: report no frame, do not crash
            log.warning("picamera2 capture failed: %s", error)
            return None
        return to_bgr(array, self._format)

    def close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
                self._camera.close()
            finally:
                self._camera = None
