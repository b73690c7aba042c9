"""Teach the reader a set's first photos, read the others: what learning the players' dice does on photos
it did not learn from (issue 53's measure of ``dice teach``; development only).

``python -m vision.training.dice_teach_eval SET... [--teach 5]``

For each SET (a folder with ``labels.csv`` and ``boxes.csv``, e.g. a set of
:mod:`vision.training.dice_own_sets`), in a fresh state directory of its own: the first ``--teach`` photos
(in the order of ``labels.csv``) are taught as ``companion dice teach`` teaches them
(:func:`vision.dice.teach.read_photo`, :func:`~vision.dice.teach.keep_photos`,
:func:`~vision.dice.teach.learn_kept`), then every other photo is read by the shipped reader untaught and by
the reader with what was learned as the box reads with it (the learned faces only when fitting said to use
them, ``use``; the dice's size always), and, when it said not to, also with the faces forced on
(``if_used``): the figures say whether that verdict predicted the photos after it. Prints a JSON line a set
``{"set", "taught", "read", "use", "check": fit's held-out report, "untaught": figures, "learned":
figures, "if_used": figures or null}`` (figures: found, unflagged precision, false accepts, flag rate, right
dice flagged).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import cv2

from vision.dice.eval import evaluate, load_set
from vision.dice.learning import examples_in
from vision.dice.reader import shipped_reader
from vision.dice.teach import keep_photos, learn_kept, read_photo

FIGURES = ("found", "unflagged_precision", "false_accepts", "flag_rate", "flagged_correct")


def split_set(set_dir: Path, teach: int, out: Path) -> tuple[list, Path]:
    """The first ``teach`` labelled images of ``set_dir`` and a set folder ``out`` holding the others
    (``labels.csv`` and ``boxes.csv`` rewritten with absolute image paths)."""
    images, box_file = load_set(set_dir)
    taught, rest = images[:teach], images[teach:]
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "labels.csv", "w", newline="") as handle:
        w = csv.writer(handle)
        w.writerow(["file", "dice_values"])
        for item in rest:
            w.writerow([str((set_dir / item.file).resolve()), " ".join(map(str, item.values))])
    if box_file:
        with open(out / "boxes.csv", "w", newline="") as handle:
            w = csv.writer(handle)
            w.writerow(["file", "value", "x_min", "y_min", "x_max", "y_max"])
            for item in rest:
                for value, box in item.boxes:
                    w.writerow([str((set_dir / item.file).resolve()), value, *box])
    return taught, out


def teach_then_read(set_dir: Path, teach: int = 5) -> dict:
    """The figures of one set (module docstring)."""
    reader = shipped_reader()
    with tempfile.TemporaryDirectory() as tmp:
        taught, rest_dir = split_set(set_dir, teach, Path(tmp) / "rest")
        photos = []
        for item in taught:
            frame = cv2.imread(str(set_dir / item.file), cv2.IMREAD_COLOR)
            photos.append(read_photo(reader, frame, list(item.values), Path(item.file).name))
        state_dir = Path(tmp) / "state"
        keep_photos(examples_in(state_dir), photos)
        state, _ = learn_kept(reader, state_dir)
        untaught = evaluate(rest_dir, None, reader.read)
        learned = evaluate(rest_dir, None, reader.with_learned(state).read) if state is not None else untaught
        forced = None
        if state is not None and not state.faces_used:
            used = replace(state, report={**state.report, "use": True})
            forced = evaluate(rest_dir, None, reader.with_learned(used).read)
        return {"set": set_dir.name, "taught": len(taught), "read": untaught.get("images"),
                "use": None if state is None else state.report["use"],
                "check": None if state is None else {k: state.report[k] for k in ("shipped", "learned")},
                "untaught": {k: untaught.get(k) for k in FIGURES}, "learned": {k: learned.get(k) for k in FIGURES},
                "if_used": None if forced is None else {k: forced.get(k) for k in FIGURES}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.dice_teach_eval", description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="+", type=Path)
    parser.add_argument("--teach", type=int, default=5)
    args = parser.parse_args(argv)
    for s in args.sets:
        print(json.dumps(teach_then_read(s, args.teach)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
