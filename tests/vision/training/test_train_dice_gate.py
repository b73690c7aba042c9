"""The gate classifier's samples (vision.training.train_dice_gate): labelled dice are dice, the print the
reader takes for dice is not."""

from __future__ import annotations

import numpy as np

from vision.training.dice_clusters import CANVAS, make_image
from vision.training.dice_game_tables import game_table
from vision.training.dice_render import rendered_cuts
from vision.training.train_dice_gate import PER_FOUND, PER_LABEL, found_boxes, image_samples


def test_samples_of_a_game_table_are_dice_and_print():
    rng = np.random.default_rng(11)
    scene = make_image(rendered_cuts(24, 3), rng, touching=False, table=game_table(rng, (CANVAS[1], CANVAS[0])))
    found = found_boxes(scene.image, scene.boxes)
    xs, ys = image_samples(scene.image, scene.boxes, rng)
    assert len(xs) == len(ys) == PER_LABEL * len(scene.boxes) + PER_FOUND * len(found)
    assert all(x.shape == (3, 32, 32) and x.dtype == np.float32 for x in xs)
    # every labelled die gives dice; the reader's detections give both kinds on this table
    assert sum(ys) >= PER_LABEL * len(scene.boxes)
    assert {c for _, c in found} == {0, 1}
