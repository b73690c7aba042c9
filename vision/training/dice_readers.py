"""The dice readers the training tools compare (development only): ``reader_for(name)(frame_bgr) ->
DiceObservation`` for each name of :data:`READERS`.

- ``"learned"``: the box's reader, :func:`vision.dice.reader.read_dice` (v3).
- ``"hybrid"``: the classical reader plus every die the learned one finds that it has not
  (:func:`vision.training.dice_classical.read_work_hybrid`).
- ``"classical"``: the classical reader v2 (:func:`vision.training.dice_classical.read_work_classical`).

The two comparison readers get the old front of ``read_dice(frame, method=...)``: the frame checks, the
work image (long side 640 px, :func:`vision.dice.reader.work_image`), the work reader, the dice marked
(:func:`_mark`: cocked and flagged at the shipped cocked classifier's P(cocked) >= ``cocked_at``, flagged
where the shipped gate gives P(a die) < ``die_below``, each the mean over the crop's four quarter turns
as that front had it; flagged when too big to lie among two dice or more, ``oversized``), the boxes
scaled back to the frame and the dice put in reading order. Unlike the box's reader they give no
reasons for their flags.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np

from vision.dice.eval import evaluate
from vision.dice.networks import model_dir
from vision.dice.params import PARAMS_FILE, DiceParams, load_params
from vision.dice.reader import _reading_order, _to_frame, read_dice, work_image
from vision.frames import MIN_FRAME_SIDE, check_frame, frame_problem
from vision.observation import DiceObservation, DieReading

READERS = ("learned", "hybrid", "classical")
"""The readers :func:`reader_for` makes; ``"learned"`` is the box's."""
WORK_SIDE = 640
"""Long side (px) of the comparison readers' work image: the classical reader's constants are set for it."""


def reader_for(name: str) -> Callable[..., DiceObservation]:
    """The reader ``name`` (:data:`READERS`) as a function ``(frame_bgr, calibration=None) ->
    DiceObservation`` (as :func:`vision.dice.reader.read_dice`). Raises ValueError naming the choices for
    another name."""
    if name == "learned":
        return read_dice
    if name == "classical":
        from vision.training.dice_classical import read_work_classical

        return lambda frame, calibration=None: _read(frame, calibration, read_work_classical)
    if name == "hybrid":
        from vision.training.dice_classical import read_work_hybrid

        return lambda frame, calibration=None: _read(frame, calibration, read_work_hybrid)
    raise ValueError(f"dice reader {name!r} is not one of {', '.join(READERS)}")


def warm_up(name: str) -> None:
    """Pay the reader ``name``'s one-time costs now (model files, first forward passes, OpenCV's Lab
    tables): one read of a drawn table of three dice, as :func:`vision.dice.reader.warm_up`."""
    frame = np.full((480, 640, 3), (60, 110, 40), np.uint8)
    for x0 in (140, 290, 440):
        cv2.rectangle(frame, (x0, 200), (x0 + 60, 260), (235, 240, 240), -1)
        for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):
            cv2.circle(frame, (x0 + 30 + 15 * dx, 230 + 15 * dy), 6, (20, 20, 20), -1)
    reader_for(name)(frame)


def _read(frame_bgr: np.ndarray, calibration, read_work) -> DiceObservation:
    """The old ``read_dice`` front around ``read_work(work, calibration) -> list[DieReading]`` (work
    pixels): see the module docstring. Raises FrameError for input that is not a frame."""
    start = time.perf_counter()
    check_frame(frame_bgr)
    h, w = frame_bgr.shape[:2]
    if min(h, w) < MIN_FRAME_SIDE:  # checked before scaling: a thin frame would scale to 0 px
        return DiceObservation(dice=(), frame_shape=(h, w), ms=(time.perf_counter() - start) * 1000.0,
                               problem=frame_problem(cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)))
    work, scale = work_image(frame_bgr, WORK_SIDE)
    problem = frame_problem(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY))
    dice: list[DieReading] = []
    if problem is None:
        if calibration is not None and not calibration.fits((h, w)):
            calibration = None
        found = _mark(work, list(read_work(work, calibration)))
        dice = [d for d, _ in _reading_order([(_to_frame(d, scale, (w, h)), frozenset()) for d in found])]
    ms = (time.perf_counter() - start) * 1000.0
    return DiceObservation(dice=tuple(dice), frame_shape=(h, w), ms=ms, problem=problem)


