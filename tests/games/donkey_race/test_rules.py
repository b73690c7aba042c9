"""Donkey card race rules: one test per DEFAULT / CONFIG of donkey-race.md (section cited in each name)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.errors import IllegalMove, VariantError
from companion.games import CHANCE, TERMINAL
from companion.games.donkey_race import (DONKEY, JOKER, UNKNOWN, DonkeyRaceConfig, DonkeyRaceState, Draw, FirstLeader,
    Pass, Phase, Play, Reshuffle, action_from_dict, action_to_dict, set_value)


def table(hands, *, leader=0, config=None, points=None, deck=None, discard=(), **kw) -> DonkeyRaceState:
    """A full state in PLAY with the given hands, ``leader`` to lead round 1."""
    config = config or DonkeyRaceConfig()
    n = len(hands)
    hands = tuple(tuple(sorted(h)) for h in hands)
    if deck is None:
        rest = list(config.composition())
        for card in [c for h in hands for c in h] + list(discard):
            rest.remove(card)
        deck = tuple(rest)
    points = tuple(points or (0,) * n)
    return replace(DonkeyRaceState.new(n, config), phase=Phase.PLAY, hands=hands, deck=tuple(sorted(deck)),
                   discard=tuple(sorted(discard)), draw_queue=(), round_no=1, leader=leader, active=leader,
                   points=points, positions=points, **kw)


def run(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


# -- D.2 components ------------------------------------------------------------------------------------


def test_d2_default_deck_is_1_to_13_times_8_plus_the_donkey_no_jokers():
    config = DonkeyRaceConfig()
    cards = config.composition()
    assert len(cards) == 105 and cards.count(DONKEY) == 1 and cards.count(JOKER) == 0
    assert all(cards.count(v) == 8 for v in range(1, 14))
    assert config.track_length == 20 and config.hand_size == 3 and config.top_value == 13


def test_d2_deck_is_data_and_variants_parse_from_strings():
    config = DonkeyRaceConfig.from_variant({"deck": "1-10x4,11-12x2", "jokers": "2", "donkey": "no",
                                            "track_length": "12", "exact_finish": "true"})
    assert config.deck == tuple((v, 4) for v in range(1, 11)) + ((11, 2), (12, 2))
    assert len(config.composition()) == 46 and config.top_value == 13  # a lone joker is max + 1 (D.4.3)
    assert config.track_length == 12 and config.exact_finish is True and config.donkey is False
    assert DonkeyRaceConfig.from_dict(config.to_dict()) == config


@pytest.mark.parametrize("settings", [{"track_length": "0"}, {"jokers": "11"}, {"refill_mode": "draw_3"},
                                      {"colour": "red"}, {"special_spaces": "5"}, {"deck": "1-3x8,2x1"},
                                      {"donkey_mode": "kramer_round", "donkey": "false"}, {"hand_size": "x"}])
def test_d2_bad_variants_raise_naming_the_key(settings):
    with pytest.raises(VariantError):
        DonkeyRaceConfig.from_variant(settings)


def test_d2_two_to_four_players():
    for n in (1, 5):
        with pytest.raises(VariantError, match="D.2"):
            DonkeyRaceState.new(n)


# -- D.3 setup -----------------------------------------------------------------------------------------


def test_d3_deal_three_each_round_robin_then_the_donkey_holder_leads():
    state = DonkeyRaceState.new(2)
    assert state.current_player == CHANCE and state.draw_queue == (0, 1, 0, 1, 0, 1)
    state = run(state, Draw(5), Draw(DONKEY), Draw(5), Draw(9), Draw(1), Draw(9))
    assert state.hands == ((1, 5, 5), (DONKEY, 9, 9)) and len(state.deck) == 99
    assert state.phase is Phase.PLAY and state.leader == 1 and state.current_player == 1


def test_d3_nobody_holds_the_donkey_the_players_choose():
    state = run(DonkeyRaceState.new(2), *[Draw(v) for v in (5, 6, 7, 8, 9, 10)])
    assert state.phase is Phase.FIRST_LEADER and state.current_player == CHANCE
    assert [a for a, _ in state.chance_outcomes()] == [FirstLeader(0), FirstLeader(1)]
    assert state.apply(FirstLeader(1)).active == 1


def test_d3_the_donkey_holder_cannot_be_passed_over():
    state = table([(DONKEY, 2, 3), (4, 5, 6)])
    with pytest.raises(IllegalMove, match="D.3.3"):
        replace(state, phase=Phase.FIRST_LEADER, round_no=0).apply(FirstLeader(1))


def test_d3_table_side_the_player_showing_the_donkey_leads():
    state = run(DonkeyRaceState.new(3, hidden=True), *[Draw(UNKNOWN)] * 9)
    assert state.phase is Phase.FIRST_LEADER and FirstLeader(2, True) in state.legal_actions()
    state = state.apply(FirstLeader(2, donkey=True))
    assert sorted(state.hands[2]) == sorted((DONKEY, UNKNOWN, UNKNOWN)) and DONKEY not in state.pool
    assert state.active == 2


# -- D.4 rounds ----------------------------------------------------------------------------------------


def test_d4_1_the_leader_fixes_the_count_and_must_lead_by_default():
    state = table([(7, 7, 2), (8, 8, 9), (3, 4, 5)])
    assert Pass() not in state.legal_actions()
    with pytest.raises(IllegalMove, match="D.4.1"):
        state.apply(Pass())
    state = state.apply(Play((7, 7)))
    assert state.count == 2 and state.active == 1
    with pytest.raises(IllegalMove, match="D.4.2"):
        state.apply(Play((9,)))
    assert set(state.legal_actions()) == {Play((8, 8)), Pass()}


def test_d4_1_config_leader_may_pass():
    state = table([(7, 7, 2), (8, 8, 9), (3, 4, 5)], config=DonkeyRaceConfig(leader_may_pass=True))
    state = run(state, Pass(), Play((9,)))
    assert state.count == 1 and state.high_seat == 1


def test_d4_1_at_most_hand_size_cards_of_one_value():
    state = table([(7, 7, 2), (8, 8, 9)])
    assert Play((7, 7)) in state.legal_actions() and Play((2, 7)) not in state.legal_actions()
    with pytest.raises(IllegalMove, match="D.5"):
        state.apply(Play((2, 7)))


def test_d4_2_each_follower_acts_once_and_may_pass_when_able():
    state = table([(7, 1, 1), (8, 2, 2), (9, 3, 3)])
    state = run(state, Play((7,)), Pass(), Play((9,)))  # seat 1 could raise with 8 but passes
    assert state.phase is Phase.DRAW and state.last_round["highest"] == 2
    assert state.points == (1, 0, 2)  # D.4.5: highest 2, played 1, passed 0
    assert state.leader == 2 and state.draw_queue == (2, 0)  # D.4.6-8: highest draws first and leads


def test_d4_2_config_must_raise_if_able():
    state = table([(7, 1, 1), (8, 2, 2), (9, 3, 3)], config=DonkeyRaceConfig(must_raise_if_able=True))
    state = state.apply(Play((7,)))
    with pytest.raises(IllegalMove, match="D.4.2"):
        state.apply(Pass())
    weak = table([(7, 1, 1), (2, 2, 3), (9, 3, 3)], config=DonkeyRaceConfig(must_raise_if_able=True))
    assert weak.apply(Play((7,))).legal_actions() == (Pass(),)


def test_d4_3_two_players_alternate_and_a_pass_ends_the_round():
    state = table([(2, 5, 9), (3, 6, 10)])
    state = run(state, Play((2,)), Play((3,)), Play((5,)), Play((6,)), Play((9,)))
    assert state.active == 1 and state.phase is Phase.PLAY
    state = state.apply(Pass())
    assert state.last_round["highest"] == 0 and state.points == (2, 1)  # D.7.9: beaten then passed: +1


def test_d4_3_two_players_an_unbeatable_play_ends_the_round():
    state = table([(2, 13, 9), (3, 6, 10)])
    state = run(state, Play((2,)), Play((3,)), Play((13,)))
    assert state.phase is Phase.DRAW and state.points == (2, 1)


def test_d4_3_a_lone_joker_is_the_top_value_and_unbeatable():
    config = DonkeyRaceConfig(jokers=4)
    assert config.top_value == 14 and set_value((JOKER,), config) == 14 and set_value((JOKER, 9), config) == 9
    state = table([(2, JOKER, 9), (3, 6, 13)], config=config)
    state = run(state, Play((2,)), Play((13,)), Play((JOKER,)))
    assert state.last_round["highest"] == 0 and state.points == (2, 1)


def test_d4_3_config_max_only_a_pass_does_not_end_the_round():
    state = table([(2, 5, 9), (3, 6, 10)], config=DonkeyRaceConfig(two_player_round_end="max_only"))
    state = run(state, Play((2,)), Play((3,)), Pass())
    assert state.phase is Phase.PLAY and state.active == 1
    state = run(state, Play((6,)), Pass(), Pass())  # two passes in a row end it
    assert state.last_round["highest"] == 1 and state.points == (1, 2)


def test_d4_4_played_cards_go_to_the_discard_and_d4_6_refill_up_to_three():
    state = table([(7, 1, 1), (8, 2, 2), (9, 3, 3)])
    state = run(state, Play((1, 1)), Play((2, 2)), Play((3, 3)))
    assert state.discard == (1, 1, 2, 2, 3, 3) and state.draw_queue == (2, 2, 0, 0, 1, 1)


def test_d4_6_config_draw_n_draws_three_new_cards():
    state = table([(7, 1, 1), (8, 2, 2), (9, 3, 3)], config=DonkeyRaceConfig(refill_mode="draw_n"))
    state = run(state, Play((1,)), Pass(), Pass())
    assert state.draw_queue == (0, 0, 0, 1, 1, 1, 2, 2, 2)


def test_d4_6_config_refill_order_seat_order():
    state = table([(7, 1, 1), (8, 2, 2), (9, 3, 3)], config=DonkeyRaceConfig(refill_order="seat_order"))
    assert run(state, Play((1,)), Pass(), Play((3,))).draw_queue == (0, 2)  # default: (2, 0)


def test_d4_7_empty_draw_pile_the_discards_are_reshuffled_mid_refill():
    state = table([(7, 1, 1), (8, 2, 2), (9, 3, 3)], deck=(5,), discard=(4, 4))
    state = run(state, Play((1,)), Pass(), Play((3,)))
    assert state.draw_queue == (2, 0) and state.phase is Phase.DRAW
    state = state.apply(Draw(5))
    assert state.phase is Phase.RESHUFFLE and state.legal_actions() == (Reshuffle(),)
    state = state.apply(Reshuffle())
    assert state.deck == (1, 3, 4, 4) and state.discard == () and state.reshuffles == 1
    with pytest.raises(IllegalMove):
        state.apply(Reshuffle())


# -- D.5 values ----------------------------------------------------------------------------------------


def test_d5_equal_value_does_not_beat_by_default():
    state = table([(7, 1, 1), (7, 2, 2), (9, 3, 3)]).apply(Play((7,)))
    with pytest.raises(IllegalMove, match="higher than 7"):
        state.apply(Play((7,)))


def test_d5_config_allow_equal_raise_the_later_equal_play_is_highest():
    state = table([(7, 1, 1), (7, 2, 2), (4, 3, 3)], config=DonkeyRaceConfig(allow_equal_raise=True))
    state = run(state, Play((7,)), Play((7,)), Pass())
    assert state.last_round["highest"] == 1  # D.7.8: our rule for the open point


def test_d5_donkey_is_a_plain_card_of_value_0_played_alone():
    state = table([(DONKEY, 1, 1), (2, 2, 3)])
    assert Play((DONKEY,)) in state.legal_actions() and Play((DONKEY, 1)) not in state.legal_actions()
    state = state.apply(Play((DONKEY,)))
    assert state.high_value == 0 and Play((2,)) in state.legal_actions()


def test_d5_config_start_marker_only_sets_the_donkey_aside():
    config = DonkeyRaceConfig(donkey_mode="start_marker_only")
    state = run(DonkeyRaceState.new(2, config), Draw(DONKEY), Draw(5), Draw(4), Draw(6), Draw(4), Draw(7))
    assert state.phase is Phase.DRAW and state.removed == (DONKEY,) and state.draw_queue == (0,)
    state = state.apply(Draw(9))
    assert state.hands[0] == (4, 4, 9) and state.active == 0


def test_d5_config_kramer_round_everyone_plays_one_card_highest_takes_them():
    config = DonkeyRaceConfig(donkey_mode="kramer_round", jokers=1)
    state = table([(DONKEY, 1, 1), (2, 2, 3), (JOKER, 4, 5)], config=config).apply(Play((DONKEY,)))
    assert state.donkey_round and Pass() not in state.legal_actions()
    state = run(state, Play((2,)), Play((JOKER,)))  # a joker counts 1 in a donkey round
    assert state.last_round["highest"] == 1
    assert sorted(state.hands[1]) == sorted((DONKEY, 2, 3, 2, JOKER)) and state.discard == ()
    assert state.donkey_blocked and state.leader == 1


def test_d5_jokers_fill_a_set():
    state = table([(JOKER, 9, 2), (10, 10, 3)], config=DonkeyRaceConfig(jokers=2))
    assert Play((9, JOKER)) in state.legal_actions()
    state = state.apply(Play((9, JOKER)))
    assert state.count == 2 and state.high_value == 9 and Play((10, 10)) in state.legal_actions()


# -- D.6 end of game -----------------------------------------------------------------------------------


def test_d6_most_points_win_overshoot_counts():
    state = table([(7, 1, 1), (8, 2, 2), (9, 3, 3)], points=(19, 18, 0))
    state = run(state, Play((7,)), Play((8,)), Pass())
    assert state.phase is Phase.OVER and state.current_player == TERMINAL
    assert state.points == (20, 20, 0) and state.winners == (1,)  # tie broken by the round's highest
    assert state.outcome().winner == 1 and state.outcome().placings[0] == 1


def test_d6_tie_without_the_highest_is_shared():
    state = table([(7, 1, 1), (8, 2, 2), (9, 3, 3)], points=(19, 19, 0))
    state = run(state, Play((7,)), Play((8,)), Play((9,)))
    assert state.points == (20, 20, 2) and state.winners == (0, 1) and state.outcome().winner is None


def test_d6_config_tie_break_shared():
    state = table([(7, 1, 1), (8, 2, 2), (9, 3, 3)], points=(19, 18, 0),
                  config=DonkeyRaceConfig(tie_break="shared"))
    assert run(state, Play((7,)), Play((8,)), Pass()).winners == (0, 1)


def test_d6_config_exact_finish_caps_the_position_first_to_land_wins():
    state = table([(7, 1, 1), (8, 2, 2), (9, 3, 3)], points=(19, 10, 0),
                  config=DonkeyRaceConfig(exact_finish=True))
    state = run(state, Play((7,)), Pass(), Play((9,)))
    assert state.positions == (20, 10, 2) and state.points == (20, 10, 2) and state.winners == (0,)
    capped = table([(7, 1, 1), (8, 2, 2)], points=(19, 10), config=DonkeyRaceConfig(exact_finish=True))
    capped = run(capped, Play((7,)), Pass())
    assert capped.positions == (20, 10) and capped.points == (21, 10)


def test_d7_14_config_advance_by_cards_played():
    state = table([(7, 7, 1), (8, 8, 2), (9, 3, 3)], config=DonkeyRaceConfig(advance_mode="cards_played"))
    assert run(state, Play((7, 7)), Play((8, 8)), Pass()).points == (2, 2, 0)


# -- hidden information --------------------------------------------------------------------------------


def test_table_side_a_play_must_still_fit_the_unseen_cards():
    config = DonkeyRaceConfig(deck=((1, 8), (13, 1)))
    state = run(DonkeyRaceState.new(3, config, hidden=True), *[Draw(UNKNOWN)] * 9, FirstLeader(0))
    state = state.apply(Play((13,)))
    assert state.hands[0] == (UNKNOWN, UNKNOWN) and 13 not in state.pool
    with pytest.raises(IllegalMove, match="hidden information"):
        state.apply(Play((13,)))  # the only 13 is on the table


def test_observation_hides_other_hands_and_the_pile():
    state = table([(7, 1, 1), (8, 2, 2)])
    seen = state.observation(0)
    assert seen.hands == ((1, 1, 7), (UNKNOWN,) * 3) and set(seen.deck) == {UNKNOWN}
    assert sorted(seen.pool) == sorted(state.deck + state.hands[1])
    assert seen.observation(1).hands == ((UNKNOWN,) * 3,) * 2
    assert seen.apply(Play((7,))).apply(Play((8,))).high_seat == 1


def test_json_round_trip_and_actions():
    state = table([(7, 1, 1), (8, 2, 2)]).apply(Play((7,)))
    assert DonkeyRaceState.from_dict(state.to_dict()) == state
    for action in (Draw(UNKNOWN), Reshuffle(), FirstLeader(1, True), Play((9, JOKER)), Pass()):
        assert action_from_dict(action_to_dict(action)) == action
    with pytest.raises(ValueError):
        action_from_dict({"type": "fold"})


def test_d7_10_both_piles_empty_the_remaining_draws_lapse():
    config = DonkeyRaceConfig(deck=((1, 3), (2, 2)), donkey_mode="kramer_round")
    state = table([(DONKEY, 1, 1), (1, 2, 2)], config=config, deck=())
    state = run(state, Play((DONKEY,)), Play((2,)))  # Ben takes the donkey round's cards (Kramer)
    assert state.deck == () and state.discard == () and state.phase is Phase.PLAY
    assert state.hands == ((1, 1), (DONKEY, 1, 2, 2)) and state.draw_queue == () and state.active == 1
    assert state.donkey_blocked
    with pytest.raises(IllegalMove, match="at once"):
        state.apply(Play((DONKEY,)))
