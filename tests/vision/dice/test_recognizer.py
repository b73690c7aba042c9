"""The dice recognizer's judgements (vision.dice.reader.DiceReader): the fusion of detector, classifier
and pips, the choice between a close-up die and a cluster of dice, the checks that flag a die, and the
networks passed in."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.dice.detect import Detection
from vision.dice.networks import Heads, model_dir
from vision.dice.pips import FaceReading, face_mask, object_mask, to_lab
from vision.dice.reader import (COCKED, EDGE, GATE, NO_FACE, OVERSIZED, PIPS_DISAGREE, UNSURE, WEAK,
                                Candidates, DiceReader, shipped_reader)

SHIPPED = shipped_reader()
P = SHIPPED.params
SHIPPED_PHOTOS = model_dir().parent / "dice_photos"


def probs(value: int, p_value: float, p_none: float = 0.0) -> np.ndarray:
    """Classifier output: P(no die) = p_none, P(value) = p_value, the rest spread over other faces."""
    p = np.full(7, (1.0 - p_none - p_value) / 5)
    p[0], p[value] = p_none, p_value
    return p


def fuse(score, p, pip_value, pip_conf, crowded=False):
    """The shipped reader's fusion, as (value, confidence) or None."""
    out = SHIPPED._fuse(score, p, pip_value, pip_conf, crowded)
    return None if out is None else out[:2]


def test_agreement_is_confident():
    value, conf = fuse(0.8, probs(4, 0.95), 4, 0.7)
    assert value == 4 and conf == pytest.approx(1 - 0.05 * 0.3) and conf >= P.flag_below
    # Both readers fairly sure (agree_belief, agree_pips): agreement lifts the confidence, here over
    # the flag threshold (the classifier alone, just under it, stays under it).
    value, conf = fuse(0.8, probs(4, P.agree_belief), 4, P.agree_pips)
    assert value == 4 and conf == pytest.approx(1 - (1 - P.agree_belief) * (1 - P.agree_pips))
    belief = P.flag_below - 0.05
    assert belief >= P.agree_belief
    value, conf = fuse(0.8, probs(4, belief), 4, 0.6)
    assert value == 4 and conf == pytest.approx(1 - (1 - belief) * 0.4) and conf >= P.flag_below > belief
    value, conf = fuse(0.8, probs(4, belief), 4, P.agree_pips - 0.1)  # unsure pips: the classifier's belief
    assert value == 4 and conf == pytest.approx(belief) and conf < P.flag_below
    value, conf = fuse(0.8, probs(4, 0.5), 4, 0.95)  # a doubtful classifier gains nothing from agreeing pips
    assert value == 4 and conf == pytest.approx(0.5) and conf < P.flag_below


def test_disagreement_picks_the_stronger_reader_and_says_why():
    value, conf, why = SHIPPED._fuse(0.8, probs(5, 0.9), 4, 0.6)  # a clear pip count contradicts: flagged
    assert value == 5 and conf == pytest.approx(0.9 * 0.4) and why == {PIPS_DISAGREE}
    value, conf, why = SHIPPED._fuse(0.8, probs(5, 0.9), 4, P.pip_veto - 0.05)  # weak pips do not flag
    assert value == 5 and conf == pytest.approx(0.9) and why == set()
    value, conf, why = SHIPPED._fuse(0.8, probs(5, 0.3), 4, 0.9)  # the pips win over a doubtful model
    assert value == 4 and conf == pytest.approx(0.9 * 0.7) and why == {PIPS_DISAGREE}
    value, conf, why = SHIPPED._fuse(0.8, probs(5, 0.5), 0, 0.0)  # no pips: the classifier alone, unsure
    assert value == 5 and conf == pytest.approx(0.5) and why == {UNSURE}
    value, conf, why = SHIPPED._fuse(0.35, probs(6, 0.99), 6, 0.99)  # a weak detection is never sure
    assert value == 6 and conf < P.flag_below and why == {WEAK}
    value, conf, why = SHIPPED._fuse(0.9, probs(1, 0.4, p_none=0.55), 1, 0.9)  # a screw head read as a 1
    assert conf < P.flag_below and NO_FACE in why


