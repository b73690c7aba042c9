"""The die that landed on the board (vision.board.landed): found where the board changed, never in the
print, the place a die left, a shadow or a bumped board."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.games.ludo import LudoConfig, LudoState, StartWith, load_board
from companion.demos.ludo_frames import DIE_SIDE, homography, table_photo
from vision.board.landed import align_reference, changed_mask, landed_view
from vision.board.render import Scene

GEOMETRY = load_board("dga56")
SCENE = Scene(size=(480, 360), turn=20.0, tilt=8.0, fill=0.64, noise=2.0, seed=7)
SIDE = DIE_SIDE * 360
STATE = LudoState.new(4, LudoConfig.from_variant({"board": "dga56"})).apply(StartWith(0))


def _on_board(col: float, row: float, scene: Scene = SCENE) -> tuple[float, float]:
    """The image point of grid point (col, row) of the board in ``scene``."""
    x, y = cv2.perspectiveTransform(np.array([[[col, row]]], np.float64), homography(GEOMETRY, scene))[0, 0]
    return float(x), float(y)


def _quad(scene: Scene = SCENE) -> np.ndarray:
    n = GEOMETRY.grid_size
    grid = np.array([[[-2.0, -2.0], [n + 1.0, -2.0], [n + 1.0, n + 1.0], [-2.0, n + 1.0]]], np.float64)
    return cv2.perspectiveTransform(grid, homography(GEOMETRY, scene))[0]


def _photo(die_at=None, scene: Scene = SCENE, value: int = 5) -> np.ndarray:
    return table_photo(GEOMETRY, STATE, scene, None if die_at is None else (die_at, SIDE, 12.0, value))


def _inside(point, box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


# A blank spot of the print (between a yard and the track) and a second one across the board.
SPOT_A, SPOT_B = (2.6, 7.0), (7.0, 11.4)


def test_a_die_thrown_on_the_board_is_the_one_blob_and_the_view_shows_only_it():
    at = _on_board(*SPOT_A)
    landed = landed_view(_photo(at, value=2), _photo(), _quad())
    assert len(landed.blobs) == 1 and _inside(at, landed.blobs[0])
    # far from the die the view is the table's one colour: no print, no pawn is left to misread
    far = landed.view[5:40, 5:40].reshape(-1, 3)
    assert (far == far[0]).all()
    assert landed.view[int(at[1]), int(at[0])].mean() > 150  # the die's white face (a 2: no pip in the middle) is kept


def test_the_place_a_die_left_is_not_taken_for_where_it_landed():
    old, new = _on_board(*SPOT_A), _on_board(*SPOT_B)
    landed = landed_view(_photo(new), _photo(old), _quad())
    assert len(landed.blobs) == 1 and _inside(new, landed.blobs[0])


def test_the_last_die_box_rules_out_its_old_place():
    old = _on_board(*SPOT_A)
    box = (int(old[0] - SIDE / 2), int(old[1] - SIDE / 2), int(old[0] + SIDE / 2), int(old[1] + SIDE / 2))
    landed = landed_view(_photo(), _photo(old), _quad(), last_die=box)  # the die was picked up
    assert landed.view is None and landed.blobs == ()


@pytest.mark.parametrize("change", [
    {"shadow": True},
    {"gain": 0.85, "gradient": 0.2},
])
def test_a_change_of_light_alone_is_no_die(change):
    landed = landed_view(_photo(scene=replace(SCENE, **change)), _photo(), _quad())
    assert landed.view is None and landed.blobs == ()


def test_a_bumped_board_is_aligned_before_it_is_compared():
    bumped = replace(SCENE, turn=SCENE.turn + 3.0)
    at = _on_board(*SPOT_A, scene=bumped)
    frame, reference = _photo(at, scene=bumped), _photo()
    assert landed_view(frame, reference, _quad(bumped)).view is None  # unaligned: the whole print moved
    aligned = align_reference(reference, homography(GEOMETRY, SCENE), homography(GEOMETRY, bumped))
    landed = landed_view(frame, aligned, _quad(bumped))
    assert len(landed.blobs) == 1 and _inside(at, landed.blobs[0])


def test_changed_mask_needs_frames_of_one_shape():
    with pytest.raises(ValueError, match="reference frame"):
        changed_mask(np.zeros((10, 10, 3), np.uint8), np.zeros((10, 12, 3), np.uint8), 5)
