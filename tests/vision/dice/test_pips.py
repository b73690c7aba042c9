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


def _face_with(draw) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A Lab work image of a white 48 px face on a green table, ``draw(image, centre)`` drawing its middle."""
    import cv2

    from vision.dice.pips import to_lab

    image = np.full((120, 120, 3), (60, 110, 40), np.uint8)
    cv2.rectangle(image, (36, 36), (84, 84), (235, 240, 240), -1)
    draw(image, (60, 60))
    return to_lab(cv2.GaussianBlur(image, (3, 3), 0)), (36, 36, 85, 85)


def test_the_pip_of_a_one_is_solid_and_a_digit_is_not():
    """centre_spot_is_a_pip: a 1's pip is a solid disc; a card's digit (a hollow 0, 6, 8 or 9, or the bare
    strokes of a 7) read as a 1 is not; a face with nothing at its centre is left to the other checks."""
    import cv2

    from vision.dice.pips import centre_spot_is_a_pip, face_mask
    from vision.dice.reader import shipped_reader

    p = shipped_reader().params

    def check(draw) -> bool:
        lab, box = _face_with(draw)
        return centre_spot_is_a_pip(lab, box, face_mask(box[2] - box[0], box[3] - box[1], p.mask_inset, p.mask_radius))

    assert check(lambda im, c: cv2.circle(im, c, 7, (20, 20, 20), -1, cv2.LINE_AA))
    assert not check(lambda im, c: cv2.circle(im, c, 7, (20, 20, 20), 3, cv2.LINE_AA))  # a ring
    for digit in "0689":
        assert not check(lambda im, c, d=digit: cv2.putText(im, d, (c[0] - 9, c[1] + 10), cv2.FONT_HERSHEY_SIMPLEX,
                                                             0.9, (20, 20, 20), 3, cv2.LINE_AA)), digit
    assert not check(lambda im, c: cv2.putText(im, "7", (c[0] - 9, c[1] + 10), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                                               (20, 20, 20), 3, cv2.LINE_AA))
    assert check(lambda im, c: None)  # nothing there
