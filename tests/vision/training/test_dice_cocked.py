"""Rendered cocked dice (vision.training.dice_cocked) and the reader's cocked mark (the cocked head of
vision.dice.networks, read by vision.dice.reader)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.dice import read_dice, shipped_reader
from vision.dice.detect import Detection
from vision.dice.eval import evaluate, load_set
from vision.dice.networks import HEADS_FILE, model_dir
from vision.dice.reader import Candidates
from vision.training.dice_cocked import make_image, render_cocked, write_set


def _outline_aspect(bgra: np.ndarray) -> float:
    points = cv2.findNonZero((bgra[..., 3] > 127).astype(np.uint8))
    w, h = cv2.minAreaRect(points)[1]
    return max(w, h) / min(w, h)


def test_a_tilted_die_shows_the_face_turned_most_up_and_a_second_face():
    rng = np.random.default_rng(2)
    flat, _, up_flat = render_cocked(5, 48, 0.0, rng)
    low, _, up_low = render_cocked(5, 48, 20.0, rng)
    steep, _, up_steep = render_cocked(5, 48, 65.0, rng)
    assert up_flat == 5 and up_low == 5  # tilted less than 45 degrees, the old top still faces the camera most
    assert up_steep not in (5, 2)  # past 45 degrees a side face does (never the bottom, 7 - 5)
    # flat, the die is a square from above; tilted 20 degrees, its outline is 1 : cos + sin = 1.28
    assert _outline_aspect(flat) == pytest.approx(1.0, abs=0.08)
    assert _outline_aspect(low) == pytest.approx(math.cos(math.radians(20)) + math.sin(math.radians(20)), abs=0.1)
    with pytest.raises(ValueError, match="1-6"):
        render_cocked(7, 48, 30.0, rng)


def test_each_rendered_table_has_one_cocked_die_and_flat_ones(tmp_path):
    folder = write_set(4, seed=3, folder=tmp_path / "cocked")
    images, box_file = load_set(folder)
    assert box_file == "boxes.csv" and len(images) == 4
    for item in images:
        assert sum(item.cocked) == 1 and 2 <= len(item.cocked) <= 5
        assert len(item.cocked) == len(item.boxes) == len(item.values)
        image = cv2.imread(str(folder / item.file))
        for _, (x0, y0, x1, y1) in item.boxes:
            assert 0 <= x0 < x1 <= image.shape[1] and 0 <= y0 < y1 <= image.shape[0]


needs_model = pytest.mark.skipif(not (model_dir() / HEADS_FILE).is_file(),
                                 reason=f"assets/dice_model/{HEADS_FILE} is absent")


def cocked_probabilities(frame: np.ndarray, boxes) -> np.ndarray:
    """P(cocked) (n,) the shipped reader gives the dice at ``boxes`` (frame pixels): its first pass."""
    cands = Candidates([Detection(tuple(float(v) for v in b), 1.0) for b in boxes])
    shipped_reader()._classify(frame, cands)
    return cands.cocked


@needs_model
def test_cocked_dice_on_rendered_tables_are_never_offered_as_read(tmp_path):
    """Tables never trained on (the classifier's own come from seed 1007's generator): nearly every cocked
    die is flagged or not offered, and most are marked cocked. Measured on the eval command's 200 tables of
    seeds 1 / 2 / 3: 1.0 / 1.0 / 0.97 flagged, before and after the one-recognizer reader (the model's
    README); here (seed 41) 19 of 20: a cocked 1 with P(cocked) 0.46 in four turns (0.58 on the box rounded
    to whole pixels, which the reader before cut its crop from)."""
    r = evaluate(write_set(20, seed=41, folder=tmp_path / "cocked"))
    assert r["cocked_dice"] == 20
    assert r["cocked_flagged"] >= 0.95
    assert r["cocked_marked"] >= 0.8
    assert r["flat_marked_cocked"] <= 0.1


@needs_model
def test_a_flat_die_is_not_cocked_and_a_leaning_one_is():
    rng = np.random.default_rng(5)
    table = np.full((200, 300, 3), (70, 120, 60), np.uint8)
    frame = table.astype(np.float32)
    from vision.training.dice_cocked import _paste

    boxes = []
    for x, tilt in ((50, 0.0), (170, 35.0)):
        bgra, _, _ = render_cocked(4, 44, tilt, rng)
        boxes.append(_paste(frame, bgra, x, 60, 0.0))
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    p = cocked_probabilities(frame, [tuple(int(v) for v in b) for b in boxes])
    assert p.shape == (2,) and p[0] < 0.5 <= p[1]
    obs = read_dice(frame)
    cocked = [d for d in obs.dice if d.cocked]
    assert all(d.flagged for d in cocked) and len(cocked) >= 1
    assert all(d.to_dict()["cocked"] is d.cocked for d in obs.dice)


def test_make_image_is_reproducible():
    a, b = make_image(np.random.default_rng(9)), make_image(np.random.default_rng(9))
    assert np.array_equal(a.image, b.image) and a.dice == b.dice
