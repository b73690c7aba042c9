"""Rendered tables with no dice but things that look like them (issue 49; development only).

A box over a real table sees more than dice: a ring, a coin, a Ludo pawn or a meeple, a playing card with
its index, a hand reaching in, a laptop key or a button. None of them is a die, and the reader must never
offer one as a die without a question. :func:`make_hard_negative_set` draws such tables (the detector
trainer's plain, felt, wood and striped tables, or one of our games' tables: :mod:`dice_game_tables`) with
3-7 of those objects at the sizes dice have in the same frames (:data:`vision.training.dice_clusters.SIDES`),
each with its soft shadow and the light falling from one side. Every die the reader offers without a
question on them is a false accept; :func:`main` writes a set for ``companion dice eval`` and, with
``--measure``, says which kind of object each offered die lay on.

``python -m vision.training.dice_hard_negatives OUT [--n N] [--seed S] [--measure]``
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.training.dice_clusters import rounded_rect

# What is drawn, equally often; the range of each one's size in die sides (a die of the same frame).
KINDS = {"ring": (0.6, 1.1), "coin": (0.8, 1.6), "pawn": (0.8, 1.4), "meeple": (1.0, 1.8),
         "card": (2.5, 5.0), "hand": (4.0, 7.0), "key": (1.1, 1.8), "button": (0.9, 1.6)}
OBJECTS = (3, 7)
METALS = ((60, 170, 210), (190, 190, 195), (70, 120, 185), (40, 110, 160))  # BGR: gold, silver, copper, brass
SKINS = ((150, 175, 225), (110, 140, 190), (70, 95, 140), (170, 195, 235))


def _shade(size: int, angle: float, lo: float, hi: float) -> np.ndarray:
    """A linear light ramp (size, size) from ``lo`` to ``hi`` along ``angle`` (radians)."""
    t = np.linspace(-1, 1, size, dtype=np.float32)
    yy, xx = np.meshgrid(t, t, indexing="ij")
    ramp = (xx * math.cos(angle) + yy * math.sin(angle)) * 0.5 + 0.5
    return lo + (hi - lo) * ramp


def _text(img: np.ndarray, text: str, at: tuple[int, int], scale: float, ink, thick: int) -> None:
    """cv2.putText on a float32 image (it draws on 8-bit images only), in place."""
    u = np.clip(img, 0, 255).astype(np.uint8)
    cv2.putText(u, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, thick, cv2.LINE_AA)
    img[:] = u


def draw_object(kind: str, s: int, rng: np.random.Generator, light: float) -> tuple[np.ndarray, np.ndarray]:
    """(BGR float32 (s, s, 3), alpha float32 (s, s) 0-1) of one object of ``kind`` (:data:`KINDS`) inside an
    ``s`` px square, lit from ``light`` (radians, image coordinates)."""
    img = np.zeros((s, s, 3), np.float32)
    mask = np.zeros((s, s), np.float32)
    c, r = s / 2, s / 2 * 0.95
    centre = (int(c), int(c))
    if kind in ("ring", "coin"):
        metal = np.array(METALS[int(rng.integers(len(METALS)))], np.float32) * rng.uniform(0.8, 1.15)
        cv2.circle(mask, centre, int(r), 1.0, -1, cv2.LINE_AA)
        img[:] = metal
        if kind == "ring":
            cv2.circle(mask, centre, int(r * rng.uniform(0.6, 0.8)), 0.0, -1, cv2.LINE_AA)
            if rng.random() < 0.4:  # a stone set in it
                a = rng.uniform(0, 2 * math.pi)
                gem = (int(c + 0.85 * r * math.cos(a)), int(c + 0.85 * r * math.sin(a)))
                cv2.circle(mask, gem, max(2, int(0.25 * r)), 1.0, -1, cv2.LINE_AA)
                cv2.circle(img, gem, max(2, int(0.25 * r)), tuple(float(v) for v in rng.uniform(0, 255, 3)), -1)
        else:
            cv2.circle(img, centre, int(r * 0.85), tuple(float(v) for v in metal * 0.8), max(1, int(r * 0.06)), cv2.LINE_AA)
            for _ in range(int(rng.integers(0, 13))):  # stars, letters and relief round the rim or inside
                a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.2, 0.75)
                p = (int(c + d * r * math.cos(a)), int(c + d * r * math.sin(a)))
                cv2.circle(img, p, max(1, int(r * rng.uniform(0.05, 0.12))), tuple(float(v) for v in metal * 0.6), -1, cv2.LINE_AA)
        img *= _shade(s, light, 0.6, 1.35)[..., None]
    elif kind == "pawn":
        colour = np.array(rng.choice([(40, 40, 200), (40, 170, 40), (200, 80, 30), (30, 200, 230), (30, 30, 30),
                                      (235, 235, 235)]), np.float32)
        cv2.circle(mask, centre, int(r), 1.0, -1, cv2.LINE_AA)
        img[:] = colour * 0.7
        off = rng.uniform(-0.15, 0.15, 2) * r  # the head seen a little off its foot
        head = (int(c + off[0]), int(c + off[1]))
        cv2.circle(img, head, int(r * rng.uniform(0.45, 0.6)), tuple(float(v) for v in colour), -1, cv2.LINE_AA)
        cv2.circle(img, head, max(1, int(r * 0.15)), tuple(float(v) for v in np.minimum(colour * 1.5 + 60, 255)), -1, cv2.LINE_AA)
        img *= _shade(s, light, 0.7, 1.2)[..., None]
    elif kind == "meeple":
        colour = np.array(rng.uniform(20, 240, 3), np.float32)
        u = s / 10
        pts = np.array([[5, 0.6], [6.4, 1.6], [6.2, 3.2], [9.6, 4.2], [9.4, 5.6], [7, 5.6], [8.4, 9.4], [6, 9.4],
                        [5, 7.2], [4, 9.4], [1.6, 9.4], [3, 5.6], [0.6, 5.6], [0.4, 4.2], [3.8, 3.2], [3.6, 1.6]]) * u
        m = cv2.getRotationMatrix2D((c, c), rng.uniform(0, 360), 1.0)
        pts = pts @ m[:, :2].T + m[:, 2]
        cv2.fillPoly(mask, [np.round(pts * 4).astype(np.int32)], 1.0, cv2.LINE_AA, 2)
        img[:] = colour
        img *= _shade(s, light, 0.75, 1.2)[..., None]
    elif kind == "card":
        paper = np.array([rng.uniform(225, 250)] * 3, np.float32) + rng.uniform(-8, 8, 3)
        img[:] = paper
        hw, hh, rad = int(0.27 * s), int(0.39 * s), max(1, int(0.05 * s))
        x0, y0, x1, y1 = int(c) - hw, int(c) - hh, int(c) + hw, int(c) + hh
        rounded_rect(mask, (x0, y0), (x1, y1), rad)
        ink = tuple(float(v) for v in rng.choice([(30, 30, 30), (40, 40, 190), (160, 70, 30)]))
        text = str(int(rng.integers(1, 16))) if rng.random() < 0.7 else "AKQJ"[int(rng.integers(4))]
        scale = s / 200
        _text(img, text, (x0 + int(0.03 * s), y0 + int(0.12 * s)), scale, ink, max(1, int(scale * 2)))
        for _ in range(int(rng.integers(1, 5))):  # suit marks and print in the middle
            p = (int(c + rng.uniform(-0.15, 0.15) * s), int(c + rng.uniform(-0.25, 0.25) * s))
            cv2.circle(img, p, max(2, int(s * rng.uniform(0.03, 0.06))), ink, -1, cv2.LINE_AA)
        m = cv2.getRotationMatrix2D((c, c), rng.uniform(0, 360), 1.0)
        img = cv2.warpAffine(img, m, (s, s), borderMode=cv2.BORDER_REPLICATE)
        mask = cv2.warpAffine(mask, m, (s, s))
        img *= _shade(s, light, 0.85, 1.1)[..., None]
    elif kind == "hand":
        skin = np.array(SKINS[int(rng.integers(len(SKINS)))], np.float32) * rng.uniform(0.85, 1.1)
        cv2.ellipse(mask, (int(c), int(c + 0.15 * s)), (int(0.28 * s), int(0.24 * s)), 0, 0, 360, 1.0, -1, cv2.LINE_AA)
        fingers = int(rng.integers(2, 5))
        for f in range(fingers):
            x = c + (f - (fingers - 1) / 2) * 0.13 * s
            cv2.line(mask, (int(x), int(c)), (int(x + rng.uniform(-0.05, 0.05) * s), int(0.1 * s)), 1.0,
                     max(2, int(0.1 * s)), cv2.LINE_AA)
        cv2.line(mask, (int(c - 0.25 * s), int(c + 0.2 * s)), (int(0.12 * s), int(c - 0.1 * s)), 1.0,
                 max(2, int(0.1 * s)), cv2.LINE_AA)  # the thumb
        img[:] = skin
        for f in range(fingers):  # nails: small light patches, as pips are
            x = c + (f - (fingers - 1) / 2) * 0.13 * s
            cv2.ellipse(img, (int(x), int(0.14 * s)), (max(1, int(0.03 * s)), max(1, int(0.04 * s))), 0, 0, 360,
                        tuple(float(v) for v in np.minimum(skin * 1.15 + 20, 255)), -1, cv2.LINE_AA)
        m = cv2.getRotationMatrix2D((c, c), rng.uniform(0, 360), 1.0)
        img = cv2.warpAffine(img, m, (s, s), borderMode=cv2.BORDER_REPLICATE)
        mask = cv2.warpAffine(mask, m, (s, s))
        img *= _shade(s, light, 0.8, 1.15)[..., None]
    else:  # a laptop key (a rounded square with a letter) or a button (round or square, with a symbol)
        body = np.array(rng.choice([(25, 25, 25), (60, 60, 65), (225, 225, 225), (40, 40, 180), (180, 120, 40)]), np.float32)
        img[:] = body
        round_button = kind == "button" and rng.random() < 0.5
        if round_button:
            cv2.circle(mask, centre, int(r), 1.0, -1, cv2.LINE_AA)
        else:
            k, rad = int(0.16 * s), int(rng.uniform(0.04, 0.14) * s)  # turned, its corners stay inside
            rounded_rect(mask, (k, k), (s - k, s - k), rad)
        ink = tuple(float(v) for v in (255 - body if rng.random() < 0.8 else body * 0.5))
        if kind == "key" or rng.random() < 0.5:
            text = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"[int(rng.integers(33))]
            _text(img, text, (int(0.3 * s), int(0.68 * s)), s / 45, ink, max(1, int(s / 25)))
        else:
            cv2.circle(img, centre, int(0.22 * s), ink, max(1, int(s / 20)), cv2.LINE_AA)
        m = cv2.getRotationMatrix2D((c, c), rng.uniform(0, 360), 1.0)
        img = cv2.warpAffine(img, m, (s, s), borderMode=cv2.BORDER_REPLICATE)
        mask = cv2.warpAffine(mask, m, (s, s))
        img *= _shade(s, light, 0.8, 1.2)[..., None]
    return img, np.clip(mask, 0, 1)


def lay_object(table: np.ndarray, sprite: np.ndarray, alpha: np.ndarray, at: tuple[int, int], light: float) -> tuple:
    """Lay ``sprite`` with its shadow (cast away from the light) on ``table`` (float32, in place) with its
    top-left at ``at``, clipped to the frame; returns its box (x0, y0, x1, y1) in the frame."""
    h, w = table.shape[:2]
    s = sprite.shape[0]
    x0, y0 = at
    shift = -0.08 * s * np.array([math.cos(light), math.sin(light)])
    for layer, weight in (("shadow", 0.45), ("object", 1.0)):
        dx, dy = (int(shift[0]), int(shift[1])) if layer == "shadow" else (0, 0)
        a = cv2.GaussianBlur(alpha, (0, 0), max(1.0, s * 0.05)) if layer == "shadow" else alpha
        ax0, ay0 = max(0, x0 + dx), max(0, y0 + dy)
        ax1, ay1 = min(w, x0 + dx + s), min(h, y0 + dy + s)
        if ax1 <= ax0 or ay1 <= ay0:
            continue
        part = a[ay0 - y0 - dy:ay1 - y0 - dy, ax0 - x0 - dx:ax1 - x0 - dx, None] * weight
        region = table[ay0:ay1, ax0:ax1]
        if layer == "shadow":
            region *= 1 - part
        else:
            region[:] = region * (1 - part) + sprite[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0] * part
    return (max(0, x0), max(0, y0), min(w, x0 + s), min(h, y0 + s))


def lay_objects(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, n: int, die: float,
                kinds: tuple[str, ...] = tuple(KINDS)) -> None:
    """Lay ``n`` objects of random kinds (sizes of :data:`KINDS` times ``die`` px) on ``img`` (float32 BGR,
    in place) where they cover none of the dice ``boxes`` (k, 4) (x0, y0, x1, y1 px); an object that finds
    no free place in 20 tries is left out; ``kinds``: those drawn (default all of :data:`KINDS`). For a
    detector's training samples (``train_dice_detect --hard``)."""
    h, w = img.shape[:2]
    names = list(kinds)
    light = rng.uniform(0, 2 * math.pi)
    for _ in range(n):
        kind = names[int(rng.integers(len(names)))]
        s = max(6, int(die * rng.uniform(*KINDS[kind])))
        for _ in range(20):
            x0, y0 = int(rng.integers(-s // 4, max(1, w - 3 * s // 4))), int(rng.integers(-s // 4, max(1, h - 3 * s // 4)))
            if not len(boxes) or not ((boxes[:, 0] < x0 + s) & (boxes[:, 2] > x0) & (boxes[:, 1] < y0 + s)
                                      & (boxes[:, 3] > y0)).any():
                sprite, alpha = draw_object(kind, s, rng, light)
                lay_object(img, sprite, alpha, (x0, y0), light)
                break


def hard_negative_table(rng: np.random.Generator, kinds: tuple[str, ...] = tuple(KINDS)
                        ) -> tuple[np.ndarray, list[tuple[str, tuple]]]:
    """One table (BGR uint8, CANVAS) with objects of ``kinds`` (default all of :data:`KINDS`), and the
    objects: (kind, box (x0, y0, x1, y1) px) each."""
    from vision.training.dice_clusters import CANVAS, SIDES
    from vision.training.dice_game_tables import game_table
    from vision.training.train_dice_detect import background

    H, W = CANVAS
    if rng.random() < 0.3:
        table = game_table(rng, (W, H)).astype(np.float32)
    else:
        table = cv2.resize(background(rng), (W, H), interpolation=cv2.INTER_LINEAR)
    die = math.exp(rng.uniform(math.log(SIDES[0]), math.log(SIDES[1])))
    light = rng.uniform(0, 2 * math.pi)
    names = list(kinds)
    objects = []
    for _ in range(int(rng.integers(OBJECTS[0], OBJECTS[1] + 1))):
        kind = names[int(rng.integers(len(names)))]
        s = max(8, int(die * rng.uniform(*KINDS[kind])))
        sprite, alpha = draw_object(kind, s, rng, light)
        at = (int(rng.integers(-s // 4, W - 3 * s // 4)), int(rng.integers(-s // 4, H - 3 * s // 4)))
        objects.append((kind, lay_object(table, sprite, alpha, at, light)))
    return np.clip(table, 0, 255).astype(np.uint8), objects


def make_hard_negative_set(n_images: int, seed: int, kinds: tuple[str, ...] = tuple(KINDS)) -> tuple[list, list]:
    """(``n_images`` :class:`vision.training.dice_clusters.ClusterImage` with no dice, their objects), the
    objects of ``kinds`` (default all of :data:`KINDS`)."""
    from vision.training.dice_clusters import ClusterImage

    rng = np.random.default_rng(seed)
    images, objects = [], []
    for _ in range(n_images):
        image, objs = hard_negative_table(rng, kinds)
        images.append(ClusterImage(image, np.zeros((0, 4), np.float32), np.zeros(0, np.int64),
                                   np.zeros((0, 4, 2), np.float32), math.nan, ()))
        objects.append(objs)
    return images, objects


def offered_on(folder: Path, reader) -> dict:
    """Read every image of a set written by :func:`main` with ``reader`` (a DiceReader); returns the dice
    offered without a question and those asked about, by the kind of object under each die's centre
    ("table" where none is)."""
    offered: dict[str, int] = {}
    asked: dict[str, int] = {}
    with open(folder / "objects.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    by_file: dict[str, list] = {}
    for row in rows:
        by_file.setdefault(row["file"], []).append((row["kind"], [float(row[k]) for k in ("x0", "y0", "x1", "y1")]))
    files = sorted({row["file"] for row in rows})
    for name in files:
        reading = reader.read(cv2.imread(str(folder / name), cv2.IMREAD_COLOR))
        for die in reading.dice:
            x0, y0, x1, y1 = die.box
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            kind = next((k for k, b in by_file[name] if b[0] <= cx <= b[2] and b[1] <= cy <= b[3]), "table")
            target = asked if die.flagged else offered
            target[kind] = target.get(kind, 0) + 1
    return {"images": len(files), "offered": offered, "asked": asked, "offered_total": sum(offered.values())}


def main(argv: list[str] | None = None) -> int:
    """Write a set (module docstring) and with ``--measure`` print the shipped reader's dice on it as JSON.
    Exit status 0."""
    from vision.training.dice_clusters import write_set

    parser = argparse.ArgumentParser(prog="python -m vision.training.dice_hard_negatives",
                                     description="Write a set of tables with rings, coins, pawns, meeples, "
                                                 "cards, hands, keys and buttons and no dice.")
    parser.add_argument("out", type=Path, help="folder to write (labels.csv, boxes.csv, objects.csv, images/)")
    parser.add_argument("--n", type=int, default=200, help="number of images (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    parser.add_argument("--measure", action="store_true", help="read the set with the shipped reader")
    args = parser.parse_args(argv)
    images, objects = make_hard_negative_set(args.n, args.seed)
    write_set(images, args.out)
    with open(args.out / "objects.csv", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["file", "kind", "x0", "y0", "x1", "y1"])
        for i, objs in enumerate(objects):
            for kind, box in objs:
                out.writerow([f"images/c{i:04d}.png", kind, *box])
    if args.measure:
        from vision.dice.reader import shipped_reader

        print(json.dumps(offered_on(args.out, shipped_reader())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
