"""``companion bench advisor --game GAME``: how long a game's advisor takes per decision.

Plays seeded games of ``GAME`` through its simulation (``companion.agents.<game>``): seat 0 follows the
advisor (its ``advisor`` agent, which asks ``companion.hints.<game>.advise`` for the hint a player would
see), the other seats play the game's benchmark opponents (``BENCH_OPPONENTS``: the Rule of 28 in Can't Stop,
random players elsewhere; ``--opponent`` names another). The advisor searches as on the box: within the
box's node budget (:meth:`companion.registry.GameEntry.hint_budget`; ``nodes`` sets another), with no
deadline unless ``deadline_ms`` sets one (0 or None: none), after the game's tables were built (``companion.hints.<game>.prepare``, which the box runs when a game starts). Every
advisor call of seat 0 is timed with ``time.perf_counter`` (wall clock, what a player waits) and
``time.process_time`` (CPU time of this process, which a loaded machine inflates less). A **decision** is
one call, forced ones included; ``choices`` counts those with at least two legal actions; ``cut`` those
the deadline (or the node budget) stopped short of the whole search, and ``nodes_max`` the most nodes
one decision spent (the game's unit). Since the games go on from the advice, a deadline that cuts a
decision can change the rest of its game. The figures (issue 26's contract, and more)::

    {"decisions": n, "median_ms": f, "p95_ms": f, "p99_ms": f, "max_ms": f, "mean_ms": f,
     "cpu_median_ms": f, "cpu_p99_ms": f, "cpu_max_ms": f, "choices": n, "choice_median_ms": f,
     "cut": n, "nodes_max": n, "deadline_ms": f or null, "nodes": n, "prepare_ms": f,
     "by_phase": {"PHASE": {"decisions": n, "median_ms": f, "max_ms": f}, ...},
     "game": name, "games": n, "seed": s, "players": n, "opponent": name, "variant": {...}}

``prepare_ms``: the time the tables took to build (before the games). Quantiles are nearest-rank, in ms
rounded to 3 decimals. Targets (issues 26 and 40): p99 <= 25 ms and max <= 50 ms on the development
machine, otherwise idle; a Raspberry Pi 4 is about four times slower (``companion selftest`` measures it).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Mapping
from typing import Any

from companion.errors import UserError
from companion.hints import Budget
from companion.registry import game

__all__ = ["measure"]


def measure(name: str, games: int = 20, seed: int = 1, *, players: int | None = None, opponent: str | None = None,
            variant: Mapping[str, str] | None = None, deadline_ms: float | None = None,
            nodes: int | None = None) -> dict:
    """Time seat 0's advice over ``games`` seeded games of the game ``name``; returns the figures of the
    module docstring. ``players`` and ``opponent`` (default: one advisor and the game's
    ``BENCH_OPPONENTS``) set the table; ``variant``: ``KEY=VALUE`` settings as on the command line;
    ``deadline_ms``: a deadline a decision (None or 0: none, as on the box); ``nodes``: the node budget
    (None: the box's, :meth:`companion.registry.GameEntry.hint_budget`).

    Raises :class:`UserError` for an unknown game or opponent, a table the game does not take, ``games``
    < 1 or a negative deadline, and :class:`companion.errors.VariantError` for a bad variant.
    """
    entry = game(name)
    agents = entry.module("agents")
    opponents = list(agents.BENCH_OPPONENTS)
    opponent = opponent or opponents[0]
    players = len(opponents) + 1 if players is None else players
    entry.check_players(players)
    if deadline_ms is not None and deadline_ms < 0:
        raise UserError(f"bench advisor: --deadline-ms must be 0 (none) or more, not {deadline_ms:g}")
    deadline_ms = deadline_ms or None
    start = time.perf_counter()
    entry.module("hints").prepare(entry.config(variant))  # as the box does when the game starts
    prepare_ms = (time.perf_counter() - start) * 1000.0
    hints: list[Any] = []
    if nodes is None:
        nodes = entry.hint_budget().nodes
    if nodes < 0:
        raise UserError(f"bench advisor: --nodes must be 0 or more, not {nodes}")
    advisor = agents.advisor(Budget(nodes=nodes, deadline_ms=deadline_ms), on_hint=hints.append)
    wall: list[float] = []
    cpu: list[float] = []
    choice: list[float] = []
    phases: dict[str, list[float]] = {}

    def timed(state: Any, rng: random.Random) -> Any:
        phase = getattr(state, "phase", None)
        start, cpu_start = time.perf_counter(), time.process_time()
        action = advisor(state, rng)
        wall.append((time.perf_counter() - start) * 1000.0)
        cpu.append((time.process_time() - cpu_start) * 1000.0)
        if len(state.legal_actions()) > 1:
            choice.append(wall[-1])
        phases.setdefault(getattr(phase, "value", str(phase)), []).append(wall[-1])
        return action

    table = {**agents.AGENTS, "timed advisor": timed}
    if opponent not in table:
        raise UserError(f"bench advisor: unknown --opponent {opponent!r} for {name}; "
                        f"known agents: {', '.join(sorted(agents.AGENTS))}")
    agents.simulate(["timed advisor"] + [opponent] * (players - 1), games, seed, variant, table=table)
    if not wall:
        raise UserError(f"bench advisor: the advisor of {name} made no decision in {games} game(s)")
    every, ticks = sorted(wall), sorted(cpu)
    return {"decisions": len(every), "median_ms": _ms(statistics.median(every)), "p95_ms": _quantile(every, 0.95),
            "p99_ms": _quantile(every, 0.99), "max_ms": _ms(every[-1]), "mean_ms": _ms(statistics.fmean(every)),
            "cpu_median_ms": _ms(statistics.median(ticks)), "cpu_p99_ms": _quantile(ticks, 0.99),
            "cpu_max_ms": _ms(ticks[-1]), "choices": len(choice),
            "choice_median_ms": _ms(statistics.median(choice)) if choice else 0.0,
            "cut": sum(1 for hint in hints if hint.cut), "nodes_max": max((hint.nodes for hint in hints), default=0),
            "deadline_ms": deadline_ms, "nodes": nodes, "prepare_ms": _ms(prepare_ms),
            "by_phase": {phase: {"decisions": len(times), "median_ms": _ms(statistics.median(times)),
                                 "max_ms": _ms(max(times))} for phase, times in sorted(phases.items())},
            "game": name, "games": games, "seed": seed, "players": players, "opponent": opponent,
            "variant": dict(variant or {})}


def _ms(value: float) -> float:
    return round(value, 3)


def _quantile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of the sorted ``ordered``."""
    return _ms(ordered[min(len(ordered) - 1, int(q * len(ordered)))])
