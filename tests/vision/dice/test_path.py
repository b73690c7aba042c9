"""The path of one frame through the dice reader (issue 38): how many of the project's modules a read
enters, how many distinct module-to-module calls it makes, and how many classifier passes a die costs."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

import vision
from tests.vision.dice.test_recognizer import Networks
from vision.camera import bundled_photos_dir
from vision.dice import calibrate_dice, load_calibration
from vision.dice.reader import DiceReader, shipped_reader

ROOT = Path(vision.__file__).resolve().parents[1]


def _module(filename: str) -> str | None:
    """The project module (dotted) of a code object's file, None for anything else (tests included)."""
    try:
        rel = Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return None
    if rel.parts[0] not in ("vision", "companion", "hardware") or rel.suffix != ".py":
        return None
    return ".".join(rel.with_suffix("").parts).removesuffix(".__init__")


def trace(read) -> tuple[set[str], set[tuple[str, str]]]:
    """The project modules entered while ``read()`` runs, and the distinct (caller, callee) module pairs
    of the calls between two of them."""
    entered: set[str] = set()
    edges: set[tuple[str, str]] = set()

    def profile(frame, event, arg):
        if event != "call":
            return
        callee = _module(frame.f_code.co_filename)
        if callee is None:
            return
        entered.add(callee)
        caller = frame.f_back and _module(frame.f_back.f_code.co_filename)
        if caller and caller != callee:
            edges.add((caller, callee))

    sys.setprofile(profile)
    try:
        read()
    finally:
        sys.setprofile(None)
    return entered, edges


def _photo() -> np.ndarray:
    folder = bundled_photos_dir()
    return cv2.imread(str(sorted(folder.glob("*.jpg"))[0]))


def test_a_read_enters_at_most_six_modules_with_at_most_seven_calls_between_them(tmp_path):
    frame = _photo()
    empty = np.full_like(frame, 128)
    calibrate_dice([empty, empty], tmp_path)
    calibration = load_calibration(tmp_path)
    reader = shipped_reader()
    reader.read(frame)  # first read of this size: networks planned outside the trace
    for calib in (None, calibration):
        entered, edges = trace(lambda: reader.read(frame, calib))
        assert "vision.dice.reader" in entered and "vision.dice.detect" in entered
        assert len(entered) <= 6, sorted(entered)
        assert len(edges) <= 7, sorted(edges)
        assert not any(m.startswith("companion") for m in entered)


def test_a_die_costs_at_most_two_classifier_passes():
    frame = _photo()
    for params in (shipped_reader().params, None):
        nets = Networks()
        p = shipped_reader().params
        if params is None:  # unsure of every die: every one goes through the second pass
            from dataclasses import replace
            p = replace(p, recheck_below=1.01, check_margin=1.0)
        obs = DiceReader(p, nets).read(frame)
        assert obs.dice
        assert [name for name, _ in nets.seen] in (["heads"], ["heads", "recheck"])
        if params is None:  # the dice kept, and those the decision then drops, each in two more views
            assert nets.seen[1][0] == "recheck" and nets.seen[1][1] >= 2 * len(obs.dice)
