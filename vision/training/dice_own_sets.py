"""Rendered sets of dice the reader has never seen, one player's set each (development only; issue 39):
``python -m vision.training.dice_own_sets OUT [--kinds K ...] [--n 40] [--seed S]``.

Players bring their own dice: a skull for the 1, an emblem for the 6, pips of colours, translucent
bodies. The reader was trained on byler_d6's plain dice and :mod:`vision.training.dice_render`'s plain
faces, none of these. Each set is one design (:func:`design`: a body colour, a pip colour and the kind's
peculiarity, drawn once from the seed) on ``--n`` photos of 2-5 dice of that design lying apart on a plain
table or on one of our game tables, as a player's own set is photographed game after game; every die is
drawn anew (shading, glare, blur, noise, rim), so no two are the same picture. Written as
``OUT/<kind>/`` sets of ``images/``, ``labels.csv`` and ``boxes.csv`` (the format of ``../shared/data``),
for ``companion dice teach`` on the first photos and ``companion dice eval --learned`` on the others.

Kinds (:data:`KINDS`): ``symbol_one`` (the 1 is a skull), ``emblem_six`` (the 6 is a star emblem),
``coloured_pips`` (each face's pips of their own colour on a white body), ``translucent`` (a see-through
body: the table and the opposite face's pips show through).
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.training.dice_render import PIPS, SIZE, _rounded

KINDS = ("symbol_one", "emblem_six", "coloured_pips", "translucent")


@dataclass(frozen=True)
class Design:
    """One set's look: ``kind`` (:data:`KINDS`), ``body`` and ``pip`` BGR colours (0-255 floats),
    ``pips`` per value (1-6) its pips' colour, ``radius`` the corner radius and ``pip_size`` the pip
    radius (fractions of the side), ``opacity`` of the body (1 but for translucent dice)."""

    kind: str
    body: tuple[float, float, float]
    pips: dict[int, tuple[float, float, float]]
    radius: float
    pip_size: float
    opacity: float


def design(kind: str, rng: np.random.Generator) -> Design:
    """A random design of ``kind``. Raises ValueError for an unknown kind."""
    if kind not in KINDS:
        raise ValueError(f"no dice kind {kind!r}: one of {', '.join(KINDS)}")
    hue = float(rng.uniform(0, 180))

    def hsv(h, s, v):
        px = np.uint8([[[int(h) % 180, int(s), int(v)]]])
        return tuple(float(c) for c in cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0])

    if kind == "coloured_pips":
        body = hsv(hue, rng.uniform(0, 30), rng.uniform(215, 250))
        pips = {v: hsv(hue + 30 * v + rng.uniform(-8, 8), rng.uniform(170, 255), rng.uniform(110, 200)) for v in range(1, 7)}
    else:
        dark = rng.random() < 0.5
        body = hsv(hue, rng.uniform(120, 230), rng.uniform(40, 90) if dark else rng.uniform(150, 230))
        ink = (235.0, 235.0, 235.0) if dark else (25.0, 25.0, 25.0)
        if kind != "translucent" and rng.random() < 0.5:
            ink = (40.0, 180.0, 230.0) if dark else (30.0, 30.0, 140.0)  # gold or dark red ink
        pips = {v: ink for v in range(1, 7)}
    return Design(kind, body, pips, float(rng.uniform(0.08, 0.2)), float(rng.uniform(0.08, 0.1)),
                  float(rng.uniform(0.45, 0.65)) if kind == "translucent" else 1.0)


def _skull(mask: np.ndarray, c: float, s: float) -> None:
    """A skull (cranium, two eye holes and a nose left empty, a jaw with teeth gaps) of about 0.6 s."""
    k = 4  # sub-pixel shift bits of cv2's drawing
    sc = 1 << k
    cv2.circle(mask, (round(c * sc), round((c - 0.06 * s) * sc)), round(0.24 * s * sc), 1, -1, cv2.LINE_AA, k)
    x0, x1, y0, y1 = c - 0.14 * s, c + 0.14 * s, c + 0.08 * s, c + 0.3 * s
    cv2.rectangle(mask, (round(x0), round(y0)), (round(x1), round(y1)), 1, -1)
    for dx in (-0.1, 0.1):
        cv2.circle(mask, (round((c + dx * s) * sc), round((c - 0.06 * s) * sc)), round(0.065 * s * sc), 0, -1,
                   cv2.LINE_AA, k)
    tri = np.array([(c, c + 0.02 * s), (c - 0.035 * s, c + 0.09 * s), (c + 0.035 * s, c + 0.09 * s)])
    cv2.fillPoly(mask, [np.round(tri * sc).astype(np.int32)], 0, cv2.LINE_AA, k)
    for dx in (-0.07, 0.0, 0.07):
        cv2.line(mask, (round(c + dx * s), round(c + 0.2 * s)), (round(c + dx * s), round(y1)), 0,
                 max(1, round(0.02 * s)))


def _star(mask: np.ndarray, c: float, s: float) -> None:
    """A five-pointed star in a ring, about 0.65 s across."""
    k = 4
    sc = 1 << k
    cv2.circle(mask, (round(c * sc), round(c * sc)), round(0.32 * s * sc), 1, max(1, round(0.04 * s)) * sc, cv2.LINE_AA, k)
    pts = []
    for i in range(10):
        r = (0.26 if i % 2 == 0 else 0.11) * s
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((c + r * math.cos(a), c + r * math.sin(a)))
    cv2.fillPoly(mask, [np.round(np.array(pts) * sc).astype(np.int32)], 1, cv2.LINE_AA, k)


def _pips(mask: np.ndarray, value: int, c: float, s: float, size: float, mirror: bool = False) -> None:
    r = size * s
    off = max(0.24, 2.6 * size) * s
    for px, py in PIPS[value]:
        x = c - px * off if mirror else c + px * off
        cv2.circle(mask, (round((x) * 4), round((c + py * off) * 4)), round(r * 4), 1, -1, cv2.LINE_AA, 2)


def render_own_die(value: int, look: Design, rng: np.random.Generator, size: int = SIZE):
    """One die of ``look`` showing ``value`` (1-6) as a :class:`vision.training.dice_clusters.DieCut`
    (BGRA image, alpha < 255 inside a translucent body). Raises ValueError for a value outside 1-6."""
    from vision.training.dice_clusters import DieCut

    if value not in PIPS:
        raise ValueError(f"a d6 face shows 1-6, not {value}")
    s = size
    rim = rng.uniform(0, 0.18) * s if rng.random() < 0.6 else 0.0
    pad = int(math.ceil(rim)) + 4
    w = h = s + 2 * pad
    body = np.array(look.body)
    angle = rng.uniform(0, 2 * math.pi)
    dx, dy = rim * math.cos(angle), rim * math.sin(angle)
    face = np.zeros((h, w), np.uint8)
    _rounded(face, pad, pad, s, look.radius * s)
    alpha = face.astype(np.float64) * look.opacity
    img = np.zeros((h, w, 3), np.float64)
    if rim > 0:
        side = np.zeros((h, w), np.uint8)
        for t in np.linspace(0, 1, 8):
            _rounded(side, pad + dx * t, pad + dy * t, s, look.radius * s)
        side &= 1 - face
        img[side > 0] = body * rng.uniform(0.45, 0.8)
        alpha = np.maximum(alpha, side * look.opacity)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    shade = 1.0 + rng.uniform(-0.25, 0.25) * ((xx - w / 2) * math.cos(angle) + (yy - h / 2) * math.sin(angle)) / s
    img[face > 0] = body[None, :] * shade[face > 0][:, None]
    c = pad + s / 2
    if look.opacity < 1:  # the opposite face's pips seen through the body: mirrored, diffused, faint
        back = np.zeros((h, w), np.uint8)
        _pips(back, 7 - value, c + dx * 0.3, s, look.pip_size, mirror=True)
        seen = cv2.GaussianBlur(back.astype(np.float64), (0, 0), 0.04 * s) * 0.3 * face
        img = img * (1 - seen[..., None]) + np.array(look.pips[7 - value]) * seen[..., None]
    ink = np.zeros((h, w), np.uint8)
    if look.kind == "symbol_one" and value == 1:
        _skull(ink, c, s)
    elif look.kind == "emblem_six" and value == 6:
        _star(ink, c, s)
    else:
        _pips(ink, value, c, s, look.pip_size * rng.uniform(0.95, 1.05))
    img[ink > 0] = np.array(look.pips[value]) * rng.uniform(0.85, 1.0)
    alpha[ink > 0] = 1.0
    if rng.random() < 0.4:
        gx, gy = rng.uniform(pad, pad + s, 2)
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (rng.uniform(0.05, 0.2) * s) ** 2))
        img += (255 - img) * spot[..., None] * rng.uniform(0.3, 0.6) * (face > 0)[..., None]
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.2) * s / SIZE)
    img += rng.normal(0, rng.uniform(1, 5), img.shape)
    a = cv2.GaussianBlur((alpha * 255).astype(np.float32), (0, 0), 0.8)
    out = np.dstack([np.clip(img, 0, 255).astype(np.uint8), np.clip(a, 0, 255).astype(np.uint8)])
    square = np.array([(pad, pad), (pad + s, pad), (pad + s, pad + s), (pad, pad + s)], np.float32)
    return DieCut(out, int(value), square)


def make_own_set(kind: str, n_images: int, seed: int):
    """``n_images`` :class:`vision.training.dice_clusters.ClusterImage` of one design of ``kind``: 2-5 dice
    of 40-90 px apart, on a plain table (two in three) or a game table; generator seeded ``seed``."""
    from vision.training.dice_clusters import CANVAS, make_image
    from vision.training.dice_game_tables import game_table

    rng = np.random.default_rng([seed, KINDS.index(kind)])
    look = design(kind, rng)
    out = []
    for _ in range(n_images):
        cuts = [render_own_die(v, look, rng) for v in range(1, 7) for _ in range(2)]
        table = game_table(rng, (CANVAS[1], CANVAS[0])) if rng.random() < 1 / 3 else None
        out.append(make_image(cuts, rng, touching=False, sides=(40, 90), dice=(2, 5), table=table))
    return out


def own_dice_photo(look: Design, values: list[int], rng: np.random.Generator, table: np.ndarray | None = None):
    """One photo (:class:`vision.training.dice_clusters.ClusterImage`) of dice of ``look`` showing exactly
    ``values`` (1-6), apart, 50-80 px, on ``table`` (default a random plain one)."""
    from vision.training.dice_clusters import make_image

    laid = [render_own_die(v, look, rng) for v in values]
    return make_image(laid, rng, touching=False, sides=(50, 80), table=table, laid=laid)


def main(argv: list[str] | None = None) -> int:
    from vision.training.dice_clusters import write_set

    parser = argparse.ArgumentParser(prog="python -m vision.training.dice_own_sets", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--n", type=int, default=40, help="photos a set (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for kind in args.kinds:
        folder = write_set(make_own_set(kind, args.n, args.seed), args.out / kind)
        print(f"wrote {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