def test_no_die_cases():
    assert fuse(0.4, probs(2, 0.1, p_none=0.8), 2, 0.5) is None  # weak detection, classifier: no die
    assert fuse(0.9, probs(3, 0.3, p_none=0.6), 0, 0.0) is None  # no pips, and no die face for the classifier
    speck = probs(2, 0.12 / 0.51, p_none=0.49)  # a speck of dust in a byler photo: belief 0.12, no pips
    assert P.no_pips_no_die < 0.49 and fuse(0.301, speck, 0, 0.0) is None
    assert fuse(0.9, probs(3, 0.3, p_none=0.05), 0, 0.0) is not None  # a die whose pips are not seen stays
    value, conf = fuse(0.9, probs(3, 0.95), 0, 0.0)  # no pips but a sure classifier: kept
    assert value == 3 and conf == pytest.approx(0.95)


def test_a_sure_detection_the_classifier_is_sure_is_no_die_is_dropped_unless_its_pips_read_clearly():
    grey_disc = probs(1, 0.01, p_none=0.97)  # byler's white bar with a grey disc: detector 0.6, "no die" 0.97
    assert fuse(0.66, grey_disc, 1, 0.15) is None  # a faint "1" in the pip count does not keep it
    assert fuse(0.66, grey_disc, 0, 0.0) is None
    assert fuse(0.66, probs(1, 0.01, p_none=P.no_die_sure), 1, P.pip_veto - 0.01) is None
    value, conf = fuse(0.66, grey_disc, 1, P.pip_veto)  # a clear pip count keeps it, flagged
    assert value == 1 and conf < P.flag_below
    # Among a set of dice (a crowded frame) a lone round spot's clear "1" is no proof; other clear faces are.
    assert fuse(0.66, grey_disc, 1, 0.9, crowded=True) is None
    value, conf = fuse(0.66, probs(3, 0.01, p_none=0.97), 3, 0.9, crowded=True)
    assert value == 3 and conf < P.flag_below


def test_face_mask_is_a_rounded_inset_square():
    m = face_mask(40, 40, P.mask_inset, P.mask_radius)
    assert m.shape == (40, 40) and m.dtype == np.uint8
    assert m[20, 20] == 1 and m[0, 0] == 0 and m[1, 20] == 0 and m[3, 20] == 1
    assert 0.75 < m.mean() < 0.9


def test_object_mask_follows_the_die():
    image = np.full((100, 100, 3), 60, np.uint8)
    image[30:70, 35:75] = 230  # a light die, 40x40, off the box's centre by 5 px
    args = (P.object_ring, P.object_level, P.object_min_dist)
    mask = object_mask(to_lab(image), (30, 30, 70, 70), *args)
    assert mask is not None and mask.shape == (40, 40)
    assert mask[:, 5:].mean() > 0.95 and mask[:, :5].mean() < 0.05
    assert object_mask(to_lab(np.full((100, 100, 3), 60, np.uint8)), (30, 30, 70, 70), *args) is None


# ------------------------------------------------------------------- close-up die or cluster of dice

def _select(found, by_side, dropped=(), work=None, params=P, gate=None):
    """The dice the check stage keeps of hand-made candidates: ``found`` (detection, members) pairs and
    ``dropped`` boxes, each read by the classifier as ``by_side[side in px]`` (one view), the gate as
    ``gate`` (by side; default sure)."""
    cands = Candidates([])
    for d, ms in found:
        i = cands.add(d)
        cands.members[i] = [cands.add(m) for m in ms if m.score >= params.report_score]
    cands.dropped = [cands.add(g) for g in dropped]
    face = np.stack([by_side.get(round(b.side), probs(1, 0.01, p_none=0.97)) for b in cands.boxes]) \
        if cands.boxes else np.zeros((0, 7), np.float32)
    cands.face1 = cands.face_t = cands.face2 = face
    cands.gate = np.array([(gate or {}).get(round(b.side), 1.0) for b in cands.boxes], np.float32)
    cands.cocked = np.zeros(len(cands.boxes), np.float32)
    reader = DiceReader(params, SHIPPED.networks)
    dice = reader._select(np.zeros((480, 640, 3), np.uint8) if work is None else work, cands, None)
    return [cands.boxes[d.index] for d in dice], [d.score for d in dice], [d.probs for d in dice]


