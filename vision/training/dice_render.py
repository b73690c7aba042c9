"""Rendered dice for training (development only): plain d6 faces of random colours, drawn with OpenCV.

byler_d6's dice are a few colours on one table; the face classifier that has only seen them doubts dice
of other colours (reader v3 flags or drops them). :func:`render_die` draws one die's top face as a
:class:`vision.training.dice_clusters.DieCut` (BGRA, alpha its rounded outline) so that
:func:`vision.training.dice_clusters.make_image` lays rendered dice beside the cut-out real ones: body of any hue,
lightness and saturation, pips black, white or of a contrasting colour, pips of 0.14-0.22 of the side in
the standard lattice (corner pips 0.22-0.30 of the side from the centre in x and y, at least 2.5 pip
radii: neighbouring pips never touch), rounded corners, a shaded rim on a random side (the die seen up
to about 30 degrees off vertical), soft shading across the face, an optional glare spot and a little
blur. The classes are the face's pip counts 1-6.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# Pip positions on a unit face (lattice offsets -1, 0, 1 in x and y), standard d6 layouts.
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
# Rendering size of a face (px) before make_image scales it to the image's die size.
SIZE = 72


def _colour(rng: np.random.Generator) -> np.ndarray:
    """A random BGR body colour (float, 0-255): any hue, often white, ivory or black as real dice are."""
    kind = rng.random()
    if kind < 0.2:
        return np.array([rng.uniform(215, 255)] * 3) - np.array([rng.uniform(0, 25), rng.uniform(0, 15), 0])
    if kind < 0.35:
        return np.full(3, rng.uniform(10, 60))
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(80, 256), rng.integers(60, 256)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)


def _pip_colour(body: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A BGR pip colour that stands out from ``body``: black, white or a colour of other lightness."""
    light = float(body.mean())
    kind = rng.random()
    if kind < 0.75:
        return np.full(3, rng.uniform(0, 40) if light > 110 else rng.uniform(215, 255))
    for _ in range(20):
        c = rng.uniform(0, 255, 3)
        if abs(float(c.mean()) - light) > 80:
            return c
    return np.full(3, 0.0 if light > 110 else 255.0)


def render_die(value: int, rng: np.random.Generator, size: int = SIZE):
    """One rendered die face showing ``value`` (1-6) as a DieCut: image (h, w, 4) uint8 BGRA, the
    face's square (4, 2) float32 in its pixels (side ``size`` px). Raises ValueError for a value
    outside 1-6."""
    from vision.training.dice_clusters import DieCut

    if value not in PIPS:
        raise ValueError(f"a d6 face shows 1-6 pips, not {value}")
    s = size
    rim = rng.uniform(0, 0.22) * s if rng.random() < 0.6 else 0.0
    pad = int(math.ceil(rim)) + 4
    w = h = s + 2 * pad
    body = _colour(rng)
    pip = _pip_colour(body, rng)
    radius = rng.uniform(0.08, 0.2) * s
    # the rim: the body seen from the side, shifted away from the face and darker
    angle = rng.uniform(0, 2 * math.pi)
    dx, dy = rim * math.cos(angle), rim * math.sin(angle)
    alpha = np.zeros((h, w), np.uint8)
    img = np.zeros((h, w, 3), np.float64)
    face = np.zeros((h, w), np.uint8)
    _rounded(face, pad, pad, s, radius)
    if rim > 0:
        side = np.zeros((h, w), np.uint8)
        for t in np.linspace(0, 1, 8):
            _rounded(side, pad + dx * t, pad + dy * t, s, radius)
        img[side > 0] = body * rng.uniform(0.45, 0.8)
        alpha |= side
    alpha |= face
    # shading across the face: a linear gradient and a glare spot
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    g = rng.uniform(-0.25, 0.25) * ((xx - w / 2) * math.cos(angle) + (yy - h / 2) * math.sin(angle)) / s
    shade = 1.0 + g
    img[face > 0] = (body[None, :] * shade[face > 0][:, None])
    pips = np.zeros((h, w), np.uint8)
    r_frac = rng.uniform(0.07, 0.11)
    r_pip = r_frac * s
    off = rng.uniform(max(0.22, 2.5 * r_frac), 0.30) * s  # neighbouring pips never touch
    c = pad + s / 2
    for px, py in PIPS[value]:
        cv2.circle(pips, (round((c + px * off) * 4), round((c + py * off) * 4)), round(r_pip * 4), 1, -1,
                   lineType=cv2.LINE_AA, shift=2)
    pip_tone = pip * rng.uniform(0.85, 1.0)
    img[pips > 0] = pip_tone
    if rng.random() < 0.4:
        gx, gy = rng.uniform(pad, pad + s, 2)
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (rng.uniform(0.05, 0.2) * s) ** 2))
        img += (255 - img) * spot[..., None] * rng.uniform(0.3, 0.6) * (face > 0)[..., None]
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.2) * s / SIZE)
    img += rng.normal(0, rng.uniform(1, 6), img.shape)
    a = cv2.GaussianBlur(alpha.astype(np.float32) * 255, (0, 0), 0.8)
    out = np.dstack([np.clip(img, 0, 255).astype(np.uint8), a.astype(np.uint8)])
    square = np.array([(pad, pad), (pad + s, pad), (pad + s, pad + s), (pad, pad + s)], np.float32)
    return DieCut(out, int(value), square)


def _rounded(mask: np.ndarray, x: float, y: float, s: float, r: float) -> None:
    """Fill a rounded square of side s and corner radius r with top-left (x, y) into ``mask`` (1s)."""
    x0, y0, x1, y1, r = round(x), round(y), round(x + s), round(y + s), max(1, round(r))
    cv2.rectangle(mask, (x0 + r, y0), (x1 - r, y1), 1, -1)
    cv2.rectangle(mask, (x0, y0 + r), (x1, y1 - r), 1, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(mask, (cx, cy), r, 1, -1, lineType=cv2.LINE_AA)


def rendered_cuts(n: int, seed: int, size: int = SIZE) -> list:
    """``n`` rendered dice (values 1-6 in turn, side ``size`` px) from a generator seeded ``seed``."""
    rng = np.random.default_rng(seed)
    return [render_die(1 + i % 6, rng, size) for i in range(n)]


# Side (px) at which the rendered dice of close-ups are drawn, so that their pips stay sharp when a die is
# scaled up to fill much of the frame (the cut-out dice are 20-60 px).
CLOSEUP_RENDER = 256


def mixed_cuts(cuts: list, rendered: float, seed: int, closeups: bool = True) -> tuple[list, list]:
    """(dice, close-up dice) for synthetic tables: ``cuts`` (cut-out DieCuts) plus rendered dice making up
    the fraction ``rendered`` (0-0.9) of each list, drawn with seed ``seed`` (SIZE px) and ``seed + 1``
    (CLOSEUP_RENDER px, only with ``closeups``). New lists; ``cuts`` is not changed."""
    dice, big = list(cuts), list(cuts)
    if rendered:
        n = round(len(cuts) * rendered / (1.0 - rendered))
        dice += rendered_cuts(n, seed)
        if closeups:
            big += rendered_cuts(n, seed + 1, CLOSEUP_RENDER)
    return dice, big
