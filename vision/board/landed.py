"""The die that landed on the board: read where the board changed, with the unchanged print blanked out.

On the board the dice reader meets look-alikes: a yard's big circle with four pawns in it reads as a
four, printed circles as pips; and a die lying next to them is boxed together with them. What tells a
thrown die from the print is that it was not there before. :func:`landed_view` compares the frame with
a reference frame of the same board (the last settled board, read after the last move, aligned by
:func:`align_reference`), finds the compact blobs of change on the board (:func:`changed_mask`; changes
of the light, a shadow's band included, divided out first), and when exactly one blob is die-shaped and
more like a die than it was (the gate classifier's P(a die): not the place the last die was picked up
from), returns the frame with everything but that blob filled with the table's colour: the dice reader
then reads one die on a plain table. A shadow's edge or a hand is not die-shaped; two die-shaped blobs (a
pawn moved, a second object) give no view and the players are asked.

The constants were set looking at generated dga56 games (``companion ludo frames --die-on-board 1``,
seeds 1-3) and measured on other seeds and all three boards (``companion board eval --games 10
--die-on-board 1``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.board.light import light_map
from vision.dice.detect import overlap
from vision.dice.reader import DiceReader, shipped_reader

# A pixel has changed when a colour channel differs from the light-corrected reference by more than this
# many levels (0-255): a die's pips differ by 100+, a white die on cream print by 30-60, jpeg noise and
# shading by under 20.
CHANGED_LEVELS = 30
# Gaps in the change up to this share of the board's side are closed (the face of a white die on cream
# print changes less than its pips and edges), and lines as thin are opened away (what a moved shadow's
# edge leaves).
CLOSE_GAP = 0.015
# The light correction's median window as a share of the board's side: over twice a die's side (so a
# die survives it), small enough to follow a brightness gradient across the table.
LIGHT_WINDOW = 0.3
# A die-shaped blob: its side (the longer side of its box) between these shares of the board's side,
# at most this ratio of long to short side, and at least this share of its box filled.
BLOB_SIDE = (0.04, 0.25)
BLOB_ASPECT = 2.0
BLOB_FILL = 0.45
# ... and at least this share of a blob's pixels changed themselves: a ring of change (a printed circle
# seen a pixel off) encloses a disk that did not change.
BLOB_CHANGED = 0.4
# A blob whose box overlaps the last die's box by this much (over the smaller box) is the place the die
# left, not where it landed.
LEFT_PLACE = 0.5


@dataclass(frozen=True)
class Landed:
    """What :func:`landed_view` found: ``view`` (the frame with all but the landed blob filled, (h, w, 3)
    uint8, or None when not exactly one blob), ``blobs`` (the die-shaped blobs of change on the board,
    boxes ``(x0, y0, x1, y1)`` in frame pixels)."""

    view: np.ndarray | None
    blobs: tuple[tuple[int, int, int, int], ...]


def align_reference(reference_bgr: np.ndarray, reference_homography: np.ndarray,
                    homography: np.ndarray) -> np.ndarray:
    """The reference frame (h, w, 3) warped so that its board lies where the board lies now: both
    homographies map the board's grid to frame pixels (3x3, :meth:`vision.observation.BoardObservation.homography_array`).
    A board bumped between the two frames would otherwise change everywhere."""
    h, w = reference_bgr.shape[:2]
    move = homography @ np.linalg.inv(reference_homography)
    return cv2.warpPerspective(reference_bgr, move, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def changed_mask(frame_bgr: np.ndarray, reference_bgr: np.ndarray, window: int) -> np.ndarray:
    """Where ``frame_bgr`` differs from ``reference_bgr`` (both (h, w, 3) uint8, same shape): a (h, w)
    bool mask, true where some colour channel differs by more than :data:`CHANGED_LEVELS` after the
    light is corrected: each channel of the reference is scaled, pixel by pixel, by the median over
    ``window`` pixels of that channel's ratio of the two frames (:func:`vision.board.light.light_map`; a
    shadow is bluish).
    Raises ValueError when the shapes differ."""
    if frame_bgr.shape != reference_bgr.shape:
        raise ValueError(f"the reference frame is {reference_bgr.shape}, the frame {frame_bgr.shape}")
    now = frame_bgr.astype(np.float32) + 1.0
    before = reference_bgr.astype(np.float32) + 1.0
    return np.abs(now - before * light_map(now, before, window)).max(axis=2) > CHANGED_LEVELS


def landed_view(frame_bgr: np.ndarray, reference_bgr: np.ndarray, board_quad: np.ndarray,
                last_die: tuple[int, int, int, int] | None = None, reader: DiceReader | None = None) -> Landed:
    """The frame as the dice reader should see a die that landed on the board since ``reference_bgr``.

    frame_bgr, reference_bgr: (h, w, 3) uint8 frames of the same camera, the reference showing the
    settled board; board_quad: the board's corners in frame pixels ((4, 2), see
    :func:`vision.board.board_outline`); last_die: the box of the last die taken, or None; reader: the
    dice reader whose gate judges the blobs (default :func:`vision.dice.reader.shipped_reader`). A die
    picked up changes its old place too: a blob over ``last_die``, or one that the gate
    (:meth:`vision.dice.reader.DiceReader.die_likelihood`) finds no more like a die now than in the
    reference, is a place a die left, not where one landed. Returns a :class:`Landed`. Raises ValueError when the
    frames' shapes differ.
    """
    quad = np.asarray(board_quad, np.float32)
    board_side = float(np.sqrt(max(1.0, cv2.contourArea(quad))))
    raw = changed_mask(frame_bgr, reference_bgr, round(LIGHT_WINDOW * board_side)).astype(np.uint8)
    changed = cv2.morphologyEx(raw, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    close = max(3, round(CLOSE_GAP * board_side))
    changed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((close, close), np.uint8))
    contours, _ = cv2.findContours(changed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    changed = cv2.drawContours(np.zeros_like(changed), contours, -1, 1, cv2.FILLED)  # a die's face: no holes
    changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((close, close), np.uint8))  # a shadow's edge
    count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
    blobs = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        box = (x, y, x + w, y + h)
        if not _die_shaped(w, h, area, board_side) or raw[labels == label].mean() < BLOB_CHANGED:
            continue
        if cv2.pointPolygonTest(quad, (x + w / 2, y + h / 2), False) < 0:
            continue
        if last_die is not None and overlap(box, last_die) >= LEFT_PLACE:
            continue
        blobs.append((label, box))
    if blobs:  # a die was put there (more like a die now than before), not picked up from there
        boxes = [b for _, b in blobs]
        reader = reader or shipped_reader()
        now, before = reader.die_likelihood(frame_bgr, boxes), reader.die_likelihood(reference_bgr, boxes)
        blobs = [blob for blob, p, q in zip(blobs, now, before) if p > q]
    if len(blobs) != 1:
        return Landed(None, tuple(b for _, b in blobs))
    label, box = blobs[0]
    keep = cv2.dilate((labels == label).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    view = np.empty_like(frame_bgr)
    board = np.zeros(keep.shape, np.uint8)
    cv2.fillConvexPoly(board, np.rint(quad).astype(np.int32), 1)
    table = frame_bgr[board == 0]
    view[:] = np.median(table if len(table) else frame_bgr.reshape(-1, 3), axis=0).astype(np.uint8)
    view[keep] = frame_bgr[keep]
    return Landed(view, (box,))


def _die_shaped(w: int, h: int, area: int, board_side: float) -> bool:
    side = max(w, h)
    return (BLOB_SIDE[0] * board_side <= side <= BLOB_SIDE[1] * board_side
            and side <= BLOB_ASPECT * max(1, min(w, h)) and area >= BLOB_FILL * w * h)

