"""Train the gate classifier (``gate32.onnx``, the reader's gate head, :mod:`vision.dice.networks`: is a found
die a die at all?) (development only).

``python -m vision.training.train_dice_gate [--tables N] [--empty N] [--cubes N] [--plain N] [--hard N] [--hard-kinds K,K] [--tilted N] [--seed S] [--epochs E] [--width W] [--deep] [--out DIR]``

Needs torch and onnx (as :mod:`vision.training.train_dice`) and ``../shared/data/dice`` (byler_d6's
training photos, the split of :func:`vision.training.train_dice_detect.split_photos`). Samples are jittered
crops (:func:`vision.training.train_dice_cocked.jittered_crops`) around the labelled dice (class 1) and
around every die the reader itself finds (what the gate sees in use): class 1 when it is matched to a
labelled die (:func:`vision.dice.eval.match_to_boxes`), class 0 when it is not (a board's circle, a pawn,
a card's print, a die's own pip), on:

- ``N`` game tables with byler's training dice on them (:func:`vision.training.dice_game_tables.make_game_set`,
  generator seeded ``S + 3000``) and ``--empty`` tables without dice (seeded ``S + 4000``), never the seeds
  of the measured sets (1-3);
- ``--cubes`` tables of dice drawn as cubes, their sides in view, flat and cocked, on plain cloths and game
  tables (:func:`vision.training.dice_cocked.make_image`, generator seeded ``S + 6000``): every one a die,
  so that a die seen a little from the side (as a Pi camera above a tray sees it) is not doubted;
- ``--plain`` tables of the same dice on plain cloths and in dice trays (no game's print:
  :func:`vision.training.dice_clusters.make_image`, 40 % in a tray, generator seeded ``S + 7000``), where
  every die is a die and what else the reader finds is a tray's corner or a die's own pip;
- ``--hard`` tables with no dice but rings, coins, pawns, meeples, cards, hands, keys and buttons
  (:func:`vision.training.dice_hard_negatives.make_hard_negative_set`, seeded ``S + 8000``; ``--hard-kinds``:
  only those kinds): whatever the reader finds there is not a die;
- ``--tilted`` views of byler_d6's training photos as a camera beside the table sees them: each photo turned
  by a random quarter turn, then seen through a camera tilted 15-45 degrees from looking straight down
  (:func:`vision.training.dice_conditions.tilt_homography`, generator seeded ``S + 9000``): real dice with
  their tops foreshortened (a flat photo's view: no side comes into view), every labelled one a die;
- byler_d6's training photos.

byler's held-out photos, the bundled photos, pi_cam_tray and ivory_grid are never trained on: they measure
the flags the gate adds to real dice. Prints, for 100 further tables (seeded ``S + 5000``) and the training
photos, how many found dice the gate would flag among the real ones and pass among the others. Writes
``gate32.onnx`` and ``gate32_manifest.json`` into ``--out`` (default ``assets/dice_model``). Exit status
0; 2 without ``../shared/data/dice``.
"""

from __future__ import annotations

import argparse
import sys
import time

import cv2
import numpy as np

from vision.dice.eval import match_to_boxes
from vision.dice.networks import face_crop
from vision.dice.reader import read_dice, shipped_reader
from vision.training.dice_classifier import GATE_MANIFEST_FILE as MANIFEST_FILE
from vision.training.dice_classifier import GATE_MODEL_FILE as MODEL_FILE
from vision.training.train_dice_cocked import (
    add_net_options,
    jittered_crops,
    write_model,
)

# Jittered crops per labelled die and per found box.
PER_LABEL, PER_FOUND = 2, 2


def found_boxes(image: np.ndarray, boxes) -> list[tuple[tuple, int]]:
    """(box, class) of each die the reader finds in ``image``: 1 when matched to one of the labelled
    ``boxes`` ((x0, y0, x1, y1) each), else 0."""
    obs = read_dice(image)
    match = match_to_boxes(obs, [(0, b) for b in boxes])
    return [(die.box, int(m is not None)) for die, m in zip(obs.dice, match)]


