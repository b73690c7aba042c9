"""The Raspberry Pi camera through picamera2, as a :class:`vision.camera.sources.FrameSource`, and its settings.

picamera2 exists only on the Pi (it needs libcamera, from apt: STYLE.md 2.1), so it is imported inside
:class:`Picamera2Source` and :func:`calibrate`, never at module level: development and CI machines
import this module safely, and tests pass a fake ``Picamera2`` class.

The stream (STYLE.md 2b): one small analysis stream (``main``, :data:`ANALYSIS_SIZE`, the dice reader
scales frames to 800 px anyway) in ``RGB888``. Exposure and white balance are *locked* to the values
``companion calibrate camera`` measured (AeEnable/AwbEnable off, ExposureTime, AnalogueGain,
ColourGains), so the colours and brightness the readers see do not drift while hands move over the
table; uncalibrated, the automatic algorithms run and a warning says so. Focus is *fixed*: on a camera
with autofocus (Camera Module 3) AfMode is Manual and LensPosition is ``1 / distance`` dioptres
(its autofocus hunts at table distance); a fixed-focus module (v1, v2, HQ) gets no focus controls.
Only controls the camera advertises (``camera_controls``) are sent, since libcamera refuses others.

Colour order (STYLE.md 2.1): libcamera names formats after the little-endian DRM convention, so a
``RGB888`` stream arrives in numpy as B, G, R (what OpenCV wants) and ``BGR888`` as R, G, B;
``XRGB8888`` arrives as B, G, R, X and ``XBGR8888`` as R, G, B, X. We ask for ``RGB888`` and
:func:`to_bgr` converts whatever format the stream really has, so frames leave here as BGR and are
never converted again inside ``vision/``.

The settings file (:data:`SETTINGS_FILE` in the state directory, JSON, written atomically by
``companion.app.calibrate``) holds a :class:`CameraSettings`.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import CameraError
from vision.camera.sources import FrameSource

log = logging.getLogger(__name__)

ANALYSIS_SIZE = (1024, 768)
"""Analysis stream size (width, height) in pixels: above the 640 px the dice reader works at, so that small dice
can be read again at the frame's own scale (the reader's ``zoom_below``)."""
DEFAULT_SIZE = ANALYSIS_SIZE
DEFAULT_FORMAT = "RGB888"
"""The format requested: arrives as B, G, R bytes (see the module docstring)."""
BUFFER_COUNT = 4
SETTINGS_FILE = "camera_picamera2.json"
"""File name of the calibrated settings in the state directory."""
DEFAULT_DISTANCE_M = 0.6
AF_MODE_MANUAL = 0  # libcamera.controls.AfModeEnum.Manual

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


@dataclass(frozen=True)
class CameraSettings:
    """The Pi camera's stream and locked controls.

    size: analysis stream (width, height) pixels, each 64-4608. fmt: one of the RGB formats of
    :func:`to_bgr`. exposure_time: microseconds (> 0) or None (automatic exposure). analogue_gain:
    >= 1.0 or None. colour_gains: (red, blue) white-balance gains, each > 0, or None (automatic white
    balance). lens_position: dioptres (1 / metres; 0 = infinity) for cameras with a focus motor, or
    None. sensor: the camera model that was calibrated (e.g. ``imx708``). created: ISO 8601 time.
    Exposure, gain and colour gains are locked only when all three are set.
    """

    size: tuple[int, int] = ANALYSIS_SIZE
    fmt: str = DEFAULT_FORMAT
    exposure_time: int | None = None
    analogue_gain: float | None = None
    colour_gains: tuple[float, float] | None = None
    lens_position: float | None = 1.0 / DEFAULT_DISTANCE_M
    sensor: str = ""
    created: str = ""

    def __post_init__(self) -> None:
        width, height = self.size
        if not (64 <= width <= 4608 and 64 <= height <= 4608):
            raise ValueError(f"size must be two pixel counts 64-4608, got {self.size}")
        if self.fmt not in _FORMATS:
            raise ValueError(f"fmt must be one of {', '.join(_FORMATS)}, got {self.fmt!r}")
        if self.exposure_time is not None and self.exposure_time <= 0:
            raise ValueError(f"exposure_time must be > 0 microseconds, got {self.exposure_time}")
        if self.analogue_gain is not None and not self.analogue_gain >= 1.0:
            raise ValueError(f"analogue_gain must be >= 1.0, got {self.analogue_gain}")
        if self.colour_gains is not None and (len(self.colour_gains) != 2 or min(self.colour_gains) <= 0):
            raise ValueError(f"colour_gains must be (red, blue) > 0, got {self.colour_gains}")
        if self.lens_position is not None and not (0 <= self.lens_position <= 32 and math.isfinite(self.lens_position)):
            raise ValueError(f"lens_position must be 0-32 dioptres, got {self.lens_position}")

    @property
    def locked(self) -> bool:
        """Whether exposure and white balance are locked (all three measured values are set)."""
        return None not in (self.exposure_time, self.analogue_gain, self.colour_gains)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the settings file's content)."""
        return {"version": 1, "size": list(self.size), "format": self.fmt, "exposure_time": self.exposure_time,
                "analogue_gain": self.analogue_gain,
                "colour_gains": None if self.colour_gains is None else list(self.colour_gains),
                "lens_position": self.lens_position, "sensor": self.sensor, "created": self.created}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "CameraSettings":
        """Inverse of :meth:`to_dict`; raises ValueError naming the bad key."""
        if data.get("version") != 1:
            raise ValueError(f"unknown settings version {data.get('version')!r} (expected 1)")
        try:
            gains = data.get("colour_gains")
            return cls(size=(int(data["size"][0]), int(data["size"][1])), fmt=str(data.get("format", DEFAULT_FORMAT)),
                       exposure_time=None if data.get("exposure_time") is None else int(data["exposure_time"]),
                       analogue_gain=None if data.get("analogue_gain") is None else float(data["analogue_gain"]),
                       colour_gains=None if gains is None else (float(gains[0]), float(gains[1])),
                       lens_position=None if data.get("lens_position") is None else float(data["lens_position"]),
                       sensor=str(data.get("sensor", "")), created=str(data.get("created", "")))
        except (KeyError, IndexError, TypeError) as error:
            raise ValueError(f"camera settings: missing or malformed value ({type(error).__name__}: {error})") from None


