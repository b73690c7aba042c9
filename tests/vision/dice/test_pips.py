"""The classical pip reader (vision.dice.pips) on hand-made cases."""

from __future__ import annotations

import numpy as np

from vision.dice.pips import Pip, _read_lattice


def test_spots_off_every_lattice_point_read_as_no_face():
    # Two small spots 41 px apart on an object of a 22 px die's side: no 3x3 lattice of that die holds
    # both, and no lattice point is bright. Found on a rendered card table (a die-sized detection over a
    # card's print); it raised ValueError (min of an empty sequence) before.
    fmask = np.zeros((108, 60), np.uint8)
    fmask[30:92, 40:62] = 1
    reading = _read_lattice(np.zeros((108, 60), np.float32), fmask, [Pip(51.5, 39.5, 4), Pip(56.5, 81.0, 6)],
                            22.3, 50.0, [])
    assert (reading.value, reading.confidence, reading.pips) == (0, 0.0, [])
    assert reading.doubts == ["no pips on the lattice"]


def test_the_lab_image_converts_only_around_the_boxes_asked_and_as_the_whole_image_would():
    from vision.dice.pips import LAB_MARGIN, LabImage, to_lab

    image = np.random.default_rng(3).integers(0, 256, (300, 500, 3), dtype=np.uint8)
    whole = to_lab(image)
    lab = LabImage(image)
    assert not lab.done.any() and lab.done.shape == (5, 8)  # 64 px tiles, the last ones cut
    box = (200, 100, 240, 140)
    array = lab.around(box)
    pad = int(np.ceil(LAB_MARGIN * 40)) + 2
    region = (slice(100 - pad, 140 + pad), slice(200 - pad, 240 + pad))
    assert np.array_equal(array[region], whole[region])  # every pixel the pip count may read
    assert lab.done.sum() == 4 and lab.done[1:3, 2:4].all()  # the four tiles round it, no more
    lab.around((480, 280, 520, 320))  # a box over the image's edge: clipped
    assert lab.done[4, 7] and np.array_equal(lab.array[256:, 448:], whole[256:, 448:])
    converted = lab.done.copy()
    assert lab.around(box) is array and np.array_equal(lab.done, converted)  # asked again: nothing new
