"""The Can't Stop board reader on rendered boards: layouts, the print, reading, refusing."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.cli import main
from vision.board.cant_stop import LAYOUTS, layout_named, read_cant_stop_board
from vision.board.cant_stop.render import Position, Scene, render
from vision.board.cant_stop.printed import paper_image, write_print

COLOURS = ("red", "blue", "green", "yellow")
POSITION = Position(markers={"red": {3: 1, 7: 6, 12: 3}, "blue": {6: 2, 7: 6}, "green": {5: 4}, "yellow": {}},
                    runners={8: 4, 11: 1})


def test_every_layout_has_the_columns_of_the_rules():
    # cant-stop.md A.2: columns 2-12 of 3, 5, ..., 13, ..., 3 spaces, one pitch apart
    for layout in LAYOUTS.values():
        assert [layout.height(c) for c in range(2, 13)] == [3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3]
        assert len(layout.spaces()) == 83
        x, y = layout.space(7, 5)
        assert layout.space(7, 6) == (x, y - 1.0) and layout.space(8, 5)[0] == x + 1.0
        with pytest.raises(ValueError):
            layout.space(2, 4)
    with pytest.raises(ValueError, match="companion, mountain, diamond"):
        layout_named("square")


def test_the_printed_board_fits_its_paper(tmp_path):
    page, pitch = paper_image(layout_named("companion"), "a4")
    assert page.shape[:2] == (3508, 2480) and 14 < pitch < 17  # A4 at 300 dpi, portrait
    assert write_print(tmp_path / "board.pdf", layout_named("companion"), "a4") == pytest.approx(pitch)
    data = (tmp_path / "board.pdf").read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF") and b"/MediaBox [0 0 595.28 841.89]" in data
    with pytest.raises(ValueError, match=".png or .pdf"):
        write_print(tmp_path / "board.txt", layout_named("companion"))


@pytest.mark.parametrize("name, scene", [
    ("companion", Scene(tilt=15, turn=30, fill=0.7, seed=3)),
    ("companion", Scene(tilt=5, turn=-100, fill=0.65, kind="disc", runner_kind="pawn", seed=4)),
    ("diamond", Scene(tilt=12, turn=170, fill=0.65, kind="cone", stickers=True, seed=5)),
])
def test_a_clear_board_is_read_exactly(name, scene):
    reading = read_cant_stop_board(render(LAYOUTS[name], POSITION, scene).image, LAYOUTS[name], COLOURS)
    assert reading.ok, reading.problem
    assert {c: m for c, m in reading.markers.items() if m} == {c: m for c, m in POSITION.markers.items() if m}
    assert reading.runners == POSITION.runners


def test_a_hand_over_the_board_is_no_reading():
    layout = LAYOUTS["companion"]
    for seed in range(40):  # the first scene whose hand covers a space
        shot = render(layout, POSITION, Scene(tilt=10, turn=20, fill=0.65, clutter="hand", seed=seed))
        if shot.refuse:
            break
    reading = read_cant_stop_board(shot.image, layout, COLOURS)
    assert reading.found and not reading.ok and reading.problem  # a darker hand may read as "something red"


def test_a_piece_between_two_spaces_is_no_reading():
    layout = LAYOUTS["companion"]
    shot = render(layout, Position({"red": {7: 3}}, {}), Scene(tilt=0, fill=0.65, seed=1))
    between = render(layout, Position({}, {}), Scene(tilt=0, fill=0.65, seed=1))
    assert read_cant_stop_board(shot.image, layout, COLOURS).markers == {"red": {7: 3}}
    # the same marker half a pitch up: drawn by hand where no space is
    from vision.board.cant_stop.render import camera, draw_piece, PIECE_BGR
    image = between.image.copy()
    x, y = layout.space(7, 3)
    draw_piece(image, camera(layout, Scene(tilt=0, fill=0.65, seed=1)), x, y - 0.5, "cube", 0.55, PIECE_BGR["red"])
    reading = read_cant_stop_board(image, layout, COLOURS)
    assert not reading.ok and "between spaces" in reading.problem


def test_no_board_in_view_says_so():
    frame = np.random.default_rng(0).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    reading = read_cant_stop_board(frame, LAYOUTS["companion"], COLOURS)
    assert not reading.found and reading.problem == "the board is not in view"
    with pytest.raises(ValueError, match="two players have one marker colour"):
        read_cant_stop_board(frame, LAYOUTS["companion"], ("red", "red"))


def test_board_eval_prints_the_counts_over_every_layout(capsys):
    assert main(["board", "eval", "--game", "cant-stop", "--renders", "3", "--seed", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["positions"] == 3 == result["exact"] + result["refused"] + result["false_accepts"]
    assert set(result["layouts"]) == {"companion", "mountain", "diamond"}


def test_board_read_and_print_name_a_bad_setting(tmp_path, capsys):
    assert main(["board", "print", str(tmp_path / "b.txt")]) == 2
    assert ".png or .pdf" in capsys.readouterr().err
    image = tmp_path / "board.png"
    import cv2
    cv2.imwrite(str(image), render(LAYOUTS["companion"], POSITION, Scene(tilt=10, fill=0.65, seed=2)).image)
    assert main(["board", "read", "--game", "cant-stop", str(image), "--variant", "marker_colours=red+pink"]) == 2
    assert "--variant marker_colours" in capsys.readouterr().err
    assert main(["board", "read", "--game", "cant-stop", str(image), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["found"] and out["problem"] is None and out["runners"] == {"8": 4, "11": 1}


def _space_error(layout, found, truth) -> float:
    """The largest distance, in pitches, between where ``found`` and ``truth`` put a space's centre."""
    pts = np.array([[x, y, 1.0] for _, _, (x, y) in layout.spaces()]).T
    a, b = truth @ pts, found @ pts
    a, b = a[:2] / a[2], b[:2] / b[2]
    pitch = float(np.hypot(*(a[:, 1] - a[:, 0])))
    return float(np.abs(a - b).max()) / pitch


