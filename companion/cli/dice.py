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

``companion dice eval DIR [--json] [--errata CSV] [--learned]``
    Runs the reader on a labelled set (``DIR/labels.csv``, see :mod:`vision.dice.eval`) and prints the
    figures: one JSON object with ``--json``, else a table. ``--errata CSV`` corrects the labels first
    (:func:`vision.dice.eval.load_errata`; the figures then also give ``errata``, the rows applied): the
    figures against the labels as published stay the ones without it. ``--learned``: the reader with the
    state directory's learned dice (exit 2 when there are none to use); the figures then also give
    ``learned``: ``{"dice": n, "rolls": n}`` it learned from.

``companion dice teach IMAGE... --labels CSV [--json]``, ``companion dice learn [--json]``, ``companion dice forget``
    The players' own dice (issue 39, :mod:`vision.dice.learning`): ``teach`` reads each labelled photo
    (its ``dice_values`` in ``CSV``, the ``labels.csv`` format of ``../shared/data``, ``file`` relative to
    the CSV's folder), keeps its dice with their values in the state directory like a confirmed roll, and
    learns; ``learn`` learns from what is kept now; ``forget`` removes what was kept and learned (the
    shipped reader again). Each prints one line (``--json``: one object).
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
from pathlib import Path

import cv2
import numpy as np

from companion.cli.common import add_reader_commands
from companion.cli.images import read_each_image
from companion.errors import UserError
from companion.paths import ensure_state_dir, resolve
from vision.dice import (evaluate, examples_in, forget, keep_photos, learn_kept, load_calibration, load_errata,
                         load_learned, read_dice, read_photo, shipped_reader, warm_up)
from vision.frames import load_image
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
    ev.add_argument("--learned", action="store_true",
                    help="read with the dice learned in the state directory (companion dice teach / learn)")
    ev.set_defaults(handler=run_eval)

    teach = dice_sub.add_parser("teach", help="learn the players' dice from labelled photos")
    teach.add_argument("images", nargs="+", metavar="IMAGE", help="photos of the players' dice")
    teach.add_argument("--labels", metavar="CSV", required=True,
                       help="labels.csv: file (relative to the CSV's folder), dice_values (the faces, space-separated)")
    teach.add_argument("--json", action="store_true", help="print one JSON object")
    teach.set_defaults(handler=run_teach)
    learn = dice_sub.add_parser("learn", help="learn the players' dice from the rolls they confirmed, now")
    learn.add_argument("--json", action="store_true", help="print one JSON object")
    learn.set_defaults(handler=run_learn)
    forget_cmd = dice_sub.add_parser("forget", help="forget the players' dice: the shipped reader again")
    forget_cmd.set_defaults(handler=run_forget)


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
    reader = None
    learned_from = None
    if args.learned:
        state_dir = resolve().state_dir
        warm_up()
        shipped = shipped_reader()
        state, why = load_learned(state_dir, shipped.networks.heads_id)
        if state is None:
            again = ("companion dice learn learns again from the kept rolls" if examples_in(state_dir).files()
                     else "teach them first: companion dice teach IMAGE... --labels CSV")
            raise UserError(f"--learned: {why or f'no learned dice in {state_dir}'} ({again})")
        reader = shipped.with_learned(state).read
        learned_from = {"dice": state.report.get("dice"), "rolls": state.report.get("rolls")}
    result = evaluate(args.dir, load_errata(args.errata) if args.errata else None, reader=reader)
    if learned_from is not None:
        result["learned"] = learned_from
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"dice reader on {args.dir}")
    for key in EVAL_ORDER:
        if key in result:
            value = result[key]
            shown = "-" if value is None else (f"{value:.4f}" if isinstance(value, float) else str(value))
            print(f"  {key:<20} {shown}")
    if learned_from is not None:
        print(f"  {'learned':<20} {learned_from['dice']} dice of {learned_from['rolls']} rolls")
    return 0


def labelled_values(csv_path: Path, images: list[str]) -> dict[str, list[int]]:
    """Each image's labelled faces from ``csv_path`` (``file``, ``dice_values``; ``file`` relative to the
    CSV's folder, else matched by its name when only one row has it). Raises UserError naming the file,
    the row or the image that does not fit."""
    if not csv_path.is_file():
        raise UserError(f"--labels {csv_path}: no such file")
    try:
        with open(csv_path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise UserError(f"--labels {csv_path}: not a readable CSV ({e})") from None
    if not rows or not {"file", "dice_values"} <= set(rows[0]):
        raise UserError(f"--labels {csv_path}: needs the columns file and dice_values")
    by_path, by_name = {}, {}
    for n, row in enumerate(rows, start=2):
        try:
            values = [int(v) for v in (row["dice_values"] or "").split()]
        except ValueError:
            values = [0]
        if not all(1 <= v <= 6 for v in values):
            raise UserError(f"--labels {csv_path} line {n}: dice_values {row['dice_values']!r} "
                            f"are not faces 1-6 separated by spaces")
        by_path[(csv_path.parent / (row["file"] or "")).resolve()] = values
        by_name.setdefault(Path(row["file"] or "").name, []).append(values)
    out = {}
    for image in images:
        values = by_path.get(Path(image).resolve())
        if values is None and len(by_name.get(Path(image).name, [])) == 1:
            values = by_name[Path(image).name][0]
        if values is None:
            raise UserError(f"{image}: no row of {csv_path} names it "
                            f"(its file column is relative to the CSV's folder)")
        out[image] = values
    return out


def run_teach(args: argparse.Namespace) -> int:
    labels = labelled_values(Path(args.labels), args.images)
    state_dir = ensure_state_dir(resolve())
    warm_up()
    reader = shipped_reader()
    photos, failed = [], 0
    for image in args.images:
        frame = load_image(image, "companion dice teach")
        if frame is None:
            failed += 1
            continue
        photos.append(read_photo(reader, frame, labels[image], Path(image).name))
    kept, missed = keep_photos(examples_in(state_dir), photos)
    state, line = learn_kept(reader, state_dir)
    _say({"photos": len(photos), "kept": kept, "unpaired": missed, **_learned_json(state)},
         f"kept {kept} dice of {len(photos)} photo{'' if len(photos) == 1 else 's'} ({missed} labelled dice not found, or found but doubted as "
         f"dice); {line}", args.json)
    return 1 if failed else 0


def run_learn(args: argparse.Namespace) -> int:
    state_dir = ensure_state_dir(resolve())
    warm_up()
    state, line = learn_kept(shipped_reader(), state_dir)
    _say(_learned_json(state), line, args.json)
    return 0


def run_forget(args: argparse.Namespace) -> int:
    state_dir = resolve().state_dir
    had, rolls = forget(state_dir)
    print(f"forgot {'the learned dice and ' if had else ''}{rolls} kept rolls in {state_dir}: "
          f"the shipped reader reads the dice")
    return 0


def _learned_json(state) -> dict:
    if state is None:
        return {"learned": None}
    return {"learned": {k: state.report[k] for k in ("dice", "rolls", "shipped", "learned", "use")}}


def _say(record: dict, line: str, as_json: bool) -> None:
    print(json.dumps(record) if as_json else line)
