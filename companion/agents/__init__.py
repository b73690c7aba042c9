"""Simulated players of every game, and the one loop that plays them (:mod:`.base`).

``run_simulation(game, agents, games, seed, variant)`` plays ``games`` seeded games of the game called
``game`` (``companion.registry``) between the named agents: ``{"games": n, "wins": {agent: n},
"wins_by_seat": [n, ...], "mean_turns": f}`` (ARCHITECTURE.md, ``companion simulate``).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.agents.base import Agent, Played, Tally, play_through
from companion.errors import UserError
from companion.registry import game

__all__ = ["run_simulation", "Agent", "Played", "Tally", "play_through"]


def run_simulation(name: str, agents: list[str], games: int, seed: int,
                   variant: Mapping[str, str] | None = None, jobs: int = 1, calibration: bool = False) -> dict:
    """Simulate ``games`` games of the game ``name`` (``jobs`` worker processes, 0: one per CPU; the
    figures do not depend on it); ``calibration``: how the advisor's shown win chances came true (Can't
    Stop only). Raises ``UserError`` for an unknown game or agent, a wrong number of agents, a negative
    ``jobs`` or ``calibration`` for another game, and ``VariantError`` for a bad variant."""
    module = game(name).module("agents")
    if not calibration:
        return module.simulate(agents, games, seed, variant, jobs=jobs)
    if name != "cant-stop":
        raise UserError(f"simulate --calibration: only cant-stop shows a win chance, not {name}")
    return module.simulate(agents, games, seed, variant, jobs=jobs, calibration=True)
