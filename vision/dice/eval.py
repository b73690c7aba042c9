"""Measure the dice reader on a labelled set of photos (``companion dice eval DIR``).

A set is a folder with ``labels.csv`` (``file,dice_values,n_dice,sum``; ``file`` relative to the folder,
``dice_values`` space-separated) and optionally ``boxes.csv`` or ``cells.csv`` (one row per die:
``file,value,x_min,y_min,x_max,y_max`` in pixels of the stored image). The format is the one of
``../shared/data/README.md``; ``assets/dice_photos`` follows it too.

Figures returned by :func:`evaluate` (floats rounded to 4 places; a fraction whose denominator is empty is
``None``):

- ``images``, ``dice``: labelled images and labelled dice.
- ``image_accuracy``: images whose multiset of read values equals the label exactly.
- ``image_accuracy_1_6``: the same over images with 1-6 labelled dice (a game's roll).
- ``die_precision`` / ``die_recall``: per image, the multiset intersection of read and labelled values,
  summed over images, divided by the read / labelled dice.
- ``median_ms``, ``p95_ms``: wall time of :func:`vision.dice.reader.read_dice` (OpenCV on one thread; the
  reader's one-time start-up, :func:`vision.dice.reader.warm_up`, is paid before the first photo, as the box
  pays it when it starts).
- ``unreadable``: listed images that are missing or could not be decoded (they count as read with no dice).
- ``refused``: images whose reading has a photo-level ``problem`` (the whole reading is refused).
- ``cocked_marks``: read dice marked ``cocked`` (on a set of flat dice, every one is a false mark).

When the set has boxes (or cells), each read die is matched to the nearest (by centre distance)
unmatched labelled box that contains the centre of its own box (an image labelled with no dice has
nothing to match: every die read there is wrong), and:

- ``found``: matched labelled dice / labelled dice.
- ``unflagged_precision``: right values among unflagged read dice (an unmatched read die is wrong).
- ``flag_rate``: flagged read dice / read dice.
- ``flagged_errors``: wrong read dice that are flagged / wrong read dice.
- ``flagged_correct``: right read dice that are flagged / right read dice.
- ``false_accepts``: unflagged read dice that are wrong (the dice a session would take as read).

When the box file has a ``cocked`` column (1 for a die labelled cocked, as
``python -m vision.training.dice_cocked`` writes it):

- ``cocked_dice``: labelled cocked dice.
- ``cocked_flagged``: cocked dice no unflagged reading is matched to (flagged, or not offered at all).
- ``cocked_marked``: cocked dice matched to a reading marked ``cocked``.
- ``flat_marked_cocked``: flat labelled dice whose matched reading is marked ``cocked`` / flat dice matched.

Label errors a set is known to have can be corrected first (:func:`load_errata`, :func:`apply_errata`;
``companion dice eval DIR --errata CSV``); the figures then also give ``errata``, the rows applied.
"""

from __future__ import annotations

import csv
import logging
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.errors import FileFormatError, MissingFileError
from vision.dice.reader import read_dice, warm_up
from vision.frames import image_file_problem
from vision.observation import DiceObservation

log = logging.getLogger(__name__)

BOX_FILES = ("boxes.csv", "cells.csv")
ERRATA_COLUMNS = ("file", "x_min", "y_min", "x_max", "y_max", "label", "shows")


@dataclass(frozen=True)
class LabelledImage:
    """One row of ``labels.csv`` with its boxes (``(value, (x0, y0, x1, y1))``, empty when none)."""

    file: str
    values: tuple[int, ...]
    boxes: tuple[tuple[int, tuple[float, float, float, float]], ...] = ()
    cocked: tuple[bool, ...] = ()
    """Per box, True for a die labelled cocked (the box file's optional ``cocked`` column, 1/0); empty when
    the set has no such column."""


