"""Benchmark of Schotten Totten claims (schotten-totten.md C.6): agreement and timing per stone.

``companion bench claims [--positions N] [--seed S] [--json]`` builds N positions
(default 3000) from random games of the engine (random plays, stopped at a random point, claims
taken as they arise, a quarter of them Battle Line) plus random fills of the nine stones, and times
:meth:`ClaimTables.verdict` for every open stone and both seats where the claimant has 3 cards (the
cases that need work). Each verdict is compared with the plain enumeration
:func:`exhaustive_claim`. Prints the number of checks, disagreements (must be 0), and the claim
time per stone in ms (best of :data:`REPEATS` runs, garbage collection off, and the first run's median
and worst): median, p95, worst (:func:`run`). Targets (issue 5):
median <= 0.1 ms and worst <= 2 ms on the development machine.
"""

from __future__ import annotations

import gc
import random
import statistics
import time

from companion.games import CHANCE
from companion.games.schotten_totten import (Claim, Phase, SchottenTottenConfig, SchottenTottenState, claim_tables,
    exhaustive_claim, state_from_position)

REPEATS = 3
"""Each stone's claim is timed this many times; the figures use the fastest (timeit's rule: the slower
runs measure the machine's other load, not the code), and the first run's worst is printed too."""


def game_positions(rng: random.Random, count: int) -> list[SchottenTottenState]:
    """``count`` states taken at random points of random games (claims taken whenever possible)."""
    result: list[SchottenTottenState] = []
    while len(result) < count:
        game = "battle-line" if rng.random() < 0.25 else "schotten-totten"
        state = SchottenTottenState.new(SchottenTottenConfig(game=game))
        stop = rng.randint(10, 120)
        steps = 0
        while state.phase is not Phase.OVER and steps < stop:
            if state.current_player == CHANCE:
                action = rng.choice(state.chance_outcomes())[0]
            else:
                actions = state.legal_actions()
                claims = [a for a in actions if isinstance(a, Claim)]
                action = claims[0] if claims else rng.choice(actions)
            state = state.apply(action)
            steps += 1
        result.append(state)
    return result


def random_fill(rng: random.Random) -> SchottenTottenState:
    """Nine stones filled with random cards (0-3 a side), the rest unseen."""
    game = "battle-line" if rng.random() < 0.25 else "schotten-totten"
    values = 10 if game == "battle-line" else 9
    deck = [f"{c}{v}" for c in "ROYGBP" for v in range(1, values + 1)]
    rng.shuffle(deck)
    stones = []
    for _ in range(9):
        a = [deck.pop() for _ in range(rng.choice([0, 1, 2, 3, 3]))]
        b = [deck.pop() for _ in range(rng.choice([0, 1, 2, 3]))]
        stones.append({"a": a, "b": b, "first_complete": "a" if len(a) == len(b) == 3 else None, "owner": None})
    return state_from_position({"variant": game, "stones": stones})


def run(positions: int, seed: int) -> dict:
    """Time and check the claims of ``positions`` positions (>= 1) seeded by ``seed``; returns the figures:
    ``{"positions", "checks", "claimable", "disagreements", "median_ms", "p95_ms", "worst_ms",
    "worst_first_run_ms", "median_first_run_ms"}``."""
    rng = random.Random(seed)
    claim_tables(9), claim_tables(10)  # built once, outside the timing
    states = game_positions(rng, positions // 2) + [random_fill(rng) for _ in range(positions - positions // 2)]
    times: list[float] = []
    first_times: list[float] = []
    gc_was_enabled = gc.isenabled()
    gc.disable()  # as timeit does: a collection pause is not the claim's cost
    disagreements = 0
    claimable = 0
    for state in states:
        tables = claim_tables(state.config.max_value)
        table = set(state.table_cards())
        unseen = [c for c in state.config.deck if c not in table]
        for stone in state.stones:
            if stone.owner is not None:
                continue
            for seat in (0, 1):
                mine, theirs = stone.cards[seat], stone.cards[1 - seat]
                if len(mine) < 3:
                    continue
                first = stone.first_complete()
                mine_first = None if first is None else first == seat
                best = float("inf")
                for repeat in range(REPEATS):
                    start = time.perf_counter()
                    seen = tables.mask(state.table_cards())
                    verdict = tables.verdict(mine, theirs, seen, mine_first)
                    elapsed = (time.perf_counter() - start) * 1000
                    if repeat == 0:
                        first_times.append(elapsed)
                    best = min(best, elapsed)
                times.append(best)
                claimable += verdict.claimable
                if verdict.claimable != exhaustive_claim(mine, theirs, unseen, mine_first):
                    disagreements += 1
    if gc_was_enabled:
        gc.enable()
    times.sort()
    return {"positions": len(states), "checks": len(times), "claimable": claimable,
            "disagreements": disagreements, "median_ms": statistics.median(times),
            "p95_ms": times[int(0.95 * (len(times) - 1))], "worst_ms": times[-1],
            "worst_first_run_ms": max(first_times), "median_first_run_ms": statistics.median(first_times)}
