"""`open_game`: a bad --players or --variant stores nothing, and a saved game is not resumed under other rules."""

from __future__ import annotations

import json
import os

import pytest

from companion.app import open_game
from companion.app.demo import photos_dir
from companion.cli import main
from companion.errors import UserError, VariantError
from companion.registry import game
from companion.store import Store

CANT_STOP = game("cant-stop")


def test_a_bad_player_count_or_variant_stores_no_game(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        with pytest.raises(UserError, match="players"):
            open_game(store, CANT_STOP, ["A", "B", "C", "D", "E"], {})
        with pytest.raises(VariantError):
            open_game(store, CANT_STOP, ["A", "B"], {"columns_to_win": "banana"}, new=True)
        assert store.unfinished_games() == []
        game_id, players, variant = open_game(store, CANT_STOP, ["A", "B"], {"columns_to_win": "2"})
        assert game_id is None and players == ["A", "B"] and variant == {"columns_to_win": "2"}
        assert store.unfinished_games() == []  # stored once the devices are open (companion.app.play.play)


def test_resuming_with_other_rules_asked_for_is_refused_and_the_same_rules_resume(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        game_id = store.new_game("cant-stop", ["A", "B"], {"columns_to_win": "2"})
        with pytest.raises(UserError, match="--new"):
            open_game(store, CANT_STOP, None, {"columns_to_win": "3"}, variant_given=True)
        assert open_game(store, CANT_STOP, None, {"columns_to_win": "2"}, variant_given=True)[0] == game_id
        # the config's default rules (no --variant) resume the saved game with its own rules
        assert open_game(store, CANT_STOP, None, {}) == (game_id, ["A", "B"], {"columns_to_win": "2"})
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
    assert not (app_env / "state" / "companion.sqlite3").exists()  # refused before the store was opened
    assert main(common) == 0  # the same play without the bad argument starts a game
    with Store(app_env / "state" / "companion.sqlite3") as store:
        assert [g.game for g in store.unfinished_games()] == [game]


def _play_a_roll_then_damage_event_2(app_env, payload) -> tuple[list[str], object, int]:
    """(the play command resuming it, the store's path, events stored) of a Can't Stop game whose event 2
    was then given ``payload``; the command's script quits at once."""
    import sqlite3

    script = app_env / "s.script"
    script.write_text("confirm\ndice 1 2 3 4\nconfirm\nquit\n", encoding="utf-8")
    args = ["play", "cant-stop", "--headless", "--camera", "none", "--players", "Ada,Ben", "--input", f"script:{script}"]
    assert main(args) == 0
    path = app_env / "state" / "companion.sqlite3"
    with sqlite3.connect(path) as db:
        (count,) = db.execute("SELECT count(*) FROM events").fetchone()
        db.execute("UPDATE events SET payload = ? WHERE seq = 2", (payload,))
    script.write_text("quit\n", encoding="utf-8")
    return args, path, count


def test_a_saved_game_with_an_unreadable_event_resumes_from_the_last_good_one(app_env, caplog):
    args, path, count = _play_a_roll_then_damage_event_2(app_env, "{torn")
    assert count >= 2
    assert main(args) == 0  # resumed, not "Expecting property name enclosed in double quotes"
    assert any("event 2 could not be read (payload is not JSON); the game goes on after event 1" in r.getMessage() for r in caplog.records)
    with Store(path) as store:
        (record,) = store.unfinished_games("cant-stop")
        assert len(store.events(record.id)) == 1


def test_a_missing_script_stores_no_game(app_env, capsys):
    assert main(["play", "donkey-race", "--headless", "--camera", "none", "--input", "script:missing.script"]) == 2
    assert "missing.script" in capsys.readouterr().err
    store_file = app_env / "state" / "companion.sqlite3"
    if store_file.exists():
        with Store(store_file) as store:
            assert store.unfinished_games() == []


def test_an_unknown_variant_key_on_a_saved_game_is_named_not_sent_to_new(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        store.new_game("cant-stop", ["A", "B"], {})
        with pytest.raises(VariantError, match="unknown Can't Stop variant key 'nope'"):
            open_game(store, CANT_STOP, None, {"nope": "1"}, variant_given=True)


def test_a_schotten_totten_play_whose_draw_was_cut_off_resumes_playable(app_env):
    """Issue 42: a power cut once fell between a card played and its draw (then two transactions); the
    resumed match refused every card. Now the press is one transaction, and a log cut there anyway (an
    older box) gets its draw on resuming."""
    import sqlite3

    script = app_env / "s.script"
    args = ["play", "schotten-totten", "--headless", "--camera", "none", "--seed", "1", "--players", "Ada,Ben",
            "--input", f"script:{script}"]
    script.write_text("confirm\nconfirm\nconfirm\nquit\n", encoding="utf-8")  # the starter; a stone and a card
    assert main([*args, "--new"]) == 0
    path = app_env / "state" / "companion.sqlite3"
    with sqlite3.connect(path) as db:
        kinds = [json.loads(p)["type"] for (p,) in db.execute("SELECT payload FROM events ORDER BY seq")]
        assert kinds[-2:] == ["play", "draw"]
        db.execute("DELETE FROM events WHERE seq = (SELECT max(seq) FROM events)")  # the cut
    script.write_text("confirm\nconfirm\nquit\n", encoding="utf-8")  # Ben plays a card: accepted
    assert main(args) == 0
    with sqlite3.connect(path) as db:
        kinds = [json.loads(p)["type"] for (p,) in db.execute("SELECT payload FROM events ORDER BY seq")]
    assert kinds[-4:] == ["play", "draw", "play", "draw"]


@pytest.mark.parametrize("payload", ["null", '{"type": "teleport"}', '[1, 2]', '"roll"'])
def test_a_saved_game_with_an_event_that_is_no_action_resumes_before_it(app_env, caplog, payload):
    args, path, count = _play_a_roll_then_damage_event_2(app_env, payload)
    assert main(args) == 0 and main(args) == 0  # resumes, and again without a word
    said = [r.getMessage() for r in caplog.records if "does not replay" in r.getMessage()]
    assert len(said) == 1 and f"{path}: game 1: event 2 does not replay" in said[0]
    assert f"the game goes on after event 1 (events 2 and on, {count - 1} in all, set aside in the file, not deleted)" in said[0]


def test_a_second_box_on_the_same_store_says_so_and_changes_nothing(app_env, capsys):
    from companion.store import StoreLock

    script = app_env / "s.script"
    script.write_text("quit\n", encoding="utf-8")
    args = ["play", "donkey-race", "--headless", "--camera", "none", "--input", f"script:{script}"]
    assert main(args) == 0
    path = app_env / "state" / "companion.sqlite3"
    before = path.read_bytes()
    held = StoreLock(path)  # the box that runs
    try:
        assert main(args) == 2
        assert main(["menu", "--headless", "--input", f"script:{script}"]) == 2
    finally:
        held.release()
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (f"companion: {path}: the box is already running (process {os.getpid()} holds this store). "
                       "Stop it first (sudo systemctl stop tabletop-companion, or quit it); nothing was changed.")
    assert path.read_bytes() == before


def test_a_second_box_is_told_before_it_opens_any_device(app_env, capsys, monkeypatch):
    """On the Pi the running box holds the screen: the second one must say it is a second box, not that
    the display cannot be opened."""
    from companion.app.devices import PlayDevices
    from companion.store import StoreLock

    opened = []
    monkeypatch.setattr(PlayDevices, "open_display", lambda self: opened.append("display"))
    script = app_env / "s.script"
    script.write_text("quit\n", encoding="utf-8")
    (app_env / "state").mkdir()
    held = StoreLock(app_env / "state" / "companion.sqlite3")
    try:
        assert main(["play", "ludo", "--headless", "--camera", "none", "--input", f"script:{script}"]) == 2
    finally:
        held.release()
    assert opened == [] and "the box is already running" in capsys.readouterr().err
