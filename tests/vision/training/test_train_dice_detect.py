"""Training samples of the die detector (vision.training.train_dice_detect): scenes and close-ups of rendered dice
(no ../shared needed: the dice are drawn by vision.training.dice_render)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dice.detect import STRIDE
from vision.training.dice_render import rendered_cuts
from vision.training.train_dice_detect import SIZE, sample, scene


@pytest.fixture(scope="module")
def cuts():
    return rendered_cuts(24, 3)


def sides(boxes: np.ndarray) -> np.ndarray:
    return np.sqrt((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]))


def test_scene_dice_are_of_the_trained_sizes(cuts):
    rng = np.random.default_rng(0)
    all_sides = []
    for _ in range(12):
        img, boxes = scene(cuts, rng)
        assert img.shape == (SIZE, SIZE, 3) and img.dtype == np.uint8
        assert 1 <= len(boxes) <= 12
        assert (boxes[:, :2] >= -1).all() and (boxes[:, 2:] <= SIZE + 1).all()  # every die lies in view
        all_sides += list(sides(boxes))
    # a face of side d turned by any angle has an axis-aligned box of d to 1.41 d: 9-70 px dice
    assert 8.5 <= min(all_sides) and max(all_sides) <= 70 * 1.42


def test_closeup_is_one_die_bigger_than_any_scene_die(cuts):
    rng = np.random.default_rng(1)
    for _ in range(6):
        img, boxes = scene(cuts, rng, closeup=True)
        assert len(boxes) == 1
        assert 69 <= sides(boxes)[0] <= 126 * 1.42


def test_scene_pixels_show_the_dice(cuts):
    # the box of a pasted die differs from the bare table (the die is drawn where its label says)
    img, boxes = scene(cuts, np.random.default_rng(4), closeup=True)
    x0, y0, x1, y1 = (int(round(v)) for v in boxes[0])
    inside = img[max(0, y0):y1, max(0, x0):x1].reshape(-1, 3).astype(float)
    assert inside.std(0).max() > 20  # pips on a body, not a plain patch


def test_sample_mixes_scenes_and_targets_mark_each_centre(cuts):
    rng = np.random.default_rng(2)
    x, heat, reg, mask = sample([], [], rng, scene_cuts=cuts, scenes=0.5, closeups=0.5)
    g = SIZE // STRIDE
    assert x.shape == (3, SIZE, SIZE) and x.dtype == np.float32
    assert heat.shape == (1, g, g) and reg.shape == (3, g, g) and mask.shape == (g, g)
    assert 1 <= mask.sum() <= 12 and heat.max() == 1.0



def test_tray_lies_round_the_dice_and_leaves_the_table_beyond():
    from vision.training.dice_clusters import TRAY_MARGIN, TRAY_RIM, draw_tray

    for seed in range(5):
        img = np.full((640, 640, 3), 128.0, np.float32)
        centres = np.array([[300.0, 300.0], [340.0, 320.0]])
        draw_tray(img, centres, 40.0, np.random.default_rng(seed))
        reach = 40.0 * (TRAY_MARGIN[1] + TRAY_RIM[1]) + 2
        assert (img[:int(300 - reach)] == 128).all() and (img[int(320 + reach) + 1:] == 128).all()
        assert (img[:, :int(300 - reach)] == 128).all() and (img[:, int(340 + reach) + 1:] == 128).all()
        near = 40.0 * TRAY_MARGIN[0] - 2  # the floor under and round the dice is the tray's
        floor = img[int(300 - near):int(320 + near), int(300 - near):int(340 + near)]
        assert np.abs(floor - 128).max() > 0


def test_scene_on_a_game_table_shows_the_table(cuts):
    from vision.training.dice_clusters import CANVAS

    table = np.zeros(CANVAS + (3,), np.uint8)
    table[:, :, 2] = 200  # a red table, no other table is drawn red and flat
    img, boxes = scene(cuts, np.random.default_rng(5), tables=[table], game_tables=1.0)
    mask = np.ones((SIZE, SIZE), bool)
    for x0, y0, x1, y1 in boxes.astype(int):
        mask[max(0, y0 - 4):y1 + 4, max(0, x0 - 4):x1 + 4] = False
    assert (np.abs(img[mask].astype(int) - (0, 0, 200)) <= 2).mean() > 0.95
    # without game tables the same generator draws a table of its own
    img, _ = scene(cuts, np.random.default_rng(5), tables=[table], game_tables=0.0)
    assert (np.abs(img.reshape(-1, 3).astype(int) - (0, 0, 200)) <= 2).all(1).mean() < 0.5


def test_tilted_photo_shrinks_and_squashes_the_far_side():
    from vision.training.train_dice_detect import tilted_photo

    image = np.full((640, 640, 3), 200, np.uint8)
    boxes = np.float32([[300, 40, 340, 80], [300, 300, 340, 340], [300, 560, 340, 600]])  # near top, middle, bottom
    for x0, y0, x1, y1 in boxes.astype(int):
        image[y0:y1, x0:x1] = 0
    rng = np.random.default_rng(3)
    out, moved = tilted_photo(image, boxes, rng)
    assert out.shape == image.shape and moved.shape == (3, 4)
    w, h = moved[:, 2] - moved[:, 0], moved[:, 3] - moved[:, 1]
    far, near = int(np.argmin(w)), int(np.argmax(w))
    assert {far, near} == {0, 2}  # the tilt runs along the image's vertical axis
    assert h[far] / w[far] < h[near] / w[near]  # squashed along the view, more on the far side
    for (x0, y0, x1, y1) in moved:  # each moved box holds its dark square
        inner = out[int(y0) + 3:int(y1) - 2, int(x0) + 3:int(x1) - 2]
        assert inner.size and inner.mean() < 60


def test_rune55_samples_come_from_the_groups_not_left_out_and_hold_their_dice(tmp_path):
    """--rune55: a lazily read photo warped as byler's are; the left-out group and its near-copies are
    never among them (rune55 itself is needed: skipped without ../shared)."""
    import cv2

    from vision.dice.eval import LabelledImage
    from vision.training.train_dice_detect import LazyPhoto

    image = np.full((200, 200, 3), 200, np.uint8)
    cv2.rectangle(image, (60, 60), (100, 100), (20, 20, 20), -1)
    cv2.imwrite(str(tmp_path / "a.png"), image)
    photo = LazyPhoto(tmp_path / "a.png", LabelledImage("a.png", (3,), ((3, (60.0, 60.0, 100.0, 100.0)),)))
    assert photo.image.shape == (200, 200, 3) and photo.boxes.shape == (1, 4)
    x, heat, reg, mask = sample([], [], np.random.default_rng(0), rune=[photo], rune_fraction=1.0)
    assert x.shape == (3, SIZE, SIZE) and heat.shape == (1, SIZE // STRIDE, SIZE // STRIDE)
    assert mask.sum() <= 1 and heat.max() <= 1.0


def test_the_left_out_rune55_group_and_its_near_copies_stay_out(tmp_path, monkeypatch):
    import cv2

    import vision.training.dice_network_data as data
    from vision.dice.eval import LabelledImage
    from vision.training.train_dice_detect import rune55_photos

    rng = np.random.default_rng(3)

    def photo(name, picture, values=(2,)):
        cv2.imwrite(str(tmp_path / name), picture)
        return tmp_path / name, LabelledImage(name, values, tuple((v, (1.0, 1.0, 9.0, 9.0)) for v in values))

    scene = rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)
    other = rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)
    groups = {"tube": [photo("t.png", scene)],
              "piles": [photo("copy.png", np.rot90(scene).copy()), photo("own.png", other),
                        photo("same_look_other_dice.png", scene, (5,))]}
    monkeypatch.setattr(data, "rune55_groups", lambda: groups)
    photos, taken = rune55_photos("tube")
    # the turned copy of the tube's scene goes; a scene of its own, and the same look with other dice, stay
    assert sorted(p.path.name for p in photos) == ["own.png", "same_look_other_dice.png"]
    assert taken == {"groups": {"piles": 2}, "left_out": "tube", "near_copies_dropped": 1}
    with pytest.raises(SystemExit, match="--leave-out"):
        rune55_photos("no such group")


def test_a_sure_detection_no_label_explains_is_neither_positive_nor_negative():
    """--unlabelled: rune55 boxes pip dice only; where the shipped detector is sure of a die no label
    explains, the heat target is IGNORED_HEAT (no positive, a nil negative weight), elsewhere as before."""
    from vision.dice.detect import Detection
    from vision.training.train_dice_detect import IGNORED_HEAT, UNLABELLED_SCORE, targets, unlabelled_boxes

    class Found:
        def detect(self, image):
            return [Detection((10.0, 10.0, 30.0, 30.0), 0.9),  # a labelled die
                    Detection((100.0, 100.0, 130.0, 130.0), 0.9),  # a die the labels leave out
                    Detection((150.0, 20.0, 170.0, 40.0), UNLABELLED_SCORE / 2)]  # too weak to say

    labels = np.array([[8.0, 8.0, 32.0, 32.0]], np.float32)
    unlabelled = unlabelled_boxes(Found(), np.zeros((192, 192, 3), np.uint8), labels)
    assert unlabelled.tolist() == [[100.0, 100.0, 130.0, 130.0]]
    heat, reg, mask = targets(labels, unlabelled)
    g = heat[0]
    assert g[100 // STRIDE + 2, 100 // STRIDE + 2] == pytest.approx(IGNORED_HEAT) and not (g[24:33, 24:33] == 1).any()
    assert (g == 1).sum() == 1 and mask.sum() == 1  # the labelled die alone is a positive
    assert g[45, 5] == 0.0  # the table far from both stays a negative


def test_max_side_lets_a_warped_photo_show_dice_as_large_as_a_camera_close_over_the_tray(tmp_path):
    import cv2

    from vision.dice.eval import LabelledImage
    from vision.training.train_dice_detect import LazyPhoto, warp_photo

    image = np.full((400, 400, 3), 200, np.uint8)
    boxes = tuple((3, (float(x), float(y), float(x + 40), float(y + 40))) for x, y in ((60, 60), (200, 220)))
    cv2.imwrite(str(tmp_path / "a.png"), image)
    photo = LazyPhoto(tmp_path / "a.png", LabelledImage("a.png", (3, 3), boxes))
    rng = np.random.default_rng(5)
    # the dice's median side is drawn log-uniform from 9 px to max_side (its median: their geometric mean,
    # 24 and 31.5 px); a perspective warp stretches a die far from the view's centre, so medians are compared
    default = np.median([np.median(sides(warp_photo(photo, rng)[1])) for _ in range(200)])
    large = np.median([np.median(sides(warp_photo(photo, rng, max_side=110.0)[1])) for _ in range(200)])
    assert 18 < default < 30 and large > 1.2 * default


def test_hard_negatives_lie_beside_the_dice_and_leave_the_targets_alone():
    """--hard: rings, coins, pawns ... are laid on the table where no die is; the dice's pixels and the
    heat targets stay as they were (the objects are negatives)."""
    from vision.training.train_dice_detect import targets, with_hard_negatives

    rng = np.random.default_rng(2)
    img = np.full((SIZE, SIZE, 3), 90, np.uint8)
    boxes = np.array([[20, 20, 50, 50], [120, 130, 150, 160]], np.float32)
    img[20:50, 20:50] = 240
    img[130:160, 120:150] = 240
    changed = 0
    for _ in range(10):
        out = with_hard_negatives(img, boxes, rng)
        assert out.dtype == np.uint8 and out.shape == img.shape
        assert (out[22:48, 22:48] == 240).all() and (out[132:158, 122:148] == 240).all()
        changed += int((np.abs(out.astype(int) - img).sum(axis=2) > 30).mean() > 0.01)
    assert changed >= 8  # nearly every time something was laid (an object finding no place is left out)
    heat, _, mask = targets(boxes)
    assert (heat[0] == 1).sum() == 2 and mask.sum() == 2
