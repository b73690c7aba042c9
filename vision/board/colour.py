"""Pixel colour classes for the Ludo board reader: the four pawn/print colours, light board, dark print.

``classify(frame_bgr) -> labels`` gives each pixel one of :data:`CLASSES` (uint8 index). Hue bands are
OpenCV's 0-179 hue scale; they were set on the real photos (teal-ish green around hue 75-88, sky blue
96-105, pinkish red 170-179 (0-3 allowed), orange-yellow 18-28) and the renders of :mod:`vision.board.render`.
Brightness thresholds are relative to the frame's own bright level (its 95th percentile of V), so a
darker photo is classified like a bright one. Shadows on the light board are bluish but darker and
are left unclassified (``NONE``) by the relative value floor.
"""

from __future__ import annotations

import cv2
import numpy as np

NONE, RED, GREEN, YELLOW, BLUE, LIGHT, DARK = range(7)
CLASSES = ("none", "red", "green", "yellow", "blue", "light", "dark")
COLOUR_CLASS = {"red": RED, "green": GREEN, "yellow": YELLOW, "blue": BLUE}
"""Pawn colour name -> class index."""

# Red wraps round hue 0; pawns and print sit at 170-179, while wooden tables start at hue ~7 (the oblique photo shows red pawns at 1-4): only hues
# below this count as red on the low side.
RED_LOW_END = 6
# Saturation (0-255) above which a pixel is "coloured"; the wooden board print is below it.
MIN_SAT = 85
# Value floor for a coloured pixel, as a fraction of the frame's bright level; deeply saturated pixels
# (saturation DEEP_SAT and up: pawns in shadow) may be darker, down to MIN_VALUE_DEEP.
MIN_VALUE, MIN_VALUE_DEEP, DEEP_SAT = 0.4, 0.34, 190
# Pawns in deep shadow (value down to SHADOW_VALUE of the bright level, saturation SHADOW_SAT and up)
# keep their hue, except blue, which the dark print circles in shadow share (hue ~105): red, yellow and
# green pixels that dark still count.
SHADOW_VALUE, SHADOW_SAT = 0.17, 150
# Green and blue share their hues with the bluish shadows on the light board (saturation about 100 on
# the real photos): they need this much saturation (blue pawns in shadow still have ~160).
COOL_SAT = 125
# Light board: saturation below LIGHT_SAT and value above LIGHT_VALUE of the bright level.
LIGHT_SAT, LIGHT_VALUE = 80, 0.62
# Dark print: value below DARK_VALUE of the bright level.
DARK_VALUE = 0.45


def bright_level(value: np.ndarray) -> float:
    """The frame's bright level: 95th percentile of V (0-255), at least 40 so a black frame stays dark."""
    return max(40.0, float(np.percentile(value, 95)))


def classify(frame_bgr: np.ndarray, level: float | None = None) -> np.ndarray:
    """Class index per pixel, shape (h, w) uint8, values in range(len(CLASSES)).

    frame_bgr: (h, w, 3) uint8. level: the bright level to use (default: :func:`bright_level` of the frame).
    """
    hsv = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2HSV)
    h = hsv[..., 0]
    s = hsv[..., 1]
    v = hsv[..., 2].astype(np.float32)
    if level is None:
        level = bright_level(hsv[..., 2])
    out = np.zeros(h.shape, np.uint8)
    out[v < DARK_VALUE * level] = DARK  # deeply coloured pixels below are reclassified as their colour
    sat = (s >= MIN_SAT) & ((v >= MIN_VALUE * level) | ((s >= DEEP_SAT) & (v >= MIN_VALUE_DEEP * level)))
    cool = s >= COOL_SAT
    deep = sat | ((s >= SHADOW_SAT) & (v >= SHADOW_VALUE * level))
    out[deep & ((h < RED_LOW_END) | (h >= 160))] = RED
    out[deep & (h >= 15) & (h < 36)] = YELLOW
    out[deep & cool & (h >= 36) & (h < 91)] = GREEN
    out[sat & cool & (h >= 91) & (h < 130)] = BLUE
    out[(s < LIGHT_SAT) & (v >= LIGHT_VALUE * level)] = LIGHT
    return out


def fractions(labels: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Fraction of each class among the pixels of ``mask`` (all pixels when None); shape (7,), sums to 1."""
    vals = labels[mask] if mask is not None else labels.ravel()
    if vals.size == 0:
        return np.zeros(len(CLASSES))
    return np.bincount(vals, minlength=len(CLASSES))[: len(CLASSES)] / vals.size