def test_cluster_split_when_the_classifier_doubts_the_big_box():
    big = Detection((170, 40, 500, 370), 0.49)
    members = [Detection((190 + 80 * i, 180, 260 + 80 * i, 250), 0.7) for i in range(3)]
    # The big box reads as no die face, its members as sure 2s: a cluster of three dice.
    dets, _, p = _select([(big, members)], {330: probs(5, 0.1, p_none=0.8), 70: probs(2, 0.95)})
    assert dets == members and all(np.argmax(q) == 2 for q in p)
    # A sure close-up die keeps its box, whatever its "pips" read as.
    dets, _, _ = _select([(big, members)], {330: probs(5, 0.95), 70: probs(2, 0.95)})
    assert dets == [big]
    # Members that all read as 1s may be the pips of a close-up die: a sure big box keeps them as pips ...
    strong = Detection(big.box, 0.8)
    dets, _, _ = _select([(strong, members)], {330: probs(5, 0.1, p_none=0.8), 70: probs(1, 0.95)})
    assert dets == [strong]
    # ... but a weak one that is no die face (a dice tray seen as one big die) gives them up, read on
    # their own with their scores capped below sure_score, so that they are flagged.
    dets, scores, _ = _select([(big, members)], {330: probs(5, 0.1, p_none=0.8), 70: probs(1, 0.95)})
    assert dets == members and scores == [P.unsure_score] * 3
    # Detections below report_score are not read at all (unless the gate is sure: below).
    assert _select([(Detection((0, 0, 50, 50), 0.1), [])], {}, gate={50: 0.5})[0] == []


def test_a_weak_detection_the_gate_is_sure_of_is_read_flagged():
    weak = [(Detection((10.0, 10.0, 40.0, 40.0), 0.27), []), (Detection((60.0, 60.0, 92.0, 92.0), 0.28), [])]
    dets, scores, _ = _select(weak, {30: probs(3, 0.95), 32: probs(3, 0.95)}, gate={30: 0.95, 32: 0.89})
    assert [d.box for d in dets] == [(10.0, 10.0, 40.0, 40.0)] and scores == [0.27]
    assert P.rescue_gate == 0.9 and 0.27 < P.unsure_score < P.sure_score


def test_a_group_box_is_one_close_up_die_when_nothing_in_it_reads_as_a_die():
    # The detector dropped a 190 px coarse box as a group: two fine boxes (104 and 111 px) lie in it.
    coarse = Detection((188, 352, 378, 542), 0.75)
    part = Detection((234, 393, 338, 497), 0.6)
    elsewhere = Detection((20, 20, 60, 60), 0.9)
    found = [(elsewhere, []), (part, [])]
    by_side = {190: probs(1, 0.95), 104: probs(4, 0.01, p_none=0.97), 40: probs(3, 0.97)}
    dets, _, p = _select(found, by_side, [coarse])
    assert dets == [elsewhere, coarse] and np.argmax(p[1]) == 1
    by_side[104] = probs(4, 0.9)  # a part that reads as a die (a real cluster of two big dice)
    assert _select(found, by_side, [coarse])[0] == [elsewhere, part]
    by_side[104], by_side[190] = probs(4, 0.01, p_none=0.97), probs(1, P.cluster_faces - 0.05)
    assert coarse not in _select(found, by_side, [coarse])[0]  # a coarse box it is not sure of