def load_settings(path: Path) -> CameraSettings | None:
    """The settings stored at ``path``, or None when there is no such file.

    Raises CameraError naming the file when it cannot be read or is not valid settings JSON.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as error:
        raise CameraError(f"{path}: cannot read the camera settings: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise CameraError(f"{path}: not camera settings (not UTF-8 text); run `companion calibrate camera` "
                          "again") from None
    try:
        return CameraSettings.from_dict(json.loads(text))
    except (json.JSONDecodeError, ValueError, AttributeError, TypeError, KeyError, RecursionError) as error:
        raise CameraError(f"{path}: not valid camera settings ({error}); run `companion calibrate camera` "
                          "again") from None


def focus_controls(camera_controls: Mapping[str, Any], lens_position: float | None) -> dict[str, Any]:
    """Fixed focus: ``{"AfMode": Manual, "LensPosition": dioptres}`` for a camera with a focus motor
    (it advertises AfMode and LensPosition), the position clamped to the advertised (min, max);
    empty for a fixed-focus camera or when ``lens_position`` is None."""
    if lens_position is None or "AfMode" not in camera_controls or "LensPosition" not in camera_controls:
        return {}
    limits = camera_controls["LensPosition"]
    low, high = float(limits[0]), float(limits[1])
    return {"AfMode": AF_MODE_MANUAL, "LensPosition": min(max(lens_position, low), high)}


def stream_controls(settings: CameraSettings, camera_controls: Mapping[str, Any]) -> dict[str, Any]:
    """The controls the stream starts with: exposure and white balance locked to the calibrated
    values (automatic while uncalibrated), focus fixed; only controls in ``camera_controls``."""
    if settings.locked:
        wanted: dict[str, Any] = {"AeEnable": False, "AwbEnable": False, "ExposureTime": settings.exposure_time,
                                  "AnalogueGain": settings.analogue_gain,
                                  "ColourGains": tuple(settings.colour_gains or ())}
    else:
        wanted = {"AeEnable": True, "AwbEnable": True}
    wanted.update(focus_controls(camera_controls, settings.lens_position))
    return {key: value for key, value in wanted.items() if key in camera_controls}


def configuration_kwargs(settings: CameraSettings, camera_controls: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments for ``Picamera2.create_preview_configuration``: the analysis stream,
    :data:`BUFFER_COUNT` buffers and :func:`stream_controls`."""
    return {"main": {"size": tuple(settings.size), "format": settings.fmt}, "buffer_count": BUFFER_COUNT,
            "controls": stream_controls(settings, camera_controls)}


def make_configuration(camera: Any, settings: CameraSettings) -> dict[str, Any]:
    """The configuration to hand to ``camera.configure``: picamera2's preview configuration for the
    analysis stream, with :data:`BUFFER_COUNT` buffers and :func:`stream_controls` merged into its
    ``controls`` (picamera2 configurations are plain dicts meant to be edited before ``configure``).
    A camera object without ``camera_controls`` gets no controls."""
    kwargs = configuration_kwargs(settings, getattr(camera, "camera_controls", {}))
    config = camera.create_preview_configuration(main=kwargs["main"])
    config["buffer_count"] = kwargs["buffer_count"]
    if kwargs["controls"]:
        config["controls"] = {**(config.get("controls") or {}), **kwargs["controls"]}
    return config


