"""``python -m companion.bench.ludo_advisor``: how long the Ludo advisor takes per decision.

Plays seeded four-player games (seat 0 follows :func:`companion.hints.ludo.advisor.advise`, the others move at
random, as in ``companion simulate ludo``) and times every ``advise`` call of seat 0 with
``time.perf_counter`` (wall clock, what a player waits) and ``time.process_time`` (CPU time of this
process, which a loaded machine inflates less). A **decision** is one MOVE of seat 0 (B.4.3), including the
forced ones with a single legal move. Prints one JSON object::

    {"decisions": n, "median_ms": f, "p95_ms": f, "max_ms": f, "cpu_median_ms": f, "cpu_p95_ms": f,
     "choices": n, "choice_median_ms": f, "choice_p95_ms": f, "games": n, "seed": s, "variant": {...}}

``choices`` / ``choice_*`` count only the decisions with at least two legal moves (a forced move is
ranked too, but costs a single evaluation).

A Raspberry Pi 4 is about four times slower than the development machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Mapping

from companion.games import CHANCE
from companion.games.ludo import LudoConfig, LudoState, Phase, Roll, StartWith
from companion.hints.ludo import advise


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(games: int = 20, seed: int = 1, variant: Mapping[str, str] | None = None) -> dict:
    """Time seat 0's advice over ``games`` seeded games; returns the figures printed by :func:`main`.

    variant: ``KEY=VALUE`` settings of ludo.md B.7 / B.2b. Raises ``ValueError`` for ``games`` < 1 and
    :class:`companion.games.base.VariantError` for a bad variant.
    """
    if games < 1:
        raise ValueError(f"ludo_bench: games must be at least 1, not {games}")
    config = LudoConfig.from_variant(variant or {})
    rng = random.Random(seed)
    wall: list[float] = []
    cpu: list[float] = []
    choice: list[float] = []
    for _ in range(games):
        state = LudoState.new(4, config)
        while state.phase is not Phase.OVER:
            if state.current_player == CHANCE:
                if state.phase is Phase.FIRST_PLAYER:
                    state = state.apply(StartWith(rng.randrange(state.num_players)))
                else:
                    state = state.apply(Roll(rng.randint(1, 6)))
                continue
            if state.active != 0:
                state = state.apply(rng.choice(state.legal_actions()))
                continue
            start, cpu_start = time.perf_counter(), time.process_time()
            action = advise(state, 0).action
            wall.append((time.perf_counter() - start) * 1000.0)
            cpu.append((time.process_time() - cpu_start) * 1000.0)
            if len(state.legal_actions()) > 1:
                choice.append(wall[-1])
            state = state.apply(action)
    return {"decisions": len(wall), "median_ms": round(statistics.median(wall), 3),
            "p95_ms": round(_percentile(wall, 0.95), 3), "max_ms": round(max(wall), 3),
            "cpu_median_ms": round(statistics.median(cpu), 3), "cpu_p95_ms": round(_percentile(cpu, 0.95), 3),
            "choices": len(choice), "choice_median_ms": round(statistics.median(choice), 3) if choice else 0.0,
            "choice_p95_ms": round(_percentile(choice, 0.95), 3) if choice else 0.0,
            "games": games, "seed": seed, "variant": dict(variant or {})}


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--games N --seed S --variant KEY=VALUE ...``; prints the JSON of :func:`measure`."""
    parser = argparse.ArgumentParser(prog="python -m companion.bench.ludo_advisor",
                                     description="Time the Ludo advisor per decision.")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", nargs="*", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    try:
        variant = dict(item.split("=", 1) for item in args.variant)
        print(json.dumps(measure(args.games, args.seed, variant)))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
