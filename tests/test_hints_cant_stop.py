"""The first Can't Stop advisor (companion/hints/cant_stop.py): legal, honest numbers, fast, better than chance."""

from __future__ import annotations

import dataclasses
import random
import statistics
import time
from fractions import Fraction

import pytest

from companion import odds
from companion.games.base import CHANCE
from companion.games.cant_stop import (
    Bank, CantStopConfig, CantStopState, Choose, Phase, Roll, RollAgain, StartWith, roll_distribution)
from companion.hints import cant_stop as hints
from companion.hints.cant_stop import Hint, advise, bust_chance, expected_gain, turn_value
from companion.simulate import run_simulation


def make(phase: Phase, markers: dict | None = None, runners: dict | None = None, claimed: dict | None = None,
         dice: tuple = (), **config) -> CantStopState:
    """A two-player state with seat 0 to act: markers {seat: {column: height}}, runners and claimed by column."""
    state = CantStopState.new(2, CantStopConfig(**config))
    rows = [[0] * 11, [0] * 11]
    for seat, columns in (markers or {}).items():
        for column, height in columns.items():
            rows[seat][column - 2] = height
    owner, runs = [-1] * 11, [0] * 11
    for column, seat in (claimed or {}).items():
        owner[column - 2] = seat
    for column, height in (runners or {}).items():
        runs[column - 2] = height
    return dataclasses.replace(state, phase=phase, active=0, turn=1, markers=tuple(map(tuple, rows)),
                               claimed=tuple(owner), runners=tuple(runs), dice=tuple(dice))

VARIANTS = [
    CantStopConfig(),
    CantStopConfig(num_runners=2, pairing_rule="must_maximize_runners"),
    CantStopConfig(columns_to_win=1, auto_stop_on_win=True),
    CantStopConfig(num_runners=4, columns_to_win=2),
]


def positions(seed: int, config: CantStopConfig, players: int, games: int = 3):
    """Every decision position of a few seeded games where seat 0 follows the advice, others play randomly."""
    rng = random.Random(seed)
    for _ in range(games):
        state = CantStopState.new(players, config)
        while state.phase is not Phase.OVER:
            if state.current_player == CHANCE:
                state = state.apply(StartWith(rng.randrange(players)) if state.phase is Phase.FIRST_PLAYER
                                    else Roll(tuple(rng.randint(1, 6) for _ in range(4))))
                continue
            yield state
            hint = advise(state, state.active)
            state = state.apply(hint.action if state.active == 0 else rng.choice(state.legal_actions()))


@pytest.mark.parametrize("config", VARIANTS)
@pytest.mark.parametrize("players", [1, 3])
def test_advice_is_legal_in_every_decision_position(config, players):
    phases = set()
    for state in positions(players, config, players):
        hint = advise(state, state.active)
        phases.add(state.phase)
        assert hint.action in state.legal_actions()
        assert isinstance(hint.reason, str) and hint.reason and "\n" not in hint.reason
        assert 0.0 <= hint.numbers["bust_probability"] <= 1.0 and hint.numbers["expected_gain"] >= 0.0
        assert hint.numbers["turn_value"] >= 0.0
        if state.phase is Phase.DECIDE:
            assert hint.numbers["bust_probability"] == float(odds.bust_probability(state))
        else:
            after = state.apply(hint.action)
            if after.phase is Phase.DECIDE:
                assert hint.numbers["bust_probability"] == float(odds.bust_probability(after))
    assert phases == {Phase.CHOOSE, Phase.DECIDE}


def test_bust_chance_equals_the_odds_module_on_random_positions():
    for state in positions(11, CantStopConfig(num_runners=2), 2, games=2):
        assert bust_chance(state) == odds.bust_probability(state)


