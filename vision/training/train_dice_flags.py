"""Calibrate reader v3's flag threshold (the setting ``flag_below`` of :mod:`vision.dice.params`) on
out-of-fold classifier outputs (development only).

``python -m vision.training.train_dice_flags --folds DIR [--second-folds DIR] [--n N] [--seed S] [--target P]
[--margin STEPS] [--errata CSV] [--json]``

Reader v3's face classifier was trained on the ``byler_d6`` training photos (149, the split of
:func:`vision.training.train_dice_detect.split_photos`), so on them it is surer and more often right than on any
photo it has not seen; a flag threshold set on its own training photos is too low for other tables. So:
N classifiers, each trained without one fold of those photos (the shipped classifier's command, in
``assets/dice_model/face32_det_manifest.json``, plus ``--fold K/N --out DIR/fK`` for K = 0..N-1,
:func:`vision.training.train_dice.fold_split`), and each training photo read by reader v3
(:class:`vision.dice.reader.DiceReader` with :class:`FoldNetworks`: the shipped detector, gate and
cocked classifiers) with the face classifier that never saw it (and with ``--second-folds``, the second
classifier of its fold, trained with ``--second --seed 1 --split-seed 0`` and the same ``--fold``:
reader v3's second opinion; without it the face classifier stands in for the second). For each
threshold of a grid, the reader runs with ``flag_below`` set to it (the caps below the threshold move
with it) and the figures of :mod:`vision.dice.eval` are computed over the training photos:
``unflagged_precision``, ``flag_rate``, ``found``, ``image_accuracy_1_6``. ``chosen``
(:func:`choose`) is the lowest threshold whose unflagged precision is at least ``--target`` (default
0.995, issue 3's target), ``--margin`` grid steps higher (the shipped threshold takes one: the lowest
one sits on the edge, and byler's held-out photos showed a misread just above it), or, when none
reaches it, the threshold of the highest unflagged precision.
``--errata CSV`` first corrects the labels (:func:`vision.dice.eval.apply_errata`; byler_d6's are in
``assets/dice_model/byler_d6_label_errata.csv``): a die the labels get wrong and the reader reads right
would otherwise count as an unflagged error.

Never reads byler's 37 held-out photos, the 14 bundled photos or any other set. Prints one line per
threshold, or with ``--json`` one object ``{"thresholds": [{"flag_below", "unflagged_precision",
"flag_rate", "found", "image_accuracy_1_6", "unflagged", "unflagged_wrong"}...], "chosen": float|null,
"photos": int}``. Exit status 0; 2 when ``../shared/data/dice`` or a fold model is missing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.dice import load_errata
from vision.dice.eval import apply_errata
from vision.dice.networks import Heads

GRID = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.925, 0.95, 0.97)


def read_fold_photos(folds_dir: Path, n: int, seed: int = 0, second_dir: Path | None = None) -> list[tuple]:
    """(frame, LabelledImage, classifier, second) for every byler training photo, with the fold classifier
    that left it out and, from ``second_dir`` (None: none), the fold's second classifier (trained with
    ``--second`` and another seed, same folds). Raises FileNotFoundError when a fold model is missing."""
    from vision.training.dice_classifier import (
        BOX_MANIFEST_FILE,
        BOX_MODEL_FILE,
        SECOND_MANIFEST_FILE,
        SECOND_MODEL_FILE,
        FaceClassifier,
    )
    from vision.training.train_dice import fold_split
    from vision.training.train_dice_detect import split_photos

    train, _, _ = split_photos(seed)
    out = []
    for k in range(n):
        classifier = FaceClassifier(folds_dir / f"f{k}", BOX_MODEL_FILE, BOX_MANIFEST_FILE)
        second = (FaceClassifier(second_dir / f"f{k}", SECOND_MODEL_FILE, SECOND_MANIFEST_FILE)
                  if second_dir else None)
        for path, item in fold_split(train, k, n, seed)[1]:
            out.append((cv2.imread(str(path), cv2.IMREAD_COLOR), item, classifier, second))
    return out


class FoldNetworks:
    """The networks of :class:`vision.dice.networks.DiceNetworks` (``detector``, ``heads``, ``recheck``)
    with a fold's face classifier (and second classifier) in place of the shipped ones: the shipped
    detector, gate and cocked classifiers, the fold's ``classifier`` (a
    :class:`vision.training.dice_classifier.FaceClassifier`) and ``second`` (None: the face classifier
    gives the second opinion too)."""

    def __init__(self, classifier, second=None) -> None:
        from vision.dice.reader import shipped_reader

        self.detector = shipped_reader().networks.detector
        self.classifier = classifier
        self.second = second
        self.gate, self.cocked = _shipped_gate_and_cocked()

    def heads(self, crops: np.ndarray, quarters: np.ndarray) -> Heads:
        """Face probabilities (n, 7) of ``crops``, gate and cocked probabilities (n, 2) of ``quarters``."""
        if len(crops) == 0:
            return Heads(np.zeros((0, 7), np.float32), np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32))
        return Heads(self.classifier.probabilities(crops), _two(self.gate, quarters), _two(self.cocked, quarters))

    def recheck(self, turned: np.ndarray, crops: np.ndarray, halves: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The face classifier's probabilities (m, 7) of ``turned``, the second classifier's (or the face
        classifier's again without one) (k, 7) of ``crops``, the gate's and the cocked classifier's (j, 2)
        of ``halves``."""
        return (self.classifier.probabilities(turned), (self.second or self.classifier).probabilities(crops),
                _two(self.gate, halves), _two(self.cocked, halves))


