"""companion.app.devices.PlayDevices: devices open in the order asked and close in reverse, whatever happens;
and the play entry points that use it still say the same thing for an unplugged camera or no display."""

from __future__ import annotations

import logging
import shutil
import sqlite3

import pygame
import pytest
from gpiozero import LED, GPIOPinInUse

from companion.app import PlayDevices
from companion.app import devices as play_devices
from companion.app.demo import photos_dir
from companion.cli import main
from companion.config import Config
from companion.errors import CameraError
from companion.store import Store

GAMES = ("cant-stop", "ludo", "schotten-totten", "donkey-race")


class Fake:
    """A device that writes its name into ``log`` when it closes (and fails to close when asked)."""

    def __init__(self, name: str, log: list[str], fail_close: bool = False):
        self.name, self.log, self.fail_close = name, log, fail_close
        self.live = False

    def close(self) -> None:
        self.log.append(self.name)
        if self.fail_close:
            raise OSError(f"{self.name} would not close")

    def events(self):
        return []


@pytest.fixture
def fakes(monkeypatch):
    """Replace every device constructor of companion.app.devices with a :class:`Fake`; returns the close log
    and a set of device names whose close should fail / whose opening should raise."""
    closed: list[str] = []
    fail_close: set[str] = set()
    fail_open: dict[str, BaseException] = {}

    def make(name):
        def factory(*args, **kwargs):
            if name in fail_open:
                raise fail_open[name]
            return Fake(name, closed, name in fail_close)
        return factory

    monkeypatch.setattr(play_devices, "Store", make("store"))
    monkeypatch.setattr(play_devices, "open_or_move_aside", lambda path, lock=True: (make("store")(), "moved aside"))
    monkeypatch.setattr(play_devices, "open_camera", make("camera"))
    monkeypatch.setattr(play_devices, "Display", make("display"))
    monkeypatch.setattr(play_devices, "open_input", make("inputs"))
    monkeypatch.setattr(play_devices.LedPanel, "from_config", classmethod(lambda cls, *a, **k: make("leds")()))
    monkeypatch.setattr(play_devices, "make_pin_factory", lambda: "pins")
    return closed, fail_close, fail_open


def _open_all(devices: PlayDevices, *, camera_first: bool = False) -> None:
    if camera_first:
        devices.open_camera("folder:x")
    devices.open_store("x.sqlite3")
    devices.open_display()
    devices.open_inputs("keys+gpio", leds=True)
    if not camera_first:
        devices.open_camera("folder:x")


def test_devices_close_in_reverse_order_on_a_normal_exit(fakes):
    closed, _, _ = fakes
    with PlayDevices(Config(), headless=True) as devices:
        _open_all(devices)
        assert devices.opened == ("store", "display", "inputs", "leds", "camera")
        assert closed == []
    assert closed == ["camera", "leds", "inputs", "display", "store"]
    assert devices.opened == ()


def test_the_order_follows_the_order_of_opening(fakes):
    closed, _, _ = fakes
    with PlayDevices(Config()) as devices:
        _open_all(devices, camera_first=True)
    assert closed == ["leds", "inputs", "display", "store", "camera"]


@pytest.mark.parametrize("error", [RuntimeError("the loop failed"), KeyboardInterrupt()])
def test_devices_close_in_reverse_order_on_an_error_or_ctrl_c(fakes, error):
    closed, _, _ = fakes
    with pytest.raises(type(error)):
        with PlayDevices(Config()) as devices:
            _open_all(devices)
            raise error
    assert closed == ["camera", "leds", "inputs", "display", "store"]


def test_a_device_that_fails_to_open_closes_those_opened_before_and_its_error_passes_unchanged(fakes):
    closed, _, fail_open = fakes
    fail_open["display"] = pygame.error("kmsdrm not available")
    with pytest.raises(pygame.error, match="^kmsdrm not available$"):
        with PlayDevices(Config()) as devices:
            devices.open_camera("device:0")
            devices.open_store("x.sqlite3")
            devices.open_display()
    assert closed == ["store", "camera"]


def test_a_close_that_fails_does_not_keep_the_others_open(fakes, caplog):
    closed, fail_close, _ = fakes
    fail_close.add("inputs")
    with pytest.raises(OSError, match="inputs would not close"):  # a normal exit: the close error is raised
        with PlayDevices(Config()) as devices:
            _open_all(devices)
    assert closed == ["camera", "leds", "inputs", "display", "store"]
    assert "closing the inputs failed" in caplog.text

    closed.clear()
    with pytest.raises(KeyError):  # the block's own error wins over a close error
        with PlayDevices(Config()) as devices:
            _open_all(devices)
            raise KeyError("board")
    assert closed == ["camera", "leds", "inputs", "display", "store"]


def test_leds_only_when_asked_and_only_with_gpio(fakes):
    closed, _, _ = fakes
    with PlayDevices(Config()) as devices:
        devices.open_inputs("keys+gpio")
        assert devices.leds is None
    with PlayDevices(Config()) as devices:
        devices.open_inputs("keys", leds=True)
        assert devices.leds is None and devices.opened == ("inputs",)
    assert closed == ["inputs", "inputs"]


def test_store_moved_aside_reports_its_problem(fakes):
    with PlayDevices(Config()) as devices:
        devices.open_store("x.sqlite3", move_aside=True)
        assert devices.store_problem == "moved aside"


