"""A candidate die detector inside the box's reader, measured against the shipped one in one run (issue 49;
development only).

``python -m vision.training.dice_detector_reader DETECTOR SET... [--levels FINE,COARSE] [--errata CSV] [--json]``

``DETECTOR``: a ``detect.onnx`` of :mod:`vision.training.train_dice_detect` (the shipped one,
``assets/dice_model/detect.onnx``, to measure other levels alone). The reader keeps every other network,
setting and rule of the shipped one (:func:`vision.dice.reader.shipped_reader`), so the figures say what the
detector changes and nothing else; ``--levels``: the candidate runs its two levels at these long sides (px;
the shipped ``detect_levels`` otherwise), e.g. ``480,96`` to find small dice at a larger scale. For each SET
(a folder with ``labels.csv``, :func:`vision.dice.eval.evaluate`) prints one line a reader (``shipped``,
``candidate``): found, unflagged precision, false accepts, flag rate, right dice flagged, image accuracy, the
reader's median ms a frame, and the detector's own median ms a frame (both levels, :meth:`vision.dice.detect.DieDetector.detect`, timed on
the same frames in turn); ``--json``: one object a set, ``{"set", "shipped": {...}, "candidate": {...}}``.
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision.dice.detect import DieDetector
from vision.dice.eval import load_set
from vision.dice.reader import DiceReader, shipped_reader, work_image
from vision.training.dice_readers import compare_main

def candidate_reader(detector: str | Path, levels: tuple[int, int] | None = None) -> DiceReader:
    """The shipped reader with the detector of ``detector`` (a ``detect.onnx``), run at ``levels`` (fine,
    coarse long sides in px; None: the shipped ``detect_levels``)."""
    shipped = shipped_reader()
    params = shipped.params if levels is None else replace(shipped.params, detect_levels=tuple(levels))
    networks = copy.copy(shipped.networks)
    networks.detector = DieDetector(Path(detector), params)
    return DiceReader(params, networks)


def levels_option(text: str) -> tuple[int, int]:
    """``--levels``' value: two long sides in px, ``FINE,COARSE``, each a multiple of 32 from 64 to 1280."""
    try:
        fine, coarse = (int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--levels {text!r}: give two sizes in px, e.g. 480,96") from None
    if not all(64 <= v <= 1280 and v % 32 == 0 for v in (fine, coarse)):
        raise argparse.ArgumentTypeError(f"--levels {text!r}: each size a multiple of 32 from 64 to 1280")
    return fine, coarse


def detector_ms(readers: dict[str, DiceReader], set_dir: str | Path, limit: int = 40) -> dict[str, float]:
    """Median ms of each reader's detector alone on the work images of the first ``limit`` photos of a set,
    the readers timed in turn on each photo (one run: the same load on both)."""
    images, _ = load_set(set_dir)
    times: dict[str, list[float]] = {name: [] for name in readers}
    for item in images[:limit]:
        frame = cv2.imread(str(Path(set_dir) / item.file), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        for name, reader in readers.items():
            work, _ = work_image(frame, reader.params.work_max_side)
            start = time.perf_counter()
            reader.networks.detector.detect(work)
            times[name].append((time.perf_counter() - start) * 1000.0)
    return {name: round(float(np.median(t)), 2) if t else None for name, t in times.items()}


def main(argv: list[str] | None = None) -> int:
    return compare_main(argv, "python -m vision.training.dice_detector_reader", __doc__.split("\n")[0], "detector",
                        lambda detector, args: candidate_reader(detector, args.levels),
                        more=lambda readers: lambda s: {
                            name: {"detector_ms": ms} for name, ms in detector_ms(readers, s).items()},
                        options=lambda parser: parser.add_argument(
                            "--levels", type=levels_option, help="the candidate's detector levels FINE,COARSE (px)"))


if __name__ == "__main__":
    sys.exit(main())
