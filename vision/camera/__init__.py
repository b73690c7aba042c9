"""Frame sources behind one interface: a folder of photos, a video file, an OpenCV device, picamera2.

Every source is a :class:`FrameSource` (:mod:`.sources`; the Pi camera in :mod:`.pi`, which imports
picamera2 only when a Pi camera is opened): ``read()`` returns the next frame as a BGR ``uint8`` array
of shape (height, width, 3), or None when the source is exhausted or has no frame now; ``name`` says
what it is; ``close()`` releases it; sources are context managers.

:func:`open_camera` turns a camera spec (the ``--camera`` flag, ARCHITECTURE.md) into a source:
``auto``, ``picamera``, ``device:N``, ``video:FILE``, ``folder:DIR``. A spec that cannot be opened
raises :class:`~vision.errors.CameraError` with a message saying why.
"""

from __future__ import annotations

import logging
from pathlib import Path

from vision.errors import CameraError, NoCameraFound
from vision.camera.pi import SETTINGS_FILE, Picamera2Source
from vision.camera.sources import (DEFAULT_FRAMES_PER_PHOTO, PHOTO_SUFFIXES, DeviceSource, FirstFrameSource,
    FrameSource, PhotoFolderSource, PhotoListSource, VideoSource, bundled_photos_dir)

__all__ = ["open_camera", "CameraError", "FrameSource", "PhotoListSource", "PhotoFolderSource", "VideoSource",
           "DeviceSource", "Picamera2Source", "DEFAULT_FRAMES_PER_PHOTO", "PHOTO_SUFFIXES", "SETTINGS_FILE",
           "bundled_photos_dir", "check_camera_spec", "MAX_DEVICE"]

log = logging.getLogger(__name__)


SPEC_KINDS = ("device", "video", "folder")
"""The camera specs that take an argument (``KIND:ARG``); ``auto`` and ``picamera`` take none."""

MAX_DEVICE = 99
"""The highest ``device:N``: OpenCV reads a number from 100 on as a backend's code plus a device (200 is
V4L2's device 0), and a negative one (-1, "any device") crashes some of its backends."""


def check_camera_spec(spec: str) -> str:
    """``spec`` stripped when it is one :func:`open_camera` understands (nothing is opened); raises
    CameraError naming it and the forms it may take otherwise (``device:N`` takes N from 0 to
    :data:`MAX_DEVICE`)."""
    spec = spec.strip()
    kind, _, arg = spec.partition(":")
    if spec in ("auto", "picamera") or (kind in SPEC_KINDS and arg):
        if kind == "device" and not (arg.isascii() and arg.isdigit() and int(arg) <= MAX_DEVICE):
            raise CameraError(f"camera spec {spec!r}: device number must be a whole number 0-{MAX_DEVICE}")
        return spec
    raise CameraError(f"camera spec {spec!r} not understood: use auto, picamera, device:N, video:FILE, "
                      "folder:DIR, or none to enter everything with the buttons")


def open_camera(spec: str, frames_per_photo: int = DEFAULT_FRAMES_PER_PHOTO, state_dir: Path | None = None) -> FrameSource:
    """Open the source a camera spec names.

    ``picamera``: the Pi camera (picamera2). ``device:N``: OpenCV device N. ``video:FILE``: a video file.
    ``folder:DIR``: the photos of DIR, each held for ``frames_per_photo`` reads. ``auto``: picamera2 if
    it works, else device 0 if it actually delivers a frame; with neither it raises
    :class:`~vision.errors.NoCameraFound` (never someone else's photos: the bundled ones are used only
    when asked for, ``folder:``). ``state_dir``: where
    ``companion calibrate camera`` stored the Pi camera's settings (``vision.camera.pi.SETTINGS_FILE``),
    None for none. Raises CameraError (the reason in its message) when the source cannot be opened or the spec is
    not one of these.
    """
    spec = check_camera_spec(spec)
    kind, _, arg = spec.partition(":")
    settings_file = None if state_dir is None else Path(state_dir) / SETTINGS_FILE
    if spec == "auto":
        return _open_auto(frames_per_photo, settings_file)
    if spec == "picamera":
        return Picamera2Source(settings_file=settings_file)
    if kind == "device":
        return DeviceSource(int(arg))
    if kind == "video":
        return VideoSource(arg)
    return PhotoFolderSource(arg, frames_per_photo)


def _open_auto(frames_per_photo: int, settings_file: Path | None) -> FrameSource:
    try:
        source = Picamera2Source(settings_file=settings_file)
        log.debug("camera auto: using %s", source.name)
        return source
    except CameraError as error:
        pi_camera = str(error)
        log.debug("camera auto: no Pi camera (%s)", error)
    try:
        device = DeviceSource(0)
    except CameraError as error:
        device_0 = str(error)
        log.debug("camera auto: %s", error)
    else:
        first = device.read()
        if first is not None:
            log.debug("camera auto: using %s", device.name)
            return FirstFrameSource(device, first)
        device.close()
        device_0 = "device 0 opened but gave no frame"
        log.debug("camera auto: %s", device_0)
    raise NoCameraFound(f"no camera found (Pi camera: {pi_camera}; {device_0})")
