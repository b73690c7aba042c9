"""The dice reader as one recognizer: ``DiceReader(params, networks).read(frame_bgr, calibration=None) ->
DiceObservation``.

Built once from its settings (:class:`vision.dice.params.DiceParams`, ``assets/dice_model/params.json``)
and its networks (:class:`vision.dice.networks.DiceNetworks`, passed in: a test may hand in its own).
A read checks the frame, makes the work image (long side ``work_max_side``), and runs four stages over
one :class:`Candidates` value, whose crops are cut once:

1. **detect**: the die detector's boxes (:meth:`vision.dice.detect.DieDetector.detect_with_dropped`),
   with what its merge took for their pips or dropped, weak detections and, for a box much smaller than
   the frame's dice, a box of their size around it: every box a later stage may ask about.
2. **classify**: one network pass for every candidate (:meth:`~vision.dice.networks.DiceNetworks.heads`):
   face (the crop as it is and transposed), gate (is it a die at all?) and cocked (as it is and turned).
3. **check**: which candidates are dice (:meth:`DiceReader._select`: a close-up die or a cluster of small
   dice, a tray, a die found twice, a weak detection the gate is sure of, a detection on the calibrated
   empty table); a second pass for the dice the first left unsure (:meth:`DiceReader._recheck`: two more
   views and the second classifier); the pip count where the classifier alone does not settle the value.
4. **decide**: value, confidence and flag of each die (:meth:`DiceReader._decide`): the classifier and
   the pips fused, then flagged when unsure, partly out of view, cocked, doubted by the gate, or too big
   to lie among the others.

A die therefore costs at most two classifier passes (the detector runs twice a frame, at two scales).
A frame larger than the work image whose dice are small there (:meth:`DiceReader._zoomed_side`: the dice
read have a median side under ``zoom_below`` px) is read again at its own scale (at most ``zoom_max_side``),
the detector's fine level grown with it: a phone photo or a camera mounted high (issue 49).
:func:`read_dice` reads with the shipped reader (:func:`shipped_reader`, built on first use).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from vision.dice.detect import PAD_TO as PAD, Detection, same_die
from vision.dice.learning import LearnedFaces, normalise
from vision.dice.networks import FEATURES, MAX_BATCH, DiceNetworks, face_crop, model_dir
from vision.dice.params import PARAMS_FILE, DiceParams, load_params
from vision.dice.pips import LabImage, face_mask, lab_distance, read_pips, to_lab
from vision.frames import MIN_FRAME_SIDE, check_frame, frame_problem
from vision.observation import DiceObservation, DieReading

# The reasons a die is flagged (:meth:`DiceReader.read_with_reasons`), measured one by one by
# ``python -m vision.training.dice_flags_report``.
UNSURE = "unsure"  # the classifier's belief (with the pips) under flag_below
WEAK = "weak detection"  # detection score under sure_score
NO_FACE = "no die face"  # the classifier gives P(no die face) >= doubt_die
PIPS_DISAGREE = "pips disagree"  # the pip count won over the classifier, or vetoed it
DISAGREES = "learned disagrees"  # the learned faces and the shipped classifier read other values
EDGE = "edge"  # partly out of view
COCKED = "cocked"
GATE = "gate"  # the gate doubts it is a die
OVERSIZED = "oversized"  # too big to lie among the others
FACE_INDEPENDENT = frozenset({WEAK, EDGE, COCKED, GATE, OVERSIZED})
"""The reasons a die is flagged that its face's classification does not decide: learning the players' dice
(:mod:`vision.dice.learning`) cannot lift them, so its check counts such a die as asked whatever it reads."""


@dataclass
class Candidates:
    """Every box a frame's dice may be, with its crop cut once and the first pass's answers.

    boxes: the :class:`vision.dice.detect.Detection` list (work pixels). members: for each detection the
    indices of what the detector's merge took for its pips (or the dice of a cluster it covers); dropped:
    the boxes the merge dropped that may be a close-up die; bigger: for a small box, the index of the box
    of the frame's die side around it. crops: (n, 3, s, s) float32, each box's crop as it is
    (:func:`vision.dice.networks.face_crop`); ``face1`` and ``face_t`` (n, 7) the face classifier's
    probabilities of it and of its transpose, ``face2`` (n, 7) their normalised geometric mean; ``gate``
    (n,) P(a die) and ``cocked`` (n,) P(cocked), the mean over the crop as it is and turned by a quarter
    (of four quarter turns once the second pass has asked about the die); ``features`` (n, c) the face
    classifier's features (L2-normalised mean of the two views), None without them."""

    boxes: list[Detection]
    members: dict[int, list[int]] = field(default_factory=dict)
    dropped: list[int] = field(default_factory=list)
    bigger: dict[int, int] = field(default_factory=dict)
    crops: np.ndarray | None = None
    face1: np.ndarray | None = None
    face_t: np.ndarray | None = None
    face2: np.ndarray | None = None
    gate: np.ndarray | None = None
    cocked: np.ndarray | None = None
    features: np.ndarray | None = None
    lab: LabImage | None = None

    def lab_around(self, work: np.ndarray, box) -> np.ndarray:
        """The Lab image of ``work`` (the work image these boxes are in), converted at least around ``box``
        (:class:`vision.dice.pips.LabImage`, made on first use: a frame whose dice need no pip count
        converts nothing)."""
        if self.lab is None:
            self.lab = LabImage(work)
        return self.lab.around(box)

    def add(self, box: Detection) -> int:
        """Index of ``box``, appended unless the same box is there already."""
        for i, b in enumerate(self.boxes):
            if b.box == box.box:
                return i
        self.boxes.append(box)
        return len(self.boxes) - 1


