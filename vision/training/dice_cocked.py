"""Rendered cocked dice for the dice reader's measures (development only).

A die is *cocked* when it does not lie flat: it leans on an edge (a board's rim, a card, a tray's wall)
or on another die, so that no face looks straight up and two faces show to a camera above the table.
Players re-roll such a die or agree which face counts; the box must never read one silently
(issue 25). This module draws such tables from a camera straight above: each image has one cocked die
(a cube turned by a random yaw, tilted 20-45 degrees about one of its bottom edges when it leans on an
edge, 30-50 degrees with its raised edge resting on a flat die when it leans on one) and one to three
flat dice (half drawn by :func:`vision.training.dice_render.render_die`, half by the cube renderer below at
most FLAT_TILT degrees off flat, so that the drawing style does not tell cocked from flat), all of one side (SIDES px, log-uniform), on a plain,
textured or striped table (:func:`vision.training.train_dice_detect.background`) or a game table
(:func:`vision.training.dice_game_tables.game_table`), a third each.

The cube is drawn with a weak-perspective pinhole (the camera DISTANCE die sides above the table): each
visible face is a face texture (body colour, pips of the standard layout) warped by its homography and
shaded by its normal against a light near the vertical. Opposite faces sum to 7.

``python -m vision.training.dice_cocked OUT [--n N] [--seed S]`` writes ``labels.csv``, ``boxes.csv`` (with a
``cocked`` column, 1 for the cocked die) and ``images/`` for ``companion dice eval OUT``, which then
also reports how many cocked dice were kept from the players (``cocked_flagged``).
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.training.dice_render import PIPS, _colour, _pip_colour

# Side of the dice of an image (px, log-uniform): byler_d6's labelled boxes (see dice_clusters.SIDES).
SIDES = (28.0, 56.0)
# Tilt (degrees) of a die leaning on an edge, and of one whose raised edge rests on a flat die.
EDGE_TILT = (20.0, 45.0)
DIE_TILT = (30.0, 50.0)
# A flat die drawn by the cube renderer lies at most this far (degrees) off flat: a die on a cloth or a
# warped board, not cocked.
FLAT_TILT = 6.0
# Camera height above the table, in die sides (a Pi camera 40-60 cm above 16 mm dice).
DISTANCE = 30.0
# Frame size (w, h) of a rendered table.
CANVAS = (640, 640)
# Supersampling of the cube's drawing (then averaged down).
SUPER = 4
# Face texture size (px).
TEXTURE = 96


@dataclass(frozen=True)
class CockedImage:
    """One rendered table: ``image`` (h, w, 3) uint8 BGR; ``dice`` a list of (value, box, cocked), box
    (x0, y0, x1, y1) in its pixels, value the face turned most toward the camera (1-6)."""

    image: np.ndarray
    dice: list


def _rotation(yaw: float, tilt: float) -> np.ndarray:
    """3x3 rotation: tilt (radians) about the die's x axis, then yaw about the vertical."""
    c, s = math.cos(tilt), math.sin(tilt)
    rx = np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    c, s = math.cos(yaw), math.sin(yaw)
    rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    return rz @ rx


def _faces(top: int, rng: np.random.Generator) -> dict:
    """Values of the six faces by outward normal (a right-handed standard die: opposite faces sum to 7),
    ``top`` on +z."""
    sides = [v for v in range(1, 7) if v not in (top, 7 - top)]
    front = int(rng.choice(sides))
    right = next(v for v in sides if v not in (front, 7 - front))
    return {(0, 0, 1): top, (0, 0, -1): 7 - top, (0, -1, 0): front, (0, 1, 0): 7 - front,
            (1, 0, 0): right, (-1, 0, 0): 7 - right}


def _texture(value: int, body: np.ndarray, pip: np.ndarray, r_frac: float, off: float,
             quarter: int) -> np.ndarray:
    """A face texture (TEXTURE, TEXTURE, 3) float: body colour, the pips of ``value`` (radius r_frac and
    corner offset off of the side), turned by ``quarter`` quarter turns."""
    t = np.ones((TEXTURE, TEXTURE, 3)) * body
    c = TEXTURE / 2
    for px, py in PIPS[value]:
        for _ in range(quarter):
            px, py = -py, px
        cv2.circle(t, (round((c + px * off * TEXTURE) * 4), round((c + py * off * TEXTURE) * 4)),
                   round(r_frac * TEXTURE * 4), pip.tolist(), -1, lineType=cv2.LINE_AA, shift=2)
    return t


