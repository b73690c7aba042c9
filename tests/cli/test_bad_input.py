"""Bad input is the user's, never a bug (issue 42): each case is one line naming its file, key or flag,
exit status 2 (1 from a ``read`` command for an image it could not read), the other files still read;
never "internal error", never a crash."""

from __future__ import annotations

import json
import sqlite3
import struct
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.cli.common import check_given_store
from companion.config import load_config
from companion.errors import ConfigError, DisplayError, UserError
from companion.names import name_problem
from companion.store import Store

CANT_STOP = {"players": ["A", "B"], "active": "A", "dice": [1, 2, 3, 4]}
LUDO = {"pawns": {"red": ["yard"] * 4, "yellow": ["yard"] * 4}, "to_move": "red", "roll": 6}
SCHOTTEN_TOTTEN = {"stones": [{} for _ in range(9)]}
DONKEY_RACE = {"players": ["A", "B"], "leader": "A", "rounds": []}
COMMANDS = {"cant-stop": (["cant-stop", "moves"], CANT_STOP, "players"), "ludo": (["ludo", "moves"], LUDO, "pawns"),
            "schotten-totten": (["schotten-totten", "claims"], SCHOTTEN_TOTTEN, "stones"),
            "donkey-race": (["donkey-race", "check"], DONKEY_RACE, "players")}
"""game -> (command, a good file's content, a key of it)."""


def _write(path: Path, value) -> Path:
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return path


def _one_line_each(err: str, count: int) -> list[str]:
    lines = err.strip().splitlines()
    assert len(lines) == count, err
    assert all(line.startswith("companion") and "internal error" not in line for line in lines), err
    return lines


# --- position files --------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(COMMANDS))
def test_a_position_of_the_wrong_shape_is_named_and_the_files_after_it_are_read(game, tmp_path, capsys):
    command, good, key = COMMANDS[game]
    bad = [_write(tmp_path / f"{name}.json", value) for name, value in
           [("null", None), ("array", [1]), ("string", '"x"'), ("number", {**good, key: 5}),
            ("deep", "[" * 200_000 + "]" * 200_000)]]
    last = _write(tmp_path / "good.json", good)
    assert main([*command, *map(str, bad), str(last), "--json"]) == 2
    out, err = capsys.readouterr()
    lines = _one_line_each(err, len(bad))
    for path, line in zip(bad, lines):
        assert line.startswith(f"companion: {path}: ")
    assert "a position is a JSON object" in lines[0] or "a record is a JSON object" in lines[0]
    assert "nested too deep" in lines[-1]
    assert json.loads(out)["file"] == str(last)  # read after the bad ones


@pytest.mark.parametrize("change, said", [
    ({"runners": {"7": -3}}, '"runners" (column 7) must be a whole number 0-13, not -3'),
    ({"runners": {"7": 14}}, '"runners" (column 7) must be a whole number 0-13, not 14'),
    ({"runners": {"7": True}}, "not true"),
    ({"runners": {"1": 2}}, 'columns are "2" to "12", not "1"'),
    ({"runners": {"7": 2}, "markers": {"A": {"7": 4}}}, "must stand above the marker of A there (4)"),
    ({"runners": {"7": 2}, "claimed": {"7": "B"}}, "column 7 is claimed"),
    ({"dice": [3.5, 2, 3, 4]}, '"dice" must be a list of 4 whole numbers 1-6, not [3.5, 2, 3, 4]'),
    ({"dice": [True, 2, 3, 4]}, "not [true, 2, 3, 4]"),
    ({"dice": [1, 2, 3]}, '"dice" must be a list of 4 whole numbers 1-6'),
    ({"players": ["A", "A"]}, '"players" must be a list of 1-4 distinct names'),
    ({"active": "C"}, '"active": unknown player "C"'),
    ({"markers": {"A": {"7": "4"}}}, 'must be a whole number 0-13, not "4"'),
    ({"variant": [1]}, '"variant" must be a JSON object'),
    ({"markers": "x"}, '"markers" must be a JSON object of players\' markers, not "x"'),
])
def test_a_cant_stop_position_out_of_range_is_refused(change, said, tmp_path, capsys):
    path = _write(tmp_path / "p.json", {**CANT_STOP, **change})
    assert main(["cant-stop", "moves", str(path)]) == 2
    assert said in _one_line_each(capsys.readouterr().err, 1)[0]


