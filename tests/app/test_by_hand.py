"""`companion demo --game GAME --camera none`: a whole game of every game entered with the buttons alone."""

from __future__ import annotations

import pytest

from companion.app.by_hand import by_hand_lines, script_path
from companion.cli import main
from companion.commands import Button
from companion.registry import names

BUTTON_WORDS = {b.value for b in (Button.CONFIRM, Button.BANK, Button.PASS, Button.NEXT, Button.UNDO)}


def _presses(name: str) -> list[str]:
    lines = script_path(name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("name", names())
def test_the_by_hand_script_holds_button_presses_only(name):
    presses = _presses(name)
    assert presses and set(presses) <= BUTTON_WORDS | {p for p in presses if p.startswith("wait ")}


@pytest.mark.parametrize("name", names())
def test_the_by_hand_script_is_what_the_writer_makes(name):
    lines, per_turn = by_hand_lines(name)
    assert lines == script_path(name).read_text(encoding="utf-8").splitlines(), (
        f"the session's buttons changed: remake it with `python -m companion.app.by_hand --write {name}`")
    assert per_turn and min(per_turn) >= 0


@pytest.mark.parametrize("name", names())
def test_the_by_hand_demo_plays_to_a_winner_without_a_camera(name, tmp_path, capsys):
    assert main(["demo", "--game", name, "--camera", "none", "--headless"]) == 0
    out = capsys.readouterr().out
    assert f"after {len(_presses(name))} button presses." in out and "Demo over: " in out
    assert "Demo over: None" not in out


def test_the_demo_camera_takes_only_none(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--camera", "auto"])
    assert "invalid choice: 'auto'" in capsys.readouterr().err