def load_set(set_dir: str | Path) -> tuple[list[LabelledImage], str | None]:
    """Read ``labels.csv`` and the box file of a set; returns the images and the box file's name (or None).

    Raises FileNotFoundError when the folder or its ``labels.csv`` is missing and ValueError (naming file
    and line) for a malformed row.
    """
    set_dir = Path(set_dir)
    labels_path = set_dir / "labels.csv"
    if set_dir.is_file():
        raise MissingFileError(f"a file, not a set's folder: {set_dir}")
    if not set_dir.is_dir():
        raise MissingFileError(f"no such folder: {set_dir}")
    if not labels_path.is_file():
        raise MissingFileError(f"no labels.csv in {set_dir}")
    box_file = next((name for name in BOX_FILES if (set_dir / name).is_file()), None)
    boxes: dict[str, list] = {}
    cocked: dict[str, list] = {}
    if box_file:
        with open(set_dir / box_file, newline="") as handle:
            for line, row in enumerate(csv.DictReader(handle), start=2):
                try:
                    box = tuple(float(row[k]) for k in ("x_min", "y_min", "x_max", "y_max"))
                    boxes.setdefault(row["file"], []).append((int(row["value"]), box))
                    if row.get("cocked") not in (None, ""):
                        cocked.setdefault(row["file"], []).append(bool(int(row["cocked"])))
                except (KeyError, TypeError, ValueError) as error:
                    raise FileFormatError(f"{set_dir / box_file}:{line}: bad row ({error})") from None
    images = []
    with open(labels_path, newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            try:
                values = tuple(int(v) for v in (row["dice_values"] or "").split())
            except (KeyError, TypeError, ValueError) as error:
                raise FileFormatError(f"{labels_path}:{line}: bad row ({error})") from None
            images.append(LabelledImage(row["file"], values, tuple(boxes.get(row["file"], ())),
                                        tuple(cocked.get(row["file"], ()))))
    return images, box_file


def load_errata(path: str | Path) -> list[dict]:
    """The rows of a label errata CSV (``file,x_min,y_min,x_max,y_max,label,shows``: the die's box in
    pixels of the stored image, its label, empty when the labels leave the die out, and the value it
    shows; byler_d6's are in ``assets/dice_model/byler_d6_label_errata.csv``), as csv.DictReader dicts.

    Raises FileNotFoundError when the file is missing and ValueError naming the file (and the row) when it
    is a folder or not UTF-8 text, a column is missing, a box is not four numbers or a value is not 1-6. A UTF-8 byte-order
    mark (a spreadsheet's "CSV UTF-8") is allowed."""
    path = Path(path)
    if path.is_dir():
        raise FileFormatError(f"{path} is a folder, not an errata CSV file")
    if not path.is_file():
        raise MissingFileError(f"no such errata file: {path}")
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:  # utf-8-sig: a spreadsheet's byte-order mark
            reader = csv.DictReader(handle)
            missing = [c for c in ERRATA_COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise FileFormatError(f"{path}: missing column(s) {', '.join(missing)} "
                                      f"(needs {','.join(ERRATA_COLUMNS)})")
            rows = list(reader)
    except UnicodeDecodeError:
        raise FileFormatError(f"{path}: not an errata CSV file (not UTF-8 text; needs "
                              f"{','.join(ERRATA_COLUMNS)})") from None
    faces = {"1", "2", "3", "4", "5", "6"}
    for line, row in enumerate(rows, start=2):
        try:
            for key in ("x_min", "y_min", "x_max", "y_max"):
                float(row[key])
            ok = row["shows"] in faces and (row["label"] == "" or row["label"] in faces)
        except (TypeError, ValueError):  # a short row leaves its last columns None
            ok = False
        if not ok:
            raise FileFormatError(f"{path}, line {line}: needs a box of four numbers, a label (1-6 or empty) and "
                             f"the value the die shows (1-6)")
    return rows


def apply_errata(item, rows: list[dict]):
    """``item`` (a :class:`vision.dice.eval.LabelledImage`) with the label errata ``rows`` of its file
    applied. Each row (``file, x_min, y_min, x_max, y_max, label, shows``, as read by csv.DictReader)
    with an empty ``label`` adds a die showing ``shows`` in that box; otherwise the labelled box with
    value ``label`` that holds the row's box centre gets the value ``shows``. Files match by name.
    Raises ValueError when no such labelled box exists."""
    name = Path(item.file).name
    mine = [r for r in rows if Path(r["file"]).name == name]
    if not mine:
        return item
    boxes = list(item.boxes)
    for r in mine:
        box = tuple(float(r[k]) for k in ("x_min", "y_min", "x_max", "y_max"))
        if not r["label"]:
            boxes.append((int(r["shows"]), box))
            continue
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        hit = [i for i, (v, b) in enumerate(boxes)
               if v == int(r["label"]) and b[0] <= cx <= b[2] and b[1] <= cy <= b[3]]
        if not hit:
            raise FileFormatError(f"errata row for {name}: no die labelled {r['label']} at {box}")
        boxes[hit[0]] = (int(r["shows"]), boxes[hit[0]][1])
    return replace(item, boxes=tuple(boxes), values=tuple(sorted(v for v, _ in boxes)))


def match_to_boxes(obs: DiceObservation, boxes) -> list[int | None]:
    """For each read die, the index of its matched labelled box, or None.

    A pair is possible when the labelled box contains the centre of the read die's box, or when the
    labelled box lies inside the read die's box (up to :data:`INSIDE_SLACK` of its side), no other
    labelled box does, and the read box's side is at most :data:`SIDE_VIEW` times the label's: a set that
    boxes a die's top face alone (rune55) gives, for a die seen from the side, a box in the upper part of
    the box round the whole die, while a box round two touching dice holds both of theirs, and a box
    round a die and the card it lies on is far larger: both stay unmatched. Pairs are taken nearest first
    (centre to centre), each box and each die used at most once.
    """
    pairs = []
    for i, die in enumerate(obs.dice):
        cx, cy = (die.box[0] + die.box[2]) / 2, (die.box[1] + die.box[3]) / 2
        inside = [j for j, (_, b) in enumerate(boxes) if _inside(b, die.box)]
        if len(inside) != 1 or _side(die.box) > SIDE_VIEW * _side(boxes[inside[0]][1]):
            inside = []
        for j, (_, (x0, y0, x1, y1)) in enumerate(boxes):
            if (x0 <= cx <= x1 and y0 <= cy <= y1) or inside == [j]:
                pairs.append((np.hypot(cx - (x0 + x1) / 2, cy - (y0 + y1) / 2), i, j))
    match: list[int | None] = [None] * len(obs.dice)
    used = set()
    for _, i, j in sorted(pairs):
        if match[i] is None and j not in used:
            match[i] = j
            used.add(j)
    return match


SIDE_VIEW = 1.6
"""The most a box round a whole die may be, side for side, the box round its top face alone: a cube seen
up to 45 degrees off overhead shows its top face and one side face, together at most sqrt(2) of the top
face's side high (and a little slack)."""
INSIDE_SLACK = 0.1
"""How far (a fraction of the read box's side) a labelled box may reach past the read box and still lie
inside it: a label drawn by hand is a few pixels off."""


def _side(box) -> float:
    """The longer side of ``box`` (x0, y0, x1, y1)."""
    return max(box[2] - box[0], box[3] - box[1])


def _inside(inner, outer) -> bool:
    """Whether box ``inner`` lies inside box ``outer`` (each (x0, y0, x1, y1)), up to :data:`INSIDE_SLACK`."""
    slack = INSIDE_SLACK * _side(outer)
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and inner[2] <= outer[2] + slack
            and inner[3] <= outer[3] + slack)


def _fraction(num: int, den: int) -> float | None:
    return None if den == 0 else round(num / den, 4)


def evaluate(set_dir: str | Path, errata: list[dict] | None = None, reader=None) -> dict:
    """Run the reader on every image of a set and compare with the labels (figures: module docstring).

    ``errata``: label corrections (:func:`load_errata` rows) applied to the labels first
    (:func:`apply_errata`); the result then also has ``errata``, the number of rows that name an image of
    the set. ``reader``: a function frame -> DiceObservation to measure instead of the box's
(:func:`vision.dice.reader.read_dice`; the training tools pass theirs). Raises ValueError when a row's
    label matches no labelled die. Sets OpenCV to one thread so
    that timings are comparable between machines and runs.
    """
    set_dir = Path(set_dir)
    images, box_file = load_set(set_dir)
    if not images:
        log.warning("%s lists no images: every figure is null", set_dir / "labels.csv")
    if errata is not None:
        images = [apply_errata(item, errata) for item in images]
    cv2.setNumThreads(1)
    if reader is None:
        warm_up()
        reader = read_dice
    n_exact = n_exact16 = n_16 = 0
    n_read = n_label = n_common = 0
    times = []
    unreadable = 0
    found = labelled_boxed = 0
    unflagged = unflagged_right = flagged = right = wrong = right_flagged = wrong_flagged = 0
    refused = marked = cocked_dice = cocked_kept = cocked_marked = flat_matched = flat_marked = 0
    has_cocked = any(item.cocked for item in images)
    for item in images:
        path = set_dir / item.file
        # no OpenCV warning for a missing file; nothing decoded whose header claims too many pixels
        problem = image_file_problem(path) if path.is_file() else "no such file"
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR) if problem is None else None
        if frame is None:
            log.warning("cannot read %s%s", set_dir / item.file, f": {problem}" if problem else "")
            unreadable += 1
            obs = DiceObservation(dice=(), frame_shape=(0, 0), problem="unreadable file")
        else:
            obs = reader(frame)
            times.append(obs.ms)
        refused += obs.problem is not None
        marked += sum(d.cocked for d in obs.dice)
        read = Counter(obs.values)
        label = Counter(item.values)
        exact = read == label
        n_exact += exact
        if 1 <= len(item.values) <= 6:
            n_16 += 1
            n_exact16 += exact
        n_read += sum(read.values())
        n_label += sum(label.values())
        n_common += sum((read & label).values())
        # an image labelled with no dice counts too (every die read there is wrong); one whose dice have
        # values but no boxes cannot be matched
        if box_file and (item.boxes or not item.values):
            match = match_to_boxes(obs, item.boxes)
            labelled_boxed += len(item.boxes)
            found += sum(m is not None for m in match)
            for die, m in zip(obs.dice, match):
                ok = m is not None and item.boxes[m][0] == die.value
                right += ok
                wrong += not ok
                if die.flagged:
                    flagged += 1
                    right_flagged += ok
                    wrong_flagged += not ok
                else:
                    unflagged += 1
                    unflagged_right += ok
            if len(item.cocked) == len(item.boxes):
                by_box = {m: die for die, m in zip(obs.dice, match) if m is not None}
                for j, is_cocked in enumerate(item.cocked):
                    die = by_box.get(j)
                    if is_cocked:
                        cocked_dice += 1
                        cocked_kept += die is None or die.flagged
                        cocked_marked += die is not None and die.cocked
                    elif die is not None:
                        flat_matched += 1
                        flat_marked += die.cocked
    result = {
        "images": len(images),
        "dice": n_label,
        "image_accuracy": _fraction(n_exact, len(images)),
        "die_precision": _fraction(n_common, n_read),
        "die_recall": _fraction(n_common, n_label),
        "median_ms": round(float(np.median(times)), 4) if times else None,
        "p95_ms": round(float(np.percentile(times, 95)), 4) if times else None,
        "image_accuracy_1_6": _fraction(n_exact16, n_16),
        "unreadable": unreadable,
        "refused": refused,
        "cocked_marks": marked,
    }
    if box_file:
        result.update({
            "false_accepts": unflagged - unflagged_right,
            "found": _fraction(found, labelled_boxed),
            "unflagged_precision": _fraction(unflagged_right, unflagged),
            "flag_rate": _fraction(flagged, right + wrong),
            "flagged_errors": _fraction(wrong_flagged, wrong),
            "flagged_correct": _fraction(right_flagged, right),
        })
    if has_cocked:
        result.update({
            "cocked_dice": cocked_dice,
            "cocked_flagged": _fraction(cocked_kept, cocked_dice),
            "cocked_marked": _fraction(cocked_marked, cocked_dice),
            "flat_marked_cocked": _fraction(flat_marked, flat_matched),
        })
    if errata is not None:
        names = {Path(item.file).name for item in images}
        result["errata"] = sum(Path(row["file"]).name in names for row in errata)
        if result["errata"] < len(errata):
            log.warning("%d of %d errata rows name no image of %s (files match by name)",
                        len(errata) - result["errata"], len(errata), set_dir)
    return result
