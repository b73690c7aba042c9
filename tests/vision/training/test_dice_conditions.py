"""Labelled sets as another camera or light shows them (vision.training.dice_conditions), and the reader on them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.camera import bundled_photos_dir
from vision.dice import evaluate
from vision.dice.eval import load_set
from vision.training.dice_conditions import CONDITIONS, apply_condition, main, tilt_homography, write_condition


def _corners(h, width, height):
    return cv2.perspectiveTransform(np.float32([[[0, 0], [width, 0], [width, height], [0, height]]]), h)[0]


def test_a_tilted_camera_sees_the_far_side_smaller_and_the_whole_photo():
    assert np.allclose(tilt_homography(640, 480, 0.0), np.eye(3))
    c = _corners(tilt_homography(640, 480), 640, 480)
    assert (c >= -1e-3).all() and (c[:, 0] <= 640 + 1e-3).all() and (c[:, 1] <= 480 + 1e-3).all()
    top, bottom = c[1, 0] - c[0, 0], c[2, 0] - c[3, 0]
    # 30 degrees off vertical, 62 degrees across: one edge of the table is seen from about twice as far
    assert 1.6 < top / bottom < 2.6
    with pytest.raises(ValueError, match="edge-on"):
        tilt_homography(640, 480, 85.0)


def test_boxes_move_with_the_image():
    image = np.full((300, 400, 3), 90, np.uint8)
    cv2.rectangle(image, (180, 120), (219, 159), (250, 250, 250), -1)
    boxes = [(3, (180.0, 120.0, 220.0, 160.0))]
    rng = np.random.default_rng(0)
    for condition in ("tilt", "small", "smaller"):
        out, moved = apply_condition(image, boxes, condition, rng)
        ys, xs = np.nonzero(out[:, :, 0] > 170)
        x0, y0, x1, y1 = moved[0][1]
        assert moved[0][0] == 3
        assert x0 - 1.5 <= xs.min() and xs.max() <= x1 + 1.5 and y0 - 1.5 <= ys.min() and ys.max() <= y1 + 1.5
        assert (out[:3, :3] == 90).all()  # the border is the table's colour, not a mirrored copy
    assert apply_condition(image, boxes, "small", rng)[0].shape == (180, 240, 3)
    noisy, same = apply_condition(image, boxes, "noise", rng)
    assert same == boxes and 8.0 < float(noisy[:100, :100].astype(np.float32).std()) < 12.0
    assert apply_condition(image, boxes, "bright", rng)[0][0, 0, 0] == 135
    assert apply_condition(image, boxes, "jpeg", rng)[0].shape == image.shape
    with pytest.raises(ValueError, match="unknown condition"):
        apply_condition(image, boxes, "fog", rng)


def test_every_condition_writes_a_set_the_eval_can_read(tmp_path):
    for condition in CONDITIONS:
        out = write_condition(bundled_photos_dir(), tmp_path / condition, condition)
        items, box_file = load_set(out)
        assert len(items) == 14 and box_file == "boxes.csv"
        assert sum(len(item.boxes) for item in items) == 56
    assert main([str(tmp_path / "nowhere"), str(tmp_path / "x"), "--condition", "tilt"]) == 2
    # a folder that holds a set already (here the set itself) is never written over
    before = (tmp_path / "blur" / "labels.csv").read_bytes()
    with pytest.raises(FileExistsError, match="holds a labelled set already"):
        write_condition(tmp_path / "blur", tmp_path / "blur", "noise")
    assert main([str(tmp_path / "blur"), str(tmp_path / "blur"), "--condition", "noise"]) == 2
    assert (tmp_path / "blur" / "labels.csv").read_bytes() == before


def test_the_bundled_photos_seen_from_30_degrees_off_vertical(tmp_path):
    """Measured (twelfth round): 13 of 14 photos exact, found 1.0, no die shown wrong without a flag,
    flag rate 0.036 (upright: 14 of 14, flag rate 0.018)."""
    result = evaluate(write_condition(bundled_photos_dir(), tmp_path / "tilt", "tilt"))
    assert result["found"] >= 0.98 and result["unflagged_precision"] == 1.0
    assert result["image_accuracy_1_6"] >= 12 / 14 and result["flag_rate"] <= 0.08