def test_real_devices_are_released(tmp_path, monkeypatch, factory):
    """Real store, photo folder, headless window, script + mock GPIO buttons and LEDs: all free afterwards."""
    monkeypatch.setattr(play_devices, "make_pin_factory", lambda: factory)
    photos = tmp_path / "photos"
    photos.mkdir()
    shutil.copy(photos_dir() / "IMG_20191209_100026.jpg", photos)
    script = tmp_path / "s.script"
    script.write_text("quit\n", encoding="utf-8")
    config = Config()
    pins = [*config.buttons.pins.values(), *config.leds.seats]
    with PlayDevices(config, headless=True) as devices:
        store = devices.open_store(tmp_path / "c.sqlite3")
        devices.open_camera(f"folder:{photos}")
        devices.open_display()
        devices.open_inputs(f"script:{script}+gpio", leds=True)
        assert devices.camera.read() is not None and devices.leds is not None and pygame.display.get_init()
        with pytest.raises(GPIOPinInUse):
            LED(pins[-1], pin_factory=factory)
    assert not pygame.display.get_init()
    with pytest.raises(sqlite3.ProgrammingError):  # the connection is closed
        store._db.execute("select 1")
    for pin in pins:  # every button and LED pin can be claimed again
        LED(pin, pin_factory=factory).close()


@pytest.mark.parametrize("game", GAMES)
def test_an_unplugged_camera_gives_the_same_clear_message(game, app_env, capsys, caplog):
    script = app_env / "quit.script"
    script.write_text("quit\n", encoding="utf-8")
    status = main(["play", game, "--headless", "--camera", f"folder:{app_env / 'unplugged'}", "--input",
                   f"script:{script}"])
    message = f"photo folder {app_env / 'unplugged'} does not exist"
    assert status == 2  # every game alike: the camera named cannot be used
    assert capsys.readouterr().err == f"companion: {message}\n"


@pytest.mark.parametrize("game", GAMES)
def test_a_missing_display_gives_the_same_clear_message(game, app_env, capsys, monkeypatch, one_photo_folder):
    script = app_env / "quit.script"
    script.write_text("quit\n", encoding="utf-8")
    pygame.display.quit()
    monkeypatch.setenv("SDL_VIDEODRIVER", "nosuchdriver")  # as on a box whose screen is not connected
    status = main(["play", game, "--camera", f"folder:{one_photo_folder}", "--input", f"script:{script}"])
    assert status == 2
    assert capsys.readouterr().err == "companion: nosuchdriver not available\n"


@pytest.fixture
def one_photo_folder(tmp_path):
    folder = tmp_path / "one-photo"
    folder.mkdir()
    shutil.copy(photos_dir() / "IMG_20191209_100026.jpg", folder)
    return folder


def test_camera_error_from_open_camera_is_not_wrapped(tmp_path):
    with pytest.raises(CameraError, match="not understood"):
        with PlayDevices(Config()) as devices:
            devices.open_camera("bogus")
    assert devices.opened == ()


def test_ludo_without_a_camera_is_played_by_hand(app_env, tmp_path):
    # Ludo's die is entered by hand when no camera reads it: the entry opens at 1, PASS -1 round to 6, CONFIRM.
    script = tmp_path / "ludo.script"
    script.write_text("confirm\npass\nconfirm\nquit\n", encoding="utf-8")
    assert main(["play", "ludo", "--headless", "--camera", "none", "--players", "Ada,Ben",
                 "--input", f"script:{script}"]) == 0
    with Store(app_env / "state" / "companion.sqlite3") as store:
        (record,) = store.unfinished_games("ludo")
        actions = [event.payload for event in store.events(record.id)]
    assert len(actions) == 2 and "6" in str(actions[1])


def test_donkey_race_without_a_camera_says_so_without_a_warning(app_env, caplog):
    script = app_env / "quit.script"
    script.write_text("quit\n", encoding="utf-8")
    caplog.set_level(logging.INFO)
    assert main(["play", "donkey-race", "--headless", "--camera", "none", "--input", f"script:{script}"]) == 0
    assert any("camera: none" in r.getMessage() for r in caplog.records)
    assert not any(r.levelno >= logging.WARNING for r in caplog.records)


def test_open_camera_none_opens_nothing(tmp_path, caplog):
    from companion.app import NO_CAMERA, PlayDevices
    from companion.config import Config

    caplog.set_level(logging.INFO)
    with PlayDevices(Config(), headless=True) as devices:
        assert devices.open_camera(NO_CAMERA) is None and devices.camera is None
        assert devices.opened == ()
    assert any(r.getMessage() == "camera: none (entered by hand)" for r in caplog.records)


def test_auto_without_a_camera_plays_by_hand_and_says_so(app_env, tmp_path, monkeypatch):
    from companion.app import devices as devices_module
    from companion.app.play import play
    from companion.config import Config
    from companion.errors import NoCameraFound
    from companion.paths import AppPaths
    from companion.registry import game

    def no_camera(spec, **kwargs):
        raise NoCameraFound("no camera found (Pi camera: picamera2 is not installed; no device 0)")

    monkeypatch.setattr(devices_module, "open_camera", no_camera)
    script = tmp_path / "s.script"
    script.write_text("confirm\nquit\n", encoding="utf-8")
    shown = []
    monkeypatch.setattr("companion.app.loop.Display.show", lambda self, view, draw, *mode: shown.append(view),
                        raising=False)
    paths = AppPaths.from_dirs(tmp_path / "state", tmp_path / "config")
    result = play(game("cant-stop"), paths=paths, config=Config(), input_spec=f"script:{script}", camera="auto",
                  players=["Ada", "Ben"], headless=True, seed=1)
    assert result.winner is None
    assert shown[0].message == "No camera found: enter with the buttons"
    assert any(v.prompt == "Ada: enter your roll" for v in shown)
