"""`open_game`: a bad --players or --variant stores nothing, and a saved game is not resumed under other rules."""

from __future__ import annotations

import pytest

from companion.app.demo import photos_dir
from companion.app.loop import open_game
from companion.cli import main
from companion.errors import VariantError
from companion.games.cant_stop.rules import CantStopConfig
from companion.session.cant_stop import replay
from companion.store import Store


def check(names, rules):
    return replay([], len(names), CantStopConfig.from_variant(rules))


def test_a_bad_player_count_or_variant_stores_no_game(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        with pytest.raises(ValueError, match="players"):
            open_game(store, "cant-stop", ["A", "B", "C", "D", "E"], {}, check=check)
        with pytest.raises(VariantError):
            open_game(store, "cant-stop", ["A", "B"], {"columns_to_win": "banana"}, new=True, check=check)
        assert store.unfinished_games() == []
        game_id, players, variant = open_game(store, "cant-stop", ["A", "B"], {"columns_to_win": "2"}, check=check)
        assert players == ["A", "B"] and variant == {"columns_to_win": "2"}
        assert [g.id for g in store.unfinished_games()] == [game_id]


def test_resuming_with_other_rules_asked_for_is_refused_and_the_same_rules_resume(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        game_id, _, _ = open_game(store, "cant-stop", ["A", "B"], {"columns_to_win": "2"}, check=check)
        with pytest.raises(ValueError, match="--new"):
            open_game(store, "cant-stop", None, {"columns_to_win": "3"}, variant_given=True, check=check)
        assert open_game(store, "cant-stop", None, {"columns_to_win": "2"}, variant_given=True)[0] == game_id
        # the config's default rules (no --variant) resume the saved game with its own rules
        assert open_game(store, "cant-stop", None, {}, check=check) == (game_id, ["A", "B"], {"columns_to_win": "2"})
        assert len(store.unfinished_games()) == 1


@pytest.mark.parametrize("game, bad", [
    ("cant-stop", ["--players", "A,B,C,D,E"]),
    ("cant-stop", ["--variant", "columns_to_win=banana"]),
    ("ludo", ["--players", "A,B,C,D,E"]),
    ("ludo", ["--variant", "board=chess"]),
    ("schotten-totten", ["--variant", "game=chess"]),
    ("donkey-race", ["--variant", "track_length=banana"]),
])
def test_a_failed_play_leaves_no_game_behind_and_the_next_play_starts(app_env, game, bad, capsys):
    quit_script = app_env / "quit.script"
    quit_script.write_text("quit\n", encoding="utf-8")
    camera = "none" if game == "schotten-totten" else f"folder:{photos_dir()}"
    common = ["play", game, "--headless", "--camera", camera, "--input", f"script:{quit_script}"]
    assert main([*common, *bad]) == 2
    assert capsys.readouterr().err.startswith("companion: ")
    with Store(app_env / "state" / "companion.sqlite3") as store:
        assert store.unfinished_games() == []