@pytest.mark.parametrize("change, said", [
    ({"roll": 3.5}, '"roll" must be a whole number 1-6, not 3.5'),
    ({"roll": True}, '"roll" must be a whole number 1-6, not true'),
    ({"sixes_in_row": False}, '"sixes_in_row" must be a whole number 0-2'),
    ({"pawns": {"red": [True, "yard", "yard", "yard"], "yellow": ["yard"] * 4}}, "red pawn at true"),
    ({"pawns": "x"}, '"pawns" must be a JSON object'),
    ({"to_move": 5}, '"to_move" must be a string'),
])
def test_a_ludo_position_out_of_range_is_refused(change, said, tmp_path, capsys):
    path = _write(tmp_path / "p.json", {**LUDO, **change})
    assert main(["ludo", "moves", str(path)]) == 2
    assert said in _one_line_each(capsys.readouterr().err, 1)[0]


@pytest.mark.parametrize("change, said", [
    ({"donkey": "no"}, '"donkey" must be true or false, not "no"'),
    ({"rounds": [[["A", [3.5]]]]}, "card must be a whole number 0-100, not 3.5"),
    ({"rounds": [[["A", [True]]]]}, "not true"),
    ({"rounds": [["A"]]}, '"rounds" round 1 action 1 must be [NAME, "pass"]'),
    ({"rounds": "x"}, '"rounds" must be a list'),
    ({"variant": {"deck": "0-99999999999x1"}}, "bad value"),
])
def test_a_donkey_race_record_out_of_range_is_refused(change, said, tmp_path, capsys):
    path = _write(tmp_path / "r.json", {**DONKEY_RACE, **change})
    started = time.perf_counter()
    assert main(["donkey-race", "check", str(path)]) == 2
    assert said in _one_line_each(capsys.readouterr().err, 1)[0]
    assert time.perf_counter() - started < 5  # a deck of 10^11 values is refused, not built


# --- images ----------------------------------------------------------------------------------------