@dataclass
class Die:
    """A candidate the check stage took for a die: ``index`` into the candidates, its detection ``score``
    (capped for the doubtful), ``probs`` (7,) the face probabilities it is read with; ``disagrees``: the
    learned faces and the shipped classifier read it otherwise (:mod:`vision.dice.learning`)."""

    index: int
    score: float
    probs: np.ndarray
    disagrees: bool = False


class DiceReader:
    """The dice recognizer: settings and networks, built once, then :meth:`read` for each frame.

    ``params``: :class:`vision.dice.params.DiceParams`; ``networks``: an object with the methods of
    :class:`vision.dice.networks.DiceNetworks` (``detector``, ``heads``, ``recheck``); ``learned``: the
    players' own dice (:class:`vision.dice.learning.LearnedFaces`) or None (the shipped reader alone)."""

    def __init__(self, params: DiceParams, networks: DiceNetworks, learned: LearnedFaces | None = None) -> None:
        self.params = params
        self.networks = networks
        self.learned = learned

    def with_learned(self, learned: LearnedFaces | None) -> DiceReader:
        """This reader's settings and networks with ``learned`` (None: the shipped reader alone)."""
        return DiceReader(self.params, self.networks, learned)

    def die_crops(self, frame_bgr: np.ndarray, boxes) -> np.ndarray:
        """The classifier's crops (n, 3, s, s) float32 of the dice at ``boxes`` ((x0, y0, x1, y1) frame
        pixels, as a :class:`DiceObservation` gives them), cut from the work image as a read cuts them:
        what :mod:`vision.dice.learning` keeps of a confirmed roll."""
        p = self.params
        if len(boxes) == 0:
            return np.zeros((0, 3, p.crop_size, p.crop_size), np.float32)
        check_frame(frame_bgr)
        work, scale = work_image(frame_bgr, p.work_max_side)
        return np.stack([face_crop(work, [v * scale for v in b], p.crop_size, p.crop_margin) for b in boxes])

    def die_features(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The face classifier's features (n, c) (L2-normalised mean of the crop as it is and transposed,
        as a read takes them) and its probabilities (n, 7) (their normalised geometric mean) of ``crops``
        (n, 3, s, s), in one pass."""
        n = len(crops)
        both = np.concatenate([crops, crops.transpose(0, 1, 3, 2)]) if n else crops
        heads = self.networks.heads(both, both[:1])  # the gate and cocked heads' answers are not asked for
        if n == 0 or heads.features is None:
            return np.zeros((n, FEATURES), np.float32), heads.face[:n]
        return (normalise((heads.features[:n] + heads.features[n:]) / 2),
                _geometric_mean([heads.face[:n], heads.face[n:]]))

    # ------------------------------------------------------------------------------------ the read

    def read(self, frame_bgr: np.ndarray, calibration=None) -> DiceObservation:
        """Find the dice in a BGR uint8 frame (h, w, 3) and read their values.

        Returns a DiceObservation: dice in reading order (rows top to bottom, left to right within a
        row), boxes in frame pixels, ``ms`` the wall time of this call in milliseconds. A black,
        saturated or uniform frame, or one smaller than MIN_FRAME_SIDE pixels a side, gives no dice and
        ``problem`` set. ``calibration``: a :class:`vision.dice.calibration.DiceCalibration` or None; used
        only when made for frames of this size: a detection on the part of the table nothing was put on
        since (a board's or a card's print) is dropped. Raises FrameError for input that is not a
        non-empty (h, w, 3) uint8 numpy array."""
        return self.read_with_reasons(frame_bgr, calibration)[0]

    def read_with_reasons(self, frame_bgr: np.ndarray, calibration=None
                          ) -> tuple[DiceObservation, tuple[frozenset[str], ...]]:
        """:meth:`read` and, for each die of the observation (same order), the reasons it is flagged
        (:data:`UNSURE`, :data:`WEAK`, ...; empty for a die offered as sure)."""
        start = time.perf_counter()
        check_frame(frame_bgr)
        h, w = frame_bgr.shape[:2]
        if min(h, w) < MIN_FRAME_SIDE:  # checked before scaling: a thin frame would scale to 0 px
            return DiceObservation(dice=(), frame_shape=(h, w), ms=(time.perf_counter() - start) * 1000.0,
                                   problem=frame_problem(cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY))), ()
        work, scale = work_image(frame_bgr, self.params.work_max_side)
        problem = frame_problem(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY))
        found: list[tuple[DieReading, frozenset[str]]] = []
        if problem is None:
            if calibration is not None and not calibration.fits((h, w)):
                calibration = None
            measured = calibration is not None and calibration.die_side > 0
            side = self._zoomed_side(max(h, w), [], calibration) if measured else None
            if side is None:
                found = self._read_work(work, calibration)
                side = None if measured else self._zoomed_side(max(h, w), [r.box for r, _ in found], None)
            if side is not None:
                work, scale = work_image(frame_bgr, side)
                found = self._read_work(work, calibration, side / self.params.work_max_side)
            found = [(_to_frame(d, scale, (w, h)), why) for d, why in found]
            found = _reading_order(found)
        ms = (time.perf_counter() - start) * 1000.0
        return (DiceObservation(dice=tuple(d for d, _ in found), frame_shape=(h, w), ms=ms, problem=problem),
                tuple(why for _, why in found))

    def _read_work(self, work: np.ndarray, calibration, zoom: float = 1.0) -> list[tuple[DieReading, frozenset[str]]]:
        """The four stages on one work image (boxes in its pixels), with the reasons each die is flagged.
        ``zoom``: the work image's long side over ``work_max_side`` (> 1: zoomed for small dice; the
        detector's fine level grows with it)."""
        fine = None if zoom <= 1.0 else max(PAD, round(self.params.detect_levels[0] * zoom / PAD) * PAD)
        cands = self._detect(work, fine)
        self._classify(work, cands)
        dice = self._select(work, cands, calibration)
        dice = self._recheck(cands, dice)
        return self._decide(work, cands, dice)

    def _zoomed_side(self, long_side: int, boxes: list, calibration) -> int | None:
        """The work image's long side (px) to read a frame of ``long_side`` px at instead of
        ``work_max_side`` because its dice are small there, or None: the frame's own scale, at most
        ``zoom_max_side``. The dice's side (work px at ``work_max_side``): the calibration's ``die_side``
        (measured on dice laid out at calibration) when it has one, else the median longer side of the
        ``boxes`` of the dice read at the ordinary size ((x0, y0, x1, y1) work px; none: None): what the
        detector alone boxes is no measure (a crowd of small dice comes out as a few large boxes, which the
        reader splits into its dice). Small: under ``zoom_below``; a gain under a quarter is not worth a
        read."""
        p = self.params
        if p.zoom_below <= 0 or long_side <= p.work_max_side:
            return None
        if calibration is not None and calibration.die_side > 0:
            side = float(calibration.die_side)
        elif boxes:
            side = float(np.median([max(x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes]))
        else:
            return None
        target = min(long_side, p.zoom_max_side)
        return target if side < p.zoom_below and target >= 1.25 * p.work_max_side else None

    def die_likelihood(self, image_bgr: np.ndarray, boxes) -> np.ndarray:
        """P(a die) (n,) float32 in 0-1 of the gate for boxes ((x0, y0, x1, y1) pixels of a BGR uint8
        image), the mean over four quarter turns, one pass: the Ludo reader asks it whether a die landed
        on the board."""
        if len(boxes) == 0:
            return np.zeros(0, np.float32)
        p = self.params
        crops = np.stack([face_crop(image_bgr, b, p.crop_size, p.crop_margin) for b in boxes])
        turns = np.concatenate([np.rot90(crops, k, axes=(2, 3)) for k in range(4)])
        gate = self.networks.heads(crops, turns).gate[:, 1]
        return gate.reshape(4, len(boxes)).mean(axis=0).astype(np.float32)

    # ---------------------------------------------------------------------------------- the stages

    def _detect(self, work: np.ndarray, fine_side: int | None = None) -> Candidates:
        """Stage 1: every box a later stage may ask about. The detections (all scores: the weak ones
        may be rescued by the gate, and a close-up die replaces those inside it), the members of those
        scoring report_score or more, the boxes the merge dropped scoring that much (a close-up die?),
        and around each box smaller than small_box times the frame's die side (the median side of its
        sure detections, two at least) a box of that side (the size head under-estimates a die
        squeezed between touching neighbours). ``fine_side``: the detector's fine level (None: its own)."""
        p = self.params
        found, dropped = self.networks.detector.detect_with_dropped(work, fine_side)
        cands = Candidates([])
        for d, ms in found:
            i = cands.add(d)
            cands.members[i] = [cands.add(m) for m in ms if m.score >= p.report_score]
        cands.dropped = [cands.add(g) for g in dropped if g.score >= p.report_score]
        sure = [d.side for d, _ in found if d.score >= max(p.report_score, p.sure_score)]
        if len(sure) >= 2:
            side = float(np.median(sure))
            for i in range(len(cands.boxes)):
                b = cands.boxes[i]
                if b.side < p.small_box * side:
                    cx, cy = (b.box[0] + b.box[2]) / 2, (b.box[1] + b.box[3]) / 2
                    cands.bigger[i] = cands.add(
                        Detection((cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2), b.score))
        return cands

    def _classify(self, image: np.ndarray, cands: Candidates) -> None:
        """Stage 2: cut each candidate's crop once and ask the first pass about it, its transpose (face) and
        its quarter turn (gate, cocked)."""
        p = self.params
        n = len(cands.boxes)
        if n == 0:
            cands.crops = np.zeros((0, 3, p.crop_size, p.crop_size), np.float32)
            cands.face1 = cands.face_t = cands.face2 = np.zeros((0, 7), np.float32)
            cands.gate = cands.cocked = np.zeros(0, np.float32)
            return
        crops = np.stack([face_crop(image, b.box, p.crop_size, p.crop_margin) for b in cands.boxes])
        heads = self.networks.heads(np.concatenate([crops, crops.transpose(0, 1, 3, 2)]),
                                    np.concatenate([crops, np.rot90(crops, 1, axes=(2, 3))]))
        cands.crops = crops
        cands.face1, cands.face_t = heads.face[:n], heads.face[n:]
        cands.face2 = _geometric_mean([cands.face1, cands.face_t])
        cands.gate = (heads.gate[:n, 1] + heads.gate[n:, 1]) / 2
        cands.cocked = (heads.cocked[:n, 1] + heads.cocked[n:, 1]) / 2
        if self.learned is not None and self.learned.faces_used and heads.features is not None:
            cands.features = normalise((heads.features[:n] + heads.features[n:]) / 2)

    def _select(self, work: np.ndarray, cands: Candidates, calibration) -> list[Die]:
        """Stage 3a: which candidates are dice, with their one-view probabilities (the classifier
        arbitrates between "one close-up die" and "several dice", see DiceParams' cluster_* settings).

        A dropped box the classifier is sure of while nothing inside it reads as a die is one close-up
        die (:meth:`_close_ups`). Detections scoring below report_score go, but those the gate is sure
        are dice (rescue_gate; score capped at unsure_score: flagged). A box with members more than
        big_box times the frame's die size is replaced by its members; a big box with members is
        replaced by them when it is a cluster of small dice; a weak box the classifier calls no die
        face (which the decision would drop) is replaced by its members, their scores capped at
        unsure_score. Doubted small boxes are read at the frame's die size where that box is believed
        more; of two boxes that are one die found twice the better believed stays. With a calibration,
        detections on the unchanged empty table go."""
        p = self.params
        f1 = cands.face1
        found = self._close_ups(cands)
        dets = [(i, cands.members.get(i, []), cands.boxes[i].score) for i in found
                if cands.boxes[i].score >= p.report_score]
        dets += [(i, [], min(cands.boxes[i].score, p.unsure_score)) for i in found
                 if cands.boxes[i].score < p.report_score and cands.gate[i] >= p.rescue_gate]
        sure_sides = [cands.boxes[i].side for i, _, s in dets if s >= p.sure_score]
        die_side = float(np.median(sure_sides)) if len(sure_sides) >= p.crowded else None
        out: list[Die] = []
        for i, ms, score in dets:
            belief = _belief(f1[i])[1]
            if ms and die_side is not None and cands.boxes[i].side > p.big_box * die_side:
                out += [Die(j, cands.boxes[j].score, f1[j]) for j in self._distinct(cands, ms)]
                continue  # a tray or a cluster, not one die
            if len(ms) >= 2:
                reads = [_belief(f1[j]) for j in ms]
                sure = [v for v, b in reads if b >= p.cluster_member]
                faces = [v for v, b in reads if v != 1 and b >= p.cluster_faces]
                doubted = belief < p.cluster_doubt and len(sure) >= 2 and any(v != 1 for v in sure)
                split = doubted or len(set(faces)) >= 2 or (len(faces) >= 2 and belief < p.cluster_faces)
                if split and not doubted:
                    box = cands.boxes[i].box
                    split = not self._pips_confirm(cands.lab_around(work, box), box, f1[i])
                if split:
                    picked = self._distinct(cands, ms)
                    if len(picked) >= 2:
                        out += [Die(j, cands.boxes[j].score, f1[j]) for j in picked]
                        continue
            if ms and score < p.sure_score and float(f1[i][0]) >= p.no_die:
                # the decision would drop this box as no die face (a tray, a cluster's outline): what it
                # swallowed is read on its own, but not sure (it may be a close-up die's pips)
                out += [Die(j, min(cands.boxes[j].score, p.unsure_score), f1[j]) for j in self._distinct(cands, ms)]
                continue
            out.append(Die(i, score, f1[i]))
        out = self._resize_small(cands, out)
        keep: list[int] = []  # a re-read box may now be a die found twice: the better believed stays
        for k in sorted(range(len(out)), key=lambda k: -_belief(out[k].probs)[1]):
            if not any(same_die(cands.boxes[out[k].index], cands.boxes[out[q].index], p.dup_centre) for q in keep):
                keep.append(k)
        out = [out[k] for k in sorted(keep)]
        if calibration is not None and out:
            empty, level = calibration.background_lab(work.shape[:2]), calibration.die_threshold
            out = [d for d in out if not self._on_the_empty_table(
                cands.lab_around(work, cands.boxes[d.index].box), empty, cands.boxes[d.index].box, level)]
        return out

    def _recheck(self, cands: Candidates, dice: list[Die]) -> list[Die]:
        """Stage 3b: the second pass, for the dice the first left unsure. A die whose two-view belief is
        under recheck_below: the face classifier on the crop turned by a quarter (and transposed), with
        the first two views (geometric mean of four), and where that belief is under second_opinion the
        mean with the second classifier's two views (two nets trained alike with other seeds err on other
        dice: Lakshminarayanan et al. 2017). A die whose gate or cocked probability (two views) lies
        within check_margin of its threshold: both on the crop turned by a half and three quarters too
        (the mean of four quarter turns, as they were measured). The others keep the first pass's, the
        face's two views as the die's probabilities. With learned faces, each die's probabilities are
        then adapted to the players' own dice (:meth:`vision.dice.learning.LearnedFaces.adapt`)."""
        p = self.params
        probs = [cands.face2[d.index] for d in dice]
        unsure = [k for k, q in enumerate(probs) if _belief(q)[1] < p.recheck_below]
        doubtful = [k for k, d in enumerate(dice) if abs(cands.gate[d.index] - p.die_below) < p.check_margin
                    or abs(cands.cocked[d.index] - p.cocked_at) < p.check_margin]
        if unsure or doubtful:
            crops = cands.crops[[dice[k].index for k in unsure]]
            turned = np.rot90(crops, 1, axes=(2, 3))
            doubted = cands.crops[[dice[k].index for k in doubtful]]
            m, n = len(unsure), len(doubtful)
            face, second, gate, cocked = self.networks.recheck(
                np.concatenate([turned, turned.transpose(0, 1, 3, 2)]),
                np.concatenate([crops, crops.transpose(0, 1, 3, 2)]),
                np.concatenate([np.rot90(doubted, 2, axes=(2, 3)), np.rot90(doubted, 3, axes=(2, 3))]))
            for j, k in enumerate(unsure):
                i = dice[k].index
                four = _geometric_mean([cands.face1[i:i + 1], cands.face_t[i:i + 1], face[j:j + 1],
                                        face[m + j:m + j + 1]])[0]
                if _belief(four)[1] < p.second_opinion:
                    four = (four + _geometric_mean([second[j:j + 1], second[m + j:m + j + 1]])[0]) / 2
                probs[k] = four
            for j, k in enumerate(doubtful):
                i = dice[k].index
                cands.gate[i] = (2 * cands.gate[i] + gate[j, 1] + gate[n + j, 1]) / 4
                cands.cocked[i] = (2 * cands.cocked[i] + cocked[j, 1] + cocked[n + j, 1]) / 4
        disagrees = [False] * len(dice)
        if self.learned is not None and cands.features is not None and dice:
            adapted, doubt = self.learned.adapt(np.stack(probs), cands.features[[d.index for d in dice]])
            probs, disagrees = list(adapted), [bool(x) for x in doubt]
        return [Die(d.index, d.score, q, x) for d, q, x in zip(dice, probs, disagrees)]

    def _decide(self, work: np.ndarray, cands: Candidates, dice: list[Die]
                ) -> list[tuple[DieReading, frozenset[str]]]:
        """Stage 4: each die's value, confidence and flag, with the reasons it is flagged."""
        p = self.params
        if not dice:
            return []
        h, w = work.shape[:2]
        crowded = sum(d.score >= p.sure_score for d in dice) >= p.crowded
        capped = p.flag_below * 0.98
        out = []
        for d in dice:
            x0, y0, x1, y1 = cands.boxes[d.index].box
            box = (max(0, math.floor(x0)), max(0, math.floor(y0)), min(w, math.ceil(x1)), min(h, math.ceil(y1)))
            if box[2] - box[0] < 4 or box[3] - box[1] < 4:
                continue
            if d.score < p.sure_score and float(d.probs[0]) >= p.no_die:
                continue  # a weak detection the classifier calls no die face, whatever its pips
            if d.score >= p.sure_score and _belief(d.probs)[1] >= p.pips_skip_belief:
                fused = self._fuse(d.score, d.probs, 0, 0.0)
            else:
                face = read_pips(cands.lab_around(work, box), box, p)
                fused = self._fuse(d.score, d.probs, face.value, face.confidence, crowded)
            if fused is None:
                continue
            value, conf, why = fused
            if d.disagrees:
                conf, why = min(conf, capped), why | {DISAGREES}
            outside = max(-x0, -y0, x1 - w, y1 - h, 0.0) / max(x1 - x0, 1.0)
            if outside > p.edge_tolerance:
                conf, why = min(conf, capped), why | {EDGE}
            if conf >= p.flag_below:
                why = frozenset()
            cocked = bool(cands.cocked[d.index] >= p.cocked_at)
            if cocked:
                why = why | {COCKED}
            if cands.gate[d.index] < p.die_below:
                why = why | {GATE}
            out.append((DieReading(value=value, box=box, confidence=round(float(conf), 4), flagged=bool(why),
                                   cocked=cocked), frozenset(why)))
        if len(out) >= 2:
            limit = p.oversized * max(h, w)
            taught = self.learned.die_side * p.oversized_taught * max(h, w) if self.learned is not None else 0.0
            sides = [max(r.box[2] - r.box[0], r.box[3] - r.box[1]) for r, _ in out]
            out = [(_flagged(r), why | {OVERSIZED})
                   if side > limit and not (side <= taught and self._pips_agree(cands.lab_around(work, r.box), r))
                   else (r, why) for (r, why), side in zip(out, sides)]
        return out

    def _pips_agree(self, lab: np.ndarray, reading: DieReading) -> bool:
        """Whether ``reading``'s pips, counted (:func:`vision.dice.pips.read_pips` on the work image's
        ``lab``), show its value with at least ``pip_veto`` confidence: a die as large as the players' own
        (the learned ``die_side``) that does is one of their dice seen close, not a print of pips larger
        than dice lie (a Ludo yard) nor a face drawn as a picture that the classifier reads as a value (the
        tube camera's symbol dice: learned recognition offered three of them, the pips none)."""
        face = read_pips(lab, reading.box, self.params)
        return face.value == reading.value and face.confidence >= self.params.pip_veto

    # ------------------------------------------------------------------------------- the judgements

    def _fuse(self, score: float, probs: np.ndarray, pip_value: int, pip_conf: float,
              crowded: bool = False) -> tuple[int, float, frozenset[str]] | None:
        """Value (1-6), confidence (0-1) and the reasons it is capped, of one detection; None when it is
        no die.

        score: detection score 0-1. probs: face probabilities (7,) (class 0 = no die face). pip_value /
        pip_conf: the pip count's value (0 when none, may exceed 6) and confidence 0-1 (0, 0.0: not
        counted). The value maximises P_classifier(v | die) * L_pips(v), the pips' likelihood being
        pip_base + (1 - pip_base) * pip_conf for their value and the rest shared by the other five. The
        confidence is the classifier's belief in its value (P(die) * P(value)), except: the pips agree
        and both are fairly sure (agree_belief, agree_pips): 1 - (1 - belief)(1 - pip_conf); the pips
        confidently contradict it (pip_veto): belief * (1 - pip_conf); the pips' value won: pip_conf *
        (1 - belief). Each of the last two is capped under flag_below, as is a detection the classifier
        gives P(no die face) >= doubt_die and a weak one (score < sure_score).
        None: a weak detection the classifier calls no die face (no_die); one whose pips show no face,
        whose belief is under no_pips_belief and P(no die face) at least no_pips_no_die; one the
        classifier is sure is no die face (no_die_sure) unless its pips read a face with pip_veto
        confidence or more (a face other than 1 when ``crowded``: a lone round spot among a set of dice
        is the easiest fake die)."""
        p = self.params
        no_face = float(probs[0])
        c_value = int(np.argmax(probs[1:])) + 1
        belief = (1.0 - no_face) * float(probs[c_value])
        pips_ok = 1 <= pip_value <= 6
        if score < p.sure_score and no_face >= p.no_die:
            return None
        if not pips_ok and belief < p.no_pips_belief and no_face >= p.no_pips_no_die:
            return None
        pips_show_a_die = pips_ok and pip_conf >= p.pip_veto and not (crowded and pip_value == 1)
        if no_face >= p.no_die_sure and not pips_show_a_die:
            return None
        faces = np.asarray(probs[1:], np.float64) + 1e-6
        if pips_ok:
            likely = p.pip_base + (1.0 - p.pip_base) * pip_conf
            lik = np.full(6, (1.0 - likely) / 5)
            lik[pip_value - 1] = likely
            faces = faces * lik
        value = int(np.argmax(faces)) + 1
        capped = p.flag_below * 0.98
        why: set[str] = set()
        if value != c_value:
            conf, why = min(pip_conf * (1.0 - belief), capped), {PIPS_DISAGREE}
        elif pips_ok and pip_value != c_value and pip_conf >= p.pip_veto:
            conf, why = min(belief * (1.0 - pip_conf), capped), {PIPS_DISAGREE}
        elif pips_ok and pip_value == c_value and belief >= p.agree_belief and pip_conf >= p.agree_pips:
            conf = 1.0 - (1.0 - belief) * (1.0 - pip_conf)
        else:
            conf = belief
        if conf < p.flag_below and not why:
            why = {UNSURE}
        if score < p.sure_score:
            conf, why = min(conf, capped), why | {WEAK}
        if no_face >= p.doubt_die:
            conf, why = min(conf, capped), why | {NO_FACE}
        return value, conf, frozenset(why)

    def _close_ups(self, cands: Candidates) -> list[int]:
        """The detections (candidate indices, best score first) with each dropped box that is one
        close-up die in place of the detections whose centres lie in it: the classifier is sure of it
        (belief cluster_faces or more) and none of those reads as a die (belief cluster_member or more):
        the fine level, trained on dice up to a fifth of the frame, boxes parts of a bigger die."""
        p = self.params
        found = [i for i in range(len(cands.boxes)) if i in cands.members]
        gone: set[int] = set()
        for g in cands.dropped:
            inside = [i for i in found if _centre_in(cands.boxes[i].box, cands.boxes[g].box)]
            if (inside and _belief(cands.face1[g])[1] >= p.cluster_faces and not gone & set(inside)
                    and all(_belief(cands.face1[i])[1] < p.cluster_member for i in inside)):
                gone |= set(inside)
                found.append(g)
        return sorted((i for i in found if i not in gone), key=lambda i: -cands.boxes[i].score)

    def _distinct(self, cands: Candidates, indices: list[int]) -> list[int]:
        """Those of ``indices`` that are not one die found twice, surest (one-view belief) first."""
        picked: list[int] = []
        for j in sorted(indices, key=lambda j: -_belief(cands.face1[j])[1]):
            if not any(same_die(cands.boxes[j], cands.boxes[q], self.params.dup_centre) for q in picked):
                picked.append(j)
        return picked

    def _resize_small(self, cands: Candidates, dice: list[Die]) -> list[Die]:
        """Each doubted die (belief under cluster_doubt) with a box of the frame's die side around it
        (stage 1) read with that box when the classifier believes it more."""
        out = []
        for d in dice:
            big = cands.bigger.get(d.index)
            if big is not None and _belief(d.probs)[1] < self.params.cluster_doubt \
                    and _belief(cands.face1[big])[1] > _belief(d.probs)[1]:
                d = Die(big, d.score, cands.face1[big])
            out.append(d)
        return out

    def _pips_confirm(self, lab: np.ndarray, box, probs: np.ndarray) -> bool:
        """True when the pips counted in ``box`` (work pixels) read the classifier's value and both are
        fairly sure (agree_pips, agree_belief): one close-up die whatever its members read as."""
        p = self.params
        value, belief = _belief(probs)
        if belief < p.agree_belief:
            return False
        h, w = lab.shape[:2]
        x0, y0 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
        x1, y1 = min(w, math.ceil(box[2])), min(h, math.ceil(box[3]))
        if x1 - x0 < 4 or y1 - y0 < 4:
            return False
        face = read_pips(lab, (x0, y0, x1, y1), p)
        return face.value == value and face.confidence >= p.agree_pips

    def _on_the_empty_table(self, lab: np.ndarray, empty: np.ndarray, box, threshold: float) -> bool:
        """True when less than empty_changed of the face mask of ``box`` (work pixels) in the Lab work
        image differs from the calibrated empty area ``empty`` by more than ``threshold``: nothing was
        put there since the calibration, so a die-like thing there is the table's own print."""
        p = self.params
        h, w = lab.shape[:2]
        x0, y0 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
        x1, y1 = min(w, math.ceil(box[2])), min(h, math.ceil(box[3]))
        if x1 - x0 < 2 or y1 - y0 < 2:
            return False
        changed = lab_distance(lab[y0:y1, x0:x1], empty[y0:y1, x0:x1]) > threshold
        mask = face_mask(x1 - x0, y1 - y0, p.mask_inset, p.mask_radius).astype(bool)
        return float(changed[mask].mean()) < p.empty_changed


# ---------------------------------------------------------------------------------------- helpers

def _belief(probs: np.ndarray) -> tuple[int, float]:
    """The face probabilities' value (1-6) and belief in it, P(die) * P(value)."""
    value = int(np.argmax(probs[1:])) + 1
    return value, (1.0 - float(probs[0])) * float(probs[value])


def _geometric_mean(views: list[np.ndarray]) -> np.ndarray:
    """Normalised geometric mean (n, k) float32 of probability arrays (n, k), one per view: several
    looks at one crop correct much of what one look gets wrong."""
    logp = np.mean([np.log(v.astype(np.float64) + 1e-6) for v in views], axis=0)
    g = np.exp(logp)
    return (g / g.sum(axis=1, keepdims=True)).astype(np.float32)


def _centre_in(inner, box) -> bool:
    cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def _flagged(d: DieReading) -> DieReading:
    return DieReading(d.value, d.box, d.confidence, True, d.cocked)


def _to_frame(die: DieReading, scale: float, size: tuple[int, int]) -> DieReading:
    if scale == 1.0:
        return die
    w, h = size
    x0, y0, x1, y1 = die.box
    box = (max(0, math.floor(x0 / scale)), max(0, math.floor(y0 / scale)),
           min(w, math.ceil(x1 / scale)), min(h, math.ceil(y1 / scale)))
    return DieReading(die.value, box, die.confidence, die.flagged, die.cocked)


def _reading_order(found: list) -> list:
    """(die, reasons) pairs in reading order: grouped (by centre y) into rows, a die starting a new row
    when its centre is more than half the median die height below the row's first die; rows left to right."""
    if not found:
        return found
    found = sorted(found, key=lambda f: (f[0].box[1] + f[0].box[3]) / 2)
    half = float(np.median([d.box[3] - d.box[1] for d, _ in found])) / 2
    rows: list[list] = []
    for f in found:
        cy = (f[0].box[1] + f[0].box[3]) / 2
        if rows and cy - (rows[-1][0][0].box[1] + rows[-1][0][0].box[3]) / 2 <= half:
            rows[-1].append(f)
        else:
            rows.append([f])
    return [f for row in rows for f in sorted(row, key=lambda f: f[0].box[0])]


def work_image(frame_bgr: np.ndarray, max_side: int) -> tuple[np.ndarray, float]:
    """The work image of a (h, w[, c]) uint8 frame and its scale (work pixels per frame pixel, 0-1]: the
    frame itself when its long side is at most ``max_side`` (:attr:`DiceParams.work_max_side`), else the
    frame scaled down by area averaging (cv2.INTER_AREA) to that long side. When the long side is a whole
    multiple k of ``max_side`` (1280 or 1920 px frames for 640), the frame's last h % k rows and w % k
    columns are left out, so that OpenCV averages whole k x k blocks: about ten times faster and the same
    pixels but for the cut edge (under k pixels)."""
    h, w = frame_bgr.shape[:2]
    if max(h, w) <= max_side:
        return frame_bgr, 1.0
    scale = max_side / max(h, w)
    k = max(h, w) // max_side
    if k * max_side == max(h, w):
        crop = frame_bgr[:h - h % k, :w - w % k]
        return cv2.resize(crop, (crop.shape[1] // k, crop.shape[0] // k), interpolation=cv2.INTER_AREA), scale
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(frame_bgr, size, interpolation=cv2.INTER_AREA), scale


# ------------------------------------------------------------------------------ the shipped reader

@lru_cache(maxsize=1)
def shipped_reader() -> DiceReader:
    """The box's reader: the settings and networks in ``assets/dice_model``, loaded on first use. Raises
    MissingFileError or FileFormatError (a settings file), MissingFileError or BrokenModelError (a model
    file) naming the file: a broken install."""
    folder = model_dir()
    params = load_params(folder / PARAMS_FILE)
    return DiceReader(params, DiceNetworks.load(params, folder))


def read_dice(frame_bgr: np.ndarray, calibration=None) -> DiceObservation:
    """:meth:`DiceReader.read` with the shipped reader (:func:`shipped_reader`)."""
    return shipped_reader().read(frame_bgr, calibration)


def warm_up() -> None:
    """Pay the reader's one-time costs now, not in the first photo's time: one read of a drawn table of
    three dice loads the settings and model files and runs the networks' first forward passes; a Lab
    conversion has OpenCV build its tables (over 100 ms here; a read that counts no pips converts
    nothing); one pass of each classifier graph at its largest batch (:data:`vision.dice.networks.MAX_BATCH`)
    sizes its buffers, which a frame with many candidates or learning would otherwise add later. Safe to
    call again."""
    frame = np.full((480, 640, 3), (60, 110, 40), np.uint8)
    for x0 in (140, 290, 440):
        cv2.rectangle(frame, (x0, 200), (x0 + 60, 260), (235, 240, 240), -1)
        for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):
            cv2.circle(frame, (x0 + 30 + 15 * dx, 230 + 15 * dy), 6, (20, 20, 20), -1)
    read_dice(frame)
    to_lab(frame)
    # the largest batch the classifier graphs are ever given: cv2.dnn sizes its buffers once, here
    reader = shipped_reader()
    crops = np.zeros((MAX_BATCH, 3, reader.params.crop_size, reader.params.crop_size), np.float32)
    reader.networks.heads(crops, crops)
    reader.networks.recheck(crops, crops, crops)
