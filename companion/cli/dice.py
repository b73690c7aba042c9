"""``companion dice read`` and ``companion dice eval``: the dice reader on image files, from the shell.

``companion dice read IMAGE... [--json] [--debug-out DIR]``
    Reads every image. With ``--json`` prints one JSON object a line, in the order given:
    ``{"file": str, "dice": [{"value": 1-6, "box": [x0, y0, x1, y1], "confidence": 0-1,
    "flagged": bool}], "ms": float}`` (boxes in pixels of the image, x1/y1 exclusive; ``ms`` the
    reader's wall time on one OpenCV thread). A frame the reader judged unusable (black, saturated)
    adds ``"problem": str``. Without ``--json`` prints one readable line per image. ``--debug-out DIR``
    writes ``DIR/<image stem>.png``: the image with each die's box, value and confidence, red when
    flagged. A file that is missing or not an image prints an error on stderr; the other images are
    still read and the command then exits with status 1.

``companion dice eval DIR [--json] [--errata CSV]``
    Runs the reader on a labelled set (``DIR/labels.csv``, see :mod:`vision.dice.eval`) and prints the
    figures: one JSON object with ``--json``, else a table. ``--errata CSV`` corrects the labels first
    (:func:`vision.dice.eval.load_errata`; the figures then also give ``errata``, the rows applied): the
    figures against the labels as published stay the ones without it.
"""

from __future__ import annotations

import argparse
import json
import logging

import cv2
import numpy as np

from companion.cli.common import add_reader_commands
from companion.cli.images import read_each_image
from companion.paths import resolve
from vision.dice import evaluate, load_calibration, load_errata, read_dice, warm_up
from vision.observation import DiceObservation

log = logging.getLogger(__name__)

EVAL_ORDER = ("images", "dice", "image_accuracy", "image_accuracy_1_6", "die_precision", "die_recall",
              "found", "unflagged_precision", "flag_rate", "flagged_errors", "flagged_correct",
              "median_ms", "p95_ms", "unreadable", "errata")


def add_commands(subparsers) -> None:
    """Register ``dice read`` and ``dice eval`` on the ``companion`` command's subparsers."""
    dice_sub, _read = add_reader_commands(subparsers, "dice", "read dice in photos, measure the reader",
                                          "read the dice in image files", run_read)

    ev = dice_sub.add_parser("eval", help="measure the reader on a labelled set (DIR/labels.csv)")
    ev.add_argument("dir", metavar="DIR", help="folder with labels.csv (and boxes.csv or cells.csv)")
    ev.add_argument("--json", action="store_true", help="print one JSON object")
    ev.add_argument("--errata", metavar="CSV", help="correct the labels first (file,x_min,y_min,x_max,y_max,"
                    "label,shows; byler_d6's: assets/dice_model/byler_d6_label_errata.csv)")
    ev.set_defaults(handler=run_eval)


def observation_json(file: str, obs: DiceObservation) -> dict:
    """The JSON object ``dice read --json`` prints for one image."""
    out = {"file": file, "dice": [d.to_dict() for d in obs.dice], "ms": round(obs.ms, 3)}
    if obs.problem:
        out["problem"] = obs.problem
    return out


def draw_overlay(frame_bgr: np.ndarray, obs: DiceObservation) -> np.ndarray:
    """A copy of the frame with each die's box, value and confidence (green; red when flagged), each label
    outlined in black and put where it covers no other die's box nor another label (:func:`label_spot`)."""
    out = frame_bgr.copy()
    thick = max(1, round(max(out.shape[:2]) / 500))
    scale = max(0.4, max(out.shape[:2]) / 1600)
    boxes = [tuple(int(v) for v in die.box) for die in obs.dice]
    colours = [(0, 0, 255) if die.flagged else (0, 200, 0) for die in obs.dice]
    for (x0, y0, x1, y1), colour in zip(boxes, colours):  # every box first: a label may not cover one
        cv2.rectangle(out, (x0, y0), (x1 - 1, y1 - 1), colour, thick)
    taken: list[tuple[int, int, int, int]] = []
    for i, (die, colour) in enumerate(zip(obs.dice, colours)):
        label = f"{die.value} {die.confidence:.2f}" + (" ?" if die.flagged else "")
        (w, h), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        spot = label_spot(boxes[i], (w, h + base), out.shape[:2], boxes[:i] + boxes[i + 1:] + taken)
        taken.append(spot)
        origin = (spot[0], spot[3] - base)
        cv2.putText(out, label, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.putText(out, label, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)
    if obs.problem:
        cv2.putText(out, obs.problem, (8, 24), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 255), thick)
    return out


def label_spot(box: tuple[int, int, int, int], size: tuple[int, int], frame: tuple[int, int],
               avoid: list[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
    """Where a label of ``size`` (w, h) px goes for ``box`` (x0, y0, x1, y1) in a ``frame`` (h, w): the first of
    above, below, right of and left of the box (each clamped into the frame) that overlaps neither the box nor
    any of ``avoid`` (other dice's boxes, labels placed before); above when none is free. Returns (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    w, h = size

    def clamp(x: int, y: int) -> tuple[int, int, int, int]:
        x = min(max(0, x), max(0, frame[1] - w))
        y = min(max(0, y), max(0, frame[0] - h))
        return x, y, x + w, y + h

    spots = [clamp(x0, y0 - h - 2), clamp(x0, y1 + 2), clamp(x1 + 2, y0), clamp(x0 - w - 2, y0)]
    for spot in spots:
        if not any(spot[0] < b[2] and b[0] < spot[2] and spot[1] < b[3] and b[1] < spot[3] for b in [box, *avoid]):
            return spot
    return spots[0]


def run_read(args: argparse.Namespace) -> int:
    cv2.setNumThreads(1)
    warm_up()  # the models and OpenCV's tables load now, not in the first photo's ms
    calibration = load_calibration(resolve().state_dir)
    if calibration is not None:
        height, width = calibration.frame_shape
        log.info("the dice calibration of the state directory is used for images of %dx%d", width, height)
    return read_each_image(args, "companion dice read", lambda frame: read_dice(frame, calibration=calibration),
                           _line, observation_json, draw_overlay)


def _line(name: str, obs: DiceObservation) -> str:
    values = " ".join(f"{d.value}{'?' if d.flagged else ''}" for d in obs.dice) or "no dice"
    extra = f" ({obs.problem})" if obs.problem else ""
    return f"{name}: {values}{extra}  [{obs.ms:.1f} ms]"


def run_eval(args: argparse.Namespace) -> int:
    result = evaluate(args.dir, load_errata(args.errata) if args.errata else None)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"dice reader on {args.dir}")
    for key in EVAL_ORDER:
        if key in result:
            value = result[key]
            shown = "-" if value is None else (f"{value:.4f}" if isinstance(value, float) else str(value))
            print(f"  {key:<20} {shown}")
    return 0
