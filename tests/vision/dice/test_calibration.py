"""Dice calibration: stored atomically in the state directory, read back, used by the reader when it fits."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.errors import CalibrationError
from vision.dice import CALIBRATION_FILE, EMPTY, SettleTracker, calibrate_dice, load_calibration, read_dice

H, W = 480, 640


def cloth(seed: int) -> np.ndarray:
    """A cloth with a lighting gradient and sensor noise."""
    rng = np.random.default_rng(seed)
    ramp = np.linspace(0, 40, W, dtype=np.float32)[None, :, None]
    frame = np.array((60, 90, 150), np.float32) + ramp + rng.normal(0, 2.0, (H, W, 3))
    return np.clip(frame, 0, 255).astype(np.uint8)


def draw_die(frame: np.ndarray, cx: int, cy: int, value: int, side: int = 40) -> np.ndarray:
    out = frame.copy()
    h = side // 2
    cv2.rectangle(out, (cx - h, cy - h), (cx + h, cy + h), (240, 240, 240), -1)
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[value]
    for i, j in spots:
        cv2.circle(out, (cx + i * side // 4, cy + j * side // 4), max(2, side // 10), (20, 20, 20), -1)
    return out


def test_store_load_and_read(tmp_path):
    empty = [cloth(i) for i in range(5)]
    faces = [draw_die(cloth(10 + v), 100 + 80 * v, 240, v) for v in range(1, 7)]
    path = calibrate_dice(empty, tmp_path / "state", face_frames=faces)
    assert path == tmp_path / "state" / CALIBRATION_FILE and path.is_file()
    assert [p.name for p in path.parent.iterdir()] == [CALIBRATION_FILE]  # no temporary file left
    cal = load_calibration(path.parent)
    assert cal.frame_shape == (H, W) and cal.background.shape == (H, W, 3)
    assert 0.5 < cal.noise < 5.0
    assert cal.die_side == pytest.approx(41, abs=3)
    frame = cloth(99)
    for value, x in ((3, 150), (5, 300), (6, 450)):
        frame = draw_die(frame, x, 200, value)
    for calibration in (cal, None):  # with and without calibration
        obs = read_dice(frame, calibration=calibration)
        assert sorted(obs.values) == [3, 5, 6], calibration
        assert not obs.any_flagged
    # A calibration of another frame size is ignored, not misapplied.
    small = cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA)
    assert sorted(read_dice(small, calibration=cal).values) == [3, 5, 6]


def test_reader_and_settle_use_state_dir_calibration(app_env):
    state = app_env / "state"
    assert load_calibration(state) is None
    calibrate_dice([cloth(1), cloth(2), cloth(3)], state)
    cal = load_calibration(state)
    assert cal is not None and cal.fits((H, W, 3))
    tracker = SettleTracker(still_s=0.0, empty_table=cal.empty_grey)
    tracker.update(cloth(4), 0.0)
    assert tracker.update(cloth(5), 0.1).state == EMPTY
    assert read_dice(draw_die(cloth(6), 300, 200, 4), calibration=cal).values == (4,)


def test_bad_calibrations(tmp_path):
    with pytest.raises(CalibrationError, match="no frames"):
        calibrate_dice([], tmp_path)
    with pytest.raises(CalibrationError, match="dtype"):
        calibrate_dice([np.zeros((H, W, 3), np.float32)], tmp_path)
    with pytest.raises(CalibrationError, match="differ in size"):
        calibrate_dice([cloth(1), cloth(2)[:200]], tmp_path)
    with pytest.raises(CalibrationError, match="face frames"):
        calibrate_dice([cloth(1)], tmp_path, face_frames=[cloth(2)[:100]])
    assert load_calibration(tmp_path) is None
    (tmp_path / CALIBRATION_FILE).write_bytes(b"not a calibration")
    assert load_calibration(tmp_path) is None
