"""Another deck's design read by its corner index after a one-frame calibration (vision.cards.corner,
vision.cards.render_other, cards_schotten_totten.calibrate_deck) and the digit network (card_digit_net)."""

import json

import numpy as np
import pytest

from vision.cards import StCalibration, calibrate_deck
from vision.cards import digit_net as card_digit_net
from vision.cards import digits as card_digits
from vision.cards.corner import CornerDesign, nearest_colour, read_index, strip_histogram
from vision.cards.reference_deck import COLOURS
from vision.cards.render_other import render_other_card, render_other_scene
from vision.cards.schotten_totten import read_cards

CALIBRATION_VALUES = (3, 7, 2, 8, 4, 6)


@pytest.fixture(scope="module")
def calibrated():
    rng = np.random.default_rng(11)
    columns = {(i, "b"): [(c, v)] for i, (c, v) in enumerate(zip(COLOURS, CALIBRATION_VALUES))}
    frame, _, stones = render_other_scene(rng, columns, shadow=False)
    return calibrate_deck(frame, StCalibration(stones=tuple(stones)))


def test_calibration_learns_the_corner_index_and_six_colours(calibrated):
    design = calibrated.design
    assert design.polarity == "dark"
    assert sorted(design.colours) == sorted(COLOURS)
    x0, y0, x1, y1 = design.index
    # render_other_card draws the value in the card fractions (0.07, 0.05)-(0.40, 0.25)
    assert 0.03 <= x0 < x1 <= 0.45 and 0.03 <= y0 < y1 <= 0.27
    assert 1.35 <= design.aspect <= 1.5
    assert all(abs(float(np.sum(h)) - 1.0) < 1e-3 for h in design.colours.values())


def test_overlapping_columns_of_the_other_design_are_read(calibrated):
    rng = np.random.default_rng(5)
    columns = {(0, "b"): [("red", 1), ("orange", 6), ("blue", 9)], (3, "a"): [("green", 8), ("purple", 2)],
               (5, "b"): [("yellow", 5)], (8, "a"): [("blue", 4), ("red", 7), ("orange", 3)]}
    frame, _, stones = render_other_scene(rng, columns)
    obs = read_cards(frame, StCalibration(stones=tuple(stones), design=calibrated.design))
    want = {(s, side): [f"{c[0].upper()}{v}" for c, v in cards] for (s, side), cards in columns.items()}
    got = {(s, side): obs.extra["stones"][s][side] for s in range(9) for side in "ab"
           if obs.extra["stones"][s][side]}
    right = sum(a == b for key in want for a, b in zip(want[key], got.get(key, [])))
    assert set(got) <= set(want)
    assert right >= 8  # of 9 cards, 5 of them covered by a later card
    assert len(obs.cards) == 9


def test_design_survives_the_calibration_json(calibrated):
    again = StCalibration.from_json(calibrated.to_json())
    assert again.design.index == pytest.approx(calibrated.design.index, abs=1e-4)
    assert again.design.polarity == calibrated.design.polarity
    for colour in COLOURS:
        assert np.allclose(again.design.colours[colour], calibrated.design.colours[colour], atol=1e-4)
    plain = json.loads(StCalibration(stones=calibrated.stones).to_json())
    assert "design" not in plain


def test_corner_design_rejects_a_bad_polarity():
    with pytest.raises(ValueError):
        CornerDesign.from_dict({"index": [0, 0, 1, 1], "polarity": "grey", "aspect": 1.4, "colours": {}})


def test_deck_calibration_needs_one_card_per_colour():
    rng = np.random.default_rng(2)
    columns = {(i, "b"): [(c, 5)] for i, c in enumerate(COLOURS[:5])}
    frame, _, stones = render_other_scene(rng, columns, shadow=False)
    with pytest.raises(ValueError, match="expected 6"):
        calibrate_deck(frame, StCalibration(stones=tuple(stones)))


def test_strip_histograms_tell_the_six_colours_apart():
    hists = {c: strip_histogram(render_other_card(c, 5, 120)[:40]) for c in COLOURS}
    for colour in COLOURS:
        assert abs(float(hists[colour].sum()) - 1.0) < 1e-5
        other = {c: h for c, h in hists.items() if c != colour}
        assert nearest_colour(hists[colour], hists) == (colour, pytest.approx(0.0, abs=1e-3))
        assert nearest_colour(hists[colour], other)[1] > 0.3


def test_other_card_values_are_checked():
    assert render_other_card("red", 10, 90).shape == (126, 90, 3)
    with pytest.raises(ValueError):
        render_other_card("red", 11)
    with pytest.raises(ValueError):
        render_other_card("pink", 3)


