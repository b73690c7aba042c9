"""The Can't Stop advisor (companion/hints/cant_stop*.py): legal, exact odds, exact turn search, sensible
race play, honest one-line reasons."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import numpy as np
import pytest

from companion.agents import run_simulation
from companion.games import CHANCE
from companion.games.cant_stop import (Bank, CantStopConfig, CantStopState, Choose, Phase, Roll, RollAgain, StartWith,
    bust_chance, odds, roll_distribution)
from companion.hints.cant_stop import Hint, advise, steps_at_risk
from companion.hints.cant_stop import advisor as hints
from companion.hints.cant_stop import search as cant_stop_search
from companion.hints.cant_stop import threats as cant_stop_threats
from companion.hints.cant_stop.advisor import threats
from companion.hints.cant_stop.search import search_for
from companion.hints.cant_stop.threats import THREAT_SURVIVAL, claim_chances, claim_table, threatened, threatened_turns
from companion.hints.cant_stop.turn import RunnerGrid
from companion.hints.cant_stop.value import (EFFORT_CAP, FALLBACK_CAP, column_chances, column_efforts, expected_turns,
    turns_from_efforts)

HEIGHTS = CantStopConfig().column_heights


def make(phase: Phase, markers: dict | None = None, runners: dict | None = None, claimed: dict | None = None,
         dice: tuple = (), players: int = 2, **config) -> CantStopState:
    """Seat 0 to act: markers {seat: {column: height}}, runners {column: height}, claimed {column: seat}."""
    state = CantStopState.new(players, CantStopConfig(**config))
    rows = [[0] * 11 for _ in range(players)]
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


def positions(seed: int, config: CantStopConfig, players: int, games: int = 1):
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
            action = advise(state, 0).action if state.active == 0 else rng.choice(state.legal_actions())
            state = state.apply(action)


@pytest.mark.parametrize("config", VARIANTS)
@pytest.mark.parametrize("players", [1, 3])
def test_advice_is_legal_in_every_decision_position(config, players):
    phases = set()
    for state in positions(players, config, players):
        hint = advise(state, state.active)
        phases.add(state.phase)
        assert hint.action in state.legal_actions()
        assert isinstance(hint.reason, str) and hint.reason and "\n" not in hint.reason
        assert 0.0 <= hint.numbers["bust_probability"] <= 1.0 and hint.numbers["steps_at_risk"] >= 0.0
        if players == 1:
            assert hint.numbers["expected_turns"] >= 0.0
        else:
            assert 0.0 <= hint.numbers["win_probability"] <= 1.0
        if state.phase is Phase.DECIDE:
            assert hint.numbers["bust_probability"] == float(odds.bust_probability(state))
        else:
            after = state.apply(hint.action)
            if after.phase is Phase.DECIDE:
                assert hint.numbers["bust_probability"] == float(odds.bust_probability(after))
    assert phases == {Phase.CHOOSE, Phase.DECIDE}


def test_bust_chance_equals_the_odds_module_on_random_positions():
    for state in positions(11, CantStopConfig(num_runners=2), 2, games=1):
        assert bust_chance(state) == odds.bust_probability(state)


# -- the exact turn search ----------------------------------------------------------------------------


def _brute_force(state: CantStopState, bank, bust: float, memo: dict) -> float:
    """Best expected utility from a DECIDE state by plain recursion over the engine's rolls and choices."""
    key = state.runners
    if key not in memo:
        pieces = np.asarray(state.markers[0], float)
        for column, height in state.runner_map().items():
            pieces[column - 2] = height
        rolling = 0.0
        for roll, p in roll_distribution():
            choices = state.choices_for(roll)
            if not choices:
                rolling += float(p) * bust
                continue
            rolling += float(p) * max(_brute_force(dataclasses.replace(state, runners=state._apply_totals(c.totals)),
                                                   bank, bust, memo) for c in choices)
        memo[key] = max(float(bank(pieces[None])[0]), rolling)
    return memo[key]


def test_runner_grid_equals_brute_force_recursion():
    weights = np.linspace(0.1, 1.1, 11)

    def bank(pieces):
        return pieces @ weights - 3.0 * (pieces >= np.asarray(HEIGHTS)).sum(axis=1)

    state = make(Phase.DECIDE, markers={0: {3: 2}}, runners={3: 3, 11: 2, 12: 1}, players=1)
    grid = RunnerGrid((1, 9, 10), (3, 1, 1), (5, 5, 3), np.asarray(state.markers[0], float), bank, -1.0)
    memo: dict = {}
    assert grid.value((3, 2, 1)) == pytest.approx(_brute_force(state, bank, -1.0, memo), abs=1e-9)
    for runners, value in memo.items():
        heights = (runners[1], runners[9], runners[10])
        assert grid.value(heights) == pytest.approx(value, abs=1e-9)
    assert grid.bust((3, 2, 1)) == pytest.approx(float(odds.bust_probability(state)), abs=1e-12)