def _mark(work: np.ndarray, dice: list[DieReading]) -> list[DieReading]:
    """``dice`` (boxes in work pixels) marked as the old ``read_dice`` did: cocked (and flagged) at
    P(cocked) >= cocked_at, flagged at P(a die) < die_below (each the mean over the crop's four quarter
    turns), flagged when longer than ``oversized`` of the work image's long side among two dice or more.
    A classifier whose file is absent marks nothing."""
    if not dice:
        return dice
    from vision.training.dice_classifier import turned_probabilities

    p = _params()
    gate, cocked = _classifiers()
    boxes = [d.box for d in dice]
    p_die = turned_probabilities(gate, work, boxes, 4)[:, 1] if gate is not None else None
    p_cocked = turned_probabilities(cocked, work, boxes, 4)[:, 1] if cocked is not None else None
    out = []
    for i, d in enumerate(dice):
        if p_cocked is not None and p_cocked[i] >= p.cocked_at:
            d = replace(d, cocked=True, flagged=True)
        if p_die is not None and p_die[i] < p.die_below:
            d = replace(d, flagged=True)
        out.append(d)
    if len(out) >= 2:
        limit = p.oversized * max(work.shape[:2])
        out = [replace(d, flagged=True) if max(d.box[2] - d.box[0], d.box[3] - d.box[1]) > limit else d
               for d in out]
    return out


@lru_cache(maxsize=1)
def _params() -> DiceParams:
    return load_params(model_dir() / PARAMS_FILE)


@lru_cache(maxsize=1)
def _classifiers():
    """The shipped gate and cocked classifiers (:mod:`vision.training.dice_classifier`), each None when
    its file is absent."""
    from vision.training.dice_classifier import (
        COCKED_MANIFEST_FILE,
        COCKED_MODEL_FILE,
        GATE_MANIFEST_FILE,
        GATE_MODEL_FILE,
        FaceClassifier,
    )

    out = []
    for model, manifest in ((GATE_MODEL_FILE, GATE_MANIFEST_FILE), (COCKED_MODEL_FILE, COCKED_MANIFEST_FILE)):
        try:
            out.append(FaceClassifier(model_file=model, manifest_file=manifest))
        except (FileNotFoundError, cv2.error):
            out.append(None)
    return tuple(out)


COMPARED = ("found", "unflagged_precision", "false_accepts", "flag_rate", "flagged_correct", "image_accuracy",
            "median_ms")
"""The figures of :func:`vision.dice.eval.evaluate` that :func:`compare` prints for each reader."""


def compare(readers: Mapping[str, object], sets, errata=None, as_json: bool = False,
            more: Callable[[str], Mapping[str, Mapping]] | None = None) -> None:
    """Measure ``readers`` (name -> an object with ``read(frame_bgr)``, e.g. a
    :class:`vision.dice.reader.DiceReader`) on each of ``sets`` (folders with ``labels.csv``) in one run
    and print, per set, one line a reader of the :data:`COMPARED` figures (None where absent), or with
    ``as_json`` one object ``{"set", name: {...}, ...}``. ``errata``: label corrections
    (:func:`vision.dice.eval.load_errata`); ``more(set_dir)``: further figures per reader name, added to
    each reader's."""
    for s in sets:
        out: dict = {"set": Path(s).name}
        for name, reader in readers.items():
            result = evaluate(s, errata, reader.read)
            out[name] = {k: result.get(k) for k in COMPARED}
        for name, extra in (more(s) if more else {}).items():
            out[name].update(extra)
        if as_json:
            print(json.dumps(out), flush=True)
        else:
            for name in readers:
                print(f"{out['set']:<22} {name:<12} " + " ".join(f"{k} {v}" for k, v in out[name].items()), flush=True)


def compare_main(argv: list[str] | None, prog: str, description: str, candidate: str, make_reader: Callable,
                 name: str = "candidate", more: Callable | None = None, options: Callable | None = None) -> int:
    """The command line shared by the tools that measure one candidate reader against the shipped one:
    ``prog CANDIDATE SET... [--errata CSV] [--json]``. ``make_reader(CANDIDATE)`` builds the candidate
    (shown as ``name``); ``more(readers)``, when given, makes :func:`compare`'s ``more`` from the readers;
    ``options(parser)``, when given, adds a tool's own options, and the candidate is then built as
    ``make_reader(CANDIDATE, args)``. Returns exit status 0."""
    from vision.dice.eval import load_errata
    from vision.dice.reader import shipped_reader

    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(candidate)
    parser.add_argument("sets", nargs="+")
    parser.add_argument("--errata", help="label errata CSV (byler_d6's)")
    parser.add_argument("--json", action="store_true")
    if options is not None:
        options(parser)
    args = parser.parse_args(argv)
    errata = load_errata(args.errata) if args.errata else None
    made = make_reader(getattr(args, candidate), args) if options is not None else make_reader(getattr(args, candidate))
    readers = {"shipped": shipped_reader(), name: made}
    compare(readers, args.sets, errata, args.json, more(readers) if more else None)
    return 0
