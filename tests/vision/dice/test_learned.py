"""Reader v3 pieces (vision.dice.learned): the fusion of detector, classifier and pips, the masks, and
the hybrid reader on drawn dice."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice.detect import Detection
from vision.dice.learned import (AGREE_BELIEF, AGREE_PIPS, CLUSTER_FACES, FLAG_BELOW, NO_DIE_SURE, NO_PIPS_NO_DIE,
    PIP_VETO, UNSURE_SCORE, dihedral_probabilities, face_mask, fuse, object_mask, read_work_hybrid, read_work_learned,
    split_clusters)
from vision.dice.segment import to_lab


def probs(value: int, p_value: float, p_none: float = 0.0) -> np.ndarray:
    """Classifier output: P(no die) = p_none, P(value) = p_value, the rest spread over other faces."""
    p = np.full(7, (1.0 - p_none - p_value) / 5)
    p[0], p[value] = p_none, p_value
    return p


def test_agreement_is_confident():
    value, conf = fuse(0.8, probs(4, 0.95), 4, 0.7)
    assert value == 4 and conf == pytest.approx(1 - 0.05 * 0.3) and conf >= FLAG_BELOW
    # Both readers fairly sure (belief >= AGREE_BELIEF, pips >= AGREE_PIPS): agreement lifts the
    # confidence, here over the flag threshold (the classifier alone, just under it, stays under it).
    value, conf = fuse(0.8, probs(4, AGREE_BELIEF), 4, AGREE_PIPS)
    assert value == 4 and conf == pytest.approx(1 - (1 - AGREE_BELIEF) * (1 - AGREE_PIPS))
    belief = FLAG_BELOW - 0.05
    assert belief >= AGREE_BELIEF
    value, conf = fuse(0.8, probs(4, belief), 4, 0.6)
    assert value == 4 and conf == pytest.approx(1 - (1 - belief) * 0.4) and conf >= FLAG_BELOW > belief
    value, conf = fuse(0.8, probs(4, belief), 4, AGREE_PIPS - 0.1)  # unsure pips: the classifier's belief
    assert value == 4 and conf == pytest.approx(belief) and conf < FLAG_BELOW
    # A doubtful classifier gains nothing from agreeing pips: flagged.
    value, conf = fuse(0.8, probs(4, 0.5), 4, 0.95)
    assert value == 4 and conf == pytest.approx(0.5) and conf < FLAG_BELOW


def test_disagreement_picks_the_stronger_reader():
    value, conf = fuse(0.8, probs(5, 0.9), 4, 0.6)  # a clear pip count contradicts: flagged
    assert value == 5 and conf == pytest.approx(0.9 * 0.4) and conf < FLAG_BELOW
    value, conf = fuse(0.8, probs(5, 0.9), 4, PIP_VETO - 0.05)  # a weak pip count does not flag a sure model
    assert value == 5 and conf == pytest.approx(0.9) and conf >= FLAG_BELOW
    value, conf = fuse(0.8, probs(5, 0.3), 4, 0.9)  # the pips win over a doubtful model, flagged
    assert value == 4 and conf == pytest.approx(0.9 * 0.7) and conf < FLAG_BELOW
    value, conf = fuse(0.8, probs(5, 0.95), 0, 0.0)  # no pips: the classifier alone
    assert value == 5 and conf == pytest.approx(0.95)


def test_dihedral_probabilities_average_the_views(monkeypatch):
    from vision.dice import learned as dice_learned
    class Rotations:  # "classifier" whose answer depends on how the crop lies: its top-left pixel
        def __init__(self):
            self.batch = 0

        def probabilities(self, crops):
            self.batch = len(crops)
            p = np.full((len(crops), 7), 0.01, np.float32)
            p[np.arange(len(crops)), 1 + (crops[:, 0, 0, 0] > 0)] = 0.94
            return p / p.sum(1, keepdims=True)

    crops = np.zeros((2, 3, 32, 32), np.float32)
    crops[0, :, 0, 0] = 1.0  # one lit corner: seen in it by the unturned view and its transpose only
    crops[1, :, :, :] = 1.0  # lit everywhere: every view
    clf = Rotations()
    monkeypatch.setattr(dice_learned, "DIHEDRAL_VIEWS", 8)
    p = dihedral_probabilities(clf, crops)
    assert clf.batch == 16 and p.shape == (2, 7) and np.allclose(p.sum(1), 1.0)
    assert np.argmax(p[0]) == 1 and np.argmax(p[1]) == 2 and p[1, 2] == pytest.approx(0.94, abs=1e-3)
    assert 0.05 < p[0, 2] < 0.15 < p[0, 1]  # 2 of 8 views: geometric mean (0.94^2 0.01^6)^(1/8), normalised
    monkeypatch.setattr(dice_learned, "DIHEDRAL_VIEWS", 4)
    p = dihedral_probabilities(clf, crops)
    assert clf.batch == 8 and p[0, 1] == pytest.approx(p[0, 2]) and p[0, 1] > 0.35  # 2 of 4 views each
    assert dihedral_probabilities(clf, crops[:0]).shape == (0, 7)


def test_no_die_cases():
    assert fuse(0.4, probs(2, 0.1, p_none=0.8), 2, 0.5) is None  # weak detection, classifier: no die
    assert fuse(0.9, probs(3, 0.3, p_none=0.6), 0, 0.0) is None  # no pips, and no die face for the classifier
    speck = probs(2, 0.12 / 0.51, p_none=0.49)  # a speck of dust in a byler photo: belief 0.12, no pips
    assert NO_PIPS_NO_DIE < 0.49 and fuse(0.301, speck, 0, 0.0) is None
    assert fuse(0.9, probs(3, 0.3, p_none=0.05), 0, 0.0) is not None  # a die whose pips are not seen stays
    value, conf = fuse(0.9, probs(3, 0.4), 0, 0.0)  # no pips, a doubtful classifier that sees a die: flagged
    assert value == 3 and conf == pytest.approx(0.4) and conf < FLAG_BELOW
    value, conf = fuse(0.9, probs(3, 0.95), 0, 0.0)  # no pips but a sure classifier: kept
    assert value == 3 and 0.0 < conf
    value, conf = fuse(0.9, probs(1, 0.4, p_none=0.55), 1, 0.9)  # a screw head read as a 1
    assert conf < FLAG_BELOW
    value, conf = fuse(0.35, probs(6, 0.99), 6, 0.99)  # a weak detection is never sure
    assert value == 6 and conf < FLAG_BELOW


def test_a_sure_detection_the_classifier_is_sure_is_no_die_is_dropped_unless_its_pips_read_clearly():
    grey_disc = probs(1, 0.01, p_none=0.97)  # byler's white bar with a grey disc: detector 0.6, "no die" 0.97
    assert fuse(0.66, grey_disc, 1, 0.15) is None  # a faint "1" in the pip count does not keep it
    assert fuse(0.66, grey_disc, 0, 0.0) is None
    assert fuse(0.66, probs(1, 0.01, p_none=NO_DIE_SURE), 1, PIP_VETO - 0.01) is None
    value, conf = fuse(0.66, grey_disc, 1, PIP_VETO)  # a clear pip count keeps it, flagged
    assert value == 1 and conf < FLAG_BELOW
    value, conf = fuse(0.66, probs(4, 0.1, p_none=NO_DIE_SURE - 0.05), 4, 0.2)  # less sure of no die: flagged, kept
    assert value == 4 and conf < FLAG_BELOW
    # Among a set of dice (a crowded frame) a lone round spot's clear "1" is no proof; other clear faces are.
    assert fuse(0.66, grey_disc, 1, 0.9, crowded=True) is None
    value, conf = fuse(0.66, probs(3, 0.01, p_none=0.97), 3, 0.9, crowded=True)
    assert value == 3 and conf < FLAG_BELOW


def test_a_lone_spot_the_classifier_rejects_is_dropped_only_among_a_set_of_dice(monkeypatch):
    import vision.dice.learned as learned
    from tests.vision.dice.test_reader import synthetic_table
    from vision.dice import pips

    frame, _ = synthetic_table([1, 2, 3, 4, 5, 6])
    dice = read_work_learned(frame)
    assert len(dice) == 6
    # Every detection now looks like a sure "no die" whose pips read a clear 1 (the grey disc's case):
    # in a frame of six sure detections they all go; alone (CROWDED above six) each keeps its pips' say.
    monkeypatch.setattr(learned, "dihedral_probabilities", lambda clf, crops, *a, **k: np.tile(
        probs(1, 0.01, p_none=0.97).astype(np.float32), (len(crops), 1)))
    monkeypatch.setattr(learned, "second_opinion", lambda second, crops, p: p)
    monkeypatch.setattr(learned, "read_pips", lambda lab, box: pips.FaceReading(1, [], 0.95))
    assert read_work_learned(frame) == []
    monkeypatch.setattr(learned, "CROWDED", 7)
    assert [d.value for d in read_work_learned(frame)] == [1] * 6


def test_face_mask_is_a_rounded_inset_square():
    m = face_mask(40, 40)
    assert m.shape == (40, 40) and m.dtype == np.uint8
    assert m[20, 20] == 1 and m[0, 0] == 0 and m[1, 20] == 0 and m[3, 20] == 1
    assert 0.75 < m.mean() < 0.9


def test_object_mask_follows_the_die():
    image = np.full((100, 100, 3), 60, np.uint8)
    image[30:70, 35:75] = 230  # a light die, 40x40, off the box's centre by 5 px
    mask = object_mask(to_lab(image), (30, 30, 70, 70))
    assert mask is not None and mask.shape == (40, 40)
    assert mask[:, 5:].mean() > 0.95 and mask[:, :5].mean() < 0.05
    assert object_mask(to_lab(np.full((100, 100, 3), 60, np.uint8)), (30, 30, 70, 70)) is None


class _FixedClassifier:
    """Stands in for the face classifier: probabilities by box side (px) of the crop's source box."""

    def __init__(self, by_side):
        self.by_side, self.sides = by_side, []

    def probabilities(self, crops):
        out = [self.by_side[self.sides.pop(0)] for _ in range(len(crops))]
        return np.stack(out).astype(np.float32)


