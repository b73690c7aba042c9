"""Training samples of the one dice network (issue 53; development only): crops with every head's target.

Each sample is a crop of :func:`vision.dice.networks.face_crop` (what the reader cuts) with five targets,
-1 where a source has no answer for that head:

- ``face``: 0 (no die face) or the value 1-6 (train_dice's labels);
- ``gate``: P(a die), 1.0 for a labelled die, today's gate (``dice_heads.onnx``, mean of the crop and its
  quarter turn) distilled on the other crops, 0/1 on the reader's found boxes of game tables
  (:func:`vision.training.train_dice_gate.found_boxes`);
- ``cocked``: 1 for a rendered cocked die (:mod:`vision.training.dice_cocked`), 0 for a labelled flat die;
- ``design``: the design-and-face class of a die for the embedding (``design * 6 + value - 1``), a
  design being a data set, one of rune55's groups, or one rendered design (:func:`render_design`).

Sources (:func:`build`): byler_d6's training photos (:func:`vision.training.train_dice_detect.split_photos`),
rune55's groups but the one left out (and any photo of theirs that is a near-copy of a left-out photo:
:func:`near_copies`), rendered designs (plain pips of random colours, marbled bodies, one face with a
random glyph; never a skull, a star or a translucent body: those families are measured as unseen), cocked
tables and game tables. pi_cam_tray and ivory_grid are never trained on (their licences allow measuring
only): they are unseen sets too.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.dice.eval import load_set
from vision.training.train_dice import SHARED_DICE, image_samples, plain_crops  # noqa: F401 (the measure reads it here)

RUNE55 = SHARED_DICE / "rune55"
LEFT_OUT_GROUP = "circular_cam_gray"


@dataclass
class Samples:
    """Crops (n, 3, 32, 32) float16 and per-head targets, grown with :meth:`add`."""

    xs: list = field(default_factory=list)
    face: list = field(default_factory=list)
    gate: list = field(default_factory=list)
    cocked: list = field(default_factory=list)
    design: list = field(default_factory=list)

    def add(self, crops, face, gate=-1.0, cocked=-1.0, design=-1) -> None:
        """Append ``crops`` (a list), each with the same targets (a scalar) or one per crop (a list)."""
        n = len(crops)
        self.xs += [c.astype(np.float16) for c in crops]
        for name, value in (("face", face), ("gate", gate), ("cocked", cocked), ("design", design)):
            getattr(self, name).extend(value if isinstance(value, list) else [value] * n)

    def arrays(self) -> dict[str, np.ndarray]:
        return {"x": np.stack(self.xs), "face": np.array(self.face, np.int64),
                "gate": np.array(self.gate, np.float32), "cocked": np.array(self.cocked, np.float32),
                "design": np.array(self.design, np.int64)}


def labelled_samples(out: Samples, image: np.ndarray, boxes: list, rng: np.random.Generator, design: int | None,
                     pos: int, neg: int, variants: int) -> None:
    """train_dice's positives and class-0 negatives (:func:`vision.training.train_dice.image_samples`,
    jitter 1.7 as the shipped classifier) of one image; positives get the die's design class (design
    ``design``; None: no class), gate 1 and cocked 0; negatives gate -2 (distilled later) and no class."""
    xs: list = []
    ys: list = []
    image_samples(image, boxes, rng, pos, neg, variants, 1.7, xs, ys, pip_negatives=0.15)
    for x, y in zip(xs, ys):
        if y > 0:
            out.add([x], int(y), 1.0, 0.0, -1 if design is None else design * 6 + int(y) - 1)
        else:
            out.add([x], 0, -2.0, -1.0, -1)


def rune55_groups() -> dict[str, list]:
    """rune55's labelled photos ((path, LabelledImage) pairs) by source group, in labels.csv's order."""
    images, _ = load_set(RUNE55)
    with open(RUNE55 / "sources.csv", newline="") as f:
        group = {row["file"]: row["source_group"] for row in csv.DictReader(f)}
    out: dict[str, list] = {}
    for item in images:
        if item.boxes:
            out.setdefault(group[item.file], []).append((RUNE55 / item.file, item))
    return out


def _thumbs(photos: list, dihedral: bool) -> np.ndarray:
    """Normalised 16x16 grey thumbnails (n, k, 256) of ``photos`` (k = 8 dihedral views or 1)."""
    out = []
    for path, _ in photos:
        g = cv2.resize(cv2.imread(str(path), cv2.IMREAD_GRAYSCALE), (16, 16), interpolation=cv2.INTER_AREA)
        views = [np.rot90(v, k) for v in (g, g.T) for k in range(4)] if dihedral else [g]
        t = np.stack([v.astype(np.float32).ravel() for v in views])
        t -= t.mean(axis=1, keepdims=True)
        t /= np.linalg.norm(t, axis=1, keepdims=True) + 1e-6
        out.append(t)
    return np.stack(out)


NEAR_COPY = 0.85
"""Correlation of 16x16 thumbnails (any quarter turn or mirror) above which a photo with the same dice
values as a left-out photo is taken for a near-copy of it (rune55's groups share re-exported scenes)."""


def near_copies(candidates: list, left_out: list) -> set[int]:
    """Indices of ``candidates`` that are near-copies (:data:`NEAR_COPY`) of a photo of ``left_out``."""
    if not candidates or not left_out:
        return set()
    held = _thumbs(left_out, dihedral=False)[:, 0]
    held_values = [tuple(sorted(it.values)) for _, it in left_out]
    cand = _thumbs(candidates, dihedral=True)
    out = set()
    for i, (_, item) in enumerate(candidates):
        corr = (cand[i] @ held.T).max(axis=0)
        values = tuple(sorted(item.values))
        if any(corr[j] >= NEAR_COPY and held_values[j] == values for j in np.flatnonzero(corr >= NEAR_COPY)):
            out.add(i)
    return out


def render_design(rng: np.random.Generator):
    """A random design for :func:`vision.training.dice_own_sets.render_own_die` and its extras: (Design,
    marbling strength 0 or 0.1-0.35, glyph face 0 or 1-6, glyph points (k, 2) on a unit square)."""
    from vision.training.dice_own_sets import Design
    from vision.training.dice_render import _colour, _pip_colour

    body = _colour(rng)
    if rng.random() < 0.3:
        pips = {v: tuple(float(c) for c in _pip_colour(body, rng)) for v in range(1, 7)}
    else:
        pip = tuple(float(c) for c in _pip_colour(body, rng))
        pips = {v: pip for v in range(1, 7)}
    look = Design("plain", tuple(float(c) for c in body), pips, float(rng.uniform(0.05, 0.22)),
                  float(rng.uniform(0.07, 0.11)), 1.0)
    marbling = float(rng.uniform(0.1, 0.35)) if rng.random() < 0.3 else 0.0
    glyph_face = int(rng.integers(1, 7)) if rng.random() < 0.35 else 0
    k = int(rng.integers(3, 8))
    angles = np.sort(rng.uniform(0, 2 * math.pi, k))
    radii = rng.uniform(0.15, 0.4, k)
    glyph = np.stack([0.5 + radii * np.cos(angles), 0.5 + radii * np.sin(angles)], axis=1)
    return look, marbling, glyph_face, glyph


def render_design_die(value: int, design, rng: np.random.Generator):
    """One die (DieCut) of ``design`` (:func:`render_design`) showing ``value``."""
    from vision.training.dice_own_sets import render_own_die
    from vision.training.dice_render import SIZE

    look, marbling, glyph_face, glyph = design
    cut = render_own_die(value, look, rng)
    img = cut.image[:, :, :3].astype(np.float32)
    x0, y0 = cut.square[0]
    if value == glyph_face:  # the face's pips painted over and a glyph drawn instead
        inner = (slice(int(y0 + 0.12 * SIZE), int(y0 + 0.88 * SIZE)), slice(int(x0 + 0.12 * SIZE), int(x0 + 0.88 * SIZE)))
        img[inner] = np.array(look.body, np.float32)
        pts = np.round((np.array([x0, y0]) + glyph * SIZE) * 4).astype(np.int32)
        cv2.fillPoly(img, [pts], look.pips[value], cv2.LINE_AA, 2)
        img = cv2.GaussianBlur(img, (0, 0), 0.7)
    if marbling:
        noise = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), img.shape[1::-1], interpolation=cv2.INTER_CUBIC)
        img *= (1.0 + marbling * noise)[..., None]
    cut.image[:, :, :3] = np.clip(img, 0, 255).astype(np.uint8)
    return cut


