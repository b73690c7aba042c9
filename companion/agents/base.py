"""The one game loop of simulated players, and the count of who won (``companion simulate``).

An **agent** is a callable ``(state, rng) -> action`` that picks one of ``state.legal_actions()`` for
the seat to act; ``rng`` is the driver's ``random.Random`` (an agent may ignore it). Agents play each
other through the same rules engine the box uses (:func:`play_through`); the driver supplies every chance
outcome from the same seeded ``random.Random``, so a run is reproducible from its seed. Each game's
module (``companion.agents.<game>``) has its ``AGENTS``, its chance outcomes and ``simulate``.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion import stop
from companion.errors import UserError
from companion.games import CHANCE, TERMINAL
from companion.hints import Budget

Agent = Callable[[Any, random.Random], Any]
"""``(state, rng) -> action``: the action for ``state.current_player``."""


def random_agent(state: Any, rng: random.Random) -> Any:
    """Uniformly random among the legal actions (Can't Stop: any pairing, roll again or bank 50/50; the
    donkey race: any legal set, or pass where allowed)."""
    return rng.choice(state.legal_actions())


def advisor_agent(advise: Callable[..., Any], budget: Budget | None = None,
                  on_hint: Callable[[Any], None] | None = None) -> Agent:
    """The agent that plays the hint of ``advise(state, seat, budget)`` (a game's ``companion.hints``
    advisor) for the seat to act; it ignores ``rng``. ``budget``: the search's (None: the advisor's
    default node budget, no deadline: its whole search, reproducible). ``on_hint``: called with each
    hint (the advisor benchmark counts its nodes)."""
    def agent(state: Any, rng: random.Random) -> Any:
        hint = advise(state, state.current_player, budget)
        if on_hint is not None:
            on_hint(hint)
        return hint.action

    return agent


def with_budget(table: Mapping[str, Agent], advisor: Agent | None) -> Mapping[str, Agent]:
    """``table`` with its ``advisor`` replaced by ``advisor`` (an advisor agent with a budget), or as it is
    when ``advisor`` is None."""
    return table if advisor is None else {**table, "advisor": advisor}


@dataclass(frozen=True)
class Played:
    """How one simulated game ended: the final state, the turns each seat began (a turn begins when the
    game's clock moves on and that seat is to act), and whether it ended before the cap."""

    state: Any
    turns: list[int]
    finished: bool


def play_through(state: Any, agents: list[Agent], rng: random.Random, chance: Callable[[Any, random.Random], Any], *,
              clock: Callable[[Any], int], cap: int, observe: Callable[[Any, int], Any] | None = None) -> Played:
    """Play one game from ``state`` until it is over or ``clock(state)`` passes ``cap``.

    ``agents[seat]`` acts for each seat, given ``observe(state, seat)`` when the seat may see only its
    own part (hidden hands), else the state; ``chance(state, rng)`` supplies each chance outcome.
    ``clock(state)``: the game's turn (or round) counter; each time it moves on, the seat then to act
    (``state.active``) begins a turn. Raises whatever the engine raises if an agent returns an illegal
    action.
    """
    turns = [0] * state.num_players
    while state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            action = chance(state, rng)
        else:
            seat = state.current_player
            action = agents[seat](observe(state, seat) if observe else state, rng)
        before = clock(state)
        state = state.apply(action)
        if state.current_player != TERMINAL and clock(state) != before:
            if clock(state) > cap:
                return Played(state, turns, False)
            turns[state.active] += 1
    return Played(state, turns, True)


def draw_chance(state: Any, rng: random.Random) -> Any:
    """A chance outcome drawn by its probability from ``state.chance_outcomes()``."""
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]


def lookup_agent(agents: Mapping[str, Agent], name: str) -> Agent:
    """The agent called ``name`` in a game's ``AGENTS``; ``UserError`` listing the known names."""
    try:
        return agents[name]
    except KeyError:
        raise UserError(f"unknown agent {name!r}; known agents: {', '.join(sorted(agents))}") from None


def check_run(game: str, agents: list[str], low: int, high: int, games: int) -> None:
    """Raise :class:`UserError` unless ``low``-``high`` agents play at least one game of ``game``."""
    if not low <= len(agents) <= high:
        takes = str(low) if low == high else f"{low} to {high}"
        raise UserError(f"simulate: {game} takes {takes} agents, not {len(agents)}")
    if games < 1:
        raise UserError(f"simulate: games must be at least 1, not {games}")


