"""A synthetic test of touching dice: clusters of byler_d6 training dice pasted onto synthetic tables.

``python -m vision.training.dice_clusters [--images 200] [--seed 1] [--readers classical,learned] [--out DIR] [--apart]
[--errors] [--json]``
makes the set (PNG images, ``labels.csv`` and ``boxes.csv`` in the format of ``../shared/data/README.md``),
measures each reader on it with :func:`vision.dice.eval.evaluate` (each reader of
:func:`vision.training.dice_readers.reader_for` in turn) and prints the figures (``--json``: one object, reader -> figures). ``--errors`` adds, per reader, the
images not read exactly with what went wrong (missed, extra and misread dice); ``--apart`` makes the control
set (the same kind of images with every die lying alone), which tells the cost of touching from the cost of
the compositing itself. Needs ``../shared/data/dice``.

Only the 149 byler_d6 training photos of :func:`vision.training.train_dice_detect.split_photos` give dice (the
held-out 37, the 14 bundled photos and the measure-only sets are never used), cut out along their own outline
(:func:`die_cut`: the labelled box's crop, :func:`vision.training.train_dice_detect.cutout`, with the alpha of
:func:`vision.dice.pips.object_mask`; its top face the square of the outline's minimum-area rectangle;
dice without a clear outline, mostly white dice on the light table, are left out) and pasted as the
detector's training composites are (:func:`vision.training.train_dice_detect.paste`: soft shadows) onto its
synthetic tables (:func:`vision.training.train_dice_detect.background`, scaled to CANVAS). Each image holds 2-6 dice
of one size (SIDES px, the byler range at the reader's 640 px work size) in touching clusters: each
cluster grows die by die, a new die's face sharing at least 0.4 of an edge with one already placed and
overlapping none; the cluster is turned by any angle, each die by a multiple of 90 degrees plus up to
TILT degrees; clusters lie
at least SEPARATION die sides apart (centre to centre). A die's label box is the axis-aligned box around
its visible (masked) square. Same seed, same set.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.dice import evaluate
from vision.dice.eval import load_set, match_to_boxes
from vision.training.dice_readers import reader_for

# Canvas (height, width) in pixels: the shape of the byler_d6 photos (at most the reader's work size).
CANVAS = (640, 640)
# Visible die side (px) range of an image (log-uniform): byler_d6's labelled boxes are 26-57 px
# (1st-99th percentile, median 39), so the cut-outs are scaled by about 0.7-1.4.
SIDES = (28.0, 56.0)
# Dice per image.
DICE = (2, 6)
# Each die is turned by the cluster's angle, a multiple of 90 degrees and up to this many degrees more.
TILT = 4.0
# Centres of dice of different clusters lie at least this many die sides apart.
SEPARATION = 1.6
# Layouts tried before make_image gives up (a layout that fits at all is found in a few tries).
LAYOUT_TRIES = 200
# Touching dice: centre distance along the shared edge's normal, in visible sides (slightly under 1, so
# that the feathered mask edges meet).
PITCH = 0.97


@dataclass(frozen=True)
class ClusterImage:
    """One synthetic image: ``image`` (CANVAS + (3,)) uint8 BGR, ``boxes`` (n, 4) float32 label boxes
    (x0, y0, x1, y1) in its pixels, ``values`` (n,) int 1-6, ``squares`` (n, 4, 2) float32 the corners
    of each die's top face in its pixels, ``side`` the die side (px), ``clusters`` tuples of die
    indices (each a touching cluster, or a lone die)."""

    image: np.ndarray
    boxes: np.ndarray
    values: np.ndarray
    squares: np.ndarray
    side: float
    clusters: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class DieCut:
    """A die cut out of a training photo: ``image`` (h, w, 4) BGRA (alpha: the die's own outline),
    ``value`` 1-6, ``square`` (4, 2) float32 corners of its top face in the crop's pixels."""

    image: np.ndarray
    value: int
    square: np.ndarray


# A die's own outline (vision.dice.pips.object_mask) is used when it covers this fraction range of
# its labelled box (byler's boxes are loose: a die's outline covers 0.3-0.6 of its box, and 0.7 when it
# fills it); otherwise (a white die on the light table: under 0.15; an outline joined to a neighbour)
# the die is not used (:func:`die_cut` gives None): the rounded square inside the box would carry the
# table's corners as a light halo round the die onto the new table, which no real die shows.
OUTLINE_COVER = (0.25, 0.9)


def die_cut(image: np.ndarray, box, value: int) -> DieCut | None:
    """Cut one labelled die (box (x0, y0, x1, y1) of a BGR photo) with its outline and top-face square
    (cv2.minAreaRect of the outline, made square); None when the box is under 8 px or the outline is
    not clear (OUTLINE_COVER)."""
    from vision.dice.pips import object_mask, to_lab
    from vision.dice.reader import shipped_reader
    from vision.training.train_dice_detect import cutout

    cut = cutout(image, box)
    if cut is None:
        return None
    h, w = image.shape[:2]
    X0, Y0 = int(max(0, box[0])), int(max(0, box[1]))
    ch, cw = cut.shape[:2]
    pad = int(math.ceil(0.2 * max(cw, ch))) + 2
    P0, Q0 = max(0, X0 - pad), max(0, Y0 - pad)
    region = image[Q0:min(h, Y0 + ch + pad), P0:min(w, X0 + cw + pad)]
    p = shipped_reader().params
    mask = object_mask(to_lab(region), (X0 - P0, Y0 - Q0, X0 - P0 + cw, Y0 - Q0 + ch), p.object_ring,
                       p.object_level, p.object_min_dist)
    if mask is not None and OUTLINE_COVER[0] <= mask.mean() <= OUTLINE_COVER[1]:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))
        side = math.sqrt(rw * rh)
        square = cv2.boxPoints(((cx, cy), (side, side), angle)).astype(np.float32)
        alpha = cv2.GaussianBlur(mask.astype(np.float32) * 255, (0, 0), 0.7)
        return DieCut(np.dstack([cut[..., :3], alpha.astype(np.uint8)]), int(value), square)
    return None