def import_picamera2() -> type:
    """The ``Picamera2`` class; raises CameraError saying it is absent off the Pi."""
    try:
        from picamera2 import Picamera2  # only on the Pi
    except ImportError as error:
        raise CameraError(f"picamera2 is not installed ({error}); on Raspberry Pi OS install python3-picamera2 "
                          "with apt and use a venv made with --system-site-packages") from None
    return Picamera2


class Picamera2Source(FrameSource):
    """Frames from the Pi camera's analysis stream, BGR uint8 (h, w, 3).

    settings: the stream and controls (default: the calibrated settings from ``settings_file``, itself
    defaulting to :func:`default_settings_file`; the defaults, with a warning, when there is none).
    size / fmt override the settings' stream. picamera2_class: ``Picamera2`` or a test fake.
    Raises CameraError when picamera2 is not installed, the settings file is bad, or no camera can be
    started.
    """

    def __init__(self, size: tuple[int, int] | None = None, fmt: str | None = None, *,
                 settings: CameraSettings | None = None, settings_file: Path | None = None,
                 picamera2_class: type | None = None):
        camera_class = picamera2_class or import_picamera2()
        if settings is None:
            settings = load_settings(settings_file) if settings_file is not None else None
            if settings is None:
                log.warning("camera not calibrated (%s absent): automatic exposure and white balance; run "
                            "`companion calibrate camera`", settings_file or SETTINGS_FILE)
                settings = CameraSettings()
        if size is not None or fmt is not None:
            settings = replace(settings, size=tuple(size or settings.size), fmt=fmt or settings.fmt)
        self.settings = settings
        self._camera: Any = None
        try:
            self._camera = camera_class()
            config = make_configuration(self._camera, settings)
            self._camera.configure(config)
            self._camera.start()
        except Exception as error:  # libcamera raises RuntimeError, IndexError (no camera), ...
            if self._camera is not None:
                try:
                    self._camera.close()
                except Exception:  # noqa: BLE001 - already failing; keep the first error
                    pass
            raise CameraError(f"Pi camera cannot be started ({error})") from None
        self._format = self._camera.camera_config["main"].get("format", settings.fmt)
        model = getattr(self._camera, "camera_properties", {}).get("Model", "camera")
        width, height = settings.size
        self.name = f"picamera:{width}x{height}"
        self.controls = dict(config.get("controls") or {})
        log.info("picamera2 started: %s, %dx%d %s, controls %s", model, width, height, self._format, self.controls)

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


def calibrate(*, distance_m: float = DEFAULT_DISTANCE_M, settle_frames: int = 30,
              size: tuple[int, int] = ANALYSIS_SIZE, picamera2_class: type | None = None,
              created: str = "") -> CameraSettings:
    """Measure the settings to lock: run the camera with automatic exposure and white balance (focus
    already fixed at ``distance_m`` metres, > 0) for ``settle_frames`` (>= 1) frames and keep the last
    frame's ExposureTime, AnalogueGain and ColourGains.

    Point the camera at the empty table under the usual light first. Raises CameraError when
    picamera2 is absent, the camera cannot be started, or its metadata lacks those values; ValueError
    for a bad distance or frame count.
    """
    if not distance_m > 0 or settle_frames < 1:
        raise ValueError(f"need distance_m > 0 and settle_frames >= 1, got {distance_m}, {settle_frames}")
    camera_class = picamera2_class or import_picamera2()
    start = CameraSettings(size=tuple(size), lens_position=1.0 / distance_m)
    camera: Any = None
    try:
        camera = camera_class()
        controls = getattr(camera, "camera_controls", {})
        camera.configure(make_configuration(camera, start))
        camera.start()
        metadata: Mapping[str, Any] = {}
        for _ in range(settle_frames):
            metadata = camera.capture_metadata()
        model = str(getattr(camera, "camera_properties", {}).get("Model", ""))
    except CameraError:
        raise
    except Exception as error:  # libcamera's errors
        raise CameraError(f"Pi camera cannot be started ({error})") from None
    finally:
        if camera is not None:
            try:
                camera.stop()
                camera.close()
            except Exception:  # noqa: BLE001 - closing after a failure
                pass
    missing = [k for k in ("ExposureTime", "AnalogueGain", "ColourGains") if metadata.get(k) is None]
    if missing:
        raise CameraError(f"the camera's metadata lacks {', '.join(missing)}; cannot lock exposure and white balance")
    red, blue = metadata["ColourGains"]
    return CameraSettings(size=tuple(size), exposure_time=int(metadata["ExposureTime"]),
                          analogue_gain=max(1.0, float(metadata["AnalogueGain"])), colour_gains=(float(red), float(blue)),
                          lens_position=start.lens_position if focus_controls(controls, start.lens_position) else None,
                          sensor=model, created=created)
