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
