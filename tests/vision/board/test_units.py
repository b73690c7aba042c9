"""Parts of the board reader: bad frames, the dga56 layout, colour classes, the camera, the command line."""

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.cli.board import parse_variant
from companion.errors import FrameError, UserError
from companion.games.ludo import load_board, load_boards
from vision.board import layout_for, read_board
from vision.board.colour import BLUE, DARK, GREEN, LIGHT, RED, YELLOW, classify
from vision.board.pinhole import camera_matrix, focal_from_homography, project
from vision.board.render import Position, Scene, camera, render

# --- bad frames: a clear result or a clear error, never a crash --------------------------------------

@pytest.mark.parametrize("frame, why", [
    (np.zeros((480, 640, 3), np.uint8), "black"),
    (np.full((480, 640, 3), 128, np.uint8), "contrast"),
    (np.zeros((20, 30, 3), np.uint8), "too small"),
])
def test_unusable_frames_give_a_problem(frame, why):
    obs = read_board(frame, load_board("ludo52"))
    assert not obs.found and why in obs.problem
    assert obs.squares == {} and obs.to_dict()["problem"] == obs.problem


def test_frame_without_a_board():
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 255, (240, 320, 3), dtype=np.uint8)
    obs = read_board(noise, load_board("mensch40"))
    assert not obs.found and obs.problem


@pytest.mark.parametrize("frame", [
    np.zeros((100, 100), np.uint8),                # single channel
    np.zeros((100, 100, 3), np.float32),           # float
    np.zeros((0, 0, 3), np.uint8),                 # empty
    np.zeros((100, 100, 4), np.uint8),             # four channels
    None,
    [[1, 2, 3]],
])
def test_non_images_raise_a_clear_error(frame):
    with pytest.raises(FrameError):
        read_board(frame, load_board("ludo52"))


# --- dga56, the board of the real photos ---------------------------------------------------------

def test_dga56_track_is_a_closed_clockwise_loop_of_56():
    geo = load_board("dga56")
    assert geo.track_length == 56 and len(set(geo.track)) == 56 and geo.grid_size == 15
    for a, b in zip(geo.track, geo.track[1:] + geo.track[:1], strict=True):
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1  # edge neighbours all the way round
    assert geo.track[0] == (6, 0)
    # as printed: red, blue, yellow, green clockwise, 14 squares apart (ludo.md B.2 offsets, this board)
    assert [geo.colours[c].start_offset for c in ("red", "blue", "yellow", "green")] == [0, 14, 28, 42]
    for colour in geo.colours:
        start = geo.track[geo.colours[colour].start_offset]
        home = geo.colours[colour].home_column
        last = geo.track[(geo.colours[colour].start_offset - 1) % 56]
        assert abs(last[0] - home[0][0]) + abs(last[1] - home[0][1]) == 1  # home column follows the track
        assert start != last and len(home) == 5
    assert not set(geo.track) & {cell for c in geo.colours.values() for cell in c.home_column}


def test_the_boards_are_handed_in_by_name():
    boards = load_boards()
    assert sorted(boards) == ["dga56", "ludo52", "mensch40"]
    assert boards["dga56"].name == "dga56" and boards["mensch40"].track_length == 40
    with pytest.raises(ValueError):
        load_board("ludo99")


def test_layouts_keep_yards_off_the_track():
    for name in ("ludo52", "mensch40", "dga56"):
        layout = layout_for(load_board(name))
        for (yr, yc) in layout.yard_centre.values():
            for r, c in layout.geometry.track:
                assert np.hypot(r - yr, c - yc) > layout.yard_radius, (name, r, c)


# --- colour classes -------------------------------------------------------------------------------

def test_classify_real_board_colours():
    # BGR samples measured on the real photos: pawns, print, board, dark print, bluish shadow on the board
    px = np.array([[[41, 23, 178], [108, 148, 23], [239, 187, 10], [24, 108, 156], [172, 184, 162],
                    [100, 86, 68], [225, 238, 236], [168, 165, 120]]], np.uint8)
    frame = np.concatenate([px, np.full((1, 8, 3), 240, np.uint8)])
    got = classify(frame)[0].tolist()
    assert got[:4] == [RED, GREEN, BLUE, YELLOW]
    assert got[4] == LIGHT and got[5] == DARK and got[6] == LIGHT
    assert got[7] not in (BLUE, GREEN)  # a shadow on the board is not a blue pawn


# --- camera from the homography -------------------------------------------------------------------

