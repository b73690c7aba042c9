"""The learned die detector: a tiny CenterNet-style network that finds every die in a frame (where, how
big) without reading its value. Runs through ``cv2.dnn`` (``assets/dice_model/detect.onnx``; trained by
``python -m vision.training.train_dice_detect``, see assets/dice_model/README.md).

The network is fully convolutional: it takes a (1, 3, H, W) float32 image (H and W multiples of 32,
normalised by :func:`normalise`) and returns (1, 3, H/4, W/4): channel 0 the centre heat map (sigmoid,
0-1: the probability that a die's centre falls in this 4x4 cell), channel 1 the die side as
``log(side / STRIDE)``, channels 2-3 the centre's sub-cell offset (x, y) in cells.

:meth:`DieDetector.detect_with_dropped` runs it at the settings' ``detect_levels`` (the frame's long side
scaled to 320 px, where dice of about 8-70 px are found, and to 96 px for close-ups of one big die), keeps
the local maxima of the heat map above ``detect_min`` and merges the levels (a big-die box holding two or more small-die centres is
dropped; a box whose centre lies close to a higher-scoring one's, relative to the smaller box's side,
is the same die found twice and is dropped).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np


# Output stride of the heat map (input pixels per cell): the network's architecture.
STRIDE = 4
# Input padding unit of the network (it downsamples five times).
PAD_TO = 32


@dataclass(frozen=True)
class Detection:
    """One die found by the detector: box (x0, y0, x1, y1) float in pixels of the image passed to
    :func:`detect`, score 0-1 (the heat-map peak)."""

    box: tuple[float, float, float, float]
    score: float

    @property
    def side(self) -> float:
        return self.box[2] - self.box[0]


def normalise(image_bgr: np.ndarray) -> np.ndarray:
    """(H, W, 3) uint8 BGR -> (H, W, 3) float32: minus the image's mean, over its standard deviation
    (floored at 8 grey levels), so the exposure and the table's colour matter less."""
    x = image_bgr.astype(np.float32)
    x -= x.mean()
    x /= max(float(x.std()), 8.0)
    return x