def _split(found, by_side, dropped=(), work=None):
    from vision.dice import learned
    clf = _FixedClassifier(by_side)
    real = learned.face_crop

    def crop(work, box, **kw):  # record the side of each box cut, in order
        clf.sides.append(round(box[2] - box[0]))
        return real(work, box, **kw)

    learned.face_crop = crop  # the crops split_clusters cuts
    try:
        return split_clusters(np.zeros((480, 640, 3), np.uint8) if work is None else work, found, clf, dropped)
    finally:
        learned.face_crop = real


def test_cluster_split_when_the_classifier_doubts_the_big_box():
    big = Detection((170, 40, 500, 370), 0.49)
    members = [Detection((190 + 80 * i, 180, 260 + 80 * i, 250), 0.7) for i in range(3)]
    # The big box reads as no die face, its members as sure 2s: a cluster of three dice.
    dets, p = _split([(big, members)], {330: probs(5, 0.1, p_none=0.8), 70: probs(2, 0.95)})
    assert dets == members and p.shape == (3, 7) and np.all(np.argmax(p, 1) == 2)
    # A sure close-up die keeps its box, whatever its "pips" read as.
    dets, p = _split([(big, members)], {330: probs(5, 0.95), 70: probs(2, 0.95)})
    assert dets == [big] and p.shape == (1, 7)
    # Members that all read as 1s may be the pips of a close-up die (one pip cut out looks like a 1):
    # a sure big box keeps them as its pips ...
    strong = Detection(big.box, 0.8)
    dets, _ = _split([(strong, members)], {330: probs(5, 0.1, p_none=0.8), 70: probs(1, 0.95)})
    assert dets == [strong]
    # ... but a weak one that is no die face (fuse drops it: a dice tray seen as one big die) gives them
    # up, read on their own with their scores capped below SURE_SCORE, so that they are flagged.
    dets, _ = _split([(big, members)], {330: probs(5, 0.1, p_none=0.8), 70: probs(1, 0.95)})
    assert [d.box for d in dets] == [m.box for m in members] and all(d.score == UNSURE_SCORE for d in dets)
    assert fuse(big.score, probs(5, 0.1, p_none=0.8), 0, 0.0) is None
    value, conf = fuse(UNSURE_SCORE, probs(1, 0.95), 1, 0.9)
    assert value == 1 and conf < FLAG_BELOW
    # Detections below REPORT_SCORE are not read at all.
    assert _split([(Detection((0, 0, 50, 50), 0.1), [])], {})[0] == []



