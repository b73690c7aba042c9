"""The games ``companion bench crash`` covers: how each one's child is run and its log replayed.

A :class:`CrashGame` writes a workload (photos and a script of commands for ``companion play GAME``)
and rebuilds the rules state from a stored log. Scripts are long enough to give many events quickly;
commands that a session refuses (a random pairing that is not on offer, a card that does not fit)
are refused the same way on every run, so each workload replays identically.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Workload:
    """What a child plays: ``argv`` for ``companion`` (without ``--input``), and the script file."""

    argv: list[str]
    script: Path


@dataclass(frozen=True)
class CrashGame:
    """A game the crash bench can run.

    prepare(folder, script_lines) -> Workload: writes the photos and the script into ``folder``
    (``script_lines``: how many commands of the game's long script to play before quitting).
    replay(store, game_id) -> JSON-ready state: the rules state rebuilt from the stored log, as
    ``state.to_dict()`` (what the restarted child must print).
    """

    name: str
    prepare: Callable[[Path, int], Workload]
    replay: Callable[[Any, int], Any]


def _random_commands(seed: int, count: int, make: Callable[[random.Random], list[str]]) -> list[str]:
    """``count`` groups of commands drawn by ``make``: valid or not, the session takes or refuses each
    the same way every run, so a script replays identically."""
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < count:
        lines += make(rng)
    return lines[:count]


def _cant_stop_prepare(folder: Path, script_lines: int) -> Workload:
    """One real photo of four dice (read by the camera path, corrected to its true values), then, once
    the folder has run out, random rolls entered by hand, each confirmed, a random pairing chosen and
    a random roll-again-or-bank: many events in little time."""
    from companion.app.demo import photos_dir

    photos = folder / "photos"
    photos.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(photos_dir() / "IMG_20191209_100026.jpg", photos / "dice.jpg")  # 3 4 5 6

    def turn(rng: random.Random) -> list[str]:
        dice = " ".join(str(rng.randint(1, 6)) for _ in range(4))
        return [f"dice {dice}", "confirm", f"choose {rng.randint(1, 3)}", rng.choice(["confirm", "confirm", "bank"])]

    lines = ["confirm", "next", "dice 3 4 5 6", "confirm", "choose 1", "confirm"]
    lines += _random_commands(2, script_lines, turn)
    script = folder / "crash.script"
    script.write_text("\n".join(lines + ["quit"]) + "\n", encoding="utf-8")
    argv = ["play", "cant-stop", "--headless", "--players", "Ada,Ben", "--seed", "3",
            "--camera", f"folder:{photos}"]
    return Workload(argv, script)


def _cant_stop_replay(store, game_id: int) -> Any:
    from companion.games.cant_stop.rules import CantStopConfig
    from companion.session.cant_stop import replay

    record = store.game(game_id)
    return replay(store.events(game_id), len(record.players), CantStopConfig.from_variant(record.variant)).to_dict()


def _ludo_prepare(folder: Path, script_lines: int) -> Workload:
    """A rendered empty Ludo board as the only photo (the die is entered by hand: ``dice N``), and
    random rolls, each confirmed (the selected move)."""
    import pygame

    from companion.display.ludo import draw_board
    from companion.games.ludo.rules import YARD
    from companion.screens.ludo import LudoView, PawnView

    photos = folder / "photos"
    photos.mkdir(parents=True, exist_ok=True)
    pygame.font.init()
    pawns = tuple(PawnView(c, YARD) for c in ("red", "yellow") for _ in range(4))
    view = LudoView("Ludo", "ludo52", (), None, pawns, (), None, (), 0, 0, "", "", "", (), (), None, "roll")
    surface = pygame.Surface((640, 480))
    surface.fill((120, 110, 100))
    draw_board(surface, pygame.Rect(100, 20, 440, 440), view)
    pygame.image.save(surface, str(photos / "board.png"))
    lines = ["confirm"] + _random_commands(5, script_lines, lambda rng: [f"dice {rng.randint(1, 6)}", "confirm"])
    script = folder / "crash.script"
    script.write_text("\n".join(lines + ["quit"]) + "\n", encoding="utf-8")
    argv = ["play", "ludo", "--headless", "--players", "Ada,Ben", "--seed", "3", "--variant", "board=ludo52",
            "--camera", f"folder:{photos}"]
    return Workload(argv, script)


def _ludo_replay(store, game_id: int) -> Any:
    from companion.games.ludo.config import LudoConfig
    from companion.session.ludo import replay

    record = store.game(game_id)
    return replay(store.events(game_id), len(record.players), LudoConfig.from_variant(record.variant)).to_dict()


def _schotten_totten_prepare(folder: Path, script_lines: int) -> Workload:
    """No camera (every card entered by hand): random cards set at random stones and confirmed."""
    folder.mkdir(parents=True, exist_ok=True)

    def turn(rng: random.Random) -> list[str]:
        return [f"set {rng.randint(1, 9)} {rng.randint(1, 6)}{rng.randint(1, 9)}", "confirm"]

    lines = ["confirm"] + _random_commands(4, script_lines, turn)
    script = folder / "crash.script"
    script.write_text("\n".join(lines + ["quit"]) + "\n", encoding="utf-8")
    argv = ["play", "schotten-totten", "--headless", "--players", "Ada,Ben", "--seed", "1", "--camera", "none"]
    return Workload(argv, script)


def _schotten_totten_replay(store, game_id: int) -> Any:
    from companion.games.schotten_totten.rules import SchottenTottenConfig
    from companion.session.schotten_totten import replay

    record = store.game(game_id)
    return replay(store.events(game_id), SchottenTottenConfig.from_variant(record.variant)).state.to_dict()


def _donkey_race_prepare(folder: Path, script_lines: int) -> Workload:
    """An empty table as the only photo; plays entered by hand (``dice V``: one card of value V), passes,
    each confirmed, on a long track so that the race lasts."""
    import cv2
    import numpy as np

    photos = folder / "photos"
    photos.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(photos / "empty.png"), np.full((240, 320, 3), 90, np.uint8))

    def turn(rng: random.Random) -> list[str]:
        return [rng.choice([f"dice {rng.randint(1, 13)}", "pass"]), "confirm"]

    lines = ["confirm", "choose 1", "confirm"] + _random_commands(6, script_lines, turn)
    script = folder / "crash.script"
    script.write_text("\n".join(lines + ["quit"]) + "\n", encoding="utf-8")
    argv = ["play", "donkey-race", "--headless", "--players", "Ada,Ben", "--variant", "track_length=60",
            "--camera", f"folder:{photos}"]
    return Workload(argv, script)


def _donkey_race_replay(store, game_id: int) -> Any:
    from companion.games.donkey_race.config import DonkeyRaceConfig
    from companion.session.donkey_race import replay

    record = store.game(game_id)
    config = DonkeyRaceConfig.from_variant(record.variant)
    return replay(store.events(game_id), len(record.players), config).to_dict()


GAMES: dict[str, CrashGame] = {
    "cant-stop": CrashGame("cant-stop", _cant_stop_prepare, _cant_stop_replay),
    "ludo": CrashGame("ludo", _ludo_prepare, _ludo_replay),
    "schotten-totten": CrashGame("schotten-totten", _schotten_totten_prepare, _schotten_totten_replay),
    "donkey-race": CrashGame("donkey-race", _donkey_race_prepare, _donkey_race_replay),
}
"""The games the crash bench covers, by the ``companion play`` name."""
