"""`companion demo --game GAME --camera none`: a whole game of every game entered with the buttons alone."""

from __future__ import annotations

import re

import pytest

from companion.app.by_hand import by_hand_lines, script_path
from companion.cli import main
from companion.commands import Button
from companion.registry import names

BUTTON_WORDS = {b.value for b in (Button.CONFIRM, Button.BANK, Button.PASS, Button.NEXT, Button.UNDO, Button.BANK_HELD,
                                   Button.PASS_HELD)}
"""The five buttons' presses and the long presses of BANK and PASS (the donkey race's leaps)."""


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


MOST_PRESSES_A_TURN = {"cant-stop": 40, "ludo": 4, "schotten-totten": 7, "donkey-race": 4}
"""The median presses a turn by hand may take (issue 37, point 4; before: 73, 6, 10 and 4)."""


def _header_figures(name: str) -> tuple[float, int, int]:
    """(median presses a turn, most presses a turn, presses in all) from the script's header."""
    header = script_path(name).read_text(encoding="utf-8").splitlines()[1]
    found = re.search(r"; (\d+) presses, a turn takes ([\d.]+) presses \(median\) and at most (\d+)$", header)
    assert found, header
    return float(found[2]), int(found[3]), int(found[1])


@pytest.mark.parametrize("name", names())
def test_a_turn_by_hand_takes_few_presses(name):
    median, most, total = _header_figures(name)
    assert median <= MOST_PRESSES_A_TURN[name] and median <= most
    assert total == len(_presses(name))


def test_the_headers_say_the_presses_measured():
    """The figures of the entry scheme as it stands (remake the scripts and these when it changes)."""
    assert {name: _header_figures(name)[:2] for name in names()} == {
        "cant-stop": (27, 69), "ludo": (4, 10), "schotten-totten": (5, 12), "donkey-race": (2, 5)}


def test_the_demo_camera_takes_only_none(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--camera", "auto"])
    assert "invalid choice: 'auto'" in capsys.readouterr().err


def test_the_demo_speaks_the_shells_language_in_the_console_and_the_menus_on_the_screen(app_env, monkeypatch, capsys):
    (app_env / "state").mkdir()
    (app_env / "state" / "language.json").write_text('{"language": "de"}', encoding="utf-8")  # the menu's choice
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    log = app_env / "texts.jsonl"
    try:
        assert main(["demo", "--game", "donkey-race", "--camera", "none", "--headless", "--text-log", str(log)]) == 0
        assert "Demo over: Ben wins after" in capsys.readouterr().out
        assert '"text": "Eselrennen"' in log.read_text(encoding="utf-8")  # the screens: German, as the menu's
        assert main(["demo", "--game", "donkey-race", "--camera", "none", "--headless", "--language", "ru"]) == 0
        assert "Демо окончено: Ben" in capsys.readouterr().out
    finally:
        from companion.i18n import set_language
        set_language("en")