def test_runner_grid_bust_odds_match_the_published_6_7_8():
    grid = RunnerGrid((4, 5, 6), (1, 1, 1), (11, 13, 11), np.zeros(11), lambda p: -p.sum(axis=1), 0.0)
    assert Fraction(grid.bust((1, 1, 1))).limit_denominator(1296) == Fraction(13, 162)
    assert grid.value((1, 1, 1)) == max(grid.bank_value((1, 1, 1)), grid.roll_value((1, 1, 1)))


# -- the value function ---------------------------------------------------------------------------------


def test_column_chances_are_exact():
    q = column_chances()
    assert q[0] == pytest.approx(171 / 1296) and q[10] == pytest.approx(171 / 1296)  # two 1s / two 6s
    assert np.argmax(q) == 5 and 0.64 < q[5] < 0.65  # 7 is the likeliest total


def _turns(markers: dict[int, int], claimed: tuple[int, ...] = ()) -> float:
    pieces = np.zeros((1, 11))
    closed = np.zeros((1, 11), bool)
    for column, height in markers.items():
        pieces[0, column - 2] = height
    for column in claimed:
        closed[0, column - 2] = True
    return float(expected_turns(pieces, closed, np.asarray([len(claimed)]), HEIGHTS, 3)[0])


def test_expected_turns_from_the_start_and_when_won():
    assert 6.0 <= _turns({}) <= 8.5  # solo advisor games average about 7.3
    assert _turns({2: 3, 12: 3, 7: 13}, claimed=(2, 7, 12)) == 0.0


def test_expected_turns_fall_with_progress_and_claims():
    assert _turns({7: 6}) < _turns({})
    assert _turns({7: 12}) < _turns({7: 6})
    assert _turns({7: 13}, claimed=(7,)) < _turns({7: 12})
    assert _turns({6: 8, 8: 8}) < _turns({6: 8})


# -- decisions --------------------------------------------------------------------------------------------


def test_banks_when_banking_wins():
    state = make(Phase.DECIDE, claimed={2: 0, 12: 0}, markers={0: {2: 3, 12: 3}}, runners={4: 7, 7: 1})
    hint = advise(state, 0)
    assert hint.action == Bank() and hint.numbers["win_by_banking"] == 1.0 and "wins" in hint.reason
    assert hint.numbers["win_probability"] == 1.0


def test_chooses_the_pairing_that_lets_banking_win():
    state = make(Phase.CHOOSE, claimed={2: 0, 12: 0}, markers={0: {2: 3, 12: 3}}, runners={4: 6},
                 dice=(2, 2, 3, 5))  # (4, 8) tops column 4; (5, 7) does not
    hint = advise(state, 0)
    assert hint.action == Choose((4, 8)) and hint.numbers["win_by_banking"] == 1.0


@pytest.mark.parametrize("players", [1, 2])
def test_rolls_again_without_risk_and_banks_when_every_roll_busts(players):
    hint = advise(make(Phase.DECIDE, runners={7: 1}, players=players), 0)
    assert hint.action == RollAgain() and hint.numbers["bust_probability"] == 0.0
    stuck = make(Phase.DECIDE, runners={6: 11, 7: 13, 8: 11}, columns_to_win=4, players=players)
    hint = advise(stuck, 0)
    assert hint.action == Bank() and hint.numbers["bust_probability"] == 1.0
    assert hint.numbers["steps_at_risk"] == 35.0
    assert hint.reason == "Bank: 100% bust risk would cost 35 steps in columns 6, 7, 8"


def test_a_roll_that_cannot_bust_names_no_bust():
    """A.5.3: with a runner still off the board and no column claimed every roll can be used, so the reason
    names no bust chance and no "if you bust" (issue 37: "42 % if you bust" at 0 %)."""
    two = advise(make(Phase.DECIDE, runners={7: 1}, players=2), 0)
    assert two.numbers["bust_probability"] == 0.0
    assert "bust" not in two.reason.replace("cannot bust", "")
    assert two.reason == ("Roll again: the next roll cannot bust; win chance against an equal player if you bank "
                          f"now: {round(two.numbers['win_chance_bank'] * 100)}%")
    solo = advise(make(Phase.DECIDE, runners={7: 1}, players=1), 0)
    assert solo.reason.startswith("Roll again: the next roll cannot bust, ") and "turns saved" in solo.reason
    risky = advise(make(Phase.DECIDE, runners={6: 2, 7: 2, 8: 1}, players=2), 0)
    assert risky.action == RollAgain() and "8% bust risk" in risky.reason and "if you bust" in risky.reason


def test_a_chance_that_rounds_to_nought_is_said_as_under_one_percent():
    assert hints.risk_text(1 / 1296) == "under 1%"
    assert hints.risk_text(0.0) == "0%" and hints.risk_text(0.08) == "8%"