def test_camera_recovers_focal_and_pawn_lean():
    geo = load_board("ludo52")
    scene = Scene(size=(800, 600), turn=30, tilt=30, focal=1.2)
    cam = camera(geo, scene)
    hom = cam[:, [0, 1, 3]] / cam[2, 3]
    f = focal_from_homography(hom, (600, 800))
    assert f == pytest.approx(1.2 * 800, rel=0.02)
    got = camera_matrix(hom, (600, 800, 3))
    top = np.array([[3.0, 4.0, 1.5], [10.0, 12.0, 1.0]])
    want = project(cam, top)
    assert np.allclose(project(got, top), want, atol=1.0)  # heights project where the true camera puts them


# --- command line ---------------------------------------------------------------------------------

def test_parse_variant():
    assert parse_variant(["board=mensch40", "entry_rolls=6,overshoot=bounce"]) == {
        "board": "mensch40", "entry_rolls": "6", "overshoot": "bounce"}
    with pytest.raises(UserError, match="unknown board 'nine'"):
        parse_variant(["board=nine"])
    with pytest.raises(UserError, match="not KEY=VALUE"):
        parse_variant(["nonsense"])


@pytest.fixture
def rendered_file(tmp_path):
    geo = load_board("mensch40")
    pos = Position({3: "red", 15: "blue"}, {"red": 3, "green": 4, "yellow": 2, "blue": 3}, {"yellow": (0, 3)})
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), render(geo, pos, Scene(turn=200, tilt=10)).image)
    return path


def test_board_read_json(rendered_file, tmp_path, capsys):
    code = main(["board", "read", str(rendered_file), "--game", "ludo", "--variant", "board=mensch40", "--json",
                 "--debug-out", str(tmp_path / "dbg")])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["squares"] == {"3": "red", "15": "blue"}
    assert out["yards"] == {"red": 3, "green": 4, "yellow": 2, "blue": 3}
    assert out["homes"]["yellow"] == [0, 3] and out["found"] is True
    assert isinstance(out["ms"], float) and len(out["homography"]) == 3
    overlay = cv2.imread(str(tmp_path / "dbg" / "board.png"))
    assert overlay is not None and overlay.shape == cv2.imread(str(rendered_file)).shape


def test_board_read_missing_file_and_bad_board(rendered_file, capsys):
    assert main(["board", "read", "no/such.png", str(rendered_file), "--variant", "board=mensch40"]) == 1
    captured = capsys.readouterr()
    assert "no such file" in captured.err and "squares 3:red 15:blue" in captured.out
    assert main(["board", "read", str(rendered_file), "--variant", "board=chess"]) == 2
    assert "unknown board" in capsys.readouterr().err


def test_board_eval_command(capsys):
    assert main(["board", "eval", "--renders", "1", "--board", "mensch40", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    res = out["renders_mensch40"]
    assert res["frames"] == 1 and 0.0 <= res["square_accuracy"] <= 1.0 and res["median_ms"] > 0


def test_board_eval_games_reads_generated_game_frames(capsys):
    """``--games``: the true-board frames of a generated game, read exactly as the session needs them."""
    assert main(["board", "eval", "--renders", "0", "--games", "1", "--moves", "1", "--seed", "2", "--board",
                 "mensch40", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)["games_mensch40"]
    assert res["games"] == 1 and res["photos"] >= 2 and res["exact"] == res["photos"] and res["exact_rate"] == 1.0
    assert res["first_wrong"] == []


def test_board_eval_die_on_board_counts_the_session_die_readings(capsys):
    """``--die-on-board``: the board read past a die lying on it, and the session's die readings counted
    per place (each roll read, asked for, or a false accept)."""
    assert main(["board", "eval", "--renders", "0", "--games", "1", "--moves", "2", "--seed", "2", "--board",
                 "dga56", "--die-on-board", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games_dga56"]["exact_rate"] == 1.0
    dice = out["dice_dga56"]
    assert dice["games"] == 1 and dice["on_board"]["rolls"] >= 1 and dice["beside"]["rolls"] >= 1
    for part in (dice["on_board"], dice["beside"]):
        assert part["read"] + part["asked"] + part["false_accepts"] == part["rolls"]
        assert part["false_accepts"] == 0
    assert main(["board", "eval", "--renders", "0", "--games", "1", "--die-on-board", "2"]) == 2
    assert "--die-on-board is a share of the rolls" in capsys.readouterr().err
