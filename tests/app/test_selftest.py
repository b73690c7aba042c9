"""companion selftest: each check reports what it found; the exit status follows the required parts."""

import json

import numpy as np
import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory

from companion.app.selftest import check_camera, check_display, check_gpio, check_paths, check_store, run_selftest
from companion.cli import main
from companion.config import Config, config_from_dict
from companion.errors import CameraError
from companion.paths import AppPaths
from companion.store import Store
from vision.camera import FrameSource


@pytest.fixture
def env(tmp_path):
    return {"COMPANION_STATE_DIR": str(tmp_path / "state"), "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
            "SDL_VIDEODRIVER": "dummy"}


class FakeCamera(FrameSource):
    name = "fake:3"

    def __init__(self, frames):
        self.left = frames

    def read(self):
        if self.left == 0:
            return None
        self.left -= 1
        return np.zeros((480, 640, 3), np.uint8)


def mock_maker(env):
    return MockFactory()


def test_off_the_pi_the_fallbacks_are_reported_and_pass(env):
    report = run_selftest(env, frames=4, factory_maker=mock_maker)
    assert report["ok"] is True and report["failed"] == []
    camera = report["camera"]
    assert camera["source"] is None and camera["fallback"] is True  # no Pi camera, no webcam here: by hand
    assert camera["ok"] is True and camera["required"] is False and "no camera found" in camera["error"]
    assert camera["frames"] == 0 and camera["frame_size"] is None
    gpio = report["gpio"]
    assert gpio["pin_factory"] == "MockFactory" and gpio["required"] is False
    assert [(p["name"], p["pin"]) for p in gpio["pins"]] == [
        ("confirm", 17), ("bank", 27), ("pass", 22), ("next", 23), ("undo", 24),
        ("seat1", 5), ("seat2", 6), ("seat3", 13), ("seat4", 19), ("status", 26)]
    assert report["display"]["driver"] == "dummy" and report["display"]["screen"] is False
    assert report["paths"]["state_writable"] is True and report["paths"]["config_exists"] is False
    assert report["store"] == {"ok": True, "required": True, "file": env["COMPANION_STATE_DIR"] + "/companion.sqlite3",
                               "exists": False, "integrity": None, "schema_version": None, "games": 0, "damaged": [],
                               "error": None}


def test_camera_counts_frames_and_names_a_failure():
    result = check_camera("device:9", frames=10, opener=lambda spec, frames_per_photo: FakeCamera(3))
    assert (result["ok"], result["source"], result["frames"], result["frame_size"]) == (True, "fake:3", 3, [640, 480])

    def refuse(spec, frames_per_photo):
        raise CameraError("picamera2 is not installed")

    result = check_camera("picamera", opener=refuse)
    assert result["ok"] is False and result["required"] is True and "picamera2 is not installed" in result["error"]
    assert check_camera("device:1", opener=lambda spec, frames_per_photo: FakeCamera(0))["error"] == \
        "the source gave no frame"


def test_a_named_pin_factory_that_fails_fails_the_selftest(env):
    report = run_selftest({**env, "GPIOZERO_PIN_FACTORY": "no-such"}, frames=2)
    assert report["ok"] is False and report["failed"] == ["gpio"]
    assert report["gpio"]["required"] is True and "is not one of" in report["gpio"]["error"]


def test_a_pin_in_use_is_named(factory):
    holder = LED(17, pin_factory=factory)  # something else holds the confirm button's pin
    result = check_gpio(Config(), {"GPIOZERO_PIN_FACTORY": "lgpio"}, factory_maker=lambda env: factory)
    bad = [p for p in result["pins"] if not p["ok"]]
    assert result["ok"] is False and result["required"] is True
    assert [(p["name"], p["error"].split(":")[0]) for p in bad] == [("confirm", "GPIOPinInUse")]
    holder.close()