def test_banks_big_progress_on_risky_columns():
    state = make(Phase.DECIDE, runners={2: 2, 3: 4, 12: 2}, players=1)  # 91/162 bust chance
    hint = advise(state, 0)
    assert hint.action == Bank()
    assert Fraction(hint.numbers["bust_probability"]).limit_denominator(1296) == Fraction(91, 162)
    assert hint.reason == "Bank: 56% bust risk would cost 8 steps in columns 2, 3, 12"
    assert steps_at_risk(state, 0) == {2: 2, 3: 4, 12: 2}


def test_roll_reason_gives_the_turns_saved():
    hint = advise(make(Phase.DECIDE, runners={6: 2, 7: 2, 8: 1}, players=1), 0)
    assert hint.action == RollAgain()
    saved = hint.numbers["roll_value"] - hint.numbers["bank_value"]
    assert saved > 0 and f"{saved:.1f} turns saved" in hint.reason and "8% bust risk" in hint.reason


def test_decide_follows_the_exact_search():
    state = make(Phase.DECIDE, runners={5: 3, 6: 4, 9: 2}, players=1)
    valuation = search_for(state).valuation(state)
    hint = advise(state, 0)
    assert (hint.action == RollAgain()) == (valuation.roll > valuation.bank)
    assert hint.numbers["expected_turns"] == pytest.approx(-max(valuation.roll, valuation.bank))


def test_presses_on_when_the_opponent_is_about_to_win():
    runners = {4: 5, 5: 6, 10: 5}
    calm = make(Phase.DECIDE, runners=runners, markers={1: {6: 2}})
    threat = make(Phase.DECIDE, runners=runners, markers={1: {2: 3, 12: 3, 7: 12}}, claimed={2: 1, 12: 1})
    assert advise(calm, 0).action == Bank()
    assert advise(threat, 0).action == RollAgain()
    assert advise(threat, 0).numbers["win_probability"] < advise(calm, 0).numbers["win_probability"]


# -- the opponents' threats (cant-stop.md A.7: a claim wipes the others' markers) -------------------------


def test_claim_chances_follow_the_binomial_model():
    table = claim_table(HEIGHTS)
    q7, q2 = column_chances()[5], column_chances()[0]
    assert table[5, 1] == pytest.approx(THREAT_SURVIVAL * (1 - (1 - q7) ** 4))  # one space left in 7
    assert table[5, 1] == pytest.approx(0.738, abs=1e-3) and table[5, 2] == pytest.approx(0.651, abs=1e-3)
    assert table[0, 3] == pytest.approx(THREAT_SURVIVAL * (4 * q2 ** 3 * (1 - q2) + q2 ** 4))
    assert table[5, 5] == 0.0  # five spaces cannot be climbed in four rolls of this model
    progress = np.zeros((1, 11))
    progress[0, 5], progress[0, 6] = 12, 11  # column 7 one space from its top, column 8 at its top
    closed = np.zeros((1, 11), bool)
    closed[0, 6] = True
    chances = claim_chances(progress, closed, HEIGHTS)[0]
    assert chances[5] == pytest.approx(table[5, 1]) and chances[6] == 0.0
    assert chances[0] == pytest.approx(table[0, 3])  # column 2 from the bottom: three spaces left


def test_threatened_efforts_blend_towards_the_fallback():
    efforts = np.asarray([[10.0, 20.0, 80.0]])
    lost = np.asarray([[0.5, 0.0, 0.9]])
    assert threatened(efforts, lost)[0] == pytest.approx([10.0 + 0.5 * (FALLBACK_CAP - 10.0), 20.0, 80.0])


def test_threatened_turns_mix_keeping_and_losing_the_column():
    progress = np.zeros((1, 11))
    progress[0, 4], progress[0, 5] = 8, 9  # columns 6 and 7 well advanced
    efforts = column_efforts(progress, np.zeros((1, 11), bool), HEIGHTS)
    lost = np.zeros((1, 11))
    lost[0, 5] = 0.4  # column 7
    won = np.asarray([0])
    keep = turns_from_efforts(efforts, won, 3)[0]
    without = efforts.copy()
    without[0, 5] = EFFORT_CAP
    lose = turns_from_efforts(without, won, 3)[0]
    assert lose > keep + 1.0
    assert threatened_turns(efforts, won, 3, lost)[0] == pytest.approx(0.6 * keep + 0.4 * lose)
    assert threatened_turns(efforts, won, 3, np.zeros((1, 11)))[0] == pytest.approx(keep)