def render_cocked(value: int, side: float, tilt_deg: float, rng: np.random.Generator):
    """A cocked die as (BGRA uint8 image, (x, y) of the cube's centre in it, value up): the cube of side
    ``side`` px with ``value`` on the face that was up before it tilted ``tilt_deg`` degrees (0-90) about
    a bottom edge, turned by a random yaw. ``value up`` is the face whose normal now points most toward
    the camera. Raises ValueError for a value outside 1-6."""
    if value not in PIPS:
        raise ValueError(f"a d6 face shows 1-6 pips, not {value}")
    tilt = math.radians(tilt_deg)
    rot = _rotation(rng.uniform(0, 2 * math.pi), tilt)
    faces = _faces(value, rng)
    body = _colour(rng)
    pip = _pip_colour(body, rng)
    r_frac = rng.uniform(0.07, 0.11)
    off = rng.uniform(max(0.22, 2.5 * r_frac), 0.30)
    light = np.array([rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), 1.0])
    light /= np.linalg.norm(light)
    k = SUPER * side
    size = math.ceil(2.2 * k)
    canvas = np.zeros((size, size, 3))
    alpha = np.zeros((size, size), np.float64)
    centre = np.array([size / 2, size / 2])
    height = 0.5 * (abs(math.cos(tilt)) + abs(math.sin(tilt)))  # the cube's centre above the table (sides)

    def project(p: np.ndarray) -> np.ndarray:
        z = p[2] + height
        f = DISTANCE / (DISTANCE - z)
        return centre + k * f * p[:2]

    up = max(faces, key=lambda n: float((rot @ np.array(n, float))[2]))
    for normal, face_value in faces.items():
        n = rot @ np.array(normal, float)
        if n[2] <= 0.02:
            continue
        a = np.array(normal, float)
        # two axes in the face's plane, then its corners (unit cube centred at the origin)
        u = np.array([a[1], a[2], a[0]]) if a[0] == 0 else np.array([0.0, 1.0, 0.0])
        v = np.cross(a, u)
        corners = [0.5 * a + 0.5 * (su * u + sv * v) for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        quad = np.float32([project(rot @ c) for c in corners])
        src = np.float32([(0, 0), (TEXTURE, 0), (TEXTURE, TEXTURE), (0, TEXTURE)])
        h = cv2.getPerspectiveTransform(src, quad)
        shade = 0.35 + 0.65 * max(0.0, float(n @ light))
        tex = _texture(face_value, body, pip, r_frac, off, int(rng.integers(4))) * shade
        warped = cv2.warpPerspective(tex.astype(np.float32), h, (size, size), flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.ones((TEXTURE, TEXTURE), np.float32), h, (size, size))
        canvas = canvas * (1 - mask[..., None]) + warped * mask[..., None]
        alpha = np.maximum(alpha, mask)
    out_size = (max(1, round(size / SUPER)),) * 2
    img = cv2.resize(canvas.astype(np.float32), out_size, interpolation=cv2.INTER_AREA)
    a = cv2.resize(alpha.astype(np.float32), out_size, interpolation=cv2.INTER_AREA)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 0.9)) + rng.normal(0, rng.uniform(1, 5), img.shape)
    bgra = np.dstack([np.clip(img, 0, 255), np.clip(a * 255, 0, 255)]).astype(np.uint8)
    return bgra, (out_size[0] / 2, out_size[1] / 2), faces[up]


def _paste(table: np.ndarray, bgra: np.ndarray, x: float, y: float, shadow: float) -> tuple:
    """Paste ``bgra`` (its top-left at x, y, float table (h, w, 3)) with a soft shadow; returns the box of
    its visible pixels (alpha > 0.5) in table pixels, or None when it falls outside."""
    H, W = table.shape[:2]
    m = np.float32([[1, 0, x], [0, 1, y]])
    warped = cv2.warpAffine(bgra, m, (W, H), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    a = warped[..., 3].astype(np.float32) / 255
    if shadow:
        off = np.float32([[1, 0, shadow], [0, 1, shadow]])
        sh = cv2.GaussianBlur(cv2.warpAffine(a, off, (W, H)), (0, 0), max(0.5, shadow))
        table *= 1 - sh[..., None] * 0.4
    table[:] = table * (1 - a[..., None]) + warped[..., :3].astype(np.float32) * a[..., None]
    ys, xs = np.nonzero(a > 0.5)
    if xs.size == 0:
        return None
    return (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))


