"""`companion calibrate dice` stores frames of the empty play area where the reader finds them."""

import cv2
import numpy as np

from companion.cli import main
from vision.dice import load_calibration


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


def test_calibrate_dice_says_when_frames_are_missing_or_a_die_was_left_on_the_play_area(app_env, capsys):
    from tests.vision.dice.test_calibration import cloth, draw_die

    folder = app_env / "table"
    folder.mkdir()
    cv2.imwrite(str(folder / "empty.png"), cloth(1))
    assert main(["calibrate", "dice", "--camera", f"folder:{folder}", "--frames", "3"]) == 0
    out = capsys.readouterr()
    assert "(1 frame)." in out.out and "gave 1 of the 3 frames" in out.err and "still on the play area" not in out.err
    cv2.imwrite(str(folder / "empty.png"), draw_die(cloth(2), 300, 200, 5))  # a die left on the table
    assert main(["calibrate", "dice", "--camera", f"folder:{folder}", "--frames", "1"]) == 0
    out = capsys.readouterr()
    assert "Is a die still on the play area (5)?" in out.err and "gave" not in out.err
    assert load_calibration(app_env / "state") is not None  # stored all the same: the players decide


def test_dice_read_says_when_it_uses_the_calibration(app_env, caplog):
    from tests.vision.dice.test_calibration import H, W, cloth, draw_die

    image = app_env / "roll.png"
    cv2.imwrite(str(image), draw_die(cloth(3), 300, 200, 6))
    with caplog.at_level("INFO", logger="companion.cli.dice"):
        assert main(["dice", "read", str(image)]) == 0
    assert "dice calibration" not in caplog.text
    folder = app_env / "empty"
    folder.mkdir()
    cv2.imwrite(str(folder / "empty.png"), cloth(1))
    assert main(["calibrate", "dice", "--camera", f"folder:{folder}", "--frames", "1"]) == 0
    caplog.clear()
    with caplog.at_level("INFO", logger="companion.cli.dice"):
        assert main(["dice", "read", str(image)]) == 0
    assert f"dice calibration of the state directory is used for images of {W}x{H}" in caplog.text
