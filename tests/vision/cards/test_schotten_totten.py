"""Schotten Totten card reader (vision.cards.schotten_totten) and our reference deck (vision.cards.reference_deck)."""

import json
import re

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.errors import FrameError
from vision.cards import StCalibration, calibrate_colours
from vision.cards.reference_deck import ASSET_DIR, COLOURS, LETTER, deck, render_card, sheet_card, write_pdf
from vision.cards.render import random_st_columns, render_st_scene
from vision.cards.schotten_totten import read_cards


def _expected_table(columns):
    table = [{"a": [], "b": []} for _ in range(9)]
    for (stone, side), cards in columns.items():
        table[stone][side] = [f"{LETTER[c]}{v}" for c, v in cards]
    return table


def test_deck_has_54_distinct_cards_and_rejects_others():
    cards = deck()
    assert len(cards) == 54 == len(set(cards))
    assert {c for c, _ in cards} == set(COLOURS)
    card = render_card("blue", 7, 126)
    assert card.shape == (176, 126, 3) and card.dtype == np.uint8
    for colour, value in (("pink", 3), ("red", 0), ("red", 10)):
        with pytest.raises(ValueError):
            render_card(colour, value)


def test_bundled_sheets_and_pdf():
    sheets = sorted(ASSET_DIR.glob("reference_deck_sheet*.png"))
    assert [p.name for p in sheets] == [f"reference_deck_sheet{i}.png" for i in range(1, 7)]
    assert (ASSET_DIR / "__init__.py").is_file()
    pdf = (ASSET_DIR / "reference_deck.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert len(re.findall(rb"/Type /Page\b", pdf)) == 6


def test_write_pdf_offsets_point_at_objects(tmp_path):
    pages = [np.full((40, 30, 3), 200, np.uint8), np.zeros((40, 30, 3), np.uint8)]
    data = write_pdf(pages, tmp_path / "t.pdf", page_mm=(30, 40)).read_bytes()
    xref = int(data.rsplit(b"startxref", 1)[1].split()[0])
    assert data[xref:xref + 4] == b"xref"
    offsets = [int(line[:10]) for line in data[xref:].split(b"\n")[3:3 + 8]]
    for n, offset in enumerate(offsets, start=1):
        assert data[offset:].startswith(b"%d 0 obj" % n)


@pytest.mark.parametrize("sheet_number", [1, 6])
def test_bundled_sheet_cards_read_one_by_one(sheet_number):
    sheet = cv2.imread(str(ASSET_DIR / f"reference_deck_sheet{sheet_number}.png"))
    expected = deck()[9 * (sheet_number - 1):9 * sheet_number]
    # each card of the PNG on a grey table, scaled to about 110 px wide, stone line above it
    for k in (0, 4, 8):
        card = cv2.resize(sheet_card(sheet, k), (110, 154), interpolation=cv2.INTER_AREA)
        frame = np.full((300, 400, 3), (140, 150, 155), np.uint8)
        frame[100:254, 145:255] = card
        calibration = StCalibration(stones=tuple((20.0 + 40 * i, 60.0) for i in range(9)))
        obs = read_cards(frame, calibration)
        colour, value = expected[k]
        assert [c.code for c in obs.cards] == [f"{LETTER[colour]}{value}"]
        assert obs.cards[0].side == "b" and obs.cards[0].stone == 4


@pytest.mark.parametrize("seed, n_cards", [(1, 14), (4, 26)])
def test_rendered_table_reads_every_column(seed, n_cards):
    rng = np.random.default_rng(seed)
    columns = random_st_columns(rng, n_cards)
    frame, truth, stones = render_st_scene(rng, columns)
    obs = read_cards(frame, StCalibration(stones=tuple(stones)))
    assert obs.problem is None
    assert obs.extra["stones"] == _expected_table(columns)
    assert len(obs.cards) == len(truth)
    assert all(c.colour in COLOURS and 1 <= c.value <= 9 for c in obs.cards)


def test_colour_calibration_learns_a_colour_cast():
    rng = np.random.default_rng(3)
    columns = {(i, "b"): [(c, 4)] for i, c in enumerate(COLOURS)}
    frame, _, stones = render_st_scene(rng, columns, shadow=False)
    cast = np.clip(frame * np.array([0.7, 0.95, 1.1]), 0, 255).astype(np.uint8)
    calibration = calibrate_colours(cast, StCalibration(stones=tuple(stones)))
    assert set(calibration.palette) == set(COLOURS)
    obs = read_cards(cast, calibration)
    assert [c.code for c in obs.cards] == [f"{LETTER[c]}4" for c in COLOURS]
    with pytest.raises(ValueError):
        calibrate_colours(cast, StCalibration(stones=tuple(stones)), colours=COLOURS[:5])


def test_calibration_geometry_and_json():
    calibration = StCalibration(stones=tuple((50.0 + 100 * i, 200.0) for i in range(9)))
    assert calibration.locate(252, 120) == (2, "a")
    assert calibration.locate(845, 300) == (8, "b")
    assert calibration.line_distance(0, 150) == pytest.approx(50.0)
    again = StCalibration.from_json(calibration.to_json())
    assert again.stones == calibration.stones and set(again.palette) == set(COLOURS)
    with pytest.raises(ValueError):
        StCalibration(stones=((0.0, 0.0),) * 8)
    default = StCalibration.default((90, 900))
    assert default.stones[0] == (50.0, 45.0) and default.stones[8] == (850.0, 45.0)


@pytest.mark.parametrize("frame, reason", [
    (np.zeros((240, 320, 3), np.uint8), "black"),
    (np.full((240, 320, 3), 255, np.uint8), "saturated"),
    (np.full((10, 10, 3), 100, np.uint8), "small"),
])
def test_unreadable_frames_give_a_problem_and_no_cards(frame, reason):
    obs = read_cards(frame)
    assert obs.cards == () and reason in obs.problem
    assert obs.to_dict()["stones"] == [{"a": [], "b": []}] * 9


@pytest.mark.parametrize("frame", [None, np.zeros((0, 5, 3), np.uint8), np.zeros((50, 50), np.uint8),
                                   np.zeros((50, 50, 3), np.float64)])
def test_invalid_input_raises_frame_error(frame):
    with pytest.raises(FrameError):
        read_cards(frame)


def test_a_frame_without_cards_reads_nothing():
    rng = np.random.default_rng(0)
    frame = np.clip(rng.normal(140, 20, (240, 320, 3)), 0, 255).astype(np.uint8)
    obs = read_cards(frame)
    assert obs.problem is None and obs.cards == ()


def test_cli_json_shape_with_stones_and_calibration_file(tmp_path, capsys):
    rng = np.random.default_rng(1)
    columns = random_st_columns(rng, 10)
    frame, _, stones = render_st_scene(rng, columns)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), frame)
    stones_arg = ";".join(f"{x:.1f},{y:.1f}" for x, y in stones)
    assert main(["cards", "read", str(path), "--game", "schotten-totten", "--json", "--st-stones", stones_arg]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["game"] == "schotten-totten" and record["n_cards"] == 10
    assert record["stones"] == _expected_table(columns)
    card = record["cards"][0]
    assert set(card) == {"code", "value", "colour", "box", "corners", "confidence", "flagged", "stone", "side"}
    calib = tmp_path / "calibration.json"
    calib.write_text(StCalibration(stones=tuple(stones)).to_json(), encoding="utf-8")
    assert main(["cards", "read", str(path), "--game", "schotten-totten", "--json", "--st-calibration",
                 str(calib)]) == 0
    assert json.loads(capsys.readouterr().out.strip())["stones"] == _expected_table(columns)
    assert main(["cards", "read", str(path), "--game", "schotten-totten", "--st-stones", "1,2;3,4"]) == 2
    assert "9 stones" in capsys.readouterr().err


def test_cards_without_index_boxes_are_read_by_their_centre_and_flagged():
    from vision.cards.render import render_number_card

    frame = np.full((300, 400, 3), (140, 150, 155), np.uint8)
    frame[120:274, 60:170] = render_number_card(6, 110)
    calibration = StCalibration(stones=tuple((20.0 + 40 * i, 60.0) for i in range(9)))
    obs = read_cards(frame, calibration)
    assert len(obs.cards) == 1
    card = obs.cards[0]
    assert card.flagged and card.value == 6 and (card.stone, card.side) == (2, "b")


@pytest.mark.parametrize("seam_px", [1, 2])
def test_a_seam_beside_the_index_value_is_not_read_as_a_stroke(seam_px):
    from vision.cards.st_index import _read_digit

    for value in range(1, 10):
        box = np.full((51, 96, 3), 235, np.uint8)
        box[:3, :] = box[-3:, :] = box[:, :3] = box[:, -3:] = (40, 150, 40)
        cv2.putText(box, str(value), (14, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (20, 20, 20), 4, cv2.LINE_AA)
        box[5:45, 5:5 + seam_px] = (60, 60, 60)  # the dark seam between the box's white and the card's colour
        assert _read_digit(box)[0] == value
