"""A damaged stone calibration never stops Schotten Totten (issue 52): set aside as the dice's files are."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import numpy as np

from companion.readers import ReaderSettings
from companion.readers.schotten_totten import CALIBRATION_FILE, box_stones, make_reader

SESSION = SimpleNamespace(config=SimpleNamespace(max_value=9))


def test_by_hand_the_stones_file_is_not_even_read(tmp_path):
    (tmp_path / CALIBRATION_FILE).write_text("{bad", encoding="utf-8")
    reader = make_reader(None, SESSION, ReaderSettings(tmp_path))
    assert reader.keywords["calibration"] is None
    assert (tmp_path / CALIBRATION_FILE).read_text(encoding="utf-8") == "{bad"  # left as it was


def test_with_a_camera_a_damaged_file_is_set_aside_and_the_table_is_read_without_it(tmp_path, caplog):
    (tmp_path / CALIBRATION_FILE).write_text("{bad", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        reader = make_reader(object(), SESSION, ReaderSettings(tmp_path))
    assert reader.keywords["calibration"] is None and not (tmp_path / CALIBRATION_FILE).exists()
    assert (tmp_path / (CALIBRATION_FILE + ".damaged")).read_text(encoding="utf-8") == "{bad"
    assert [r.message for r in caplog.records if "set aside as" in r.message][0].startswith(
        f"{tmp_path / CALIBRATION_FILE}: not a stone calibration")
    reading = reader(np.full((240, 320, 3), 90, np.uint8))  # an empty table: no card, no error
    assert reading.cards == ()


def test_a_good_calibration_is_read(tmp_path):
    stones = [[30 + 30 * i, 120] for i in range(9)]
    (tmp_path / CALIBRATION_FILE).write_text(f'{{"stones": {stones}}}', encoding="utf-8")
    assert [list(p) for p in box_stones(tmp_path).stones] == stones
