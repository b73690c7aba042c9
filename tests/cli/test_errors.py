"""The command line's error policy (companion.cli.main): what the user can fix is one line and exit 2;
anything else is a bug: one line that says so, the traceback in the state directory's errors.log, exit 1."""

import pytest

from companion.cli import ERROR_LOG, main
from companion.cli import play as cli_play
from companion.errors import VariantError


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
