"""Train the die detector (:mod:`vision.dice.detect`) on ``byler_d6`` (development only; needs torch + onnx).

``python -m vision.training.train_dice_detect [--split heldout|all] [--steps N] [--seed S] [--out DIR] [--resume CKPT]
[--init CKPT] [--scenes F] [--closeups F] [--rendered F] [--trays F] [--game-tables F] [--tilt P] [--rune55 F]
[--leave-out GROUP] [--unlabelled] [--max-side PX] [--hard F]``

Data: ``../shared/data/dice/byler_d6`` (BSD-3-Clause, (c) 2019 Nell Byler) and its ``boxes.csv``, without
the 14 photos bundled in ``assets/dice_photos``; ``--split heldout`` (the shipped model) also keeps out the
same 20 % of the remaining photos (by photo, seed 0 permutation) as :mod:`vision.training.train_dice`, on which the
manifest reports recall and precision. ``pi_cam_tray`` and ``ivory_grid`` are never trained on (measure only).

Every training sample is a 192x192 image made on the fly, half of them a byler photo, half a composite
(with ``--scenes``/``--closeups``, those fractions of the samples are :func:`scene` tables first):

- photo: a random perspective warp (rotation k*90 +- 25 degrees, corner jitter up to 12 % of the side)
  scaling the dice to a median side of 9-64 px (``--max-side PX``: 9-PX); with ``--tilt P``, a fraction P
  of the photos is first seen whole by a camera tilted 0-35 degrees from vertical (:func:`tilted_photo`: its
  far side shrinks, and the dice there are squashed, to about half at the far edge of a 30 degree view);
  with ``--rune55 F``, that fraction of the samples are rune55 photos (CC BY 4.0, Rune55) warped the same
  way: every group but ``--leave-out`` (default ``circular_cam_gray``, the tube camera), less any near-copy
  of a left-out photo (:func:`vision.training.dice_network_data.near_copies`: the groups share re-exported
  scenes); with ``--unlabelled``, the shipped detector's sure boxes that no label explains (rune55 boxes
  pip dice only) are neither positives nor negatives (:func:`unlabelled_boxes`);
- composite: dice cut out of the photos (a rounded-square mask inside each labelled box) pasted with
  soft shadows onto a plain light, dark, coloured, gradient, noisy or striped background with random
  distracting shapes (discs, bars, lines: not dice), 1-22 dice of 9-70 px, touching allowed;
- scene (``--scenes F``): a :func:`vision.training.dice_clusters.make_image` table of the training photos' dice cut
  along their outlines (``--rendered F``: that fraction of the dice drawn by :mod:`vision.training.dice_render`),
  1-12 dice of 9-70 px, touching or apart, a fraction ``--trays`` of them in a dice tray, a fraction
  ``--game-tables`` of them on a rendered table of our own games (cards, a Ludo board:
  :mod:`vision.training.dice_game_tables`; GAME_TABLES drawn once, each used turned and mirrored); close-up
  (``--closeups F``): one die of 70-126 px;
- with ``--hard F``, that fraction of all samples gets 1-4 rings, coins, pawns, meeples, cards, hands, keys
  or buttons laid where no die is (:func:`with_hard_negatives`), at the size of its dice;
- then for all: hue rotation, channel shuffle, inversion (1 in 5), grey (1 in 10), brightness/contrast/
  gamma, a shading gradient, glare spots, blur, noise and JPEG re-encoding.

Targets (CenterNet): a Gaussian peak (sigma 0.15 of the die side, at least 0.6 cells) at each centre on
the stride-4 heat map, ``log(side / 4)`` and the sub-cell offset at the centre cell. Losses: the
CenterNet focal loss on the heat map, L1 on side and offset. AdamW, cosine learning rate, batch 16.
Checkpoints (``detect.pt``) every 50 steps in ``--out``; ``--resume`` continues from one; ``--init`` starts
a new schedule from a checkpoint's weights (fine-tuning).
Writes ``detect.onnx`` (one output (1, 4, H/4, W/4): sigmoid heat, log side, dx, dy) and
``detect_manifest.json`` (sizes, sha256, command, seed, figures).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.dice.detect import STRIDE, DieDetector, normalise, overlap
from vision.dice.networks import DETECTOR_FILE as MODEL_FILE
from vision.training.command import command_line

SIZE = 192
MANIFEST = "detect_manifest.json"


# ---------------------------------------------------------------------------------------------- data

def split_photos(seed: int = 0):
    """(train, heldout, bundled) lists of (path, LabelledImage) of byler_d6, the split of train_dice."""
    from vision.training.train_dice import BUNDLED, _photos

    bundled = {line.split(",")[0].split("/")[-1] for line in (BUNDLED / "labels.csv").read_text().splitlines()[1:]}
    byler = _photos("byler_d6")
    test_bundled = [p for p in byler if p[0].name in bundled]
    rest = [p for p in byler if p[0].name not in bundled]
    order = np.random.default_rng(seed).permutation(len(rest))
    n_test = len(rest) // 5
    return [rest[i] for i in order[n_test:]], [rest[i] for i in order[:n_test]], test_bundled


class Photo:
    """A decoded photo with its die boxes (n, 4) float32 and ``unlabelled`` (m, 4) boxes of things that may
    be dice its labels leave out (none for byler's)."""

    unlabelled = np.zeros((0, 4), np.float32)

    def __init__(self, path, item) -> None:
        self.image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        self.boxes = np.array([b for _, b in item.boxes], np.float32).reshape(-1, 4)
        self.values = np.array([v for v, _ in item.boxes], np.int64)


class LazyPhoto(Photo):
    """A :class:`Photo` decoded each time its ``image`` is asked for (thousands of rune55 photos stay on
    disk, not in memory)."""

    def __init__(self, path, item) -> None:
        self.path = path
        self.boxes = np.array([b for _, b in item.boxes], np.float32).reshape(-1, 4)
        self.values = np.array([v for v, _ in item.boxes], np.int64)

    @property
    def image(self) -> np.ndarray:
        return cv2.imread(str(self.path), cv2.IMREAD_COLOR)


def rune55_photos(leave_out: str, detector: DieDetector | None = None) -> tuple[list[LazyPhoto], dict]:
    """rune55's labelled photos of every group but ``leave_out``, less the near-copies of its photos, and
    what was taken: ``{"groups": {group: photos}, "left_out": group, "near_copies_dropped": n}``; with a
    ``detector`` (the shipped one), each photo's :attr:`Photo.unlabelled` boxes and their count
    (``"unlabelled"``): see :func:`unlabelled_boxes`."""
    from vision.training.dice_network_data import near_copies, rune55_groups

    groups = rune55_groups()
    if leave_out not in groups:
        raise SystemExit(f"--leave-out: rune55 has no group {leave_out!r} (it has {', '.join(sorted(groups))})")
    taken = [(g, p) for g, photos in groups.items() if g != leave_out for p in photos]
    dropped = near_copies([p for _, p in taken], groups[leave_out])
    kept = [(g, p) for i, (g, p) in enumerate(taken) if i not in dropped]
    counts = {g: sum(k == g for k, _ in kept) for g in groups if g != leave_out}
    photos = [LazyPhoto(*p) for _, p in kept]
    taken = {"groups": counts, "left_out": leave_out, "near_copies_dropped": len(dropped)}
    if detector is not None:
        for ph in photos:
            ph.unlabelled = unlabelled_boxes(detector, ph.image, ph.boxes)
        taken["unlabelled"] = int(sum(len(ph.unlabelled) for ph in photos))
    return photos, taken


UNLABELLED_SCORE = 0.5
"""Detection score from which the shipped detector's box that no label explains is taken for a die the
labels leave out (rune55 boxes pip dice only: its symbol and emblem dice, and some dice in piles, carry no
box); the detector's even odds."""


def unlabelled_boxes(detector: DieDetector, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Boxes (m, 4) of ``detector``'s detections of at least :data:`UNLABELLED_SCORE` in ``image`` whose
    centre lies in no labelled box of ``boxes`` (n, 4) and which hold no labelled box's centre: training
    neither rewards nor punishes a detection there (:func:`targets`)."""
    out = []
    centres = [((bx0 + bx1) / 2, (by0 + by1) / 2) for bx0, by0, bx1, by1 in boxes]
    for d in detector.detect(image):
        if d.score < UNLABELLED_SCORE:
            continue
        x0, y0, x1, y1 = d.box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        in_label = any(bx0 <= cx <= bx1 and by0 <= cy <= by1 for bx0, by0, bx1, by1 in boxes)
        holds = any(x0 <= px <= x1 and y0 <= py <= y1 for px, py in centres)
        if not in_label and not holds:
            out.append(d.box)
    return np.array(out, np.float32).reshape(-1, 4)


# Inset of a cut-out's rounded-square alpha mask inside the labelled box (fraction of the box's side).
CUT_INSET = 0.07


def cutout(image: np.ndarray, box) -> np.ndarray | None:
    """BGRA crop of one labelled die box (x0, y0, x1, y1) of a BGR image: alpha a feathered rounded
    square (corner radius 0.25, inset CUT_INSET of the side) inside the box; None when under 8 px."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = box
    X0, Y0, X1, Y1 = int(max(0, x0)), int(max(0, y0)), int(min(w, x1 + 1)), int(min(h, y1 + 1))
    crop = image[Y0:Y1, X0:X1]
    if crop.shape[0] < 8 or crop.shape[1] < 8:
        return None
    ch, cw = crop.shape[:2]
    alpha = np.zeros((ch * 4, cw * 4), np.uint8)
    r = int(min(ch, cw) * 4 * 0.25)
    inset = int(min(ch, cw) * 4 * CUT_INSET)
    cv2.rectangle(alpha, (inset + r, inset), (cw * 4 - inset - r, ch * 4 - inset), 255, -1)
    cv2.rectangle(alpha, (inset, inset + r), (cw * 4 - inset, ch * 4 - inset - r), 255, -1)
    for cx, cy in ((inset + r, inset + r), (cw * 4 - inset - r, inset + r),
                   (inset + r, ch * 4 - inset - r), (cw * 4 - inset - r, ch * 4 - inset - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1)
    alpha = cv2.resize(alpha, (cw, ch), interpolation=cv2.INTER_AREA)
    return np.dstack([crop, alpha])


def cutouts(photos: list[Photo], with_values: bool = False) -> list:
    """BGRA crops of each labelled die (:func:`cutout`); with ``with_values`` (crop, value 1-6) pairs."""
    out = []
    for ph in photos:
        for box, value in zip(ph.boxes, ph.values):
            cut = cutout(ph.image, box)
            if cut is not None:
                out.append((cut, int(value)) if with_values else cut)
    return out


def paste(img: np.ndarray, cut: np.ndarray, m: np.ndarray, s: float, light: float,
          rng: np.random.Generator) -> np.ndarray:
    """Paste a BGRA cut-out onto a float32 BGR image (h, w, 3) through the 2x3 affine ``m``; with
    probability 0.6 first a soft shadow of it (offset 0.12 of the die side ``s`` px away from the light
    at angle ``light`` radians). Returns the new float32 image."""
    H, W = img.shape[:2]
    warped = cv2.warpAffine(cut, m, (W, H), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    a = warped[..., 3:4].astype(np.float32) / 255
    if rng.random() < 0.6:  # soft shadow away from the light
        off = np.float32([[1, 0, math.cos(light) * s * 0.12], [0, 1, math.sin(light) * s * 0.12]])
        sh = cv2.GaussianBlur(cv2.warpAffine(a[..., 0], off, (W, H)), (0, 0), max(0.5, s * 0.08))
        img *= 1 - sh[..., None] * rng.uniform(0.2, 0.6)
    return img * (1 - a) + warped[..., :3].astype(np.float32) * a


def background(rng: np.random.Generator) -> np.ndarray:
    """A plain, gradient, noisy or striped table of SIZE x SIZE, light, dark or coloured."""
    base = rng.uniform(0, 255, 3)
    if rng.random() < 0.35:
        base = np.full(3, rng.choice([rng.uniform(10, 60), rng.uniform(190, 250)]))
        base += rng.uniform(-15, 15, 3)
    img = np.ones((SIZE, SIZE, 3), np.float32) * base
    kind = rng.random()
    if kind < 0.3:  # gradient to another colour
        other = rng.uniform(0, 255, 3)
        t = np.linspace(0, 1, SIZE, dtype=np.float32)
        ramp = t[None, :] if rng.random() < 0.5 else t[:, None]
        img = img * (1 - ramp[..., None] * 0.6) + other * ramp[..., None] * 0.6
    elif kind < 0.6:  # felt / cloth / paper texture
        sigma = rng.uniform(0.7, 6)
        noise = cv2.GaussianBlur(rng.normal(0, 1, (SIZE, SIZE)).astype(np.float32), (0, 0), sigma)
        noise /= max(1e-6, float(noise.std()))
        img += noise[..., None] * rng.uniform(3, 25)
    elif kind < 0.75:  # wood-like stripes
        period = rng.uniform(6, 40)
        yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
        a = rng.uniform(0, math.pi)
        wave = np.sin((xx * math.cos(a) + yy * math.sin(a)) / period * 2 * math.pi
                      + cv2.GaussianBlur(rng.normal(0, 3, (SIZE, SIZE)).astype(np.float32), (0, 0), 8))
        img += wave[..., None] * rng.uniform(5, 30)
    return img


def distractors(img: np.ndarray, rng: np.random.Generator) -> None:
    """Draw 0-5 shapes that are not dice: discs, bars, thin lines, rectangles (tray walls, tokens, grid)."""
    for _ in range(rng.integers(0, 6)):
        colour = tuple(float(c) for c in rng.uniform(0, 255, 3))
        kind = rng.random()
        p = rng.integers(0, SIZE, 2)
        if kind < 0.3:
            cv2.circle(img, tuple(int(v) for v in p), int(rng.uniform(3, 40)), colour, -1, cv2.LINE_AA)
        elif kind < 0.65:
            q = rng.integers(0, SIZE, 2)
            cv2.line(img, tuple(int(v) for v in p), tuple(int(v) for v in q), colour, int(rng.uniform(1, 4)), cv2.LINE_AA)
        else:
            s = rng.uniform(10, 120, 2)
            if rng.random() < 0.5:
                s[rng.integers(0, 2)] = rng.uniform(3, 10)  # a bar: never die-shaped
            else:
                s[1] = s[0] * rng.choice([rng.uniform(0.15, 0.55), rng.uniform(1.8, 6)])
            rect = ((float(p[0]), float(p[1])), (float(s[0]), float(s[1])), float(rng.uniform(0, 180)))
            pts = cv2.boxPoints(rect).astype(np.int32)
            cv2.fillConvexPoly(img, pts, colour, cv2.LINE_AA)


def composite(cuts: list[np.ndarray], rng: np.random.Generator):
    """A synthetic table: (SIZE, SIZE, 3) uint8 and the die boxes (n, 4) in its pixels."""
    img = background(rng)
    distractors(img, rng)
    n = int(rng.choice([rng.integers(1, 7), rng.integers(1, 23)]))
    side = math.exp(rng.uniform(math.log(9), math.log(70)))
    boxes = []
    light = rng.uniform(0, 2 * math.pi)
    for _ in range(n * 3):
        if len(boxes) >= n:
            break
        cut = cuts[rng.integers(len(cuts))]
        s = side * rng.uniform(0.85, 1.15)
        cx, cy = rng.uniform(s * 0.3, SIZE - s * 0.3, 2)
        box = (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2)
        if any(overlap(box, b) > 0.12 for b in boxes):
            continue
        ch, cw = cut.shape[:2]
        angle = rng.choice([0, 90, 180, 270]) + rng.uniform(-8, 8)
        m = cv2.getRotationMatrix2D((cw / 2, ch / 2), angle, s / max(ch, cw))
        m[0, 2] += cx - cw / 2
        m[1, 2] += cy - ch / 2
        img = paste(img, cut, m, s, light, rng)
        boxes.append(box)
    return np.clip(img, 0, 255).astype(np.uint8), np.array(boxes, np.float32).reshape(-1, 4)


# --tilt: the camera's angle from vertical and its horizontal field of view (degrees), drawn uniformly; the
# issue's views go up to about 30 degrees, and cameras from about 50 (a phone's tele) to 75 (a wide one).
TILT_DEGREES = (0.0, 35.0)
TILT_FIELD_OF_VIEW = (50.0, 75.0)


def tilted_photo(image: np.ndarray, boxes: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``image`` and its ``boxes`` ((n, 4) pixels) as a camera tilted TILT_DEGREES from vertical, of a
    TILT_FIELD_OF_VIEW lens, would show them (:func:`vision.training.dice_conditions.tilt_homography`, the whole
    photo kept in view): the far side shrinks and squashes the dice there."""
    from vision.training.dice_conditions import tilt_homography, warp_view

    h, w = image.shape[:2]
    m = tilt_homography(w, h, rng.uniform(*TILT_DEGREES), rng.uniform(*TILT_FIELD_OF_VIEW))
    return warp_view(image, boxes, m, (w, h))


def warp_photo(ph: Photo, rng: np.random.Generator, tilt: float = 0.0, max_side: float = 64.0):
    """A perspective-warped SIZE x SIZE view of a photo: (image, boxes (n, 4) in its pixels). With
    probability ``tilt`` the photo is first seen by a tilted camera (:func:`tilted_photo`); the view's
    turn then points the far side anywhere. The dice's median side is drawn from 9 to ``max_side`` px
    (log-uniform)."""
    image, photo_boxes = ph.image, np.concatenate([ph.boxes, ph.unlabelled])
    if tilt and rng.random() < tilt:
        image, photo_boxes = tilted_photo(image, photo_boxes, rng)
    sides = np.sqrt((photo_boxes[:, 2] - photo_boxes[:, 0]) * (photo_boxes[:, 3] - photo_boxes[:, 1]))
    target = math.exp(rng.uniform(math.log(9), math.log(max_side)))
    labelled = len(ph.boxes)
    k = target / float(np.median(sides[:labelled] if labelled else sides))
    # Centre the view on a random die (or anywhere) so most views hold dice.
    if labelled and rng.random() < 0.85:
        b = photo_boxes[rng.integers(labelled)]
        c = np.array(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)) + rng.normal(0, 60 / k, 2)
    else:
        c = rng.uniform(0, image.shape[1], 2)
    angle = math.radians(int(rng.integers(4)) * 90 + rng.uniform(-25, 25))
    half = SIZE / k / 2
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    src = np.array([c + rot @ np.array(v) * half for v in ((-1, -1), (1, -1), (1, 1), (-1, 1))], np.float32)
    dst = np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]])
    dst += rng.uniform(-0.12, 0.12, (4, 2)).astype(np.float32) * SIZE * (rng.random() < 0.6)
    m = cv2.getPerspectiveTransform(src, dst)
    border = cv2.BORDER_REPLICATE if rng.random() < 0.5 else cv2.BORDER_CONSTANT
    img = cv2.warpPerspective(image, m, (SIZE, SIZE), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR,
                              borderMode=border, borderValue=tuple(float(v) for v in rng.uniform(0, 255, 3)))
    boxes = []
    for (x0, y0, x1, y1), s in zip(photo_boxes, sides):
        centre = cv2.perspectiveTransform(np.float32([[[(x0 + x1) / 2, (y0 + y1) / 2]]]), m)[0, 0]
        # Local scale of the warp at the centre: how far a small step moves.
        step = cv2.perspectiveTransform(np.float32([[[(x0 + x1) / 2 + 1, (y0 + y1) / 2],
                                                     [(x0 + x1) / 2, (y0 + y1) / 2 + 1]]]), m)[0] - centre
        local = math.sqrt(abs(float(np.linalg.det(step))))
        half_side = s * local / 2
        boxes.append((centre[0] - half_side, centre[1] - half_side, centre[0] + half_side, centre[1] + half_side))
    boxes = np.array(boxes, np.float32).reshape(-1, 4)
    if len(ph.unlabelled):
        return img, boxes[:labelled], boxes[labelled:]
    return img, boxes


def photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour, light and camera augmentation of a uint8 BGR image."""
    if rng.random() < 0.6:  # hue rotation
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
        if rng.random() < 0.5:
            hsv[..., 1] = np.clip(hsv[..., 1].astype(np.float32) * rng.uniform(0.3, 1.4), 0, 255).astype(np.uint8)
        img = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.5:
        img = np.ascontiguousarray(img[..., rng.permutation(3)])
    if rng.random() < 0.2:
        img = 255 - img
    if rng.random() < 0.1:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    x = img.astype(np.float32)
    x = x * rng.uniform(0.5, 1.4) + rng.uniform(-40, 40)
    if rng.random() < 0.4:  # shading across the table
        t = np.linspace(-1, 1, SIZE, dtype=np.float32)
        a = rng.uniform(0, 2 * math.pi)
        ramp = t[None, :] * math.cos(a) + t[:, None] * math.sin(a)
        x *= (1 + ramp * rng.uniform(0.1, 0.45))[..., None]
    if rng.random() < 0.3:  # glare spots
        for _ in range(rng.integers(1, 4)):
            spot = np.zeros((SIZE, SIZE), np.float32)
            cv2.circle(spot, tuple(int(v) for v in rng.integers(0, SIZE, 2)), int(rng.uniform(2, 25)), 1.0, -1)
            x += cv2.GaussianBlur(spot, (0, 0), rng.uniform(1, 6))[..., None] * rng.uniform(60, 200)
    x = np.clip(x, 0, 255)
    if rng.random() < 0.3:
        x = 255 * (x / 255) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.35:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.4, 1.5))
    if rng.random() < 0.4:
        x += rng.normal(0, rng.uniform(2, 12), x.shape).astype(np.float32)
    img = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return img


IGNORED_HEAT = 0.999
"""The heat target under a box that may be a die the labels leave out: not 1, so no positive, and near
enough to it that the focal loss's negative weight (1 - heat) ** 4 is nil there."""


def targets(boxes: np.ndarray, unlabelled: np.ndarray | None = None):
    """CenterNet targets for boxes (n, 4) in a SIZE image: heat (1, g, g), side/offset (3, g, g), mask (g, g);
    the cells within ``unlabelled`` boxes (m, 4) are neither positives nor negatives (:data:`IGNORED_HEAT`)."""
    g = SIZE // STRIDE
    heat = np.zeros((g, g), np.float32)
    for x0, y0, x1, y1 in (unlabelled if unlabelled is not None else ()):
        c0, r0 = max(0, int(x0 // STRIDE)), max(0, int(y0 // STRIDE))
        c1, r1 = min(g, int(math.ceil(x1 / STRIDE))), min(g, int(math.ceil(y1 / STRIDE)))
        heat[r0:r1, c0:c1] = IGNORED_HEAT
    reg = np.zeros((3, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2 / STRIDE - 0.5, (y0 + y1) / 2 / STRIDE - 0.5
        if not (0 <= cx < g - 0.5 and 0 <= cy < g - 0.5):
            continue
        side = math.sqrt(max(1.0, (x1 - x0) * (y1 - y0)))
        sigma = max(0.6, 0.15 * side / STRIDE)
        heat = np.maximum(heat, np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma * sigma)))
        ix, iy = int(round(cx)), int(round(cy))
        ix, iy = min(ix, g - 1), min(iy, g - 1)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(side / STRIDE), cx - ix, cy - iy)
        mask[iy, ix] = 1.0
    return heat[None], reg, mask


# Scenes (--scenes, --closeups): vision.training.dice_clusters.make_image on its 640 px canvas, scaled to SIZE.
# Die sides on the canvas for a SIZE-px sample of 9-70 px dice (touching clusters or apart), and for a
# close-up of one die of 70-126 px: bigger than any die of the other samples, so that the pips of a die
# that fills much of the frame are learnt as no die (at the 320 px level such dice showed a box per pip).
SCENE_SIDES, SCENE_DICE = (30.0, 233.0), (1, 12)
CLOSEUP_SIDES = (233.0, 420.0)
# Game tables (--game-tables) drawn once per training run (each takes ~0.2 s to render) and reused.
GAME_TABLES = 120


def scene(cuts: list, rng: np.random.Generator, closeup: bool = False, trays: float = 0.0,
          tables: list | None = None, game_tables: float = 0.0):
    """A :func:`vision.training.dice_clusters.make_image` table scaled to SIZE x SIZE: (image, boxes (n, 4)).
    ``cuts``: DieCut list (cut-out and rendered dice). ``closeup``: one die of CLOSEUP_SIDES; otherwise
    the dice lie in a tray with probability ``trays``, or on one of ``tables`` (game tables of CANVAS
    size), turned by a multiple of 90 degrees and perhaps mirrored, with probability ``game_tables``."""
    from vision.training.dice_clusters import CANVAS, make_image

    sides, dice = (CLOSEUP_SIDES, (1, 1)) if closeup else (SCENE_SIDES, SCENE_DICE)
    table = None
    if not closeup and tables and game_tables and rng.random() < game_tables:
        table = np.rot90(tables[int(rng.integers(len(tables)))], int(rng.integers(4)))
        table = np.ascontiguousarray(table[:, ::-1] if rng.random() < 0.5 else table)
    while True:
        try:
            made = make_image(cuts, rng, touching=bool(rng.random() < 0.5), sides=sides, dice=dice,
                              tray=not closeup and bool(trays) and bool(rng.random() < trays), table=table)
            break
        except ValueError:  # that many dice of that size do not fit: draw again
            dice = (1, max(1, dice[1] // 2))
    k = SIZE / max(CANVAS)
    img = cv2.resize(made.image, (SIZE, SIZE), interpolation=cv2.INTER_AREA)
    return img, made.boxes * np.float32(k)


def sample(photos: list[Photo], cuts: list[np.ndarray], rng: np.random.Generator,
           scene_cuts: list | None = None, scenes: float = 0.0, closeups: float = 0.0,
           closeup_cuts: list | None = None, trays: float = 0.0, tables: list | None = None,
           game_tables: float = 0.0, tilt: float = 0.0, rune: list | None = None, rune_fraction: float = 0.0,
           max_side: float = 64.0, hard: float = 0.0):
    """One training sample: (3, SIZE, SIZE) float32 input, heat, reg, mask. With ``scene_cuts``, a
    fraction ``scenes`` of the samples are :func:`scene` tables and ``closeups`` close-ups (of
    ``closeup_cuts``, or ``scene_cuts`` when None); of the rest, half are warped photos and half
    composites. ``trays``: the fraction of the scenes with their dice in a tray; ``game_tables``: the
    fraction on one of ``tables`` (see :func:`scene`); ``tilt``: the fraction of the warped photos first seen
    by a tilted camera (:func:`warp_photo`); ``rune_fraction`` of all samples are photos of ``rune`` warped
    alike; ``max_side``: the largest median die side (px) of a warped photo; ``hard``: the fraction of all
    samples on which 1-4 things that are not dice (:func:`with_hard_negatives`) are laid beside the dice."""
    if rune and rng.random() < rune_fraction:
        img, boxes, *unlabelled = warp_photo(rune[rng.integers(len(rune))], rng, tilt, max_side)
        if hard and rng.random() < hard:
            img = with_hard_negatives(img, np.concatenate([boxes, *unlabelled]), rng)
        img = photometric(img, rng)
        heat, reg, mask = targets(boxes, unlabelled[0] if unlabelled else None)
        return normalise(img).transpose(2, 0, 1), heat, reg, mask
    r = rng.random()
    if scene_cuts and r < closeups:
        img, boxes = scene(closeup_cuts or scene_cuts, rng, closeup=True)
    elif scene_cuts and r < closeups + scenes:
        img, boxes = scene(scene_cuts, rng, trays=trays, tables=tables, game_tables=game_tables)
    elif rng.random() < 0.5:
        ph = photos[rng.integers(len(photos))]
        img, boxes = warp_photo(ph, rng, tilt, max_side)
    else:
        img, boxes = composite(cuts, rng)
    if hard and rng.random() < hard:
        img = with_hard_negatives(img, boxes, rng)
    img = photometric(img, rng)
    heat, reg, mask = targets(boxes)
    return normalise(img).transpose(2, 0, 1), heat, reg, mask


def with_hard_negatives(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``img`` (uint8 BGR) with 1-4 rings, coins, pawns, meeples, cards, hands, keys or buttons
    (:func:`vision.training.dice_hard_negatives.lay_objects`) laid where no die of ``boxes`` (n, 4) is, at
    the size of the sample's dice (their median side; 9-70 px where it has none): issue 49's hard negatives,
    which the detector must learn are not dice."""
    from vision.training.dice_hard_negatives import lay_objects

    sides = np.sqrt(np.maximum(0, (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])))
    die = float(np.median(sides)) if len(sides) else math.exp(rng.uniform(math.log(9), math.log(70)))
    out = img.astype(np.float32)
    lay_objects(out, boxes, rng, int(rng.integers(1, 5)), die)
    return np.clip(out, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------------------------- model

def build_net():
    """The detector: plain 3x3 convolutions down to stride 32 and a top-down path back to stride 4
    (16-24-32-48-64 channels, ~120 k weights, ~0.1 GMAC at 320x320)."""
    import torch
    import torch.nn as nn

    def conv(cin, cout, stride=1):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.s4 = nn.Sequential(conv(3, 16, 2), conv(16, 16, 2), conv(16, 16))
            self.s8 = nn.Sequential(conv(16, 32, 2), conv(32, 32))
            self.s16 = nn.Sequential(conv(32, 48, 2), conv(48, 48))
            self.s32 = nn.Sequential(conv(48, 64, 2), conv(64, 64))
            self.lat32, self.lat16, self.lat8 = nn.Conv2d(64, 48, 1), nn.Conv2d(48, 32, 1), nn.Conv2d(32, 16, 1)
            self.mix16, self.mix8, self.mix4 = conv(48, 48), conv(32, 32), conv(16, 16)
            self.head = nn.Conv2d(16, 4, 1)
            with torch.no_grad():
                self.head.bias[:] = torch.tensor([-2.2, 1.5, 0.0, 0.0])
            self.up = nn.Upsample(scale_factor=2, mode="nearest")

        def forward(self, x):
            f4 = self.s4(x)
            f8 = self.s8(f4)
            f16 = self.s16(f8)
            f32 = self.s32(f16)
            p16 = self.mix16(f16 + self.up(self.lat32(f32)))
            p8 = self.mix8(f8 + self.up(self.lat16(p16)))
            p4 = self.mix4(f4 + self.up(self.lat8(p8)))
            out = self.head(p4)
            return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], 1)

    return Net()


def loss_fn(out, heat, reg, mask):
    """CenterNet focal loss on the heat map + L1 on log side and offset at centres."""
    import torch

    p = out[:, :1].clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg_w = (1 - heat) ** 4
    pos_loss = (torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = (torch.log(1 - p) * p ** 2 * neg_w * (1 - pos)).sum()
    n = pos.sum().clamp(min=1)
    focal = -(pos_loss + neg_loss) / n
    m = mask[:, None]
    l1 = ((out[:, 1:] - reg).abs() * m).sum() / (m.sum().clamp(min=1))
    return focal + l1, focal, l1


# ------------------------------------------------------------------------------------------ evaluate

def match_figures(detector: DieDetector, photos) -> dict:
    """Recall (labelled dice whose box holds a detection centre) and precision over photos."""
    n_label = n_det = hit = 0
    for ph in photos:
        dets = detector.detect(ph.image)
        used = set()
        good = 0
        for d in dets:
            cx, cy = (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2
            for j, (x0, y0, x1, y1) in enumerate(ph.boxes):
                if j not in used and x0 <= cx <= x1 and y0 <= cy <= y1:
                    used.add(j)
                    good += 1
                    break
        n_label += len(ph.boxes)
        n_det += len(dets)
        hit += good
    return {"photos": len(photos), "dice": n_label, "detections": n_det,
            "recall": round(hit / max(1, n_label), 4), "precision": round(hit / max(1, n_det), 4)}


def manifest_figures(detector: DieDetector, split=None) -> dict:
    """The manifest's figures (:func:`match_figures`) of ``detector`` on the byler held-out 20 %, the
    bundled photos and the first 40 training photos. ``split``: (train, heldout, bundled) of
    :func:`split_photos` (default: ``split_photos(0)``). Needs ``../shared/data/dice``."""
    train_p, held_p, bundled_p = split or split_photos(0)
    return {"byler_heldout_20pct": match_figures(detector, [Photo(*p) for p in held_p]),
            "bundled_photos": match_figures(detector, [Photo(*p) for p in bundled_p]),
            "train_photos": match_figures(detector, [Photo(*p) for p in train_p[:40]])}


def init_from_onnx(net, path: Path) -> None:
    """Start ``net`` (:func:`build_net`) from an exported detector (``detect.onnx``), for a round whose
    checkpoint was not kept: the export folded each batch norm into its convolution, so each 3x3
    convolution takes the folded weights and its batch norm starts as the identity plus the folded bias
    (eval mode then gives the exported network's output exactly; training re-learns the statistics).
    Raises ValueError when the file's weights do not fit the network."""
    import onnx
    import torch
    from onnx import numpy_helper

    weights = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}
    folded = [name for name in weights if name.startswith("onnx::Conv_")]
    folded.sort(key=lambda name: int(name.rsplit("_", 1)[1]))
    blocks = [m for m in net.modules() if isinstance(m, torch.nn.Sequential) and len(m) == 3
              and isinstance(m[0], torch.nn.Conv2d)]
    if len(folded) != 2 * len(blocks):
        raise ValueError(f"{path}: {len(folded) // 2} folded convolutions, the network has {len(blocks)}")
    state = net.state_dict()
    with torch.no_grad():
        for block, w_name, b_name in zip(blocks, folded[0::2], folded[1::2]):
            conv, bn = block[0], block[1]
            conv.weight.copy_(torch.from_numpy(weights[w_name]))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(weights[b_name]))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for name in ("lat32", "lat16", "lat8", "head"):
            for part in ("weight", "bias"):
                state[f"{name}.{part}"].copy_(torch.from_numpy(weights[f"{name}.{part}"]))


def export(net, out_dir: Path) -> Path:
    import torch

    path = out_dir / MODEL_FILE
    net.eval()
    torch.onnx.export(net, torch.zeros(1, 3, 320, 320), str(path), input_names=["image"], output_names=["maps"],
                      dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}},
                      opset_version=13, dynamo=False)
    return path


# ---------------------------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.train_dice_detect", description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("heldout", "all"), default="heldout")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="/tmp/dice_detect")
    parser.add_argument("--resume", default=None, help="checkpoint (detect.pt) to continue from")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=4e-3)
    parser.add_argument("--history", default="", help="how the checkpoint resumed from was made (for the manifest)")
    parser.add_argument("--init", default=None,
                        help="checkpoint (detect.pt) or exported detector (detect.onnx) whose weights start a new "
                             "schedule (fine-tuning)")
    parser.add_argument("--scenes", type=float, default=0.0, metavar="F",
                        help="fraction of samples that are vision.training.dice_clusters tables (touching or apart)")
    parser.add_argument("--closeups", type=float, default=0.0, metavar="F",
                        help="fraction of samples that are close-ups of one die of 70-126 px")
    parser.add_argument("--rendered", type=float, default=0.0, metavar="F",
                        help="fraction of the scenes' dice drawn by vision.training.dice_render, 0-0.9")
    parser.add_argument("--trays", type=float, default=0.0, metavar="F",
                        help="fraction of the scenes whose dice lie in a tray (vision.training.dice_clusters.draw_tray)")
    parser.add_argument("--game-tables", type=float, default=0.0, metavar="F",
                        help="fraction of the scenes on a rendered game table (vision.training.dice_game_tables), 0-1")
    parser.add_argument("--rune55", type=float, default=0.0, metavar="F",
                        help="fraction of the samples that are rune55 photos (every group but --leave-out)")
    parser.add_argument("--leave-out", default="circular_cam_gray", metavar="GROUP",
                        help="the rune55 group never trained on (and its near-copies in the others)")
    parser.add_argument("--max-side", type=float, default=64.0, metavar="PX",
                        help="largest median die side (px of the 192 px sample) of a warped photo (default 64)")
    parser.add_argument("--unlabelled", action="store_true",
                        help="with --rune55: the shipped detector's sure boxes no label explains are not negatives")
    parser.add_argument("--hard", type=float, default=0.0, metavar="F",
                        help="fraction of the samples with things that are not dice laid beside the dice (0-1)")
    parser.add_argument("--tilt", type=float, default=0.0, metavar="P",
                        help="probability that a warped photo is first seen by a camera tilted 0-35 degrees")
    args = parser.parse_args(argv)
    import torch

    from vision.training.train_dice import SHARED_DICE

    if not SHARED_DICE.is_dir():
        print(f"no training data: {SHARED_DICE} is absent", file=sys.stderr)
        return 2
    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    t0 = time.time()
    train_p, held_p, bundled_p = split_photos(0)
    if args.split == "all":
        train_p = train_p + held_p
    photos = [Photo(*p) for p in train_p]
    cuts = cutouts(photos)
    scene_cuts = closeup_cuts = None
    if args.scenes or args.closeups:
        from vision.training.dice_clusters import training_cutouts
        from vision.training.dice_render import mixed_cuts

        if args.split != "heldout":
            parser.error("--scenes/--closeups use the training cut-outs of the heldout split only")
        scene_cuts, closeup_cuts = mixed_cuts(training_cutouts(), args.rendered, args.seed)
    tables = None
    if args.game_tables:
        from vision.training.dice_clusters import CANVAS
        from vision.training.dice_game_tables import game_table

        table_rng = np.random.default_rng([args.seed, 1])  # its own generator: the other samples stay as they were
        tables = [game_table(table_rng, (CANVAS[1], CANVAS[0])) for _ in range(GAME_TABLES)]
    rune, rune_taken = [], None
    if args.rune55:
        from vision.dice.reader import shipped_reader

        detector = shipped_reader().networks.detector if args.unlabelled else None
        rune, rune_taken = rune55_photos(args.leave_out, detector)
        print(f"rune55: {rune_taken}", flush=True)
    rng = np.random.default_rng(args.seed)
    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    start = 0
    frozen_norms = False
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.resume:
        ck = torch.load(args.resume, weights_only=False)
        net.load_state_dict(ck["net"])
        opt.load_state_dict(ck["opt"])
        start = ck["step"]
        rng = np.random.default_rng([args.seed, start])
    elif args.init and args.init.endswith(".onnx"):
        init_from_onnx(net, Path(args.init))
        frozen_norms = True
    elif args.init:
        net.load_state_dict(torch.load(args.init, weights_only=False)["net"])
    n_params = sum(p.numel() for p in net.parameters())
    print(f"{len(photos)} photos, {len(cuts)} cut-outs, {n_params} weights", flush=True)
    run = [0.0, 0.0, 0]
    for step in range(start, args.steps):
        lr = args.lr * 0.5 * (1 + math.cos(math.pi * step / args.steps)) * min(1.0, (step + 1) / 100)
        for g in opt.param_groups:
            g["lr"] = lr
        batch = [sample(photos, cuts, rng, scene_cuts, args.scenes, args.closeups, closeup_cuts, args.trays,
                        tables, args.game_tables, args.tilt, rune, args.rune55, args.max_side, args.hard)
                 for _ in range(args.batch)]
        x, heat, reg, mask = (torch.from_numpy(np.stack(v)) for v in zip(*batch))
        net.train()
        if frozen_norms:  # started from an export: its folded statistics stay (batch norm as fixed affines)
            for m in net.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
        loss, focal, l1 = loss_fn(net(x), heat, reg, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        run[0] += float(focal.detach())
        run[1] += float(l1.detach())
        run[2] += 1
        if (step + 1) % 50 == 0:
            print(f"step {step + 1}/{args.steps} lr {lr:.5f} focal {run[0] / run[2]:.4f} l1 {run[1] / run[2]:.4f} "
                  f"{time.time() - t0:.0f} s", flush=True)
            run = [0.0, 0.0, 0]
        if (step + 1) % 50 == 0 or step + 1 == args.steps:
            torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "step": step + 1}, out / "detect.pt")
            export(net, out)
    path = export(net, out)
    from vision.dice.reader import shipped_reader

    figures = manifest_figures(DieDetector(out / MODEL_FILE, shipped_reader().params), (train_p, held_p, bundled_p))
    data = path.read_bytes()
    manifest = {
        "model": MODEL_FILE, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "weights": n_params,
        "rune55": rune_taken,
        "command": command_line(parser, args, always=("split", "steps", "seed", "batch", "lr"),
                                leave_out=("out", "resume", "history")),
        "resumed_from_step": start, "history": args.history,
        "seed": args.seed, "split": args.split, "training_photos": len(photos),
        "input": "(1, 3, H, W) float32, H and W multiples of 32, vision.dice.detect.network_input",
        "output": "(1, 4, H/4, W/4): sigmoid centre heat, log(side/4), dx, dy",
        "data": "../shared/data/dice/byler_d6 (BSD-3-Clause, (c) 2019 Nell Byler) without the 14 bundled photos"
                + ("" if args.split == "all" else ", 80 % of those photos (seed 0, the split of vision.training.train_dice)")
                + ("" if not args.rune55 else f"; rune55 (CC BY 4.0, Rune55) but {args.leave_out} and its near-copies"),
        "figures": figures, "seconds": round(time.time() - t0, 1),
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    print(json.dumps(figures), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
