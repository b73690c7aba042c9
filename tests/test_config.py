"""companion.config: TOML over defaults, validation messages naming file and key."""

import tomllib
from importlib import resources
from pathlib import Path

import pytest

from companion.commands import Button
from companion.config import _SECTIONS, ButtonsConfig, Config, LedsConfig, SessionConfig, load_config
from companion.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def example_path() -> Path:
    return Path(str(resources.files("assets") / "config.example.toml"))


def test_defaults():
    config = load_config(None)
    assert config.session == SessionConfig(stable_frames=3, still_seconds=0.6, fps=10.0, frames_per_photo=4)
    assert config.buttons.pins == {
        Button.CONFIRM: 17, Button.BANK: 27, Button.PASS: 22, Button.NEXT: 23, Button.UNDO: 24
    }
    assert config.buttons.bounce_time == 0.05 and config.buttons.hold_time == 1.0
    assert config.leds == LedsConfig(seats=(5, 6, 13, 19), status=26)
    assert config.display.width == 800 and config.display.height == 480 and not config.display.fullscreen
    assert config.camera.spec == "auto"
    assert config.variant("cant-stop") == {}


def test_missing_file_gives_defaults_unless_required(tmp_path):
    assert load_config(tmp_path / "nope.toml") == Config()
    with pytest.raises(ConfigError, match="nope.toml: config file not found"):
        load_config(tmp_path / "nope.toml", must_exist=True)


def test_partial_file_merges_over_defaults(tmp_path):
    path = write(tmp_path, "[session]\nstable_frames = 5\nstill_seconds = 1\n[buttons]\npass = 4\n")
    config = load_config(path)
    assert config.session.stable_frames == 5
    assert config.session.still_seconds == 1.0 and isinstance(config.session.still_seconds, float)
    assert config.session.fps == 10.0
    assert config.buttons.pins[Button.PASS] == 4
    assert config.buttons.pins[Button.CONFIRM] == 17
    assert config.source == path


def test_example_file_loads_cleanly_and_lists_every_key():
    path = example_path()
    config = load_config(path, must_exist=True)
    assert config == Config()  # the example documents the defaults
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for section, keys in _SECTIONS.items():
        assert set(data[section]) == set(keys), section
    assert "cant_stop" in data


def test_variant_table_kept_as_given(tmp_path):
    path = write(tmp_path, '[cant_stop]\ncolumns_to_win = 2\npairing_rule = "free"\nauto_stop_on_win = true\n')
    config = load_config(path)
    assert config.variant("cant-stop") == {"columns_to_win": 2, "pairing_rule": "free", "auto_stop_on_win": True}
    assert config.variant("ludo") == {}
    with pytest.raises(ConfigError, match=r"\[cant_stop\] columns = \[1, 2\]"):
        load_config(write(tmp_path, "[cant_stop]\ncolumns = [1, 2]\n"))


@pytest.mark.parametrize(
    "text, message",
    [
        ("[session]\nstable_frames = 0\n", r"\[session\] stable_frames = 0: expected a whole number >= 1"),
        ("[session]\nstable_frames = 2.5\n", r"\[session\] stable_frames = 2.5: expected a whole number"),
        ("[session]\nstable_frames = true\n", r"stable_frames = true: expected a whole number"),
        ("[session]\nfps = 0\n", r"\[session\] fps = 0: expected a number > 0"),
        ("[session]\nstill_seconds = -1.0\n", r"still_seconds = -1.0: expected a number >= 0"),
        ("[session]\nfps = nan\n", r"fps = nan"),
        ("[display]\nfullscreen = 1\n", r"\[display\] fullscreen = 1: expected true or false"),
        ("[display]\nlanguage = \"de DE\"\n", r"language = \"de DE\": expected .*a language the box speaks: en, de, nl, pt_BR, ru"),
        ("[buttons]\nconfirm = 28\n", r"\[buttons\] confirm = 28: expected a whole number 0-27"),
        ("[buttons]\nbank = 17\n", r"\[buttons\] bank = 17: BCM pin 17 is already used by \[buttons\] confirm"),
        ("[leds]\nstatus = 17\n", r"\[leds\] status = 17: BCM pin 17 is already used by \[buttons\] confirm"),
        ("[leds]\nseats = [5, 5]\n", r"\[leds\] seats\[1\] = 5: BCM pin 5 is already used by \[leds\] seats\[0\]"),
        ("[leds]\nseats = [1, 2, 3, 4, 7]\n", r"\[leds\] seats = \[1, 2, 3, 4, 7\]: expected a list of at most 4"),
        ("[buttons]\nhold_time = 0.01\n", r"\[buttons\] hold_time = 0.01: expected a number > bounce_time"),
        ("[camera]\nspec = \"\"\n", r"\[camera\] spec = \"\": expected \"auto\", \"picamera\", \"device:N\" \(N 0-99\)"),
        ("[buttons]\nmenu = 5\n", r"unknown key \[buttons\] menu; known keys: confirm, bank, pass, next, undo"),
        ("[sesion]\nfps = 5\n", r"unknown section or key 'sesion'; known sections: \[session\]"),
        ("fps = 5\n", r"unknown section or key 'fps'"),
        ("session = 5\n", r"'session' must be a table"),
        ("[session\n", r"not valid TOML"),
    ],
)
def test_errors_name_file_key_and_allowed_values(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=message) as info:
        load_config(path)
    assert str(info.value).startswith(f"{path}: ")


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


def test_values_are_immutable():
    config = load_config(None)
    with pytest.raises(TypeError):
        config.buttons.pins[Button.BANK] = 3  # type: ignore[index]
    assert isinstance(config.buttons, ButtonsConfig)


def test_players_names_are_read_and_a_bad_list_names_the_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[players]\nnames = ["Ada", " Ben "]\n', encoding="utf-8")
    assert load_config(path).players.names == ("Ada", "Ben")
    for bad in ('["Ada", "Ada"]', '["Bartholomäus W"]', '[""]', '"Ada"'):
        path.write_text(f"[players]\nnames = {bad}\n", encoding="utf-8")
        with pytest.raises(ConfigError, match=f"{path}: \\[players\\] names = .*each 1 to 12 characters"):
            load_config(path)
