"""Tables with no dice but things that look like them (vision.training.dice_hard_negatives): every kind is
drawn where its box says, at a die's size, and the measure names the object under each offered die."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest

from vision.observation import DiceObservation, DieReading
from vision.training.dice_clusters import CANVAS, SIDES
from vision.training.dice_hard_negatives import KINDS, draw_object, main, make_hard_negative_set, offered_on


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_is_drawn_inside_its_square(kind):
    rng = np.random.default_rng(3)
    image, alpha = draw_object(kind, 60, rng, light=0.5)
    assert image.shape == (60, 60, 3) and alpha.shape == (60, 60)
    assert 0.0 <= alpha.min() and alpha.max() <= 1.0
    covered = (alpha > 0.5).mean()
    assert 0.08 < covered < 0.95  # an object, neither a speck nor the whole square
    # its edge rows and columns are (nearly) clear: nothing is cut by the square
    assert alpha[[0, -1], :].mean() < 0.25 and alpha[:, [0, -1]].mean() < 0.25


def test_a_set_has_no_dice_and_its_objects_in_frame():
    images, objects = make_hard_negative_set(6, seed=2)
    assert len(images) == len(objects) == 6
    h, w = CANVAS
    for im, objs in zip(images, objects):
        assert im.image.shape == (h, w, 3) and im.image.dtype == np.uint8
        assert len(im.values) == 0 and len(im.boxes) == 0
        assert 3 <= len(objs) <= 7
        for kind, (x0, y0, x1, y1) in objs:
            assert kind in KINDS
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
            # no object is smaller than the smallest die it stands for could make it (unless cut by the frame)
            if x0 > 0 and y0 > 0 and x1 < w and y1 < h:
                assert x1 - x0 >= math.floor(SIDES[0] * min(r[0] for r in KINDS.values()))


class _Reader:
    """Offers a die at the centre of the first object of each image, and asks about one on the bare table."""

    def __init__(self, rows):
        self.rows = rows
        self.at = 0

    def read(self, frame):
        x0, y0, x1, y1 = (int(float(v)) for v in self.rows[self.at])
        self.at += 1
        return DiceObservation((DieReading(1, (x0, y0, x1, y1), 0.95),
                                DieReading(2, (0, 0, 4, 4), 0.4, flagged=True)), frame.shape[:2])


def test_offered_dice_are_named_by_the_object_under_them(tmp_path):
    assert main([str(tmp_path), "--n", "3", "--seed", "4"]) == 0
    with open(tmp_path / "objects.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    firsts = {}
    for row in rows:
        firsts.setdefault(row["file"], row)
    got = offered_on(tmp_path, _Reader([[r[k] for k in ("x0", "y0", "x1", "y1")] for _, r in sorted(firsts.items())]))
    assert got["images"] == 3 and got["offered_total"] == 3
    expected: dict[str, int] = {}
    for _, r in sorted(firsts.items()):
        expected[r["kind"]] = expected.get(r["kind"], 0) + 1
    # a die at an object's centre counts for that object (the first listed that holds the centre: itself)
    assert got["offered"] == expected
    assert sum(got["asked"].values()) == 3


def test_a_set_of_chosen_kinds_holds_those_alone():
    _, objects = make_hard_negative_set(4, seed=3, kinds=("pawn", "ring"))
    assert {kind for objs in objects for kind, _ in objs} <= {"pawn", "ring"}
    assert sum(len(objs) for objs in objects) >= 12