def game_rng(seed: int, index: int) -> random.Random:
    """The random source of game ``index`` (0-based) of a run seeded ``seed``: every game has its own, so
    a run's figures do not depend on how its games are shared out among worker processes."""
    return random.Random(f"{seed}:{index}")


_run: tuple | None = None
"""The run the worker processes play (set before they fork: the agents are closures, which do not
pickle)."""


def _play_range(bounds: tuple[int, int]) -> list[tuple[list[int], int | None, int, tuple]]:
    """Play games ``bounds[0]`` to ``bounds[1] - 1`` of :data:`_run`: (seating order, winning seat, length,
    the game's forecasts: ``(seat, predicted chance)`` pairs, empty unless ``one_game`` gives them)."""
    names, seed, players, one_game, seating = _run
    out = []
    for index in range(*bounds):
        order = seating(index) if seating else list(range(len(names)))
        seat, length, *samples = one_game([players[i] for i in order], game_rng(seed, index))
        out.append((order, seat, length, samples[0] if samples else ()))
    return out


def simulate_games(names: list[str], games: int, seed: int, table: Mapping[str, Agent],
                   one_game: Callable[[list[Agent], random.Random], tuple[int | None, int]],
                   seating: Callable[[int], list[int]] | None = None, jobs: int = 1) -> dict:
    """Play ``games`` games between the agents ``names`` (of ``table``) and count who wins.

    ``one_game(agents, rng)`` plays one game with ``agents[seat]`` in each seat and returns (the winning
    seat or None for a draw or a capped game, the game's length in the game's own unit), and may add a
    third item, the game's forecasts (``(seat, predicted win chance)`` pairs): the result then has
    ``"calibration"`` (:func:`calibration`). ``seating(g)``:
    the agents' order in game ``g`` (``order[seat]`` indexes ``names``; default: as given). Game ``g``
    draws from :func:`game_rng` ``(seed, g)``, so equal arguments give equal results whatever ``jobs``
    (worker processes, forked; 0: one per CPU; 1: this process). Returns :meth:`Tally.result`. Raises
    :class:`UserError` for an unknown agent or a negative ``jobs``.
    """
    global _run
    players = [lookup_agent(table, name) for name in names]
    if jobs < 0:
        raise UserError(f"--jobs must be 0 (one per CPU) or more, not {jobs}")
    jobs = min(jobs or os.cpu_count() or 1, games) or 1
    _run = (names, seed, players, one_game, seating)
    try:
        if jobs == 1:
            played = _play_range((0, games))
        else:
            bounds = [games * part // jobs for part in range(jobs + 1)]
            with multiprocessing.get_context("fork").Pool(jobs, initializer=stop.default_signals) as pool:
                parts = pool.map(_play_range, [(bounds[k], bounds[k + 1]) for k in range(jobs)])
            played = [game for part in parts for game in part]
    finally:
        _run = None
    tally = Tally(names)
    forecasts: list[tuple[float, bool]] = []
    for order, seat, length, samples in played:
        if seat is not None:
            tally.add(seat, names[order[seat]], length)
        forecasts += [(p, seat == s) for s, p in samples]
    result = tally.result(games)
    if forecasts:
        result["calibration"] = calibration(forecasts)
    return result


def calibration(forecasts: list[tuple[float, bool]], bins: int = 10) -> dict:
    """How well predicted win chances came true: ``{"brier": f, "bins": [{"predicted", "observed", "n"},
    ...]}`` from ``(predicted chance 0-1, won)`` pairs, in ``bins`` equal-width bins of the prediction
    (empty bins left out); ``predicted`` is the bin's mean prediction, ``observed`` its share of wins.
    The Brier score is the mean squared difference between prediction and outcome (0 is perfect)."""
    brier = sum((p - float(won)) ** 2 for p, won in forecasts) / len(forecasts)
    groups: dict[int, list[tuple[float, bool]]] = {}
    for p, won in forecasts:
        groups.setdefault(min(bins - 1, int(p * bins)), []).append((p, won))
    rows = [{"predicted": round(sum(p for p, _w in group) / len(group), 4),
             "observed": round(sum(1 for _p, w in group if w) / len(group), 4), "n": len(group)}
            for _k, group in sorted(groups.items())]
    return {"brier": round(brier, 5), "bins": rows}


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
