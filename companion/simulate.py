"""``companion simulate``: agents play each other through a game's engine (ARCHITECTURE.md contract).

Each game has a module with ``simulate(agents, games, seed, variant) -> dict`` returning
``{"games": n, "wins": {agent: n}, "wins_by_seat": [n, ...], "mean_turns": f}``; this module only
dispatches by game name.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

SIMULATORS = {
    "cant-stop": "companion.simulate_cant_stop",
    "ludo": "companion.simulate_ludo",
    "schotten-totten": "companion.simulate_schotten_totten",
    "donkey-race": "companion.simulate_donkey_race",
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
