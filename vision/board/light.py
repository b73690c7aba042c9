"""The light on a board, divided out: what changed between a frame and what the board should look like.

``light_map(now, before, window)``: each channel's ratio of ``now`` to ``before``, median-filtered over
``window`` pixels. Light changes slowly across a board (a lamp's gradient, a shadow's band, the light's
colour), a die or a piece covers less than half the window, and a median keeps a shadow's sharp edge
(a Gaussian would smear it into change): ``before * light_map`` is ``before`` in the light of ``now``.
Used by the Ludo die that landed on the board (:mod:`vision.board.landed`, ``before`` the last settled
board) and the Can't Stop board reader (``before`` the print, :mod:`vision.board.cant_stop.reader`).
"""

from __future__ import annotations

import cv2
import numpy as np

RATIO_SCALE = 128.0
"""The ratio is held in uint8 (the median filter's type for large windows) as ratio x RATIO_SCALE:
ratios 0-2 in steps of 1/128."""


def light_map(now: np.ndarray, before: np.ndarray, window: int) -> np.ndarray:
    """(h, w, 3) float32: the median over ``window`` pixels (made odd, at least 3) of each channel's ratio
    ``now / before`` (both (h, w, 3) float32, positive: add 1 to uint8 levels first)."""
    ratio = np.clip(now / before * RATIO_SCALE, 0, 255).astype(np.uint8)
    return cv2.medianBlur(ratio, max(3, window | 1)).astype(np.float32) / RATIO_SCALE
