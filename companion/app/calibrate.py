"""``companion calibrate camera|dice``: the Pi camera's locked settings, and the empty play area.

``calibrate camera`` locks the Pi camera's exposure, white balance and focus.

The measuring is :func:`vision.camera.pi.calibrate` (automatic exposure and white balance
settle on the table, focus fixed at the given distance); this module stores the result in the state
directory (``camera_picamera2.json``), atomically: the JSON goes to a temporary file in the same
directory, is flushed and fsynced, and ``os.replace`` puts it in place, so a power cut leaves either
the old settings or the new ones, never half a file. :class:`vision.camera.pi.Picamera2Source`
reads the file at every start.

``calibrate dice`` stores a few frames of the empty play area for the dice reader. The reader works
without it; with it, the product's reader drops whatever it finds on a part of the table nothing has
been put on since (a board's circles, a card's pips: ``vision.dice.reader.DiceReader._on_the_empty_table``), and the
classical one compares the table with the empty table's own picture (``vision.dice.calibration``).
Frames come from the configured camera (or ``--camera``); the players are asked to clear the play area
first, and ``--wait`` gives them time.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.errors import CameraError, UserError
from companion.files import write_json_atomic
from companion.i18n import _, ngettext
from companion.paths import AppPaths, ensure_state_dir, resolve
from vision.camera import SETTINGS_FILE, open_camera
from vision.camera.pi import calibrate
from vision.dice import calibrate_dice, dice_left_on

log = logging.getLogger(__name__)


def calibrate_camera(paths: AppPaths, *, distance_m: float, settle_frames: int,
                     picamera2_class: type | None = None) -> tuple[Path, dict[str, Any]]:
    """Measure and store the camera settings; returns (settings file, stored dict).

    Raises :class:`UserError` when picamera2 is absent (off the Pi) or the camera cannot be used,
    ``StateDirError`` when the state directory is not writable, ValueError for bad arguments.
    """
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


def calibrate_dice_command(args: Any, env: Any = None) -> int:
    """Read ``args.frames`` frames of the empty play area and store the calibration. Exit status 0.

    Says on stderr when the camera gave fewer frames than asked, and when the dice reader sees dice it is
    sure of on the stored play area: a die left there would later be taken for the table and not read.

    Raises ``companion.errors.CalibrationError`` for unusable frames, ``CameraError`` when the camera
    cannot be opened or gives no frame, and ``OSError`` when the state directory cannot be written (all
    printed as one line by the command line).
    """
    paths = resolve(os.environ if env is None else env)
    config = load_config(paths.config_file)
    ensure_state_dir(paths)
    print(ngettext("Clear the play area: no dice, no hands. Reading {n} frame…",
                   "Clear the play area: no dice, no hands. Reading {n} frames…", args.frames).format(n=args.frames))
    time.sleep(max(0.0, args.wait))
    frames = []
    with open_camera(args.camera or config.camera.spec, frames_per_photo=1, state_dir=paths.state_dir) as camera:
        while len(frames) < args.frames:
            frame = camera.read()
            if frame is None:
                break
            frames.append(frame)
    if not frames:
        raise CameraError(_("the camera gave no frame to calibrate with"))
    if len(frames) < args.frames:
        print(_("The camera gave {n} of the {asked} frames asked for.").format(n=len(frames), asked=args.frames),
              file=sys.stderr)
    path = calibrate_dice(frames, paths.state_dir)
    print(ngettext("Dice calibration stored in {path} ({n} frame).",
                   "Dice calibration stored in {path} ({n} frames).", len(frames)).format(path=path, n=len(frames)))
    left = dice_left_on(frames[-1])
    if left:
        print(ngettext("Is a die still on the play area ({values})? Take it away and calibrate again: "
                       "the reader would not see a die there.",
                       "Are dice still on the play area ({values})? Take them away and calibrate again: "
                       "the reader would not see dice there.", len(left)).format(
                           values=" ".join(str(v) for v in left)), file=sys.stderr)
    return 0
