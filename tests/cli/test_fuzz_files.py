"""Every command that reads a file, fed random bytes, random JSON and random images (issue 42, hypothesis):
each ends with exit status 0, 1 or 2, and what it says on stderr is one line a file, each naming the
command ("companion..."), never a traceback and never "internal error".

The commands run in this process (``companion.cli.main``), each example in a fresh temporary folder.
The strategies: any bytes; any JSON value; a valid file with one value somewhere in it replaced by any
JSON value (the way to reach each key's checks); images as OpenCV writes them, cut short or with a byte
changed, and PNG headers claiming any size.
"""

from __future__ import annotations

import json
import os
import struct
import tempfile
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main

SCALE = int(os.environ.get("COMPANION_FUZZ_SCALE", "1"))
"""Examples times this (``COMPANION_FUZZ_SCALE=50``: a longer, random search; 1: the suite's fixed few)."""

SETTINGS = settings(max_examples=12 * SCALE, deadline=None, derandomize=SCALE == 1, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                    max_leaves=20)

GOOD = {
    "cant-stop": {"players": ["A", "B"], "active": "A", "markers": {"A": {"7": 4}, "B": {}}, "claimed": {"12": "B"},
                  "runners": {"7": 6}, "dice": [3, 4, 3, 4], "variant": {"num_runners": 3}},
    "ludo": {"board": "ludo52", "variant": {"entry_rolls": [1, 6]}, "pawns": {"red": ["yard", 5, 51, 56],
             "yellow": ["yard", "yard", 0, 3]}, "to_move": "red", "roll": 6, "sixes_in_row": 0, "tries": 0},
    "schotten-totten": {"variant": "schotten-totten", "stones": [{"a": ["R5", "R6", "R7"], "b": ["B2"],
                        "first_complete": "a", "owner": None}] + [{"a": [], "b": []} for _ in range(8)]},
    "donkey-race": {"players": ["Ada", "Ben"], "variant": {"track_length": "4"}, "leader": "Ada", "donkey": True,
                    "rounds": [[["Ada", [0]], ["Ben", "pass"]], [["Ben", [3, 3]], ["Ada", "pass"]]]},
    "stones": {"stones": [[10 + 20 * i, 50] for i in range(9)], "palette": {"red": [50, 60, 40]}},
}
POSITION_COMMANDS = {"cant-stop": ["cant-stop", "moves"], "ludo": ["ludo", "moves"],
                     "schotten-totten": ["schotten-totten", "claims"], "donkey-race": ["donkey-race", "check"]}
READ_COMMANDS = {"dice": ["dice", "read"], "board": ["board", "read", "--game", "ludo"],
                 "cards-st": ["cards", "read", "--game", "schotten-totten"],
                 "cards-dr": ["cards", "read", "--game", "donkey-race"]}


@st.composite
def mutated(draw, good):
    """``good`` (JSON) with the value at one path replaced by any JSON value, or a key added or removed."""
    value = json.loads(json.dumps(good))
    holder, key = None, None
    node = value
    while isinstance(node, (dict, list)) and node and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        holder, node = node, node[key]
    if holder is None:
        return draw(JSON) if draw(st.booleans()) else {**value, draw(st.text(max_size=6)): draw(JSON)}
    if isinstance(holder, dict) and draw(st.booleans()):
        del holder[key]
    else:
        holder[key] = draw(JSON)
    return value


def json_file(good):
    """Text of a JSON file: any JSON, a mutated good file, or any bytes."""
    return st.one_of(JSON.map(json.dumps), mutated(good).map(json.dumps), st.binary(max_size=200))


def _image(rng: np.random.Generator, ext: str, height: int, width: int) -> bytes:
    frame = rng.integers(0, 256, (height, width, 3), np.uint8)
    ok, data = cv2.imencode(ext, frame)
    assert ok
    return data.tobytes()