def cluster_layout(n: int, rng: np.random.Generator) -> np.ndarray:
    """Centres (n, 2) float64 of n touching unit squares (axis-aligned, side 1): each new square lies
    one side from a placed one along x or y, slid along the shared edge by up to 0.6 of a side (so they
    share at least 0.4 of it), overlapping no other (centres at least 1 apart in x or in y)."""
    centres = [np.zeros(2)]
    while len(centres) < n:
        parent = centres[int(rng.integers(len(centres)))]
        axis = int(rng.integers(2))
        step = np.zeros(2)
        step[axis] = rng.choice([-1.0, 1.0])
        step[1 - axis] = rng.uniform(-0.6, 0.6)
        c = parent + step
        if all(max(abs(c[0] - e[0]), abs(c[1] - e[1])) >= 1.0 - 1e-9 for e in centres):
            centres.append(c)
    return np.array(centres)


def cluster_sizes(n: int, rng: np.random.Generator) -> list[int]:
    """Split n >= 2 dice into clusters: the first of 2..n dice, the rest likewise (a last single die
    lies alone)."""
    sizes, left = [], n
    while left:
        k = 1 if left == 1 else int(rng.integers(2, left + 1))
        sizes.append(k)
        left -= k
    return sizes


def make_image(cuts: list[DieCut], rng: np.random.Generator, touching: bool = True,
               sides: tuple[float, float] = SIDES, dice: tuple[int, int] = DICE, tray: bool = False,
               table: np.ndarray | None = None, laid: list[DieCut] | None = None) -> ClusterImage:
    """One image of ``dice`` (min, max; default DICE) dice of a side drawn log-uniformly from ``sides``
    (px; default SIDES) in touching clusters made of ``cuts`` (:func:`training_cutouts`).
    ``touching=False``: the control, every die alone (clusters of one), otherwise made the same way.
    ``tray``: the dice lie in a dice tray (:func:`draw_tray`: a square-ish box with a rim round them;
    from above, a tray with dice in it looks like one big die with pips, which a detector must learn
    it is not). ``table``: a BGR uint8 image of CANVAS (h, w) to lay the dice on (default: a random table
    of :func:`vision.training.train_dice_detect.background`). ``laid``: exactly these dice, in this order
    (``cuts`` and ``dice`` are then not drawn from). Raises ValueError when that many dice of that size
    cannot lie on CANVAS."""
    from vision.training.train_dice_detect import background, paste

    H, W = CANVAS
    n = len(laid) if laid else int(rng.integers(dice[0], dice[1] + 1))
    d = math.exp(rng.uniform(math.log(sides[0]), math.log(sides[1])))
    if 1.5 * d > min(H, W):  # no room even for one die with its margin
        raise ValueError(f"{n} dice of {d:.0f} px do not fit a {W}x{H} canvas")
    pitch = PITCH * d
    sizes = cluster_sizes(n, rng) if touching else [1] * n
    for _ in range(LAYOUT_TRIES):  # place the clusters (retry the whole layout when one does not fit)
        centres, angles, clusters = [], [], []
        ok = True
        for k in sizes:
            turn = rng.uniform(0, 2 * math.pi)
            rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
            local = cluster_layout(k, rng) @ rot.T * pitch
            local -= local.mean(0)
            reach = np.abs(local).max(0) + d * 0.75
            for _ in range(50):
                c = local + rng.uniform(reach, (W - reach[0], H - reach[1]))
                if all(np.hypot(*(p - q)) >= SEPARATION * d for p in c for q in centres):
                    break
            else:
                ok = False
                break
            clusters.append(tuple(range(len(centres), len(centres) + k)))
            centres += list(c)
            # the face's edge direction (image coordinates, radians): the cluster's grid, a little off
            angles += [turn + math.radians(rng.uniform(-TILT, TILT)) for _ in range(k)]
        if ok:
            break
    else:
        raise ValueError(f"{n} dice of {d:.0f} px do not fit a {W}x{H} canvas in {LAYOUT_TRIES} layouts")
    img = cv2.resize(background(rng) if table is None else table.astype(np.float32), (W, H),
                     interpolation=cv2.INTER_LINEAR)
    if tray:
        draw_tray(img, np.array(centres), d, rng)
    light = rng.uniform(0, 2 * math.pi)
    boxes, values, squares = [], [], []
    for k, ((cx, cy), phi) in enumerate(zip(centres, angles)):
        cut = laid[k] if laid else cuts[int(rng.integers(len(cuts)))]
        sq = cut.square
        side = float(np.linalg.norm(sq[1] - sq[0]))
        alpha = math.atan2(float(sq[1, 1] - sq[0, 1]), float(sq[1, 0] - sq[0, 0]))
        # cv2's rotation by A degrees turns an image-coordinate direction a into a - A; any multiple of
        # 90 degrees more shows the same face turned
        turn = math.degrees(alpha - phi) + 90 * int(rng.integers(4))
        centre = sq.mean(0)
        m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), turn, d / side)
        m[0, 2] += cx - centre[0]
        m[1, 2] += cy - centre[1]
        img = paste(img, cut.image, m, d, light, rng)
        corners = sq @ m[:, :2].T + m[:, 2]
        squares.append(corners)
        boxes.append((*corners.min(0), *corners.max(0)))
        values.append(cut.value)
    return ClusterImage(np.clip(img, 0, 255).astype(np.uint8), np.array(boxes, np.float32),
                        np.array(values, np.int64), np.array(squares, np.float32), d, tuple(clusters))