def test_a_close_up_die_whose_pips_confirm_it_stays_one_die_whatever_its_pips_read_as_alone():
    from tests.vision.dice.test_reader import draw_die

    work = np.full((480, 640, 3), (60, 110, 40), np.uint8)
    draw_die(work, (320, 240), 4, 220, 0, (235, 240, 240), (20, 20, 20))
    big = Detection((210, 130, 430, 350), 0.84)
    # two of its pips, cut out alone, read as a sure 3 and a sure 6 (tilted ivory_grid close-up of a 4)
    pips = [Detection((240, 160, 280, 200), 0.6), Detection((359, 159, 401, 201), 0.6)]
    by_side = {220: probs(4, 0.92), 40: probs(3, 0.9), 42: probs(6, 0.9)}
    assert _select([(big, pips)], by_side, work=work)[0] == [big]  # its pips count 4, as the classifier reads
    by_side[220] = probs(5, 0.92)  # pips and classifier disagree: the members' two faces make it a cluster
    assert _select([(big, pips)], by_side, work=work)[0] == pips


def test_members_reading_different_faces_are_a_cluster_even_when_the_big_box_reads_as_a_die():
    big = Detection((170, 40, 500, 370), 0.9)
    members = [Detection((190, 180, 260, 250), 0.8), Detection((300, 180, 372, 252), 0.8)]
    dets, _, p = _select([(big, members)], {330: probs(5, 0.85), 70: probs(2, 0.95), 72: probs(4, 0.95)})
    assert dets == members and [int(np.argmax(q)) for q in p] == [2, 4]
    # The pips of a close-up die look alike and read alike (here all as 6s): it stays one die.
    assert _select([(big, members)], {330: probs(5, 0.85), 70: probs(6, 0.95), 72: probs(6, 0.95)})[0] == [big]


def test_a_box_much_bigger_than_the_frames_dice_is_replaced_by_its_members():
    dice = [(Detection((20 + 80 * i, 400, 90 + 80 * i, 470), 0.9), []) for i in range(3)]
    big = Detection((170, 40, 500, 370), 0.9)
    members = [Detection((190, 180, 260, 250), 0.8), Detection((300, 180, 370, 250), 0.8)]
    by_side = {330: probs(5, 0.97), 70: probs(3, 0.95)}
    assert _select(dice + [(big, members)], by_side)[0] == [d for d, _ in dice] + members
    # With fewer than three sure detections in the frame there is no die size to go by: the box stays.
    assert big in _select(dice[:1] + [(big, members)], by_side)[0]


def test_a_detection_where_nothing_changed_since_the_calibration_is_on_the_empty_table():
    from vision.dice import DiceCalibration

    table = np.full((120, 160, 3), (200, 190, 170), np.uint8)
    cv2.circle(table, (40, 60), 12, (60, 60, 60), -1)  # printed on the table: there at calibration
    empty = cv2.cvtColor(table, cv2.COLOR_BGR2Lab)
    calibration = DiceCalibration(empty, empty[..., 0], (120, 160), noise=1.0)
    frame = table.copy()
    cv2.rectangle(frame, (100, 40), (130, 70), (250, 250, 250), -1)  # a white die put down since
    cv2.circle(frame, (115, 55), 4, (20, 20, 20), -1)
    lab, empty, level = to_lab(frame), calibration.background_lab((120, 160)), calibration.die_threshold
    on = SHIPPED._on_the_empty_table
    assert on(lab, empty, (26, 46, 54, 74), level)  # the printed disc
    assert not on(lab, empty, (99, 39, 131, 71), level)  # the die
    assert on(lab, empty, (150, 100, 175, 125), level)  # past the frame's corner, unchanged
    pip_only = table.copy()  # a white 1 on a near-white table: its pip alone changes enough of its face
    cv2.circle(pip_only, (115, 55), 4, (20, 20, 20), -1)
    assert not on(to_lab(pip_only), empty, (99, 39, 131, 71), level)


# ------------------------------------------------------------------------------ whole reads, passes

