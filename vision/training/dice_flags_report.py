"""Each check that flags a die, measured on its own: ``python -m vision.training.dice_flags_report SET...
[--errata CSV] [--json]``.

For every labelled set (a folder with ``labels.csv`` and ``boxes.csv``, as for ``companion dice eval``)
reads each image with the shipped reader (:meth:`vision.dice.reader.DiceReader.read_with_reasons`),
matches its dice to the labelled boxes (:func:`vision.dice.eval.match_to_boxes`) and counts, for each
reason a die is flagged (:data:`vision.dice.reader.UNSURE`, ``WEAK``, ``NO_FACE``, ``PIPS_DISAGREE``,
``EDGE``, ``COCKED``, ``GATE``, ``OVERSIZED``), the right dice and the wrong ones (a wrong
value, or no labelled die there) it flags, and how many of them it alone flags (without this check the
die would be offered as sure). A check that flags more right dice than wrong ones on the real sets must
earn its place with a figure in ``assets/dice_model/README.md``, or it goes (issue 38). ``--errata``: label
corrections applied to sets they name (byler_d6's: ``assets/dice_model/byler_d6_label_errata.csv``).

Example line: ``byler_d6  1493 dice  flagged 58 (right 40, wrong 18)  gate: right 3 (alone 2), wrong 1
(alone 0) ...``; ``--json``: one object a set, ``{"set": ..., "dice": n, "flagged": n, "checks": {reason:
{"right": n, "right_alone": n, "wrong": n, "wrong_alone": n}}}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2

from vision.dice.eval import apply_errata, load_errata, load_set, match_to_boxes
from vision.dice.reader import COCKED, EDGE, GATE, NO_FACE, OVERSIZED, PIPS_DISAGREE, UNSURE, WEAK, shipped_reader

REASONS = (UNSURE, WEAK, NO_FACE, PIPS_DISAGREE, EDGE, COCKED, GATE, OVERSIZED)


def report_set(set_dir: Path, errata: list[dict] | None = None) -> dict:
    """The figures of one labelled set (see the module docstring)."""
    images, box_file = load_set(set_dir)
    if errata is not None:
        images = [apply_errata(item, errata) for item in images]
    reader = shipped_reader()
    counts: Counter = Counter()
    dice = flagged = right_flagged = 0
    for item in images:
        frame = cv2.imread(str(set_dir / item.file), cv2.IMREAD_COLOR)
        if frame is None or not item.boxes:
            continue
        obs, reasons = reader.read_with_reasons(frame)
        for die, m, why in zip(obs.dice, match_to_boxes(obs, item.boxes), reasons):
            dice += 1
            right = m is not None and item.boxes[m][0] == die.value
            if not why:
                continue
            flagged += 1
            right_flagged += right
            kind = "right" if right else "wrong"
            for reason in why:
                counts[(reason, kind)] += 1
                counts[(reason, kind + "_alone")] += len(why) == 1
    checks = {r: {k: counts[(r, k)] for k in ("right", "right_alone", "wrong", "wrong_alone")} for r in REASONS}
    return {"set": set_dir.name, "dice": dice, "flagged": flagged, "right_flagged": right_flagged,
            "wrong_flagged": flagged - right_flagged, "checks": checks}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.dice_flags_report",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", metavar="SET", type=Path, help="labelled sets (labels.csv, boxes.csv)")
    parser.add_argument("--errata", type=Path, help="label corrections (byler_d6_label_errata.csv)")
    parser.add_argument("--json", action="store_true", help="one JSON object a line per set")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    errata = load_errata(args.errata) if args.errata else None
    for set_dir in args.sets:
        if not (set_dir / "labels.csv").is_file():
            print(f"{set_dir}: no labels.csv; give a labelled set", file=sys.stderr)
            return 2
        result = report_set(set_dir, errata)
        if args.json:
            print(json.dumps(result), flush=True)
            continue
        parts = [f"{r}: right {c['right']} (alone {c['right_alone']}), wrong {c['wrong']} (alone {c['wrong_alone']})"
                 for r, c in result["checks"].items() if c["right"] or c["wrong"]]
        print(f"{result['set']:<14} {result['dice']} dice  flagged {result['flagged']} (right "
              f"{result['right_flagged']}, wrong {result['wrong_flagged']})\n  " + "\n  ".join(parts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
