"""The synthetic touching-cluster set (vision.training.dice_clusters): layouts touch, labels match what is pasted."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.dice.eval import load_set
from vision.training.dice_clusters import (SEPARATION, ClusterImage, DieCut, cluster_layout, cluster_sizes, die_cut,
    make_image, make_set, write_set)

# Colour of a drawn die of value v (BGR): every value its own, so a label can be checked by the pixel.
COLOURS = {v: (40 * v, 255 - 40 * v, 100) for v in range(1, 7)}


def drawn_cuts(side: int = 40) -> list[DieCut]:
    """One opaque single-colour square cut-out per value, its top face the whole crop."""
    out = []
    for v in range(1, 7):
        img = np.zeros((side, side, 4), np.uint8)
        img[..., :3] = COLOURS[v]
        img[..., 3] = 255
        sq = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
        out.append(DieCut(img, v, sq))
    return out


def _area(poly: np.ndarray) -> float:
    return float(cv2.contourArea(poly.astype(np.float32)))


def _grown(sq: np.ndarray, k: float) -> np.ndarray:
    c = sq.mean(0)
    return ((sq - c) * k + c).astype(np.float32)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


@given(st.integers(1, 8), st.integers(0, 10_000))
@settings(max_examples=60, deadline=None)
def test_layout_squares_touch_and_never_overlap(n, seed):
    c = cluster_layout(n, np.random.default_rng(seed))
    assert c.shape == (n, 2)
    for i in range(n):
        others = [j for j in range(n) if j != i]
        # no overlap: unit squares at least 1 apart in x or y
        assert all(max(abs(c[i] - c[j])) >= 1 - 1e-9 for j in others)
        if n > 1:  # touching: some square lies exactly one side away along x or y, sharing >= 0.4 of the edge
            assert any(abs(max(abs(c[i] - c[j])) - 1) < 1e-9 and min(abs(c[i] - c[j])) <= 0.6 + 1e-9 for j in others)


@given(st.integers(2, 6), st.integers(0, 10_000))
@settings(max_examples=40, deadline=None)
def test_cluster_sizes_add_up_with_a_real_cluster(n, seed):
    sizes = cluster_sizes(n, np.random.default_rng(seed))
    assert sum(sizes) == n and sizes[0] >= 2 and all(k >= 1 for k in sizes)


@pytest.mark.parametrize("seed", range(6))
def test_image_labels_and_touching(seed):
    im = make_image(drawn_cuts(), np.random.default_rng(seed))
    n = len(im.values)
    assert 2 <= n <= 6 and im.boxes.shape == (n, 4) and im.squares.shape == (n, 4, 2)
    assert sorted(i for c in im.clusters for i in c) == list(range(n))
    h, w = im.image.shape[:2]
    for v, b, sq in zip(im.values, im.boxes, im.squares):
        # the label box is the axis-aligned box of the face, inside the image, and the face's centre
        # shows the colour of the die of that value
        assert np.allclose(b, [*sq.min(0), *sq.max(0)], atol=1e-3)
        assert 0 <= b[0] < b[2] <= w and 0 <= b[1] < b[3] <= h
        side = float(np.linalg.norm(sq[1] - sq[0]))
        assert side == pytest.approx(im.side, rel=1e-3)
        cx, cy = sq.mean(0)
        assert np.abs(im.image[int(cy), int(cx)].astype(int) - COLOURS[int(v)]).max() <= 3
    for cluster in im.clusters:
        for i in cluster:
            for j in cluster:
                if i < j:  # faces may overlap only by a sliver (tilt, PITCH < 1)
                    assert _overlap(im.squares[i], im.squares[j]) < 0.08 * im.side ** 2
            if len(cluster) > 1:  # each die of a cluster touches another of it
                assert any(_overlap(_grown(im.squares[i], 1.08), _grown(im.squares[j], 1.08)) > 0
                           for j in cluster if j != i)
        for other in im.clusters:
            if other is not cluster:
                for i in cluster:
                    for j in other:
                        assert np.hypot(*(im.squares[i].mean(0) - im.squares[j].mean(0))) >= SEPARATION * im.side - 1e-3


def test_apart_control_has_only_lone_dice():
    im = make_image(drawn_cuts(), np.random.default_rng(3), touching=False)
    assert all(len(c) == 1 for c in im.clusters)


def test_same_seed_same_set_and_written_labels(tmp_path):
    a = make_set(3, 7, drawn_cuts())
    b = make_set(3, 7, drawn_cuts())
    assert all(np.array_equal(x.image, y.image) and np.array_equal(x.boxes, y.boxes) for x, y in zip(a, b))
    write_set(a, tmp_path)
    items, box_file = load_set(tmp_path)
    assert box_file == "boxes.csv" and len(items) == 3
    for it, im in zip(items, a):
        assert list(it.values) == [int(v) for v in im.values]
        assert [v for v, _ in it.boxes] == [int(v) for v in im.values]
        assert np.allclose([bx for _, bx in it.boxes], im.boxes, atol=0.06)
        assert cv2.imread(str(tmp_path / it.file)).shape == im.image.shape


def test_die_cut_finds_a_turned_die_outline():
    img = np.full((120, 120, 3), 235, np.uint8)
    rect = ((60.0, 60.0), (40.0, 40.0), 20.0)
    cv2.fillConvexPoly(img, cv2.boxPoints(rect).astype(np.int32), (40, 30, 160), cv2.LINE_AA)
    corners = cv2.boxPoints(rect)
    box = (*corners.min(0), *corners.max(0))
    cut = die_cut(img, box, 4)
    assert cut is not None and cut.value == 4
    side = float(np.linalg.norm(cut.square[1] - cut.square[0]))
    assert side == pytest.approx(40, abs=3)
    angle = math.degrees(math.atan2(*(cut.square[1] - cut.square[0])[::-1])) % 90
    assert min(abs(angle - 20), 90 - abs(angle - 20)) < 4
    # the table's corners inside the labelled box are not part of the cut
    assert cut.image[1, 1, 3] < 30 and cut.image[cut.image.shape[0] // 2, cut.image.shape[1] // 2, 3] > 200


def test_training_set_from_byler_training_photos(shared_data):
    from vision.training.dice_clusters import training_cutouts

    cuts = training_cutouts()
    assert len(cuts) > 900 and {c.value for c in cuts} == set(range(1, 7))
    ims = make_set(2, 1, cuts)
    assert all(isinstance(im, ClusterImage) and im.image.shape == (640, 640, 3) for im in ims)
