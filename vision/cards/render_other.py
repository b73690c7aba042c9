"""A deliberately different Schotten Totten / Battle Line deck design of our own, to test the reader on
"a real deck after a short calibration" (vision.cards.corner) without using the publisher's artwork.

Design (63 x 88 mm like the reference deck, vision.cards.reference_deck, but otherwise unlike it): a pale
tinted background of the colour, a coloured border band in another shade of it (shades differ from the
reference palette), the value printed large in the top-left corner in a dark shade of the colour in
pygame's ``freesansbold.ttf`` (a font the digit network never saw in training: vision.training.card_digit_train
holds it out), the value turned by 180 degrees in the bottom-right corner, and artwork in the middle: a
multicoloured landscape and banner that changes with the value (other hues than the card's own). No
index box, no white areas.

Public API: :data:`OTHER_BGR`, :func:`render_other_card`, :func:`render_other_scene`.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import pygame
import pygame.freetype

from vision.cards.reference_deck import CARD_MM
from vision.cards.render import render_st_scene

# border shades (BGR), deliberately not the reference deck's: crimson, amber, mustard, teal green, navy, plum
OTHER_BGR = {
    "red": (50, 30, 180), "orange": (20, 110, 235), "yellow": (40, 190, 225),
    "green": (90, 140, 30), "blue": (150, 70, 25), "purple": (120, 40, 115),
}
INDEX_BOX = (0.07, 0.05, 0.40, 0.25)  # (x0, y0, x1, y1) card fractions where the corner value is drawn
BORDER = 0.045  # border band, fraction of the card's width


@lru_cache(maxsize=4)
def _font(size: int):
    pygame.freetype.init()
    return pygame.freetype.Font(None, size)  # None: pygame's bundled freesansbold.ttf


def _text_mask(text: str, height: int) -> np.ndarray:
    surface, _ = _font(max(8, int(height * 1.35))).render(text, (255, 255, 255), (0, 0, 0))
    arr = pygame.surfarray.array3d(surface)[:, :, 0].T
    ys, xs = np.nonzero(arr > 60)
    arr = arr[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    scale = height / arr.shape[0]
    return cv2.resize(arr, (max(1, int(arr.shape[1] * scale)), height), interpolation=cv2.INTER_AREA)


def _blend(img: np.ndarray, mask: np.ndarray, x: int, y: int, bgr) -> None:
    h, w = mask.shape
    h, w = min(h, img.shape[0] - y), min(w, img.shape[1] - x)
    alpha = (mask[:h, :w].astype(np.float32) / 255.0)[:, :, None]
    roi = img[y:y + h, x:x + w].astype(np.float32)
    img[y:y + h, x:x + w] = (roi * (1 - alpha) + np.array(bgr, np.float32) * alpha).astype(np.uint8)


def render_other_card(colour: str, value: int, width: int = 240) -> np.ndarray:
    """One card of the other design as BGR uint8 (width x width*88/63); value 1-10 (10: Battle Line).
    Raises ValueError for an unknown colour or value."""
    if colour not in OTHER_BGR or not 1 <= value <= 10:
        raise ValueError(f"no other-design card {colour!r} {value!r}")
    h = int(round(width * CARD_MM[1] / CARD_MM[0]))
    base = np.array(OTHER_BGR[colour], np.float32)
    tint = (0.3 * base + 0.7 * np.array([225, 238, 245], np.float32)).astype(np.uint8)
    dark = (0.4 * base).astype(np.uint8)
    img = np.zeros((h, width, 3), np.uint8)
    img[:] = tuple(int(v) for v in base)
    b = max(2, int(BORDER * width))
    cv2.rectangle(img, (b, b), (width - 1 - b, h - 1 - b), tuple(int(v) for v in tint), -1)
    # artwork: sky, hills and a banner in other hues, changing with the value
    rng = np.random.default_rng(value * 7 + len(colour))
    ax0, ay0, ax1, ay1 = int(0.12 * width), int(0.30 * h), int(0.88 * width), int(0.74 * h)
    cv2.rectangle(img, (ax0, ay0), (ax1, ay1), (215, 190, 140), -1)
    for k in range(3):
        pts = [(ax0, ay1)] + [(int(ax0 + (ax1 - ax0) * t), int(ay0 + (ay1 - ay0) * (0.35 + 0.15 * k
               + 0.2 * np.sin(6 * t + value + k)))) for t in np.linspace(0, 1, 12)] + [(ax1, ay1)]
        shade = (60 + 30 * k, 120 + 20 * k, 70 + 10 * k)
        cv2.fillPoly(img, [np.array(pts, np.int32)], shade, cv2.LINE_AA)
    for _ in range(value):
        cx, cy = int(rng.uniform(ax0 + 10, ax1 - 10)), int(rng.uniform(ay0 + 8, ay1 - 8))
        cv2.circle(img, (cx, cy), max(2, width // 40), (30, 30, 30) if value % 2 else (240, 240, 240), -1,
                   cv2.LINE_AA)
    cv2.rectangle(img, (ax0, ay0), (ax1, ay1), tuple(int(v) for v in dark), max(1, width // 80))
    ribbon = int(0.05 * h)
    cv2.rectangle(img, (ax0 - 4, ay1 + 4), (ax1 + 4, ay1 + 4 + ribbon), tuple(int(v) for v in base), -1)
    # corner values
    x0, y0, x1, y1 = INDEX_BOX
    digit_h = int((y1 - y0) * h * 0.8)
    mask = _text_mask(str(value), digit_h)
    if mask.shape[1] > (x1 - x0) * width:
        mask = cv2.resize(mask, (int((x1 - x0) * width), digit_h), interpolation=cv2.INTER_AREA)
    _blend(img, mask, int(x0 * width + ((x1 - x0) * width - mask.shape[1]) / 2), int(y0 * h + 0.1 * (y1 - y0) * h),
           tuple(int(v) for v in dark))
    small = _text_mask(str(value), int(digit_h * 0.6))
    small = cv2.rotate(small, cv2.ROTATE_180)
    _blend(img, small, int(width * 0.9 - small.shape[1]), int(h * 0.93 - small.shape[0]),
           tuple(int(v) for v in dark))
    return img


def render_other_scene(rng: np.random.Generator, columns, **kwargs):
    """A Schotten Totten table (vision.cards.render.render_st_scene) with cards of the other design.
    Same arguments and return value as render_st_scene."""
    return render_st_scene(rng, columns, card_image=render_other_card, **kwargs)