class Networks:
    """The shipped networks with the classifiers' answers replaceable, and the passes counted: the
    crops each pass saw (``seen``: one list of crop counts a pass)."""

    def __init__(self, face=None, gate=None, cocked=None, second=None):
        self.real = SHIPPED.networks
        self.detector = self.real.detector
        self.face, self.gate, self.cocked, self.second = face, gate, cocked, second
        self.seen: list[tuple[str, int]] = []

    def heads(self, crops, quarters):
        self.seen.append(("heads", len(crops)))
        h = self.real.heads(crops, quarters)
        n, q = len(crops), len(quarters)
        return Heads(h.face if self.face is None else np.tile(self.face, (n, 1)),
                     h.gate if self.gate is None else np.tile([1 - self.gate, self.gate], (q, 1)).astype(np.float32),
                     h.cocked if self.cocked is None else np.tile([1 - self.cocked, self.cocked], (q, 1)).astype(np.float32))

    def recheck(self, turned, crops, halves):
        self.seen.append(("recheck", len(turned)))
        face, second, gate, cocked = self.real.recheck(turned, crops, halves)
        if self.face is not None:
            face = np.tile(self.face, (len(turned), 1))
        if self.second is not None:
            second = np.tile(self.second, (len(crops), 1))
        if self.gate is not None:
            gate = np.tile([1 - self.gate, self.gate], (len(halves), 1)).astype(np.float32)
        if self.cocked is not None:
            cocked = np.tile([1 - self.cocked, self.cocked], (len(halves), 1)).astype(np.float32)
        return face, second, gate, cocked


def _table(values=(1, 2, 3, 4, 5, 6)):
    from tests.vision.dice.test_reader import synthetic_table
    return synthetic_table(list(values))


def test_drawn_dice_are_read_sure_in_one_pass_and_an_unsure_die_gets_a_second():
    frame, boxes = _table()
    nets = Networks()
    obs, why = DiceReader(P, nets).read_with_reasons(frame)
    assert sorted(obs.values) == [1, 2, 3, 4, 5, 6] and not any(d.flagged for d in obs.dice)
    assert why == (frozenset(),) * 6
    # every drawn die is sure after the first pass (each crop as it is and transposed)
    assert nets.seen == [("heads", 2 * 6)]
    # Unsure of everything: every die is read again in the second pass, two more views and the second
    # classifier; still two passes a frame.
    nets = Networks()
    obs = DiceReader(replace(P, recheck_below=1.01), nets).read(frame)
    assert nets.seen == [("heads", 2 * 6), ("recheck", 2 * 6)]
    assert sorted(obs.values) == [1, 2, 3, 4, 5, 6]


def test_a_lone_spot_the_classifier_rejects_is_dropped_only_among_a_set_of_dice(monkeypatch):
    import vision.dice.reader as reader_module

    frame, _ = _table()
    # Every crop now looks like a sure "no die" whose pips read a clear 1 (the grey disc's case): in a
    # frame of six sure detections they all go; alone (crowded above six) each keeps its pips' say.
    monkeypatch.setattr(reader_module, "read_pips", lambda lab, box, p: FaceReading(1, [], 0.95))
    nets = Networks(face=probs(1, 0.01, p_none=0.97), second=probs(1, 0.01, p_none=0.97))
    assert DiceReader(P, nets).read(frame).dice == ()
    assert list(DiceReader(replace(P, crowded=7), nets).read(frame).values) == [1] * 6


def test_sure_dice_are_read_without_counting_their_pips(monkeypatch):
    import vision.dice.reader as reader_module

    frame, _ = _table()
    counted = []
    real = reader_module.read_pips
    monkeypatch.setattr(reader_module, "read_pips", lambda lab, box, p: counted.append(box) or real(lab, box, p))
    every = DiceReader(replace(P, pips_skip_belief=1.01), SHIPPED.networks).read(frame)
    n_every = len(counted)
    counted.clear()
    skipping = SHIPPED.read(frame)
    assert n_every >= len(every.dice) == 6 and len(counted) < n_every
    assert [(d.value, d.box) for d in skipping.dice] == [(d.value, d.box) for d in every.dice]


