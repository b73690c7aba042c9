"""The by-hand demos: a whole game of each game entered with the five buttons alone.

``assets/demo/GAME-by-hand.script`` holds button presses only (CONFIRM, BANK, PASS, NEXT, UNDO, comments):
``companion demo --game GAME --camera none`` plays it (:func:`companion.app.demo.run_demo`). The scripts
are made by ``python -m companion.app.by_hand --write [GAME ...]``: it plays a seeded game with the
advisor in every seat on a full-information engine state, and presses the buttons that make the box's
own session (table-side, as at the table) take each action (``press_for`` of each game's session
module), ending with the pages of the summary. The number of presses a turn takes is in each script's
header.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from importlib import resources
from pathlib import Path

from companion.app.summary import SummarySession
from companion.commands import Button, Command
from companion.games import CHANCE, TERMINAL
from companion.i18n import _
from companion.registry import game, names
from companion.session.base import NO_CAMERA
from companion.stats import game_summary
from companion.store import Store

DEMO_PLAYERS = ("Ada", "Ben")
"""The players of every bundled demo."""
DEMO_SEED = 1


def by_hand_variant(name: str) -> dict[str, str]:
    """The variant of the by-hand demo of ``name`` (``BY_HAND_VARIANT`` of the game's ``companion.demos``
    module)."""
    return dict(game(name).module("demos").BY_HAND_VARIANT)


def script_path(name: str) -> Path:
    """``assets/demo/GAME-by-hand.script``."""
    return Path(str(resources.files("assets") / "demo")) / f"{name}-by-hand.script"


def _turn_key(state) -> tuple:
    """What changes when a turn begins: (the seat to act, the turn or round counter)."""
    return getattr(state, "active", None), getattr(state, "turn", getattr(state, "round_no", 0))


def by_hand_lines(name: str, seed: int = DEMO_SEED) -> tuple[list[str], list[int]]:
    """The by-hand script of a seeded game of ``name`` (module docstring), and the presses each turn took.
    Raises ``ValueError`` when a session refuses the presses made for an action (a bug of ``press_for``)."""
    entry = game(name)
    variant = by_hand_variant(name)
    config = entry.config(variant)
    sessions, agents = entry.module("session"), entry.module("agents")
    chance = getattr(agents, "chance")
    advisor = agents.AGENTS["advisor"]
    rng = random.Random(seed)
    presses: list[Command] = []
    per_turn: list[int] = []
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "demo.sqlite3") as store:
        game_id = store.new_game(name, list(DEMO_PLAYERS), variant)
        session = sessions.SESSION(store, game_id, list(DEMO_PLAYERS), config, rng=random.Random(DEMO_SEED))
        session.on_camera_problem(_(NO_CAMERA))  # as the play loop says when there is no camera
        sim = entry.module("games").GAME(len(DEMO_PLAYERS), config).new_initial_state()
        turn, turn_presses = _turn_key(sim), 0
        while sim.current_player != TERMINAL:
            if sim.current_player == CHANCE:
                action = table_chance(session, sim, chance, rng)
            else:
                action = advisor(sim, rng)
            sim = sim.apply(action)
            made = sessions.press_for(session, action)
            presses += made
            turn_presses += len(made)
            if _turn_key(sim) != turn:
                per_turn.append(turn_presses)
                turn, turn_presses = _turn_key(sim), 0
        while not session.finished:  # the winner's screen: CONFIRM (the last game of a match: finish)
            presses.append(Command(Button.CONFIRM))
            session.on_command(presses[-1])
        summary = SummarySession(game_summary(store, game_id), game_id)
    presses += [Command(Button.NEXT)] * (summary.pages - 1) + [Command(Button.CONFIRM)]
    median = statistics.median(per_turn) if per_turn else 0
    head = [f"# {entry.title()} by hand: {' vs '.join(DEMO_PLAYERS)}, every entry with the five buttons",
            f"# made by python -m companion.app.by_hand --write {name}; {len(presses)} presses, "
            f"a turn takes {median:g} presses (median) and at most {max(per_turn, default=0)}"]
    return head + [command.button.value for command in presses], per_turn


def table_chance(session, sim, chance, rng):
    """The next chance outcome of ``sim``, as the table decides it: who starts is the box's proposal
    (the session's), the rest is ``chance`` of the game's agents."""
    if _phase(sim) in ("first_player", "start") and hasattr(session, "start_seat"):
        from_box = [a for a, _p in sim.chance_outcomes() if getattr(a, "seat", None) == session.start_seat]
        if from_box:
            return from_box[0]
    return chance(sim, rng)


def _phase(state) -> str:
    return getattr(getattr(state, "phase", None), "value", "")


def write(name: str) -> Path:
    """Write the by-hand script of ``name`` into ``assets/demo``; returns its path."""
    lines, _per_turn = by_hand_lines(name)
    path = script_path(name)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.app.by_hand", description=__doc__.splitlines()[0])
    parser.add_argument("--write", nargs="*", metavar="GAME", help="remake the by-hand scripts (default: every game)")
    args = parser.parse_args(argv)
    if args.write is None:
        parser.print_help()
        return 0
    for name in args.write or names():
        print(write(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
