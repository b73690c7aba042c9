"""A scripted donkey race through ``companion play donkey-race --headless --input script:FILE``."""

from __future__ import annotations

import json

import cv2
import numpy as np

from companion.cli import main
from companion.store import Store
from tests.paths import FIXTURES

SCRIPT = FIXTURES / "donkey_race" / "short_game.script"


def test_scripted_game_runs_to_its_end(app_env, tmp_path, capsys):
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "empty.png"), np.full((240, 320, 3), 90, np.uint8))  # a table with no cards
    shots = tmp_path / "shots"
    status = main(["play", "donkey-race", "--headless", "--players", "Ada,Ben", "--variant", "track_length=4",
                   "--camera", f"folder:{photos}", "--input", f"script:{SCRIPT}", "--screenshots", str(shots),
                   "--new"])
    assert status == 0
    assert "Ben wins." in capsys.readouterr().out
    store = Store(tmp_path / "state" / "companion.sqlite3")
    try:
        game = store.finished_games("donkey-race")[0]
        result = game.result
        assert result["winner"] == "Ben" and result["points"] == {"Ada": 1, "Ben": 4} and result["rounds"] == 2
        steps = [e.payload for e in store.events(game.id)]
        assert steps[1]["actions"] == [{"type": "first_leader", "seat": 0, "donkey": False}]
        assert steps[2] == {"actions": [{"type": "play", "cards": [5]}], "source": "hand"}
        assert json.dumps(steps)  # the log is JSON
    finally:
        store.close()
    assert len(list(shots.glob("*.png"))) >= 8