def png_claiming(width: int, height: int, rows: int = 0) -> bytes:
    """A grey PNG whose header says ``width`` x ``height``, with ``rows`` rows of pixel data (all of them
    are zeros, so 20000 x 20000 is a few hundred KB)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer, left, block = zlib.compressobj(9), (width + 1) * rows, 1 << 24
    data = b"".join(packer.compress(bytes(min(block, left - k))) for k in range(0, left, block)) + packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))


READS = {"dice": ["dice", "read"], "board": ["board", "read", "--game", "ludo"],
         "cards-st": ["cards", "read", "--game", "schotten-totten"],
         "cards-dr": ["cards", "read", "--game", "donkey-race"]}


@pytest.mark.parametrize("command", sorted(READS))
def test_an_image_claiming_too_many_pixels_is_refused_before_decoding_and_the_others_read(command, tmp_path,
                                                                                          capsys, app_env):
    huge = tmp_path / "huge.png"
    huge.write_bytes(png_claiming(100_000, 100_000))
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), np.random.default_rng(1).integers(0, 256, (120, 160, 3), np.uint8))
    assert main([*READS[command], str(huge), str(good), "--json"]) == 1  # a read command: 1, docs/CLI.md
    out, err = capsys.readouterr()
    line = _one_line_each(err, 1)[0]
    assert line.endswith(f"{huge}: image too large (100000x100000 pixels in its header; at most 50 megapixels "
                         "are read)")
    assert json.loads(out.splitlines()[0])["file"] == str(good)


def test_cards_calibrate_refuses_an_image_claiming_too_many_pixels(tmp_path, capsys):
    huge = tmp_path / "huge.png"
    huge.write_bytes(png_claiming(100_000, 100_000))
    out_file = tmp_path / "cal.json"
    assert main(["cards", "calibrate", str(huge), "--game", "schotten-totten", "--out", str(out_file)]) == 2
    assert "image too large" in _one_line_each(capsys.readouterr().err, 1)[0] and not out_file.exists()


def test_a_20000_square_png_is_refused_fast_without_decoding(tmp_path):
    from vision.frames import decode_file

    path = tmp_path / "big.png"  # its rows left out: made whole (390 KB) it takes 2.5 s to compress
    path.write_bytes(png_claiming(20_000, 20_000, rows=100))
    started = time.perf_counter()
    frame, why = decode_file(path)
    assert frame is None and why.startswith("image too large (20000x20000 pixels")
    assert time.perf_counter() - started < 0.5


@pytest.mark.parametrize("ext", [".png", ".jpg", ".bmp", ".webp", ".tiff", ".ppm", ".pgm"])
def test_header_sizes_of_every_format_read(ext):
    from vision.frames import header_size

    image = np.zeros((37, 53, 3), np.uint8)
    ok, data = cv2.imencode(ext, image[:, :, 0] if ext == ".pgm" else image)
    assert ok and header_size(data.tobytes()) == (53, 37)


def test_header_sizes_of_hand_made_headers():
    from vision.frames import MAX_IMAGE_PIXELS, header_size, size_problem

    assert header_size(b"GIF89a" + struct.pack("<HH", 30000, 30000) + b"\0" * 30) == (30000, 30000)
    tiff = b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 2) + struct.pack(">HHII", 256, 4, 1, 90000) \
        + struct.pack(">HHIHH", 257, 3, 1, 60000, 0) + b"\0" * 16
    assert header_size(tiff) == (90000, 60000) and "image too large" in size_problem(tiff)
    assert header_size(b"P6\n# a comment\n 7000 8000\n255\n") == (7000, 8000)
    assert "56000000" not in size_problem(b"P6\n7000 8000\n255\n") and 7000 * 8000 > MAX_IMAGE_PIXELS  # 56 MP
    assert size_problem(b"P6\n7000 7000\n255\n") is None  # 49 MP
    assert "not a readable image" in size_problem(b"\x76\x2f\x31\x01" + b"\0" * 64)  # OpenEXR: size not read


def test_an_unknown_format_is_not_decoded(tmp_path, capsys):
    exr = tmp_path / "scene.exr"
    exr.write_bytes(b"\x76\x2f\x31\x01" + b"\0" * 200)
    assert main(["dice", "read", str(exr)]) == 1
    assert "not a readable image (no size in its header; JPEG, PNG" in capsys.readouterr().err


# --- flags -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv, said", [
    (["calibrate", "camera", "--distance", "-1"], "--distance is the camera to table distance in metres"),
    (["calibrate", "camera", "--distance", "nan"], "--distance is the camera to table distance in metres"),
    (["calibrate", "camera", "--settle-frames", "0"], "--settle-frames must be at least 1"),
    (["calibrate", "dice", "--camera", "device:-1"], "camera spec 'device:-1': device number must be"),
    (["calibrate", "dice", "--frames", "0"], "--frames must be at least 1"),
    (["calibrate", "dice", "--wait", "inf"], "--wait is seconds"),
    (["menu", "--headless", "--camera", "device:-1"], "camera spec 'device:-1': device number must be"),
    (["play", "cant-stop", "--headless", "--camera", "device:-1"], "camera spec 'device:-1'"),
    (["ludo", "frames", "FRAMES", "--size", "0x0"], "--size takes WIDTHxHEIGHT of 64 to 4096 pixels a side"),
    (["ludo", "frames", "FRAMES", "--size", "100000x100"], "--size takes WIDTHxHEIGHT"),
    (["play", "cant-stop", "--headless", "--players", "Ada,B\x07n"], "--players: 'B\\x07n' has a control "
                                                                      "character (U+0007)"),
    (["play", "cant-stop", "--headless", "--players", "Ada,B\u200bn"], "a character that is not printed (U+200B)"),
    (["play", "cant-stop", "--headless", "--players", "Ada,王芳"], "'王' (U+738B), which the box's font cannot draw"),
    (["cards", "read", "--game", "schotten-totten", "--st-stones", "1,2,3;4,5,6", "IMAGE"], "--st-stones takes"),
])
def test_a_bad_flag_is_one_line_naming_it_and_exit_2(argv, said, app_env, tmp_path, capsys):
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), np.full((90, 120, 3), 90, np.uint8))
    argv = [str(tmp_path / "frames") if a == "FRAMES" else str(image) if a == "IMAGE" else a for a in argv]
    assert main(argv) == 2
    assert said in _one_line_each(capsys.readouterr().err, 1)[0]
    assert not (tmp_path / "frames").exists() and not (app_env / "state" / "companion.sqlite3").exists()


@pytest.mark.parametrize("content", ["[1]", "null", '{"stones": [[1, 2]]}', "[" * 200_000])
def test_a_stone_calibration_that_is_not_one_is_named(content, tmp_path, capsys):
    calibration = _write(tmp_path / "stones.json", content)
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), np.full((90, 120, 3), 90, np.uint8))
    assert main(["cards", "read", "--game", "schotten-totten", "--st-calibration", str(calibration),
                 str(image)]) == 2
    assert f"--st-calibration {calibration}: not a stone calibration" in _one_line_each(capsys.readouterr().err, 1)[0]


@pytest.mark.parametrize("content", ["[1]", '{"stones": "x"}'])
def test_the_stored_stone_calibration_that_is_not_one_is_named(content, tmp_path):
    from companion.errors import CalibrationError
    from companion.readers.schotten_totten import CALIBRATION_FILE, load_stones

    _write(tmp_path / CALIBRATION_FILE, content)
    with pytest.raises(CalibrationError, match=f"{CALIBRATION_FILE}: not a stone calibration"):
        load_stones(tmp_path)


def test_opencv_is_never_asked_for_a_negative_device():
    from vision.camera import DeviceSource, open_camera
    from companion.errors import CameraError

    for spec in ("device:-1", "device:100", "device:٣", "device:1.5"):
        with pytest.raises(CameraError, match="device number must be a whole number 0-99"):
            open_camera(spec)
    with pytest.raises(CameraError, match="device numbers are 0-99"):
        DeviceSource(-1)


# --- the config ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, said", [
    ('[camera]\nspec = "nonsense:1"\n', '[camera] spec = "nonsense:1": expected "auto", "picamera", "device:N"'),
    ('[camera]\nspec = "device:-1"\n', '[camera] spec = "device:-1"'),
    ('[camera]\nspec = "device:100"\n', '[camera] spec = "device:100"'),
    ("[display]\nwidth = 100000\n", "[display] width = 100000: expected a whole number 320-7680"),
    ("[display]\nheight = 0\n", "[display] height = 0: expected a whole number 200-4320"),
    ('[players]\nnames = ["Ada", "王芳"]\n', "\"王芳\" has '王' (U+738B), which the box's font cannot draw"),
    ('[players]\nnames = ["A\\u0007"]\n', "has a control character (U+0007)"),
    ("a = " + "[" * 200_000 + "]" * 200_000 + "\n", "not a config file (nested too deep)"),
])
def test_config_values_are_checked_when_it_is_loaded(text, said, tmp_path):
    path = _write(tmp_path / "config.toml", text)
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert str(raised.value).startswith(f"{path}: ") and said in str(raised.value)


@pytest.mark.parametrize("spec", ["auto", "picamera", "none", "device:0", "device:99", "video:a.mp4", "folder:x"])
def test_the_config_takes_every_camera_spec_the_camera_does(spec, tmp_path):
    from vision.camera import check_camera_spec

    assert load_config(_write(tmp_path / "config.toml", f'[camera]\nspec = "{spec}"\n')).camera.spec == spec
    if spec != "none":
        assert check_camera_spec(spec) == spec


def test_a_bad_camera_spec_in_the_config_stops_play_before_a_game_is_stored(app_env, tmp_path, capsys):
    config = app_env / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[camera]\nspec = "nonsense:1"\n', encoding="utf-8")
    script = _write(tmp_path / "quit.script", "quit\n")
    assert main(["play", "cant-stop", "--headless", "--input", f"script:{script}"]) == 2
    assert f"{config}: [camera] spec" in _one_line_each(capsys.readouterr().err, 1)[0]
    assert not (app_env / "state" / "companion.sqlite3").exists()


def test_a_window_too_large_for_sdl_names_the_config_keys():
    from companion.display.window import Display

    with pytest.raises(DisplayError, match=r"cannot open a 100000x480 window \(Window is too large.\): set the "
                                           r"config's \[display\] width and height"):
        Display(100_000, 480, headless=True)


# --- names -----------------------------------------------------------------------------------------


def test_names_the_fonts_draw_are_taken_and_others_refused_with_the_reason():
    for name in ("Ada", "Chloé", "Дмитрий", "Zoë Ω", "Ørjan", "Ana-Lía", "R2 D2"):
        assert name_problem(name) is None, name
    assert name_problem("A\tB") == "a control character (U+0009)"
    assert name_problem("A\u2028") == "a character that is not printed (U+2028)"
    assert name_problem("김") == "'김' (U+AE40), which the box's font cannot draw"
    assert name_problem("x" * 13) == "longer than 12 characters"


def test_the_fonts_draw_the_players_scripts_and_not_others():
    from companion.names import drawable

    assert all(drawable(c) for c in "Aé ßŁЖжΩ→")
    assert not any(drawable(c) for c in "王김ก")


# --- a store given with --store --------------------------------------------------------------------


def _foreign(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (name TEXT)")


STORES = {"empty": lambda p: p.write_bytes(b""), "text": lambda p: p.write_text("notes\n"), "foreign": _foreign,
          "header only": lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)}


@pytest.mark.parametrize("kind", sorted(STORES))
@pytest.mark.parametrize("command", [["stats"], ["demo", "--headless"]])
def test_a_file_given_as_store_that_is_not_the_boxs_is_refused_and_never_changed(kind, command, app_env, tmp_path,
                                                                                  capsys):
    path = tmp_path / "given.db"
    STORES[kind](path)
    before = sorted(p.name for p in tmp_path.iterdir()), path.read_bytes()
    assert main([*command, "--store", str(path)]) == 2
    line = _one_line_each(capsys.readouterr().err, 1)[0]
    assert line.startswith(f"companion: --store {path}: ") and "the file was not changed" in line
    assert (sorted(p.name for p in tmp_path.iterdir()), path.read_bytes()) == before


def test_the_boxs_store_and_a_new_file_are_taken_as_store(tmp_path):
    assert check_given_store(tmp_path / "new.sqlite3") == tmp_path / "new.sqlite3"
    with Store(tmp_path / "box.sqlite3") as store:
        store.new_game("cant-stop", ["A", "B"], {})
    assert check_given_store(tmp_path / "box.sqlite3") == tmp_path / "box.sqlite3"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["box.sqlite3"]  # no -wal or -shm made
    with sqlite3.connect(tmp_path / "box.sqlite3") as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(UserError, match="a store of a newer tabletop-companion"):
        check_given_store(tmp_path / "box.sqlite3")


# --- issue 52: what an error line repeats, and counts without end ----------------------------------------


def test_an_echoed_input_is_cut_and_named_by_its_length(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    script = _write(tmp_path / "long.script", "confirm" + "x" * 200_000 + "\n")
    assert main(["play", "cant-stop", "--headless", "--camera", "none", "--input", f"script:{script}"]) == 2
    (line,) = _one_line_each(capsys.readouterr().err, 1)
    assert "… (200007 characters)" in line and len(line) < 500
    assert main(["play", "cant-stop", "--headless", "--players", "A" * 100_000 + ",B"]) == 2
    (line,) = _one_line_each(capsys.readouterr().err, 1)
    assert line.startswith("companion: --players: 'AAA") and "(100000 characters)" in line and len(line) < 200


@pytest.mark.parametrize("argv, said", [
    (["simulate", "cant-stop", "--agents", "random", "--games", "10000000000"], "--games must be at most 1,000,000"),
    (["bench", "crash", "--game", "ludo", "--trials", "2000000"], "--trials must be at most 1,000,000"),
    (["board", "eval", "--renders", "1000000"], "--renders must be at most 100,000"),
    (["simulate", "cant-stop", "--agents", "random", "--jobs", "-1"], "--jobs must be at least 0"),
    (["odds", "cant-stop", "--columns", ""], "--columns takes one or more numbers 2-12 joined by commas, not ''"),
    (["cards", "read", "--game", "donkey-race", "--dr-donkey-value", "-5", "x.png"],
     "--dr-donkey-value must be at least 0, not -5"),
])
def test_counts_and_values_out_of_range_are_one_line(argv, said, capsys):
    assert main(argv) == 2
    (line,) = _one_line_each(capsys.readouterr().err, 1)
    assert said in line


def test_a_number_of_thousands_of_digits_in_a_position_file_is_named(tmp_path, capsys):
    position = _write(tmp_path / "p.json", '{"dice": [' + "9" * 5000 + ", 1, 2, 3]}")
    assert main(["cant-stop", "moves", str(position)]) == 2
    (line,) = _one_line_each(capsys.readouterr().err, 1)
    assert line == f"companion: {position}: not a file of this kind (a number of 5000 digits)"
