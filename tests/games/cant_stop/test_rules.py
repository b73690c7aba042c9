"""Can't Stop rules engine against ../shared/rules/cant-stop.md, one test per rule or A.8 row.

Test names carry the section (``test_a6_...``, ``test_a8_...``). Heights are spaces from the bottom;
column heights are those of A.2 (2:3, 3:5, 4:7, 5:9, 6:11, 7:13, 8:11, 9:9, 10:7, 11:5, 12:3).
A.8's last row (checking the physical board against the record) belongs to the session, not the engine.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from fractions import Fraction

import pytest

from companion.errors import IllegalMove, VariantError
from companion.games import CHANCE, TERMINAL
from companion.games.cant_stop import (COLUMNS, Bank, CantStopConfig, CantStopGame, CantStopState, Choose, Phase,
    Roll, RollAgain, StartWith, action_from_dict, action_to_dict, odds, pairings)


def make(phase: Phase = Phase.ROLL, players: int = 2, active: int = 0, markers: dict | None = None,
         runners: dict | None = None, claimed: dict | None = None, dice: tuple = (), **config) -> CantStopState:
    """A state mid-game: markers {seat: {column: height}}, runners {column: height}, claimed {column: seat}."""
    state = CantStopState.new(players, CantStopConfig(**config))
    rows = [[0] * 11 for _ in range(players)]
    for seat, columns in (markers or {}).items():
        for column, height in columns.items():
            rows[seat][column - 2] = height
    owner = [-1] * 11
    for column, seat in (claimed or {}).items():
        owner[column - 2] = seat
    runs = [0] * 11
    for column, height in (runners or {}).items():
        runs[column - 2] = height
    return replace(state, phase=phase, active=active, turn=1, markers=tuple(map(tuple, rows)),
                   claimed=tuple(owner), runners=tuple(runs), dice=tuple(dice))


def choices(state: CantStopState, dice: tuple[int, int, int, int]) -> set[tuple[int, ...]]:
    return {c.totals for c in state.choices_for(dice)}


# -- A.2 / A.3 / A.5.2 ------------------------------------------------------------------------------


def test_a2_column_heights():
    config = CantStopConfig()
    assert [config.height(c) for c in COLUMNS] == [3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3]


def test_a3_first_player_is_a_chance_outcome_with_equal_odds():
    state = CantStopGame(3).new_initial_state()
    assert state.current_player == CHANCE and state.phase is Phase.FIRST_PLAYER
    assert state.chance_outcomes() == tuple((StartWith(s), Fraction(1, 3)) for s in range(3))
    started = state.apply(StartWith(2))
    assert (started.active, started.phase, started.turn) == (2, Phase.ROLL, 1)


def test_a3_bad_or_repeated_start_is_illegal():
    state = CantStopState.new(2)
    with pytest.raises(IllegalMove) as error:
        state.apply(StartWith(2))
    assert error.value.rule == "cant-stop.md A.3"
    with pytest.raises(IllegalMove) as error:
        state.apply(StartWith(0)).apply(StartWith(1))
    assert error.value.rule == "cant-stop.md A.3"


def test_a5_2_three_splits_and_identical_splits_collapse():
    assert pairings((1, 2, 3, 4)) == ((3, 7), (4, 6), (5, 5))
    assert pairings((2, 2, 3, 3)) == ((4, 6), (5, 5))
    assert pairings((1, 1, 1, 1)) == ((2, 2),)


# -- A.5 turn flow ----------------------------------------------------------------------------------


def test_a5_roll_choose_decide_roll_again_keeps_the_turn():
    state = CantStopState.new(2).apply(StartWith(0)).apply(Roll((1, 5, 2, 6)))
    assert state.phase is Phase.CHOOSE and state.current_player == 0 and state.dice == (1, 5, 2, 6)
    state = state.apply(Choose((6, 8)))
    assert state.phase is Phase.DECIDE and state.runner_map() == {6: 1, 8: 1}
    assert state.legal_actions() == (RollAgain(), Bank())
    again = state.apply(RollAgain())
    assert (again.phase, again.active, again.turn, again.runner_map()) == (Phase.ROLL, 0, 1, {6: 1, 8: 1})


def test_a5_5_bank_turns_runners_into_markers_and_passes_play():
    state = make(Phase.DECIDE, markers={0: {6: 2}}, runners={6: 5, 9: 1})
    banked = state.apply(Bank())
    assert banked.marker_map(0) == {6: 5, 9: 1}
    assert banked.runner_map() == {} and banked.active == 1 and banked.turn == 2
    assert banked.phase is Phase.ROLL and banked.current_player == CHANCE and not banked.last_bust


def test_a5_3_bust_restores_start_markers_clears_runners_and_passes_play():
    state = make(Phase.ROLL, markers={0: {6: 2, 8: 1}, 1: {7: 4}}, runners={6: 6, 7: 3, 8: 4})
    bust = state.apply(Roll((1, 1, 1, 1)))  # only 2+2: no runner in column 2 and none left
    assert bust.marker_map(0) == {6: 2, 8: 1} and bust.marker_map(1) == {7: 4}
    assert bust.runner_map() == {} and bust.active == 1 and bust.turn == 2
    assert bust.last_bust and bust.dice == (1, 1, 1, 1) and bust.phase is Phase.ROLL


def test_a5_solo_play_keeps_the_same_seat():
    state = CantStopState.new(1).apply(StartWith(0)).apply(Roll((1, 5, 2, 6))).apply(Choose((6, 8)))
    banked = state.apply(Bank())
    assert (banked.active, banked.turn, banked.marker_map(0)) == (0, 2, {6: 1, 8: 1})
    busted = make(Phase.ROLL, players=1, runners={6: 1, 7: 1, 8: 1}).apply(Roll((1, 1, 1, 1)))
    assert (busted.active, busted.turn, busted.last_bust) == (0, 2, True)


# -- A.6 legality of totals -------------------------------------------------------------------------


def test_a6_both_usable_totals_must_both_be_used():
    state = make(Phase.CHOOSE, dice=(1, 5, 2, 6))
    assert choices(state, (1, 5, 2, 6)) == {(6, 8), (3, 11), (7, 7)}
    with pytest.raises(IllegalMove) as error:
        state.apply(Choose((6,)))
    assert error.value.rule == "cant-stop.md A.6"


def test_a6_competing_totals_with_one_runner_left_give_two_choices():
    state = make(Phase.CHOOSE, runners={5: 1, 9: 2}, dice=(1, 5, 2, 6))
    assert choices(state, (1, 5, 2, 6)) == {(6,), (8,), (3,), (11,), (7, 7)}
    assert state.apply(Choose((8,))).runner_map() == {5: 1, 8: 1, 9: 2}


def test_a6_existing_runner_plus_new_runner_uses_both_with_one_left():
    state = make(Phase.CHOOSE, runners={5: 1, 6: 3}, dice=(1, 5, 2, 6))
    assert (6, 8) in choices(state, (1, 5, 2, 6))
    assert state.apply(Choose((6, 8))).runner_map() == {5: 1, 6: 4, 8: 1}


def test_a6_same_total_twice_moves_one_runner_two_spaces_from_entry():
    state = make(Phase.CHOOSE, markers={0: {7: 4}}, dice=(1, 5, 2, 6))
    after = state.apply(Choose((7, 7)))
    assert after.runner_map() == {7: 6} and after.free_runners() == 2


def test_a6_entry_is_directly_above_own_marker_else_bottom():
    state = make(Phase.CHOOSE, markers={0: {6: 3}, 1: {8: 7}}, dice=(1, 5, 2, 6))
    assert state.apply(Choose((6, 8))).runner_map() == {6: 4, 8: 1}


def test_a6_other_players_markers_do_not_block():
    state = make(Phase.CHOOSE, markers={1: {6: 1, 8: 1}}, runners={6: 0}, dice=(1, 5, 2, 6))
    after = state.apply(Choose((6, 8)))
    assert after.runner_map() == {6: 1, 8: 1} and after.marker_map(1) == {6: 1, 8: 1}


def test_a6_runner_at_top_makes_its_total_unusable():
    state = make(Phase.CHOOSE, runners={6: 11, 7: 2, 9: 1}, dice=(1, 5, 2, 6))
    assert choices(state, (1, 5, 2, 6)) == {(7, 7)}  # 6 topped; 8, 3, 11: no runner left
    assert not state.usable(6) and not state.usable(8) and state.usable(7)


def test_a6_only_one_usable_total_is_used_and_the_other_ignored():
    state = make(Phase.CHOOSE, runners={6: 2, 2: 1, 12: 1}, dice=(1, 5, 5, 6))  # pairs (6,11), (7,10)
    assert choices(state, (1, 5, 5, 6)) == {(6,)}


def test_a6_config_must_maximize_runners_keeps_only_choices_moving_most_runners():
    free = make(Phase.CHOOSE, claimed={3: 1}, dice=(1, 2, 3, 4))
    assert choices(free, (1, 2, 3, 4)) == {(7,), (4, 6), (5, 5)}
    strict = make(Phase.CHOOSE, claimed={3: 1}, dice=(1, 2, 3, 4), pairing_rule="must_maximize_runners")
    assert choices(strict, (1, 2, 3, 4)) == {(4, 6)}  # (5, 5) moves one runner twice
    for fewer in ((7,), (5, 5)):
        with pytest.raises(IllegalMove) as error:
            strict.apply(Choose(fewer))
        assert error.value.rule == "cant-stop.md A.6"


def test_a6_the_order_of_the_chosen_totals_does_not_matter():
    state = make(Phase.CHOOSE, claimed={3: 1}, dice=(1, 2, 3, 4))
    assert state.apply(Choose((6, 4))) == state.apply(Choose((4, 6)))


# -- A.4 / A.7 ----------------------------------------------------------------------------------------


def test_a4_claiming_the_third_column_wins_at_once():
    state = make(Phase.DECIDE, claimed={2: 0, 12: 0}, markers={0: {2: 3, 12: 3}}, runners={4: 7})
    won = state.apply(Bank())
    assert won.phase is Phase.OVER and won.winner == 0 and won.current_player == TERMINAL
    assert won.claimed_map() == {2: 0, 4: 0, 12: 0} and won.turn == 1
    assert won.outcome().to_dict() == {"winner": 0, "placings": [0, 1], "scores": [3, 0]}
    with pytest.raises(IllegalMove) as error:
        won.apply(Roll((1, 2, 3, 4)))
    assert error.value.rule == "cant-stop.md A.4"


def test_a4_config_columns_to_win():
    state = make(Phase.DECIDE, runners={2: 3}, columns_to_win=1)
    assert state.would_win_by_banking() and state.apply(Bank()).winner == 0


def test_a7_bank_on_top_claims_and_removes_other_players_markers():
    state = make(Phase.DECIDE, players=3, markers={0: {5: 4}, 1: {5: 8, 6: 2}, 2: {5: 1}}, runners={5: 9})
    banked = state.apply(Bank())
    assert banked.claimed_map() == {5: 0}
    assert banked.marker_map(0) == {5: 9} and banked.marker_map(1) == {6: 2} and banked.marker_map(2) == {}
    assert not banked.usable(5)  # closed for the next player (A.7)
    assert choices(banked, (1, 4, 2, 3)) == {(3, 7), (4, 6)}  # (5, 5) is gone


def test_a7_claimed_column_is_closed_to_everybody():
    state = make(Phase.CHOOSE, active=1, claimed={6: 0, 8: 0}, dice=(1, 5, 2, 6))
    assert choices(state, (1, 5, 2, 6)) == {(3, 11), (7, 7)}


# -- A.8 edge cases -----------------------------------------------------------------------------------


def test_a8_split_with_one_claimed_and_one_open_column_uses_the_open_one():
    state = make(Phase.CHOOSE, claimed={8: 1}, dice=(1, 5, 2, 6))
    assert choices(state, (1, 5, 2, 6)) == {(6,), (3, 11), (7, 7)}
    assert state.apply(Choose((6,))).runner_map() == {6: 1}


def test_a8_all_splits_closed_or_topped_bust_and_restore_the_start_markers():
    # (4,6): 4 claimed, 6 topped; (3,7): 3 has no runner and none is left, 7 topped; (5,5): no runner.
    state = make(Phase.ROLL, markers={0: {6: 5, 8: 1}, 1: {4: 2}}, claimed={4: 1},
                 runners={6: 11, 7: 13, 8: 3})
    assert state.choices_for((1, 3, 2, 4)) == ()
    after = state.apply(Roll((1, 3, 2, 4)))
    assert after.marker_map(0) == {6: 5, 8: 1} and after.runner_map() == {}
    assert after.claimed_map() == {4: 1} and after.active == 1 and after.last_bust


def test_a8_all_three_runners_placed_new_total_unusable():
    state = make(Phase.CHOOSE, runners={6: 1, 7: 1, 8: 1}, dice=(1, 2, 5, 6))
    assert choices(state, (1, 2, 5, 6)) == {(6, 8), (7, 7)}  # (3, 11) is unusable
    assert not state.usable(3) and state.free_runners() == 0


def test_a8_same_total_twice_with_one_step_left_moves_one():
    state = make(Phase.CHOOSE, markers={0: {7: 10}}, runners={7: 12}, dice=(1, 6, 2, 5))
    assert Choose((7,)) in state.choices_for((1, 6, 2, 5)) and Choose((7, 7)) not in state.legal_actions()
    assert state.apply(Choose((7,))).runner(7) == 13


def test_a8_reaching_three_tops_then_busting_wins_nothing():
    state = make(Phase.CHOOSE, runners={2: 2, 3: 5, 12: 3}, dice=(1, 1, 3, 3))  # pairs (2,6), (4,4)
    topped = state.apply(Choose((2,)))
    assert topped.phase is Phase.DECIDE and topped.would_win_by_banking()  # not won before stopping
    busted = topped.apply(RollAgain()).apply(Roll((3, 3, 3, 3)))  # 6+6: no runner left for 6
    assert busted.claimed_map() == {} and busted.marker_map(0) == {} and busted.winner is None
    assert busted.phase is Phase.ROLL and busted.active == 1


def test_a8_config_auto_stop_on_win_banks_when_banking_wins():
    state = make(Phase.CHOOSE, runners={2: 2, 3: 5, 12: 3}, dice=(1, 1, 3, 3), auto_stop_on_win=True)
    won = state.apply(Choose((2,)))
    assert won.phase is Phase.OVER and won.winner == 0 and won.claimed_map() == {2: 0, 3: 0, 12: 0}


def test_a8_bank_on_top_removes_a_lower_marker_of_another_player():
    state = make(Phase.DECIDE, markers={1: {11: 2}}, runners={11: 5})
    banked = state.apply(Bank())
    assert banked.marker(1, 11) == 0 and banked.owner(11) == 0


def test_a8_one_marker_per_column_bank_moves_it_up():
    state = make(Phase.DECIDE, markers={0: {9: 3}}, runners={9: 6})
    banked = state.apply(Bank())
    assert banked.markers[0] == (0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0)


# -- illegal actions change nothing ---------------------------------------------------------------


ILLEGAL = [
    (Phase.FIRST_PLAYER, Roll((1, 2, 3, 4)), "cant-stop.md A.5"),
    (Phase.FIRST_PLAYER, Choose((7,)), "cant-stop.md A.5"),
    (Phase.FIRST_PLAYER, Bank(), "cant-stop.md A.5.4"),
    (Phase.ROLL, StartWith(0), "cant-stop.md A.3"),
    (Phase.ROLL, Roll((0, 1, 2, 3)), "cant-stop.md A.2"),
    (Phase.ROLL, Roll((1, 2, 3)), "cant-stop.md A.2"),  # type: ignore[arg-type]
    (Phase.ROLL, Roll((1, 2, 3, 7)), "cant-stop.md A.2"),
    (Phase.ROLL, Choose((7,)), "cant-stop.md A.5"),
    (Phase.ROLL, RollAgain(), "cant-stop.md A.5.4"),
    (Phase.ROLL, Bank(), "cant-stop.md A.5.4"),
    (Phase.CHOOSE, Roll((1, 2, 3, 4)), "cant-stop.md A.5"),
    (Phase.CHOOSE, Choose((9,)), "cant-stop.md A.6"),
    (Phase.CHOOSE, Bank(), "cant-stop.md A.5.4"),
    (Phase.CHOOSE, RollAgain(), "cant-stop.md A.5.4"),
    (Phase.DECIDE, Roll((1, 2, 3, 4)), "cant-stop.md A.5"),
    (Phase.DECIDE, Choose((6, 8)), "cant-stop.md A.5"),
    (Phase.DECIDE, StartWith(1), "cant-stop.md A.3"),
    (Phase.OVER, Bank(), "cant-stop.md A.4"),
    (Phase.OVER, Roll((1, 2, 3, 4)), "cant-stop.md A.4"),
    (Phase.ROLL, "bank", "cant-stop.md A.5"),
]


@pytest.mark.parametrize("phase, action, rule", ILLEGAL, ids=[f"{p.value}-{a!r}" for p, a, _ in ILLEGAL])
def test_a5_illegal_actions_raise_naming_the_rule_and_change_nothing(phase, action, rule):
    if phase is Phase.FIRST_PLAYER:
        state = CantStopState.new(2)
    else:
        state = make(phase, markers={0: {6: 1}}, runners={7: 2}, dice=(1, 5, 2, 6))
    before = state.to_dict()
    with pytest.raises(IllegalMove) as error:
        state.apply(action)
    assert error.value.rule == rule and rule in str(error.value)
    assert state.to_dict() == before


# -- JSON and variants (A.9) ------------------------------------------------------------------------


def test_json_round_trip_of_state_and_actions():
    state = make(Phase.DECIDE, players=3, active=2, markers={0: {6: 3}, 2: {7: 5}}, claimed={12: 1},
                 runners={7: 8, 4: 2}, dice=(2, 2, 5, 3), columns_to_win=2, pairing_rule="must_maximize_runners")
    assert CantStopState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    for action in (StartWith(1), Roll((1, 2, 3, 4)), Choose((7, 7)), RollAgain(), Bank()):
        assert action_from_dict(json.loads(json.dumps(action_to_dict(action)))) == action
    with pytest.raises(ValueError):
        CantStopState.from_dict({"game": "cant-stop"})
    with pytest.raises(ValueError):
        action_from_dict({"type": "jump"})


def test_a9_variant_parsing_from_strings():
    config = CantStopConfig.from_variant({"columns_to_win": "2", "num_runners": "4", "auto_stop_on_win": "yes",
                                          "pairing_rule": "must_maximize_runners", "first_player": "manual",
                                          "column_heights": "1,2,3,4,5,6,5,4,3,2,1"})
    assert (config.columns_to_win, config.num_runners, config.auto_stop_on_win) == (2, 4, True)
    assert config.column_heights == (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1) and config.first_player == "manual"
    assert CantStopConfig.from_variant({}) == CantStopConfig()


@pytest.mark.parametrize("settings, words", [
    ({"colour": "red"}, "unknown Can't Stop variant key 'colour'"),
    ({"columns_to_win": "three"}, "columns_to_win"),
    ({"columns_to_win": "0"}, "columns_to_win must be 1-11"),
    ({"num_runners": "12"}, "num_runners must be 1-11"),
    ({"pairing_rule": "greedy"}, "pairing_rule must be one of"),
    ({"first_player": "oldest"}, "first_player must be one of"),
    ({"auto_stop_on_win": "maybe"}, "auto_stop_on_win"),
    ({"column_heights": "3,5,7"}, "column_heights must be 11 heights"),
])
def test_a9_variant_errors_name_the_key(settings, words):
    with pytest.raises(VariantError, match=words):
        CantStopConfig.from_variant(settings)


@pytest.mark.parametrize("players", [0, 5])
def test_a1_player_count_outside_1_to_4_is_refused(players):
    with pytest.raises(VariantError, match="1 to 4 players"):
        CantStopState.new(players)


# -- Odds (companion/games/cant_stop/odds.py) -------------------------------------------------------------------------


def test_odds_published_figures():
    assert odds.bust_probability_for_columns([6, 7, 8]) == Fraction(13, 162)
    assert odds.bust_probability_for_columns([2, 3, 12]) == Fraction(91, 162)
    with pytest.raises(ValueError):
        odds.bust_probability_for_columns([13])


def _brute_force_bust(state: CantStopState) -> Fraction:
    """Independent count over all 1296 ordered rolls: a roll busts when no total of any split is
    usable by A.6 on its own (open column, and a runner below the top or a free runner to enter)."""
    free = state.config.num_runners - len(state.runner_map())

    def usable(total: int) -> bool:
        if state.owner(total) is not None:
            return False
        runner = state.runner(total)
        return runner < state.height(total) if runner else free > 0

    busts = 0
    for d in itertools.product(range(1, 7), repeat=4):
        splits = ((d[0] + d[1], d[2] + d[3]), (d[0] + d[2], d[1] + d[3]), (d[0] + d[3], d[1] + d[2]))
        busts += not any(usable(t) for split in splits for t in split)
    return Fraction(busts, 1296)


@pytest.mark.parametrize("kwargs", [
    {"runners": {6: 2, 7: 1, 8: 4}},
    {"runners": {2: 1, 3: 2, 12: 1}},
    {"runners": {6: 11, 7: 3}, "claimed": {5: 1, 9: 1}},
    {"runners": {6: 11, 7: 13, 8: 11}},
    {"runners": {4: 2}, "claimed": {c: 1 for c in (2, 3, 5, 6, 7, 8)}, "num_runners": 2},
    {},
])
def test_odds_bust_probability_from_a_state_matches_brute_force(kwargs):
    state = make(Phase.DECIDE, **kwargs)
    assert odds.bust_probability(state) == _brute_force_bust(state)


def test_odds_three_runners_on_6_7_8_match_the_column_figure():
    state = make(Phase.DECIDE, runners={6: 3, 7: 3, 8: 3})
    assert odds.bust_probability(state) == Fraction(13, 162)
