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
