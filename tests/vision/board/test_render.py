"""The board reader on renders drawn from the geometry (vision.board.render): every board, any turn,
perspective, light, shadow and a hand; plus the renderer's own truth."""

import numpy as np
import pytest

from companion.games.ludo import load_board
from vision.board import read_board
from vision.board.eval import compare, corner_error, render_label
from vision.board.render import Position, Scene, random_position, render

BOARDS = {name: (lambda name=name: load_board(name)) for name in ("ludo52", "mensch40", "dga56")}


def _position(geometry):
    """A fixed position: a pawn of each colour on the track, in the yard and at home."""
    squares, yards, homes = {}, {}, {}
    for k, colour in enumerate(("red", "green", "yellow", "blue")):
        off = geometry.colours[colour].start_offset
        squares[(off + 3) % geometry.track_length] = colour
        squares[(off + 7 + k) % geometry.track_length] = colour
        yards[colour] = 1
        homes[colour] = (k % geometry.home_length,)
    return Position(squares, yards, homes)


SCENES = {
    "straight": Scene(),
    "turned_tilted": Scene(turn=137, tilt=25, fill=0.7),
    "dim_gradient_shadow": Scene(turn=250, tilt=12, gain=0.7, gradient=0.25, shadow=True, seed=4),
    "hand": Scene(turn=60, tilt=8, hand=(11.0, 3.0), seed=2),
}


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("scene", sorted(SCENES))
def test_reads_rendered_board(board, scene):
    geometry = BOARDS[board]()
    sc = SCENES[scene]
    if scene == "hand":  # palm over a corner of the track, away from the middle
        n = geometry.grid_size
        sc = Scene(turn=sc.turn, tilt=sc.tilt, hand=(n - 2.5, 2.0), seed=sc.seed)
    rend = render(geometry, _position(geometry), sc)
    obs = read_board(rend.image, geometry)
    assert obs.found, obs.problem
    assert corner_error(obs, rend.homography, geometry.grid_size) < 0.25  # placed and turned right
    res = compare(obs, render_label(rend), geometry.track_length, rend.hidden)
    assert res["squares_right"] >= res["squares"] - 1
    assert res["pawns_read"] <= res["pawns_found"] + 1
    assert res["yards_right"] >= res["yards"] - 1


@pytest.mark.parametrize("seed", range(6))
def test_random_renders(seed):
    """Random positions and scenes: per-square accuracy of at least 0.95 on each."""
    from vision.board.eval import random_scene

    rng = np.random.default_rng(100 + seed)
    geometry = BOARDS[sorted(BOARDS)[seed % 3]]()
    rend = render(geometry, random_position(geometry, rng), random_scene(rng, (640, 480)))
    obs = read_board(rend.image, geometry)
    assert obs.found, obs.problem
    res = compare(obs, render_label(rend), geometry.track_length, rend.hidden)
    assert res["squares_right"] / res["squares"] >= 0.95


def test_printed_order_other_than_geometry():
    """A board printed red, blue, yellow, green on the green-after-red geometry: read by printed colour."""
    geometry = load_board("ludo52")
    pos = Position({2: "blue", 20: "green"}, {"red": 4, "green": 3, "yellow": 4, "blue": 3}, {})
    rend = render(geometry, pos, Scene(turn=90), clockwise=("red", "blue", "yellow", "green"))
    obs = read_board(rend.image, geometry)
    assert obs.clockwise == ("red", "blue", "yellow", "green")
    assert obs.yards == {"red": 4, "green": 3, "yellow": 4, "blue": 3}
    assert {k: v for k, v in obs.squares.items()} == {2: ("blue",), 20: ("green",)}


def test_render_truth_is_consistent():
    geometry = load_board("mensch40")
    rng = np.random.default_rng(5)
    pos = random_position(geometry, rng)
    for colour in geometry.colours:
        on_track = sum(1 for c in pos.squares.values() if c == colour)
        assert on_track + pos.yards[colour] + len(pos.homes[colour]) == 4  # ludo.md B.1
    rend = render(geometry, pos, Scene(size=(320, 240), hand=(5.0, 5.0)))
    assert rend.image.shape == (240, 320, 3) and rend.image.dtype == np.uint8
    assert rend.hidden  # the hand over the centre hides some places
    again = render(geometry, pos, Scene(size=(320, 240), hand=(5.0, 5.0)))
    assert np.array_equal(rend.image, again.image)  # deterministic for a seed


