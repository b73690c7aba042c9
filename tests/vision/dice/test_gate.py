"""The gate (the reader's "is it a die at all?" head, vision.dice.networks): what is not a die on a game
table is flagged, nothing else changes."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.dice import read_dice
from vision.dice.eval import match_to_boxes
from vision.dice.reader import DiceReader, shipped_reader
from vision.training.dice_clusters import CANVAS, make_image
from vision.training.dice_game_tables import game_table, make_game_set
from vision.training.dice_render import rendered_cuts
from tests.opencv import OPENCV_MAJOR


def _tables(n: int, seed: int):
    """Rendered dice (no photo needed) on game tables of a generator seed the gate was never trained on
    (its tables: seeds 3007, 4007, 6007, 7007; its check: 5007)."""
    rng = np.random.default_rng(seed)
    cuts = rendered_cuts(24, 3)
    for _ in range(n):
        scene = make_image(cuts, rng, touching=False, table=game_table(rng, (CANVAS[1], CANVAS[0])))
        yield scene.image, [(int(v), tuple(float(c) for c in b)) for v, b in zip(scene.values, scene.boxes)]


def test_the_gate_flags_the_tables_print_and_keeps_every_reading():
    wrong_unflagged = {True: 0, False: 0}
    newly_flagged_false = newly_flagged_dice = real_dice = 0
    for image, boxes in _tables(6, seed=11):
        with_gate = read_dice(image)
        without = DiceReader(replace(shipped_reader().params, die_below=0.0), shipped_reader().networks).read(image)
        # the gate only flags: the same dice, the same values, every flag kept
        assert [(d.value, d.box) for d in with_gate.dice] == [(d.value, d.box) for d in without.dice]
        assert all(g.flagged or not w.flagged for g, w in zip(with_gate.dice, without.dice))
        matched = match_to_boxes(without, boxes)
        for obs, gate in ((with_gate, True), (without, False)):
            wrong_unflagged[gate] += sum(not d.flagged and (k is None or boxes[k][0] != d.value)
                                         for d, k in zip(obs.dice, matched))
        for g, w, k in zip(with_gate.dice, without.dice, matched):
            real_dice += k is not None
            if g.flagged and not w.flagged:
                newly_flagged_false += k is None
                newly_flagged_dice += k is not None
    # measured (seed 11): without the gate 1 false die offered unflagged (of 20 real dice), with it none
    assert wrong_unflagged[True] == 0
    if OPENCV_MAJOR >= 5:  # the rendered tables differ a little on OpenCV 4 (tests/opencv.py)
        assert wrong_unflagged[False] >= 1
    assert newly_flagged_false >= wrong_unflagged[False]
    assert newly_flagged_dice * 20 <= real_dice  # real dice it doubts: a few at most


def test_on_a_table_without_dice_what_looks_like_a_die_is_doubted():
    """Every die read on an empty game table is a false one (its print: a yard's circle, a card's
    index): the gate doubts nearly all of them."""
    found = doubted = 0
    for scene in make_game_set(6, seed=21, with_dice=False):
        dice = read_dice(scene.image).dice
        p = shipped_reader().die_likelihood(scene.image, [d.box for d in dice])
        found += len(dice)
        doubted += int((p < shipped_reader().params.die_below).sum())
        assert all(d.flagged for d, q in zip(dice, p) if q < shipped_reader().params.die_below)
    assert found >= 30 and doubted >= 0.9 * found  # measured (seed 21): 90 found, 90 doubted