def test_each_check_flags_with_its_reason():
    frame, _ = _table()
    obs, why = DiceReader(P, Networks(cocked=0.9)).read_with_reasons(frame)
    assert all(d.flagged and d.cocked for d in obs.dice) and all(COCKED in w for w in why)
    obs, why = DiceReader(P, Networks(gate=0.2)).read_with_reasons(frame)
    assert all(d.flagged and not d.cocked for d in obs.dice) and all(w == {GATE} for w in why)
    # The gate only flags: same dice, same values.
    assert [(d.value, d.box) for d in obs.dice] == [(d.value, d.box) for d in SHIPPED.read(frame).dice]
    # A die cut by the frame's edge.
    shifted = np.roll(frame, -60, axis=1)
    obs, why = SHIPPED.read_with_reasons(shifted[:, :-60])
    assert any(EDGE in w for w in why)


def test_a_die_too_big_to_lie_among_the_others_is_flagged():
    """A printed yard or a card's print can look like a big die beside the real ones: among other dice a
    die over ``oversized`` of the frame's long side is flagged; alone (a close-up) it is not."""
    from tests.vision.dice.test_reader import draw_die

    frame = np.full((480, 640, 3), (60, 110, 40), np.uint8)
    draw_die(frame, (120, 240), 5, 150, 5, (235, 240, 240), (20, 20, 20))  # 150 px: over 0.2 of 640
    draw_die(frame, (400, 240), 3, 56, 10, (235, 240, 240), (20, 20, 20))
    obs, why = SHIPPED.read_with_reasons(frame)
    big = [w for d, w in zip(obs.dice, why) if d.box[2] - d.box[0] > P.oversized * 640]
    assert big and all(OVERSIZED in w for w in big)
    alone = frame.copy()
    alone[:, 300:] = (60, 110, 40)
    obs, why = SHIPPED.read_with_reasons(alone)
    assert len(obs.dice) == 1 and OVERSIZED not in why[0]


def test_a_big_die_as_large_as_the_players_own_whose_pips_agree_is_not_oversized():
    """A camera close over the tray sees the players' dice large: with the size of their confirmed dice
    learned (``die_side``), a die up to ``oversized_taught`` times that whose counted pips show its value is
    not flagged for its size; larger than their dice, or read as a value its pips do not show, it is."""
    from tests.vision.dice.test_reader import draw_die
    from vision.dice.learning import LearnedFaces, Settings

    frame = np.full((480, 640, 3), (60, 110, 40), np.uint8)
    draw_die(frame, (120, 240), 5, 150, 5, (235, 240, 240), (20, 20, 20))  # 150 px: 0.23 of 640
    draw_die(frame, (400, 240), 3, 56, 10, (235, 240, 240), (20, 20, 20))

    def learned(side: float) -> LearnedFaces:  # faces not used: only the dice's size
        return LearnedFaces(np.zeros((0, 4), np.float32), np.zeros(0, int), frozenset(), "net", Settings(),
                            {"use": False}, side)

    def big(reader):
        obs, why = reader.read_with_reasons(frame)
        found = [(d, w) for d, w in zip(obs.dice, why) if d.box[2] - d.box[0] > P.oversized * 640]
        assert len(found) == 1 and found[0][0].value == 5
        return found[0]

    die, why = big(SHIPPED.with_learned(learned(0.24)))
    assert OVERSIZED not in why and not die.flagged
    die, why = big(SHIPPED.with_learned(learned(0.1)))  # the players' dice are smaller: a print
    assert OVERSIZED in why and die.flagged
    lab = to_lab(frame)  # read at 640 px: the work image is the frame
    assert SHIPPED._pips_agree(lab, die) and not SHIPPED._pips_agree(lab, replace(die, value=4))


def test_the_gate_answers_for_any_boxes_in_one_pass():
    frame, boxes = _table()
    nets = Networks()
    p = DiceReader(P, nets).die_likelihood(frame, boxes)
    assert p.shape == (6,) and p.dtype == np.float32 and (p > 0.5).all()
    assert nets.seen == [("heads", 6)]  # the gate's head on four quarter turns of each, one pass
    assert np.allclose(DiceReader(P, Networks(gate=0.3)).die_likelihood(frame, boxes), 0.3)  # the gate's head
    assert DiceReader(P, nets).die_likelihood(frame, []).shape == (0,)


