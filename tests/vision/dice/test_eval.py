"""Figures of `vision.dice.eval` (exact arithmetic with a stand-in reader) and `dice eval` on the bundled set."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.dice.eval as dice_eval
from companion.cli import dice as cli_dice
from companion.cli import main
from tests.paths import REPO, SHARED_DATA
from vision.camera import bundled_photos_dir
from vision.observation import DiceObservation, DieReading

SHARED_DICE = SHARED_DATA / "dice"
ERRATA = REPO / "assets" / "dice_model" / "byler_d6_label_errata.csv"


def write_set(folder: Path, labels: list[tuple[str, str]], boxes: list[str] | None, box_file="boxes.csv"):
    """A labelled set of plain 64x64 images: labels are (file, dice_values); boxes are CSV rows."""
    (folder / "images").mkdir(parents=True)
    with open(folder / "labels.csv", "w") as f:
        f.write("file,dice_values,n_dice,sum\n")
        for name, values in labels:
            vals = [int(v) for v in values.split()]
            f.write(f"{name},{values},{len(vals)},{sum(vals)}\n")
            cv2.imwrite(str(folder / name), np.full((64, 64, 3), 100, np.uint8))
    if boxes is not None:
        with open(folder / box_file, "w") as f:
            f.write("file,value,x_min,y_min,x_max,y_max\n" + "".join(row + "\n" for row in boxes))


def die(value, box, conf=0.9, flagged=False):
    return DieReading(value, box, conf, flagged)


@pytest.fixture
def fake_reader(monkeypatch):
    """Replace the reader: each image (by its mean level, unique per file here) maps to an observation."""
    answers: dict[str, DiceObservation] = {}
    calls = []

    def fake_read(frame, calibration=None, method="learned"):
        key = calls.pop(0)
        return answers[key]

    real_imread = cv2.imread

    def fake_imread(path, *args):
        frame = real_imread(path, *args)
        if frame is not None:
            calls.append(Path(path).name)
        return frame

    monkeypatch.setattr(dice_eval, "read_dice", fake_read)
    monkeypatch.setattr(dice_eval.cv2, "imread", fake_imread)
    return answers


def test_figures_are_exact(tmp_path, fake_reader):
    write_set(tmp_path, [("images/a.jpg", "2 5"), ("images/b.jpg", "1 1 6"), ("images/c.jpg", "3")], [
        "images/a.jpg,2,0,0,20,20", "images/a.jpg,5,30,0,50,20",
        "images/b.jpg,1,0,0,20,20", "images/b.jpg,1,30,0,50,20", "images/b.jpg,6,0,30,20,50",
        "images/c.jpg,3,0,0,20,20",
    ])
    fake_reader["a.jpg"] = DiceObservation((die(5, (32, 2, 48, 18)), die(2, (2, 2, 18, 18))), (64, 64), ms=10.0)
    # b: one 1 right, one 1 read as 4 (flagged), the 6 missed, and a die on nothing (unflagged).
    fake_reader["b.jpg"] = DiceObservation((die(1, (2, 2, 18, 18)), die(4, (32, 2, 48, 18), 0.3, True),
                                            die(2, (55, 55, 63, 63))), (64, 64), ms=20.0)
    # c: right value but flagged.
    fake_reader["c.jpg"] = DiceObservation((die(3, (1, 1, 19, 19), 0.4, True),), (64, 64), ms=30.0)
    r = dice_eval.evaluate(tmp_path)
    assert r["images"] == 3 and r["dice"] == 6
    assert r["image_accuracy"] == round(2 / 3, 4)  # a and c exact
    assert r["image_accuracy_1_6"] == round(2 / 3, 4)
    assert r["die_precision"] == round(4 / 6, 4)  # read 6, common 2 + 1 + 1
    assert r["die_recall"] == round(4 / 6, 4)
    assert r["median_ms"] == 20.0 and r["p95_ms"] == 29.0
    assert r["found"] == round(5 / 6, 4)  # everything but b's 6
    # Right dice: a's two, b's first 1, c's 3 (4). Wrong: b's 4 and b's unmatched 2 (2).
    assert r["unflagged_precision"] == round(3 / 4, 4)  # unflagged: a 5, a 2, b 1, b's stray 2
    assert r["flag_rate"] == round(2 / 6, 4)
    assert r["flagged_errors"] == 0.5  # b's 4 flagged, the stray 2 not
    assert r["flagged_correct"] == 0.25  # c's 3
    assert r["unreadable"] == 0
    assert r["false_accepts"] == 1  # b's stray 2: offered, and no die is there
    assert r["refused"] == 0 and r["cocked_marks"] == 0
    assert "cocked_dice" not in r  # the set has no cocked column


def test_a_die_offered_on_a_table_with_no_dice_is_a_false_accept(tmp_path, fake_reader):
    # a: a table labelled with no dice, a die offered and one asked about; b: values without boxes (no
    # positions to match: left out of the box figures)
    write_set(tmp_path, [("images/a.jpg", ""), ("images/b.jpg", "4")], [])
    fake_reader["a.jpg"] = DiceObservation((die(1, (2, 2, 18, 18)), die(2, (30, 2, 46, 18), 0.3, True)), (64, 64))
    fake_reader["b.jpg"] = DiceObservation((die(3, (2, 2, 18, 18)),), (64, 64))
    r = dice_eval.evaluate(tmp_path)
    assert r["false_accepts"] == 1 and r["unflagged_precision"] == 0.0
    assert r["flag_rate"] == 0.5 and r["flagged_errors"] == 0.5
    assert r["found"] is None  # no labelled box


def test_cocked_figures_and_refused_photos(tmp_path, fake_reader):
    """A box file with a ``cocked`` column: each labelled cocked die counts as kept from the players when
    no unflagged reading matches it, as marked when its reading says ``cocked``; flat dice marked cocked
    are counted apart. A photo-level problem refuses the whole image."""
    write_set(tmp_path, [("images/a.jpg", "2 5"), ("images/b.jpg", "1 6"), ("images/c.jpg", "3")], None)
    with open(tmp_path / "boxes.csv", "w") as f:
        f.write("file,value,x_min,y_min,x_max,y_max,cocked\n"
                "images/a.jpg,2,0,0,20,20,1\nimages/a.jpg,5,30,0,50,20,0\n"
                "images/b.jpg,1,0,0,20,20,1\nimages/b.jpg,6,30,0,50,20,0\n"
                "images/c.jpg,3,0,0,20,20,1\n")
    cocked = DieReading(2, (2, 2, 18, 18), 0.3, True, True)
    fake_reader["a.jpg"] = DiceObservation((cocked, DieReading(5, (32, 2, 48, 18), 0.9, True, True)), (64, 64))
    # b: the cocked 1 read unflagged (a false accept the players would feel), the flat 6 right
    fake_reader["b.jpg"] = DiceObservation((die(1, (2, 2, 18, 18)), die(6, (32, 2, 48, 18))), (64, 64))
    fake_reader["c.jpg"] = DiceObservation((), (64, 64), problem="frame is black")  # refused: not offered
    r = dice_eval.evaluate(tmp_path)
    assert r["cocked_dice"] == 3
    assert r["cocked_flagged"] == round(2 / 3, 4)  # a's (flagged) and c's (not offered), not b's
    assert r["cocked_marked"] == round(1 / 3, 4)
    assert r["flat_marked_cocked"] == 0.5  # a's flat 5 marked, b's 6 not
    assert r["cocked_marks"] == 2 and r["refused"] == 1


def test_empty_denominators_are_null(tmp_path, fake_reader):
    write_set(tmp_path, [("images/a.jpg", "4")], ["images/a.jpg,4,0,0,20,20"])
    fake_reader["a.jpg"] = DiceObservation((), (64, 64), ms=5.0)
    r = dice_eval.evaluate(tmp_path)
    assert r["die_precision"] is None  # nothing read
    assert r["die_recall"] == 0.0
    assert r["unflagged_precision"] is None and r["flag_rate"] is None
    assert r["flagged_errors"] is None and r["flagged_correct"] is None
    assert r["found"] == 0.0


def test_nearest_box_wins_and_boxes_are_used_once():
    boxes = [(1, (0, 0, 40, 40)), (2, (10, 10, 50, 50))]
    obs = DiceObservation((die(2, (25, 25, 35, 35)), die(1, (15, 15, 25, 25))), (64, 64))
    # Die 0's centre (30, 30) is nearest box 1's centre; die 1's centre (20, 20) is in both boxes, gets box 0.
    assert dice_eval.match_to_boxes(obs, boxes) == [1, 0]
    obs2 = DiceObservation((die(2, (25, 25, 35, 35)), die(2, (26, 26, 36, 36)), die(2, (27, 27, 37, 37))), (64, 64))
    assert dice_eval.match_to_boxes(obs2, boxes).count(None) == 1


def test_cells_file_and_no_box_figures_without_boxes(tmp_path, fake_reader):
    with_cells = tmp_path / "cells"
    write_set(with_cells, [("images/a.jpg", "6")], ["images/a.jpg,6,0,0,64,64"], box_file="cells.csv")
    fake_reader["a.jpg"] = DiceObservation((die(6, (20, 20, 40, 40)),), (64, 64), ms=1.0)
    r = dice_eval.evaluate(with_cells)
    assert r["found"] == 1.0 and r["unflagged_precision"] == 1.0
    plain = tmp_path / "plain"
    write_set(plain, [("images/a.jpg", "6")], None)
    r = dice_eval.evaluate(plain)
    assert "found" not in r and r["image_accuracy"] == 1.0


def test_unreadable_image_counts_as_no_dice(tmp_path):
    write_set(tmp_path, [("images/a.jpg", "3")], None)
    (tmp_path / "images" / "a.jpg").write_text("broken")
    r = dice_eval.evaluate(tmp_path)
    assert r["unreadable"] == 1 and r["image_accuracy"] == 0.0 and r["median_ms"] is None


def test_a_listed_image_that_is_missing_counts_as_unreadable(tmp_path, capfd):
    write_set(tmp_path, [("images/gone.jpg", "3")], None)
    (tmp_path / "images" / "gone.jpg").unlink()
    r = dice_eval.evaluate(tmp_path)
    assert r["unreadable"] == 1 and r["image_accuracy"] == 0.0
    assert "findDecoder" not in capfd.readouterr().err  # no OpenCV warning on the console


def test_a_set_without_images_says_so(tmp_path, caplog):
    write_set(tmp_path, [], None)
    with caplog.at_level("WARNING", logger="vision.dice.eval"):
        r = dice_eval.evaluate(tmp_path)
    assert r["images"] == 0 and r["image_accuracy"] is None and r["median_ms"] is None
    assert "lists no images" in caplog.text


def test_missing_labels(tmp_path):
    with pytest.raises(FileNotFoundError, match="labels.csv"):
        dice_eval.evaluate(tmp_path)
    assert main(["dice", "eval", str(tmp_path), "--json"]) == 2


def test_missing_folder_is_named_as_such(tmp_path, capsys):
    gone = tmp_path / "nowhere"
    with pytest.raises(FileNotFoundError, match="no such folder"):
        dice_eval.evaluate(gone)
    assert main(["dice", "eval", str(gone), "--json"]) == 2
    assert f"no such folder: {gone}" in capsys.readouterr().err
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"not a folder")
    assert main(["dice", "eval", str(photo), "--json"]) == 2
    assert f"a file, not a set's folder: {photo}" in capsys.readouterr().err


def test_errata_add_a_missing_die_and_fix_a_wrong_value():
    item = dice_eval.LabelledImage("images/a.jpg", (2, 5), ((2, (10.0, 10.0, 40.0, 40.0)), (5, (60.0, 10.0, 90.0, 40.0))))
    rows = [{"file": "images/a.jpg", "x_min": "12", "y_min": "12", "x_max": "38", "y_max": "38", "label": "2",
             "shows": "3"},
            {"file": "a.jpg", "x_min": "100", "y_min": "100", "x_max": "130", "y_max": "130", "label": "",
             "shows": "6"},
            {"file": "images/b.jpg", "x_min": "0", "y_min": "0", "x_max": "9", "y_max": "9", "label": "", "shows": "1"}]
    fixed = dice_eval.apply_errata(item, rows)
    assert fixed.values == (3, 5, 6)
    assert fixed.boxes == ((3, (10.0, 10.0, 40.0, 40.0)), (5, (60.0, 10.0, 90.0, 40.0)),
                           (6, (100.0, 100.0, 130.0, 130.0)))
    assert dice_eval.apply_errata(dice_eval.LabelledImage("images/c.jpg", (1,), ((1, (0.0, 0.0, 9.0, 9.0)),)), rows).values == (1,)
    with pytest.raises(ValueError, match="no die labelled 4"):
        dice_eval.apply_errata(item, [dict(rows[0], label="4")])


def test_shipped_errata_file_is_well_formed():
    rows = dice_eval.load_errata(ERRATA)
    assert len(rows) == 9
    for r in rows:
        assert r["file"].startswith("images/IMG_2019") and r["shows"] in "123456"
        assert r["label"] == "" or (r["label"] in "123456" and r["label"] != r["shows"])
        x0, y0, x1, y1 = (float(r[k]) for k in ("x_min", "y_min", "x_max", "y_max"))
        assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 640


def test_errata_files_with_bad_rows_are_refused(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such errata file"):
        dice_eval.load_errata(tmp_path / "gone.csv")
    bad = tmp_path / "errata.csv"
    bad.write_text("file,label,shows\nimages/a.jpg,2,3\n")
    with pytest.raises(ValueError, match="missing column.*x_min"):
        dice_eval.load_errata(bad)
    bad.write_text("file,x_min,y_min,x_max,y_max,label,shows\nimages/a.jpg,1,2,3,4,2,7\n")
    with pytest.raises(ValueError, match="line 2"):
        dice_eval.load_errata(bad)
    bad.write_text("file,x_min,y_min,x_max,y_max,label,shows\nimages/a.jpg,1,2,x,4,2,3\n")
    with pytest.raises(ValueError, match="line 2"):
        dice_eval.load_errata(bad)
    with pytest.raises(ValueError, match="is a folder"):
        dice_eval.load_errata(tmp_path)
    # a spreadsheet's "CSV UTF-8" starts with a byte-order mark
    bad.write_bytes("\ufefffile,x_min,y_min,x_max,y_max,label,shows\nimages/a.jpg,1,2,3,4,,3\n".encode("utf-8"))
    assert dice_eval.load_errata(bad)[0]["file"] == "images/a.jpg"


def test_figures_against_corrected_labels(tmp_path, fake_reader, caplog):
    # a.jpg: the reader reads a 3 and a 5 rightly, but the labels say 2 and leave out a 6 it also reads.
    write_set(tmp_path, [("images/a.jpg", "2 5")], ["images/a.jpg,2,0,0,20,20", "images/a.jpg,5,30,0,50,20"])
    reading = DiceObservation((die(3, (2, 2, 18, 18)), die(5, (32, 2, 48, 18)), die(6, (2, 32, 18, 48))), (64, 64),
                              ms=10.0)
    fake_reader["a.jpg"] = reading
    r = dice_eval.evaluate(tmp_path)
    assert r["image_accuracy"] == 0.0 and r["unflagged_precision"] == round(1 / 3, 4) and "errata" not in r
    errata = tmp_path / "errata.csv"
    errata.write_text("file,x_min,y_min,x_max,y_max,label,shows\n"
                      "images/a.jpg,1,1,19,19,2,3\nimages/a.jpg,0,30,20,50,,6\nimages/other.jpg,0,0,9,9,,1\n")
    fake_reader["a.jpg"] = reading
    with caplog.at_level("WARNING", logger="vision.dice.eval"):
        r = dice_eval.evaluate(tmp_path, dice_eval.load_errata(errata))
    assert r["dice"] == 3 and r["image_accuracy"] == 1.0 and r["unflagged_precision"] == 1.0 and r["found"] == 1.0
    assert r["errata"] == 2  # the row of another set's image is not applied, and that is said
    assert "1 of 3 errata rows name no image" in caplog.text
    assert main(["dice", "eval", str(tmp_path), "--errata", str(tmp_path / "gone.csv")]) == 2


@pytest.mark.skipif(not SHARED_DICE.is_dir(),
                    reason="../shared/data is absent (it exists on development and CI machines only)")
def test_byler_set_against_its_label_errata():
    """byler_d6 (149 of its 200 photos trained on) against the labels with the shipped errata (each row
    checked by eye). Measured (twelfth round): image accuracy 0.9573 over its 117 photos of 1-6 dice
    (0.9402 against the labels as published), found 0.9993, unflagged precision 0.9993 (0.9931), flag rate
    0.0282; thirteenth round 0.0382 (7 flat dice marked cocked, and 1s whose centre spot is hollow or
    ragged flagged: 9 right ones here), the rest the same. Against the published labels a reader that read every die right would score at most 0.994
    unflagged precision: 9 labels are wrong."""
    r = dice_eval.evaluate(SHARED_DICE / "byler_d6", dice_eval.load_errata(ERRATA))
    assert r["images"] == 200 and r["dice"] == 1491 and r["errata"] == 9
    assert r["image_accuracy_1_6"] >= 0.95
    assert r["found"] >= 0.999 and r["unflagged_precision"] >= 0.995
    assert r["flag_rate"] <= 0.05
    assert r["cocked_marks"] <= 15  # flat dice all: a mark is a false one (measured 7 of 1491)


@pytest.fixture(scope="module")
def bundled_result():
    return dice_eval.evaluate(bundled_photos_dir())


def test_bundled_set_figures(bundled_result):
    """Measured with reader v3 (seventh round; no model saw these photos): 12/14 exact, precision and
    recall 0.964, found 1.0, unflagged 1.0, flag rate 0.125 (reader v2: 6/14, 0.85, 0.73, 0.86, 0.97, 0.23)."""
    r = bundled_result
    assert r["images"] == 14 and r["dice"] == 56
    assert r["image_accuracy"] >= 0.75
    assert r["die_precision"] >= 0.9 and r["die_recall"] >= 0.9
    assert r["found"] >= 0.98
    assert r["unflagged_precision"] >= 0.99
    assert r["flag_rate"] <= 0.2
    assert r["cocked_marks"] == 0 and r["false_accepts"] == 0 and r["refused"] == 0
    for key, value in r.items():
        if isinstance(value, float):
            assert value == round(value, 4), key


def test_cli_eval_json_and_table(capsys, bundled_result, monkeypatch):
    monkeypatch.setattr(cli_dice, "evaluate", lambda d, errata=None, reader=None: bundled_result)
    assert main(["dice", "eval", str(bundled_photos_dir()), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == bundled_result
    assert main(["dice", "eval", str(bundled_photos_dir())]) == 0
    out = capsys.readouterr().out
    assert "image_accuracy" in out and "found" in out and "median_ms" in out


@pytest.mark.skipif(not SHARED_DICE.is_dir(),
                    reason="../shared/data is absent (it exists on development and CI machines only)")
def test_ivory_grid_set():
    """Ivory dice on paper (3 grid photos, 18 close-ups; never trained on). Measured with reader v3
    (seventh round): 17 of 18 close-ups exact, precision 0.986, found 1.0, no unflagged error, flag rate
    0.097 (reader v2: 14 of 18, 0.78, 0.97, none, 0.47)."""
    r = dice_eval.evaluate(SHARED_DICE / "ivory_grid")
    assert r["images"] == 21 and r["dice"] == 72
    assert r["image_accuracy_1_6"] >= 0.85
    assert r["die_precision"] >= 0.9 and r["found"] >= 0.99
    assert r["unflagged_precision"] >= 0.99
    assert r["flag_rate"] <= 0.2


def test_a_label_round_the_top_face_alone_matches_the_whole_die_seen_from_the_side():
    # rune55 boxes the top face; seen from the side, the reader's box holds the side face too: its centre
    # lies below the label's box, which lies inside it
    boxes = [(6, (100, 100, 140, 130)), (2, (300, 100, 340, 140))]
    whole = DiceObservation((die(6, (98, 98, 142, 160)),), (640, 640))
    assert dice_eval.match_to_boxes(whole, boxes) == [0]
    # a box round a die and the card it lies on (over 1.6 times the die), or round two dice, is no match
    card = DiceObservation((die(6, (60, 90, 180, 250)),), (640, 640))
    assert dice_eval.match_to_boxes(card, boxes) == [None]
    two = DiceObservation((die(6, (95, 95, 345, 170)),), (640, 640))
    assert dice_eval.match_to_boxes(two, boxes) == [None]
