"""The dice reader on the bundled real photos, on drawn dice, on bad frames, and through `dice read`."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.errors import FrameError
from tests.paths import SHARED_DATA
from vision.camera import bundled_photos_dir
from vision.dice import read_dice
from vision.dice.eval import load_set, match_to_boxes
from vision.dice.reader import shipped_reader, work_image
from vision.observation import DieReading

# Measured on the bundled 14 photos (4 dice each; never used to train the face classifier) with reader
# v2: 7 photos read exactly, 50 dice reported, all on labelled dice (50 of 56 found), 40 unflagged and
# all 40 right. (v1: 6 exact, 48 found, 36 of 37 unflagged right.) The bounds leave a small margin.
MIN_EXACT_PHOTOS = 6
MIN_FOUND = 0.85
MIN_UNFLAGGED_RIGHT = 0.97


@pytest.fixture(scope="module")
def bundled():
    """(labelled image, frame, observation) for every bundled photo, read once for the module."""
    folder = bundled_photos_dir()
    images, _ = load_set(folder)
    out = []
    for item in images:
        frame = cv2.imread(str(folder / item.file))
        out.append((item, frame, read_dice(frame)))
    return out


def test_bundled_photos_read_exactly(bundled):
    exact = sum(sorted(obs.values) == sorted(item.values) for item, _, obs in bundled)
    assert exact >= MIN_EXACT_PHOTOS, f"only {exact} of {len(bundled)} photos read exactly"


def test_bundled_boxes_lie_on_labelled_dice(bundled):
    found = labelled = right = unflagged = 0
    for item, _, obs in bundled:
        match = match_to_boxes(obs, item.boxes)
        labelled += len(item.boxes)
        found += sum(m is not None for m in match)
        for die, m in zip(obs.dice, match):
            if not die.flagged:
                unflagged += 1
                right += m is not None and item.boxes[m][0] == die.value
    assert found / labelled >= MIN_FOUND
    assert unflagged and right / unflagged >= MIN_UNFLAGGED_RIGHT


WORK_MAX_SIDE = shipped_reader().params.work_max_side


def test_observation_fields(bundled):
    for _, frame, obs in bundled:
        h, w = frame.shape[:2]
        assert obs.frame_shape == (h, w)
        assert obs.problem is None
        assert obs.ms > 0
        for die in obs.dice:
            assert 1 <= die.value <= 6
            assert 0.0 <= die.confidence <= 1.0
            assert isinstance(die.flagged, bool)
            x0, y0, x1, y1 = die.box
            assert all(isinstance(v, int) for v in die.box)
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
            if die.confidence < shipped_reader().params.flag_below or die.cocked:  # other checks may flag too
                assert die.flagged
        centres_y = [(d.box[1] + d.box[3]) / 2 for d in obs.dice]
        # Reading order: rows top to bottom, so a die never sits a whole die height above an earlier one.
        for a, b in zip(centres_y, centres_y[1:]):
            assert b > a - 60


# Pip positions of each value on the 3x3 lattice (i, j in -1, 0, 1).
LAYOUT = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
          4: [(-1, -1), (-1, 1), (1, -1), (1, 1)], 5: [(-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)],
          6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}


def draw_die(frame, centre, value, side, angle_deg, body, pip):
    """Draw a die face (rounded square body, round pips) seen from straight above."""
    cx, cy = centre
    t = math.radians(angle_deg)
    u = np.array([math.cos(t), math.sin(t)])
    v = np.array([-math.sin(t), math.cos(t)])
    half = side / 2
    corners = [np.array(centre) + half * (sx * u + sy * v) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    cv2.fillConvexPoly(frame, np.round(np.array(corners)).astype(np.int32), body, cv2.LINE_AA)
    for i, j in LAYOUT[value]:
        p = np.array(centre) + 0.27 * side * (i * u + j * v)
        cv2.circle(frame, (int(round(p[0])), int(round(p[1]))), int(round(0.09 * side)), pip, -1, cv2.LINE_AA)
    return (int(cx - half * 1.5), int(cy - half * 1.5), int(cx + half * 1.5), int(cy + half * 1.5))


def synthetic_table(values, body=(235, 240, 240), pip=(20, 20, 20), table=(60, 110, 40), side=56):
    """A 640x480 table with the given dice in a row, each turned a little; returns (frame, boxes)."""
    rng = np.random.default_rng(7)
    frame = np.empty((480, 640, 3), np.uint8)
    frame[:] = table
    noise = rng.normal(0, 2.0, frame.shape)
    boxes = []
    for k, value in enumerate(values):
        centre = (70 + k * 100, 160 + 120 * (k % 2))
        boxes.append(draw_die(frame, centre, value, side, 10 + 13 * k, body, pip))
    frame = np.clip(frame + noise, 0, 255).astype(np.uint8)
    return cv2.GaussianBlur(frame, (3, 3), 0), boxes


# Drawn dice are unlike the face classifier's training photos: on light pips it contests some faces
# the pips read cleanly (measured with the classifier of width 2: the 5 of the white dice, the 5 and 6 of
# the red dice, the 6 of the black ones), which the reader then reports flagged with the pips' (right)
# value. The bound is what was measured.
@pytest.mark.parametrize("body,pip,table,max_flagged", [
    ((235, 240, 240), (20, 20, 20), (60, 110, 40), 1),  # white dice, black pips, green cloth
    ((40, 40, 200), (245, 245, 245), (200, 200, 200), 2),  # red dice, white pips, light table
    ((30, 30, 30), (240, 240, 240), (120, 90, 60), 1),  # black dice, white pips, wooden brown
])
def test_drawn_dice_all_values(body, pip, table, max_flagged):
    frame, boxes = synthetic_table([1, 2, 3, 4, 5, 6], body, pip, table)
    obs = read_dice(frame, calibration=None)
    assert obs.problem is None
    assert sorted(obs.values) == [1, 2, 3, 4, 5, 6]
    assert sum(d.flagged for d in obs.dice) <= max_flagged
    # Reading order follows the drawing: left to right along the two rows (top row first).
    assert list(obs.values) == [1, 3, 5, 2, 4, 6]
    for die in obs.dice:
        cx, cy = (die.box[0] + die.box[2]) / 2, (die.box[1] + die.box[3]) / 2
        assert any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in boxes)



def test_close_ups_of_one_drawn_die():
    """160 close-ups (4 seeds x 40) of one drawn die of 150-420 px on a 640 px table
    (:func:`vision.training.dice_clusters.make_image` with :func:`vision.training.dice_render.rendered_cuts`).
    Measured: 131 read exactly (seeds 1-8, the 320 of the twelfth round: 255 then, 257 with the
    one-recognizer reader; 241 before a box the detector's merge dropped could be restored as one close-up
    die, vision.dice.reader.DiceReader._close_ups). No die is shown wrong unflagged; most misses read no
    die at all (the detector does not see the biggest drawn dice whole). Four seeds, not eight: eight took
    25 s, a benchmark's time, not a test's."""
    from vision.training.dice_clusters import make_image
    from vision.training.dice_render import rendered_cuts

    exact = wrong_unflagged = 0
    for seed in range(1, 5):
        cuts, rng = rendered_cuts(40, seed, 256), np.random.default_rng(seed)
        for _ in range(40):
            scene = make_image(cuts, rng, touching=False, sides=(150.0, 420.0), dice=(1, 1))
            dice = read_dice(scene.image, calibration=None).dice
            exact += len(dice) == 1 and dice[0].value == scene.values[0]
            wrong_unflagged += sum(not d.flagged and d.value != scene.values[0] for d in dice)
    assert wrong_unflagged == 0
    assert exact >= 128

def test_empty_table_reads_no_dice():
    frame, _ = synthetic_table([])
    obs = read_dice(frame)
    assert obs.dice == ()


@pytest.mark.parametrize("frame,words", [
    (None, "None"),
    (np.zeros((0, 0, 3), np.uint8), "empty"),
    (np.zeros((120, 160), np.uint8), "shape"),
    (np.zeros((120, 160, 4), np.uint8), "shape"),
    (np.zeros((120, 160, 3), np.float32), "dtype"),
    (np.zeros((120, 160, 3), np.uint16), "dtype"),
    ([[0, 0, 0]], "numpy"),
])
def test_structurally_bad_frames_raise(frame, words):
    with pytest.raises(FrameError, match=words):
        read_dice(frame)
    assert issubclass(FrameError, ValueError)


@pytest.mark.parametrize("frame,words", [
    (np.zeros((480, 640, 3), np.uint8), "black"),
    (np.full((480, 640, 3), 255, np.uint8), "saturated"),
    (np.full((480, 640, 3), 128, np.uint8), "contrast"),
    (np.full((12, 16, 3), 128, np.uint8), "small"),
])
def test_unreadable_frames_give_a_problem(frame, words):
    obs = read_dice(frame)
    assert obs.dice == ()
    assert obs.problem and words in obs.problem
    assert obs.frame_shape == frame.shape[:2]


def test_cli_read_json(capsys):
    folder = bundled_photos_dir()
    files = sorted(str(p) for p in folder.glob("*.jpg"))[:2]
    assert main(["dice", "read", *files, "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    for name, line in zip(files, lines):
        obj = json.loads(line)
        assert set(obj) == {"file", "dice", "ms"}
        assert obj["file"] == name
        assert isinstance(obj["ms"], float)
        for die in obj["dice"]:
            assert set(die) == {"value", "box", "confidence", "flagged", "cocked"}
            assert 1 <= die["value"] <= 6 and len(die["box"]) == 4
            assert isinstance(die["flagged"], bool)
            assert die["cocked"] is False  # the bundled photos' dice all lie flat


def test_cli_read_bad_file_and_debug_out(tmp_path, capsys):
    good = sorted(bundled_photos_dir().glob("*.jpg"))[0]
    bad = tmp_path / "notes.jpg"
    bad.write_text("not an image")
    out = tmp_path / "overlays"
    code = main(["dice", "read", str(bad), str(good), str(tmp_path / "missing.png"), "--debug-out", str(out)])
    captured = capsys.readouterr()
    assert code == 1
    assert "notes.jpg: not a readable image" in captured.err
    assert "missing.png: no such file" in captured.err
    assert good.name in captured.out  # the good image was still read
    overlay = cv2.imread(str(out / f"{good.stem}.png"))
    assert overlay is not None and overlay.shape == cv2.imread(str(good)).shape
    # A --debug-out that cannot be a folder (a file is there): one line, exit 2, nothing read.
    code = main(["dice", "read", str(good), "--debug-out", str(bad)])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert f"--debug-out {bad}: cannot make that folder" in captured.err


def test_pi_camera_set(shared_data):
    """The set closest to our hardware (Pi camera over a tray; never trained on). Measured with reader
    v3 and the gate (vision.dice.reader): 10 of 10 photos exact, every die found, 3 of 60
    flagged (all three by the gate; none without it), no unflagged error."""
    from vision.dice import evaluate

    result = evaluate(shared_data / "dice" / "pi_cam_tray")
    assert result["images"] == 10 and result["dice"] == 60
    assert result["image_accuracy"] >= 0.9
    assert result["found"] >= 0.98
    assert result["unflagged_precision"] >= 0.98
    assert result["flag_rate"] <= 0.08


def test_the_work_image_averages_whole_blocks_when_the_frame_is_a_whole_multiple_of_the_work_size():
    rng = np.random.default_rng(0)
    frame = rng.integers(0, 256, (961, 2 * WORK_MAX_SIDE, 3), dtype=np.uint8)  # pi_cam_tray's 1280 x 961
    work, scale = work_image(frame, WORK_MAX_SIDE)
    assert scale == 0.5 and work.shape == (480, WORK_MAX_SIDE, 3)  # the odd last row is left out
    block = frame[2:4, 6:8].reshape(-1, 3).astype(float).mean(0)
    assert np.abs(work[1, 3].astype(float) - block).max() <= 1.0
    odd = rng.integers(0, 256, (700, 1000, 3), dtype=np.uint8)
    work, scale = work_image(odd, WORK_MAX_SIDE)
    assert scale == pytest.approx(0.64) and work.shape == (448, WORK_MAX_SIDE, 3)
    small = odd[:300, :400]
    work, scale = work_image(small, WORK_MAX_SIDE)
    assert scale == 1.0 and work is small


def test_warm_up_loads_the_readers_models_before_the_first_photo(monkeypatch):
    import vision.dice.reader as reader_module
    from vision.dice import warm_up

    converted = []
    real = reader_module.to_lab
    monkeypatch.setattr(reader_module, "to_lab", lambda image: converted.append(image.shape) or real(image))
    shipped_reader.cache_clear()
    warm_up()
    warm_up()  # safe to call again
    info = shipped_reader.cache_info()
    assert info.currsize == 1 and info.misses == 1 and info.hits >= 1
    assert converted  # OpenCV's Lab tables are built now, not in the first photo's time (~150 ms here)


BOARD_FRAMES = SHARED_DATA / "ludo" / "board_frames"


@pytest.mark.skipif(not BOARD_FRAMES.is_dir(),
                    reason="../shared/data is absent (it exists on development and CI machines only)")
@pytest.mark.parametrize("name", ["dga_easy.jpg", "dga_medium.jpg"])
def test_the_ludo_board_print_gives_no_unflagged_die(name):
    """Issue 25: on the real Ludo photos the yards (four printed circles, read as 4s at a quarter of the
    frame) and the pawns are no dice. The only die in them shows a 1; measured: every reading flagged
    (the small 1 is not found), so nothing but a 1 may be offered."""
    obs = read_dice(cv2.imread(str(BOARD_FRAMES / name)))
    assert obs.problem is None
    assert all(d.value == 1 for d in obs.dice if not d.flagged)


def test_a_missing_model_file_is_said_in_one_line_by_the_cli(tmp_path, monkeypatch, capsys):
    """A broken install (a model file of assets/dice_model gone): `dice read` says which file, in one line,
    exit 2, instead of a traceback or a reader that silently reads less."""
    import shutil

    import vision.dice.reader as reader_module
    from vision.dice.networks import RECHECK_FILE, model_dir

    folder = tmp_path / "dice_model"
    shutil.copytree(model_dir(), folder)
    (folder / RECHECK_FILE).unlink()
    monkeypatch.setattr(reader_module, "model_dir", lambda: folder)
    shipped_reader.cache_clear()
    try:
        photo = str(sorted(bundled_photos_dir().glob("*.jpg"))[0])
        assert main(["dice", "read", photo, "--json"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and str(folder / RECHECK_FILE) in err[0] and "reinstall" in err[0]
    finally:
        shipped_reader.cache_clear()
