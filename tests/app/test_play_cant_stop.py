"""`companion play cant-stop` and `companion demo` end to end: camera, reader, script, store, screen."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.app.demo import demo_playlist, photos_dir
from companion.cli import main
from companion.games.cant_stop import Phase
from companion.session.cant_stop import CantStopSession, replay_state
from companion.store import Store
from tests.paths import REPO

REPO = REPO


def write_script(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def one_photo(tmp_path) -> Path:
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(photos_dir() / "IMG_20191209_100026.jpg", folder)  # four dice: 3 4 5 6
    return folder


def test_play_reads_a_photo_then_falls_back_to_hand_entry_and_resumes_after_quit(app_env, one_photo, capsys):
    state = app_env / "state" / "companion.sqlite3"
    first = write_script(app_env / "first.script", [
        "choose 1", "confirm",  # Ada starts
        # the reader's view of the photo (four dice, or too few: NEXT takes it to correct), corrected
        # to the photo's true values and confirmed
        "next", "dice 3 4 5 6", "confirm",
        "choose 1", "confirm",  # the first pairing; roll again
        # the photo still lies there, then the folder ends: the box asks for the roll by hand
        "dice 1 1 1 1", "confirm", "choose 1",
        "quit",
    ])
    args = ["play", "cant-stop", "--players", "Ada,Ben", "--headless", "--camera", f"folder:{one_photo}",
            "--seed", "3"]
    assert main([*args, "--input", f"script:{first}"]) == 0
    with Store(state) as store:
        (game,) = store.unfinished_games("cant-stop")
        payloads = [e.payload for e in store.events(game.id)]
    assert [p["type"] for p in payloads] == ["start", "roll", "choose", "roll_again", "roll", "choose"]
    assert payloads[1]["source"] == "camera" and payloads[1]["read"] and sorted(payloads[1]["dice"]) == [3, 4, 5, 6]
    assert payloads[4]["source"] == "hand"
    assert payloads[4]["dice"] == [1, 1, 1, 1]

    second = write_script(app_env / "second.script", ["bank", "quit"])
    assert main([*args, "--input", f"script:{second}"]) == 0  # resumes the saved game
    with Store(state) as store:
        events = store.events(game.id)
        resumed = replay_state(events, 2, CantStopSession(store, game.id, ["Ada", "Ben"]).config)
    assert events[-1].payload == {"type": "bank"}
    assert resumed.active == 1 and resumed.marker_map(0) == {2: 1} | resumed.marker_map(0)


def test_a_headless_script_that_ends_too_soon_is_an_error(app_env, one_photo, capsys):
    script = write_script(app_env / "short.script", ["confirm"])
    status = main(["play", "cant-stop", "--headless", "--camera", f"folder:{one_photo}", "--input",
                   f"script:{script}", "--new"])
    assert status == 2
    assert "the script ended while the game waited for" in capsys.readouterr().err


def test_the_demo_plays_a_whole_game_on_the_bundled_photos(tmp_path, capsys):
    shots = tmp_path / "shots"
    assert main(["demo", "--headless", "--screenshots", str(shots)]) == 0, (
        "the demo script no longer fits the dice reader: regenerate it with `python -m companion.app.demo --write`")
    out = capsys.readouterr().out
    assert "Demo over: Ada wins" in out or "Demo over: Ben wins" in out
    names = sorted(p.name for p in shots.glob("*.png"))
    modes = {name.split("-", 1)[1].removesuffix(".png") for name in names}
    assert modes == {"start", "watch", "check", "choose", "decide", "over", "summary"}  # the summary after the game
    assert len(demo_playlist()) >= 20


def test_the_readme_says_how_many_demo_rolls_are_corrected():
    from companion.app.demo import demo_script_path

    script = demo_script_path().read_text(encoding="utf-8")
    corrected = script.count("the players correct it to")
    photos = {line.split(":", 1)[0] for line in script.splitlines() if "the players correct it to" in line}
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    n_rolls, n_photos = len(demo_playlist()), len(set(demo_playlist()))
    if corrected == 0:
        said = f"reads all of the game's {n_rolls} rolls (from the {n_photos} photos it uses) right"
        assert readme.count(said) == 1, f"README: say that no demo roll needs correcting: {said!r}"
        return
    rolls = f"{corrected} of the game's {n_rolls} rolls"
    assert readme.count(rolls) == 1, (
        "README: update the number of corrected demo rolls (the demo script was regenerated)")
    distinct = len({p.split()[-1] for p in photos})  # "# IMG_....jpg" -> the photo's name
    said = f"{rolls} ({distinct} {'photo' if distinct == 1 else 'photos'} of the {n_photos} it uses)"
    assert readme.count(said) == 1, f"README: say how many photos the corrected rolls are: {said!r}"


def _events(path: Path) -> list[dict]:
    if not path.exists():
        return []
    try:
        with Store(path) as store:
            games = store.unfinished_games("cant-stop") + store.finished_games("cant-stop")
            return [e.payload for e in store.events(games[0].id)] if games else []
    except Exception:  # the child may be creating the file right now
        return []


def test_a_game_killed_mid_turn_resumes_exactly(tmp_path):
    """SIGKILL at a random moment: what was stored replays, and it is a prefix of the uninterrupted game."""
    code = ("import sys; from pathlib import Path; from companion.app.demo import run_demo; "
            "run_demo(Path(sys.argv[1]), headless=True, screenshots=None)")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    full_dir, killed_dir = tmp_path / "full", tmp_path / "killed"
    full_dir.mkdir()
    killed_dir.mkdir()
    subprocess.run([sys.executable, "-c", code, str(full_dir)], check=True, env=env, cwd=REPO,
                   capture_output=True, timeout=300)
    full = _events(full_dir / "companion.sqlite3")
    child = subprocess.Popen([sys.executable, "-c", code, str(killed_dir)], env=env, cwd=REPO,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(_events(killed_dir / "companion.sqlite3")) < len(full) // 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    stored = _events(killed_dir / "companion.sqlite3")
    assert 0 < len(stored) < len(full)
    assert stored == full[:len(stored)]
    with Store(killed_dir / "companion.sqlite3") as store:
        (game,) = store.unfinished_games("cant-stop")
        session = CantStopSession(store, game.id, list(game.players))
        assert session.state == replay_state(store.events(game.id), 2, session.config)
        assert session.state.phase is not Phase.OVER


def test_a_reader_failure_on_one_frame_becomes_a_problem_not_a_crash():
    import numpy as np

    from companion.readers import dice as dice_reader

    class Broken:
        def read(self, frame, calibration=None):
            raise IndexError("pip grid out of range")

    observation = dice_reader.read_dice_frame(np.zeros((64, 64, 3), np.uint8), recognizer=Broken())
    assert observation.dice == () and "pip grid out of range" in observation.problem


def test_play_moves_a_damaged_store_aside_and_starts_afresh(app_env, one_photo, capsys):
    state = app_env / "state"
    state.mkdir()
    (state / "companion.sqlite3").write_bytes(b"this is not a database" * 100)
    script = write_script(app_env / "quit.script", ["quit"])
    assert main(["play", "cant-stop", "--headless", "--camera", f"folder:{one_photo}", "--input",
                 f"script:{script}"]) == 0
    kept = [p.name for p in state.iterdir() if ".unusable-" in p.name]
    assert len(kept) == 1 and (state / kept[0]).read_bytes().startswith(b"this is not a database")
    with Store(state / "companion.sqlite3") as store:
        assert len(store.unfinished_games("cant-stop")) == 1


def test_play_with_nothing_to_press_is_a_clear_error_not_a_wait(monkeypatch, capsys):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")  # off the Pi: mock pins, no real buttons
    assert main(["play", "cant-stop", "--headless", "--players", "Ada,Ben"]) == 2
    assert "nothing can be pressed here" in capsys.readouterr().err


def test_play_without_a_camera_takes_every_roll_by_hand(app_env, capsys):
    # `--camera none` (README: "without a camera, NEXT starts an empty roll to enter by hand")
    script = write_script(app_env / "hand.script", ["choose 1", "confirm", "dice 2 5 3 6", "confirm", "choose 1",
                                                    "quit"])
    assert main(["play", "cant-stop", "--players", "Ada,Ben", "--headless", "--camera", "none", "--seed", "3",
                 "--input", f"script:{script}"]) == 0
    with Store(app_env / "state" / "companion.sqlite3") as store:
        (game,) = store.unfinished_games("cant-stop")
        payloads = [e.payload for e in store.events(game.id)]
    assert [p["type"] for p in payloads] == ["start", "roll", "choose"]
    assert payloads[1]["source"] == "hand" and payloads[1]["dice"] == [2, 5, 3, 6]

def test_a_display_is_there_only_when_something_shows_it():
    from companion.app import display_available

    assert display_available({"DISPLAY": ":0"}) and display_available({"WAYLAND_DISPLAY": "wayland-0"})
    assert display_available({"SDL_VIDEODRIVER": "kmsdrm"})  # the Pi's console (systemd unit)
    assert not display_available({})
    # SDL's dummy and offscreen drivers show nothing: the run is headless even under a desktop
    assert not display_available({"SDL_VIDEODRIVER": "dummy", "DISPLAY": ":0"})
    assert not display_available({"SDL_VIDEODRIVER": "offscreen"})