def test_a_group_box_is_one_close_up_die_when_nothing_in_it_reads_as_a_die():
    # The detector dropped a 190 px coarse box as a group: two fine boxes (104 and 111 px) lie in it.
    coarse = Detection((188, 352, 378, 542), 0.75)
    part, other = Detection((234, 393, 338, 497), 0.6), Detection((252, 404, 363, 515), 0.33)
    elsewhere = Detection((20, 20, 60, 60), 0.9)
    found = [(elsewhere, []), (part, [])]
    # The parts read as no die face and the classifier is sure of the coarse box: one close-up die.
    by_side = {190: probs(1, 0.95), 104: probs(4, 0.01, p_none=0.97), 40: probs(3, 0.97)}
    dets, p = _split(found, by_side, [coarse])
    assert dets == [elsewhere, coarse] and np.argmax(p[1]) == 1
    # A part that reads as a die (a real cluster of two big dice): the group stays dropped.
    by_side[104] = probs(4, 0.9)
    dets, _ = _split(found, by_side, [coarse])
    assert dets == [elsewhere, part]
    # A coarse box the classifier is not sure of (belief below CLUSTER_FACES) is not restored either.
    by_side[104], by_side[190] = probs(4, 0.01, p_none=0.97), probs(1, CLUSTER_FACES - 0.05)
    dets, _ = _split(found, by_side, [coarse])
    assert coarse not in dets



