"""`companion demo --game GAME` for Ludo and the card games: a whole game read off rendered frames of the
table by the box's real readers, the players confirming, entering or correcting with the buttons."""

from __future__ import annotations

import re

import pytest

from companion.app.by_hand import DEMO_PLAYERS
from companion.app.play import play
from companion.app.table_demo import RenderedTable
from companion.cli import main
from companion.config import Config
from companion.demos.ludo import Table as LudoTable
from companion.paths import AppPaths
from companion.registry import GAMES, game
from companion.store import Store

TABLE_GAMES = [entry.name for entry in GAMES if entry.module("demos").CAMERA_DEMO == "table"]

COUNTS = re.compile(r"Readings: (\d+) taken from the camera with no press, (\d+) read by the camera and confirmed "
                    r"with CONFIRM, (\d+) entered with the buttons, (\d+) undone")


def test_every_game_but_can_t_stop_has_a_rendered_table_and_can_t_stop_its_photos():
    assert TABLE_GAMES == ["ludo", "schotten-totten", "donkey-race"]
    assert game("cant-stop").module("demos").CAMERA_DEMO == "photos"


def test_a_game_without_a_camera_demo_is_refused_not_played_as_another(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(game("donkey-race").module("demos"), "CAMERA_DEMO", "")
    store_file = tmp_path / "demo.sqlite3"
    assert main(["demo", "--game", "donkey-race", "--headless", "--store", str(store_file)]) == 2
    err = capsys.readouterr().err
    assert "--game donkey-race" in err and "--camera none" in err
    assert not store_file.exists()  # refused before anything was stored


@pytest.mark.parametrize("name, ticks, least", [("ludo", 300, 10), ("schotten-totten", 70, 4)])
def test_the_camera_demo_reads_the_rendered_table_not_the_buttons(name, ticks, least, tmp_path):
    """The first frames of the longer camera demos (their whole games take a minute each: `companion bench
    texts` plays them to the end): the camera, not the buttons, makes the game."""
    from companion.app.demo import DEMO_SEED

    entry = game(name)
    variant = dict(entry.module("demos").TABLE_VARIANT)
    with RenderedTable(entry, entry.config(variant), len(DEMO_PLAYERS), DEMO_SEED) as table:
        play(entry, paths=AppPaths.from_dirs(tmp_path, tmp_path), config=Config(), camera=table, input_spec="",
             inputs=table, players=list(DEMO_PLAYERS), variant=variant, headless=True, seed=DEMO_SEED, new=True,
             max_ticks=ticks)
        counts = table.counts
    read, confirmed, by_hand, corrected = (counts[k] for k in ("read", "confirmed", "by_hand", "corrected"))
    assert read + confirmed >= 9 * (by_hand + corrected) and read + confirmed >= least


@pytest.mark.parametrize("name", ["donkey-race"])
def test_the_camera_demo_plays_a_whole_game_off_rendered_frames(name, tmp_path, capsys):
    store_file = tmp_path / "demo.sqlite3"
    assert main(["demo", "--game", name, "--headless", "--store", str(store_file)]) == 0
    out = capsys.readouterr().out
    winner = re.search(r"Demo over: (\w+) wins after \d+ frames\.", out).group(1)
    read, confirmed, by_hand, corrected = map(int, COUNTS.search(out).groups())
    assert winner in DEMO_PLAYERS
    # the camera, not the buttons, made the game: at least 9 in 10 of the rolls, moves and cards
    assert read + confirmed >= 9 * (by_hand + corrected) and read + confirmed >= 20
    with Store(store_file) as store:
        (row,) = store.finished_games(game=name)
        assert row.result["winner"] == winner


class MisreadFirstRoll(LudoTable):
    """The first die thrown shows one pip more than the roll the players made (a die the box misreads)."""

    first_roll: int | None = None

    def _throw(self, value: int) -> None:
        if self.first_roll is None:
            self.first_roll, value = value, value % 6 + 1
        super()._throw(value)


def test_a_misread_roll_is_undone_and_entered_with_the_buttons(tmp_path):
    entry = game("ludo")
    config = entry.config({})
    misread = MisreadFirstRoll(config, 1)
    with RenderedTable(entry, config, 2, seed=1, table=misread) as table:
        play(entry, paths=AppPaths.from_dirs(tmp_path, tmp_path), config=Config(), camera=table, input_spec="",
             inputs=table, players=list(DEMO_PLAYERS), variant={}, headless=True, seed=1, new=True, max_ticks=80)
        assert table.counts["corrected"] == 1 and table.counts["read"] >= 2
        with Store(tmp_path / "companion.sqlite3") as store:
            (row,) = store.unfinished_games(game="ludo")
            events = [e.payload for e in store.events(row.id)]
    first = next(e for e in events if e["type"] == "roll")
    assert first == {"type": "roll", "value": misread.first_roll, "source": "hand"}
