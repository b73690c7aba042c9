"""Handwriting-style digit shapes for training the digit classifier (vision.cards.digits): each digit 0-9
as a few strokes in a unit box (x 0-1 right, y 0-1 down), in the forms people commonly write (a plain bar
1 and a flagged one, an open and a closed 4, a 7 with and without a crossbar, a straight-stemmed and a
curved 9...). Drawn with a thick pen, slanted and wobbled at random, they stand in for handwritten card
values that Hershey fonts do not cover.

Public API: :func:`digit_strokes`, :func:`render_hand_digit`.
"""

from __future__ import annotations

import cv2
import numpy as np


def _arc(cx, cy, rx, ry, start, end, n=24):
    t = np.radians(np.linspace(start, end, n))
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], axis=1)


def _line(*points):
    return np.array(points, np.float64)


def digit_strokes(digit: int, variant: int) -> list[np.ndarray]:
    """Strokes (each an (n, 2) array in the unit box) of ``digit`` 0-9 in form ``variant`` (0 or 1)."""
    v = variant % 2
    if digit == 0:
        return [_arc(0.5, 0.5, 0.38, 0.48, 0, 360, 40)] if v == 0 else [_arc(0.5, 0.5, 0.3, 0.48, -80, 285, 40)]
    if digit == 1:
        return [_line((0.5, 0.0), (0.5, 1.0))] if v == 0 else [_line((0.25, 0.25), (0.55, 0.0), (0.55, 1.0))]
    if digit == 2:
        top = _arc(0.5, 0.28, 0.38, 0.28, 200, 380)
        if v == 0:
            return [np.vstack([top, _line((0.1, 1.0), (0.92, 1.0))])]
        return [np.vstack([top, _line((0.25, 0.85)), _arc(0.22, 0.9, 0.1, 0.1, -60, 200)[::-1][:1],
                           _line((0.15, 0.95), (0.35, 0.9), (0.9, 0.98))])]
    if digit == 3:
        upper = _arc(0.48, 0.26, 0.36, 0.26, 200, 450)
        lower = _arc(0.48, 0.74, 0.4, 0.26, 270, 520)
        return [np.vstack([upper, lower])] if v == 0 else [upper[:-4], lower[4:]]
    if digit == 4:
        if v == 0:
            return [_line((0.62, 0.0), (0.08, 0.68), (0.92, 0.68)), _line((0.66, 0.3), (0.66, 1.0))]
        return [_line((0.15, 0.0), (0.12, 0.52), (0.88, 0.5)), _line((0.85, 0.0), (0.85, 1.0))]
    if digit == 5:
        bowl = _arc(0.45, 0.7, 0.4, 0.3, 220, 500)
        if v == 0:
            return [np.vstack([_line((0.85, 0.0), (0.22, 0.0), (0.18, 0.45)), bowl[3:]])]
        return [np.vstack([_line((0.2, 0.02), (0.16, 0.45)), bowl[3:]]), _line((0.2, 0.02), (0.85, 0.0))]
    if digit == 6:
        loop = _arc(0.5, 0.7, 0.33, 0.3, 180, 540)
        stem = _line((0.78, 0.0), (0.4, 0.25), (0.18, 0.6)) if v == 0 else _arc(0.85, 0.65, 0.67, 0.65, 250, 180)
        return [np.vstack([stem, loop])]
    if digit == 7:
        main = _line((0.08, 0.0), (0.92, 0.0), (0.35, 1.0))
        return [main] if v == 0 else [main, _line((0.3, 0.5), (0.8, 0.5))]
    if digit == 8:
        if v == 0:
            return [_arc(0.5, 0.25, 0.3, 0.25, 0, 360), _arc(0.5, 0.72, 0.36, 0.28, 0, 360)]
        t = np.linspace(0, 2 * np.pi, 60)  # one stroke: a figure of eight
        return [np.stack([0.5 + 0.35 * np.sin(2 * t), 0.5 + 0.48 * np.cos(t)], axis=1)]
    loop = _arc(0.48, 0.28, 0.33, 0.28, 0, 360)
    stem = _line((0.8, 0.28), (0.75, 1.0)) if v == 0 else _arc(0.3, 0.3, 0.5, 0.7, 0, 90)
    return [loop, stem]


def render_hand_digit(digit: int, rng: np.random.Generator, size: int = 96) -> np.ndarray:
    """One handwriting-style ``digit`` as a uint8 0/255 image size x size: a random form, aspect, slant,
    pen width and wobble."""
    strokes = digit_strokes(digit, int(rng.integers(2)))
    height = size * 0.7
    width = height * rng.uniform(0.45, 0.75)
    slant = rng.uniform(-0.3, 0.1)
    wobble = rng.normal(0, 0.025, (3, 2))
    canvas = np.zeros((size, size), np.uint8)
    pen = max(2, int(round(height * rng.uniform(0.07, 0.2))))
    for stroke in strokes:
        pts = stroke.copy()
        pts += wobble[0] + wobble[1] * pts[:, :1] + wobble[2] * pts[:, 1:]
        x = (pts[:, 0] - 0.5) * width + slant * (0.5 - pts[:, 1]) * height + size / 2
        y = (pts[:, 1] - 0.5) * height + size / 2
        cv2.polylines(canvas, [np.stack([x, y], axis=1).round().astype(np.int32)], False, 255, pen, cv2.LINE_AA)
    return (canvas > 100).astype(np.uint8) * 255
