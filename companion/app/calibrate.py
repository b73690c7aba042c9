"""``companion calibrate camera``: lock the Pi camera's exposure, white balance and focus.

The measuring is :func:`vision.camera.pi.calibrate` (automatic exposure and white balance
settle on the table, focus fixed at the given distance); this module stores the result in the state
directory (``camera_picamera2.json``), atomically: the JSON goes to a temporary file in the same
directory, is flushed and fsynced, and ``os.replace`` puts it in place, so a power cut leaves either
the old settings or the new ones, never half a file. :class:`vision.camera.pi.Picamera2Source`
reads the file at every start.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.errors import CameraError, UserError
from companion.paths import AppPaths, ensure_state_dir, resolve

log = logging.getLogger(__name__)


def write_json_atomic(path: Path, data: Any) -> Path:
    """Write ``data`` as JSON to ``path`` atomically (temp file in the same directory, fsync,
    ``os.replace``, then fsync of the directory). Returns ``path``. Raises OSError as it comes (the
    old file, if any, is then unchanged and no temporary file is left)."""
    path = Path(path)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=2)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    try:
        directory = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return path
    try:
        os.fsync(directory)
    except OSError:
        pass
    finally:
        os.close(directory)
    return path


def calibrate_camera(paths: AppPaths, *, distance_m: float, settle_frames: int,
                     picamera2_class: type | None = None) -> tuple[Path, dict[str, Any]]:
    """Measure and store the camera settings; returns (settings file, stored dict).

    Raises :class:`UserError` when picamera2 is absent (off the Pi) or the camera cannot be used,
    ``StateDirError`` when the state directory is not writable, ValueError for bad arguments.
    """
    from vision.camera.pi import SETTINGS_FILE, calibrate

    try:
        settings = calibrate(distance_m=distance_m, settle_frames=settle_frames, picamera2_class=picamera2_class,
                             created=datetime.now(timezone.utc).isoformat(timespec="seconds"))
    except CameraError as error:
        raise UserError(f"camera calibration needs the Pi camera: {error}") from None
    ensure_state_dir(paths)
    data = settings.to_dict()
    path = write_json_atomic(paths.state_dir / SETTINGS_FILE, data)
    log.info("camera settings stored in %s", path)
    return path, data


def calibrate_camera_command(args: Any, env: Any = None, picamera2_class: type | None = None) -> int:
    """``companion calibrate camera [--distance M] [--settle-frames N] [--json]``; exit status 0."""
    paths = resolve(os.environ if env is None else env)
    path, data = calibrate_camera(paths, distance_m=args.distance, settle_frames=args.settle_frames,
                                  picamera2_class=picamera2_class)
    if args.json:
        print(json.dumps({"file": str(path), **data}))
    else:
        gains = data["colour_gains"]
        print(f"camera settings stored in {path}: exposure {data['exposure_time']} us, gain "
              f"{data['analogue_gain']:.2f}, colour gains {gains[0]:.2f}/{gains[1]:.2f}, focus "
              + (f"{data['lens_position']:.2f} dioptres" if data["lens_position"] is not None else "fixed by the lens"))
    return 0
