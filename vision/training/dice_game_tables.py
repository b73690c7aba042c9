"""Rendered game tables for the dice reader's training and measures (development only): the tables the box
looks at besides dice, our own games' cards and boards.

The box sits above a table where Schotten Totten or the card race is laid out, or a Ludo board lies; pips
of a die look like the printed circles of a Ludo yard, a card's corner index or a pawn seen from above, so
the dice reader's classifier learns them as "no die face" (``train_dice --game-tables``) and the reader is
measured on dice lying on them (:func:`main`). The tables come from the project's own renderers
(:mod:`vision.cards.render`, :mod:`vision.cards.render_other`, :mod:`vision.board.render`), so no
photograph of anyone else's is trained on.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import cv2
import numpy as np

# The kinds of table drawn, equally often.
KINDS = ("schotten_totten", "card_race", "ludo")


def game_table(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A BGR uint8 image (h, w, 3) of ``size`` (w, h): one of :data:`KINDS`, drawn at random, filling the
    frame (a zoomed part of the rendered scene, so cards and board print appear at the scale dice have)."""
    kind = KINDS[int(rng.integers(len(KINDS)))]
    if kind == "schotten_totten":
        from vision.cards.render import random_st_columns, render_st_scene

        frame = render_st_scene(rng, random_st_columns(rng, int(rng.integers(6, 30))))[0]
    elif kind == "card_race":
        from vision.cards.render import render_donkey_scene

        hands = [[int(v) for v in rng.integers(1, 16, int(rng.integers(1, 4)))] for _ in range(int(rng.integers(2, 5)))]
        frame = render_donkey_scene(rng, hands)[0]
    else:
        from companion.games.ludo import BOARD_NAMES, load_board
        from vision.board.render import Scene, random_position, render

        geometry = load_board(BOARD_NAMES[int(rng.integers(len(BOARD_NAMES)))])
        scene = Scene(size=(960, 960), turn=float(rng.uniform(0, 360)), tilt=float(rng.uniform(0, 20)),
                      fill=float(rng.uniform(0.7, 1.0)), gain=float(rng.uniform(0.7, 1.2)),
                      gradient=float(rng.uniform(0, 0.3)), seed=int(rng.integers(1 << 30)))
        frame = render(geometry, random_position(geometry, rng), scene).image
    return _zoomed(frame, rng, size)


def _zoomed(frame: np.ndarray, rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A random window of ``frame`` (0.5-1 of its short side, ``size``'s aspect) scaled to ``size``."""
    w, h = size
    fh, fw = frame.shape[:2]
    scale = rng.uniform(0.5, 1.0) * min(fw / w, fh / h)
    cw, ch = max(1, int(w * scale)), max(1, int(h * scale))
    x0, y0 = int(rng.integers(0, fw - cw + 1)), int(rng.integers(0, fh - ch + 1))
    window = frame[y0:y0 + ch, x0:x0 + cw]
    return cv2.resize(window, (w, h), interpolation=cv2.INTER_AREA if cw > w else cv2.INTER_LINEAR)


def make_game_set(n_images: int, seed: int, with_dice: bool = True):
    """``n_images`` :class:`vision.training.dice_clusters.ClusterImage` of byler's training dice (cut out, and 30 %
    drawn) lying on game tables (:func:`game_table`), half in touching clusters; ``with_dice=False``: the
    tables alone (no dice: every die read there is a false one). Generator seeded ``seed``."""
    from vision.training.dice_clusters import CANVAS, ClusterImage, make_image, training_cutouts
    from vision.training.dice_render import mixed_cuts

    rng = np.random.default_rng(seed)
    out = []
    if with_dice:
        cuts, _ = mixed_cuts(training_cutouts(), 0.3, seed)
    for i in range(n_images):
        table = game_table(rng, (CANVAS[1], CANVAS[0]))
        if with_dice:
            out.append(make_image(cuts, rng, touching=bool(i % 2), table=table))
        else:
            out.append(ClusterImage(table, np.zeros((0, 4), np.float32), np.zeros(0, np.int64),
                                    np.zeros((0, 4, 2), np.float32), math.nan, ()))
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.training.dice_game_tables OUT [--n N] [--seed S] [--no-dice]``: write a set (labels.csv,
    boxes.csv, images/) of dice on rendered game tables for ``companion dice eval``. Exit status 0; 2 without
    ``../shared/data/dice`` (the dice are cut from byler's training photos)."""
    from vision.training.dice_clusters import write_set

    parser = argparse.ArgumentParser(prog="python -m vision.training.dice_game_tables",
                                     description="Write a set of dice lying on rendered tables of our own games "
                                                 "(cards, a Ludo board) for companion dice eval.")
    parser.add_argument("out", help="folder to write (labels.csv, boxes.csv, images/)")
    parser.add_argument("--n", type=int, default=200, help="number of images (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    parser.add_argument("--no-dice", action="store_true", help="the tables alone")
    args = parser.parse_args(argv)
    try:
        write_set(make_game_set(args.n, args.seed, not args.no_dice), Path(args.out))
    except FileNotFoundError as error:
        print(f"cannot make the set: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
