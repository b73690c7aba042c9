"""Dice reader v2, the classical one: find each die in a BGR frame, count its pips, and check the count with a small learned
face classifier (:func:`vision.training.dice_classifier.shipped_classifier`, run through cv2.dnn).

Development only: the box reads with :mod:`vision.dice.reader` (v3); the training tools compare against
this reader (``"classical"``) and the hybrid (``"hybrid"``: v2 plus every die v3 finds that v2 has not,
:func:`read_work_hybrid`) through :func:`vision.training.dice_readers.reader_for`, which does the frame
checks, the work image and the reading order. Steps:

1. Check the frame (:class:`FrameError` for input that is not an image; an observation with ``problem``
   set and no dice for a black, saturated, uniform or tiny frame).
2. Scale it so the long side is at most 640 pixels (the *work image*, :func:`vision.dice.reader.work_image`).
3. Foreground: Lab distance from the calibrated empty table (:mod:`vision.dice.calibration`) when there
   is one for this frame size, else from an estimated table background (:mod:`vision.training.dice_segment`).
4. Candidates: whole foreground objects, and the flat face pieces that colour edges cut them into (so
   touching dice, a die against a tray wall, a top face against its side faces come apart).
5. Each candidate is read by :func:`vision.dice.pips.read_face`: pips found, fitted to the 3x3 d6 lattice,
   the value and a confidence from how cleanly the lattice is lit. The face classifier then votes on
   each candidate (:func:`_fuse`): agreement raises the confidence, disagreement lowers it, a candidate
   it is sure is no die face is dropped, and one the pips could not read gets the model's value, flagged.
6. A die-size prior (median of the confident candidates) drops face fragments and discounts
   oversized candidates; overlapping candidates keep the most confident one.
7. Boxes are scaled back to frame pixels; a die is flagged when its confidence is below FLAG_BELOW.

One parameter set serves every table and camera; the constants below say where they come from.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.dice.networks import face_crop
from vision.dice.pips import FaceReading, read_face
from vision.observation import DieReading
from vision.training.dice_classifier import shipped_classifier
from vision.training.dice_segment import (
    Region,
    face_regions,
    foreground_distance,
    object_regions,
    to_lab,
)

# Object sizes accepted as a die or a group of dice: side from 1/60 of the long side (smaller than
# any die we have seen) to 0.75 of the short side (a close-up of one die).
MIN_DIE_FRACTION, MAX_OBJECT_FRACTION = 1 / 60, 0.75
# Candidates (whole objects and face pieces) overlapping a more confident one by more than this
# fraction of the smaller box are the same die read twice (or a piece of it) and are dropped.
MAX_OVERLAP = 0.35
# A candidate's side over the frame's typical die side: below the first it is dropped (a patch of a
# face), above the second its confidence shrinks in proportion (maybe two dice, or a die's shadow).
SIZE_RANGE = (0.6, 1.45)
# Objects read with less confidence than this are not reported at all (a tray wall, a shadow with a
# speck); between this and FLAG_BELOW they are reported flagged.
REPORT_MIN = 0.05
# Radius of the opening for the second look at objects, as a fraction of the typical die side: cuts
# necks (a die touching a wall or another die through a shadow) narrower than 0.4 of a die.
OPEN_FRACTION = 0.2
# Typical die side (work pixels) from which face pieces are eroded by a pixel before they are
# separated: a 1-pixel gap in an edge then no longer joins two pieces, and a die of 40+ px loses
# nothing it needs; smaller dice would lose their pieces' shape.
ERODE_FACES_FROM = 40.0
# An object read at least this confidently is not read again piece by piece.
CLEAN = 0.8
# Flag a die whose confidence is below this.
FLAG_BELOW = 0.5
# Learned classifier fusion (see _fuse). A value offered by the classifier alone (the pips gave none)
# gets its vote times AGREE_DISCOUNT as confidence, so it is always flagged; the classifier must give
# the candidate a die-face probability of RESCUE_DIE and the value RESCUE_VALUE for that. Below
# DIE_LIKELY the die gets the doubt "model: no die face".
AGREE_DISCOUNT = 0.49
DIE_LIKELY = 0.5
RESCUE_DIE, RESCUE_VALUE = 0.8, 0.6
# A candidate the pips read unsurely (below FLAG_BELOW) is dropped when the classifier gives "no die
# face" at least this probability.
NO_DIE = 0.8
# Least confidence of a die the pips read confidently and the classifier contests: reported, flagged.
CONTESTED = 0.1
# Classifier probabilities below this carry no weight in the fusion (on held-out crops its answers
# under 0.6 are right about half the time; at 0.9 and over 99 %).
VOTE_FLOOR = 0.6
# A die only the learned reader found (v2's candidates missed it) goes unflagged in the hybrid
# (read_work_hybrid) only with this confidence.
ADDED_SURE = 0.8


def read_work_classical(work: np.ndarray, calibration=None) -> list[DieReading]:
    """Read the dice of a work image; boxes in work-image pixels.

    When the full background model yields no confident die, the coarse background alone gets a second
    try (it sees a close-up die whose blurred face the flat-region test took for table); the try with
    the more confident dice wins.
    """
    lab = to_lab(work)
    if calibration is not None:
        fg = foreground_distance(lab, background=calibration.background_lab(work.shape[:2]))
        dice = _read_with(work, lab, fg, calibration.die_side or None)
        if any(d.confidence >= FLAG_BELOW for d in dice):
            return dice
    dice = _read_with(work, lab, foreground_distance(lab))
    if not any(d.confidence >= FLAG_BELOW for d in dice):
        second = _read_with(work, lab, foreground_distance(lab, coarse_only=True))
        if sum(d.confidence for d in second) > sum(d.confidence for d in dice):
            dice = second
    return dice


def _read_with(work: np.ndarray, lab: np.ndarray, fg, known_side: float | None = None) -> list[DieReading]:
    """Candidates of one foreground map, read, filtered by the size prior and de-duplicated.

    ``known_side``: the calibrated die side (work pixels), the size prior when fewer than two dice
    are read confidently."""
    hw, ww = work.shape[:2]
    min_side = MIN_DIE_FRACTION * max(hw, ww)
    max_side = MAX_OBJECT_FRACTION * min(hw, ww)
    min_area, max_area = int(min_side ** 2), int(max_side ** 2)
    objects = [(r, read_face(lab, r.box, r.mask)) for r in object_regions(fg, min_area, max_area)]
    typical = _typical_side(objects) or known_side
    faces = face_regions(work, fg.mask, min_area, max_area,
                         erode=bool(typical and typical >= ERODE_FACES_FROM))
    if typical:  # skip reading pieces far too small to be a face (the patch between pips)
        faces = [r for r in faces if math.sqrt(r.area) >= SIZE_RANGE[0] * typical]
    # A die read cleanly as a whole object of typical size needs no second reading of its face.
    clean = [r.box for r, f in objects if f.confidence >= CLEAN and 1 <= f.value <= 6
             and (not typical or math.sqrt(r.area) <= SIZE_RANGE[1] * typical)]
    faces = [r for r in faces if all(_overlap(r.box, box) <= MAX_OVERLAP for box in clean)]
    reads = objects + [(r, read_face(lab, r.box, r.mask)) for r in faces]
    typical = _typical_side(reads) or known_side
    if typical:
        # Second look: objects cut apart where they join something by a neck narrower than a die.
        known = [r.box for r, f in reads if f.confidence >= FLAG_BELOW]
        for r in object_regions(fg, min_area, max_area, open_radius=OPEN_FRACTION * typical):
            if all(_overlap(r.box, box) <= MAX_OVERLAP for box in known):
                reads.append((r, read_face(lab, r.box, r.mask)))
    _fuse(work, reads)
    reads = [(r, f) for r, f in reads if 1 <= f.value <= 6 and f.confidence >= REPORT_MIN]
    typical = _typical_side(reads) or known_side
    if typical:
        kept = []
        for r, f in reads:
            ratio = math.sqrt(r.area) / typical
            if ratio < SIZE_RANGE[0]:
                continue
            if ratio > SIZE_RANGE[1]:
                f.confidence *= SIZE_RANGE[1] / ratio
                f.doubts.append("large")
            kept.append((r, f))
        reads = kept
    chosen: list[tuple[Region, FaceReading]] = []
    for r, f in sorted(reads, key=lambda rf: -rf[1].confidence):
        if f.confidence >= REPORT_MIN and all(_overlap(r.box, g.box) <= MAX_OVERLAP for g, _ in chosen):
            chosen.append((r, f))
    return [_die(r, f) for r, f in chosen]


def _fuse(work: np.ndarray, reads: list[tuple[Region, FaceReading]]) -> None:
    """Combine the pip count of each candidate with the learned face classifier
    (:func:`vision.training.dice_classifier.shipped_classifier`), in
    place. The classifier's vote is P(die face) * P(its value). Agreement raises the confidence
    (1 - (1 - pips)(1 - vote)); disagreement lowers it (pips * (1 - vote)) and keeps the pips' value; a
    candidate both readers doubt is dropped; one whose pips gave no value is kept, flagged, with the
    model's value when the model is sure it is a die (RESCUE_DIE, RESCUE_VALUE). Without the shipped
    model the pip count stands alone."""
    model = shipped_classifier()
    if model is None or not reads:
        return
    probs = model.probabilities(np.stack([face_crop(work, r.box) for r, _ in reads]))
    for (_, f), p in zip(reads, probs):
        p_die = 1.0 - float(p[0])
        value = int(np.argmax(p[1:])) + 1
        # The model's belief that this is a die showing `value`, counted from VOTE_FLOOR up: below that
        # its held-out accuracy is too low to add anything.
        vote = max(0.0, (p_die * float(p[value]) - VOTE_FLOOR) / (1.0 - VOTE_FLOOR))
        if not 1 <= f.value <= 6 or f.confidence < REPORT_MIN:
            # The pips gave no (believable) value: the model alone may offer one, always flagged.
            keep = p_die >= RESCUE_DIE and float(p[value]) >= RESCUE_VALUE
            f.value, f.confidence = value, (AGREE_DISCOUNT * vote if keep else 0.0)
            f.doubts.append("value from model only")
            continue
        if p_die < 1.0 - NO_DIE and f.confidence < FLAG_BELOW:
            f.confidence = 0.0  # neither reader believes in it
            continue
        if value == f.value:
            f.confidence = 1.0 - (1.0 - f.confidence) * (1.0 - vote)
        else:
            # Disagreement flags the die; a die the pips read confidently stays reported (the classifier
            # can be wrong on dice unlike its training photos), just flagged.
            lowered = f.confidence * (1.0 - vote)
            f.confidence = max(lowered, CONTESTED) if f.confidence >= FLAG_BELOW else lowered
            f.doubts.append("model disagrees")
            if p_die < DIE_LIKELY:
                f.doubts.append("model: no die face")


def _typical_side(reads: list[tuple[Region, FaceReading]]) -> float | None:
    """Die size prior: the median side (pixels) of the confidently read candidates, None with fewer
    than two. A candidate much smaller is a piece of a face; much larger, several dice or a shadow."""
    sure = [math.sqrt(r.area) for r, f in reads if 1 <= f.value <= 6 and f.confidence >= FLAG_BELOW]
    return float(np.median(sure)) if len(sure) >= 2 else None


def _overlap(a, b) -> float:
    """Intersection area over the smaller box's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))


