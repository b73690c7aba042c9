"""Small dice in a large frame, from real photos: mosaics of a labelled set's photos (issue 49's "a 4032x3024
photo with 40 px dice, a Pi camera mounted high"; development only).

``python -m vision.training.dice_mosaics SET OUT [--grid 3] [--n 40] [--seed 0] [--errata CSV]``

Each mosaic lays ``grid`` x ``grid`` photos of SET (a folder with ``labels.csv`` and ``boxes.csv``, e.g.
byler_d6's held-out photos, or tables with no dice but things that are not dice) side by side at their own
resolution, chosen at random with ``seed`` (a photo may recur in another mosaic, never twice in one): the
dice keep their pixels while the frame grows ``grid`` times, so at the reader's work size they are ``grid``
times smaller than in the photos. Only photos whose every die is boxed are used, all of one size (the most
common), with ``--errata`` applied (byler_d6's slips: ``assets/dice_model/byler_d6_label_errata.csv``; the
mosaics' names are new, so they carry them). Writes ``OUT/images/c0000.png``..., ``OUT/labels.csv`` and
``OUT/boxes.csv`` (:func:`vision.training.dice_clusters.write_set`), each box moved with its photo. Exit
status 2, naming SET, when it has no usable photos.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.dice.eval import apply_errata, load_errata, load_set


def usable_photos(set_dir: Path, errata: list[dict] | None = None
                  ) -> list[tuple[np.ndarray, list[tuple[int, tuple[float, float, float, float]]]]]:
    """The photos of ``set_dir`` whose labelled dice all have boxes (or that have no dice; ``errata`` rows applied,
    :func:`vision.dice.eval.apply_errata`), of the set's most common size: (image BGR uint8, [(value 1-6,
    (x0, y0, x1, y1) px)])."""
    images, _ = load_set(set_dir)
    photos = []
    for item in images:
        item = apply_errata(item, errata) if errata else item
        if len(item.boxes) != len(item.values):  # a die without its box (a photo with none has none)
            continue
        frame = cv2.imread(str(set_dir / item.file), cv2.IMREAD_COLOR)
        if frame is not None:
            photos.append((frame, [(int(v), tuple(float(c) for c in box)) for v, box in item.boxes]))
    if not photos:
        return []
    shape = Counter(f.shape for f, _ in photos).most_common(1)[0][0]
    return [(f, b) for f, b in photos if f.shape == shape]


def mosaic(photos: list, grid: int, rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """One mosaic of ``grid`` x ``grid`` distinct photos of ``photos`` (:func:`usable_photos`): the image and
    its boxes [(value, (x0, y0, x1, y1))]."""
    picks = rng.choice(len(photos), size=grid * grid, replace=len(photos) < grid * grid)
    h, w = photos[0][0].shape[:2]
    canvas = np.zeros((h * grid, w * grid, 3), np.uint8)
    boxes = []
    for k, i in enumerate(picks):
        row, col = divmod(k, grid)
        frame, dice = photos[int(i)]
        canvas[row * h:(row + 1) * h, col * w:(col + 1) * w] = frame
        boxes += [(v, (x0 + col * w, y0 + row * h, x1 + col * w, y1 + row * h)) for v, (x0, y0, x1, y1) in dice]
    return canvas, boxes


def write_mosaics(set_dir: Path, out: Path, grid: int, n: int, seed: int, errata: list[dict] | None = None) -> int:
    """Write ``n`` mosaics of ``set_dir`` into ``out`` as a labelled set
    (:func:`vision.training.dice_clusters.write_set`); returns how many dice they hold. Raises ValueError
    naming ``set_dir`` when it has no usable photo."""
    from vision.training.dice_clusters import ClusterImage, write_set

    photos = usable_photos(set_dir, errata)
    if not photos:
        raise ValueError(f"{set_dir}: no photo with every die boxed (labels.csv, boxes.csv); give a labelled set")
    rng = np.random.default_rng(seed)
    images = []
    for _ in range(n):
        image, boxes = mosaic(photos, grid, rng)
        images.append(ClusterImage(image, np.array([b for _, b in boxes], np.float32).reshape(-1, 4),
                                   np.array([v for v, _ in boxes], np.int64), np.zeros((0, 4, 2), np.float32),
                                   math.nan, ()))
    write_set(images, out)
    return sum(len(im.values) for im in images)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.dice_mosaics", description=__doc__.split("\n")[0])
    parser.add_argument("set", type=Path, help="a labelled set (labels.csv, boxes.csv)")
    parser.add_argument("out", type=Path)
    parser.add_argument("--grid", type=int, default=3, choices=range(2, 9), metavar="2-8", help="photos a side (default 3)")
    parser.add_argument("--n", type=int, default=40, help="mosaics (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--errata", type=Path, help="label corrections to apply (byler_d6_label_errata.csv)")
    args = parser.parse_args(argv)
    if not (args.set / "labels.csv").is_file():
        print(f"{args.set}: no labels.csv; give a labelled set", file=sys.stderr)
        return 2
    try:
        errata = load_errata(args.errata) if args.errata else None
        dice = write_mosaics(args.set, args.out, args.grid, max(1, args.n), args.seed, errata)
    except (OSError, ValueError) as e:
        print(e, file=sys.stderr)
        return 2
    print(f"{args.out}: {max(1, args.n)} mosaics of {args.grid} x {args.grid} photos, {dice} dice")
    return 0


if __name__ == "__main__":
    sys.exit(main())
