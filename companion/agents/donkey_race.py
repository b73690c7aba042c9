"""Simulated players for the donkey card race and ``simulate`` (ARCHITECTURE.md, ``companion simulate``).

An **agent** is a callable ``(state, rng) -> action`` for ``state.current_player``. Agents see the full
state but the advisor looks only at its own hand and public information (``state.observation(seat)``).
The driver supplies every chance outcome from one seeded ``random.Random``: each draw is a uniformly
random card of the draw pile (the engine never shuffles), the first leader is the donkey holder
(donkey-race.md D.3.3) or, when nobody holds it, a uniformly random seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from companion.agents import base
from companion.agents.base import Agent, check_run, random_agent, simulate_games, with_budget
from companion.games.donkey_race import DonkeyRaceConfig, DonkeyRaceState, Draw, Phase
from companion.hints import Budget, Hint
from companion.hints.donkey_race import advise

MAX_ROUNDS = 1000
"""Round cap per game: a game still running after it is a draw (counts for nobody, left out of
``mean_turns``). A game takes about 10-25 rounds; the cap only guards against agents that never score
(possible with ``leader_may_pass``)."""


def advisor(budget: Budget | None = None, on_hint: Callable[[Hint], None] | None = None) -> Agent:
    """The agent playing the action of :func:`companion.hints.donkey_race.advise` on the seat's own view
    with ``budget`` (it never binds: a rule; it ignores ``rng``); ``on_hint`` is called with each hint."""
    def agent(state: DonkeyRaceState, rng: random.Random) -> Any:
        seat = state.current_player
        hint = advise(state.observation(seat), seat, budget)
        if on_hint is not None:
            on_hint(hint)
        return hint.action

    return agent


advisor_agent = advisor()
"""The advisor with its default node budget."""


AGENTS: dict[str, Agent] = {"random": random_agent, "advisor": advisor_agent}
"""Agents by the name used on the command line."""

BENCH_OPPONENTS = ("random",)
"""The agents in the other seats when the advisor's speed is measured (``companion bench advisor``):
a random player."""



def chance(state: DonkeyRaceState, rng: random.Random) -> Any:
    """A chance outcome: a uniformly random card of the draw pile, else one of ``chance_outcomes``."""
    if state.phase is Phase.DRAW:
        return Draw(rng.choice(state.deck))
    return base.draw_chance(state, rng)


def play_game(state: DonkeyRaceState, agents: list[Agent], rng: random.Random,
              max_rounds: int = MAX_ROUNDS) -> tuple[DonkeyRaceState, bool]:
    """Play from ``state`` to the end or the round cap; returns (final state, finished).

    ``agents[seat]`` acts for each seat. Raises the engine's ``IllegalMove`` if an agent errs.
    """
    played = base.play_through(state, agents, rng, chance, clock=lambda s: s.round_no, cap=max_rounds)
    return played.state, played.finished


def simulate(agents: list[str], games: int, seed: int, variant: Mapping[str, str] | None = None,
             table: Mapping[str, Agent] | None = None, jobs: int = 1, budget: Budget | None = None) -> dict:
    """Play ``games`` games of the donkey card race between ``agents`` and count who wins.

    agents: 2-4 names from :data:`AGENTS` in seating order. games: >= 1. seed: seeds the one
    ``random.Random`` for every draw, the first leader when nobody holds the donkey, and the random
    agent. variant: ``KEY=VALUE`` settings of :class:`DonkeyRaceConfig` (donkey-race.md D.2-D.7).

    Returns ``{"games": n, "wins": {agent: n}, "wins_by_seat": [n, ...], "mean_turns": f}``: a shared
    win (D.6 tie) and a game at :data:`MAX_ROUNDS` count for nobody; ``mean_turns`` is the mean number
    of rounds of the games that had a single winner (every seat acts once or more each round), 0.0
    when none had. Raises ``UserError`` for an unknown agent, a count outside 2-4, ``games`` < 1 or
    a bad variant (:class:`companion.games.base.VariantError`).
    ``table``: the agents by name (default :data:`AGENTS`; the advisor benchmark adds a timed one).
    ``jobs``: worker processes (0: one per CPU); the figures do not depend on it.
    ``budget``: the ``advisor``'s budget (accepted for every game's sake; the donkey race's rule needs none).
    """
    check_run("the donkey card race", agents, 2, 4, games)
    config = DonkeyRaceConfig.from_variant(variant or {})

    def one_game(players: list[Agent], rng: random.Random) -> tuple[int | None, int]:
        final, finished = play_game(DonkeyRaceState.new(len(players), config), players, rng)
        single = finished and len(final.winners) == 1
        return (final.winners[0] if single else None), final.round_no

    table = with_budget(table or AGENTS, advisor(budget) if budget is not None else None)
    return simulate_games(agents, games, seed, table, one_game, jobs=jobs)