def test_a_white_runner_under_a_tinted_lamp_is_white():
    # a warm lamp clips a white runner's blue and green: divided by the lamp's colour it would read warm
    # (skin), unless a clipped channel counts as at least as bright as the others
    layout = LAYOUTS["companion"]
    position = Position(markers={"red": {2: 3, 6: 4}, "blue": {5: 8, 10: 4}, "green": {8: 9}, "yellow": {9: 2}},
                        runners={3: 5, 4: 5})
    scene = Scene(tilt=6, turn=56, fill=0.64, focal=1.38, light=(1.34, 1.17, 0.86), gradient=0.1, seed=7)
    reading = read_cant_stop_board(render(layout, position, scene).image, layout, COLOURS)
    assert reading.ok, reading.problem
    assert reading.runners == position.runners


def _found(layout, position, scene) -> tuple[str, bool]:
    """How the board of ``position`` rendered in ``scene`` was found, and whether every space lies within
    0.1 pitch of the truth."""
    shot = render(layout, position, scene)
    reading = read_cant_stop_board(shot.image, layout, COLOURS)
    return reading.how, _space_error(layout, np.array(reading.homography), shot.homography) < 0.1


def test_the_stickers_fit_is_not_slid_a_pitch_by_the_refinement():
    # the spaces repeat every pitch: ECC started from the stickers' fit must not slide it away
    layout = LAYOUTS["diamond"]
    position = Position(markers={"red": {3: 2, 6: 3, 9: 1}, "blue": {2: 2, 10: 3}, "green": {4: 2, 6: 8, 11: 3},
                                 "yellow": {4: 4, 7: 10}}, runners={9: 9, 8: 8})
    scene = Scene(size=(1024, 768), turn=153, tilt=5, fill=0.61, focal=1.38, light=(0.79, 1.06, 0.99),
                  gradient=0.28, kind="disc", runner_kind="disc", piece_size=0.49, stickers=True, table=5, face=1,
                  seed=466735422)
    assert _found(layout, position, scene) == ("stickers", True)


def test_a_board_faint_against_the_table_is_found_by_its_outline():
    # a face and a table of one brightness: the outline is in the colour's edges, in dashes
    layout = LAYOUTS["mountain"]
    scene = Scene(size=(1024, 768), turn=-136, tilt=11, fill=0.62, focal=1.05, light=(1.13, 0.82, 0.82),
                  kind="pawn", table=5, face=1, seed=991300876)
    assert _found(layout, POSITION, scene) == ("outline", True)


def test_a_runner_sharing_a_space_is_read_or_the_reading_refused():
    # cant-stop.md A.6: a runner may share a marker's space; from 30 degrees the near piece often hides
    # the far one, and a reading without it must not be offered
    layout = LAYOUTS["companion"]
    position = Position(markers={"red": {7: 5, 3: 1}, "blue": {9: 3}, "green": {5: 4}, "yellow": {10: 2}},
                        runners={7: 5})
    exact = 0
    for seed in range(3):
        for turn in (0, 90, 180, -90):
            scene = Scene(tilt=30, turn=turn, fill=0.65, kind="cube", runner_kind="pawn", seed=seed)
            reading = read_cant_stop_board(render(layout, position, scene).image, layout, COLOURS)
            if reading.ok:
                assert reading.runners == position.runners and reading.markers == position.markers, (seed, turn)
                exact += 1
    assert exact >= 2  # and it is not refused every time


def test_a_piece_alone_and_smaller_than_its_fellows_may_hide_another():
    from vision.board.cant_stop.reader import Piece, hidden_or_touching
    layout = LAYOUTS["companion"]
    placed = [(Piece("red", layout.space(c, 2), 0.4), c, 2) for c in (3, 4, 5, 6)]
    assert hidden_or_touching(placed, layout, "white") == []
    small = (Piece("blue", layout.space(9, 2), 0.2), 9, 2)
    assert hidden_or_touching(placed + [small], layout, "white") == [
        "a piece may be hidden behind the blue one on column 9, space 2"]
    x, y = layout.space(10, 1)  # a runner's foot well off its space's centre: another stands there
    assert hidden_or_touching(placed + [(Piece("white", (x + 0.2, y), 0.3), 10, 1)], layout, "white") == [
        "a piece may be hidden behind the white one on column 10, space 1"]
    big = (Piece("green", layout.space(8, 3), 0.9), 8, 3)
    assert hidden_or_touching(placed + [big], layout, "white") == ["pieces touching at column 8, space 3"]