# A tray's inner edge lies this many die sides (uniform range) beyond the outermost die centres; its rim
# is this many die sides wide.
TRAY_MARGIN, TRAY_RIM = (0.8, 2.5), (0.15, 0.6)


def rounded_rect(mask: np.ndarray, a, b, r: int) -> None:
    """Fill a rectangle from corner ``a`` (x0, y0) to ``b`` (x1, y1) px with corners rounded to radius ``r``
    px (at most half its shorter side) with 1.0 in the float32 ``mask`` (h, w), in place."""
    x0, y0 = (int(v) for v in a)
    x1, y1 = (int(v) for v in b)
    r = max(1, min(r, (x1 - x0) // 2, (y1 - y0) // 2))
    cv2.rectangle(mask, (x0 + r, y0), (x1 - r, y1), 1.0, -1)
    cv2.rectangle(mask, (x0, y0 + r), (x1, y1 - r), 1.0, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(mask, (cx, cy), r, 1.0, -1, cv2.LINE_AA)


def draw_tray(img: np.ndarray, centres: np.ndarray, side: float, rng: np.random.Generator) -> None:
    """Draw a dice tray round die ``centres`` (n, 2) (px, dice of ``side`` px) into the float32 BGR
    ``img`` (h, w, 3), in place: a rounded rectangle floor of its own colour, TRAY_MARGIN beyond the
    dice, a rim TRAY_RIM wide, lighter or darker than the floor, and a soft shadow inside the rim."""
    h, w = img.shape[:2]
    lo = centres.min(0) - side * rng.uniform(*TRAY_MARGIN, 2)
    hi = centres.max(0) + side * rng.uniform(*TRAY_MARGIN, 2)
    rim = side * rng.uniform(*TRAY_RIM)
    floor = rng.uniform(0, 255, 3)
    tone = rng.choice([rng.uniform(0.4, 0.8), rng.uniform(1.2, 1.8)])  # the rim darker or lighter
    edge = np.clip(floor * tone + rng.uniform(-30, 30, 3), 0, 255)
    radius = max(1, int(side * rng.uniform(0.1, 1.0)))
    outer = np.zeros((h, w), np.float32)
    inner = np.zeros((h, w), np.float32)
    rounded_rect(outer, lo - rim, hi + rim, radius + int(rim))
    rounded_rect(inner, lo, hi, radius)
    shadow = 1.0 - cv2.GaussianBlur(1.0 - inner, (0, 0), max(1.0, rim * 0.6)) * rng.uniform(0.2, 0.6)
    img[:] = (img * (1 - outer[..., None]) + edge * (outer - inner)[..., None]
              + floor * shadow[..., None] * inner[..., None])


def training_cutouts(photos: list | None = None) -> list[DieCut]:
    """:func:`die_cut` of every labelled die of byler_d6's 149 training photos (split seed 0), or of
    ``photos`` ((path, LabelledImage) pairs; a fold of them). Raises FileNotFoundError when
    ``../shared/data/dice`` is absent."""
    from vision.training.train_dice import SHARED_DICE
    from vision.training.train_dice_detect import Photo, split_photos

    if not SHARED_DICE.is_dir():
        raise FileNotFoundError(f"no dice data: {SHARED_DICE} is absent")
    train = split_photos(0)[0] if photos is None else photos
    out = []
    for p in train:
        ph = Photo(*p)
        out += [c for c in (die_cut(ph.image, b, v) for b, v in zip(ph.boxes, ph.values)) if c is not None]
    return out


def make_set(n_images: int, seed: int, cuts: list[DieCut] | None = None,
             touching: bool = True) -> list[ClusterImage]:
    """``n_images`` images of :func:`make_image` from one generator seeded ``seed`` (cut-outs: the
    byler training dice, :func:`training_cutouts`, unless given)."""
    cuts = cuts if cuts is not None else training_cutouts()
    rng = np.random.default_rng(seed)
    return [make_image(cuts, rng, touching) for _ in range(n_images)]


def write_set(images: list[ClusterImage], folder: Path) -> Path:
    """Write images (``images/cNNNN.png``), ``labels.csv`` and ``boxes.csv`` to ``folder``; returns it."""
    folder = Path(folder)
    (folder / "images").mkdir(parents=True, exist_ok=True)
    with open(folder / "labels.csv", "w", newline="") as lf, open(folder / "boxes.csv", "w", newline="") as bf:
        labels, boxes = csv.writer(lf), csv.writer(bf)
        labels.writerow(["file", "dice_values", "n_dice", "sum"])
        boxes.writerow(["file", "value", "x_min", "y_min", "x_max", "y_max"])
        for i, im in enumerate(images):
            name = f"images/c{i:04d}.png"
            cv2.imwrite(str(folder / name), im.image)
            labels.writerow([name, " ".join(str(int(v)) for v in im.values), len(im.values), int(im.values.sum())])
            for v, b in zip(im.values, im.boxes):
                boxes.writerow([name, int(v)] + [f"{float(x):.1f}" for x in b])
    return folder


def measure(folder: Path, reader: str) -> dict:
    """:func:`vision.dice.eval.evaluate` of ``folder`` with the dice reader ``reader``
    (:data:`vision.training.dice_readers.READERS`)."""
    return evaluate(folder, reader=reader_for(reader))


def image_errors(folder: Path, reader: str) -> list[dict]:
    """Per image of ``folder`` read wrong with ``reader``: file, missed labelled dice (value, box),
    extra read dice and misread dice (label, read, flagged), as in :func:`vision.dice.eval.evaluate`."""
    images, _ = load_set(folder)
    read = reader_for(reader)
    out = []
    for item in images:
        obs = read(cv2.imread(str(Path(folder) / item.file)))
        match = match_to_boxes(obs, item.boxes)
        missed = [item.boxes[j] for j in range(len(item.boxes)) if j not in match]
        extra = [(d.value, d.box, d.flagged) for d, m in zip(obs.dice, match) if m is None]
        wrong = [(item.boxes[m][0], d.value, d.flagged) for d, m in zip(obs.dice, match)
                 if m is not None and item.boxes[m][0] != d.value]
        if missed or extra or wrong:
            out.append({"file": item.file, "missed": missed, "extra": extra, "misread": wrong})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.dice_clusters", description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--readers", default="classical,learned",
                        help="comma-separated vision.training.dice_readers.READERS")
    parser.add_argument("--out", default=None, help="keep the set in this folder (default: a temporary one)")
    parser.add_argument("--errors", action="store_true", help="also list the images read wrong")
    parser.add_argument("--apart", action="store_true", help="control: the same dice, each lying alone")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        images = make_set(args.images, args.seed, touching=not args.apart)
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_set(images, Path(args.out or tmp))
        result = {}
        for reader in args.readers.split(","):
            result[reader] = measure(folder, reader)
            if args.errors:
                result[reader]["errors"] = image_errors(folder, reader)
    if args.json:
        print(json.dumps(result))
    else:
        for reader, figures in result.items():
            print(reader, " ".join(f"{k}={v}" for k, v in figures.items() if k != "errors"))
            for e in figures.get("errors", []):
                print("  ", e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
