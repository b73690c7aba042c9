"""The Ludo reader's die: a cocked die is never taken, and the players are told why."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from companion.readers import ludo as ludo_reader
from vision.observation import DiceObservation, DieReading


def _reader_seeing(monkeypatch, *dice: DieReading):
    monkeypatch.setattr(ludo_reader, "read_board", lambda *args, **kwargs: SimpleNamespace(found=False))
    seeing = SimpleNamespace(read=lambda frame, calibration=None: DiceObservation(dice, (480, 640)))
    return ludo_reader.LudoFrameReader("ludo52", ("red", "blue"), dice_reader=seeing)


def test_a_leaning_die_is_not_taken_and_the_reason_is_said(monkeypatch):
    reader = _reader_seeing(monkeypatch, DieReading(6, (10, 10, 50, 50), 0.2, flagged=True, cocked=True))
    reading = reader._read_die(np.zeros((480, 640, 3), np.uint8))
    assert reading.die is None and reading.dice_seen == 1
    assert reading.problem == "the die is leaning: roll it again"


def test_a_flat_die_is_taken(monkeypatch):
    reader = _reader_seeing(monkeypatch, DieReading(6, (10, 10, 50, 50), 0.97))
    reading = reader._read_die(np.zeros((480, 640, 3), np.uint8))
    assert reading.die == 6 and reading.problem == ""


def test_a_die_on_the_board_is_read_where_it_landed_or_asked_for_never_misread():
    """The session's reader on a generated dga56 game whose rolls land on the board (after the first
    move): read from the board's change since the last settled board, else asked for."""
    from companion.bench.board_games import evaluate_die

    result = evaluate_die("dga56", games=1, moves=6, seed=2, die_on_board=1.0)
    on_board, beside = result["on_board"], result["beside"]
    assert on_board["rolls"] >= 5 and beside["rolls"] >= 1
    assert on_board["false_accepts"] == 0 and beside["false_accepts"] == 0
    assert on_board["read"] >= on_board["rolls"] // 2  # most are read by the camera
    assert beside["read"] == beside["rolls"]
    assert on_board["read"] + on_board["asked"] == on_board["rolls"]
