"""Can't Stop's board check on camera frames (issue 50): ``companion board demo --game cant-stop``.

A short game on the box's printed board, photographed from one camera over the table (rendered by
``vision.board.cant_stop.render``: the pieces where the players left them, the light and the camera of
one table); the dice are entered as the keyboard's ``dice`` command enters them. Each photo goes through
the session's own reader (:class:`companion.readers.cant_stop.BoardAndDice`) a few frames in a row, as the
camera would show it, and the session says what it sees:

1. the empty board at the start agrees;
2. Ada busts and a runner is left behind on 7: caught, named;
3. the runner taken off: the board agrees;
4. Ben banks, but puts his marker on 10 a space too high: caught, named;
5. the marker put right: the board agrees;
6. the box restarts (the game resumed from the store): a photo that matches the record agrees, a photo
   with a marker missing is named, not accepted.

:func:`board_demo` returns each step with what was expected and what the session said; the command
prints them and exits 0 only when every step went as expected.
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from companion.commands import Command
from companion.games.cant_stop import CantStopConfig
from companion.readers.cant_stop import BoardAndDice
from companion.screens.cant_stop import board_words
from companion.session.cant_stop import CantStopSession
from companion.store import Store
from vision.board.cant_stop import layout_named
from vision.board.cant_stop.render import Position, random_scene, render
from vision.observation import DiceObservation

COLOURS = ("red", "blue")
"""Ada's and Ben's marker colours on the table."""
STABLE_FRAMES = 3
RETAKES = 4
"""Photos taken of one position before the demo gives up on a frame the reader will not read."""
MAX_TILT = 15.0
"""The camera of the demo table looks down within this many degrees (a box mounted over the table)."""


@dataclass(frozen=True)
class DemoStep:
    """One step: what the table shows (``told``), whether the board should agree with the record
    (``agree``), what the session said ("" for agreement; else the differences in words or why the board
    could not be read) and whether that is what was expected (``ok``)."""

    told: str
    agree: bool
    said: str
    ok: bool


def _press(session: CantStopSession, *lines: str) -> None:
    for line in lines:
        session.on_command(Command.parse(line))


class _Table:
    """The camera over the demo table: one scene (light, angle, pieces' shapes) for every photo, a new
    noise seed for each one taken."""

    def __init__(self, layout_name: str, seed: int):
        self.layout = layout_named(layout_name)
        rng = np.random.default_rng(seed)
        self.scene = replace(random_scene(rng, max_tilt=MAX_TILT), runner_colour="white", clutter=None)
        self.shots = 0

    def photo(self, markers: dict[str, dict[int, int]], runners: dict[int, int]) -> np.ndarray:
        self.shots += 1
        scene = replace(self.scene, seed=self.scene.seed + self.shots)
        return render(self.layout, Position({c: dict(m) for c, m in markers.items()}, dict(runners)), scene).image


def _look(session: CantStopSession, table: _Table, markers, runners, told: str, agree: bool) -> DemoStep:
    """Show the board with ``markers`` (colour -> {column: space}) and ``runners`` until the session
    compares it (or :data:`RETAKES` photos were not read), and what it said."""
    reader = BoardAndDice(lambda frame: DiceObservation((), frame.shape[1::-1]), session)
    problem, looks = "", session.board_looks
    for _ in range(RETAKES):
        frame = table.photo(markers, runners)
        for _ in range(STABLE_FRAMES):
            reading = reader(frame)
            problem = reading.board_problem
            session.on_frame(frame, reading)
        if session.board_looks > looks:
            break
    if session.board_looks == looks:
        return DemoStep(told, agree, f"the board could not be read: {problem}", False)
    said = board_words(session)
    return DemoStep(told, agree, said, agree == (not said))


def board_demo(seed: int = 1, layout: str = "companion") -> list[DemoStep]:
    """Play the demo's game (module docstring) on ``layout`` with the camera drawn from ``seed``; the
    steps in order."""
    table = _Table(layout, seed)
    variant = {"board_layout": layout, "marker_colours": "+".join(COLOURS)}
    config = CantStopConfig.from_variant(variant)
    steps = []
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "demo.sqlite3") as store:
        game_id = store.new_game("cant-stop", ["Ada", "Ben"], variant)

        def session() -> CantStopSession:
            return CantStopSession(store, game_id, ["Ada", "Ben"], config, stable_frames=STABLE_FRAMES,
                                   rng=random.Random(seed))

        box = session()
        _press(box, "choose 1", "confirm")  # Ada starts
        steps.append(_look(box, table, {}, {}, "The game starts on an empty board", True))
        _press(box, "dice 1 2 3 4", "confirm", "choose 1", "confirm")  # runners on 3 and 7, roll again
        _press(box, "dice 6 6 6 6", "confirm", "choose 1", "confirm")  # the third runner on 12
        _press(box, "dice 1 1 1 1", "confirm")  # 2+2 only: a bust
        steps.append(_look(box, table, {}, {7: 1}, "Ada busts; the runner on 7 is left on the board", False))
        steps.append(_look(box, table, {}, {}, "The runner is taken off", True))
        _press(box, "dice 2 2 5 5", "confirm", "choose 1", "bank")  # Ben: 4 and 10, banked
        ben = {4: 1, 10: 1}
        steps.append(_look(box, table, {"blue": {4: 1, 10: 2}}, {},
                           "Ben banks; his marker on 10 is put a space too high", False))
        steps.append(_look(box, table, {"blue": ben}, {}, "The marker is put right", True))
        again = session()  # the box restarts: the game resumes from the store
        steps.append(_look(again, table, {"blue": ben}, {}, "The box restarts: the board as the record has it",
                           True))
        again = session()
        steps.append(_look(again, table, {"blue": {10: 1}}, {},
                           "The box restarts: a photo with Ben's marker on 4 missing", False))
    return steps