def test_progress_in_a_column_the_opponent_is_about_to_claim_is_worth_less():
    """Banking 3 spaces in column 8 against 3 in column 6: equal alone, but the opponent stands one space
    below the top of 8, so 8 is worth less with them at the table."""
    search = search_for(make(Phase.DECIDE, runners={8: 3}, markers={1: {8: 10}}))
    pieces = np.zeros((2, 11))
    pieces[0, 6], pieces[1, 4] = 3, 3  # column 8 / column 6
    with_8, with_6 = search.bank_utility(pieces)
    assert with_8 < with_6 - 0.02
    solo = search_for(make(Phase.DECIDE, runners={8: 3}, players=1)).bank_utility(pieces)
    assert solo[0] == pytest.approx(solo[1])


def test_avoids_investing_in_a_column_the_opponent_is_about_to_claim(monkeypatch):
    """Dice 5 2 4 4 pair as 7+8 or 6+9. Our marker is low in 8, the opponent's two spaces below its top
    (58 % to claim it on their next turn): the advisor takes 6+9 and says why; blind to threats it
    would take 7+8."""
    state = make(Phase.CHOOSE, markers={0: {8: 1}, 1: {8: 9}}, dice=(5, 2, 4, 4))
    hint = advise(state, 0)
    assert hint.action == Choose((6, 9))
    assert hint.numbers["threat_column"] == 8.0 and hint.numbers["threat_chance"] == pytest.approx(0.580, abs=1e-3)
    assert hint.reason.endswith("; column 8 is nearly lost: the opponent claims it next turn with 58%")
    assert threats(state, 0) == {8: pytest.approx(0.580, abs=1e-3)}
    monkeypatch.setattr(cant_stop_threats, "THREAT_WEIGHT", 0.0)
    cant_stop_search._CACHE.clear()
    assert advise(state, 0).action == Choose((7, 8))
    cant_stop_search._CACHE.clear()


def test_races_for_a_contested_column_it_can_still_take_first(monkeypatch):
    """We stand at 9 of 13 in column 7, the opponent at 12 (74 % to claim it on their next turn). Dice
    5 6 1 2 offer 7 twice (to 11, two spaces short, and the turn goes on) or 6+8: the advisor races for 7,
    whose claim would wipe the opponent's marker (A.7); counting only their threat and not ours, it
    would give 7 up and take 6+8."""
    state = make(Phase.CHOOSE, markers={0: {7: 9}, 1: {7: 12}}, dice=(5, 6, 1, 2))
    cant_stop_search._CACHE.clear()
    assert advise(state, 0).action == Choose((7, 7))
    monkeypatch.setattr(cant_stop_threats, "THREAT_SYMMETRIC", False)
    cant_stop_search._CACHE.clear()
    assert advise(state, 0).action == Choose((6, 8))
    cant_stop_search._CACHE.clear()


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


def test_advisor_beats_the_rule_of_28():
    """40 two-player games, 20 in each seat order, seed 1 (the full benchmark is 2 x 2000 games)."""
    first = run_simulation("cant-stop", ["advisor", "rule28"], 20, seed=1)
    second = run_simulation("cant-stop", ["rule28", "advisor"], 20, seed=1)
    assert first["wins"]["advisor"] + second["wins"]["advisor"] >= 26


# -- the fitting script and the timing benchmark -------------------------------------------------------------


def test_fit_recovers_a_known_shared_slope():
    from companion.bench.cant_stop_tables import fit
    rng = np.random.default_rng(3)
    samples = []
    for _ in range(600):
        progress = np.floor(rng.random(11) * np.asarray(HEIGHTS))
        won = int(rng.integers(0, 3))
        samples.append((progress, np.zeros(11, bool), won, 0.0))
    pieces = np.asarray([s[0] for s in samples])
    truth = {n: np.asarray([1.0] + [0.1] * n + [0.02]) for n in (1, 2, 3)}
    won = np.asarray([s[2] for s in samples])
    turns = expected_turns(pieces, np.zeros((600, 11), bool), won, HEIGHTS, 3, table=truth)
    table, stats = fit([(p, c, w, t) for (p, c, w, _), t in zip(samples, turns)], HEIGHTS)
    for need in (1, 2, 3):
        assert table[need] == pytest.approx(truth[need], abs=1e-6)
        assert stats[f"rms_{need}"] < 1e-6


def test_bench_reports_decision_times():
    from companion.bench.advisor import measure
    figures = measure("cant-stop", games=1, seed=3)
    phases = figures["by_phase"]
    assert set(phases) == {"choose", "decide"}
    assert figures["decisions"] == phases["choose"]["decisions"] + phases["decide"]["decisions"] > 0
    assert 0 < figures["median_ms"] <= figures["p95_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert 0 <= figures["cpu_median_ms"] <= figures["cpu_p99_ms"] <= figures["cpu_max_ms"]
    assert max(p["max_ms"] for p in phases.values()) == figures["max_ms"]
    assert (figures["players"], figures["opponent"]) == (2, "rule28")
