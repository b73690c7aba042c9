"""How to play (companion.screens.rules, companion.app.rules): every game's pages, from the menu and from
within a game (a long press of UNDO, the key H, `rules` in a script), then back to the game."""

import pygame
import pytest

from companion.app.rules import RulesSession
from companion.cli import main
from companion.commands import Button, Command
from companion.display import rules as rules_display
from companion.registry import names
from companion.screens import rules as rules_screen


@pytest.mark.parametrize("game", names())
def test_every_game_has_pages_that_fit(game):
    session = RulesSession(game)
    assert session.pages == len(rules_screen.game_pages(game)) >= 5  # the keyboard page last
    for page in range(session.pages):
        session.page = page
        view = rules_screen.build_view(session)
        assert view.heading and len(view.text) <= 260 and view.prompt.startswith("How to play, page")
        for size in ((800, 480), (1280, 720)):
            rules_display.draw(pygame.Surface(size), view)
    assert view.heading == "On a keyboard" and "B: BANK" in view.text
    session.page = 0
    session.on_command(Command(Button.NEXT))
    session.on_command(Command(Button.UNDO))
    session.on_command(Command(Button.UNDO))  # back from the first page: the last
    assert session.page == session.pages - 1
    session.on_command(Command(Button.CONFIRM))
    assert session.finished


def test_rules_from_within_a_game_then_back_to_it(app_env, tmp_path):
    script = tmp_path / "s.script"
    script.write_text("rules\nnext\nconfirm\nconfirm\nquit\n", encoding="utf-8")  # start the game after the rules
    shots = tmp_path / "shots"
    assert main(["play", "cant-stop", "--headless", "--camera", "none", "--input", f"script:{script}",
                 "--players", "Ada,Ben", "--screenshots", str(shots), "--seed", "1"]) == 0
    modes = [p.name.split("-", 1)[1].removesuffix(".png") for p in sorted(shots.glob("*.png"))]
    assert modes[:3] == ["start", "rules", "rules"] and "check" in modes[3:]  # no camera: the roll's entry


def test_quit_on_a_rules_page_ends_the_run_with_the_game_saved(app_env, tmp_path):
    """Q (or `quit`) on How to play quits the program, as it does on the game's own screens."""
    from companion.store import Store

    script = tmp_path / "s.script"
    script.write_text("confirm\nrules\nnext\nquit\n", encoding="utf-8")
    assert main(["play", "cant-stop", "--headless", "--camera", "none", "--input", f"script:{script}",
                 "--players", "Ada,Ben", "--seed", "1"]) == 0  # not "the script ended while the game waited"
    with Store(app_env / "state" / "companion.sqlite3") as store:
        (record,) = store.unfinished_games("cant-stop")
        assert [e.payload["type"] for e in store.events(record.id)] == ["start"]  # saved where it was


@pytest.mark.parametrize("language", ["en", "de", "ru"])
@pytest.mark.parametrize("game", names())
def test_the_rules_header_keeps_its_size_and_line_on_every_page(game, language):
    from companion.display import text
    from companion.i18n import speaking

    session = RulesSession(game)
    drawn = []
    with speaking(language):
        for page in range(session.pages):
            session.page = page
            view = rules_screen.build_view(session)
            entries: list[dict] = []
            previous = text.start_log(text.TextLog(entries.append))
            try:
                text.begin_frame("rules")
                rules_display.draw(pygame.Surface((800, 480)), view)
            finally:
                text.start_log(previous)
            prompt = [entry for entry in entries if entry["text"] in view.prompt]
            assert len(prompt) == 1, [entry["text"] for entry in entries]  # one line, never wrapped
            drawn.append((prompt[0]["px"], prompt[0]["rect"][1]))
    assert len(set(drawn)) == 1, drawn  # the same size at the same place on every page
