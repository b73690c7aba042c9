"""Label errata for the flag calibration (vision.train_dice_flags.apply_errata) and the shipped errata file."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from vision.dice_eval import LabelledImage
from vision.train_dice_flags import apply_errata, choose

ERRATA = Path(__file__).resolve().parents[1] / "assets" / "dice_model" / "byler_d6_label_errata.csv"


def test_errata_add_a_missing_die_and_fix_a_wrong_value():
    item = LabelledImage("images/a.jpg", (2, 5), ((2, (10.0, 10.0, 40.0, 40.0)), (5, (60.0, 10.0, 90.0, 40.0))))
    rows = [{"file": "images/a.jpg", "x_min": "12", "y_min": "12", "x_max": "38", "y_max": "38", "label": "2",
             "shows": "3"},
            {"file": "a.jpg", "x_min": "100", "y_min": "100", "x_max": "130", "y_max": "130", "label": "",
             "shows": "6"},
            {"file": "images/b.jpg", "x_min": "0", "y_min": "0", "x_max": "9", "y_max": "9", "label": "", "shows": "1"}]
    fixed = apply_errata(item, rows)
    assert fixed.values == (3, 5, 6)
    assert fixed.boxes == ((3, (10.0, 10.0, 40.0, 40.0)), (5, (60.0, 10.0, 90.0, 40.0)),
                           (6, (100.0, 100.0, 130.0, 130.0)))
    assert apply_errata(LabelledImage("images/c.jpg", (1,), ((1, (0.0, 0.0, 9.0, 9.0)),)), rows).values == (1,)
    with pytest.raises(ValueError, match="no die labelled 4"):
        apply_errata(item, [dict(rows[0], label="4")])


def test_shipped_errata_file_is_well_formed():
    with open(ERRATA, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 9
    for r in rows:
        assert r["file"].startswith("images/IMG_2019") and r["shows"] in "123456"
        assert r["label"] == "" or (r["label"] in "123456" and r["label"] != r["shows"])
        x0, y0, x1, y1 = (float(r[k]) for k in ("x_min", "y_min", "x_max", "y_max"))
        assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 640


def test_choose_is_the_lowest_threshold_reaching_the_target():
    rows = [{"flag_below": 0.7, "unflagged_precision": 0.994}, {"flag_below": 0.75, "unflagged_precision": 0.996},
            {"flag_below": 0.85, "unflagged_precision": 0.999}]
    assert choose(rows, 0.995) == 0.75
    assert choose(rows, 0.9995) == 0.85  # none reaches it: the most precise


def test_choose_with_a_margin_goes_up_the_grid():
    rows = [{"flag_below": t, "unflagged_precision": p} for t, p in
            ((0.5, 0.985), (0.6, 0.9961), (0.7, 1.0), (0.75, 1.0))]
    assert choose(rows, 0.995) == 0.6
    assert choose(rows, 0.995, margin=1) == 0.7
    assert choose(rows, 0.995, margin=5) == 0.75  # not past the grid's end
    assert choose(rows, 1.01, margin=1) == 0.7  # none reaches the target: the most precise, no margin