def test_calibration_reused_when_the_yards_are_covered():
    """With two yards covered the board is not found on its own; an earlier reading's homography
    (the empty or set-up board seen before) is used instead."""
    import cv2

    geometry = load_board("ludo52")
    scene = Scene(turn=20, tilt=10)
    before = read_board(render(geometry, Position({}, {c: 4 for c in geometry.colours}, {}), scene).image, geometry)
    assert before.found
    rend = render(geometry, _position(geometry), scene)
    frame = rend.image.copy()
    for corner in ((2.5, 2.5), (11.5, 2.5)):  # cover red's and green's yards (grid col, row)
        x, y = cv2.perspectiveTransform(np.array([[corner]], np.float64), rend.homography)[0, 0]
        cv2.circle(frame, (int(x), int(y)), 95, (120, 120, 120), -1)
    alone = read_board(frame, geometry)
    assert not alone.found and "yard disk" in alone.problem
    helped = read_board(frame, geometry, calibration=before)
    assert helped.found
    assert {k: v[0] for k, v in helped.squares.items()} == rend.position.squares


def test_yard_under_a_hand_is_not_counted():
    geometry = load_board("mensch40")
    pos = Position({5: "red"}, {"red": 3, "green": 4, "yellow": 4, "blue": 4}, {})
    rend = render(geometry, pos, Scene(hand=(1.0, 1.5)))  # palm over red's yard (top-left)
    assert ("yard", "red") in rend.hidden
    obs = read_board(rend.image, geometry)
    assert obs.found and obs.covered_yards == ("red",)
    assert obs.yards["green"] == 4 and obs.to_dict()["covered_yards"] == ["red"]


def test_squares_under_a_hand_are_unknown_not_empty():
    """vision.board.hand: the empty squares the hand hides are reported unknown; none without a hand."""
    geometry = load_board("ludo52")
    position = _position(geometry)
    covered = render(geometry, position, Scene(turn=30, tilt=10, fill=0.75, hand=(7.0, 9.0), seed=3))
    hidden = {h for h in covered.hidden if h[0] == "track" and h[1] not in position.squares}
    obs = read_board(covered.image, geometry)
    unknown = {u for u in obs.unknown if u[0] == "track"}
    assert len(hidden) >= 5 and len(hidden & unknown) >= 0.8 * len(hidden)
    assert not read_board(render(geometry, position, Scene(turn=30, tilt=10, fill=0.75, shadow=True, seed=3)).image,
                          geometry).unknown


def test_pawns_covering_most_of_their_print_are_read():
    """Three red pawns on mensch40's four red home squares and none in the red yard: the print's own
    saturation is measured away from the pawns (SPOT_CLEAR), so the pawns still stand out."""
    geometry = load_board("mensch40")
    position = Position({37: "red", 28: "yellow"}, {"red": 0, "yellow": 1}, {"red": (0, 1, 2), "yellow": (1, 3)})
    rend = render(geometry, position, Scene(size=(480, 360), turn=205, tilt=12, fill=0.65, seed=7))
    obs = read_board(rend.image, geometry)
    assert obs.homes["red"] == (0, 1, 2) and obs.homes["yellow"] == (1, 3)
    assert obs.squares == {37: ("red",), 28: ("yellow",)}


def test_two_colours_on_one_square_both_read():
    """A capture not yet cleared (ludo.md B.5): both pawns stand side by side on the square."""
    geometry = load_board("mensch40")
    position = Position({16: ("green", "yellow"), 23: "red"}, {"red": 3, "green": 3, "yellow": 3, "blue": 4}, {})
    obs = read_board(render(geometry, position, Scene(turn=80, tilt=10, fill=0.7, seed=1)).image, geometry)
    assert set(obs.squares[16]) == {"green", "yellow"} and obs.squares[23] == ("red",)


def test_aruco_stickers_find_the_board_when_two_yards_are_hidden():
    """vision.board.aruco: with two yard disks under cloths the markerless finder cannot place the board;
    the corner stickers can, and the pawns are read."""
    import cv2

    from vision.board import layout_for
    from vision.board.aruco import marker_sheet
    from vision.board.find import find_board

    geometry = load_board("mensch40")
    layout = layout_for(geometry)
    position = Position({3: "red", 17: "yellow", 25: "green"}, {"red": 3, "green": 3, "yellow": 3, "blue": 4}, {})
    rend = render(geometry, position, Scene(size=(640, 480), turn=35, tilt=12, fill=0.62, markers=True, seed=5))
    image = rend.image.copy()
    for colour in ("green", "blue"):  # a cloth over each of these yards
        r, c = layout.yard_centre[colour]
        x, y = cv2.perspectiveTransform(np.array([[[c, r]]], np.float64), rend.homography)[0, 0]
        cv2.circle(image, (int(x), int(y)), 45, (90, 90, 90), -1)
    assert not find_board(image, layout).found
    obs = read_board(image, geometry)
    assert obs.found and corner_error(obs, rend.homography, geometry.grid_size) < 0.2
    assert obs.squares == {3: ("red",), 17: ("yellow",), 25: ("green",)}
    assert marker_sheet(60).shape == (60, 240)