def make_image(rng: np.random.Generator) -> CockedImage:
    """One table with one cocked die and 1-3 flat dice (module docstring)."""
    from vision.training.dice_game_tables import game_table
    from vision.training.dice_render import render_die
    from vision.training.train_dice_detect import background

    w, h = CANVAS
    kind = rng.random()
    if kind < 1 / 3:
        table = game_table(rng, (w, h)).astype(np.float32)
    else:
        table = cv2.resize(background(rng), (w, h), interpolation=cv2.INTER_LINEAR)
    side = float(math.exp(rng.uniform(*np.log(SIDES))))
    shadow = rng.uniform(0.05, 0.15) * side if rng.random() < 0.6 else 0.0
    on_die = rng.random() < 0.5
    placed: list[tuple[float, float]] = []
    dice = []

    def free(x: float, y: float, gap: float) -> bool:
        return all(math.hypot(x - px, y - py) >= gap * side for px, py in placed)

    def flat(x: float, y: float):
        value = int(rng.integers(1, 7))
        if rng.random() < 0.5:  # drawn as the cocked die is, so that only the tilt tells them apart
            img, _, value = render_cocked(value, side, rng.uniform(0, FLAT_TILT), rng)
        else:
            cut = render_die(value, rng, 72)
            scale = side / 72
            img = cv2.resize(cut.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            img = cv2.warpAffine(img, cv2.getRotationMatrix2D((img.shape[1] / 2, img.shape[0] / 2),
                                                              float(rng.uniform(0, 360)), 1.0),
                                 (img.shape[1], img.shape[0]), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        box = _paste(table, img, x - img.shape[1] / 2, y - img.shape[0] / 2, shadow)
        if box is not None:
            dice.append((value, box, False))
        placed.append((x, y))

    margin = 2.0 * side
    cx, cy = rng.uniform(margin, w - margin), rng.uniform(margin, h - margin)
    tilt = rng.uniform(*(DIE_TILT if on_die else EDGE_TILT))
    if on_die:  # the flat die it rests on, beside it
        angle = rng.uniform(0, 2 * math.pi)
        flat(cx + 0.85 * side * math.cos(angle), cy + 0.85 * side * math.sin(angle))
    bgra, (ox, oy), up = render_cocked(int(rng.integers(1, 7)), side, tilt, rng)
    box = _paste(table, bgra, cx - ox, cy - oy, shadow)
    placed.append((cx, cy))
    if box is not None:
        dice.append((up, box, True))
    for _ in range(int(rng.integers(1, 4))):
        for _try in range(50):
            x, y = rng.uniform(margin, w - margin), rng.uniform(margin, h - margin)
            if free(x, y, 2.2):
                flat(x, y)
                break
    image = np.clip(table, 0, 255).astype(np.uint8)
    return CockedImage(image, dice)


def write_set(n: int, seed: int, folder: Path) -> Path:
    """Write ``n`` images (generator seeded ``seed``) as a set for ``companion dice eval``: labels.csv,
    boxes.csv (``file,value,x_min,y_min,x_max,y_max,cocked``) and images/cNNNN.png."""
    rng = np.random.default_rng(seed)
    folder = Path(folder)
    (folder / "images").mkdir(parents=True, exist_ok=True)
    with open(folder / "labels.csv", "w", newline="") as lf, open(folder / "boxes.csv", "w", newline="") as bf:
        labels, boxes = csv.writer(lf), csv.writer(bf)
        labels.writerow(["file", "dice_values", "n_dice", "sum"])
        boxes.writerow(["file", "value", "x_min", "y_min", "x_max", "y_max", "cocked"])
        for i in range(n):
            im = make_image(rng)
            name = f"images/c{i:04d}.png"
            cv2.imwrite(str(folder / name), im.image)
            values = [v for v, _, _ in im.dice]
            labels.writerow([name, " ".join(map(str, values)), len(values), sum(values)])
            for v, b, cocked in im.dice:
                boxes.writerow([name, v] + [f"{x:.1f}" for x in b] + [int(cocked)])
    return folder


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.training.dice_cocked OUT [--n N] [--seed S]``: write a set of tables with one cocked
    die each (module docstring). Exit status 0."""
    parser = argparse.ArgumentParser(prog="python -m vision.training.dice_cocked",
                                     description="Write a set of rendered tables, each with one cocked die "
                                                 "and flat dice, for companion dice eval.")
    parser.add_argument("out", help="folder to write (labels.csv, boxes.csv with a cocked column, images/)")
    parser.add_argument("--n", type=int, default=200, help="number of images (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    args = parser.parse_args(argv)
    write_set(args.n, args.seed, Path(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
