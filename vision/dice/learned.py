"""Dice reader v3: the learned die detector finds the dice, the face classifier and the pip count read them.

``read_work_learned(work_bgr) -> list[DieReading] | None`` reads a work image (the frame scaled to a long
side of at most ``vision.dice.reader.WORK_MAX_SIDE`` px); :func:`vision.dice.reader.read_dice` calls it and does the
frame checks, scaling and ordering. None means the shipped detector is absent (the caller falls back to
the classical candidate finder). Steps:

1. :meth:`vision.dice.detect.DieDetector.detect_with_dropped`: die boxes and a detection score (heat-map
   peak, 0-1); a close-up die the detector's merge took for a group of small dice is restored, a big
   box over a cluster of small dice is split into them, and a doubted box much smaller than the frame's
   other dice is re-read at their size (:func:`split_clusters`).
2. Each box is cut out (:func:`vision.dice.model.face_crop`) for the face classifier
   (:func:`vision.dice.model.shipped_box_classifier`, trained on the detector's own boxes; P(no die face),
   P(1) .. P(6); a second classifier's opinion is averaged in where it is unsure, :func:`second_opinion`)
   and, unless the classifier is sure of it (PIPS_SKIP_BELIEF), its pips are counted on the
   3x3 lattice (:func:`vision.dice.pips.read_face`, with a rounded-square mask inside the box).
3. :func:`fuse` turns the three into a value and a confidence (the classifier reads each box in
   DIHEDRAL_VIEWS turned copies, :func:`dihedral_probabilities`); a die whose confidence is below FLAG_BELOW is
   flagged, one the classifier calls "no die face" with a weak detection is dropped.
4. A die whose box runs past the frame's edge (partly out of view) is flagged, never silently read.
   A 1 whose centre spot is hollow or ragged (:func:`vision.dice.pips.centre_spot_is_a_pip`: a card's
   digit in its white index box, a printed ring) is flagged too.

With a calibration of the empty play area (``companion calibrate dice``, :mod:`vision.dice.calibration`), a
detection on a part of the table that has not changed since (a board's printed circles, a card's pips, a
tray's screws) is dropped before it is read (:func:`on_the_empty_table`, EMPTY_CHANGED).

One parameter set for every table and camera; the constants say where they come from.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.dice.classical import read_work_classical
from vision.dice.detect import Detection, same_die, shipped_detector
from vision.dice.gate import die_probabilities
from vision.dice.model import face_crop, shipped_box_classifier, shipped_second_classifier
from vision.dice.pips import centre_spot_is_a_pip, read_face
from vision.dice.segment import lab_distance, to_lab
from vision.observation import DieReading

# Detections scoring below this are not reported (held-out byler photos: below 0.3 nearly all are
# table texture, tray corners or a die's side face).
REPORT_SCORE = 0.3
# A detection scoring below REPORT_SCORE is read after all, flagged, when the gate classifier
# (vision.dice.gate) gives it P(a die) at least RESCUE_GATE (set before measuring: "sure"; the
# dice-on-game-tables composites of seed 1 miss such dice among a board's print, scored 0.26-0.30).
RESCUE_GATE = 0.9
# A detection below SURE_SCORE is not sure to be a die: its confidence is capped below FLAG_BELOW.
SURE_SCORE = 0.5
# A detection whose box the classifier gives "no die face" at least this probability, and whose score
# is below SURE_SCORE, is dropped.
NO_DIE = 0.6
# The detections such a dropped box had swallowed (split_clusters) are read on their own with their score
# capped at this (below SURE_SCORE: flagged).
UNSURE_SCORE = 0.49
# A detection on which the pip count finds no face, in which the classifier believes less than this
# (P(die) * P(value)) and to which it gives P(no die face) at least NO_PIPS_NO_DIE, is dropped (byler
# training photos: of the detections the reader dropped with P(no die face) >= 0.5, 312 of 313 are
# tray screws, stains and corners; the 8 real dice it dropped for their pips alone all had P(no die
# face) <= 0.07: they now stay, flagged unless the classifier is sure). NO_PIPS_NO_DIE was 0.5 until the
# eleventh round; a speck of dust in a held-out byler photo (P(no die face) 0.49, belief 0.12) showed
# it. Of 0.5, 0.45, 0.4, 0.3, 0.2: out of fold on byler's training photos (vision.training.train_dice_flags, errata)
# all read the same; with the shipped models the synthetic close-ups lose a die at 0.2 and read the same
# from 0.3; 0.4 keeps a step of margin (the held-out photos: 0.952 -> 1.0 of 1-6 dice images exact).
NO_PIPS_BELIEF, NO_PIPS_NO_DIE = 0.5, 0.4
# A detection of any score the classifier gives P(no die face) at least NO_DIE_SURE is dropped unless its
# pips read a face with at least PIP_VETO confidence (byler_d6's white bar with a grey disc, which the
# detector scores 0.5-0.66 and the classifier 0.95-0.98 no die, and table specks). Set on byler's 149
# training photos (label errata applied), the synthetic clusters (seed 1) and 150 synthetic close-ups:
# 0.8 is the lowest of (0.5, 0.7, 0.8, 0.9, 0.95) that drops no real die the reader kept (at 0.7 a
# close-up's 4); 0.9 keeps a step of margin. Of the 230 detections it covers on the training photos
# none is a die.
NO_DIE_SURE = 0.9
# A frame with at least CROWDED sure detections (score >= SURE_SCORE) shows a set of dice: they give the
# die size (BIG_BOX), and there a detection the classifier is sure is no die face (NO_DIE_SURE) is dropped
# even when its pips read a clear 1 (a lone round spot - byler_d6's grey disc, a screw head - is the
# easiest fake die; a close-up of one die keeps the pips' say). byler's training photos: two more images
# read exactly (0.902 -> 0.915), out of fold flags 0.062 -> 0.060; the synthetic sets, byler's held-out
# photos, pi_cam_tray, ivory_grid and the bundled photos read the same.
CROWDED = 3
# A die only the detector found (v2's candidates missed it) goes unflagged only with this confidence.
ADDED_SURE = 0.8
# Object mask for the pip count (object_mask): ring around the box (fraction of its side) giving the
# table colour, and the object's threshold: OBJECT_LEVEL of the 90th-percentile distance, at least
# OBJECT_MIN_DIST Lab units (the foreground floor of vision.dice.segment is of the same order).
OBJECT_RING, OBJECT_LEVEL, OBJECT_MIN_DIST = 0.15, 0.4, 12.0
# The pips' likelihood of their own value is PIP_BASE + (1 - PIP_BASE) * confidence: a reading of
# confidence 0 is about as good as a guess (1/6), one of confidence 1 settles the value.
PIP_BASE = 0.2
# A die the classifier gives P(no die face) at least this is always flagged (a stain, a screw head
# or a tray corner read as a 1).
DOUBT_DIE = 0.5
# Flag a die whose confidence is below this. Calibrated for the classifiers of the ninth round (deeper
# nets, train_dice --deep, with the second opinion, SECOND_OPINION) on the byler_d6 training photos (149;
# the held-out 37, the bundled 14 and the other sets not looked at), each read with classifiers trained
# without it (2 folds, each fold's composites cut from its own photos only), against the labels with
# byler's label errata applied (python -m vision.training.train_dice_flags --folds DIR --second-folds DIR2 --n 2
# --margin 1 --errata assets/dice_model/byler_d6_label_errata.csv, see its docstring): 0.7 is the lowest
# threshold of unflagged precision >= 0.995 there (0.9971, 3 wrong of 1043 unflagged), and 0.75 one step
# of margin above it on the grid (0.9971; flag rate 0.062 with those weaker half-data classifiers; the
# eighth round's shallower ones: lowest 0.6, shipped 0.7 with 0.999 at flag rate 0.107). The step of
# margin was added last round after the lowest threshold showed a misread unflagged on byler's held-out
# photos.
FLAG_BELOW = 0.75
# Agreement of the pip count and the classifier counts (confidence 1 - (1 - belief)(1 - pip_conf)) when
# the classifier's belief is at least AGREE_BELIEF and the pips' confidence at least AGREE_PIPS (byler
# training dice the two read alike with pips >= 0.5, shipped classifier: belief below 0.6 wrong on 4 of
# 22, 0.6-0.8 on 0 of 52). Out of fold (vision.training.train_dice_flags, FLAG_BELOW 0.85) AGREE_BELIEF 0.5 left
# the same 4 wrong dice unflagged with fewer flags (0.368 vs 0.382), but with the shipped classifier the
# training photos then show 5 wrong unflagged dice of 816 instead of 3 of 806: kept at 0.6.
AGREE_BELIEF, AGREE_PIPS = 0.6, 0.5
# A pip count of at least this confidence that contradicts the classifier flags the die (byler training
# dice with shipped-classifier belief >= 0.8: contradicted by pips >= 0.5 the classifier was wrong on 2
# of 9, by weaker pips on 0 of 130).
PIP_VETO = 0.5
# A box the detector found with members (fine detections it took for its pips) is a cluster of small
# dice, not one close-up die, when the classifier doubts the big box (belief in its value below
# CLUSTER_DOUBT) and at least two members read as dice with belief CLUSTER_MEMBER or more and not all
# as 1 (a pip cut out alone looks like a 1). Set last round while looking at pi_cam_tray; checked on the
# byler_d6 training photos alone: without this split 5 more of their dice are missed (found 0.988 instead
# of 0.993).
CLUSTER_DOUBT, CLUSTER_MEMBER = 0.5, 0.5
# Unless the classifier is sure of the big box (belief CLUSTER_FACES or more), it is a cluster when at
# least two of its members read as faces other than 1 with belief CLUSTER_FACES or more: a close-up
# die's members are its pips, and a pip cut out alone reads as a 1 or as no face (byler_d6 training
# photo IMG_20191208_112404: a 284 px box grown over the coarse boxes of a cluster of 17 dice read as
# "4" with belief 0.6). Members read as faces of two or more different values make it a cluster whatever
# the big box's belief: a close-up die's members are its pips, which look alike and read alike (the
# ninth round's classifier reads ivory_grid's lone pips as 6s), while dice in a cluster show various
# faces (and it reads pi_cam_tray's whole tray of six dice as a "5" with belief 0.82). Found on those
# two sets (measured sets, so said here); byler's training photos and the synthetic sets read the same
# with or without it.
CLUSTER_FACES = 0.8
# A detection with members whose side is more than BIG_BOX times the median side of the frame's sure
# detections (score >= SURE_SCORE, at least CROWDED) is a tray or a cluster, not one die (dice of one game
# are of one size, as for SMALL_BOX): it is replaced by its members. Found on pi_cam_tray (a weak box
# over the whole tray read as a flagged "2", a die in it lost); byler's training photos: one false die
# fewer at 2 or 3, the synthetic sets unchanged.
BIG_BOX = 3.0
# A detection smaller than SMALL_BOX times the median side of the frame's sure detections (score >=
# SURE_SCORE, at least two) whose box the classifier doubts (belief below CLUSTER_DOUBT) is read again
# with a box of the median side around its centre, and the box the classifier believes more is kept:
# the size head under-estimates a die squeezed between touching neighbours. Dice of one game are of one
# size and lie about equally far from the camera. Set last round while looking at pi_cam_tray; on the
# byler_d6 training photos alone it leaves 4 more dice unflagged (all right) than without it.
SMALL_BOX = 0.75
# Fraction of a box's side that may lie outside the frame before the die counts as partly out of view.
EDGE_TOLERANCE = 0.12
# Views of each box the classifier reads (dihedral_probabilities): 8 (all), 4 (0 and 90 degrees, each
# also transposed) or 2. Byler training dice read right: 0.913 with one view, 0.937 with 2, 0.956 with 4
# and with 8; out of fold (vision.training.train_dice_flags) 4 views flag no more wrong dice than 8, in half the time.
DIHEDRAL_VIEWS = 4
# A detection the classifier believes less than this (P(die) * P(value)) gets a second opinion: the
# mean of its and the second classifier's probabilities (second_opinion; two nets trained alike with
# different seeds err on different dice, and averaging them is better calibrated: Lakshminarayanan et
# al. 2017, "Simple and scalable predictive uncertainty estimation using deep ensembles"). The second
# classifier looks at SECOND_VIEWS dihedral views (half its time). Set out of fold on byler's 149 training
# photos (python -m vision.training.train_dice_flags ... --second-folds DIR, label errata applied), each at the
# lowest flag threshold of unflagged precision >= 0.995: the first classifier alone flags 0.106 of the
# dice read and reads 0.805 of the images exactly; with a second opinion below 0.9 or 0.95 (4 views)
# 0.080 and 0.841, below 0.8 0.084; both classifiers on every die 0.084 at twice the time; below 0.9
# with 2 views 0.082 and 0.854. 0.9 asks about fewer dice than 0.95 for the same figures. Time: byler_d6
# median +1.3 ms (python -m vision.training.bench_dice). With the ninth round's deeper nets (out of fold, pips
# skipped from 0.95): the first alone 0.072 at its threshold (0.8) and 0.890; with a shallow second
# opinion 0.083 and 0.866; with the deep second classifier 0.069 (at 0.75) and 0.890.
SECOND_OPINION = 0.9
SECOND_VIEWS = 2
# A pip count of at least this confidence with the box's own mask is not read again with the object's
# mask (byler_d6 training photos: the same readings and flags either way).
PIPS_CLEAN = 0.9
# A sure detection (score >= SURE_SCORE) whose box the classifier reads with belief PIPS_SKIP_BELIEF or
# more is read without counting its pips (the pip count is about half of the reader's time, and above
# FLAG_BELOW it could only veto). Set on byler's 149 training photos, the synthetic clusters (seed 1) and
# 150 synthetic close-ups, and out of fold (vision.training.train_dice_flags' folds): with the ninth round's
# classifiers 0.85 is the lowest of (0.95, 0.9, 0.85) that changes no set's image accuracy, found or
# unflagged precision (out of fold: the same, with flag rate 0.069 -> 0.062, since fewer right dice are
# vetoed by a weak pip count); 0.9 keeps a step of margin (was 0.95 for the seventh round's classifier,
# which at 0.85 let a close-up's wrong die go unflagged). byler_d6 median 28 -> 23 ms.
PIPS_SKIP_BELIEF = 0.9
# With a calibration, a detection is part of the empty table when less than this fraction of its face
# mask differs from the calibrated empty area by more than the calibration's die threshold. Synthetic
# game tables (vision.training.dice_game_tables' tables; the table itself, with camera noise, as the calibration
# frames; seeds 1 and 3, 100 images each): see assets/dice_model/README.md (eleventh round).
EMPTY_CHANGED = 0.03
# The pip-count reading's mask inside the box: inset (fraction of the side) and corner radius.
MASK_INSET, MASK_RADIUS = 0.06, 0.2


def face_mask(w: int, h: int) -> np.ndarray:
    """A (h, w) uint8 0/1 rounded square inset MASK_INSET from a box's edges: the die's top face."""
    m = np.zeros((h, w), np.uint8)
    r = int(min(w, h) * MASK_RADIUS)
    i = int(min(w, h) * MASK_INSET)
    cv2.rectangle(m, (i + r, i), (w - 1 - i - r, h - 1 - i), 1, -1)
    cv2.rectangle(m, (i, i + r), (w - 1 - i, h - 1 - i - r), 1, -1)
    for cx, cy in ((i + r, i + r), (w - 1 - i - r, i + r), (i + r, h - 1 - i - r), (w - 1 - i - r, h - 1 - i - r)):
        cv2.circle(m, (cx, cy), r, 1, -1)
    return m


def object_mask(lab: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray | None:
    """(h, w) uint8 0/1 mask of the object at the centre of ``box`` (x0, y0, x1, y1) in a Lab work image,
    or None when nothing there stands out: pixels whose Lab distance (L halved) from the median colour
    of a ring OBJECT_RING of the side around the box exceeds max(OBJECT_MIN_DIST, OBJECT_LEVEL times its
    90th percentile), opened, the component covering most of the box's central third, holes filled."""
    x0, y0, x1, y1 = box
    H, W = lab.shape[:2]
    side = max(x1 - x0, y1 - y0)
    p = int(math.ceil(OBJECT_RING * side))
    X0, Y0, X1, Y1 = max(0, x0 - p), max(0, y0 - p), min(W, x1 + p), min(H, y1 + p)
    crop = lab[Y0:Y1, X0:X1]
    ring = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    d = crop - np.median(ring, axis=0)
    d[..., 0] *= 0.5
    dist = np.sqrt((d * d).sum(-1))
    level = max(OBJECT_MIN_DIST, OBJECT_LEVEL * float(np.percentile(dist, 90)))
    m = cv2.morphologyEx((dist > level).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents(m)
    cy, cx = (y0 + y1) // 2 - Y0, (x0 + x1) // 2 - X0
    centre = labels[max(0, cy - side // 6):cy + side // 6 + 1, max(0, cx - side // 6):cx + side // 6 + 1]
    counts = np.bincount(centre.ravel(), minlength=n)
    counts[0] = 0
    if counts.max() == 0:
        return None
    obj = (labels == int(np.argmax(counts))).astype(np.uint8)
    contours, _ = cv2.findContours(obj, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(obj)
    cv2.drawContours(filled, contours, -1, 1, cv2.FILLED)
    out = filled[y0 - Y0:y1 - Y0, x0 - X0:x1 - X0]
    return out if int(out.sum()) > 16 else None


def read_pips(lab: np.ndarray, box: tuple[int, int, int, int]):
    """The pip count of a detected die: :func:`vision.dice.pips.read_face` with the object's own mask
    (:func:`object_mask`; right on dice that stand out from the table) and with the rounded square
    inside the box (:func:`face_mask`; right on white dice on white paper); the more confident wins.
    A face-mask reading of at least PIPS_CLEAN confidence is kept without the second reading."""
    best = read_face(lab, box, face_mask(box[2] - box[0], box[3] - box[1]))
    if best.confidence >= PIPS_CLEAN and 1 <= best.value <= 6:
        return best  # a clean reading: the object's mask would not beat it (saves a third of the time)
    mask = object_mask(lab, box)
    if mask is not None:
        other = read_face(lab, box, mask)
        if other.confidence > best.confidence:
            best = other
    return best


def weak_no_die(score: float, probs: np.ndarray) -> bool:
    """True for a weak detection (score < SURE_SCORE) the classifier calls no die face (probs[0] >= NO_DIE):
    :func:`fuse` drops it whatever its pips read."""
    return score < SURE_SCORE and float(probs[0]) >= NO_DIE


def fuse(score: float, probs: np.ndarray, pip_value: int, pip_conf: float,
         crowded: bool = False) -> tuple[int, float] | None:
    """Value (1-6) and confidence (0-1) of one detection, or None when it is no die.

    score: detection score 0-1. probs: classifier probabilities (7,) (class 0 = no die face; the
    dihedral average of :func:`dihedral_probabilities`). pip_value / pip_conf: the pip count's value
    (0 when none, may exceed 6) and confidence 0-1.

    The value (best guess) maximises P_classifier(v | die) * L_pips(v), the pips' likelihood being
    PIP_BASE + (1 - PIP_BASE) * pip_conf for their value and the rest shared by the other five.
    The confidence is the classifier's belief in its value (P(die) * P(value)), except:
    the pips agree and both readers are fairly sure (belief >= AGREE_BELIEF, pip_conf >= AGREE_PIPS):
    1 - (1 - belief)(1 - pip_conf); the pips confidently contradict it (pip_conf >= PIP_VETO):
    belief * (1 - pip_conf); the pips' value won: pip_conf * (1 - belief). Each of the last two is
    capped below FLAG_BELOW, as is a detection the classifier gives P(no die face) >= DOUBT_DIE and a
    weak detection (score < SURE_SCORE).
    None (no die): a weak detection the classifier calls no die face (>= NO_DIE), one whose pips
    show no face, whose classifier belief is below NO_PIPS_BELIEF and which the classifier gives P(no
    die face) >= NO_PIPS_NO_DIE, or one the classifier is sure is no die face (>= NO_DIE_SURE) unless its
    pips read a face with confidence PIP_VETO or more (a face other than 1 when ``crowded``: the frame
    shows CROWDED sure detections or more).
    """
    p_die = 1.0 - float(probs[0])
    c_value = int(np.argmax(probs[1:])) + 1
    belief = p_die * float(probs[c_value])
    pips_ok = 1 <= pip_value <= 6
    if weak_no_die(score, probs):
        return None
    if not pips_ok and belief < NO_PIPS_BELIEF and float(probs[0]) >= NO_PIPS_NO_DIE:
        return None
    pips_show_a_die = pips_ok and pip_conf >= PIP_VETO and not (crowded and pip_value == 1)
    if float(probs[0]) >= NO_DIE_SURE and not pips_show_a_die:
        return None
    faces = np.asarray(probs[1:], np.float64) + 1e-6
    if pips_ok:
        likely = PIP_BASE + (1.0 - PIP_BASE) * pip_conf
        lik = np.full(6, (1.0 - likely) / 5)
        lik[pip_value - 1] = likely
        faces = faces * lik
    value = int(np.argmax(faces)) + 1
    capped = FLAG_BELOW * 0.98
    if value != c_value:
        conf = min(pip_conf * (1.0 - belief), capped)
    elif pips_ok and pip_value != c_value and pip_conf >= PIP_VETO:
        conf = min(belief * (1.0 - pip_conf), capped)
    elif pips_ok and pip_value == c_value and belief >= AGREE_BELIEF and pip_conf >= AGREE_PIPS:
        conf = 1.0 - (1.0 - belief) * (1.0 - pip_conf)
    else:
        conf = belief
    if score < SURE_SCORE or float(probs[0]) >= DOUBT_DIE:
        conf = min(conf, capped)
    return value, conf


def dihedral_probabilities(classifier, crops: np.ndarray, n_views: int | None = None,
                           first_view: np.ndarray | None = None) -> np.ndarray:
    """Classifier probabilities (n, 7) float32 of crops (n, 3, s, s), each the normalised geometric mean
    over ``n_views`` (2, 4, 6 or 8; default DIHEDRAL_VIEWS) copies of the crop (turned by 0, 90, 180, 270
    degrees, each also transposed: a d6 face shows the same value whichever way it lies, and several looks
    correct much of what one look gets wrong; see DIHEDRAL_VIEWS). One batch of n_views * n crops, or one
    fewer a crop when ``first_view`` ((n, 7), the classifier's probabilities of the crops as they are,
    already known: :func:`split_clusters` returns them) stands for the unturned view."""
    if len(crops) == 0:
        return np.zeros((0, 7), np.float32)
    views = []
    for k in range((n_views or DIHEDRAL_VIEWS) // 2):
        r = np.rot90(crops, k, axes=(2, 3))
        views += [r, r.transpose(0, 1, 3, 2)]
    if first_view is not None:
        views = views[1:]
    p = classifier.probabilities(np.ascontiguousarray(np.concatenate(views)))
    if first_view is not None:
        p = np.concatenate([np.asarray(first_view, np.float32), p])
    logp = np.log(p.astype(np.float64) + 1e-6).reshape(len(p) // len(crops), len(crops), -1).mean(0)
    g = np.exp(logp)
    return (g / g.sum(1, keepdims=True)).astype(np.float32)


def read_work_learned(work: np.ndarray, classifier=None, second=None,
                      calibration=None) -> list[DieReading] | None:
    """Read the dice of a BGR uint8 work image (h, w, 3); boxes in its pixels. None without the models.

    ``classifier`` / ``second``: :class:`vision.dice.model.FaceClassifier` objects to use instead of the
    shipped classifier and second classifier (the out-of-fold models of :mod:`vision.training.train_dice_flags`);
    with ``classifier`` given, ``second`` None means no second opinion. ``calibration``: a
    :class:`vision.dice.calibration.DiceCalibration` of the empty play area that fits the frame, or None:
    detections on the unchanged table are dropped (:func:`on_the_empty_table`)."""
    if classifier is None:
        classifier, second = shipped_box_classifier(), shipped_second_classifier()
    detector = shipped_detector()
    if detector is None or classifier is None:
        return None
    found, dropped = detector.detect_with_dropped(work)
    dets, first_view = split_clusters(work, found, classifier, dropped)
    if not dets:
        return []
    lab = to_lab(work)
    if calibration is not None:
        empty, level = calibration.background_lab(lab.shape[:2]), calibration.die_threshold
        keep = [i for i, d in enumerate(dets) if not on_the_empty_table(lab, empty, d.box, level)]
        dets, first_view = [dets[i] for i in keep], first_view[keep]
        if not dets:
            return []
    crops = np.stack([face_crop(work, d.box) for d in dets])
    probs = second_opinion(second, crops, dihedral_probabilities(classifier, crops, first_view=first_view))
    h, w = work.shape[:2]
    crowded = sum(d.score >= SURE_SCORE for d in dets) >= CROWDED
    out = []
    for d, p in zip(dets, probs):
        x0, y0, x1, y1 = d.box
        box = (max(0, math.floor(x0)), max(0, math.floor(y0)), min(w, math.ceil(x1)), min(h, math.ceil(y1)))
        if box[2] - box[0] < 4 or box[3] - box[1] < 4:
            continue
        if weak_no_die(d.score, p):
            continue  # fuse() drops it whatever its pips read: they are not counted
        if d.score >= SURE_SCORE and _belief(p)[1] >= PIPS_SKIP_BELIEF:
            fused = fuse(d.score, p, 0, 0.0)
        else:
            face = read_pips(lab, box)
            fused = fuse(d.score, p, face.value, face.confidence, crowded)
        if fused is None:
            continue
        value, conf = fused
        side = max(x1 - x0, 1.0)
        outside = max(-x0, -y0, x1 - w, y1 - h, 0.0) / side
        if outside > EDGE_TOLERANCE:
            conf = min(conf, FLAG_BELOW * 0.98)
        if value == 1 and conf >= FLAG_BELOW and not centre_spot_is_a_pip(lab, box, face_mask(box[2] - box[0], box[3] - box[1])):
            conf = FLAG_BELOW * 0.98  # a hollow or ragged "pip": a card's digit, a ring, no die's 1
        flagged = conf < FLAG_BELOW
        out.append(DieReading(value=value, box=box, confidence=round(float(conf), 4), flagged=bool(flagged)))
    return out


def on_the_empty_table(lab: np.ndarray, empty: np.ndarray, box, threshold: float) -> bool:
    """True when less than EMPTY_CHANGED of the face mask (:func:`face_mask`) of ``box`` (x0, y0, x1, y1,
    work pixels, may run past the frame) in the Lab work image ``lab`` (h, w, 3 float32,
    :func:`vision.dice.segment.to_lab`) differs from ``empty`` (the calibrated empty play area, the same
    shape: :meth:`vision.dice.calibration.DiceCalibration.background_lab`) by more than ``threshold``
    (its :attr:`~vision.dice.calibration.DiceCalibration.die_threshold`): nothing was put there since the
    calibration, so a die-like thing there is the table's own print."""
    h, w = lab.shape[:2]
    x0, y0 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    x1, y1 = min(w, math.ceil(box[2])), min(h, math.ceil(box[3]))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return False
    changed = lab_distance(lab[y0:y1, x0:x1], empty[y0:y1, x0:x1]) > threshold
    return float(changed[face_mask(x1 - x0, y1 - y0).astype(bool)].mean()) < EMPTY_CHANGED


def second_opinion(second, crops: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """``probs`` ((n, 7) dihedral probabilities of ``crops`` (n, 3, s, s) from the first classifier) with
    the rows whose belief (P(die) * P(value)) is below SECOND_OPINION replaced by the mean of theirs and
    the ``second`` classifier's dihedral probabilities; ``probs`` itself when ``second`` is None or no
    row is below."""
    if second is None or len(crops) == 0:
        return probs
    beliefs = (1.0 - probs[:, 0]) * probs[:, 1:].max(axis=1)
    unsure = np.flatnonzero(beliefs < SECOND_OPINION)
    if len(unsure) == 0:
        return probs
    out = probs.copy()
    out[unsure] = (probs[unsure] + dihedral_probabilities(second, crops[unsure], SECOND_VIEWS)) / 2
    return out


def _belief(p: np.ndarray) -> tuple[int, float]:
    value = int(np.argmax(p[1:])) + 1
    return value, (1.0 - float(p[0])) * float(p[value])


def split_clusters(work: np.ndarray, found, classifier, dropped=()) -> tuple[list, np.ndarray]:
    """The detections to read and their classifier probabilities ((n, 7) float32).

    found, dropped: the (detection, members) pairs and the boxes the detector's merge dropped
    (:meth:`vision.dice.detect.DieDetector.detect_with_dropped`). First a dropped box the classifier is
    sure of while nothing inside it reads as a die is one close-up die after all (:func:`_close_ups`).
    Detections scoring below
    REPORT_SCORE go, but for those the gate classifier is sure are dice (:func:`_gate_rescued`: read,
    flagged); a box with members more than BIG_BOX times the frame's die size is replaced by
    its members; a big box with members is replaced by its members (those that are not one die
    found twice, surest first) when it is a cluster of small dice (see CLUSTER_DOUBT, CLUSTER_FACES):
    the classifier arbitrates between "one close-up die" and "several dice"; a weak box (score below
    SURE_SCORE) the classifier calls no die face (NO_DIE), which :func:`fuse` would drop, is replaced by
    its members, their scores capped at UNSURE_SCORE (a dice tray seen as one big die must not take
    the dice in it away, nor may a close-up die's pips go unflagged); then doubted small boxes
    are re-read at the frame's die size (see SMALL_BOX), and of two boxes that are now one die found
    twice (:func:`vision.dice.detect.same_die`) the better believed stays. Returns the detections
    (:class:`vision.dice.detect.Detection`, possibly new boxes) in step with their one-view
    probabilities."""
    found = _close_ups(work, found, dropped, classifier)
    dets = [(d, [m for m in ms if m.score >= REPORT_SCORE]) for d, ms in found if d.score >= REPORT_SCORE]
    dets += _gate_rescued(work, [d for d, _ in found if d.score < REPORT_SCORE])
    if not dets:
        return [], np.zeros((0, 7), np.float32)
    boxes = [d for d, _ in dets] + [m for _, ms in dets for m in ms]
    probs = classifier.probabilities(np.stack([face_crop(work, b.box) for b in boxes]))
    out, out_p, k, lab = [], [], len(dets), None
    sure_sides = [d.side for d, _ in dets if d.score >= SURE_SCORE]
    die_side = float(np.median(sure_sides)) if len(sure_sides) >= CROWDED else None
    for i, (d, ms) in enumerate(dets):
        mp = probs[k:k + len(ms)]
        k += len(ms)
        if ms and die_side is not None and d.side > BIG_BOX * die_side:
            picked = _distinct(ms, [_belief(p)[1] for p in mp])  # a tray or a cluster, not one die
            out += [ms[j] for j in picked]
            out_p += [mp[j] for j in picked]
            continue
        if len(ms) >= 2:
            reads = [_belief(p) for p in mp]
            sure = [v for v, b in reads if b >= CLUSTER_MEMBER]
            faces = [v for v, b in reads if v != 1 and b >= CLUSTER_FACES]
            doubted = _belief(probs[i])[1] < CLUSTER_DOUBT and len(sure) >= 2 and any(v != 1 for v in sure)
            split = doubted or len(set(faces)) >= 2 or (len(faces) >= 2 and _belief(probs[i])[1] < CLUSTER_FACES)
            if split and not doubted:
                if lab is None:
                    lab = to_lab(work)
                split = not _pips_confirm(lab, d.box, probs[i])
            if split:
                picked = _distinct(ms, [b for _, b in reads])
                if len(picked) >= 2:
                    out += [ms[j] for j in picked]
                    out_p += [mp[j] for j in picked]
                    continue
        if ms and d.score < SURE_SCORE and float(probs[i][0]) >= NO_DIE:
            # fuse() drops this box as no die face (a tray, a cluster's outline): what it swallowed is
            # read on its own, but not sure (a weak box may also be a close-up die whose pips read as 1s)
            picked = _distinct(ms, [_belief(p)[1] for p in mp])
            out += [Detection(ms[j].box, min(ms[j].score, UNSURE_SCORE)) for j in picked]
            out_p += [mp[j] for j in picked]
            continue
        out.append(d)
        out_p.append(probs[i])
    out, out_p = _resize_small(work, out, np.stack(out_p), classifier)
    keep: list[int] = []  # a re-read box may now be a die found twice: the better believed stays
    for k in sorted(range(len(out)), key=lambda k: -_belief(out_p[k])[1]):
        if not any(same_die(out[k], out[q]) for q in keep):
            keep.append(k)
    keep.sort()
    return [out[k] for k in keep], out_p[keep]


def _pips_confirm(lab: np.ndarray, box, p: np.ndarray) -> bool:
    """True when the pips counted in ``box`` (work pixels; :func:`read_pips` on the Lab work image ``lab``)
    read the classifier's value (``p``: its (7,) probabilities) and both are fairly sure (AGREE_PIPS,
    AGREE_BELIEF): the box is one close-up die whatever its members, cut out alone, read as (a lone pip
    may read as any face)."""
    value, belief = _belief(p)
    if belief < AGREE_BELIEF:
        return False
    h, w = lab.shape[:2]
    x0, y0 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    x1, y1 = min(w, math.ceil(box[2])), min(h, math.ceil(box[3]))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return False
    face = read_pips(lab, (x0, y0, x1, y1))
    return face.value == value and face.confidence >= AGREE_PIPS


def _close_ups(work: np.ndarray, found: list, dropped, classifier) -> list:
    """``found`` (detection, members) pairs with each box the detector's merge ``dropped`` (see
    :meth:`vision.dice.detect.DieDetector.detect_with_dropped`) that is one close-up die in place of the
    found detections whose centres lie in it. It is one when the classifier is sure of it (belief
    CLUSTER_FACES or more, one view) and none of those detections reads as a die (belief CLUSTER_MEMBER
    or more): the fine level, trained on dice up to a fifth of the frame, boxes parts of a bigger die,
    which read as no die face, where the dice of a real cluster read as dice."""
    candidates = [g for g in dropped if g.score >= REPORT_SCORE]
    if not candidates:
        return found
    inside = [[i for i, (d, _) in enumerate(found) if _centre_in(d.box, g.box)] for g in candidates]
    boxes = candidates + [found[i][0] for ins in inside for i in ins]
    probs = classifier.probabilities(np.stack([face_crop(work, b.box) for b in boxes]))
    beliefs = [_belief(p)[1] for p in probs]
    found, k, gone = list(found), len(candidates), set()
    for g, ins, b in zip(candidates, inside, beliefs):
        if ins and b >= CLUSTER_FACES and not gone & set(ins) and all(beliefs[k + j] < CLUSTER_MEMBER
                                                              for j in range(len(ins))):
            gone |= set(ins)
            found.append((g, []))
        k += len(ins)
    return sorted((f for i, f in enumerate(found) if i not in gone), key=lambda f: -f[0].score)


def _gate_rescued(work: np.ndarray, weak: list) -> list:
    """(detection, no members) pairs of the ``weak`` detections (scores below REPORT_SCORE) that the gate
    classifier is sure are dice (P(a die) >= RESCUE_GATE), their scores capped at UNSURE_SCORE: read,
    and flagged for the players to confirm. On busy tables a die among print often scores just under
    REPORT_SCORE."""
    if not weak:
        return []
    p = die_probabilities(work, [d.box for d in weak])
    return [(Detection(d.box, min(d.score, UNSURE_SCORE)), []) for d, q in zip(weak, p) if q >= RESCUE_GATE]


def _distinct(dets: list, beliefs: list[float]) -> list[int]:
    """Indices of ``dets`` that are not one die found twice (:func:`vision.dice.detect.same_die`),
    surest (highest belief) first."""
    picked: list[int] = []
    for j in sorted(range(len(dets)), key=lambda j: -beliefs[j]):
        if not any(same_die(dets[j], dets[q]) for q in picked):
            picked.append(j)
    return picked


def _resize_small(work: np.ndarray, dets: list, probs: np.ndarray, classifier) -> tuple[list, np.ndarray]:
    """Re-read doubted boxes much smaller than the frame's sure dice at their size (see SMALL_BOX)."""
    sure = [d.side for d in dets if d.score >= SURE_SCORE]
    if len(sure) < 2:
        return dets, probs
    side = float(np.median(sure))
    redo = [i for i, d in enumerate(dets) if d.side < SMALL_BOX * side and _belief(probs[i])[1] < CLUSTER_DOUBT]
    if not redo:
        return dets, probs
    bigger = []
    for i in redo:
        x0, y0, x1, y1 = dets[i].box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        bigger.append(Detection((cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2), dets[i].score))
    new_p = classifier.probabilities(np.stack([face_crop(work, b.box) for b in bigger]))
    dets, probs = list(dets), probs.copy()
    for i, b, p in zip(redo, bigger, new_p):
        if _belief(p)[1] > _belief(probs[i])[1]:
            dets[i], probs[i] = b, p
    return dets, probs


def read_work_hybrid(work: np.ndarray, calibration=None) -> list[DieReading] | None:
    """Reader v2 (classical candidates, :func:`vision.dice.classical.read_work_classical`) plus every die the detector finds
    that v2 has not: a detection whose centre lies in no v2 die's box and whose box holds no v2 die's
    centre is read as in :func:`read_work_learned` and added, flagged unless its confidence is at least
    ADDED_SURE. None without the detector model."""
    learned = read_work_learned(work, calibration=calibration)
    if learned is None:
        return None
    classical = read_work_classical(work, calibration)
    out = list(classical)
    for d in learned:
        if not any(_centre_in(d.box, c.box) or _centre_in(c.box, d.box) for c in classical):
            if d.confidence < ADDED_SURE:  # v2 saw nothing there: only a clear reading goes unflagged
                d = DieReading(d.value, d.box, min(d.confidence, round(FLAG_BELOW * 0.98, 4)), True)
            out.append(d)
    return out


def _centre_in(inner, box) -> bool:
    cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]
