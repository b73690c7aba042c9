"""The command line's error policy (companion.cli.main): what the user can fix is one line and exit 2;
anything else is a bug: one line that says so, the traceback in the state directory's errors.log, exit 1."""

import os
import subprocess
import sys

import pytest

from companion.cli import ERROR_LOG, main
from companion.cli import play as cli_play
from companion.errors import VariantError
from hardware import is_raspberry_pi


def test_a_user_error_is_one_line_and_exit_2(app_env, capsys):
    assert main(["simulate", "cant-stop", "--agents", "advisor,nobody", "--games", "1", "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion: ") and "unknown agent 'nobody'" in err and "\n" not in err
    assert not (app_env / "state" / ERROR_LOG).exists()


def test_an_os_error_on_a_named_file_is_one_line_and_exit_2(app_env, capsys, tmp_path):
    assert main(["dice", "eval", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion: ") and "nowhere" in err and "\n" not in err


def test_a_bug_says_so_and_logs_the_traceback(app_env, capsys, monkeypatch):
    def broken(args):
        raise KeyError("a bug in the play command")

    monkeypatch.setattr(cli_play, "_play", broken)
    assert main(["play", "cant-stop", "--headless", "--camera", "none"]) == 1
    err = capsys.readouterr().err.strip()
    log = app_env / "state" / ERROR_LOG
    assert "internal error, a bug and not your input: KeyError" in err and str(log) in err and "\n" not in err
    text = log.read_text(encoding="utf-8")
    assert "companion play cant-stop" in text and "Traceback (most recent call last)" in text
    assert "a bug in the play command" in text


def test_debug_shows_the_full_traceback(app_env, monkeypatch):
    monkeypatch.setattr(cli_play, "_play", lambda args: (_ for _ in ()).throw(VariantError("x")))
    with pytest.raises(VariantError):
        main(["--debug", "play", "cant-stop"])


def test_a_bad_board_labels_file_is_named(tmp_path, capsys):
    labels = tmp_path / "labels.json"
    labels.write_text('{"frames": {}}', encoding="utf-8")
    assert main(["board", "eval", "--renders", "0", "--real", str(tmp_path), "--labels", str(labels)]) == 2
    err = capsys.readouterr().err
    assert f"{labels}: not a board labels file" in err and "internal error" not in err


def test_a_bad_variant_is_named_before_the_inputs(capsys):
    assert main(["play", "donkey-race", "--variant", "nope=1", "--headless"]) == 2
    assert "unknown donkey-race variant key 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("args, said", [
    (["--players", "Ada"], "Donkey race takes 2 to 4 players, not 1"),
    (["--camera", "bogus"], "camera spec 'bogus' not understood"),
    (["--camera", "device:x"], "device number must be a whole number 0-99"),
    (["--camera", "device:-1"], "camera spec 'device:-1': device number must be a whole number 0-99"),
    (["--camera", "device:100"], "device number must be a whole number 0-99"),
    (["--screenshots", "/proc/forbidden"], "--screenshots /proc/forbidden: cannot make this folder"),
    (["--language", "xx"], "--language: the box does not speak 'xx'"),
])
def test_each_bad_argument_is_named_before_the_inputs_and_nothing_is_stored(app_env, capsys, args, said):
    assert main(["play", "donkey-race", "--headless", *args]) == 2
    err = capsys.readouterr().err
    assert said in err and "nothing can be pressed" not in err
    assert not (app_env / "state" / "companion.sqlite3").exists()


def test_a_demo_screenshot_folder_that_cannot_be_made_is_named(app_env, capsys):
    assert main(["demo", "--headless", "--screenshots", "/proc/forbidden"]) == 2
    assert "--screenshots /proc/forbidden: cannot make this folder" in capsys.readouterr().err


def test_a_config_file_that_is_not_text_is_named(app_env, capsys, tmp_path):
    config = app_env / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_bytes(b"\x7fELF\x02\x01\x01\x00\xd0\xff\xfe")
    script = tmp_path / "quit.script"
    script.write_text("quit\n", encoding="utf-8")
    assert main(["play", "cant-stop", "--headless", "--input", f"script:{script}"]) == 2
    err = capsys.readouterr().err
    assert f"{config}: not a config file (not UTF-8 text)" in err and "internal error" not in err


def test_an_errata_file_that_is_not_text_is_named(app_env, capsys, tmp_path):
    errata = tmp_path / "errata.csv"
    errata.write_bytes(b"\xd0\xff\xfe\x00binary")
    assert main(["dice", "eval", str(tmp_path), "--errata", str(errata)]) == 2
    err = capsys.readouterr().err
    assert f"{errata}: not an errata CSV file (not UTF-8 text" in err and "internal error" not in err


def _companion(args: list[str], env_dir, **env: str) -> "subprocess.CompletedProcess[str]":
    """``companion`` in a child process (the console's logging as a user sees it), state in ``env_dir``."""
    environ = {**os.environ, "COMPANION_STATE_DIR": str(env_dir / "state"), "COMPANION_CONFIG_DIR": str(env_dir / "config"),
               "SDL_VIDEODRIVER": "dummy", **env}
    environ.pop("GPIOZERO_PIN_FACTORY", None)
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=environ,
                          timeout=60)


@pytest.mark.parametrize("spec, said", [
    ("bogus", "--input 'bogus': unknown input 'bogus'; use keys, gpio, script:FILE"),
    ("keys+bogus", "unknown input 'bogus'"),
    ("script:/nonexistent.script", "/nonexistent.script: cannot read the script: No such file or directory"),
    ("keys+keys", "names the same kind twice"),
])
def test_a_bad_input_is_the_one_line_said_before_any_device_is_probed(tmp_path, spec, said):
    result = _companion(["play", "ludo", "--headless", "--input", spec], tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [result.stderr.strip()] and said in result.stderr, result.stderr
    assert not (tmp_path / "state" / "companion.sqlite3").exists()


@pytest.mark.skipif(is_raspberry_pi(), reason="off the Pi only: on a Pi mock pins are a warning")
def test_off_the_pi_the_missing_pins_are_not_said_before_the_players_error(tmp_path):
    result = _companion(["play", "ludo", "--headless", "--input", "gpio"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "companion: nothing can be pressed here: there is no display for the keys and no GPIO buttons; give the "
        "players' commands with --input script:FILE, or play on the box"]


@pytest.mark.skipif(is_raspberry_pi(), reason="off the Pi only: on a Pi a missing camera is a warning")
def test_off_the_pi_the_missing_camera_and_pins_are_one_line_at_most(tmp_path):
    script = tmp_path / "quit.script"
    script.write_text("quit\n", encoding="utf-8")
    result = _companion(["play", "ludo", "--headless", "--input", f"gpio+script:{script}"], tmp_path)
    assert result.returncode == 0, result.stderr
    about_devices = [line for line in result.stderr.splitlines()
                     if any(word in line for word in ("picamera2", "lgpio", "camera", "GPIO", "pin factory"))]
    assert len(about_devices) == 1 and about_devices[0].startswith("INFO"), result.stderr
    assert "WARNING" not in result.stderr


def test_an_empty_script_says_it_held_no_command(tmp_path):
    result = _companion(["play", "ludo", "--headless", "--camera", "none", "--input", "script:/dev/null"], tmp_path)
    assert result.returncode == 2
    assert "script /dev/null: ended (it holds no command)" in result.stderr and "line None" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("companion: the script ended while the game waited for: ")
