"""Simulated Ludo players and ``companion simulate ludo`` (ARCHITECTURE.md, Command-line contract).

Agents are callables ``(state, rng) -> action`` for the seat to act, as in
:mod:`companion.agents.cant_stop`; the driver draws every chance outcome (who starts, each die) from one
seeded ``random.Random``, so a run is reproducible from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from companion.agents.base import Tally, lookup_agent
from companion.games.base import CHANCE
from companion.games.ludo.config import LudoConfig
from companion.games.ludo.rules import LudoState, Phase, Roll, StartWith
from companion.hints.ludo.advisor import advise

Agent = Callable[[Any, random.Random], Any]

MAX_TURNS = 5000
"""Turn cap per game (all seats' turns together); a game still running then is a draw (counts for nobody
and is left out of ``mean_turns``). Only a stalemate of blocks (own_stacking = block) comes near it."""


def random_agent(state: Any, rng: random.Random) -> Any:
    """Uniformly random among the legal moves."""
    return rng.choice(state.legal_actions())


def first_agent(state: Any, rng: random.Random) -> Any:
    """Always the first legal move (yard first, then the rearmost pawn): a fixed, naive baseline."""
    return state.legal_actions()[0]


def advisor_agent(state: Any, rng: random.Random) -> Any:
    """The move of :func:`companion.hints.ludo.advisor.advise` (ignores ``rng``)."""
    return advise(state, state.current_player).action


AGENTS: dict[str, Agent] = {"random": random_agent, "first": first_agent, "advisor": advisor_agent}
"""Agents by the name used on the command line."""


def get_agent(name: str) -> Agent:
    """The agent called ``name``; ``ValueError`` listing the known names when there is none."""
    return lookup_agent(AGENTS, name)


def play_game(state: LudoState, agents: list[Agent], rng: random.Random,
              max_turns: int = MAX_TURNS) -> tuple[int | None, list[int]]:
    """Play one game from ``state`` to its end or the turn cap.

    Returns (winning seat or None at the cap, turns each seat began). The first player is drawn
    uniformly (B.3: highest roll, ties re-rolled), each die uniformly 1-6.
    """
    turns = [0] * state.num_players
    while state.phase is not Phase.OVER:
        if state.current_player == CHANCE:
            if state.phase is Phase.FIRST_PLAYER:
                action: Any = StartWith(rng.randrange(state.num_players))
            else:
                action = Roll(rng.randint(1, 6))
        else:
            action = agents[state.current_player](state, rng)
        before = state.turn
        state = state.apply(action)
        if state.turn != before and state.phase is not Phase.OVER:
            if state.turn > max_turns:
                return None, turns
            turns[state.active] += 1
    outcome = state.outcome()
    return (outcome.winner if outcome else None), turns


def simulate(agents: list[str], games: int, seed: int, variant: Mapping[str, str] | None = None) -> dict:
    """Play ``games`` games of Ludo between ``agents`` (2-4 names of :data:`AGENTS`, seating order).

    Seats take the colours clockwise (2 players: red and yellow, opposite, B.3; 3: red, green, yellow).
    variant: ``KEY=VALUE`` settings of ludo.md B.7 / B.2b (``board=mensch40`` included).
    Returns ``{"games": n, "wins": {agent: n}, "wins_by_seat": [n, ...], "mean_turns": f}`` like
    :func:`companion.agents.cant_stop.simulate`; mean_turns is the winner's own turns, averaged.
    Raises ``ValueError`` for an unknown agent, fewer than 2 or more than 4 agents, ``games`` < 1, or a
    bad variant.
    """
    if not 2 <= len(agents) <= 4:
        raise ValueError(f"simulate: Ludo takes 2 to 4 agents, not {len(agents)}")
    if games < 1:
        raise ValueError(f"simulate: games must be at least 1, not {games}")
    players = [get_agent(name) for name in agents]
    config = LudoConfig.from_variant(variant or {})
    rng = random.Random(seed)
    tally = Tally(agents)
    for _ in range(games):
        winner, turns = play_game(LudoState.new(len(agents), config), players, rng)
        if winner is not None:
            tally.add(winner, agents[winner], turns[winner])
    return tally.result(games)
