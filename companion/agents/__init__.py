"""Simulated players of every game, and the one loop that plays them (:mod:`.base`).

``run_simulation(game, agents, games, seed, variant)`` plays ``games`` seeded games of the game called
``game`` (``companion.registry``) between the named agents: ``{"games": n, "wins": {agent: n},
"wins_by_seat": [n, ...], "mean_turns": f}`` (ARCHITECTURE.md, ``companion simulate``).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.agents.base import Agent, Played, Tally, play_through
from companion.errors import UserError
from companion.hints import Budget
from companion.registry import game

__all__ = ["run_simulation", "Agent", "Played", "Tally", "play_through"]


def run_simulation(name: str, agents: list[str], games: int, seed: int,
                   variant: Mapping[str, str] | None = None, jobs: int = 1, calibration: bool = False,
                   budget: int | None = None) -> dict:
    """Simulate ``games`` games of the game ``name`` (``jobs`` worker processes, 0: one per CPU; the
    figures do not depend on it); ``calibration``: how the advisor's shown win chances came true (Can't
    Stop only); ``budget``: the ``advisor``'s node budget a decision (the game's unit,
    :class:`companion.hints.Budget`; None: the game's default ``NODES``, its whole search; never a clock).
    Raises ``UserError`` for an unknown game or agent, a wrong number of agents, a negative ``jobs`` or
    ``budget`` or ``calibration`` for another game, and ``VariantError`` for a bad variant."""
    module = game(name).module("agents")
    if budget is not None and budget < 0:
        raise UserError(f"simulate: --budget must be 0 or more nodes, not {budget}")
    extra = {} if budget is None else {"budget": Budget(nodes=budget)}
    if not calibration:
        return module.simulate(agents, games, seed, variant, jobs=jobs, **extra)
    if name != "cant-stop":
        raise UserError(f"simulate --calibration: only cant-stop shows a win chance, not {name}")
    return module.simulate(agents, games, seed, variant, jobs=jobs, calibration=True, **extra)
