"""Fit the Can't Stop advisor's position value and write ``assets/cant_stop/value.json``.

``python -m companion.bench.cant_stop_tables --write`` (``--games N --iterations K --seed S``; defaults
below) plays solo games (cant-stop.md A.4: claim three columns) with the advisor using the current
coefficients, records at the start of every turn the board and the turns the game still took from there
(that turn included), and refits each coefficient row of :mod:`companion.hints.cant_stop.value` by least
squares on those pairs; then plays again with the new rows, ``K`` times in all (a Monte Carlo policy
iteration). The start is the hand-set row ``0.5 + 0.12 x (sum of the needed efforts)``; ``--iterations 0
--write`` writes it unchanged, which is the shipped file (see :mod:`companion.hints.cant_stop.value` for
why). Games are seeded (``random.Random(seed + iteration)``), so a run is reproducible; without
``--write`` or ``--out`` it only prints each round's figures (JSON lines: mean turns played, RMS error
and R^2 per needed-column count). About 0.25 s of CPU per game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from importlib import resources
from pathlib import Path

import numpy as np

from companion.agents.cant_stop import _chance
from companion.games import CHANCE
from companion.games.cant_stop import CantStopState, Phase
from companion.hints.cant_stop import advise
from companion.hints.cant_stop import search as cant_stop_search
from companion.hints.cant_stop.value import MAX_NEED, features, sorted_efforts, use_coefficients

GAMES = 600
"""Solo games per iteration (default)."""

ITERATIONS = 3
"""Play-and-refit rounds (default)."""

SEED = 20261130
"""Seed of the first round's games (default); round ``i`` uses ``SEED + i``."""

START = {1: [0.5, 0.12, 0.0], 2: [0.5, 0.12, 0.12, 0.0], 3: [0.5, 0.12, 0.12, 0.12, 0.0]}
"""The hand-set starting rows (turns): 0.5 plus 0.12 per unit of each needed column's effort."""


def play_solo(games: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, int, int]]:
    """Solo advisor games: one (progress (11,), closed (11,), claimed count, turns still taken) per turn,
    each game's first turn first."""
    rng = random.Random(seed)
    samples: list[tuple[np.ndarray, np.ndarray, int, int]] = []
    for _ in range(games):
        state = CantStopState.new(1)
        starts: list[tuple[np.ndarray, np.ndarray, int]] = []
        last_turn = 0
        while state.phase is not Phase.OVER:
            if state.current_player == CHANCE:
                if state.phase is Phase.ROLL and state.turn != last_turn:
                    last_turn = state.turn
                    starts.append((np.asarray(state.markers[0], float), np.asarray(state.claimed) >= 0,
                                   state.columns_claimed(0)))
                state = state.apply(_chance(state, rng))
            else:
                state = state.apply(advise(state, 0).action)
        total = len(starts)
        samples += [(p, c, w, total - i) for i, (p, c, w) in enumerate(starts)]
    return samples


def fit(samples, heights: tuple[int, ...], to_win: int = 3) -> tuple[dict[int, np.ndarray], dict[str, float]]:
    """Least-squares rows ``{need: coefficients}`` (one shared slope for the needed columns' efforts,
    one for the fall-back, a constant) and their fit (RMS error in turns, R^2) per need."""
    progress = np.asarray([s[0] for s in samples])
    closed = np.asarray([s[1] for s in samples])
    won = np.asarray([s[2] for s in samples])
    target = np.asarray([s[3] for s in samples], dtype=float)
    efforts = sorted_efforts(progress, closed, heights)
    table, stats = {}, {}
    for need in range(1, MAX_NEED + 1):
        rows = (to_win - won) == need
        full, y = features(efforts[rows], need), target[rows]
        # One shared slope for the needed efforts (sorted efforts are nearly collinear early in a game,
        # and free slopes came out of sign), then the constant and the fall-back's slope.
        x = np.stack([full[:, 0], full[:, 1:need + 1].sum(axis=1), full[:, need + 1]], axis=1)
        shared, *_ = np.linalg.lstsq(x, y, rcond=None)
        coef = np.concatenate([[shared[0]], np.full(need, shared[1]), [shared[2]]])
        table[need] = coef
        residual = y - full @ coef
        stats[f"rms_{need}"] = float(np.sqrt(np.mean(residual ** 2)))
        stats[f"r2_{need}"] = float(1 - residual.var() / y.var())
        stats[f"samples_{need}"] = float(rows.sum())
    return table, stats


def run(games: int = GAMES, iterations: int = ITERATIONS, seed: int = SEED, log=print) -> dict:
    """The fitting loop; returns the JSON document for ``value.json``."""
    table = {n: np.asarray(row) for n, row in START.items()}
    heights = CantStopState.new(1).config.column_heights
    history = []
    for iteration in range(iterations):
        use_coefficients(table)
        cant_stop_search._CACHE.clear()
        samples = play_solo(games, seed + iteration)
        game_turns = [s[3] for i, s in enumerate(samples) if i == 0 or samples[i - 1][3] == 1]
        mean_turns = float(np.mean(game_turns))
        table, stats = fit(samples, heights)
        history.append({"iteration": iteration, "games": games, "seed": seed + iteration,
                        "mean_turns_played": mean_turns, **stats})
        log(json.dumps(history[-1]))
    use_coefficients(None)
    cant_stop_search._CACHE.clear()
    return {"coefficients": {str(n): [round(float(v), 6) for v in row] for n, row in table.items()},
            "method": f"python -m companion.bench.cant_stop_tables --games {games} --iterations {iterations} "
                      f"--seed {seed} --write",
            "games": games, "iterations": iterations, "seed": seed, "history": history}


def main(argv: list[str] | None = None) -> int:
    """Command line: fit, print each round's figures, and with ``--write`` replace the shipped table."""
    parser = argparse.ArgumentParser(prog="python -m companion.bench.cant_stop_tables", description=__doc__)
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--iterations", type=int, default=ITERATIONS,
                        help="play-and-refit rounds; 0 writes the hand-set START rows")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--write", action="store_true", help="write assets/cant_stop/value.json")
    parser.add_argument("--out", type=Path, help="write the table here instead")
    args = parser.parse_args(argv)
    document = run(args.games, args.iterations, args.seed, log=lambda line: print(line, flush=True))
    target = args.out or (Path(str(resources.files("assets.cant_stop"))) / "value.json" if args.write else None)
    if target is not None:
        target.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
