"""``companion calibrate dice``: a few frames of the empty play area, stored for the dice reader.

The reader works without it; with it, the product's reader drops whatever it finds on a part of the table
nothing has been put on since (a board's circles, a card's pips: ``vision.dice.learned.on_the_empty_table``),
and the classical one compares the table with the empty table's own picture (``vision.dice.calibration``).
Frames come from the configured camera (or ``--camera``); the players are asked to clear the play area
first, and ``--wait`` gives them time.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from companion.i18n import _, ngettext


def calibrate_dice_command(args: Any, env: Any = None) -> int:
    """Read ``args.frames`` frames of the empty play area and store the calibration. Exit status 0.

    Says on stderr when the camera gave fewer frames than asked, and when the dice reader sees dice it is
    sure of on the stored play area: a die left there would later be taken for the table and not read.

    Raises ``vision.dice.calibration.CalibrationError`` (a ValueError) for unusable frames,
    ``vision.camera.sources.CameraError`` when the camera cannot be opened, and ``OSError`` when the state
    directory cannot be written (all printed as one line by the command line).
    """
    from companion.config import load_config
    from companion.paths import ensure_state_dir, resolve
    from vision.camera.sources import open_camera
    from vision.dice.calibration import calibrate_dice, dice_left_on

    paths = resolve(os.environ if env is None else env)
    config = load_config(paths.config_file)
    ensure_state_dir(paths)
    print(ngettext("Clear the play area: no dice, no hands. Reading {n} frame…",
                   "Clear the play area: no dice, no hands. Reading {n} frames…", args.frames).format(n=args.frames))
    time.sleep(max(0.0, args.wait))
    frames = []
    with open_camera(args.camera or config.camera.spec, frames_per_photo=1) as camera:
        while len(frames) < args.frames:
            frame = camera.read()
            if frame is None:
                break
            frames.append(frame)
    if not frames:
        raise ValueError(_("the camera gave no frame to calibrate with"))
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
