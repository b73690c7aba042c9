"""``python -m companion.bench.advisor``: how long the Can't Stop advisor takes per decision.

Plays seeded games (``--games``, ``--players``; seat 0 follows the advisor, the other seats the Rule of
28) and times every ``advise`` call of seat 0 with ``time.perf_counter`` (wall clock, what a player
waits) and ``time.process_time`` (CPU time of this process, which a loaded machine inflates less): a
**decision** is one pairing choice (CHOOSE) or one roll-or-bank choice (DECIDE). Prints one JSON object::

    {"decisions": n, "choose": n, "decide": n, "median_ms": f, "p90_ms": f, "p95_ms": f, "p99_ms": f,
     "max_ms": f, "mean_ms": f, "cpu_median_ms": f, "cpu_p95_ms": f, "cpu_p99_ms": f, "cpu_max_ms": f,
     "median_choose_ms": f, "median_decide_ms": f, "median_pair_ms": f, "p99_pair_ms": f,
     "max_pair_ms": f, "games": n, "seed": s}

``*_pair_ms`` are over turns' rolls of a pairing plus the roll-or-bank after it (the issue's "a decision
(pairing + roll/bank)"); ``max_ms`` is the worst single decision. Targets on the development machine:
median_pair_ms <= 20, p99_ms and max_ms <= 100 (a Raspberry Pi 4 is about four times slower).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from companion.agents.cant_stop import _chance
from companion.agents.rule28 import rule28_action
from companion.games import CHANCE
from companion.games.cant_stop import CantStopState, Phase
from companion.hints.cant_stop import advise


def measure(games: int = 20, players: int = 2, seed: int = 1) -> dict:
    """Time the advisor's decisions over ``games`` seeded games; returns the figures printed by :func:`main`."""
    rng = random.Random(seed)
    choose_ms: list[float] = []
    decide_ms: list[float] = []
    pair_ms: list[float] = []
    cpu_ms: list[float] = []
    for _ in range(games):
        state = CantStopState.new(players)
        pending = None
        while state.phase is not Phase.OVER:
            if state.current_player == CHANCE:
                state = state.apply(_chance(state, rng))
                continue
            if state.active != 0:
                state = state.apply(rule28_action(state))
                continue
            start, cpu_start = time.perf_counter(), time.process_time()
            action = advise(state, 0).action
            elapsed = (time.perf_counter() - start) * 1000.0
            cpu_ms.append((time.process_time() - cpu_start) * 1000.0)
            if state.phase is Phase.CHOOSE:
                choose_ms.append(elapsed)
                pending = elapsed
            else:
                decide_ms.append(elapsed)
                if pending is not None:
                    pair_ms.append(pending + elapsed)
                pending = None
            state = state.apply(action)
    every = sorted(choose_ms + decide_ms)
    cpu = sorted(cpu_ms)
    pairs = sorted(pair_ms)

    def pct(values: list[float], q: float) -> float:
        """The ``q`` quantile of sorted ``values`` (nearest rank), ms rounded to 3 decimals."""
        return round(values[min(len(values) - 1, int(q * len(values)))], 3)

    return {"decisions": len(every), "choose": len(choose_ms), "decide": len(decide_ms),
            "median_ms": round(statistics.median(every), 3), "p90_ms": pct(every, 0.9),
            "p95_ms": pct(every, 0.95), "p99_ms": pct(every, 0.99), "max_ms": round(every[-1], 3),
            "mean_ms": round(statistics.fmean(every), 3),
            "cpu_median_ms": round(statistics.median(cpu), 3), "cpu_p95_ms": pct(cpu, 0.95),
            "cpu_p99_ms": pct(cpu, 0.99), "cpu_max_ms": round(cpu[-1], 3),
            "median_choose_ms": round(statistics.median(choose_ms), 3),
            "median_decide_ms": round(statistics.median(decide_ms), 3),
            "median_pair_ms": round(statistics.median(pairs), 3), "p99_pair_ms": pct(pairs, 0.99),
            "max_pair_ms": round(pairs[-1], 3), "games": games, "seed": seed}


def main(argv: list[str] | None = None) -> int:
    """Command line: print the decision-time figures as one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m companion.bench.advisor", description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.games, args.players, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