def _png_header(width: int, height: int, depth: int, colour: int, rest: bytes) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
            + rest)


@st.composite
def image_bytes(draw):
    """A small image as OpenCV writes it (PNG, JPEG, BMP, WebP, TIFF, PPM), whole, cut short or with a
    byte changed; a PNG header claiming any size; or any bytes."""
    kind = draw(st.sampled_from(["image", "cut", "flipped", "header", "bytes"]))
    if kind == "bytes":
        return draw(st.binary(max_size=300))
    if kind == "header":
        return _png_header(draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 2**32 - 1)),
                           draw(st.sampled_from([1, 8, 16])), draw(st.sampled_from([0, 2, 6])), draw(st.binary(max_size=64)))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    data = _image(rng, draw(st.sampled_from([".png", ".jpg", ".bmp", ".webp", ".tiff", ".ppm"])),
                  draw(st.integers(1, 90)), draw(st.integers(1, 120)))
    if kind == "cut":
        return data[:draw(st.integers(0, len(data)))]
    if kind == "flipped":
        at = draw(st.integers(0, len(data) - 1))
        return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]
    return data


@pytest.fixture(scope="module")
def environment(tmp_path_factory):
    """A state and a config folder of their own for the whole module."""
    root = tmp_path_factory.mktemp("fuzz-env")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COMPANION_STATE_DIR", str(root / "state"))
        patch.setenv("COMPANION_CONFIG_DIR", str(root / "config"))
        yield root


def run(argv: list[str], capsys, files: int = 1) -> int:
    """``main(argv)`` and the checks of the module docstring; returns the exit status."""
    status = main(argv)
    out, err = capsys.readouterr()
    assert status in (0, 1, 2), (argv, status, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    lines = err.strip().splitlines()
    assert len(lines) <= files, (argv, err)
    if status == 2:
        assert lines, (argv, err)
    assert all(line.startswith("companion") for line in lines), (argv, err)
    return status


def _folder():
    return tempfile.TemporaryDirectory(prefix="companion-fuzz-")


@pytest.mark.parametrize("game", sorted(POSITION_COMMANDS))
@SETTINGS
@given(data=st.data())
def test_position_and_record_files(game, data, capsys):
    with _folder() as folder:
        paths = []
        for k in range(2):
            path = Path(folder) / f"{k}.json"
            content = data.draw(json_file(GOOD[game]))
            path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
            paths.append(str(path))
        run([*POSITION_COMMANDS[game], *paths, "--json"], capsys, files=2)


@pytest.mark.parametrize("command", sorted(READ_COMMANDS))
@settings(SETTINGS, max_examples=8 * SCALE)
@given(content=image_bytes())
def test_images_for_the_read_commands(command, content, capsys, environment):
    with _folder() as folder:
        path = Path(folder) / "frame.png"
        path.write_bytes(content)
        run([*READ_COMMANDS[command], str(path), "--json"], capsys)


@settings(SETTINGS, max_examples=8 * SCALE)
@given(content=image_bytes(), stones=json_file(GOOD["stones"]))
def test_cards_calibrate_and_the_stone_calibration(content, stones, capsys, environment):
    with _folder() as folder:
        image, calibration = Path(folder) / "frame.png", Path(folder) / "stones.json"
        image.write_bytes(content)
        calibration.write_bytes(stones if isinstance(stones, bytes) else stones.encode("utf-8"))
        run(["cards", "calibrate", str(image), "--game", "schotten-totten", "--out", str(Path(folder) / "out.json"),
             "--st-calibration", str(calibration)], capsys)


def test_a_stone_calibration_against_a_real_frame(capsys, environment):
    with _folder() as folder:
        image = Path(folder) / "frame.png"
        image.write_bytes(_image(np.random.default_rng(3), ".png", 100, 200))

        @settings(SETTINGS, max_examples=10 * SCALE)
        @given(stones=json_file(GOOD["stones"]))
        def check(stones):
            calibration = Path(folder) / "stones.json"
            calibration.write_bytes(stones if isinstance(stones, bytes) else stones.encode("utf-8"))
            run(["cards", "read", "--game", "schotten-totten", "--st-calibration", str(calibration), str(image)],
                capsys)

        check()


CONFIG_VALUES = st.one_of(st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False), st.text(max_size=12),
                          st.lists(st.integers(-5, 40), max_size=5), st.lists(st.text(max_size=14), max_size=4))


