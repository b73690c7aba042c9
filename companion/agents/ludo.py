"""Simulated Ludo players and ``companion simulate ludo`` (ARCHITECTURE.md, Command-line contract).

Agents are callables ``(state, rng) -> action`` for the seat to act, as in
:mod:`companion.agents.cant_stop`; the driver draws every chance outcome (who starts, each die) from one
seeded ``random.Random``, so a run is reproducible from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from companion.agents import base
from companion.agents.base import Agent, advisor_agent, check_run, random_agent, simulate_games, with_budget
from companion.games.ludo import LudoConfig, LudoState, Phase, Roll, StartWith
from companion.hints import Budget, Hint
from companion.hints.ludo import advise

MAX_TURNS = 5000
"""Turn cap per game (all seats' turns together); a game still running then is a draw (counts for nobody
and is left out of ``mean_turns``). Only a stalemate of blocks (own_stacking = block) comes near it."""


def first_agent(state: Any, rng: random.Random) -> Any:
    """Always the first legal move (yard first, then the rearmost pawn): a fixed, naive baseline."""
    return state.legal_actions()[0]


def advisor(budget: Budget | None = None, on_hint: Callable[[Hint], None] | None = None) -> Agent:
    """The agent playing the hint of :func:`companion.hints.ludo.advise` with ``budget`` (None: its
    default node budget, the whole search; it ignores ``rng``); ``on_hint`` is called with each hint."""
    return advisor_agent(advise, budget, on_hint)


AGENTS: dict[str, Agent] = {"random": random_agent, "first": first_agent, "advisor": advisor()}
"""Agents by the name used on the command line."""

BENCH_OPPONENTS = ("random", "random", "random")
"""The agents in the other seats when the advisor's speed is measured (``companion bench advisor``):
three random players."""



def chance(state: LudoState, rng: random.Random) -> Any:
    """The first player drawn uniformly (B.3: highest roll, ties re-rolled), each die uniformly 1-6."""
    if state.phase is Phase.FIRST_PLAYER:
        return StartWith(rng.randrange(state.num_players))
    return Roll(rng.randint(1, 6))


def play_game(state: LudoState, agents: list[Agent], rng: random.Random,
              max_turns: int = MAX_TURNS) -> tuple[int | None, list[int]]:
    """Play one game from ``state`` to its end or the turn cap (:func:`chance` for the chance outcomes).

    Returns (winning seat or None at the cap, turns each seat began).
    """
    played = base.play_through(state, agents, rng, chance, clock=lambda s: s.turn, cap=max_turns)
    outcome = played.state.outcome() if played.finished else None
    return (outcome.winner if outcome else None), played.turns


def simulate(agents: list[str], games: int, seed: int, variant: Mapping[str, str] | None = None,
             table: Mapping[str, Agent] | None = None, jobs: int = 1, budget: Budget | None = None) -> dict:
    """Play ``games`` games of Ludo between ``agents`` (2-4 names of :data:`AGENTS`, seating order).

    Seats take the colours clockwise (2 players: red and yellow, opposite, B.3; 3: red, green, yellow).
    variant: ``KEY=VALUE`` settings of ludo.md B.7 / B.2b (``board=mensch40`` included).
    Returns ``{"games": n, "wins": {agent: n}, "wins_by_seat": [n, ...], "mean_turns": f}`` like
    :func:`companion.agents.cant_stop.simulate`; mean_turns is the winner's own turns, averaged.
    Raises ``UserError`` for an unknown agent, fewer than 2 or more than 4 agents, ``games`` < 1, or a
    bad variant.
    ``table``: the agents by name (default :data:`AGENTS`; the advisor benchmark adds a timed one).
    ``jobs``: worker processes (0: one per CPU); the figures do not depend on it.
    ``budget``: the ``advisor``'s search budget (None: its default node budget, every move valued).
    """
    check_run("Ludo", agents, 2, 4, games)
    config = LudoConfig.from_variant(variant or {})

    def one_game(players: list[Agent], rng: random.Random) -> tuple[int | None, int]:
        winner, turns = play_game(LudoState.new(len(players), config), players, rng)
        return winner, (0 if winner is None else turns[winner])

    table = with_budget(table or AGENTS, advisor(budget) if budget is not None else None)
    return simulate_games(agents, games, seed, table, one_game, jobs=jobs)
