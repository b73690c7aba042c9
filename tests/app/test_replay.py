"""History's replay agrees with the game it replays (issue 51): its turn with the board's corner, its hint
with the live one, no scoreboard star before the win, and NEXT named for stepping only."""

from __future__ import annotations

import re

import pytest

from companion.app.replay import ReplaySession, _screen
from companion.cli import main
from companion.commands import Button, Command
from companion.registry import game
from companion.store import Store


def _played(name: str, store_file) -> int:
    """The game's by-hand demo played to its end (``companion demo --camera none``) into ``store_file``."""
    assert main(["demo", "--game", name, "--camera", "none", "--headless", "--store", str(store_file)]) == 0
    with Store(store_file) as store:
        (record,) = store.finished_games(game=name)
    return record.id


@pytest.mark.parametrize("name", ["cant-stop", "ludo", "schotten-totten", "donkey-race"])
def test_the_replay_names_one_turn_and_no_star_before_the_win(name, tmp_path):
    entry = game(name)
    game_id = _played(name, tmp_path / "s.sqlite3")
    with Store(tmp_path / "s.sqlite3") as store:
        replay = ReplaySession(store, entry, game_id)
        screen, corners = _screen(entry), 0
        while True:
            view = screen.build_view(replay)
            corner = re.fullmatch(r"(?:Turn|Round) \d+", view.chrome.round or "")
            named = re.search(r", (?:turn|round) \d+ of \d+", view.chrome.prompt)
            # "Replay: step 10 of 187, turn 1 of 15" beside the corner's "Turn 2" before: one number, never two
            assert not (corner and named), (replay.at, view.chrome.prompt, view.chrome.round)
            corners += bool(corner)
            assert all(seat.wins is None for seat in view.chrome.seats)  # no star the game has not won yet
            if replay.at == replay.last:
                break
            replay.on_command(Command(Button.NEXT))
        assert (corners > 10) == (name in ("cant-stop", "ludo", "donkey-race"))


def test_the_replay_shows_the_live_hint_and_names_no_key_for_hidden_pairings(tmp_path):
    from companion.hints.cant_stop import advise

    entry = game("cant-stop")
    live_budget = entry.hint_budget()  # what run_game gives a live game
    game_id = _played("cant-stop", tmp_path / "s.sqlite3")
    with Store(tmp_path / "s.sqlite3") as store:
        replay = ReplaySession(store, entry, game_id)
        checked = 0
        while replay.at < replay.last:
            replay.on_command(Command(Button.NEXT))
            state = replay.inner.state
            if state.current_player >= 0:
                assert replay.inner.hint() == advise(state, state.active, live_budget)
                checked += 1
            assert _screen(entry).build_view(replay).browse is False
        assert checked > 10
