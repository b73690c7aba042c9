"""Settle tracker on frame sequences: moving, still, empty; a reading only after the configured stillness."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice import EMPTY, MOVING, SettleTracker
from vision.dice.settle import STILL, changed_fraction, motion_image
from vision.observation import DiceObservation, DieReading

H, W = 480, 640


def table(seed: int = 0) -> np.ndarray:
    """A green cloth with sensor noise (a new noise draw for every seed)."""
    rng = np.random.default_rng(seed)
    frame = np.full((H, W, 3), (40, 110, 50), np.int16) + rng.normal(0, 2.0, (H, W, 3)).astype(np.int16)
    return np.clip(frame, 0, 255).astype(np.uint8)


def with_die(frame: np.ndarray, x: int, y: int, side: int = 24) -> np.ndarray:
    out = frame.copy()
    cv2.rectangle(out, (x, y), (x + side, y + side), (235, 235, 235), -1)
    cv2.circle(out, (x + side // 2, y + side // 2), 3, (20, 20, 20), -1)
    return out


class CountingReader:
    """Stands in for the dice reader: one die per frame that is not the bare table; counts its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, frame):
        self.calls += 1
        has_die = frame.max() > 200
        dice = (DieReading(1, (0, 0, 10, 10), 0.9),) if has_die else ()
        return DiceObservation(dice, frame.shape[:2], 1.0)


def test_rolling_die_then_reading_after_still_time():
    reader = CountingReader()
    tracker = SettleTracker(still_s=0.5, reader=reader)
    states = []
    for i in range(10):  # the die rolls 15 px a frame at 10 fps (t = i / 10 s)
        states.append(tracker.update(with_die(table(i), 100 + 15 * i, 200), i / 10))
    assert [s.state for s in states[1:]] == [MOVING] * 9
    assert reader.calls == 0
    offered = []
    for i in range(10, 20):  # then lies where it stopped (only sensor noise changes)
        offered.append(tracker.update(with_die(table(100 + i), 100 + 15 * 9, 200), i / 10))
    assert all(s.state == STILL for s in offered)
    ready = [s.ready for s in offered]
    # Still since t = 1.0 s; a reading is offered from t >= 1.5 s, i.e. from the sixth still frame on.
    assert ready == [False] * 5 + [True] * 5
    assert reader.calls == 1  # read once per settle, the reading is kept
    assert offered[-1].reading is offered[5].reading
    assert offered[5].still_s == pytest.approx(0.5)
    assert offered[4].still_s == pytest.approx(0.4)


def test_movement_drops_the_reading():
    reader = CountingReader()
    tracker = SettleTracker(still_s=0.0, reader=reader)
    tracker.update(with_die(table(1), 300, 300), 0.0)
    assert tracker.update(with_die(table(2), 300, 300), 0.1).ready
    moved = tracker.update(with_die(table(3), 340, 300), 0.2)
    assert moved.state == MOVING and not moved.ready
    assert tracker.update(with_die(table(4), 340, 300), 0.3).ready
    assert reader.calls == 2


def test_empty_from_reading_and_from_calibrated_table():
    reader = CountingReader()
    tracker = SettleTracker(still_s=0.0, reader=reader)
    tracker.update(table(1), 0.0)
    status = tracker.update(table(2), 0.1)
    assert status.state == EMPTY and status.ready and status.reading.dice == ()
    calibrated = SettleTracker(still_s=0.0, reader=reader, empty_table=table(7))
    calibrated.update(table(8), 0.0)
    calls = reader.calls
    status = calibrated.update(table(9), 0.1)
    assert status.state == EMPTY and not status.ready
    assert reader.calls == calls  # an empty table is known without reading it
    calibrated.update(with_die(table(10), 50, 50), 0.2)
    status = calibrated.update(with_die(table(11), 50, 50), 0.3)
    assert status.state == STILL and status.ready and len(status.reading.dice) == 1


def test_global_brightness_change_is_not_motion():
    a = motion_image(with_die(table(1), 200, 200))
    b = motion_image(np.clip(with_die(table(2), 200, 200).astype(np.int16) + 25, 0, 255).astype(np.uint8))
    assert changed_fraction(a, b) < 0.0005
    c = motion_image(with_die(table(3), 230, 200))
    assert changed_fraction(a, c) > 0.001


@pytest.mark.parametrize("bad", [None, "frame", np.zeros((0, 0, 3), np.uint8), np.zeros((10, 10, 4), np.uint8),
                                 np.zeros((48, 64, 3), np.float32), np.zeros((5,), np.uint8)])
def test_bad_frames_never_raise(bad):
    tracker = SettleTracker(still_s=0.0, reader=CountingReader())
    tracker.update(table(0), 0.0)
    status = tracker.update(bad, 0.1)
    assert status.state == MOVING and status.problem and not status.ready
    # The loop carries on with good frames afterwards.
    tracker.update(table(1), 0.2)
    assert tracker.update(table(2), 0.3).ready


def test_reader_failure_and_odd_sizes():
    def broken(frame):
        raise RuntimeError("camera glitch")

    tracker = SettleTracker(still_s=0.0, reader=broken)
    tracker.update(table(0), 0.0)
    status = tracker.update(table(1), 0.1)
    assert status.problem == "reader failed: camera glitch" and not status.ready
    tiny = SettleTracker(still_s=0.0)  # the real reader on a 7x5 frame: a problem, never a crash
    tiny.update(np.full((5, 7, 3), 90, np.uint8), 0.0)
    status = tiny.update(np.full((5, 7, 3), 90, np.uint8), 0.1)
    assert status.state == EMPTY and status.ready and "too small" in status.problem
    # A frame of another size is movement (the camera changed mode), not a crash.
    assert tiny.update(table(0), 0.2).state == MOVING
    with pytest.raises(ValueError):
        SettleTracker(still_s=-1)