def test_a_close_up_die_whose_pips_confirm_it_stays_one_die_whatever_its_pips_read_as_alone():
    from tests.vision.dice.test_reader import draw_die

    work = np.full((480, 640, 3), (60, 110, 40), np.uint8)
    draw_die(work, (320, 240), 4, 220, 0, (235, 240, 240), (20, 20, 20))
    big = Detection((210, 130, 430, 350), 0.84)
    # two of its pips, cut out alone, read as a sure 3 and a sure 6 (tilted ivory_grid close-up of a 4)
    pips = [Detection((240, 160, 280, 200), 0.6), Detection((359, 159, 401, 201), 0.6)]
    by_side = {220: probs(4, 0.92), 40: probs(3, 0.9), 42: probs(6, 0.9)}
    dets, _ = _split([(big, pips)], by_side, work=work)
    assert dets == [big]  # its pips count 4, as the classifier reads it
    by_side[220] = probs(5, 0.92)  # pips and classifier disagree: the members' two faces make it a cluster
    dets, _ = _split([(big, pips)], by_side, work=work)
    assert dets == pips

def test_members_reading_different_faces_are_a_cluster_even_when_the_big_box_reads_as_a_die():
    # A dice tray seen whole can look like a big 5 (the dice in it as its pips): the classifier believes the
    # big box 0.85, above CLUSTER_FACES. Its members read as a sure 2 and a sure 4: dice of a cluster.
    big = Detection((170, 40, 500, 370), 0.9)
    members = [Detection((190, 180, 260, 250), 0.8), Detection((300, 180, 372, 252), 0.8)]
    dets, p = _split([(big, members)], {330: probs(5, 0.85), 70: probs(2, 0.95), 72: probs(4, 0.95)})
    assert dets == members and list(np.argmax(p, 1)) == [2, 4]
    # The pips of a close-up die look alike and read alike (here all as 6s): it stays one die.
    dets, _ = _split([(big, members)], {330: probs(5, 0.85), 70: probs(6, 0.95), 72: probs(6, 0.95)})
    assert dets == [big]


