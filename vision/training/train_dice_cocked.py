"""Train the cocked-die classifier (``cocked32.onnx``: the reader's cocked head, :mod:`vision.dice.networks`)
(development only).

``python -m vision.training.train_dice_cocked [--images N] [--seed S] [--epochs E] [--width W] [--deep] [--out DIR]``

Needs torch and onnx (as :mod:`vision.training.train_dice`) and ``../shared/data/dice`` (byler_d6's
training photos, the split of :func:`vision.training.train_dice_detect.split_photos`). Samples are crops
(:func:`vision.dice.networks.face_crop`, jittered: centre +-6 % of the side, scale 0.9-1.12, any rotation)
around the labelled boxes and around the boxes the dice reader itself gives (what the classifier sees in
use) on:

- ``N`` rendered tables of :func:`vision.training.dice_cocked.make_image` (generator seeded ``S + 1000``,
  never the seeds of the measured sets): the cocked die is class 1, every flat die class 0;
- byler_d6's training photos: every die lies flat, class 0 (so real dice on a real table are not marked).

byler's held-out photos, the bundled photos, pi_cam_tray and ivory_grid are never trained on: they measure
the false marks. Writes ``cocked32.onnx`` and ``cocked32_manifest.json`` (the command, seed, sample counts,
training accuracy) into ``--out`` (default ``assets/dice_model``). Exit status 0; 2 without
``../shared/data/dice``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.dice.networks import face_crop, model_dir
from vision.dice.reader import read_dice
from vision.training.dice_classifier import COCKED_MANIFEST_FILE as MANIFEST_FILE
from vision.training.dice_classifier import COCKED_MODEL_FILE as MODEL_FILE

# Jittered crops per box: cocked dice are one in three to five dice, so they get more.
PER_COCKED, PER_FLAT = 8, 2


def _centre_in(box, label) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return label[0] <= cx <= label[2] and label[1] <= cy <= label[3]


def jittered_crops(image: np.ndarray, box, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """``n`` crops (:func:`vision.dice.networks.face_crop`) of ``box``, jittered: centre +-6 % of the side,
    scale 0.9-1.12, any rotation."""
    return [face_crop(image, box, centre_shift=tuple(rng.uniform(-0.06, 0.06, 2)), scale=rng.uniform(0.9, 1.12),
                      angle=rng.uniform(0, 360)) for _ in range(n)]


def image_samples(image: np.ndarray, dice: list, rng: np.random.Generator) -> tuple[list, list]:
    """Crops and classes of one image with labelled ``dice`` ((value, box, cocked) as
    :class:`vision.training.dice_cocked.CockedImage` gives them): each labelled box, and each box the reader
    finds, with the class of the labelled die its centre lies in (flat when none)."""
    xs, ys = [], []
    boxes = [(box, cocked) for _, box, cocked in dice]
    boxes += [(d.box, next((c for _, b, c in dice if _centre_in(d.box, b)), False)) for d in read_dice(image).dice]
    for box, cocked in boxes:
        crops = jittered_crops(image, box, PER_COCKED if cocked else PER_FLAT, rng)
        xs += crops
        ys += [int(cocked)] * len(crops)
    return xs, ys


def add_net_options(parser: argparse.ArgumentParser, epochs: int) -> None:
    """The options of a two-class crop classifier's trainer (this module and
    :mod:`vision.training.train_dice_gate`): ``--seed`` (default 7), ``--epochs`` (default ``epochs``),
    ``--width``, ``--deep`` (of :func:`vision.training.train_dice.build_net`) and ``--out``."""
    parser.add_argument("--seed", type=int, default=7, help="seed (default 7)")
    parser.add_argument("--epochs", type=int, default=epochs, help=f"epochs (default {epochs})")
    parser.add_argument("--width", type=float, default=1.0, help="channel multiplier of the net (default 1)")
    parser.add_argument("--deep", action="store_true", help="a second conv layer in the last two stages")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default assets/dice_model)")


def write_model(net, args: argparse.Namespace, model_file: str, manifest_file: str, module: str,
                argv: list[str] | None, figures: dict) -> dict:
    """Export ``net`` as ONNX ``model_file`` into ``args.out`` (default assets/dice_model) and write its
    ``manifest_file`` beside it: the file's sha256, the command (``python -m module`` and ``argv``, or
    sys.argv), the options of :func:`add_net_options`, then ``figures``. Prints the manifest as one JSON
    line and returns it."""
    from vision.training.train_dice import export

    out = args.out or model_dir()
    path = export(net, out, model_file)
    manifest = {
        "model": model_file, "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "command": f"python -m {module} " + " ".join(argv if argv is not None else sys.argv[1:]),
        "seed": args.seed, "epochs": args.epochs, "width": args.width, "deep": args.deep, **figures,
    }
    (out / manifest_file).write_text(json.dumps(manifest, indent=2) + "\n")
    print(json.dumps(manifest))
    return manifest


def main(argv: list[str] | None = None) -> int:
    from vision.training.dice_cocked import make_image
    from vision.training.train_dice import train
    from vision.training.train_dice_detect import split_photos

    parser = argparse.ArgumentParser(prog="python -m vision.training.train_dice_cocked",
                                     description="Train the cocked-die classifier (cocked32.onnx).")
    parser.add_argument("--images", type=int, default=1500, help="rendered tables to train on (default 1500)")
    add_net_options(parser, epochs=12)
    args = parser.parse_args(argv)
    start = time.time()
    try:
        photos = split_photos()[0]
    except FileNotFoundError as error:
        print(f"cannot train: {error}", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed + 1000)
    xs, ys = [], []
    for _ in range(args.images):
        im = make_image(rng)
        x, y = image_samples(im.image, im.dice, rng)
        xs += x
        ys += y
    rendered = len(ys)
    for path, item in photos:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        x, _ = image_samples(image, [(v, b, False) for v, b in item.boxes], rng)
        xs += x
        ys += [0] * len(x)
    x, y = np.stack(xs).astype(np.float32), np.array(ys, np.int64)
    print(f"{len(y)} crops ({rendered} from rendered tables, {int(y.sum())} cocked)", file=sys.stderr)
    net = train(x, y, args.epochs, args.seed, log=lambda line: print(line, file=sys.stderr), width=args.width,
                deep=args.deep, classes=2)
    import torch

    with torch.no_grad():
        pred = torch.softmax(net(torch.from_numpy(x)), 1).numpy()[:, 1] >= 0.5
    write_model(net, args, MODEL_FILE, MANIFEST_FILE, "vision.training.train_dice_cocked", argv, {
        "images": args.images, "byler_training_photos": len(photos),
        "crops": len(y), "cocked_crops": int(y.sum()),
        "train_accuracy": round(float((pred == (y == 1)).mean()), 4),
        "seconds": round(time.time() - start, 1),
    })
    return 0


if __name__ == "__main__":
    sys.exit(main())