def _die(region: Region, reading: FaceReading) -> DieReading:
    value = min(max(reading.value, 1), 6)
    conf = reading.confidence
    flagged = bool(conf < FLAG_BELOW or reading.value > 6)
    return DieReading(value=value, box=region.box, confidence=round(float(conf), 4), flagged=flagged)


def read_work_hybrid(work: np.ndarray, calibration=None) -> list[DieReading]:
    """Reader v2 (:func:`read_work_classical`) plus every die the learned reader
    (:func:`vision.dice.reader.shipped_reader`, run on the work image: its boxes are then in work pixels)
    finds that v2 has not: a learned die whose centre lies in no v2 die's box and whose box holds no v2
    die's centre is added, flagged (confidence capped under the learned reader's flag_below) unless its
    confidence is at least ADDED_SURE. ``calibration``: as for :func:`read_work_classical` (made for the
    frame this work image was scaled from; the learned reader gets it for the work image's size).
    Boxes in work-image pixels."""
    from vision.dice.reader import shipped_reader

    reader = shipped_reader()
    if calibration is not None:
        calibration = replace(calibration, frame_shape=tuple(work.shape[:2]))
    learned = reader.read(work, calibration).dice
    classical = read_work_classical(work, calibration)
    capped = round(reader.params.capped, 4)
    out = list(classical)
    for d in learned:
        if not any(_centre_in(d.box, c.box) or _centre_in(c.box, d.box) for c in classical):
            if d.confidence < ADDED_SURE:  # v2 saw nothing there: only a clear reading goes unflagged
                d = DieReading(d.value, d.box, min(d.confidence, capped), True, d.cocked)
            out.append(d)
    return out


def _centre_in(inner, box) -> bool:
    cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]