def test_display_required_by_fullscreen_must_reach_a_screen(monkeypatch):
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    fullscreen = config_from_dict({"display": {"fullscreen": True}})
    result = check_display(fullscreen, {"SDL_VIDEODRIVER": "dummy"})
    assert result["ok"] is True and result["driver"] == "dummy" and result["fallback"] is None
    result = check_display(fullscreen, {"SDL_VIDEODRIVER": "kmsdrm"})  # no DRM device on a CI machine
    assert result["required"] is True and result["ok"] is False and result["error"]
    import os

    assert "SDL_VIDEODRIVER" not in os.environ  # the environment is left as it was


def test_paths_and_store_integrity(tmp_path):
    paths = AppPaths.from_dirs(tmp_path / "state", tmp_path / "config")
    paths.config_dir.mkdir()
    paths.config_file.write_text("[buttons]\nconfirm = 99\n")
    result = check_paths(paths)
    assert result["ok"] is False and result["state_writable"] is True and "confirm = 99" in result["error"]
    paths.store_file.write_bytes(b"this is not sqlite" * 100)
    store = check_store(paths)
    assert store["ok"] is False and "file is not a database" in store["error"]
    paths.store_file.unlink()
    Store(paths.store_file).close()
    store = check_store(paths)
    assert (store["ok"], store["integrity"], store["schema_version"]) == (True, "ok", 1)


@pytest.mark.parametrize("damage", ["directory", "empty", "one-byte"])
def test_a_store_path_that_holds_no_store_fails_the_check(tmp_path, damage):
    paths = AppPaths.from_dirs(tmp_path / "state", tmp_path / "config")
    paths.state_dir.mkdir()
    if damage == "directory":
        paths.store_file.mkdir()
    else:
        paths.store_file.write_bytes(b"S" * (damage == "one-byte"))
    result = check_store(paths)
    what = "a directory, where the store's file belongs" if damage == "directory" else "cut short"
    assert result["ok"] is False and result["error"].startswith(f"{paths.store_file}: {what}")
    assert "moves it aside at its next start" in result["error"]


def test_the_store_check_replays_every_saved_game_and_names_the_damaged_ones(tmp_path):
    import sqlite3

    paths = AppPaths.from_dirs(tmp_path / "state", tmp_path / "config")
    paths.state_dir.mkdir()
    with Store(paths.store_file) as store:
        good = store.new_game("cant-stop", ["Ada", "Ben"], {})
        store.append_event(good, "action", {"type": "start", "seat": 0})
        not_an_action = store.new_game("cant-stop", ["Ada", "Ben"], {})
        store.append_event(not_an_action, "action", None)
        unreadable_row = store.new_game("ludo", ["Ada", "Ben"], {})
    assert check_store(paths)["damaged"] == [
        f"{paths.store_file}: game {not_an_action}: event 1 of the saved game does not apply: not an action: None"]
    with sqlite3.connect(paths.store_file) as db:
        db.execute("UPDATE games SET players = 'Ada' WHERE id = ?", (unreadable_row,))
    result = check_store(paths)
    assert (result["ok"], result["games"], len(result["damaged"])) == (False, 3, 2)
    assert result["damaged"][0] == f"{paths.store_file}: saved game {unreadable_row} cannot be read (players is not JSON); left out"
    assert result["error"].startswith("2 saved game(s) cannot be read or replayed to the end (below)")
    with sqlite3.connect(paths.store_file) as db:
        db.execute("ALTER TABLE events DROP COLUMN created")
    result = check_store(paths)
    assert result["ok"] is False and "not the schema of a tabletop-companion store" in result["error"]


