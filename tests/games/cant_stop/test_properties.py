"""Random play over random variants (cant-stop.md A.9), checking the engine's invariants after every step.

Each example draws a variant and a seed; seeded dice and choices then play one game (or a few hundred
steps). Invariants: pieces stay on their columns (A.2, A.6), claimed columns stay with their owner and
hold nobody else's pieces (A.7), a bust restores the turn's start markers and clears the runners
(A.5.3), markers change only when banking (A.5.5), at most ``num_runners`` runners (A.2), a winner owns
``columns_to_win`` columns (A.4), JSON round-trips, and illegal actions raise and change nothing.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalMove
from companion.games import CHANCE
from companion.games.cant_stop import (COLUMNS, Bank, CantStopConfig, CantStopState, Choose, Phase, Roll, RollAgain,
    StartWith)

MAX_STEPS = 400

variants = st.builds(
    CantStopConfig,
    columns_to_win=st.integers(1, 4),
    num_runners=st.integers(1, 4),
    pairing_rule=st.sampled_from(["free", "must_maximize_runners"]),
    auto_stop_on_win=st.booleans(),
)


def _illegal_actions(state: CantStopState) -> list:
    """Actions that are surely illegal in ``state`` (wrong phase, or a pairing not on offer)."""
    wrong = [Bank()] if state.phase is not Phase.DECIDE else [Roll((1, 2, 3, 4)), Choose((7,))]
    if state.phase is Phase.CHOOSE:
        offered = set(state.legal_actions())
        wrong += [Choose((c,)) for c in COLUMNS if Choose((c,)) not in offered][:2]
        wrong.append(StartWith(0))
    if state.phase is Phase.ROLL:
        wrong += [Roll((0, 1, 1, 1)), RollAgain()]
    return wrong


def _check(state: CantStopState, previous: CantStopState | None, turn_start: tuple, owners: dict) -> None:
    config = state.config
    for column in COLUMNS:
        top = config.height(column)
        assert 0 <= state.runner(column) <= top
        assert all(0 <= state.marker(seat, column) <= top for seat in range(state.num_players))
    assert len(state.runner_map()) <= config.num_runners
    for column, seat in owners.items():
        assert state.owner(column) == seat, "a claimed column stays claimed by the same seat (A.7)"
    for column, seat in state.claimed_map().items():
        owners.setdefault(column, seat)
        assert all(state.marker(s, column) == 0 for s in range(state.num_players) if s != seat)
        assert state.runner(column) == 0
        assert state.marker(seat, column) == config.height(column)
    if state.phase is Phase.OVER:
        assert state.winner is not None
        assert state.columns_claimed(state.winner) >= config.columns_to_win
        assert state.runner_map() == {}
    if previous is not None and previous.phase is Phase.ROLL and state.last_bust:
        assert state.markers == turn_start, "a bust restores exactly the turn's start markers (A.5.3)"
        assert state.runner_map() == {} and state.active == (previous.active + 1) % state.num_players
    if previous is not None and state.phase in (Phase.CHOOSE, Phase.DECIDE):
        assert state.markers == turn_start, "markers move only when banking (A.5.5)"
        assert all(b >= a for a, b in zip(previous.runners, state.runners)), "runners only climb (A.6)"
    assert CantStopState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@settings(max_examples=150, deadline=None)
@given(config=variants, players=st.integers(1, 4), seed=st.integers(0, 2**32 - 1),
       bank_chance=st.floats(0.05, 0.9))
def test_random_play_keeps_the_invariants(config, players, seed, bank_chance):
    rng = random.Random(seed)
    state = CantStopState.new(players, config)
    owners: dict[int, int] = {}
    turn_start = state.markers
    _check(state, None, turn_start, owners)
    for _ in range(MAX_STEPS):
        if state.phase is Phase.OVER:
            break
        wrong = rng.choice(_illegal_actions(state))
        before = state.to_dict()
        with pytest.raises(IllegalMove):
            state.apply(wrong)
        assert state.to_dict() == before
        if state.current_player == CHANCE:
            if state.phase is Phase.FIRST_PLAYER:
                action = StartWith(rng.randrange(players))
            else:
                action = Roll(tuple(rng.randint(1, 6) for _ in range(4)))
        elif state.phase is Phase.DECIDE:
            action = Bank() if rng.random() < bank_chance else RollAgain()
        else:
            action = rng.choice(state.legal_actions())
        previous, state = state, state.apply(action)
        _check(state, previous, turn_start, owners)
        if state.turn != previous.turn:
            turn_start = state.markers


def test_a4_winner_check_also_runs_to_the_end():
    """A game of the default variant between two greedy random players ends with a winner (A.4)."""
    rng = random.Random(4)
    state = CantStopState.new(2).apply(StartWith(0))
    for _ in range(20000):
        if state.phase is Phase.OVER:
            break
        if state.phase is Phase.ROLL:
            state = state.apply(Roll(tuple(rng.randint(1, 6) for _ in range(4))))
        elif state.phase is Phase.DECIDE:
            state = state.apply(Bank() if rng.random() < 0.3 else RollAgain())
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    assert state.phase is Phase.OVER and state.columns_claimed(state.winner) >= 3