def image_samples(image: np.ndarray, boxes, rng: np.random.Generator) -> tuple[list, list]:
    """Crops and classes of one image with labelled die ``boxes``: each labelled box (class 1) and each
    box the reader finds (:func:`found_boxes`)."""
    xs, ys = [], []
    for box, cls in [(tuple(b), 1) for b in boxes] + found_boxes(image, boxes):
        crops = jittered_crops(image, box, PER_LABEL if cls else PER_FOUND, rng)
        xs += crops
        ys += [cls] * len(crops)
    return xs, ys


def check(net, images) -> dict:
    """The gate's errors at the reader's ``die_below`` on the reader's found dice of ``images`` ((image,
    labelled boxes) pairs, one unjittered crop a die, the mean over its four quarter turns: what the
    reader decides with near the threshold): real dice it would flag and others it would pass."""
    import torch

    crops, classes = [], []
    for image, boxes in images:
        for box, cls in found_boxes(image, boxes):
            crops.append(face_crop(image, box))
            classes.append(cls)
    if not crops:
        return {"dice": 0, "dice_flagged": 0, "others": 0, "others_passed": 0}
    x = np.stack(crops).astype(np.float32)
    views = np.concatenate([np.rot90(x, k, axes=(2, 3)) for k in range(4)])
    with torch.no_grad():
        p = torch.softmax(net(torch.from_numpy(np.ascontiguousarray(views))), 1).numpy()[:, 1]
    p = p.reshape(4, len(x)).mean(axis=0)
    y = np.array(classes)
    die_below = shipped_reader().params.die_below
    return {"dice": int(y.sum()), "dice_flagged": int(((p < die_below) & (y == 1)).sum()),
            "others": int((y == 0).sum()), "others_passed": int(((p >= die_below) & (y == 0)).sum())}


def _tables(n: int, seed: int, with_dice: bool = True) -> list[tuple[np.ndarray, np.ndarray]]:
    from vision.training.dice_game_tables import make_game_set

    return [(im.image, im.boxes) for im in make_game_set(n, seed, with_dice)]