def rendered_samples(out: Samples, n_designs: int, first_class: int, rng: np.random.Generator) -> None:
    """``n_designs`` rendered designs, each two photos of six of its dice (every face once) apart on a
    plain or game table (:func:`vision.training.dice_clusters.make_image`); design ids from ``first_class``."""
    from vision.training.dice_clusters import CANVAS, make_image
    from vision.training.dice_game_tables import game_table

    for d in range(n_designs):
        design = render_design(rng)
        for _ in range(2):
            laid = [render_design_die(v, design, rng) for v in rng.permutation(np.arange(1, 7))]
            table = game_table(rng, (CANVAS[1], CANVAS[0])) if rng.random() < 0.25 else None
            scene = make_image(laid, rng, touching=False, sides=(36, 90), table=table, laid=laid)
            boxes = [(int(v), tuple(float(c) for c in b)) for v, b in zip(scene.values, scene.boxes)]
            labelled_samples(out, scene.image, boxes, rng, first_class + d, pos=3, neg=1, variants=1)


def cocked_samples(out: Samples, n_tables: int, rng: np.random.Generator) -> None:
    """Crops of ``n_tables`` rendered cocked tables (:func:`vision.training.dice_cocked.make_image`): a
    cocked die 4 jittered crops with cocked 1 and no face target, a flat one 2 with its value."""
    from vision.training.dice_cocked import make_image
    from vision.training.train_dice_cocked import jittered_crops

    for _ in range(n_tables):
        table = make_image(rng)
        for value, box, cocked in table.dice:
            crops = jittered_crops(table.image, box, 4 if cocked else 2, rng)
            out.add(crops, -1 if cocked else int(value), 1.0, float(cocked), -1)


