"""Simulated players and the ``companion simulate`` driver (ARCHITECTURE.md, Command-line contract).

An **agent** is a callable ``(state, rng) -> action`` that picks one of ``state.legal_actions()`` for
the seat to act; ``rng`` is the driver's ``random.Random`` (an agent may ignore it). Agents play each
other through the same rules engine the box uses; the driver supplies every chance outcome (who
starts, the dice) from one seeded ``random.Random``, so a run is reproducible from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from companion.agents import base
from companion.agents.base import Agent, advisor_agent, check_run, random_agent, simulate_games, with_budget
from companion.agents.rule28 import rule28_agent
from companion.games.cant_stop import MAX_PLAYERS, CantStopConfig, CantStopState, Phase, Roll
from companion.hints import Budget, Hint
from companion.hints.cant_stop import advise
from companion.hints.cant_stop.chance import win_chance

MAX_TURNS = 1000
"""Turn cap per game (all seats' turns together). A game still running after this many turns ends as
a draw: it counts for nobody in ``wins`` and is left out of ``mean_turns``. Real play never comes
near it (a Can't Stop game takes a few dozen turns); it only guards the driver against agents that
never make progress."""


def advisor(budget: Budget | None = None, on_hint: Callable[[Hint], None] | None = None) -> Agent:
    """The agent playing the hint of :func:`companion.hints.cant_stop.advise` with ``budget`` (None: its
    default node budget, the whole search; it ignores ``rng``); ``on_hint`` is called with each hint."""
    return advisor_agent(advise, budget, on_hint)


AGENTS: dict[str, Agent] = {"random": random_agent, "rule28": rule28_agent, "advisor": advisor()}
"""Agents by the name used on the command line."""

BENCH_OPPONENTS = ("rule28",)
"""The agents in the other seats when the advisor's speed is measured (``companion bench advisor``):
Michael Keller's Rule of 28."""



def _chance(state: CantStopState, rng: random.Random) -> Any:
    """Draw a chance outcome: the first player from ``chance_outcomes`` (equally likely seats, A.3),
    a roll as four independent fair dice (A.5.1)."""
    if state.phase is Phase.ROLL:
        return Roll(tuple(rng.randint(1, 6) for _ in range(4)))  # type: ignore[arg-type]
    return base.draw_chance(state, rng)


chance = _chance
"""The chance outcomes of a simulated game (the name every game's agents module gives them)."""


def play_game(state: CantStopState, agents: list[Agent], rng: random.Random,
              max_turns: int = MAX_TURNS) -> tuple[int | None, list[int]]:
    """Play one game from ``state`` (normally the initial one) to its end or the turn cap.

    ``agents[seat]`` acts for each seat. Returns (winning seat or None for a draw/cap, turns each seat
    began). Raises whatever the engine raises if an agent returns an illegal action.
    """
    played = base.play_through(state, agents, rng, _chance, clock=_clock, cap=max_turns)
    return (played.state.winner if played.finished else None), played.turns


def _clock(state: CantStopState) -> int:
    """The turn, with the first player's choice (A.3) as the start of turn 1."""
    return 0 if state.phase is Phase.FIRST_PLAYER else state.turn


def simulate(agents: list[str], games: int, seed: int, variant: Mapping[str, str] | None = None,
             table: Mapping[str, Agent] | None = None, jobs: int = 1, calibration: bool = False,
             budget: Budget | None = None) -> dict:
    """Play ``games`` games of Can't Stop between ``agents`` and count who wins.

    agents: 1-4 names from :data:`AGENTS`, in seating order (seat 0 first); one name is solo play.
    games: number of games, >= 1. seed: seeds the one ``random.Random`` that draws the first player
    (the engine's chance outcome: every seat equally likely, cant-stop.md A.3), every die, and the
    random agent's picks, so equal arguments give equal results. variant: ``KEY=VALUE`` settings of
    cant-stop.md A.9 (strings as on the command line).

    Returns ``{"games": n, "wins": {agent: n, ...}, "wins_by_seat": [n, ...], "mean_turns": f}``:
    - wins: games won, summed over the seats that play the same agent (every named agent is a key);
      in solo play a win is claiming ``columns_to_win`` columns within the cap.
    - wins_by_seat: games won by each seat, in seating order.
    - mean_turns: in solo play, the mean number of turns taken to claim the columns; with 2-4 players,
      the mean number of turns **the winner** took (its own turns, not the table's). Draws (games
      that hit :data:`MAX_TURNS`) count for nobody and are left out; 0.0 when no game was won.

    Raises ``UserError`` for an unknown agent, 0 or more than 4 agents, ``games`` < 1, or a
    bad variant (:class:`companion.errors.VariantError`).
    ``table``: the agents by name (default :data:`AGENTS`; the advisor benchmark adds a timed one).
    ``jobs``: worker processes (0: one per CPU); the figures do not depend on it.
    ``calibration``: also forecast, at the start of every turn of each advisor seat, the win chance its
    hint shows (:func:`companion.hints.cant_stop.chance.win_chance`), and add ``"calibration"``
    (:func:`companion.agents.base.calibration`) to the result.
    ``budget``: the ``advisor``'s search budget (:class:`companion.hints.Budget`; None: its default
    node budget, the whole search; never a deadline here, so the figures do not depend on the machine).
    """
    check_run("Can't Stop", agents, 1, MAX_PLAYERS, games)
    config = CantStopConfig.from_variant(variant or {})
    forecast_seats = [seat for seat, name in enumerate(agents) if name == "advisor"] if calibration else []

    def one_game(players: list[Agent], rng: random.Random) -> tuple:
        if not forecast_seats:
            winner, turns = play_game(CantStopState.new(len(players), config), players, rng)
            return winner, (0 if winner is None else turns[winner])
        samples: list[tuple[int, float]] = []

        def chance_and_forecast(state: CantStopState, rng: random.Random) -> Any:
            if state.phase is Phase.ROLL and not any(state.runners) and state.active in forecast_seats:
                samples.append((state.active, win_chance(state, state.active)))  # the start of a turn
            return _chance(state, rng)

        played = base.play_through(CantStopState.new(len(players), config), players, rng, chance_and_forecast,
                                   clock=_clock, cap=MAX_TURNS)
        winner = played.state.winner if played.finished else None
        return winner, (0 if winner is None else played.turns[winner]), samples

    table = with_budget(table or AGENTS, advisor(budget) if budget is not None else None)
    return simulate_games(agents, games, seed, table, one_game, jobs=jobs)