def test_expected_gain_matches_enumeration_with_the_engine():
    """The advisor's fast look-ahead equals the best engine choice of every roll (A.6), busts adding 0."""
    for config in VARIANTS[:2]:
        for state in list(positions(5, config, 2, games=1))[:40]:
            if state.phase is not Phase.DECIDE:
                continue
            base = turn_value(state)
            total = 0.0
            for roll, p in roll_distribution():
                chosen = dataclasses.replace(state, phase=Phase.CHOOSE, dice=roll)
                gains = [turn_value(chosen.apply(c)) - base for c in state.choices_for(roll)]
                total += float(p) * max(gains, default=0.0)
            assert expected_gain(state) == pytest.approx(total, abs=1e-9)


def test_banks_when_banking_wins():
    state = make(Phase.DECIDE, claimed={2: 0, 12: 0}, markers={0: {2: 3, 12: 3}}, runners={4: 7, 7: 1})
    hint = advise(state, 0)
    assert hint.action == Bank() and hint.numbers["win_by_banking"] == 1.0 and "wins" in hint.reason


def test_chooses_the_pairing_that_lets_banking_win():
    state = make(Phase.CHOOSE, claimed={2: 0, 12: 0}, markers={0: {2: 3, 12: 3}}, runners={4: 6},
                 dice=(2, 2, 3, 5))  # (4, 8) tops column 4; (5, 7) does not
    hint = advise(state, 0)
    assert hint.action == Choose((4, 8)) and hint.numbers["win_by_banking"] == 1.0


def test_rolls_again_without_risk_and_banks_when_every_roll_busts():
    early = make(Phase.DECIDE, runners={7: 1})
    hint = advise(early, 0)
    assert hint.action == RollAgain() and hint.numbers["bust_probability"] == 0.0
    stuck = make(Phase.DECIDE, runners={6: 11, 7: 13, 8: 11}, columns_to_win=4)  # all runners at the top
    hint = advise(stuck, 0)
    assert hint.action == Bank() and hint.numbers["bust_probability"] == 1.0
    assert hint.numbers["steps_at_risk"] == 35.0 and "35 steps" in hint.reason


def test_banks_big_progress_on_risky_columns():
    state = make(Phase.DECIDE, runners={2: 2, 3: 4, 12: 2})  # 91/162 bust chance
    hint = advise(state, 0)
    assert hint.action == Bank()
    assert Fraction(hint.numbers["bust_probability"]).limit_denominator(1296) == Fraction(91, 162)


def test_no_advice_outside_the_seats_own_decisions():
    with pytest.raises(ValueError, match="no decision"):
        advise(CantStopState.new(2), 0)
    with pytest.raises(ValueError, match="no decision"):
        advise(make(Phase.ROLL), 0)
    with pytest.raises(ValueError, match="no decision"):
        advise(make(Phase.DECIDE, runners={7: 1}), 1)


def test_hint_is_frozen_and_reason_goes_through_translation(monkeypatch):
    hint = advise(make(Phase.DECIDE, runners={7: 1}), 0)
    assert isinstance(hint, Hint)
    with pytest.raises(dataclasses.FrozenInstanceError):
        hint.reason = "x"  # type: ignore[misc]
    monkeypatch.setattr(hints, "_", lambda text: "<" + text + ">")
    assert advise(make(Phase.DECIDE, runners={7: 1}), 0).reason.startswith("<Roll again")


def test_advice_takes_a_few_ms_at_most():
    states = list(positions(3, CantStopConfig(), 2, games=2))
    times = []
    for state in states:
        start = time.perf_counter()
        advise(state, state.active)
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.003


def test_advisor_beats_random_in_both_seat_orders():
    """200 two-player games, 100 in each seat order, seed 1: measured 198 advisor wins (99%; 992 and 993
    of 1000 per order). The bound, 90%, leaves room for tuning without hiding a real regression."""
    first = run_simulation("cant-stop", ["advisor", "random"], 100, seed=1)
    second = run_simulation("cant-stop", ["random", "advisor"], 100, seed=1)
    assert first["wins"]["advisor"] + second["wins"]["advisor"] >= 180