def network_input(image_bgr: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """Scale ``image_bgr`` so its long side is ``long_side`` pixels, normalise and pad (zeros, right and
    bottom) to multiples of PAD_TO. Returns the (1, 3, H, W) float32 blob and the scale applied."""
    h, w = image_bgr.shape[:2]
    scale = long_side / max(h, w)
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(image_bgr, (sw, sh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    H, W = -(-sh // PAD_TO) * PAD_TO, -(-sw // PAD_TO) * PAD_TO
    blob = np.zeros((H, W, 3), np.float32)
    blob[:sh, :sw] = normalise(small)
    return np.ascontiguousarray(blob.transpose(2, 0, 1)[None]), scale


def decode(out: np.ndarray, scale: float, min_score: float) -> list[Detection]:
    """Detections from one network output (1, 4, h, w); boxes in pixels of the image before scaling."""
    heat, log_side, dx, dy = out[0, 0], out[0, 1], out[0, 2], out[0, 3]
    peaks = (heat >= min_score) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    found = []
    for y, x in zip(*np.nonzero(peaks)):
        cx = (x + float(dx[y, x]) + 0.5) * STRIDE / scale
        cy = (y + float(dy[y, x]) + 0.5) * STRIDE / scale
        half = math.exp(float(np.clip(log_side[y, x], -2.0, 6.0))) * STRIDE / scale / 2
        found.append(Detection((cx - half, cy - half, cx + half, cy + half), float(heat[y, x])))
    return found


def overlap(a, b) -> float:
    """Intersection area of two boxes over the smaller box's area (0-1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / max(1e-6, min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])))


class DieDetector:
    """The ONNX detector at ``path`` through cv2.dnn, with the merge settings of ``params``
    (:class:`vision.dice.params.DiceParams`: detect_levels, coarse_min_side, detect_min, dup_centre,
    twin_score, twin_size, pip_ratio). Raises cv2.error when OpenCV cannot read the file."""

    def __init__(self, path: str | Path, params) -> None:
        # One network per input shape: cv2.dnn re-plans a network whenever its input shape changes,
        # which costs more than the inference itself.
        self.path = str(path)
        self.params = params
        self.nets: dict[tuple[int, int], cv2.dnn.Net] = {}
        self._net((params.detect_levels[0], params.detect_levels[0]))

    def _net(self, shape: tuple[int, int]):
        net = self.nets.get(shape)
        if net is None:
            if len(self.nets) >= 8:  # frames of many sizes: keep the memory bounded
                self.nets.clear()
            net = self.nets[shape] = cv2.dnn.readNetFromONNX(self.path)
        return net

    def run(self, image_bgr: np.ndarray, long_side: int) -> list[Detection]:
        """Detections of one pyramid level (boxes in pixels of ``image_bgr``)."""
        blob, scale = network_input(image_bgr, long_side)
        net = self._net(blob.shape[2:])
        net.setInput(blob)
        return decode(net.forward(), scale, self.params.detect_min)

    def detect(self, image_bgr: np.ndarray) -> list[Detection]:
        """Every die in a BGR uint8 image (h, w, 3), highest score first (see :meth:`detect_with_dropped`)."""
        return [d for d, _ in self.detect_with_dropped(image_bgr)[0]]

    def detect_members(self, image_bgr: np.ndarray) -> list[tuple[Detection, list[Detection]]]:
        """The (detection, members) pairs of :meth:`detect_with_dropped` without the dropped boxes."""
        return self.detect_with_dropped(image_bgr)[0]

    def detect_with_dropped(self, image_bgr: np.ndarray, fine_side: int | None = None
                            ) -> tuple[list[tuple[Detection, list[Detection]]], list[Detection]]:
        """Every die in a BGR uint8 image (h, w, 3), highest score first; boxes in its pixels. ``fine_side``:
        the fine level's long side (px, a multiple of 32; None: ``detect_levels[0]``): a zoomed work image
        (:meth:`vision.dice.reader.DiceReader.read`) runs it larger, so that its dice reach the network at
        the size they would in an ordinary frame.

        The fine level (``detect_levels[0]``) finds dice of 1/40 to 1/5 of the long side, the coarse one
        close-ups. Merging the levels: a coarse (big-die) box holding the centres of two or more fine
        detections of at least pip_ratio of its side is a group of small dice and is dropped. Then,
        highest score first, a box of comparable size (neither is below pip_ratio of the other) whose
        centre lies within dup_centre of the smaller side of a kept box's centre goes (when it scores at
        least twin_score of that box's score and is of about its size, twin_size, the kept box grows to
        the square around both: :func:`square_hull`). Last, kept boxes inside another kept box and
        smaller than pip_ratio of its side are its pips and go.

        Returns the dice, as (detection, members) pairs: members are the detections dropped as the
        pips of that detection, or as its duplicates when smaller than it (empty for most), so that a
        reader can tell a close-up die from a cluster of small dice that a coarse box covers (both look
        alike to the merge: pips and dice in a cluster are 0.13-0.25 of the box's side and score alike);
        and the dropped boxes that may be a close-up die after all: coarse boxes dropped as groups of
        small dice and duplicates bigger than the box they were merged into. Only a reader can tell
        such a die from a group of dice (:class:`vision.dice.reader.DiceReader`).
        """
        p = self.params
        fine_side, coarse_side = fine_side or p.detect_levels[0], p.detect_levels[1]
        fine = self.run(image_bgr, fine_side)
        coarse_scale = coarse_side / max(image_bgr.shape[:2])
        coarse = [d for d in self.run(image_bgr, coarse_side) if d.side * coarse_scale >= p.coarse_min_side]
        dropped = []
        for c in coarse:
            if sum(_centre_in(f, c.box) and f.side >= p.pip_ratio * c.side for f in fine) < 2:
                fine.append(c)
            else:
                dropped.append(c)

        def pip_of(d: Detection, o: Detection) -> bool:
            return _centre_in(d, o.box) and d.side < p.pip_ratio * o.side and o.score >= d.score * 0.5

        # Duplicates first, among boxes of comparable size only (a pip-sized box is never the same
        # die as the box it lies in: that is settled below, once the kept boxes are known, so that
        # a coarse box dropped as a duplicate of a die takes no neighbours down as its "pips").
        kept: list[Detection] = []
        dups: list[list[Detection]] = []
        for d in sorted(fine, key=lambda d: -d.score):
            same = next((i for i, k in enumerate(kept)
                         if _comparable(d, k, p.pip_ratio) and same_die(d, k, p.dup_centre)), None)
            if same is None:
                kept.append(d)
                dups.append([])
            elif d.score >= p.twin_score * kept[same].score and min(d.side, kept[same].side) >= p.twin_size * max(
                    d.side, kept[same].side):
                # grown at once: later peaks are compared with the whole die
                kept[same] = square_hull([kept[same], d], kept[same].score)
            else:
                dups[same].append(d)
        final = [(d, ds) for d, ds in zip(kept, dups) if not any(o is not d and pip_of(d, o) for o in kept)]
        kept_boxes = [d for d, _ in final]
        # Members: the detections dropped as pips of a kept box (its pips, or the dice of a cluster it
        # covers) and, for a box bigger than them, as its duplicates (a box over two touching dice
        # swallows the peaks of both).
        dropped += [f for k, ds in final for f in ds if f.side > k.side]
        return [(k, [f for f in fine if f not in kept_boxes and f.box != k.box and pip_of(f, k)]
                 + [f for f in ds if f.side < k.side]) for k, ds in final], dropped


def square_hull(dets: list[Detection], score: float) -> Detection:
    """The square box (side: the longer side of the boxes' union) centred on the union of ``dets``."""
    x0, y0 = min(d.box[0] for d in dets), min(d.box[1] for d in dets)
    x1, y1 = max(d.box[2] for d in dets), max(d.box[3] for d in dets)
    cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) / 2
    return Detection((cx - half, cy - half, cx + half, cy + half), score)


def _comparable(a: Detection, b: Detection, pip_ratio: float) -> bool:
    """True when neither box is pip-sized for the other (the smaller side at least ``pip_ratio`` of the larger)."""
    return min(a.side, b.side) >= pip_ratio * max(a.side, b.side)


def same_die(a: Detection, b: Detection, dup_centre: float) -> bool:
    """True when two detections are one die found twice: their centres lie closer than ``dup_centre``
    (:attr:`vision.dice.params.DiceParams.dup_centre`) of the smaller box's side."""
    ax, ay = (a.box[0] + a.box[2]) / 2, (a.box[1] + a.box[3]) / 2
    bx, by = (b.box[0] + b.box[2]) / 2, (b.box[1] + b.box[3]) / 2
    return math.hypot(ax - bx, ay - by) < dup_centre * min(a.side, b.side)


def _centre_in(d: Detection, box) -> bool:
    cx, cy = (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]