def test_cli_json_and_exit_status(env, monkeypatch, capsys):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert main(["selftest", "--json", "--frames", "3"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["gpio"]["env"] == "mock"
    assert report["camera"]["source"] is None and report["camera"]["fallback"] is True  # no camera here: by hand
    monkeypatch.setenv("COMPANION_CONFIG_DIR", env["COMPANION_STATE_DIR"])  # a config asking for the Pi camera
    (__import__("pathlib").Path(env["COMPANION_STATE_DIR"]) / "config.toml").write_text('[camera]\nspec = "picamera"\n')
    assert main(["selftest"]) == 1
    out = capsys.readouterr().out
    assert "FAIL camera: picamera" in out and out.strip().endswith("self-test FAILED: camera")


XDG_LINE = "error: XDG_RUNTIME_DIR is invalid or not set in the environment."


def test_sdls_harmless_xdg_runtime_dir_line_is_not_printed(monkeypatch, capfd):
    """SDL probes its video drivers when none is named; off a desktop session the Wayland probe writes
    the XDG_RUNTIME_DIR line straight to file descriptor 2. The self-test's output stays clean."""
    for name in ("SDL_VIDEODRIVER", "XDG_RUNTIME_DIR", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    result = check_display(Config(), {})
    assert result["ok"] is True and result["required"] is False
    assert "XDG_RUNTIME_DIR" not in capfd.readouterr().err


def test_the_stderr_filter_drops_only_the_harmless_line(capfd):
    import os

    from companion.app.selftest import filtered_native_stderr

    os.write(2, b"before\n")
    with filtered_native_stderr():
        os.write(2, (XDG_LINE + "\n").encode())  # as SDL's C code writes it
        os.write(2, b"error: kmsdrm: no DRM device\n")
        os.write(2, b"WARNING another line\n")
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "before\nerror: kmsdrm: no DRM device\nWARNING another line\nafter\n"


def test_the_xdg_line_is_kept_when_wayland_was_asked_for(capfd):
    import os

    from companion.app.selftest import filtered_native_stderr

    with filtered_native_stderr(requested="wayland"):  # then it explains why the screen failed
        os.write(2, (XDG_LINE + "\n").encode())
    assert capfd.readouterr().err == XDG_LINE + "\n"


def test_the_stderr_filter_restores_stderr_after_an_error(capfd):
    import os

    from companion.app.selftest import filtered_native_stderr

    with pytest.raises(RuntimeError):
        with filtered_native_stderr():
            os.write(2, b"real trouble\n")
            raise RuntimeError("boom")
    os.write(2, b"later\n")
    assert capfd.readouterr().err == "real trouble\nlater\n"


def test_cli_summary_has_no_xdg_line(env, monkeypatch, capfd):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    for name in ("SDL_VIDEODRIVER", "XDG_RUNTIME_DIR", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert main(["selftest", "--frames", "2"]) == 0
    captured = capfd.readouterr()
    assert "XDG_RUNTIME_DIR" not in captured.err + captured.out
    assert captured.out.strip().endswith("self-test passed")


def test_the_dice_calibration_is_reported_and_never_fails_the_selftest(env):
    from companion.app.selftest import _summary, check_dice_calibration
    from companion.paths import resolve
    from vision.dice import CALIBRATION_FILE, calibrate_dice

    paths = resolve(env)
    none = check_dice_calibration(paths, [640, 480])
    assert (none["ok"], none["required"], none["exists"], none["fits"]) == (False, False, False, None)
    table = np.full((480, 640, 3), (40, 90, 30), np.uint8)
    calibrate_dice([table], paths.state_dir)
    fits = check_dice_calibration(paths, [640, 480])
    assert (fits["ok"], fits["frame_size"], fits["fits"], fits["error"]) == (True, [640, 480], True, None)
    assert fits["dice_seen"] == []
    other = check_dice_calibration(paths, [1280, 960])  # the camera now gives other frames
    assert (other["ok"], other["fits"]) == (False, False)
    from tests.vision.dice.test_calibration import draw_die

    calibrate_dice([draw_die(table, 300, 200, 4)], paths.state_dir)  # a die was left on the play area
    left = check_dice_calibration(paths, [640, 480])
    assert (left["ok"], left["fits"], left["dice_seen"]) == (False, True, [4])
    (paths.state_dir / CALIBRATION_FILE).write_bytes(b"not a calibration")
    assert check_dice_calibration(paths, [640, 480])["error"] == "unreadable: calibrate again"
    report = run_selftest(env, frames=2, factory_maker=mock_maker)
    assert report["ok"] is True and report["dice_calibration"]["ok"] is False  # not required: a warning
    assert "warn dice calibration: unreadable: calibrate again" in _summary(report)
    (paths.state_dir / CALIBRATION_FILE).unlink()
    assert any(line.startswith("warn dice calibration: none (companion calibrate dice")
               for line in _summary(run_selftest(env, frames=2, factory_maker=mock_maker)))
