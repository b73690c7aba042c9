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


def test_tilted_views_keep_each_labelled_die_in_its_box():
    """A die drawn at a known place on a plain photo stays inside its moved box in every tilted view, each
    photo turned by a quarter turn first (the box turned with it)."""
    import cv2

    from vision.training.train_dice_gate import _tilted_photos

    image = np.full((480, 640, 3), 200, np.uint8)
    cv2.rectangle(image, (100, 60), (140, 100), (20, 20, 20), -1)  # a dark square: the only dark pixels
    views = _tilted_photos([(image, np.array([[100, 60, 140, 100]], np.float32))], 12, 1)
    assert len(views) == 12 and _tilted_photos([], 3, 1) == []
    shapes = set()
    for view, boxes in views:
        shapes.add(view.shape[:2])
        ys, xs = np.nonzero(view.max(axis=2) < 100)
        x0, y0, x1, y1 = boxes[0]
        assert len(xs) > 0 and x0 - 2 <= xs.min() and xs.max() <= x1 + 2 and y0 - 2 <= ys.min() and ys.max() <= y1 + 2
        assert (x1 - x0) * (y1 - y0) < 4 * 40 * 40  # moved, not swollen to the frame
    assert shapes == {(480, 640), (640, 480)}  # turned both ways
