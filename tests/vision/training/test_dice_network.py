"""The one dice network's data and measure (vision.training.dice_network_data, dice_network_measure): the
rendered designs' dice and the accept/ask trade-off (no torch needed)."""

from __future__ import annotations

import numpy as np

from vision.training.dice_network_data import render_design, render_design_die
from vision.training.dice_network_measure import trade_off


def test_trade_off_asks_the_least_that_reaches_the_precision():
    # 200 dice: the 100 of largest margin right, then 100 of which every other one is wrong
    truth = np.ones(200, int)
    pred = truth.copy()
    pred[101::2] = 2
    margin = np.linspace(1.0, 0.0, 200)
    got = trade_off(pred, margin, truth)
    assert got["accuracy"] == 0.75
    assert got["asked"] <= 0.5 and got["asked"] >= 0.48  # the first 100 (and at most two more) accepted
    assert 0 < got["right_asked"] < 0.35
    none = trade_off(np.full(10, 2), np.ones(10), np.ones(10, int))
    assert none["asked"] == 1.0 and none["margin"] is None


def test_a_design_draws_its_glyph_face_without_pips():
    rng = np.random.default_rng(4)
    for _ in range(40):
        design = render_design(rng)
        if design[2]:
            break
    look, _, glyph_face, _ = design
    cut = render_design_die(glyph_face, design, rng)
    assert cut.image.ndim == 3 and cut.image.shape[2] == 4 and cut.image.dtype == np.uint8
    # the glyph's colour is the pips' colour of that face: some of the face shows it
    ink = np.abs(cut.image[..., :3].astype(float) - np.array(look.pips[glyph_face])).sum(axis=2) < 60
    assert ink.mean() > 0.01
