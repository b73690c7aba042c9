"""Mosaics of labelled photos (vision.training.dice_mosaics): small dice in a large frame, each box moved
with its photo."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice.eval import load_set
from vision.dice.networks import model_dir
from vision.training.dice_mosaics import main, mosaic, usable_photos

PHOTOS = model_dir().parent / "dice_photos"


def test_a_mosaic_keeps_each_photo_s_pixels_and_moves_its_boxes_with_it():
    photos = usable_photos(PHOTOS)
    assert len(photos) >= 4 and len({p[0].shape for p in photos}) == 1
    image, boxes = mosaic(photos, 2, np.random.default_rng(0))
    h, w = photos[0][0].shape[:2]
    assert image.shape == (2 * h, 2 * w, 3)
    picks = np.random.default_rng(0).choice(len(photos), size=4, replace=False)
    expected = []
    for k, i in enumerate(picks):
        row, col = divmod(k, 2)
        frame, dice = photos[int(i)]
        assert np.array_equal(image[row * h:(row + 1) * h, col * w:(col + 1) * w], frame)
        expected += [(v, (x0 + col * w, y0 + row * h, x1 + col * w, y1 + row * h)) for v, (x0, y0, x1, y1) in dice]
    assert boxes == expected


def test_the_command_writes_a_labelled_set_and_refuses_a_folder_without_labels(tmp_path, capsys):
    assert main([str(PHOTOS), str(tmp_path / "out"), "--grid", "2", "--n", "3", "--seed", "1"]) == 0
    images, box_file = load_set(tmp_path / "out")
    assert len(images) == 3 and box_file is not None
    for item in images:
        frame = cv2.imread(str(tmp_path / "out" / item.file))
        assert frame.shape[:2] == (1280, 1280)
        assert sorted(item.values) == sorted(v for v, _ in item.boxes) and len(item.values) >= 4
    assert main([str(tmp_path), str(tmp_path / "o2")]) == 2
    assert "labels.csv" in capsys.readouterr().err
