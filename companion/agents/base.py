"""``companion simulate``: agents play each other through a game's engine (ARCHITECTURE.md contract).

Each game has a module with ``simulate(agents, games, seed, variant) -> dict`` returning
``{"games": n, "wins": {agent: n}, "wins_by_seat": [n, ...], "mean_turns": f}``; this module only
dispatches by game name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

SIMULATORS = {
    "cant-stop": "companion.agents.cant_stop",
    "ludo": "companion.agents.ludo",
    "schotten-totten": "companion.agents.schotten_totten",
    "donkey-race": "companion.agents.donkey_race",
}


def run_simulation(game: str, agents: list[str], games: int, seed: int,
                   variant: Mapping[str, str] | None = None) -> dict:
    """Simulate ``games`` games of ``game``; raises ``ValueError`` for a game without a simulator,
    and the game module's ``ValueError`` for unknown agents or bad variants."""
    module_name = SIMULATORS.get(game)
    if module_name is None:
        raise ValueError(f"simulate: unknown game {game!r}; games: {', '.join(SIMULATORS)}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise ValueError(f"simulate: game {game} is not available yet") from None
    return module.simulate(agents, games, seed, variant)


def lookup_agent(agents: Mapping[str, Callable[..., Any]], name: str) -> Callable[..., Any]:
    """The agent called ``name`` in a game's registry; ``ValueError`` listing the known names."""
    try:
        return agents[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(sorted(agents))}") from None


class Tally:
    """Counts the games of one simulation into the contract's result.

    agents: the agent names in seating order. :meth:`add` takes each game's winning seat (None for a
    draw or a capped game: it counts for nobody), the agent name that sat there, and the game's
    length (turns or rounds, as the game documents); :meth:`result` gives ``{"games", "wins",
    "wins_by_seat", "mean_turns"}`` with mean_turns over the won games (0.0 when none was won).
    """

    def __init__(self, agents: list[str]):
        self.wins = {name: 0 for name in agents}
        self.wins_by_seat = [0] * len(agents)
        self.lengths: list[int] = []

    def add(self, seat: int | None, agent: str | None = None, length: int = 0) -> None:
        if seat is None:
            return
        self.wins[agent] += 1
        self.wins_by_seat[seat] += 1
        self.lengths.append(length)

    def result(self, games: int) -> dict:
        mean = sum(self.lengths) / len(self.lengths) if self.lengths else 0.0
        return {"games": games, "wins": self.wins, "wins_by_seat": self.wins_by_seat, "mean_turns": mean}