def test_a_frame_of_small_dice_is_read_again_at_its_own_scale():
    """Nine real photos side by side (1920 px): at the 640 px work image their dice are 13 px, under what
    the detector and the pip count read; the reader reads the frame again at its own scale and finds all
    36, each right, none asked about. Without the zoom (``zoom_below`` 0) most are missed or asked about."""
    photo = cv2.imread(str(SHIPPED_PHOTOS / "IMG_20191208_112833.jpg"), cv2.IMREAD_COLOR)  # labelled 2 4 5 6
    frame = np.tile(photo, (3, 3, 1))
    obs = SHIPPED.read(frame)
    assert sorted(d.value for d in obs.dice if not d.flagged) == sorted([2, 4, 5, 6] * 9)
    assert all(0 <= d.box[0] < d.box[2] <= 1920 and 0 <= d.box[1] < d.box[3] <= 1920 for d in obs.dice)
    unzoomed = DiceReader(replace(P, zoom_below=0.0), SHIPPED.networks).read(frame)
    assert sum(not d.flagged for d in unzoomed.dice) < 30


def test_the_zoom_is_chosen_by_the_dice_s_size_and_the_frame_s():
    from types import SimpleNamespace

    def found(side: float, n: int = 3) -> list:
        return [(0, 0, side, side)] * n

    small, big = found(P.zoom_below - 2), found(P.zoom_below + 2)
    assert SHIPPED._zoomed_side(1920, small, None) == 1920  # the frame's own scale
    assert SHIPPED._zoomed_side(4032, small, None) == P.zoom_max_side  # at most zoom_max_side
    assert SHIPPED._zoomed_side(1920, big, None) is None and SHIPPED._zoomed_side(1920, [], None) is None
    assert SHIPPED._zoomed_side(P.work_max_side, small, None) is None  # no larger scale to read at
    assert SHIPPED._zoomed_side(int(P.work_max_side * 1.2), small, None) is None  # a gain under a quarter
    # a calibration that measured the dice decides, whatever was found
    assert SHIPPED._zoomed_side(1920, None, SimpleNamespace(die_side=P.zoom_below / 2)) == 1920
    assert SHIPPED._zoomed_side(1920, small, SimpleNamespace(die_side=P.zoom_below * 2)) is None
    assert SHIPPED._zoomed_side(1920, small, SimpleNamespace(die_side=0.0)) == 1920  # measured none: the dice read
    off = DiceReader(replace(P, zoom_below=0.0), SHIPPED.networks)
    assert off._zoomed_side(1920, small, None) is None


def test_a_calibration_that_measured_small_dice_reads_the_frame_at_its_own_scale_at_once(monkeypatch):
    """With the dice's size measured at calibration (``die_side``, 640 px work pixels), a frame of small dice
    is read once, at its own scale, and the calibrated empty table still drops nothing on the dice."""
    import csv

    from vision.dice.calibration import make_calibration

    photo = cv2.imread(str(SHIPPED_PHOTOS / "IMG_20191208_112833.jpg"), cv2.IMREAD_COLOR)
    empty = photo.copy()  # the table without its dice: each die's box painted the table's median colour
    with open(SHIPPED_PHOTOS / "boxes.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            if row["file"].endswith("IMG_20191208_112833.jpg"):
                x0, y0, x1, y1 = (int(float(row[k])) for k in ("x_min", "y_min", "x_max", "y_max"))
                empty[max(0, y0 - 4):y1 + 4, max(0, x0 - 4):x1 + 4] = np.median(photo.reshape(-1, 3), axis=0)
    frame = np.tile(photo, (3, 3, 1))
    calibration = make_calibration([np.tile(empty, (3, 3, 1))], [frame])
    assert 0 < calibration.die_side < P.zoom_below
    reads = []
    real = DiceReader._read_work
    monkeypatch.setattr(DiceReader, "_read_work",
                        lambda self, work, cal, zoom=1.0: reads.append((work.shape[:2], zoom)) or real(self, work, cal, zoom))
    obs = SHIPPED.read(frame, calibration)
    assert reads == [((1920, 1920), 3.0)]
    assert sorted(d.value for d in obs.dice if not d.flagged) == sorted([2, 4, 5, 6] * 9)