def _two(classifier, crops: np.ndarray) -> np.ndarray:
    """(n, 2) probabilities of a two-class classifier; (0, 2) for no crops."""
    return classifier.probabilities(crops) if len(crops) else np.zeros((0, 2), np.float32)


def _shipped_gate_and_cocked():
    from vision.training.dice_classifier import (
        COCKED_MANIFEST_FILE,
        COCKED_MODEL_FILE,
        GATE_MANIFEST_FILE,
        GATE_MODEL_FILE,
        FaceClassifier,
    )

    return (FaceClassifier(model_file=GATE_MODEL_FILE, manifest_file=GATE_MANIFEST_FILE),
            FaceClassifier(model_file=COCKED_MODEL_FILE, manifest_file=COCKED_MANIFEST_FILE))


def figures(photos: list[tuple], flag_below: float) -> dict:
    """Reader v3 on ``photos`` (read_fold_photos) with ``flag_below`` set to ``flag_below`` (the rest of
    the shipped settings as they are): the box-matched figures of vision.dice.eval (fractions rounded to
    4 places, None for an empty denominator)."""
    from dataclasses import replace

    from vision.dice.eval import match_to_boxes
    from vision.dice.reader import DiceReader, shipped_reader

    params = replace(shipped_reader().params, flag_below=flag_below)
    readers: dict[tuple[int, int], DiceReader] = {}
    unflagged = unflagged_right = read = flagged = found = labelled = n16 = exact16 = 0
    for frame, item, classifier, second in photos:
        key = (id(classifier), id(second))
        if key not in readers:
            readers[key] = DiceReader(params, FoldNetworks(classifier, second))
        obs = readers[key].read(frame)
        dice = obs.dice
        match = match_to_boxes(obs, item.boxes)
        labelled += len(item.boxes)
        found += sum(m is not None for m in match)
        for die, m in zip(dice, match):
            right = m is not None and item.boxes[m][0] == die.value
            read += 1
            if die.flagged:
                flagged += 1
            else:
                unflagged += 1
                unflagged_right += right
        if 1 <= len(item.values) <= 6:
            n16 += 1
            exact16 += Counter(d.value for d in dice) == Counter(item.values)

    def frac(a: int, b: int):
        return None if b == 0 else round(a / b, 4)

    return {"flag_below": flag_below, "unflagged_precision": frac(unflagged_right, unflagged),
            "flag_rate": frac(flagged, read), "found": frac(found, labelled),
            "image_accuracy_1_6": frac(exact16, n16), "unflagged": unflagged,
            "unflagged_wrong": unflagged - unflagged_right}


def choose(rows: list[dict], target: float, margin: int = 0) -> float | None:
    """The lowest threshold whose unflagged precision is at least ``target``, raised by ``margin`` steps
    of the rows' grid (at most to the last row); when none reaches it, the one of the highest unflagged
    precision (the lowest of equals). None for no rows."""
    if not rows:
        return None
    grid = [r["flag_below"] for r in rows]
    ok = [r["flag_below"] for r in rows if (r["unflagged_precision"] or 0.0) >= target]
    if ok:
        return grid[min(grid.index(min(ok)) + margin, len(grid) - 1)]
    best = max(r["unflagged_precision"] or 0.0 for r in rows)
    return min(r["flag_below"] for r in rows if (r["unflagged_precision"] or 0.0) == best)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.train_dice_flags", description=__doc__.splitlines()[0])
    parser.add_argument("--folds", required=True, help="folder with the fold classifiers f0 .. f{N-1}")
    parser.add_argument("--n", type=int, default=4, help="number of folds (default 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=float, default=0.995, help="least unflagged precision (default 0.995)")
    parser.add_argument("--second-folds", default=None, metavar="DIR",
                        help="folder with the fold second classifiers f0 .. f{N-1} (train_dice --second): "
                             "calibrate the reader with its second opinion")
    parser.add_argument("--margin", type=int, default=0, metavar="STEPS",
                        help="choose this many grid steps above the lowest threshold reaching the target "
                             "(default 0; the shipped flag_below takes 1)")
    parser.add_argument("--errata", default=None, help="label errata CSV applied first (apply_errata)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        photos = read_fold_photos(Path(args.folds), args.n, args.seed,
                                  Path(args.second_folds) if args.second_folds else None)
        if args.errata:
            rows = load_errata(args.errata)
            photos = [(frame, apply_errata(item, rows), *models) for frame, item, *models in photos]
    except (FileNotFoundError, OSError, ValueError) as error:
        print(f"cannot calibrate: {error}", file=sys.stderr)
        return 2
    rows = [figures(photos, t) for t in GRID]
    chosen = choose(rows, args.target, args.margin)
    if args.json:
        print(json.dumps({"thresholds": rows, "chosen": chosen, "photos": len(photos)}))
    else:
        for r in rows:
            print(" ".join(f"{k} {v}" for k, v in r.items()))
        print(f"chosen {chosen} ({len(photos)} photos, target {args.target}, margin {args.margin})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
