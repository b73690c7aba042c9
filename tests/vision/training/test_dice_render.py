"""Rendered training dice (vision.training.dice_render): the right pips, a die-shaped outline, a valid cut-out."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dice.pips import face_mask, read_face, to_lab
from vision.dice.reader import shipped_reader
from vision.training.dice_clusters import make_image
from vision.training.dice_render import PIPS, render_die, rendered_cuts


def test_layouts_are_the_standard_d6_faces():
    assert {v: len(p) for v, p in PIPS.items()} == {v: v for v in range(1, 7)}
    for v, pips in PIPS.items():  # every face is symmetric under a half turn
        assert sorted(pips) == sorted((-x, -y) for x, y in pips)


def on_table(cut, table=(90, 140, 60)) -> np.ndarray:
    a = cut.image[..., 3:4] / 255.0
    return (cut.image[..., :3] * a + np.full(cut.image.shape[:2] + (3,), table, float) * (1 - a)).astype(np.uint8)


def test_the_classical_pip_counter_reads_rendered_dice():
    # 120 dice of random colours, rims, shading and glare (seed 0): the product's pip counter, which never
    # saw them, reads at least 95 % right (it reads 118: two pale 2s as 1s), so the faces show countable pips.
    rng = np.random.default_rng(0)
    params = shipped_reader().params
    right = 0
    for i in range(120):
        cut = render_die(1 + i % 6, rng)
        (x0, y0), (x1, y1) = cut.square[0], cut.square[2]
        box = (int(x0), int(y0), int(x1), int(y1))
        mask = face_mask(box[2] - box[0], box[3] - box[1], params.mask_inset, params.mask_radius)
        right += read_face(to_lab(on_table(cut)), box, mask).value == cut.value
    assert right >= 114


def test_cut_out_is_the_rounded_face():
    cut = render_die(5, np.random.default_rng(3))
    assert cut.image.dtype == np.uint8 and cut.image.shape[2] == 4 and cut.value == 5
    (x0, y0), (x1, y1) = cut.square[0].astype(int), cut.square[2].astype(int)
    alpha = cut.image[..., 3]
    assert alpha[y0 + 8:y1 - 8, x0 + 8:x1 - 8].min() == 255  # the face is opaque
    assert alpha[0, 0] == 0 and alpha[-1, -1] == 0  # the padding round it is not


def test_same_seed_same_dice_and_values_in_turn():
    a, b = rendered_cuts(12, 5), rendered_cuts(12, 5)
    assert [c.value for c in a] == [1, 2, 3, 4, 5, 6] * 2
    assert all(np.array_equal(x.image, y.image) for x, y in zip(a, b))


def test_rendered_dice_paste_into_cluster_images():
    scene = make_image(rendered_cuts(30, 1), np.random.default_rng(2))
    assert scene.image.shape == (640, 640, 3) and 2 <= len(scene.values) <= 6
    assert set(scene.values.tolist()) <= set(range(1, 7))


@pytest.mark.parametrize("value", [0, 7])
def test_no_such_face(value):
    with pytest.raises(ValueError, match="1-6"):
        render_die(value, np.random.default_rng(0))


def test_composite_training_crops(shared_data):
    # vision.training.train_dice --composites: crops of synthetic tables, their positives labelled with the pasted
    # dice's values and a share of the negatives close-ups of one pip.
    from vision.training.dice_classifier import CROP_SIZE
    from vision.training.train_dice import composite_samples

    x, y = composite_samples(4, seed=3, rendered=0.3, pip_negatives=0.5)
    assert x.shape == (len(y), 3, CROP_SIZE, CROP_SIZE) and x.dtype == np.float32
    assert set(np.unique(y).tolist()) <= set(range(7)) and (y == 0).any() and (y > 0).sum() >= 4 * 2 * 4
    again = composite_samples(4, seed=3, rendered=0.3, pip_negatives=0.5)
    assert np.array_equal(y, again[1]) and np.array_equal(x, again[0])


def test_close_up_images_hold_big_dice():
    rng = np.random.default_rng(4)
    cuts = rendered_cuts(12, 4, size=256)
    for _ in range(5):
        scene = make_image(cuts, rng, touching=False, sides=(90.0, 260.0), dice=(1, 2))
        assert 1 <= len(scene.values) <= 2 and 90 * 0.99 <= scene.side <= 260 * 1.01
        sides = scene.boxes[:, 2:] - scene.boxes[:, :2]
        assert (sides >= scene.side * 0.99).all() and (sides <= scene.side * 1.42).all()  # turned squares


def test_dice_that_cannot_fit_raise():
    with pytest.raises(ValueError, match="do not fit"):
        make_image(rendered_cuts(6, 0), np.random.default_rng(0), sides=(500.0, 500.0), dice=(3, 3))


def test_dice_that_never_fit_apart_raise_instead_of_hanging():
    # two 260 px dice lying 1.6 sides apart, each 0.75 of a side from the edges: no 640 px layout has room
    with pytest.raises(ValueError, match="200 layouts"):
        make_image(rendered_cuts(6, 0), np.random.default_rng(0), touching=False, sides=(260.0, 260.0), dice=(2, 2))


def test_mixed_cuts_add_rendered_dice_in_the_asked_fraction():
    from vision.training.dice_render import CLOSEUP_RENDER, SIZE, mixed_cuts

    cut = rendered_cuts(14, 9)  # stands in for the cut-out dice
    dice, big = mixed_cuts(cut, 0.3, 5)
    assert len(cut) == 14 and len(dice) == len(big) == 20  # 6 rendered: 0.3 of 20
    assert dice[:14] == cut and big[:14] == cut
    assert all(np.array_equal(a.image, b.image) for a, b in zip(dice[14:], rendered_cuts(6, 5)))
    assert {int(np.linalg.norm(c.square[1] - c.square[0])) for c in dice[14:]} == {SIZE}
    assert {int(np.linalg.norm(c.square[1] - c.square[0])) for c in big[14:]} == {CLOSEUP_RENDER}
    assert len(mixed_cuts(cut, 0.3, 5, closeups=False)[1]) == 14
    assert mixed_cuts(cut, 0.0, 5) == (cut, cut)
