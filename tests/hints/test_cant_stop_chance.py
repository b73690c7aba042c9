"""The win chance a Can't Stop hint shows (companion.hints.cant_stop.chance) and the calibration that
checks it (companion simulate --calibration)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.agents.base import calibration
from companion.agents.cant_stop import AGENTS, _chance
from companion.cli import main
from companion.games.cant_stop import CantStopState, Phase
from companion.hints.cant_stop import advise
from companion.hints.cant_stop.chance import win_chance


def played(seed: int, actions: int) -> CantStopState:
    """A two-player advisor game after ``actions`` actions (chance included)."""
    rng, state = random.Random(seed), CantStopState.new(2)
    for _ in range(actions):
        if state.phase is Phase.OVER:
            break
        state = state.apply(_chance(state, rng) if state.current_player < 0 else AGENTS["advisor"](state, rng))
    return state


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 120))
def test_two_players_chances_are_each_others_complement(seed, actions):
    state = played(seed, actions)
    if state.phase is Phase.OVER or state.active < 0:
        return
    me, other = state.active, 1 - state.active
    mine, theirs = win_chance(state, me), win_chance(state, other, moves_first=False)
    assert 0.0 <= mine <= 1.0 and mine + theirs == pytest.approx(1.0)


def test_moving_first_is_worth_something_and_the_start_is_even_otherwise():
    state = played(1, 1)  # the first player drawn, nothing rolled yet
    assert state.phase is Phase.ROLL
    assert 0.5 < win_chance(state, state.active) < 0.62  # equal boards: only the first move differs


def test_a_decision_hint_shows_the_calibrated_chances_in_plain_words():
    for seed in range(40):
        state = played(seed, 30)
        if state.phase is Phase.DECIDE and len(state.runner_map()) and not state.would_win_by_banking():
            hint = advise(state, state.active)
            if "Roll again" in hint.reason:
                break
    else:
        pytest.fail("no roll-again decision in 40 games")
    bank, bust = hint.numbers["win_chance_bank"], hint.numbers["win_chance_bust"]
    assert 0.0 <= bust <= bank <= 1.0  # banking keeps the runners' progress
    assert "win chance against an equal player" in hint.reason
    if hint.numbers["bust_probability"] > 0:  # both outcomes can happen: both chances are named
        assert f"{round(bank * 100)}% if you bank" in hint.reason and f"{round(bust * 100)}% if you bust" in hint.reason
    else:  # the next roll cannot bust: the hint names no bust (issue 37)
        assert "cannot bust" in hint.reason and f"if you bank now: {round(bank * 100)}%" in hint.reason
        assert "if you bust" not in hint.reason


def test_calibration_bins_forecasts_by_their_chance():
    result = calibration([(0.05, False), (0.15, True), (0.12, False), (0.95, True), (1.0, True)])
    assert result["bins"] == [{"predicted": 0.05, "observed": 0.0, "n": 1},
                              {"predicted": 0.135, "observed": 0.5, "n": 2},
                              {"predicted": 0.975, "observed": 1.0, "n": 2}]
    assert result["brier"] == pytest.approx((0.05 ** 2 + 0.85 ** 2 + 0.12 ** 2 + 0.05 ** 2 + 0) / 5, abs=1e-5)


def test_simulate_calibration_counts_every_advisor_turn(capsys):
    assert main(["simulate", "cant-stop", "--agents", "advisor,rule28", "--games", "4", "--seed", "3",
                 "--calibration", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    bins = result["calibration"]["bins"]
    assert sum(b["n"] for b in bins) >= 4 * 3 and all(0 <= b["observed"] <= 1 for b in bins)
    assert main(["simulate", "ludo", "--agents", "advisor,random", "--games", "1", "--calibration"]) == 2
    assert "only cant-stop" in capsys.readouterr().err
