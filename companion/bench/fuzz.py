"""``companion bench fuzz``: random play over random variants, every action and invariant checked.

For each game (issue 9, item 3), a random variant (the game's :class:`FuzzEngine`, ``fuzz_engine()`` of
its bench module ``companion.bench.<game>``) is played to its end, choosing
chance outcomes by their probabilities and decisions uniformly. Before each step:

- legal actions apply: every legal action (at most :data:`LEGAL_SAMPLE` of them, sampled) is applied
  to the state and must not raise;
- illegal actions raise ``IllegalMove`` and change nothing: actions legal earlier in the game but not
  now, and the engine's malformed ``junk`` actions, are applied; each must raise ``IllegalMove``
  (another exception, or none, is a violation) and the state's ``to_dict()`` must be unchanged;
- generic invariants of the Game/State shape (ARCHITECTURE.md): ``outcome()`` is set exactly at
  TERMINAL; a running game offers legal actions or chance outcomes; chance nodes list outcomes with positive
  probabilities summing to 1, decision nodes none; ``from_dict(to_dict())`` (through JSON) gives the
  same state; the winner is a seat;
- the rules file's invariants (``FuzzEngine.invariants``);
- the game ends within ``max_steps`` where the rules guarantee an end (``FuzzEngine.bounded``); a
  dice game that reaches it (random play can bust forever in Can't Stop) is stopped and counted in
  ``FuzzReport.unfinished``.

Each game draws from its own generator seeded by ``(seed, game index)``, so a run gives the same
figures whatever the number of worker processes (``jobs``) it is split over.

Returns ``{"games", "steps", "violations"}``; the first violations are kept in ``examples``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion import stop
from companion.errors import IllegalMove, UserError
from companion.games import CHANCE, TERMINAL
from companion.registry import game as game_entry

LEGAL_SAMPLE = 8
"""Legal actions applied (sampled) at each step, besides the one played."""
ILLEGAL_PROBES = 4
"""Earlier-legal actions tried at each step (plus the engine's junk actions)."""
POOL = 256


@dataclass(frozen=True)
class FuzzEngine:
    """One game's engine for the fuzzer. ``new_state(rng)``: a random variant and player count, as the
    rules file's CONFIG switches allow; ``invariants(state, previous, memo)``: the violated invariants of
    the rules file as short texts (``memo`` is a per-game dict for facts that must persist, e.g. claimed
    columns); ``from_dict``; ``junk(state, rng)``: malformed actions, values outside the game's ranges,
    which must raise ``IllegalMove``. ``max_steps``: the most steps one game
    is played. ``bounded``: the rules guarantee an end within ``max_steps`` (a finite deck, a track
    that every round advances), so a longer game is a violation; in a dice game a run of busts or
    missed entries can last any time, so there the game is only stopped (counted as unfinished)."""

    name: str
    new_state: Callable[[random.Random], Any]
    invariants: Callable[[Any, Any, dict], list[str]]
    from_dict: Callable[[Any], Any]
    junk: Callable[[Any, random.Random], list]
    max_steps: int
    bounded: bool = True


class FuzzReport:
    """Counts of one fuzz run, and the first :attr:`MAX_EXAMPLES` violations as text."""

    MAX_EXAMPLES = 10

    def __init__(self) -> None:
        self.games = self.steps = self.violations = self.unfinished = 0
        self.examples: list[str] = []

    def violation(self, game: int, step: int, text: str) -> None:
        self.violations += 1
        if len(self.examples) < self.MAX_EXAMPLES:
            self.examples.append(f"game {game} step {step}: {text}")

    def summary(self) -> dict[str, int]:
        return {"games": self.games, "steps": self.steps, "violations": self.violations}

    def merge(self, other: "FuzzReport") -> None:
        """Add the counts and examples of ``other`` (a part of the same run) to this report."""
        self.games += other.games
        self.steps += other.steps
        self.violations += other.violations
        self.unfinished += other.unfinished
        self.examples.extend(other.examples[: self.MAX_EXAMPLES - len(self.examples)])


def _sums_to_one(probabilities) -> bool:
    """Exactly whether the Fractions (or ints) sum to 1; with one common denominator (the usual
    case: n equally likely cards or faces) the numerators are summed instead of the Fractions."""
    denominators = {p.denominator for p in probabilities}
    if len(denominators) == 1:
        return sum(p.numerator for p in probabilities) == denominators.pop()
    return sum(probabilities) == 1


class _Checked:
    """The chance-outcome tuples of one game already found valid, by identity (an engine that caches
    its outcome tuple, e.g. Can't Stop's 126 rolls, is checked once per game instead of every roll).
    Keeps a reference to each, so an id is never reused while it is remembered."""

    LIMIT = 64

    def __init__(self) -> None:
        self._tuples: dict[int, tuple] = {}

    def __contains__(self, outcomes: tuple) -> bool:
        return self._tuples.get(id(outcomes)) is outcomes

    def add(self, outcomes: tuple) -> None:
        if len(self._tuples) < self.LIMIT:
            self._tuples[id(outcomes)] = outcomes


def _generic(state: Any, engine: FuzzEngine, outcomes: tuple, snapshot: dict, checked: _Checked) -> list[str]:
    """The generic invariants of the module docstring; ``outcomes`` is ``state.chance_outcomes()`` and
    ``snapshot`` ``state.to_dict()``, computed once per step by the caller."""
    bad = []
    player = state.current_player
    outcome = state.outcome()
    if (player == TERMINAL) != (outcome is not None):
        bad.append(f"outcome() is {outcome!r} while current_player is {player}")
    if player != TERMINAL and not state.legal_actions() and not outcomes:
        bad.append("a running game offers neither legal actions nor chance outcomes")
    if player == CHANCE:
        if outcomes not in checked:
            probabilities = [p for _, p in outcomes]
            if not outcomes or any(p <= 0 for p in probabilities) or not _sums_to_one(probabilities):
                bad.append("chance outcomes missing, not positive or not summing to 1")
            else:
                checked.add(outcomes)
    elif outcomes:
        bad.append("chance outcomes at a decision node")
    try:
        again = engine.from_dict(json.loads(json.dumps(snapshot)))
        if again != state:
            bad.append("from_dict(to_dict()) differs from the state")
    except Exception as error:  # noqa: BLE001 - any failure here is a finding
        bad.append(f"to_dict/from_dict failed: {type(error).__name__}: {error}")
    if outcome is not None and outcome.winner is not None and not isinstance(outcome.winner, int):
        bad.append(f"winner {outcome.winner!r} is not a seat")
    return bad


def _probe_illegal(state: Any, action: Any) -> str | None:
    try:
        state.apply(action)
    except IllegalMove:
        pass
    except Exception as error:  # noqa: BLE001
        return f"illegal {action!r} raised {type(error).__name__}: {error} instead of IllegalMove"
    else:
        return f"illegal {action!r} was accepted"
    return None


def fuzz_game(engine: FuzzEngine, rng: random.Random, report: FuzzReport, game: int | None = None) -> None:
    """Play one random game of ``engine`` with every check of the module docstring.

    ``game`` numbers the game in violation texts (default: the games already in ``report``).
    """
    game = report.games if game is None else game
    report.games += 1
    state = engine.new_state(rng)
    previous, memo, pool, seen, checked = None, {}, [], set(), _Checked()
    for step in range(engine.max_steps + 1):
        outcomes = state.chance_outcomes()
        before = state.to_dict()
        for text in _generic(state, engine, outcomes, before, checked) + engine.invariants(state, previous, memo):
            report.violation(game, step, text)
        if state.current_player == TERMINAL:
            return
        if step == engine.max_steps:
            if engine.bounded:
                report.violation(game, step, f"the game did not end within {engine.max_steps} steps")
            else:
                report.unfinished += 1
            return
        # At a chance node some engines list the outcomes only in chance_outcomes() (ludo.py).
        legal = state.legal_actions() or tuple(a for a, _ in outcomes)
        legal_set = set(legal)
        for action in legal if len(legal) <= LEGAL_SAMPLE else rng.sample(legal, LEGAL_SAMPLE):
            try:
                state.apply(action)
            except Exception as error:  # noqa: BLE001
                report.violation(game, step, f"legal {action!r} raised {type(error).__name__}: {error}")
        probes = rng.sample(pool, min(ILLEGAL_PROBES, len(pool))) + engine.junk(state, rng)
        for action in probes:
            if action not in legal_set:
                problem = _probe_illegal(state, action)
                if problem:
                    report.violation(game, step, problem)
        if state.to_dict() != before:  # states are immutable: neither the legal nor the illegal tries may change it
            report.violation(game, step, f"trying actions changed the state (probes {probes!r})")
        for action in legal[:16]:
            if action not in seen and len(pool) < POOL:
                seen.add(action)
                pool.append(action)
        if state.current_player == CHANCE:
            actions, weights = zip(*outcomes)
            action = rng.choices(actions, weights=[float(w) for w in weights])[0]
        else:
            action = rng.choice(legal)
        try:
            previous, state = state, state.apply(action)
        except Exception as error:  # noqa: BLE001
            report.violation(game, step, f"playing {action!r} raised {type(error).__name__}: {error}")
            return
        report.steps += 1


def game_rng(seed: int, game: int) -> random.Random:
    """The generator of game number ``game`` (0-based) of a run seeded ``seed``."""
    return random.Random(f"fuzz:{seed}:{game}")


def _fuzz_range(game: str, seed: int, first: int, stop: int) -> FuzzReport:
    engine = game_entry(game).module("bench").fuzz_engine()
    report = FuzzReport()
    for index in range(first, stop):
        fuzz_game(engine, game_rng(seed, index), report, index)
    return report


def run_fuzz(game: str, games: int, seed: int, *, report: FuzzReport | None = None,
             jobs: int = 1) -> dict[str, int]:
    """Fuzz ``games`` random games of ``game`` (a game of the registry, its ``bench`` module's
    ``fuzz_engine``) from ``seed``.

    ``jobs`` (>= 1; 0 means one per CPU) splits the games over that many worker processes; the
    figures do not depend on it. Returns ``{"games", "steps", "violations"}``; pass a
    :class:`FuzzReport` to see the examples. Raises ValueError for a game without an engine here or
    a negative ``jobs``.
    """
    game_entry(game)  # UserError for a game the box does not know
    if jobs < 0:
        raise UserError(f"--jobs must be 0 (one per CPU) or more, not {jobs}")
    report = report or FuzzReport()
    jobs = min(jobs or os.cpu_count() or 1, games) or 1
    if jobs == 1:
        report.merge(_fuzz_range(game, seed, 0, games))
        return report.summary()
    bounds = [games * part // jobs for part in range(jobs + 1)]
    # fork: the workers inherit the engines' modules as this process has them (closures do not pickle).
    context = multiprocessing.get_context("fork")
    with context.Pool(jobs, initializer=stop.default_signals) as pool:
        parts = pool.starmap(_fuzz_range, [(game, seed, bounds[k], bounds[k + 1]) for k in range(jobs)])
    for part in parts:
        report.merge(part)
    return report.summary()
