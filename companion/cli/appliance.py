"""Subcommands of the box as an appliance: ``menu``, ``selftest``, ``calibrate camera|dice``.

``menu`` is what the systemd unit starts; ``selftest --json`` says what works on this machine;
``calibrate camera`` stores the Pi camera's locked exposure, white balance and focus in the state
directory. docs/CLI.md and README.md (Build the box) describe them.
"""

from __future__ import annotations

import argparse
import math

from companion.app.calibrate import calibrate_camera_command, calibrate_dice_command
from companion.app.menu import menu_command
from companion.app.report import report_command
from companion.app.selftest import selftest_command
from companion.cli.common import LANGUAGE_HELP, positive
from companion.errors import UserError
from vision.camera import check_camera_spec

DISTANCE_M = (0.05, 100.0)
"""``calibrate camera --distance``: the camera to table distances taken, metres (the focus is set to
1 / distance dioptres)."""
MAX_WAIT_S = 3600.0
"""``calibrate dice --wait``: the longest wait taken, seconds."""


def add_commands(subparsers) -> None:
    """Register ``menu``, ``selftest`` and ``calibrate`` on the ``companion`` parser."""
    menu = subparsers.add_parser("menu", help="the full-screen menus driven by the buttons (the appliance)")
    menu.add_argument("--input", default="keys+gpio", metavar="SPEC",
                      help="keys, gpio, script:FILE, several joined with + (default: keys+gpio)")
    menu.add_argument("--camera", default=None, metavar="SPEC", help="camera spec for the games (default: config)")
    menu.add_argument("--headless", action="store_true", help="no window (SDL dummy driver)")
    menu.add_argument("--language", metavar="LANG", help=LANGUAGE_HELP)
    menu.add_argument("--max-ticks", type=int, default=None, help=argparse.SUPPRESS)
    menu.set_defaults(handler=_menu)

    report = subparsers.add_parser("report", help="one archive for a bug report: versions, self-test, config, "
                                   "the last errors, the journal (never the saved games)")
    report.add_argument("--output", metavar="FILE", default=None,
                        help="the archive (.tar.gz, or .zip; default: tabletop-companion-report-DATE.tar.gz in the "
                             "current folder, else the temporary folder)")
    report.add_argument("--force", action="store_true", help="replace the --output file when it is there already")
    report.set_defaults(handler=report_command)

    selftest = subparsers.add_parser("selftest", help="check camera, pins, display, paths and store")
    selftest.add_argument("--json", action="store_true", help="one JSON object")
    selftest.add_argument("--frames", type=int, default=10, help="frames read to measure the camera (default 10)")
    selftest.set_defaults(handler=selftest_command)

    calibrate = subparsers.add_parser("calibrate", help="calibrate a part of the box")
    cal_sub = calibrate.add_subparsers(dest="calibrate_command", metavar="WHAT")
    cal_sub.required = True
    camera = cal_sub.add_parser("camera", help="lock the Pi camera's exposure, white balance and focus")
    camera.add_argument("--distance", type=float, default=0.6, metavar="METRES",
                        help="camera to table distance for the fixed focus (default 0.6 m)")
    camera.add_argument("--settle-frames", type=int, default=30,
                        help="frames the automatic exposure and white balance get to settle (default 30)")
    camera.add_argument("--json", action="store_true", help="print the stored settings as JSON")
    camera.set_defaults(handler=_calibrate_camera)
    dice = cal_sub.add_parser("dice", help="store frames of the empty play area for the dice reader")
    dice.add_argument("--camera", default=None, metavar="SPEC", help="camera spec (default: config)")
    dice.add_argument("--frames", type=int, default=5, help="frames of the empty play area (default 5)")
    dice.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                      help="time to clear the play area before reading (default 0)")
    dice.set_defaults(handler=_calibrate_dice)


def _camera_flag(spec: str | None) -> None:
    """A ``--camera`` spec checked before anything is opened (``device:-1`` crashes OpenCV): CameraError
    naming it; ``none`` is the players entering everything by hand."""
    if spec is not None and spec != "none":
        check_camera_spec(spec)


def _menu(args) -> int:
    _camera_flag(args.camera)
    return menu_command(args)


def _calibrate_camera(args) -> int:
    low, high = DISTANCE_M
    if not (math.isfinite(args.distance) and low <= args.distance <= high):
        raise UserError(f"--distance is the camera to table distance in metres, {low:g} to {high:g}, "
                        f"not {args.distance:g}")
    positive(args.settle_frames, "--settle-frames")
    return calibrate_camera_command(args)


def _calibrate_dice(args) -> int:
    _camera_flag(args.camera)
    positive(args.frames, "--frames")
    if not (math.isfinite(args.wait) and 0 <= args.wait <= MAX_WAIT_S):
        raise UserError(f"--wait is seconds to clear the play area, 0 to {MAX_WAIT_S:g}, not {args.wait:g}")
    return calibrate_dice_command(args)