def _cube_tables(n: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    from vision.training.dice_cocked import make_image

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        table = make_image(rng)
        out.append((table.image, np.array([box for _, box, _ in table.dice], np.float32).reshape(-1, 4)))
    return out


def _plain_tables(n: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    from vision.training.dice_clusters import make_image, training_cutouts
    from vision.training.dice_render import mixed_cuts

    if n == 0:
        return []
    rng = np.random.default_rng(seed)
    cuts, _ = mixed_cuts(training_cutouts(), 0.3, seed)
    return [(im.image, im.boxes) for im in
            (make_image(cuts, rng, touching=bool(i % 2), tray=bool(rng.random() < 0.4)) for i in range(n))]


def _hard_tables(n: int, seed: int, kinds: tuple[str, ...] | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
    from vision.training.dice_hard_negatives import KINDS, make_hard_negative_set

    return [(im.image, im.boxes) for im in make_hard_negative_set(n, seed, kinds or tuple(KINDS))[0]] if n else []


def _tilted_photos(photos: list[tuple[np.ndarray, np.ndarray]], n: int, seed: int
                   ) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n`` views of ``photos`` ((image, boxes (k, 4)) each, taken from above) through a camera tilted
    15-45 degrees, each photo first turned by a random quarter turn (so the tilt's axis varies): (image,
    moved boxes)."""
    from vision.training.dice_conditions import tilt_homography, warp_view

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n if photos else 0):
        image, boxes = photos[int(rng.integers(len(photos)))]
        turns = int(rng.integers(4))
        h, w = image.shape[:2]
        turned = np.ascontiguousarray(np.rot90(image, turns))
        for _ in range(turns):  # a quarter turn counter-clockwise: (x, y) -> (y, w - x) of the image before it
            boxes = np.stack([boxes[:, 1], w - boxes[:, 2], boxes[:, 3], w - boxes[:, 0]], axis=1)
            h, w = w, h
        m = tilt_homography(w, h, float(rng.uniform(15.0, 45.0)))
        out.append(warp_view(turned, boxes, m, (w, h)))
    return out


def main(argv: list[str] | None = None) -> int:
    from vision.training.train_dice import train
    from vision.training.train_dice_detect import split_photos

    parser = argparse.ArgumentParser(prog="python -m vision.training.train_dice_gate",
                                     description="Train the gate classifier (gate32.onnx).")
    parser.add_argument("--tables", type=int, default=600, help="game tables with dice to train on (default 600)")
    parser.add_argument("--empty", type=int, default=200, help="game tables without dice (default 200)")
    parser.add_argument("--cubes", type=int, default=0, help="tables of dice drawn as cubes (default 0)")
    parser.add_argument("--plain", type=int, default=0, help="plain tables and dice trays (default 0)")
    parser.add_argument("--hard", type=int, default=0, help="tables of things that are not dice (default 0)")
    parser.add_argument("--tilted", type=int, default=0,
                        help="views of byler's training photos through a tilted camera (default 0)")
    parser.add_argument("--hard-kinds", default=None, metavar="K,K",
                        help="with --hard: only these kinds (of vision.training.dice_hard_negatives.KINDS; default all)")
    add_net_options(parser, epochs=10)
    args = parser.parse_args(argv)
    from vision.training.dice_hard_negatives import KINDS

    unknown = set(args.hard_kinds.split(",")) - set(KINDS) if args.hard_kinds else set()
    if unknown:
        parser.error(f"--hard-kinds: {', '.join(sorted(unknown))} is not one of {', '.join(KINDS)}")
    start = time.time()
    try:
        photos = split_photos()[0]
        tables = _tables(args.tables, args.seed + 3000) + _tables(args.empty, args.seed + 4000, with_dice=False)
        tables += _cube_tables(args.cubes, args.seed + 6000) + _plain_tables(args.plain, args.seed + 7000)
        kinds = tuple(args.hard_kinds.split(",")) if args.hard_kinds else None
        tables += _hard_tables(args.hard, args.seed + 8000, kinds)
    except FileNotFoundError as error:
        print(f"cannot train: {error}", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    xs, ys = [], []
    for image, boxes in tables:
        x, y = image_samples(image, boxes, rng)
        xs += x
        ys += y
    from_tables = len(ys)
    byler = []
    for path, item in photos:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        boxes = np.array([b for _, b in item.boxes], np.float32).reshape(-1, 4)
        byler.append((image, boxes))
        x, y = image_samples(image, boxes, rng)
        xs += x
        ys += y
    for image, boxes in _tilted_photos(byler, args.tilted, args.seed + 9000):
        x, y = image_samples(image, boxes, rng)
        xs += x
        ys += y
    x, y = np.stack(xs).astype(np.float32), np.array(ys, np.int64)
    print(f"{len(y)} crops ({from_tables} from game tables, {int(y.sum())} of dice)", file=sys.stderr)
    net = train(x, y, args.epochs, args.seed, log=lambda line: print(line, file=sys.stderr), width=args.width,
                deep=args.deep, classes=2)
    net.eval()
    write_model(net, args, MODEL_FILE, MANIFEST_FILE, "vision.training.train_dice_gate", argv, {
        "tables": args.tables, "empty_tables": args.empty, "cube_tables": args.cubes, "plain_tables": args.plain,
        "hard_negative_tables": args.hard, "hard_negative_kinds": args.hard_kinds or "all",
        "tilted_photos": args.tilted,
        "byler_training_photos": len(photos), "crops": len(y), "die_crops": int(y.sum()),
        "check_tables": check(net, _tables(100, args.seed + 5000)),
        "check_byler_training": check(net, byler),
        "check_hard_tables": check(net, _hard_tables(100, args.seed + 5000)) if args.hard else None,
        "seconds": round(time.time() - start, 1),
    })
    return 0


if __name__ == "__main__":
    sys.exit(main())
