"""Where `companion dice read --debug-out` puts each die's label (companion.cli.dice.label_spot, draw_overlay)."""

from __future__ import annotations

import numpy as np

from companion.cli.dice import draw_overlay, label_spot
from vision.observation import DiceObservation, DieReading


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_label_goes_above_when_free():
    assert label_spot((100, 100, 140, 140), (50, 12), (480, 640), []) == (100, 86, 150, 98)


def test_label_avoids_a_touching_die_above_and_its_own_box_at_the_frame_edge():
    die, above = (100, 100, 140, 140), (100, 60, 140, 98)
    spot = label_spot(die, (50, 12), (480, 640), [above])
    assert spot == (100, 142, 150, 154)  # below
    top = (10, 0, 50, 40)  # no room above: the clamped spot would cover the die itself
    spot = label_spot(top, (50, 12), (480, 640), [])
    assert not overlaps(spot, top) and spot[1] == 42


def test_label_falls_back_to_above_when_boxed_in():
    die = (100, 100, 140, 140)
    walls = [(0, 0, 640, 99), (0, 141, 640, 480), (0, 0, 99, 480), (141, 0, 640, 480)]
    assert label_spot(die, (50, 12), (480, 640), walls) == (100, 86, 150, 98)


def test_overlay_of_a_touching_pair_draws_each_label_off_the_other_die():
    frame = np.full((200, 300, 3), 255, np.uint8)
    dice = (DieReading(5, (100, 60, 140, 100), 0.99, False), DieReading(4, (100, 100, 140, 140), 0.6, True))
    out = draw_overlay(frame, DiceObservation(dice=dice, frame_shape=(200, 300)))
    assert out.shape == frame.shape and (out != 255).any()
    inside = out[62:98, 102:138]  # the upper die's box interior: no label drawn onto it
    assert (inside == 255).all()
