"""Train a die-face classifier (:mod:`vision.training.dice_classifier`) from ``../shared/data/dice`` (development only).

``python -m vision.training.train_dice [--split heldout|all] [--out DIR] [--epochs N] [--seed S] [--split-seed S] [--width W]
[--deep] [--jitter J] [--detector DIR] [--second] [--fold K/N] [--composites N] [--rendered F] [--closeups F]
[--trays F] [--game-tables F] [--pip-negatives F] [--glare F] [--noise P]``

Needs torch (``.venv/bin/pip install torch==2.13.0``) and onnx for the export; neither is a run-time
dependency. ``--split all`` (the shipped model) trains on ``byler_d6`` (BSD-3-Clause) except the 14
photos bundled in ``assets/dice_photos`` (so the tests' photos stay unseen). ``pi_cam_tray`` and
``ivory_grid`` are never trained on (their licences allow measuring only) and stay wholly held-out
sets: other tables, cameras and dice. ``--split heldout`` trains on 80 % of byler's remaining photos
(by photo, seed ``--split-seed``, by default ``--seed``) and reports crop accuracy on the other 20 % too.

Training samples are crops made by :func:`vision.dice.networks.face_crop` from the labelled boxes:
positives with jitter (centre +-6 % of the side, scale 0.88-1.12, any rotation), and class-0 negatives:
crops centred half a die or more off a die (pieces of one die, the gap between two), crops of a piece of
a face (scale 0.45-0.6) and random table patches away from every die. Colour augmentation per photo:
channel order shuffled, a third of photos inverted (dark dice with light pips), some blurred. The net
is 4 conv layers ((8, 16, 32, 48) times ``--width`` channels) and a linear layer: ~20 k weights and
~1 MFLOP a crop at width 1, ~80 k and ~4 MFLOP at width 2; ``--deep`` adds a second conv layer to the
last two stages (8x8 and 4x4 maps): ~200 k weights and ~7.5 MFLOP a crop at width 2 (reader v3's shipped
classifiers since the ninth round; 0.24 instead of 0.17 ms a crop through cv2.dnn, one thread).
``--jitter`` widens the positives' centre and scale jitter (1.7 for the shipped model). ``--detector DIR``
adds crops cut around the boxes of the die detector in DIR (:func:`detector_samples`: its own boxes, its
false detections as negatives), so that reader v3's classifier sees what the detector gives it; it then
writes ``face32_det.onnx`` and ``face32_det_manifest.json`` (reader v3's classifier) instead, or with
``--second`` ``face32_det_b.onnx`` and ``face32_det_b_manifest.json`` (reader v3's second classifier: the
same command with another ``--seed`` and ``--split-seed 0``, see the setting ``second_opinion`` of
:mod:`vision.dice.params`). Writes ``face32.onnx`` and ``manifest.json`` (sizes, sha256, the command,
seed, training figures) into ``--out``. ``--fold K/N`` leaves fold K of N of the training
photos out (:func:`fold_split`): the N models give out-of-fold classifier outputs on every training photo,
on which reader v3's flag rule is calibrated.
``--composites N`` adds crops of N synthetic tables of the training dice (:func:`composite_samples`;
``--rendered F``: that fraction of their dice drawn by :mod:`vision.training.dice_render`; ``--closeups F``: that
fraction of the images close-ups of one big die; ``--trays F``: that fraction of the others with the
dice in a tray; ``--game-tables F``: that fraction of the others with the dice on a rendered table of our
own games, cards or a Ludo board, :mod:`vision.training.dice_game_tables`), ``--pip-negatives F``
makes that fraction of the negatives close-ups of one pip (see :func:`image_samples`), ``--glare F`` draws
a specular streak across that fraction of the positives (:func:`with_glare`), ``--noise P`` adds camera
noise to a colour variant with probability P (:func:`_colour_variants`); figures of the models they gave:
the sixth to twelfth rounds of ``git show b509d2c:assets/dice_model/README.md`` (the history the model
card left).
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

from vision.dice.eval import load_set
from vision.dice.networks import face_crop, model_dir
from vision.training.command import command_line
from vision.training.dice_classifier import (
    BOX_MANIFEST_FILE,
    BOX_MODEL_FILE,
    CROP_SIZE,
    MANIFEST_FILE,
    MODEL_FILE,
    SECOND_MANIFEST_FILE,
    SECOND_MODEL_FILE,
)

SHARED_DICE = Path(__file__).resolve().parents[3] / "shared" / "data" / "dice"
BUNDLED = Path(__file__).resolve().parents[2] / "assets" / "dice_photos"


def _photos(set_name: str):
    images, _ = load_set(SHARED_DICE / set_name)
    return [(SHARED_DICE / set_name / it.file, it) for it in images if it.boxes]


# Camera noise drawn on a colour variant (_colour_variants, ``noise``): Gaussian, independent per pixel
# and channel, of a standard deviation drawn from this range (grey levels of the image the crops are cut
# from): a camera at high gain in dim light (vision.training.dice_conditions' "noise" is sigma 10, "dim" sigma 4).
NOISE_SIGMA = (2.0, 12.0)


def _colour_variants(image: np.ndarray, rng: np.random.Generator, n: int, noise: float = 0.0) -> list[np.ndarray]:
    """``image`` and n - 1 variants of it: channels shuffled, sometimes inverted, blurred or under another
    gain; with probability ``noise`` (0-1) a variant also gets camera noise (NOISE_SIGMA). The generator
    is drawn from for the noise only when ``noise`` is above 0, so older commands train as they did."""
    out = [image]
    for _ in range(n - 1):
        v = image[:, :, rng.permutation(3)]
        if rng.random() < 0.33:
            v = 255 - v
        if rng.random() < 0.3:
            v = cv2.GaussianBlur(v, (0, 0), rng.uniform(0.5, 1.2))
        if rng.random() < 0.5:
            gain = rng.uniform(0.6, 1.3)
            v = np.clip(v.astype(np.float32) * gain + rng.uniform(-30, 30), 0, 255).astype(np.uint8)
        if noise and rng.random() < noise:
            sigma = rng.uniform(*NOISE_SIGMA)
            v = np.clip(v.astype(np.float32) + rng.normal(0.0, sigma, v.shape), 0, 255).astype(np.uint8)
        out.append(v)
    return out


def make_samples(photos, rng: np.random.Generator, pos_per_die: int, neg_per_die: int, variants: int = 3,
                 jitter: float = 1.0, pip_negatives: float = 0.0, glare: float = 0.0, noise: float = 0.0):
    """Crops (n, 3, 32, 32) float32 and labels (n,) int64 (0 = not a die face, 1-6 the value) from
    ``photos`` ((path, LabelledImage) pairs, :func:`_photos`); see :func:`image_samples`."""
    xs, ys = [], []
    for path, item in photos:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None:
            image_samples(image, list(item.boxes), rng, pos_per_die, neg_per_die, variants, jitter, xs, ys,
                          pip_negatives, glare, noise)
    return np.stack(xs).astype(np.float32), np.array(ys, np.int64)


def image_samples(image: np.ndarray, boxes: list, rng: np.random.Generator, pos_per_die: int, neg_per_die: int,
                  variants: int, jitter: float, xs: list, ys: list, pip_negatives: float = 0.0,
                  glare: float = 0.0, noise: float = 0.0) -> None:
    """Append crops (3, 32, 32) to ``xs`` and their labels to ``ys`` for one BGR image and its labelled
    ``boxes`` ((value 1-6, (x0, y0, x1, y1)) pairs, pixels): ``pos_per_die`` positives a die and
    ``neg_per_die`` class-0 negatives spread over ``variants`` colour variants (:func:`_colour_variants`).

    ``jitter`` multiplies the positives' centre shift (+-6 %) and scale range (0.88-1.12) (1.7 for
    crops around the die detector's boxes, which are less tight than the labels). ``pip_negatives``: the
    fraction of negatives that are close-ups of one pip lattice position of a die (scale 0.2-0.35 of its
    side, 0.27 of the side off centre in x and y: a pip or the blank face between them; the die
    detector's fine level puts boxes on the pips of a close-up die, and a pip alone is no die face).
    ``glare``: the fraction of positives cut with a specular streak across the die (:func:`with_glare`);
    ``noise``: the probability that a colour variant has camera noise (:func:`_colour_variants`)."""
    centres = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for _, b in boxes])
    sides = np.array([max(b[2] - b[0], b[3] - b[1]) for _, b in boxes])
    h, w = image.shape[:2]
    for img in _colour_variants(image, rng, variants, noise):
        for (value, box), side in zip(boxes, sides):
            for _ in range(max(1, pos_per_die // variants)):
                src, src_box = (with_glare(img, box, rng) if glare and rng.random() < glare else (img, box))
                xs.append(face_crop(src, src_box, centre_shift=rng.uniform(-0.06, 0.06, 2) * jitter,
                                    scale=1.0 + (rng.uniform(0.88, 1.12) - 1.0) * jitter,
                                    angle=rng.uniform(0, 360)))
                ys.append(value)
            for _ in range(max(1, neg_per_die // variants)):
                if pip_negatives and rng.random() < pip_negatives:
                    lattice = rng.integers(-1, 2, 2) * 0.27 + rng.uniform(-0.03, 0.03, 2)
                    xs.append(face_crop(img, box, centre_shift=lattice, scale=rng.uniform(0.2, 0.35),
                                        angle=rng.uniform(0, 360)))
                    ys.append(0)
                    continue
                kind = rng.random()
                if kind < 0.45:  # off-centre: a piece of this die and its neighbours
                    a = rng.uniform(0, 2 * math.pi)
                    r = rng.uniform(0.45, 0.9)
                    shift = (r * math.cos(a) / 1.2, r * math.sin(a) / 1.2)
                    c = np.array(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)) + np.array(shift) * side * 1.2
                    if np.min(np.hypot(*(centres - c).T) / sides) < 0.3:
                        continue  # landed on another die
                    xs.append(face_crop(img, box, centre_shift=shift, scale=rng.uniform(0.85, 1.2),
                                        angle=rng.uniform(0, 360)))
                elif kind < 0.6:  # a piece of the face (the patch between pips)
                    xs.append(face_crop(img, box, centre_shift=rng.uniform(-0.15, 0.15, 2),
                                        scale=rng.uniform(0.4, 0.6), angle=rng.uniform(0, 360)))
                else:  # table
                    s = side * rng.uniform(0.8, 1.3)
                    c = np.array((rng.uniform(0, w), rng.uniform(0, h)))
                    if np.min(np.hypot(*(centres - c).T) / sides) < 1.0:
                        continue
                    xs.append(face_crop(img, (c[0] - s / 2, c[1] - s / 2, c[0] + s / 2, c[1] + s / 2),
                                        angle=rng.uniform(0, 360)))
                ys.append(0)


# Specular streaks (with_glare): half-length and half-width (fractions of the die's side), offset of the
# centre from the die's centre, and opacity. A glossy die under a lamp shows a bright streak or bar across
# its face (byler_d6's purple and red dice); the streak must not read as a pip, nor hide the value.
GLARE_LENGTH, GLARE_WIDTH, GLARE_OFFSET, GLARE_ALPHA = (0.15, 0.45), (0.03, 0.06), 0.25, (0.4, 0.9)


def with_glare(image: np.ndarray, box, rng: np.random.Generator) -> tuple[np.ndarray, tuple]:
    """A (patch, box) pair: a copy of the BGR uint8 ``image`` around ``box`` (x0, y0, x1, y1; one side of
    margin) with a blurred white elliptic streak (GLARE_*: any angle, near the die's centre) blended in, and
    the box in the patch's pixels; :func:`vision.dice.networks.face_crop` cuts the same crop from it."""
    x0, y0, x1, y1 = (float(v) for v in box)
    side = max(x1 - x0, y1 - y0, 2.0)
    h, w = image.shape[:2]
    X0, Y0 = max(0, int(x0 - side)), max(0, int(y0 - side))
    X1, Y1 = min(w, int(math.ceil(x1 + side))), min(h, int(math.ceil(y1 + side)))
    patch = image[Y0:Y1, X0:X1].astype(np.float32)
    centre = np.array(((x0 + x1) / 2 - X0, (y0 + y1) / 2 - Y0))
    centre += rng.uniform(-GLARE_OFFSET, GLARE_OFFSET, 2) * side
    axes = (max(1, round(rng.uniform(*GLARE_LENGTH) * side)), max(1, round(rng.uniform(*GLARE_WIDTH) * side)))
    streak = np.zeros(patch.shape[:2], np.float32)
    cv2.ellipse(streak, (round(centre[0]), round(centre[1])), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    streak = cv2.GaussianBlur(streak, (0, 0), max(0.5, axes[1] / 2))[..., None] * rng.uniform(*GLARE_ALPHA)
    patch = patch * (1.0 - streak) + 255.0 * streak
    return patch.clip(0, 255).astype(np.uint8), (x0 - X0, y0 - Y0, x1 - X0, y1 - Y0)


def samples_detector(folder: Path):
    """The die detector in ``folder`` (its ``detect.onnx``) with the shipped settings but for its peak
    threshold: the reader's ``report_score`` (weaker detections are never read), as the classifier's
    detector crops were cut before the settings moved to ``params.json``."""
    from dataclasses import replace

    from vision.dice.detect import DieDetector
    from vision.dice.networks import DETECTOR_FILE
    from vision.dice.reader import shipped_reader

    params = shipped_reader().params
    return DieDetector(Path(folder) / DETECTOR_FILE, replace(params, detect_min=params.report_score))


def detector_samples(photos, detector, rng: np.random.Generator, per_box: int = 4, variants: int = 3,
                     noise: float = 0.0):
    """Crops (n, 3, 32, 32) float32 and labels (n,) int64 cut around the die detector's own boxes on
    ``photos`` ((path, LabelledImage) pairs), so that the classifier learns the crops reader v3 gives it
    (:mod:`vision.dice.reader`); see :func:`detector_image_samples`."""
    xs, ys = [], []
    for path, item in photos:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None:
            detector_image_samples(image, list(item.boxes), detector, rng, per_box, variants, xs, ys, noise)
    return np.stack(xs).astype(np.float32), np.array(ys, np.int64)


def detector_image_samples(image: np.ndarray, boxes: list, detector, rng: np.random.Generator, per_box: int,
                           variants: int, xs: list, ys: list, noise: float = 0.0) -> None:
    """Append crops around the die detector's boxes on one BGR image to ``xs`` and their labels to ``ys``.

    The image is scaled as :func:`vision.dice.reader.read_dice` scales a frame (:func:`vision.dice.reader.work_image`,
    long side ``work_max_side``) and run through ``detector.detect_with_dropped`` (a detector of
    :func:`samples_detector`: peaks from the reader's ``report_score``); every kept box and member is
    matched to the labelled box ((value, (x0, y0, x1, y1)) of ``boxes``) that holds its centre (the
    nearest one). A matched box of 0.6-1.6 times the labelled side is a positive with the label's value;
    an unmatched box (tray corners, stains, side faces, pips) or a matched one far off in size (a piece
    of a die, a cluster) is a class-0 negative. ``per_box`` crops a box (small centre +-4 % and scale
    +-5 % jitter, any rotation) spread over ``variants`` colour variants of the image (``noise``: see
    :func:`_colour_variants`)."""
    from vision.dice.reader import shipped_reader, work_image

    work, s = work_image(image, shipped_reader().params.work_max_side)
    found = detector.detect_with_dropped(work)[0]
    dets = [d for d, ms in found] + [m for _, ms in found for m in ms]
    labelled = []
    for d in dets:
        x0, y0, x1, y1 = (c / s for c in d.box)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        value = 0
        best = None
        for v, b in boxes:
            if b[0] <= cx <= b[2] and b[1] <= cy <= b[3]:
                dist = math.hypot(cx - (b[0] + b[2]) / 2, cy - (b[1] + b[3]) / 2)
                if best is None or dist < best[0]:
                    best = (dist, v, max(b[2] - b[0], b[3] - b[1]))
        if best is not None and 0.6 <= (x1 - x0) / best[2] <= 1.6:
            value = best[1]
        labelled.append(((x0, y0, x1, y1), value))
    for img in _colour_variants(image, rng, variants, noise):
        for box, value in labelled:
            for _ in range(max(1, per_box // variants)):
                xs.append(face_crop(img, box, centre_shift=rng.uniform(-0.04, 0.04, 2),
                                    scale=rng.uniform(0.95, 1.05), angle=rng.uniform(0, 360)))
                ys.append(value)


# Close-up composites (composite_samples, closeups): one die of this side range (px on the 640 px
# canvas: from a die the 320 px detector level still finds whole to one filling 40 % of the frame).
CLOSEUP_SIDES, CLOSEUP_DICE = (90.0, 260.0), (1, 1)


def composite_samples(n_images: int, seed: int, detector=None, pos_per_die: int = 4, neg_per_die: int = 4,
                      jitter: float = 1.0, rendered: float = 0.0, pip_negatives: float = 0.0,
                      closeups: float = 0.0, trays: float = 0.0, cut_photos: list | None = None,
                      game_tables: float = 0.0, glare: float = 0.0, noise: float = 0.0):
    """Crops (n, 3, 32, 32) float32 and labels (n,) int64 from ``n_images`` synthetic tables of
    :func:`vision.training.dice_clusters.make_image` (byler's training dice cut along their outlines, pasted onto
    plain, gradient, cloth, wood and cluttered tables; half the images in touching clusters, half with
    every die alone; exact labels), generator seeded ``seed``: the tables and neighbours the photos alone
    never show. ``rendered``: the fraction of the dice that are drawn (:mod:`vision.training.dice_render`: any
    body and pip colour) instead of cut out. ``closeups``: the fraction of the images that are close-ups
    (one die of CLOSEUP_SIDES px: the detector's fine level then puts boxes on its
    pips, which :func:`detector_image_samples` labels "no die face"); ``trays``: the fraction of the
    other images whose dice lie in a dice tray (a box over a tray of dice is no die face); ``game_tables``:
    the fraction of those whose table is one of our games' (:func:`vision.training.dice_game_tables.game_table`:
    cards, a Ludo board, whose printed circles look like pips). Crops as
    :func:`image_samples` (two colour variants an image, ``pip_negatives``, ``glare``, ``noise``) and, with a ``detector``,
    :func:`detector_image_samples` (one crop a box). ``cut_photos``: the photos whose dice are cut out
    (default: the 149 training photos; a fold's photos for a fold model, so that the dice of the photos
    it leaves out stay unseen). Raises FileNotFoundError without ``../shared``."""
    from vision.training.dice_clusters import CANVAS, make_image, training_cutouts
    from vision.training.dice_render import mixed_cuts

    cuts, big = mixed_cuts(training_cutouts(cut_photos), rendered, seed, closeups=bool(closeups))
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    n_close = round(n_images * closeups)
    for i in range(n_images):
        if i < n_close:
            scene = make_image(big, rng, touching=False, sides=CLOSEUP_SIDES, dice=CLOSEUP_DICE)
        else:
            table = None
            if game_tables and rng.random() < game_tables:
                from vision.training.dice_game_tables import game_table

                table = game_table(rng, (CANVAS[1], CANVAS[0]))
            scene = make_image(cuts, rng, touching=bool(i % 2), tray=bool(trays) and rng.random() < trays,
                               table=table)
        boxes = [(int(v), tuple(float(c) for c in b)) for v, b in zip(scene.values, scene.boxes)]
        image_samples(scene.image, boxes, rng, pos_per_die, neg_per_die, 2, jitter, xs, ys, pip_negatives, glare,
                      noise)
        if detector is not None:
            detector_image_samples(scene.image, boxes, detector, rng, 1, 1, xs, ys)
    return np.stack(xs).astype(np.float32), np.array(ys, np.int64)


def plain_crops(photos) -> tuple[np.ndarray, np.ndarray]:
    """Un-jittered crops (n, 3, 32, 32) float32 of every labelled die of ``photos`` ((path, LabelledImage)
    pairs) and their values (n,) int64 (the held-out accuracy); (0, ...) arrays for none."""
    xs, ys = [], []
    for path, item in photos:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        for value, box in item.boxes:
            xs.append(face_crop(image, box))
            ys.append(value)
    if not xs:
        return np.zeros((0, 3, 32, 32), np.float32), np.zeros(0, np.int64)
    return np.stack(xs).astype(np.float32), np.array(ys, np.int64)


def build_net(width: float = 1.0, deep: bool = False, classes: int = 7):
    """The classifier: 4 conv layers of (8, 16, 32, 48) * width channels and a linear layer to ``classes``
    outputs (7: no die face and 1-6); ``deep`` adds a second conv layer to the last two stages (8x8 and
    4x4: about twice the multiply-adds)."""
    import torch.nn as nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU()]

    c = [round(n * width) for n in (8, 16, 32, 48)]
    extra3 = block(c[2], c[2]) if deep else []
    extra4 = block(c[3], c[3]) if deep else []
    return nn.Sequential(*block(3, c[0]), nn.MaxPool2d(2), *block(c[0], c[1]), nn.MaxPool2d(2),
                         *block(c[1], c[2]), *extra3, nn.MaxPool2d(2), *block(c[2], c[3]), *extra4,
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c[3], classes))


def train(x, y, epochs: int, seed: int, log=print, width: float = 1.0, deep: bool = False, classes: int = 7):
    """A net of :func:`build_net` trained on crops ``x`` (n, 3, 32, 32) float32 and classes ``y`` (n,) int64
    for ``epochs`` epochs (AdamW, one-cycle, batches of 256, half of them mirrored), seeded ``seed``."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    net = build_net(width, deep, classes)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    steps = epochs * math.ceil(len(x) / 256)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=6e-3, total_steps=steps)
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(x), generator=gen)
        total = correct = 0
        loss_sum = 0.0
        for i in range(0, len(x), 256):
            idx = order[i:i + 256]
            xb, yb = xt[idx], yt[idx]
            if torch.rand(1, generator=gen).item() < 0.5:  # faces read the same mirrored
                xb = xb.flip(3)
            out = net(xb)
            loss = torch.nn.functional.cross_entropy(out, yb, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += float(loss.detach()) * len(idx)
            correct += int((out.argmax(1) == yb).sum())
            total += len(idx)
        log(f"epoch {epoch + 1}/{epochs}: loss {loss_sum / total:.4f}, train accuracy {correct / total:.4f}")
    net.eval()
    return net


def accuracy(net, x, y) -> dict:
    import torch

    with torch.no_grad():
        p = torch.softmax(net(torch.from_numpy(x)), 1).numpy()
    pred = p.argmax(1)
    conf = p.max(1)
    sure = conf >= 0.9
    return {"crops": int(len(y)), "accuracy": round(float((pred == y).mean()), 4),
            "sure_fraction": round(float(sure.mean()), 4),
            "sure_accuracy": round(float((pred[sure] == y[sure]).mean()), 4) if sure.any() else None}


def export(net, out_dir: Path, model_file: str = MODEL_FILE) -> Path:
    import torch

    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / model_file
    dummy = torch.zeros(1, 3, CROP_SIZE, CROP_SIZE)
    torch.onnx.export(net, dummy, str(path), input_names=["crop"], output_names=["logits"],
                      dynamic_axes={"crop": {0: "n"}, "logits": {0: "n"}}, opset_version=13, dynamo=False)
    return path


def fold_split(photos: list, k: int, n: int, seed: int = 0) -> tuple[list, list]:
    """(kept, left_out): fold ``k`` (0 <= k < n) of ``n`` of ``photos`` left out, folds drawn by a fixed
    permutation (seed ``seed + 1000``). Raises ValueError for k outside 0..n-1."""
    if not 0 <= k < n:
        raise ValueError(f"fold {k} of {n}: k must be 0..{n - 1}")
    order = np.random.default_rng(seed + 1000).permutation(len(photos))
    out = set(int(i) for i in order[k::n])
    return [p for i, p in enumerate(photos) if i not in out], [p for i, p in enumerate(photos) if i in out]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.train_dice", description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("heldout", "all"), default="all")
    parser.add_argument("--out", default=None, help="output folder (default assets/dice_model for --split all)")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split-seed", type=int, default=None, metavar="S",
                        help="seed of the held-out split and of --fold's folds (default --seed): another --seed "
                             "then trains another model on the same photos")
    parser.add_argument("--width", type=float, default=1.0, help="channel multiplier (default 1)")
    parser.add_argument("--deep", action="store_true", help="a second conv layer in the last two stages")
    parser.add_argument("--jitter", type=float, default=1.0, help="positive-crop jitter multiplier (default 1)")
    parser.add_argument("--fold", default=None, metavar="K/N",
                        help="leave out fold K (0-based) of N of the training photos (fold_split) and report on it: "
                             "out-of-fold classifier outputs for calibrating reader v3's flag rule")
    parser.add_argument("--detector", default=None,
                        help="folder of a die detector (detect.onnx): add crops around its boxes (detector_samples)")
    parser.add_argument("--second", action="store_true",
                        help="with --detector: write reader v3's second classifier (face32_det_b.onnx) instead")
    parser.add_argument("--composites", type=int, default=0, metavar="N",
                        help="add crops from N synthetic tables of the training dice (composite_samples, seed --seed)")
    parser.add_argument("--rendered", type=float, default=0.0, metavar="F",
                        help="fraction of the composites' dice that are rendered (vision.training.dice_render), 0-0.9")
    parser.add_argument("--closeups", type=float, default=0.0, metavar="F",
                        help="fraction of the composites that are close-ups of one big die (composite_samples), 0-1")
    parser.add_argument("--trays", type=float, default=0.0, metavar="F",
                        help="fraction of the composites (not close-ups) whose dice lie in a dice tray, 0-1")
    parser.add_argument("--game-tables", type=float, default=0.0, metavar="F",
                        help="fraction of the composites (not close-ups) on a rendered game table, 0-1")
    parser.add_argument("--pip-negatives", type=float, default=0.0, metavar="F",
                        help="fraction of negatives that are close-ups of a pip (image_samples), 0-1")
    parser.add_argument("--glare", type=float, default=0.0, metavar="F",
                        help="fraction of positives with a specular streak drawn across the die (with_glare), 0-1")
    parser.add_argument("--noise", type=float, default=0.0, metavar="P",
                        help="probability that a colour variant has camera noise (NOISE_SIGMA), 0-1")
    args = parser.parse_args(argv)
    if args.second and not args.detector:
        parser.error("--second needs --detector")
    if not SHARED_DICE.is_dir():
        print(f"no training data: {SHARED_DICE} is absent", file=sys.stderr)
        return 2
    t0 = time.time()
    rng = np.random.default_rng(args.seed)
    bundled = {line.split(",")[0].split("/")[-1] for line in (BUNDLED / "labels.csv").read_text().splitlines()[1:]}
    byler = _photos("byler_d6")
    pi_cam = _photos("pi_cam_tray")
    test_bundled = [p for p in byler if p[0].name in bundled]
    rest = [p for p in byler if p[0].name not in bundled]
    order = rng.permutation(len(rest))  # drawn even with --split-seed: a seed's samples stay as they were
    split_seed = args.seed if args.split_seed is None else args.split_seed
    if split_seed != args.seed:
        order = np.random.default_rng(split_seed).permutation(len(rest))
    n_test = len(rest) // 5
    tests: dict[str, list] = {"bundled_photos": test_bundled}
    tests["pi_cam_tray"] = pi_cam  # never trained on: "measure only" (no licence stated)
    if args.split == "heldout":
        tests["byler_test_20pct"] = [rest[i] for i in order[:n_test]]
        train_photos = [rest[i] for i in order[n_test:]]
    else:
        train_photos = rest
    if args.fold:
        k, n = (int(v) for v in args.fold.split("/"))
        train_photos, tests["fold_out"] = fold_split(train_photos, k, n, split_seed)
    x, y = make_samples(train_photos, rng, pos_per_die=6, neg_per_die=6, jitter=args.jitter,
                        pip_negatives=args.pip_negatives, glare=args.glare, noise=args.noise)
    if args.detector:
        detector = samples_detector(Path(args.detector))
        xd, yd = detector_samples(train_photos, detector, rng, noise=args.noise)
        print(f"detector crops: {len(yd)} ({int((yd == 0).sum())} negatives)", flush=True)
        x, y = np.concatenate([x, xd]), np.concatenate([y, yd])
        tests_det = {name: detector_samples(photos, detector, np.random.default_rng(1), per_box=1, variants=1)
                     for name, photos in tests.items() if photos}
    if args.composites:
        xc, yc = composite_samples(args.composites, args.seed, detector if args.detector else None,
                                   jitter=args.jitter, rendered=args.rendered, pip_negatives=args.pip_negatives,
                                   closeups=args.closeups, trays=args.trays,
                                   cut_photos=train_photos if args.fold else None, game_tables=args.game_tables,
                                   glare=args.glare, noise=args.noise)
        print(f"composite crops: {len(yc)} ({int((yc == 0).sum())} negatives)", flush=True)
        x, y = np.concatenate([x, xc]), np.concatenate([y, yc])
    print(f"{len(train_photos)} training photos, {len(y)} crops ({int((y == 0).sum())} negatives), "
          f"{time.time() - t0:.0f} s", flush=True)
    net = train(x, y, args.epochs, args.seed, log=lambda s: print(s, flush=True), width=args.width, deep=args.deep)
    figures = {name: accuracy(net, *plain_crops(photos)) for name, photos in tests.items() if photos}
    train_fig = accuracy(net, *plain_crops([p for p in train_photos if p[0].name not in bundled][:400]))
    if args.detector:  # the crops reader v3 reads: one un-jittered-colour crop a detector box
        figures.update({f"{name}_detector_boxes": accuracy(net, *xy) for name, xy in tests_det.items()})
    out = Path(args.out) if args.out else (model_dir() if args.split == "all" else Path("/tmp/dice_model_heldout"))
    model_file, manifest_file = ((SECOND_MODEL_FILE, SECOND_MANIFEST_FILE) if args.second else
                                 (BOX_MODEL_FILE, BOX_MANIFEST_FILE) if args.detector else (MODEL_FILE, MANIFEST_FILE))
    path = export(net, out, model_file)
    data = path.read_bytes()
    manifest = {
        "model": model_file, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
        "command": command_line(parser, args, always=("split", "epochs", "seed"), leave_out=("out",)),
        "seed": args.seed, "epochs": args.epochs, "split": args.split,
        "input": f"(n, 3, {CROP_SIZE}, {CROP_SIZE}) float32 from vision.dice.networks.face_crop",
        "classes": ["not a die face", "1", "2", "3", "4", "5", "6"],
        "training_photos": len(train_photos), "training_crops": int(len(y)),
        "data": "../shared/data/dice/byler_d6 (BSD-3-Clause, (c) 2019 Nell Byler) without the 14 bundled photos"
                + ("" if args.split == "all" else f", 80 % of those photos (seed {split_seed})")
                + (f"; {args.composites} synthetic tables of the training dice (vision.training.dice_clusters)"
                   if args.composites else ""),
        "figures": {"train_crops": train_fig, **figures},
        "seconds": round(time.time() - t0, 1),
    }
    (out / manifest_file).write_text(json.dumps(manifest, indent=2) + "\n")
    print(json.dumps(manifest["figures"]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
