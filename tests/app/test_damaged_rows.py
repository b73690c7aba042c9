"""A saved game or event damaged in one field never blocks the box (issue 52): a game row the box cannot
play is left out, said once, and the others and the statistics go on; an event whose field holds a value
the box never writes is set aside, and the game resumes before it."""

from __future__ import annotations

import json
import sqlite3

from companion.cli import main
from companion.store import Store


def _two_games(store_file, second: bool = True):
    with Store(store_file) as store:
        good = store.new_game("cant-stop", ["Ada", "Ben"], {})
        store.append_event(good, "action", {"type": "start", "seat": 0})
        store.append_event(good, "action", {"type": "roll", "dice": [1, 2, 3, 4], "read": [1, 2, 3, 4],
                                            "source": "hand"})
        bad = store.new_game("cant-stop", ["Cy", "Di"], {}) if second else None
    return good, bad


def test_a_game_with_a_variant_the_rules_refuse_is_left_out_and_play_and_stats_go_on(app_env, capsys, caplog):
    store_file = app_env / "state" / "companion.sqlite3"
    store_file.parent.mkdir()
    good, bad = _two_games(store_file)
    with sqlite3.connect(store_file) as db:
        db.execute("UPDATE games SET variant = ? WHERE id = ?", ('{"bogus": 1}', bad))
    script = app_env / "quit.script"
    script.write_text("quit\n", encoding="utf-8")
    with caplog.at_level("INFO"):
        assert main(["play", "cant-stop", "--headless", "--camera", "none", "--input", f"script:{script}"]) == 0
    assert f"resuming saved cant-stop game {good}" in caplog.text  # not blocked by the newer game 2
    said = [r.message for r in caplog.records if f"saved game {bad} cannot be read" in r.message]
    assert len(said) == 1 and "unknown Can't Stop variant key 'bogus'" in said[0]  # said once
    capsys.readouterr()
    assert main(["stats", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert bad in figures["unreadable"]


def test_an_event_with_a_source_the_box_never_writes_is_set_aside(app_env, caplog):
    store_file = app_env / "state" / "companion.sqlite3"
    store_file.parent.mkdir()
    good, _ = _two_games(store_file, second=False)
    with sqlite3.connect(store_file) as db:  # one bit flipped: "hand" -> "(and"
        db.execute("UPDATE events SET payload = replace(payload, '\"hand\"', '\"(and\"') WHERE game_id = ?", (good,))
    script = app_env / "quit.script"
    script.write_text("quit\n", encoding="utf-8")
    with caplog.at_level("INFO"):
        assert main(["play", "cant-stop", "--headless", "--camera", "none", "--input", f"script:{script}"]) == 0
    assert "source '(and' is not one of camera, hand, board" in caplog.text
    with Store(store_file) as store:
        assert [e.payload["type"] for e in store.events(good)] == ["start"]  # the roll set aside, kept in the file
