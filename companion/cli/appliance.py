"""Subcommands of the box as an appliance: ``menu``, ``selftest``, ``calibrate camera|dice``.

``menu`` is what the systemd unit starts; ``selftest --json`` says what works on this machine;
``calibrate camera`` stores the Pi camera's locked exposure, white balance and focus in the state
directory. docs/CLI.md and README.md (Build the box) describe them.
"""

from __future__ import annotations

import argparse

from companion.app.calibrate import calibrate_camera_command, calibrate_dice_command
from companion.app.menu import menu_command
from companion.app.selftest import selftest_command
from companion.cli.common import LANGUAGE_HELP


def add_commands(subparsers) -> None:
    """Register ``menu``, ``selftest`` and ``calibrate`` on the ``companion`` parser."""
    menu = subparsers.add_parser("menu", help="the full-screen menus driven by the buttons (the appliance)")
    menu.add_argument("--input", default="keys+gpio", metavar="SPEC",
                      help="keys, gpio, script:FILE, several joined with + (default: keys+gpio)")
    menu.add_argument("--camera", default=None, metavar="SPEC", help="camera spec for the games (default: config)")
    menu.add_argument("--headless", action="store_true", help="no window (SDL dummy driver)")
    menu.add_argument("--language", metavar="LANG", help=LANGUAGE_HELP)
    menu.add_argument("--max-ticks", type=int, default=None, help=argparse.SUPPRESS)
    menu.set_defaults(handler=menu_command)

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
    camera.set_defaults(handler=calibrate_camera_command)
    dice = cal_sub.add_parser("dice", help="store frames of the empty play area for the dice reader")
    dice.add_argument("--camera", default=None, metavar="SPEC", help="camera spec (default: config)")
    dice.add_argument("--frames", type=int, default=5, help="frames of the empty play area (default 5)")
    dice.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                      help="time to clear the play area before reading (default 0)")
    dice.set_defaults(handler=calibrate_dice_command)