def _glyph(value: int) -> np.ndarray:
    card = render_other_card("blue", value, 200)
    corner = card[: int(0.27 * card.shape[0]), : int(0.45 * card.shape[1])]
    grey = corner.mean(axis=2)
    mask = (grey < 0.6 * np.percentile(grey, 75)).astype(np.uint8) * 255
    mask[:, :12] = 0  # the border band
    mask[:12] = 0
    return mask


@pytest.mark.skipif(not card_digit_net.available(), reason="digit network not shipped")
def test_network_reads_an_unseen_font():
    # freesansbold.ttf is held out of the network's training (vision.training.card_digit_train.HELD_OUT)
    for value in range(1, 11):
        assert read_index(_glyph(value))[0] == value
    probs = card_digit_net.probabilities(np.stack([card_digits.normalise(_glyph(v)) for v in (4, 7)]))
    assert probs.shape == (2, 10)
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert list(probs.argmax(axis=1)) == [4, 7]


def test_network_model_matches_its_manifest():
    folder = card_digit_net._assets_dir()
    manifest = json.loads((folder / card_digit_net.MANIFEST).read_text(encoding="utf-8"))
    assert manifest["size"] == card_digits.SIZE
    assert manifest["bytes"] == (folder / card_digit_net.MODEL).stat().st_size <= 3_000_000
    assert "freesansbold.ttf" in manifest["held_out_fonts"]
    assert card_digit_net.available()


def test_cards_calibrate_and_read_commands_with_another_deck(tmp_path, capsys):
    import cv2

    from companion.cli import main

    rng = np.random.default_rng(11)
    columns = {(i, "b"): [(c, v)] for i, (c, v) in enumerate(zip(COLOURS, CALIBRATION_VALUES))}
    frame, _, stones = render_other_scene(rng, columns, shadow=False)
    image, out = tmp_path / "six.png", tmp_path / "deck.json"
    cv2.imwrite(str(image), frame)
    stones_arg = ";".join(f"{x:.1f},{y:.1f}" for x, y in stones)
    assert main(["cards", "calibrate", str(image), "--game", "schotten-totten", "--deck", "other",
                 "--st-stones", stones_arg, "--out", str(out)]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["deck"] == "other" and record["polarity"] == "dark"
    assert "design" in json.loads(out.read_text(encoding="utf-8"))
    assert main(["cards", "read", str(image), "--game", "schotten-totten", "--json",
                 "--st-calibration", str(out)]) == 0
    read = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    want = [{"a": [], "b": [f"{c[0].upper()}{v}"] if i < 6 else []}
            for i, (c, v) in enumerate(list(zip(COLOURS, CALIBRATION_VALUES)) + [(None, None)] * 3)]
    assert read["stones"] == want
    assert main(["cards", "calibrate", str(image), "--game", "schotten-totten", "--deck", "other",
                 "--st-stones", "1,2;3,4", "--out", str(out)]) == 2


def test_touching_columns_come_apart_between_the_stones():
    from vision.cards.corner import find_outlines, stone_cuts

    frame = np.full((400, 900, 3), (150, 165, 172), np.uint8)
    card = render_other_card("green", 4, 100)  # 100 x 140
    frame[200:340, 300:400] = card
    frame[200:340, 400:500] = render_other_card("red", 7, 100)  # touching its neighbour
    stones = [(50.0 + 100 * i, 180.0) for i in range(9)]  # stones 2 and 3 centred on the two cards
    assert len([q for q in find_outlines(frame) if q[:, 1].max() > 300]) == 1
    split = sorted(find_outlines(frame, stone_cuts(stones)), key=lambda q: q[:, 0].min())
    assert len(split) == 2
    assert split[0][:, 0].min() == pytest.approx(300, abs=4) and split[1][:, 0].max() == pytest.approx(500, abs=4)


def test_our_reference_deck_read_as_another_deck():
    from vision.cards.render import render_st_scene

    rng = np.random.default_rng(1)
    columns = {(i, "b"): [(c, v)] for i, (c, v) in enumerate(zip(COLOURS, CALIBRATION_VALUES))}
    frame, _, stones = render_st_scene(rng, columns, shadow=False)
    design = calibrate_deck(frame, StCalibration(stones=tuple(stones))).design
    assert design.polarity == "black"  # the black value in the white index box, not the coloured body
    columns = {(2, "a"): [("blue", 9), ("yellow", 1), ("red", 6)], (6, "b"): [("purple", 5), ("green", 3)]}
    frame, _, stones = render_st_scene(rng, columns)
    obs = read_cards(frame, StCalibration(stones=tuple(stones), design=design))
    assert obs.extra["stones"][2]["a"] == ["B9", "Y1", "R6"]
    assert obs.extra["stones"][6]["b"] == ["P5", "G3"]