@st.composite
def config_text(draw):
    """A config file: any bytes, or TOML of the config's sections and keys (and others) with any values."""
    from companion.config import _SECTIONS

    if draw(st.booleans()):
        return draw(st.binary(max_size=200))
    lines = []
    for section in draw(st.lists(st.sampled_from([*_SECTIONS, "cant_stop", "ludo", "nowhere"]), max_size=3,
                                 unique=True)):
        lines.append(f"[{section}]")
        keys = sorted(_SECTIONS.get(section, {"num_runners": 0, "board": 0, "x": 0}))
        for key in draw(st.lists(st.sampled_from(keys), max_size=3, unique=True)):
            lines.append(f"{key} = {json.dumps(draw(CONFIG_VALUES))}")
    return "\n".join(lines).encode("utf-8", "surrogatepass")


@SETTINGS
@given(content=config_text())
def test_config_files(content, capsys, environment):
    config = environment / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_bytes(content)
    try:
        with _folder() as folder:  # the config is read, then the missing folder refused: exit 2 either way
            assert run(["calibrate", "dice", "--camera", f"folder:{Path(folder) / 'none'}", "--frames", "1"],
                       capsys) == 2
    finally:
        config.unlink()


SCRIPT_LINES = st.sampled_from(["confirm", "bank", "pass", "next", "undo", "menu", "rules", "up", "wait 2",
                                "dice 1 2 3 4", "dice 7 7", "choose 9", "set 1 6", "add 3", "remove 1", "# x", ""])


@settings(SETTINGS, max_examples=6 * SCALE)
@given(content=st.one_of(st.binary(max_size=120),
                         st.lists(st.one_of(SCRIPT_LINES, st.text(max_size=12)), max_size=8)
                         .map(lambda lines: "\n".join(lines).encode("utf-8", "surrogatepass"))))
def test_scripts(content, capsys, environment):
    with _folder() as folder:
        script = Path(folder) / "game.script"
        script.write_bytes(content + b"\nquit\n")
        run(["play", "cant-stop", "--headless", "--camera", "none", "--new", "--seed", "1", "--players", "Ada,Ben",
             "--input", f"script:{script}"], capsys)


@settings(SETTINGS, max_examples=10 * SCALE)
@given(content=st.one_of(st.binary(max_size=300),
                         st.binary(min_size=84, max_size=600).map(lambda rest: b"SQLite format 3\x00" + rest)))
def test_stores(content, capsys, environment):
    with _folder() as folder:
        store = Path(folder) / "given.sqlite3"
        store.write_bytes(content)
        assert run(["stats", "--store", str(store), "--json"], capsys) in (0, 2)
        assert store.read_bytes() == content and os.listdir(folder) == ["given.sqlite3"]  # never changed


@settings(SETTINGS, max_examples=6 * SCALE)
@given(content=st.binary(max_size=300))
def test_the_stored_dice_calibration(content, capsys, environment):
    from vision.dice.calibration import CALIBRATION_FILE

    state = environment / "state"
    state.mkdir(parents=True, exist_ok=True)
    (state / CALIBRATION_FILE).write_bytes(content)
    try:
        with _folder() as folder:
            image = Path(folder) / "frame.png"
            image.write_bytes(_image(np.random.default_rng(5), ".png", 60, 80))
            run(["dice", "read", str(image), "--json"], capsys)
    finally:
        (state / CALIBRATION_FILE).unlink()