def test_a_box_much_bigger_than_the_frames_dice_is_replaced_by_its_members():
    # Three sure dice of 70 px and a 330 px box (a tray) with two members: dice of one game are of one
    # size, so the big box is no die (BIG_BOX), whatever the classifier makes of it.
    dice = [(Detection((20 + 80 * i, 400, 90 + 80 * i, 470), 0.9), []) for i in range(3)]
    big = Detection((170, 40, 500, 370), 0.9)
    members = [Detection((190, 180, 260, 250), 0.8), Detection((300, 180, 370, 250), 0.8)]
    by_side = {330: probs(5, 0.97), 70: probs(3, 0.95)}
    dets, _ = _split(dice + [(big, members)], by_side)
    assert dets == [d for d, _ in dice] + members
    # With fewer than three sure detections in the frame (the big box counts) there is no die size to go
    # by: the box stays.
    dets, _ = _split(dice[:1] + [(big, members)], by_side)
    assert big in dets


def _on_boxes(dice, boxes) -> int:
    return sum(any(x0 <= (d.box[0] + d.box[2]) / 2 <= x1 and y0 <= (d.box[1] + d.box[3]) / 2 <= y1
                   for x0, y0, x1, y1 in boxes) for d in dice)


def test_hybrid_reader_on_drawn_dice():
    from tests.vision.dice.test_reader import synthetic_table

    frame, boxes = synthetic_table([1, 2, 3, 4, 5, 6])
    dice = read_work_hybrid(frame)
    assert sorted(d.value for d in dice) == [1, 2, 3, 4, 5, 6]
    assert _on_boxes(dice, boxes) == 6
    assert all(d.flagged == (d.confidence < FLAG_BELOW) for d in dice)
    assert read_work_hybrid(synthetic_table([])[0]) == []


def test_learned_reader_on_drawn_dice():
    # Drawn dice (flat faces, perfect discs) are unlike any photo. The models before the seventh round
    # read all 6 right but flagged, and the 4 twice; since the detector and the classifier have seen drawn
    # dice of any colour (vision.training.dice_render), each is found once, read right and not flagged.
    from tests.vision.dice.test_reader import synthetic_table

    frame, boxes = synthetic_table([1, 2, 3, 4, 5, 6])  # boxes[k] holds the die showing k + 1
    dice = read_work_learned(frame)
    assert dice is not None and len(dice) == 6 and _on_boxes(dice, boxes) == len(dice)
    assert not any(d.flagged for d in dice)
    assert all(_on_boxes(dice, [box]) >= 1 for box in boxes)
    for d in dice:
        assert _on_boxes([d], [boxes[d.value - 1]]) == 1  # each best guess is the value of the die it is on
        assert d.flagged == (d.confidence < FLAG_BELOW)
    assert read_work_learned(synthetic_table([])[0]) == []


def test_sure_dice_are_read_without_counting_their_pips(monkeypatch):
    import vision.dice.learned as learned
    from tests.vision.dice.test_reader import synthetic_table

    frame, _ = synthetic_table([1, 2, 3, 4, 5, 6])
    counted = []
    real = learned.read_pips
    monkeypatch.setattr(learned, "read_pips", lambda lab, box: counted.append(box) or real(lab, box))
    monkeypatch.setattr(learned, "PIPS_SKIP_BELIEF", 1.01)  # never sure enough: every die's pips counted
    every = read_work_learned(frame)
    n_every = len(counted)
    counted.clear()
    monkeypatch.setattr(learned, "PIPS_SKIP_BELIEF", 0.95)
    skipping = read_work_learned(frame)
    assert n_every >= len(every) == 6 and len(counted) < n_every
    assert [(d.value, d.box) for d in skipping] == [(d.value, d.box) for d in every]
    assert all(not d.flagged for d in skipping)


class _SameForEveryCrop:
    """A stand-in classifier giving every crop (every view) the same probabilities; counts the crops."""

    def __init__(self, p: np.ndarray) -> None:
        self.p, self.seen = np.asarray(p, np.float32), 0

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        self.seen += len(crops)
        return np.tile(self.p, (len(crops), 1))


