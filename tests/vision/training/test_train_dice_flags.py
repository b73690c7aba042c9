"""The flag threshold's choice (vision.training.train_dice_flags.choose)."""

from __future__ import annotations

from vision.training.train_dice_flags import choose


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
