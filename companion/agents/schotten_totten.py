"""Simulated Schotten Totten / Battle Line players and the ``companion simulate schotten-totten`` driver.

An **agent** is a callable ``(state, rng) -> action`` for ``state.current_player``; it is given the
state as its own seat observes it (``state.observation(seat)``: its hand, not the opponent's). The
driver supplies the chance outcomes (who starts, each drawn card, uniformly among the cards not on the
table nor in a hand: a shuffled pile) from one seeded ``random.Random``.

Agents (every agent claims every stone it can; claims are never a disadvantage, C.6):

- ``random``: a uniformly random legal play.
- ``greedy``: plays the card where that stone's own cards, with the card added, form the best
  formation (:func:`formation_key` of the 1-3 cards: rank, then sum); ties to the fuller stone, then
  the higher card (then the leftmost stone).
- ``advisor``: :func:`companion.hints.schotten_totten.advisor.advise`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from companion.agents import base
from companion.agents.base import Agent, check_run, simulate_games, with_budget
from companion.games.schotten_totten import (Claim, Draw, EndClaims, Pass, Phase, SchottenTottenConfig,
    SchottenTottenState, StartWith, formation_key)
from companion.hints import Budget, Hint
from companion.hints.schotten_totten import advise

MAX_TURNS = 400
"""Turn cap per game (both seats together); a real game takes about 40-60 turns. A capped game is a
draw (it never happens: the engine always ends a game, C.7/C.11)."""


def _claim_or_none(state: SchottenTottenState) -> Any:
    if state.phase is Phase.CLAIM:
        claims = state.claimable_stones(state.active)
        return Claim(claims[0]) if claims else EndClaims()
    if not state.can_play(state.active):
        return Pass()
    return None


def random_agent(state: SchottenTottenState, rng: random.Random) -> Any:
    """A uniformly random legal play; claims whatever it can."""
    return _claim_or_none(state) or rng.choice(state.legal_plays())


def greedy_agent(state: SchottenTottenState, rng: random.Random) -> Any:
    """The card and stone whose own side forms the best formation (see the module docstring)."""
    fixed = _claim_or_none(state)
    if fixed is not None:
        return fixed
    seat = state.active

    def rank(play):
        side = state.stones[play.stone].cards[seat] + (play.card,)
        return (formation_key(side), len(side), play.card.value, -play.stone)

    return max(state.legal_plays(), key=rank)


def advisor(budget: Budget | None = None, on_hint: Callable[[Hint], None] | None = None) -> Agent:
    """The agent playing the action of :func:`companion.hints.schotten_totten.advisor.advise` with
    ``budget`` (None: its default node budget, every play valued; it ignores ``rng``); ``on_hint`` is
    called with each hint (:func:`companion.agents.base.advisor_agent`)."""
    return base.advisor_agent(advise, budget, on_hint)


advisor_agent = advisor()
"""The advisor with its default node budget."""


AGENTS: dict[str, Agent] = {"random": random_agent, "greedy": greedy_agent, "advisor": advisor_agent}

BENCH_OPPONENTS = ("random",)
"""The agents in the other seats when the advisor's speed is measured (``companion bench advisor``):
a random player."""



def chance(state: SchottenTottenState, rng: random.Random) -> Any:
    """Who starts (C.3), else a card drawn uniformly among those neither on the table nor in a hand."""
    if state.phase is Phase.START:
        return StartWith(rng.randrange(2))
    return Draw(rng.choice(state.unknown_cards()))


def play_game(state: SchottenTottenState, agents: list[Agent], rng: random.Random,
              max_turns: int = MAX_TURNS) -> tuple[int | None, list[int]]:
    """Play one game from ``state`` to its end; returns (winning seat or None, turns begun per seat).
    Each agent sees the state as its own seat does (``state.observation(seat)``)."""
    played = base.play_through(state, agents, rng, chance, clock=lambda s: s.turn, cap=max_turns,
                            observe=lambda s, seat: s.observation(seat))
    return (played.state.winner if played.finished else None), played.turns


def simulate(agents: list[str], games: int, seed: int, variant: Mapping[str, str] | None = None,
             table: Mapping[str, Agent] | None = None, jobs: int = 1, budget: Budget | None = None) -> dict:
    """Play ``games`` games between two agents; seats alternate over games (game 0: ``agents[0]`` in
    seat 0, game 1: in seat 1, ...), and the starting player is drawn from the seed (C.3).

    variant: ``KEY=VALUE`` settings of :class:`SchottenTottenConfig` (``game=battle-line``, ...).
    Returns ``{"games": n, "wins": {agent: n}, "wins_by_seat": [n, n], "mean_turns": f}``: wins summed
    per agent name; wins_by_seat per seat (0 = ``a``); mean_turns: the mean number of turns the
    winner took; draws (stalls, C.11) count for nobody. Raises ``UserError`` for an unknown agent, not
    two agents, ``games`` < 1 or a bad variant.
    ``table``: the agents by name (default :data:`AGENTS`; the advisor benchmark adds a timed one).
    ``jobs``: worker processes (0: one per CPU); the figures do not depend on it.
    ``budget``: the ``advisor``'s search budget (None: its default node budget, every play valued).
    """
    check_run("Schotten Totten", agents, 2, 2, games)
    config = SchottenTottenConfig.from_variant(variant or {})

    def one_game(players: list[Agent], rng: random.Random) -> tuple[int | None, int]:
        winner, turns = play_game(SchottenTottenState.new(config), players, rng)
        return winner, (0 if winner is None else turns[winner])

    table = with_budget(table or AGENTS, advisor(budget) if budget is not None else None)
    return simulate_games(agents, games, seed, table, one_game, seating=lambda g: [0, 1] if g % 2 == 0 else [1, 0], jobs=jobs)