def test_a_second_opinion_is_averaged_in_only_where_the_first_classifier_is_unsure():
    from vision.dice.learned import SECOND_OPINION, SECOND_VIEWS, second_opinion

    crops = np.zeros((3, 3, 32, 32), np.float32)
    first = np.stack([probs(5, 0.98), probs(5, SECOND_OPINION - 0.05), probs(2, 0.3, p_none=0.5)]).astype(np.float32)
    second = _SameForEveryCrop(probs(6, 0.9))
    out = second_opinion(second, crops, first)
    assert second.seen == 2 * SECOND_VIEWS  # the two unsure rows, each in the second classifier's views
    assert np.array_equal(out[0], first[0])  # the sure row keeps its own
    expected = (first[1:] + probs(6, 0.9)) / 2
    assert np.allclose(out[1:], expected, atol=1e-5)
    assert np.allclose(out.sum(axis=1), 1.0, atol=1e-5)
    assert second_opinion(None, crops, first) is first
    assert second_opinion(_SameForEveryCrop(probs(6, 0.9)), crops[:0], first[:0]).shape == (0, 7)


def test_the_reader_asks_the_shipped_second_classifier_about_unsure_dice_only(monkeypatch):
    import vision.dice.learned as learned
    from tests.vision.dice.test_reader import synthetic_table
    from vision.dice.model import shipped_box_classifier, shipped_second_classifier

    assert shipped_second_classifier() is not None  # shipped in assets/dice_model
    frame, _ = synthetic_table([1, 2, 3, 4, 5, 6])
    spy = _SameForEveryCrop(probs(3, 0.9))
    alone = read_work_learned(frame, shipped_box_classifier(), None)
    assert [d.value for d in read_work_learned(frame, shipped_box_classifier(), spy)] == [d.value for d in alone]
    assert spy.seen == 0  # the drawn dice are all read surely: nobody else is asked
    monkeypatch.setattr(learned, "SECOND_OPINION", 1.01)  # unsure of everything: every box is asked about
    asked = read_work_learned(frame, shipped_box_classifier(), spy)
    assert spy.seen == learned.SECOND_VIEWS * len(asked) == learned.SECOND_VIEWS * 6


def test_a_known_first_view_stands_in_for_the_unturned_crop():
    from vision.dice.model import shipped_box_classifier

    clf = shipped_box_classifier()
    rng = np.random.default_rng(3)
    crops = rng.normal(size=(5, 3, 32, 32)).astype(np.float32)
    first = clf.probabilities(crops)
    assert np.allclose(dihedral_probabilities(clf, crops, first_view=first), dihedral_probabilities(clf, crops),
                       atol=1e-5)
    spy = _SameForEveryCrop(probs(4, 0.6))
    dihedral_probabilities(spy, crops, first_view=spy.probabilities(crops))
    assert spy.seen == 5 + 5 * 3  # the first view once, then 3 more views a crop


def test_a_detection_where_nothing_changed_since_the_calibration_is_on_the_empty_table():
    from vision.dice import DiceCalibration
    from vision.dice.learned import on_the_empty_table

    table = np.full((120, 160, 3), (200, 190, 170), np.uint8)
    cv2.circle(table, (40, 60), 12, (60, 60, 60), -1)  # printed on the table: there at calibration
    empty = cv2.cvtColor(table, cv2.COLOR_BGR2Lab)
    calibration = DiceCalibration(empty, empty[..., 0], (120, 160), noise=1.0)
    frame = table.copy()
    cv2.rectangle(frame, (100, 40), (130, 70), (250, 250, 250), -1)  # a white die put down since
    cv2.circle(frame, (115, 55), 4, (20, 20, 20), -1)
    lab, empty, level = to_lab(frame), calibration.background_lab((120, 160)), calibration.die_threshold
    assert on_the_empty_table(lab, empty, (26, 46, 54, 74), level)  # the printed disc
    assert not on_the_empty_table(lab, empty, (99, 39, 131, 71), level)  # the die
    assert on_the_empty_table(lab, empty, (150, 100, 175, 125), level)  # past the frame's corner, unchanged
    # a white 1 on a near-white table: its pip alone changes enough of its face
    pip_only = table.copy()
    cv2.circle(pip_only, (115, 55), 4, (20, 20, 20), -1)
    assert not on_the_empty_table(to_lab(pip_only), empty, (99, 39, 131, 71), level)
