"""`companion calibrate dice` stores frames of the empty play area where the reader finds them."""

import cv2
import numpy as np

from companion.cli import main
from vision.dice_calibration import load_calibration


def test_calibrate_dice_from_a_folder_of_empty_table_photos(app_env, capsys):
    folder = app_env / "empty"
    folder.mkdir()
    rng = np.random.default_rng(0)
    for i in range(3):
        table = np.full((240, 320, 3), (40, 90, 30), np.uint8) + rng.integers(0, 4, (240, 320, 3), dtype=np.uint8)
        cv2.imwrite(str(folder / f"empty{i}.png"), table)
    assert main(["calibrate", "dice", "--camera", f"folder:{folder}", "--frames", "3"]) == 0
    assert "Dice calibration stored in" in capsys.readouterr().out
    calibration = load_calibration(app_env / "state")
    assert calibration is not None


def test_calibrate_dice_without_frames_is_a_clear_error(app_env, capsys, tmp_path):
    missing = tmp_path / "nothing-here"
    assert main(["calibrate", "dice", "--camera", f"folder:{missing}"]) == 2
    assert "does not exist" in capsys.readouterr().err