def game_table_samples(out: Samples, n_tables: int, seed: int, rng: np.random.Generator) -> None:
    """Crops of the reader's found boxes on ``n_tables`` game tables with dice (and a third as many
    without): a box matched to a die gate 1, another gate 0 and face 0 (the gate's training data)."""
    from vision.training.dice_game_tables import make_game_set
    from vision.training.train_dice_cocked import jittered_crops
    from vision.training.train_dice_gate import found_boxes

    tables = make_game_set(n_tables, seed) + make_game_set(max(1, n_tables // 3), seed + 1, with_dice=False)
    for im in tables:
        for box, cls in found_boxes(im.image, im.boxes):
            out.add(jittered_crops(im.image, box, 2, rng), -1 if cls else 0, float(cls), -1.0, -1)


def distil_gate(arrays: dict[str, np.ndarray], networks, face: bool = False) -> int:
    """Fill the gate targets marked -2 with today's gate (``networks.heads``: mean P(a die) of the crop
    and its quarter turn); returns how many. ``face``: also set ``arrays["teacher"]`` (n, 7), today's face
    probabilities of every crop as it is (distilled where the face has a label)."""
    todo = np.flatnonzero(arrays["gate"] == -2.0)
    for i in range(0, len(todo), 512):
        idx = todo[i:i + 512]
        crops = arrays["x"][idx].astype(np.float32)
        turned = np.ascontiguousarray(np.rot90(crops, 1, axes=(2, 3)))
        gate = networks.heads(crops[:1], np.concatenate([crops, turned])).gate[:, 1]
        arrays["gate"][idx] = (gate[:len(idx)] + gate[len(idx):]) / 2
    if face:
        teacher = []
        for i in range(0, len(arrays["x"]), 512):
            crops = arrays["x"][i:i + 512].astype(np.float32)
            teacher.append(networks.heads(crops, crops[:1]).face)
        arrays["teacher"] = np.concatenate(teacher).astype(np.float32)
    return int(len(todo))



def photo_list(photos) -> list[str]:
    """File names of ``photos`` (for the manifest's data list)."""
    return [Path(p).name for p, _ in photos]
