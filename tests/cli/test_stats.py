"""`companion stats` over a store with the demo's game, and `companion demo --store` keeping it; the
summary after the game in the demo's screenshots."""

import json

import pygame
import pytest

from companion.cli import main


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--headless", "--store", str(folder / "demo.sqlite3"), "--screenshots",
                 str(folder / "shots")]) == 0
    return folder


def test_the_demo_ends_on_its_summary_pages(demo_store):
    summaries = sorted((demo_store / "shots").glob("*-summary.png"))
    assert len(summaries) == 3  # the results, the luck, the course (the demo's script pages through them)
    over = sorted((demo_store / "shots").glob("*-over.png"))
    assert over and over[-1].name < summaries[0].name


def test_stats_counts_the_demos_dice_by_face_with_a_p_value(demo_store, capsys):
    plots = demo_store / "plots"
    assert main(["stats", "--store", str(demo_store / "demo.sqlite3"), "--json", "--plots", str(plots)]) == 0
    figures = json.loads(capsys.readouterr().out)
    dice = figures["dice"]
    assert figures["games"] == figures["finished"] == 1
    assert sum(dice["faces"]) == 4 * dice["rolls"] and dice["rolls"] > 20  # four dice a roll
    assert 0.0 <= dice["p_value"] <= 1.0 and dice["chi2"] >= 0 and dice["verdict"]
    assert set(figures["players"]) == {"Ada", "Ben"}
    assert sorted(player["wins"] for player in figures["players"].values()) == [0, 1]  # one game, one winner
    assert all({"busts", "busts_expected"} <= set(player) for player in figures["players"].values())
    written = sorted(p.name for p in plots.glob("*.png"))
    assert written == ["dice_faces.png", "game-1-course.png", "wins.png"]
    assert pygame.image.load(str(plots / "dice_faces.png")).get_size() == (800, 480)


def test_stats_of_one_game_and_with_hand_rolls(demo_store, capsys):
    store = str(demo_store / "demo.sqlite3")
    assert main(["stats", "--store", store, "--game", "ludo", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 0
    assert main(["stats", "--store", store, "--all"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("1 saved game (1 finished)")  # the demo's one game: no "1 saved games"


def test_stats_without_a_store_says_so(tmp_path, capsys):
    assert main(["stats", "--store", str(tmp_path / "none.sqlite3")]) == 2
    assert "no store there" in capsys.readouterr().err
